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
import enum
import threading
import warnings
from collections import defaultdict

from .. import _C
from .. import autograd as _autograd
from ..autograd.function import Function

__all__ = ["checkpoint", "checkpoint_sequential", "CheckpointError", "CheckpointFunction", "check_backward_validity",
           "detach_variable", "get_device_states", "set_device_states", "noop_context_fn", "set_checkpoint_early_stop",
           "DefaultDeviceType", "set_checkpoint_debug_enabled", "CheckpointPolicy", "SelectiveCheckpointContext",
           "create_selective_checkpoint_contexts", "SAC_IGNORED_OPS", "GraphExecGroup"]

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
    """The default ``context_fn`` of ``checkpoint``: two ``contextlib.nullcontext()`` (forward,
    recomputation)."""
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
    """Warn (PyTorch's warning) when no tensor among ``inputs`` requires grad."""
    from .. import Tensor

    if not any(isinstance(inp, Tensor) and inp.requires_grad for inp in inputs):
        warnings.warn("None of the inputs have requires_grad=True. Gradients will be None")


class DefaultDeviceType:
    """A class that manages the default device type for checkpointing.

    If no non-CPU tensors are present, the default device type will be used. Unset, it is the
    current accelerator's type (``"cuda"`` when a GPU is usable), else ``"cpu"``. The device
    type is used in the checkpointing process when determining which device states to save and
    restore for recomputation.
    """

    _default_device_type = None

    @staticmethod
    def set_device_type(device="cuda"):
        """Set the default device type for checkpointing.

        Args:
            device (str): The device type to be set as default. Default is 'cuda'.
        """
        DefaultDeviceType._default_device_type = device

    @staticmethod
    def get_device_type():
        """Get the current default device type for checkpointing (a ``str``)."""
        if not DefaultDeviceType._default_device_type:
            from .. import accelerator

            acc = accelerator.current_accelerator(True)
            DefaultDeviceType._default_device_type = acc.type if acc else "cpu"
        return DefaultDeviceType._default_device_type


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

        if not ferrograd._C._is_checkpoint_valid():
            raise RuntimeError(
                "When use_reentrant=True, torch.utils.checkpoint is incompatible with .grad() or passing an `inputs` "
                "parameter to .backward(). To resolve this error, you can either set use_reentrant=False, or call "
                ".backward() without passing the `inputs` argument.")
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

    def __init__(self, function, args, kwargs, preserve, rng_state, recompute_ctx, determinism_check,
                 debug=False, early_stop=True):
        self.debug = debug
        self.early_stop = early_stop
        self.function = function
        self.args = args
        self.kwargs = kwargs
        self.preserve = preserve
        self.rng_state = rng_state
        self.recompute_ctx = recompute_ctx
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
        expected = len(self.shapes)

        def rpack(t):
            if len(saved) >= expected:
                raise CheckpointError("torch.utils.checkpoint: trying to save more tensors during "
                                      "recomputation than during the original forward pass.\n" + _TIP)
            saved.append(t.detach())
            if self.early_stop and len(saved) == expected:
                raise _StopRecomputationError  # every tensor backward needs is recomputed
            return len(saved) - 1

        def runpack(i):
            return saved[i]

        args = detach_variable(tuple(self.args))
        try:
            with _rng_restored(self.rng_state, self.preserve), ferrograd.enable_grad(), \
                    _autograd.graph.saved_tensors_hooks(rpack, runpack), self.recompute_ctx:
                self.function(*args, **self.kwargs)
        except _StopRecomputationError:
            pass
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


class _StopRecomputationError(Exception):
    pass


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
    """Checkpoint a model or part of the model (see the module docstring).

    With ``use_reentrant=False``: ``early_stop=True`` (or ``set_checkpoint_early_stop``) stops
    the recomputation as soon as every tensor backward needs is recomputed (code of
    ``function`` after that point does not run again); ``context_fn`` returns the two context
    managers entered around the forward and the recomputation
    (``create_selective_checkpoint_contexts`` makes them for selective checkpointing: see
    there what differs from PyTorch).
    """
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
    if _enable_checkpoint_early_stop is not None:
        early_stop = _enable_checkpoint_early_stop
    forward_ctx, recompute_ctx = context_fn()
    state = _Recompute(function, args, kwargs, preserve, rng_state, recompute_ctx, determinism_check, debug,
                       early_stop)
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


# ---- early stop ---------------------------------------------------------------------------------

_enable_checkpoint_early_stop = None


@contextlib.contextmanager
def set_checkpoint_early_stop(enable):
    """Controls whether checkpoint should stop recomputation early.

    By default, non-reentrant checkpoint stops recomputation as soon as it
    has computed all needed Tensors. This context manager can be used to disable
    that feature if it is problematic for your specific application.

    This context manager only needs to be active when forward is run. It does
    not need to be active during backward.

    Example::

        >>> with set_checkpoint_early_stop(False):
        ...     # Any checkpoint under this context manager will respect this
        ...     # context manager, even if its backward is performed outside.
        ...     out = checkpoint(fn, inputs, use_reentrant=False)
        >>> out.backward()
    """
    global _enable_checkpoint_early_stop
    try:
        prev = _enable_checkpoint_early_stop
        _enable_checkpoint_early_stop = enable
        yield
    finally:
        _enable_checkpoint_early_stop = prev


# ---- selective activation checkpointing ---------------------------------------------------------
# PyTorch implements it with two TorchDispatchModes that see every op of the checkpointed region:
# the forward one asks the policy, after each op, whether to cache its output; the recomputation
# one hands the cached outputs back in the same order.  ferrograd sees the ops that record
# autograd history through the core's record observer (``_C._push_record_observer``): each is
# known by its backward node, named as PyTorch's, hence by the ATen overload PyTorch's mode sees
# (``_ops.op_of_node``).  In the recomputation the op still runs and its outputs take the cached
# values (what the backward sees is PyTorch's; the compute is not saved).


class SelectiveCheckpointContext:
    """Context passed to policy function during selective checkpointing.

    This class is used to pass relevant metadata to the policy function during
    selective checkpointing. The metadata includes whether the current invocation
    of the policy function is during recomputation or not (``is_recompute``; the policy is
    only consulted in the forward, after the op ran) and the op's output (``op_output``).
    """

    def __init__(self, *, is_recompute, op_output=None):
        self.is_recompute = is_recompute
        self.op_output = op_output


class CheckpointPolicy(enum.Enum):
    """Enum for specifying the policy for checkpointing during backpropagation.

    - ``{MUST,PREFER}_SAVE``: The operation's output will be saved during the forward
      pass and will not be recomputed during the backward pass
    - ``{MUST,PREFER}_RECOMPUTE``: The operation's output will not be saved during the
      forward pass and will be recomputed during the backward pass
    - ``{MUST,PREFER}_CPU_OFFLOAD``: The operation's output will be saved during the
      forward pass, offloaded to CPU, and reloaded to GPU during the backward pass

    Use ``MUST_*`` over ``PREFER_*`` to indicate that the policy should not be overridden
    by other subsystems like `torch.compile`. A policy returning ``PREFER_RECOMPUTE`` for every
    op is equivalent to vanilla checkpointing.
    """

    MUST_SAVE = 0
    PREFER_SAVE = 1
    MUST_RECOMPUTE = 2
    PREFER_RECOMPUTE = 3
    MUST_CPU_OFFLOAD = 4
    PREFER_CPU_OFFLOAD = 5


def _policy_from_bool(b):
    # For backward compatibility
    return CheckpointPolicy.MUST_SAVE if b else CheckpointPolicy.PREFER_RECOMPUTE


def _sac_ignored_ops():
    from .._ops import overload

    names = [("aten", "detach", "default"), ("prim", "device", "default"),
             # FunctionalTensor.metadata_fns
             ("aten", "is_contiguous", "default"), ("aten", "is_contiguous", "memory_format"),
             ("aten", "is_strides_like_format", "default"), ("aten", "is_non_overlapping_and_dense", "default"),
             ("aten", "size", "default"), ("aten", "sym_size", "default"), ("aten", "stride", "default"),
             ("aten", "sym_stride", "default"), ("aten", "storage_offset", "default"),
             ("aten", "sym_storage_offset", "default"), ("aten", "numel", "default"),
             ("aten", "sym_numel", "default"), ("aten", "dim", "default")]
    return {overload(*n) for n in names}


# The ops selective checkpointing never caches.
SAC_IGNORED_OPS = _sac_ignored_ops()


class _VersionWrapper:
    # Check that cached tensors are not mutated.
    def __init__(self, val):
        self.val = val
        self.version = val._version

    def get_val(self, allow_cache_entry_mutation):
        if not allow_cache_entry_mutation and self.val._version != self.version:
            raise RuntimeError("Tensor cached during selective activation checkpoint has been mutated")
        return self.val


_RECOMPUTE = object()
_CONSUMED = object()

_SAC_MISMATCH_MSG = ("This can happen if the operations in the checkpointed region are "
                     "nondeterministic or depend on global state that changed between "
                     "forward and backward.")


class _SACMode:
    """A selective-checkpointing context: sees each op recorded on this thread while entered
    (the core's record observer), numbered per op as PyTorch's modes count them."""

    def __init__(self, storage):
        self.storage = storage
        self.func_counter = defaultdict(int)

    def _observe(self, name, in_place, outputs):
        from .._ops import op_of_node

        func = op_of_node(name, in_place)
        if func is None or func in SAC_IGNORED_OPS:
            return None
        idx = self.func_counter[func]
        self.func_counter[func] += 1
        return self._op(func, idx, outputs)

    def __enter__(self):
        _C._push_record_observer(self._observe)
        return self

    def __exit__(self, *exc):
        _C._pop_record_observer()
        return False


class _CachingTorchDispatchMode(_SACMode):
    """The forward context of selective checkpointing: after each recorded op, asks
    ``policy_fn`` whether to cache its outputs (PyTorch: a TorchDispatchMode)."""

    def __init__(self, policy_fn, storage):
        super().__init__(storage)
        self.policy_fn = policy_fn

    def _op(self, func, idx, outputs):
        out = outputs[0] if len(outputs) == 1 else tuple(outputs)
        policy = self.policy_fn(SelectiveCheckpointContext(is_recompute=False, op_output=out), func)
        if isinstance(policy, bool):
            policy = _policy_from_bool(policy)
        if policy in (CheckpointPolicy.MUST_SAVE, CheckpointPolicy.PREFER_SAVE):
            self.storage[func][idx] = [_VersionWrapper(o.detach()) for o in outputs]
        else:
            self.storage[func][idx] = _RECOMPUTE
        return None


class _CachedTorchDispatchMode(_SACMode):
    """The recomputation context of selective checkpointing: each recorded op whose outputs
    the forward cached takes the cached values (PyTorch returns them without running it)."""

    def __init__(self, policy_fn, storage, allow_cache_entry_mutation=False):
        super().__init__(storage)
        self.allow_cache_entry_mutation = allow_cache_entry_mutation

    def _op(self, func, idx, outputs):
        func_storage = self.storage.get(func)
        if func_storage is None:
            raise RuntimeError(f"{func} encountered during backward but not found in storage. {_SAC_MISMATCH_MSG}")
        entry = func_storage.get(idx)
        if entry is None:
            raise RuntimeError(f"{func} invocation index {idx} encountered during backward but not found in "
                               f"storage. {_SAC_MISMATCH_MSG}")
        if entry is _CONSUMED:
            raise RuntimeError("Trying to backward an extra time. You are only allowed to backward once on "
                               "any region computed under selective activation checkpoint.")
        if entry is _RECOMPUTE:
            return None
        func_storage[idx] = _CONSUMED
        return [w.get_val(self.allow_cache_entry_mutation) for w in entry]

    def __enter__(self):
        # reset so that a second recomputation hits "backward an extra time"
        self.func_counter.clear()
        return super().__enter__()


def create_selective_checkpoint_contexts(policy_fn_or_list, allow_cache_entry_mutation=False):
    """Helper to avoid recomputing certain ops during activation checkpointing.

    Use this with ``torch.utils.checkpoint.checkpoint(..., use_reentrant=False,
    context_fn=functools.partial(create_selective_checkpoint_contexts, policy))`` to control
    which operations are recomputed during the backward pass.

    Args:
        policy_fn_or_list (Callable or List): a policy function
            ``policy_fn(ctx, op, *args, **kwargs) -> CheckpointPolicy`` (a bool is read as
            ``MUST_SAVE``/``PREFER_RECOMPUTE``), or a list of ``OpOverload`` to save
            (``torch.ops.aten.mm.default``).
        allow_cache_entry_mutation (bool, optional): whether mutating a cached tensor is
            allowed (``RuntimeError`` otherwise, when the recomputation reaches it).

    The result is a tuple of two context managers (forward, recomputation).

    ferrograd differs: the policy sees the ops that record autograd history (ops on tensors
    that require grad), each as the ``OpOverload`` PyTorch names it, called after the op with
    ``ctx.op_output`` but without the op's arguments (``args`` and ``kwargs`` are empty); in
    the recomputation a cached op still runs and its outputs take the cached values, so
    gradients and values are PyTorch's but the compute is not saved.
    """
    from .._ops import OpOverload, OpOverloadPacket

    if isinstance(policy_fn_or_list, list):
        for op in policy_fn_or_list:
            if not isinstance(op, OpOverload):
                extra = ("Please update the OpOverloadPacket to a specific OpOverload."
                         "For example, if you have `torch.ops.aten.mm`, change it to `torch.ops.aten.mm.default`."
                         if isinstance(op, OpOverloadPacket) else "")
                raise ValueError(f"Expected op in `op_list` to be an OpOverload but got: {op} of type {type(op)}. {extra}")

        def policy_fn(ctx, op, *args, **kwargs):
            if op in policy_fn_or_list:
                return CheckpointPolicy.MUST_SAVE
            return CheckpointPolicy.PREFER_RECOMPUTE
    elif callable(policy_fn_or_list):
        policy_fn = policy_fn_or_list
    else:
        raise TypeError("policy_fn_or_list must be either a function or a list of ops.")

    storage = defaultdict(dict)
    return (_CachingTorchDispatchMode(policy_fn, storage),
            _CachedTorchDispatchMode(None, storage, allow_cache_entry_mutation))


# ---- graph execution groups ---------------------------------------------------------------------

_graph_exec_group = threading.local()


class GraphExecGroup:
    """Any checkpointed regions encountered by backward under the same instance
    of this context manager will trigger recompute at most once, even if
    there are multiple calls to backward.

    Backward calls under the same instance of this context manager must execute
    over non-overlapping regions of the backward graph even if retain_graph=True.
    In particular, any two backward call cannot use the same saved activation for
    gradient computation. It only affects checkpoint with use_reentrant=False, and
    the contexts cannot be nested (``RuntimeError``).

    ferrograd already recomputes each non-reentrant checkpointed region at most once per
    graph, inside a group or not (the recomputed tensors stay with the graph until it is
    freed), so the group changes no result; PyTorch recomputes a region again for each
    backward call outside a group.
    """

    def __enter__(self):
        current = getattr(_graph_exec_group, "group", None)
        if current is not None:
            raise RuntimeError(f"GraphExecGroup contexts cannot be nested. Already inside group {current}")
        _graph_exec_group.group = self
        return self

    def __exit__(self, *args):
        _graph_exec_group.group = None

    @classmethod
    def _get_current_group(cls):
        # Private API to be used by utils like AC
        return getattr(_graph_exec_group, "group", None)
