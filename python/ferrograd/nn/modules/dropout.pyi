"""Type stubs for ``ferrograd.nn.modules.dropout`` (docstrings: see the module itself)."""

from typing import Any, Callable, Optional, Sequence, Union

from ..._C import Tensor
from ..._C import dtype as _dtype
from ..._helpers import device as _device
from ..parameter import Parameter
from .module import Module

_DeviceLike = Union[_device, str, int]
_size_any = Union[int, Sequence[int]]

__all__ = ["Dropout", "Dropout1d", "Dropout2d"]

class _DropoutNd(Module):
    __constants__: list[str]
    p: float
    inplace: bool
    def __init__(self, p: float = 0.5, inplace: bool = False) -> None: ...
    def extra_repr(self) -> str: ...

class Dropout(_DropoutNd):
    def forward(self, input: Tensor) -> Tensor: ...
    def __call__(self, input: Tensor) -> Tensor: ...

class Dropout1d(_DropoutNd):
    def forward(self, input: Tensor) -> Tensor: ...
    def __call__(self, input: Tensor) -> Tensor: ...

class Dropout2d(_DropoutNd):
    def forward(self, input: Tensor) -> Tensor: ...
    def __call__(self, input: Tensor) -> Tensor: ...
