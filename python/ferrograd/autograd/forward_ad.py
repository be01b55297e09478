"""``torch.autograd.forward_ad``: forward-mode AD (dual tensors), built on reverse mode.

How it works (a transform over the reverse-mode core, not a second AD engine):

* ``make_dual(p, t)`` returns a tensor that aliases ``p`` (same storage, same values) but
  records history from an internal zero leaf ``z`` through an identity node, and the level
  remembers ``(z, t)``.  (When ``p`` itself requires grad the dual is ``p + z``, so that it
  keeps ``p``'s reverse-mode history; it then does not alias ``p``.)
* ``unpack_dual(y)`` computes ``y``'s tangent lazily as the sum over the live duals of
  ``J_y(z) . t`` by the double-vjp trick: ``g(u) = J^T u`` is built with ``create_graph=True``
  from a dummy cotangent ``u``; ``J t`` is then the gradient of ``<g(u), t>`` w.r.t. ``u``.
  A tensor that does not depend on any live dual has ``tangent=None``.
* Custom ``autograd.Function``s applied to dual inputs run their ``jvp`` staticmethod (or raise
  PyTorch's ``NotImplementedError`` when they have none); their outputs become new duals.
* Leaving the level forgets every tangent: ``unpack_dual`` then returns ``tangent=None``.

Differences from PyTorch that remain: a dual tensor (and anything computed from it inside the
level) reports ``requires_grad=True`` and has a ``grad_fn``, since its tangent is carried by
the reverse-mode graph; the output of a custom Function with ``jvp`` is not connected to the
reverse-mode graph of its dual inputs.
"""

from collections import namedtuple

__all__ = ["UnpackedDualTensor", "enter_dual_level", "exit_dual_level", "make_dual",
           "unpack_dual", "dual_level"]

_current_level = -1
# live duals of the current level: list of (internal leaf z, tangent)
_duals = []


def enter_dual_level():
    """Enter a new forward grad level (only one level may exist at a time)."""
    global _current_level
    if _current_level >= 0:
        raise RuntimeError("Nested forward mode AD is not supported at the moment")
    _current_level = 0
    del _duals[:]
    return _current_level


def exit_dual_level(*, level=None):
    """Exit the current forward grad level, deleting every tangent of that level."""
    global _current_level
    if level is None:
        level = _current_level
    if level != _current_level:
        raise RuntimeError(
            "Trying to exit a forward AD level that was not the last one "
            "that was created. This is not supported.")
    del _duals[:]
    _current_level = level - 1


def make_dual(tensor, tangent, *, level=None):
    """A tensor aliasing ``tensor`` whose forward gradient (tangent) is ``tangent``."""
    import ferrograd

    if level is None:
        level = _current_level
    if level < 0:
        raise RuntimeError(
            "Trying to create a dual Tensor for forward AD but no level "
            "exists, make sure to enter_dual_level() first.")
    if level != _current_level:
        raise RuntimeError(f"Trying to use forward AD level {level} but it does not exist.")
    if not (tensor.is_floating_point() or tensor.dtype.is_complex):
        raise ValueError(f"Expected primal to be floating point or complex, but got: {tensor.dtype}")
    if not (tangent.is_floating_point() or tangent.dtype.is_complex):
        raise ValueError(f"Expected tangent to be floating point or complex, but got: {tangent.dtype}")
    if tuple(tangent.shape) != tuple(tensor.shape):
        raise RuntimeError(
            "Trying to set a forward gradient that has a different size than that of the "
            "original Tensor, this is not supported. Tensor is of size "
            f"{list(tensor.shape)} while the given forward gradient is of size {list(tangent.shape)}.")
    if tangent.dtype != tensor.dtype:
        raise RuntimeError(
            "Expected tangent to have the same dtype as primal, but got: "
            f"primal dtype {tensor.dtype} and tangent dtype {tangent.dtype}")
    z = ferrograd.zeros_like(tensor).requires_grad_(True)
    with ferrograd.enable_grad():
        if tensor.requires_grad:
            # keeps the reverse-mode history of ``tensor`` (make_dual is backward differentiable)
            dual = tensor + z
        else:
            dual = _DualAlias.apply(z, tensor.detach())
    _duals.append((z, tangent.detach()))
    return dual


def _dual_alias_class():
    from .function import Function

    class _DualAlias(Function):
        """Returns ``alias`` (same storage as the primal) recording history from the leaf ``z``;
        the derivative w.r.t. ``z`` is the identity."""

        @staticmethod
        def forward(ctx, z, alias):
            return alias

        @staticmethod
        def backward(ctx, grad):
            return grad, None

    return _DualAlias


_DualAlias = _dual_alias_class()


UnpackedDualTensor = namedtuple("UnpackedDualTensor", ["primal", "tangent"])
UnpackedDualTensor.__doc__ = "Namedtuple returned by :func:`unpack_dual` with the primal and tangent."
UnpackedDualTensor.__module__ = "torch.autograd.forward_ad"


def _dual_leaves():
    return {id(z) for z, _ in _duals}


def _has_user_leaf(t):
    """Whether ``t``'s history reaches a leaf requiring grad other than the dual leaves."""
    fn = t.grad_fn
    if fn is None:
        return t.requires_grad and id(t) not in _dual_leaves()
    duals = _dual_leaves()
    seen = set()
    stack = [fn]
    while stack:
        node = stack.pop()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        var = getattr(node, "variable", None)
        if var is not None:
            if id(var) not in duals:
                return True
            continue
        for nxt, _ in node.next_functions:
            stack.append(nxt)
    return False


def _tangents_of(outputs, create_graph=False):
    """Tangents of ``outputs`` (a list of tensors) w.r.t. the live duals; None where an output
    does not depend on any dual."""
    import ferrograd
    from . import grad as _grad

    res = [None] * len(outputs)
    if _current_level < 0 or not _duals:
        return res
    idx = [i for i, o in enumerate(outputs)
           if isinstance(o, ferrograd.Tensor) and o.requires_grad and
           (o.is_floating_point() or o.dtype.is_complex)]
    if not idx:
        return res
    zs = [z for z, _ in _duals]
    ts = [t for _, t in _duals]
    with ferrograd.enable_grad():
        for i in idx:
            o = outputs[i]
            u = ferrograd.zeros_like(o).requires_grad_(True)
            gs = _grad([o], zs, [u], retain_graph=True, create_graph=True, allow_unused=True)
            used = [(g, t) for g, t in zip(gs, ts) if g is not None]
            if not used:
                continue
            (tan,) = _grad([g for g, _ in used], [u], [t for _, t in used], retain_graph=True,
                           create_graph=create_graph, allow_unused=True)
            if tan is None:
                tan = ferrograd.zeros_like(o)
            res[i] = tan if create_graph else tan.detach()
    return res


def unpack_dual(tensor, *, level=None):
    """``UnpackedDualTensor(primal, tangent)``: ``tangent`` is None when ``tensor`` is not a
    dual tensor at this level (does not depend on any dual)."""
    import ferrograd

    if level is None:
        level = _current_level
    if level < 0:
        return UnpackedDualTensor(tensor, None)
    (tangent,) = _tangents_of([tensor])
    if tangent is None:
        return UnpackedDualTensor(tensor, None)
    if _has_user_leaf(tensor):
        primal = tensor.view_as(tensor)
    else:
        primal = tensor.detach()
    return UnpackedDualTensor(primal, tangent)


class dual_level:
    """Context manager for forward AD: every forward AD computation happens inside it.

    Example::

        >>> with dual_level():
        ...     inp = make_dual(x, v)
        ...     out = f(inp)
        ...     y, jvp = unpack_dual(out)
    """

    def __enter__(self):
        return enter_dual_level()

    def __exit__(self, exc_type, exc_value, traceback):
        exit_dual_level()

    def __call__(self, fn):
        import functools

        @functools.wraps(fn)
        def wrapped(*args, **kwargs):
            with dual_level():
                return fn(*args, **kwargs)

        return wrapped


def _function_apply(cls, args, kwargs):
    """``Function.apply`` at a live level with some dual input: forward, then ``cls.jvp``.

    Returns ``NotImplemented`` when no tensor argument carries a tangent (the caller then runs
    the ordinary reverse-mode apply)."""
    import ferrograd
    from .function import Function
    from .grad_mode import no_grad

    positions = [i for i, a in enumerate(args) if isinstance(a, ferrograd.Tensor)]
    tans = _tangents_of([args[i] for i in positions])
    if all(t is None for t in tans):
        return NotImplemented
    jvp = getattr(cls, "jvp", None)
    if jvp is None or jvp is getattr(Function, "jvp", None):
        raise NotImplementedError(
            "You must implement the jvp function for custom autograd.Function to use it "
            "with forward mode AD.")
    input_tangents = [None] * len(args)
    primal_args = list(args)
    for i, t in zip(positions, tans):
        input_tangents[i] = t
        if t is not None:
            primal_args[i] = args[i].detach()
    ctx = cls._backward_cls()
    ctx._to_save = ()
    ctx._to_save_forward = ()
    ctx._dirty = ()
    ctx._non_diff = ()
    ctx._materialize = True
    ctx.needs_input_grad = tuple(isinstance(a, ferrograd.Tensor) and a.requires_grad for a in args)
    with no_grad():
        if cls.setup_context is not Function.setup_context:
            outputs = cls.forward(*primal_args, **kwargs)
            cls.setup_context(ctx, tuple(primal_args), outputs)
        else:
            outputs = cls.forward(ctx, *primal_args, **kwargs)
        saved_backward = ctx._to_save
        ctx._to_save = tuple(ctx._to_save_forward)
        out_tangents = jvp(ctx, *input_tangents)
        ctx._to_save = saved_backward
    single = not isinstance(outputs, tuple)
    outs = (outputs,) if single else outputs
    out_t = (out_tangents,) if not isinstance(out_tangents, tuple) else out_tangents
    if len(out_t) != len(outs):
        raise RuntimeError(
            f"jvp() should return as many values as there are outputs of forward(), expected "
            f"{len(outs)} but got {len(out_t)}")
    result = []
    for o, t in zip(outs, out_t):
        if isinstance(o, ferrograd.Tensor) and t is not None and (o.is_floating_point() or o.dtype.is_complex):
            if not isinstance(t, ferrograd.Tensor):
                t = ferrograd.full_like(o, float(t))
            elif tuple(t.shape) != tuple(o.shape):
                t = t.expand(o.shape).contiguous()
            result.append(make_dual(o.detach(), t.detach().to(o.dtype)))
        else:
            result.append(o)
    return result[0] if single else tuple(result)
