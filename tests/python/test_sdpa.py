"""``F.scaled_dot_product_attention``'s CPU flash path against PyTorch's results
(tools/record_sdpa_goldens.py -> fixtures/sdpa.json): outputs and query/key/value gradients,
float32 within rel 1e-4 / abs 2e-5 (PyTorch's kernel uses a faster exp and MKL's products),
float64 within 1e-10; the fused kernel against the composed formulas (the create_graph
path), double backward, and independence of the thread count."""

import json
import math
import os

import numpy as np
import pytest

import ferrograd
import sdpa_scenarios

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "fixtures", "sdpa.json")) as fh:
    GOLDENS = json.load(fh)
GOT = sdpa_scenarios.run(ferrograd)
F = ferrograd.nn.functional


def _close(got, want, rtol, atol, what):
    assert got["shape"] == want["shape"], what
    a, b = np.array(got["values"]), np.array(want["values"])
    assert a.shape == b.shape, what
    bad = ~np.isclose(a, b, rtol=rtol, atol=atol, equal_nan=True)
    assert not bad.any(), f"{what}: {bad.sum()} of {a.size} differ, e.g. {a[bad][:3]} vs {b[bad][:3]}"
    n = math.prod(want["shape"])
    if not (math.isnan(got["sum"]) and math.isnan(want["sum"])):
        assert math.isclose(got["sum"], want["sum"], rel_tol=rtol, abs_tol=atol * 10 * math.sqrt(n)), what


@pytest.mark.parametrize("name", sorted(GOLDENS))
def test_matches_pytorch(name):
    got, want = GOT[name], GOLDENS[name]
    # (a 3-D mask takes PyTorch's math path: UnsafeViewBackward0)
    assert got["grad_fn"] == want["grad_fn"]
    assert got["dtype"] == want["dtype"]
    tol = (1e-4, 2e-5) if want["dtype"] == "torch.float32" else (1e-10, 1e-12)
    for key in ("out", "dq", "dk", "dv"):
        _close(got[key], want[key], *tol, f"{name}.{key}")


def test_every_scenario_has_a_golden():
    assert sorted(GOT) == sorted(GOLDENS)


def _inputs(dtype=ferrograd.float64, B=2, H=4, Hk=2, L=37, S=45, E=8, seed=0):
    g = np.random.default_rng(seed)
    np_dtype = np.float64 if dtype == ferrograd.float64 else np.float32
    mk = lambda *s: ferrograd.from_numpy(g.standard_normal(s).astype(np_dtype)).requires_grad_()  # noqa: E731
    return mk(B, H, L, E), mk(B, Hk, S, E), mk(B, Hk, S, E)


@pytest.mark.parametrize("causal", [False, True])
@pytest.mark.parametrize("masked", [False, True])
def test_fused_backward_matches_the_composed_one(causal, masked):
    """First-order gradients come from the fused kernel; with create_graph the composed
    formulas run (so that they can be differentiated again): the two agree."""
    q, k, v = _inputs()
    mask = None
    if masked:
        mask = ferrograd.from_numpy(np.random.default_rng(1).random((2, 1, 37, 45)) < 0.7)
        mask[:, :, 3] = False
    o = F.scaled_dot_product_attention(q, k, v, attn_mask=mask, is_causal=causal, enable_gqa=True)
    go = ferrograd.randn(o.shape, dtype=o.dtype)
    fused = ferrograd.autograd.grad(o, (q, k, v), go, retain_graph=True)
    composed = ferrograd.autograd.grad(o, (q, k, v), go, create_graph=True)
    for a, b in zip(fused, composed):
        assert a.grad_fn is None and b.grad_fn is not None
        assert ferrograd.allclose(a, b.detach(), rtol=1e-10, atol=1e-12)


def test_double_backward_through_the_composed_gradients():
    q, k, v = _inputs(L=6, S=5, Hk=4)
    o = F.scaled_dot_product_attention(q, k, v, is_causal=True)
    (dq,) = ferrograd.autograd.grad(o.pow(2).sum(), (q,), create_graph=True)
    (ddk,) = ferrograd.autograd.grad(dq.sum(), (k,))
    assert ddk.shape == k.shape and bool(ferrograd.isfinite(ddk).all())


def test_only_the_asked_for_gradients():
    q, k, v = _inputs(dtype=ferrograd.float32)
    k.requires_grad_(False)
    o = F.scaled_dot_product_attention(q, k, v, enable_gqa=True)
    o.sum().backward()
    assert k.grad is None and q.grad is not None and v.grad is not None


@pytest.mark.parametrize("causal", [False, True])
def test_independent_of_the_thread_count(causal):
    q, k, v = _inputs(dtype=ferrograd.float32, B=2, H=4, Hk=4, L=300, S=300, E=16)
    old = ferrograd.get_num_threads()
    res = []
    try:
        for threads in (1, 2):
            ferrograd.set_num_threads(threads)
            for t in (q, k, v):
                t.grad = None
            o = F.scaled_dot_product_attention(q, k, v, is_causal=causal)
            o.backward(ferrograd.ones_like(o))
            res.append([o.detach(), q.grad, k.grad, v.grad])
    finally:
        ferrograd.set_num_threads(old)
    for a, b in zip(*res):
        assert ferrograd.equal(a, b)


def test_non_contiguous_inputs():
    """(B, L, H, E) tensors transposed to (B, H, L, E), as a multi-head layer makes them."""
    g = np.random.default_rng(3)
    q, k, v = (ferrograd.from_numpy(g.standard_normal((2, 30, 4, 8)).astype(np.float32)).requires_grad_() for _ in range(3))
    o = F.scaled_dot_product_attention(q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2), is_causal=True)
    qc, kc, vc = (t.detach().transpose(1, 2).contiguous().requires_grad_() for t in (q, k, v))
    oc = F.scaled_dot_product_attention(qc, kc, vc, is_causal=True)
    assert ferrograd.equal(o, oc)
    o.sum().backward()
    oc.sum().backward()
    assert ferrograd.equal(q.grad.transpose(1, 2), qc.grad) and ferrograd.equal(v.grad.transpose(1, 2), vc.grad)


def test_float32_mask_on_float64_inputs():
    """The mask is converted to the inputs' dtype (PyTorch 2.13's flash kernel mixes up the
    two widths here and returns wrong values; its math backend and a float64 mask agree with
    this)."""
    q, k, v = _inputs(B=1, H=2, Hk=2, L=24, S=40)
    m = ferrograd.from_numpy(np.random.default_rng(2).standard_normal((24, 40)).astype(np.float32))
    a = F.scaled_dot_product_attention(q, k, v, attn_mask=m)
    b = F.scaled_dot_product_attention(q, k, v, attn_mask=m.double())
    assert ferrograd.equal(a, b)


def test_which_masks_take_the_flash_path():
    """PyTorch's check_attn_mask_shape: 2-D or 4-D masks whose last two dims are (L or 1, S or
    1); a 3-D mask takes the math path; a 1-D one is an IndexError (the check reads size(-2))."""
    q, k, v = _inputs(dtype=ferrograd.float32, B=2, H=3, Hk=3, L=5, S=6, E=4)
    flash, math_ = "ScaledDotProductFlashAttentionForCpuBackward0", "UnsafeViewBackward0"
    for shape, want in [((5, 6), flash), ((1, 6), flash), ((5, 1), flash), ((1, 1, 5, 6), flash), ((2, 1, 1, 6), flash),
                        ((2, 3, 5, 6), flash), ((3, 5, 6), math_), ((1, 1, 6), math_)]:
        o = F.scaled_dot_product_attention(q, k, v, attn_mask=ferrograd.zeros(shape))
        assert type(o.grad_fn).__name__ == want, shape
    with pytest.raises(IndexError, match=r"Dimension out of range \(expected to be in range of \[-1, 0\], but got -2\)"):
        F.scaled_dot_product_attention(q, k, v, attn_mask=ferrograd.zeros(6))
    # a query whose head dim is not unit-strided takes the math path
    qt = ferrograd.randn(2, 3, 4, 5).transpose(-1, -2)
    assert type(F.scaled_dot_product_attention(qt, k, v).grad_fn).__name__ == math_


def test_a_one_dim_mask_fails_before_the_later_checks():
    """PyTorch checks the mask's shape after batch sizes and heads but before head dims, key
    and value lengths and strides: a 1-d mask is its IndexError in those cases too."""
    q = ferrograd.randn(2, 3, 5, 4, requires_grad=True)
    msg = r"Dimension out of range \(expected to be in range of \[-1, 0\], but got -2\)"
    for k, v in [(ferrograd.randn(2, 3, 6, 4), ferrograd.randn(2, 3, 6, 7)),
                 (ferrograd.randn(2, 3, 6, 4), ferrograd.randn(2, 3, 7, 4)),
                 (ferrograd.randn(2, 3, 4, 6).transpose(-1, -2), ferrograd.randn(2, 3, 6, 4))]:
        with pytest.raises(IndexError, match=msg):
            F.scaled_dot_product_attention(q, k, v, attn_mask=ferrograd.randn(6))
    # different batch sizes: the math path, no error
    o = F.scaled_dot_product_attention(q, ferrograd.randn(1, 3, 6, 4), ferrograd.randn(1, 3, 6, 4), attn_mask=ferrograd.randn(6))
    assert tuple(o.shape) == (2, 3, 5, 4) and type(o.grad_fn).__name__ == "UnsafeViewBackward0"
