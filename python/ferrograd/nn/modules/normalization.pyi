"""Type stubs for ``ferrograd.nn.modules.normalization`` (docstrings: see the module itself)."""

from typing import Any, Callable, Optional, Sequence, Union

from ..._C import Tensor
from ..._C import dtype as _dtype
from ..._helpers import device as _device
from ..parameter import Parameter
from .module import Module

_DeviceLike = Union[_device, str, int]
_size_any = Union[int, Sequence[int]]

__all__ = ["LayerNorm", "GroupNorm", "RMSNorm", "LocalResponseNorm", "CrossMapLRN2d"]

class LayerNorm(Module):
    """Applies Layer Normalization over the last dimensions of a mini-batch of inputs (``normalized_shape``), with optional learnable affine parameters."""
    __constants__: list[str]
    normalized_shape: tuple[int, ...]
    eps: float
    elementwise_affine: bool
    weight: Optional[Parameter]
    bias: Optional[Parameter]
    def __init__(self, normalized_shape: Union[int, Sequence[int]], eps: float = 1e-05, elementwise_affine: bool = True, bias: bool = True, device: Optional[_DeviceLike] = None, dtype: Optional[_dtype] = None) -> None: ...
    def reset_parameters(self) -> None:
        """Reset ``weight`` to ones and ``bias`` to zeros."""
    def forward(self, input: Tensor) -> Tensor: ...
    def __call__(self, input: Tensor) -> Tensor: ...
    def extra_repr(self) -> str: ...

class GroupNorm(Module):
    """Applies Group Normalization over a mini-batch of inputs: the channels are split into ``num_groups`` groups, each normalized separately."""
    __constants__: list[str]
    num_groups: int
    num_channels: int
    eps: float
    affine: bool
    weight: Optional[Parameter]
    bias: Optional[Parameter]
    def __init__(self, num_groups: int, num_channels: int, eps: float = 1e-05, affine: bool = True, device: Optional[_DeviceLike] = None, dtype: Optional[_dtype] = None, *, bias: bool = True) -> None: ...
    def reset_parameters(self) -> None:
        """Reset ``weight`` to ones and ``bias`` to zeros."""
    def forward(self, input: Tensor) -> Tensor: ...
    def __call__(self, input: Tensor) -> Tensor: ...
    def extra_repr(self) -> str: ...

class RMSNorm(Module):
    """Root-mean-square normalisation over the last ``normalized_shape`` dimensions."""
    __constants__: list[str]
    normalized_shape: tuple[int, ...]
    eps: Optional[float]
    elementwise_affine: bool
    weight: Optional[Parameter]
    def __init__(self, normalized_shape: Union[int, Sequence[int]], eps: Optional[float] = None, elementwise_affine: bool = True, device: Any = None, dtype: Any = None) -> None: ...
    def reset_parameters(self) -> None: ...
    def forward(self, x: Tensor) -> Tensor: ...
    def __call__(self, x: Tensor) -> Tensor: ...
    def extra_repr(self) -> str: ...

class LocalResponseNorm(Module):
    """Local response normalisation over channels."""
    __constants__: list[str]
    size: int
    alpha: float
    beta: float
    k: float
    def __init__(self, size: int, alpha: float = 0.0001, beta: float = 0.75, k: float = 1.0) -> None: ...
    def forward(self, input: Tensor) -> Tensor: ...
    def __call__(self, input: Tensor) -> Tensor: ...
    def extra_repr(self) -> str: ...

class CrossMapLRN2d(Module):
    """torch's legacy cross-channel local response normalisation of 4-D input."""
    size: int
    alpha: float
    beta: float
    k: float
    def __init__(self, size: int, alpha: float = 0.0001, beta: float = 0.75, k: float = 1) -> None: ...
    def forward(self, input: Tensor) -> Tensor: ...
    def __call__(self, input: Tensor) -> Tensor: ...
    def extra_repr(self) -> str: ...
