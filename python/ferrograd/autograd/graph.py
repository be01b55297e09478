"""``autograd.graph``: the Node base class and graph inspection, including a report of the
memory held by saved tensors (something PyTorch does not offer)."""

from .. import _C

Node = _C.Node


def saved_tensors_report(t):
    """Memory held by the graph behind ``t``.

    Returns a dict: ``nodes`` (live nodes reachable from ``t.grad_fn``), ``total_bytes``
    (bytes of the distinct storages kept alive by saved tensors) and ``per_node``, a list of
    ``(node name, sequence number, bytes saved by that node)``.
    """
    nodes, total, per_node = _C._graph_report(t)
    return {"nodes": nodes, "total_bytes": total, "per_node": per_node}
