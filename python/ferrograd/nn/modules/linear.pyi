"""Type stubs for ``ferrograd.nn.modules.linear`` (docstrings: see the module itself)."""

from typing import Any, Callable, Optional, Sequence, Union

from ..._C import Tensor
from ..._C import dtype as _dtype
from ..._helpers import device as _device
from ..parameter import Parameter
from .module import Module

_DeviceLike = Union[_device, str, int]
_size_any = Union[int, Sequence[int]]

__all__ = ["Identity", "Linear"]

class Identity(Module):
    def __init__(self, *args: Any, **kwargs: Any) -> None: ...
    def forward(self, input: Tensor) -> Tensor: ...
    def __call__(self, input: Tensor) -> Tensor: ...

class Linear(Module):
    __constants__: list[str]
    in_features: int
    out_features: int
    weight: Parameter
    bias: Optional[Parameter]
    def __init__(self, in_features: int, out_features: int, bias: bool = True, device: Optional[_DeviceLike] = None, dtype: Optional[_dtype] = None) -> None: ...
    def reset_parameters(self) -> None: ...
    def forward(self, input: Tensor) -> Tensor: ...
    def __call__(self, input: Tensor) -> Tensor: ...
    def extra_repr(self) -> str: ...

class NonDynamicallyQuantizableLinear(Linear):
    def __init__(self, in_features: int, out_features: int, bias: bool = True, device: Optional[_DeviceLike] = None, dtype: Optional[_dtype] = None) -> None: ...
