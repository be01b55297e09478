"""``ferrograd.optim``: the optimizers of ``torch.optim`` with the same arguments, state
dicts and update formulas (type stubs; the implementation modules hold the docstrings)."""

from collections import OrderedDict
from typing import Any, Callable, Iterable, Literal, Optional, TypeVar, Union, overload

from .._C import Tensor
from ..utils.hooks import RemovableHandle
from . import lr_scheduler as lr_scheduler
from . import swa_utils as swa_utils

__all__ = [
    "Adafactor", "Adadelta", "Adagrad", "Adam", "Adamax", "AdamW", "ASGD", "LBFGS", "NAdam", "Optimizer", "RAdam",
    "RMSprop", "Rprop", "SGD", "SparseAdam", "lr_scheduler", "swa_utils",
]

_ParamsT = Union[Iterable[Tensor], Iterable[dict[str, Any]], Iterable[tuple[str, Tensor]]]
_Float = Union[float, Tensor]
_Betas = tuple[_Float, _Float]
_O = TypeVar("_O", bound="Optimizer")

class Optimizer:
    """Base class for all optimizers (``torch.optim.Optimizer``): parameter groups, state,
    ``zero_grad``, ``state_dict``/``load_state_dict`` (PyTorch's format) and step hooks."""
    defaults: dict[str, Any]
    state: dict[Tensor, dict[str, Any]]
    param_groups: list[dict[str, Any]]
    def __init__(self, params: _ParamsT, defaults: dict[str, Any]) -> None: ...
    def __getstate__(self) -> dict[str, Any]: ...
    def __setstate__(self, state: dict[str, Any]) -> None: ...
    @overload
    def step(self, closure: None = None) -> None: ...
    @overload
    def step(self, closure: Callable[[], float]) -> float: ...
    def zero_grad(self, set_to_none: bool = True) -> None: ...
    def add_param_group(self, param_group: dict[str, Any]) -> None: ...
    def state_dict(self) -> dict[str, Any]: ...
    def load_state_dict(self, state_dict: dict[str, Any]) -> None: ...
    def register_step_pre_hook(self, hook: Callable[..., Any]) -> RemovableHandle: ...
    def register_step_post_hook(self, hook: Callable[..., Any]) -> RemovableHandle: ...
    def register_state_dict_pre_hook(self, hook: Callable[..., Any], prepend: bool = False) -> RemovableHandle:
        """Register a hook ``hook(optimizer)`` called before ``state_dict()``."""
    def register_state_dict_post_hook(self, hook: Callable[..., Any], prepend: bool = False) -> RemovableHandle:
        """Register a hook ``hook(optimizer, state_dict)`` called after ``state_dict()``; it may return a replacement."""
    def register_load_state_dict_pre_hook(self, hook: Callable[..., Any], prepend: bool = False) -> RemovableHandle:
        """Register a hook ``hook(optimizer, state_dict)`` called before ``load_state_dict()``; it may return a replacement."""
    def register_load_state_dict_post_hook(self, hook: Callable[..., Any], prepend: bool = False) -> RemovableHandle:
        """Register a hook ``hook(optimizer)`` called after ``load_state_dict()``."""
    @staticmethod
    def profile_hook_step(func: Callable[..., Any]) -> Callable[..., Any]:
        """Wrap an optimizer's ``step`` so that step pre/post hooks run around it."""

class SGD(Optimizer):
    def __init__(self, params: _ParamsT, lr: _Float = 0.001, momentum: float = 0, dampening: float = 0,
                 weight_decay: _Float = 0, nesterov: bool = False, *, maximize: bool = False, foreach: Optional[bool] = None,
                 differentiable: bool = False, fused: Optional[bool] = None) -> None: ...

class Adam(Optimizer):
    def __init__(self, params: _ParamsT, lr: _Float = 0.001, betas: _Betas = (0.9, 0.999), eps: float = 1e-08,
                 weight_decay: float = 0, amsgrad: bool = False, *, foreach: Optional[bool] = None, maximize: bool = False,
                 capturable: bool = False, differentiable: bool = False, fused: Optional[bool] = None,
                 decoupled_weight_decay: bool = False) -> None: ...

class AdamW(Adam):
    def __init__(self, params: _ParamsT, lr: _Float = 0.001, betas: _Betas = (0.9, 0.999), eps: float = 1e-08,
                 weight_decay: float = 0.01, amsgrad: bool = False, *, maximize: bool = False, foreach: Optional[bool] = None,
                 capturable: bool = False, differentiable: bool = False, fused: Optional[bool] = None) -> None: ...

class Adadelta(Optimizer):
    def __init__(self, params: _ParamsT, lr: _Float = 1.0, rho: float = 0.9, eps: float = 1e-06, weight_decay: float = 0,
                 foreach: Optional[bool] = None, *, capturable: bool = False, maximize: bool = False,
                 differentiable: bool = False) -> None: ...

class Adagrad(Optimizer):
    def __init__(self, params: _ParamsT, lr: _Float = 0.01, lr_decay: float = 0, weight_decay: float = 0,
                 initial_accumulator_value: float = 0, eps: float = 1e-10, foreach: Optional[bool] = None, *,
                 maximize: bool = False, differentiable: bool = False, fused: Optional[bool] = None) -> None: ...
    def share_memory(self) -> None: ...

class Adamax(Optimizer):
    def __init__(self, params: _ParamsT, lr: _Float = 0.002, betas: _Betas = (0.9, 0.999), eps: float = 1e-08,
                 weight_decay: float = 0, foreach: Optional[bool] = None, *, maximize: bool = False,
                 differentiable: bool = False, capturable: bool = False) -> None: ...

class ASGD(Optimizer):
    def __init__(self, params: _ParamsT, lr: _Float = 0.01, lambd: float = 0.0001, alpha: float = 0.75, t0: float = 1000000.0,
                 weight_decay: float = 0, foreach: Optional[bool] = None, maximize: bool = False, differentiable: bool = False,
                 capturable: bool = False) -> None: ...

class LBFGS(Optimizer):
    def __init__(self, params: _ParamsT, lr: _Float = 1, max_iter: int = 20, max_eval: Optional[int] = None,
                 tolerance_grad: float = 1e-07, tolerance_change: float = 1e-09, history_size: int = 100,
                 line_search_fn: Optional[Literal["strong_wolfe"]] = None) -> None: ...
    def step(self, closure: Callable[[], float]) -> float: ...  # type: ignore[override]

class NAdam(Optimizer):
    def __init__(self, params: _ParamsT, lr: _Float = 0.002, betas: _Betas = (0.9, 0.999), eps: float = 1e-08,
                 weight_decay: float = 0, momentum_decay: float = 0.004, decoupled_weight_decay: bool = False, *,
                 foreach: Optional[bool] = None, maximize: bool = False, capturable: bool = False,
                 differentiable: bool = False) -> None: ...

class RAdam(Optimizer):
    def __init__(self, params: _ParamsT, lr: _Float = 0.001, betas: _Betas = (0.9, 0.999), eps: float = 1e-08,
                 weight_decay: float = 0, decoupled_weight_decay: bool = False, *, foreach: Optional[bool] = None,
                 maximize: bool = False, capturable: bool = False, differentiable: bool = False) -> None: ...

class RMSprop(Optimizer):
    def __init__(self, params: _ParamsT, lr: _Float = 0.01, alpha: float = 0.99, eps: float = 1e-08, weight_decay: float = 0,
                 momentum: float = 0, centered: bool = False, capturable: bool = False, foreach: Optional[bool] = None,
                 maximize: bool = False, differentiable: bool = False) -> None: ...

class Rprop(Optimizer):
    def __init__(self, params: _ParamsT, lr: _Float = 0.01, etas: tuple[float, float] = (0.5, 1.2),
                 step_sizes: tuple[float, float] = (1e-06, 50), *, capturable: bool = False, foreach: Optional[bool] = None,
                 maximize: bool = False, differentiable: bool = False) -> None: ...

class Adafactor(Optimizer):
    def __init__(self, params: _ParamsT, lr: _Float = 0.01, beta2_decay: float = -0.8,
                 eps: tuple[Optional[float], float] = (None, 0.001), d: float = 1.0, weight_decay: float = 0.0, *,
                 foreach: Optional[bool] = None, maximize: bool = False) -> None: ...

class SparseAdam(Optimizer):
    def __init__(self, params: _ParamsT, lr: _Float = 0.001, betas: tuple[float, float] = (0.9, 0.999), eps: float = 1e-08,
                 maximize: bool = False) -> None: ...
