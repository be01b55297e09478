"""Tensor attributes and torch functions that real programs reach for early, composed from
existing ops the way PyTorch composes them (so values, gradients and ``grad_fn`` names follow
from the ops used): ``tile``, ``ravel``, ``broadcast_to``, ``fliplr``/``flipud``/``rot90``,
``count_nonzero``, ``diff``, ``outer``, ``Tensor.new``, the device predicates (``is_cpu``,
``is_xpu``, ...), ``nbytes``/``itemsize``, the deterministic-algorithms switches and the
math constants."""

import math

__all__ = [
    "tile", "ravel", "broadcast_to", "fliplr", "flipud", "rot90", "count_nonzero", "diff",
    "use_deterministic_algorithms", "are_deterministic_algorithms_enabled",
    "is_deterministic_algorithms_warn_only_enabled", "pi", "e", "inf", "nan", "newaxis",
    "greater", "greater_equal", "less", "less_equal", "not_equal", "subtract", "swapdims",
    "absolute", "positive", "is_nonzero", "is_signed", "is_same_size",
]

pi = math.pi
e = math.e
inf = math.inf
nan = math.nan
newaxis = None


def _torch():
    import ferrograd

    return ferrograd


def _sizes(args, name):
    """``f(2, 3)`` or ``f((2, 3))`` as a tuple of ints."""
    if len(args) == 1 and not isinstance(args[0], int):
        return tuple(args[0])
    return tuple(args)


def tile(input, dims):
    """``input`` repeated ``dims`` times along each dimension; fewer ``dims`` than dimensions
    are padded with ones on the left (``repeat`` with that padding)."""
    dims = tuple(dims)
    if len(dims) < input.dim():
        dims = (1,) * (input.dim() - len(dims)) + dims
    return input.repeat(*dims)


def ravel(input):
    """``input`` flattened to one dimension (a view when contiguous, else a copy)."""
    return input.contiguous().view(-1)


def broadcast_to(input, size):
    """``input`` expanded to ``size`` (a view)."""
    return input.expand(tuple(size))


def fliplr(input):
    """``input`` with its columns (dimension 1) reversed."""
    if input.dim() < 2:
        raise RuntimeError("Input must be >= 2-d.")
    return input.flip(1)


def flipud(input):
    """``input`` with its rows (dimension 0) reversed."""
    if input.dim() < 1:
        raise RuntimeError("Input must be >= 1-d.")
    return input.flip(0)


def rot90(input, k=1, dims=(0, 1)):
    """``input`` rotated by 90° ``k`` times in the plane of ``dims`` (from the first dimension
    towards the second)."""
    from . import _C

    return _C._rot90(input, int(k), [int(d) for d in dims])


def count_nonzero(input, dim=None):
    """The number of non-zero elements (along ``dim``: an int or a tuple), as int64."""
    t = _torch()
    nz = input != 0
    if dim is None:
        return nz.sum()
    return nz.sum(dim)


def diff(input, n=1, dim=-1, prepend=None, append=None):
    """The ``n``-th forward difference along ``dim`` (``prepend``/``append`` joined first);
    for bool tensors, exclusive or."""
    t = _torch()
    if input.dim() == 0:
        raise RuntimeError("diff expects input to be at least one-dimensional")
    if n < 0:
        raise RuntimeError(f"order must be non-negative but got {n}")
    parts = [p for p in (prepend, input, append) if p is not None]
    x = t.cat(parts, dim) if len(parts) > 1 else input
    for _ in range(n):
        length = x.shape[dim]
        if length == 0:
            break
        hi, lo = x.narrow(dim, 1, length - 1), x.narrow(dim, 0, length - 1)
        x = hi.logical_xor(lo) if x.dtype == t.bool else hi - lo
    return x


_DETERMINISTIC = [False, False]


def use_deterministic_algorithms(mode, *, warn_only=False):
    """Record the deterministic-algorithms mode. Every ferrograd kernel is deterministic
    already (the backward engine sums gradients in a fixed order; no atomics on the CPU), so
    the switch changes nothing but what ``are_deterministic_algorithms_enabled`` reports."""
    if not isinstance(mode, bool):
        raise TypeError(f"use_deterministic_algorithms(): argument 'mode' (position 1) must be bool, not {type(mode).__name__}")
    _DETERMINISTIC[0], _DETERMINISTIC[1] = mode, bool(warn_only)


def are_deterministic_algorithms_enabled():
    """Whether ``use_deterministic_algorithms(True)`` is in effect."""
    return _DETERMINISTIC[0]


def is_deterministic_algorithms_warn_only_enabled():
    """Whether deterministic mode is on with ``warn_only=True``."""
    return _DETERMINISTIC[0] and _DETERMINISTIC[1]


def greater(input, other):
    """``input > other`` (alias of ``gt``)."""
    return input > other


def greater_equal(input, other):
    """``input >= other`` (alias of ``ge``)."""
    return input >= other


def less(input, other):
    """``input < other`` (alias of ``lt``)."""
    return input < other


def less_equal(input, other):
    """``input <= other`` (alias of ``le``)."""
    return input <= other


def not_equal(input, other):
    """``input != other`` (alias of ``ne``)."""
    return input != other


def subtract(input, other, *, alpha=1):
    """``input - alpha * other`` (alias of ``sub``)."""
    return _torch().sub(input, other, alpha=alpha)


def swapdims(input, dim0, dim1):
    """``input`` with ``dim0`` and ``dim1`` swapped (alias of ``transpose``)."""
    return input.transpose(dim0, dim1)


def absolute(input):
    """``|input|`` (alias of ``abs``)."""
    return input.abs()


def positive(input):
    """``input`` itself (an error for bool tensors, as PyTorch)."""
    if input.dtype == _torch().bool:
        raise RuntimeError("The `+` operator, on a bool tensor is not supported.")
    return input


def is_nonzero(input):
    """Whether the single element of ``input`` is non-zero."""
    n = input.numel()
    if n == 0:
        raise RuntimeError("Boolean value of Tensor with no values is ambiguous")
    if n > 1:
        raise RuntimeError("Boolean value of Tensor with more than one value is ambiguous")
    return bool(input.item() != 0)


def is_signed(input):
    """Whether ``input``'s dtype holds negative values."""
    t = _torch()
    return input.dtype not in (t.bool, t.uint8)


def is_same_size(input, other):
    """Whether ``input`` and ``other`` have the same shape."""
    return tuple(input.shape) == tuple(other.shape)


# ---- Tensor methods ---------------------------------------------------------------------

def _t_tile(self, *dims):
    """``self`` repeated ``dims`` times along each dimension."""
    return tile(self, _sizes(dims, "tile"))


def _t_broadcast_to(self, *size):
    """``self`` expanded to ``size`` (a view)."""
    return broadcast_to(self, _sizes(size, "broadcast_to"))


def _t_new(self, *args, **kwargs):
    """A new tensor of ``self``'s dtype and device: empty of a size, or from data (the legacy
    constructor)."""
    t = _torch()
    dtype = kwargs.pop("dtype", None) or self.dtype
    device = kwargs.pop("device", None) or self.device
    if kwargs:
        raise TypeError(f"new() got an unexpected keyword argument '{next(iter(kwargs))}'")
    if len(args) == 1 and isinstance(args[0], t.Tensor):
        return args[0].to(dtype=dtype, device=device)
    if len(args) == 1 and not isinstance(args[0], int):
        a = args[0]
        if isinstance(a, t.Size):
            return t.empty(tuple(a), dtype=dtype, device=device)
        return t.tensor(a, dtype=dtype, device=device)
    return t.empty(tuple(args) if args else (0,), dtype=dtype, device=device)


def _t_get_device(self):
    """The CUDA device index, -1 on the CPU."""
    d = self.device
    return d.index if d.type == "cuda" and d.index is not None else (0 if d.type == "cuda" else -1)


def _t_pin_memory(self, device=None):
    """A copy in page-locked memory for faster host-to-device copies; ferrograd's host
    buffers are ordinary memory, so this is ``self`` (PyTorch returns ``self`` too when it is
    already pinned)."""
    if self.device.type != "cpu":
        raise RuntimeError(f"cannot pin '{self.type()}' only dense CPU tensors can be pinned")
    return self


def _t_is_pinned(self, device=None):
    """Whether ``self`` is in page-locked memory (never: ferrograd does not pin)."""
    return False


def _t_share_memory_(self):
    """Ferrograd's tensors are shared with forked children copy-on-write and sent to other
    processes through pickling; nothing to move: returns ``self``."""
    return self


def _t_is_shared(self):
    """Whether ``self`` is in shared memory (never: see ``share_memory_``)."""
    return False


def _t_count_nonzero(self, dim=None):
    """The number of non-zero elements (along ``dim``)."""
    return count_nonzero(self, dim)


def _t_diff(self, n=1, dim=-1, prepend=None, append=None):
    """The ``n``-th forward difference along ``dim``."""
    return diff(self, n, dim, prepend, append)


def _t_rot90(self, k=1, dims=(0, 1)):
    """``self`` rotated by 90° ``k`` times in the plane of ``dims``."""
    return rot90(self, k, dims)


def _t_outer(self, vec2):
    """The outer product of two vectors."""
    return _torch().outer(self, vec2)


def _t_ravel(self):
    """``self`` flattened to one dimension (a view when contiguous)."""
    return ravel(self)


def _t_fliplr(self):
    """``self`` with its columns (dimension 1) reversed."""
    return fliplr(self)


def _t_flipud(self):
    """``self`` with its rows (dimension 0) reversed."""
    return flipud(self)


def _t_greater(self, other):
    """``self > other`` (alias of ``gt``)."""
    return self > other


def _t_greater_equal(self, other):
    """``self >= other`` (alias of ``ge``)."""
    return self >= other


def _t_less(self, other):
    """``self < other`` (alias of ``lt``)."""
    return self < other


def _t_less_equal(self, other):
    """``self <= other`` (alias of ``le``)."""
    return self <= other


def _t_not_equal(self, other):
    """``self != other`` (alias of ``ne``)."""
    return self != other


def _t_subtract(self, other, *, alpha=1):
    """``self - alpha * other`` (alias of ``sub``)."""
    return subtract(self, other, alpha=alpha)


def _t_swapdims(self, dim0, dim1):
    """``self`` with ``dim0`` and ``dim1`` swapped (alias of ``transpose``)."""
    return self.transpose(dim0, dim1)


def _t_absolute(self):
    """``|self|`` (alias of ``abs``)."""
    return self.abs()


def _t_positive(self):
    """``self`` itself (an error for bool tensors)."""
    return positive(self)


def _t_is_nonzero(self):
    """Whether the single element of ``self`` is non-zero."""
    return is_nonzero(self)


def _t_is_signed(self):
    """Whether ``self``'s dtype holds negative values."""
    return is_signed(self)


def _t_is_same_size(self, other):
    """Whether ``self`` and ``other`` have the same shape."""
    return is_same_size(self, other)


_PROPERTIES = {
    "is_cpu": (lambda self: self.device.type == "cpu", "Whether the tensor is on the CPU."),
    "is_xpu": (lambda self: False, "Whether the tensor is on an Intel XPU (never in ferrograd)."),
    "is_mps": (lambda self: False, "Whether the tensor is on an Apple MPS device (never in ferrograd)."),
    "is_ipu": (lambda self: False, "Whether the tensor is on an IPU (never in ferrograd)."),
    "is_xla": (lambda self: False, "Whether the tensor is an XLA tensor (never in ferrograd)."),
    "is_mtia": (lambda self: False, "Whether the tensor is on an MTIA device (never in ferrograd)."),
    "is_maia": (lambda self: False, "Whether the tensor is on a MAIA device (never in ferrograd)."),
    "is_vulkan": (lambda self: False, "Whether the tensor is a Vulkan tensor (never in ferrograd)."),
    "is_mkldnn": (lambda self: False, "Whether the tensor is in oneDNN's layout (never in ferrograd)."),
    "is_nested": (lambda self: False, "Whether the tensor is a nested tensor (never in ferrograd)."),
    "itemsize": (lambda self: self.element_size(), "Bytes per element."),
    "nbytes": (lambda self: self.element_size() * self.numel(), "Bytes of the elements (``numel * itemsize``)."),
}

_METHODS = {
    "tile": _t_tile, "ravel": _t_ravel, "broadcast_to": _t_broadcast_to, "new": _t_new,
    "get_device": _t_get_device, "pin_memory": _t_pin_memory, "is_pinned": _t_is_pinned,
    "share_memory_": _t_share_memory_, "is_shared": _t_is_shared, "is_signed": _t_is_signed,
    "is_nonzero": _t_is_nonzero, "is_same_size": _t_is_same_size, "count_nonzero": _t_count_nonzero,
    "diff": _t_diff, "fliplr": _t_fliplr, "flipud": _t_flipud, "rot90": _t_rot90, "outer": _t_outer,
    "ger": _t_outer, "greater": _t_greater, "greater_equal": _t_greater_equal, "less": _t_less,
    "less_equal": _t_less_equal, "not_equal": _t_not_equal, "subtract": _t_subtract,
    "swapdims": _t_swapdims, "absolute": _t_absolute, "positive": _t_positive,
}


def _install(tensor_cls):
    for name, (f, doc) in _PROPERTIES.items():
        if not hasattr(tensor_cls, name):
            setattr(tensor_cls, name, property(f, doc=doc))
    for name, f in _METHODS.items():
        if not hasattr(tensor_cls, name):
            setattr(tensor_cls, name, f)


# ---- in-place variants --------------------------------------------------------------------

# Tensor methods PyTorch has an in-place form of; each missing ``<name>_`` is made from
# ``<name>`` through the core's in-place path (``_C._inplace_apply``): the op's own node is
# recorded (``ceil_`` -> CeilBackward0), the dtype is checked as PyTorch's (``sqrt_`` of an
# int tensor fails), views get CopySlices.
_INPLACE = (
    "abs absolute acos acosh arccos arccosh arcsin arcsinh arctan arctan2 arctanh asin asinh atan atan2 atanh "
    "bitwise_and bitwise_not bitwise_or bitwise_xor ceil clamp clamp_max clamp_min clip cos cosh cumprod cumsum "
    "deg2rad digamma div divide eq erf erfc erfinv exp exp2 expm1 fix floor floor_divide fmod frac ge greater "
    "greater_equal gt hypot le lerp less less_equal lgamma log log10 log1p log2 logical_and logical_not logical_or "
    "logical_xor logit lt mul multiply nan_to_num ne neg negative not_equal pow rad2deg reciprocal relu remainder "
    "round rsqrt sgn sigmoid sign sin sinc sinh sqrt square sub subtract tan tanh tril triu true_divide trunc xlogy "
    "copysign nextafter heaviside renorm gcd lcm ldexp addr addbmm bitwise_left_shift bitwise_right_shift "
    "conj_physical igamma igammac"
).split()

# top-level in-place functions PyTorch has (``torch.sin_(x)``)
_TORCH_INPLACE = (
    "abs acos acosh arccos arccosh arcsin arcsinh arctan arctanh asin asinh atan atanh ceil clamp clamp_max "
    "clamp_min clip cos cosh deg2rad erf erfc exp exp2 expm1 fix floor frac log log10 log1p log2 logit nan_to_num "
    "neg negative rad2deg reciprocal relu round rsqrt sigmoid sin sinc sinh sqrt square tan tanh trunc xlogy"
).split()


_COMPARISONS = frozenset("eq ne lt le gt ge greater greater_equal less less_equal not_equal logical_and logical_or "
                         "logical_xor logical_not".split())


def _inplace_method(name):
    op = name

    def method(self, *args, **kwargs):
        from . import _C

        fn = getattr(type(self), op)
        if op in _COMPARISONS:
            # a comparison's result has no history; written into a tensor that requires grad it
            # passes a zero gradient (the 0/1 values written over self, exactly)
            def compute(snap):
                mask = fn(snap, *args, **kwargs)
                if not snap.requires_grad:
                    return mask
                return snap.masked_fill(mask, 1).masked_fill(mask.logical_not(), 0)
            return _C._inplace_apply(self, compute)
        return _C._inplace_apply(self, lambda snap: fn(snap, *args, **kwargs))

    method.__name__ = method.__qualname__ = name + "_"
    method.__doc__ = f"In-place version of ``{name}``."
    return method


def _torch_inplace(name):
    def fn(input, *args, **kwargs):
        return getattr(input, name + "_")(*args, **kwargs)

    fn.__name__ = fn.__qualname__ = name + "_"
    fn.__doc__ = f"In-place version of ``torch.{name}``."
    return fn


def _install_inplace(tensor_cls, namespace):
    """Add the missing ``Tensor.<op>_`` and ``torch.<op>_``; returns the names added to torch."""
    for name in _INPLACE:
        if hasattr(tensor_cls, name) and not hasattr(tensor_cls, name + "_"):
            setattr(tensor_cls, name + "_", _inplace_method(name))
    added = []
    for name in _TORCH_INPLACE:
        if name + "_" not in namespace and hasattr(tensor_cls, name + "_"):
            namespace[name + "_"] = _torch_inplace(name)
            added.append(name + "_")
    return added
