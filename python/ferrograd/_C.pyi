"""Type stubs for the native module ``ferrograd._C`` (the Rust core's Python bindings).

The docstrings of the native ``Tensor`` methods live here (and in the API reference built
from these stubs): pyo3 method descriptors do not accept ``__doc__`` assignment from Python.
"""

import builtins
from types import EllipsisType
from typing import Any, Callable, Iterator, Literal, Optional, Self, Sequence, SupportsIndex, Tuple, Union, final, overload

import numpy as np

from ._helpers import Size
from ._helpers import device as _device
from ._helpers import _MinMax, _ValuesIndices

_int = builtins.int
_float = builtins.float
_bool = builtins.bool

_Number = Union[_bool, _int, _float]
_TensorOrNumber = Union["Tensor", _bool, _int, _float]
_DeviceLike = Union[_device, str, _int]
_SizeArg = Union[_int, Sequence[_int]]
_Dims = Union[_int, Sequence[_int], None]
_Index = Union[SupportsIndex, slice, None, EllipsisType, "Tensor", Sequence[Any]]
_Indices = Union[_Index, Tuple[_Index, ...]]

@final
class dtype:
    """A tensor element type (``torch.dtype``): ``ferrograd.float32``, ``ferrograd.int64``, ...
    Prints as PyTorch does (``torch.float32``)."""
    @property
    def is_floating_point(self) -> _bool:
        """``True`` for float16, float32 and float64."""
    @property
    def is_signed(self) -> _bool:
        """``True`` for the floating-point and signed integer types."""
    @property
    def is_complex(self) -> _bool:
        """``True`` for complex64 and complex128."""
    def to_complex(self) -> dtype:
        """The complex dtype of a floating one (``float64`` → ``complex128``); complex dtypes
        are returned as they are."""
    def to_real(self) -> dtype:
        """The real dtype of a complex one (``complex64`` → ``float32``); real dtypes are returned
        as they are."""
    @property
    def itemsize(self) -> _int:
        """The size of one element in bytes."""

_dtype = dtype

@final
class SavedTensor:
    """A node's saved tensor itself (`grad_fn._raw_saved_<name>`): hooks can be put on it."""
    def register_hooks(self, pack_hook: Callable[[Tensor], Any], unpack_hook: Callable[[Any], Tensor]) -> None:
        """Replace the saved tensor by ``pack_hook(tensor)`` now; the backward pass gets
        ``unpack_hook(packed)`` back (one pair of hooks per saved tensor)."""

class Node:
    """Base class of every ``grad_fn`` class (``MulBackward0``, ...), ``torch.autograd.graph.Node``."""
    @property
    def next_functions(self) -> Tuple[Tuple[Optional[Node], _int], ...]:
        """The nodes this node sends gradients to, with the input index of each."""
    @property
    def variable(self) -> Tensor:
        """For an ``AccumulateGrad`` node, the leaf tensor it accumulates into."""
    @property
    def metadata(self) -> dict[Any, Any]:
        """A dict for user data attached to this node."""
    def name(self) -> str:
        """The node's name, e.g. ``'MulBackward0'``; the engine's own nodes carry their C++
        namespace, as PyTorch's (``'torch::autograd::AccumulateGrad'``)."""
    def register_hook(self, hook: Callable[[Tuple[Optional[Tensor], ...], Tuple[Optional[Tensor], ...]], Optional[Tuple[Optional[Tensor], ...]]]) -> RemovableHandle:
        """Register a hook called as ``hook(grad_inputs, grad_outputs)`` after the node ran;
        a returned tuple replaces ``grad_inputs``."""
    def register_prehook(self, hook: Callable[[Tuple[Optional[Tensor], ...]], Optional[Tuple[Optional[Tensor], ...]]]) -> RemovableHandle:
        """Register a hook called as ``hook(grad_outputs)`` before the node runs; a returned
        tuple replaces ``grad_outputs``."""
    def _nbytes_saved(self) -> _int: ...
    def _sequence_nr(self) -> _int: ...
    def __getattr__(self, name: str) -> Any:
        """Saved values, as PyTorch names them (``_saved_self``, ``_saved_other``, ...)."""

@final
class RemovableHandle:
    """The handle returned by hook registration; ``remove()`` unregisters the hook. Also a
    context manager that removes the hook on exit."""
    def remove(self) -> None:
        """Unregister the hook (idempotent)."""
    def __enter__(self) -> RemovableHandle: ...
    def __exit__(self, _a: object, _b: object, _c: object, /) -> None: ...

class Tensor:
    """A multi-dimensional matrix of elements of a single data type (``torch.Tensor``).

    Tensors are created with factory functions (``ferrograd.tensor``, ``ferrograd.zeros``,
    ...) or as the results of operations. A tensor with ``requires_grad=True`` records the
    operations applied to it so that ``backward`` can compute gradients.

    Differences from PyTorch: dtypes are float16/32/64, bfloat16, complex64/128, int8/16/32/64,
    uint8 and bool (no complex32, float8 or quantized types); complex tensors cover elementwise
    arithmetic, the holomorphic functions, sums, means and matrix products, and ``conj`` computes
    the conjugate (no lazy conjugate bit: ``is_conj()`` is always ``False``); layouts are always strided (``layout`` is
    ``torch.strided``); devices are ``cpu`` and ``cuda`` (see the GPU guide).
    """

    # ---- attributes -------------------------------------------------------------------
    @property
    def shape(self) -> Size:
        """The size of the tensor, as a ``ferrograd.Size`` (``x.shape == x.size()``)."""
    @property
    def dtype(self) -> _dtype:
        """The ``ferrograd.dtype`` of the tensor's elements."""
    @property
    def device(self) -> _device:
        """The ``ferrograd.device`` where this tensor's storage lives."""
    @property
    def requires_grad(self) -> _bool:
        """``True`` if gradients need to be computed for this tensor. Only floating-point
        tensors can require gradients; set it on leaves (``x.requires_grad = True``)."""
    @requires_grad.setter
    def requires_grad(self, value: _bool) -> None: ...
    @property
    def grad(self) -> Optional[Tensor]:
        """``None`` by default; becomes a tensor the first time ``backward`` computes a
        gradient for this leaf, and accumulates on later calls."""
    @grad.setter
    def grad(self, value: Optional[Tensor]) -> None: ...
    @property
    def grad_fn(self) -> Optional[Node]:
        """The backward node that created this tensor (``None`` for leaves), with PyTorch's
        class names (``MulBackward0``, ``SumBackward0``, ...)."""
    @property
    def is_leaf(self) -> _bool:
        """``True`` for tensors that do not require grad, and for tensors that require grad
        and were created by the user (not by an operation recorded by autograd)."""
    @property
    def data(self) -> Tensor:
        """The tensor's values as a tensor that shares storage but is detached from autograd.
        Assigning ``x.data = y`` replaces the values (and shape) without recording history."""
    @data.setter
    def data(self, value: Tensor) -> None: ...
    @property
    def ndim(self) -> _int:
        """The number of dimensions; an alias for ``dim``."""
    @property
    def retains_grad(self) -> _bool:
        """``True`` if this non-leaf tensor keeps its ``.grad`` (see ``retain_grad``)."""
    @property
    def output_nr(self) -> _int:
        """The index of this tensor among the outputs of its ``grad_fn``."""
    @property
    def is_cuda(self) -> _bool:
        """``True`` if the tensor is stored on a CUDA device."""
    @property
    def T(self) -> Tensor:
        """The tensor with its dimensions reversed (for 2-D, the transpose)."""
    @property
    def mT(self) -> Tensor:
        """The last two dimensions transposed (a batch of matrix transposes)."""
    @property
    def H(self) -> Tensor:
        """The conjugate transpose of a 2-d tensor (for real tensors, ``T``)."""
    @property
    def mH(self) -> Tensor:
        """The conjugate transpose of the last two dimensions (for real tensors, ``mT``)."""
    @property
    def real(self) -> Tensor:
        """The real parts: a view (the tensor itself for a real tensor)."""
    @property
    def imag(self) -> Tensor:
        """The imaginary parts: a view (complex tensors only)."""
    @property
    def _version(self) -> _int: ...
    @property
    def _base(self) -> Optional[Tensor]: ...
    is_sparse: _bool
    """Always ``False``: ferrograd has no sparse tensors."""
    is_quantized: _bool
    """Always ``False``: ferrograd has no quantized tensors."""
    is_meta: _bool
    """Always ``False``: ferrograd has no meta device."""
    layout: Any
    """``torch.strided`` (a ``torch.layout``): ferrograd's tensors are all strided."""
    __array_priority__: _int

    def __new__(cls, *args: Any, **kwargs: Any) -> Self:
        """``torch.Tensor(*sizes)`` (uninitialised float32) or ``torch.Tensor(data)``."""

    # ---- Python protocols ---------------------------------------------------------------
    def __len__(self) -> _int:
        """The size of the first dimension (a 0-d tensor raises ``TypeError``)."""
    def __iter__(self) -> Iterator[Tensor]:
        """Iterate over the first dimension, yielding views."""
    def __getitem__(self, indices: _Indices, /) -> Tensor:
        """Basic (ints, slices, ``None``, ``...``), advanced (integer tensors, lists) and
        boolean-mask indexing, with PyTorch's semantics; basic indexing returns a view."""
    def __setitem__(self, indices: _Indices, value: Union[Tensor, _Number], /) -> None:
        """In-place assignment into the indexed elements (recorded by autograd as
        ``CopySlices``)."""
    def __delitem__(self, indices: _Indices, /) -> None: ...
    def __bool__(self) -> _bool:
        """The truth value of a one-element tensor."""
    def __float__(self) -> _float:
        """The value of a one-element tensor as a Python float."""
    def __int__(self) -> _int:
        """The value of a one-element tensor as a Python int."""
    def __index__(self) -> _int:
        """The value of a one-element integer tensor, for use as an index."""
    def __hash__(self) -> _int: ...
    def __array__(self, dtype: Any = None, copy: Optional[_bool] = None) -> np.ndarray[Any, Any]:
        """NumPy's array protocol (``np.asarray(x)``)."""
    def __dlpack__(self, *, stream: Any = None, max_version: Optional[Tuple[_int, _int]] = None,
                   dl_device: Any = None, copy: Optional[_bool] = None) -> Any:
        """Export as a DLPack capsule (CPU tensors, zero-copy)."""
    def __dlpack_device__(self) -> Tuple[_int, _int]:
        """The DLPack ``(device_type, device_id)`` of this tensor."""
    def __deepcopy__(self, memo: dict[_int, Any]) -> Tensor: ...
    def __reduce_ex__(self, proto: SupportsIndex) -> Any: ...

    # ---- operators (Python scalars on either side, with broadcasting) -------------------------
    def __add__(self, other: _TensorOrNumber, /) -> Tensor:
        """``self + other`` (see ``add``)."""
    def __radd__(self, other: _TensorOrNumber, /) -> Tensor: ...
    def __iadd__(self, other: _TensorOrNumber, /) -> Tensor: ...
    def __sub__(self, other: _TensorOrNumber, /) -> Tensor:
        """``self - other`` (see ``sub``)."""
    def __rsub__(self, other: _TensorOrNumber, /) -> Tensor: ...
    def __isub__(self, other: _TensorOrNumber, /) -> Tensor: ...
    def __mul__(self, other: _TensorOrNumber, /) -> Tensor:
        """``self * other`` (see ``mul``)."""
    def __rmul__(self, other: _TensorOrNumber, /) -> Tensor: ...
    def __imul__(self, other: _TensorOrNumber, /) -> Tensor: ...
    def __truediv__(self, other: _TensorOrNumber, /) -> Tensor:
        """``self / other`` (true division, see ``div``)."""
    def __rtruediv__(self, other: _TensorOrNumber, /) -> Tensor: ...
    def __itruediv__(self, other: _TensorOrNumber, /) -> Tensor: ...
    def __floordiv__(self, other: _TensorOrNumber, /) -> Tensor:
        """``self // other`` (see ``floor_divide``)."""
    def __rfloordiv__(self, other: _TensorOrNumber, /) -> Tensor: ...
    def __mod__(self, other: _TensorOrNumber, /) -> Tensor:
        """``self % other`` (see ``remainder``)."""
    def __rmod__(self, other: _TensorOrNumber, /) -> Tensor: ...
    def __pow__(self, exponent: _TensorOrNumber, mod: None = None, /) -> Tensor:
        """``self ** exponent`` (see ``pow``)."""
    def __rpow__(self, other: _TensorOrNumber, mod: None = None, /) -> Tensor: ...
    def __matmul__(self, other: Tensor, /) -> Tensor:
        """``self @ other`` (see ``matmul``)."""
    def __rmatmul__(self, other: Tensor, /) -> Tensor: ...
    def __and__(self, other: _TensorOrNumber, /) -> Tensor:
        """``self & other`` (see ``bitwise_and``)."""
    def __rand__(self, other: _TensorOrNumber, /) -> Tensor: ...
    def __or__(self, other: _TensorOrNumber, /) -> Tensor:
        """``self | other`` (see ``bitwise_or``)."""
    def __ror__(self, other: _TensorOrNumber, /) -> Tensor: ...
    def __xor__(self, other: _TensorOrNumber, /) -> Tensor:
        """``self ^ other`` (see ``bitwise_xor``)."""
    def __rxor__(self, other: _TensorOrNumber, /) -> Tensor: ...
    def __lshift__(self, other: _TensorOrNumber, /) -> Tensor:
        """``self << other`` (see ``bitwise_left_shift``)."""
    def __rlshift__(self, other: _TensorOrNumber, /) -> Tensor: ...
    def __ilshift__(self, other: _TensorOrNumber, /) -> Tensor: ...
    def __rshift__(self, other: _TensorOrNumber, /) -> Tensor:
        """``self >> other`` (see ``bitwise_right_shift``)."""
    def __rrshift__(self, other: _TensorOrNumber, /) -> Tensor: ...
    def __irshift__(self, other: _TensorOrNumber, /) -> Tensor: ...
    def __neg__(self) -> Tensor:
        """``-self`` (see ``neg``)."""
    def __pos__(self) -> Tensor: ...
    def __abs__(self) -> Tensor:
        """``abs(self)`` (see ``abs``)."""
    def __invert__(self) -> Tensor:
        """``~self``: logical NOT for bool tensors, bitwise NOT for integer tensors."""
    def __eq__(self, other: object, /) -> Tensor:  # type: ignore[override]
        """Element-wise ``self == other`` as a bool tensor (see ``eq``)."""
    def __ne__(self, other: object, /) -> Tensor:  # type: ignore[override]
        """Element-wise ``self != other`` as a bool tensor (see ``ne``)."""
    def __lt__(self, other: _TensorOrNumber, /) -> Tensor:
        """Element-wise ``self < other`` as a bool tensor (see ``lt``)."""
    def __le__(self, other: _TensorOrNumber, /) -> Tensor:
        """Element-wise ``self <= other`` as a bool tensor (see ``le``)."""
    def __gt__(self, other: _TensorOrNumber, /) -> Tensor:
        """Element-wise ``self > other`` as a bool tensor (see ``gt``)."""
    def __ge__(self, other: _TensorOrNumber, /) -> Tensor:
        """Element-wise ``self >= other`` as a bool tensor (see ``ge``)."""

    # ---- size, layout and conversion -----------------------------------------------------
    @overload
    def size(self, dim: None = None) -> Size:
        """The size of the tensor (a ``ferrograd.Size``), or of dimension ``dim`` (an int)."""
    @overload
    def size(self, dim: _int) -> _int: ...
    @overload
    def stride(self, dim: None = None) -> Tuple[_int, ...]:
        """The strides (in elements) of all dimensions, or of dimension ``dim``."""
    @overload
    def stride(self, dim: _int) -> _int: ...
    def dim(self) -> _int:
        """The number of dimensions of the tensor."""
    def ndimension(self) -> _int:
        """Alias for ``dim``."""
    def numel(self) -> _int:
        """The total number of elements in the tensor."""
    def nelement(self) -> _int:
        """Alias for ``numel``."""
    def element_size(self) -> _int:
        """The size in bytes of one element."""
    def storage_offset(self) -> _int:
        """The offset, in elements, of this tensor's first element in its storage."""
    def data_ptr(self) -> _int:
        """The address of the first element of the tensor."""
    def is_contiguous(self, memory_format: Any = None) -> _bool:
        """``True`` if the tensor is contiguous in memory in row-major order."""
    def is_floating_point(self) -> _bool:
        """``True`` if the data type is a floating-point type."""
    def is_complex(self) -> _bool:
        """``True`` if the data type is complex64 or complex128."""
    def is_conj(self) -> _bool:
        """Always ``False``: ferrograd's ``conj`` computes the conjugate (no lazy bit)."""
    def is_neg(self) -> _bool:
        """Always ``False`` (no lazy negation bit)."""
    def is_inference(self) -> _bool:
        """``True`` if the tensor was created under ``ferrograd.inference_mode``."""
    def item(self) -> _Number:
        """The value of a one-element tensor as a standard Python number."""
    def tolist(self) -> Any:
        """The tensor as a (nested) list of Python numbers; a 0-d tensor gives a number."""
    def numpy(self, force: _bool = False) -> np.ndarray[Any, Any]:
        """The tensor as a NumPy ``ndarray`` sharing its memory (CPU tensors). A tensor that
        requires grad raises unless ``force=True`` (which detaches and copies as needed)."""
    def contiguous(self, memory_format: Any = None) -> Tensor:
        """A contiguous tensor with the same data: ``self`` if already contiguous (in
        ``memory_format``: row-major, or channels-last), else a copy."""
    def clone(self, *, memory_format: Any = None) -> Tensor:
        """A copy of the tensor (differentiable: the gradient flows back to ``self``), laid out
        as ``memory_format`` says (by default, the dim order of ``self``)."""
    def detach(self) -> Tensor:
        """A new tensor sharing storage, detached from the current graph (never requires grad)."""
    def detach_(self) -> Tensor:
        """Detach the tensor from the graph that created it, in place (makes it a leaf)."""
    @overload
    def to(self, dtype: _dtype, non_blocking: _bool = False, copy: _bool = False) -> Tensor:
        """Perform dtype and/or device conversion: ``to(dtype)``, ``to(device, dtype=None)``,
        ``to(other)`` (other's device and dtype). Returns ``self`` if nothing changes (unless
        ``copy=True``). Moving between devices is differentiable."""
    @overload
    def to(self, device: _DeviceLike, dtype: Optional[_dtype] = None, non_blocking: _bool = False, copy: _bool = False) -> Tensor: ...
    @overload
    def to(self, other: Tensor, non_blocking: _bool = False, copy: _bool = False) -> Tensor: ...
    @overload
    def to(self, *, dtype: Optional[_dtype] = None, device: Optional[_DeviceLike] = None, non_blocking: _bool = False, copy: _bool = False) -> Tensor: ...
    def cpu(self, memory_format: Any = None) -> Tensor:
        """A copy of this tensor in CPU memory (``self`` if already on the CPU)."""
    def cuda(self, device: Optional[_DeviceLike] = None, non_blocking: _bool = False, memory_format: Any = None) -> Tensor:
        """A copy of this tensor in CUDA memory (``self`` if already there)."""
    @overload
    def type(self, dtype: None = None, non_blocking: _bool = False) -> str:
        """With no argument, the legacy type name (``'torch.FloatTensor'``); with a type or
        dtype, the tensor converted to it."""
    @overload
    def type(self, dtype: Union[str, _dtype, type], non_blocking: _bool = False) -> Tensor: ...
    def type_as(self, other: Tensor) -> Tensor:
        """This tensor cast to the dtype of ``other``."""
    def float(self) -> Tensor:
        """``self.to(torch.float32)``."""
    def double(self) -> Tensor:
        """``self.to(torch.float64)``."""
    def cfloat(self) -> Tensor:
        """``self.to(torch.complex64)``."""
    def cdouble(self) -> Tensor:
        """``self.to(torch.complex128)``."""
    def half(self) -> Tensor:
        """``self.to(torch.float16)``."""
    def long(self) -> Tensor:
        """``self.to(torch.int64)``."""
    def int(self) -> Tensor:
        """``self.to(torch.int32)``."""
    def short(self) -> Tensor:
        """``self.to(torch.int16)``."""
    def char(self) -> Tensor:
        """``self.to(torch.int8)``."""
    def byte(self) -> Tensor:
        """``self.to(torch.uint8)``."""
    def bool(self) -> Tensor:
        """``self.to(torch.bool)``."""
    def new_tensor(self, data: Any, dtype: Optional[_dtype] = None, device: Optional[_DeviceLike] = None, requires_grad: _bool = False) -> Tensor:
        """A new tensor with ``data``, by default with this tensor's dtype and device."""
    def new_zeros(self, *size: _SizeArg, dtype: Optional[_dtype] = None, device: Optional[_DeviceLike] = None, requires_grad: _bool = False) -> Tensor:
        """A tensor of ``size`` filled with 0, by default with this tensor's dtype and device."""
    def new_ones(self, *size: _SizeArg, dtype: Optional[_dtype] = None, device: Optional[_DeviceLike] = None, requires_grad: _bool = False) -> Tensor:
        """A tensor of ``size`` filled with 1, by default with this tensor's dtype and device."""
    def new_empty(self, *size: _SizeArg, dtype: Optional[_dtype] = None, device: Optional[_DeviceLike] = None, requires_grad: _bool = False) -> Tensor:
        """An uninitialised tensor of ``size``, by default with this tensor's dtype and device."""
    def new_full(self, size: Sequence[_int], fill_value: _Number, dtype: Optional[_dtype] = None, device: Optional[_DeviceLike] = None, requires_grad: _bool = False) -> Tensor:
        """A tensor of ``size`` filled with ``fill_value``, by default with this tensor's dtype and device."""

    # ---- autograd ------------------------------------------------------------------------
    def backward(self, gradient: Optional[Tensor] = None, retain_graph: Optional[_bool] = None, create_graph: _bool = False,
                 inputs: Union[Tensor, Sequence[Tensor], None] = None) -> None:
        """Compute the gradient of this tensor with respect to graph leaves.

        The graph is differentiated using the chain rule. If the tensor is non-scalar,
        ``gradient`` (the gradient of some loss with respect to this tensor) must be given.
        Gradients accumulate into the leaves' ``.grad``; zero them before the next step.

        Args:
            gradient: the gradient w.r.t. this tensor (``None`` for a scalar: ``1``).
            retain_graph: keep the graph's saved tensors for another backward (default:
                ``create_graph``).
            create_graph: record the backward pass so higher-order derivatives can be taken.
            inputs: accumulate only into these tensors' ``.grad``.

        ferrograd runs independent branches of the graph in parallel with bitwise-identical
        results for any thread count, and tears down million-node chains without recursion.
        """
    def requires_grad_(self, requires_grad: _bool = True) -> Tensor:
        """Set whether autograd should record operations on this tensor, in place; returns ``self``."""
    def retain_grad(self) -> None:
        """Make this non-leaf tensor keep its ``.grad`` during ``backward``."""
    def register_hook(self, hook: Callable[[Tensor], Optional[Tensor]]) -> RemovableHandle:
        """Register a backward hook, called with the gradient w.r.t. this tensor each time it
        is computed; a returned tensor replaces the gradient. Returns a handle with ``remove()``."""
    def register_post_accumulate_grad_hook(self, hook: Callable[[Tensor], None]) -> RemovableHandle:
        """Register a hook on a leaf, called with the tensor after its ``.grad`` has been
        accumulated. Returns a handle with ``remove()``."""

    # ---- views and shape -------------------------------------------------------------------
    @overload
    def view(self, dtype: _dtype, /) -> Tensor:
        """A view with the same data and a different shape (``-1`` infers one dimension), or
        the same bytes read as ``dtype`` (same element size only). The tensor must be
        compatible with the shape (contiguous enough); see ``reshape``."""
    @overload
    def view(self, *shape: _SizeArg) -> Tensor: ...
    def view_as(self, other: Tensor) -> Tensor:
        """``self.view(other.size())``."""
    def reshape(self, *shape: _SizeArg) -> Tensor:
        """A tensor with the same data and the given shape: a view when possible, else a copy."""
    def reshape_as(self, other: Tensor) -> Tensor:
        """``self.reshape(other.size())``."""
    def expand(self, *sizes: _SizeArg) -> Tensor:
        """A view with singleton dimensions expanded to a larger size (``-1`` keeps a size);
        no memory is copied."""
    def expand_as(self, other: Tensor) -> Tensor:
        """``self.expand(other.size())``."""
    @property
    def is_cpu(self) -> builtins.bool: ...
    @property
    def is_xpu(self) -> builtins.bool: ...
    @property
    def is_mps(self) -> builtins.bool: ...
    @property
    def is_ipu(self) -> builtins.bool: ...
    @property
    def is_xla(self) -> builtins.bool: ...
    @property
    def is_mtia(self) -> builtins.bool: ...
    @property
    def is_maia(self) -> builtins.bool: ...
    @property
    def is_vulkan(self) -> builtins.bool: ...
    @property
    def is_mkldnn(self) -> builtins.bool: ...
    @property
    def is_nested(self) -> builtins.bool: ...
    @property
    def itemsize(self) -> _int: ...
    @property
    def nbytes(self) -> _int: ...
    def tile(self, *dims: _SizeArg) -> Tensor:
        """``self`` repeated ``dims`` times along each dimension."""
    def ravel(self) -> Tensor:
        """``self`` flattened to one dimension."""
    def broadcast_to(self, *size: _SizeArg) -> Tensor:
        """``self`` expanded to ``size`` (a view)."""
    def new(self, *args: Any, **kwargs: Any) -> Tensor:
        """A new tensor of ``self``'s dtype and device."""
    def get_device(self) -> _int:
        """The CUDA device index, -1 on the CPU."""
    def pin_memory(self, device: Any = None) -> Tensor: ...
    def is_pinned(self, device: Any = None) -> builtins.bool: ...
    def share_memory_(self) -> Tensor: ...
    def is_shared(self) -> builtins.bool: ...
    def is_signed(self) -> builtins.bool: ...
    def is_nonzero(self) -> builtins.bool: ...
    def is_same_size(self, other: Tensor) -> builtins.bool: ...
    def count_nonzero(self, dim: Optional[Union[_int, Sequence[_int]]] = None) -> Tensor: ...
    def diff(self, n: _int = 1, dim: _int = -1, prepend: Optional[Tensor] = None, append: Optional[Tensor] = None) -> Tensor: ...
    def fliplr(self) -> Tensor: ...
    def flipud(self) -> Tensor: ...
    def rot90(self, k: _int = 1, dims: Sequence[_int] = (0, 1)) -> Tensor: ...
    def outer(self, vec2: Tensor) -> Tensor: ...
    def ger(self, vec2: Tensor) -> Tensor: ...
    def greater(self, other: _TensorOrNumber) -> Tensor: ...
    def greater_equal(self, other: _TensorOrNumber) -> Tensor: ...
    def less(self, other: _TensorOrNumber) -> Tensor: ...
    def less_equal(self, other: _TensorOrNumber) -> Tensor: ...
    def not_equal(self, other: _TensorOrNumber) -> Tensor: ...
    def subtract(self, other: _TensorOrNumber, *, alpha: _Number = 1) -> Tensor: ...
    def swapdims(self, dim0: _int, dim1: _int) -> Tensor: ...
    def absolute(self) -> Tensor: ...
    def positive(self) -> Tensor: ...
    def repeat(self, *sizes: _SizeArg) -> Tensor:
        """Repeat the tensor along each dimension (copies the data)."""
    def permute(self, *dims: _SizeArg) -> Tensor:
        """A view with the dimensions permuted."""
    def transpose(self, dim0: _int, dim1: _int) -> Tensor:
        """A view with dimensions ``dim0`` and ``dim1`` swapped."""
    def transpose_(self, dim0: _int, dim1: _int) -> Tensor:
        """In-place version of ``transpose``."""
    def swapaxes(self, dim0: _int, dim1: _int) -> Tensor:
        """Alias for ``transpose``."""
    def t(self, *, out: Optional[Tensor] = None) -> Tensor:
        """Transpose a tensor of at most 2 dimensions (0-d and 1-d tensors are returned as is)."""
    def t_(self) -> Tensor:
        """In-place version of ``t``."""
    def squeeze(self, dim: Union[_int, Sequence[_int], None] = None) -> Tensor:
        """A view with the dimensions of size 1 removed (all, or those in ``dim``)."""
    def squeeze_(self, dim: Union[_int, Sequence[_int], None] = None) -> Tensor:
        """In-place version of ``squeeze``."""
    def unsqueeze(self, dim: _int) -> Tensor:
        """A view with a dimension of size 1 inserted at ``dim``."""
    def unsqueeze_(self, dim: _int) -> Tensor:
        """In-place version of ``unsqueeze``."""
    def flatten(self, start_dim: _int = 0, end_dim: _int = ...) -> Tensor:
        """Flatten dimensions ``start_dim`` to ``end_dim`` into one (a view when possible)."""
    def as_strided(self, size: Sequence[_int], stride: Sequence[_int], storage_offset: Optional[_int] = None) -> Tensor:
        """A view of this tensor's storage with the given sizes, strides and storage offset
        (by default this tensor's own offset)."""
    def narrow(self, dim: _int, start: _int, length: _int) -> Tensor:
        """A view of ``length`` elements of dimension ``dim`` starting at ``start``."""
    def select(self, dim: _int, index: _int) -> Tensor:
        """A view of the slice ``index`` along ``dim`` (that dimension removed)."""
    def unbind(self, dim: _int = 0) -> Tuple[Tensor, ...]:
        """All slices along ``dim``, as a tuple of views."""
    def split(self, split_size: Union[_int, Sequence[_int]], dim: _int = 0) -> Tuple[Tensor, ...]:
        """Split into chunks of ``split_size`` elements (or of the given sizes) along ``dim``; views."""
    def chunk(self, chunks: _int, dim: _int = 0) -> Tuple[Tensor, ...]:
        """Split into ``chunks`` views of (nearly) equal size along ``dim``."""
    def flip(self, *dims: _SizeArg) -> Tensor:
        """Reverse the order of elements along the given dimensions (copies the data)."""

    # ---- indexing, gathering, filling -----------------------------------------------------------
    def gather(self, dim: _int, index: Tensor) -> Tensor:
        """Gather values along ``dim`` at the positions in ``index`` (int64)."""
    def scatter_add(self, dim: _int, index: Tensor, src: Tensor) -> Tensor:
        """``self`` with ``src`` added at the positions ``index`` names along ``dim``."""
    def scatter_add_(self, dim: _int, index: Tensor, src: Tensor) -> Tensor:
        """In-place version of ``scatter_add``."""
    def absolute_(self, *args: Any, **kwargs: Any) -> Tensor:
        """In-place version of ``absolute``."""
    def acos_(self, *args: Any, **kwargs: Any) -> Tensor:
        """In-place version of ``acos``."""
    def acosh_(self, *args: Any, **kwargs: Any) -> Tensor:
        """In-place version of ``acosh``."""
    def arctan2_(self, *args: Any, **kwargs: Any) -> Tensor:
        """In-place version of ``arctan2``."""
    def asin_(self, *args: Any, **kwargs: Any) -> Tensor:
        """In-place version of ``asin``."""
    def asinh_(self, *args: Any, **kwargs: Any) -> Tensor:
        """In-place version of ``asinh``."""
    def atan_(self, *args: Any, **kwargs: Any) -> Tensor:
        """In-place version of ``atan``."""
    def atan2_(self, *args: Any, **kwargs: Any) -> Tensor:
        """In-place version of ``atan2``."""
    def atanh_(self, *args: Any, **kwargs: Any) -> Tensor:
        """In-place version of ``atanh``."""
    def bitwise_and_(self, *args: Any, **kwargs: Any) -> Tensor:
        """In-place version of ``bitwise_and``."""
    def bitwise_not_(self, *args: Any, **kwargs: Any) -> Tensor:
        """In-place version of ``bitwise_not``."""
    def bitwise_or_(self, *args: Any, **kwargs: Any) -> Tensor:
        """In-place version of ``bitwise_or``."""
    def bitwise_xor_(self, *args: Any, **kwargs: Any) -> Tensor:
        """In-place version of ``bitwise_xor``."""
    def ceil_(self, *args: Any, **kwargs: Any) -> Tensor:
        """In-place version of ``ceil``."""
    def cosh_(self, *args: Any, **kwargs: Any) -> Tensor:
        """In-place version of ``cosh``."""
    def cumsum_(self, *args: Any, **kwargs: Any) -> Tensor:
        """In-place version of ``cumsum``."""
    def digamma_(self, *args: Any, **kwargs: Any) -> Tensor:
        """In-place version of ``digamma``."""
    def divide_(self, *args: Any, **kwargs: Any) -> Tensor:
        """In-place version of ``divide``."""
    def eq_(self, *args: Any, **kwargs: Any) -> Tensor:
        """In-place version of ``eq``."""
    def erf_(self, *args: Any, **kwargs: Any) -> Tensor:
        """In-place version of ``erf``."""
    def erfinv_(self, *args: Any, **kwargs: Any) -> Tensor:
        """In-place version of ``erfinv``."""
    def exp2_(self, *args: Any, **kwargs: Any) -> Tensor:
        """In-place version of ``exp2``."""
    def expm1_(self, *args: Any, **kwargs: Any) -> Tensor:
        """In-place version of ``expm1``."""
    def floor_divide_(self, *args: Any, **kwargs: Any) -> Tensor:
        """In-place version of ``floor_divide``."""
    def fmod_(self, *args: Any, **kwargs: Any) -> Tensor:
        """In-place version of ``fmod``."""
    def ge_(self, *args: Any, **kwargs: Any) -> Tensor:
        """In-place version of ``ge``."""
    def greater_(self, *args: Any, **kwargs: Any) -> Tensor:
        """In-place version of ``greater``."""
    def greater_equal_(self, *args: Any, **kwargs: Any) -> Tensor:
        """In-place version of ``greater_equal``."""
    def gt_(self, *args: Any, **kwargs: Any) -> Tensor:
        """In-place version of ``gt``."""
    def le_(self, *args: Any, **kwargs: Any) -> Tensor:
        """In-place version of ``le``."""
    def less_(self, *args: Any, **kwargs: Any) -> Tensor:
        """In-place version of ``less``."""
    def less_equal_(self, *args: Any, **kwargs: Any) -> Tensor:
        """In-place version of ``less_equal``."""
    def lgamma_(self, *args: Any, **kwargs: Any) -> Tensor:
        """In-place version of ``lgamma``."""
    def log10_(self, *args: Any, **kwargs: Any) -> Tensor:
        """In-place version of ``log10``."""
    def log1p_(self, *args: Any, **kwargs: Any) -> Tensor:
        """In-place version of ``log1p``."""
    def log2_(self, *args: Any, **kwargs: Any) -> Tensor:
        """In-place version of ``log2``."""
    def logical_and_(self, *args: Any, **kwargs: Any) -> Tensor:
        """In-place version of ``logical_and``."""
    def logical_not_(self, *args: Any, **kwargs: Any) -> Tensor:
        """In-place version of ``logical_not``."""
    def logical_or_(self, *args: Any, **kwargs: Any) -> Tensor:
        """In-place version of ``logical_or``."""
    def logical_xor_(self, *args: Any, **kwargs: Any) -> Tensor:
        """In-place version of ``logical_xor``."""
    def logit_(self, *args: Any, **kwargs: Any) -> Tensor:
        """In-place version of ``logit``."""
    def lt_(self, *args: Any, **kwargs: Any) -> Tensor:
        """In-place version of ``lt``."""
    def multiply_(self, *args: Any, **kwargs: Any) -> Tensor:
        """In-place version of ``multiply``."""
    def ne_(self, *args: Any, **kwargs: Any) -> Tensor:
        """In-place version of ``ne``."""
    def negative_(self, *args: Any, **kwargs: Any) -> Tensor:
        """In-place version of ``negative``."""
    def not_equal_(self, *args: Any, **kwargs: Any) -> Tensor:
        """In-place version of ``not_equal``."""
    def remainder_(self, *args: Any, **kwargs: Any) -> Tensor:
        """In-place version of ``remainder``."""
    def round_(self, *args: Any, **kwargs: Any) -> Tensor:
        """In-place version of ``round``."""
    def rsqrt_(self, *args: Any, **kwargs: Any) -> Tensor:
        """In-place version of ``rsqrt``."""
    def sgn_(self, *args: Any, **kwargs: Any) -> Tensor:
        """In-place version of ``sgn``."""
    def sign_(self, *args: Any, **kwargs: Any) -> Tensor:
        """In-place version of ``sign``."""
    def sinh_(self, *args: Any, **kwargs: Any) -> Tensor:
        """In-place version of ``sinh``."""
    def square_(self, *args: Any, **kwargs: Any) -> Tensor:
        """In-place version of ``square``."""
    def subtract_(self, *args: Any, **kwargs: Any) -> Tensor:
        """In-place version of ``subtract``."""
    def tan_(self, *args: Any, **kwargs: Any) -> Tensor:
        """In-place version of ``tan``."""
    def true_divide_(self, *args: Any, **kwargs: Any) -> Tensor:
        """In-place version of ``true_divide``."""
    def trunc_(self, *args: Any, **kwargs: Any) -> Tensor:
        """In-place version of ``trunc``."""
    def xlogy_(self, *args: Any, **kwargs: Any) -> Tensor:
        """In-place version of ``xlogy``."""
    def unfold(self, dimension: _int, size: _int, step: _int) -> Tensor:
        """A view of the windows of ``size`` elements every ``step`` along ``dimension``."""
    def scatter_reduce(self, dim: _int, index: Tensor, src: Tensor, reduce: str, *, include_self: builtins.bool = True) -> Tensor:
        """``self`` with ``src``'s values combined by ``reduce``."""
    def scatter_reduce_(self, dim: _int, index: Tensor, src: Tensor, reduce: str, *, include_self: builtins.bool = True) -> Tensor:
        """In-place version of ``scatter_reduce``."""
    def scatter(self, dim: _int, index: Tensor, src: Optional[Union[Tensor, _Number]] = None, value: Optional[_Number] = None, *, reduce: Optional[str] = None) -> Tensor:
        """``self`` with ``src`` (a tensor) or ``value`` (a number) written at the positions
        ``index`` names along ``dim``; ``reduce="add"`` adds instead."""
    def scatter_(self, dim: _int, index: Tensor, src: Optional[Union[Tensor, _Number]] = None, value: Optional[_Number] = None, *, reduce: Optional[str] = None) -> Tensor:
        """In-place version of ``scatter``."""
    def addr(self, vec1: Any, vec2: Any, *, beta: Any = 1, alpha: Any = 1, out: Any = None) -> Tensor:
        """``beta * input + alpha * outer(vec1, vec2)``."""
    def arccos(self) -> Tensor:
        """Alias for ``acos``."""
    def arccos_(self, *args: Any, **kwargs: Any) -> Tensor:
        """In-place version of ``arccos``."""
    def arcsin(self) -> Tensor:
        """Alias for ``asin``."""
    def arcsin_(self, *args: Any, **kwargs: Any) -> Tensor:
        """In-place version of ``arcsin``."""
    def arctan(self) -> Tensor:
        """Alias for ``atan``."""
    def arctan_(self, *args: Any, **kwargs: Any) -> Tensor:
        """In-place version of ``arctan``."""
    def argwhere(self) -> Tensor:
        """The indices of the non-zero elements, one row each (``nonzero``)."""
    def copysign(self, other: Any, *, out: Any = None) -> Tensor:
        """The magnitudes of ``self`` with the signs of ``other`` (integers give floats)."""
    def copysign_(self, *args: Any, **kwargs: Any) -> Tensor:
        """In-place version of ``copysign``."""
    def deg2rad(self, *, out: Any = None) -> Tensor:
        """The elements converted from degrees to radians."""
    def deg2rad_(self, *args: Any, **kwargs: Any) -> Tensor:
        """In-place version of ``deg2rad``."""
    def diagflat(self, offset: Any = 0) -> Tensor:
        """The square matrix with the flattened ``input`` on diagonal ``offset``."""
    def diagonal_scatter(self, src: Any, offset: Any = 0, dim1: Any = 0, dim2: Any = 1) -> Tensor:
        """``input`` with the diagonal ``offset`` of ``dim1``/``dim2`` replaced by ``src``."""
    def dist(self, other: Any, p: Any = 2) -> Tensor:
        """The ``p``-norm of ``input - other``."""
    def dsplit(self, indices_or_sections: Any) -> Any:
        """``tensor_split`` along dim 2 of a tensor with at least 3 dims."""
    def erfc(self, *, out: Any = None) -> Tensor:
        """The complementary error function ``1 - erf(x)`` of the elements (accurate where erf is near 1)."""
    def erfc_(self, *args: Any, **kwargs: Any) -> Tensor:
        """In-place version of ``erfc``."""
    def fix(self, *, out: Any = None) -> Tensor:
        """Alias for ``trunc``."""
    def fix_(self, *args: Any, **kwargs: Any) -> Tensor:
        """In-place version of ``fix``."""
    def float_power(self, exponent: Any) -> Tensor:
        """``input ** exponent`` computed in double precision (complex128 for complex operands)."""
    def float_power_(self, exponent: Any) -> Tensor:
        """In-place ``float_power``: ``self`` must already be double (complex128 for complex)."""
    def frac(self, *, out: Any = None) -> Tensor:
        """The fractional parts ``x - trunc(x)`` of the elements (floating tensors only)."""
    def frac_(self, *args: Any, **kwargs: Any) -> Tensor:
        """In-place version of ``frac``."""
    def heaviside(self, other: Any, *, out: Any = None) -> Tensor:
        """The Heaviside step function: 0 below 0, 1 above, ``values`` where ``self`` is 0."""
    def heaviside_(self, *args: Any, **kwargs: Any) -> Tensor:
        """In-place version of ``heaviside``."""
    def hsplit(self, indices_or_sections: Any) -> Any:
        """``tensor_split`` along dim 1 (dim 0 for 1-d tensors)."""
    def hypot(self, other: Any, *, out: Any = None) -> Tensor:
        """``sqrt(self ** 2 + other ** 2)`` element-wise, without intermediate overflow."""
    def resize_(self, *sizes: Any, memory_format: Any = None) -> Tensor:
        """Resize in place to ``sizes`` (contiguous strides), reading the storage from the offset."""
    def resize_as_(self, the_template: Tensor, *, memory_format: Any = None) -> Tensor:
        """``self.resize_(the_template.shape)``."""
    def dim_order(self, *, ambiguity_check: Any = False) -> tuple[builtins.int, ...]:
        """The dims from the outermost in memory to the innermost."""
    def const_data_ptr(self) -> builtins.int:
        """The address of the first element (``data_ptr``)."""
    def igamma(self, other: Tensor) -> Tensor:
        """The regularized lower incomplete gamma function."""
    def igammac(self, other: Tensor) -> Tensor:
        """The regularized upper incomplete gamma function."""
    def nonzero_static(self, *, size: builtins.int, fill_value: builtins.int = -1) -> Tensor:
        """``nonzero()`` with exactly ``size`` rows."""
    def swapaxes_(self, axis0: builtins.int, axis1: builtins.int) -> Tensor:
        """In-place ``swapaxes`` (``transpose_``)."""
    def swapdims_(self, dim0: builtins.int, dim1: builtins.int) -> Tensor:
        """In-place ``swapdims`` (``transpose_``)."""
    def arcsinh_(self, *args: Any, **kwargs: Any) -> Tensor:
        """In-place ``arcsinh``."""
    def arccosh_(self, *args: Any, **kwargs: Any) -> Tensor:
        """In-place ``arccosh``."""
    def arctanh_(self, *args: Any, **kwargs: Any) -> Tensor:
        """In-place ``arctanh``."""
    def gcd_(self, *args: Any, **kwargs: Any) -> Tensor:
        """In-place version of ``gcd``."""
    def lcm_(self, *args: Any, **kwargs: Any) -> Tensor:
        """In-place version of ``lcm``."""
    def ldexp_(self, *args: Any, **kwargs: Any) -> Tensor:
        """In-place version of ``ldexp``."""
    def addr_(self, *args: Any, **kwargs: Any) -> Tensor:
        """In-place version of ``addr``."""
    def addbmm_(self, *args: Any, **kwargs: Any) -> Tensor:
        """In-place version of ``addbmm``."""
    def bitwise_left_shift_(self, *args: Any, **kwargs: Any) -> Tensor:
        """In-place version of ``bitwise_left_shift``."""
    def bitwise_right_shift_(self, *args: Any, **kwargs: Any) -> Tensor:
        """In-place version of ``bitwise_right_shift``."""
    def conj_physical_(self, *args: Any, **kwargs: Any) -> Tensor:
        """In-place version of ``conj_physical``."""
    def igamma_(self, *args: Any, **kwargs: Any) -> Tensor:
        """In-place version of ``igamma``."""
    def igammac_(self, *args: Any, **kwargs: Any) -> Tensor:
        """In-place version of ``igammac``."""
    def hypot_(self, *args: Any, **kwargs: Any) -> Tensor:
        """In-place version of ``hypot``."""
    def index_copy(self, dim: Any, index: Any, source: Any) -> Tensor:
        """``self`` with its slices at ``index`` along ``dim`` replaced by ``source``'s."""
    def index_copy_(self, dim: Any, index: Any, source: Any) -> Tensor:
        """In-place version of ``index_copy``."""
    def index_fill(self, dim: Any, index: Any, value: Any) -> Tensor:
        """``self`` with its slices at ``index`` along ``dim`` set to ``value`` (a number or a
        0-dim tensor)."""
    def index_fill_(self, dim: Any, index: Any, value: Any) -> Tensor:
        """In-place version of ``index_fill``."""
    def inner(self, other: Any, *, out: Any = None) -> Tensor:
        """The inner product over the last dims (a product for a number operand)."""
    def logaddexp(self, other: Any, *, out: Any = None) -> Tensor:
        """``log(exp(self) + exp(other))`` element-wise, computed stably."""
    def logaddexp2(self, other: Any, *, out: Any = None) -> Tensor:
        """``log2(2 ** self + 2 ** other)`` element-wise, computed stably."""
    def masked_scatter(self, mask: Any, source: Any) -> Tensor:
        """``self`` with the places where ``mask`` is true filled from ``source`` in row-major order."""
    def masked_scatter_(self, mask: Any, source: Any) -> Tensor:
        """In-place version of ``masked_scatter``."""
    def mode(self, dim: Any = -1, keepdim: Any = False) -> Any:
        """The most frequent value along ``dim`` (the smallest among ties) and the index of its
        last occurrence."""
    def nanmean(self, dim: Any = None, keepdim: Any = False, *, dtype: Any = None) -> Tensor:
        """The mean over ``dim`` of the elements that are not NaN (``nansum / count``)."""
    def nanquantile(self, q: Any, dim: Any = None, keepdim: Any = False, *, interpolation: Any = 'linear', out: Any = None) -> Tensor:
        """``quantile`` ignoring NaNs (NaN only where a row is all NaN)."""
    def nansum(self, dim: Any = None, keepdim: Any = False, *, dtype: Any = None) -> Tensor:
        """The sum of all elements, or over ``dim``, treating NaNs as zero."""
    def narrow_copy(self, dim: Any, start: Any, length: Any) -> Tensor:
        """A copy of ``input.narrow(dim, start, length)``."""
    def nextafter(self, other: Any, *, out: Any = None) -> Tensor:
        """The next floating-point value after each element of ``self`` towards ``other``."""
    def nextafter_(self, *args: Any, **kwargs: Any) -> Tensor:
        """In-place version of ``nextafter``."""
    def put(self, index: Any, source: Any, accumulate: Any = False) -> Tensor:
        """``self`` with ``source`` written (or added, ``accumulate=True``) at the flat indices ``index``."""
    def put_(self, index: Any, source: Any, accumulate: Any = False) -> Tensor:
        """In-place version of ``put``."""
    def quantile(self, q: Any, dim: Any = None, keepdim: Any = False, *, interpolation: Any = 'linear', out: Any = None) -> Tensor:
        """The ``q``-th quantiles of ``input`` (over ``dim``, or all elements), interpolated as
        ``interpolation`` says; NaN where a row holds a NaN."""
    def rad2deg(self, *, out: Any = None) -> Tensor:
        """The elements converted from radians to degrees."""
    def rad2deg_(self, *args: Any, **kwargs: Any) -> Tensor:
        """In-place version of ``rad2deg``."""
    def renorm(self, p: Any, dim: Any, maxnorm: Any) -> Tensor:
        """Each slice along ``dim`` rescaled so its ``p``-norm is at most ``maxnorm``."""
    def renorm_(self, *args: Any, **kwargs: Any) -> Tensor:
        """In-place version of ``renorm``."""
    def select_scatter(self, src: Any, dim: Any, index: Any) -> Tensor:
        """``input`` with ``input.select(dim, index)`` replaced by ``src`` (out of place)."""
    def sinc(self, *, out: Any = None) -> Tensor:
        """The normalised sinc ``sin(pi x) / (pi x)`` of the elements (1 at 0)."""
    def sinc_(self, *args: Any, **kwargs: Any) -> Tensor:
        """In-place version of ``sinc``."""
    def slice_scatter(self, src: Any, dim: Any = 0, start: Any = None, end: Any = None, step: Any = 1) -> Tensor:
        """``input`` with the slice ``start:end:step`` along ``dim`` replaced by ``src``."""
    def split_with_sizes(self, split_sizes: Any, dim: Any = 0) -> Any:
        """``input`` split into pieces of the given sizes along ``dim``."""
    def take(self, index: Any) -> Tensor:
        """The elements at the flat indices ``index`` (as if ``self`` were 1-d), shaped like ``index``."""
    def unique_consecutive(self, return_inverse: Any = False, return_counts: Any = False, dim: Any = None) -> Any:
        """``input`` with runs of equal consecutive elements reduced to one (flattened unless
        ``dim``), with the inverse indices and run lengths on request."""
    def vsplit(self, indices_or_sections: Any) -> Any:
        """``tensor_split`` along dim 0 of a tensor with at least 2 dims."""
    def bitwise_left_shift(self, other: Any) -> Tensor:
        """``input << other`` element-wise (integers; shifts past the width give 0)."""
    def bitwise_right_shift(self, other: Any) -> Tensor:
        """``input >> other`` element-wise (arithmetic shift of integers)."""
    def corrcoef(self) -> Tensor:
        """The Pearson correlation coefficients of the variables in the rows of ``input`` (clamped
        to [-1, 1])."""
    def cov(self, *, correction: Any = 1, fweights: Any = None, aweights: Any = None) -> Tensor:
        """The covariance matrix of the variables in the rows of ``input`` (observations in the
        columns), with frequency and/or observation weights."""
    def frexp(self) -> Tensor:
        """Mantissa in (-1, 1) and integer exponent with ``input = mantissa * 2 ** exponent``."""
    def gcd(self, other: Any) -> Tensor:
        """The greatest common divisors (non-negative) of integer tensors."""
    def histogram(self, bins: Any = 100, *, range: Any = None, weight: Any = None, density: Any = False, out: Any = None) -> Tensor:
        """Counts of ``input``'s elements in ``bins`` equal bins over ``range`` (the data's by
        default) or between the given bin edges; ``(hist, bin_edges)``."""
    def isreal(self) -> Tensor:
        """Whether each element is real (a complex one with zero imaginary part counts)."""
    def lcm(self, other: Any) -> Tensor:
        """The least common multiples (non-negative) of integer tensors."""
    def ldexp(self, other: Any) -> Tensor:
        """``input * 2 ** other``."""
    def signbit(self) -> Tensor:
        """Whether the sign bit of each element is set (true for -0.0 and negative NaNs)."""
    def i0(self) -> Tensor:
        """``Tensor.i0()``: the modified Bessel function of the first kind of order 0."""
    def i0_(self) -> Tensor:
        """``Tensor.i0_()``: ``i0`` in place."""
    def mvlgamma(self, p: Any) -> Tensor:
        """``Tensor.mvlgamma(p)``: the multivariate log-gamma of dimension ``p``."""
    def mvlgamma_(self, p: Any) -> Tensor:
        """``Tensor.mvlgamma_(p)``: ``mvlgamma`` in place."""
    def polygamma(self, n: Any) -> Tensor:
        """``Tensor.polygamma(n)``: the ``n``-th derivative of digamma."""
    def polygamma_(self, n: Any) -> Tensor:
        """``Tensor.polygamma_(n)``: ``polygamma`` in place."""
    def fill_diagonal_(self, fill_value: Any, wrap: Any = False) -> Tensor:
        """Fill the main diagonal of a 2-d tensor (or of one whose dims are all equal) with
        ``fill_value`` in place; ``wrap=True`` restarts the diagonal below a tall matrix's square
        part every ``columns + 1`` rows, as NumPy's ``fill_diagonal``."""
    def index_reduce(self, dim: _int, index: Tensor, source: Tensor, reduce: str, *, include_self: builtins.bool = True) -> Tensor:
        """Reduce the slices of ``source`` along ``dim`` into those of ``self`` named by ``index``."""
    def index_reduce_(self, dim: _int, index: Tensor, source: Tensor, reduce: str, *, include_self: builtins.bool = True) -> Tensor:
        """In-place ``index_reduce``."""
    def index_add(self, dim: _int, index: Tensor, source: Tensor, *, alpha: Optional[_Number] = None) -> Tensor:
        """``self`` with ``alpha * source`` added at the rows ``index`` names along ``dim``."""
    def index_add_(self, dim: _int, index: Tensor, source: Tensor, *, alpha: Optional[_Number] = None) -> Tensor:
        """In-place version of ``index_add``."""
    def diagonal(self, offset: _int = 0, dim1: _int = 0, dim2: _int = 1) -> Tensor:
        """The diagonal ``offset`` of dims ``dim1``, ``dim2`` as the last dim of a view."""
    def diag_embed(self, offset: _int = 0, dim1: _int = -2, dim2: _int = -1) -> Tensor:
        """Zeros with the last dim on the diagonal ``offset`` of two new dims ``dim1``, ``dim2``."""
    def diag(self, diagonal: _int = 0) -> Tensor:
        """A vector onto the diagonal of a square matrix, or a matrix's diagonal (a copy)."""
    def trace(self) -> Tensor:
        """The sum of a matrix's diagonal."""
    def tril(self, diagonal: _int = 0) -> Tensor:
        """The lower triangle of the last two dims (``j - i <= diagonal``), the rest zero."""
    def triu(self, diagonal: _int = 0) -> Tensor:
        """The upper triangle of the last two dims (``j - i >= diagonal``), the rest zero."""
    def tril_(self, diagonal: _int = 0) -> Tensor:
        """In-place version of ``tril``."""
    def triu_(self, diagonal: _int = 0) -> Tensor:
        """In-place version of ``triu``."""
    def roll(self, shifts: Union[_int, Sequence[_int]], dims: Optional[Union[_int, Sequence[_int]]] = None) -> Tensor:
        """Shift the elements along ``dims`` by ``shifts``, wrapping around (the flattened
        tensor without ``dims``)."""
    def asinh(self, *, out: Optional[Tensor] = None) -> Tensor:
        """The inverse hyperbolic sine of the elements."""
    def acosh(self, *, out: Optional[Tensor] = None) -> Tensor:
        """The inverse hyperbolic cosine of the elements (NaN below 1)."""
    def atanh(self, *, out: Optional[Tensor] = None) -> Tensor:
        """The inverse hyperbolic tangent of the elements (±inf at ±1, NaN beyond)."""
    def arcsinh(self, *, out: Optional[Tensor] = None) -> Tensor:
        """Alias for ``asinh``."""
    def arccosh(self, *, out: Optional[Tensor] = None) -> Tensor:
        """Alias for ``acosh``."""
    def arctanh(self, *, out: Optional[Tensor] = None) -> Tensor:
        """Alias for ``atanh``."""
    def lgamma(self, *, out: Optional[Tensor] = None) -> Tensor:
        """``ln |Γ(x)|`` of the elements."""
    def digamma(self, *, out: Optional[Tensor] = None) -> Tensor:
        """The digamma function ``ψ(x) = d/dx ln Γ(x)`` of the elements."""
    def bfloat16(self) -> Tensor:
        """``self.to(torch.bfloat16)``."""
    def inverse(self, *, out: Optional[Tensor] = None) -> Tensor:
        """``torch.inverse``: ``linalg.inv``."""
    def det(self) -> Tensor:
        """``torch.det``: ``linalg.det``."""
    def logdet(self) -> Tensor:
        """``torch.logdet``: log det, NaN for a negative determinant (WhereBackward0)."""
    def slogdet(self) -> Any:
        """``torch.slogdet`` / ``Tensor.slogdet``: ``torch.return_types.slogdet``."""
    def cholesky(self, upper: builtins.bool = False, *, out: Optional[Tensor] = None) -> Tensor:
        """``torch.cholesky`` (deprecated; CholeskyBackward0)."""
    def cholesky_inverse(self, upper: builtins.bool = False, *, out: Optional[Tensor] = None) -> Tensor:
        """``torch.cholesky_inverse(L)``: ``(L Lᵀ)⁻¹`` from the Cholesky factor's triangle."""
    def cholesky_solve(self, input2: Tensor, upper: builtins.bool = False, *, out: Optional[Tensor] = None) -> Tensor:
        """``torch.cholesky_solve(B, L)``: X with ``L Lᵀ X = B`` (CholeskySolveBackward0)."""
    def qr(self, some: builtins.bool = True, *, out: Optional[Any] = None) -> Any:
        """``torch.qr`` (deprecated): ``linalg.qr`` in mode 'reduced' or 'complete'."""
    def svd(self, some: builtins.bool = True, compute_uv: builtins.bool = True, *, out: Optional[Any] = None) -> Any:
        """``torch.svd``: U, S and V (not Vh); without ``compute_uv``, zero U and V."""
    def pinverse(self, rcond: builtins.float = 1e-15) -> Tensor:
        """``torch.pinverse``: ``linalg.pinv`` with ``rtol = rcond``."""
    def matrix_power(self, n: _int) -> Tensor:
        """``torch.matrix_power``: ``linalg.matrix_power``."""
    def matrix_exp(self) -> Tensor:
        """``torch.matrix_exp``: ``linalg.matrix_exp``."""
    def movedim(self, source: Union[_int, Sequence[_int]], destination: Union[_int, Sequence[_int]]) -> Tensor:
        """The dims ``source`` moved to ``destination``, the rest in order (a permuted view)."""
    def moveaxis(self, source: Union[_int, Sequence[_int]], destination: Union[_int, Sequence[_int]]) -> Tensor:
        """Alias for ``movedim``."""
    def unflatten(self, dim: _int, sizes: Sequence[_int]) -> Tensor:
        """``dim`` expanded into ``sizes`` (one may be -1), as a view."""
    def tensor_split(self, indices_or_sections: Union[_int, Sequence[_int], Tensor], dim: _int = 0) -> Tuple[Tensor, ...]:
        """``n`` near-equal parts (the first ``size % n`` one longer) or the pieces between
        the given indices, as views."""
    def repeat_interleave(self, repeats: Optional[Union[_int, Tensor]] = None, dim: Optional[_int] = None, *, output_size: Optional[_int] = None) -> Tensor:
        """Each element (or slice along ``dim``) repeated ``repeats`` times (a number, or one
        count per element)."""
    def masked_select(self, mask: Tensor) -> Tensor:
        """The elements where ``mask`` (broadcast with ``self``) is True, as a 1-d tensor."""
    def nan_to_num(self, nan: _float = 0.0, posinf: Optional[_float] = None, neginf: Optional[_float] = None) -> Tensor:
        """NaN, +inf and -inf replaced (by 0 and the dtype's largest and lowest finite values
        unless given)."""
    def bincount(self, weights: Optional[Tensor] = None, minlength: _int = 0) -> Tensor:
        """The count (or the summed ``weights``) of each value of this 1-d non-negative int tensor."""
    def histc(self, bins: _int = 100, min: _Number = 0, max: _Number = 0) -> Tensor:
        """A histogram of ``bins`` equal-width bins between ``min`` and ``max``."""
    def take_along_dim(self, indices: Tensor, dim: Optional[_int] = None) -> Tensor:
        """The elements at ``indices`` along ``dim`` (of the flattened tensor when ``dim`` is None)."""
    def unique(self, sorted: _bool = True, return_inverse: _bool = False, return_counts: _bool = False, dim: Optional[_int] = None) -> Any:
        """The distinct elements (or slices along ``dim``), sorted, with the inverse indices
        and counts on request."""
    def index_select(self, dim: _int, index: Tensor) -> Tensor:
        """The entries at ``index`` (a 1-d int64 tensor) along ``dim``."""
    def masked_fill(self, mask: Tensor, value: Union[Tensor, _Number]) -> Tensor:
        """Fill the elements where ``mask`` (bool, broadcastable) is ``True`` with ``value``."""
    def masked_fill_(self, mask: Tensor, value: Union[Tensor, _Number]) -> Tensor:
        """In-place version of ``masked_fill``."""
    def index_put_(self, indices: Union[Tuple[Optional[Tensor], ...], list[Optional[Tensor]]], values: Tensor, accumulate: _bool = False) -> Tensor:
        """Writes ``values`` at ``indices`` (a tuple of index tensors, as ``x[indices] = values``),
        or adds them there with ``accumulate=True``."""
    def index_put(self, indices: Union[Tuple[Optional[Tensor], ...], list[Optional[Tensor]]], values: Tensor, accumulate: _bool = False) -> Tensor:
        """Out-of-place version of ``index_put_``."""
    @overload
    def nonzero(self, *, as_tuple: Literal[False] = False) -> Tensor:
        """The indices of the non-zero elements: one row per element (shape ``(n, dim)``), or
        with ``as_tuple=True`` one 1-d tensor per dimension (as ``torch.where(x)``)."""
    @overload
    def nonzero(self, *, as_tuple: Literal[True]) -> Tuple[Tensor, ...]: ...
    def where(self, condition: Tensor, other: Union[Tensor, _Number]) -> Tensor:
        """``torch.where(condition, self, other)``."""
    def where_(self, condition: Tensor, other: Union[Tensor, _Number]) -> Tensor:
        """The implementation of ``where`` (not in-place, despite its name)."""
    def copy_(self, other: Tensor, non_blocking: _bool = False) -> Tensor:
        """Copy the elements of ``other`` (broadcastable, any dtype) into ``self``; returns ``self``."""
    def fill_(self, value: Union[Tensor, _Number]) -> Tensor:
        """Fill the tensor with ``value``, in place."""
    def zero_(self) -> Tensor:
        """Fill the tensor with zeros, in place."""

    # ---- random sampling in place (PyTorch's CPU streams, value for value) -----------------------
    def uniform_(self, a: _float = 0.0, b: _float = 1.0, *, generator: Optional[Generator] = None) -> Tensor:
        """Fill with numbers sampled from the continuous uniform distribution on ``[a, b)``."""
    def normal_(self, mean: _float = 0.0, std: _float = 1.0, *, generator: Optional[Generator] = None) -> Tensor:
        """Fill with numbers sampled from the normal distribution ``N(mean, std**2)``."""
    def exponential_(self, lambd: _float = 1.0, *, generator: Optional[Generator] = None) -> Tensor:
        """Fill with numbers drawn from the exponential distribution with rate ``lambd``."""
    def vdot(self, other: Any) -> Tensor:
        """``torch.vdot(self, ...)``."""
    def msort(self) -> Tensor:
        """``torch.msort(self, ...)``."""
    def adjoint(self) -> Tensor:
        """``torch.adjoint(self, ...)``."""
    def fmax(self, other: Any) -> Tensor:
        """``torch.fmax(self, ...)``."""
    def fmin(self, other: Any) -> Tensor:
        """``torch.fmin(self, ...)``."""
    def isposinf(self) -> Tensor:
        """``torch.isposinf(self, ...)``."""
    def isneginf(self) -> Tensor:
        """``torch.isneginf(self, ...)``."""
    def addbmm(self, batch1: Any, batch2: Any, *, beta: Any = ..., alpha: Any = ...) -> Tensor:
        """``torch.addbmm(self, ...)``."""
    def sum_to_size(self, *size: Any) -> Tensor:
        """``self`` summed down to ``size`` (dims where ``size`` is 1 are summed, keeping them)."""
    def apply_(self, callable: Any) -> Tensor:
        """Replace every element ``v`` by ``callable(v)`` (a Python function; CPU tensors)."""
    def new_empty_strided(self, size: Any, stride: Any, *, dtype: Any = ..., layout: Any = ..., device: Any = ..., pin_memory: Any = ..., requires_grad: Any = ...) -> Tensor:
        """An uninitialised tensor of ``size`` and ``stride`` (``self``'s dtype and device by default)."""
    def as_subclass(self, cls: Any) -> Tensor:
        """``self``'s data viewed as an instance of the Tensor subclass ``cls`` (no copy)."""
    def nan_to_num_(self, nan: Any = ..., posinf: Any = ..., neginf: Any = ...) -> Tensor:
        """In-place ``nan_to_num``."""
    def prelu(self, weight: Any) -> Tensor:
        """``torch.prelu(self, ...)``."""
    def hardshrink(self, lambd: Any = ...) -> Tensor:
        """``torch.hardshrink(self, ...)``."""
    def triangular_solve(self, A: Any, upper: Any = ..., transpose: Any = ..., unitriangular: Any = ...) -> Any:
        """``torch.triangular_solve(self, ...)``."""
    def cauchy_(self, median: _float = 0.0, sigma: _float = 1.0, *, generator: Optional[Generator] = None) -> Tensor:
        """Fill with numbers drawn from the Cauchy distribution with ``median`` and scale ``sigma``."""
    def log_normal_(self, mean: _float = 1.0, std: _float = 2.0, *, generator: Optional[Generator] = None) -> Tensor:
        """Fill with numbers drawn from the log-normal distribution whose logarithm has ``mean``
        and standard deviation ``std``."""
    def geometric_(self, p: _float, *, generator: Optional[Generator] = None) -> Tensor:
        """Fill with the number of Bernoulli(``p``) trials up to the first success (1, 2, ...)."""
    @overload
    def random_(self, *, generator: Optional[Generator] = None) -> Tensor: ...
    @overload
    def random_(self, to: _int, *, generator: Optional[Generator] = None) -> Tensor: ...
    @overload
    def random_(self, from_: _int, to: Optional[_int], *, generator: Optional[Generator] = None) -> Tensor:
        """``random_()``, ``random_(to)``, ``random_(from, to)``: fill with integers sampled
        uniformly from ``[from, to - 1]`` (by default the range of the dtype's mantissa or values)."""
    def bernoulli(self, p: Optional[_float] = None, *, generator: Optional[Generator] = None) -> Tensor:
        """Draw binary random numbers (0 or 1) with probabilities ``self`` (or ``p``)."""
    def bernoulli_(self, p: Union[_float, Tensor, None] = None, *, generator: Optional[Generator] = None) -> Tensor:
        """Fill with draws from Bernoulli(``p``), in place."""
    def multinomial(self, num_samples: _int, replacement: _bool = False, *, generator: Optional[Generator] = None) -> Tensor:
        """Indices sampled from the multinomial distribution given by the rows of ``self``."""

    # ---- element-wise math -----------------------------------------------------------------------
    def abs(self, *, out: Optional[Tensor] = None) -> Tensor:
        """Computes the absolute value of each element."""
    def abs_(self) -> Tensor:
        """In-place version of ``abs``."""
    def neg(self, *, out: Optional[Tensor] = None) -> Tensor:
        """Returns the negative of the elements."""
    def neg_(self) -> Tensor:
        """In-place version of ``neg``."""
    def negative(self, *, out: Optional[Tensor] = None) -> Tensor:
        """Alias for ``neg``."""
    def sign(self, *, out: Optional[Tensor] = None) -> Tensor:
        """The signs (-1, 0, 1) of the elements."""
    def conj(self, *, out: Optional[Tensor] = None) -> Tensor:
        """The complex conjugate (a real tensor is returned as is)."""
    def conj_physical(self, *, out: Optional[Tensor] = None) -> Tensor:
        """The complex conjugate, computed (ferrograd's ``conj`` is never lazy)."""
    def resolve_conj(self, *, out: Optional[Tensor] = None) -> Tensor:
        """The tensor itself: ferrograd has no lazy conjugate bit to resolve."""
    def resolve_neg(self, *, out: Optional[Tensor] = None) -> Tensor:
        """The tensor itself: ferrograd has no lazy negation bit to resolve."""
    def angle(self, *, out: Optional[Tensor] = None) -> Tensor:
        """The argument (phase) of the elements: ``atan2(imag, real)``; 0 or pi for real tensors."""
    def sgn(self, *, out: Optional[Tensor] = None) -> Tensor:
        """``z / |z|`` for complex tensors (0 at 0); ``sign`` for real ones."""
    def reciprocal(self, *, out: Optional[Tensor] = None) -> Tensor:
        """The reciprocal ``1 / x`` of the elements."""
    def reciprocal_(self) -> Tensor:
        """In-place version of ``reciprocal``."""
    def exp(self, *, out: Optional[Tensor] = None) -> Tensor:
        """The exponential of the elements."""
    def exp_(self) -> Tensor:
        """In-place version of ``exp``."""
    def expm1(self, *, out: Optional[Tensor] = None) -> Tensor:
        """``exp(x) - 1`` of the elements, accurate near 0."""
    def log(self, *, out: Optional[Tensor] = None) -> Tensor:
        """The natural logarithm of the elements."""
    def log_(self) -> Tensor:
        """In-place version of ``log``."""
    def log1p(self, *, out: Optional[Tensor] = None) -> Tensor:
        """``log(1 + x)`` of the elements, accurate near 0."""
    def log2(self, *, out: Optional[Tensor] = None) -> Tensor:
        """The logarithm to the base 2 of the elements."""
    def log10(self, *, out: Optional[Tensor] = None) -> Tensor:
        """The logarithm to the base 10 of the elements."""
    def sqrt(self, *, out: Optional[Tensor] = None) -> Tensor:
        """The square root of the elements."""
    def sqrt_(self) -> Tensor:
        """In-place version of ``sqrt``."""
    def rsqrt(self, *, out: Optional[Tensor] = None) -> Tensor:
        """The reciprocal of the square root of the elements."""
    def square(self, *, out: Optional[Tensor] = None) -> Tensor:
        """The square of the elements."""
    def pow(self, exponent: _TensorOrNumber, *, out: Optional[Tensor] = None) -> Tensor:
        """Takes the power of each element with ``exponent`` (a number or a broadcastable tensor)."""
    def pow_(self, other: _TensorOrNumber) -> Tensor:
        """In-place version of ``pow``."""
    def sin(self, *, out: Optional[Tensor] = None) -> Tensor:
        """The sine of the elements."""
    def sin_(self) -> Tensor:
        """In-place version of ``sin``."""
    def cos(self, *, out: Optional[Tensor] = None) -> Tensor:
        """The cosine of the elements."""
    def cos_(self) -> Tensor:
        """In-place version of ``cos``."""
    def tan(self, *, out: Optional[Tensor] = None) -> Tensor:
        """The tangent of the elements."""
    def asin(self, *, out: Optional[Tensor] = None) -> Tensor:
        """The arcsine of the elements."""
    def acos(self, *, out: Optional[Tensor] = None) -> Tensor:
        """The arccosine of the elements."""
    def atan(self, *, out: Optional[Tensor] = None) -> Tensor:
        """The arctangent of the elements."""
    def atan2(self, other: Tensor, *, out: Optional[Tensor] = None) -> Tensor:
        """Element-wise arctangent of ``self / other`` with the quadrant taken into account."""
    def arctan2(self, other: Tensor, *, out: Optional[Tensor] = None) -> Tensor:
        """Alias for ``atan2``."""
    def sinh(self, *, out: Optional[Tensor] = None) -> Tensor:
        """The hyperbolic sine of the elements."""
    def cosh(self, *, out: Optional[Tensor] = None) -> Tensor:
        """The hyperbolic cosine of the elements."""
    def tanh(self, *, out: Optional[Tensor] = None) -> Tensor:
        """The hyperbolic tangent of the elements."""
    def tanh_(self) -> Tensor:
        """In-place version of ``tanh``."""
    def sigmoid(self, *, out: Optional[Tensor] = None) -> Tensor:
        """The logistic sigmoid ``1 / (1 + exp(-x))`` of the elements."""
    def sigmoid_(self) -> Tensor:
        """In-place version of ``sigmoid``."""
    def relu(self, *, out: Optional[Tensor] = None) -> Tensor:
        """Rectified linear unit ``max(0, x)`` element-wise."""
    def relu_(self) -> Tensor:
        """In-place version of ``relu``."""
    def erf(self, *, out: Optional[Tensor] = None) -> Tensor:
        """The error function of the elements."""
    def exp2(self, *, out: Optional[Tensor] = None) -> Tensor:
        """``2 ** x`` of the elements."""
    def kron(self, other: Tensor, *, out: Optional[Tensor] = None) -> Tensor:
        """The Kronecker product of ``self`` and ``other`` (the block tensor of ``self[i] * other``)."""
    def erfinv(self, *, out: Optional[Tensor] = None) -> Tensor:
        """The inverse error function of the elements (±inf at ±1, NaN beyond)."""
    def logit(self, eps: Optional[_float] = None) -> Tensor:
        """``log(p / (1 - p))`` of the elements, with ``p`` clamped to ``[eps, 1 - eps]`` when
        ``eps`` is given."""
    def xlogy(self, other: Union[Tensor, _Number]) -> Tensor:
        """``self * log(other)``, 0 where ``self`` is 0 (unless ``other`` is NaN)."""
    def cross(self, other: Tensor, dim: Optional[_int] = None) -> Tensor:
        """The cross product of 3-vectors along ``dim`` (without ``dim``: the first dim of
        length 3, with PyTorch's deprecation warning), the other dims broadcast."""
    def floor(self, *, out: Optional[Tensor] = None) -> Tensor:
        """The floor of the elements (the largest integer less than or equal to each)."""
    def floor_(self) -> Tensor:
        """In-place version of ``floor``."""
    def ceil(self, *, out: Optional[Tensor] = None) -> Tensor:
        """The ceiling of the elements (the smallest integer greater than or equal to each)."""
    def trunc(self, *, out: Optional[Tensor] = None) -> Tensor:
        """The elements rounded towards zero."""
    def round(self, *, decimals: Optional[_int] = None, out: Optional[Tensor] = None) -> Tensor:
        """The elements rounded to the nearest integer (half to even), or to ``decimals`` places."""
    def clamp(self, min: Union[_Number, Tensor, None] = None, max: Union[_Number, Tensor, None] = None) -> Tensor:
        """Clamp all elements into the range ``[min, max]`` (numbers or broadcastable tensors)."""
    def clamp_min_(self, min: Union[Tensor, _Number]) -> Tensor:
        """In-place version of ``clamp_min``."""
    def clamp_max_(self, max: Union[Tensor, _Number]) -> Tensor:
        """In-place version of ``clamp_max``."""
    def clip_(self, min: Optional[Union[Tensor, _Number]] = None, max: Optional[Union[Tensor, _Number]] = None) -> Tensor:
        """In-place version of ``clip`` (``clamp_``)."""
    def clamp_(self, min: Union[_Number, Tensor, None] = None, max: Union[_Number, Tensor, None] = None) -> Tensor:
        """In-place version of ``clamp``."""
    def clip(self, min: Union[_Number, Tensor, None] = None, max: Union[_Number, Tensor, None] = None) -> Tensor:
        """Alias for ``clamp``."""
    def clamp_min(self, min: Union[_Number, Tensor]) -> Tensor:
        """``clamp(min=min)``."""
    def clamp_max(self, max: Union[_Number, Tensor]) -> Tensor:
        """``clamp(max=max)``."""

    # ---- binary arithmetic ---------------------------------------------------------------------
    def add(self, other: _TensorOrNumber, alpha: Optional[_Number] = None, *, out: Optional[Tensor] = None) -> Tensor:
        """Adds ``other``, scaled by ``alpha``, to ``self`` (broadcasting, type promotion)."""
    def add_(self, other: _TensorOrNumber, alpha: Optional[_Number] = None) -> Tensor:
        """In-place version of ``add``."""
    def sub(self, other: _TensorOrNumber, alpha: Optional[_Number] = None, *, out: Optional[Tensor] = None) -> Tensor:
        """Subtracts ``other``, scaled by ``alpha``, from ``self``."""
    def sub_(self, other: _TensorOrNumber, alpha: Optional[_Number] = None) -> Tensor:
        """In-place version of ``sub``."""
    def mul(self, other: _TensorOrNumber, *, out: Optional[Tensor] = None) -> Tensor:
        """Multiplies ``self`` by ``other`` element-wise."""
    def mul_(self, other: _TensorOrNumber) -> Tensor:
        """In-place version of ``mul``."""
    def multiply(self, other: _TensorOrNumber, *, out: Optional[Tensor] = None) -> Tensor:
        """Alias for ``mul``."""
    def div(self, other: _TensorOrNumber, *, rounding_mode: Optional[str] = None, out: Optional[Tensor] = None) -> Tensor:
        """Divides ``self`` by ``other`` element-wise; ``rounding_mode`` is ``None`` (true
        division), ``"trunc"`` or ``"floor"``."""
    def div_(self, other: _TensorOrNumber) -> Tensor:
        """In-place version of ``div``."""
    def divide(self, other: _TensorOrNumber, *, rounding_mode: Optional[str] = None, out: Optional[Tensor] = None) -> Tensor:
        """Alias for ``div``."""
    def true_divide(self, other: _TensorOrNumber, *, out: Optional[Tensor] = None) -> Tensor:
        """Alias for ``div`` with ``rounding_mode=None``."""
    def floor_divide(self, other: _TensorOrNumber, *, out: Optional[Tensor] = None) -> Tensor:
        """Divides and rounds the result down (``torch.div(a, b, rounding_mode="floor")``)."""
    def remainder(self, other: _TensorOrNumber, *, out: Optional[Tensor] = None) -> Tensor:
        """Python's modulus: the remainder has the sign of the divisor."""
    def fmod(self, other: _TensorOrNumber, *, out: Optional[Tensor] = None) -> Tensor:
        """C's ``fmod``: the remainder has the sign of the dividend."""
    def maximum(self, other: Tensor, *, out: Optional[Tensor] = None) -> Tensor:
        """The element-wise maximum of ``self`` and ``other`` (NaN propagates)."""
    def minimum(self, other: Tensor, *, out: Optional[Tensor] = None) -> Tensor:
        """The element-wise minimum of ``self`` and ``other`` (NaN propagates)."""
    def bitwise_and(self, other: _TensorOrNumber, *, out: Optional[Tensor] = None) -> Tensor:
        """Bitwise AND of integer or bool tensors."""
    def bitwise_or(self, other: _TensorOrNumber, *, out: Optional[Tensor] = None) -> Tensor:
        """Bitwise OR of integer or bool tensors."""
    def bitwise_xor(self, other: _TensorOrNumber, *, out: Optional[Tensor] = None) -> Tensor:
        """Bitwise XOR of integer or bool tensors."""
    def bitwise_not(self) -> Tensor:
        """Bitwise NOT of an integer or bool tensor."""
    def logical_and(self, other: Tensor, *, out: Optional[Tensor] = None) -> Tensor:
        """Element-wise logical AND (zero is ``False``), as a bool tensor."""
    def logical_or(self, other: Tensor, *, out: Optional[Tensor] = None) -> Tensor:
        """Element-wise logical OR, as a bool tensor."""
    def logical_xor(self, other: Tensor, *, out: Optional[Tensor] = None) -> Tensor:
        """Element-wise logical XOR, as a bool tensor."""
    def logical_not(self, *, out: Optional[Tensor] = None) -> Tensor:
        """Element-wise logical NOT, as a bool tensor."""

    # ---- comparison ------------------------------------------------------------------------------
    def eq(self, other: _TensorOrNumber, *, out: Optional[Tensor] = None) -> Tensor:
        """Element-wise ``self == other`` as a bool tensor."""
    def ne(self, other: _TensorOrNumber, *, out: Optional[Tensor] = None) -> Tensor:
        """Element-wise ``self != other`` as a bool tensor."""
    def lt(self, other: _TensorOrNumber, *, out: Optional[Tensor] = None) -> Tensor:
        """Element-wise ``self < other`` as a bool tensor."""
    def le(self, other: _TensorOrNumber, *, out: Optional[Tensor] = None) -> Tensor:
        """Element-wise ``self <= other`` as a bool tensor."""
    def gt(self, other: _TensorOrNumber, *, out: Optional[Tensor] = None) -> Tensor:
        """Element-wise ``self > other`` as a bool tensor."""
    def ge(self, other: _TensorOrNumber, *, out: Optional[Tensor] = None) -> Tensor:
        """Element-wise ``self >= other`` as a bool tensor."""
    def equal(self, other: Tensor) -> _bool:
        """``True`` if both tensors have the same size and elements."""
    def allclose(self, other: Tensor, rtol: _float = 1e-05, atol: _float = 1e-08, equal_nan: _bool = False) -> _bool:
        """``True`` if ``|self - other| <= atol + rtol * |other|`` for all elements."""
    def isclose(self, other: Tensor, rtol: _float = 1e-05, atol: _float = 1e-08, equal_nan: _bool = False) -> Tensor:
        """Element-wise ``allclose``, as a bool tensor."""
    def isnan(self, *, out: Optional[Tensor] = None) -> Tensor:
        """Which elements are NaN, as a bool tensor."""
    def isinf(self, *, out: Optional[Tensor] = None) -> Tensor:
        """Which elements are positive or negative infinity, as a bool tensor."""
    def isfinite(self, *, out: Optional[Tensor] = None) -> Tensor:
        """Which elements are finite (not NaN nor infinite), as a bool tensor."""

    # ---- reductions ------------------------------------------------------------------------------
    def sum(self, dim: _Dims = None, keepdim: _bool = False, *, dtype: Optional[_dtype] = None) -> Tensor:
        """The sum of all elements, or over the dimension(s) ``dim`` (kept as size 1 with
        ``keepdim=True``). Integer and bool inputs sum as int64 unless ``dtype`` is given."""
    def mean(self, dim: _Dims = None, keepdim: _bool = False, *, dtype: Optional[_dtype] = None) -> Tensor:
        """The mean of all elements, or over the dimension(s) ``dim`` (floating-point inputs)."""
    def prod(self, dim: Optional[_int] = None, keepdim: _bool = False, *, dtype: Optional[_dtype] = None) -> Tensor:
        """The product of all elements, or over dimension ``dim``."""
    @overload
    def max(self, dim: None = None, keepdim: _bool = False) -> Tensor:
        """``max()``: the maximum of all elements. ``max(dim, keepdim=False)``: a named tuple
        ``(values, indices)`` of the maxima over ``dim``. ``max(other)``: ``maximum``."""
    @overload
    def max(self, dim: _int, keepdim: _bool = False) -> _ValuesIndices: ...
    @overload
    def max(self, other: Tensor, /) -> Tensor: ...
    @overload
    def min(self, dim: None = None, keepdim: _bool = False) -> Tensor:
        """``min()``: the minimum of all elements. ``min(dim, keepdim=False)``: a named tuple
        ``(values, indices)`` of the minima over ``dim``. ``min(other)``: ``minimum``."""
    @overload
    def min(self, dim: _int, keepdim: _bool = False) -> _ValuesIndices: ...
    @overload
    def min(self, other: Tensor, /) -> Tensor: ...
    def amax(self, dim: _Dims = None, keepdim: _bool = False) -> Tensor:
        """The maximum over the dimension(s) ``dim`` (gradient split evenly among ties)."""
    def amin(self, dim: _Dims = None, keepdim: _bool = False) -> Tensor:
        """The minimum over the dimension(s) ``dim`` (gradient split evenly among ties)."""
    def argmax(self, dim: Optional[_int] = None, keepdim: _bool = False) -> Tensor:
        """The index of the (first) maximum, of the flattened tensor or over ``dim``."""
    def argmin(self, dim: Optional[_int] = None, keepdim: _bool = False) -> Tensor:
        """The index of the (first) minimum, of the flattened tensor or over ``dim``."""
    def all(self, dim: Optional[_int] = None, keepdim: _bool = False) -> Tensor:
        """Whether all elements (or all over ``dim``) are non-zero, as a bool tensor."""
    def any(self, dim: Optional[_int] = None, keepdim: _bool = False) -> Tensor:
        """Whether any element (or any over ``dim``) is non-zero, as a bool tensor."""
    def norm(self, p: Union[_float, str, None] = None, dim: _Dims = None, keepdim: _bool = False, dtype: Optional[_dtype] = None) -> Tensor:
        """The ``p``-norm (default 2, ``"fro"``, ``inf``) of the tensor or over ``dim``."""
    def var(self, dim: _Dims = None, unbiased: Optional[_bool] = None, keepdim: _bool = False, *, correction: Optional[_Number] = None) -> Tensor:
        """The variance over ``dim`` (all elements by default), with Bessel's correction
        unless ``unbiased=False`` or ``correction=`` says otherwise."""
    def std(self, dim: _Dims = None, unbiased: Optional[_bool] = None, keepdim: _bool = False, *, correction: Optional[_Number] = None) -> Tensor:
        """The standard deviation over ``dim``; see ``var``."""
    def logsumexp(self, dim: _Dims, keepdim: _bool = False) -> Tensor:
        """``log(sum(exp(x)))`` over ``dim``, computed stably."""
    def cumsum(self, dim: _int, *, dtype: Optional[_dtype] = None) -> Tensor:
        """The cumulative sum of the elements along ``dim``."""
    def cumprod(self, dim: _int, *, dtype: Optional[_dtype] = None, out: Optional[Tensor] = None) -> Tensor:
        """The cumulative product of the elements along ``dim``."""
    def cumprod_(self, dim: _int, *, dtype: Optional[_dtype] = None) -> Tensor:
        """In-place version of ``cumprod``."""
    def lerp(self, end: Tensor, weight: _TensorOrNumber, *, out: Optional[Tensor] = None) -> Tensor:
        """Linear interpolation ``self + weight * (end - self)``; ``weight`` is a number or a
        broadcastable tensor."""
    def lerp_(self, end: Tensor, weight: _TensorOrNumber) -> Tensor:
        """In-place version of ``lerp``."""
    def addcmul(self, tensor1: Tensor, tensor2: Tensor, *, value: Optional[_Number] = None, out: Optional[Tensor] = None) -> Tensor:
        """``self + value * tensor1 * tensor2`` element-wise (broadcasting, type promotion)."""
    def addcmul_(self, tensor1: Tensor, tensor2: Tensor, *, value: Optional[_Number] = None) -> Tensor:
        """In-place version of ``addcmul``."""
    def addcdiv(self, tensor1: Tensor, tensor2: Tensor, *, value: Optional[_Number] = None, out: Optional[Tensor] = None) -> Tensor:
        """``self + value * tensor1 / tensor2`` element-wise (broadcasting, type promotion)."""
    def addcdiv_(self, tensor1: Tensor, tensor2: Tensor, *, value: Optional[_Number] = None) -> Tensor:
        """In-place version of ``addcdiv``."""
    def addmm(self, mat1: Tensor, mat2: Tensor, *, beta: Optional[_Number] = None, alpha: Optional[_Number] = None, out: Optional[Tensor] = None) -> Tensor:
        """``beta * self + alpha * (mat1 @ mat2)`` for matrices ``mat1``, ``mat2``; ``self``
        broadcasts to the product's shape."""
    def addmm_(self, mat1: Tensor, mat2: Tensor, *, beta: Optional[_Number] = None, alpha: Optional[_Number] = None) -> Tensor:
        """In-place version of ``addmm``."""
    def addmv(self, mat: Tensor, vec: Tensor, *, beta: Optional[_Number] = None, alpha: Optional[_Number] = None, out: Optional[Tensor] = None) -> Tensor:
        """``beta * self + alpha * (mat @ vec)`` for a matrix ``mat`` and a vector ``vec``."""
    def addmv_(self, mat: Tensor, vec: Tensor, *, beta: Optional[_Number] = None, alpha: Optional[_Number] = None) -> Tensor:
        """In-place version of ``addmv``."""
    def baddbmm(self, batch1: Tensor, batch2: Tensor, *, beta: Optional[_Number] = None, alpha: Optional[_Number] = None, out: Optional[Tensor] = None) -> Tensor:
        """``beta * self + alpha * (batch1 @ batch2)`` for 3-d ``batch1``, ``batch2`` (one matrix
        product per batch); ``self`` broadcasts to the product's shape."""
    def baddbmm_(self, batch1: Tensor, batch2: Tensor, *, beta: Optional[_Number] = None, alpha: Optional[_Number] = None) -> Tensor:
        """In-place version of ``baddbmm``."""
    def softmax(self, dim: _int, dtype: Optional[_dtype] = None) -> Tensor:
        """``exp(x) / sum(exp(x))`` along ``dim``."""
    def log_softmax(self, dim: _int, dtype: Optional[_dtype] = None) -> Tensor:
        """``log(softmax(x))`` along ``dim``, computed stably."""
    def sort(self, dim: _int = ..., descending: _bool = False, *, stable: Optional[_bool] = None) -> _ValuesIndices:
        """Sort the elements along ``dim``; a named tuple ``(values, indices)``."""
    def argsort(self, dim: _int = -1, descending: _bool = False, *, stable: _bool = False) -> Tensor:
        """The indices that sort the tensor along ``dim``."""
    def topk(self, k: _int, dim: _int = ..., largest: _bool = True, sorted: _bool = True) -> _ValuesIndices:
        """The ``k`` largest (or smallest) elements along ``dim``; a named tuple ``(values, indices)``."""
    @overload
    def median(self, dim: None = None, keepdim: _bool = False) -> Tensor:
        """``median()``: the lower median of all elements (NaN if any is NaN).
        ``median(dim, keepdim=False)``: a named tuple ``(values, indices)`` along ``dim``."""
    @overload
    def median(self, dim: _int, keepdim: _bool = False) -> _ValuesIndices: ...
    @overload
    def nanmedian(self, dim: None = None, keepdim: _bool = False) -> Tensor:
        """``median`` that ignores NaNs (NaN only where every element is NaN)."""
    @overload
    def nanmedian(self, dim: _int, keepdim: _bool = False) -> _ValuesIndices: ...
    def kthvalue(self, k: _int, dim: _int = ..., keepdim: _bool = False) -> _ValuesIndices:
        """The ``k``-th smallest element along ``dim``; a named tuple ``(values, indices)``."""
    def cummax(self, dim: _int) -> _ValuesIndices:
        """The running maximum along ``dim`` and where it was reached; a named tuple ``(values, indices)``."""
    def cummin(self, dim: _int) -> _ValuesIndices:
        """The running minimum along ``dim`` and where it was reached; a named tuple ``(values, indices)``."""
    def logcumsumexp(self, dim: _int) -> Tensor:
        """``log(cumsum(exp(self)))`` along ``dim``, without overflow."""
    def aminmax(self, *, dim: Optional[_int] = None, keepdim: _bool = False) -> _MinMax:
        """The minimum and maximum (over ``dim``, or all elements); a named tuple ``(min, max)``."""

    # ---- linear algebra ------------------------------------------------------------------------
    def matmul(self, other: Tensor, *, out: Optional[Tensor] = None) -> Tensor:
        """Matrix product with PyTorch's rules for 1-d, 2-d and batched (broadcast) operands."""
    def mm(self, other: Tensor, *, out: Optional[Tensor] = None) -> Tensor:
        """Matrix product of two 2-d tensors (no broadcasting)."""
    def bmm(self, other: Tensor, *, out: Optional[Tensor] = None) -> Tensor:
        """Batched matrix product of two 3-d tensors with the same batch size."""
    def mv(self, other: Tensor, *, out: Optional[Tensor] = None) -> Tensor:
        """Matrix-vector product."""
    def dot(self, other: Tensor, *, out: Optional[Tensor] = None) -> Tensor:
        """Dot product of two 1-d tensors."""

    # ---- internal hooks used by the Python package ---------------------------------------------
    def _to_device(self, device: Union[_device, str]) -> Tensor: ...
    def _to_dtype(self, dtype: _dtype) -> Tensor: ...
    def _register(self) -> None:
        """Register a freshly constructed subclass instance (called by ``__init__`` helpers)."""

def tensor(data: Any, *, dtype: Optional[dtype] = None, device: Any = None, requires_grad: bool = False, pin_memory: bool = False) -> Tensor: ...
def from_numpy(arr: Any) -> Tensor: ...
def _autocast_get(device_type: str) -> Optional[dtype]: ...
def _sample_exact(kind: str, x: Tensor, single: bool = False, generator: Optional[Generator] = None, y: Optional[Tensor] = None) -> Tensor: ...
def _nan_to_num(x: Tensor, nan: float = 0.0, posinf: Optional[float] = None, neginf: Optional[float] = None) -> Tensor: ...
def _bincount(input: Tensor, weights: Optional[Tensor] = None, minlength: int = 0) -> Tensor: ...
def _autocast_set(device_type: str, dtype: Optional[dtype] = None) -> Optional[dtype]: ...
def _autocast_cast(t: Tensor, full: bool = False) -> Tensor: ...
def promote_types(type1: dtype, type2: dtype) -> dtype:
    """`torch.promote_types(type1, type2)`: the dtype both promote to."""
def result_type(tensor1: Any, tensor2: Any) -> dtype:
    """`torch.result_type(tensor1, tensor2)`: the dtype of an arithmetic op on the two operands
    (tensors or Python numbers)."""
def vdot(input: Tensor, other: Tensor) -> Tensor:
    """`torch.vdot(input, other)`: the dot product of `input.conj()` and `other` (1-D tensors)."""
def view_as_real(input: Tensor) -> Tensor:
    """`torch.view_as_real(z)`: the (re, im) pairs of a complex tensor as a real view."""
def view_as_complex(input: Tensor) -> Tensor:
    """`torch.view_as_complex(x)`: a float tensor whose last dim holds (re, im) pairs, as a
    complex view."""
def complex(real: Tensor, imag: Tensor) -> Tensor:
    """`torch.complex(real, imag)`."""
def polar(abs: Tensor, angle: Tensor) -> Tensor:
    """`torch.polar(abs, angle)`."""
def from_dlpack(obj: Any) -> Tensor: ...
def _to_dlpack(tensor: Tensor, max_version: Optional[Tuple[int, int]] = None, *, copied: bool = False) -> Any: ...
def as_tensor(data: Any, dtype: Optional[dtype] = None, device: Any = None) -> Tensor: ...
def zeros(*size: Any, **kwargs: Any) -> Tensor: ...
def ones(*size: Any, **kwargs: Any) -> Tensor: ...
def empty(*size: Any, **kwargs: Any) -> Tensor: ...
def rand(*size: Any, **kwargs: Any) -> Tensor: ...
def randn(*size: Any, **kwargs: Any) -> Tensor: ...
def full(size: Sequence[int], fill_value: _Number, *, dtype: Optional[dtype] = None, device: Any = None, requires_grad: bool = False) -> Tensor: ...
def arange(start: _Number, end: Optional[_Number] = None, step: Optional[_Number] = None, *, dtype: Optional[dtype] = None, device: Any = None, requires_grad: bool = False) -> Tensor: ...
def linspace(start: float, end: float, steps: int, *, dtype: Optional[dtype] = None, device: Any = None, requires_grad: bool = False) -> Tensor: ...
def eye(n: int, m: Optional[int] = None, *, dtype: Optional[dtype] = None, device: Any = None, requires_grad: bool = False) -> Tensor: ...
def randint(*args: Any, **kwargs: Any) -> Tensor: ...
def randperm(n: int, *, generator: Optional[Generator] = ..., dtype: Any = ..., device: Any = ..., requires_grad: bool = ..., layout: Any = ..., pin_memory: bool = ..., out: Optional[Tensor] = ...) -> Tensor: ...

@final
class Generator:
    """Creates and returns a generator object that manages the state of the algorithm which
    produces pseudo random numbers (``torch.Generator``): PyTorch's CPU generator (MT19937 with
    PyTorch's transformations), so a seed gives the same numbers as in PyTorch."""
    def __new__(cls, device: Any = ...) -> Generator: ...
    def manual_seed(self, seed: int) -> Generator:
        """Sets the seed for generating random numbers; returns the generator."""
    def seed(self) -> int:
        """Gets a non-deterministic random number from the OS and seeds the generator with it."""
    def initial_seed(self) -> int:
        """Returns the initial seed for generating random numbers."""
    def get_state(self) -> Tensor:
        """Returns the generator state as a ``torch.ByteTensor`` (PyTorch's layout)."""
    def set_state(self, new_state: Tensor) -> Generator:
        """Sets the generator state from a tensor returned by ``get_state``."""
    @property
    def device(self) -> Any:
        """The device of the generator (``cpu``)."""

def _default_generator() -> Generator: ...
def manual_seed(seed: int) -> Generator: ...
def seed() -> int: ...
def initial_seed() -> int: ...
def get_rng_state() -> Tensor: ...
def set_rng_state(new_state: Tensor) -> None: ...
def bernoulli(input: Tensor, p: Optional[float] = ..., *, generator: Optional[Generator] = ..., out: Optional[Tensor] = ...) -> Tensor: ...
def multinomial(input: Tensor, num_samples: int, replacement: bool = ..., *, generator: Optional[Generator] = ..., out: Optional[Tensor] = ...) -> Tensor: ...
def _normal_tensors(mean: Tensor, std: Tensor, *, generator: Optional[Generator] = ...) -> Tensor: ...
def cat(tensors: Sequence[Tensor], dim: int = 0, *, out: Optional[Tensor] = None) -> Tensor: ...
def stack(tensors: Sequence[Tensor], dim: int = 0, *, out: Optional[Tensor] = None) -> Tensor: ...
def where(condition: Tensor, input: Any, other: Any) -> Tensor: ...
def is_grad_enabled() -> bool: ...
def is_inference_mode_enabled() -> bool: ...
def get_num_threads() -> int: ...
def set_num_threads(n: int) -> None: ...
def _set_grad_enabled(on: bool) -> bool: ...
def _set_inference_mode(on: bool) -> bool: ...
def _default_float() -> str: ...
def _set_default_float(name: str) -> None: ...
def _run_backward(outputs: Sequence[Tensor], grad_outputs: Sequence[Tensor], keep_graph: bool, create_graph: bool, inputs: Optional[Sequence[Tensor]], accumulate: bool) -> list: ...
def _graph_report(t: Tensor) -> Tuple[int, int, list]: ...
def _dtypes() -> list: ...
def _function_apply(ctx: Node, name: str, args: tuple, outputs: Any, to_save: tuple, dirty: tuple, non_diff: tuple, materialize: bool) -> Any: ...
def _saved_tensors(ctx: Node) -> tuple: ...
def _push_saved_hooks(pack: Callable[[Tensor], Any], unpack: Callable[[Any], Tensor]) -> None: ...
def _pop_saved_hooks() -> None: ...
def _push_write_observer(observer: Callable[[Tensor], Any]) -> None: ...
def _pop_write_observer() -> None: ...
def _linalg_cross(input: Tensor, other: Tensor, *, dim: _int = ...) -> Tensor: ...
def _linalg_inv_ex(a: Tensor, check_errors: bool, name: str) -> tuple[Tensor, Tensor]: ...
def _linalg_det(a: Tensor, name: str) -> Tensor: ...
def _linalg_slogdet(a: Tensor, name: str) -> tuple[Tensor, Tensor]: ...
def _linalg_matrix_exp(a: Tensor) -> Tensor: ...
def _pdist(x: Tensor, p: float) -> Tensor: ...
def _logdet(a: Tensor) -> Tensor: ...
def _linalg_solve(a: Tensor, b: Tensor, left: bool) -> Tensor: ...
def _linalg_solve_triangular(a: Tensor, b: Tensor, upper: bool, left: bool, unitriangular: bool) -> Tensor: ...
def _linalg_cholesky_ex(a: Tensor, upper: bool, check_errors: bool, name: str, legacy: bool) -> tuple[Tensor, Tensor]:
    """`legacy`: the deprecated `torch.cholesky` (CholeskyBackward0)."""
def _cholesky_solve(b: Tensor, l: Tensor, upper: bool) -> Tensor: ...
def _cholesky_inverse(l: Tensor, upper: bool) -> Tensor: ...
def _linalg_qr(a: Tensor, mode: str) -> tuple[Tensor, Tensor]: ...
def _linalg_eigh(a: Tensor, upper: bool, vectors: bool, name: str) -> tuple[Tensor, Tensor]: ...
def _linalg_svd(a: Tensor, full_matrices: bool, vectors: bool, name: str) -> tuple[Tensor, Tensor, Tensor]: ...
def _linalg_pinv(a: Tensor, atol: Optional[float], rtol: Optional[float], hermitian: bool) -> Tensor: ...
def _cdist(x1: Tensor, x2: Tensor, p: float) -> Tensor: ...
def _var_mean(input: Tensor, take_sqrt: _bool, dim: Any = None, unbiased: Any = None, keepdim: _bool = False, correction: Optional[_float] = None) -> Tuple[Tensor, Tensor]:
    """``torch.var_mean`` / ``torch.std_mean`` (``take_sqrt``): the two results of one node."""
def select_scatter(input: Tensor, src: Tensor, dim: _int, index: _int) -> Tensor:
    """``torch.select_scatter(input, src, dim, index)``."""
def slice_scatter(input: Tensor, src: Tensor, dim: _int = 0, start: Optional[_int] = None, end: Optional[_int] = None, step: _int = 1) -> Tensor:
    """``torch.slice_scatter(input, src, dim=0, start=None, end=None, step=1)``."""
def diagonal_scatter(input: Tensor, src: Tensor, offset: _int = 0, dim1: _int = 0, dim2: _int = 1) -> Tensor:
    """``torch.diagonal_scatter(input, src, offset=0, dim1=0, dim2=1)``."""
def _xlogy(input: Union[Tensor, _Number], other: Union[Tensor, _Number]) -> Tensor:
    """`torch.xlogy(input, other)`: either operand may be a number (not both)."""
def _rot90(input: Tensor, k: _int, dims: Sequence[_int]) -> Tensor:
    """`torch.rot90(input, k, dims)`."""
def _inplace_apply(target: Tensor, compute: Callable[[Tensor], Tensor]) -> Tensor:
    """`target.<op>_(...)` for an op computed by the Python callable `compute(snapshot)`: the
    result is written into `target` through the core's in-place path (dtype check, version
    bump, history rebased onto the op's node, views' CopySlices), so an in-place variant
    records its op's node (CeilBackward0 for `ceil_`) as PyTorch's does. Returns `target`."""
def _push_record_observer(observer: Callable[[str, bool, list], Any]) -> None: ...
def _pop_record_observer() -> None: ...
def _set_anomaly(enabled: bool, check_nan: bool) -> None: ...
def _current_graph_task_id() -> int:
    """The id of the backward pass running on this thread, -1 outside backward."""
def _will_engine_execute_node(node: Node) -> bool:
    """Whether `node` runs in the current backward pass (only valid inside backward)."""
def _is_checkpoint_valid() -> bool:
    """Whether a reentrant checkpoint may recompute now: False inside `autograd.grad` or
    `backward(inputs=...)`."""
def _queue_callback(cb: Callable[[], Any]) -> None:
    """Run `cb()` when the current backward pass has run all its nodes."""
def _bitcast_copy(t: Tensor, dtype: Any) -> Tensor:
    """A copy of the 2-byte tensor `t` with its bits read as `dtype` (int16 <-> bfloat16 / float16)."""
def _increment_version(t: Tensor) -> None:
    """Mark `t` as modified in place, as an in-place op would."""
def _enter_dual_level() -> int:
    """`enter_dual_level()`: opens the forward-AD level (only one may be live)."""
def _exit_dual_level(level: int) -> None:
    """`exit_dual_level(level)`: closes the level, deleting every tangent."""
def _make_dual(primal: Tensor, tangent: Tensor) -> Tensor:
    """`make_dual(primal, tangent)`: a view of `primal` carrying `tangent`."""
def _unpack_dual(t: Tensor) -> tuple[Tensor, Tensor | None]:
    """`unpack_dual(t)`: `(primal view, tangent or None)`."""
def _fw_level_exists() -> bool:
    """Whether a forward-AD level is live."""
def _fw_tangent(t: Tensor) -> Tensor | None:
    """The tangent of `t` at the live level (None when it has none)."""
def _fw_set_tangent(t: Tensor, tangent: Tensor) -> None:
    """Set the tangent of `t` in place (a custom Function's outputs), with make_dual's checks."""
def _set_multithreading_enabled(on: bool) -> None:
    """Let backward passes started on this thread run branches on the worker pool (or not)."""
def _is_multithreading_enabled() -> bool:
    """Whether backward passes started on this thread may run branches in parallel."""
def _fw_suspend(on: bool) -> bool:
    """Suspend (True) or restore tangent propagation on this thread; returns the previous state
    (a custom Function's forward runs suspended: its tangents come from its `jvp`)."""
def _profiler_start(record_shapes: bool) -> None:
    """Start the profiler (a new session)."""
def _profiler_stop() -> list[tuple[str, str, int, int, int, list[list[int]]]]:
    """Stop the profiler: `(name, kind, thread, start_ns, end_ns, shapes)` per event."""
def _profiler_enabled() -> bool:
    """Whether the profiler is recording."""
def _profiler_range_begin(name: str) -> int:
    """Open a user range; 0 when the profiler is off."""
def _profiler_range_end(id: int) -> None:
    """Close a user range."""
def _foreach_adam_step(params: Sequence[Tensor], grads: Sequence[Tensor], exp_avgs: Sequence[Tensor], exp_avg_sqs: Sequence[Tensor], max_exp_avg_sqs: Sequence[Tensor], state_steps: Sequence[Tensor], *, lr: float, beta1: float, beta2: float, eps: float, weight_decay: float, amsgrad: bool, maximize: bool, decoupled: bool) -> bool:
    """One Adam/AdamW step over a parameter group in one call; False when it does not fit."""
def _foreach_rmsprop_step(params: Sequence[Tensor], grads: Sequence[Tensor], square_avgs: Sequence[Tensor], grad_avgs: Sequence[Tensor], momentum_buffers: Sequence[Tensor], state_steps: Sequence[Tensor], *, lr: float, alpha: float, eps: float, weight_decay: float, momentum: float, centered: bool, maximize: bool) -> bool:
    """One RMSprop step over a parameter group in one call; False when it does not fit."""
def _foreach_adagrad_step(params: Sequence[Tensor], grads: Sequence[Tensor], state_sums: Sequence[Tensor], state_steps: Sequence[Tensor], *, lr: float, lr_decay: float, weight_decay: float, eps: float, maximize: bool) -> bool:
    """One Adagrad step over a parameter group in one call; False when it does not fit."""
def _foreach_sgd_step(params: Sequence[Tensor], grads: Sequence[Tensor], momentum_buffers: Sequence[Tensor], fresh: Sequence[bool], *, lr: float, momentum: float, dampening: float, weight_decay: float, nesterov: bool, maximize: bool) -> bool:
    """One SGD step over a parameter group in one call; False when it does not fit."""
def _panicking_identity(x: Tensor) -> Tensor: ...
def _panicking_op(x: Tensor) -> Tensor: ...
def _parse_device(s: str) -> Tuple[str, Optional[int]]: ...
def _cuda_device_count() -> int: ...
def _cuda_check() -> None: ...
def _cuda_current_device() -> int: ...
def _cuda_set_device(i: int) -> None: ...
def _cuda_device_name(i: int) -> str: ...
def _cuda_synchronize(i: int) -> None: ...
def _cuda_memory_stats(i: int) -> Tuple[int, int, int, int]: ...
def _cuda_empty_cache(i: int) -> None: ...
def _cuda_reset_peak_memory_stats(i: int) -> None: ...
def _cuda_matmul_backend() -> str: ...

# nn layers and losses (src/python/nn.rs); reductions: 0 none, 1 mean, 2 sum
def _nn_convolution(x: Tensor, w: Tensor, b: Optional[Tensor], stride: Sequence[int], padding: Sequence[Tuple[int, int]],
                    dilation: Sequence[int], groups: int, transposed: bool, output_padding: Sequence[int]) -> Tensor: ...
def _nn_im2col(x: Tensor, kernel: Sequence[int], dilation: Sequence[int], padding: Sequence[int], stride: Sequence[int]) -> Tensor: ...
def _nn_lstm_cell(igates: Tensor, hw: Tensor, c: Tensor) -> Optional[list[Tensor]]: ...
def _nn_col2im(x: Tensor, output_size: Sequence[int], kernel: Sequence[int], dilation: Sequence[int], padding: Sequence[int],
               stride: Sequence[int]) -> Tensor: ...
def _nn_max_pool2d(x: Tensor, kernel: Sequence[int], stride: Sequence[int], padding: Sequence[int], dilation: Sequence[int],
                   ceil_mode: bool) -> Tuple[Tensor, Tensor]: ...
def _nn_avg_pool2d(x: Tensor, kernel: Sequence[int], stride: Sequence[int], padding: Sequence[int], ceil_mode: bool,
                   count_include_pad: bool, divisor_override: Optional[int] = None) -> Tensor: ...
def _nn_adaptive_avg_pool2d(x: Tensor, output_size: Sequence[int]) -> Tensor: ...
def _nn_adaptive_max_pool2d(x: Tensor, output_size: Sequence[int]) -> Tuple[Tensor, Tensor]: ...
def _nn_max_pool3d(x: Tensor, kernel: Sequence[int], stride: Sequence[int], padding: Sequence[int], dilation: Sequence[int],
                   ceil_mode: bool) -> Tuple[Tensor, Tensor]: ...
def _nn_avg_pool3d(x: Tensor, kernel: Sequence[int], stride: Sequence[int], padding: Sequence[int], ceil_mode: bool,
                   count_include_pad: bool, divisor_override: Optional[int] = None) -> Tensor: ...
def _nn_fractional_max_pool(x: Tensor, kernel: Sequence[int], output_size: Sequence[int],
                            samples: Tensor) -> Tuple[Tensor, Tensor]: ...
def _nn_batch_norm(x: Tensor, weight: Optional[Tensor], bias: Optional[Tensor], running_mean: Optional[Tensor],
                   running_var: Optional[Tensor], training: bool, momentum: float, eps: float) -> Tensor: ...
def _nn_layer_norm(x: Tensor, normalized_shape: Sequence[int], weight: Optional[Tensor], bias: Optional[Tensor], eps: float) -> Tensor: ...
def _nn_group_norm(x: Tensor, num_groups: int, weight: Optional[Tensor], bias: Optional[Tensor], eps: float) -> Tensor: ...
def _nn_embedding(weight: Tensor, indices: Tensor, padding_idx: Optional[int], scale_grad_by_freq: bool) -> Tensor: ...
def _nn_activation(x: Tensor, kind: str, a: float, b: float) -> Tensor: ...
def _nn_activation_(x: Tensor, kind: str, a: float, b: float) -> None: ...
def _nn_prelu(x: Tensor, weight: Tensor) -> Tensor: ...
def _nn_glu(x: Tensor, dim: int) -> Tensor: ...
def _nn_erf(x: Tensor) -> Tensor: ...
def _nn_addmm(input: Tensor, mat1: Tensor, mat2: Tensor, beta: float = 1.0, alpha: float = 1.0) -> Tensor: ...
def _nn_pointwise_loss(kind: str, x: Tensor, y: Tensor, reduction: int, a: float) -> Tensor: ...
def _nn_binary_cross_entropy(x: Tensor, y: Tensor, weight: Optional[Tensor], reduction: int) -> Tensor: ...
def _nn_binary_cross_entropy_with_logits(x: Tensor, y: Tensor, weight: Optional[Tensor], pos_weight: Optional[Tensor],
                                         reduction: int) -> Tensor: ...
def _nn_nll_loss(x: Tensor, target: Tensor, weight: Optional[Tensor], reduction: int, ignore_index: int) -> Tensor: ...
def _nn_div_scalar(x: Tensor, s: float) -> Tensor: ...
def _nn_constant_pad(x: Tensor, pads: Sequence[Tuple[int, int]], value: float) -> Tensor: ...
def _nn_pixel_shuffle(x: Tensor, factor: int, down: bool) -> Tensor: ...
def _nn_grid_sample(x: Tensor, grid: Tensor, mode: int, padding: int, align_corners: bool) -> Tensor: ...
def _nn_sdpa_flash(q: Tensor, k: Tensor, v: Tensor, mask: Optional[Tensor], causal: bool,
                   scale: Optional[float] = None) -> Tensor: ...
def _nn_index_pad(x: Tensor, pads: Sequence[Tuple[int, int]], reflect: bool) -> Tensor: ...
def _nn_resample(x: Tensor, mh: Optional[Tensor], mw: Tensor, name: str, output_size: Sequence[int],
                 scales: Sequence[Optional[float]], align_corners: Optional[bool] = None,
                 md: Optional[Tensor] = None) -> Tensor: ...

def _set_default_device(device: Any) -> None: ...
def _default_device() -> str: ...
