"""Type stubs for ``ferrograd.nn.modules.linear`` (docstrings: see the module itself)."""

from typing import Any, Callable, Optional, Sequence, Union

from ..._C import Tensor
from ..._C import dtype as _dtype
from ..._helpers import device as _device
from ..parameter import Parameter, UninitializedParameter
from .lazy import LazyModuleMixin
from .module import Module

_DeviceLike = Union[_device, str, int]
_size_any = Union[int, Sequence[int]]

__all__ = ["Identity", "Linear", "Bilinear", "LazyLinear"]

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

class Bilinear(Module):
    """``y = x1ᵀ A x2 + b``."""
    __constants__: list[str]
    in1_features: int
    in2_features: int
    out_features: int
    weight: Parameter
    bias: Optional[Parameter]
    def __init__(self, in1_features: int, in2_features: int, out_features: int, bias: bool = True, device: Optional[_DeviceLike] = None, dtype: Optional[_dtype] = None) -> None: ...
    def reset_parameters(self) -> None:
        """Weight, then bias, from ``U(-1/sqrt(in1_features), 1/sqrt(in1_features))``."""
    def forward(self, input1: Tensor, input2: Tensor) -> Tensor: ...
    def __call__(self, input1: Tensor, input2: Tensor) -> Tensor: ...
    def extra_repr(self) -> str: ...

class LazyLinear(LazyModuleMixin, Linear):
    """A Linear whose ``in_features`` is inferred from the first input."""
    cls_to_become: type[Linear]
    weight: UninitializedParameter
    bias: UninitializedParameter
    def __init__(self, out_features: int, bias: bool = True, device: Optional[_DeviceLike] = None, dtype: Optional[_dtype] = None) -> None: ...
    def reset_parameters(self) -> None:
        """Initialise as Linear once the parameters are materialized."""
    def initialize_parameters(self, input: Tensor) -> None:
        """Materialize weight ``(out_features, input.shape[-1])`` and bias, then initialise them."""
