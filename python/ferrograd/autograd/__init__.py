"""``ferrograd.autograd``: backward, grad, custom Functions, grad modes, functional
transforms and gradient checking."""

from .. import _C
from .anomaly_mode import detect_anomaly, set_detect_anomaly  # noqa: F401
from .function import Function, FunctionCtx, once_differentiable  # noqa: F401
from .grad_mode import enable_grad, inference_mode, no_grad, set_grad_enabled  # noqa: F401
from .grad_mode import _DecoratorContextManager
from ._nested_io import NestedIOFunction

__all__ = [
    "Variable", "Function", "backward", "grad_mode", "NestedIOFunction", "detect_anomaly", "enable_grad", "grad",
    "gradcheck", "gradgradcheck", "inference_mode", "no_grad", "set_detect_anomaly", "set_grad_enabled",
    "set_multithreading_enabled", "enforce_grad_layout_policy", "variable",
]


class VariableMeta(type):
    """The metaclass of ``Variable``: every tensor is an instance of ``Variable``."""

    def __instancecheck__(cls, other):
        return isinstance(other, _C.Tensor)


class _ExecutionEngine:
    """``Variable._execution_engine``: the backward engine's Python handle."""

    @staticmethod
    def queue_callback(callback):
        """Run ``callback()`` once the backward pass in progress has run all its nodes (on the
        thread that called backward). Raises outside a backward pass."""
        _C._queue_callback(callback)


class Variable(metaclass=VariableMeta):
    """The legacy ``Variable``: since PyTorch 0.4 a Variable is a tensor. ``Variable(data,
    requires_grad=False)`` returns a tensor sharing ``data``'s values (a leaf), and every
    tensor is an instance of ``Variable``."""

    _execution_engine = _ExecutionEngine()

    def __new__(cls, data=None, requires_grad=False, volatile=False):
        import warnings

        if volatile:
            warnings.warn("volatile was removed and now has no effect. Use `with torch.no_grad():` instead.",
                          UserWarning, stacklevel=2)
        if data is None:
            from .. import empty

            data = empty(0)
        if not isinstance(data, _C.Tensor):
            raise TypeError(f"Variable data has to be a tensor, but got {type(data).__name__}")
        t = data.detach()
        if requires_grad:
            t.requires_grad_(True)
        return t


# ---- engine switches (thread-local, as in PyTorch) ------------------------------------------

import threading as _threading


class _EngineFlags(_threading.local):
    multithreading = True
    grad_layout_enforcement = True


_flags = _EngineFlags()


def _check_bool(fn_name, value):
    if not isinstance(value, bool):
        raise TypeError(f"{fn_name}(): argument 'enabled' (position 1) must be bool, not {type(value).__name__}")


def _set_multithreading_enabled(enabled):
    _check_bool("set_multithreading_enabled", enabled)
    # a core that exposes the switch gets it; ferrograd's engine has none yet (see the class)
    native = getattr(_C, "_set_multithreading_enabled", None)
    if native is not None:
        native(enabled)
    _flags.multithreading = enabled


def is_multithreading_enabled():
    """Returns True if multithreading is currently enabled."""
    native = getattr(_C, "_is_multithreading_enabled", None)
    return native() if native is not None else _flags.multithreading


def _set_grad_layout_enforcement_enabled(enabled):
    _check_bool("set_grad_layout_enforcement_enabled", enabled)
    _flags.grad_layout_enforcement = enabled


def _is_grad_layout_enforcement_enabled():
    return _flags.grad_layout_enforcement


class set_multithreading_enabled(_DecoratorContextManager):
    """Context-manager that enables or disables multithreaded backward.

    In PyTorch, when accelerator devices are in use, the backward pass runs on device-specific
    worker threads; with ``mode=False`` it runs on the calling thread instead. ``mode=True``
    restores the default. Usable as a context manager or as a function (the switch happens when
    it is constructed; leaving the ``with`` block restores the previous mode). Thread-local.

    Args:
        mode (bool): whether to enable multithreaded backward (``True``, default) or disable it.

    ferrograd differs: the flag is kept and read back (``torch.autograd.is_multithreading_enabled()``),
    thread-locally, with PyTorch's errors, but ferrograd's engine has no switch to obey it yet:
    its backward runs independent branches on the worker pool whenever more than one thread is
    configured (``torch.set_num_threads``; results are bitwise identical for any thread count).
    Set ``torch.set_num_threads(1)`` for a backward on the calling thread only (this also makes
    the kernels single-threaded). As in PyTorch, forward-mode AD is not affected.
    """

    def __init__(self, mode):
        self.prev = is_multithreading_enabled()
        _set_multithreading_enabled(mode)
        self.mode = mode

    def __enter__(self):
        pass

    def __exit__(self, exc_type, exc_value, traceback):
        _set_multithreading_enabled(self.prev)

    def clone(self):
        """Create a copy of this class."""
        return self.__class__(self.mode)


class enforce_grad_layout_policy(_DecoratorContextManager):
    """Context-manager that controls the gradient layout policy enforcement.

    In PyTorch, the gradient layout contract makes accumulated gradients have the strides of
    their parameters (for non-overlapping dense parameters) or be row-major contiguous
    (otherwise); with ``enable=False`` the engine relaxes it (a stealable gradient is kept with
    its own layout, and the layout-contract warning is suppressed). Usable as a context manager
    or as a function; as a decorator it switches only while the function runs. Thread-local.

    Args:
        enable (bool): whether to enforce the gradient layout contract (``True``, default) or
            relax it (``False``).

    ferrograd differs: its AccumulateGrad always stores a row-major contiguous gradient (the
    values are PyTorch's; ``p.grad.stride()`` may differ for a non-contiguous parameter), so
    the flag is kept and read back with PyTorch's errors but changes no layout.
    """

    def __init__(self, enable=True):
        self.prev = _is_grad_layout_enforcement_enabled()
        _set_grad_layout_enforcement_enabled(enable)
        self.mode = enable

    def __call__(self, orig_func):
        _set_grad_layout_enforcement_enabled(self.prev)
        return super().__call__(orig_func)

    def __enter__(self):
        pass

    def __exit__(self, exc_type, exc_value, traceback):
        _set_grad_layout_enforcement_enabled(self.prev)

    def clone(self):
        """Create a copy of this class."""
        return self.__class__(self.mode)


def _tensors(x):
    from .. import Tensor

    if x is None:
        return []
    if isinstance(x, Tensor):
        return [x]
    return list(x)


def _make_grads(outputs, grads):
    from .. import ones_like

    out = []
    for i, (o, g) in enumerate(zip(outputs, grads)):
        if g is not None:
            if tuple(g.shape) != tuple(o.shape):
                raise RuntimeError(f"Mismatch in shape: grad_output[{i}] has a shape of {g.shape} and output[{i}] has a shape of {o.shape}.")
            out.append(g)
        elif o.requires_grad:
            if o.numel() != 1:
                raise RuntimeError("grad can be implicitly created only for scalar outputs")
            if not o.dtype.is_floating_point:
                raise RuntimeError(f"grad can be implicitly created only for real scalar outputs but got {o.dtype}")
            out.append(ones_like(o))
        else:
            raise RuntimeError(f"element {i} of tensors does not require grad and does not have a grad_fn")
    return out


def _grad_list(grads, n):
    from .. import Tensor

    if grads is None:
        return [None] * n
    if isinstance(grads, Tensor):
        return [grads]
    return list(grads)


def backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False, grad_variables=None, inputs=None):
    """Accumulate gradients of ``tensors`` into the ``.grad`` of graph leaves."""
    from ..func import _batched

    _batched.refuse(tensors, grad_tensors, inputs)  # inside vmap: its loop runs this
    outputs = _tensors(tensors)
    if grad_variables is not None and grad_tensors is None:
        grad_tensors = grad_variables
    grads = _make_grads(outputs, _grad_list(grad_tensors, len(outputs)))
    if retain_graph is None:
        retain_graph = create_graph
    ins = None
    if inputs is not None:
        ins = _tensors(inputs)
        if not ins:
            raise RuntimeError("'inputs' argument to backward() cannot be empty.")
    _C._run_backward(outputs, grads, retain_graph, create_graph, ins, True)


def _batched_vjps(outs, grad_outputs, ins, retain_graph, create_graph):
    """``is_grads_batched=True``: one vector-Jacobian product per entry of the grad_outputs'
    leading dim, stacked along a new leading dim of each input's gradient."""
    from .. import stack

    batch = None
    for i, (o, g) in enumerate(zip(outs, grad_outputs)):
        if g is None:
            raise RuntimeError("grad can be implicitly created only for scalar outputs") if o.numel() != 1 else \
                RuntimeError("If `is_grads_batched=True`, every grad_output must be given (the batch dimension is read from it)")
        if tuple(g.shape[1:]) != tuple(o.shape):
            raise RuntimeError(
                "If `is_grads_batched=True`, we interpret the first dimension of each grad_output as the batch dimension. "
                "The sizes of the remaining dimensions are expected to match the shape of corresponding output, but a "
                f"mismatch was detected: grad_output[{i}] has a shape of {g.shape} and output[{i}] has a shape of {o.shape}. "
                "If you only want some tensors in `grad_output` to be considered batched, consider using vmap.")
        if batch is None:
            batch = g.shape[0]
        elif g.shape[0] != batch:
            raise RuntimeError("If `is_grads_batched=True`, every grad_output must have the same batch size")
    per = []
    for b in range(batch or 0):
        keep = retain_graph or b < batch - 1
        per.append(_C._run_backward(outs, [g[b] for g in grad_outputs], keep, create_graph, ins, False))
    res = []
    for k in range(len(ins)):
        col = [r[k] for r in per]
        res.append(None if not col or all(c is None for c in col) else stack(col))
    return res


def grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False, only_inputs=True,
         allow_unused=None, is_grads_batched=False, materialize_grads=False):
    """Gradients of ``outputs`` w.r.t. ``inputs``, returned rather than accumulated."""
    from .. import Tensor, zeros_like
    from ..func import _batched

    _batched.refuse(outputs, inputs, grad_outputs)  # inside vmap: its loop runs this

    outs = _tensors(outputs)
    single_input = isinstance(inputs, Tensor)
    ins = _tensors(inputs)
    if allow_unused is None:
        allow_unused = materialize_grads
    if materialize_grads and allow_unused is False:
        raise ValueError("Expected allow_unused to be True or not passed when materialize_grads=True, but got: allow_unused=False.")
    for i, o in enumerate(outs):
        if not o.requires_grad:
            raise RuntimeError(f"element {i} of tensors does not require grad and does not have a grad_fn")
    for t in ins:
        if not t.requires_grad:
            raise RuntimeError("One of the differentiated Tensors does not require grad")
    if retain_graph is None:
        retain_graph = create_graph
    if is_grads_batched:
        res = _batched_vjps(outs, _grad_list(grad_outputs, len(outs)), ins, retain_graph, create_graph)
    else:
        grads = _make_grads(outs, _grad_list(grad_outputs, len(outs)))
        res = _C._run_backward(outs, grads, retain_graph, create_graph, ins, False)
    out = []
    for i, (g, t) in enumerate(zip(res, ins)):
        if g is None:
            if materialize_grads:
                g = zeros_like(t)
            elif not allow_unused:
                raise RuntimeError(f"The differentiated Tensor at index {i} appears to not have been used in the graph. Set allow_unused=True if this is the desired behavior.")
        out.append(g)
    return tuple(out)


from . import functional, graph  # noqa: E402,F401
from .gradcheck import gradcheck, gradgradcheck  # noqa: E402,F401
from . import function  # noqa: E402,F401
from . import forward_ad  # noqa: E402,F401
from . import profiler  # noqa: E402,F401
from . import variable  # noqa: E402,F401

# torch.autograd re-exports these from its profiler and saved-tensor bindings
grad_mode.set_multithreading_enabled = set_multithreading_enabled
grad_mode.enforce_grad_layout_policy = enforce_grad_layout_policy
from .profiler import ProfilerActivity, ProfilerConfig, ProfilerEvent, ProfilerState, kineto_available  # noqa: E402,F401
SavedTensor = _C.SavedTensor


def is_view_replay_enabled():
    """``False``: ferrograd never replays views (``torch.autograd._force_original_view_tracking``
    does not exist here), which is PyTorch's default."""
    return False
from . import grad_mode  # noqa: E402,F401
from .profiler import DeviceType  # noqa: E402,F401

# ``function.py`` still holds a placeholder class; the implementation lives in ``_nested_io``
# (``torch.autograd.function.NestedIOFunction`` must be the same class as ``autograd``'s)
function.NestedIOFunction = NestedIOFunction
