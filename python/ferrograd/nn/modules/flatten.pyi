"""Type stubs for ``ferrograd.nn.modules.flatten`` (docstrings: see the module itself)."""

from typing import Any, Callable, Optional, Sequence, Union

from ..._C import Tensor
from ..._C import dtype as _dtype
from ..._helpers import device as _device
from ..parameter import Parameter
from .module import Module

_DeviceLike = Union[_device, str, int]
_size_any = Union[int, Sequence[int]]

__all__ = ["Flatten", "Unflatten"]

class Flatten(Module):
    """Flattens a contiguous range of dims into a tensor (``start_dim=1`` to ``end_dim=-1`` by default)."""
    __constants__: list[str]
    def __init__(self, start_dim: int = 1, end_dim: int = -1) -> None: ...
    def forward(self, input: Tensor) -> Tensor: ...
    def __call__(self, input: Tensor) -> Tensor: ...
    def extra_repr(self) -> str: ...

class Unflatten(Module):
    """Unflattens a tensor dim expanding it to a desired shape (``unflattened_size``)."""
    __constants__: list[str]
    def __init__(self, dim: Union[int, str], unflattened_size: Sequence[int]) -> None: ...
    def forward(self, input: Tensor) -> Tensor: ...
    def __call__(self, input: Tensor) -> Tensor: ...
    def extra_repr(self) -> str: ...
