"""Type stubs for ``ferrograd.nn.modules.dropout`` (docstrings: see the module itself)."""

from typing import Any, Callable, Optional, Sequence, Union

from ..._C import Tensor
from ..._C import dtype as _dtype
from ..._helpers import device as _device
from ..parameter import Parameter
from .module import Module

_DeviceLike = Union[_device, str, int]
_size_any = Union[int, Sequence[int]]

__all__ = ["Dropout", "Dropout1d", "Dropout2d", "Dropout3d", "AlphaDropout", "FeatureAlphaDropout"]

class _DropoutNd(Module):
    __constants__: list[str]
    p: float
    inplace: bool
    def __init__(self, p: float = 0.5, inplace: bool = False) -> None: ...
    def extra_repr(self) -> str: ...

class Dropout(_DropoutNd):
    """During training, randomly zeroes some of the elements of the input tensor with probability ``p`` and scales the rest by ``1 / (1 - p)``; the identity in eval mode. Masks follow PyTorch's CPU random stream."""
    def forward(self, input: Tensor) -> Tensor: ...
    def __call__(self, input: Tensor) -> Tensor: ...

class Dropout1d(_DropoutNd):
    """Randomly zero out entire channels (1D feature maps) with probability ``p`` during training."""
    def forward(self, input: Tensor) -> Tensor: ...
    def __call__(self, input: Tensor) -> Tensor: ...

class Dropout2d(_DropoutNd):
    """Randomly zero out entire channels (2D feature maps) with probability ``p`` during training."""
    def forward(self, input: Tensor) -> Tensor: ...
    def __call__(self, input: Tensor) -> Tensor: ...

class Dropout3d(_DropoutNd):
    """Randomly zero out entire channels (3D feature maps) with probability ``p`` during training."""
    def forward(self, input: Tensor) -> Tensor: ...
    def __call__(self, input: Tensor) -> Tensor: ...

class AlphaDropout(_DropoutNd):
    """Alpha dropout (for SELU networks), keeping the mean and variance of the input."""
    def forward(self, input: Tensor) -> Tensor: ...
    def __call__(self, input: Tensor) -> Tensor: ...

class FeatureAlphaDropout(_DropoutNd):
    """Alpha dropout of whole channels."""
    def forward(self, input: Tensor) -> Tensor: ...
    def __call__(self, input: Tensor) -> Tensor: ...
