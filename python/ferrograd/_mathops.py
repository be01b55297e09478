"""torch functions built on the core's native ops or composed from them the way PyTorch
composes them: ``var_mean``/``std_mean`` (one node, VarMeanBackward0), ``nanmean``,
``float_power``, the ``*_scatter`` family, ``take``/``put``, ``isin``, ``tril_indices``,
``combinations``, ``block_diag``, ``trapezoid``, ``quantile``, ``logspace``, ``range``,
``can_cast``, and the ``torch.<nn op>`` entry points (``torch.dropout``,
``torch.batch_norm``, ...) that take ATen's positional arguments."""

import builtins as _b
import inspect
import itertools
import math
import warnings

__all__ = [
    "pow", "var_mean", "std_mean", "nanmean", "nansum", "float_power", "fix", "arcsin", "arccos", "arctan",
    "select_scatter", "slice_scatter", "diagonal_scatter", "take", "put", "index_copy", "index_fill",
    "masked_scatter", "isin", "argwhere", "tril_indices", "triu_indices", "combinations", "block_diag",
    "trapezoid", "trapz", "cumulative_trapezoid", "quantile", "nanquantile", "logspace", "range", "can_cast",
    "asarray", "empty_strided", "diagflat", "inner", "addr", "dist", "renorm", "split_with_sizes", "hsplit",
    "vsplit", "dsplit", "unflatten", "narrow_copy", "mode", "unique_consecutive", "chain_matmul",
    "dropout", "feature_dropout", "alpha_dropout", "feature_alpha_dropout", "batch_norm", "layer_norm",
    "group_norm", "instance_norm", "embedding", "conv1d", "conv2d", "conv3d", "conv_transpose1d",
    "conv_transpose2d", "conv_transpose3d", "max_pool1d", "max_pool2d", "avg_pool1d", "adaptive_avg_pool1d",
    "adaptive_max_pool1d", "pixel_shuffle", "pixel_unshuffle", "grid_sampler", "grid_sampler_2d", "grid_sampler_3d", "poisson", "_standard_gamma", "selu", "celu", "threshold", "hardshrink",
    "rrelu", "prelu", "bilinear", "cosine_similarity", "pairwise_distance", "pdist", "cosine_embedding_loss",
    "set_float32_matmul_precision", "get_float32_matmul_precision", "set_num_interop_threads",
    "get_num_interop_threads", "typename", "is_storage", "cov", "corrcoef", "gcd", "lcm", "bitwise_left_shift",
    "bitwise_right_shift", "signbit", "frexp", "ldexp", "isreal", "vander", "histogram",
]


def _torch():
    import ferrograd

    return ferrograd


def _C():
    from . import _C as c

    return c


# ---- reductions ---------------------------------------------------------------------------

def var_mean(input, dim=None, unbiased=None, keepdim=False, *, correction=None):
    """The variance and the mean over ``dim`` (all elements by default), from one node
    (VarMeanBackward0); ``correction``/``unbiased`` as ``var``."""
    _check_var_dtype(input, "var_mean")
    return _C()._var_mean(input, False, dim, unbiased, keepdim, correction)


def std_mean(input, dim=None, unbiased=None, keepdim=False, *, correction=None):
    """The standard deviation and the mean over ``dim``, from one node (StdMeanBackward0)."""
    _check_var_dtype(input, "std_mean")
    return _C()._var_mean(input, True, dim, unbiased, keepdim, correction)


def _check_var_dtype(input, name):
    if not (input.is_floating_point() or input.is_complex()):
        raise RuntimeError(f"{name} only support floating point and complex dtypes")


def nansum(input, dim=None, keepdim=False, *, dtype=None):
    """The sum over ``dim`` (all elements by default) with NaNs counted as zero."""
    return input.nansum(dim, keepdim, dtype=dtype)


def nanmean(input, dim=None, keepdim=False, *, dtype=None):
    """The mean over ``dim`` of the elements that are not NaN (``nansum / count``)."""
    if not (input.is_floating_point() or input.is_complex()):
        raise RuntimeError(f"nanmean(): expected input to have floating point or complex dtype but got {_dtype_name(input.dtype)}")
    count = input.isnan().logical_not().sum(dim, keepdim)
    return input.nansum(dim, keepdim, dtype=dtype).div(count)


def _dtype_name(dtype):
    from ._composite import _scalar_name

    return _scalar_name(dtype)


# ---- elementwise --------------------------------------------------------------------------

def float_power(input, exponent):
    """``input ** exponent`` computed in double precision (complex128 for complex operands)."""
    torch = _torch()

    def wide(v):
        if isinstance(v, torch.Tensor):
            return v.to(torch.complex128 if v.is_complex() else torch.float64)
        return complex(v) if isinstance(v, complex) else float(v)

    if not isinstance(input, torch.Tensor) and not isinstance(exponent, torch.Tensor):
        raise TypeError("float_power() received an invalid combination of arguments - got (a number and a number)")
    a, b = wide(input), wide(exponent)
    if isinstance(a, torch.Tensor) and isinstance(b, complex) and not a.is_complex():
        a = a.to(torch.complex128)
    return torch.pow(a, b)


def pow(input, exponent, *, out=None):
    """``input ** exponent`` element-wise; either may be a number (a number base gives
    PowBackward2)."""
    torch = _torch()
    if isinstance(input, torch.Tensor):
        return torch.Tensor.pow(input, exponent, out=out) if out is not None else torch.Tensor.pow(input, exponent)
    if not isinstance(exponent, torch.Tensor):
        raise TypeError(f"pow() received an invalid combination of arguments - got ({type(input).__name__}, {type(exponent).__name__})")
    r = exponent.__rpow__(input)
    if out is not None:
        out.copy_(r)
        return out
    return r


def _float_power_(self, exponent):
    """In-place ``float_power``: ``self`` must already be double (complex128 for complex)."""
    torch = _torch()
    need = torch.complex128 if (self.is_complex() or (isinstance(exponent, torch.Tensor) and exponent.is_complex())
                                or isinstance(exponent, complex)) else torch.float64
    if self.dtype != need:
        raise RuntimeError(f"the base given to float_power_ has dtype {_dtype_name(self.dtype)} but the operation's result requires dtype {_dtype_name(need)}")
    from . import _C as c

    return c._inplace_apply(self, lambda snap: float_power(snap, exponent))


def fix(input, *, out=None):
    """Alias for ``trunc``."""
    return _torch().trunc(input, out=out) if out is not None else input.trunc()


def arcsin(input):
    """Alias for ``asin``."""
    return input.asin()


def arccos(input):
    """Alias for ``acos``."""
    return input.acos()


def arctan(input):
    """Alias for ``atan``."""
    return input.atan()


# ---- writes and selections ------------------------------------------------------------------

def select_scatter(input, src, dim, index):
    """``input`` with ``input.select(dim, index)`` replaced by ``src`` (out of place)."""
    return _C().select_scatter(input, src, dim, index)


def slice_scatter(input, src, dim=0, start=None, end=None, step=1):
    """``input`` with the slice ``start:end:step`` along ``dim`` replaced by ``src``."""
    return _C().slice_scatter(input, src, dim, start, end, step)


def diagonal_scatter(input, src, offset=0, dim1=0, dim2=1):
    """``input`` with the diagonal ``offset`` of ``dim1``/``dim2`` replaced by ``src``."""
    return _C().diagonal_scatter(input, src, offset, dim1, dim2)


def take(input, index):
    """The elements of ``input`` (as if flattened) at ``index``, shaped like ``index``."""
    return input.take(index)


def put(input, index, source, accumulate=False):
    """``input`` with ``source`` written (or added) at the flat indices ``index``."""
    return input.put(index, source, accumulate)


def index_copy(input, dim, index, source):
    """``input`` with its slices at ``index`` along ``dim`` replaced by ``source``'s."""
    return input.index_copy(dim, index, source)


def index_fill(input, dim, index, value):
    """``input`` with its slices at ``index`` along ``dim`` set to ``value``."""
    return input.index_fill(dim, index, value)


def masked_scatter(input, mask, source):
    """``input`` with the places where ``mask`` is true filled from ``source``."""
    return input.masked_scatter(mask, source)


def isin(elements, test_elements, *, assume_unique=False, invert=False):
    """Whether each element of ``elements`` is in ``test_elements`` (either may be a number)."""
    torch = _torch()
    if not isinstance(elements, torch.Tensor) and not isinstance(test_elements, torch.Tensor):
        raise TypeError("isin() received an invalid combination of arguments - got (int, int)")
    if not isinstance(elements, torch.Tensor):
        elements = torch.tensor(elements, dtype=test_elements.dtype, device=test_elements.device)
    if not isinstance(test_elements, torch.Tensor):
        test_elements = torch.tensor(test_elements, dtype=elements.dtype, device=elements.device)
    flat = test_elements.detach().reshape(-1)
    if flat.numel() == 0:
        hit = torch.zeros(elements.shape, dtype=torch.bool, device=elements.device)
    else:
        hit = (elements.detach().unsqueeze(-1) == flat).any(-1)
    return hit.logical_not() if invert else hit


def argwhere(input):
    """The indices of the non-zero elements, one row each (``nonzero``)."""
    return input.nonzero()


def _index_pairs(row, col, offset, upper, dtype, device):
    torch = _torch()
    if row < 0:
        raise RuntimeError(f"row must be non-negative, got{row}")
    if col < 0:
        raise RuntimeError(f"col must be non-negative, got{col}")
    rows, cols = [], []
    for i in _b.range(row):
        for j in _b.range(col):
            if (j - i >= offset) if upper else (j - i <= offset):
                rows.append(i)
                cols.append(j)
    return torch.tensor([rows, cols], dtype=dtype if dtype is not None else torch.int64, device=device).reshape(2, len(rows))


def tril_indices(row, col, offset=0, *, dtype=None, device=None, layout=None):
    """The coordinates (a 2 x N tensor) of the lower triangle of a ``row`` x ``col`` matrix."""
    return _index_pairs(row, col, offset, False, dtype, device)


def triu_indices(row, col, offset=0, *, dtype=None, device=None, layout=None):
    """The coordinates (a 2 x N tensor) of the upper triangle of a ``row`` x ``col`` matrix."""
    return _index_pairs(row, col, offset, True, dtype, device)


def combinations(input, r=2, with_replacement=False):
    """The length-``r`` combinations of the elements of a 1-d tensor, one per row (as
    ``itertools.combinations``)."""
    torch = _torch()
    if input.dim() != 1:
        raise RuntimeError(f"Expect a 1D vector, but got shape {list(input.shape)}")
    if r < 0:
        raise RuntimeError(f"Expect a non-negative number, but got {r}")
    if r == 0:
        return torch.empty(0, dtype=input.dtype, device=input.device)
    pick = itertools.combinations_with_replacement if with_replacement else itertools.combinations
    rows = list(pick(_b.range(input.shape[0]), r))
    if not rows:
        return torch.empty(0, r, dtype=input.dtype, device=input.device)
    idx = torch.tensor(rows, dtype=torch.int64, device=input.device)
    return input[idx.reshape(-1)].reshape(len(rows), r)


def block_diag(*tensors):
    """The block-diagonal matrix of the (0-, 1- or 2-d) ``tensors``."""
    torch = _torch()
    mats = []
    for k, t in enumerate(tensors):
        if t.dim() > 2:
            raise RuntimeError(f"torch.block_diag: Input tensors must have 2 or fewer dimensions. Input {k} has {t.dim()} dimensions")
        mats.append(t.reshape(1, -1) if t.dim() < 2 else t)
    if not mats:
        return torch.empty(1, 0)
    dtype = mats[0].dtype
    for m in mats[1:]:
        dtype = torch.promote_types(dtype, m.dtype)
    cols = sum(m.shape[1] for m in mats)
    rows, left = [], 0
    for m in mats:
        right = cols - left - m.shape[1]
        rows.append(torch.nn.functional.pad(m.to(dtype), (left, right)))
        left += m.shape[1]
    return torch.cat(rows, 0)


def trapezoid(y, x=None, *, dx=None, dim=-1):
    """The trapezoidal rule along ``dim``: spacing ``dx`` (1 by default) or sample points ``x``."""
    torch = _torch()
    if x is not None and dx is not None:
        raise TypeError("trapezoid() received an invalid combination of arguments - got both x and dx")
    n = y.shape[dim] if y.dim() else 0
    if n == 0:
        return y.sum(dim) if y.dim() else y * 0
    lo, hi = y.narrow(dim, 0, n - 1), y.narrow(dim, 1, n - 1)
    if x is None:
        return (lo + hi).sum(dim) * ((1 if dx is None else dx) / 2)
    if isinstance(x, torch.Tensor):
        d = x.diff(dim=dim if x.dim() == y.dim() else -1)
        if x.dim() == 1 and y.dim() > 1:
            shape = [1] * y.dim()
            shape[dim] = n - 1
            d = d.reshape(shape)
        return ((lo + hi) * d).sum(dim) / 2
    return (lo + hi).sum(dim) * (x / 2)


def trapz(y, x=None, *, dx=None, dim=-1):
    """Alias for ``trapezoid``."""
    return trapezoid(y, x, dx=dx, dim=dim)


def cumulative_trapezoid(y, x=None, *, dx=None, dim=-1):
    """The running trapezoidal rule along ``dim`` (one element fewer than ``y`` there)."""
    torch = _torch()
    n = y.shape[dim]
    lo, hi = y.narrow(dim, 0, max(n - 1, 0)), y.narrow(dim, 1, max(n - 1, 0))
    if x is None:
        return ((lo + hi) * ((1 if dx is None else dx) / 2)).cumsum(dim)
    if isinstance(x, torch.Tensor):
        d = x.diff(dim=dim if x.dim() == y.dim() else -1)
        if x.dim() == 1 and y.dim() > 1:
            shape = [1] * y.dim()
            shape[dim] = n - 1
            d = d.reshape(shape)
        return ((lo + hi) * d / 2).cumsum(dim)
    return ((lo + hi) * (x / 2)).cumsum(dim)


_QUANTILE_MODES = ("linear", "lower", "higher", "midpoint", "nearest")


def _quantile(input, q, dim, keepdim, interpolation, ignore_nan, name):
    torch = _torch()
    if interpolation not in _QUANTILE_MODES:
        raise RuntimeError(f"{name}() interpolation must be one of linear, lower, higher, midpoint or nearest, but got {interpolation}")
    if not input.is_floating_point():
        raise RuntimeError(f"{name}() input tensor must be either float or double dtype")
    scalar_q = not isinstance(q, torch.Tensor)
    qt = torch.tensor(q, dtype=input.dtype, device=input.device) if scalar_q else q
    if qt.dim() > 1:
        raise RuntimeError(f"{name}() q must be a scalar or 1D tensor")
    if qt.dtype != input.dtype:
        raise RuntimeError(f"{name}() q tensor must be same dtype as the input tensor")
    qv = qt.detach().reshape(-1).tolist()
    bad = [v for v in qv if not (0 <= v <= 1)]
    if bad:
        raise RuntimeError(f"{name}() q must be in the range [0, 1] but got {bad[0]}" if scalar_q or qt.dim() == 0
                           else f"{name}() q values must be in the range [0, 1]")
    if input.numel() == 0:
        raise RuntimeError(f"{name}() input tensor must be non-empty")
    x = input.reshape(-1) if dim is None else input.movedim(dim, -1)
    s = x.sort(-1).values
    n = s.shape[-1]
    if ignore_nan:
        valid = s.isnan().logical_not().sum(-1, keepdim=True)
    else:
        valid = torch.full(s.shape[:-1] + (1,), n, dtype=torch.int64, device=s.device)
    has_nan = None if ignore_nan else s.isnan().any(-1, keepdim=True)
    outs = []
    for v in qv:
        rank = (valid - 1).clamp(min=0).to(input.dtype) * v
        if has_nan is not None:
            # a row holding NaN gives its last sorted element (a NaN), as PyTorch: the value is
            # NaN and the gradient reaches that element
            rank = torch.where(has_nan, torch.full_like(rank, n - 1), rank)
        lo = rank.floor().long()
        hi = rank.ceil().long()
        if interpolation == "lower":
            r = s.gather(-1, lo)
        elif interpolation == "higher":
            r = s.gather(-1, hi)
        elif interpolation == "nearest":
            r = s.gather(-1, rank.round().long())
        else:
            a, b = s.gather(-1, lo), s.gather(-1, hi)
            w = (rank - lo.to(input.dtype)) if interpolation == "linear" else torch.full_like(rank, 0.5)
            r = a.lerp(b, w) if interpolation == "linear" else a + (b - a) * w
            r = torch.where(lo == hi, a, r) if interpolation == "midpoint" else r
        outs.append(r)
    out = torch.stack(outs, 0)  # (nq, *rest, 1)
    if dim is None:
        out = out.reshape((len(qv),) + (1,) * input.dim()) if keepdim else out.reshape(len(qv))
    elif keepdim:
        out = out.movedim(-1, dim % input.dim() + 1)
    else:
        out = out.squeeze(-1)
    return out[0] if scalar_q or qt.dim() == 0 else out


def quantile(input, q, dim=None, keepdim=False, *, interpolation="linear", out=None):
    """The ``q``-th quantiles of ``input`` (over ``dim``, or all elements), interpolated as
    ``interpolation`` says; NaN where a row holds a NaN."""
    return _quantile(input, q, dim, keepdim, interpolation, False, "quantile")


def nanquantile(input, q, dim=None, keepdim=False, *, interpolation="linear", out=None):
    """``quantile`` ignoring NaNs (NaN only where a row is all NaN)."""
    return _quantile(input, q, dim, keepdim, interpolation, True, "nanquantile")


# ---- factories ------------------------------------------------------------------------------

def logspace(start, end, steps, base=10.0, *, out=None, dtype=None, layout=None, device=None, requires_grad=False):
    """``steps`` values from ``base ** start`` to ``base ** end``, evenly spaced in the exponent."""
    torch = _torch()
    exps = torch.linspace(start, end, steps, dtype=torch.float64, device=device)
    r = torch.pow(float(base), exps).to(dtype if dtype is not None else torch.get_default_dtype())
    return r.requires_grad_(requires_grad) if requires_grad else r


def range(start=0, end=None, step=1, *, out=None, dtype=None, layout=None, device=None, requires_grad=False):
    """The deprecated inclusive range ``[start, end]`` in steps of ``step`` (floats by default)."""
    torch = _torch()
    warnings.warn("torch.range is deprecated and will be removed in a future release because its behavior is inconsistent "
                  "with Python's range builtin. Instead, use torch.arange, which produces values in [start, end).",
                  UserWarning, stacklevel=2)
    if end is None:
        start, end = 0, start
    n = int(math.floor((end - start) / step)) + 1
    vals = [start + k * step for k in _b.range(max(n, 0))]
    r = torch.tensor(vals, dtype=dtype if dtype is not None else torch.get_default_dtype(), device=device)
    return r.requires_grad_(requires_grad) if requires_grad else r


def _category(dtype):
    if dtype.is_complex:
        return 3
    if dtype.is_floating_point:
        return 2
    return 0 if str(dtype) == "torch.bool" else 1


def can_cast(from_, to):
    """Whether PyTorch's casting rules allow ``from_`` to become ``to`` (no float to integer,
    no complex to real, nothing non-bool to bool)."""
    return _category(from_) <= _category(to)


_asarray_warned = False


def asarray(obj, *, dtype=None, device=None, copy=None, requires_grad=None):
    """``obj`` as a tensor, sharing memory where it can (a tensor of the right dtype and device is
    returned as is unless ``copy=True``). ``requires_grad`` unspecified keeps a tensor's own
    (PyTorch 2.13: it warns, once, when that aliases a non-leaf that requires grad); False
    detaches it; True makes it require grad."""
    global _asarray_warned
    torch = _torch()
    if isinstance(obj, torch.Tensor):
        t = obj
        if (dtype is not None and dtype != t.dtype) or (device is not None and torch.device(device) != t.device):
            if copy is False:
                raise ValueError("can't alias tensor from a different dtype or device")
            t = t.to(dtype=dtype, device=device)
        elif copy:
            t = t.clone()
        elif requires_grad is None and t.requires_grad and not t.is_leaf:
            from ._extras import is_warn_always_enabled
            if not _asarray_warned or is_warn_always_enabled():
                _asarray_warned = True
                from . import _warn
                _warn.warn(
                    "torch.asarray: unspecified requires_grad now defaults to obj.requires_grad instead of "
                    "False. Pass requires_grad=False explicitly to get the old behavior and silence this "
                    "warning. (Triggered internally at /__w/pytorch/pytorch/torch/csrc/utils/tensor_new.cpp:1737.)",
                    UserWarning, stacklevel=2)
    else:
        t = torch.as_tensor(obj, dtype=dtype, device=device)
        if copy:
            t = t.clone()
    if requires_grad is False and t.requires_grad:
        t = t.detach()
    elif requires_grad and not t.requires_grad:
        t.requires_grad_(True)
    return t


def empty_strided(size, stride, *, dtype=None, layout=None, device=None, requires_grad=False, pin_memory=False):
    """An uninitialised tensor of ``size`` with the given ``stride``."""
    torch = _torch()
    size, stride = tuple(size), tuple(stride)
    if len(size) != len(stride):
        raise RuntimeError(f"mismatch in length of strides and shape")
    extent = 1 + sum((s - 1) * st for s, st in zip(size, stride)) if all(size) else 0
    base = torch.zeros(extent, dtype=dtype, device=device)
    t = base.as_strided(size, stride)
    return t.requires_grad_(requires_grad) if requires_grad else t


# ---- compositions ---------------------------------------------------------------------------

def diagflat(input, offset=0):
    """The square matrix with the flattened ``input`` on diagonal ``offset``."""
    return input.reshape(-1).diag_embed(offset)


def inner(input, other, *, out=None):
    """The inner product over the last dims (a product for a number operand)."""
    torch = _torch()
    if input.dim() == 0 or other.dim() == 0:
        return input * other
    if input.shape[-1] != other.shape[-1]:
        raise RuntimeError(f"inner() the last dimension must match on both input tensors but got shapes {list(input.shape)} and {list(other.shape)}")
    return torch.tensordot(input, other, dims=([-1], [-1]))


def addr(input, vec1, vec2, *, beta=1, alpha=1, out=None):
    """``beta * input + alpha * outer(vec1, vec2)``."""
    if vec1.dim() != 1 or vec2.dim() != 1:
        raise RuntimeError(f"addr: Expected 1-D argument vec1, but got {vec1.dim()}-D" if vec1.dim() != 1 else f"addr: Expected 1-D argument vec2, but got {vec2.dim()}-D")
    prod = vec1.unsqueeze(1) * vec2.unsqueeze(0)
    if alpha != 1:
        prod = prod * alpha
    if beta == 0:
        return prod + input * 0 if input.is_floating_point() else prod.expand_as(input) + 0
    return (input * beta if beta != 1 else input) + prod


def dist(input, other, p=2):
    """The ``p``-norm of ``input - other`` (one DistBackward0 node)."""
    from ._one_node import one_node

    return one_node("DistBackward0", lambda a, b: (a - b).norm(p), input, other,
                    fields={"self": input, "other": other, "p": p, "result": True})


def renorm(input, p, dim, maxnorm):
    """Each slice along ``dim`` rescaled so its ``p``-norm is at most ``maxnorm``."""
    dims = [d for d in _b.range(input.dim()) if d != (dim % input.dim())]
    norms = input.norm(p, dim=dims, keepdim=True)
    factor = (maxnorm / (norms + 1e-7)).clamp(max=1.0)
    return input * factor.detach() if not input.requires_grad else input * factor


def split_with_sizes(input, split_sizes, dim=0):
    """``input`` split into pieces of the given sizes along ``dim``."""
    total = input.shape[dim]
    if sum(split_sizes) != total:
        raise RuntimeError(f"split_with_sizes expects split_sizes to sum exactly to {total} (input tensor's size at dimension {dim}), but got split_sizes={list(split_sizes)}")
    return input.split(list(split_sizes), dim)


def _split_dir(input, indices_or_sections, dim, name, min_dim):
    if input.dim() < min_dim:
        raise RuntimeError(f"torch.{name} requires a tensor with at least {min_dim} dimension, but got a tensor with {input.dim()} dimensions!")
    if isinstance(indices_or_sections, int) and input.shape[dim] % indices_or_sections != 0:
        raise RuntimeError(f"torch.{name} attempted to split along dimension {dim}, but the size of the dimension {input.shape[dim]} is not divisible by the split_size {indices_or_sections}!")
    return input.tensor_split(indices_or_sections, dim)


def hsplit(input, indices_or_sections):
    """``tensor_split`` along dim 1 (dim 0 for 1-d tensors)."""
    return _split_dir(input, indices_or_sections, 1 if input.dim() > 1 else 0, "hsplit", 1)


def vsplit(input, indices_or_sections):
    """``tensor_split`` along dim 0 of a tensor with at least 2 dims."""
    return _split_dir(input, indices_or_sections, 0, "vsplit", 2)


def dsplit(input, indices_or_sections):
    """``tensor_split`` along dim 2 of a tensor with at least 3 dims."""
    return _split_dir(input, indices_or_sections, 2, "dsplit", 3)


def unflatten(input, dim, sizes):
    """``input`` with dim ``dim`` expanded into ``sizes``."""
    return input.unflatten(dim, sizes)


def narrow_copy(input, dim, start, length):
    """A copy of ``input.narrow(dim, start, length)``."""
    return input.narrow(dim, start, length).clone()


def mode(input, dim=-1, keepdim=False):
    """The most frequent value along ``dim`` (the smallest among ties) and the index of its
    last occurrence."""
    torch = _torch()
    import numpy as np

    d = dim % input.dim() if input.dim() else 0
    x = input.detach().movedim(d, -1) if input.dim() else input.detach().reshape(1)
    a = x.cpu().numpy().reshape(-1, x.shape[-1] if x.dim() else 1)
    vals, idxs = [], []
    for row in a:
        uniq, counts = np.unique(row, return_counts=True)
        v = uniq[np.argmax(counts)]
        vals.append(v)
        idxs.append(int(np.nonzero(row == v)[0][-1]))
    idx = torch.tensor(idxs, dtype=torch.int64, device=input.device).reshape(x.shape[:-1] + (1,) if x.dim() else (1,))
    if input.dim() == 0:
        return _return_type("mode", input.clone(), torch.tensor(0))
    idx = idx.movedim(-1, d)
    values = input.gather(d, idx)
    if not keepdim:
        values, idx = values.squeeze(d), idx.squeeze(d)
    return _return_type("mode", values, idx)


def _return_type(kind, values, indices):
    from ._helpers import _return_type as make

    return make(kind, values, indices)


def unique_consecutive(input, return_inverse=False, return_counts=False, dim=None):
    """``input`` with runs of equal consecutive elements reduced to one (flattened unless
    ``dim``), with the inverse indices and run lengths on request."""
    torch = _torch()
    if dim is not None:
        x = input.movedim(dim, 0)
        keep, inverse, counts = [], [], []
        for i in _b.range(x.shape[0]):
            if not keep or not torch.equal(x[i], x[keep[-1]]):
                keep.append(i)
                counts.append(0)
            counts[-1] += 1
            inverse.append(len(keep) - 1)
        out = x[torch.tensor(keep, dtype=torch.int64)].movedim(0, dim) if keep else input
    else:
        flat = input.reshape(-1).tolist()
        vals, inverse, counts = [], [], []
        for v in flat:
            if not vals or v != vals[-1]:
                vals.append(v)
                counts.append(0)
            counts[-1] += 1
            inverse.append(len(vals) - 1)
        out = torch.tensor(vals, dtype=input.dtype, device=input.device)
    res = [out]
    if return_inverse:
        res.append(torch.tensor(inverse, dtype=torch.int64, device=input.device).reshape(input.shape if dim is None else (len(inverse),)))
    if return_counts:
        res.append(torch.tensor(counts, dtype=torch.int64, device=input.device))
    return res[0] if len(res) == 1 else tuple(res)


_chain_matmul_warned = False


def chain_matmul(*matrices, out=None):
    """The product of the matrices (deprecated for ``linalg.multi_dot``)."""
    global _chain_matmul_warned
    torch = _torch()
    # once per process (ATen's TORCH_WARN_ONCE)
    if not _chain_matmul_warned or torch.is_warn_always_enabled():
        _chain_matmul_warned = True
        warnings.warn("torch.chain_matmul is deprecated and will be removed in a future PyTorch release. Use torch.linalg.multi_dot "
                      "instead, which accepts a list of two or more tensors rather than multiple parameters. (Triggered "
                      "internally at /__w/pytorch/pytorch/aten/src/ATen/native/LinearAlgebra.cpp:1102.)", UserWarning,
                      stacklevel=2)
    if len(matrices) == 1:
        return matrices[0].clone()
    return torch.linalg.multi_dot(list(matrices))


# ---- torch.<nn op> with ATen's positional arguments -----------------------------------------

def _F():
    from .nn import functional

    return functional


_REDUCTIONS = {0: "none", 1: "mean", 2: "sum"}


def dropout(input, p, train):
    """``nn.functional.dropout(input, p, training=train)``."""
    return _F().dropout(input, p, train)


def feature_dropout(input, p, train):
    """Channel dropout (``dropout2d`` style) of ``input``."""
    return _F().dropout2d(input, p, train) if input.dim() != 3 else _F().dropout1d(input, p, train)


def alpha_dropout(input, p, train):
    """``nn.functional.alpha_dropout(input, p, training=train)``."""
    return _F().alpha_dropout(input, p, train)


def feature_alpha_dropout(input, p, train):
    """``nn.functional.feature_alpha_dropout(input, p, training=train)``."""
    return _F().feature_alpha_dropout(input, p, train)


def batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps, cudnn_enabled):
    """ATen's ``batch_norm`` (``nn.functional.batch_norm`` with positional arguments)."""
    return _F().batch_norm(input, running_mean, running_var, weight, bias, training, momentum, eps)


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-05, cudnn_enable=True):
    """ATen's ``layer_norm``."""
    return _F().layer_norm(input, normalized_shape, weight, bias, eps)


def group_norm(input, num_groups, weight=None, bias=None, eps=1e-05, cudnn_enabled=True):
    """ATen's ``group_norm``."""
    return _F().group_norm(input, num_groups, weight, bias, eps)


def instance_norm(input, weight, bias, running_mean, running_var, use_input_stats, momentum, eps, cudnn_enabled):
    """ATen's ``instance_norm``."""
    return _F().instance_norm(input, running_mean, running_var, weight, bias, use_input_stats, momentum, eps)


def embedding(weight, indices, padding_idx=-1, scale_grad_by_freq=False, sparse=False):
    """ATen's ``embedding`` (weight first)."""
    return _F().embedding(indices, weight, None if padding_idx == -1 else padding_idx, None, 2.0, scale_grad_by_freq, sparse)


def conv1d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """``nn.functional.conv1d``."""
    return _F().conv1d(input, weight, bias, stride, padding, dilation, groups)


def conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """``nn.functional.conv2d``."""
    return _F().conv2d(input, weight, bias, stride, padding, dilation, groups)


def conv3d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """``nn.functional.conv3d``."""
    return _F().conv3d(input, weight, bias, stride, padding, dilation, groups)


def conv_transpose1d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    """``nn.functional.conv_transpose1d``."""
    return _F().conv_transpose1d(input, weight, bias, stride, padding, output_padding, groups, dilation)


def conv_transpose2d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    """``nn.functional.conv_transpose2d``."""
    return _F().conv_transpose2d(input, weight, bias, stride, padding, output_padding, groups, dilation)


def conv_transpose3d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    """``nn.functional.conv_transpose3d``."""
    return _F().conv_transpose3d(input, weight, bias, stride, padding, output_padding, groups, dilation)


def max_pool1d(input, kernel_size, stride=(), padding=0, dilation=1, ceil_mode=False):
    """``nn.functional.max_pool1d`` (an empty ``stride`` means the kernel size)."""
    return _F().max_pool1d(input, kernel_size, stride or None, padding, dilation, ceil_mode)


def max_pool2d(input, kernel_size, stride=(), padding=0, dilation=1, ceil_mode=False):
    """``nn.functional.max_pool2d`` (an empty ``stride`` means the kernel size)."""
    return _F().max_pool2d(input, kernel_size, stride or None, padding, dilation, ceil_mode)


def avg_pool1d(input, kernel_size, stride=(), padding=0, ceil_mode=False, count_include_pad=True):
    """``nn.functional.avg_pool1d``."""
    return _F().avg_pool1d(input, kernel_size, stride or None, padding, ceil_mode, count_include_pad)


def adaptive_avg_pool1d(input, output_size):
    """``nn.functional.adaptive_avg_pool1d``."""
    return _F().adaptive_avg_pool1d(input, output_size)


def adaptive_max_pool1d(input, output_size):
    """``nn.functional.adaptive_max_pool1d`` with the indices (a pair, as ATen returns)."""
    return _F().adaptive_max_pool1d(input, output_size, return_indices=True)


def poisson(input, generator=None):
    """``torch.poisson``: a Poisson sample of each rate (ATen's kernel on the generator's
    draws: seeded samples are PyTorch's); no gradient."""
    from .distributions._samplers import _poisson

    return _poisson(input, generator)


def _standard_gamma(input):
    """``torch._standard_gamma``: Gamma(input, 1) samples, differentiable in ``input``
    (implicit reparameterization), PyTorch's samples for a seed."""
    from .distributions._samplers import _standard_gamma as sg

    return sg(input)


def grid_sampler(input, grid, interpolation_mode, padding_mode, align_corners):
    """``torch.grid_sampler``: ``grid_sample`` with ATen's integer modes (interpolation 0
    bilinear, 1 nearest, 2 bicubic; padding 0 zeros, 1 border, 2 reflection)."""
    from . import _C

    return _C._nn_grid_sample(input, grid, int(interpolation_mode), int(padding_mode), bool(align_corners))


def grid_sampler_2d(input, grid, interpolation_mode, padding_mode, align_corners):
    """``torch.grid_sampler_2d`` (4-D input)."""
    if input.dim() != 4 or grid.dim() != 4:
        raise RuntimeError("grid_sampler(): expected 4D input and grid with same number of dimensions, but got input with "
                           f"sizes {list(input.shape)} and grid with sizes {list(grid.shape)}")
    return grid_sampler(input, grid, interpolation_mode, padding_mode, align_corners)


def grid_sampler_3d(input, grid, interpolation_mode, padding_mode, align_corners):
    """``torch.grid_sampler_3d`` (5-D input)."""
    if input.dim() != 5 or grid.dim() != 5:
        raise RuntimeError("grid_sampler(): expected 5D input and grid with same number of dimensions, but got input with "
                           f"sizes {list(input.shape)} and grid with sizes {list(grid.shape)}")
    return grid_sampler(input, grid, interpolation_mode, padding_mode, align_corners)


def pixel_shuffle(input, upscale_factor):
    """``nn.functional.pixel_shuffle``."""
    return _F().pixel_shuffle(input, upscale_factor)


def pixel_unshuffle(input, downscale_factor):
    """``nn.functional.pixel_unshuffle``."""
    return _F().pixel_unshuffle(input, downscale_factor)


def selu(input):
    """``nn.functional.selu``."""
    return _F().selu(input)


def celu(input, alpha=1.0):
    """``nn.functional.celu``."""
    return _F().celu(input, alpha)


def threshold(input, threshold, value):
    """``nn.functional.threshold``."""
    return _F().threshold(input, threshold, value)


def hardshrink(input, lambd=0.5):
    """``nn.functional.hardshrink``."""
    return _F().hardshrink(input, lambd)


def rrelu(input, lower=1.0 / 8, upper=1.0 / 3, training=False, generator=None):
    """``nn.functional.rrelu``."""
    if generator is not None:
        raise NotImplementedError("torch.rrelu: generator= is not supported; seed the global generator instead")
    return _F().rrelu(input, lower, upper, training)


def prelu(input, weight):
    """``nn.functional.prelu``."""
    return _F().prelu(input, weight)


def bilinear(input1, input2, weight, bias=None):
    """``nn.functional.bilinear``."""
    return _F().bilinear(input1, input2, weight, bias)


def cosine_similarity(x1, x2, dim=1, eps=1e-8):
    """``nn.functional.cosine_similarity``."""
    return _F().cosine_similarity(x1, x2, dim, eps)


def pairwise_distance(x1, x2, p=2.0, eps=1e-6, keepdim=False):
    """``nn.functional.pairwise_distance``."""
    return _F().pairwise_distance(x1, x2, p, eps, keepdim)


def pdist(input, p=2):
    """The ``p``-norm distances between the rows of the 2-d ``input``, for each pair ``i < j``
    in row-major order (PdistBackward0)."""
    return _F().pdist(input, p)


def cosine_embedding_loss(input1, input2, target, margin=0.0, reduction=1):
    """ATen's ``cosine_embedding_loss`` (``reduction`` as ATen's enum: 0 none, 1 mean, 2 sum)."""
    return _F().cosine_embedding_loss(input1, input2, target, margin, reduction=_REDUCTIONS[reduction])


# ---- Tensor methods -------------------------------------------------------------------------

def _method(f, name):
    def method(self, *args, **kwargs):
        return f(self, *args, **kwargs)

    method.__name__ = method.__qualname__ = name
    method.__doc__ = f.__doc__
    # the function's own signature with its tensor argument as ``self`` (help(), stubtest)
    sig = inspect.signature(f)
    params = list(sig.parameters.values())
    method.__signature__ = sig.replace(parameters=[params[0].replace(name="self")] + params[1:])
    return method


_TENSOR_METHODS = (
    "fix float_power nanmean select_scatter slice_scatter diagonal_scatter arcsin arccos arctan argwhere diagflat "
    "inner addr dist renorm split_with_sizes hsplit vsplit dsplit narrow_copy quantile nanquantile mode "
    "unique_consecutive cov corrcoef gcd lcm bitwise_left_shift bitwise_right_shift signbit frexp ldexp isreal histogram"
).split()


def _install(tensor_cls):
    for name in _TENSOR_METHODS:
        if not hasattr(tensor_cls, name):
            setattr(tensor_cls, name, _method(globals()[name], name))
    if not hasattr(tensor_cls, "fill_diagonal_"):
        setattr(tensor_cls, "fill_diagonal_", _fill_diagonal_)
    if not hasattr(tensor_cls, "float_power_"):
        setattr(tensor_cls, "float_power_", _method(_float_power_, "float_power_"))


# ---- global switches and small utilities ------------------------------------------------------

_MATMUL_PRECISION = ["highest"]
_INTEROP_THREADS = [1]


def set_float32_matmul_precision(precision):
    """Record the float32 matmul precision ("highest", "high" or "medium"); ferrograd's
    float32 matmuls always run in full float32 precision ("highest")."""
    if precision not in ("highest", "high", "medium"):
        warnings.warn(f"{precision} is not one of 'highest', 'high', or 'medium'; the currentsetFloat32MatmulPrecision call has no effect.",
                      UserWarning, stacklevel=2)
        return
    _MATMUL_PRECISION[0] = precision


def get_float32_matmul_precision():
    """The float32 matmul precision last set (``"highest"`` by default)."""
    return _MATMUL_PRECISION[0]


def set_num_interop_threads(num):
    """Record the inter-op thread count (ferrograd runs ops on one intra-op pool)."""
    if num <= 0:
        raise RuntimeError("Expected positive number of threads")
    _INTEROP_THREADS[0] = int(num)


def get_num_interop_threads():
    """The inter-op thread count last set."""
    return _INTEROP_THREADS[0]


def typename(obj):
    """The type name PyTorch gives ``obj``: ``torch.FloatTensor`` for tensors, the qualified
    name of the object (a class, a function) or of its class otherwise."""
    from ._helpers import _typename

    name = _typename(obj)
    return name.replace("ferrograd", "torch") if name.startswith("ferrograd") else name


def is_storage(obj):
    """Whether ``obj`` is a storage object (ferrograd exposes none)."""
    return False


def cov(input, *, correction=1, fweights=None, aweights=None):
    """The covariance matrix of the variables in the rows of ``input`` (observations in the
    columns), with frequency and/or observation weights."""
    torch = _torch()
    if input.dim() > 2:
        raise RuntimeError(f"cov(): expected input to have two or fewer dimensions but got an input with {input.dim()} dimensions")
    x = input.reshape(1, -1) if input.dim() < 2 else input
    n = x.shape[1]
    w = None
    if fweights is not None:
        if fweights.dim() > 1:
            raise RuntimeError(f"cov(): expected fweights to have one or fewer dimensions but got fweights with {fweights.dim()} dimensions")
        if fweights.is_floating_point():
            raise RuntimeError(f"cov(): expected fweights to have integral dtype but got fweights with {_dtype_name(fweights.dtype)} dtype")
        w = fweights
    if aweights is not None:
        if aweights.dim() > 1:
            raise RuntimeError(f"cov(): expected aweights to have one or fewer dimensions but got aweights with {aweights.dim()} dimensions")
        if not aweights.is_floating_point():
            raise RuntimeError(f"cov(): expected aweights to have floating point dtype but got aweights with {_dtype_name(aweights.dtype)} dtype")
        w = aweights if w is None else w * aweights
    if not x.is_floating_point() and not x.is_complex():
        x = x.to(torch.get_default_dtype())
    if w is None:
        w_sum = torch.tensor(float(n), dtype=x.dtype)
        avg = x.mean(1)
    else:
        w = w.to(x.dtype) if w.dtype != x.dtype else w
        w_sum = w.sum()
        avg = (x * w).sum(1) / w_sum
    if w is None:
        norm = w_sum - correction
    elif correction == 0:
        norm = w_sum
    elif aweights is None:
        norm = w_sum - correction
    else:
        norm = w_sum - correction * (w * aweights.to(x.dtype)).sum() / w_sum
    norm = norm.clamp(min=0)
    xm = x - avg.unsqueeze(1)
    xw = xm * w if w is not None else xm
    c = xw.matmul(xm.t().conj() if xm.is_complex() else xm.t()) / norm
    return c.squeeze()


def corrcoef(input):
    """The Pearson correlation coefficients of the variables in the rows of ``input`` (clamped
    to [-1, 1])."""
    c = cov(input)
    if c.dim() == 0:
        return c / c
    d = c.diagonal()
    std = d.sqrt()
    c = c / std.unsqueeze(1)
    c = c / std.unsqueeze(0)
    return c.clamp(-1, 1) if not c.is_complex() else c


def _int_binary(name, a, b, f):
    torch = _torch()
    import numpy as np

    for t in (a, b):
        if t.is_floating_point() or t.is_complex() or t.dtype == torch.bool:
            raise NotImplementedError(f'"{name}_cpu" not implemented for \'{_dtype_name(t.dtype)}\'')
    dt = torch.promote_types(a.dtype, b.dtype)
    an, bn = np.broadcast_arrays(a.detach().cpu().numpy(), b.detach().cpu().numpy())
    return torch.tensor(f(an.astype(np.int64), bn.astype(np.int64)), dtype=dt, device=a.device)


def gcd(input, other):
    """The greatest common divisors (non-negative) of integer tensors."""
    import numpy as np

    return _int_binary("gcd", input, other, np.gcd)


def lcm(input, other):
    """The least common multiples (non-negative) of integer tensors."""
    import numpy as np

    return _int_binary("lcm", input, other, np.lcm)


def _shift(input, other, left):
    torch = _torch()
    if not isinstance(other, torch.Tensor):
        dt = (torch.float32 if isinstance(other, float) else
              torch.int64 if input.dtype == torch.bool and not isinstance(other, bool) else input.dtype)
        other = torch.tensor(other, dtype=dt)
    if input.is_floating_point() or other.is_floating_point():
        raise NotImplementedError(f'"{"lshift" if left else "rshift"}_cpu" not implemented for \'{_dtype_name(torch.promote_types(input.dtype, other.dtype))}\'')
    import numpy as np

    dt = torch.promote_types(input.dtype, other.dtype)
    a = input.detach().cpu().numpy()
    b = other.detach().cpu().numpy()
    bits = torch.iinfo(dt).bits if dt != torch.bool else 8
    a, b = np.broadcast_arrays(a.astype(np.int64), b.astype(np.int64))
    big = (b < 0) | (b >= bits)
    safe = np.where(big, 0, b)
    if left:
        r = np.where(big, 0, np.left_shift(a, safe))
    else:
        r = np.where(big, np.where(a < 0, -1, 0), np.right_shift(a, safe))
    return torch.tensor(r, dtype=torch.int64, device=input.device).to(dt)


def bitwise_left_shift(input, other):
    """``input << other`` element-wise (integers; shifts past the width give 0)."""
    return _shift(input, other, True)


def bitwise_right_shift(input, other):
    """``input >> other`` element-wise (arithmetic shift of integers)."""
    return _shift(input, other, False)


def signbit(input):
    """Whether the sign bit of each element is set (true for -0.0 and negative NaNs)."""
    torch = _torch()
    if input.is_complex():
        raise RuntimeError("signbit is not implemented for complex tensors.")
    if not input.is_floating_point():
        return input < 0 if input.dtype != torch.bool else torch.zeros_like(input)
    x = input.detach()
    return (x < 0) | ((x == 0) & ((1.0 / x) < 0))


def frexp(input):
    """Mantissa in (-1, 1) and integer exponent with ``input = mantissa * 2 ** exponent``."""
    torch = _torch()
    import numpy as np

    if not input.is_floating_point():
        raise RuntimeError("torch.frexp() only supports floating-point dtypes")
    m, e = np.frexp(input.detach().cpu().numpy())
    from ._helpers import _named

    return _named("frexp", ("mantissa", "exponent"), torch.tensor(m, dtype=input.dtype, device=input.device),
                  torch.tensor(e, dtype=torch.int32, device=input.device))


def ldexp(input, other):
    """``input * 2 ** other``."""
    torch = _torch()
    return input * torch.pow(2.0, other.to(torch.promote_types(input.dtype, torch.get_default_dtype())) if not other.is_floating_point() else other)


def isreal(input):
    """Whether each element is real (a complex one with zero imaginary part counts)."""
    torch = _torch()
    if not input.is_complex():
        return torch.ones(input.shape, dtype=torch.bool, device=input.device)
    return input.imag == 0


def vander(x, N=None, increasing=False):
    """The Vandermonde matrix of the 1-d ``x``: columns ``x ** (N-1), ..., x ** 0`` (or
    increasing powers)."""
    torch = _torch()
    if x.dim() != 1:
        raise RuntimeError("x must be a one-dimensional tensor.")
    n = x.shape[0] if N is None else N
    if n < 0:
        raise RuntimeError("N must be non-negative.")
    if n == 0:
        return torch.empty(x.shape[0], 0, dtype=x.dtype if x.is_floating_point() else torch.int64)
    dt = x.dtype if (x.is_floating_point() or x.is_complex()) else torch.int64
    cols = [torch.ones(x.shape[0], dtype=dt, device=x.device)]
    xx = x.to(dt)
    for _ in _b.range(1, n):
        cols.append(cols[-1] * xx)
    r = torch.stack(cols, 1)
    return r if increasing else r.flip(1)


def histogram(input, bins=100, *, range=None, weight=None, density=False, out=None):
    """Counts of ``input``'s elements in ``bins`` equal bins over ``range`` (the data's by
    default) or between the given bin edges; ``(hist, bin_edges)``."""
    torch = _torch()
    import numpy as np

    if not input.is_floating_point():
        raise RuntimeError(f'"histogram_cpu" not implemented for \'{_dtype_name(input.dtype)}\'')
    data = input.detach().cpu().numpy().reshape(-1)
    w = None if weight is None else weight.detach().cpu().numpy().reshape(-1)
    edges = bins.detach().cpu().numpy() if isinstance(bins, torch.Tensor) else bins
    h, e = np.histogram(data, bins=edges, range=range, weights=w, density=density)
    from ._helpers import _named

    return _named("histogram", ("hist", "bin_edges"), torch.tensor(h, dtype=input.dtype), torch.tensor(e, dtype=input.dtype))


def _fill_diagonal_(self, fill_value, wrap=False):
    """Fill the main diagonal of a 2-d tensor (or of one whose dims are all equal) with
    ``fill_value`` in place; ``wrap=True`` restarts the diagonal below a tall matrix's square
    part every ``columns + 1`` rows, as NumPy's ``fill_diagonal``."""
    if self.dim() < 2:
        raise RuntimeError("dimensions must larger than 1")
    n = self.shape[0]
    if self.dim() > 2:
        if any(s != n for s in self.shape):
            raise RuntimeError("all dimensions of input must be of equal length")
        step = sum(self.stride())
        self.as_strided((n,), (step,), self.storage_offset()).fill_(fill_value)
        return self
    m = self.shape[1]
    start = 0
    while start < n:
        self[start:start + m].diagonal().fill_(fill_value)
        if not wrap or n <= m:
            break
        start += m + 1
    return self
