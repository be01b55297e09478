"""Hostile sizes: allocation failures and size overflows are PyTorch's RuntimeError, never an
abort. Each case runs in a child process, so a regression shows as a failed test instead of
taking the test run down."""

import subprocess
import sys
import textwrap

import pytest

import ferrograd as torch

OOM = "DefaultCPUAllocator: can't allocate memory: you tried to allocate"

CASES = [
    ("zeros_2_50", "torch.zeros(2**50)", OOM + " 4503599627370496 bytes"),
    ("full_2_40", "torch.full((2**40,), 1.)", OOM + " 4398046511104 bytes"),
    ("arange_2_50", "torch.arange(0, 2**50)", OOM + " 9007199254740992 bytes"),
    ("zeros_wrapping_numel", "torch.zeros(2**31, 2**31, 2**10)", "Storage size calculation overflowed with sizes=[2147483648, 2147483648, 1024]"),
    ("arange_inf", "torch.arange(float('inf'))", "unsupported range: 0 -> inf"),
    ("randn_huge", "torch.randn(2**45)", OOM),
    ("broadcast_add_huge", "torch.ones(2**20, 1) + torch.ones(1, 2**20)", OOM),
    ("expand_contiguous_huge", "torch.ones(3).expand(2**40, 3).contiguous()", OOM),
    ("matmul_outer_huge", "torch.ones(2**20, 1) @ torch.ones(1, 2**20)", OOM),
    ("where_broadcast_huge", "torch.where(torch.ones(2**20, 1) > 0, torch.ones(1, 2**20), 0.)", OOM),
]


@pytest.mark.parametrize("name,expr,message", CASES, ids=[c[0] for c in CASES])
def test_huge_request_is_a_runtime_error(name, expr, message):
    code = textwrap.dedent(f"""
        import ferrograd as torch
        try:
            {expr}
        except RuntimeError as e:
            print("RAISED", str(e))
        else:
            print("NO ERROR")
    """)
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, f"the process died ({p.returncode}): {p.stderr[-500:]}"
    assert p.stdout.startswith("RAISED"), p.stdout
    assert message in p.stdout, p.stdout


PANICKED_BEFORE = [
    ("stack_of_empties", lambda: torch.stack([torch.zeros(0), torch.zeros(0)]).shape, (2, 0)),
    ("softmax_zero_size", lambda: torch.zeros(3, 0).softmax(1).shape, (3, 0)),
    ("cumsum_zero_size", lambda: torch.zeros(3, 0).cumsum(1).shape, (3, 0)),
    ("logsumexp_empty_dim", lambda: torch.zeros(3, 0).logsumexp(1).tolist(), [float("-inf")] * 3),
    ("int64_min_floordiv", lambda: (torch.tensor([-2**63]) // -1).tolist(), [-2**63]),
    ("cross_entropy_probabilities", lambda: round(torch.nn.functional.cross_entropy(
        torch.tensor([[1.0, 2.0, 3.0]]), torch.tensor([[0.2, 0.3, 0.5]])).item(), 4), 1.1076),
]


@pytest.mark.parametrize("name,fn,expected", PANICKED_BEFORE, ids=[c[0] for c in PANICKED_BEFORE])
def test_former_panics_give_torch_values(name, fn, expected):
    assert fn() == expected


RAISES = [
    ("gather_rank", lambda: torch.gather(torch.ones(3, 3), 1, torch.zeros(3, dtype=torch.long)), RuntimeError,
     "Index tensor must have the same number of dimensions as input tensor"),
    ("bool_mm", lambda: torch.ones(2, 2, dtype=torch.bool) @ torch.ones(2, 2, dtype=torch.bool), NotImplementedError,
     "\"addmm_impl_cpu_\" not implemented for 'Bool'"),
    ("bool_mv", lambda: torch.ones(2, 2, dtype=torch.bool).mv(torch.ones(2, dtype=torch.bool)), NotImplementedError,
     "\"addmv_impl_cpu\" not implemented for 'Bool'"),
    ("repeat_overflow", lambda: torch.ones(2).repeat(2**62), RuntimeError,
     "IntArrayRef contains an int that cannot be represented as a SymInt"),
    ("argmax_empty", lambda: torch.zeros(0, 3).argmax(), IndexError,
     "argmax(): Expected reduction dim to be specified for input.numel() == 0."),
    ("nll_multi_target", lambda: torch.nn.functional.nll_loss(torch.zeros(3, 5), torch.zeros(3, 5)), RuntimeError,
     "0D or 1D target tensor expected, multi-target not supported"),
]


@pytest.mark.parametrize("name,fn,exc,message", RAISES, ids=[c[0] for c in RAISES])
def test_former_panics_raise_torch_errors(name, fn, exc, message):
    with pytest.raises(exc) as info:
        fn()
    assert type(info.value) is exc
    assert str(info.value).startswith(message), str(info.value)


def test_no_panic_crosses_the_binding():
    """A Rust panic inside an op arrives as a RuntimeError (an Exception), not as PyO3's
    PanicException (a BaseException that `except Exception` misses)."""
    with pytest.raises(RuntimeError, match="ferrograd internal error: injected panic"):
        torch._C._panicking_op(torch.ones(3))
    assert (torch.ones(2) + 1).tolist() == [2.0, 2.0]


@pytest.mark.parametrize("leaf", [False, True])
def test_hook_changing_size_or_type_is_an_error(leaf):
    for hook, message in [(lambda g: g[:1], "hook '<lambda>' has changed the size of value"),
                          (lambda g: g.double(), "hook '<lambda>' has changed the type of value (was torch.FloatTensor got torch.DoubleTensor)")]:
        x = torch.ones(3, requires_grad=True)
        y = x * 2
        (x if leaf else y).register_hook(hook)
        with pytest.raises(RuntimeError) as info:
            y.sum().backward()
        assert str(info.value) == message


def test_nan_and_signed_zero_semantics():
    assert torch.relu(torch.tensor([float("nan")])).isnan().all().item()
    assert torch.tensor([float("nan"), 0.0]).nonzero().tolist() == [[0]]
    assert str(torch.abs(torch.tensor(-0.0))) == "tensor(0.)"
    with pytest.raises(ValueError, match="cannot convert float NaN to integer"):
        int(torch.tensor(float("nan")))
    assert torch.softmax(torch.tensor([float("inf"), 1.0]), 0).isnan().all().item()


def test_set_grad_enabled_as_decorator_is_scoped():
    @torch.set_grad_enabled(False)
    def f():
        return torch.is_grad_enabled()

    assert f() is False
    assert torch.is_grad_enabled() is True


def test_numpy_protocol_honours_copy_and_grad():
    import numpy as np

    t = torch.ones(3)
    a = np.array(t)  # NumPy asks for a copy
    a[0] = 5
    assert t.tolist() == [1.0, 1.0, 1.0]
    b = np.asarray(t)  # may share
    b[1] = 7
    assert t.tolist() == [1.0, 7.0, 1.0]
    with pytest.raises(RuntimeError, match="Can't call numpy\\(\\) on Tensor that requires grad"):
        np.asarray(torch.ones(2, requires_grad=True))


def test_pickle_and_copy_like_torch():
    import copy
    import pickle

    r = torch.tensor([1.5, 2.5], requires_grad=True)
    for back in (pickle.loads(pickle.dumps(r)), copy.deepcopy(r), copy.copy(r)):
        assert back is not r and back.tolist() == [1.5, 2.5] and back.requires_grad and back.is_leaf
    assert pickle.loads(pickle.dumps(torch.float64)) is torch.float64
    i = pickle.loads(pickle.dumps(torch.tensor([1, 2], dtype=torch.int32)))
    assert i.dtype == torch.int32 and i.tolist() == [1, 2]
    assert pickle.loads(pickle.dumps(torch.tensor(3.5))).item() == 3.5
    p = torch.nn.Parameter(torch.ones(2))
    for q in (copy.deepcopy(p), pickle.loads(pickle.dumps(p))):
        assert type(q) is torch.nn.Parameter and q.requires_grad and q is not p
    m = torch.nn.Linear(2, 2)
    m2 = copy.deepcopy(m)
    assert type(m2.weight) is torch.nn.Parameter and m2.weight is not m.weight
    assert m2.weight.tolist() == m.weight.tolist()
    with pytest.raises(RuntimeError, match="Only Tensors created explicitly by the user"):
        copy.deepcopy(r * 2)


ARG_ERRORS = [
    ("flatten_reversed", lambda: torch.ones(2, 3, 4).flatten(1, 0), "flatten() has invalid args: start_dim cannot come after end_dim"),
    ("split_zero", lambda: torch.ones(4).split(0), "split_size can only be 0 if dimension size is 0, but got dimension size of 4"),
    ("chunk_zero", lambda: torch.ones(4).chunk(0), "chunk expects `chunks` to be greater than 0, got: 0"),
    ("expand_leading_minus_one", lambda: torch.ones(3).expand(-1, 2, 3),
     "The expanded size of the tensor (-1) isn't allowed in a leading, non-existing dimension 0"),
    ("div_unknown_mode", lambda: torch.tensor([7.0]).div(2, rounding_mode="bogus"),
     "div expected rounding_mode to be one of None, 'trunc', or 'floor' but found 'bogus'"),
]


@pytest.mark.parametrize("name,fn,message", ARG_ERRORS, ids=[c[0] for c in ARG_ERRORS])
def test_bad_arguments_raise_torch_errors(name, fn, message):
    with pytest.raises(RuntimeError) as info:
        fn()
    assert str(info.value) == message


def test_argument_values_as_torch():
    import numpy as np

    assert [tuple(t.shape) for t in torch.ones(0).chunk(2)] == [(0,), (0,)]
    assert torch.tensor([1.0, 5.0, 9.0]).clamp(min=6, max=2).tolist() == [2.0, 2.0, 2.0]
    q = torch.tensor([7, -7]).div(2, rounding_mode="trunc")
    assert q.dtype == torch.int64 and q.tolist() == [3, -3]
    assert torch.tensor([True]).square().dtype == torch.int64
    r = torch.tensor([1, 2]) * np.int32(3)
    assert isinstance(r, torch.Tensor) and r.tolist() == [3, 6]
    with torch.inference_mode():
        x = torch.ones(3)
    assert x[:2].is_inference()


def test_backward_inputs_with_retain_grad_accumulates_once():
    a = torch.ones(2, requires_grad=True)
    b = a * 2
    b.retain_grad()
    (b * 3).sum().backward(inputs=[b])
    assert b.grad.tolist() == [3.0, 3.0]
    assert a.grad is None


def test_views_follow_in_place_writes_to_their_base():
    """A view made before an in-place write to its base (or to a sibling view) takes its
    gradient from the base's new history (AsStridedBackward0), as torch regenerates it;
    values recorded with PyTorch 2.13."""
    r0 = torch.tensor([0.5, 1.0], requires_grad=True)
    x = r0.clone()
    v = x[0]
    x.mul_(2)
    (v * 3).backward()
    assert r0.grad.tolist() == [6.0, 0.0]
    r0.grad = None
    x = r0.clone()
    v, w = x[:1], x[1:]
    w.mul_(5)
    v2 = x[:]
    v.mul_(2)
    (v2 * 3).sum().backward()
    assert r0.grad.tolist() == [6.0, 15.0]
    assert v2.grad_fn.name() == "AsStridedBackward0"
    for key in [(), Ellipsis, slice(None)]:
        r = torch.tensor([0.5, 1.0], requires_grad=True)
        x = r.clone()
        v = x[key]
        v[...] = torch.tensor(0.02)
        (v * 3).sum().backward()
        assert r.grad.tolist() == [0.0, 0.0]
