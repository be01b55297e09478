"""torch.func, forward-mode AD and checkpointing against goldens recorded with PyTorch
(tools/record_func_goldens.py -> fixtures/func.json; scenarios in func_scenarios.py)."""

import json
import math
import warnings
import os

import pytest

import ferrograd
import func_scenarios

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "fixtures", "func.json")) as fh:
    GOLDENS = json.load(fh)["scenarios"]


def assert_close(got, want, path="result"):
    if isinstance(want, dict):
        assert isinstance(got, dict), f"{path}: expected dict, got {got!r}"
        assert sorted(got) == sorted(want), f"{path}: keys {sorted(got)} != {sorted(want)}"
        for k in want:
            assert_close(got[k], want[k], f"{path}.{k}")
    elif isinstance(want, list):
        assert isinstance(got, (list, tuple)), f"{path}: expected list, got {got!r}"
        assert len(got) == len(want), f"{path}: length {len(got)} != {len(want)}"
        for i, (g, w) in enumerate(zip(got, want)):
            assert_close(g, w, f"{path}[{i}]")
    elif isinstance(want, float) and not isinstance(got, bool):
        assert isinstance(got, (int, float)), f"{path}: expected number, got {got!r}"
        if math.isnan(want):
            assert math.isnan(got), f"{path}: {got} != nan"
        else:
            assert math.isclose(got, want, rel_tol=1e-5, abs_tol=1e-6), f"{path}: {got} != {want}"
    elif isinstance(want, str) and isinstance(got, str):
        # dtypes print as torch names them (torch.int64)
        assert got.replace("ferrograd.", "torch.") == want, f"{path}: {got!r} != {want!r}"
    else:
        assert got == want, f"{path}: {got!r} != {want!r}"


@pytest.mark.parametrize("scenario", func_scenarios.SCENARIOS, ids=lambda s: s.__name__)
def test_scenario_matches_pytorch(scenario):
    assert scenario.__name__ in GOLDENS, "re-record: .venv-bench/bin/python tools/record_func_goldens.py"
    assert_close(scenario(ferrograd), GOLDENS[scenario.__name__], scenario.__name__)


def test_checkpoint_recomputes_once_per_backward():
    calls = []

    def block(x):
        calls.append(1)
        return x.exp() * x

    for reentrant in (True, False):
        del calls[:]
        x = ferrograd.tensor([0.5, 1.0], requires_grad=True)
        y = ferrograd.utils.checkpoint.checkpoint(block, x, use_reentrant=reentrant)
        assert len(calls) == 1
        y.sum().backward()
        assert len(calls) == 2
        assert x.grad.tolist() == pytest.approx([(1 + 0.5) * math.exp(0.5), 2 * math.exp(1.0)])


def test_vmap_runs_the_function_once_with_batching_rules():
    seen = []

    def f(r):
        seen.append((tuple(r.shape), type(r).__name__))
        return r * 2

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no fallback warning: every op has a rule
        out = ferrograd.func.vmap(f, chunk_size=2)(ferrograd.ones(4, 3))
    assert seen == [((3,), "BatchedTensor")] * 2  # two chunks of 2
    assert out.tolist() == [[2.0] * 3] * 4


def test_vmap_random_ops_run_batched():
    seen = []

    def f(r):
        seen.append((tuple(r.shape), type(r).__name__))
        return ferrograd.nn.functional.dropout(r + ferrograd.rand(3), 0.5)

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no loop: random ops have rules
        out = ferrograd.func.vmap(f, randomness="different")(ferrograd.zeros(4, 3))
    assert seen == [((3,), "BatchedTensor")]
    assert out.shape == (4, 3) and not bool((out[0] == out[1]).all())


@pytest.mark.parametrize("transform", ["grad", "vjp", "jvp", "jacrev", "jacfwd", "hessian"])
def test_transforms_inside_vmap_run_once_for_the_batch(transform):
    func = ferrograd.func
    calls = []

    def f(a):
        calls.append(type(a).__name__)
        return (a.sin() * a).sum()

    x = ferrograd.randn(5, 3)
    inner = {"grad": func.grad(f), "jacrev": func.jacrev(f), "jacfwd": func.jacfwd(f),
             "hessian": func.hessian(f),
             "vjp": lambda a: func.vjp(f, a)[1](ferrograd.tensor(1.0))[0],
             "jvp": lambda a: func.jvp(f, (a,), (ferrograd.ones(3),))[1]}[transform]
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no per-example loop
        out = func.vmap(inner)(x)
    assert out.shape[0] == 5
    # one call for the batch (jacfwd: one per input element; hessian: jacfwd of jacrev)
    assert len(calls) == {"jacfwd": 1 + 3, "hessian": 1 + 3}.get(transform, 1), calls
    assert set(calls) == {"BatchedTensor"}
    for b in range(5):
        single = inner(x[b])
        assert ferrograd.allclose(out[b], single, atol=1e-6)


def test_vmap_loops_where_only_a_loop_can_answer():
    seen = []

    def f(r):
        seen.append(tuple(r.shape))
        return ferrograd.normal(r, ferrograd.ones(3))  # normal(Tensor, Tensor) has no rule

    ferrograd.func._vmap_warned = False  # the notice is shown once per process
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        ferrograd.manual_seed(0)
        out = ferrograd.func.vmap(f, randomness="different")(ferrograd.zeros(4, 3))
    assert seen == [(3,)] * 5  # the batched attempt, then once per example
    assert out.shape == (4, 3) and not bool((out[0] == out[1]).all())
    assert any("once per batch element" in str(x.message) for x in w)
    ferrograd.manual_seed(0)
    first = ferrograd.normal(ferrograd.zeros(3), ferrograd.ones(3))
    assert out[0].tolist() == first.tolist()  # the loop starts from the generator's state at the call


def test_dual_tangents_forgotten_after_exit():
    fwAD = ferrograd.autograd.forward_ad
    with fwAD.dual_level():
        d = fwAD.make_dual(ferrograd.tensor([1.0, 2.0]), ferrograd.tensor([1.0, 1.0]))
        y = d * 3
        assert fwAD.unpack_dual(y).tangent.tolist() == [3.0, 3.0]
    assert fwAD.unpack_dual(y).tangent is None
    with fwAD.dual_level():
        # the level's tangents are gone from the tensors themselves
        assert fwAD.unpack_dual(y).tangent is None
