"""``autograd.graph``: the Node base class, saved-tensor hooks, and a report of the memory
held by saved tensors (something PyTorch does not offer)."""

from .. import _C

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
