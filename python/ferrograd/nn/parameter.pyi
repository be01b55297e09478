"""Type stubs for ``ferrograd.nn.parameter``: Parameter and Buffer."""

from typing import Any, Optional, Sequence, Union

from .._C import Tensor

__all__ = ["Parameter", "UninitializedParameter", "is_lazy", "Buffer", "UninitializedTensorMixin", "UninitializedBuffer"]

class Parameter(Tensor):
    """A tensor that is a module parameter: assigning one to a Module attribute registers it.

    Shares the data of ``data`` (a detached alias) and requires grad unless
    ``requires_grad=False``."""
    def __new__(cls, data: Optional[Tensor] = None, requires_grad: bool = True) -> Parameter: ...
    def __init__(self, data: Optional[Tensor] = None, requires_grad: bool = True) -> None: ...

def _rebuild_parameter(data: Tensor, requires_grad: bool) -> Parameter: ...

class _BufferMeta(type):
    def __instancecheck__(cls, instance: object) -> bool: ...

class Buffer(Tensor, metaclass=_BufferMeta):
    """``nn.Buffer(data, persistent=True)``: a tensor that, assigned to a Module attribute,
    is registered as a buffer (persistent or not). Returns a detached plain tensor."""
    persistent: bool
    def __new__(cls, data: Optional[Tensor] = None, *, persistent: bool = True) -> Tensor: ...  # type: ignore[misc]

class UninitializedTensorMixin:
    """A tensor with no data yet (the parameters of lazy modules)."""
    cls_to_become: type
    @property
    def shape(self) -> Any:
        """Not available before ``materialize``: raises RuntimeError."""
    def materialize(self, shape: Sequence[int], device: Any = None, dtype: Any = None) -> None:
        """Create a tensor of ``shape`` as this object's data and turn this object into ``cls_to_become``."""
    def share_memory_(self) -> Any:
        """Not available before ``materialize`` (RuntimeError)."""

class UninitializedParameter(UninitializedTensorMixin, Parameter):
    """A parameter that is not initialized yet (of a lazy module such as ``LazyLinear``)."""
    cls_to_become: type
    def __new__(cls, requires_grad: bool = True, device: Any = None, dtype: Any = None) -> UninitializedParameter: ...
    def __init__(self, requires_grad: bool = True, device: Any = None, dtype: Any = None) -> None: ...

def is_lazy(param: Any) -> bool:
    """Whether ``param`` is an uninitialized parameter (of a lazy module)."""

class _MaterializedBuffer(Tensor):
    def __new__(cls, data: Any = None) -> _MaterializedBuffer: ...

class UninitializedBuffer(UninitializedTensorMixin, Tensor):
    def __new__(cls, requires_grad: Any = False, device: Any = None, dtype: Any = None, persistent: Any = True) -> UninitializedBuffer: ...
    cls_to_become: type
    def __init__(self, requires_grad: Any = False, device: Any = None, dtype: Any = None, persistent: Any = True) -> None: ...

