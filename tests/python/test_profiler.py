"""torch.autograd.profiler / torch.profiler: the structure of what is recorded and reported
(never the times). Schedules checked against PyTorch 2.13's action sequences."""

import json

import pytest

import ferrograd as torch
from ferrograd.autograd.profiler import profile, record_function


def run_step():
    x = torch.ones(4, 3, requires_grad=True)
    w = torch.ones(3, 2, requires_grad=True)
    with record_function("my_block"):
        y = (x @ w).relu() * 2
    y.sum().backward()


def test_ops_backward_nodes_and_ranges_are_recorded():
    with profile() as prof:
        run_step()
    names = {e.name for e in prof.events()}
    assert {"aten::mul", "aten::relu", "aten::bmm", "aten::sum", "my_block"} <= names
    assert {"MulBackward0", "ReluBackward0", "MmBackward0",
            "autograd::engine::evaluate_function: MulBackward0"} <= names
    for e in prof.events():
        assert e.cpu_time_total >= 0 and e.self_cpu_time_total >= -1e-6
    # ops run inside the user range are its children
    block = next(e for e in prof.events() if e.name == "my_block")
    assert any(c.name == "aten::mul" for c in block.cpu_children)
    assert block.self_cpu_time_total <= block.cpu_time_total


def test_key_averages_and_table():
    with profile(record_shapes=True) as prof:
        run_step()
        run_step()
    avg = {a.key: a for a in prof.key_averages()}
    assert avg["my_block"].count == 2
    assert avg["MulBackward0"].count == 2
    table = prof.key_averages().table(sort_by="self_cpu_time_total", row_limit=5)
    lines = table.splitlines()
    assert lines[0].startswith("-") and "Self CPU %" in lines[1] and "# of Calls" in lines[1]
    assert lines[-1].startswith("Self CPU time total: ")
    assert len([ln for ln in lines if ln.strip() and not ln.startswith("-")]) == 1 + 5 + 1
    by_shape = prof.key_averages(group_by_input_shape=True)
    assert any(a.key == "aten::bmm" and a.input_shapes == [[1, 4, 3], [1, 3, 2]] for a in by_shape)
    with pytest.raises(AttributeError):
        prof.key_averages().table(sort_by="no_such_column")


def test_chrome_trace(tmp_path):
    with profile() as prof:
        run_step()
    path = tmp_path / "trace.json"
    prof.export_chrome_trace(str(path))
    trace = json.loads(path.read_text())
    ev = trace["traceEvents"]
    assert ev and all(e["ph"] == "X" and e["dur"] >= 0 for e in ev)
    assert any(e["name"] == "my_block" for e in ev)


def test_off_records_nothing_and_results_need_a_finished_run():
    run_step()
    with profile(enabled=False) as prof:
        run_step()
    with pytest.raises(RuntimeError, match="Profiler didn't finish running"):
        prof.key_averages()
    with profile() as p1:
        with pytest.raises(RuntimeError, match="already enabled"):
            profile().__enter__()
    assert not torch._C._profiler_enabled()
    assert p1.events() is not None


def test_torch_profiler_schedule_matches_pytorch():
    s = torch.profiler.schedule(wait=1, warmup=1, active=2, repeat=2, skip_first=1)
    assert [s(i).name for i in range(12)] == ["NONE", "NONE", "WARMUP", "RECORD", "RECORD_AND_SAVE", "NONE",
                                             "WARMUP", "RECORD", "RECORD_AND_SAVE", "NONE", "NONE", "NONE"]
    with pytest.warns(UserWarning, match="warmup"):
        s = torch.profiler.schedule(wait=0, warmup=0, active=1)
    assert [s(i).name for i in range(3)] == ["RECORD_AND_SAVE"] * 3


def test_torch_profiler_steps_and_trace_ready():
    traces = []
    sched = torch.profiler.schedule(wait=1, warmup=1, active=2, repeat=1)
    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU], schedule=sched,
                                on_trace_ready=lambda p: traces.append(p.key_averages())) as prof:
        for _ in range(6):
            with record_function("step_body"):
                run_step()
            prof.step()
    assert len(traces) == 1
    counts = {a.key: a.count for a in traces[0]}
    assert counts["step_body"] == 2   # only the two active steps
    with pytest.raises(RuntimeError, match="CPU time only"):
        torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA])


def test_supported_activities():
    assert torch.profiler.supported_activities() == {torch.profiler.ProfilerActivity.CPU}
    assert torch.profiler.kineto_available() is False
