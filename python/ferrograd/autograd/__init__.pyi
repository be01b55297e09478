"""``ferrograd.autograd``: backward, grad, custom Functions, grad modes, functional
transforms and gradient checking (``torch.autograd``)."""

from types import TracebackType
from typing import Any, Callable, Optional, Sequence, TypeVar, Union

from .. import _C
from .._C import Tensor
from . import anomaly_mode as anomaly_mode
from . import forward_ad as forward_ad
from . import function as function
from . import functional as functional
from . import grad_mode as grad_mode
from . import graph as graph
from . import profiler as profiler
from . import variable as variable
from .function import NestedIOFunction as NestedIOFunction
from .grad_mode import _DecoratorContextManager
from .profiler import DeviceType as DeviceType
from .profiler import ProfilerActivity as ProfilerActivity
from .profiler import ProfilerConfig as ProfilerConfig
from .profiler import ProfilerEvent as ProfilerEvent
from .profiler import ProfilerState as ProfilerState
from .profiler import kineto_available as kineto_available
from .anomaly_mode import detect_anomaly as detect_anomaly
from .anomaly_mode import set_detect_anomaly as set_detect_anomaly
from .function import Function as Function
from .function import FunctionCtx as FunctionCtx
from .function import once_differentiable as once_differentiable
from .grad_mode import enable_grad as enable_grad
from .grad_mode import inference_mode as inference_mode
from .grad_mode import no_grad as no_grad
from .grad_mode import set_grad_enabled as set_grad_enabled
from .gradcheck import gradcheck as gradcheck
from .gradcheck import gradgradcheck as gradgradcheck

_Tensors = Union[Tensor, Sequence[Tensor]]
_OptTensors = Union[Tensor, Sequence[Optional[Tensor]], None]
_F = TypeVar("_F", bound=Callable[..., Any])

__all__ = [
    "Variable", "Function", "backward", "grad_mode", "NestedIOFunction", "detect_anomaly", "enable_grad", "grad",
    "gradcheck", "gradgradcheck", "inference_mode", "no_grad", "set_detect_anomaly", "set_grad_enabled",
    "set_multithreading_enabled", "enforce_grad_layout_policy", "variable",
]

SavedTensor = _C.SavedTensor

def is_view_replay_enabled() -> bool:
    """``False``: ferrograd never replays views (PyTorch's default)."""
    ...

def is_multithreading_enabled() -> bool:
    """Returns True if multithreading is currently enabled."""

class set_multithreading_enabled(_DecoratorContextManager):
    """Context-manager that enables or disables multithreaded backward (thread-local; usable
    as a function). ferrograd keeps the flag but its engine does not obey it yet: backward
    runs independent branches on the worker pool when more than one thread is configured
    (``torch.set_num_threads(1)`` keeps it on the calling thread)."""
    prev: bool
    mode: bool
    def __init__(self, mode: bool) -> None: ...
    def __enter__(self) -> None: ...
    def __exit__(self, exc_type: Optional[type[BaseException]], exc_value: Optional[BaseException],
                 traceback: Optional[TracebackType]) -> None: ...
    def clone(self) -> set_multithreading_enabled:
        """Create a copy of this class."""

class enforce_grad_layout_policy(_DecoratorContextManager):
    """Context-manager that controls the gradient layout policy enforcement (thread-local;
    usable as a function or decorator). ferrograd's accumulated gradients are always row-major
    contiguous, so the flag changes no layout."""
    prev: bool
    mode: bool
    def __init__(self, enable: bool = True) -> None: ...
    def __call__(self, orig_func: _F) -> _F: ...
    def __enter__(self) -> None: ...
    def __exit__(self, exc_type: Optional[type[BaseException]], exc_value: Optional[BaseException],
                 traceback: Optional[TracebackType]) -> None: ...
    def clone(self) -> enforce_grad_layout_policy:
        """Create a copy of this class."""

class VariableMeta(type):
    """The metaclass of ``Variable``: every tensor is an instance of ``Variable``."""
    def __instancecheck__(cls, other: Any) -> bool: ...

class _ExecutionEngine:
    @staticmethod
    def queue_callback(callback: Callable[[], Any]) -> None: ...

class Variable(metaclass=VariableMeta):
    """The legacy ``Variable``: since PyTorch 0.4 a Variable is a tensor; returns a tensor
    sharing ``data``'s values, requiring grad if asked."""
    _execution_engine: _ExecutionEngine
    def __new__(cls, data: Optional[Tensor] = None, requires_grad: bool = False, volatile: bool = False) -> Tensor: ...  # type: ignore[misc]

def backward(tensors: _Tensors, grad_tensors: _OptTensors = None, retain_graph: Optional[bool] = None,
             create_graph: bool = False, grad_variables: _OptTensors = None,
             inputs: Union[Tensor, Sequence[Tensor], None] = None) -> None:
    """Compute the sum of gradients of ``tensors`` with respect to graph leaves, accumulated
    into their ``.grad``.

    Args:
        tensors: tensors of which the derivative will be computed.
        grad_tensors: the "vector" in the Jacobian-vector product, one per tensor (``None``
            for scalars, meaning 1).
        retain_graph: keep the graph's buffers for another backward (default: ``create_graph``).
        create_graph: construct the graph of the derivative, for higher-order derivatives.
        grad_variables: deprecated alias of ``grad_tensors``.
        inputs: accumulate only into these tensors' ``.grad``.
    """

def grad(outputs: _Tensors, inputs: _Tensors, grad_outputs: _OptTensors = None, retain_graph: Optional[bool] = None,
         create_graph: bool = False, only_inputs: bool = True, allow_unused: Optional[bool] = None,
         is_grads_batched: bool = False, materialize_grads: bool = False) -> tuple[Tensor, ...]:
    """Compute and return the sum of gradients of ``outputs`` with respect to ``inputs``
    (nothing is accumulated into ``.grad``).

    Args:
        outputs: outputs of the differentiated function.
        inputs: inputs w.r.t. which the gradient is returned.
        grad_outputs: the "vector" in the vector-Jacobian product (``None`` for scalars).
        retain_graph: keep the graph for another backward (default: ``create_graph``).
        create_graph: record the derivative's graph, for higher-order derivatives.
        allow_unused: if ``False``, an input not used to compute the outputs raises;
            if ``True`` its gradient is ``None``.
        materialize_grads: return zeros instead of ``None`` for unused inputs.

    ferrograd differs: ``is_grads_batched`` is accepted but not implemented (a batched
    ``grad_outputs`` raises a shape mismatch); use ``ferrograd.func.vmap`` over
    ``ferrograd.func.vjp`` instead.
    """

def _tensors(x: object) -> list[Tensor]: ...
