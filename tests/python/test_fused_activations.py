"""Single-kernel float paths checked element for element: leaky_relu, hardswish and hardsigmoid
(ATen's formulas and order of operations, NaN through), leaky_relu's backward factor, softplus and
the ELU family against their composites (the same steps, now one pass), and the vectorised float32
atan2 (the double result rounded once, C's special cases). The references are NumPy's or the
composites'. The leaky_relu, hard* and ELU tests pass under PyTorch too; its softplus kernel rounds
differently from its own composite, its float32 atan2 is Sleef's, an ulp off the correctly
rounded value on ~2% of arguments (atan2(1, 1) among them), and its vectorised float32 fmod
returns NaN where the quotient x / y overflows float32 (1e37 % 0.002), where C's fmod (and
ferrograd) give the exact remainder."""

import math

import numpy as np
import pytest

import ferrograd as torch
import ferrograd.nn.functional as F

F32 = np.float32


def values(n=4099):
    g = np.random.default_rng(11)
    x = (g.standard_normal(n) * 4).astype(F32)
    x[:12] = [0.0, -0.0, 3.0, -3.0, 6.0, -6.0, np.inf, -np.inf, np.nan, 1e-40, -1e-40, 2.9999998]
    return x


def bits(a):
    return np.asarray(a, dtype=F32).view(np.int32)


def same(got, want):
    got, want = np.asarray(got, dtype=F32), np.asarray(want, dtype=F32)
    both_nan = np.isnan(got) & np.isnan(want)
    assert ((bits(got) == bits(want)) | both_nan).all(), np.nonzero(~((bits(got) == bits(want)) | both_nan))[0][:5]


def clamp06(t):
    t = np.where(t < 0, F32(0), t)
    return np.where(t > 6, F32(6), t).astype(F32)


@pytest.mark.parametrize("slope", [0.01, 0.2, -1.5])
def test_leaky_relu_forward_and_backward(slope):
    x = values()
    with np.errstate(invalid="ignore"):
        want = np.where(x > 0, x, x * F32(slope))
    t = torch.tensor(x, requires_grad=True)
    y = F.leaky_relu(t, slope)
    same(y.detach().numpy(), want)
    assert y.grad_fn.name() == "LeakyReluBackward0"
    g = np.random.default_rng(2).standard_normal(x.size).astype(F32)
    y.backward(torch.tensor(g))
    same(t.grad.numpy(), np.where(x > 0, g, g * F32(slope)))
    # a strided view and the in-place form give the same values
    x2 = x[:4096].reshape(64, 64)
    same(F.leaky_relu(torch.tensor(x2).t(), slope).numpy(), np.where(x2.T > 0, x2.T, x2.T * F32(slope)))
    u = torch.tensor(x)
    F.leaky_relu_(u, slope)
    same(u.numpy(), want)


def test_hardswish_and_hardsigmoid_in_atens_order():
    x = values()
    with np.errstate(invalid="ignore"):
        inner = clamp06((x + F32(3)).astype(F32))
        same(F.hardswish(torch.tensor(x)).numpy(), (x * inner).astype(F32) / F32(6))
        same(F.hardsigmoid(torch.tensor(x)).numpy(), inner / F32(6))
    # float64 too
    xd = x.astype(np.float64)
    with np.errstate(invalid="ignore"):
        innerd = np.clip(xd + 3, 0, 6)
        got = F.hardsigmoid(torch.tensor(xd)).numpy()
    ok = np.isnan(xd)
    np.testing.assert_array_equal(got[~ok], (innerd / 6)[~ok])
    assert np.isnan(got[ok]).all()
    # the module forms and their grad_fn names
    t = torch.tensor(x[12:40], requires_grad=True)
    assert torch.nn.Hardswish()(t).grad_fn.name() == "HardswishBackward0"
    assert torch.nn.Hardsigmoid()(t).grad_fn.name() == "HardsigmoidBackward0"


def test_float32_atan2_is_the_double_result_rounded():
    g = np.random.default_rng(5)
    y = np.concatenate([g.standard_normal(20000) * 10, 10 ** g.uniform(-40, 38, 5000) * np.sign(g.standard_normal(5000))]).astype(F32)
    x = np.concatenate([g.standard_normal(20000) * 10, 10 ** g.uniform(-40, 38, 5000) * np.sign(g.standard_normal(5000))]).astype(F32)
    want = np.arctan2(y.astype(np.float64), x.astype(np.float64)).astype(F32)
    got = torch.atan2(torch.tensor(y), torch.tensor(x)).numpy()
    ulps = np.abs(bits(got).astype(np.int64) - bits(want))
    assert ulps.max() <= 1 and (ulps == 0).mean() > 0.9999, (ulps.max(), (ulps == 0).mean())


def test_float32_atan2_special_cases():
    specials = [0.0, -0.0, 1.0, -1.0, math.inf, -math.inf, math.nan, 1e-45, -3e38]
    ys, xs = np.meshgrid(np.array(specials, F32), np.array(specials, F32))
    ys, xs = ys.ravel(), xs.ravel()
    want = np.array([math.atan2(float(a), float(b)) for a, b in zip(ys, xs)]).astype(F32)
    same(torch.atan2(torch.tensor(ys), torch.tensor(xs)).numpy(), want)
    # broadcast and strided operands take the same kernel
    m = torch.tensor(ys.reshape(9, 9))
    same(torch.atan2(m.t(), torch.tensor(np.array([1.0], F32))).numpy(),
         np.array([math.atan2(float(a), 1.0) for a in ys.reshape(9, 9).T.ravel()]).astype(F32).reshape(9, 9))


@pytest.mark.parametrize("beta,threshold", [(1.0, 20.0), (2.0, 5.0), (0.5, 1.0)])
def test_softplus_is_its_composite_in_one_pass(beta, threshold):
    x = values()
    t = torch.tensor(x)
    xb = t * beta
    want = torch.where(xb > threshold, t, torch.log1p(torch.exp(xb)) / beta)
    same(F.softplus(t, beta, threshold).numpy(), want.numpy())
    # strided input, float64
    m = torch.tensor(x[:4096].reshape(64, 64)).t()
    same(F.softplus(m, beta, threshold).numpy(), F.softplus(m.contiguous(), beta, threshold).numpy())
    xd = x.astype(np.float64)
    with np.errstate(over="ignore", invalid="ignore"):
        ref = np.where(xd * beta > threshold, xd, np.log1p(np.exp(xd * beta)) / beta)
    got = F.softplus(torch.tensor(xd), beta, threshold).numpy()
    np.testing.assert_allclose(got, ref, rtol=1e-15, atol=0)
    # the backward is σ(βx) below the threshold
    u = torch.tensor(x[12:200], requires_grad=True)
    F.softplus(u, beta, threshold).sum().backward()
    ub = x[12:200].astype(np.float64) * beta
    np.testing.assert_allclose(u.grad.numpy(), np.where(ub > threshold, 1.0, 1 / (1 + np.exp(-ub))), rtol=1e-5, atol=1e-7)


@pytest.mark.parametrize("kind", ["elu", "selu", "celu"])
def test_elu_family_is_its_composite_in_one_pass(kind):
    x = values()
    t = torch.tensor(x)
    alpha, scale, input_scale = {"elu": (0.7, 1.0, 1.0), "selu": (1.6732632423543772848170429916717, 1.0507009873554804934193349852946, 1.0),
                                 "celu": (0.7, 1.0, 1 / 0.7)}[kind]
    want = torch.where(t > 0, t * scale, torch.expm1(t * input_scale) * (alpha * scale))
    got = {"elu": lambda: F.elu(t, 0.7), "selu": lambda: F.selu(t), "celu": lambda: F.celu(t, 0.7)}[kind]()
    same(got.numpy(), want.numpy())
    u = torch.tensor(x[12:300], requires_grad=True)
    y = {"elu": lambda: F.elu(u, 0.7), "selu": lambda: F.selu(u), "celu": lambda: F.celu(u, 0.7)}[kind]()
    assert y.grad_fn.name() == ("CeluBackward0" if kind == "celu" else "EluBackward0")
    y.sum().backward()
    xv = x[12:300].astype(np.float64)
    np.testing.assert_allclose(u.grad.numpy(), np.where(xv > 0, scale, alpha * scale * input_scale * np.exp(xv * input_scale)), rtol=1e-5)


def test_mish_values():
    x = values()[12:]
    xd = x.astype(np.float64)
    with np.errstate(over="ignore"):
        ref = xd * np.tanh(np.where(xd > 20, xd, np.log1p(np.exp(xd))))
    np.testing.assert_allclose(F.mish(torch.tensor(x)).numpy(), ref, rtol=3e-6, atol=1e-30)


def fmod_operands():
    g = np.random.default_rng(9)
    x = np.concatenate([g.standard_normal(30000) * 100, 10 ** g.uniform(-44, 38, 3000) * np.sign(g.standard_normal(3000))]).astype(F32)
    y = np.concatenate([g.standard_normal(30000) * 3, 10 ** g.uniform(-44, 38, 3000) * np.sign(g.standard_normal(3000))]).astype(F32)
    sp = np.array([0.0, -0.0, 1.0, -1.0, 2.5, np.inf, -np.inf, np.nan, 1e-45, 3e38, 7.0], F32)
    a, b = np.meshgrid(sp, sp)
    return np.concatenate([x, a.ravel()]), np.concatenate([y, b.ravel()])


def py_remainder(x, y):
    r = np.fmod(x, y)
    with np.errstate(invalid="ignore"):
        return np.where((r != 0) & ((r < 0) != (y < 0)), (r + y).astype(F32), r).astype(F32)


def test_float32_fmod_and_remainder_are_exact():
    x, y = fmod_operands()
    with np.errstate(invalid="ignore", divide="ignore"):
        same(torch.fmod(torch.tensor(x), torch.tensor(y)).numpy(), np.fmod(x, y))
        same(torch.remainder(torch.tensor(x), torch.tensor(y)).numpy(), py_remainder(x, y))
        # one divisor (the `x % 2.0` form), a strided dividend, a broadcast row
        for d in [2.0, -0.75, 1e-30, 0.0]:
            same((torch.tensor(x) % d).numpy(), py_remainder(x, np.full_like(x, d)))
            same(torch.fmod(torch.tensor(x), d).numpy(), np.fmod(x, F32(d)))
        m = x[:4096].reshape(64, 64)
        same(torch.fmod(torch.tensor(m).t(), torch.tensor(y[:64])).numpy(), np.fmod(m.T, y[:64]))


def test_float32_erfinv_is_the_double_result_rounded():
    g = np.random.default_rng(13)
    x = np.concatenate([g.uniform(-1, 1, 40000), 1 - 10 ** g.uniform(-7.3, -1, 4000), 10 ** g.uniform(-45, -1, 4000)]).astype(F32)
    x = np.concatenate([x, -x, np.array([0.0, -0.0, 1.0, -1.0, 1.5, -2.0, np.inf, np.nan, np.nextafter(F32(1), F32(0))], F32)])
    got = torch.erfinv(torch.tensor(x)).numpy()
    # float64's kernel: a rational guess and two Newton steps on libm's erf (accurate to ~1e-15)
    want = torch.erfinv(torch.tensor(x.astype(np.float64))).numpy().astype(F32)
    ulps = np.abs(bits(got).astype(np.int64) - bits(want))
    ok = np.isnan(got) & np.isnan(want)
    assert ulps[~ok].max() <= 1 and (ulps[~ok] == 0).mean() > 0.9999, (ulps[~ok].max(), (ulps[~ok] == 0).mean())
    same(got[-9:], np.array([0.0, -0.0, np.inf, -np.inf, np.nan, np.nan, np.nan, np.nan, got[-1]], F32))
    assert 3.5 < got[-1] < 4.0
