"""``torch.utils.checkpoint``: activation checkpointing.

``checkpoint(fn, *args, use_reentrant=...)`` trades compute for memory: the forward keeps no
intermediate activations of ``fn``; backward recomputes them.

* ``use_reentrant=True``: ``fn`` runs under ``no_grad`` inside a custom ``autograd.Function``
  (``CheckpointFunction``, node ``CheckpointFunctionBackward``) that saves only the inputs (and
  the RNG state); its backward re-runs ``fn`` with grad enabled and backpropagates through the
  recomputed graph (a backward inside the backward, as in PyTorch).
* ``use_reentrant=False``: ``fn`` runs normally but under saved-tensor hooks that replace every
  tensor the graph would save by an index; the first time backward unpacks one of them, ``fn``
  is recomputed once (with the saved RNG state) and the recomputed tensors are handed out.
  The output's ``grad_fn`` is the real last op of ``fn``, as in PyTorch.
"""

import contextlib
import warnings

from .. import autograd as _autograd
from ..autograd.function import Function

__all__ = ["checkpoint", "checkpoint_sequential", "CheckpointFunction", "detach_variable",
           "noop_context_fn", "CheckpointError", "set_checkpoint_debug_enabled", "get_device_states",
           "set_device_states"]

_checkpoint_debug_enabled = None


class set_checkpoint_debug_enabled(contextlib.ContextDecorator):
    """Context manager that sets whether non-reentrant checkpoint runs with ``debug`` on,
    overriding the per-call ``debug`` argument (None: use the argument)."""

    def __init__(self, enabled):
        self.enabled = enabled
        self.prev = None

    def __enter__(self):
        global _checkpoint_debug_enabled
        self.prev = _checkpoint_debug_enabled
        _checkpoint_debug_enabled = self.enabled

    def __exit__(self, *exc):
        global _checkpoint_debug_enabled
        _checkpoint_debug_enabled = self.prev


class CheckpointError(RuntimeError):
    """Raised when the recomputed forward differs from the original (``determinism_check``)."""


def noop_context_fn():
    return contextlib.nullcontext(), contextlib.nullcontext()


def detach_variable(inputs):
    from .. import Tensor

    if isinstance(inputs, tuple):
        out = []
        for inp in inputs:
            if not isinstance(inp, Tensor):
                out.append(inp)
                continue
            x = inp.detach()
            x.requires_grad = inp.requires_grad
            out.append(x)
        return tuple(out)
    raise RuntimeError(
        "Only tuple of tensors is supported. Got Unsupported input type: ", type(inputs).__name__)


def check_backward_validity(inputs):
    from .. import Tensor

    if not any(isinstance(inp, Tensor) and inp.requires_grad for inp in inputs):
        warnings.warn("None of the inputs have requires_grad=True. Gradients will be None")


def get_device_states(*args):
    """The accelerator devices of the tensors in ``args`` and their RNG states, which checkpoint
    restores on recompute. ferrograd's CUDA tensors draw their random numbers from the CPU
    generator (restored separately), so there is no per-device state: ``([], [])``."""
    return [], []


def set_device_states(devices, states, *, device_type=None):
    """Restore per-device RNG states from ``get_device_states``. There are none here (CUDA
    random numbers come from the CPU generator); a non-empty list is refused rather than ignored."""
    if list(devices) or list(states):
        raise RuntimeError("set_device_states: ferrograd has no per-device RNG state (CUDA tensors draw "
                           "from the CPU generator); restore it with torch.set_rng_state")


@contextlib.contextmanager
def _rng_restored(state, enabled):
    """Run the body with the CPU generator set to ``state``; restore the outer state after."""
    import ferrograd

    if not enabled:
        yield
        return
    outer = ferrograd.get_rng_state()
    ferrograd.set_rng_state(state)
    try:
        yield
    finally:
        ferrograd.set_rng_state(outer)


class CheckpointFunction(Function):
    @staticmethod
    def forward(ctx, run_function, preserve_rng_state, *args):
        import ferrograd

        check_backward_validity(args)
        ctx.run_function = run_function
        ctx.preserve_rng_state = preserve_rng_state
        if preserve_rng_state:
            ctx.fwd_cpu_state = ferrograd.get_rng_state()
        ctx.inputs = []
        ctx.tensor_indices = []
        tensor_inputs = []
        for i, arg in enumerate(args):
            if isinstance(arg, ferrograd.Tensor):
                tensor_inputs.append(arg)
                ctx.tensor_indices.append(i)
                ctx.inputs.append(None)
            else:
                ctx.inputs.append(arg)
        ctx.save_for_backward(*tensor_inputs)
        with ferrograd.no_grad():
            outputs = run_function(*args)
        return outputs

    @staticmethod
    def backward(ctx, *args):
        import ferrograd

        inputs = list(ctx.inputs)
        for i, idx in enumerate(ctx.tensor_indices):
            inputs[idx] = ctx.saved_tensors[i]
        with _rng_restored(ctx.fwd_cpu_state if ctx.preserve_rng_state else None,
                           ctx.preserve_rng_state):
            detached_inputs = detach_variable(tuple(inputs))
            with ferrograd.enable_grad():
                outputs = ctx.run_function(*detached_inputs)
        if isinstance(outputs, ferrograd.Tensor):
            outputs = (outputs,)
        outputs_with_grad = []
        args_with_grad = []
        for i in range(len(outputs)):
            if isinstance(outputs[i], ferrograd.Tensor) and outputs[i].requires_grad:
                outputs_with_grad.append(outputs[i])
                args_with_grad.append(args[i])
        if len(outputs_with_grad) == 0:
            raise RuntimeError("none of output has requires_grad=True, this checkpoint() is not necessary")
        _autograd.backward(outputs_with_grad, args_with_grad)
        grads = tuple(inp.grad if isinstance(inp, ferrograd.Tensor) else None for inp in detached_inputs)
        return (None, None) + grads


class _Recompute:
    """State shared by the pack/unpack hooks of one non-reentrant checkpoint."""

    def __init__(self, function, args, kwargs, preserve, rng_state, context_fn, determinism_check,
                 debug=False):
        self.debug = debug
        self.function = function
        self.args = args
        self.kwargs = kwargs
        self.preserve = preserve
        self.rng_state = rng_state
        self.context_fn = context_fn
        self.determinism_check = determinism_check
        self.shapes = []
        self.recomputed = None

    def pack(self, t):
        self.shapes.append(_meta(t))
        return len(self.shapes) - 1

    def unpack(self, idx):
        if self.recomputed is None:
            self._recompute()
        if idx >= len(self.recomputed):
            raise CheckpointError(
                "torch.utils.checkpoint: Unpack is being triggered for a tensor that was already "
                "unpacked once. If you are calling ctx.saved_tensors in backward, make sure to do "
                "so only once. Otherwise please open an issue with details on your use case.")
        return self.recomputed[idx]

    def _recompute(self):
        import ferrograd

        saved = []

        def rpack(t):
            saved.append(t.detach())
            return len(saved) - 1

        def runpack(i):
            return saved[i]

        args = detach_variable(tuple(self.args))
        _, recompute_ctx = self.context_fn()
        with _rng_restored(self.rng_state, self.preserve), ferrograd.enable_grad(), \
                _autograd.graph.saved_tensors_hooks(rpack, runpack), recompute_ctx:
            self.function(*args, **self.kwargs)
        if self.determinism_check == "default":
            got = [_meta(t) for t in saved]
            self._check(got)
        self.recomputed = saved

    def _debug_note(self, got):
        if not self.debug:
            return _TIP
        fmt = lambda meta: "\n".join(f"  {i}: {_meta_str(m)}" for i, m in enumerate(meta))  # noqa: E731
        return ("\nTensors saved during the original forward (debug=True):\n" + fmt(self.shapes) +
                "\nTensors saved during the recomputation:\n" + fmt(got) + "\n")

    def _check(self, got):
        if len(got) < len(self.shapes):
            raise CheckpointError(
                "torch.utils.checkpoint: A different number of tensors was saved during the "
                "original forward and recomputation.\n"
                f"Number of tensors saved during forward: {len(self.shapes)}\n"
                f"Number of tensors saved during recomputation: {len(got)}.\n" + self._debug_note(got))
        bad = [i for i, (a, b) in enumerate(zip(self.shapes, got)) if a != b]
        if bad:
            lines = ["torch.utils.checkpoint: Recomputed values for the following tensors have "
                     "different metadata than during the forward pass.\n"]
            for i in bad:
                lines.append(f"tensor at position {i}:\n"
                             f"saved metadata: {_meta_str(self.shapes[i])}\n"
                             f"recomputed metadata: {_meta_str(got[i])}\n")
            raise CheckpointError("".join(lines) + ".\n" + self._debug_note(got))


def _meta(t):
    return (t.shape, t.dtype, t.device)


def _meta_str(m):
    return f"{{'shape': {m[0]!r}, 'dtype': {m[1]}, 'device': {m[2]!r}}}"


_TIP = ("\nTip: To see a more detailed error message, either pass `debug=True` to\n"
        "`torch.utils.checkpoint.checkpoint(...)` or wrap the code block\n"
        "with `with torch.utils.checkpoint.set_checkpoint_debug_enabled(True):` to\n"
        "enable checkpoint\u2011debug mode globally.\n")


def checkpoint(function, *args, use_reentrant=None, context_fn=noop_context_fn,
               determinism_check="default", debug=False, early_stop=True, **kwargs):
    """Checkpoint a model or part of the model (see the module docstring)."""
    import ferrograd

    if use_reentrant is None:
        warnings.warn(
            "torch.utils.checkpoint: the use_reentrant parameter should be "
            "passed explicitly. Starting in PyTorch 2.9, calling checkpoint "
            "without use_reentrant will raise an exception. use_reentrant=False is "
            "recommended, but if you need to preserve the current default "
            "behavior, you can pass use_reentrant=True. Refer to docs for more "
            "details on the differences between the two variants.",
            stacklevel=2)
        use_reentrant = True
    preserve = kwargs.pop("preserve_rng_state", True)
    if kwargs and use_reentrant:
        raise ValueError("Unexpected keyword arguments: " + ",".join(arg for arg in kwargs))
    if use_reentrant:
        if context_fn is not noop_context_fn or debug is not False:
            raise ValueError("Passing `context_fn` or `debug` is only supported when use_reentrant=False.")
        return CheckpointFunction.apply(function, preserve, *args)
    if determinism_check not in ("default", "none"):
        raise ValueError(
            f"determinism_check should be one of ['default', 'none'], but got {determinism_check}")
    if context_fn is not noop_context_fn and not callable(context_fn):
        raise TypeError("context_fn must be callable")
    if not any(isinstance(a, ferrograd.Tensor) and a.requires_grad for a in args) and \
            not ferrograd.is_grad_enabled():
        return function(*args, **kwargs)
    rng_state = ferrograd.get_rng_state() if preserve else None
    if _checkpoint_debug_enabled is not None:
        debug = _checkpoint_debug_enabled
    state = _Recompute(function, args, kwargs, preserve, rng_state, context_fn, determinism_check, debug)
    forward_ctx, _ = context_fn()
    with _autograd.graph.saved_tensors_hooks(state.pack, state.unpack), forward_ctx:
        return function(*args, **kwargs)


def checkpoint_sequential(functions, segments, input, use_reentrant=None, **kwargs):
    """Checkpoint all segments but the last of a sequential model."""
    import ferrograd

    if use_reentrant is None:
        warnings.warn(
            "torch.utils.checkpoint.checkpoint_sequential: the use_reentrant "
            "parameter should be passed explicitly. "
            "In version 2.9 we will raise an exception if use_reentrant "
            "is not passed. use_reentrant=False is "
            "recommended, but if you need to preserve the current default "
            "behavior, you can pass use_reentrant=True. Refer to docs for more "
            "details on the differences between the two variants.", stacklevel=2)
        use_reentrant = True
    preserve = kwargs.pop("preserve_rng_state", True)
    if kwargs:
        raise ValueError("Unexpected keyword arguments: " + ",".join(arg for arg in kwargs))

    def run_function(start, end, functions):
        def forward(input):
            for j in range(start, end + 1):
                input = functions[j](input)
            return input

        return forward

    if isinstance(functions, ferrograd.nn.Sequential):
        functions = list(functions.children())
    segment_size = len(functions) // segments
    end = -1
    for start in range(0, segment_size * (segments - 1), segment_size):
        end = start + segment_size - 1
        input = checkpoint(run_function(start, end, functions), input,
                           use_reentrant=use_reentrant, preserve_rng_state=preserve)
    return run_function(end + 1, len(functions) - 1, functions)(input)
