"""Type stubs for ``ferrograd.optim.swa_utils``: stochastic weight averaging and EMA of model
weights, as ``torch.optim.swa_utils`` (docstrings: see the module itself)."""

from typing import Any, Callable, Iterable, Literal, Optional, Sequence, Union

from .._C import Tensor
from ..nn.modules.module import Module
from . import Optimizer
from .lr_scheduler import LRScheduler

__all__ = [
    "AveragedModel", "update_bn", "SWALR", "get_ema_multi_avg_fn", "get_swa_multi_avg_fn", "get_ema_avg_fn",
    "get_swa_avg_fn",
]

_ParamList = Union[tuple[Tensor, ...], list[Tensor]]
_Device = Union[int, str, Any, None]

def get_ema_multi_avg_fn(decay: float = 0.999) -> Callable[[_ParamList, _ParamList, Any], None]: ...
def get_swa_multi_avg_fn() -> Callable[[_ParamList, _ParamList, Union[Tensor, int]], None]: ...
def get_ema_avg_fn(decay: float = 0.999) -> Callable[[Tensor, Tensor, Any], Tensor]: ...
def get_swa_avg_fn() -> Callable[[Tensor, Tensor, Union[Tensor, int]], Tensor]: ...

class AveragedModel(Module):
    n_averaged: Tensor
    module: Module
    avg_fn: Optional[Callable[[Tensor, Tensor, Union[Tensor, int]], Tensor]]
    multi_avg_fn: Optional[Callable[[_ParamList, _ParamList, Union[Tensor, int]], None]]
    use_buffers: bool
    def __init__(self, model: Module, device: _Device = None,
                 avg_fn: Optional[Callable[[Tensor, Tensor, Union[Tensor, int]], Tensor]] = None,
                 multi_avg_fn: Optional[Callable[[_ParamList, _ParamList, Union[Tensor, int]], None]] = None,
                 use_buffers: bool = False) -> None: ...
    def forward(self, *args: Any, **kwargs: Any) -> Any: ...
    def update_parameters(self, model: Module) -> None: ...

def update_bn(loader: Iterable[Any], model: Module, device: _Device = None) -> None: ...

class SWALR(LRScheduler):
    anneal_epochs: int
    anneal_func: Callable[[float], float]
    def __init__(self, optimizer: Optimizer, swa_lr: Union[float, Sequence[float]], anneal_epochs: int = 10,
                 anneal_strategy: Literal["cos", "linear"] = "cos", last_epoch: int = -1) -> None: ...
    def get_lr(self) -> list[float]: ...
    def state_dict(self) -> dict[str, Any]: ...
    def load_state_dict(self, state_dict: dict[str, Any]) -> None: ...
