"""``torch.autograd.forward_ad``: forward-mode AD (dual tensors).

The core carries tangents on tensors (``src/autograd/forward.rs``): ``make_dual(p, t)`` is a
view of ``p`` whose tangent is ``t``; every op run on a tensor with a tangent computes its
output's tangent with its JVP formula (written beside its backward formula; an op without
one derives it from its backward formula); ``unpack_dual(y)`` returns a tangent-free view of
``y`` and its tangent. One level exists at a time, as in PyTorch; leaving it deletes every
tangent. Custom ``autograd.Function``s run their ``jvp`` staticmethod.
"""

from collections import namedtuple

from .. import _C

__all__ = ["UnpackedDualTensor", "enter_dual_level", "exit_dual_level", "make_dual",
           "unpack_dual", "dual_level"]

_current_level = -1


def enter_dual_level():
    """Enter a new forward grad level (only one level may exist at a time); returns its index."""
    global _current_level
    new_level = _C._enter_dual_level()
    if new_level != _current_level + 1:
        raise RuntimeError("Entering a new forward AD level but the current level is not valid. "
                           "Make sure you did not modified it directly.")
    _current_level = new_level
    return new_level


def exit_dual_level(*, level=None):
    """Exit the current forward grad level, deleting every tangent of that level."""
    global _current_level
    if level is None:
        level = _current_level
    if level < 0:
        raise RuntimeError("Dual level must be a positive number.")
    if level != _current_level:
        raise RuntimeError("Trying to exit a forward AD level that was not the last one that was "
                           "created. This is not supported.")
    _C._exit_dual_level(level)
    _current_level = level - 1


def _maybe_load_decompositions():
    """PyTorch loads Python decompositions here; every formula of ferrograd is in the core."""


def make_dual(tensor, tangent, *, level=None):
    """A view of ``tensor`` whose forward gradient (tangent) is ``tangent``.

    ``tangent`` must have ``tensor``'s size and dtype; it is kept as is when laid out like
    ``tensor``, else copied into ``tensor``'s layout. The result is differentiable in reverse
    mode w.r.t. ``tensor`` (``ViewBackward0``).
    """
    if level is None:
        level = _current_level
    if level < 0:
        raise RuntimeError(
            "Trying to create a dual Tensor for forward AD but no level exists, make sure to "
            "enter_dual_level() first.")
    if not (tensor.is_floating_point() or tensor.dtype.is_complex):
        raise ValueError(f"Expected primal to be floating point or complex, but got: {tensor.dtype}")
    if not (tangent.is_floating_point() or tangent.dtype.is_complex):
        raise ValueError(f"Expected tangent to be floating point or complex, but got: {tangent.dtype}")
    return _C._make_dual(tensor, tangent)


UnpackedDualTensor = namedtuple("UnpackedDualTensor", ["primal", "tangent"])
UnpackedDualTensor.__doc__ = ("Namedtuple returned by :func:`unpack_dual` containing the primal and "
                              "tangent components of the dual tensor.")
UnpackedDualTensor.__module__ = "torch.autograd.forward_ad"


def unpack_dual(tensor, *, level=None):
    """``UnpackedDualTensor(primal, tangent)``: ``primal`` is a tangent-free view of ``tensor``,
    ``tangent`` its forward gradient at ``level`` (None when it has none)."""
    if level is None:
        level = _current_level
    if level < 0:
        return UnpackedDualTensor(tensor, None)
    primal, tangent = _C._unpack_dual(tensor)
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


def _has_tangent(args):
    """Whether a live level exists and some tensor in ``args`` carries a tangent."""
    import ferrograd

    if not _C._fw_level_exists():
        return False
    return any(isinstance(a, ferrograd.Tensor) and _C._fw_tangent(a) is not None for a in args)


def _apply_jvp(cls, ctx, args, outputs):
    """After a custom Function's forward on dual inputs: its ``jvp`` gives the outputs' tangents."""
    import ferrograd
    from .function import Function
    from .grad_mode import no_grad

    jvp = getattr(cls, "jvp", None)
    if jvp is None or jvp is getattr(Function, "jvp", None):
        raise NotImplementedError(
            "You must implement the jvp function for custom autograd.Function to use it with "
            "forward mode AD.")
    input_tangents = [(_C._fw_tangent(a) if isinstance(a, ferrograd.Tensor) else None) for a in args]
    saved = ctx.__dict__.get("_to_save", ())
    bound = ctx.__dict__.get("_bound", False)
    none_pos = ctx.__dict__.get("_none_pos", [])
    ctx._to_save = tuple(ctx.__dict__.get("_to_save_forward", ()))
    ctx._bound = False
    try:
        with no_grad():
            out_tangents = jvp(ctx, *input_tangents)
    finally:
        ctx._to_save, ctx._bound, ctx._none_pos = saved, bound, none_pos
    single = not isinstance(outputs, tuple)
    outs = (outputs,) if single else outputs
    out_t = (out_tangents,) if not isinstance(out_tangents, tuple) else out_tangents
    if len(out_t) != len(outs):
        raise RuntimeError(
            f"jvp() should return as many values as there are outputs of forward(), expected "
            f"{len(outs)} but got {len(out_t)}")
    for o, t in zip(outs, out_t):
        if not isinstance(o, ferrograd.Tensor) or t is None or not (o.is_floating_point() or o.dtype.is_complex):
            continue
        if not isinstance(t, ferrograd.Tensor):
            t = ferrograd.full_like(o, float(t))
        elif tuple(t.shape) != tuple(o.shape):
            t = t.expand(o.shape).contiguous()
        if t.dtype != o.dtype:
            t = t.to(o.dtype)
        _C._fw_set_tangent(o, t)
    return outputs
