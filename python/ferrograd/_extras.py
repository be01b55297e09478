"""More of PyTorch's surface as compositions of ferrograd ops: ``unravel_index``,
``fmax`` / ``fmin``, ``isposinf`` / ``isneginf``, ``adjoint``,
``addbmm``, ``frombuffer``, ``scalar_tensor``, ``gradient``, the function forms of a few
in-place methods, and the settings programs call at start-up (``set_warn_always``,
``is_anomaly_enabled``, ``set_default_tensor_type``)."""

import builtins
import math
import numbers

from . import _C
from . import _warn as _warnings
from ._mathops import _dtype_name

__all__ = ["unravel_index", "fmax", "fmin", "isposinf", "isneginf", "adjoint", "addbmm",
           "frombuffer", "scalar_tensor", "gradient", "nan_to_num_", "index_put_", "set_warn_always",
           "is_warn_always_enabled", "is_anomaly_enabled", "is_anomaly_check_nan_enabled", "set_default_tensor_type",
           "rms_norm", "OutOfMemoryError", "GradScaler"]


def _torch():
    import ferrograd

    return ferrograd


from .cuda import OutOfMemoryError  # noqa: E402  (torch.OutOfMemoryError is torch.cuda.OutOfMemoryError)


from .amp import GradScaler  # noqa: E402  (torch.GradScaler is torch.amp.GradScaler)


def unravel_index(indices, shape):
    """The coordinates in a tensor of ``shape`` of the flat ``indices``: a tuple of int64
    tensors, one per dim."""
    torch = _torch()
    if not isinstance(indices, torch.Tensor):
        raise TypeError(f"expected 'indices' to be integer dtype, but got {type(indices)}")
    if indices.is_floating_point() or indices.is_complex() or indices.dtype == torch.bool:
        raise TypeError(f"expected 'indices' to be integer dtype, but got {indices.dtype}")
    if isinstance(shape, numbers.Integral):
        shape = (shape,)
    shape = [int(s) for s in shape]
    if any(s < 0 for s in shape):
        raise ValueError("'shape' cannot have negative values, but got " + str(tuple(shape)))
    numel = math.prod(shape)
    idx = indices.long()
    if idx.numel() and (bool((idx < -numel).any()) or bool((idx >= numel).any())):
        raise RuntimeError("index out of bounds")
    idx = torch.where(idx < 0, idx + numel, idx)
    out = []
    for s in reversed(shape):
        out.append(torch.remainder(idx, s) if s else idx * 0)
        idx = torch.div(idx, s, rounding_mode="floor") if s else idx
    return tuple(reversed(out))


def fmax(input, other, *, out=None):
    """Elementwise maximum that ignores NaN (NaN only where both are NaN)."""
    torch = _torch()
    r = torch.where(torch.isnan(other), input, torch.where(torch.isnan(input), other, torch.maximum(input, other)))
    return r if out is None else out.copy_(r)


def fmin(input, other, *, out=None):
    """Elementwise minimum that ignores NaN (NaN only where both are NaN)."""
    torch = _torch()
    r = torch.where(torch.isnan(other), input, torch.where(torch.isnan(input), other, torch.minimum(input, other)))
    return r if out is None else out.copy_(r)


def isposinf(input, *, out=None):
    """Where ``input`` is +inf."""
    torch = _torch()
    r = input == math.inf if input.is_floating_point() else torch.zeros_like(input, dtype=torch.bool)
    return r if out is None else out.copy_(r)


def isneginf(input, *, out=None):
    """Where ``input`` is -inf."""
    torch = _torch()
    r = input == -math.inf if input.is_floating_point() else torch.zeros_like(input, dtype=torch.bool)
    return r if out is None else out.copy_(r)


def adjoint(input):
    """The conjugate transpose of the last two dimensions (a view)."""
    if input.dim() < 2:
        raise RuntimeError("tensor.adjoint() is only supported on matrices or batches of matrices. Got 1-D tensor.")
    t = input.transpose(-2, -1)
    return t.conj() if t.is_complex() else t


def addbmm(input, batch1, batch2, *, beta=1, alpha=1, out=None):
    """``beta · input + alpha · Σ_b batch1[b] @ batch2[b]``."""
    torch = _torch()
    if batch1.dim() != 3 or batch2.dim() != 3:
        raise RuntimeError(f"batch1 must be a 3D tensor" if batch1.dim() != 3 else "batch2 must be a 3D tensor")
    prod = torch.bmm(batch1, batch2).sum(0)
    r = prod * alpha if alpha != 1 else prod
    if beta != 0:
        r = (input * beta if beta != 1 else input) + r
    return r if out is None else out.copy_(r)


def frombuffer(buffer, *, dtype, count=-1, offset=0, requires_grad=False):
    """A 1-D tensor of ``dtype`` read from an object with the buffer protocol (a copy of
    its bytes: later writes to ``buffer`` are not seen)."""
    import numpy as np

    torch = _torch()
    mv = memoryview(buffer)
    nbytes = mv.nbytes
    size = torch.empty((), dtype=dtype).element_size()
    if nbytes <= 0:
        raise ValueError(f"both buffer length ({nbytes}) and count ({count}) must not be 0")
    if offset < 0 or offset >= nbytes:
        raise ValueError(f"offset ({offset} bytes) must be non-negative and no greater than buffer length ({nbytes} bytes) minus 1")
    if count <= 0 and (nbytes - offset) % size != 0:
        raise ValueError(f"buffer length ({nbytes - offset} bytes) after offset ({offset} bytes) must be a multiple of "
                         f"element size ({size})")
    n = (nbytes - offset) // size if count < 0 else count
    if count > 0 and offset + n * size > nbytes:
        raise ValueError(f"requested buffer length ({count} * {size} bytes) after offset ({offset} bytes) must not be "
                         f"greater than actual buffer length ({nbytes} bytes)")
    if dtype == torch.bfloat16:
        # NumPy has no bfloat16: the upper halves of float32 bit patterns (exact)
        bits = np.frombuffer(mv.cast("B"), dtype=np.uint16, count=n, offset=offset).astype(np.uint32) << 16
        t = torch.from_numpy(bits.view(np.float32).copy()).to(dtype)
    else:
        npdt = {torch.bool: np.bool_, torch.uint8: np.uint8, torch.int8: np.int8, torch.int16: np.int16,
                torch.int32: np.int32, torch.int64: np.int64, torch.float16: np.float16, torch.float32: np.float32,
                torch.float64: np.float64, torch.complex64: np.complex64, torch.complex128: np.complex128}[dtype]
        t = torch.from_numpy(np.frombuffer(mv.cast("B"), dtype=npdt, count=n, offset=offset).copy())
    return t.requires_grad_(requires_grad) if requires_grad else t


def scalar_tensor(s, *, dtype=None, layout=None, device=None, pin_memory=None, requires_grad=False):
    """A 0-dim tensor holding ``s`` (the default float dtype unless ``dtype``)."""
    torch = _torch()
    if isinstance(s, complex) and dtype is None:
        dtype = torch.complex64 if torch.get_default_dtype() == torch.float32 else torch.complex128
    return torch.tensor(s, dtype=dtype or torch.get_default_dtype(), device=device, requires_grad=requires_grad)


def nan_to_num_(input, nan=0.0, posinf=None, neginf=None):
    """In-place ``nan_to_num``."""
    return input.nan_to_num_(nan=nan, posinf=posinf, neginf=neginf)


def index_put_(input, indices, values, accumulate=False):
    """In-place ``index_put``."""
    return input.index_put_(indices, values, accumulate)


def rms_norm(input, normalized_shape, weight=None, eps=None):
    """Root-mean-square normalization over the trailing ``normalized_shape`` dims."""
    from .nn.functional import rms_norm as f

    return f(input, normalized_shape, weight, eps)


def gradient(input, *, spacing=1, dim=None, edge_order=1):
    """Estimate the gradient of a function sampled at ``input`` (central differences inside,
    one-sided differences of order ``edge_order`` at the edges), one tensor per dimension
    in ``dim`` (all dims by default). ``spacing``: one number for every dim, one number per
    dim, or one tensor of coordinates per dim."""
    torch = _torch()
    if dim is None:
        dims = list(range(input.dim()))
    elif isinstance(dim, numbers.Integral):
        dims = [int(dim)]
    else:
        dims = [int(d) for d in dim]
    dims = [d % input.dim() if input.dim() else d for d in dims]
    if edge_order not in (1, 2):
        raise RuntimeError(f"torch.gradient only supports edge_order=1 and edge_order=2.")
    if isinstance(spacing, (list, tuple)):
        if len(spacing) != len(dims):
            raise RuntimeError(f"torch.gradient expected spacing to be unspecified, a scalar or it's spacing and dim "
                               f"arguments to have the same length, but got a spacing argument of length {len(spacing)} and "
                               f"a dim argument of length {len(dims)}.")
        spacings = list(spacing)
    else:
        spacings = [spacing] * len(dims)
    for d in dims:
        if input.shape[d] < edge_order + 1:
            raise RuntimeError(f"torch.gradient expected each dimension size to be at least edge_order+1")
    x = input if input.is_floating_point() or input.is_complex() else input.to(torch.get_default_dtype())
    return tuple(_gradient_1d(torch, x, d, h, edge_order) for d, h in zip(dims, spacings))


def _gradient_1d(torch, f, d, h, edge_order):
    n = f.shape[d]

    def s(a, b):
        return f.narrow(d, a, b - a)

    if isinstance(h, torch.Tensor) and h.dim() == 1:
        # coordinates: numpy's second-order formula inside, one-sided at the edges
        x = h.to(f.dtype)
        shape = [1] * f.dim()
        shape[d] = n - 2
        dx = x[1:] - x[:-1]
        hl, hr = dx[:-1].reshape(shape), dx[1:].reshape(shape)
        a = -hr / (hl * (hl + hr))
        b = (hr - hl) / (hl * hr)
        c = hl / (hr * (hl + hr))
        inner = a * s(0, n - 2) + b * s(1, n - 1) + c * s(2, n)
        if edge_order == 1:
            first = (s(1, 2) - s(0, 1)) / dx[0]
            last = (s(n - 1, n) - s(n - 2, n - 1)) / dx[-1]
        else:
            d1, d2 = dx[0], dx[1]
            first = (-(2 * d1 + d2) / (d1 * (d1 + d2)) * s(0, 1) + (d1 + d2) / (d1 * d2) * s(1, 2)
                     - d1 / (d2 * (d1 + d2)) * s(2, 3))
            d1, d2 = dx[-2], dx[-1]
            last = (d2 / (d1 * (d1 + d2)) * s(n - 3, n - 2) - (d2 + d1) / (d1 * d2) * s(n - 2, n - 1)
                    + (2 * d2 + d1) / (d2 * (d1 + d2)) * s(n - 1, n))
        return torch.cat([first, inner, last], d)
    h = float(h.item()) if isinstance(h, torch.Tensor) else h
    inner = (s(2, n) - s(0, n - 2)) / (2 * h)
    if edge_order == 1:
        first = (s(1, 2) - s(0, 1)) / h
        last = (s(n - 1, n) - s(n - 2, n - 1)) / h
    else:
        first = (-1.5 * s(0, 1) + 2 * s(1, 2) - 0.5 * s(2, 3)) / h
        last = (0.5 * s(n - 3, n - 2) - 2 * s(n - 2, n - 1) + 1.5 * s(n - 1, n)) / h
    return torch.cat([first, inner, last], d)


_warn_always = False


def set_warn_always(b):
    """Warn every time (not once per process) for the warnings PyTorch gives once."""
    global _warn_always
    _warn_always = builtins.bool(b)


def is_warn_always_enabled():
    """Whether ``set_warn_always(True)`` is in effect."""
    return _warn_always


def is_anomaly_enabled():
    """Whether ``autograd.detect_anomaly`` / ``set_detect_anomaly`` is on."""
    from .autograd import anomaly_mode

    return anomaly_mode.is_anomaly_enabled()


def is_anomaly_check_nan_enabled():
    """Whether anomaly mode checks the backward's outputs for NaN."""
    from .autograd import anomaly_mode

    return anomaly_mode.is_anomaly_check_nan_enabled()


def set_default_tensor_type(t):
    """Set the default floating dtype through a tensor type (``torch.DoubleTensor`` or its
    name); deprecated, as in PyTorch."""
    torch = _torch()
    _warnings.warn("torch.set_default_tensor_type() is deprecated as of PyTorch 2.1, please use torch.set_default_dtype() "
                   "and torch.set_default_device() as alternatives.", UserWarning, stacklevel=2)
    name = t if isinstance(t, str) else getattr(t, "__name__", str(t))
    name = name.rsplit(".", 1)[-1]
    dtypes = {"FloatTensor": torch.float32, "DoubleTensor": torch.float64, "HalfTensor": torch.float16,
              "BFloat16Tensor": torch.bfloat16}
    if name not in dtypes:
        raise TypeError(f"invalid type: '{t}'")
    torch.set_default_dtype(dtypes[name])


def _sum_to_size(self, *size):
    """``self`` summed down to ``size`` (dims where ``size`` is 1 are summed, keeping them)."""
    torch = _torch()
    if len(size) == 1 and isinstance(size[0], (list, tuple, torch.Size)):
        size = tuple(size[0])
    size = tuple(int(s) for s in size)
    shape = tuple(self.shape)
    lead = len(shape) - len(size)
    ok = lead >= 0 and all(s == d or s == 1 for s, d in zip(size, shape[lead:]))
    if not ok:
        raise RuntimeError(f"size {{{list(size)}}} is not expandable to size {{{list(shape)}}}.")
    r = self.sum(tuple(range(lead))) if lead else self
    dims = tuple(i for i, (s, d) in enumerate(zip(size, shape[lead:])) if s == 1 and d != 1)
    return r.sum(dims, keepdim=True) if dims else r


def _apply_(self, callable):
    """Replace every element ``v`` by ``callable(v)`` (a Python function; CPU tensors)."""
    torch = _torch()
    if self.device.type != "cpu":
        raise TypeError("apply_ is only implemented on CPU tensors")
    values = [callable(v) for v in self.flatten().tolist()]
    return self.copy_(torch.tensor(values, dtype=self.dtype).reshape(self.shape))


def _new_empty_strided(self, size, stride, *, dtype=None, layout=None, device=None, pin_memory=False, requires_grad=False):
    """An uninitialised tensor of ``size`` and ``stride`` (``self``'s dtype and device by default)."""
    torch = _torch()
    return torch.empty_strided(size, stride, dtype=dtype or self.dtype, device=device or self.device,
                               requires_grad=requires_grad)


def _as_subclass(self, cls):
    """``self``'s data viewed as an instance of the Tensor subclass ``cls`` (no copy)."""
    torch = _torch()
    if not (isinstance(cls, type) and issubclass(cls, torch.Tensor)):
        raise TypeError(f"cls must be a type (got {type(cls).__name__})")
    return torch.Tensor.__new__(cls, _alias=self)


def _nan_to_num_(self, nan=0.0, posinf=None, neginf=None):
    """In-place ``nan_to_num``."""
    return self.copy_(self.nan_to_num(nan=nan, posinf=posinf, neginf=neginf))


def _install_tensor_methods(T):
    """Tensor methods of the functions above (``x.vdot(y)``, ``x.msort()``, ...)."""
    F = None

    def nnf():
        nonlocal F
        if F is None:
            from .nn import functional as F_
            F = F_
        return F

    T.vdot = lambda self, other: _torch().vdot(self, other)

    # `x << n`, `n >> x`, `x <<= n`: bitwise shifts of integer tensors (floats raise as PyTorch)
    def _scalar_as(o, like):
        torch = _torch()
        return o if isinstance(o, torch.Tensor) else torch.tensor(o, dtype=torch.float32 if isinstance(o, float) else
                                                                   torch.int64 if like.dtype == torch.bool else like.dtype)

    def _inplace(self, r):
        torch = _torch()
        if not torch.can_cast(r.dtype, self.dtype):
            raise RuntimeError(f"result type {_dtype_name(r.dtype)} can't be cast to the desired output type"
                               f" {_dtype_name(self.dtype)}")
        self.copy_(r)
        return self

    T.__lshift__ = lambda self, o: _torch().bitwise_left_shift(self, o)
    T.__rshift__ = lambda self, o: _torch().bitwise_right_shift(self, o)
    T.__rlshift__ = lambda self, o: _torch().bitwise_left_shift(_scalar_as(o, self), self)
    T.__rrshift__ = lambda self, o: _torch().bitwise_right_shift(_scalar_as(o, self), self)
    T.__ilshift__ = lambda self, o: _inplace(self, _torch().bitwise_left_shift(self, o))
    T.__irshift__ = lambda self, o: _inplace(self, _torch().bitwise_right_shift(self, o))
    T.msort = lambda self: _torch().msort(self)
    T.adjoint = lambda self: adjoint(self)
    T.fmax = lambda self, other: fmax(self, other)
    T.fmin = lambda self, other: fmin(self, other)
    T.isposinf = lambda self: isposinf(self)
    T.isneginf = lambda self: isneginf(self)
    T.addbmm = lambda self, batch1, batch2, *, beta=1, alpha=1: addbmm(self, batch1, batch2, beta=beta, alpha=alpha)
    T.sum_to_size = _sum_to_size
    T.apply_ = _apply_
    T.new_empty_strided = _new_empty_strided
    T.as_subclass = _as_subclass
    T.nan_to_num_ = _nan_to_num_
    T.triangular_solve = lambda self, A, upper=True, transpose=False, unitriangular=False: triangular_solve(
        self, A, upper, transpose, unitriangular)
    T.prelu = lambda self, weight: nnf().prelu(self, weight)
    T.hardshrink = lambda self, lambd=0.5: nnf().hardshrink(self, lambd)
    for name in ("vdot", "msort", "adjoint", "fmax", "fmin", "isposinf", "isneginf", "addbmm", "prelu", "hardshrink",
                 "triangular_solve"):
        getattr(T, name).__name__ = name
        getattr(T, name).__doc__ = f"``torch.{name}(self, ...)``."


# ---- window functions (ATen's formulas, in the window's dtype) ----------------------------

def _window_args(name, window_length, dtype, layout):
    torch = _torch()
    if dtype is None:
        dtype = torch.get_default_dtype()
    if not dtype.is_floating_point:
        cpp = {"int64": "long int", "int32": "int", "int16": "short int", "int8": "signed char", "uint8": "unsigned char",
               "bool": "bool", "complex64": "c10::complex<float>", "complex128": "c10::complex<double>"}
        raise RuntimeError(f"{name} expects floating point dtypes, got: TensorOptions(dtype={cpp.get(str(dtype).split('.')[-1], dtype)}, "
                           "device=cpu, layout=Strided (default), requires_grad=false (default), pinned_memory=false, "
                           "memory_format=(nullopt))")
    if window_length < 0:
        raise RuntimeError(f"{name} requires non-negative window_length, got window_length={window_length}")
    return dtype


def _window(name, window_length, periodic, dtype, device, requires_grad, fill):
    """ATen's window scaffolding: empty and one-element windows, the periodic form as the
    symmetric window of ``window_length + 1`` without its last point."""
    torch = _torch()
    dtype = _window_args(name, window_length, dtype, None)
    if window_length == 0:
        w = torch.empty(0, dtype=dtype, device=device)
    elif window_length == 1:
        w = torch.ones(1, dtype=dtype, device=device)
    else:
        n = window_length + 1 if periodic else window_length
        w = fill(torch.arange(n, dtype=dtype, device=device), n)
        if periodic:
            w = w[:-1].clone()
    return w.requires_grad_(requires_grad) if requires_grad else w


def _hamming(name, window_length, periodic, alpha, beta, dtype, device, requires_grad):
    return _window(name, window_length, periodic, dtype, device, requires_grad,
                   lambda n, N: (n * (math.pi * 2.0 / (N - 1))).cos() * (-beta) + alpha)


def hamming_window(window_length, periodic=True, alpha=0.54, beta=0.46, *, dtype=None, layout=None, device=None,
                   pin_memory=False, requires_grad=False):
    """``alpha - beta · cos(2πn / (N - 1))``."""
    return _hamming("hamming_window", window_length, periodic, alpha, beta, dtype, device, requires_grad)


def hann_window(window_length, periodic=True, *, dtype=None, layout=None, device=None, pin_memory=False,
                requires_grad=False):
    """``0.5 - 0.5 · cos(2πn / (N - 1))`` (Hamming with 0.5 / 0.5)."""
    return _hamming("hann_window", window_length, periodic, 0.5, 0.5, dtype, device, requires_grad)


def blackman_window(window_length, periodic=True, *, dtype=None, layout=None, device=None, pin_memory=False,
                    requires_grad=False):
    """``0.42 - 0.5 · cos(2πn / (N - 1)) + 0.08 · cos(4πn / (N - 1))``."""
    def fill(n, N):
        w = n * (math.pi / (N - 1))
        return (w * 4).cos() * 0.08 - (w * 2).cos() * 0.5 + 0.42

    return _window("blackman_window", window_length, periodic, dtype, device, requires_grad, fill)


def bartlett_window(window_length, periodic=True, *, dtype=None, layout=None, device=None, pin_memory=False,
                    requires_grad=False):
    """The triangular window ``1 - |2n / (N - 1) - 1|``."""
    def fill(n, N):
        w = n * (2.0 / (N - 1))
        half = ((N - 1) >> 1) + 1
        w[half:] = w[half:] * -1 + 2
        return w

    return _window("bartlett_window", window_length, periodic, dtype, device, requires_grad, fill)


def kaiser_window(window_length, periodic=True, beta=12.0, *, dtype=None, layout=None, device=None, pin_memory=False,
                  requires_grad=False):
    """``I0(β √(1 - ((n - α) / α)²)) / I0(β)`` with ``α = (N - 1) / 2``."""
    torch = _torch()

    def fill(n, N):
        alpha = (N - 1) / 2.0
        return torch.i0(beta * torch.sqrt(1 - ((n - alpha) / alpha) ** 2)) / torch.i0(torch.tensor(beta, dtype=n.dtype))

    return _window("kaiser_window", window_length, periodic, dtype, device, requires_grad, fill)


__all__ += ["hamming_window", "hann_window", "blackman_window", "bartlett_window", "kaiser_window"]


# ---- short-time Fourier transform ---------------------------------------------------------

def _tensor_type(t):
    names = {"float32": "FloatTensor", "float64": "DoubleTensor", "float16": "HalfTensor", "bfloat16": "BFloat16Tensor",
             "complex64": "ComplexFloatTensor", "complex128": "ComplexDoubleTensor"}
    return "torch." + names.get(str(t.dtype).split(".")[-1], "Tensor")


_stft_window_warned = False


def stft(input, n_fft, hop_length=None, win_length=None, window=None, center=True, pad_mode="reflect",
         normalized=False, onesided=None, return_complex=None, align_to_window=None):
    """The short-time Fourier transform: windowed frames of ``n_fft`` samples every
    ``hop_length``, each transformed (one-sided for real input); ``(*, freq, frames)``,
    complex (or its real view with ``return_complex=False``, deprecated)."""
    torch = _torch()
    from . import fft as _fft
    from .nn import functional as F

    global _stft_window_warned
    # first of all, and once per process (ATen's TORCH_WARN_ONCE)
    if window is None and (not _stft_window_warned or is_warn_always_enabled()):
        _stft_window_warned = True
        _warnings.warn("A window was not provided. A rectangular window will be applied,which is known to cause spectral "
                       "leakage. Other windows such as torch.hann_window or torch.hamming_window are recommended to reduce "
                       "spectral leakage.To suppress this warning and use a rectangular window, explicitly set "
                       "`window=torch.ones(n_fft, device=<device>)`.", UserWarning, stacklevel=2)
    complex_input = input.is_complex() or (window is not None and window.is_complex())
    if return_complex is None:
        if not complex_input:
            raise RuntimeError("stft requires the return_complex parameter be given for real inputs, and will further "
                               "require that return_complex=True in a future PyTorch release.")
        return_complex = True
    if not return_complex:
        _warnings.warn("stft with return_complex=False is deprecated. In a future pytorch release, stft will return "
                       "complex tensors for all inputs, and return_complex=False will raise an error.\nNote: you can "
                       "still call torch.view_as_real on the complex output to recover the old return format.",
                       UserWarning, stacklevel=2)
    if center:
        dim = input.dim()
        pad = n_fft // 2
        x = F.pad(input.view([1] * (3 - dim) + list(input.shape)), [pad, pad], pad_mode)
        input = x.view(x.shape[-dim:])
    hop = n_fft // 4 if hop_length is None else hop_length
    win = n_fft if win_length is None else win_length

    def fail(msg):
        wdesc = "None" if window is None else f"{_tensor_type(window)}{{{list(window.shape)}}}"
        raise RuntimeError(f"stft({_tensor_type(input)}{list(input.shape)}, n_fft={n_fft}, hop_length={hop}, "
                           f"win_length={win}, window={wdesc}, normalized={int(normalized)}, onesided="
                           f"{'None' if onesided is None else int(onesided)}, return_complex={int(return_complex)}, "
                           f"align_to_window={align_to_window}) : {msg}")

    if input.dim() not in (1, 2):
        fail(f"expected a 1D or 2D tensor")
    length = input.shape[-1]
    if n_fft <= 0 or n_fft > length:
        fail(f"expected 0 < n_fft < {length}, but got n_fft={n_fft}")
    if hop <= 0:
        fail(f"expected hop_length > 0, but got hop_length={hop}")
    if win <= 0 or win > n_fft:
        fail(f"expected 0 < win_length <= n_fft, but got win_length={win}")
    if window is not None and (window.dim() != 1 or window.shape[0] != win):
        fail(f"expected a 1D window tensor of size equal to win_length={win}, but got window with size {list(window.shape)}")
    if window is not None and win < n_fft:
        left = (n_fft - win) // 2
        window = F.pad(window, [left, n_fft - win - left])
    frames = input.unfold(-1, n_fft, hop)
    if window is not None:
        frames = frames * window
    one = (not complex_input) if onesided is None else onesided
    spec = _fft.rfft(frames, dim=-1) if one else _fft.fft(frames, dim=-1)
    if normalized:
        spec = spec * (n_fft ** -0.5)
    spec = spec.transpose(-1, -2)
    return spec if return_complex else torch.view_as_real(spec)


def istft(input, n_fft, hop_length=None, win_length=None, window=None, center=True, normalized=False, onesided=None,
          length=None, return_complex=False):
    """The inverse of ``stft``: each frame inverse-transformed, windowed, overlap-added and
    divided by the summed squared window."""
    torch = _torch()
    from . import fft as _fft
    from .nn import functional as F

    if not input.is_complex():
        raise RuntimeError("istft requires a complex-valued input tensor matching the output from stft with "
                           "return_complex=True.")
    hop = n_fft // 4 if hop_length is None else hop_length
    win = n_fft if win_length is None else win_length
    batched = input.dim() == 3
    spec = input if batched else input.unsqueeze(0)
    n_frames = spec.shape[-1]
    one = (spec.shape[-2] != n_fft) if onesided is None else onesided
    if window is None:
        _warnings.warn("A window was not provided. A rectangular window will be applied.Please provide the same window "
                       "used by stft to make the inversion lossless.To suppress this warning and use a rectangular window, "
                       "explicitly set `window=torch.ones(n_fft, device=<device>)`.", UserWarning, stacklevel=2)
        window = torch.ones(win, dtype=torch.empty(0, dtype=spec.dtype).real.dtype, device=spec.device)
    if win < n_fft:
        left = (n_fft - win) // 2
        window = F.pad(window, [left, n_fft - win - left])
    if normalized:
        spec = spec * (n_fft ** 0.5)
    frames = spec.transpose(-1, -2)
    if one:
        frames = _fft.irfft(frames, n=n_fft, dim=-1)
    else:
        frames = _fft.ifft(frames, n=n_fft, dim=-1)
        if not return_complex:
            frames = frames.real
    frames = frames * window
    total = n_fft + hop * (n_frames - 1)
    y = F.fold(frames.transpose(1, 2), (1, total), (1, n_fft), stride=(1, hop)).reshape(spec.shape[0], total)
    env = F.fold((window * window).reshape(1, n_fft, 1).expand(1, n_fft, n_frames), (1, total), (1, n_fft),
                 stride=(1, hop)).reshape(total)
    start = n_fft // 2 if center else 0
    end = total - n_fft // 2 if center else total
    if length is not None:
        end = start + length
    y = y[:, start:min(end, total)]
    env = env[start:min(end, total)]
    if bool((env.abs() < 1e-11).any()):
        raise RuntimeError(f"istft(...): window overlap add min: {float(env.abs().min())}")
    y = y / env
    if length is not None and y.shape[-1] < length:
        y = F.pad(y, [0, length - y.shape[-1]])
    return y if batched else y.squeeze(0)


__all__ += ["stft", "istft"]


def binomial(count, prob, generator=None):
    """Binomial(``count``, ``prob``) samples, elementwise (PyTorch's CPU kernel and stream)."""
    from .distributions._samplers import _binomial

    return _binomial(count, prob, generator)


__all__ += ["binomial"]


_triangular_solve_warned = False


def triangular_solve(input, A, upper=True, transpose=False, unitriangular=False, *, out=None):
    """Solve ``A X = input`` for triangular ``A`` (or ``Aᵀ X = input``): the solution and a
    copy of ``A`` (deprecated in favour of ``linalg.solve_triangular``, as in PyTorch)."""
    global _triangular_solve_warned
    from . import linalg
    from ._helpers import _named

    if not _triangular_solve_warned:
        _triangular_solve_warned = True
        _warnings.warn("torch.triangular_solve is deprecated in favor of torch.linalg.solve_triangularand will be removed "
                       "in a future PyTorch release.\ntorch.linalg.solve_triangular has its arguments reversed and does not "
                       "return a copy of one of the inputs.\nX = torch.triangular_solve(B, A).solution\nshould be replaced "
                       "with\nX = torch.linalg.solve_triangular(A, B).", UserWarning, stacklevel=2)
    M = A.mT if transpose else A
    sol = linalg.solve_triangular(M, input, upper=(upper != transpose), unitriangular=unitriangular)
    r = _named("triangular_solve", ("solution", "cloned_coefficient"), sol, A.clone())
    if out is not None:
        for o, v in zip(out, r):
            o.copy_(v)
        return out
    return r


__all__ += ["triangular_solve"]


def lu_unpack(LU_data, LU_pivots, unpack_data=True, unpack_pivots=True, *, out=None):
    """``(P, L, U)`` from ``linalg.lu_factor``'s compact output."""
    from . import linalg

    return linalg.lu_unpack(LU_data, LU_pivots, unpack_data, unpack_pivots, out=out)


__all__ += ["lu_unpack"]


_index_reduce_warned = False


def _index_reduce(self, dim, index, source, reduce, *, include_self=True, inplace=False):
    """``self.index_reduce_(dim, index, source, reduce)``: slice ``i`` of ``source`` along ``dim``
    reduced into slice ``index[i]`` of ``self`` by ``prod``, ``mean``, ``amax`` or ``amin``
    (with ``self``'s own values unless ``include_self=False``), as a scatter-reduce."""
    global _index_reduce_warned
    torch = _torch()
    if reduce not in ("prod", "mean", "amax", "amin"):
        raise RuntimeError(f"index_reduce(): Expected reduce to be one of prod, mean, amax or amin but got {reduce}.")
    if not _index_reduce_warned or is_warn_always_enabled():
        _index_reduce_warned = True
        _warnings.warn("index_reduce() is in beta and the API may change at any time. (Triggered internally at "
                       "/__w/pytorch/pytorch/aten/src/ATen/native/TensorAdvancedIndexing.cpp:1523.)", UserWarning,
                       stacklevel=3)
    if index.dim() > 1:
        raise IndexError("index_reduce_(): Index is supposed to be a vector")
    if index.dtype not in (torch.int64, torch.int32):
        raise RuntimeError("index_reduce_(): Expected dtype int32/int64 for index")
    if self.dtype != source.dtype:
        raise RuntimeError("index_reduce_(): self and source must have the same scalar type")
    d = dim % max(source.dim(), 1)
    if source.dim() > 0 and index.numel() != source.shape[d]:
        raise RuntimeError("index_reduce_(): Number of indices (%d) should be equal to source.size(dim) (%d)"
                           % (index.numel(), source.shape[d]))
    shape = [1] * source.dim()
    if shape:
        shape[d] = -1
    idx = index.to(torch.int64).view(shape).expand_as(source)
    if inplace:
        return self.scatter_reduce_(d, idx, source, reduce, include_self=include_self)
    return self.scatter_reduce(d, idx, source, reduce, include_self=include_self)


def _install_index_reduce(T):
    def index_reduce_(self, dim, index, source, reduce, *, include_self=True):
        """In-place ``index_reduce``."""
        return _index_reduce(self, dim, index, source, reduce, include_self=include_self, inplace=True)

    def index_reduce(self, dim, index, source, reduce, *, include_self=True):
        """Reduce the slices of ``source`` along ``dim`` into those of ``self`` named by ``index``
        (``prod``, ``mean``, ``amax`` or ``amin``)."""
        return _index_reduce(self, dim, index, source, reduce, include_self=include_self)

    T.index_reduce_ = index_reduce_
    T.index_reduce = index_reduce


def index_reduce(input, dim, index, source, reduce, *, include_self=True):
    """``torch.index_reduce``: see ``Tensor.index_reduce``."""
    return _index_reduce(input, dim, index, source, reduce, include_self=include_self)
__all__ += ["index_reduce"]


# ---- small surface from PyTorch's docstrings (a differential run of their examples) ----------

__all__ += ["is_conj", "is_neg", "is_inference", "get_device", "rsub", "fill", "detach_", "max_pool3d",
            "binary_cross_entropy_with_logits", "igamma", "igammac", "nonzero_static"]


def is_conj(input):
    """Whether ``input``'s conjugate bit is set (``input.is_conj()``)."""
    return input.is_conj()


def is_neg(input):
    """Whether ``input``'s negative bit is set (``input.is_neg()``)."""
    return input.is_neg()


def is_inference(input):
    """Whether ``input`` was created in inference mode (``input.is_inference()``)."""
    return input.is_inference()


def get_device(input):
    """The CUDA ordinal of ``input``'s device, -1 on the CPU (``input.get_device()``)."""
    return input.get_device()


def rsub(input, other, *, alpha=1):
    """``other - alpha * input`` (subtraction with the operands reversed)."""
    torch = _torch()
    if not isinstance(other, torch.Tensor):
        other = torch.tensor(other, dtype=input.dtype if not isinstance(other, float) or input.is_floating_point()
                             else torch.get_default_dtype(), device=input.device)
    return torch.sub(other, input, alpha=alpha)


def fill(input, value):
    """A copy of ``input`` with every element ``value`` (FillBackward0 for a number, FillBackward1
    for a 0-dim tensor: no gradient reaches ``input``)."""
    from ._one_node import one_node

    if isinstance(value, _torch().Tensor):
        return one_node("FillBackward1", lambda x, v: x.clone().fill_(v), input, value)
    return one_node("FillBackward0", lambda x: x.clone().fill_(value), input)


def detach_(input):
    """``input.detach_()``."""
    return input.detach_()


def max_pool3d(input, kernel_size, stride=(), padding=0, dilation=1, ceil_mode=False):
    """``nn.functional.max_pool3d`` (an empty ``stride`` is the kernel size)."""
    from .nn import functional as F

    return F.max_pool3d(input, kernel_size, stride if stride not in ((), []) else None, padding, dilation, ceil_mode)


def binary_cross_entropy_with_logits(input, target, weight=None, pos_weight=None, reduction=1):
    """``nn.functional.binary_cross_entropy_with_logits`` with the reduction as ATen's enum
    (0 none, 1 mean, 2 sum)."""
    from .nn import functional as F

    return F.binary_cross_entropy_with_logits(input, target, weight, reduction=("none", "mean", "sum")[int(reduction)],
                                              pos_weight=pos_weight)


def igamma(input, other, *, out=None):
    """The regularized lower incomplete gamma function (``special.gammainc``)."""
    from .special import gammainc

    return gammainc(input, other, out=out)


def igammac(input, other, *, out=None):
    """The regularized upper incomplete gamma function (``special.gammaincc``)."""
    from .special import gammaincc

    return gammaincc(input, other, out=out)


def nonzero_static(input, *, size, fill_value=-1):
    """``nonzero(input)`` with exactly ``size`` rows: truncated, or padded with ``fill_value``."""
    torch = _torch()
    if size < 0:
        raise RuntimeError(f"nonzero_static: 'size' must be an non-negative integer, but got size: {size}")
    nz = input.nonzero()
    if nz.shape[0] >= size:
        return nz[:size].clone()
    pad = torch.full((size - nz.shape[0], nz.shape[1]), fill_value, dtype=nz.dtype, device=nz.device)
    return torch.cat([nz, pad])


def _t_dim_order(self, *, ambiguity_check=False):
    """The dims from the outermost in memory to the innermost (``(0, 2, 3, 1)`` for a
    channels-last image batch)."""
    st = self.stride()
    return tuple(sorted(range(self.dim()), key=lambda d: -st[d]))


def _install_docsurvey_methods(T):
    """Tensor methods PyTorch has and the sections above did not add."""
    T.dim_order = _t_dim_order
    T.const_data_ptr = lambda self: self.data_ptr()
    T.igamma = lambda self, other: igamma(self, other)
    T.igammac = lambda self, other: igammac(self, other)
    T.nonzero_static = lambda self, *, size, fill_value=-1: nonzero_static(self, size=size, fill_value=fill_value)
    T.swapaxes_ = lambda self, axis0, axis1: self.transpose_(axis0, axis1)
    T.resize_ = _t_resize_
    T.resize_as_ = _t_resize_as_
    T.swapdims_ = lambda self, dim0, dim1: self.transpose_(dim0, dim1)


def _t_resize_(self, *sizes, memory_format=None):
    """Resize in place to ``sizes`` (contiguous strides), reading the storage from this tensor's
    offset: the same storage where it is large enough, else a larger one holding the old
    elements first (the rest uninitialised; here zeros)."""
    torch = _torch()
    if len(sizes) == 1 and not isinstance(sizes[0], int):
        sizes = tuple(sizes[0])
    shape = tuple(int(s) for s in sizes)
    if any(s < 0 for s in shape):
        raise RuntimeError(f"Trying to create tensor with negative dimension {min(shape)}: {list(shape)}")
    if self.requires_grad:
        raise RuntimeError("cannot resize variables that require grad")
    n = math.prod(shape)
    strides = []
    acc = 1
    for s in reversed(shape):
        strides.append(acc)
        acc *= builtins.max(s, 1)
    strides = tuple(reversed(strides))
    with torch.no_grad():
        try:
            new = self.as_strided(shape, strides, self.storage_offset())
        except RuntimeError:
            # the storage is too small: a larger one, with the elements from the offset first
            def fits(k):
                try:
                    self.as_strided((k,), (1,), self.storage_offset())
                    return True
                except RuntimeError:
                    return False

            lo, hi = 0, n  # the storage's elements from the offset: the largest k < n that fits
            while lo < hi:
                mid = (lo + hi + 1) // 2
                if fits(mid):
                    lo = mid
                else:
                    hi = mid - 1
            flat = torch.zeros(n, dtype=self.dtype, device=self.device)
            if lo:
                flat[:lo] = self.as_strided((lo,), (1,), self.storage_offset())
            new = flat.as_strided(shape, strides)
    self.data = new
    if memory_format is not None and memory_format is not torch.contiguous_format:
        self.data = new.contiguous(memory_format=memory_format)
    return self


def _t_resize_as_(self, the_template, *, memory_format=None):
    """``self.resize_(the_template.shape)``."""
    return _t_resize_(self, tuple(the_template.shape), memory_format=memory_format)
