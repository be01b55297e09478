"""Type stubs for ``ferrograd.nn.parameter``: Parameter and Buffer."""

from typing import Any, Optional

from .._C import Tensor

__all__ = ["Parameter", "Buffer"]

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
