"""Type stubs for ``ferrograd.nn.modules.conv`` (docstrings: see the module itself)."""

from typing import Any, Callable, Optional, Sequence, Union

from ..._C import Tensor
from ..._C import dtype as _dtype
from ..._helpers import device as _device
from ..parameter import Parameter
from .lazy import LazyModuleMixin
from .module import Module

_DeviceLike = Union[_device, str, int]
_size_any = Union[int, Sequence[int]]

__all__ = ["Conv1d", "Conv2d", "ConvTranspose1d", "ConvTranspose2d", "Conv3d", "ConvTranspose3d", "LazyConv1d", "LazyConv2d", "LazyConv3d", "LazyConvTranspose1d", "LazyConvTranspose2d", "LazyConvTranspose3d"]

class _ConvNd(Module):
    __constants__: list[str]
    in_channels: int
    out_channels: int
    kernel_size: tuple[int, ...]
    stride: tuple[int, ...]
    padding: Union[str, tuple[int, ...]]
    dilation: tuple[int, ...]
    groups: int
    padding_mode: str
    weight: Parameter
    bias: Optional[Parameter]
    def __init__(self, in_channels: int, out_channels: int, kernel_size: _size_any, stride: _size_any, padding: Union[_size_any, str], dilation: _size_any, transposed: bool, output_padding: _size_any, groups: int, bias: bool, padding_mode: str, device: Optional[_DeviceLike] = None, dtype: Optional[_dtype] = None) -> None: ...
    def reset_parameters(self) -> None: ...
    def extra_repr(self) -> str: ...

class Conv1d(_ConvNd):
    """Applies a 1D convolution over an input signal composed of several input planes (``padding`` may be ``'same'``/``'valid'``; padding modes ``zeros``, ``reflect``, ``replicate``, ``circular``)."""
    def __init__(self, in_channels: int, out_channels: int, kernel_size: _size_any, stride: _size_any = 1, padding: Union[_size_any, str] = 0, dilation: _size_any = 1, groups: int = 1, bias: bool = True, padding_mode: str = "zeros", device: Optional[_DeviceLike] = None, dtype: Optional[_dtype] = None) -> None: ...
    def forward(self, input: Tensor) -> Tensor: ...
    def __call__(self, input: Tensor) -> Tensor: ...

class Conv2d(_ConvNd):
    """Applies a 2D convolution over an input signal composed of several input planes (``padding`` may be ``'same'``/``'valid'``; padding modes ``zeros``, ``reflect``, ``replicate``, ``circular``). Computed via im2col and GEMM."""
    def __init__(self, in_channels: int, out_channels: int, kernel_size: _size_any, stride: _size_any = 1, padding: Union[_size_any, str] = 0, dilation: _size_any = 1, groups: int = 1, bias: bool = True, padding_mode: str = "zeros", device: Optional[_DeviceLike] = None, dtype: Optional[_dtype] = None) -> None: ...
    def forward(self, input: Tensor) -> Tensor: ...
    def __call__(self, input: Tensor) -> Tensor: ...

class _ConvTransposeNd(_ConvNd):
    def __init__(self, *args: Any, **kwargs: Any) -> None: ...

class ConvTranspose1d(_ConvTransposeNd):
    """Applies a 1D transposed convolution operator over an input image composed of several input planes."""
    def __init__(self, in_channels: int, out_channels: int, kernel_size: _size_any, stride: _size_any = 1, padding: _size_any = 0, output_padding: _size_any = 0, groups: int = 1, bias: bool = True, dilation: _size_any = 1, padding_mode: str = "zeros", device: Optional[_DeviceLike] = None, dtype: Optional[_dtype] = None) -> None: ...
    def forward(self, input: Tensor, output_size: Optional[Sequence[int]] = None) -> Tensor: ...
    def __call__(self, input: Tensor, output_size: Optional[Sequence[int]] = None) -> Tensor: ...

class ConvTranspose2d(_ConvTransposeNd):
    """Applies a 2D transposed convolution operator over an input image composed of several input planes."""
    def __init__(self, in_channels: int, out_channels: int, kernel_size: _size_any, stride: _size_any = 1, padding: _size_any = 0, output_padding: _size_any = 0, groups: int = 1, bias: bool = True, dilation: _size_any = 1, padding_mode: str = "zeros", device: Optional[_DeviceLike] = None, dtype: Optional[_dtype] = None) -> None: ...
    def forward(self, input: Tensor, output_size: Optional[Sequence[int]] = None) -> Tensor: ...
    def __call__(self, input: Tensor, output_size: Optional[Sequence[int]] = None) -> Tensor: ...

class Conv3d(_ConvNd):
    def __init__(self, in_channels: Any, out_channels: Any, kernel_size: Any, stride: Any = 1, padding: Any = 0, dilation: Any = 1, groups: Any = 1, bias: Any = True, padding_mode: Any = 'zeros', device: Any = None, dtype: Any = None) -> None: ...
    def forward(self, input: Any) -> Any: ...

class ConvTranspose3d(_ConvTransposeNd):
    def __init__(self, in_channels: Any, out_channels: Any, kernel_size: Any, stride: Any = 1, padding: Any = 0, output_padding: Any = 0, groups: Any = 1, bias: Any = True, dilation: Any = 1, padding_mode: Any = 'zeros', device: Any = None, dtype: Any = None) -> None: ...
    def forward(self, input: Any, output_size: Any = None) -> Any: ...

class _LazyConvXdMixin(LazyModuleMixin):
    def reset_parameters(self) -> Any: ...
    def initialize_parameters(self, input: Any, *args: Any, **kwargs: Any) -> Any: ...

class LazyConv1d(_LazyConvXdMixin, Conv1d):
    cls_to_become: type
    def __init__(self, out_channels: Any, kernel_size: Any, stride: Any = 1, padding: Any = 0, dilation: Any = 1, groups: Any = 1, bias: Any = True, padding_mode: Any = 'zeros', device: Any = None, dtype: Any = None) -> None: ...

class LazyConv2d(_LazyConvXdMixin, Conv2d):
    cls_to_become: type
    def __init__(self, out_channels: Any, kernel_size: Any, stride: Any = 1, padding: Any = 0, dilation: Any = 1, groups: Any = 1, bias: Any = True, padding_mode: Any = 'zeros', device: Any = None, dtype: Any = None) -> None: ...

class LazyConv3d(_LazyConvXdMixin, Conv3d):
    cls_to_become: type
    def __init__(self, out_channels: Any, kernel_size: Any, stride: Any = 1, padding: Any = 0, dilation: Any = 1, groups: Any = 1, bias: Any = True, padding_mode: Any = 'zeros', device: Any = None, dtype: Any = None) -> None: ...

class LazyConvTranspose1d(_LazyConvXdMixin, ConvTranspose1d):
    cls_to_become: type
    def __init__(self, out_channels: Any, kernel_size: Any, stride: Any = 1, padding: Any = 0, output_padding: Any = 0, groups: Any = 1, bias: Any = True, dilation: Any = 1, padding_mode: Any = 'zeros', device: Any = None, dtype: Any = None) -> None: ...

class LazyConvTranspose2d(_LazyConvXdMixin, ConvTranspose2d):
    cls_to_become: type
    def __init__(self, out_channels: Any, kernel_size: Any, stride: Any = 1, padding: Any = 0, output_padding: Any = 0, groups: Any = 1, bias: Any = True, dilation: Any = 1, padding_mode: Any = 'zeros', device: Any = None, dtype: Any = None) -> None: ...

class LazyConvTranspose3d(_LazyConvXdMixin, ConvTranspose3d):
    cls_to_become: type
    def __init__(self, out_channels: Any, kernel_size: Any, stride: Any = 1, padding: Any = 0, output_padding: Any = 0, groups: Any = 1, bias: Any = True, dilation: Any = 1, padding_mode: Any = 'zeros', device: Any = None, dtype: Any = None) -> None: ...

