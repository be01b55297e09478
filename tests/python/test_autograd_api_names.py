"""The public names of PyTorch 2.13's ``__all__`` in torch.autograd, torch.autograd.graph,
torch.autograd.profiler, torch.profiler and torch.utils.checkpoint, with PyTorch's behaviour.

Written as ``import ferrograd as torch``: the same file passes under PyTorch with ferrograd
replaced by torch; every expected value and message was recorded from PyTorch 2.13.
"""

import functools
import gzip
import json
import sqlite3
import threading
import warnings

import pytest

import ferrograd as torch
import ferrograd.autograd.profiler as aprof
import ferrograd.utils.checkpoint as cp
from ferrograd.autograd.graph import allow_mutation_on_saved_tensors


# ---- the names ---------------------------------------------------------------------------------

ALL = {
    "autograd": ["Function", "NestedIOFunction", "Variable", "backward", "detect_anomaly", "enable_grad",
                 "enforce_grad_layout_policy", "grad", "grad_mode", "gradcheck", "gradgradcheck", "inference_mode",
                 "no_grad", "set_detect_anomaly", "set_grad_enabled", "set_multithreading_enabled", "variable"],
    "autograd.graph": ["GradientEdge", "Node", "allow_mutation_on_saved_tensors", "disable_saved_tensors_hooks",
                       "get_gradient_edge", "increment_version", "region_activation_memory_budget",
                       "register_multi_grad_hook", "save_on_cpu", "saved_tensors_hooks",
                       "set_override_stale_capture_stream", "set_warn_on_accumulate_grad_stream_mismatch"],
    "autograd.profiler": ["EnforceUnique", "EventList", "FunctionEvent", "KinetoStepTracker", "MemRecordsAcc",
                          "emit_itt", "emit_nvtx", "load_nvprof", "parse_nvprof_trace", "profile",
                          "record_function"],
    "profiler": ["DeviceType", "ExecutionTraceObserver", "ProfilerAction", "ProfilerActivity", "kineto_available",
                 "profile", "record_function", "schedule", "supported_activities", "tensorboard_trace_handler"],
    "utils.checkpoint": ["CheckpointError", "CheckpointFunction", "CheckpointPolicy", "DefaultDeviceType",
                         "GraphExecGroup", "SAC_IGNORED_OPS", "SelectiveCheckpointContext", "check_backward_validity",
                         "checkpoint", "checkpoint_sequential", "create_selective_checkpoint_contexts",
                         "detach_variable", "get_device_states", "noop_context_fn", "set_checkpoint_debug_enabled",
                         "set_checkpoint_early_stop", "set_device_states"],
}


@pytest.mark.parametrize("mod", sorted(ALL))
def test_all_is_pytorchs(mod):
    m = torch
    for part in mod.split("."):
        m = getattr(m, part)
    assert sorted(m.__all__) == ALL[mod]
    for name in m.__all__:
        assert getattr(m, name) is not None


def test_same_objects_under_each_name():
    assert torch.autograd.NestedIOFunction is torch.autograd.function.NestedIOFunction
    assert torch.profiler.DeviceType is torch.autograd.DeviceType
    assert torch.profiler.record_function is torch.autograd.profiler.record_function
    assert issubclass(torch.autograd.NestedIOFunction, torch.autograd.Function)


# ---- NestedIOFunction ---------------------------------------------------------------------------

class Nested(torch.autograd.NestedIOFunction):
    def forward_extended(self, a, pair):
        self.save_for_backward(a, pair)
        return a * pair[0], (a + pair[1],)

    def backward_extended(self, g0, g1):
        return g0 * 2, (None, g1[0])


def make_nested():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PyTorch: "should not be instantiated" DeprecationWarning
        return Nested()


def test_nested_io_function_helpers():
    x = torch.tensor([1., 2.], requires_grad=True)
    pair = (torch.tensor([3., 4.]), torch.tensor([5., 6.]))
    f = make_nested()
    assert isinstance(f, torch.autograd.Function) and isinstance(f, torch.autograd.function.FunctionCtx)
    f._nested_input = (x, pair)
    out = f.forward(x)
    assert [o.tolist() for o in out] == [[3., 8.], [6., 8.]]
    assert not out[0].requires_grad  # forward_extended sees the tensors' .data
    assert not hasattr(f, "_nested_input")
    assert isinstance(f._nested_output, tuple) and isinstance(f._nested_output[1], tuple)
    assert [t.tolist() for t in f.to_save] == [[1., 2.], [3., 4.], [5., 6.]]
    assert isinstance(f._to_save_nested[1], tuple)
    grads = f.backward(torch.ones(2), torch.ones(2))
    assert [None if g is None else g.tolist() for g in grads] == [[2., 2.], None, [1., 1.]]
    # saved_tensors is empty until the engine binds the node: unflattening it fails as in PyTorch
    with pytest.raises(IndexError, match="tuple index out of range"):
        f.saved_tensors
    f.mark_dirty(x, {"k": x})
    assert len(f.dirty_tensors) == 2
    f.mark_non_differentiable([x], k=(x, None))
    assert len(f.non_differentiable) == 2
    with pytest.raises(ValueError, match="^Auto nesting doesn't know how to process an input object of type int. "
                                         "Accepted types: Tensors, or lists/tuples of them$"):
        f.mark_dirty(x, 3)
    with pytest.raises(ValueError, match="object of type str. Accepted types: Tensors"):
        f.save_for_backward("s")
    g = make_nested()
    g.save_for_backward()
    assert g.saved_tensors == ()


def test_nested_io_function_legacy_entry_points_raise():
    x = torch.tensor([1., 2.], requires_grad=True)
    pair = (torch.tensor([3., 4.]), torch.tensor([5., 6.]))
    f = make_nested()
    with pytest.raises(AttributeError, match="^'super' object has no attribute '_do_forward'$"):
        f(x, pair)
    assert f._nested_input[0] is x
    with pytest.raises(AttributeError, match="^'NestedBackward' object has no attribute '_nested_input'$"):
        Nested.apply(x, pair)
    with pytest.raises(AttributeError, match="^'super' object has no attribute '_do_backward'$"):
        f._do_backward((torch.ones(1),), True)
    assert f.retain_variables is True
    with pytest.raises(NotImplementedError):
        torch.autograd.NestedIOFunction.forward_extended(f, 1)
    with pytest.raises(NotImplementedError):
        torch.autograd.NestedIOFunction.backward_extended(f, 1)


# ---- set_multithreading_enabled / enforce_grad_layout_policy --------------------------------------

def layout_enforced():
    native = getattr(torch._C, "_is_grad_layout_enforcement_enabled", None)
    return native() if native is not None else torch.autograd._is_grad_layout_enforcement_enabled()


def in_other_thread(fn):
    out = []
    t = threading.Thread(target=lambda: out.append(fn()))
    t.start()
    t.join()
    return out[0]


def test_set_multithreading_enabled():
    mt = torch.autograd.is_multithreading_enabled
    assert mt() is True
    ctx = torch.autograd.set_multithreading_enabled(False)  # switches at construction
    try:
        assert mt() is False
        assert in_other_thread(mt) is True  # thread-local
        assert ctx.clone().mode is False
    finally:
        ctx.__exit__(None, None, None)
    assert mt() is True
    with torch.autograd.set_multithreading_enabled(False) as r:
        assert r is None and mt() is False
    assert mt() is True
    for bad in ("x", None, 1, 0):
        with pytest.raises(TypeError, match=f"^set_multithreading_enabled\\(\\): argument 'enabled' \\(position 1\\) "
                                            f"must be bool, not {type(bad).__name__}$"):
            torch.autograd.set_multithreading_enabled(bad)
    assert mt() is True
    # PyTorch's decorator form keeps the switch made at construction (no __call__ override)
    try:
        @torch.autograd.set_multithreading_enabled(False)
        def f():
            return mt()
        assert mt() is False and f() is False and mt() is False
    finally:
        torch.autograd.set_multithreading_enabled(True)
    assert mt() is True
    # the backward itself is unaffected
    x = torch.tensor([1., 2.], requires_grad=True)
    with torch.autograd.set_multithreading_enabled(False):
        (x * x).sum().backward()
    assert x.grad.tolist() == [2., 4.]


def test_enforce_grad_layout_policy():
    assert layout_enforced() is True
    with torch.autograd.enforce_grad_layout_policy(False):
        assert layout_enforced() is False
        assert in_other_thread(layout_enforced) is True
    assert layout_enforced() is True

    @torch.autograd.enforce_grad_layout_policy(False)
    def g():
        return layout_enforced()

    assert layout_enforced() is True  # as a decorator it switches only while g runs
    assert g() is False and layout_enforced() is True
    torch.autograd.enforce_grad_layout_policy(False)
    assert layout_enforced() is False
    torch.autograd.enforce_grad_layout_policy()
    assert layout_enforced() is True
    with pytest.raises(TypeError, match=r"^set_grad_layout_enforcement_enabled\(\): argument 'enabled' "
                                        r"\(position 1\) must be bool, not int$"):
        torch.autograd.enforce_grad_layout_policy(1)
    p = torch.zeros(2, 3, 4).permute(2, 0, 1).requires_grad_()
    with torch.autograd.enforce_grad_layout_policy(False):
        (p * torch.ones(4, 2, 3)).sum().backward()
    assert p.grad.tolist() == torch.ones(4, 2, 3).tolist()


def test_variable_is_a_class_every_tensor_belongs_to():
    from ferrograd.autograd import Variable
    from ferrograd.autograd.variable import VariableMeta

    x = Variable(torch.ones(2), requires_grad=True)
    assert type(x) is torch.Tensor and x.requires_grad and x.is_leaf
    assert isinstance(torch.ones(1), Variable) and not isinstance(3, Variable)
    assert type(Variable) is VariableMeta
    assert Variable().shape == (0,)
    with pytest.warns(UserWarning, match="volatile was removed and now has no effect"):
        Variable(torch.ones(1), volatile=True)


# ---- autograd.graph ------------------------------------------------------------------------------

def test_allow_mutation_on_saved_tensors():
    with allow_mutation_on_saved_tensors() as ctx:
        a = torch.ones(2, 3, requires_grad=True)
        b = a.clone()
        out = (b ** 2).sum()
        b.sin_()
        out.sum().backward()
        assert a.grad.tolist() == [[2., 2., 2.], [2., 2., 2.]]
        assert type(ctx).__name__ == "_AllowMutationOnSavedContext"
        w = torch.tensor([1., 2., 3.], requires_grad=True)
        x = torch.tensor([4., 5., 6.])
        y = (w * x).sum()
        x.mul_(10)
        y.backward()
        assert w.grad.tolist() == [4., 5., 6.]
    # outside it, a mutated saved tensor is an error again
    x = torch.tensor([1., 2.], requires_grad=True)
    y = x.clone()
    z = (y * y).sum()
    y.add_(1)
    with pytest.raises(RuntimeError, match="one of the variables needed for gradient computation has been modified"):
        z.backward()


def test_allow_mutation_on_saved_tensors_copies_only_on_write():
    # the counts are PyTorch 2.13's for the same program
    with allow_mutation_on_saved_tensors() as ctx:
        a = torch.ones(2, 3, requires_grad=True)
        b = a.clone()
        out = (b ** 2).sum()
        assert (len(ctx.original), len(ctx.cloned)) == (1, 0)  # saved, not copied
        b.sin_()
        assert (len(ctx.original), len(ctx.cloned)) == (1, 1)  # copied before the write
        b[0].mul_(3)  # a write through a view of the same storage: already copied
        assert (len(ctx.original), len(ctx.cloned)) == (1, 1)
        out.backward()
        assert a.grad.tolist() == [[2.0] * 3] * 2
        w = torch.tensor([1., 2., 3.], requires_grad=True)
        x = torch.tensor([4., 5., 6.])
        y = (w * x).sum()
        torch.mul(x, 10, out=x)  # out= writes are seen too
        y.backward()
        assert w.grad.tolist() == [4., 5., 6.]
        c = torch.randn(100, requires_grad=True)
        e = c.exp()
        z = (e * e).sum()
        assert len(ctx.cloned) == 0 or all(v.numel() != 100 for v in ctx.cloned.values())
        z.backward()
        # an optimizer step writes the parameters a graph saved
        p = torch.nn.Parameter(torch.tensor([1.0, -2.0]))
        loss = (p * p).sum()
        p.grad = torch.ones(2)
        torch.optim.SGD([p], lr=0.5).step()
        loss.backward()
        assert p.grad.tolist() == [1.0 + 2.0, 1.0 - 4.0]  # the gradient at the saved values


def test_allow_mutation_on_saved_tensors_errors():
    with allow_mutation_on_saved_tensors():
        a = torch.ones(2, 3, requires_grad=True)
        out = (a.clone() ** 2).sum()
    with pytest.raises(AssertionError, match="^Trying to backward outside of the 'allow_mutation_on_saved_tensors' "
                                             "contextin which the graph was originally recorded.$"):
        out.backward()
    with pytest.raises(RuntimeError, match="^allow_mutation_on_saved_tensors contexts cannot be nested$"):
        with allow_mutation_on_saved_tensors():
            with allow_mutation_on_saved_tensors():
                pass
    with allow_mutation_on_saved_tensors():  # usable again afterwards
        a = torch.tensor([3.], requires_grad=True)
        (a * a).sum().backward()
    assert a.grad.tolist() == [6.]


def test_region_activation_memory_budget():
    budget = torch.autograd.graph.region_activation_memory_budget
    for bad, name in (("x", "str"), (True, "bool"), (None, "NoneType")):
        with pytest.raises(TypeError, match=f"^torch.autograd.graph.region_activation_memory_budget: expects a "
                                            f"float, got {name}$"):
            budget(bad)
    for bad in (1.5, -0.1):
        with pytest.raises(ValueError, match=f"must be in \\[0, 1\\], got {bad}$"):
            budget(bad)
    for ok in (0, 1, 0.5, 0.0):
        with pytest.raises(RuntimeError, match="^torch.autograd.graph.region_activation_memory_budget can only be "
                                               "used inside a torch.compile region; it has no effect in eager mode.$"):
            budget(ok)


def test_stream_switches():
    g = torch.autograd.graph
    assert g.set_warn_on_accumulate_grad_stream_mismatch(False) is None
    assert g.set_warn_on_accumulate_grad_stream_mismatch(True) is None
    assert g.set_override_stale_capture_stream(True) is None
    assert g.set_override_stale_capture_stream(False) is None
    with pytest.raises(RuntimeError, match="^enabled must be a bool, but got str$"):
        g.set_warn_on_accumulate_grad_stream_mismatch("x")
    with pytest.raises(RuntimeError, match="^enabled must be a bool, but got NoneType$"):
        g.set_override_stale_capture_stream(None)


# ---- autograd.profiler ----------------------------------------------------------------------------

def test_device_type():
    D = torch.profiler.DeviceType
    assert [(n, int(m)) for n, m in D.__members__.items()] == [
        ("CPU", 0), ("CUDA", 1), ("MKLDNN", 2), ("OPENGL", 3), ("OPENCL", 4), ("IDEEP", 5), ("HIP", 6), ("FPGA", 7),
        ("MAIA", 8), ("XLA", 9), ("Vulkan", 10), ("Metal", 11), ("XPU", 12), ("MPS", 13), ("MTIA", 19), ("Meta", 14),
        ("HPU", 15), ("VE", 16), ("Lazy", 17), ("IPU", 18), ("PrivateUse1", 20)]
    assert repr(D.CPU) == "<DeviceType.CPU: 0>" and str(D.CUDA) == "DeviceType.CUDA"
    assert D(1) == D.CUDA and D.CUDA.name == "CUDA" and D.CUDA.value == 1
    assert D.CPU != 0 and hash(D.CUDA) == 1


def test_enforce_unique():
    u = aprof.EnforceUnique()
    u.see(1, 2)
    u.see(2, 1)
    with pytest.raises(RuntimeError, match=r"^duplicate key: \(1, 2\)$"):
        u.see(1, 2)


def test_kineto_step_tracker():
    K = aprof.KinetoStepTracker
    start = K.current_step()
    try:
        K.init_step_count("fg_test_a")
        assert K.increment_step("fg_test_a") == start + 1
        assert K.increment_step("fg_test_b") == start + 2  # b starts at the current step
        assert K.increment_step("fg_test_a") == start + 2  # a catches up: no new global step
        assert K.current_step() == start + 2
        K._step_dict["fg_test_a"] += 2
        with pytest.warns(UserWarning, match="Profiler step count has increased more than 1"):
            assert K.increment_step("fg_test_a") == start + 5
    finally:
        assert K.erase_step_count("fg_test_a") is True
        assert K.erase_step_count("fg_test_b") is True
    assert K.erase_step_count("fg_test_a") is False


class Rec:
    def __init__(self, ns):
        self.ns = ns

    def start_ns(self):
        return self.ns


def test_mem_records_acc():
    recs = [(Rec(30), "c"), (Rec(10), "a"), (Rec(20), "b"), (Rec(40), "d")]
    acc = aprof.MemRecordsAcc(recs)
    assert [r[1] for r in acc.in_interval(10, 30)] == ["a", "b", "c"]
    assert [r[1] for r in acc.in_interval(11, 39)] == ["b", "c"]
    assert list(aprof.MemRecordsAcc([]).in_interval(0, 100)) == []


def test_emit_itt():
    with aprof.emit_itt(enabled=False) as r:
        assert r is None
    e = aprof.emit_itt()
    itt = getattr(torch.profiler, "itt", None)
    if itt is not None and itt.is_available():
        with e:
            pass
    else:
        with pytest.raises(RuntimeError, match="^Can't use ITT profiler - PyTorch was compiled without ITT$"):
            with e:
                pass
    with pytest.raises(RuntimeError, match="^ITT annotation context manager is not reentrant$"):
        e.__enter__()


def test_emit_nvtx():
    with aprof.emit_nvtx(enabled=False) as r:
        assert r is None
    if torch.cuda.is_available():
        pytest.skip("needs a machine without CUDA")
    e = aprof.emit_nvtx()
    with pytest.raises((AssertionError, RuntimeError)):  # PyTorch CPU build: "Torch not compiled with CUDA enabled"
        with e:
            pass
    with pytest.raises(RuntimeError, match="^NVTX annotation context manager is not reentrant$"):
        e.__enter__()


def nvprof_db(path):
    c = sqlite3.connect(path)
    c.executescript("""
    CREATE TABLE StringTable (_id_ INTEGER PRIMARY KEY, value TEXT);
    CREATE TABLE CUPTI_ACTIVITY_KIND_MARKER (id INTEGER, name INTEGER, timestamp INTEGER);
    CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (_id_ INTEGER PRIMARY KEY, cbid INTEGER, start INTEGER, end INTEGER,
                                              correlationId INTEGER);
    CREATE TABLE CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL (start INTEGER, end INTEGER, name INTEGER, correlationId INTEGER);
    INSERT INTO StringTable VALUES (1, 'aten::mul, seq = 0'), (2, '_Z10add_kernelPfS_'), (3, 'aten::add, seq = 1'),
                                   (4, '_Z3fooi');
    INSERT INTO CUPTI_ACTIVITY_KIND_MARKER VALUES (10, 3, 500), (10, 0, 900), (7, 1, 100), (7, 0, 400),
                                                  (12, 2, 950), (12, 0, 990);
    INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (1, 211, 150, 200, 41), (2, 211, 250, 300, 42), (3, 211, 600, 650, 43);
    INSERT INTO CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL VALUES (210, 260, 2, 41), (310, 330, 4, 42), (700, 790, 2, 43);
    """)
    c.commit()
    c.close()


def test_parse_and_load_nvprof(tmp_path):
    path = str(tmp_path / "trace.nvvp")
    nvprof_db(path)
    evs = aprof.parse_nvprof_trace(path)
    assert type(evs) is list
    got = [(e.id, e.node_id, e.name, e.thread, e.time_range.start, e.time_range.end,
            [tuple(k) for k in e.kernels], e.device_type) for e in evs]
    cpu = torch.profiler.DeviceType.CPU
    assert got == [(7, 0, "aten::mul, seq = 0", 0, 100, 400, [(2, 0, 50), (4, 0, 20)], cpu),
                   (10, 0, "aten::add, seq = 1", 0, 500, 900, [(2, 0, 90)], cpu),
                   (12, 0, "add_kernel(float*, float*)", 0, 950, 990, [], cpu)]
    assert [k.name for k in evs[0].kernels] == [2, 4] and [k.duration for k in evs[0].kernels] == [50, 20]
    assert evs[0].time_range.elapsed_us() == 300
    loaded = aprof.load_nvprof(path)
    assert type(loaded).__name__ == "EventList" and [e.name for e in loaded] == [e.name for e in evs]


def test_parse_nvprof_trace_errors(tmp_path):
    path = str(tmp_path / "dup.nvvp")
    nvprof_db(path)
    c = sqlite3.connect(path)
    c.execute("INSERT INTO CUPTI_ACTIVITY_KIND_MARKER VALUES (7, 1, 120)")
    c.commit()
    c.close()
    with pytest.raises(RuntimeError, match=r"^duplicate key: \(7,\)$"):
        aprof.parse_nvprof_trace(path)
    path = str(tmp_path / "cbid.nvvp")
    nvprof_db(path)
    c = sqlite3.connect(path)
    c.execute("UPDATE CUPTI_ACTIVITY_KIND_RUNTIME SET cbid = 13 WHERE _id_ = 3")
    c.commit()
    c.close()
    with pytest.raises(AssertionError, match="^Expected cbid to be 211, but got 13$"):
        aprof.parse_nvprof_trace(path)


# ---- torch.profiler.ExecutionTraceObserver --------------------------------------------------------

ET_ATTRS = ["rf_id", "fw_parent", "seq_id", "scope", "tid", "fw_tid", "op_schema", "kernel_backend", "kernel_file",
            "tensor_range"]


def check_et(path, opener=open):
    with opener(path, "rt") as fh:
        d = json.load(fh)
    assert {"schema", "pid", "time", "start_ts", "finish_ts", "nodes"} <= set(d)
    assert d["schema"] == "1.1.1-chakra.0.0.4"
    nodes = d["nodes"]
    by_id = {n["id"]: n for n in nodes}
    assert len(by_id) == len(nodes)
    for n in nodes:
        assert set(n) == {"id", "name", "ctrl_deps", "inputs", "outputs", "attrs"}
        assert [a["name"] for a in n["attrs"]] == ET_ATTRS
        assert set(n["inputs"]) == {"values", "shapes", "types", "strides"}
        assert n["ctrl_deps"] in by_id
    assert nodes[-1]["name"] == "[pytorch|profiler|execution_trace|process]" and nodes[-1]["id"] == 1
    assert any(n["name"] == "[pytorch|profiler|execution_trace|thread]" and n["ctrl_deps"] == 1 for n in nodes)
    return nodes, by_id


def test_execution_trace_observer(tmp_path):
    ET = torch.profiler.ExecutionTraceObserver
    et = ET()
    assert et.is_registered is False and et.is_running() is False and et.get_output_file_path() is None
    et.start()
    assert et.is_running() is False  # not registered: start does nothing
    path = str(tmp_path / "et.json")
    assert et.register_callback(path) is et
    assert et.is_registered and et.get_output_file_path() == path
    et.register_callback(str(tmp_path / "other.json"))  # already registered: kept
    assert et.get_output_file_path() == path
    et.start()
    assert et.is_running()
    x = torch.ones(2, 3, requires_grad=True)
    with torch.profiler.record_function("fg_block"):
        y = (x * 2).sum()
    y.backward()
    et.stop()
    assert not et.is_running()
    z = x.detach() - 1  # not recorded
    et.start()
    w = x.detach().exp()
    et.stop()
    et.unregister_callback()
    assert not et.is_registered
    nodes, by_id = check_et(path)
    names = [n["name"] for n in nodes]
    assert "aten::mul" in names and "aten::exp" in names and "aten::sub" not in names
    block = next(n for n in nodes if n["name"] == "fg_block")
    mul = next(n for n in nodes if n["name"] == "aten::mul")
    assert mul["ctrl_deps"] == block["id"]
    assert names.index("aten::mul") < names.index("fg_block")  # written when the op ends
    attrs = {a["name"]: a["value"] for a in block["attrs"]}
    assert attrs["scope"] == 7  # at::RecordScope::USER_SCOPE
    assert any(n["name"] == "MulBackward0" and {a["name"]: a["value"] for a in n["attrs"]}["scope"] == 1
               for n in nodes)
    assert z.tolist() == [[0., 0., 0.], [0., 0., 0.]] and w.shape == (2, 3)


def test_execution_trace_observer_gzip_and_resources(tmp_path, capsys):
    ET = torch.profiler.ExecutionTraceObserver
    path = str(tmp_path / "et.json.gz")
    et = ET().register_callback(path)
    assert et.output_file_path_observer.endswith(".json") and et.get_output_file_path() == path
    et.start()
    torch.ones(3).add(1)
    et.stop()
    et.cleanup()
    assert "Execution Trace: compressing " in capsys.readouterr().out
    nodes, _ = check_et(path, gzip.open)
    assert "aten::add" in [n["name"] for n in nodes]
    assert ET.get_resources_dir_for_et_path(str(tmp_path / "x.json")) is None
    assert ET.get_resources_dir_for_et_path(str(tmp_path / "x.json"), create_dir=True) == str(tmp_path / "x_resources")
    e2 = ET().register_callback(str(tmp_path / "r.json"))
    assert e2.get_resources_dir() is None
    e2.set_extra_resource_collection(True)
    assert e2.get_resources_dir() == str(tmp_path / "r_resources")
    e2.unregister_callback()
    assert ET.build_execution_trace_obs_from_env() is None


def test_execution_trace_observer_with_profile(tmp_path):
    path = str(tmp_path / "et.json")
    et = torch.profiler.ExecutionTraceObserver().register_callback(path)
    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU], execution_trace_observer=et) as p:
        x = torch.ones(4, 4)
        (x @ x).relu()
    assert not et.is_registered  # the profile cleans it up
    assert "aten::relu" in {e.key for e in p.key_averages()}
    nodes, _ = check_et(path)
    assert "aten::relu" in [n["name"] for n in nodes]


# ---- utils.checkpoint -----------------------------------------------------------------------------

def side_effect_fn(calls):
    def fn(x):
        calls.append("a")
        y = x.sin().exp()
        calls.append("b")
        z = y + 1
        calls.append("c")
        return z
    return fn


def close(a, b):
    return all(abs(u - v) < 1e-5 for u, v in zip(a, b))


GRAD = [1.2533807754516602, -1.0331168174743652]  # d/dx sum(exp(sin(x)) + 1) at [1, 2], from PyTorch


def test_checkpoint_early_stop():
    for early_stop, expected in ((True, ["a", "b", "c", "a"]), (False, ["a", "b", "c", "a", "b", "c"])):
        calls = []
        x = torch.tensor([1., 2.], requires_grad=True)
        out = cp.checkpoint(side_effect_fn(calls), x, use_reentrant=False, early_stop=early_stop)
        out.sum().backward()
        assert calls == expected and close(x.grad.tolist(), GRAD)
    for ctx_value, arg, expected in ((False, True, ["a", "b", "c", "a", "b", "c"]), (True, False, ["a", "b", "c", "a"])):
        calls = []
        x = torch.tensor([1., 2.], requires_grad=True)
        with cp.set_checkpoint_early_stop(ctx_value):
            out = cp.checkpoint(side_effect_fn(calls), x, use_reentrant=False, early_stop=arg)
        out.sum().backward()  # the context only needs to be active in the forward
        assert calls == expected and close(x.grad.tolist(), GRAD)


def test_default_device_type():
    D = cp.DefaultDeviceType
    prev = D._default_device_type
    try:
        D._default_device_type = None
        assert D.get_device_type() == ("cuda" if torch.cuda.is_available() else "cpu")
        D.set_device_type()
        assert D.get_device_type() == "cuda"
        D.set_device_type("cpu")
        assert D.get_device_type() == "cpu"
    finally:
        D._default_device_type = prev


def test_selective_checkpoint_api():
    P = cp.CheckpointPolicy
    assert [(m.name, m.value) for m in P] == [("MUST_SAVE", 0), ("PREFER_SAVE", 1), ("MUST_RECOMPUTE", 2),
                                              ("PREFER_RECOMPUTE", 3), ("MUST_CPU_OFFLOAD", 4),
                                              ("PREFER_CPU_OFFLOAD", 5)]
    s = cp.SelectiveCheckpointContext(is_recompute=False)
    assert s.is_recompute is False and s.op_output is None
    with pytest.raises(TypeError):
        cp.SelectiveCheckpointContext(False)
    with pytest.raises(ValueError, match=r"^Expected op in `op_list` to be an OpOverload but got: aten.mm.default "
                                         r"of type <class 'str'>. $"):
        cp.create_selective_checkpoint_contexts(["aten.mm.default"])
    with pytest.raises(TypeError, match="^policy_fn_or_list must be either a function or a list of ops.$"):
        cp.create_selective_checkpoint_contexts(3)
    fwd, rec = cp.create_selective_checkpoint_contexts([])
    assert (type(fwd).__name__, type(rec).__name__) == ("_CachingTorchDispatchMode", "_CachedTorchDispatchMode")
    assert isinstance(cp.SAC_IGNORED_OPS, set) and len(cp.SAC_IGNORED_OPS) >= 2


def test_selective_checkpoint_gradients_match():
    def policy(ctx, op, *args, **kwargs):
        return cp.CheckpointPolicy.MUST_SAVE

    for pol in (policy, []):
        calls = []
        x = torch.tensor([1., 2.], requires_grad=True)
        out = cp.checkpoint(side_effect_fn(calls), x, use_reentrant=False,
                            context_fn=functools.partial(cp.create_selective_checkpoint_contexts, pol))
        out.sum().backward()
        assert close(x.grad.tolist(), GRAD)
    with pytest.raises(ValueError, match="^Passing `context_fn` or `debug` is only supported when use_reentrant=False.$"):
        cp.checkpoint(side_effect_fn([]), torch.ones(2, requires_grad=True), use_reentrant=True,
                      context_fn=functools.partial(cp.create_selective_checkpoint_contexts, policy))


def test_graph_exec_group():
    G = cp.GraphExecGroup
    assert G._get_current_group() is None
    g = G()
    with g as r:
        assert r is g and G._get_current_group() is g
        with pytest.raises(RuntimeError, match="^GraphExecGroup contexts cannot be nested. Already inside group "):
            with G():
                pass
        assert G._get_current_group() is g
        x = torch.tensor([1., 2.], requires_grad=True)
        w = torch.tensor([3., 4.], requires_grad=True)
        calls = []
        a = cp.checkpoint(side_effect_fn(calls), x, use_reentrant=False)
        b = cp.checkpoint(side_effect_fn(calls), w, use_reentrant=False)
        a.sum().backward()  # two backward calls over separate regions
        b.sum().backward()
        assert close(x.grad.tolist(), GRAD)
    assert G._get_current_group() is None
