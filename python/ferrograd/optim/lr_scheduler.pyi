"""Type stubs for ``ferrograd.optim.lr_scheduler``: the learning-rate schedulers of
``torch.optim.lr_scheduler`` (docstrings: see the module itself)."""

from typing import Any, Callable, Literal, Optional, Sequence, SupportsFloat, Union

from .._C import Tensor
from . import Optimizer

__all__ = [
    "LambdaLR", "MultiplicativeLR", "StepLR", "MultiStepLR", "ConstantLR", "LinearLR", "ExponentialLR",
    "SequentialLR", "CosineAnnealingLR", "ChainedScheduler", "ReduceLROnPlateau", "CyclicLR",
    "CosineAnnealingWarmRestarts", "OneCycleLR", "PolynomialLR", "LRScheduler",
]

inf: float
EPOCH_DEPRECATION_WARNING: str
_Floats = Union[float, Sequence[float]]

class LRScheduler:
    optimizer: Optimizer
    base_lrs: list[float]
    last_epoch: int
    def __init__(self, optimizer: Optimizer, last_epoch: int = -1) -> None: ...
    def state_dict(self) -> dict[str, Any]: ...
    def load_state_dict(self, state_dict: dict[str, Any]) -> None: ...
    def get_last_lr(self) -> list[float]: ...
    def get_lr(self) -> list[float]: ...
    def step(self, epoch: Optional[int] = None) -> None: ...

class _LRScheduler(LRScheduler): ...

class LambdaLR(LRScheduler):
    def __init__(self, optimizer: Optimizer, lr_lambda: Union[Callable[[int], float], list[Callable[[int], float]]],
                 last_epoch: int = -1) -> None: ...

class MultiplicativeLR(LRScheduler):
    def __init__(self, optimizer: Optimizer, lr_lambda: Union[Callable[[int], float], list[Callable[[int], float]]],
                 last_epoch: int = -1) -> None: ...

class StepLR(LRScheduler):
    def __init__(self, optimizer: Optimizer, step_size: int, gamma: float = 0.1, last_epoch: int = -1) -> None: ...

class MultiStepLR(LRScheduler):
    def __init__(self, optimizer: Optimizer, milestones: Sequence[int], gamma: float = 0.1, last_epoch: int = -1) -> None: ...

class ConstantLR(LRScheduler):
    def __init__(self, optimizer: Optimizer, factor: float = ..., total_iters: int = 5, last_epoch: int = -1) -> None: ...

class LinearLR(LRScheduler):
    def __init__(self, optimizer: Optimizer, start_factor: float = ..., end_factor: float = 1.0, total_iters: int = 5,
                 last_epoch: int = -1) -> None: ...

class ExponentialLR(LRScheduler):
    def __init__(self, optimizer: Optimizer, gamma: float, last_epoch: int = -1) -> None: ...

class SequentialLR(LRScheduler):
    def __init__(self, optimizer: Optimizer, schedulers: list[LRScheduler], milestones: list[int], last_epoch: int = -1) -> None: ...
    def recursive_undo(self, sched: Optional[LRScheduler] = None) -> None: ...
    def step(self) -> None: ...  # type: ignore[override]

class PolynomialLR(LRScheduler):
    def __init__(self, optimizer: Optimizer, total_iters: int = 5, power: float = 1.0, last_epoch: int = -1) -> None: ...

class CosineAnnealingLR(LRScheduler):
    def __init__(self, optimizer: Optimizer, T_max: int, eta_min: float = 0.0, last_epoch: int = -1) -> None: ...

class ChainedScheduler(LRScheduler):
    def __init__(self, schedulers: Sequence[LRScheduler], optimizer: Optional[Optimizer] = None) -> None: ...
    def step(self) -> None: ...  # type: ignore[override]

class ReduceLROnPlateau(LRScheduler):
    def __init__(self, optimizer: Optimizer, mode: Literal["min", "max"] = "min", factor: float = 0.1, patience: int = 10,
                 threshold: float = 1e-4, threshold_mode: Literal["rel", "abs"] = "rel", cooldown: int = 0,
                 min_lr: Union[float, list[float]] = 0, eps: float = 1e-8) -> None: ...
    def step(self, metrics: SupportsFloat, epoch: Optional[int] = None) -> None: ...  # type: ignore[override]
    @property
    def in_cooldown(self) -> bool:
        """``True`` while the scheduler waits ``cooldown`` epochs after a reduction."""

class CyclicLR(LRScheduler):
    def __init__(self, optimizer: Optimizer, base_lr: _Floats, max_lr: _Floats, step_size_up: int = 2000,
                 step_size_down: Optional[int] = None, mode: Literal["triangular", "triangular2", "exp_range"] = "triangular",
                 gamma: float = 1.0, scale_fn: Optional[Callable[[float], float]] = None,
                 scale_mode: Literal["cycle", "iterations"] = "cycle", cycle_momentum: bool = True,
                 base_momentum: _Floats = 0.8, max_momentum: _Floats = 0.9, last_epoch: int = -1) -> None: ...
    def scale_fn(self, x: float) -> float: ...

class CosineAnnealingWarmRestarts(LRScheduler):
    def __init__(self, optimizer: Optimizer, T_0: int, T_mult: int = 1, eta_min: float = 0.0, last_epoch: int = -1) -> None: ...
    def step(self, epoch: Optional[float] = None) -> None: ...  # type: ignore[override]

class OneCycleLR(LRScheduler):
    def __init__(self, optimizer: Optimizer, max_lr: _Floats, total_steps: Optional[int] = None, epochs: Optional[int] = None,
                 steps_per_epoch: Optional[int] = None, pct_start: float = 0.3, anneal_strategy: Literal["cos", "linear"] = "cos",
                 cycle_momentum: bool = True, base_momentum: _Floats = 0.85, max_momentum: _Floats = 0.95,
                 div_factor: float = 25.0, final_div_factor: float = 10000.0, three_phase: bool = False,
                 last_epoch: int = -1) -> None: ...
