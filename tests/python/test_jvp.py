"""Forward-mode AD per op: every case of jvp_cases.py against PyTorch's tangents (recorded by
tools/record_jvp_goldens.py into fixtures/jvp.json) and against central finite differences;
then forward AD's semantics (dual tensors, views, in-place, levels, custom Functions, mixing
with reverse mode), with expectations checked against PyTorch 2.13 (the tests below the
goldens run unchanged with ``import torch as ferrograd``)."""

import json
import os

import pytest

import ferrograd
import ferrograd.autograd.forward_ad as fwAD
import jvp_cases

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "fixtures", "jvp.json")) as fh:
    GOLDENS = json.load(fh)["cases"]

CASES = {name: (jvp_cases.seed_of(name) - 1, fn, specs) for name, fn, specs in jvp_cases.CASES}


def _run(fn, specs, seed, scale=None):
    """(primal, tangent) lists per output; ``scale`` evaluates f(x + scale * t) instead."""
    torch = ferrograd
    inputs, tangents = jvp_cases.make_values(specs, seed)
    res = []
    with fwAD.dual_level():
        args = []
        for spec, tan in zip(inputs, tangents):
            x = jvp_cases.build(torch, spec)
            if tan is not None:
                t = torch.tensor(tan, dtype=torch.float64).reshape(x.shape)
                x = x + scale * t if scale is not None else fwAD.make_dual(x, t)
            args.append(x)
        out = fn(torch, *args)
        for o in (out if isinstance(out, tuple) else (out,)):
            p, t = fwAD.unpack_dual(o)
            res.append((p, t))
    return res


def _close(got, want, rtol, atol, what):
    import math

    g = ferrograd.tensor(got, dtype=ferrograd.float64).flatten().tolist()
    w = ferrograd.tensor(want, dtype=ferrograd.float64).flatten().tolist()
    assert len(g) == len(w), f"{what}: {len(g)} values, expected {len(w)}"
    for k, (a, b) in enumerate(zip(g, w)):
        assert math.isclose(a, b, rel_tol=rtol, abs_tol=atol), f"{what}[{k}]: {a} != {b}"


@pytest.mark.parametrize("name", list(CASES))
def test_jvp_matches_pytorch(name):
    i, fn, specs = CASES[name]
    want = GOLDENS[name]
    got = _run(fn, specs, i + 1)
    assert len(got) == len(want)
    for k, ((p, t), w) in enumerate(zip(got, want)):
        _close(p.tolist(), w["primal"], 1e-9, 1e-12, f"{name} primal {k}")
        if w["tangent"] is None:
            assert t is None, f"{name}: output {k} has a tangent, PyTorch's has none"
        else:
            assert t is not None, f"{name}: output {k} has no tangent"
            assert t.dtype == p.dtype and tuple(t.shape) == tuple(p.shape)
            assert not t.requires_grad
            _close(t.tolist(), w["tangent"], 1e-8, 1e-10, f"{name} tangent {k}")


# a float32 round trip is coarser than the finite-difference step
FD_EXEMPT = {"to_float32"}


@pytest.mark.parametrize("name", [n for n in CASES if n not in FD_EXEMPT])
def test_jvp_matches_finite_differences(name):
    i, fn, specs = CASES[name]
    got = _run(fn, specs, i + 1)
    eps = 1e-6
    plus = _run(fn, specs, i + 1, scale=eps)
    minus = _run(fn, specs, i + 1, scale=-eps)
    for k, ((_, t), (fp, _), (fm, _)) in enumerate(zip(got, plus, minus)):
        if t is None:
            continue
        fd = ((fp - fm) / (2 * eps)).tolist()
        _close(t.tolist(), fd, 1e-5, 1e-6, f"{name} tangent {k} vs finite differences")


# ---- semantics (the same file passes with ``import torch as ferrograd``) ----

def test_dual_is_a_view_without_history():
    x = ferrograd.tensor([1.0, 2.0, 3.0])
    t = ferrograd.tensor([1.0, 0.0, -1.0])
    with fwAD.dual_level():
        d = fwAD.make_dual(x, t)
        assert d._base is x
        assert not d.requires_grad and d.grad_fn is None
        y = (d * d).sin()
        assert not y.requires_grad and y.grad_fn is None
        p, ty = fwAD.unpack_dual(y)
        assert p._base is y
        assert fwAD.unpack_dual(p).tangent is None
        assert fwAD.unpack_dual(d).tangent is t
        assert ty.tolist() == pytest.approx((2 * x * t * (x * x).cos()).tolist())
        assert fwAD.unpack_dual(d.detach()).tangent is None
        assert fwAD.unpack_dual(d.argmax()).tangent is None
        assert fwAD.unpack_dual(d > 0).tangent is None


def test_tangent_layout_follows_the_primal():
    x = ferrograd.zeros(3, 4)
    t = ferrograd.arange(12.0).reshape(4, 3).t()
    with fwAD.dual_level():
        d = fwAD.make_dual(x, t)
        got = fwAD.unpack_dual(d).tangent
        assert got.stride() == (4, 1)
        assert got.tolist() == t.tolist()
        assert fwAD.unpack_dual(d.t()).tangent._base is not None


def test_inplace_updates_tangents_through_views():
    x = ferrograd.ones(3, 4)
    with fwAD.dual_level():
        d = fwAD.make_dual(x, ferrograd.ones(3, 4))
        a = ferrograd.zeros(3, 4)
        a.add_(d)
        assert fwAD.unpack_dual(a).tangent.tolist() == [[1.0] * 4] * 3
        b = ferrograd.zeros(3, 4)
        b[0] = d[1] * 2
        assert fwAD.unpack_dual(b).tangent.tolist() == [[2.0] * 4, [0.0] * 4, [0.0] * 4]
        c = ferrograd.zeros(2, 4)
        v = c[1]
        v.copy_(d[0])
        assert fwAD.unpack_dual(c).tangent.tolist() == [[0.0] * 4, [1.0] * 4]
        e = d.clone()
        e.t_()
        assert tuple(fwAD.unpack_dual(e).tangent.shape) == (4, 3)


def test_levels_and_errors():
    x = ferrograd.ones(3)
    with pytest.raises(RuntimeError, match="no level exists"):
        fwAD.make_dual(x, x)
    assert fwAD.unpack_dual(x).tangent is None
    with fwAD.dual_level():
        with pytest.raises(RuntimeError, match="Nested forward mode AD is not supported at the moment"):
            fwAD.enter_dual_level()
        with pytest.raises(RuntimeError, match="different size"):
            fwAD.make_dual(x, ferrograd.ones(2))
        with pytest.raises(ValueError, match="Expected primal to be floating point or complex"):
            fwAD.make_dual(ferrograd.arange(3), ferrograd.arange(3))
        t64 = ferrograd.ones(3, dtype=ferrograd.float64)
        assert fwAD.unpack_dual(fwAD.make_dual(x, t64)).tangent is t64
    with pytest.raises(RuntimeError, match="Dual level must be a positive number"):
        fwAD.exit_dual_level()
    assert fwAD.enter_dual_level() == 0
    fwAD.exit_dual_level()


def test_reverse_over_forward_and_forward_over_reverse():
    # d/dx of the tangent sum(3 exp(x) * t) with a tangent that requires grad
    x = ferrograd.tensor([0.5, -1.0, 2.0])
    tt = ferrograd.ones(3, requires_grad=True)
    xr = x.clone().requires_grad_(True)
    with fwAD.dual_level():
        z = fwAD.make_dual(xr, tt)
        w = (z.exp() * 3).sum()
        jt = fwAD.unpack_dual(w).tangent
        assert jt.grad_fn is not None
        gx, gt = ferrograd.autograd.grad(jt, (xr, tt))
    assert gx.tolist() == pytest.approx((3 * x.exp()).tolist())
    assert gt.tolist() == pytest.approx((3 * x.exp()).tolist())
    # Hessian-vector product: forward over reverse
    v = ferrograd.tensor([1.0, 0.0, 2.0])
    with fwAD.dual_level():
        xd = fwAD.make_dual(x.clone().requires_grad_(True), v)
        (g,) = ferrograd.autograd.grad((xd.sin() * xd).sum(), xd, create_graph=True)
        hvp = fwAD.unpack_dual(g).tangent
    want = (2 * x.cos() - x * x.sin()) * v
    assert hvp.tolist() == pytest.approx(want.tolist())


def test_custom_function_jvp():
    class MySquare(ferrograd.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_forward(x)
            ctx.save_for_backward(x)
            return x * x

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return 2 * x * g

        @staticmethod
        def jvp(ctx, t):
            (x,) = ctx.saved_tensors
            return 2 * x * t

    class NoJvp(ferrograd.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g * 2

    x = ferrograd.tensor([1.0, -2.0])
    with fwAD.dual_level():
        d = fwAD.make_dual(x, ferrograd.tensor([1.0, 1.0]))
        y = MySquare.apply(d)
        assert fwAD.unpack_dual(y).tangent.tolist() == [2.0, -4.0]
        assert fwAD.unpack_dual(y.exp()).tangent.tolist() == pytest.approx((x.pow(2).exp() * 2 * x).tolist())
        with pytest.raises(NotImplementedError, match="You must implement the jvp function"):
            NoJvp.apply(d)
        xr = x.clone().requires_grad_(True)
        dr = fwAD.make_dual(xr, ferrograd.tensor([1.0, 0.0]))
        yr = MySquare.apply(dr)
        yr.sum().backward()
    assert xr.grad.tolist() == [2.0, -4.0]


def test_no_grad_does_not_stop_tangents():
    with ferrograd.no_grad(), fwAD.dual_level():
        d = fwAD.make_dual(ferrograd.tensor([1.0]), ferrograd.tensor([2.0]))
        assert fwAD.unpack_dual(d.exp()).tangent.tolist() == pytest.approx([2 * 2.718281828459045])


def test_out_functions_refuse_dual_inputs():
    with fwAD.dual_level():
        d = fwAD.make_dual(ferrograd.ones(3), ferrograd.ones(3))
        c = ferrograd.empty(3)
        with pytest.raises(NotImplementedError, match="Trying to use forward AD with exp_out that does not support it because it is an out= function"):
            ferrograd.exp(d, out=c)
        with pytest.raises(NotImplementedError, match="add_out"):
            ferrograd.add(d, d, out=c)
        ferrograd.exp(ferrograd.ones(3), out=c)


@pytest.mark.parametrize("name,f,want", [
    ("fill_", lambda z: z.fill_(2.0), [0.0, 0.0, 0.0]),
    ("zero_", lambda z: z.zero_(), [0.0, 0.0, 0.0]),
    ("masked_fill_", lambda z: z.masked_fill_(z > 1.5, 0.0), [1.0, 0.0, 0.0]),
    ("clamp_", lambda z: z.clamp_(0, 1.5), [1.0, 0.0, 0.0]),
    ("relu_", lambda z: z.relu_(), [1.0, 1.0, 1.0]),
    ("mul_", lambda z: z.mul_(3), [3.0, 3.0, 3.0]),
    ("setitem_scalar", lambda z: z.__setitem__(0, 5.0), [0.0, 1.0, 1.0]),
    ("index_put_", lambda z: z.index_put_((ferrograd.tensor([1]),), ferrograd.tensor([7.0])), [1.0, 0.0, 1.0]),
    ("sigmoid_", lambda z: z.sigmoid_(), [0.1966, 0.105, 0.0452]),
    ("uniform_", lambda z: z.uniform_(), [0.0, 0.0, 0.0]),
    ("unsqueeze_", lambda z: z.unsqueeze_(0), [1.0, 1.0, 1.0]),
    ("exp_", lambda z: z.exp_(), [2.7183, 7.3891, 20.0855]),
])
def test_inplace_ops_update_the_tangent(name, f, want):
    with fwAD.dual_level():
        d = fwAD.make_dual(ferrograd.tensor([1.0, 2.0, 3.0]), ferrograd.tensor([1.0, 1.0, 1.0])).clone()
        f(d)
        t = fwAD.unpack_dual(d).tangent
        assert [round(v, 4) for v in t.flatten().tolist()] == want
