"""ferrograd: PyTorch-compatible autograd with a Rust core.

``import ferrograd as torch`` runs autograd code written for PyTorch: the same names, the
same results, the same ``grad_fn`` names, printing and errors. The tensor type and every op
are native (``ferrograd._C``); this package adds the parts that are Python by nature.
"""

import builtins as _builtins
import math as _math

from . import _C
from . import _warn
from ._C import Tensor, dtype
from ._helpers import Size, device
from ._helpers import _NamedConstant, layout, strided, sparse_coo, sparse_csr, sparse_csc, sparse_bsr, sparse_bsc, _mkldnn, jagged  # noqa: F401
from ._tensor_str import set_printoptions

from .torch_version import __version__  # noqa: E402  (the PyTorch API version followed, a TorchVersion)

try:  # the package's own version: Cargo.toml's `version`, which maturin writes into the metadata
    __ferrograd_version__ = __import__("importlib.metadata").metadata.version("ferrograd")
except Exception:  # a source tree on sys.path without an installed distribution
    __ferrograd_version__ = "0+unknown"

bool, uint8, int8, int16, int32, int64, float16, float32, float64, bfloat16, complex64, complex128 = _C._dtypes()
float = float32
double = float64
cfloat = complex64
cdouble = complex128
half = float16
long = int64
int = int32
short = int16

# ---- factories -------------------------------------------------------------------------
tensor = _C.tensor
from_numpy = _C.from_numpy
from_dlpack = _C.from_dlpack
as_tensor = _C.as_tensor
zeros = _C.zeros
ones = _C.ones
empty = _C.empty
full = _C.full
rand = _C.rand
randn = _C.randn
randint = _C.randint
randperm = _C.randperm
arange = _C.arange
linspace = _C.linspace
eye = _C.eye
cat = _C.cat
concat = _C.cat
concatenate = _C.cat
stack = _C.stack
is_grad_enabled = _C.is_grad_enabled
is_inference_mode_enabled = _C.is_inference_mode_enabled
get_num_threads = _C.get_num_threads


def msort(input):
    """``sort(input, dim=0).values``: the elements sorted along the first dim (SortBackward0)."""
    return input.sort(0).values


def where(condition, input=None, other=None):
    """``torch.where(cond, x, y)``; with one argument, the indices of non-zero elements."""
    if input is None and other is None:
        return condition.nonzero(as_tuple=True)
    return _C.where(condition, input, other)


# ---- random streams (torch's CPU generator, value for value) -----------------------------
Generator = _C.Generator
default_generator = _C._default_generator()
seed = _C.seed
initial_seed = _C.initial_seed
get_rng_state = _C.get_rng_state
set_rng_state = _C.set_rng_state
bernoulli = _C.bernoulli
multinomial = _C.multinomial


def manual_seed(seed):
    """Seed the default generator (and, as in torch, the CUDA ones); returns it."""
    return _C.manual_seed(seed)


def normal(mean, std=1.0, size=None, *, generator=None, out=None, dtype=None, device=None, requires_grad=False):
    """``normal(mean, std)`` with tensors or numbers; ``normal(mean, std, size)`` with numbers."""
    if isinstance(mean, Tensor) or isinstance(std, Tensor):
        if size is not None:
            raise TypeError("normal() received an invalid combination of arguments - size= is only accepted with float mean and std")
        m = mean if isinstance(mean, Tensor) else tensor(mean, dtype=std.dtype, device=std.device)
        s = std if isinstance(std, Tensor) else tensor(std, dtype=mean.dtype, device=mean.device)
        r = _C._normal_tensors(m, s, generator=generator)
    else:
        if size is None:
            raise TypeError("normal() received an invalid combination of arguments - got (float, float), but expected (float mean, float std, tuple of ints size)")
        r = empty(tuple(size), dtype=dtype, device=device).normal_(mean, std, generator=generator)
        if requires_grad:
            r.requires_grad_(True)
    if out is not None:
        if tuple(out.shape) != tuple(r.shape):
            raise RuntimeError(f"normal(): out= has shape {list(out.shape)}, expected {list(r.shape)}")
        with no_grad():
            out.copy_(r)
        return out
    return r


def set_default_device(device):
    """Factories without ``device=`` create tensors on ``device`` (None: back to the CPU)."""
    _C._set_default_device(device)


def get_default_device():
    return device(_C._default_device())


def get_default_dtype():
    return {"float64": float64, "float16": float16, "bfloat16": bfloat16}.get(_C._default_float(), float32)


def set_default_dtype(d):
    _C._set_default_float(str(d).split(".")[-1])


def _like(fn):
    def make(input, *args, dtype=None, requires_grad=False, device=None, layout=None, memory_format=None, **kw):
        # matches torch: *_like keeps the input's device unless told otherwise, and its
        # channels-last layout under preserve_format
        device = input.device if device is None else device
        mf = memory_format
        if mf is None or mf is preserve_format:
            mf = next((f for f in (channels_last, channels_last_3d) if input.dim() == (4 if f is channels_last else 5)
                       and not input.is_contiguous() and input.is_contiguous(memory_format=f)), None)
        strides = _like_strides(input) if mf is None and (memory_format is None or memory_format is preserve_format) else None
        if strides is not None:
            # preserve_format: a dense, non-overlapping input's own strides (else dense ones in
            # its stride order), over a buffer filled in memory order, so random fills draw in
            # the same order as PyTorch's
            flat = fn(_FlatShape(input.numel()), *args, dtype=dtype or input.dtype, requires_grad=False, device=device, **kw)
            out = flat.as_strided(tuple(input.shape), strides).detach()
            return out.requires_grad_(requires_grad) if requires_grad else out
        if mf is None or mf is contiguous_format:
            return fn(input, *args, dtype=dtype or input.dtype, requires_grad=requires_grad, device=device, **kw)
        out = fn(input, *args, dtype=dtype or input.dtype, requires_grad=False, device=device, **kw)
        return out.contiguous(memory_format=mf).requires_grad_(requires_grad)

    return make


class _FlatShape:
    """Stands for a 1-d tensor of ``n`` elements where a ``*_like`` factory reads ``.shape``."""

    def __init__(self, n):
        self.shape = (n,)


def _like_strides(t):
    """The strides ``*_like(t)`` gets under preserve_format: ``t``'s own when it is dense and
    non-overlapping, else dense strides in ``t``'s stride order; None for a contiguous or an
    expanded ``t`` (those get contiguous results)."""
    if t.dim() < 2 or t.is_contiguous():
        return None
    shape, strides = tuple(t.shape), t.stride()
    if _builtins.any(st == 0 and sz > 1 for sz, st in zip(shape, strides)):
        return None
    order = sorted(_builtins.range(t.dim()), key=lambda d: -strides[d])
    expected = 1
    for d in reversed(order):
        if shape[d] == 1:
            continue
        if strides[d] != expected:
            break
        expected *= shape[d]
    else:
        return tuple(strides)
    out = [0] * t.dim()
    acc = 1
    for d in reversed(order):
        out[d] = acc
        acc *= _builtins.max(shape[d], 1)
    return tuple(out)


zeros_like = _like(lambda x, dtype, requires_grad, device: zeros(tuple(x.shape), dtype=dtype, requires_grad=requires_grad, device=device))
ones_like = _like(lambda x, dtype, requires_grad, device: ones(tuple(x.shape), dtype=dtype, requires_grad=requires_grad, device=device))
empty_like = _like(lambda x, dtype, requires_grad, device: empty(tuple(x.shape), dtype=dtype, requires_grad=requires_grad, device=device))
full_like = _like(lambda x, v, dtype, requires_grad, device: full(tuple(x.shape), v, dtype=dtype, requires_grad=requires_grad, device=device))
rand_like = _like(lambda x, dtype, requires_grad, device: rand(tuple(x.shape), dtype=dtype, requires_grad=requires_grad, device=device))
randn_like = _like(lambda x, dtype, requires_grad, device: randn(tuple(x.shape), dtype=dtype, requires_grad=requires_grad, device=device))


def randint_like(input, low=0, high=None, *, dtype=None, device=None, requires_grad=False, layout=None, memory_format=None):
    if high is None:
        low, high = 0, low
    device = input.device if device is None else device
    return randint(low, high, tuple(input.shape), dtype=dtype or input.dtype, device=device, requires_grad=requires_grad)


def is_tensor(obj):
    return isinstance(obj, Tensor)


def is_floating_point(t):
    return t.is_floating_point()


def is_complex(input):
    """``True`` if the dtype of ``input`` is complex64 or complex128."""
    return input.is_complex()


def real(input):
    """``input.real``: a view of the real parts (``input`` itself for a real tensor)."""
    return input.real


def imag(input):
    """``input.imag``: a view of the imaginary parts (complex tensors only)."""
    return input.imag


promote_types = _C.promote_types
result_type = _C.result_type
vdot = _C.vdot
view_as_real = _C.view_as_real
view_as_complex = _C.view_as_complex
complex = _C.complex
polar = _C.polar


def numel(t):
    return t.numel()


# ---- vmap's batching rules see the functions called with BatchedTensors -----------------
from .func import _batched  # noqa: E402

_vmap_active = _batched._active


def _vmappable(fn, name=None, random=False):
    """``fn`` that hands calls with BatchedTensor arguments (inside ``func.vmap``) to the
    batching rules (``random``: every call inside vmap, as it draws random numbers); otherwise
    an integer test (the wrapper's frame costs ~0.1 µs a call)."""
    name = name or fn.__name__

    def wrapper(*args, **kwargs):
        if _vmap_active[0] and (_batched._any_bt(args, kwargs) or random and _batched.random_active()):
            return _batched.fn_call(fn, name, args, kwargs)
        return fn(*args, **kwargs)

    wrapper.__name__ = wrapper.__qualname__ = name
    wrapper.__doc__ = fn.__doc__
    wrapper.__wrapped__ = fn
    return _warn.register_wrapper(wrapper)


for _name in "cat concat concatenate stack where zeros_like ones_like empty_like full_like".split():
    globals()[_name] = _vmappable(globals()[_name], "cat" if _name.startswith("conc") else _name)

_random_active = _batched.random_active


def _random(fn, kind, name=None):
    """``fn`` draws random numbers: inside ``func.vmap`` its calls go through vmap's randomness
    rules (``_batched.random_call``), batched operands or not; otherwise an integer test."""
    name = name or fn.__name__

    def wrapper(*args, **kwargs):
        if _vmap_active[0] and _random_active():
            return _batched.random_call(kind, fn, args, kwargs)
        return fn(*args, **kwargs)

    wrapper.__name__ = wrapper.__qualname__ = name
    wrapper.__doc__ = fn.__doc__ or _RANDOM_DOCS.get(name)
    wrapper.__wrapped__ = fn
    return wrapper


_RANDOM_DOCS = {
    "rand": "A tensor of ``size`` filled from the uniform distribution on [0, 1) (torch's CPU stream).",
    "randn": "A tensor of ``size`` filled from the standard normal distribution (torch's CPU stream).",
    "randint": "A tensor of ``size`` filled with integers uniform in [low, high) (torch's CPU stream).",
    "randperm": "A random permutation of ``0 .. n-1`` (torch's CPU stream).",
    "multinomial": "``num_samples`` indices drawn from the rows of ``input`` as weights (torch's CPU stream).",
    "bernoulli": "0/1 draws with the probabilities in ``input`` (torch's CPU stream).",
}


for _name, _kind in (("rand", "factory"), ("randn", "factory"), ("randint", "randint"),
                     ("randperm", "randperm"), ("normal", "normal"), ("bernoulli", "pointwise"),
                     ("multinomial", "multinomial"), ("rand_like", "like"), ("randn_like", "like"),
                     ("randint_like", "like")):
    globals()[_name] = _random(globals()[_name], _kind, _name)


def _random_method(name, kind):
    meth = getattr(Tensor, name)

    def method(self, *args, **kwargs):
        if _vmap_active[0] and _random_active():
            return _batched.random_call(kind, name if kind == "inplace" else meth, (self,) + args, kwargs)
        return meth(self, *args, **kwargs)

    method.__name__ = method.__qualname__ = name
    method.__doc__ = meth.__doc__
    return method


for _name, _kind in _batched.RANDOM_METHODS.items():
    if hasattr(Tensor, _name):
        setattr(Tensor, _name, _random_method(_name, _kind))


# ---- NumPy-style keyword aliases -----------------------------------------------------------
# PyTorch's argument parser takes ``axis=`` for ``dim=`` and ``keepdims=`` for ``keepdim=``
# (``x.sum(axis=1, keepdims=True)``, ``torch.cat(ts, axis=0)``): the methods and functions
# with those parameters accept the aliases (passed on renamed when the real name is absent).
import inspect as _inspect


def _dim_aliases(f):
    def aliased(*args, **kwargs):
        if kwargs:
            if "axis" in kwargs and "dim" not in kwargs:
                kwargs["dim"] = kwargs.pop("axis")
            if "keepdims" in kwargs and "keepdim" not in kwargs:
                kwargs["keepdim"] = kwargs.pop("keepdims")
            try:
                return f(*args, **kwargs)
            except TypeError as e:
                # PyTorch names the function alone: "sum() got an unexpected keyword ..."
                msg = str(e)
                if msg.startswith("Tensor.") and "got an unexpected keyword" in msg:
                    raise TypeError(msg[len("Tensor."):]) from None
                raise
        return f(*args, **kwargs)

    aliased.__name__ = aliased.__qualname__ = f.__name__
    aliased.__doc__ = f.__doc__
    aliased._dim_alias = True  # vmap's BatchedTensor sends these to the native method's rule
    _warn.register_wrapper(aliased)  # (one code object for all: warnings skip its frame)
    try:
        aliased.__signature__ = _inspect.signature(f)
    except (TypeError, ValueError):
        pass
    return aliased


def _takes_dim(f):
    try:
        params = _inspect.signature(f).parameters
    except (TypeError, ValueError):
        return False
    return "dim" in params or "keepdim" in params


# (the reductions and scans NumPy-style code calls with axis=; the view ops such as
# unsqueeze / transpose / select stay native, as they sit on every model's hot path)
_AXIS_METHODS = frozenset(
    "sum mean prod max min amax amin aminmax argmax argmin std var norm logsumexp median nanmedian "
    "nansum any all cumsum cumprod cummax cummin logcumsumexp softmax log_softmax squeeze kthvalue "
    "sort topk".split())
for _name in sorted(_AXIS_METHODS):
    _m = getattr(Tensor, _name)
    if type(_m).__name__ == "method_descriptor" and _takes_dim(_m):
        setattr(Tensor, _name, _dim_aliases(_m))
# (over the vmap-aware wrappers made above)
cat, concat, concatenate, stack = (_dim_aliases(f) for f in (cat, concat, concatenate, stack))
concat.__doc__ = concatenate.__doc__ = "Alias for ``cat``."
del _name, _m


# ---- functions that are Tensor methods -------------------------------------------------
import re as _re

_ARG_POSITION = _re.compile(r"^(\w+\(\): argument '\w+' )\(position (\d+)\)(.*)$", _re.S)

def _functional(meth):
    """``torch.f(x, ...)`` from ``Tensor.f``: also accepts the tensor as ``input=``."""
    name = meth.__name__

    def fn(*args, **kwargs):
        if "input" in kwargs:
            args = (kwargs.pop("input"),) + args
        if _vmap_active[0] and _batched._any_bt(args, kwargs):
            return _batched.call(name, args, kwargs)
        try:
            return meth(*args, **kwargs)
        except TypeError as e:
            # the method counts arguments after self; the function counts self too
            m = _ARG_POSITION.match(str(e))
            if m is None:
                raise
            # (`int` here is torch.int, the dtype: count with the builtin)
            raise TypeError(f"{m.group(1)}(position {_builtins.int(m.group(2)) + 1}){m.group(3)}") from None

    fn.__name__ = fn.__qualname__ = meth.__name__
    fn.__doc__ = meth.__doc__
    return fn


# `torch.exp(x)` is `Tensor.exp(x)`: the method descriptor takes the tensor as first arg.
for _name in (
    "add sub mul multiply div divide true_divide pow neg negative exp log sqrt rsqrt sin cos tan tanh "
    "sigmoid relu abs sign reciprocal floor ceil trunc round log1p expm1 log2 log10 atan asin acos "
    "sinh cosh square clamp clip clamp_min clamp_max sum mean prod max min amax argmax argmin norm all any "
    "softmax log_softmax matmul mm bmm mv dot eq ne lt le gt ge equal allclose maximum minimum "
    "floor_divide remainder fmod logical_not logical_and logical_or logical_xor isnan isinf isfinite "
    "reshape view_as as_strided transpose swapaxes t permute squeeze unsqueeze narrow select flatten unbind "
    "split chunk gather index_select masked_fill nonzero sort topk clone detach var std logsumexp "
    "cumsum flip erf atan2 arctan2 amin bitwise_and bitwise_or bitwise_xor median nanmedian kthvalue cummax "
    "cummin logcumsumexp aminmax "
    "cumprod lerp addcmul addcdiv addmm addmv baddbmm conj conj_physical resolve_conj resolve_neg angle sgn "
    "asinh acosh atanh lgamma digamma tril triu roll scatter scatter_add scatter_reduce index_add diagonal diag diag_embed trace "
    "erfinv logit exp2 kron cross erfc sinc frac deg2rad rad2deg hypot logaddexp logaddexp2 nextafter heaviside "
    "copysign"
).split():
    globals()[_name] = _functional(getattr(Tensor, _name))
del _name


def xlogy(input, other):
    """``input * log(other)``, 0 where ``input`` is 0 (unless ``other`` is NaN); either operand
    may be a number."""
    return _C._xlogy(input, other)


def bitwise_not(input):
    return input.__invert__()


def numel(input):  # noqa: F811
    return input.numel()


def argsort(input, dim=-1, descending=False, *, stable=False):
    """Indices that sort ``input`` along ``dim`` (the sort is always stable here)."""
    return input.sort(dim, descending, stable=stable).indices


def isclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    return input.isclose(other, rtol=rtol, atol=atol, equal_nan=equal_nan)


def outer(input, vec2):
    for name, t in (("self", input), ("vec2", vec2)):
        if t.dim() != 1:
            raise RuntimeError(f"outer: Expected 1-D argument {name}, but got {t.dim()}-D")
    return input.reshape(-1, 1) * vec2


def broadcast_tensors(*tensors):
    """``tensors`` expanded to their common shape; a tensor already of that shape is returned
    as it is (no view), as PyTorch."""
    shape = ()
    for t in tensors:
        shape = _broadcast_shape(shape, tuple(t.shape))
    return tuple(t if tuple(t.shape) == shape else t.expand(shape) for t in tensors)


def broadcast_shapes(*shapes):
    """The shape that tensors of ``shapes`` (sizes, or ints for 1-d shapes) broadcast to."""
    result = []
    for idx, s in enumerate(shapes):
        s = (s,) if isinstance(s, _builtins.int) else tuple(s)
        if _builtins.any(d < 0 for d in s):
            raise ValueError("Attempting to broadcast a dimension with negative length!")
        if len(s) > len(result):
            result = [1] * (len(s) - len(result)) + result
        for i in _builtins.range(-1, -len(s) - 1, -1):
            if s[i] == 1 or s[i] == result[i]:
                continue
            if result[i] != 1:
                raise RuntimeError(f"Attempting to broadcast a dimension of length {s[i]} at {i}! Mismatching argument at index {idx} "
                                   f"had {s}; but expected shape should be broadcastable to {result}")
            result[i] = s[i]
    return Size(result)


def _broadcast_shape(a, b):
    n = _builtins.max(len(a), len(b))
    a = (1,) * (n - len(a)) + tuple(a)
    b = (1,) * (n - len(b)) + tuple(b)
    return tuple(_builtins.max(x, y) if 1 in (x, y) else x for x, y in zip(a, b))


# ---- Tensor methods written in Python --------------------------------------------------
def _backward(self, gradient=None, retain_graph=None, create_graph=False, inputs=None):
    """Compute the gradient of this tensor w.r.t. graph leaves (``Tensor.backward``)."""
    autograd.backward(self, gradient, retain_graph, create_graph, inputs=inputs)


def _to_args(args, kwargs):
    """The (device, dtype) of ``to(...)`` arguments, shared by ``Tensor.to`` and
    ``nn.Module.to``: a dtype, a device (string, ``torch.device`` or CUDA ordinal), a tensor
    (its device and dtype), or keywords; positional bools (``non_blocking``, ``copy``) pass."""
    dt = kwargs.get("dtype")
    dev = kwargs.get("device")
    for a in args:
        if isinstance(a, dtype):
            dt = a
        elif isinstance(a, Tensor):
            dt, dev = a.dtype, a.device
        elif isinstance(a, _builtins.bool):
            continue
        elif isinstance(a, (str, device, _builtins.int)):
            dev = a
        else:
            raise TypeError(f"to() received an invalid combination of arguments - got ({type(a).__name__})")
    if dev is not None and not isinstance(dev, device):
        dev = device(dev)
    return dev, dt


_COMPLEX_CAST_WARNED = [False]


def _warn_complex_cast():
    # PyTorch's copy kernel warns once per process (TORCH_WARN_ONCE)
    if not _COMPLEX_CAST_WARNED[0]:
        _COMPLEX_CAST_WARNED[0] = True
        import warnings
        warnings.warn("Casting complex values to real discards the imaginary part", UserWarning, stacklevel=3)


class memory_format(_NamedConstant):
    """``torch.memory_format``: how a dense tensor's dims are ordered in memory
    (``contiguous_format``: row-major; ``channels_last``: the channel dim innermost;
    ``preserve_format``: as the source's)."""

    __slots__ = ()


contiguous_format = memory_format("contiguous_format")
preserve_format = memory_format("preserve_format")
channels_last = memory_format("channels_last")
channels_last_3d = memory_format("channels_last_3d")


def _to(self, *args, **kwargs):
    """``to(dtype)``, ``to(device)``, ``to(other)``, ``to(device, dtype)``, with
    ``memory_format=`` laying the result out so; returns ``self`` when nothing changes."""
    mf = kwargs.pop("memory_format", None)
    out = _to_plain(self, args, kwargs)
    if mf is not None and mf is not preserve_format and not out.is_contiguous(memory_format=mf):
        out = out.clone(memory_format=mf)
    return out


def _to_plain(self, args, kwargs):
    dev, dt = _to_args(args, kwargs)
    out = self
    if dev is not None:
        out = out._to_device(dev)
    if dt is not None and dt != out.dtype:
        if out.dtype.is_complex and not dt.is_complex and dt != bool:
            _warn_complex_cast()
        out = out._to_dtype(dt)
    if kwargs.get("copy") and out is self:
        out = self.clone()
    return out


_LEGACY = {}


def _type(self, dtype=None, non_blocking=False, **kwargs):
    """``x.type()`` names the legacy type; ``x.type(torch.DoubleTensor)`` converts (and moves,
    for the ``torch.cuda.*Tensor`` types)."""
    prefix = "torch.cuda." if self.is_cuda else "torch."
    if dtype is None:
        return prefix + _LEGACY_NAMES[self.dtype]
    if isinstance(dtype, str):
        names = {"torch." + v: (k, False) for k, v in _LEGACY_NAMES.items()}
        names.update({"torch.cuda." + v: (k, True) for k, v in _LEGACY_NAMES.items()})
        if dtype not in names:
            raise ValueError(f"invalid type: '{dtype}'")
        dtype, is_cuda = names[dtype]
        return self.to("cuda" if is_cuda else "cpu", dtype)
    if isinstance(dtype, type) and hasattr(dtype, "_dtype"):
        is_cuda = getattr(dtype, "_cuda", False)
        return self.to("cuda" if is_cuda else "cpu", dtype._dtype)
    if dtype is Tensor:
        # torch.Tensor stands for the default tensor type (torch.FloatTensor)
        return self.to(get_default_dtype())
    return self.to(dtype)


def _new_tensor(self, data, dtype=None, device=None, requires_grad=False):
    return tensor(data, dtype=dtype or self.dtype, device=self.device if device is None else device, requires_grad=requires_grad)


def _new_zeros(self, *size, dtype=None, device=None, requires_grad=False):
    return zeros(*size, dtype=dtype or self.dtype, device=self.device if device is None else device, requires_grad=requires_grad)


def _new_ones(self, *size, dtype=None, device=None, requires_grad=False):
    return ones(*size, dtype=dtype or self.dtype, device=self.device if device is None else device, requires_grad=requires_grad)


def _new_empty(self, *size, dtype=None, device=None, requires_grad=False):
    return empty(*size, dtype=dtype or self.dtype, device=self.device if device is None else device, requires_grad=requires_grad)


def _new_full(self, size, fill_value, dtype=None, device=None, requires_grad=False):
    return full(size, fill_value, dtype=dtype or self.dtype, device=self.device if device is None else device, requires_grad=requires_grad)


def _cuda(self, device=None, non_blocking=False, memory_format=None):
    if device is None:
        device = "cuda"
    elif isinstance(device, int):
        device = f"cuda:{device}"
    return _to(self._to_device(device), memory_format=memory_format)


def _rebuild_tensor(data, dtype_name, device_str, requires_grad):
    """Unpickle a tensor (the values, dtype, device and requires_grad of a leaf)."""
    t = tensor(data, dtype=globals()[dtype_name])
    if device_str != "cpu":
        t = t.to(device_str)
    if requires_grad:
        t.requires_grad_(True)
    return t


def _tensor_reduce_ex(self, proto):
    # pickling and copy.copy: a leaf with the same values, dtype, device and requires_grad
    return (_rebuild_tensor, (self.detach().cpu().tolist(), str(self.dtype).split(".")[-1], str(self.device), self.requires_grad))


def _tensor_deepcopy(self, memo):
    if not self.is_leaf:
        raise RuntimeError("Only Tensors created explicitly by the user (graph leaves) support the deepcopy protocol at the moment.  If you were attempting to deepcopy a module, this may be because of a torch.nn.utils.weight_norm usage, see https://github.com/pytorch/pytorch/pull/103001")
    if id(self) in memo:
        return memo[id(self)]
    with no_grad():
        new = serialization._copy_sharing_storage(self, memo)  # views copied together stay views
    if self.requires_grad:
        new.requires_grad_(True)
    if self.grad is not None:
        new.grad = _tensor_deepcopy(self.grad, memo)
    memo[id(self)] = new
    return new


def _cfloat(self):
    """``self.to(torch.complex64)``."""
    return self.to(complex64)


def _cdouble(self):
    """``self.to(torch.complex128)``."""
    return self.to(complex128)


def _register_methods():
    T = Tensor
    T.backward = _backward
    T.to = _to
    T.type = _type
    T.float = lambda self: self.to(float32)
    T.double = lambda self: self.to(float64)
    T.cfloat = _cfloat
    T.cdouble = _cdouble
    T.half = lambda self: self.to(float16)
    T.long = lambda self: self.to(int64)
    T.int = lambda self: self.to(int32)
    T.short = lambda self: self.to(int16)
    T.char = lambda self: self.to(int8)
    T.byte = lambda self: self.to(uint8)
    T.bitwise_not = lambda self: self.__invert__()
    T.bool = lambda self: self.to(bool)
    T.cpu = lambda self, memory_format=None: _to(self._to_device("cpu"), memory_format=memory_format)
    T.cuda = _cuda
    T.type_as = lambda self, other: self.to(other.dtype)
    T.new_tensor = _new_tensor
    T.new_zeros = _new_zeros
    T.new_ones = _new_ones
    T.new_empty = _new_empty
    T.new_full = _new_full
    T.where = lambda self, condition, other: self.where_(condition, other)
    T.argsort = lambda self, dim=-1, descending=False, *, stable=False: self.sort(dim, descending, stable=stable).indices
    T.__array_priority__ = 1000
    T.is_sparse = False
    T.is_quantized = False
    T.is_meta = False
    T.layout = strided
    T.__module__ = "ferrograd"
    T.__reduce_ex__ = _tensor_reduce_ex
    T.__deepcopy__ = _tensor_deepcopy
    from . import _dlpack; _dlpack._install(T)  # __dlpack__, __dlpack_device__


_LEGACY_NAMES = {float32: "FloatTensor", float64: "DoubleTensor", int64: "LongTensor",
                 int32: "IntTensor", bool: "BoolTensor", float16: "HalfTensor", bfloat16: "BFloat16Tensor",
                 int16: "ShortTensor", int8: "CharTensor", uint8: "ByteTensor",
                 complex64: "ComplexFloatTensor", complex128: "ComplexDoubleTensor"}


class _LegacyMeta(type):
    def __call__(cls, *args, **kwargs):
        dev = None
        if getattr(cls, "_cuda", False):
            cuda._lazy_init()
            dev = "cuda"
        if len(args) == 0:
            return empty(0, dtype=cls._dtype, device=dev)
        if len(args) == 1 and not isinstance(args[0], _builtins.int):
            if isinstance(args[0], Size):
                return zeros(*args[0], dtype=cls._dtype, device=dev)
            return tensor(args[0], dtype=cls._dtype, device=dev)
        return zeros(*args, dtype=cls._dtype, device=dev)

    def __instancecheck__(cls, obj):
        return isinstance(obj, Tensor) and obj.dtype == cls._dtype and obj.is_cuda == _builtins.bool(getattr(cls, "_cuda", False))


def _legacy(name, dt, is_cuda=False):
    return _LegacyMeta(name, (), {"_dtype": dt, "_cuda": is_cuda, "__module__": "ferrograd.cuda" if is_cuda else "ferrograd"})


FloatTensor = _legacy("FloatTensor", float32)
DoubleTensor = _legacy("DoubleTensor", float64)
LongTensor = _legacy("LongTensor", int64)
IntTensor = _legacy("IntTensor", int32)
BoolTensor = _legacy("BoolTensor", bool)
HalfTensor = _legacy("HalfTensor", float16)
BFloat16Tensor = _legacy("BFloat16Tensor", bfloat16)
ShortTensor = _legacy("ShortTensor", int16)
CharTensor = _legacy("CharTensor", int8)
ByteTensor = _legacy("ByteTensor", uint8)

_register_methods()

from ._composite import *  # noqa: E402,F401,F403  (einsum, movedim, the *stack family, ...)
from . import _composite  # noqa: E402
from ._surface import *  # noqa: E402,F401,F403  (tile, ravel, rot90, the math constants, ...)
from . import _surface  # noqa: E402
from ._mathops import *  # noqa: E402,F401,F403  (var_mean, the *_scatter family, quantile, torch.dropout, ...)
from . import _mathops  # noqa: E402
from ._extras import *  # noqa: E402,F401,F403  (unravel_index, fmax, gradient, frombuffer, ...)
from . import _extras  # noqa: E402
_extras._install_tensor_methods(Tensor)
_extras._install_index_reduce(Tensor)
from . import _foreach  # noqa: E402
_foreach._install(globals())  # torch._foreach_add, _foreach_mul_, ... (the multi-tensor ops)
from . import jit  # noqa: E402,F401
from . import amp  # noqa: E402,F401
from . import version  # noqa: E402,F401
from .amp import autocast, get_autocast_dtype, is_autocast_enabled, set_autocast_dtype, set_autocast_enabled  # noqa: E402,F401

_surface._install(Tensor)
_mathops._install(Tensor)
_extras._install_docsurvey_methods(Tensor)
ger = outer  # noqa: F821  (defined above)
_surface._install_inplace(Tensor, globals())
arcsinh_, arccosh_, arctanh_ = asinh_, acosh_, atanh_  # noqa: F821  (defined by the line above)
Tensor.arcsinh_, Tensor.arccosh_, Tensor.arctanh_ = Tensor.asinh_, Tensor.acosh_, Tensor.atanh_

arcsinh, arccosh, arctanh = asinh, acosh, atanh  # noqa: F821  (defined by the loop above)
for _name, _f in (("movedim", _composite._t_movedim), ("moveaxis", _composite._t_movedim),
                  ("unflatten", _composite._unflatten), ("tensor_split", _composite._t_tensor_split),
                  ("repeat_interleave", _composite._t_repeat_interleave), ("masked_select", _composite._t_masked_select),
                  ("nan_to_num", _composite._t_nan_to_num), ("unique", _composite._t_unique),
                  ("bincount", _composite._t_bincount), ("histc", _composite._t_histc),
                  ("take_along_dim", _composite._t_take_along_dim),
                  ("arcsinh", Tensor.asinh), ("arccosh", Tensor.acosh), ("arctanh", Tensor.atanh)):
    setattr(Tensor, _name, _f)


def _bfloat16(self):
    """``self.to(torch.bfloat16)``."""
    return self.to(bfloat16)


Tensor.bfloat16 = _bfloat16
del _name, _f

from . import accelerator, autograd, cuda, nn, optim, utils  # noqa: E402
from . import _dynamo, compiler, multiprocessing  # noqa: E402,F401
from .autograd.grad_mode import enable_grad, inference_mode, no_grad, set_grad_enabled  # noqa: E402
from . import return_types  # noqa: E402,F401
from . import serialization  # noqa: E402
from . import func  # noqa: E402,F401
from . import random  # noqa: E402,F401
from ._ops import ops  # noqa: E402,F401
from . import distributed  # noqa: E402,F401
from . import special  # noqa: E402,F401
from . import linalg  # noqa: E402,F401
from . import fft  # noqa: E402,F401
from . import masked  # noqa: E402,F401
from . import testing  # noqa: E402,F401
from . import special as _special  # noqa: E402

i0 = _special._torch_i0
polygamma = _special.polygamma
mvlgamma = _special.mvlgamma
for _name, _f in (("i0", _special._tensor_i0), ("i0_", _special._tensor_i0_), ("polygamma", _special._tensor_polygamma),
                  ("polygamma_", _special._tensor_polygamma_), ("mvlgamma", _special._tensor_mvlgamma),
                  ("mvlgamma_", _special._tensor_mvlgamma_)):
    if not hasattr(Tensor, _name):
        setattr(Tensor, _name, _f)
linalg._install(linalg._torch, Tensor)  # torch.det, Tensor.inverse, torch.cdist, ...
from . import profiler  # noqa: E402,F401
from . import backends, onnx  # noqa: E402,F401
from . import distributions  # noqa: E402,F401
from .func import vmap  # noqa: E402,F401
from . import functional  # noqa: E402,F401
from .serialization import load, save  # noqa: E402,F401


set_num_threads = _C.set_num_threads


_COMPILE_MODES = ("default", "lite", "reduce-overhead", "max-autotune-no-cudagraphs", "max-autotune")
_COMPILE_ARGS = ("fullgraph", "dynamic", "backend", "mode", "options", "disable")


def compile(model=None, **kwargs):
    """``torch.compile``: PyTorch's argument checks, then what it returns (an
    ``OptimizedModule`` wrapping a module as ``_orig_mod``, a wrapper of a function) — every
    call runs eagerly (there is no graph compiler here)."""
    for k in kwargs:
        if k not in _COMPILE_ARGS:
            raise TypeError(f"compile() got an unexpected keyword argument '{k}'")
    mode, options = kwargs.get("mode"), kwargs.get("options")
    if mode is not None and options is not None:
        raise RuntimeError("Either mode or options can be specified, but both can't be specified at the same time.")
    if mode is not None and mode not in _COMPILE_MODES:
        raise RuntimeError(f"Unrecognized mode={mode}, should be one of: {', '.join(_COMPILE_MODES)}")
    if model is None:
        return lambda m: compile(m, **kwargs)
    if kwargs.get("disable"):
        return model
    from ._dynamo.eval_frame import OptimizedModule, _optimize_function

    if isinstance(model, nn.Module):
        return OptimizedModule(model)
    if not callable(model):
        raise RuntimeError("compile() expects a callable or an nn.Module")
    return _optimize_function(model)



def _own_pickle_names():
    """Functions reached under a name other than their own (wrappers, aliases, the linalg
    functions installed as ``torch.det``...) get the module and name they are reached by, so
    that pickle finds them again (``torch.save`` of a module holding ``F.relu``)."""
    import sys as _sys
    import types as _types

    for modname in ("ferrograd", "ferrograd.nn.functional", "ferrograd.linalg", "ferrograd.special"):
        mod = _sys.modules[modname]
        for name, f in list(vars(mod).items()):
            if name.startswith("_") or not isinstance(f, _types.FunctionType):
                continue
            home = _sys.modules.get(f.__module__)
            if home is not None and getattr(home, f.__qualname__, None) is f:
                continue
            f.__module__, f.__qualname__ = modname, name


_own_pickle_names()

from . import _docs  # noqa: E402,F401  (docstrings for wrappers and stub-documented objects; last, after every submodule)
