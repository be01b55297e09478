"""``torch.func``: composable function transforms over the reverse-mode core.

* ``grad``, ``grad_and_value``, ``vjp`` and ``jacrev`` differentiate with
  ``autograd.grad(..., create_graph=True)`` from fresh differentiable copies of the inputs, so
  they nest (``grad(grad(f))``, ``jacrev(jacrev(f))``).
* ``jvp`` and ``jacfwd`` are forward-mode AD (``autograd.forward_ad``): the function runs on
  dual tensors and each op's JVP formula carries the tangents (jacfwd runs once per input
  element: there are no batching rules to run the basis at once).  Nested inside another
  forward-mode transform (the core has one dual level at a time) they use the double-vjp
  identity instead: with ``g(u) = J^T u`` built with ``create_graph=True`` from a dummy
  cotangent ``u``, ``J v`` is the gradient of ``<g(u), v>`` w.r.t. ``u``.
  ``hessian(f) = jacfwd(jacrev(f))`` is forward-over-reverse.
* ``vmap`` runs the function once on ``BatchedTensor`` inputs (``_batched``: the batch dim is
  hidden from the function, each op runs through its batching rule on the whole batch),
  and moves the batch dim of the outputs to ``out_dims``.  The transforms above inside it
  run on the physical tensors (``_Batch``): per-example derivatives in one pass for the
  batch.  Random ops follow ``randomness`` with PyTorch's rules (``_batched.random_call``).
  An op without a rule runs per example (PyTorch's "performance drop" warning, once per op);
  what only a loop can run (a random draw that bypasses the rules under
  ``randomness="different"``, ``autograd.grad`` on batched tensors, a batched tensor reaching
  the core) reruns the whole function once per batch element (slices taken with ``select``),
  stacking the outputs, and says so in a warning once per process.  ``chunk_size`` runs the
  batched function on that many examples at a time.  The loop cannot infer outputs for a
  batch of size 0 and raises.
* ``functional_call`` swaps a module's parameters and buffers for the given tensors for the
  duration of one call.

At the outermost transform the results are detached (they do not require grad) unless an
input already required grad, as in PyTorch.
"""

import functools

from .. import _C
from . import _batched

__all__ = ["grad", "grad_and_value", "vjp", "jvp", "jacrev", "jacfwd", "hessian", "vmap",
           "functional_call", "linearize", "stack_module_state", "replace_all_batch_norm_modules_",
           "functionalize", "debug_unwrap", "rearrange"]

_depth = 0  # how many transforms are running their function right now


# ---- minimal pytrees (tuple, list, dict, namedtuple; anything else is a leaf) -------------

class _Spec:
    __slots__ = ("kind", "ctx", "children")

    def __init__(self, kind, ctx=None, children=()):
        self.kind = kind
        self.ctx = ctx
        self.children = list(children)

    def __eq__(self, other):
        return (isinstance(other, _Spec) and self.kind == other.kind and self.ctx == other.ctx
                and self.children == other.children)

    def num_leaves(self):
        if self.kind == "leaf":
            return 1
        return sum(c.num_leaves() for c in self.children)

    def __repr__(self):
        if self.kind == "leaf":
            return "*"
        inner = ", ".join(repr(c) for c in self.children)
        if self.kind == "dict":
            inner = ", ".join(f"{k!r}: {c!r}" for k, c in zip(self.ctx, self.children))
            return "{" + inner + "}"
        if self.kind == "list":
            return "[" + inner + "]"
        if self.kind == "tuple":
            return "(" + inner + ("," if len(self.children) == 1 else "") + ")"
        return f"{self.ctx.__name__}({inner})"


def _is_namedtuple(x):
    return isinstance(x, tuple) and hasattr(type(x), "_fields")


def _flatten(tree):
    if _is_namedtuple(tree):
        parts = [_flatten(c) for c in tree]
        return [l for p in parts for l in p[0]], _Spec("namedtuple", type(tree), [p[1] for p in parts])
    if isinstance(tree, (tuple, list)):
        parts = [_flatten(c) for c in tree]
        kind = "tuple" if isinstance(tree, tuple) else "list"
        return [l for p in parts for l in p[0]], _Spec(kind, None, [p[1] for p in parts])
    if isinstance(tree, dict):
        keys = list(tree.keys())
        parts = [_flatten(tree[k]) for k in keys]
        return [l for p in parts for l in p[0]], _Spec("dict", keys, [p[1] for p in parts])
    if tree is None:
        return [], _Spec("none")
    return [tree], _Spec("leaf")


def _unflatten(leaves, spec):
    it = iter(leaves)

    def build(s):
        if s.kind == "leaf":
            return next(it)
        if s.kind == "none":
            return None
        kids = [build(c) for c in s.children]
        if s.kind == "tuple":
            return tuple(kids)
        if s.kind == "list":
            return kids
        if s.kind == "dict":
            return dict(zip(s.ctx, kids))
        return s.ctx(*kids)

    return build(spec)


def _broadcast_prefix(prefix, spec):
    """Flatten ``prefix`` (a pytree prefix of ``spec``) to one value per leaf of ``spec``;
    None when the structures are incompatible."""
    if not isinstance(prefix, (tuple, list, dict)) or _is_namedtuple(prefix) and spec.kind != "namedtuple":
        return [prefix] * spec.num_leaves()
    if isinstance(prefix, dict):
        if spec.kind != "dict" or set(prefix.keys()) != set(spec.ctx):
            return None
        out = []
        for k, c in zip(spec.ctx, spec.children):
            sub = _broadcast_prefix(prefix[k], c)
            if sub is None:
                return None
            out += sub
        return out
    kind = "namedtuple" if _is_namedtuple(prefix) else ("tuple" if isinstance(prefix, tuple) else "list")
    if spec.kind != kind or len(prefix) != len(spec.children):
        return None
    out = []
    for p, c in zip(prefix, spec.children):
        sub = _broadcast_prefix(p, c)
        if sub is None:
            return None
        out += sub
    return out


# ---- argnums ---------------------------------------------------------------------------

def _wrap_argnum(argnum, num_args):
    if not isinstance(argnum, int) or isinstance(argnum, bool):
        raise RuntimeError(f"argnum must be int, got: {type(argnum)}")
    if 0 <= argnum < num_args:
        return argnum
    if -num_args <= argnum < 0:
        return argnum + num_args
    raise RuntimeError(f"Got argnum={argnum}, but only {num_args} positional inputs")


def _wrap_argnums(argnums, num_args):
    if isinstance(argnums, int) and not isinstance(argnums, bool):
        return _wrap_argnum(argnums, num_args)
    if isinstance(argnums, tuple):
        wrapped = tuple(_wrap_argnum(a, num_args) for a in argnums)
        if len(wrapped) == 0:
            raise RuntimeError("argnums must be non-empty")
        if len(set(wrapped)) != len(wrapped):
            raise RuntimeError(f"argnums elements must be unique, got {argnums}")
        return wrapped
    raise RuntimeError(f"argnums must be int or Tuple[int, ...], got: {type(argnums)}")


def _slice_argnums(args, argnums):
    argnums = _wrap_argnums(argnums, len(args))
    if isinstance(argnums, int):
        return argnums, args[argnums]
    return argnums, tuple(args[i] for i in argnums)


def _replace_args(args, new, argnums):
    if isinstance(argnums, int):
        return tuple(new if i == argnums else a for i, a in enumerate(args))
    return tuple(new[argnums.index(i)] if i in argnums else a for i, a in enumerate(args))


# ---- differentiable copies ---------------------------------------------------------------

def _lift(x):
    """A differentiable stand-in for ``x`` (a leaf when ``x`` does not require grad, else a
    copy recording history from ``x`` so that outer transforms see through it)."""
    import ferrograd

    if not isinstance(x, ferrograd.Tensor):
        raise ValueError(f"Thing passed to transform API must be Tensor, got {type(x)}")
    if x.requires_grad:
        # a view keeps x's tangent too (a view's tangent is the view of the tangent)
        return x.view_as(x) if x.is_floating_point() or x.dtype.is_complex else x
    leaf = x.detach().requires_grad_(True)
    tangent = _C._fw_tangent(x)
    if tangent is not None:
        # inside a forward-mode transform (jacfwd(jacrev(f))): the stand-in keeps the tangent
        from ..autograd.forward_ad import make_dual

        return make_dual(leaf, tangent)
    return leaf


class _Batch:
    """Where a transform runs.  Inside a batched vmap (``lvl``, ``batch`` examples) a transform
    works on the physical tensors of that level's BatchedTensors, every example with its own
    copy of each input (batched inputs have one; unbatched ones are expanded, a stride-0 view):
    the examples share nothing, so one pass over the whole batch gives each example's
    derivatives, which is PyTorch's vmap(grad/vjp/jvp/jacrev/jacfwd(f)).  Outside vmap
    (``lvl`` 0) every method is the identity."""

    __slots__ = ("lvl", "batch", "lead")

    def __init__(self, lvl, batch):
        self.lvl = lvl
        self.batch = batch
        self.lead = (batch,) if lvl else ()

    def phys(self, x):
        """The physical tensor of a logical one (an unbatched one expanded along the batch)."""
        if not self.lvl:
            return x
        BT = _batched.BatchedTensor
        v = x._v if type(x) is BT and x._lvl == self.lvl else x.unsqueeze(0).expand(self.batch, *x.shape)
        if type(v) is BT:
            raise _batched._NeedLoop()  # batched at an outer level too: the loop runs it
        return v

    def lift(self, x):
        """A differentiable stand-in (``_lift``) for the physical tensor of ``x``."""
        import ferrograd

        if not isinstance(x, ferrograd.Tensor):
            raise ValueError(f"Thing passed to transform API must be Tensor, got {type(x)}")
        return _lift(self.phys(x))

    def wrap(self, values):
        """Physical tensors back as the logical ones the function sees."""
        if not self.lvl:
            return list(values)
        return [_batched.BatchedTensor(v, self.lvl) for v in values]

    def logical_shape(self, v):
        return tuple(v.shape[len(self.lead):])


_NO_BATCH = _Batch(0, 0)


def _batch_of(*trees):
    """The ``_Batch`` of a transform called with ``trees`` as its inputs."""
    if _batched._active[0]:
        lvl, batch = _batched._top(_flatten(trees)[0])
        if lvl:
            return _Batch(lvl, batch)
    return _NO_BATCH


def _numel(shape):
    n = 1
    for s in shape:
        n *= s
    return n


def _external(flat):
    import ferrograd

    return ferrograd.is_grad_enabled() and any(
        isinstance(x, ferrograd.Tensor) and x.requires_grad for x in flat)


def _finish(x, keep):
    """Detach the results of the outermost transform (unless history must be kept)."""
    import ferrograd

    if keep:
        return x
    flat, spec = _flatten(x)
    return _unflatten([t.detach() if isinstance(t, ferrograd.Tensor) else t for t in flat], spec)


def _check_aux(aux):
    import ferrograd

    flat, _ = _flatten(aux)
    for t in flat:
        if not isinstance(t, ferrograd.Tensor):
            raise RuntimeError(f"Expected tensors, got unsupported type {type(t)}")


def _call(func, args, kwargs):
    global _depth
    _depth += 1
    try:
        return func(*args, **kwargs)
    finally:
        _depth -= 1


def _grads(outputs, inputs, grad_outputs, create_graph):
    """``autograd.grad`` with unused inputs given zero gradients."""
    import ferrograd
    from ..autograd import grad as _agrad

    pairs = [(o, g) for o, g in zip(outputs, grad_outputs) if o.requires_grad]
    res = [None] * len(inputs)
    if pairs:
        res = list(_agrad([o for o, _ in pairs], inputs, [g for _, g in pairs], retain_graph=True,
                          create_graph=create_graph, allow_unused=True))
    return [ferrograd.zeros_like(x) if g is None else g for g, x in zip(res, inputs)]


# ---- grad / grad_and_value -------------------------------------------------------------

def grad_and_value(func, argnums=0, has_aux=False):
    """Returns a function computing ``(gradient, value)`` of ``func`` w.r.t. ``argnums``
    (``(gradient, (value, aux))`` with ``has_aux``)."""

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        import ferrograd

        outer = _depth
        argnums_w, diff = _slice_argnums(args, argnums)
        flat, spec = _flatten(diff)
        keep = outer > 0 or _external(flat)
        b = _batch_of(args, kwargs)  # inside vmap: per-example gradients in one backward pass
        with ferrograd.enable_grad():
            lifted = [b.lift(x) for x in flat]
            new_args = _replace_args(args, _unflatten(b.wrap(lifted), spec), argnums_w)
            output = _call(func, new_args, kwargs)
            output, aux = _split_grad_output(output, has_aux)
            out = b.phys(output)
            grads = _grads([out], lifted, [ferrograd.ones_like(out)], create_graph=True)
        g = _finish(_unflatten(b.wrap(grads), spec), keep)
        value = _finish(output, keep)
        if has_aux:
            return g, (value, _finish(aux, keep))
        return g, value

    return wrapper


def _split_grad_output(output, has_aux):
    """``(output, aux)`` of the function under ``grad``, checked as PyTorch does: a scalar
    tensor (and, with ``has_aux``, a pair whose second part holds tensors)."""
    import ferrograd

    aux = None
    if has_aux:
        if not (isinstance(output, tuple) and len(output) == 2):
            raise RuntimeError(
                "grad_and_value(f)(*args): output of function f should be a tuple: "
                "(output, aux) if has_aux is True")
        output, aux = output
        _check_aux(aux)
    if not isinstance(output, ferrograd.Tensor):
        raise RuntimeError(
            f"grad_and_value(f)(*args): Expected f(*args) to return a Tensor, got {type(output)}")
    if output.dim() != 0:
        raise RuntimeError(
            "grad_and_value(f)(*args): Expected f(*args) to return a scalar Tensor, got "
            f"tensor with {output.dim()} dims. Maybe you wanted to use the vjp or jacrev "
            "APIs instead?")
    return output, aux


def grad(func, argnums=0, has_aux=False):
    """Returns a function computing the gradient of scalar-valued ``func`` w.r.t. ``argnums``."""
    gv = grad_and_value(func, argnums, has_aux)

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        g, value = gv(*args, **kwargs)
        if has_aux:
            return g, value[1]
        return g

    return wrapper


# ---- vjp -------------------------------------------------------------------------------

def _check_outputs_tensors(flat, api):
    import ferrograd

    if len(flat) < 1:
        raise RuntimeError(
            f"{api}: Expected f to be a function that has non-empty output (got output = {flat})")
    for o in flat:
        if not isinstance(o, ferrograd.Tensor):
            raise RuntimeError(
                f"{api}: expected f(*primals) to return only tensors, got unsupported type {type(o)}")


def vjp(func, *primals, has_aux=False):
    """``(func(*primals), vjp_fn)``; ``vjp_fn(cotangents)`` returns the vector-Jacobian
    products, one per primal (a tuple)."""
    import ferrograd

    flat, spec = _flatten(primals)
    keep = _depth > 0 or _external(flat)
    b = _batch_of(primals)
    with ferrograd.enable_grad():
        lifted = [b.lift(x) for x in flat]
        output = _call(func, _unflatten(b.wrap(lifted), spec), {})
        aux = None
        if has_aux:
            if not (isinstance(output, tuple) and len(output) == 2):
                raise RuntimeError(
                    "vjp(f, *primals): output of function f should be a tuple: (output, aux) "
                    "if has_aux is True")
            output, aux = output
            _check_aux(aux)
        flat_out, out_spec = _flatten(output)
        _check_outputs_tensors(flat_out, "vjp(f, *primals)")
        for o in flat_out:
            if not (o.is_floating_point() or o.dtype.is_complex):
                raise RuntimeError(
                    "vjp(f, ...): All outputs of f must be floating-point or complex Tensors, "
                    f"got Tensor with dtype {o.dtype}")
        out_phys = [b.phys(o) for o in flat_out]

    def vjp_fn(cotangents, retain_graph=True, create_graph=None):
        if create_graph is None:
            create_graph = ferrograd.is_grad_enabled()
        flat_ct, ct_spec = _flatten(cotangents)
        if ct_spec != out_spec:
            raise RuntimeError(
                "Expected pytree structure of cotangents to be the same as pytree structure of "
                f"outputs to the function. cotangents: {ct_spec!r}, primal output: {out_spec!r}")
        for o, c in zip(flat_out, flat_ct):
            if tuple(o.shape) != tuple(c.shape):
                raise RuntimeError(
                    f"Mismatch in shape: grad_output[0] has a shape of {c.shape} and output[0] "
                    f"has a shape of {o.shape}.")
        with ferrograd.enable_grad():
            grads = _grads(out_phys, lifted, [b.phys(c) for c in flat_ct], create_graph=keep and create_graph)
        return _finish(_unflatten(b.wrap(grads), spec), keep)

    result = _finish(output, keep)
    if has_aux:
        return result, vjp_fn, _finish(aux, keep)
    return result, vjp_fn


# ---- jvp / linearize -------------------------------------------------------------------

def _double_vjp_setup(flat_out, lifted):
    """``(us, gs)``: dummy cotangents ``us`` for the outputs and ``gs = J^T u`` per input."""
    import ferrograd

    us = [ferrograd.zeros_like(o).requires_grad_(True) for o in flat_out]
    pairs = [(o, u) for o, u in zip(flat_out, us) if o.requires_grad]
    if not pairs:
        return us, [None] * len(lifted)
    from ..autograd import grad as _agrad

    gs = _agrad([o for o, _ in pairs], lifted, [u for _, u in pairs], retain_graph=True,
                create_graph=True, allow_unused=True)
    return us, list(gs)


def _double_vjp_apply(flat_out, us, gs, tangents, create_graph):
    """``J t`` for every output, zeros where an output does not depend on the inputs."""
    import ferrograd
    from ..autograd import grad as _agrad

    used = [(g, t) for g, t in zip(gs, tangents) if g is not None]
    res = [None] * len(us)
    if used:
        res = _agrad([g for g, _ in used], us, [t for _, t in used], retain_graph=True,
                     create_graph=create_graph, allow_unused=True)
    return [ferrograd.zeros_like(o) if r is None else r for r, o in zip(res, flat_out)]


def jvp(func, primals, tangents, *, strict=False, has_aux=False):
    """``(func(*primals), J @ tangents)``: the Jacobian-vector product."""
    import ferrograd

    api = "jvp(f, primals, tangents)"
    if not isinstance(primals, tuple):
        raise RuntimeError(f"{api}: Expected primals to be a tuple. E.g. it should be valid to call f(*primals).")
    flat_p, p_spec = _flatten(primals)
    flat_t, t_spec = _flatten(tangents)
    if p_spec != t_spec:
        raise RuntimeError(
            f"{api}: Expected primals and tangents to have the same python structure. For "
            "example, if primals is a tuple of 3 tensors, tangents also must be. Got primals "
            f"with structure {p_spec!r} and tangents with structure {t_spec!r}")
    if len(flat_p) == 0:
        raise RuntimeError(f"{api}: Expected primals to contain at least one Tensor.")
    for name, flat in (("primals", flat_p), ("tangents", flat_t)):
        for x in flat:
            if not isinstance(x, ferrograd.Tensor):
                raise RuntimeError(f"{api}: Expected {name} to only contain Tensors, got {type(x)}")
    for p, t in zip(flat_p, flat_t):
        if tuple(p.shape) != tuple(t.shape):
            raise RuntimeError(
                "Trying to set a forward gradient that has a different size than that of the "
                f"original Tensor, this is not supported. Tensor is of size {list(p.shape)} while "
                f"the given forward gradient is of size {list(t.shape)}.")
    keep = _depth > 0 or _external(flat_p + flat_t)
    b = _batch_of(primals, tangents)
    if not strict and not _C._fw_level_exists():
        return _jvp_forward(func, flat_p, p_spec, flat_t, has_aux, keep, api, b)
    # nested in another forward-mode transform (one dual level exists at a time): the JVP
    # by the double-vjp identity J t = d/du <J^T u, t>
    with ferrograd.enable_grad():
        lifted = [b.lift(x) for x in flat_p]
        output = _call(func, _unflatten(b.wrap(lifted), p_spec), {})
        output, aux, flat_out, out_spec = _jvp_outputs(output, has_aux, api)
        flat_out = [b.phys(o) for o in flat_out]
        if strict:
            from ..autograd import grad as _agrad

            for o in flat_out:
                independent = not o.requires_grad or all(
                    g is None for g in _agrad([o], lifted, [ferrograd.ones_like(o)], retain_graph=True,
                                              allow_unused=True))
                if independent:
                    raise RuntimeError(
                        "jvp(f, primals, tangents, strict=True): The output of f is independent of "
                        "the inputs. This is not allowed with strict=True.")
        us, gs = _double_vjp_setup(flat_out, lifted)
        tans = _double_vjp_apply(flat_out, us, gs, [b.phys(t) for t in flat_t], create_graph=keep)
    out = (_finish(output, keep), _finish(_unflatten(b.wrap(tans), out_spec), keep))
    if has_aux:
        return out + (_finish(aux, keep),)
    return out


def _jvp_outputs(output, has_aux, api, not_tensor="expected f(*args) to return only tensors"):
    """``(output, aux, flat outputs, their structure)`` of a transformed function, with torch's
    checks (``not_tensor`` words the error for a non-tensor output, as each transform does)."""
    import ferrograd

    aux = None
    if has_aux:
        if not (isinstance(output, tuple) and len(output) == 2):
            raise RuntimeError(
                f"{api}: output of function f should be a tuple: (output, aux) if has_aux is True")
        output, aux = output
        _check_aux(aux)
    flat_out, out_spec = _flatten(output)
    for o in flat_out:
        if not isinstance(o, ferrograd.Tensor):
            raise RuntimeError(f"{api}: {not_tensor}, got unsupported type {type(o)}")
    return output, aux, flat_out, out_spec


def _jvp_forward(func, flat_p, p_spec, flat_t, has_aux, keep, api, b):
    """``jvp`` by forward-mode AD: ``func`` runs once on dual tensors (inside vmap, on the
    physical ones: each example carries its own tangent)."""
    import ferrograd
    from ..autograd import forward_ad as fwAD

    with fwAD.dual_level():
        duals = [fwAD.make_dual(b.phys(p), b.phys(t.to(p.dtype) if t.dtype != p.dtype else t))
                 for p, t in zip(flat_p, flat_t)]
        output = _call(func, _unflatten(b.wrap(duals), p_spec), {})
        output, aux, flat_out, out_spec = _jvp_outputs(output, has_aux, api)
        tans = []
        for o in flat_out:
            o = b.phys(o)
            t = fwAD.unpack_dual(o).tangent
            tans.append(ferrograd.zeros_like(o) if t is None else t)
    out = (_finish(output, keep), _finish(_unflatten(b.wrap(tans), out_spec), keep))
    if has_aux:
        return out + (_finish(aux, keep),)
    return out


def linearize(func, *primals):
    """``(func(*primals), jvp_fn)`` where ``jvp_fn(*tangents)`` evaluates the JVP at ``primals``."""
    import ferrograd

    flat_p, p_spec = _flatten(primals)
    keep = _depth > 0 or _external(flat_p)
    b = _batch_of(primals)
    with ferrograd.enable_grad():
        lifted = [b.lift(x) for x in flat_p]
        output = _call(func, _unflatten(b.wrap(lifted), p_spec), {})
        flat_out, out_spec = _flatten(output)
        _check_outputs_tensors(flat_out, "linearize(f, *primals)")
        flat_out = [b.phys(o) for o in flat_out]
        us, gs = _double_vjp_setup(flat_out, lifted)

    def jvp_fn(*tangents):
        flat_t, t_spec = _flatten(tangents)
        if t_spec != p_spec:
            raise RuntimeError(
                "Expected the tangents to have the same structure as the primals passed to "
                f"linearize: primals {p_spec!r}, tangents {t_spec!r}")
        with ferrograd.enable_grad():
            tans = _double_vjp_apply(flat_out, us, gs, [b.phys(t) for t in flat_t], create_graph=keep)
        return _finish(_unflatten(b.wrap(tans), out_spec), keep)

    return _finish(output, keep), jvp_fn


# ---- jacrev / jacfwd / hessian ---------------------------------------------------------

def _jac_prepare(func, args, kwargs, argnums, api, has_aux):
    argnums_w, diff = _slice_argnums(args, argnums)
    flat_in, in_spec = _flatten(diff)
    keep = _depth > 0 or _external(flat_in)
    b = _batch_of(args, kwargs)
    lifted = [b.lift(x) for x in flat_in]
    for x in lifted:
        if x.dtype.is_complex:
            raise RuntimeError(f"{api}: Expected all inputs to be real but received complex tensor")
    new_args = _replace_args(args, _unflatten(b.wrap(lifted), in_spec), argnums_w)
    output, aux, flat_out, out_spec = _jvp_outputs(
        _call(func, new_args, kwargs), has_aux, api, "Expected f to return only tensors")
    return argnums_w, lifted, in_spec, output, [b.phys(o) for o in flat_out], out_spec, aux, keep, b


def _jac_block(cols, o, x, b, dim):
    """One Jacobian block (output ``o``, input ``x``, both physical) from its rows/columns
    ``cols`` stacked along ``dim``, shaped ``o``'s logical shape + ``x``'s."""
    import ferrograd

    shape = b.lead + b.logical_shape(o) + b.logical_shape(x)
    if not cols:
        return ferrograd.zeros(shape, dtype=o.dtype)
    return ferrograd.stack(cols, dim=dim).reshape(shape)


def _assemble(blocks, flat_out, out_spec, argnums_w, in_spec):
    """``blocks[i][j]`` is the Jacobian of output ``i`` w.r.t. input leaf ``j``; arrange it as
    the output structure of (input structure) like PyTorch."""
    per_out = [_unflatten(row, in_spec) for row in blocks]
    return _unflatten(per_out, out_spec)


def jacrev(func, argnums=0, *, has_aux=False, chunk_size=None, _preallocate_and_copy=False):
    """Jacobian of ``func`` w.r.t. ``argnums`` by reverse mode (one vjp per output element)."""
    if not (chunk_size is None or chunk_size > 0):
        raise ValueError("jacrev: `chunk_size` should be greater than 0.")

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        import ferrograd

        with ferrograd.enable_grad():
            argnums_w, lifted, in_spec, output, flat_out, out_spec, aux, keep, b = _jac_prepare(
                func, args, kwargs, argnums, "jacrev", has_aux)
            blocks = []
            for o in flat_out:
                rows = [[] for _ in lifted]
                for k in range(_numel(b.logical_shape(o))):
                    gs = _grads([o], lifted, [_basis(o, k, b)], create_graph=keep)
                    for j, g in enumerate(gs):
                        rows[j].append(g)
                blocks.append(b.wrap(_jac_block(rows[j], o, x, b, len(b.lead)) for j, x in enumerate(lifted)))
        result = _finish(_assemble(blocks, flat_out, out_spec, argnums_w, in_spec), keep)
        if has_aux:
            return result, _finish(aux, keep)
        return result

    return wrapper


def jacfwd(func, argnums=0, has_aux=False, *, randomness="error"):
    """Jacobian of ``func`` w.r.t. ``argnums`` by forward mode (one jvp per input element)."""
    if randomness not in ("error", "different", "same"):
        raise RuntimeError(
            f"Only allowed values for randomness are 'error', 'different', or 'same'. Got {randomness}")

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        import ferrograd

        with ferrograd.enable_grad():
            state = ferrograd.get_rng_state()
            argnums_w, lifted, in_spec, output, flat_out, out_spec, aux, keep, b = _jac_prepare(
                func, args, kwargs, argnums, "jacfwd", has_aux)
            if randomness == "error" and not ferrograd.equal(state, ferrograd.get_rng_state()):
                raise RuntimeError(_RANDOM_ERROR)
            cols = [[[] for _ in lifted] for _ in flat_out]
            if not _C._fw_level_exists():
                _jacfwd_columns(func, args, kwargs, argnums_w, lifted, in_spec, has_aux, cols,
                                state if randomness == "same" else None, b)
            else:
                _jacfwd_columns_nested(flat_out, lifted, keep, cols, b)
            blocks = [b.wrap(_jac_block(cols[i][j], o, x, b, -1) for j, x in enumerate(lifted))
                      for i, o in enumerate(flat_out)]
        result = _finish(_assemble(blocks, flat_out, out_spec, argnums_w, in_spec), keep)
        if has_aux:
            return result, _finish(aux, keep)
        return result

    return wrapper


def _basis(x, k, b):
    """The ``k``-th basis tensor of physical ``x``'s logical shape (spread over the batch)."""
    import ferrograd

    shape = b.logical_shape(x)
    e = ferrograd.zeros(_numel(shape), dtype=x.dtype)
    e[k] = 1.0
    return b.phys(e.reshape(shape))


def _jacfwd_columns(func, args, kwargs, argnums_w, lifted, in_spec, has_aux, cols, same_state, b):
    """The Jacobian's columns by forward-mode AD: ``func`` runs on dual inputs once per input
    element (``cols[i][j]`` gets output ``i``'s tangents along input ``j``'s basis); with
    ``same_state`` (randomness="same") every run starts from that generator state."""
    import ferrograd
    from ..autograd import forward_ad as fwAD

    for j, x in enumerate(lifted):
        for k in range(_numel(b.logical_shape(x))):
            if same_state is not None:
                # randomness="same": every column sees the primal evaluation's random draws
                ferrograd.set_rng_state(same_state)
            with fwAD.dual_level():
                duals = [fwAD.make_dual(xx, _basis(xx, k, b) if jj == j else ferrograd.zeros_like(xx))
                         for jj, xx in enumerate(lifted)]
                out = _call(func, _replace_args(args, _unflatten(b.wrap(duals), in_spec), argnums_w), kwargs)
                if has_aux:
                    out = out[0]
                for i, o in enumerate(_flatten(out)[0]):
                    o = b.phys(o)
                    t = fwAD.unpack_dual(o).tangent
                    cols[i][j].append(ferrograd.zeros_like(o) if t is None else t)


def _jacfwd_columns_nested(flat_out, lifted, keep, cols, b):
    """The columns by the double-vjp identity ``J t = d/du <J^T u, t>``, for a jacfwd nested in
    another forward-mode transform (one dual level exists at a time)."""
    import ferrograd

    us, gs = _double_vjp_setup(flat_out, lifted)
    for j, x in enumerate(lifted):
        for k in range(_numel(b.logical_shape(x))):
            tangents = [_basis(x, k, b) if jj == j else ferrograd.zeros_like(xx) for jj, xx in enumerate(lifted)]
            tans = _double_vjp_apply(flat_out, us, [g if jj == j else None for jj, g in enumerate(gs)],
                                     tangents, create_graph=keep)
            for i, t in enumerate(tans):
                cols[i][j].append(t)


def hessian(func, argnums=0):
    """Hessian of scalar ``func`` w.r.t. ``argnums``: ``jacfwd(jacrev(func, argnums), argnums)``."""
    return jacfwd(jacrev(func, argnums), argnums)


# ---- vmap ------------------------------------------------------------------------------

_RANDOM_ERROR = _batched._RANDOM_ERROR


def _get_name(func):
    if isinstance(func, functools.partial):
        return f"functools.partial({_get_name(func.func)}, ...)"
    return getattr(func, "__name__", repr(func))


def vmap(func, in_dims=0, out_dims=0, randomness="error", *, chunk_size=None):
    """Vectorize ``func`` over the ``in_dims`` dimension of its inputs (a loop over the batch;
    see the module docstring)."""
    if randomness not in ("error", "different", "same"):
        raise RuntimeError(
            f"Only allowed values for randomness are 'error', 'different', or 'same'. Got {randomness}")
    if not (chunk_size is None or chunk_size > 0):
        raise ValueError(f"vmap: chunk_size should be None or greater than 0. (got {chunk_size})")

    @functools.wraps(func)
    def wrapped(*args, **kwargs):
        import ferrograd

        name = _get_name(func)
        if not isinstance(in_dims, (int, tuple)) or isinstance(in_dims, bool):
            raise ValueError(
                f"vmap({name}, in_dims={in_dims}, ...)(<inputs>): expected `in_dims` to be int or a "
                f"(potentially nested) tuple matching the structure of inputs, got: {type(in_dims)}.")
        if len(args) == 0:
            raise ValueError(
                f"vmap({name})(<inputs>): got no inputs. Maybe you forgot to add inputs, or you are "
                "trying to vmap over a function with no inputs. The latter is unsupported.")
        flat_args, args_spec = _flatten(args)
        flat_dims = _broadcast_prefix(in_dims, args_spec)
        if flat_dims is None:
            in_spec = _flatten(in_dims)[1]
            raise ValueError(
                f"vmap({name}, in_dims={in_dims}, ...)(<inputs>): in_dims is not compatible with the "
                f"structure of `inputs`. in_dims has structure {in_spec!r} but inputs has structure "
                f"{args_spec!r}.")
        dims = []
        for d, a in zip(flat_dims, flat_args):
            if d is None:
                dims.append(None)
                continue
            if not isinstance(d, int) or isinstance(d, bool):
                raise ValueError(
                    f"vmap({name}, in_dims={in_dims}, ...)(<inputs>): Got in_dim={d} for an input but "
                    "in_dim must be either an integer dimension or None.")
            if not isinstance(a, ferrograd.Tensor):
                raise ValueError(
                    f"vmap({name}, in_dims={in_dims}, ...)(<inputs>): Got in_dim={d} for an input but "
                    f"the input is of type {type(a)}. We cannot vmap over non-Tensor arguments, please "
                    "use None as the respective in_dim")
            if not -a.dim() <= d < a.dim():
                raise ValueError(
                    f"vmap({name}, in_dims={in_dims}, ...)(<inputs>): Got in_dim={d} for some input, "
                    f"but that input is a Tensor of dimensionality {a.dim()} so expected in_dim to "
                    f"satisfy -{a.dim()} <= in_dim < {a.dim()}.")
            dims.append(d % a.dim())
        sizes = [a.shape[d] for d, a in zip(dims, flat_args) if d is not None]
        if not sizes:
            raise ValueError("vmap: Expected at least one Tensor to vmap over")
        if any(s != sizes[0] for s in sizes):
            raise ValueError(
                "vmap: Expected all tensors to have the same size in the mapped dimension, got sizes "
                f"{sizes} for the mapped dimension")
        batch = sizes[0]
        start_state = ferrograd.get_rng_state()
        if not _batched_disabled[0]:
            try:
                if chunk_size is not None and chunk_size < batch:
                    out = _vmap_chunked(func, flat_args, dims, args_spec, kwargs, batch, out_dims, name,
                                        chunk_size, randomness)
                else:
                    out = _vmap_batched(func, flat_args, dims, args_spec, kwargs, batch, out_dims, name,
                                        randomness)
            except _batched._NeedLoop:
                pass  # an op only a loop can run (see _batched): rerun the whole function as one
            except TypeError as e:
                if "Could not infer dtype of BatchedTensor" in str(e):
                    # `y[i] = x` with x batched and y not: PyTorch's vmap refuses it
                    raise RuntimeError(_batched._INPLACE_ERROR.format(op="inplace arithmetic")) from None
                # most likely a BatchedTensor reached the core through a path without rules; a
                # TypeError of the function itself is raised again by the loop
            else:
                if randomness == "error" and not ferrograd.equal(start_state, ferrograd.get_rng_state()):
                    raise RuntimeError(_RANDOM_ERROR)
                return out
            ferrograd.set_rng_state(start_state)
        if batch == 0:
            raise RuntimeError(
                f"vmap({name}, ...): this function runs once per batch element here and the "
                "outputs of a batch of size 0 cannot be inferred")
        _warn_vmap_loop()
        results = []
        for b in range(batch):
            if randomness == "same":
                ferrograd.set_rng_state(start_state)
            sliced = [a if d is None else a.select(d, b) for d, a in zip(dims, flat_args)]
            out = func(*_unflatten(sliced, args_spec), **kwargs)
            if randomness == "error" and not ferrograd.equal(start_state, ferrograd.get_rng_state()):
                raise RuntimeError(_RANDOM_ERROR)
            results.append(out)
        return _stack_outputs(results, out_dims, name)

    return wrapped


_batched_disabled = [False]  # tests flip it to compare the batched path with the loop


def _vmap_batched(func, flat_args, dims, args_spec, kwargs, batch, out_dims, name, randomness):
    """One call of ``func`` on BatchedTensors (the batching rules of ``_batched``; random ops
    follow ``randomness``)."""
    _batched._next_level[0] += 1
    lvl = _batched._next_level[0]
    _batched._active[0] += 1
    _batched.push_mode(lvl, batch, randomness)
    returned = False
    try:
        wrapped = [a if d is None else _batched.BatchedTensor(_batched._movedim(a, d, 0) if d else a, lvl)
                   for d, a in zip(dims, flat_args)]
        out = func(*_unflatten(wrapped, args_spec), **kwargs)
        returned = True
    finally:
        _batched.pop_mode(returned)
        _batched._active[0] -= 1
    return _unwrap_outputs(out, out_dims, name, lvl, batch)


def _vmap_chunked(func, flat_args, dims, args_spec, kwargs, batch, out_dims, name, chunk_size, randomness):
    """``chunk_size``: the batched run on ``chunk_size`` examples at a time (bounding memory),
    the chunks' outputs concatenated along their out_dims.  With ``randomness="same"`` every
    chunk starts from the same generator state (PyTorch's ``_chunked_vmap``)."""
    import ferrograd

    parts = []
    state = ferrograd.get_rng_state() if randomness == "same" else None
    for start in range(0, batch, chunk_size):
        n = min(chunk_size, batch - start)
        if state is not None:
            ferrograd.set_rng_state(state)
        sliced = [a if d is None else a.narrow(d, start, n) for d, a in zip(dims, flat_args)]
        parts.append(_vmap_batched(func, sliced, dims, args_spec, kwargs, n, out_dims, name, randomness))
    flat0, spec = _flatten(parts[0])
    flats = [_flatten(p)[0] for p in parts]
    if isinstance(parts[0], ferrograd.Tensor):
        flat_dims = [out_dims[0] if isinstance(out_dims, tuple) else out_dims]
    else:
        flat_dims = _broadcast_prefix(out_dims, spec)
    res = []
    for k, d in enumerate(flat_dims):
        res.append(flat0[k] if d is None else ferrograd.cat([f[k] for f in flats], d))
    return _unflatten(res, spec)


def _flat_out_dims(single, out_dims, spec, incompatible):
    """One out_dim per output leaf (``single``: the output is one tensor)."""
    if single:
        if isinstance(out_dims, tuple) and len(out_dims) == 1:
            return list(out_dims)
        if isinstance(out_dims, (tuple, list, dict)):
            incompatible()
        return [out_dims]
    flat_dims = _broadcast_prefix(out_dims, spec)
    if flat_dims is None:
        incompatible()
    return flat_dims


def _unwrap_outputs(out, out_dims, name, lvl, batch):
    import ferrograd

    flat, spec = _flatten(out)

    def incompatible():
        raise ValueError(
            f"vmap({name}, ..., out_dims={out_dims})(<inputs>): out_dims is not compatible with the "
            f"structure of `outputs`. out_dims has structure {_flatten(out_dims)[1]!r} but outputs "
            f"has structure {spec!r}.")

    flat_dims = _flat_out_dims(isinstance(out, ferrograd.Tensor), out_dims, spec, incompatible)
    res = []
    for o, d in zip(flat, flat_dims):
        if d is not None and (not isinstance(d, int) or isinstance(d, bool)):
            raise ValueError(
                f"vmap({name}, ..., out_dims={out_dims}): `out_dims` must be an int, None or a python "
                "collection of ints representing where in the outputs the vmapped dimension should appear.")
        batched = type(o) is _batched.BatchedTensor and o._lvl == lvl
        if d is None:
            if batched:
                raise ValueError(f"vmap({name}, ...): `{name}` can not return a BatchedTensor when "
                                 "out_dim is None")
            res.append(o)
            continue
        if not isinstance(o, ferrograd.Tensor):
            raise ValueError(
                f"vmap({name}, ...): `{name}` must only return Tensors, got type {type(o)}. Did you "
                "mean to set out_dims= to None for output?")
        if batched:
            v = o._v
        else:
            # not batched at this level: every example gets the same value
            v = o.unsqueeze(0).expand(batch, *o.shape)
        nd = v.dim()
        if not -nd <= d < nd:
            raise IndexError(f"Dimension out of range (expected to be in range of [{-nd}, {nd - 1}], but got {d})")
        res.append(_batched._movedim(v, 0, d) if d % nd else v)
    return _unflatten(res, spec)


_vmap_warned = False


def _warn_vmap_loop():
    """The one-time notice that vmap runs the function once per batch element."""
    global _vmap_warned
    if not _vmap_warned:
        _vmap_warned = True
        import warnings

        warnings.warn(
            "ferrograd.func.vmap ran the function once per batch element (randomness='different', "
            "a nested transform other than grad, or an operation that cannot take a batched "
            "tensor) and stacked the results: same values, a Python loop's speed. "
            "This warning is shown once.", UserWarning, stacklevel=3)


def _stack_outputs(results, out_dims, name):
    import ferrograd

    flat0, spec = _flatten(results[0])
    per = [_flatten(r) for r in results]
    for fl, sp in per[1:]:
        if sp != spec:
            raise ValueError(f"vmap({name}, ...): `{name}` returned outputs of different structure "
                             "for different batch elements")

    def incompatible():
        raise ValueError(
            f"vmap({name}, ..., out_dims={out_dims})(<inputs>): out_dims is not compatible with the "
            f"structure of `outputs`. out_dims has structure {_flatten(out_dims)[1]!r} but outputs "
            f"has structure {spec!r}.")

    def check(d):
        if d is not None and (not isinstance(d, int) or isinstance(d, bool)):
            raise ValueError(
                f"vmap({name}, ..., out_dims={out_dims}): `out_dims` must be an int, None or a python "
                "collection of ints representing where in the outputs the vmapped dimension should appear.")

    flat_dims = _flat_out_dims(isinstance(results[0], ferrograd.Tensor), out_dims, spec, incompatible)
    for d in flat_dims:
        check(d)
    stacked = []
    for k, d in enumerate(flat_dims):
        items = [fl[k] for fl, _ in per]
        if d is None:
            first = items[0]
            if isinstance(first, ferrograd.Tensor):
                same = all(isinstance(t, ferrograd.Tensor) and tuple(t.shape) == tuple(first.shape)
                           and bool(ferrograd.equal(t, first)) for t in items[1:])
                if not same:
                    raise ValueError(f"vmap({name}, ...): `{name}` can not return a BatchedTensor "
                                     "when out_dim is None")
            stacked.append(first)
            continue
        if not all(isinstance(t, ferrograd.Tensor) for t in items):
            bad = next(t for t in items if not isinstance(t, ferrograd.Tensor))
            raise ValueError(
                f"vmap({name}, ...): `{name}` must only return Tensors, got type {type(bad)}. Did you "
                "mean to set out_dims= to None for output?")
        nd = items[0].dim() + 1
        if not -nd <= d < nd:
            raise IndexError(f"Dimension out of range (expected to be in range of [{-nd}, {nd - 1}], but got {d})")
        stacked.append(ferrograd.stack(items, dim=d))
    return _unflatten(stacked, spec)


# ---- functional_call -------------------------------------------------------------------

def functional_call(module, parameter_and_buffer_dicts, args=None, kwargs=None, *, tie_weights=True,
                    strict=False):
    """Call ``module`` with its parameters and buffers replaced by the given tensors."""
    if isinstance(parameter_and_buffer_dicts, dict):
        merged = dict(parameter_and_buffer_dicts)
    elif isinstance(parameter_and_buffer_dicts, (list, tuple)):
        if not all(isinstance(d, dict) for d in parameter_and_buffer_dicts):
            raise ValueError(
                "Expected all elements of parameter_and_buffer_dicts to be dictionaries")
        all_keys = [k for d in parameter_and_buffer_dicts for k in d.keys()]
        seen, repeated = set(), []
        for k in all_keys:
            if k in seen and k not in repeated:
                repeated.append(k)
            seen.add(k)
        if repeated:
            raise ValueError(
                f"{repeated} appeared in multiple dictionaries; behavior of functional call is ambiguous")
        merged = {k: v for d in parameter_and_buffer_dicts for k, v in d.items()}
    else:
        raise ValueError(
            f"Expected parameter_and_buffer_dicts to be a dict, or a list/tuple of dicts, but got "
            f"{type(parameter_and_buffer_dicts)}")
    if args is None:
        args = ()
    elif not isinstance(args, tuple):
        args = (args,)
    if kwargs is None:
        kwargs = {}
    return _reparametrized_call(module, merged, args, kwargs, tie_weights, strict)


def _reparametrized_call(module, values, args, kwargs, tie_weights, strict):
    current = {}
    for name, p in module.named_parameters(remove_duplicate=False):
        current[name] = p
    for name, b in module.named_buffers(remove_duplicate=False):
        current[name] = b
    values = dict(values)
    if tie_weights:
        by_id = {}
        for name, t in current.items():
            if t is not None:
                by_id.setdefault(id(t), []).append(name)
        for names in by_id.values():
            if len(names) < 2:
                continue
            given = [n for n in names if n in values]
            if len(given) > 1 and any(values[n] is not values[given[0]] for n in given[1:]):
                raise ValueError(
                    f"functional_call got multiple values for keys {given}, which are tied. "
                    "Consider using tie_weights=False")
            if given:
                for n in names:
                    values.setdefault(n, values[given[0]])
    if strict:
        missing = sorted(k for k in current if k not in values)
        unexpected = sorted(k for k in values if k not in current)
        if missing or unexpected:
            msgs = []
            if unexpected:
                msgs.append("Unexpected key(s): {}.".format(", ".join(map(repr, unexpected))))
            if missing:
                msgs.append("Missing key(s): {}.".format(", ".join(map(repr, missing))))
            raise RuntimeError("Error(s) in reparametrizing for {}:\n\t{}".format(
                type(module).__name__, "\n\t".join(msgs)))
    undo = []
    try:
        for name, value in values.items():
            *path, attr = name.split(".")
            owner = module
            for part in path:
                owner = getattr(owner, part)
            if attr in owner._parameters:
                undo.append((owner._parameters, attr, owner._parameters[attr]))
                owner._parameters[attr] = value
            elif attr in owner._buffers:
                undo.append((owner._buffers, attr, owner._buffers[attr]))
                owner._buffers[attr] = value
            else:
                had = attr in owner.__dict__
                undo.append((owner.__dict__, attr, owner.__dict__.get(attr) if had else _MISSING))
                owner.__dict__[attr] = value
        return module(*args, **kwargs)
    finally:
        for store, attr, old in reversed(undo):
            if old is _MISSING:
                store.pop(attr, None)
            else:
                store[attr] = old


_MISSING = object()


# ---- model ensembling helpers --------------------------------------------------------------

def _construct_stacked_leaf(tensors, name):
    from .. import stack

    all_requires_grad = all(t.requires_grad for t in tensors)
    none_requires_grad = all(not t.requires_grad for t in tensors)
    if not all_requires_grad and not none_requires_grad:
        raise RuntimeError(f"Expected {name} from each model to have the same .requires_grad")
    result = stack(tensors)
    if all_requires_grad:
        result = result.detach().requires_grad_()
    return result


def stack_module_state(models):
    """Stack the parameters and buffers of ``models`` (same class, same mode) along a new
    leading dim: ``(params, buffers)`` dicts for ``vmap(functional_call(...))`` ensembling.
    Stacked parameters are new leaves that require grad when the originals do."""
    if len(models) == 0:
        raise RuntimeError("stack_module_state: Expected at least one model, got 0.")
    if not (all(m.training for m in models) or all(not m.training for m in models)):
        raise RuntimeError("stack_module_state: Expected all models to have the same training/eval mode.")
    model0_typ = type(models[0])
    if not all(type(m) is model0_typ for m in models):
        raise RuntimeError("stack_module_state: Expected all models to be of the same class.")
    all_params = [dict(model.named_parameters()) for model in models]
    params = {k: _construct_stacked_leaf(tuple(p[k] for p in all_params), k) for k in all_params[0]}
    all_buffers = [dict(model.named_buffers()) for model in models]
    buffers = {k: _construct_stacked_leaf(tuple(b[k] for b in all_buffers), k) for k in all_buffers[0]}
    return params, buffers


def replace_all_batch_norm_modules_(root):
    """In place: every batch norm in ``root`` stops tracking running statistics (uses batch
    statistics in every mode), as ``vmap`` over a model needs. Returns ``root``."""
    from ..nn.modules.batchnorm import _BatchNorm

    for module in root.modules():
        if isinstance(module, _BatchNorm):
            module.running_mean = None
            module.running_var = None
            module.num_batches_tracked = None
            module.track_running_stats = False
    return root


def functionalize(func, *, remove="mutations"):
    """``func`` with its mutations (and, with ``remove="mutations_and_views"``, its views)
    replaced by out-of-place ops. In eager execution that transformation is invisible: the
    outputs are the same, and mutations of the inputs still land in the inputs (functorch copies
    them back). ferrograd runs eagerly, so the returned function runs ``func`` itself."""
    if remove not in ("mutations", "mutations_and_views"):
        raise RuntimeError(f"functionalize(f, remove='mutations'): received invalid argument for remove={remove}. "
                           "Valid options are:\n     remove='mutations': all inplace and out= operators will be removed "
                           "from the program, and replaced with their out-of-place equivalents.\n     "
                           "remove='mutations_and_views': In addition to the above, all aliasing operators {view} "
                           "will be replaced with their non-aliasing counterparts, {view}_copy.\n")

    @functools.wraps(func)
    def wrapped(*args, **kwargs):
        return func(*args, **kwargs)

    return wrapped


def debug_unwrap(tensor, *, recurse=True):
    """The plain tensor under functorch's wrappers. ferrograd's transforms never wrap tensors
    (``grad``/``vmap`` pass ordinary tensors), so this is ``tensor`` itself."""
    return tensor


from ._rearrange import rearrange  # noqa: E402
