"""Type stubs for ``ferrograd.nn.modules.batchnorm`` (docstrings: see the module itself)."""

from typing import Any, Callable, Optional, Sequence, Union

from ..._C import Tensor
from ..._C import dtype as _dtype
from ..._helpers import device as _device
from ..parameter import Parameter
from .lazy import LazyModuleMixin
from .module import Module

_DeviceLike = Union[_device, str, int]
_size_any = Union[int, Sequence[int]]

__all__ = ["BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "LazyBatchNorm1d", "LazyBatchNorm2d", "LazyBatchNorm3d", "SyncBatchNorm"]

class _NormBase(Module):
    __constants__: list[str]
    num_features: int
    eps: float
    momentum: Optional[float]
    affine: bool
    track_running_stats: bool
    weight: Optional[Parameter]
    bias: Optional[Parameter]
    running_mean: Optional[Tensor]
    running_var: Optional[Tensor]
    num_batches_tracked: Optional[Tensor]
    def __init__(self, num_features: int, eps: float = 1e-05, momentum: Optional[float] = 0.1, affine: bool = True, track_running_stats: bool = True, device: Optional[_DeviceLike] = None, dtype: Optional[_dtype] = None, *, bias: bool = True) -> None: ...
    def reset_running_stats(self) -> None: ...
    def reset_parameters(self) -> None: ...
    def extra_repr(self) -> str: ...

class _BatchNorm(_NormBase):
    def forward(self, input: Tensor) -> Tensor: ...
    def __call__(self, input: Tensor) -> Tensor: ...

class BatchNorm1d(_BatchNorm):
    """Applies Batch Normalization over a 2D or 3D input ``(N, C)`` / ``(N, C, L)``, with running statistics for evaluation."""

class BatchNorm2d(_BatchNorm):
    """Applies Batch Normalization over a 4D input ``(N, C, H, W)``, with running statistics for evaluation."""

class BatchNorm3d(_BatchNorm):
    """Applies Batch Normalization over a 5D input ``(N, C, D, H, W)``, with running statistics for evaluation."""

class _LazyNormBase(LazyModuleMixin, _NormBase):
    def __init__(self, eps: Any = 1e-05, momentum: Any = 0.1, affine: Any = True, track_running_stats: Any = True, device: Any = None, dtype: Any = None, *, bias: Any = True) -> None: ...
    def reset_parameters(self) -> Any: ...
    def initialize_parameters(self, input: Any) -> Any: ...

class LazyBatchNorm1d(_LazyNormBase, _BatchNorm):
    cls_to_become: type

class LazyBatchNorm2d(_LazyNormBase, _BatchNorm):
    cls_to_become: type

class LazyBatchNorm3d(_LazyNormBase, _BatchNorm):
    cls_to_become: type

class SyncBatchNorm(_BatchNorm):
    def __init__(self, num_features: Any, eps: Any = 1e-05, momentum: Any = 0.1, affine: Any = True, track_running_stats: Any = True, process_group: Any = None, device: Any = None, dtype: Any = None, *, bias: Any = True) -> None: ...
    def forward(self, input: Any) -> Any: ...
    @classmethod
    def convert_sync_batchnorm(cls, module: Any, process_group: Any = None) -> Any: ...

