"""``autograd.graph``: the Node base class, saved-tensor hooks, and a report of the memory
held by saved tensors (something PyTorch does not offer)."""

import contextlib as _contextlib

from .. import _C

__all__ = [
    "saved_tensors_hooks", "save_on_cpu", "disable_saved_tensors_hooks", "register_multi_grad_hook",
    "allow_mutation_on_saved_tensors", "Node", "GradientEdge", "get_gradient_edge", "increment_version",
    "region_activation_memory_budget", "set_warn_on_accumulate_grad_stream_mismatch",
    "set_override_stale_capture_stream",
]

Node = _C.Node


class saved_tensors_hooks:
    """Within this context, every tensor saved for backward goes through ``pack_hook`` and
    comes back through ``unpack_hook`` when backward needs it."""

    def __init__(self, pack_hook, unpack_hook):
        self.pack_hook = pack_hook
        self.unpack_hook = unpack_hook

    def __enter__(self):
        if _DISABLED:
            raise RuntimeError(_DISABLED[-1])
        _C._push_saved_hooks(self.pack_hook, self.unpack_hook)
        return self

    def __exit__(self, *exc):
        _C._pop_saved_hooks()


class save_on_cpu(saved_tensors_hooks):
    """Saved tensors stay where they are (everything is on the CPU here)."""

    def __init__(self, pin_memory=False, device_type="cuda"):
        super().__init__(lambda t: t, lambda t: t)


class disable_saved_tensors_hooks:
    """Saved-tensor hooks registered inside raise (PyTorch's behaviour)."""

    def __init__(self, error_message):
        self.error_message = error_message

    def __enter__(self):
        # torch's behaviour: registering saved-tensor hooks inside raises this message
        _DISABLED.append(self.error_message)

    def __exit__(self, *exc):
        _DISABLED.pop()


_DISABLED = []


def saved_tensors_report(t):
    """Memory held by the graph behind ``t``.

    Returns a dict: ``nodes`` (live nodes reachable from ``t.grad_fn``), ``total_bytes``
    (bytes of the distinct storages kept alive by saved tensors, each counted once) and
    ``per_node``, a list of ``(node name, sequence number, bytes saved by that node)``.
    """
    nodes, total, per_node = _C._graph_report(t)
    return {"nodes": nodes, "total_bytes": total, "per_node": per_node}


# ---- gradient edges, multi-tensor hooks, version counters ----------------------------------

import collections as _collections
import functools as _functools
import threading as _threading

GradientEdge = _collections.namedtuple("GradientEdge", ("node", "output_nr"))
GradientEdge.__doc__ = """An edge of the autograd graph: the gradient of ``node``'s output ``output_nr``."""


def _get_grad_fn_or_grad_acc(t):
    """``t.grad_fn``, or the AccumulateGrad node of a leaf that requires grad."""
    from .. import enable_grad

    if t.requires_grad and t.grad_fn is None:
        with enable_grad():
            node = t.view_as(t).grad_fn.next_functions[0][0]
        return node
    return t.grad_fn


def get_gradient_edge(tensor):
    """The ``GradientEdge`` through which ``tensor``'s gradient flows (its ``grad_fn`` and
    output number, or its AccumulateGrad node for a leaf)."""
    if not tensor.requires_grad:
        raise RuntimeError("It is not possible to get the gradient edge for a Tensor that does not require gradients")
    return GradientEdge(_get_grad_fn_or_grad_acc(tensor), tensor.output_nr)


def increment_version(tensor):
    """Bump ``tensor``'s version counter, as an in-place write would (for writes autograd
    cannot see); tensors saved for backward before then are reported as modified."""
    _C._increment_version(tensor)


class _MultiHandle:
    """The handle ``register_multi_grad_hook`` returns: removes every per-tensor hook."""

    __slots__ = ("handles",)

    def __init__(self, handles):
        self.handles = handles

    def remove(self):
        for h in self.handles:
            h.remove()

    def __getstate__(self):
        return self.handles

    def __setstate__(self, state):
        self.handles = state


def register_multi_grad_hook(tensors, fn, *, mode="all"):
    """Call ``fn`` once per backward pass after gradients of ``tensors`` are computed.

    ``mode="all"``: ``fn(grads)`` with one entry per tensor (None for those the pass does not
    reach), once every tensor the pass will reach has its gradient. ``mode="any"``: ``fn(grad)``
    with the first gradient computed among ``tensors``. Returns a handle with ``remove()``.
    """
    supported_modes = ("all", "any")
    lock = _threading.Lock()
    if mode not in supported_modes:
        raise ValueError(f"Expects mode to be one of {supported_modes} but got {mode}")

    if mode == "all":
        count = {}
        nb_calls = None
        buffer = {}
        grad_fns = list(map(_get_grad_fn_or_grad_acc, tensors))
        len_tensors = len(tensors)

        def get_inner_hook(idx):
            def inner_hook(grad):
                nonlocal count, nb_calls, buffer, fn
                id = _C._current_graph_task_id()
                assert id != -1, "expected this hook to be called inside a backward call"
                count[id] = count.get(id, 0)
                buffer[id] = buffer.get(id, [None] * len_tensors)
                with lock:
                    curr_count, count[id] = count[id], count[id] + 1
                    if curr_count == 0:
                        # on the first call, how many of the tensors this pass will reach
                        nb_calls = sum(map(_C._will_engine_execute_node, grad_fns))
                buffer[id][idx] = grad
                assert nb_calls is not None
                if curr_count == nb_calls - 1:
                    fn(buffer[id])
                    del count[id]
                    del buffer[id]

            return inner_hook

        handles = tuple(t.register_hook(get_inner_hook(i)) for i, t in enumerate(tensors))
    else:
        ran_hook = _collections.defaultdict(bool)

        @_functools.wraps(fn)
        def wrapped_fn(grad):
            nonlocal ran_hook
            id = _C._current_graph_task_id()
            assert id != -1, "expected this hook to be called inside a backward call"
            with lock:
                prev, ran_hook[id] = ran_hook[id], True
            if prev:
                return
            fn(grad)

        handles = tuple(t.register_hook(wrapped_fn) for t in tensors if t.requires_grad)

    return _MultiHandle(handles)


# ---- activation memory budget, CUDA-stream switches ----------------------------------------------

def region_activation_memory_budget(budget):
    """Context-manager that sets the activation memory budget for the region of a compiled
    forward traced under it (a prototype of PyTorch's ``torch.compile`` min-cut partitioner:
    ``budget`` in ``[0, 1]``, 0 = recompute as with full activation checkpointing, 1 = the
    default runtime-optimized strategy).

    It only has an effect under ``torch.compile``; outside a compiled region PyTorch raises
    ``RuntimeError``. ``ferrograd.compile`` runs the model eagerly (nothing is ever traced),
    so after PyTorch's argument checks (``TypeError`` for a non-float, ``ValueError`` outside
    ``[0, 1]``) this always raises that ``RuntimeError``.

    Args:
        budget (float): Activation memory budget ratio in ``[0, 1]``.
    """
    if isinstance(budget, bool) or not isinstance(budget, (int, float)):
        raise TypeError("torch.autograd.graph.region_activation_memory_budget: expects a "
                        f"float, got {type(budget).__name__}")
    if not 0.0 <= budget <= 1.0:
        raise ValueError(f"torch.autograd.graph.region_activation_memory_budget: must be in [0, 1], got {budget}")
    # ferrograd never compiles (torch.compiler.is_compiling() is always False)
    raise RuntimeError("torch.autograd.graph.region_activation_memory_budget can only be "
                       "used inside a torch.compile region; it has no effect in eager mode.")


_stream_flags = {"warn_on_accumulate_grad_stream_mismatch": True, "override_stale_capture_stream": False}


def _check_enabled(enabled):
    if not isinstance(enabled, bool):
        raise RuntimeError(f"enabled must be a bool, but got {type(enabled).__name__}")


def set_warn_on_accumulate_grad_stream_mismatch(enabled):
    """Whether to warn when the AccumulateGrad node's stream does not match the stream
    of the node that produced the incoming gradient.

    A process-global flag (``True`` at start). It concerns CUDA streams: on the CPU, in
    PyTorch as here, there are no streams to mismatch and it changes nothing; ferrograd's
    CUDA backend runs every kernel on the default stream, so it never mismatches either.
    """
    _check_enabled(enabled)
    _stream_flags["warn_on_accumulate_grad_stream_mismatch"] = enabled


def set_override_stale_capture_stream(enabled):
    """Control behavior when autograd detects a stale non-capturing stream during
    CUDA graph capture.

    With the flag disabled (the process-initial state) PyTorch raises when the stale stream is
    the default stream; with ``enabled=True`` any stale non-capturing stream is replaced by the
    producer's capturing stream. A process-global setting. It only matters during CUDA graph
    capture, which neither the CPU nor ferrograd's CUDA backend does: the flag is kept and
    changes nothing.

    Args:
        enabled (bool): override stale non-capturing streams during CUDA graph capture.
    """
    _check_enabled(enabled)
    _stream_flags["override_stale_capture_stream"] = enabled


# ---- mutation of saved tensors -------------------------------------------------------------------

import weakref as _weakref

_allow_mutation_on_saved_tensors_enabled = False


class _Handle:
    pass


class _AllowMutationOnSavedContext:
    """The state of one ``allow_mutation_on_saved_tensors`` block, cleared when it exits.

    ``original`` maps the handle the graph holds for each saved tensor to that tensor (no
    copy); ``cloned`` maps it to the copy taken just before the tensor's storage was first
    written; ``tid_to_weakhandle`` and ``sid_to_tid`` find the handles of the tensors saved
    from a storage (at its current version) when a write into it is about to happen.
    """

    def __init__(self):
        self.cloned = _weakref.WeakKeyDictionary()
        self.original = _weakref.WeakKeyDictionary()
        self.tid_to_weakhandle = _weakref.WeakValueDictionary()
        self.sid_to_tid = _collections.defaultdict(set)

    def clear(self):
        """Drop every saved copy (a backward of the block's graph then raises)."""
        self.cloned.clear()
        self.original.clear()
        self.tid_to_weakhandle.clear()
        self.sid_to_tid.clear()


def _get_sid(tensor):
    """The storage a tensor views, at its current version (views share both)."""
    return (tensor.data_ptr() - tensor.storage_offset() * tensor.element_size(), tensor._version)


def _get_tid(tensor):
    """One saved value: tensors of the same memory, layout and version hold the same values
    (PyTorch keys by the Python object, which ferrograd may wrap afresh at each save)."""
    return (tensor.data_ptr(), tensor._version, tuple(tensor.shape), tensor.stride(), tensor.dtype)


class _swap_with_cloned(saved_tensors_hooks):
    def __init__(self, ctx):
        def pack_hook(tensor):
            tid = _get_tid(tensor)
            ctx.sid_to_tid[_get_sid(tensor)].add(tid)
            # the same value can be saved several times: one handle for all
            handle = ctx.tid_to_weakhandle.get(tid)
            if handle is None:
                handle = _Handle()
                ctx.tid_to_weakhandle[tid] = handle
                ctx.original[handle] = tensor
            return handle

        def unpack_hook(handle):
            error_msg = ("Trying to backward outside of the 'allow_mutation_on_saved_tensors' context"
                         "in which the graph was originally recorded.")
            if not _allow_mutation_on_saved_tensors_enabled:
                raise AssertionError(error_msg)
            if handle in ctx.cloned:
                return ctx.cloned[handle]
            if handle not in ctx.original:
                raise AssertionError(error_msg)
            return ctx.original[handle]

        super().__init__(pack_hook, unpack_hook)


class _CloneArgBeforeMutate:
    """While active, each write into a tensor's storage (in-place op, ``out=``, optimizer
    step) first copies the saved tensors of that storage that have not been copied yet
    (PyTorch's ``_CloneArgBeforeMutateMode``; here the core's write observer)."""

    def __init__(self, ctx):
        self.ctx = ctx

    def _before_write(self, t):
        ctx = self.ctx
        tids = ctx.sid_to_tid.get(_get_sid(t))
        if not tids:
            return
        for tid in tids:
            handle = ctx.tid_to_weakhandle.get(tid)
            # (a saved tensor may be freed by a backward before the write)
            if handle is None or handle in ctx.cloned or handle not in ctx.original:
                continue
            from .. import no_grad

            with no_grad():
                ctx.cloned[handle] = ctx.original[handle].clone()
            del ctx.original[handle]

    def __enter__(self):
        _C._push_write_observer(self._before_write)
        return self

    def __exit__(self, *exc):
        _C._pop_write_observer()
        return False


@_contextlib.contextmanager
def allow_mutation_on_saved_tensors():
    """Context manager under which mutating tensors saved for backward is allowed.

    Under this context manager, a tensor saved for backward can be modified in place
    afterwards and backward still uses the value it had when it was saved. Normally, mutating
    a tensor saved for backward makes backward raise. Both the forward and the backward must
    run under the same context manager; a backward after it exited raises ``AssertionError``
    ("Trying to backward outside of the 'allow_mutation_on_saved_tensors' context..."), and
    the contexts cannot be nested (``RuntimeError``).

    Entering it gives an ``_AllowMutationOnSavedContext`` holding the state managed by this
    context manager (useful for debugging), cleared when it exits.

    Example::

        >>> with torch.autograd.graph.allow_mutation_on_saved_tensors():
        ...     a = torch.ones(2, 3, requires_grad=True)
        ...     b = a.clone()
        ...     out = (b**2).sum()
        ...     b.sin_()
        ...     out.sum().backward()   # a.grad == 2 (from b before sin_)

    A saved tensor is copied only when a write into its storage (an in-place op, an ``out=``
    argument, an optimizer step) is about to happen on the thread that entered the block, as
    in PyTorch. As with any ``saved_tensors_hooks`` in ferrograd, a ``create_graph=True``
    backward of the block's graph does not differentiate through the saved copies.
    """
    global _allow_mutation_on_saved_tensors_enabled

    ctx = _AllowMutationOnSavedContext()
    with _swap_with_cloned(ctx), _CloneArgBeforeMutate(ctx):
        try:
            if _allow_mutation_on_saved_tensors_enabled:
                raise RuntimeError("allow_mutation_on_saved_tensors contexts cannot be nested")
            _allow_mutation_on_saved_tensors_enabled = True
            yield ctx
        finally:
            ctx.clear()
            _allow_mutation_on_saved_tensors_enabled = False
