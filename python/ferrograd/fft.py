"""``torch.fft``: discrete Fourier transforms (PyTorch 2.13's ``torch.fft`` functions, arguments,
dtypes, normalization modes and error messages).

The transforms are built from differentiable tensor operations, so autograd gives PyTorch's
gradients (the adjoint transforms, with the Hermitian conventions of ``rfft``/``irfft``):

* a length-``n`` DFT along the last dimension is a complex matmul with the DFT matrix when ``n``
  is small or prime, and otherwise a Cooley-Tukey split ``n = n1 * n2`` (the "four-step" FFT:
  ``n2`` DFTs of length ``n1``, a twiddle-factor multiply, ``n1`` DFTs of length ``n2``), applied
  recursively, so the work is ``O(n * sum of the prime factors of n)``;
* the DFT matrices and twiddle factors are computed in float64 from ``(j * k) mod n`` (exact
  angles) and rounded once to the working precision;
* ``irfft``/``hfft`` extend the one-sided spectrum by conjugate symmetry and take the real part
  of the inverse complex transform: that is the same real function of the input's real and
  imaginary parts as PyTorch's C2R transform (the imaginary parts of the zero and Nyquist
  frequencies are ignored), so its gradient is PyTorch's.
"""

import math
import operator

import ferrograd as _torch

__all__ = [
    "fft", "ifft", "fft2", "ifft2", "fftn", "ifftn",
    "rfft", "irfft", "rfft2", "irfft2", "rfftn", "irfftn",
    "hfft", "ihfft", "hfft2", "ihfft2", "hfftn", "ihfftn",
    "fftfreq", "rfftfreq", "fftshift", "ifftshift",
]

_NORMS = (None, "backward", "ortho", "forward")
# sizes up to this (and primes) use the DFT matrix directly
_DIRECT_MAX = 32
# primes up to this use the DFT matrix, larger ones Bluestein's algorithm
_PRIME_DIRECT_MAX = 256
_CACHE = {}
_CACHE_LIMIT = 256


# --- argument handling -------------------------------------------------------------------


def _check_norm(norm):
    if norm not in _NORMS:
        raise RuntimeError(f'Invalid normalization mode: "{norm}"')


def _wrap_dim(d, ndim):
    try:
        d = operator.index(d)
    except TypeError:
        raise TypeError(f"dim must be int, not {type(d).__name__}") from None
    if ndim == 0:
        raise IndexError(f"Dimension specified as {d} but tensor has no dimensions")
    if not -ndim <= d < ndim:
        raise IndexError(
            f"Dimension out of range (expected to be in range of [{-ndim}, {ndim - 1}], but got {d})"
        )
    return d % ndim


def _check_int_arg(fname, name, value, kind="int"):
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        try:
            return operator.index(value)
        except TypeError:
            raise TypeError(
                f"fft_{fname}(): argument '{name}' must be {kind}, not {type(value).__name__}"
            ) from None
    return value


def _check_points(n):
    if n < 1:
        raise RuntimeError(f"Invalid number of data points ({n}) specified")


def _real_dtype_for(dtype):
    """The floating dtype an FFT of a ``dtype`` input computes in (ints and bools promote)."""
    if dtype.is_complex:
        return dtype
    if not dtype.is_floating_point:
        return _torch.get_default_dtype()
    if dtype not in (_torch.float32, _torch.float64):
        raise RuntimeError(f"Unsupported dtype {_dtype_name(dtype)}")
    return dtype


def _dtype_name(dtype):
    names = {
        _torch.float16: "Half", _torch.bfloat16: "BFloat16", _torch.float32: "Float",
        _torch.float64: "Double", _torch.complex64: "ComplexFloat", _torch.complex128: "ComplexDouble",
    }
    return names.get(dtype, str(dtype).split(".")[-1])


def _complex_of(dtype):
    return _torch.complex128 if dtype == _torch.float64 else _torch.complex64


def _to_complex(x):
    """``x`` as a complex tensor (floats promoted first, as PyTorch's FFTs promote)."""
    if x.dtype.is_complex:
        return x
    real = _real_dtype_for(x.dtype)
    return x.to(_complex_of(real))


def _to_real(x):
    real = _real_dtype_for(x.dtype)
    return x if x.dtype == real else x.to(real)


def _resize(x, dims, sizes):
    """Zero-pad or trim ``x`` (from the start) so that ``x.size(dims[i]) == sizes[i]``."""
    for d, s in zip(dims, sizes):
        have = x.shape[d]
        if have > s:
            x = x.narrow(d, 0, s)
        elif have < s:
            shape = list(x.shape)
            shape[d] = s - have
            x = _torch.cat([x, _torch.zeros(shape, dtype=x.dtype, device=x.device)], d)
    return x


def _scale(x, norm, numel, forward):
    """PyTorch's normalization of a transform of ``numel`` points."""
    if norm == "ortho":
        return x * (1.0 / math.sqrt(numel))
    if (forward and norm == "forward") or (not forward and norm in (None, "backward")):
        return x * (1.0 / numel)
    return x


def _shape_and_dims(x, s, dim, fname):
    """Canonical ``(shape, dims)`` of an n-dimensional transform (PyTorch's rules and errors)."""
    ndim = x.dim()
    if dim is not None:
        dims_in = [dim] if isinstance(dim, int) or not hasattr(dim, "__len__") else list(dim)
        dims = [_wrap_dim(d, ndim) for d in dims_in]
        if len(set(dims)) != len(dims):
            raise RuntimeError("FFT dims must be unique")
    if s is not None:
        s = [s] if isinstance(s, int) or not hasattr(s, "__len__") else list(s)
        s = [_check_int_arg(fname, "s", v, "tuple of ints") for v in s]
        if dim is not None and len(dims) != len(s):
            raise RuntimeError("When given, dim and shape arguments must have the same length")
        if len(s) > ndim:
            raise RuntimeError(
                f"Got shape with {len(s)} values but input tensor only has {ndim} dimensions."
            )
        if dim is None:
            dims = list(range(ndim - len(s), ndim))
        shape = [v if v != -1 else x.shape[d] for v, d in zip(s, dims)]
    elif dim is None:
        dims = list(range(ndim))
        shape = list(x.shape)
    else:
        shape = [x.shape[d] for d in dims]
    for v in shape:
        _check_points(v)
    return shape, dims


def _kind_c2c(input):
    return "c2c" if input.dtype.is_complex else "r2c"


def _out(fname, r, out, kind):
    """Write ``r`` into ``out`` (resized) as PyTorch's ``out=`` does; ``kind`` names the
    underlying kernel (``c2c``, ``r2c``, ``c2r``) for the autograd error."""
    if out is None:
        return r
    if r.dtype.is_complex and not out.dtype.is_complex:
        raise RuntimeError(f"{fname} expects a complex output tensor, but got {_dtype_name(out.dtype)}")
    if not r.dtype.is_complex and out.dtype.is_complex:
        raise RuntimeError(
            f"{fname} expects a floating point output tensor, but got {_dtype_name(out.dtype)}"
        )
    if r.requires_grad:
        raise RuntimeError(
            f"_fft_{kind}(): functions with out=... arguments don't support automatic "
            "differentiation, but one of the arguments requires grad."
        )
    _torch.mul(r, 1, out=out)
    return out


# --- the transform core -----------------------------------------------------------------


def _cached(key, make):
    """A constant tensor (DFT matrix, twiddles, chirp) made once per key; built as a normal
    tensor outside autograd, so that one first made under ``inference_mode`` or ``no_grad``
    serves later differentiable calls too."""
    v = _CACHE.get(key)
    if v is None:
        if len(_CACHE) >= _CACHE_LIMIT:
            _CACHE.clear()
        with _torch.inference_mode(False), _torch.no_grad():
            v = _CACHE[key] = make()
    return v


def _expi(rows, cols, n, sign, dtype, device):
    """``exp(sign * 2j * pi * (r * c mod n) / n)`` for ``r`` in ``rows``, ``c`` in ``cols``."""
    r = _torch.arange(rows, dtype=_torch.int64)
    c = _torch.arange(cols, dtype=_torch.int64)
    prod_i = _torch.remainder(r.unsqueeze(1) * c.unsqueeze(0), n)
    angle = prod_i.to(_torch.float64) * (2.0 * math.pi / n)
    cos, sin = _torch.cos(angle), _torch.sin(angle)
    # quarter turns exactly (1, i, -1, -i), as an FFT library's twiddles are: a real input's
    # Nyquist term and the imaginary parts that cancel come out as exact zeros
    quarter = _torch.remainder(4 * prod_i, n) == 0
    k = _torch.div(4 * prod_i, n, rounding_mode="floor").remainder(4)
    one = _torch.ones((), dtype=_torch.float64)
    zero = _torch.zeros((), dtype=_torch.float64)
    exact_cos = _torch.where(k == 0, one, _torch.where(k == 2, -one, zero))
    exact_sin = _torch.where(k == 1, one, _torch.where(k == 3, -one, zero))
    cos = _torch.where(quarter, exact_cos, cos)
    sin = _torch.where(quarter, exact_sin, sin)
    w = _torch.complex(cos, sin * float(sign))
    return w.to(dtype=dtype, device=device)


def _split(n):
    """``(n1, n2)`` with ``n1 * n2 == n``, ``n1`` the largest divisor not above ``sqrt(n)``
    (``(1, n)`` for a prime)."""
    best = 1
    f = 1
    while f * f <= n:
        if n % f == 0:
            best = f
        f += 1
    return best, n // best


def _dft_last(x, sign):
    """The unnormalized DFT of complex ``x`` along its last dimension
    (``sign = -1``: forward, ``+1``: inverse)."""
    n = x.shape[-1]
    if n == 1:
        return x
    n1, n2 = _split(n)
    if n1 == 1 and n > _PRIME_DIRECT_MAX:
        return _bluestein(x, sign)
    if n <= _DIRECT_MAX or n1 == 1:
        w = _cached(("w", n, sign, x.dtype, str(x.device)),
                    lambda: _expi(n, n, n, sign, x.dtype, x.device))
        return _torch.matmul(x.contiguous(), w)
    batch = list(x.shape[:-1])
    a = x.reshape(batch + [n1, n2])  # a[j1, j2] = x[n2 * j1 + j2]
    b = _dft_last(a.transpose(-1, -2), sign).transpose(-1, -2)  # b[k1, j2]
    t = _cached(("t", n, n1, sign, x.dtype, str(x.device)),
                lambda: _expi(n1, n2, n, sign, x.dtype, x.device))
    c = _dft_last(b * t, sign)  # c[k1, k2] = X[k1 + n1 * k2]
    return c.transpose(-1, -2).reshape(batch + [n])


def _chirp(n, sign, dtype, device):
    """``c[m] = exp(sign * 1j * pi * (m * m mod 2n) / n)`` for ``m < n``."""
    m = _torch.arange(n, dtype=_torch.int64)
    angle = _torch.remainder(m * m, 2 * n).to(_torch.float64) * (math.pi / n)
    return _torch.complex(_torch.cos(angle), _torch.sin(angle) * float(sign)).to(dtype=dtype, device=device)


def _bluestein_kernel(n, size, sign, dtype, device):
    """The DFT (length ``size``) of the conjugate chirp laid out for a circular convolution."""
    c = _chirp(n, sign, _torch.complex128, "cpu").conj()
    b = _torch.cat([c, _torch.zeros(size - 2 * n + 1, dtype=_torch.complex128), c[1:].flip(0)])
    return _dft_last(b, -1).to(dtype=dtype, device=device)


def _bluestein(x, sign):
    """A DFT of any length ``n`` as a circular convolution of power-of-two length (Bluestein):
    ``X[k] = c[k] * sum_j (x[j] c[j]) conj(c[k - j])`` with the chirp ``c[m] = exp(sign i pi m^2 / n)``."""
    n = x.shape[-1]
    size = 1 << (2 * n - 2).bit_length()
    key = (x.dtype, str(x.device))
    c = _cached(("chirp", n, sign) + key, lambda: _chirp(n, sign, x.dtype, x.device))
    kern = _cached(("blue", n, size, sign) + key,
                   lambda: _bluestein_kernel(n, size, sign, x.dtype, x.device))
    a = _resize(x * c, [x.dim() - 1], [size])
    conv = _dft_last(_dft_last(a, -1) * kern, +1)
    return conv.narrow(-1, 0, n) * (c * (1.0 / size))


def _dft(x, dims, sign):
    """The unnormalized DFT of complex ``x`` along each of ``dims``."""
    last = x.dim() - 1
    for d in dims:
        if x.shape[d] == 1:
            continue
        if d == last:
            x = _dft_last(x, sign)
        else:
            x = _dft_last(x.transpose(d, last), sign).transpose(d, last)
    return x


def _hermitian_full(x, d, n):
    """The length-``n`` spectrum along ``d`` whose first ``n // 2 + 1`` entries are ``x``'s and
    the rest their conjugate-symmetric partners."""
    m = x.shape[d]
    tail = n - m
    if tail <= 0:
        return x
    mirrored = x.narrow(d, 1, tail).flip(d).conj()
    return _torch.cat([x, mirrored], d)


def _c2r(x, dims, last_size):
    """The unnormalized inverse C2R transform: ``x`` one-sided along ``dims[-1]`` (already of
    length ``last_size // 2 + 1``), c2c inverse along the other dims."""
    x = _dft(x, dims[:-1], +1)
    full = _hermitian_full(x, dims[-1], last_size)
    return _dft(full, dims[-1:], +1).real


def _r2c(x, dims, onesided):
    """The unnormalized forward R2C transform of real ``x`` along ``dims`` (the last of them
    one-sided when ``onesided``)."""
    c = _to_complex(x)
    out = _dft(c, dims[-1:], -1)
    if onesided:
        d = dims[-1]
        out = out.narrow(d, 0, x.shape[d] // 2 + 1)
    return _dft(out, dims[:-1], -1)


# --- one-dimensional transforms ----------------------------------------------------------


def _one_dim(fname, input, n, dim):
    n = _check_int_arg(fname, "n", n)
    dim = _check_int_arg(fname, "dim", dim)
    d = _wrap_dim(dim, input.dim())
    return n, d


def _c2c_1d(fname, input, n, dim, norm, forward):
    _check_norm(norm)
    n, d = _one_dim(fname, input, n, dim)
    size = n if n is not None else input.shape[d]
    _check_points(size)
    x = _to_complex(input)
    if n is not None:
        x = _resize(x, [d], [n])
    return _scale(_dft(x, [d], -1 if forward else +1), norm, size, forward)


def _r2c_1d(fname, input, n, dim, norm, forward):
    if input.dtype.is_complex:
        raise RuntimeError(f"{fname} expects a real input tensor, but got {_dtype_name(input.dtype)}")
    _check_norm(norm)
    n, d = _one_dim(fname, input, n, dim)
    size = n if n is not None else input.shape[d]
    _check_points(size)
    x = _to_real(input)
    if n is not None:
        x = _resize(x, [d], [n])
    out = _scale(_r2c(x, [d], True), norm, size, forward)
    return out if forward else out.conj()


def _c2r_1d(fname, input, n, dim, norm, forward):
    _check_norm(norm)
    n, d = _one_dim(fname, input, n, dim)
    x = _to_complex(input)
    size = n if n is not None else 2 * (x.shape[d] - 1)
    _check_points(size)
    x = _resize(x, [d], [size // 2 + 1])
    if forward:
        x = x.conj()
    return _scale(_c2r(x, [d], size), norm, size, forward)


def fft(input, n=None, dim=-1, norm=None, *, out=None):
    """The one-dimensional discrete Fourier transform of ``input`` along ``dim``.

    ``n`` trims or zero-pads the signal to that length first; ``norm`` is ``"backward"``
    (default, no scaling), ``"ortho"`` (``1/sqrt(n)``) or ``"forward"`` (``1/n``). Real input
    gives the full (two-sided) complex spectrum.
    """
    r = _c2c_1d("fft", input if input.dtype.is_complex else _to_real(input), n, dim, norm, True)
    return _out("fft", r, out, _kind_c2c(input))


def ifft(input, n=None, dim=-1, norm=None, *, out=None):
    """The one-dimensional inverse discrete Fourier transform of ``input`` along ``dim``
    (``norm="backward"`` scales by ``1/n``)."""
    r = _c2c_1d("ifft", input if input.dtype.is_complex else _to_real(input), n, dim, norm, False)
    return _out("ifft", r, out, _kind_c2c(input))


def rfft(input, n=None, dim=-1, norm=None, *, out=None):
    """The one-dimensional Fourier transform of real ``input``: the ``n // 2 + 1`` non-negative
    frequencies of the (Hermitian-symmetric) spectrum."""
    return _out("rfft", _r2c_1d("rfft", input, n, dim, norm, True), out, "r2c")


def irfft(input, n=None, dim=-1, norm=None, *, out=None):
    """The inverse of :func:`rfft`: the real signal of length ``n`` (default
    ``2 * (input.size(dim) - 1)``) whose one-sided spectrum is ``input``.

    The imaginary parts of the zero frequency (and of the Nyquist frequency for even ``n``)
    are ignored, as in PyTorch.
    """
    return _out("irfft", _c2r_1d("irfft", input, n, dim, norm, False), out, "c2r")


def hfft(input, n=None, dim=-1, norm=None, *, out=None):
    """The Fourier transform of a Hermitian-symmetric signal given by its first half
    ``input``: a real spectrum of length ``n`` (default ``2 * (input.size(dim) - 1)``)."""
    return _out("hfft", _c2r_1d("hfft", input, n, dim, norm, True), out, "c2r")


def ihfft(input, n=None, dim=-1, norm=None, *, out=None):
    """The inverse of :func:`hfft`: the one-sided (``n // 2 + 1``) inverse Fourier transform of
    real ``input``."""
    return _out("ihfft", _r2c_1d("ihfft", input, n, dim, norm, False), out, "r2c")


# --- n-dimensional transforms ------------------------------------------------------------


def _c2c_nd(fname, input, s, dim, norm, forward):
    _check_norm(norm)
    shape, dims = _shape_and_dims(input, s, dim, fname)
    x = _resize(_to_complex(input), dims, shape)
    return _scale(_dft(x, dims, -1 if forward else +1), norm, math.prod(shape), forward)


def _r2c_nd(fname, input, s, dim, norm, forward):
    if input.dtype.is_complex:
        if not forward:  # PyTorch's ihfftn/ihfft2 fail in their dtype promotion
            raise RuntimeError(
                f"Only supports floating-point dtypes, but found: {_dtype_name(input.dtype)}"
            )
        raise RuntimeError(
            f"{fname} expects a real-valued input tensor, but got {_dtype_name(input.dtype)}"
        )
    _check_norm(norm)
    shape, dims = _shape_and_dims(input, s, dim, fname)
    if len(shape) == 0:
        raise RuntimeError(f"{fname} must transform at least one axis")
    x = _resize(_to_real(input), dims, shape)
    if forward:
        return _scale(_r2c(x, dims, True), norm, math.prod(shape), True)
    # ihfftn: the one-sided inverse along the last dim, conjugated, then inverse c2c on the rest
    tmp = _r2c(x, dims[-1:], True).conj()
    tmp = _dft(tmp, dims[:-1], +1)
    return _scale(tmp, norm, math.prod(shape), False)


def _c2r_nd(fname, input, s, dim, norm, forward):
    _check_norm(norm)
    shape, dims = _shape_and_dims(input, s, dim, fname)
    if len(shape) == 0:
        raise RuntimeError(f"{fname} must transform at least one axis")
    s_list = None if s is None else ([s] if isinstance(s, int) else list(s))
    if s_list is None or s_list[-1] == -1:
        last = 2 * (input.shape[dims[-1]] - 1)
    else:
        last = shape[-1]
    _check_points(last)
    shape[-1] = last // 2 + 1
    x = _resize(_to_complex(input), dims, shape)
    if not forward:
        out = _c2r(x, dims, last)
        return _scale(out, norm, math.prod(shape[:-1]) * last, False)
    # hfftn: forward c2c on all but the last dim, conjugate, then the C2R transform
    tmp = _dft(x, dims[:-1], -1)
    tmp = _scale(tmp, norm, math.prod(shape[:-1]), True).conj()
    out = _c2r(tmp, dims[-1:], last)
    return _scale(out, norm, last, True)


def fftn(input, s=None, dim=None, norm=None, *, out=None):
    """The n-dimensional discrete Fourier transform over ``dim`` (default: all dimensions, or
    the last ``len(s)``); ``s`` gives the signal size along each (``-1``: unchanged)."""
    return _out("fftn", _c2c_nd("fftn", input, s, dim, norm, True), out, _kind_c2c(input))


def ifftn(input, s=None, dim=None, norm=None, *, out=None):
    """The n-dimensional inverse discrete Fourier transform (see :func:`fftn`)."""
    return _out("ifftn", _c2c_nd("ifftn", input, s, dim, norm, False), out, _kind_c2c(input))


def fft2(input, s=None, dim=(-2, -1), norm=None, *, out=None):
    """The two-dimensional discrete Fourier transform (:func:`fftn` over the last two dims)."""
    return _out("fftn", _c2c_nd("fftn", input, s, dim, norm, True), out, _kind_c2c(input))


def ifft2(input, s=None, dim=(-2, -1), norm=None, *, out=None):
    """The two-dimensional inverse discrete Fourier transform (see :func:`ifftn`)."""
    return _out("ifftn", _c2c_nd("ifftn", input, s, dim, norm, False), out, _kind_c2c(input))


def rfftn(input, s=None, dim=None, norm=None, *, out=None):
    """The n-dimensional Fourier transform of real ``input``, one-sided along the last
    transformed dimension."""
    return _out("rfftn", _r2c_nd("rfftn", input, s, dim, norm, True), out, "r2c")


def rfft2(input, s=None, dim=(-2, -1), norm=None, *, out=None):
    """The two-dimensional Fourier transform of real ``input`` (see :func:`rfftn`)."""
    return _out("rfftn", _r2c_nd("rfftn", input, s, dim, norm, True), out, "r2c")


def irfftn(input, s=None, dim=None, norm=None, *, out=None):
    """The inverse of :func:`rfftn`: a real signal, the last transformed dimension of length
    ``s[-1]`` (default ``2 * (input.size(dim[-1]) - 1)``)."""
    return _out("irfftn", _c2r_nd("irfftn", input, s, dim, norm, False), out, "c2r")


def irfft2(input, s=None, dim=(-2, -1), norm=None, *, out=None):
    """The inverse of :func:`rfft2` (see :func:`irfftn`)."""
    return _out("irfftn", _c2r_nd("irfftn", input, s, dim, norm, False), out, "c2r")


def hfftn(input, s=None, dim=None, norm=None, *, out=None):
    """The n-dimensional Fourier transform of a Hermitian-symmetric signal given by its
    one-sided half (a real result)."""
    return _out("hfftn", _c2r_nd("hfftn", input, s, dim, norm, True), out, "c2r")


def hfft2(input, s=None, dim=(-2, -1), norm=None, *, out=None):
    """The two-dimensional :func:`hfftn`."""
    return _out("hfftn", _c2r_nd("hfftn", input, s, dim, norm, True), out, "c2r")


def ihfftn(input, s=None, dim=None, norm=None, *, out=None):
    """The inverse of :func:`hfftn`: the one-sided n-dimensional inverse transform of real
    ``input``."""
    return _out("ihfftn", _r2c_nd("ihfftn", input, s, dim, norm, False), out, "r2c")


def ihfft2(input, s=None, dim=(-2, -1), norm=None, *, out=None):
    """The two-dimensional :func:`ihfftn`."""
    return _out("ihfftn", _r2c_nd("ihfftn", input, s, dim, norm, False), out, "r2c")


# --- helpers -----------------------------------------------------------------------------


def _freq(fname, n, d, out, dtype, layout, device, requires_grad):
    if isinstance(n, bool) or not isinstance(n, int):
        try:
            n = operator.index(n)
        except TypeError:
            raise TypeError(
                f"fft_{fname}(): argument 'n' (position 1) must be int, not {type(n).__name__}"
            ) from None
    if layout is not None and "strided" not in str(layout):
        raise NotImplementedError(f"torch.fft.{fname}: only the strided layout is supported")
    if out is not None and dtype is not None and dtype != out.dtype:
        raise RuntimeError(
            f"dtype {_dtype_name(dtype)} does not match dtype of out parameter ({_dtype_name(out.dtype)})"
        )
    dtype = out.dtype if out is not None else (_torch.get_default_dtype() if dtype is None else dtype)
    if not (dtype.is_floating_point or dtype.is_complex):
        raise RuntimeError(f"{fname} requires a floating point or complex dtype")
    if dtype.is_complex:
        raise NotImplementedError(f'"arange_cpu" not implemented for \'{_dtype_name(dtype)}\'')
    if n < 0:
        raise RuntimeError(f"Trying to create tensor with negative dimension {n}: [{n}]")
    if fname == "fftfreq":
        values = list(range((n - 1) // 2 + 1)) + list(range(-(n // 2), 0))
    else:
        values = list(range(n // 2 + 1))
    d = d.item() if isinstance(d, _torch.Tensor) else d
    denom = n * d
    scale = 1.0 / denom if denom != 0 else math.copysign(math.inf, denom) if denom == denom else math.nan
    r = _torch.tensor(values, dtype=dtype) if values else _torch.zeros(0, dtype=dtype)
    r = r * scale
    if device is not None:
        r = r.to(device)
    if out is not None:
        with _torch.no_grad():
            _torch.mul(r, 1, out=out)
        return out
    if requires_grad:
        r.requires_grad_(True)
    return r


def fftfreq(n, d=1.0, *, out=None, dtype=None, layout=None, device=None, requires_grad=False):
    """The sample frequencies of a length-``n`` :func:`fft` with sample spacing ``d``:
    ``[0, 1, ..., (n - 1) // 2, -(n // 2), ..., -1] / (d * n)``."""
    return _freq("fftfreq", n, d, out, dtype, layout, device, requires_grad)


def rfftfreq(n, d=1.0, *, out=None, dtype=None, layout=None, device=None, requires_grad=False):
    """The sample frequencies of a length-``n`` :func:`rfft` with sample spacing ``d``:
    ``[0, 1, ..., n // 2] / (d * n)``."""
    return _freq("rfftfreq", n, d, out, dtype, layout, device, requires_grad)


def _shift(input, dim, inverse):
    if dim is None:
        dims = list(range(input.dim()))
    elif isinstance(dim, int) or not hasattr(dim, "__len__"):
        dims = [dim]
    else:
        dims = list(dim)
    if not dims:
        raise RuntimeError("`shifts` required")
    wrapped = [_wrap_dim(d, input.dim()) for d in dims]
    shifts = [(input.shape[d] + 1) // 2 if inverse else input.shape[d] // 2 for d in wrapped]
    return _torch.roll(input, shifts, dims)


def fftshift(input, dim=None):
    """Reorder an FFT's output so the zero frequency is in the middle: a roll by
    ``size // 2`` along each of ``dim`` (default: all dimensions)."""
    return _shift(input, dim, False)


def ifftshift(input, dim=None):
    """The inverse of :func:`fftshift`: a roll by ``(size + 1) // 2`` along each of ``dim``."""
    return _shift(input, dim, True)
