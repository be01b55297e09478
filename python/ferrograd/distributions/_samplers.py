"""Samplers PyTorch implements as native kernels (``_standard_gamma`` with its implicit
reparameterization gradient, ``poisson``, ``binomial``): ATen's kernels element by element
on the generator's draws (``_C._sample_exact``: seeded samples are PyTorch's)."""

import math


def _torch():
    import ferrograd

    return ferrograd


# float32 literals (0.8f, 0.9f, 1.1f) compared in double, as PyTorch's kernel does
_F32_0_8 = 0.800000011920929
_F32_0_9 = 0.8999999761581421
_F32_1_1 = 1.100000023841858


def _sample_standard_gamma(alpha, single=False):
    """Standard gamma samples (float64) for the float64 ``alpha``: ATen's Marsaglia-Tsang
    kernel on the generator's draws, element by element, so seeded samples are PyTorch's
    (``single``: the kernel of a float32 tensor, whose steps round to float32)."""
    t = _torch()
    a = alpha.detach().double().contiguous()
    if a.is_cuda:
        return t._C._sample_exact("gamma", a.cpu(), single).to(a.device)
    return t._C._sample_exact("gamma", a, single)


def _standard_gamma_grad(alpha, x):
    """``dx/dalpha`` of a standard gamma sample ``x`` held at its CDF value (implicit
    reparameterization), by PyTorch's approximation: a Taylor series for small ``x``, a Rice
    saddle-point expansion for large ``alpha``, a rational approximation otherwise."""
    t = _torch()
    a = alpha.double()
    x = x.double()
    # Taylor series for small x
    numer = t.ones_like(x)
    denom = a.clone()
    series1 = numer / denom
    series2 = numer / (denom * denom)
    for i in range(1, 6):
        numer = numer * (-x / i)
        denom = denom + 1
        series1 = series1 + numer / denom
        series2 = series2 + numer / (denom * denom)
    pow_x_alpha = x.pow(a)
    gamma_pdf = x.pow(a - 1) * (-x).exp()
    gamma_cdf = pow_x_alpha * series1
    gamma_cdf_alpha = (x.log() - t.digamma(a)) * gamma_cdf - pow_x_alpha * series2
    small = -gamma_cdf_alpha / gamma_pdf
    small = t.where(small != small, t.zeros_like(small), small)
    # Rice saddle point expansion for large alpha
    near = (_F32_0_9 * a <= x) & (x <= _F32_1_1 * a)
    numer_1 = 1 + 24 * a * (1 + 12 * a)
    numer_2 = 1440 * (a * a) + 6 * x * (53 - 120 * x) - 65 * x * x / a + a * (107 + 3600 * x)
    near_val = numer_1 * numer_2 / (1244160 * (a * a) * (a * a))
    sdenom = (8 * a).sqrt()
    term2 = sdenom / (a - x)
    term3 = (x - a - a * (x / a).log()).pow(-1.5)
    term23 = t.where(x < a, term2 - term3, term2 + term3)
    term1 = (x / a).log() * term23 - (2 / a).sqrt() * (a + x) / ((a - x) * (a - x))
    stirling = 1 + 1 / (12 * a) * (1 + 1 / (24 * a))
    far_val = -stirling * (x * term1) / sdenom
    large = t.where(near, near_val, far_val)
    # bivariate rational approximation
    u = (x / a).log()
    v = a.log()
    coef_uv = [
        [0.16009398, -0.094634809, 0.025146376, -0.0030648343, 1, 0.32668115, 0.10406089, 0.0014179084],
        [0.53487893, 0.1298071, 0.065735949, -0.0015649758, 0.16639465, 0.020070113, -0.0035938915,
         -0.00058392623],
        [0.040121004, -0.0065914022, -0.0026286047, -0.0013441777, 0.017050642, -0.0021309326, 0.00085092367,
         -1.5247877e-07],
    ]
    cv = [coef_uv[0][i] + u * (coef_uv[1][i] + u * coef_uv[2][i]) for i in range(8)]
    p = cv[0] + v * (cv[1] + v * (cv[2] + v * cv[3]))
    q = cv[4] + v * (cv[5] + v * (cv[6] + v * cv[7]))
    rational = (p / q).exp()
    return t.where(x < _F32_0_8, small, t.where(a > 8.0, large, rational)).to(alpha.dtype)


def _standard_gamma_function():
    from ..autograd import Function

    class _StandardGamma(Function):
        """Standard gamma samples whose gradient with respect to the concentration is the
        implicit reparameterization gradient."""

        @staticmethod
        def forward(ctx, concentration):
            """Gamma(concentration, 1) samples (at least the dtype's smallest normal)."""
            t = _torch()
            x = _sample_standard_gamma(concentration.detach().double(),
                                       concentration.dtype != t.float64).to(concentration.dtype)
            x = x.clamp(min=t.finfo(concentration.dtype).tiny)
            ctx.save_for_backward(concentration, x)
            return x

        @staticmethod
        def backward(ctx, grad_output):
            """``grad_output * dx/dconcentration``."""
            concentration, x = ctx.saved_tensors
            return grad_output * _standard_gamma_grad(concentration.detach(), x.detach())

    return _StandardGamma


_STANDARD_GAMMA = None


def _standard_gamma(concentration):
    """``torch._standard_gamma``: Gamma(concentration, 1) samples, differentiable in the
    concentration (implicit reparameterization)."""
    global _STANDARD_GAMMA
    if _STANDARD_GAMMA is None:
        _STANDARD_GAMMA = _standard_gamma_function()
    return _STANDARD_GAMMA.apply(concentration)


def _poisson(rate, generator=None):
    """``torch.poisson``: Poisson samples of ``rate`` in ``rate``'s dtype: ATen's kernel
    (multiplication of uniforms below 10, Hörmann's transformed rejection PTRS from 10 on)
    on the generator's draws, element by element, so seeded samples are PyTorch's."""
    t = _torch()
    if not rate.is_floating_point():
        from .._mathops import _dtype_name
        raise NotImplementedError(f'"poisson_cpu" not implemented for \'{_dtype_name(rate.dtype)}\'')
    lam = rate.detach().double().contiguous()
    if bool((lam < 0).any()):
        raise RuntimeError("invalid Poisson rate, expected rate to be non-negative")
    out = t._C._sample_exact("poisson", lam.cpu() if lam.is_cuda else lam, False, generator).to(lam.device)
    out[lam != lam] = math.nan
    return out.to(rate.dtype)


def _binomial(count, prob, generator=None):
    """``torch.binomial``: Binomial(count, prob) samples as ATen's CPU kernel draws them
    (inversion or BTRS, by symmetry for ``prob > 1/2``; PyTorch's stream for a seed), in
    ``prob``'s dtype."""
    t = _torch()
    shape = t.broadcast_shapes(count.shape, prob.shape)
    n = count.detach().expand(shape).double().contiguous().cpu()
    p = prob.detach().expand(shape).double().contiguous().cpu()
    single = prob.dtype != t.float64
    out = t._C._sample_exact("binomial", n, single, generator, p)
    return out.reshape(shape).to(dtype=prob.dtype, device=prob.device)


def _gammainc(a, x):
    """The regularized lower incomplete gamma function ``P(a, x)``: ``torch.special.gammainc``
    (ferrograd.special holds the implementation)."""
    from ..special import gammainc

    return gammainc(a, x)


def _dirichlet_function():
    from ..autograd import Function

    class _Dirichlet(Function):
        """Dirichlet samples (normalised float64 gammas, clamped into ``(0, 1)`` as PyTorch's
        kernel does), differentiable in the concentration through the gammas' implicit
        reparameterization."""

        @staticmethod
        def forward(ctx, concentration):
            """Dirichlet(concentration) samples over the last dimension."""
            t = _torch()
            alpha = concentration.detach().double()
            g = _sample_standard_gamma(alpha).clamp(min=t.finfo(t.float64).tiny)
            total = g.sum(-1, keepdim=True)
            x = g / total
            finfo = t.finfo(concentration.dtype)
            x = x.clamp(min=finfo.tiny, max=1 - finfo.eps / 2).to(concentration.dtype)
            ctx.save_for_backward(concentration, g, total)
            return x

        @staticmethod
        def backward(ctx, grad_output):
            """``dg_j/dα_j (grad_j - Σ_i grad_i x_i) / Σ g`` with ``x = g / Σ g``."""
            concentration, g, total = ctx.saved_tensors
            grad = grad_output.double()
            x = g / total
            dg = _standard_gamma_grad(concentration.detach().double(), g)
            return (dg * (grad - (grad * x).sum(-1, keepdim=True)) / total).to(concentration.dtype)

    return _Dirichlet


_DIRICHLET = None


def _dirichlet(concentration):
    """``torch._sample_dirichlet`` with a reparameterized gradient."""
    global _DIRICHLET
    if _DIRICHLET is None:
        _DIRICHLET = _dirichlet_function()
    return _DIRICHLET.apply(concentration)
