"""The masked operations of ``torch.masked`` on strided tensors (see the package docstring)."""

import builtins

__all__ = ["amax", "amin", "argmax", "argmin", "cumprod", "cumsum", "log_softmax", "logsumexp", "mean", "median",
           "norm", "normalize", "prod", "softmax", "softmin", "std", "sum", "var"]


def _torch():
    import ferrograd

    return ferrograd


def _dims(dim, ndim):
    """``dim`` as a sorted tuple of non-negative dims (None or () is every dim), with PyTorch's
    checks."""
    if dim is None or dim == ():
        return tuple(range(ndim))
    n = builtins.max(ndim, 1)
    out = []
    for d in ((dim,) if isinstance(dim, int) else dim):
        if d in out:
            raise RuntimeError(f"dim={d} appears multiple times in the list of dims")
        if d >= n or d < -n:
            raise IndexError(f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], but got {d})")
        out.append(d % n)
    return tuple(sorted(out))


def _mask(input, mask):
    """``mask`` as a bool tensor of ``input``'s shape (None: everything kept)."""
    torch = _torch()
    if mask is None:
        return torch.ones(input.shape, dtype=torch.bool, device=input.device)
    if mask.dim() > input.dim():
        raise IndexError("_input_mask expected broadcastable mask (got mask dimensionality higher than of the input)")
    return torch.broadcast_to(mask, input.shape).to(torch.bool)


def _identity(op, input):
    torch = _torch()
    if op in ("sum", "cumsum"):
        return 0
    if op in ("prod", "cumprod"):
        return 1
    lowest = op in ("amax", "argmax", "logsumexp")
    if input.is_floating_point():
        return -torch.inf if lowest else torch.inf
    info = torch.iinfo(input.dtype)
    return info.min if lowest else info.max


def _where(op, input, mask):
    """``input`` with its masked-out elements replaced by ``op``'s identity."""
    torch = _torch()
    fill = torch.tensor(_identity(op, input), dtype=input.dtype, device=input.device)
    return torch.where(_mask(input, mask), input, fill)


def _reduce_dims(fn, x, dims, keepdim):
    """``fn(x, d, keepdim=True)`` over each of ``dims`` (ops that take one dim), squeezed after."""
    for d in dims:
        x = fn(x, d, keepdim=True)
    if not keepdim:
        for d in reversed(dims):
            x = x.squeeze(d)
    return x


def sum(input, dim=None, *, keepdim=False, dtype=None, mask=None):
    """The sum over ``dim`` of the elements kept by ``mask`` (0 where none is)."""
    return _where("sum", input, mask).sum(_dims(dim, input.dim()), keepdim=keepdim, dtype=dtype)


def prod(input, dim=None, *, keepdim=False, dtype=None, mask=None):
    """The product over ``dim`` of the elements kept by ``mask`` (1 where none is)."""
    x = _where("prod", input, mask)
    if dtype is not None:
        x = x.to(dtype)
    return _reduce_dims(lambda t, d, keepdim: t.prod(d, keepdim=keepdim), x, _dims(dim, input.dim()), keepdim)


def amax(input, dim=None, *, keepdim=False, dtype=None, mask=None):
    """The maximum over ``dim`` of the kept elements (the dtype's lowest value where none is)."""
    x = _where("amax", input, mask)
    return x.amax(_dims(dim, input.dim()), keepdim=keepdim).to(dtype or input.dtype)


def amin(input, dim=None, *, keepdim=False, dtype=None, mask=None):
    """The minimum over ``dim`` of the kept elements (the dtype's highest value where none is)."""
    x = _where("amin", input, mask)
    return x.amin(_dims(dim, input.dim()), keepdim=keepdim).to(dtype or input.dtype)


def argmax(input, dim=None, *, keepdim=False, dtype=None, mask=None):
    """The index along ``dim`` of the largest kept element (0 where none is)."""
    return _where("argmax", input, mask).argmax(dim, keepdim=keepdim)


def argmin(input, dim=None, *, keepdim=False, dtype=None, mask=None):
    """The index along ``dim`` of the smallest kept element (0 where none is)."""
    return _where("argmin", input, mask).argmin(dim, keepdim=keepdim)


def mean(input, dim=None, *, keepdim=False, dtype=None, mask=None):
    """The mean over ``dim`` of the kept elements (NaN where none is); floating dtypes only."""
    source = "Optional" if dtype is not None else "Input"
    dtype = dtype or input.dtype
    if not (dtype.is_floating_point or dtype.is_complex):
        raise ValueError(f"mean(): Could not infer output dtype. {source} dtype must be either a floating point or "
                         f"complex dtype. Got: {dtype}")
    m = _mask(input, mask)
    dims = _dims(dim, input.dim())
    return sum(input, dims, keepdim=keepdim, dtype=dtype, mask=m) / m.sum(dims, keepdim=keepdim)


def _std_var(input, dim, unbiased, correction, keepdim, dtype, mask, take_sqrt):
    torch = _torch()
    if unbiased is not None and correction is not None:
        raise AssertionError("Only one of unbiased and correction may be given")
    corr = 1.0 if correction is None and unbiased is None else (float(correction) if correction is not None else
                                                                 (1.0 if unbiased else 0.0))
    if dtype is None:
        dtype = input.dtype if (input.dtype.is_floating_point or input.dtype.is_complex) else torch.float32
    m = _mask(input, mask)
    dims = _dims(dim, input.dim())
    count = m.sum(dims, keepdim=True)
    centred = input - sum(input, dims, keepdim=True, dtype=dtype, mask=m) / count
    total = sum(centred * centred.conj(), dims, keepdim=keepdim, dtype=dtype, mask=m)
    if not keepdim:
        count = count.reshape(total.shape)
    out = total / torch.clamp(count - corr, min=0)
    return out.sqrt() if take_sqrt else out


def var(input, dim=None, unbiased=None, *, correction=None, keepdim=False, dtype=None, mask=None):
    """The variance over ``dim`` of the kept elements (NaN where none is)."""
    return _std_var(input, dim, unbiased, correction, keepdim, dtype, mask, False)


def std(input, dim=None, unbiased=None, *, correction=None, keepdim=False, dtype=None, mask=None):
    """The standard deviation over ``dim`` of the kept elements (NaN where none is)."""
    return _std_var(input, dim, unbiased, correction, keepdim, dtype, mask, True)


def median(input, dim=-1, *, keepdim=False, dtype=None, mask=None):
    """The (lower) median along ``dim`` of the kept elements (NaN where none is; an integer
    input may not have a fully masked-out row)."""
    torch = _torch()
    dtype = dtype or input.dtype
    d = _dims(dim, input.dim())[0]
    is_float = input.is_floating_point()
    x = input if is_float else input.to(torch.float32)
    x = torch.where(_mask(x, mask), x, torch.tensor(torch.nan, dtype=x.dtype, device=x.device))
    out = torch.nanmedian(x, d, keepdim).values
    if is_float:
        return out
    if bool(torch.isnan(out).any()):
        raise ValueError("masked median expects no fully masked out rows if dtype is not floating point")
    return out.to(dtype)


def cumsum(input, dim, *, dtype=None, mask=None):
    """The running sum along ``dim``, masked-out elements counted as 0."""
    return _where("cumsum", input, mask).cumsum(_dims(dim, input.dim())[0], dtype=dtype)


def cumprod(input, dim, *, dtype=None, mask=None):
    """The running product along ``dim``, masked-out elements counted as 1."""
    return _where("cumprod", input, mask).cumprod(_dims(dim, input.dim())[0], dtype=dtype)


def logsumexp(input, dim=None, *, keepdim=False, dtype=None, mask=None):
    """``log Σ exp`` over ``dim`` of the kept elements (-inf where none is)."""
    x = _where("logsumexp", input, mask)
    if dtype is not None:
        x = x.to(dtype)
    return x.logsumexp(_dims(dim, input.dim()), keepdim=keepdim)


def _softmax_like(fn, op, input, dim, dtype, mask):
    x = _where(op, input, mask)
    if dtype is not None:
        x = x.to(dtype)
    return fn(x, _dims(dim, input.dim())[0])


def softmax(input, dim, *, dtype=None, mask=None):
    """Softmax along ``dim`` over the kept elements (0 at the masked-out ones; NaN where none is
    kept)."""
    return _softmax_like(lambda t, d: t.softmax(d), "amax", input, dim, dtype, mask)


def log_softmax(input, dim, *, dtype=None, mask=None):
    """Log-softmax along ``dim`` over the kept elements (-inf at the masked-out ones)."""
    return _softmax_like(lambda t, d: t.log_softmax(d), "amax", input, dim, dtype, mask)


def softmin(input, dim, *, dtype=None, mask=None):
    """Softmin along ``dim`` over the kept elements."""
    return _softmax_like(lambda t, d: (-t).softmax(d), "amin", input, dim, dtype, mask)


def norm(input, ord=2.0, dim=None, *, keepdim=False, dtype=None, mask=None):
    """The ``ord``-norm over ``dim`` of the kept elements (0 where none is)."""
    torch = _torch()
    x = _where("sum", input, mask)
    return torch.linalg.vector_norm(x, ord, _dims(dim, input.dim()), keepdim, dtype=dtype)


def normalize(input, ord, dim, *, eps=1e-12, dtype=None, mask=None):
    """``input`` divided by its masked ``ord``-norm along ``dim`` (at least ``eps``); masked-out
    elements are 0."""
    torch = _torch()
    dtype = dtype or input.dtype
    nrm = norm(input, ord, dim, keepdim=True, dtype=dtype, mask=mask)
    return torch.divide(_where("sum", input, mask), torch.maximum(nrm, nrm.new_full([], eps)))
