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
