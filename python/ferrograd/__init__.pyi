"""ferrograd: PyTorch-compatible autograd with a Rust core.

``import ferrograd as torch`` runs autograd code written for PyTorch: the same names, the
same results, the same ``grad_fn`` names, printing and errors. The tensor type and every op
are native (``ferrograd._C``); this package adds the parts that are Python by nature.
"""

import builtins
from typing import Any, Callable, Literal, Optional, Sequence, Tuple, TypeVar, Union, overload

import numpy as np

from . import accelerator as accelerator
from . import autograd as autograd
from . import cuda as cuda
from . import distributed as distributed
from . import func as func
from . import linalg as linalg
from . import fft as fft
from . import testing as testing
from . import nn as nn
from . import optim as optim
from . import random as random
from . import return_types as return_types
from . import serialization as serialization
from ._ops import ops as ops
from . import utils as utils
from . import compiler as compiler
from . import multiprocessing as multiprocessing
from .cuda import OutOfMemoryError as OutOfMemoryError
from .amp import GradScaler as GradScaler
from . import backends as backends
from . import distributions as distributions
from . import functional as functional
from . import onnx as onnx
from . import jit as jit
from . import amp as amp
from . import version as version
from . import masked as masked
from .amp import autocast as autocast
from .func import vmap as vmap
from ._C import Generator as Generator
from ._C import Tensor as Tensor
from ._C import dtype as dtype
from ._C import _DeviceLike, _Dims, _Number, _SizeArg, _TensorOrNumber
from ._helpers import _MinMax, _ValuesIndices
from ._helpers import Size as Size
from ._helpers import device as device
from ._helpers import layout as layout, strided as strided, sparse_coo as sparse_coo, sparse_csr as sparse_csr
from ._helpers import sparse_csc as sparse_csc, sparse_bsr as sparse_bsr, sparse_bsc as sparse_bsc, jagged as jagged
from ._tensor_str import set_printoptions as set_printoptions
from .autograd.grad_mode import enable_grad as enable_grad
from .autograd.grad_mode import inference_mode as inference_mode
from .autograd.grad_mode import no_grad as no_grad
from .autograd.grad_mode import set_grad_enabled as set_grad_enabled
from .serialization import load as load
from .serialization import save as save

_int = builtins.int
_float = builtins.float
_bool = builtins.bool
_dtype = dtype
_T = TypeVar("_T")

from .torch_version import TorchVersion
__version__: TorchVersion
"""The PyTorch API version followed (``2.13.0+ferrograd``), comparable with strings and tuples."""
__ferrograd_version__: str
"""The installed version (Cargo.toml's ``version``, read from the package metadata)."""

# ---- dtypes (printed as torch.float32, ...) -------------------------------------------------
bool: dtype
uint8: dtype
int8: dtype
int16: dtype
int32: dtype
int64: dtype
float16: dtype
bfloat16: dtype
float32: dtype
float64: dtype
complex64: dtype
complex128: dtype
float: dtype
double: dtype
cfloat: dtype
cdouble: dtype
half: dtype
long: dtype
int: dtype
short: dtype

# ---- legacy tensor types (torch.FloatTensor, ...) -------------------------------------------
class _LegacyMeta(type):
    """The metaclass of the legacy tensor types: calling one makes a tensor of its dtype;
    ``isinstance(x, torch.FloatTensor)`` checks the dtype and device."""
    def __call__(cls, *args: Any, **kwargs: Any) -> Tensor: ...
    def __instancecheck__(cls, obj: object) -> _bool: ...

FloatTensor: _LegacyMeta
DoubleTensor: _LegacyMeta
LongTensor: _LegacyMeta
IntTensor: _LegacyMeta
BoolTensor: _LegacyMeta
HalfTensor: _LegacyMeta
BFloat16Tensor: _LegacyMeta
ShortTensor: _LegacyMeta
CharTensor: _LegacyMeta
ByteTensor: _LegacyMeta

# ---- factories -----------------------------------------------------------------------------
def tensor(data: Any, *, dtype: Optional[_dtype] = None, device: Optional[_DeviceLike] = None, requires_grad: _bool = False,
           pin_memory: _bool = False) -> Tensor:
    """Construct a tensor with no autograd history by copying ``data`` (a number, a nested
    list/tuple, a NumPy array or a tensor). The dtype is inferred (bool, int64, float32 by
    default) unless ``dtype`` is given."""
def as_tensor(data: Any, dtype: Optional[_dtype] = None, device: Optional[_DeviceLike] = None) -> Tensor:
    """Convert ``data`` into a tensor, sharing memory with NumPy arrays and tensors when the
    dtype and device already match."""
def from_numpy(arr: np.ndarray[Any, Any]) -> Tensor:
    """A tensor sharing memory with a NumPy ``ndarray`` (writes to one show in the other)."""
def from_dlpack(obj: Any) -> Tensor:
    """A tensor from any object with ``__dlpack__`` (or a DLPack capsule), zero-copy on the CPU."""
@overload
def zeros(size: Sequence[_int], /, *, dtype: Optional[_dtype] = None, device: Optional[_DeviceLike] = None,
          requires_grad: _bool = False, out: Optional[Tensor] = None) -> Tensor:
    """A tensor filled with the scalar value 0, with the shape given by ``size`` (varargs or a sequence)."""
@overload
def zeros(*size: _int, dtype: Optional[_dtype] = None, device: Optional[_DeviceLike] = None,
          requires_grad: _bool = False, out: Optional[Tensor] = None) -> Tensor: ...
@overload
def ones(size: Sequence[_int], /, *, dtype: Optional[_dtype] = None, device: Optional[_DeviceLike] = None,
         requires_grad: _bool = False, out: Optional[Tensor] = None) -> Tensor:
    """A tensor filled with the scalar value 1, with the shape given by ``size`` (varargs or a sequence)."""
@overload
def ones(*size: _int, dtype: Optional[_dtype] = None, device: Optional[_DeviceLike] = None,
         requires_grad: _bool = False, out: Optional[Tensor] = None) -> Tensor: ...
@overload
def empty(size: Sequence[_int], /, *, dtype: Optional[_dtype] = None, device: Optional[_DeviceLike] = None,
          requires_grad: _bool = False, out: Optional[Tensor] = None) -> Tensor:
    """A tensor with uninitialized data, with the shape given by ``size`` (its values are unspecified, as in PyTorch)."""
@overload
def empty(*size: _int, dtype: Optional[_dtype] = None, device: Optional[_DeviceLike] = None,
          requires_grad: _bool = False, out: Optional[Tensor] = None) -> Tensor: ...
@overload
def rand(size: Sequence[_int], /, *, generator: Optional[Generator] = None, dtype: Optional[_dtype] = None,
         device: Optional[_DeviceLike] = None, requires_grad: _bool = False, out: Optional[Tensor] = None) -> Tensor:
    """A tensor of random numbers from the uniform distribution on ``[0, 1)`` (PyTorch's CPU
    stream: the same seed gives the same values as PyTorch)."""
@overload
def rand(*size: _int, generator: Optional[Generator] = None, dtype: Optional[_dtype] = None,
         device: Optional[_DeviceLike] = None, requires_grad: _bool = False, out: Optional[Tensor] = None) -> Tensor: ...
@overload
def randn(size: Sequence[_int], /, *, generator: Optional[Generator] = None, dtype: Optional[_dtype] = None,
          device: Optional[_DeviceLike] = None, requires_grad: _bool = False, out: Optional[Tensor] = None) -> Tensor:
    """A tensor of random numbers from the standard normal distribution (PyTorch's CPU stream)."""
@overload
def randn(*size: _int, generator: Optional[Generator] = None, dtype: Optional[_dtype] = None,
          device: Optional[_DeviceLike] = None, requires_grad: _bool = False, out: Optional[Tensor] = None) -> Tensor: ...
@overload
def randint(high: _int, size: Sequence[_int], *, generator: Optional[Generator] = None, dtype: Optional[_dtype] = None,
            device: Optional[_DeviceLike] = None, requires_grad: _bool = False, out: Optional[Tensor] = None) -> Tensor:
    """A tensor of integers drawn uniformly from ``[low, high)`` (``low`` defaults to 0), int64
    unless ``dtype`` is given."""
@overload
def randint(low: _int, high: _int, size: Sequence[_int], *, generator: Optional[Generator] = None, dtype: Optional[_dtype] = None,
            device: Optional[_DeviceLike] = None, requires_grad: _bool = False, out: Optional[Tensor] = None) -> Tensor: ...
def randperm(n: _int, *, generator: Optional[Generator] = None, dtype: Optional[_dtype] = None, device: Optional[_DeviceLike] = None,
             requires_grad: _bool = False, layout: Any = None, pin_memory: _bool = False, out: Optional[Tensor] = None) -> Tensor:
    """A random permutation of the integers ``0 .. n-1`` (int64)."""
def full(size: Sequence[_int], fill_value: _Number, *, dtype: Optional[_dtype] = None, device: Optional[_DeviceLike] = None,
         requires_grad: _bool = False) -> Tensor:
    """A tensor of ``size`` filled with ``fill_value`` (dtype inferred from the value)."""
@overload
def arange(end: _Number, /, *, dtype: Optional[_dtype] = None, device: Optional[_DeviceLike] = None, requires_grad: _bool = False) -> Tensor:
    """A 1-d tensor of values from ``start`` (default 0) to ``end`` (exclusive) in steps of
    ``step`` (default 1); int64 if all arguments are integers."""
@overload
def arange(start: _Number, end: _Number, step: Optional[_Number] = None, *, dtype: Optional[_dtype] = None, device: Optional[_DeviceLike] = None,
           requires_grad: _bool = False) -> Tensor: ...
def linspace(start: _Number, end: _Number, steps: _int, *, dtype: Optional[_dtype] = None, device: Optional[_DeviceLike] = None,
             requires_grad: _bool = False) -> Tensor:
    """A 1-d tensor of ``steps`` values evenly spaced from ``start`` to ``end`` inclusive."""
def eye(n: _int, m: Optional[_int] = None, *, dtype: Optional[_dtype] = None, device: Optional[_DeviceLike] = None,
        requires_grad: _bool = False) -> Tensor:
    """A 2-d tensor with ones on the diagonal and zeros elsewhere."""
def zeros_like(input: Tensor, *, dtype: Optional[_dtype] = None, device: Optional[_DeviceLike] = None, requires_grad: _bool = False,
               layout: Any = None, memory_format: Any = None) -> Tensor:
    """A tensor of zeros with the size of ``input`` (and its dtype and device unless given)."""
def ones_like(input: Tensor, *, dtype: Optional[_dtype] = None, device: Optional[_DeviceLike] = None, requires_grad: _bool = False,
              layout: Any = None, memory_format: Any = None) -> Tensor:
    """A tensor of ones with the size of ``input`` (and its dtype and device unless given)."""
def empty_like(input: Tensor, *, dtype: Optional[_dtype] = None, device: Optional[_DeviceLike] = None, requires_grad: _bool = False,
               layout: Any = None, memory_format: Any = None) -> Tensor:
    """An uninitialised tensor with the size of ``input`` (and its dtype and device unless given)."""
def full_like(input: Tensor, fill_value: _Number, *, dtype: Optional[_dtype] = None, device: Optional[_DeviceLike] = None,
              requires_grad: _bool = False, layout: Any = None, memory_format: Any = None) -> Tensor:
    """A tensor filled with ``fill_value`` with the size of ``input`` (and its dtype and device unless given)."""
def rand_like(input: Tensor, *, dtype: Optional[_dtype] = None, device: Optional[_DeviceLike] = None, requires_grad: _bool = False,
              layout: Any = None, memory_format: Any = None) -> Tensor:
    """Uniform ``[0, 1)`` random numbers with the size of ``input``."""
def randn_like(input: Tensor, *, dtype: Optional[_dtype] = None, device: Optional[_DeviceLike] = None, requires_grad: _bool = False,
               layout: Any = None, memory_format: Any = None) -> Tensor:
    """Standard normal random numbers with the size of ``input``."""
def randint_like(input: Tensor, low: _int = 0, high: Optional[_int] = None, *, dtype: Optional[_dtype] = None,
                 device: Optional[_DeviceLike] = None, requires_grad: _bool = False, layout: Any = None, memory_format: Any = None) -> Tensor:
    """Random integers in ``[low, high)`` with the size of ``input`` (``randint_like(x, high)`` too)."""
def cat(tensors: Sequence[Tensor], dim: _int = 0, *, out: Optional[Tensor] = None) -> Tensor:
    """Concatenate tensors of the same shape (except in ``dim``) along ``dim``."""
def concat(tensors: Sequence[Tensor], dim: _int = 0, *, out: Optional[Tensor] = None) -> Tensor:
    """Alias for ``cat``."""
def concatenate(tensors: Sequence[Tensor], dim: _int = 0, *, out: Optional[Tensor] = None) -> Tensor:
    """Alias for ``cat``."""
def stack(tensors: Sequence[Tensor], dim: _int = 0, *, out: Optional[Tensor] = None) -> Tensor:
    """Stack tensors of the same shape along a new dimension ``dim``."""
@overload
def where(condition: Tensor, input: None = None, other: None = None) -> Tuple[Tensor, ...]:
    """``where(condition, input, other)``: elements of ``input`` where ``condition`` is true,
    else of ``other`` (tensors or numbers, broadcast). ``where(condition)``: the indices of the
    non-zero elements, one tensor per dimension (``nonzero(as_tuple=True)``)."""
@overload
def where(condition: Tensor, input: _TensorOrNumber, other: _TensorOrNumber) -> Tensor: ...
def normal(mean: Union[Tensor, _float], std: Union[Tensor, _float] = 1.0, size: Optional[Sequence[_int]] = None, *,
           generator: Optional[Generator] = None, out: Optional[Tensor] = None, dtype: Optional[_dtype] = None,
           device: Optional[_DeviceLike] = None, requires_grad: _bool = False) -> Tensor:
    """Random numbers from normal distributions: ``normal(mean, std)`` with tensors (element-wise
    means and standard deviations), or ``normal(mean, std, size)`` with numbers."""
def bernoulli(input: Tensor, p: Optional[_float] = None, *, generator: Optional[Generator] = None, out: Optional[Tensor] = None) -> Tensor:
    """Binary random numbers (0 or 1), drawn with the probabilities in ``input``."""

# ---- random streams ------------------------------------------------------------------------
default_generator: Generator
"""The default CPU ``Generator``."""
def manual_seed(seed: _int) -> Generator:
    """Set the seed of the default generator (and, as in PyTorch, the CUDA ones); returns it."""
def seed() -> _int:
    """Seed the default generator with a non-deterministic number and return it."""
def initial_seed() -> _int:
    """The initial seed of the default generator."""
def get_rng_state() -> Tensor:
    """The state of the default generator as a uint8 tensor (PyTorch's layout)."""
def set_rng_state(new_state: Tensor) -> None:
    """Restore the default generator's state from ``get_rng_state``'s tensor."""

# ---- defaults, modes, threads ----------------------------------------------------------------
def set_default_device(device: Optional[_DeviceLike]) -> None:
    """Factories without ``device=`` create tensors on ``device`` (``None``: back to the CPU)."""
def get_default_device() -> device:
    """The device factories use when no ``device=`` is given."""
def get_default_dtype() -> dtype:
    """The default floating-point dtype (``float32`` unless changed)."""
def set_default_dtype(d: dtype) -> None:
    """Set the default floating-point dtype (``float32`` or ``float64``)."""
def is_grad_enabled() -> _bool:
    """``True`` if gradient recording is currently enabled."""
def is_inference_mode_enabled() -> _bool:
    """``True`` if inference mode is currently enabled."""
def get_num_threads() -> _int:
    """The number of threads used by the backward engine and by large kernels."""
def set_num_threads(n: _int) -> None:
    """Set the number of threads of the worker pool (backward branches and kernels above 64K
    elements). Results are bitwise identical for any thread count."""
@overload
def compile(model: _T, **kwargs: Any) -> _T:
    """No compiler in ferrograd: returns ``model`` unchanged (as a decorator too). Code that
    calls ``torch.compile`` runs eagerly."""
@overload
def compile(model: None = None, **kwargs: Any) -> Callable[[_T], _T]: ...

# ---- predicates and small functions ------------------------------------------------------------
def is_tensor(obj: object) -> _bool:
    """``True`` if ``obj`` is a ferrograd tensor."""
def is_floating_point(t: Tensor) -> _bool:
    """``True`` if the dtype of ``t`` is a floating-point type."""
def vdot(input: Tensor, other: Tensor) -> Tensor:
    """The dot product of ``input.conj()`` and ``other`` (1-D tensors)."""
def is_complex(input: Tensor) -> _bool:
    """``True`` if the dtype of ``input`` is complex64 or complex128."""
def real(input: Tensor) -> Tensor:
    """``input.real``: a view of the real parts (``input`` itself for a real tensor)."""
def imag(input: Tensor) -> Tensor:
    """``input.imag``: a view of the imaginary parts (complex tensors only)."""
def promote_types(type1: dtype, type2: dtype) -> dtype:
    """The dtype both ``type1`` and ``type2`` promote to."""
def result_type(tensor1: Any, tensor2: Any) -> dtype:
    """The dtype of an arithmetic op on the two operands (tensors or Python numbers)."""
def view_as_real(input: Tensor) -> Tensor:
    """The (re, im) pairs of a complex tensor as a real view with a last dimension of 2."""
def view_as_complex(input: Tensor) -> Tensor:
    """A float tensor whose last dimension holds (re, im) pairs, as a complex view."""
def complex(real: Tensor, imag: Tensor) -> Tensor:
    """The complex tensor ``real + i imag`` (both float32 or both float64; broadcast)."""
def polar(abs: Tensor, angle: Tensor) -> Tensor:
    """The complex tensor ``abs * (cos(angle) + i sin(angle))``."""
def numel(input: Tensor) -> _int:
    """The total number of elements in ``input``."""
def bitwise_not(input: Tensor) -> Tensor:
    """Bitwise NOT of an integer or bool tensor."""
def argsort(input: Tensor, dim: _int = -1, descending: _bool = False, *, stable: _bool = False) -> Tensor:
    """The indices that sort ``input`` along ``dim``."""
def isclose(input: Tensor, other: Tensor, rtol: _float = 1e-05, atol: _float = 1e-08, equal_nan: _bool = False) -> Tensor:
    """Element-wise ``|input - other| <= atol + rtol * |other|``, as a bool tensor."""
pi: _float
e: _float
inf: _float
nan: _float
newaxis: None
def abs_(input: Tensor, *args: Any, **kwargs: Any) -> Tensor:
    """In-place version of ``torch.abs``."""
def acos_(input: Tensor, *args: Any, **kwargs: Any) -> Tensor:
    """In-place version of ``torch.acos``."""
def acosh_(input: Tensor, *args: Any, **kwargs: Any) -> Tensor:
    """In-place version of ``torch.acosh``."""
def asin_(input: Tensor, *args: Any, **kwargs: Any) -> Tensor:
    """In-place version of ``torch.asin``."""
def asinh_(input: Tensor, *args: Any, **kwargs: Any) -> Tensor:
    """In-place version of ``torch.asinh``."""
def atan_(input: Tensor, *args: Any, **kwargs: Any) -> Tensor:
    """In-place version of ``torch.atan``."""
def atanh_(input: Tensor, *args: Any, **kwargs: Any) -> Tensor:
    """In-place version of ``torch.atanh``."""
def ceil_(input: Tensor, *args: Any, **kwargs: Any) -> Tensor:
    """In-place version of ``torch.ceil``."""
def clamp_(input: Tensor, *args: Any, **kwargs: Any) -> Tensor:
    """In-place version of ``torch.clamp``."""
def clamp_max_(input: Tensor, *args: Any, **kwargs: Any) -> Tensor:
    """In-place version of ``torch.clamp_max``."""
def clamp_min_(input: Tensor, *args: Any, **kwargs: Any) -> Tensor:
    """In-place version of ``torch.clamp_min``."""
def clip_(input: Tensor, *args: Any, **kwargs: Any) -> Tensor:
    """In-place version of ``torch.clip``."""
def cos_(input: Tensor, *args: Any, **kwargs: Any) -> Tensor:
    """In-place version of ``torch.cos``."""
def cosh_(input: Tensor, *args: Any, **kwargs: Any) -> Tensor:
    """In-place version of ``torch.cosh``."""
def erf_(input: Tensor, *args: Any, **kwargs: Any) -> Tensor:
    """In-place version of ``torch.erf``."""
def exp_(input: Tensor, *args: Any, **kwargs: Any) -> Tensor:
    """In-place version of ``torch.exp``."""
def exp2_(input: Tensor, *args: Any, **kwargs: Any) -> Tensor:
    """In-place version of ``torch.exp2``."""
def expm1_(input: Tensor, *args: Any, **kwargs: Any) -> Tensor:
    """In-place version of ``torch.expm1``."""
def floor_(input: Tensor, *args: Any, **kwargs: Any) -> Tensor:
    """In-place version of ``torch.floor``."""
def log_(input: Tensor, *args: Any, **kwargs: Any) -> Tensor:
    """In-place version of ``torch.log``."""
def log10_(input: Tensor, *args: Any, **kwargs: Any) -> Tensor:
    """In-place version of ``torch.log10``."""
def log1p_(input: Tensor, *args: Any, **kwargs: Any) -> Tensor:
    """In-place version of ``torch.log1p``."""
def log2_(input: Tensor, *args: Any, **kwargs: Any) -> Tensor:
    """In-place version of ``torch.log2``."""
def logit_(input: Tensor, *args: Any, **kwargs: Any) -> Tensor:
    """In-place version of ``torch.logit``."""
def neg_(input: Tensor, *args: Any, **kwargs: Any) -> Tensor:
    """In-place version of ``torch.neg``."""
def negative_(input: Tensor, *args: Any, **kwargs: Any) -> Tensor:
    """In-place version of ``torch.negative``."""
def reciprocal_(input: Tensor, *args: Any, **kwargs: Any) -> Tensor:
    """In-place version of ``torch.reciprocal``."""
def relu_(input: Tensor, *args: Any, **kwargs: Any) -> Tensor:
    """In-place version of ``torch.relu``."""
def round_(input: Tensor, *args: Any, **kwargs: Any) -> Tensor:
    """In-place version of ``torch.round``."""
def rsqrt_(input: Tensor, *args: Any, **kwargs: Any) -> Tensor:
    """In-place version of ``torch.rsqrt``."""
def sigmoid_(input: Tensor, *args: Any, **kwargs: Any) -> Tensor:
    """In-place version of ``torch.sigmoid``."""
def sin_(input: Tensor, *args: Any, **kwargs: Any) -> Tensor:
    """In-place version of ``torch.sin``."""
def sinh_(input: Tensor, *args: Any, **kwargs: Any) -> Tensor:
    """In-place version of ``torch.sinh``."""
def sqrt_(input: Tensor, *args: Any, **kwargs: Any) -> Tensor:
    """In-place version of ``torch.sqrt``."""
def square_(input: Tensor, *args: Any, **kwargs: Any) -> Tensor:
    """In-place version of ``torch.square``."""
def tan_(input: Tensor, *args: Any, **kwargs: Any) -> Tensor:
    """In-place version of ``torch.tan``."""
def tanh_(input: Tensor, *args: Any, **kwargs: Any) -> Tensor:
    """In-place version of ``torch.tanh``."""
def trunc_(input: Tensor, *args: Any, **kwargs: Any) -> Tensor:
    """In-place version of ``torch.trunc``."""
def xlogy_(input: Tensor, *args: Any, **kwargs: Any) -> Tensor:
    """In-place version of ``torch.xlogy``."""
def tile(input: Tensor, dims: Sequence[_int]) -> Tensor:
    """``input`` repeated ``dims`` times along each dimension."""
def ravel(input: Tensor) -> Tensor:
    """``input`` flattened to one dimension."""
def broadcast_to(input: Tensor, size: Sequence[_int]) -> Tensor:
    """``input`` expanded to ``size`` (a view)."""
def fliplr(input: Tensor) -> Tensor:
    """``input`` with its columns reversed."""
def flipud(input: Tensor) -> Tensor:
    """``input`` with its rows reversed."""
def rot90(input: Tensor, k: _int = 1, dims: Sequence[_int] = (0, 1)) -> Tensor:
    """``input`` rotated by 90 degrees ``k`` times in the plane of ``dims``."""
def count_nonzero(input: Tensor, dim: Optional[Union[_int, Sequence[_int]]] = None) -> Tensor:
    """The number of non-zero elements."""
def diff(input: Tensor, n: _int = 1, dim: _int = -1, prepend: Optional[Tensor] = None, append: Optional[Tensor] = None) -> Tensor:
    """The ``n``-th forward difference along ``dim``."""
def use_deterministic_algorithms(mode: builtins.bool, *, warn_only: builtins.bool = False) -> None:
    """Record the deterministic-algorithms mode."""
def are_deterministic_algorithms_enabled() -> builtins.bool: ...
def is_deterministic_algorithms_warn_only_enabled() -> builtins.bool: ...
def greater(input: Tensor, other: _TensorOrNumber) -> Tensor: ...
def greater_equal(input: Tensor, other: _TensorOrNumber) -> Tensor: ...
def less(input: Tensor, other: _TensorOrNumber) -> Tensor: ...
def less_equal(input: Tensor, other: _TensorOrNumber) -> Tensor: ...
def not_equal(input: Tensor, other: _TensorOrNumber) -> Tensor: ...
def subtract(input: Tensor, other: _TensorOrNumber, *, alpha: _Number = 1) -> Tensor: ...
def swapdims(input: Tensor, dim0: _int, dim1: _int) -> Tensor: ...
def absolute(input: Tensor) -> Tensor: ...
def positive(input: Tensor) -> Tensor: ...
def is_nonzero(input: Tensor) -> builtins.bool: ...
def is_signed(input: Tensor) -> builtins.bool: ...
def is_same_size(input: Tensor, other: Tensor) -> builtins.bool: ...
def ger(input: Tensor, vec2: Tensor) -> Tensor: ...
def outer(input: Tensor, vec2: Tensor) -> Tensor:
    """The outer product of two 1-d tensors."""
def broadcast_shapes(*shapes: Union[_int, Sequence[_int]]) -> Size:
    """The shape that tensors of ``shapes`` (sizes, or ints for 1-d shapes) broadcast to."""
def broadcast_tensors(*tensors: Tensor) -> Tuple[Tensor, ...]:
    """Broadcast the tensors to a common shape (views)."""

# ---- functions that are Tensor methods (torch.exp(x) is x.exp()) -------------------------------
def add(input: Tensor, other: _TensorOrNumber, alpha: Optional[_Number] = None, *, out: Optional[Tensor] = None) -> Tensor:
    """Adds ``other``, scaled by ``alpha``, to ``input`` (broadcasting, type promotion)."""
def sub(input: Tensor, other: _TensorOrNumber, alpha: Optional[_Number] = None, *, out: Optional[Tensor] = None) -> Tensor:
    """Subtracts ``other``, scaled by ``alpha``, from ``input``."""
def mul(input: Tensor, other: _TensorOrNumber, *, out: Optional[Tensor] = None) -> Tensor:
    """Multiplies ``input`` by ``other`` element-wise."""
def multiply(input: Tensor, other: _TensorOrNumber, *, out: Optional[Tensor] = None) -> Tensor:
    """Alias for ``mul``."""
def div(input: Tensor, other: _TensorOrNumber, *, rounding_mode: Optional[str] = None, out: Optional[Tensor] = None) -> Tensor:
    """Divides ``input`` by ``other`` element-wise; ``rounding_mode`` is ``None`` (true
    division), ``"trunc"`` or ``"floor"``."""
def divide(input: Tensor, other: _TensorOrNumber, *, rounding_mode: Optional[str] = None, out: Optional[Tensor] = None) -> Tensor:
    """Alias for ``div``."""
def true_divide(input: Tensor, other: _TensorOrNumber, *, out: Optional[Tensor] = None) -> Tensor:
    """Alias for ``div`` with ``rounding_mode=None``."""
def pow(input: Tensor, exponent: _TensorOrNumber, *, out: Optional[Tensor] = None) -> Tensor:
    """Takes the power of each element with ``exponent`` (a number or a broadcastable tensor)."""
def neg(input: Tensor, *, out: Optional[Tensor] = None) -> Tensor:
    """Returns the negative of the elements."""
def negative(input: Tensor, *, out: Optional[Tensor] = None) -> Tensor:
    """Alias for ``neg``."""
def exp(input: Tensor, *, out: Optional[Tensor] = None) -> Tensor:
    """The exponential of the elements."""
def log(input: Tensor, *, out: Optional[Tensor] = None) -> Tensor:
    """The natural logarithm of the elements."""
def sqrt(input: Tensor, *, out: Optional[Tensor] = None) -> Tensor:
    """The square root of the elements."""
def rsqrt(input: Tensor, *, out: Optional[Tensor] = None) -> Tensor:
    """The reciprocal of the square root of the elements."""
def sin(input: Tensor, *, out: Optional[Tensor] = None) -> Tensor:
    """The sine of the elements."""
def cos(input: Tensor, *, out: Optional[Tensor] = None) -> Tensor:
    """The cosine of the elements."""
def tan(input: Tensor, *, out: Optional[Tensor] = None) -> Tensor:
    """The tangent of the elements."""
def tanh(input: Tensor, *, out: Optional[Tensor] = None) -> Tensor:
    """The hyperbolic tangent of the elements."""
def sigmoid(input: Tensor, *, out: Optional[Tensor] = None) -> Tensor:
    """The logistic sigmoid ``1 / (1 + exp(-x))`` of the elements."""
def relu(input: Tensor, *, out: Optional[Tensor] = None) -> Tensor:
    """Rectified linear unit ``max(0, x)`` element-wise."""
def abs(input: Tensor, *, out: Optional[Tensor] = None) -> Tensor:
    """Computes the absolute value of each element."""
def sign(input: Tensor, *, out: Optional[Tensor] = None) -> Tensor:
    """The signs (-1, 0, 1) of the elements."""
def conj(input: Tensor, *, out: Optional[Tensor] = None) -> Tensor:
    """The complex conjugate (a real tensor is returned as is)."""
def conj_physical(input: Tensor, *, out: Optional[Tensor] = None) -> Tensor:
    """The complex conjugate, computed (ferrograd's ``conj`` is never lazy)."""
def resolve_conj(input: Tensor, *, out: Optional[Tensor] = None) -> Tensor:
    """``input`` itself: ferrograd has no lazy conjugate bit to resolve."""
def resolve_neg(input: Tensor, *, out: Optional[Tensor] = None) -> Tensor:
    """``input`` itself: ferrograd has no lazy negation bit to resolve."""
def angle(input: Tensor, *, out: Optional[Tensor] = None) -> Tensor:
    """The argument (phase) of the elements: ``atan2(imag, real)``; 0 or pi for real tensors."""
def sgn(input: Tensor, *, out: Optional[Tensor] = None) -> Tensor:
    """``z / |z|`` for complex tensors (0 at 0); ``sign`` for real ones."""
def reciprocal(input: Tensor, *, out: Optional[Tensor] = None) -> Tensor:
    """The reciprocal ``1 / x`` of the elements."""
def floor(input: Tensor, *, out: Optional[Tensor] = None) -> Tensor:
    """The floor of the elements (the largest integer less than or equal to each)."""
def ceil(input: Tensor, *, out: Optional[Tensor] = None) -> Tensor:
    """The ceiling of the elements (the smallest integer greater than or equal to each)."""
def trunc(input: Tensor, *, out: Optional[Tensor] = None) -> Tensor:
    """The elements rounded towards zero."""
def round(input: Tensor, *, decimals: _int = 0, out: Optional[Tensor] = None) -> Tensor:
    """The elements rounded to the nearest integer (half to even), or to ``decimals`` places."""
def log1p(input: Tensor, *, out: Optional[Tensor] = None) -> Tensor:
    """``log(1 + x)`` of the elements, accurate near 0."""
def expm1(input: Tensor, *, out: Optional[Tensor] = None) -> Tensor:
    """``exp(x) - 1`` of the elements, accurate near 0."""
def log2(input: Tensor, *, out: Optional[Tensor] = None) -> Tensor:
    """The logarithm to the base 2 of the elements."""
def log10(input: Tensor, *, out: Optional[Tensor] = None) -> Tensor:
    """The logarithm to the base 10 of the elements."""
def atan(input: Tensor, *, out: Optional[Tensor] = None) -> Tensor:
    """The arctangent of the elements."""
def asin(input: Tensor, *, out: Optional[Tensor] = None) -> Tensor:
    """The arcsine of the elements."""
def acos(input: Tensor, *, out: Optional[Tensor] = None) -> Tensor:
    """The arccosine of the elements."""
def sinh(input: Tensor, *, out: Optional[Tensor] = None) -> Tensor:
    """The hyperbolic sine of the elements."""
def cosh(input: Tensor, *, out: Optional[Tensor] = None) -> Tensor:
    """The hyperbolic cosine of the elements."""
def square(input: Tensor, *, out: Optional[Tensor] = None) -> Tensor:
    """The square of the elements."""
def clamp(input: Tensor, min: Union[_Number, Tensor, None] = None, max: Union[_Number, Tensor, None] = None) -> Tensor:
    """Clamp all elements into the range ``[min, max]`` (numbers or broadcastable tensors)."""
def clip(input: Tensor, min: Union[_Number, Tensor, None] = None, max: Union[_Number, Tensor, None] = None) -> Tensor:
    """Alias for ``clamp``."""
def clamp_min(input: Tensor, min: Union[_Number, Tensor]) -> Tensor:
    """``clamp(min=min)``."""
def clamp_max(input: Tensor, max: Union[_Number, Tensor]) -> Tensor:
    """``clamp(max=max)``."""
def sum(input: Tensor, dim: _Dims = None, keepdim: _bool = False, *, dtype: Optional[_dtype] = None) -> Tensor:
    """The sum of all elements, or over the dimension(s) ``dim`` (kept as size 1 with
    ``keepdim=True``). Integer and bool inputs sum as int64 unless ``dtype`` is given."""
def mean(input: Tensor, dim: _Dims = None, keepdim: _bool = False, *, dtype: Optional[_dtype] = None) -> Tensor:
    """The mean of all elements, or over the dimension(s) ``dim`` (floating-point inputs)."""
def prod(input: Tensor, dim: Optional[_int] = None, keepdim: _bool = False, *, dtype: Optional[_dtype] = None) -> Tensor:
    """The product of all elements, or over dimension ``dim``."""
@overload
def max(input: Tensor) -> Tensor:
    """``max()``: the maximum of all elements. ``max(dim, keepdim=False)``: a named tuple
    ``(values, indices)`` of the maxima over ``dim``. ``max(other)``: ``maximum``."""
@overload
def max(input: Tensor, dim: _int, keepdim: _bool = False) -> _ValuesIndices: ...
@overload
def max(input: Tensor, other: Tensor) -> Tensor: ...
@overload
def min(input: Tensor) -> Tensor:
    """``min()``: the minimum of all elements. ``min(dim, keepdim=False)``: a named tuple
    ``(values, indices)`` of the minima over ``dim``. ``min(other)``: ``minimum``."""
@overload
def min(input: Tensor, dim: _int, keepdim: _bool = False) -> _ValuesIndices: ...
@overload
def min(input: Tensor, other: Tensor) -> Tensor: ...
def amax(input: Tensor, dim: _Dims = None, keepdim: _bool = False) -> Tensor:
    """The maximum over the dimension(s) ``dim`` (gradient split evenly among ties)."""
def argmax(input: Tensor, dim: Optional[_int] = None, keepdim: _bool = False) -> Tensor:
    """The index of the (first) maximum, of the flattened tensor or over ``dim``."""
def argmin(input: Tensor, dim: Optional[_int] = None, keepdim: _bool = False) -> Tensor:
    """The index of the (first) minimum, of the flattened tensor or over ``dim``."""
def norm(input: Tensor, p: Union[_float, str, None] = None, dim: _Dims = None, keepdim: _bool = False, dtype: Optional[_dtype] = None) -> Tensor:
    """The ``p``-norm (default 2, ``"fro"``, ``inf``) of the tensor or over ``dim``."""
def all(input: Tensor, dim: Optional[_int] = None, keepdim: _bool = False) -> Tensor:
    """Whether all elements (or all over ``dim``) are non-zero, as a bool tensor."""
def any(input: Tensor, dim: Optional[_int] = None, keepdim: _bool = False) -> Tensor:
    """Whether any element (or any over ``dim``) is non-zero, as a bool tensor."""
def softmax(input: Tensor, dim: _int, dtype: Optional[_dtype] = None) -> Tensor:
    """``exp(x) / sum(exp(x))`` along ``dim``."""
def log_softmax(input: Tensor, dim: _int, dtype: Optional[_dtype] = None) -> Tensor:
    """``log(softmax(x))`` along ``dim``, computed stably."""
def matmul(input: Tensor, other: Tensor, *, out: Optional[Tensor] = None) -> Tensor:
    """Matrix product with PyTorch's rules for 1-d, 2-d and batched (broadcast) operands."""
def mm(input: Tensor, other: Tensor, *, out: Optional[Tensor] = None) -> Tensor:
    """Matrix product of two 2-d tensors (no broadcasting)."""
def bmm(input: Tensor, other: Tensor, *, out: Optional[Tensor] = None) -> Tensor:
    """Batched matrix product of two 3-d tensors with the same batch size."""
def mv(input: Tensor, other: Tensor, *, out: Optional[Tensor] = None) -> Tensor:
    """Matrix-vector product."""
def dot(input: Tensor, other: Tensor, *, out: Optional[Tensor] = None) -> Tensor:
    """Dot product of two 1-d tensors."""
def eq(input: Tensor, other: _TensorOrNumber, *, out: Optional[Tensor] = None) -> Tensor:
    """Element-wise ``self == other`` as a bool tensor."""
def ne(input: Tensor, other: _TensorOrNumber, *, out: Optional[Tensor] = None) -> Tensor:
    """Element-wise ``self != other`` as a bool tensor."""
def lt(input: Tensor, other: _TensorOrNumber, *, out: Optional[Tensor] = None) -> Tensor:
    """Element-wise ``self < other`` as a bool tensor."""
def le(input: Tensor, other: _TensorOrNumber, *, out: Optional[Tensor] = None) -> Tensor:
    """Element-wise ``self <= other`` as a bool tensor."""
def gt(input: Tensor, other: _TensorOrNumber, *, out: Optional[Tensor] = None) -> Tensor:
    """Element-wise ``self > other`` as a bool tensor."""
def ge(input: Tensor, other: _TensorOrNumber, *, out: Optional[Tensor] = None) -> Tensor:
    """Element-wise ``self >= other`` as a bool tensor."""
def equal(input: Tensor, other: Tensor) -> _bool:
    """``True`` if both tensors have the same size and elements."""
def allclose(input: Tensor, other: Tensor, rtol: _float = 1e-05, atol: _float = 1e-08, equal_nan: _bool = False) -> _bool:
    """``True`` if ``|self - other| <= atol + rtol * |other|`` for all elements."""
def maximum(input: Tensor, other: Tensor, *, out: Optional[Tensor] = None) -> Tensor:
    """The element-wise maximum of ``input`` and ``other`` (NaN propagates)."""
def minimum(input: Tensor, other: Tensor, *, out: Optional[Tensor] = None) -> Tensor:
    """The element-wise minimum of ``input`` and ``other`` (NaN propagates)."""
def floor_divide(input: Tensor, other: _TensorOrNumber, *, out: Optional[Tensor] = None) -> Tensor:
    """Divides and rounds the result down (``torch.div(a, b, rounding_mode="floor")``)."""
def remainder(input: Tensor, other: _TensorOrNumber, *, out: Optional[Tensor] = None) -> Tensor:
    """Python's modulus: the remainder has the sign of the divisor."""
def fmod(input: Tensor, other: _TensorOrNumber, *, out: Optional[Tensor] = None) -> Tensor:
    """C's ``fmod``: the remainder has the sign of the dividend."""
def logical_not(input: Tensor, *, out: Optional[Tensor] = None) -> Tensor:
    """Element-wise logical NOT, as a bool tensor."""
def logical_and(input: Tensor, other: Tensor, *, out: Optional[Tensor] = None) -> Tensor:
    """Element-wise logical AND (zero is ``False``), as a bool tensor."""
def logical_or(input: Tensor, other: Tensor, *, out: Optional[Tensor] = None) -> Tensor:
    """Element-wise logical OR, as a bool tensor."""
def logical_xor(input: Tensor, other: Tensor, *, out: Optional[Tensor] = None) -> Tensor:
    """Element-wise logical XOR, as a bool tensor."""
def isnan(input: Tensor, *, out: Optional[Tensor] = None) -> Tensor:
    """Which elements are NaN, as a bool tensor."""
def isinf(input: Tensor, *, out: Optional[Tensor] = None) -> Tensor:
    """Which elements are positive or negative infinity, as a bool tensor."""
def isfinite(input: Tensor, *, out: Optional[Tensor] = None) -> Tensor:
    """Which elements are finite (not NaN nor infinite), as a bool tensor."""
def reshape(input: Tensor, *shape: _SizeArg) -> Tensor:
    """A tensor with the same data and the given shape: a view when possible, else a copy."""
def view_as(input: Tensor, other: Tensor) -> Tensor:
    """``self.view(other.size())``."""
def transpose(input: Tensor, dim0: _int, dim1: _int) -> Tensor:
    """A view with dimensions ``dim0`` and ``dim1`` swapped."""
def swapaxes(input: Tensor, dim0: _int, dim1: _int) -> Tensor:
    """Alias for ``transpose``."""
def t(input: Tensor, *, out: Optional[Tensor] = None) -> Tensor:
    """Transpose a tensor of at most 2 dimensions (0-d and 1-d tensors are returned as is)."""
def permute(input: Tensor, *dims: _SizeArg) -> Tensor:
    """A view with the dimensions permuted."""
def squeeze(input: Tensor, dim: Union[_int, Sequence[_int], None] = None) -> Tensor:
    """A view with the dimensions of size 1 removed (all, or those in ``dim``)."""
def unsqueeze(input: Tensor, dim: _int) -> Tensor:
    """A view with a dimension of size 1 inserted at ``dim``."""
def as_strided(input: Tensor, size: Sequence[_int], stride: Sequence[_int], storage_offset: Optional[_int] = None) -> Tensor:
    """A view of ``input``'s storage with the given sizes, strides and storage offset."""
def narrow(input: Tensor, dim: _int, start: _int, length: _int) -> Tensor:
    """A view of ``length`` elements of dimension ``dim`` starting at ``start``."""
def select(input: Tensor, dim: _int, index: _int) -> Tensor:
    """A view of the slice ``index`` along ``dim`` (that dimension removed)."""
def flatten(input: Tensor, start_dim: _int = 0, end_dim: _int = -1) -> Tensor:
    """Flatten dimensions ``start_dim`` to ``end_dim`` into one (a view when possible)."""
def unbind(input: Tensor, dim: _int = 0) -> Tuple[Tensor, ...]:
    """All slices along ``dim``, as a tuple of views."""
def split(input: Tensor, split_size: Union[_int, Sequence[_int]], dim: _int = 0) -> Tuple[Tensor, ...]:
    """Split into chunks of ``split_size`` elements (or of the given sizes) along ``dim``; views."""
def chunk(input: Tensor, chunks: _int, dim: _int = 0) -> Tuple[Tensor, ...]:
    """Split into ``chunks`` views of (nearly) equal size along ``dim``."""
def gather(input: Tensor, dim: _int, index: Tensor) -> Tensor:
    """Gather values along ``dim`` at the positions in ``index`` (int64)."""
def scatter_add(input: Tensor, dim: _int, index: Tensor, src: Tensor) -> Tensor:
    """``input`` with ``src`` added at the positions ``index`` names along ``dim``."""
def scatter_reduce(input: Tensor, dim: _int, index: Tensor, src: Tensor, reduce: str, *, include_self: builtins.bool = True) -> Tensor:
    """``input`` with ``src``'s values combined by ``reduce``."""
def scatter(input: Tensor, dim: _int, index: Tensor, src: Optional[Union[Tensor, _Number]] = None, value: Optional[_Number] = None, *, reduce: Optional[str] = None) -> Tensor:
    """``input`` with ``src`` (a tensor) or ``value`` (a number) written at the positions
    ``index`` names along ``dim``; ``reduce="add"`` adds instead."""
def index_reduce(input: Tensor, dim: _int, index: Tensor, source: Tensor, reduce: str, *, include_self: _bool = True) -> Tensor:
    """Reduce the slices of ``source`` along ``dim`` into those of ``input`` named by ``index``
    (``prod``, ``mean``, ``amax`` or ``amin``)."""
def index_add(input: Tensor, dim: _int, index: Tensor, source: Tensor, *, alpha: Optional[_Number] = None) -> Tensor:
    """``input`` with ``alpha * source`` added at the rows ``index`` names along ``dim``."""
def diagonal(input: Tensor, offset: _int = 0, dim1: _int = 0, dim2: _int = 1) -> Tensor:
    """The diagonal ``offset`` of dims ``dim1``, ``dim2`` as the last dim of a view."""
def diag_embed(input: Tensor, offset: _int = 0, dim1: _int = -2, dim2: _int = -1) -> Tensor:
    """Zeros with the last dim on the diagonal ``offset`` of two new dims ``dim1``, ``dim2``."""
def diag(input: Tensor, diagonal: _int = 0) -> Tensor:
    """A vector onto the diagonal of a square matrix, or a matrix's diagonal (a copy)."""
def trace(input: Tensor) -> Tensor:
    """The sum of a matrix's diagonal."""
def tril(input: Tensor, diagonal: _int = 0) -> Tensor:
    """The lower triangle of the last two dims (``j - i <= diagonal``), the rest zero."""
def triu(input: Tensor, diagonal: _int = 0) -> Tensor:
    """The upper triangle of the last two dims (``j - i >= diagonal``), the rest zero."""
def roll(input: Tensor, shifts: Union[_int, Sequence[_int]], dims: Optional[Union[_int, Sequence[_int]]] = None) -> Tensor:
    """Shift the elements along ``dims`` by ``shifts``, wrapping around (the flattened tensor
    without ``dims``)."""
def asinh(input: Tensor, *, out: Optional[Tensor] = None) -> Tensor:
    """The inverse hyperbolic sine of the elements."""
def acosh(input: Tensor, *, out: Optional[Tensor] = None) -> Tensor:
    """The inverse hyperbolic cosine of the elements (NaN below 1)."""
def atanh(input: Tensor, *, out: Optional[Tensor] = None) -> Tensor:
    """The inverse hyperbolic tangent of the elements (±inf at ±1, NaN beyond)."""
def arcsinh(input: Tensor, *, out: Optional[Tensor] = None) -> Tensor:
    """Alias for ``asinh``."""
def arccosh(input: Tensor, *, out: Optional[Tensor] = None) -> Tensor:
    """Alias for ``acosh``."""
def arctanh(input: Tensor, *, out: Optional[Tensor] = None) -> Tensor:
    """Alias for ``atanh``."""
def lgamma(input: Tensor, *, out: Optional[Tensor] = None) -> Tensor:
    """``ln |Γ(x)|`` of the elements."""
def digamma(input: Tensor, *, out: Optional[Tensor] = None) -> Tensor:
    """The digamma function ``ψ(x) = d/dx ln Γ(x)`` of the elements."""
def tensordot(a: Tensor, b: Tensor, dims: Any = 2, out: Optional[Tensor] = None) -> Tensor:
    """The sum over the last ``dims`` dims of ``a`` and the first of ``b`` (or the listed
    pairs), as one matrix product."""
def take_along_dim(input: Tensor, indices: Tensor, dim: Optional[_int] = None) -> Tensor:
    """``gather`` along ``dim`` with ``indices`` broadcast against ``input`` (on the flattened
    input without ``dim``)."""
def cartesian_prod(*tensors: Tensor) -> Tensor:
    """Every combination of the inputs' elements, one per row."""
def searchsorted(sorted_sequence: Tensor, input: Union[Tensor, _Number], *, out_int32: _bool = False, right: _bool = False, side: Optional[str] = None, sorter: Optional[Tensor] = None) -> Tensor:
    """Where each value would be inserted to keep the (innermost rows of) ``sorted_sequence``
    sorted."""
def bucketize(input: Union[Tensor, _Number], boundaries: Tensor, *, out_int32: _bool = False, right: _bool = False) -> Tensor:
    """The bucket of each value among 1-d ``boundaries``."""
def bincount(input: Tensor, weights: Optional[Tensor] = None, minlength: _int = 0) -> Tensor:
    """How often each non-negative integer occurs (summed ``weights``)."""
def histc(input: Tensor, bins: _int = 100, min: _Number = 0, max: _Number = 0, *, out: Optional[Tensor] = None) -> Tensor:
    """Counts in ``bins`` equal bins between ``min`` and ``max`` (the data's range when both are
    0); values outside are ignored."""
def einsum(*args: Any) -> Tensor:
    """Sums of products over the subscripts of ``equation`` (explicit ``->`` or implicit
    output, ``...`` broadcasting, repeated subscripts for diagonals)."""
def movedim(input: Tensor, source: Union[_int, Sequence[_int]], destination: Union[_int, Sequence[_int]]) -> Tensor:
    """The dims ``source`` moved to ``destination``, the rest in order (a permuted view)."""
def moveaxis(input: Tensor, source: Union[_int, Sequence[_int]], destination: Union[_int, Sequence[_int]]) -> Tensor:
    """Alias for ``movedim``."""
def atleast_1d(*tensors: Any) -> Any:
    """Each tensor with at least one dim (0-d ones as one-element vectors)."""
def atleast_2d(*tensors: Any) -> Any:
    """Each tensor with at least two dims (vectors as one row)."""
def atleast_3d(*tensors: Any) -> Any:
    """Each tensor with at least three dims (as NumPy's ``atleast_3d``)."""
def hstack(tensors: Sequence[Tensor], *, out: Optional[Tensor] = None) -> Tensor:
    """The tensors concatenated column-wise (along dim 1; vectors along dim 0)."""
def vstack(tensors: Sequence[Tensor], *, out: Optional[Tensor] = None) -> Tensor:
    """The tensors concatenated row-wise (vectors as rows)."""
def row_stack(tensors: Sequence[Tensor], *, out: Optional[Tensor] = None) -> Tensor:
    """Alias for ``vstack``."""
def dstack(tensors: Sequence[Tensor], *, out: Optional[Tensor] = None) -> Tensor:
    """The tensors concatenated depth-wise (along dim 2, after ``atleast_3d``)."""
def column_stack(tensors: Sequence[Tensor], *, out: Optional[Tensor] = None) -> Tensor:
    """Vectors as columns (and matrices as they are) concatenated along dim 1."""
def meshgrid(*tensors: Union[Tensor, Sequence[Tensor]], indexing: Optional[str] = None) -> Tuple[Tensor, ...]:
    """Every 0-d/1-d input expanded over the grid of all of them (views); ``indexing="xy"``
    swaps the first two grid dims."""
def tensor_split(input: Tensor, indices_or_sections: Union[_int, Sequence[_int], Tensor], dim: _int = 0) -> Tuple[Tensor, ...]:
    """``n`` near-equal parts (the first ``size % n`` one longer) or the pieces between the
    given indices, as views."""
def repeat_interleave(input: Tensor, repeats: Optional[Union[_int, Tensor]] = None, dim: Optional[_int] = None, *, output_size: Optional[_int] = None) -> Tensor:
    """Each element (or slice along ``dim``) repeated ``repeats`` times (a number, or one
    count per element)."""
def masked_select(input: Tensor, mask: Tensor) -> Tensor:
    """The elements where ``mask`` (broadcast with ``input``) is True, as a 1-d tensor."""
def nan_to_num(input: Tensor, nan: _float = 0.0, posinf: Optional[_float] = None, neginf: Optional[_float] = None) -> Tensor:
    """NaN, +inf and -inf replaced (by 0 and the dtype's largest and lowest finite values
    unless given)."""
def unique(input: Tensor, sorted: _bool = True, return_inverse: _bool = False, return_counts: _bool = False, dim: Optional[_int] = None) -> Any:
    """The distinct elements (or slices along ``dim``), sorted, with the inverse indices and
    counts on request."""

class finfo:
    """The limits of a floating dtype (the default dtype without one)."""
    bits: _int
    eps: _float
    max: _float
    min: _float
    tiny: _float
    smallest_normal: _float
    resolution: _float
    dtype: str
    def __init__(self, type: Optional[_dtype] = None) -> None: ...

class iinfo:
    """The limits of an integer dtype."""
    bits: _int
    min: _int
    max: _int
    dtype: str
    def __init__(self, type: _dtype) -> None: ...
def index_select(input: Tensor, dim: _int, index: Tensor) -> Tensor:
    """The entries at ``index`` (a 1-d int64 tensor) along ``dim``."""
def masked_fill(input: Tensor, mask: Tensor, value: Union[Tensor, _Number]) -> Tensor:
    """Fill the elements where ``mask`` (bool, broadcastable) is ``True`` with ``value``."""
@overload
def nonzero(input: Tensor, *, as_tuple: Literal[False] = False) -> Tensor:
    """The indices of the non-zero elements: one row per element (shape ``(n, dim)``), or
    with ``as_tuple=True`` one 1-d tensor per dimension (as ``torch.where(x)``)."""
@overload
def nonzero(input: Tensor, *, as_tuple: Literal[True]) -> Tuple[Tensor, ...]: ...
def sort(input: Tensor, dim: _int = -1, descending: _bool = False, *, stable: Optional[_bool] = None) -> _ValuesIndices:
    """Sort the elements along ``dim``; a named tuple ``(values, indices)``."""
def topk(input: Tensor, k: _int, dim: _int = -1, largest: _bool = True, sorted: _bool = True) -> _ValuesIndices:
    """The ``k`` largest (or smallest) elements along ``dim``; a named tuple ``(values, indices)``."""
@overload
def median(input: Tensor, dim: None = None, keepdim: _bool = False) -> Tensor:
    """The lower median of all elements, or a named tuple ``(values, indices)`` along ``dim``."""
@overload
def median(input: Tensor, dim: _int, keepdim: _bool = False) -> _ValuesIndices: ...
@overload
def nanmedian(input: Tensor, dim: None = None, keepdim: _bool = False) -> Tensor:
    """``median`` that ignores NaNs."""
@overload
def nanmedian(input: Tensor, dim: _int, keepdim: _bool = False) -> _ValuesIndices: ...
def kthvalue(input: Tensor, k: _int, dim: _int = -1, keepdim: _bool = False) -> _ValuesIndices:
    """The ``k``-th smallest element along ``dim``; a named tuple ``(values, indices)``."""
def cummax(input: Tensor, dim: _int) -> _ValuesIndices:
    """The running maximum along ``dim`` and its indices."""
def cummin(input: Tensor, dim: _int) -> _ValuesIndices:
    """The running minimum along ``dim`` and its indices."""
def logcumsumexp(input: Tensor, dim: _int) -> Tensor:
    """``log(cumsum(exp(input)))`` along ``dim``, without overflow."""
def aminmax(input: Tensor, *, dim: Optional[_int] = None, keepdim: _bool = False) -> _MinMax:
    """The minimum and maximum; a named tuple ``(min, max)``."""
def msort(input: Tensor) -> Tensor:
    """``sort(input, dim=0).values``: the elements sorted along the first dim (SortBackward0)."""
def clone(input: Tensor, *, out: Optional[Tensor] = None) -> Tensor:
    """A copy of the tensor (differentiable: the gradient flows back to ``input``)."""
def detach(input: Tensor) -> Tensor:
    """A new tensor sharing storage, detached from the current graph (never requires grad)."""
def var(input: Tensor, dim: _Dims = None, unbiased: Optional[_bool] = None, keepdim: _bool = False, *, correction: Optional[_Number] = None) -> Tensor:
    """The variance over ``dim`` (all elements by default), with Bessel's correction
    unless ``unbiased=False`` or ``correction=`` says otherwise."""
def std(input: Tensor, dim: _Dims = None, unbiased: Optional[_bool] = None, keepdim: _bool = False, *, correction: Optional[_Number] = None) -> Tensor:
    """The standard deviation over ``dim``; see ``var``."""
def logsumexp(input: Tensor, dim: _Dims, keepdim: _bool = False) -> Tensor:
    """``log(sum(exp(x)))`` over ``dim``, computed stably."""
def cumsum(input: Tensor, dim: _int, *, dtype: Optional[_dtype] = None) -> Tensor:
    """The cumulative sum of the elements along ``dim``."""
def cumprod(input: Tensor, dim: _int, *, dtype: Optional[_dtype] = None, out: Optional[Tensor] = None) -> Tensor:
    """The cumulative product of the elements along ``dim``."""
def lerp(input: Tensor, end: Tensor, weight: _TensorOrNumber, *, out: Optional[Tensor] = None) -> Tensor:
    """Linear interpolation ``input + weight * (end - input)``; ``weight`` is a number or a
    broadcastable tensor."""
def addcmul(input: Tensor, tensor1: Tensor, tensor2: Tensor, *, value: Optional[_Number] = None, out: Optional[Tensor] = None) -> Tensor:
    """``input + value * tensor1 * tensor2`` element-wise (broadcasting, type promotion)."""
def addcdiv(input: Tensor, tensor1: Tensor, tensor2: Tensor, *, value: Optional[_Number] = None, out: Optional[Tensor] = None) -> Tensor:
    """``input + value * tensor1 / tensor2`` element-wise (broadcasting, type promotion)."""
def addmm(input: Tensor, mat1: Tensor, mat2: Tensor, *, beta: Optional[_Number] = None, alpha: Optional[_Number] = None, out: Optional[Tensor] = None) -> Tensor:
    """``beta * input + alpha * (mat1 @ mat2)``; ``input`` broadcasts to the product's shape."""
def addmv(input: Tensor, mat: Tensor, vec: Tensor, *, beta: Optional[_Number] = None, alpha: Optional[_Number] = None, out: Optional[Tensor] = None) -> Tensor:
    """``beta * input + alpha * (mat @ vec)``."""
def baddbmm(input: Tensor, batch1: Tensor, batch2: Tensor, *, beta: Optional[_Number] = None, alpha: Optional[_Number] = None, out: Optional[Tensor] = None) -> Tensor:
    """``beta * input + alpha * (batch1 @ batch2)`` per batch; ``input`` broadcasts to the
    product's shape."""
def flip(input: Tensor, *dims: _SizeArg) -> Tensor:
    """Reverse the order of elements along the given dimensions (copies the data)."""
def erf(input: Tensor, *, out: Optional[Tensor] = None) -> Tensor:
    """The error function of the elements."""
def exp2(input: Tensor, *, out: Optional[Tensor] = None) -> Tensor:
    """``2 ** x`` of the elements."""
def kron(input: Tensor, other: Tensor, *, out: Optional[Tensor] = None) -> Tensor:
    """The Kronecker product of ``input`` and ``other`` (the block tensor of ``input[i] * other``)."""
class memory_format:
    """``torch.memory_format``: how a dense tensor's dims are ordered in memory."""
    def __init__(self, name: str) -> None: ...
    def __reduce__(self) -> str: ...

contiguous_format: memory_format
preserve_format: memory_format
channels_last: memory_format
channels_last_3d: memory_format

def inverse(input: Tensor, *, out: Optional[Tensor] = None) -> Tensor:
    """``torch.inverse``: ``linalg.inv``."""
def det(input: Tensor) -> Tensor:
    """``torch.det``: ``linalg.det``."""
def logdet(input: Tensor) -> Tensor:
    """``torch.logdet``: log det, NaN for a negative determinant (WhereBackward0)."""
def slogdet(input: Tensor) -> Any:
    """``torch.slogdet`` / ``Tensor.slogdet``: ``torch.return_types.slogdet``."""
def cholesky(input: Tensor, upper: builtins.bool = False, *, out: Optional[Tensor] = None) -> Tensor:
    """``torch.cholesky`` (deprecated; CholeskyBackward0)."""
def cholesky_inverse(input: Tensor, upper: builtins.bool = False, *, out: Optional[Tensor] = None) -> Tensor:
    """``torch.cholesky_inverse(L)``: ``(L Lᵀ)⁻¹`` from the Cholesky factor's triangle."""
def cholesky_solve(input: Tensor, input2: Tensor, upper: builtins.bool = False, *, out: Optional[Tensor] = None) -> Tensor:
    """``torch.cholesky_solve(B, L)``: X with ``L Lᵀ X = B`` (CholeskySolveBackward0)."""
def qr(input: Tensor, some: builtins.bool = True, *, out: Optional[Any] = None) -> Any:
    """``torch.qr`` (deprecated): ``linalg.qr`` in mode 'reduced' or 'complete'."""
def svd(input: Tensor, some: builtins.bool = True, compute_uv: builtins.bool = True, *, out: Optional[Any] = None) -> Any:
    """``torch.svd``: U, S and V (not Vh); without ``compute_uv``, zero U and V."""
def pinverse(input: Tensor, rcond: builtins.float = 1e-15) -> Tensor:
    """``torch.pinverse``: ``linalg.pinv`` with ``rtol = rcond``."""
def matrix_power(input: Tensor, n: _int) -> Tensor:
    """``torch.matrix_power``: ``linalg.matrix_power``."""
def matrix_exp(input: Tensor) -> Tensor:
    """``torch.matrix_exp``: ``linalg.matrix_exp``."""
def cdist(x1: Tensor, x2: Tensor, p: builtins.float = 2.0, compute_mode: Optional[str] = "use_mm_for_euclid_dist_if_necessary") -> Tensor:
    """``torch.cdist``: the p-norm distance between each row of ``x1`` and each row of ``x2``."""
def cross(input: Tensor, other: Tensor, dim: Optional[_int] = None) -> Tensor:
    """The cross product of 3-vectors along ``dim`` (without ``dim``: the first dim of
    length 3, with PyTorch's deprecation warning), the other dims broadcast."""
def erfinv(input: Tensor, *, out: Optional[Tensor] = None) -> Tensor:
    """The inverse error function of the elements (±inf at ±1, NaN beyond)."""
def logit(input: Tensor, eps: Optional[_float] = None) -> Tensor:
    """``log(p / (1 - p))`` of the elements, with ``p`` clamped to ``[eps, 1 - eps]`` when
    ``eps`` is given."""
def xlogy(input: Union[Tensor, _Number], other: Union[Tensor, _Number]) -> Tensor:
    """``input * log(other)``, 0 where ``input`` is 0 (unless ``other`` is NaN); either operand
    may be a number."""
def atan2(input: Tensor, other: Tensor, *, out: Optional[Tensor] = None) -> Tensor:
    """Element-wise arctangent of ``self / other`` with the quadrant taken into account."""
def arctan2(input: Tensor, other: Tensor, *, out: Optional[Tensor] = None) -> Tensor:
    """Alias for ``atan2``."""
def amin(input: Tensor, dim: _Dims = None, keepdim: _bool = False) -> Tensor:
    """The minimum over the dimension(s) ``dim`` (gradient split evenly among ties)."""
def bitwise_and(input: Tensor, other: _TensorOrNumber, *, out: Optional[Tensor] = None) -> Tensor:
    """Bitwise AND of integer or bool tensors."""
def bitwise_or(input: Tensor, other: _TensorOrNumber, *, out: Optional[Tensor] = None) -> Tensor:
    """Bitwise OR of integer or bool tensors."""
def bitwise_xor(input: Tensor, other: _TensorOrNumber, *, out: Optional[Tensor] = None) -> Tensor:
    """Bitwise XOR of integer or bool tensors."""
def multinomial(input: Tensor, num_samples: _int, replacement: _bool = False, *, generator: Optional[Generator] = None, out: Optional[Tensor] = None) -> Tensor:
    """Indices sampled from the multinomial distribution given by the rows of ``input``."""

def adaptive_avg_pool1d(input: Any, output_size: Any) -> Tensor:
    """``nn.functional.adaptive_avg_pool1d``."""
def adaptive_max_pool1d(input: Any, output_size: Any) -> Any:
    """``nn.functional.adaptive_max_pool1d`` with the indices (a pair, as ATen returns)."""
def addr(input: Any, vec1: Any, vec2: Any, *, beta: Any = 1, alpha: Any = 1, out: Any = None) -> Tensor:
    """``beta * input + alpha * outer(vec1, vec2)``."""
def alpha_dropout(input: Any, p: Any, train: Any) -> Tensor:
    """``nn.functional.alpha_dropout(input, p, training=train)``."""
def arccos(input: Any) -> Tensor:
    """Alias for ``acos``."""
def arccos_(input: Any, *args: Any, **kwargs: Any) -> Tensor:
    """In-place version of ``torch.arccos``."""
def arcsin(input: Any) -> Tensor:
    """Alias for ``asin``."""
def arcsin_(input: Any, *args: Any, **kwargs: Any) -> Tensor:
    """In-place version of ``torch.arcsin``."""
def arctan(input: Any) -> Tensor:
    """Alias for ``atan``."""
def arctan_(input: Any, *args: Any, **kwargs: Any) -> Tensor:
    """In-place version of ``torch.arctan``."""
def argwhere(input: Any) -> Tensor:
    """The indices of the non-zero elements, one row each (``nonzero``)."""
def asarray(obj: Any, *, dtype: Any = None, device: Any = None, copy: Any = None, requires_grad: Any = None) -> Any:
    """``obj`` as a tensor, sharing memory where it can (a tensor of the right dtype and device is
    returned as is unless ``copy=True``). ``requires_grad`` unspecified keeps a tensor's own
    (PyTorch 2.13: it warns, once, when that aliases a non-leaf that requires grad); False
    detaches it; True makes it require grad."""
def avg_pool1d(input: Any, kernel_size: Any, stride: Any = (), padding: Any = 0, ceil_mode: Any = False, count_include_pad: Any = True) -> Tensor:
    """``nn.functional.avg_pool1d``."""
def batch_norm(input: Any, weight: Any, bias: Any, running_mean: Any, running_var: Any, training: Any, momentum: Any, eps: Any, cudnn_enabled: Any) -> Tensor:
    """ATen's ``batch_norm`` (``nn.functional.batch_norm`` with positional arguments)."""
def bilinear(input1: Any, input2: Any, weight: Any, bias: Any = None) -> Tensor:
    """``nn.functional.bilinear``."""
def block_diag(*tensors: Any) -> Tensor:
    """The block-diagonal matrix of the (0-, 1- or 2-d) ``tensors``."""
def can_cast(from_: Any, to: Any) -> builtins.bool:
    """Whether PyTorch's casting rules allow ``from_`` to become ``to`` (no float to integer,
    no complex to real, nothing non-bool to bool)."""
def celu(input: Any, alpha: Any = 1.0) -> Tensor:
    """``nn.functional.celu``."""
def chain_matmul(*matrices: Any, out: Any = None) -> Tensor:
    """The product of the matrices (deprecated for ``linalg.multi_dot``)."""
def combinations(input: Any, r: Any = 2, with_replacement: Any = False) -> Tensor:
    """The length-``r`` combinations of the elements of a 1-d tensor, one per row (as
    ``itertools.combinations``)."""
def conv1d(input: Any, weight: Any, bias: Any = None, stride: Any = 1, padding: Any = 0, dilation: Any = 1, groups: Any = 1) -> Tensor:
    """``nn.functional.conv1d``."""
def conv2d(input: Any, weight: Any, bias: Any = None, stride: Any = 1, padding: Any = 0, dilation: Any = 1, groups: Any = 1) -> Tensor:
    """``nn.functional.conv2d``."""
def conv3d(input: Any, weight: Any, bias: Any = None, stride: Any = 1, padding: Any = 0, dilation: Any = 1, groups: Any = 1) -> Tensor:
    """``nn.functional.conv3d``."""
def conv_transpose1d(input: Any, weight: Any, bias: Any = None, stride: Any = 1, padding: Any = 0, output_padding: Any = 0, groups: Any = 1, dilation: Any = 1) -> Tensor:
    """``nn.functional.conv_transpose1d``."""
def conv_transpose2d(input: Any, weight: Any, bias: Any = None, stride: Any = 1, padding: Any = 0, output_padding: Any = 0, groups: Any = 1, dilation: Any = 1) -> Tensor:
    """``nn.functional.conv_transpose2d``."""
def conv_transpose3d(input: Any, weight: Any, bias: Any = None, stride: Any = 1, padding: Any = 0, output_padding: Any = 0, groups: Any = 1, dilation: Any = 1) -> Tensor:
    """``nn.functional.conv_transpose3d``."""
def copysign(input: Any, other: Any, *, out: Any = None) -> Tensor:
    """The magnitudes of ``self`` with the signs of ``other`` (integers give floats)."""
def cosine_embedding_loss(input1: Any, input2: Any, target: Any, margin: Any = 0.0, reduction: Any = 1) -> Tensor:
    """ATen's ``cosine_embedding_loss`` (``reduction`` as ATen's enum: 0 none, 1 mean, 2 sum)."""
def cosine_similarity(x1: Any, x2: Any, dim: Any = 1, eps: Any = 1e-08) -> Tensor:
    """``nn.functional.cosine_similarity``."""
def cumulative_trapezoid(y: Any, x: Any = None, *, dx: Any = None, dim: Any = -1) -> Tensor:
    """The running trapezoidal rule along ``dim`` (one element fewer than ``y`` there)."""
def deg2rad(input: Any, *, out: Any = None) -> Tensor:
    """The elements converted from degrees to radians."""
def deg2rad_(input: Any, *args: Any, **kwargs: Any) -> Tensor:
    """In-place version of ``torch.deg2rad``."""
def diagflat(input: Any, offset: Any = 0) -> Tensor:
    """The square matrix with the flattened ``input`` on diagonal ``offset``."""
def diagonal_scatter(input: Any, src: Any, offset: Any = 0, dim1: Any = 0, dim2: Any = 1) -> Tensor:
    """``input`` with the diagonal ``offset`` of ``dim1``/``dim2`` replaced by ``src``."""
def dist(input: Any, other: Any, p: Any = 2) -> Tensor:
    """The ``p``-norm of ``input - other``."""
def dropout(input: Any, p: Any, train: Any) -> Tensor:
    """``nn.functional.dropout(input, p, training=train)``."""
def dsplit(input: Any, indices_or_sections: Any) -> Any:
    """``tensor_split`` along dim 2 of a tensor with at least 3 dims."""
def embedding(weight: Any, indices: Any, padding_idx: Any = -1, scale_grad_by_freq: Any = False, sparse: Any = False) -> Tensor:
    """ATen's ``embedding`` (weight first)."""
def empty_strided(size: Any, stride: Any, *, dtype: Any = None, layout: Any = None, device: Any = None, requires_grad: Any = False, pin_memory: Any = False) -> Tensor:
    """An uninitialised tensor of ``size`` with the given ``stride``."""
def erfc(input: Any, *, out: Any = None) -> Tensor:
    """The complementary error function ``1 - erf(x)`` of the elements (accurate where erf is near 1)."""
def erfc_(input: Any, *args: Any, **kwargs: Any) -> Tensor:
    """In-place version of ``torch.erfc``."""
def feature_alpha_dropout(input: Any, p: Any, train: Any) -> Tensor:
    """``nn.functional.feature_alpha_dropout(input, p, training=train)``."""
def feature_dropout(input: Any, p: Any, train: Any) -> Tensor:
    """Channel dropout (``dropout2d`` style) of ``input``."""
def fix(input: Any, *, out: Any = None) -> Tensor:
    """Alias for ``trunc``."""
def fix_(input: Any, *args: Any, **kwargs: Any) -> Tensor:
    """In-place version of ``torch.fix``."""
def float_power(input: Any, exponent: Any) -> Tensor:
    """``input ** exponent`` computed in double precision (complex128 for complex operands)."""
def frac(input: Any, *, out: Any = None) -> Tensor:
    """The fractional parts ``x - trunc(x)`` of the elements (floating tensors only)."""
def frac_(input: Any, *args: Any, **kwargs: Any) -> Tensor:
    """In-place version of ``torch.frac``."""
def group_norm(input: Any, num_groups: Any, weight: Any = None, bias: Any = None, eps: Any = 1e-05, cudnn_enabled: Any = True) -> Tensor:
    """ATen's ``group_norm``."""
def hardshrink(input: Any, lambd: Any = 0.5) -> Tensor:
    """``nn.functional.hardshrink``."""
def heaviside(input: Any, other: Any, *, out: Any = None) -> Tensor:
    """The Heaviside step function: 0 below 0, 1 above, ``values`` where ``self`` is 0."""
def hsplit(input: Any, indices_or_sections: Any) -> Any:
    """``tensor_split`` along dim 1 (dim 0 for 1-d tensors)."""
def hypot(input: Any, other: Any, *, out: Any = None) -> Tensor:
    """``sqrt(self ** 2 + other ** 2)`` element-wise, without intermediate overflow."""
def index_copy(input: Any, dim: Any, index: Any, source: Any) -> Tensor:
    """``input`` with its slices at ``index`` along ``dim`` replaced by ``source``'s."""
def index_fill(input: Any, dim: Any, index: Any, value: Any) -> Tensor:
    """``input`` with its slices at ``index`` along ``dim`` set to ``value``."""
def inner(input: Any, other: Any, *, out: Any = None) -> Tensor:
    """The inner product over the last dims (a product for a number operand)."""
def instance_norm(input: Any, weight: Any, bias: Any, running_mean: Any, running_var: Any, use_input_stats: Any, momentum: Any, eps: Any, cudnn_enabled: Any) -> Tensor:
    """ATen's ``instance_norm``."""
def isin(elements: Any, test_elements: Any, *, assume_unique: Any = False, invert: Any = False) -> Tensor:
    """Whether each element of ``elements`` is in ``test_elements`` (either may be a number)."""
def layer_norm(input: Any, normalized_shape: Any, weight: Any = None, bias: Any = None, eps: Any = 1e-05, cudnn_enable: Any = True) -> Tensor:
    """ATen's ``layer_norm``."""
def logaddexp(input: Any, other: Any, *, out: Any = None) -> Tensor:
    """``log(exp(self) + exp(other))`` element-wise, computed stably."""
def logaddexp2(input: Any, other: Any, *, out: Any = None) -> Tensor:
    """``log2(2 ** self + 2 ** other)`` element-wise, computed stably."""
def logspace(start: Any, end: Any, steps: Any, base: Any = 10.0, *, out: Any = None, dtype: Any = None, layout: Any = None, device: Any = None, requires_grad: Any = False) -> Tensor:
    """``steps`` values from ``base ** start`` to ``base ** end``, evenly spaced in the exponent."""
def masked_scatter(input: Any, mask: Any, source: Any) -> Tensor:
    """``input`` with the places where ``mask`` is true filled from ``source``."""
def max_pool1d(input: Any, kernel_size: Any, stride: Any = (), padding: Any = 0, dilation: Any = 1, ceil_mode: Any = False) -> Tensor:
    """``nn.functional.max_pool1d`` (an empty ``stride`` means the kernel size)."""
def max_pool2d(input: Any, kernel_size: Any, stride: Any = (), padding: Any = 0, dilation: Any = 1, ceil_mode: Any = False) -> Tensor:
    """``nn.functional.max_pool2d`` (an empty ``stride`` means the kernel size)."""
def mode(input: Any, dim: Any = -1, keepdim: Any = False) -> Any:
    """The most frequent value along ``dim`` (the smallest among ties) and the index of its
    last occurrence."""
def nanmean(input: Any, dim: Any = None, keepdim: Any = False, *, dtype: Any = None) -> Tensor:
    """The mean over ``dim`` of the elements that are not NaN (``nansum / count``)."""
def nanquantile(input: Any, q: Any, dim: Any = None, keepdim: Any = False, *, interpolation: Any = 'linear', out: Any = None) -> Tensor:
    """``quantile`` ignoring NaNs (NaN only where a row is all NaN)."""
def nansum(input: Any, dim: Any = None, keepdim: Any = False, *, dtype: Any = None) -> Tensor:
    """The sum over ``dim`` (all elements by default) with NaNs counted as zero."""
def narrow_copy(input: Any, dim: Any, start: Any, length: Any) -> Tensor:
    """A copy of ``input.narrow(dim, start, length)``."""
def nextafter(input: Any, other: Any, *, out: Any = None) -> Tensor:
    """The next floating-point value after each element of ``self`` towards ``other``."""
def pairwise_distance(x1: Any, x2: Any, p: Any = 2.0, eps: Any = 1e-06, keepdim: Any = False) -> Tensor:
    """``nn.functional.pairwise_distance``."""
def pdist(input: Any, p: Any = 2) -> Tensor:
    """The ``p``-norm distances between the rows of the 2-d ``input``, for each pair ``i < j``
    in row-major order."""
def poisson(input: Any, generator: Any = None) -> Tensor:
    """``torch.poisson``: a Poisson sample of each rate."""
def _standard_gamma(input: Any) -> Tensor:
    """``torch._standard_gamma``: Gamma(input, 1) samples."""
def grid_sampler(input: Any, grid: Any, interpolation_mode: Any, padding_mode: Any, align_corners: Any) -> Tensor:
    """``torch.grid_sampler``: ``grid_sample`` with ATen's integer modes."""
def grid_sampler_2d(input: Any, grid: Any, interpolation_mode: Any, padding_mode: Any, align_corners: Any) -> Tensor:
    """``torch.grid_sampler_2d`` (4-D input)."""
def grid_sampler_3d(input: Any, grid: Any, interpolation_mode: Any, padding_mode: Any, align_corners: Any) -> Tensor:
    """``torch.grid_sampler_3d`` (5-D input)."""
def pixel_shuffle(input: Any, upscale_factor: Any) -> Tensor:
    """``nn.functional.pixel_shuffle``."""
def pixel_unshuffle(input: Any, downscale_factor: Any) -> Tensor:
    """``nn.functional.pixel_unshuffle``."""
def prelu(input: Any, weight: Any) -> Tensor:
    """``nn.functional.prelu``."""
def put(input: Any, index: Any, source: Any, accumulate: Any = False) -> Tensor:
    """``input`` with ``source`` written (or added) at the flat indices ``index``."""
def quantile(input: Any, q: Any, dim: Any = None, keepdim: Any = False, *, interpolation: Any = 'linear', out: Any = None) -> Tensor:
    """The ``q``-th quantiles of ``input`` (over ``dim``, or all elements), interpolated as
    ``interpolation`` says; NaN where a row holds a NaN."""
def rad2deg(input: Any, *, out: Any = None) -> Tensor:
    """The elements converted from radians to degrees."""
def rad2deg_(input: Any, *args: Any, **kwargs: Any) -> Tensor:
    """In-place version of ``torch.rad2deg``."""
def range(start: Any = 0, end: Any = None, step: Any = 1, *, out: Any = None, dtype: Any = None, layout: Any = None, device: Any = None, requires_grad: Any = False) -> Tensor:
    """The deprecated inclusive range ``[start, end]`` in steps of ``step`` (floats by default)."""
def renorm(input: Any, p: Any, dim: Any, maxnorm: Any) -> Tensor:
    """Each slice along ``dim`` rescaled so its ``p``-norm is at most ``maxnorm``."""
def rrelu(input: Any, lower: Any = 0.125, upper: Any = 0.3333333333333333, training: Any = False, generator: Any = None) -> Tensor:
    """``nn.functional.rrelu``."""
def select_scatter(input: Any, src: Any, dim: Any, index: Any) -> Tensor:
    """``input`` with ``input.select(dim, index)`` replaced by ``src`` (out of place)."""
def selu(input: Any) -> Tensor:
    """``nn.functional.selu``."""
def sinc(input: Any, *, out: Any = None) -> Tensor:
    """The normalised sinc ``sin(pi x) / (pi x)`` of the elements (1 at 0)."""
def sinc_(input: Any, *args: Any, **kwargs: Any) -> Tensor:
    """In-place version of ``torch.sinc``."""
def slice_scatter(input: Any, src: Any, dim: Any = 0, start: Any = None, end: Any = None, step: Any = 1) -> Tensor:
    """``input`` with the slice ``start:end:step`` along ``dim`` replaced by ``src``."""
def split_with_sizes(input: Any, split_sizes: Any, dim: Any = 0) -> Any:
    """``input`` split into pieces of the given sizes along ``dim``."""
def std_mean(input: Any, dim: Any = None, unbiased: Any = None, keepdim: Any = False, *, correction: Any = None) -> Any:
    """The standard deviation and the mean over ``dim``, from one node (StdMeanBackward0)."""
def take(input: Any, index: Any) -> Tensor:
    """The elements of ``input`` (as if flattened) at ``index``, shaped like ``index``."""
def threshold(input: Any, threshold: Any, value: Any) -> Tensor:
    """``nn.functional.threshold``."""
def trapezoid(y: Any, x: Any = None, *, dx: Any = None, dim: Any = -1) -> Tensor:
    """The trapezoidal rule along ``dim``: spacing ``dx`` (1 by default) or sample points ``x``."""
def trapz(y: Any, x: Any = None, *, dx: Any = None, dim: Any = -1) -> Tensor:
    """Alias for ``trapezoid``."""
def tril_indices(row: Any, col: Any, offset: Any = 0, *, dtype: Any = None, device: Any = None, layout: Any = None) -> Tensor:
    """The coordinates (a 2 x N tensor) of the lower triangle of a ``row`` x ``col`` matrix."""
def triu_indices(row: Any, col: Any, offset: Any = 0, *, dtype: Any = None, device: Any = None, layout: Any = None) -> Tensor:
    """The coordinates (a 2 x N tensor) of the upper triangle of a ``row`` x ``col`` matrix."""
def unflatten(input: Any, dim: Any, sizes: Any) -> Tensor:
    """``input`` with dim ``dim`` expanded into ``sizes``."""
def unique_consecutive(input: Any, return_inverse: Any = False, return_counts: Any = False, dim: Any = None) -> Any:
    """``input`` with runs of equal consecutive elements reduced to one (flattened unless
    ``dim``), with the inverse indices and run lengths on request."""
def var_mean(input: Any, dim: Any = None, unbiased: Any = None, keepdim: Any = False, *, correction: Any = None) -> Any:
    """The variance and the mean over ``dim`` (all elements by default), from one node
    (VarMeanBackward0); ``correction``/``unbiased`` as ``var``."""
def vsplit(input: Any, indices_or_sections: Any) -> Any:
    """``tensor_split`` along dim 0 of a tensor with at least 2 dims."""

def bitwise_left_shift(input: Any, other: Any) -> Tensor:
    """``input << other`` element-wise (integers; shifts past the width give 0)."""
def bitwise_right_shift(input: Any, other: Any) -> Tensor:
    """``input >> other`` element-wise (arithmetic shift of integers)."""
def corrcoef(input: Any) -> Tensor:
    """The Pearson correlation coefficients of the variables in the rows of ``input`` (clamped
    to [-1, 1])."""
def cov(input: Any, *, correction: Any = 1, fweights: Any = None, aweights: Any = None) -> Tensor:
    """The covariance matrix of the variables in the rows of ``input`` (observations in the
    columns), with frequency and/or observation weights."""
def frexp(input: Any) -> Tensor:
    """Mantissa in (-1, 1) and integer exponent with ``input = mantissa * 2 ** exponent``."""
def gcd(input: Any, other: Any) -> Tensor:
    """The greatest common divisors (non-negative) of integer tensors."""
def get_float32_matmul_precision() -> Tensor:
    """The float32 matmul precision last set (``"highest"`` by default)."""
def get_num_interop_threads() -> Tensor:
    """The inter-op thread count last set."""
def histogram(input: Any, bins: Any = 100, *, range: Any = None, weight: Any = None, density: Any = False, out: Any = None) -> Tensor:
    """Counts of ``input``'s elements in ``bins`` equal bins over ``range`` (the data's by
    default) or between the given bin edges; ``(hist, bin_edges)``."""
def is_storage(obj: Any) -> Tensor:
    """Whether ``obj`` is a storage object (ferrograd exposes none)."""
def isreal(input: Any) -> Tensor:
    """Whether each element is real (a complex one with zero imaginary part counts)."""
def lcm(input: Any, other: Any) -> Tensor:
    """The least common multiples (non-negative) of integer tensors."""
def ldexp(input: Any, other: Any) -> Tensor:
    """``input * 2 ** other``."""
def set_float32_matmul_precision(precision: Any) -> Tensor:
    """Record the float32 matmul precision ("highest", "high" or "medium"); ferrograd's
    float32 matmuls always run in full float32 precision ("highest")."""
def set_num_interop_threads(num: Any) -> Tensor:
    """Record the inter-op thread count (ferrograd runs ops on one intra-op pool)."""
def signbit(input: Any) -> Tensor:
    """Whether the sign bit of each element is set (true for -0.0 and negative NaNs)."""
def typename(obj: Any) -> Tensor:
    """The type name PyTorch gives ``obj``: ``torch.FloatTensor`` for tensors, the qualified
    class name otherwise."""
def vander(x: Any, N: Any = None, increasing: Any = False) -> Tensor:
    """The Vandermonde matrix of the 1-d ``x``: columns ``x ** (N-1), ..., x ** 0`` (or
    increasing powers)."""

def unravel_index(indices: Any, shape: Any) -> tuple[Tensor, ...]:
    """The coordinates in a tensor of ``shape`` of the flat ``indices``: a tuple of int64
    tensors, one per dim."""
def fmax(input: Any, other: Any, *, out: Any = ...) -> Tensor:
    """Elementwise maximum that ignores NaN (NaN only where both are NaN)."""
def fmin(input: Any, other: Any, *, out: Any = ...) -> Tensor:
    """Elementwise minimum that ignores NaN (NaN only where both are NaN)."""
def isposinf(input: Any, *, out: Any = ...) -> Tensor:
    """Where ``input`` is +inf."""
def isneginf(input: Any, *, out: Any = ...) -> Tensor:
    """Where ``input`` is -inf."""
def adjoint(input: Any) -> Tensor:
    """The conjugate transpose of the last two dimensions (a view)."""
def addbmm(input: Any, batch1: Any, batch2: Any, *, beta: Any = ..., alpha: Any = ..., out: Any = ...) -> Tensor:
    """``beta · input + alpha · Σ_b batch1[b] @ batch2[b]``."""
def frombuffer(buffer: Any, *, dtype: Any, count: Any = ..., offset: Any = ..., requires_grad: Any = ...) -> Tensor:
    """A 1-D tensor of ``dtype`` read from an object with the buffer protocol (a copy of
    its bytes: later writes to ``buffer`` are not seen)."""
def scalar_tensor(s: Any, *, dtype: Any = ..., layout: Any = ..., device: Any = ..., pin_memory: Any = ..., requires_grad: Any = ...) -> Tensor:
    """A 0-dim tensor holding ``s`` (the default float dtype unless ``dtype``)."""
def gradient(input: Any, *, spacing: Any = ..., dim: Any = ..., edge_order: Any = ...) -> tuple[Tensor, ...]:
    """Estimate the gradient of a function sampled at ``input`` (central differences inside,
    one-sided differences of order ``edge_order`` at the edges), one tensor per dimension
    in ``dim`` (all dims by default). ``spacing``: one number for every dim, one number per
    dim, or one tensor of coordinates per dim."""
def nan_to_num_(input: Any, nan: Any = ..., posinf: Any = ..., neginf: Any = ...) -> Tensor:
    """In-place ``nan_to_num``."""
def index_put_(input: Any, indices: Any, values: Any, accumulate: Any = ...) -> Tensor:
    """In-place ``index_put``."""
def set_warn_always(b: Any) -> None:
    """Warn every time (not once per process) for the warnings PyTorch gives once."""
def is_warn_always_enabled() -> _bool:
    """Whether ``set_warn_always(True)`` is in effect."""
def is_anomaly_enabled() -> _bool:
    """Whether ``autograd.detect_anomaly`` / ``set_detect_anomaly`` is on."""
def is_anomaly_check_nan_enabled() -> _bool:
    """Whether anomaly mode checks the backward's outputs for NaN."""
def set_default_tensor_type(t: Any) -> None:
    """Set the default floating dtype through a tensor type (``torch.DoubleTensor`` or its
    name); deprecated, as in PyTorch."""
def rms_norm(input: Any, normalized_shape: Any, weight: Any = ..., eps: Any = ...) -> Tensor:
    """Root-mean-square normalization over the trailing ``normalized_shape`` dims."""
def hamming_window(window_length: Any, periodic: Any = ..., alpha: Any = ..., beta: Any = ..., *, dtype: Any = ..., layout: Any = ..., device: Any = ..., pin_memory: Any = ..., requires_grad: Any = ...) -> Tensor:
    """``alpha - beta · cos(2πn / (N - 1))``."""
def hann_window(window_length: Any, periodic: Any = ..., *, dtype: Any = ..., layout: Any = ..., device: Any = ..., pin_memory: Any = ..., requires_grad: Any = ...) -> Tensor:
    """``0.5 - 0.5 · cos(2πn / (N - 1))`` (Hamming with 0.5 / 0.5)."""
def blackman_window(window_length: Any, periodic: Any = ..., *, dtype: Any = ..., layout: Any = ..., device: Any = ..., pin_memory: Any = ..., requires_grad: Any = ...) -> Tensor:
    """``0.42 - 0.5 · cos(2πn / (N - 1)) + 0.08 · cos(4πn / (N - 1))``."""
def bartlett_window(window_length: Any, periodic: Any = ..., *, dtype: Any = ..., layout: Any = ..., device: Any = ..., pin_memory: Any = ..., requires_grad: Any = ...) -> Tensor:
    """The triangular window ``1 - |2n / (N - 1) - 1|``."""
def kaiser_window(window_length: Any, periodic: Any = ..., beta: Any = ..., *, dtype: Any = ..., layout: Any = ..., device: Any = ..., pin_memory: Any = ..., requires_grad: Any = ...) -> Tensor:
    """``I0(β √(1 - ((n - α) / α)²)) / I0(β)`` with ``α = (N - 1) / 2``."""
def stft(input: Any, n_fft: Any, hop_length: Any = ..., win_length: Any = ..., window: Any = ..., center: Any = ..., pad_mode: Any = ..., normalized: Any = ..., onesided: Any = ..., return_complex: Any = ..., align_to_window: Any = ...) -> Tensor:
    """The short-time Fourier transform: windowed frames of ``n_fft`` samples every
    ``hop_length``, each transformed (one-sided for real input); ``(*, freq, frames)``,
    complex (or its real view with ``return_complex=False``, deprecated)."""
def istft(input: Any, n_fft: Any, hop_length: Any = ..., win_length: Any = ..., window: Any = ..., center: Any = ..., normalized: Any = ..., onesided: Any = ..., length: Any = ..., return_complex: Any = ...) -> Tensor:
    """The inverse of ``stft``: each frame inverse-transformed, windowed, overlap-added and
    divided by the summed squared window."""
def binomial(count: Any, prob: Any, generator: Any = ...) -> Tensor:
    """Binomial(``count``, ``prob``) samples, elementwise (PyTorch's CPU kernel and stream)."""
def triangular_solve(input: Any, A: Any, upper: Any = ..., transpose: Any = ..., unitriangular: Any = ..., *, out: Any = ...) -> Any:
    """Solve ``A X = input`` for triangular ``A`` (or ``Aᵀ X = input``): the solution and a
    copy of ``A`` (deprecated in favour of ``linalg.solve_triangular``, as in PyTorch)."""
def lu_unpack(LU_data: Any, LU_pivots: Any, unpack_data: Any = ..., unpack_pivots: Any = ..., *, out: Any = ...) -> Any:
    """``(P, L, U)`` from ``linalg.lu_factor``'s compact output."""
def i0(input: Any, *, out: Any = None) -> Tensor:
    """``torch.i0``: the modified Bessel function of the first kind of order 0."""
def mvlgamma(input: Any, p: Any, *, out: Any = None) -> Tensor:
    """``torch.mvlgamma``: the multivariate log-gamma of dimension ``p`` (``special.multigammaln``)."""
def polygamma(n: Any, input: Any, *, out: Any = None) -> Tensor:
    """The ``n``-th derivative of the digamma function (``torch.polygamma``): digamma for 0,
    trigamma for 1, ``(-1)**(n+1) n! zeta(n+1, x)`` above."""

def is_conj(input: Tensor) -> _bool:
    """Whether ``input``'s conjugate bit is set (``input.is_conj()``)."""
def is_neg(input: Tensor) -> _bool:
    """Whether ``input``'s negative bit is set (``input.is_neg()``)."""
def is_inference(input: Tensor) -> _bool:
    """Whether ``input`` was created in inference mode (``input.is_inference()``)."""
def get_device(input: Tensor) -> _int:
    """The CUDA ordinal of ``input``'s device, -1 on the CPU (``input.get_device()``)."""
def rsub(input: Tensor, other: Any, *, alpha: Any = 1) -> Tensor:
    """``other - alpha * input`` (subtraction with the operands reversed)."""
def fill(input: Tensor, value: Any) -> Tensor:
    """A copy of ``input`` with every element ``value`` (FillBackward0 for a number, FillBackward1
    for a 0-dim tensor: no gradient reaches ``input``)."""
def detach_(input: Tensor) -> Tensor:
    """``input.detach_()``."""
def max_pool3d(input: Tensor, kernel_size: Any, stride: Any = (), padding: Any = 0, dilation: Any = 1, ceil_mode: _bool = False) -> Tensor:
    """``nn.functional.max_pool3d`` (an empty ``stride`` is the kernel size)."""
def binary_cross_entropy_with_logits(input: Tensor, target: Tensor, weight: Any = None, pos_weight: Any = None, reduction: _int = 1) -> Tensor:
    """``nn.functional.binary_cross_entropy_with_logits`` with the reduction as ATen's enum
    (0 none, 1 mean, 2 sum)."""
def igamma(input: Tensor, other: Tensor, *, out: Any = None) -> Tensor:
    """The regularized lower incomplete gamma function (``special.gammainc``)."""
def igammac(input: Tensor, other: Tensor, *, out: Any = None) -> Tensor:
    """The regularized upper incomplete gamma function (``special.gammaincc``)."""
def nonzero_static(input: Tensor, *, size: _int, fill_value: _int = -1) -> Tensor:
    """``nonzero(input)`` with exactly ``size`` rows: truncated, or padded with ``fill_value``."""
def arcsinh_(input: Tensor, *args: Any, **kwargs: Any) -> Tensor:
    """In-place ``arcsinh`` (``asinh_``)."""
def arccosh_(input: Tensor, *args: Any, **kwargs: Any) -> Tensor:
    """In-place ``arccosh`` (``acosh_``)."""
def arctanh_(input: Tensor, *args: Any, **kwargs: Any) -> Tensor:
    """In-place ``arctanh`` (``atanh_``)."""

__all__ = [
    'lu_unpack',
    'triangular_solve',
    'is_conj', 'is_neg', 'is_inference', 'get_device', 'rsub', 'fill', 'detach_', 'max_pool3d',
    'binary_cross_entropy_with_logits', 'igamma', 'igammac', 'nonzero_static', 'arcsinh_', 'arccosh_', 'arctanh_',
    'binomial', 'index_reduce',
    'unravel_index', 'fmax', 'fmin', 'isposinf', 'isneginf', 'adjoint', 'addbmm', 'frombuffer', 'scalar_tensor', 'gradient', 'nan_to_num_', 'index_put_', 'set_warn_always', 'is_warn_always_enabled', 'is_anomaly_enabled', 'is_anomaly_check_nan_enabled', 'set_default_tensor_type', 'rms_norm', 'hamming_window', 'hann_window', 'blackman_window', 'bartlett_window', 'kaiser_window', 'stft', 'istft', 'OutOfMemoryError', 'GradScaler', 'compiler', 'multiprocessing',
    'i0', 'mvlgamma', 'polygamma', 'fft', 'testing',
    'bitwise_left_shift', 'bitwise_right_shift', 'corrcoef', 'cov', 'frexp', 'gcd', 'get_float32_matmul_precision', 'get_num_interop_threads', 'histogram', 'is_storage', 'isreal', 'lcm', 'ldexp', 'set_float32_matmul_precision', 'set_num_interop_threads', 'signbit', 'typename', 'vander', 'autocast', 'jit', 'amp', 'version',
    'adaptive_avg_pool1d', 'adaptive_max_pool1d', 'addr', 'alpha_dropout', 'arccos', 'arccos_', 'arcsin', 'arcsin_', 'arctan', 'arctan_', 'argwhere', 'asarray', 'avg_pool1d', 'batch_norm', 'bilinear', 'block_diag', 'can_cast', 'celu', 'chain_matmul', 'combinations', 'conv1d', 'conv2d', 'conv3d', 'conv_transpose1d', 'conv_transpose2d', 'conv_transpose3d', 'copysign', 'cosine_embedding_loss', 'cosine_similarity', 'cumulative_trapezoid', 'deg2rad', 'deg2rad_', 'diagflat', 'diagonal_scatter', 'dist', 'dropout', 'dsplit', 'embedding', 'empty_strided', 'erfc', 'erfc_', 'feature_alpha_dropout', 'feature_dropout', 'fix', 'fix_', 'float_power', 'frac', 'frac_', 'group_norm', 'hardshrink', 'heaviside', 'hsplit', 'hypot', 'index_copy', 'index_fill', 'inner', 'instance_norm', 'isin', 'layer_norm', 'logaddexp', 'logaddexp2', 'logspace', 'masked_scatter', 'max_pool1d', 'max_pool2d', 'mode', 'nanmean', 'nanquantile', 'nansum', 'narrow_copy', 'nextafter', 'pairwise_distance', 'pdist', 'grid_sampler', 'grid_sampler_2d', 'grid_sampler_3d', 'poisson', '_standard_gamma', 'pixel_shuffle', 'pixel_unshuffle', 'prelu', 'put', 'quantile', 'rad2deg', 'rad2deg_', 'range', 'renorm', 'rrelu', 'select_scatter', 'selu', 'sinc', 'sinc_', 'slice_scatter', 'split_with_sizes', 'std_mean', 'take', 'threshold', 'trapezoid', 'trapz', 'tril_indices', 'triu_indices', 'unflatten', 'unique_consecutive', 'var_mean', 'vsplit',
    'BoolTensor', 'ByteTensor', 'CharTensor', 'DoubleTensor', 'FloatTensor', 'Generator',
    'BFloat16Tensor', 'HalfTensor', 'IntTensor', 'LongTensor', 'ShortTensor', 'Size', 'Tensor',
    'abs', 'acos', 'add', 'addcdiv', 'addcmul', 'addmm', 'addmv', 'all', 'allclose', 'amax', 'amin', 'aminmax',
    'angle', 'any', 'arange', 'arctan2', 'argmax', 'argmin', 'argsort', 'as_tensor', 'asin', 'atan', 'atan2',
    'baddbmm', 'bernoulli', 'bitwise_and', 'bitwise_not', 'bitwise_or', 'bitwise_xor', 'bmm',
    'bool', 'broadcast_tensors', 'cat', 'ceil', 'chunk', 'clamp', 'clamp_max', 'clamp_min', 'clip',
    'cdouble', 'cfloat', 'clone', 'compile', 'complex', 'complex128', 'complex64', 'concat',
    'concatenate', 'conj', 'conj_physical', 'cos', 'cosh', 'cummax', 'cummin', 'cumprod', 'cumsum',
    'default_generator', 'detach', 'device', 'div', 'divide', 'dot', 'double', 'dtype', 'empty',
    'empty_like', 'enable_grad', 'eq', 'equal', 'erf', 'exp', 'expm1', 'eye', 'flatten', 'flip',
    'bfloat16', 'float', 'float16', 'float32', 'float64', 'floor', 'floor_divide', 'fmod',
    'from_dlpack', 'from_numpy', 'full', 'full_like', 'gather', 'ge', 'get_default_device',
    'get_default_dtype', 'get_num_threads', 'get_rng_state', 'gt', 'half', 'index_select',
    'imag', 'inference_mode', 'initial_seed', 'int', 'int16', 'int32', 'int64', 'int8', 'is_complex',
    'is_floating_point',
    'is_grad_enabled', 'is_inference_mode_enabled', 'is_tensor', 'isclose', 'isfinite', 'isinf',
    'isnan', 'kthvalue', 'le', 'lerp', 'linspace', 'load', 'log', 'log10', 'log1p', 'log2', 'log_softmax', 'logcumsumexp',
    'logical_and', 'logical_not', 'logical_or', 'logical_xor', 'logsumexp', 'long', 'lt',
    'manual_seed', 'masked_fill', 'matmul', 'max', 'maximum', 'mean', 'median', 'min', 'minimum', 'mm', 'msort', 'mul', 'nanmedian',
    'multinomial', 'multiply', 'mv', 'narrow', 'ne', 'neg', 'negative', 'no_grad', 'nonzero',
    'norm', 'normal', 'numel', 'ones', 'ones_like', 'outer', 'permute', 'polar', 'pow', 'prod',
    'promote_types', 'rand',
    'rand_like', 'randint', 'randint_like', 'randn', 'randn_like', 'randperm', 'real', 'reciprocal', 'relu',
    'remainder', 'reshape', 'resolve_conj', 'resolve_neg', 'result_type', 'round', 'rsqrt', 'save', 'seed', 'select', 'set_default_device',
    'set_default_dtype', 'set_grad_enabled', 'set_num_threads', 'set_printoptions', 'set_rng_state',
    'sgn', 'short', 'sigmoid', 'sign', 'sin', 'sinh', 'softmax', 'sort', 'split', 'sqrt', 'square',
    'squeeze', 'stack', 'std', 'sub', 'sum', 'swapaxes', 't', 'tan', 'tanh', 'tensor', 'topk',
    'transpose', 'true_divide', 'trunc', 'uint8', 'unbind', 'unsqueeze', 'var', 'view_as',
    'vdot', 'view_as_complex', 'view_as_real', 'where',
    'tile', 'ravel', 'broadcast_to', 'fliplr', 'flipud', 'rot90', 'count_nonzero', 'diff', 'use_deterministic_algorithms', 'are_deterministic_algorithms_enabled', 'is_deterministic_algorithms_warn_only_enabled', 'pi', 'e', 'inf', 'nan', 'newaxis', 'greater', 'greater_equal', 'less', 'less_equal', 'not_equal', 'subtract', 'swapdims', 'absolute', 'positive', 'is_nonzero', 'is_signed', 'is_same_size', 'ger', 'vmap', 'backends', 'distributions', 'abs_', 'acos_', 'acosh_', 'asin_', 'asinh_', 'atan_', 'atanh_', 'ceil_', 'clamp_', 'clamp_max_', 'clamp_min_', 'clip_', 'cos_', 'cosh_', 'erf_', 'exp_', 'exp2_', 'expm1_', 'floor_', 'log_', 'log10_', 'log1p_', 'log2_', 'logit_', 'neg_', 'negative_', 'reciprocal_', 'relu_', 'round_', 'rsqrt_', 'sigmoid_', 'sin_', 'sinh_', 'sqrt_', 'square_', 'tan_', 'tanh_', 'trunc_', 'xlogy_', 'onnx', 'functional', 'scatter_reduce',
    'zeros', 'zeros_like',
]
