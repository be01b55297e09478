"""``autograd.functional``: jacobian, hessian, vjp, jvp, hvp, vhp (built on ``grad``)."""

from . import grad as _grad


def _as_tuple(x):
    from .. import Tensor

    if isinstance(x, Tensor):
        return (x,), True
    return tuple(x), False


def _result(ts, single, create_graph):
    """Results of a functional transform: detached unless a graph was asked for."""
    ts = tuple(t if create_graph else t.detach() for t in ts)
    return ts[0] if single else ts


def _prep(inputs, create_graph):
    return tuple(i.detach().requires_grad_(True) if i.is_floating_point() else i.detach() for i in inputs)


def jacobian(func, inputs, create_graph=False, strict=False, vectorize=False, strategy="reverse-mode"):
    """The Jacobian of ``func`` at ``inputs``; shape ``out.shape + in.shape`` per pair."""
    from .. import stack, zeros

    ins, single_in = _as_tuple(inputs)
    ins = _prep(ins, create_graph)
    outs = func(*ins)
    outs_t, single_out = _as_tuple(outs)
    result = []
    for out in outs_t:
        flat = out.reshape(-1)
        rows = [[] for _ in ins]
        for k in range(flat.numel()):
            gs = _grad(flat[k], ins, retain_graph=True, create_graph=create_graph, allow_unused=True)
            for j, (g, x) in enumerate(zip(gs, ins)):
                rows[j].append(g if g is not None else zeros(*x.shape, dtype=x.dtype, device=x.device))
        per_in = []
        for j, x in enumerate(ins):
            if rows[j]:
                jac = stack(rows[j]).reshape(*(tuple(out.shape) + tuple(x.shape)))
            else:
                jac = zeros(*(tuple(out.shape) + tuple(x.shape)), dtype=x.dtype, device=x.device)
            per_in.append(jac if create_graph else jac.detach())
        result.append(per_in[0] if single_in else tuple(per_in))
    return result[0] if single_out else tuple(result)


def hessian(func, inputs, create_graph=False, strict=False, vectorize=False, outer_jacobian_strategy="reverse-mode"):
    """The Hessian of scalar ``func`` at ``inputs``."""
    ins, single_in = _as_tuple(inputs)

    def grad_fn(*xs):
        out = func(*xs)
        gs = _grad(out, xs, create_graph=True, allow_unused=True)
        return gs[0] if single_in else gs

    return jacobian(grad_fn, ins[0] if single_in else ins, create_graph=create_graph)


def vjp(func, inputs, v=None, create_graph=False, strict=False):
    """``(func(inputs), vᵀ J)``."""
    ins, single_in = _as_tuple(inputs)
    ins = _prep(ins, create_graph)
    outs = func(*ins)
    outs_t, single_out = _as_tuple(outs)
    vs = None if v is None else _as_tuple(v)[0]
    gs = _grad(outs_t, ins, vs, create_graph=create_graph, allow_unused=True, materialize_grads=True)
    return _result(outs_t, single_out, False), _result(gs, single_in, create_graph)


def jvp(func, inputs, v=None, create_graph=False, strict=False):
    """``(func(inputs), J v)`` via the double-vjp trick."""
    from .. import zeros_like

    ins, single_in = _as_tuple(inputs)
    ins = _prep(ins, True)
    outs = func(*ins)
    outs_t, single_out = _as_tuple(outs)
    vs = _as_tuple(v)[0] if v is not None else tuple(zeros_like(x) + 1 for x in ins)
    us = tuple(zeros_like(o).requires_grad_(True) for o in outs_t)
    gs = _grad(outs_t, ins, us, create_graph=True, allow_unused=True, materialize_grads=True)
    jv = _grad(gs, us, vs, create_graph=create_graph, allow_unused=True, materialize_grads=True)
    return _result(outs_t, single_out, False), _result(jv, single_out, create_graph)


def vhp(func, inputs, v=None, create_graph=False, strict=False):
    """``(func(inputs), vᵀ H)``."""
    ins, single_in = _as_tuple(inputs)
    ins = _prep(ins, True)
    out = func(*ins)
    gs = _grad(out, ins, create_graph=True, allow_unused=True, materialize_grads=True)
    vs = _as_tuple(v)[0]
    h = _grad(gs, ins, vs, create_graph=create_graph, allow_unused=True, materialize_grads=True)
    return out.detach(), _result(h, single_in, create_graph)


def hvp(func, inputs, v=None, create_graph=False, strict=False):
    """``(func(inputs), H v)`` (equal to vhp for the symmetric Hessian)."""
    return vhp(func, inputs, v, create_graph, strict)
