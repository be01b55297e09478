"""vmap's batching rules: ``BatchedTensor`` and the rules that run an op once for the whole
batch.

Inside ``vmap`` every mapped input is a ``BatchedTensor``: a *physical* tensor whose dim 0 is
the batch, seen by the function as the *logical* tensor without it (``shape``, ``dim()``, dims
in arguments and printing are logical).  Each op on a BatchedTensor is rewritten into one op on
the physical tensor -- a *batching rule* -- so the function runs once, not once per example:

* pointwise ops (unary, binary, ternary, comparisons, in-place forms): operands are aligned
  by padding batched ones with size-1 dims after the batch dim up to the common logical rank,
  then broadcast as usual;
* reductions, scans, sorts, softmax and every op with ``dim`` arguments: logical dims are
  checked against the logical rank (PyTorch's IndexError) and shifted past the batch dim; a
  reduction over all dims flattens the logical dims first;
* shape ops (``reshape``/``view``, ``permute``, ``transpose``, ``expand``, ``squeeze``,
  ``flatten``, ``repeat``, indexing with ints/slices/None/Ellipsis and adjacent index tensors);
* ``matmul``/``mm``/``mv``/``dot``/``bmm`` through one broadcasting matmul; ``cat``/``stack``;
  ``nn.functional``'s linear, convolutions, pooling, losses and activations.

Nested vmaps give each level its own BatchedTensor: the physical tensor of an inner level is a
BatchedTensor of the outer one, so a rule's physical op goes through the outer level's rule.
An op with no rule runs once per batch element on slices and stacks the results (PyTorch's
"performance drop" warning, once per op).  Random ops have PyTorch's rules for each
``randomness`` mode (``random_call``, at the end).  Where neither can work -- a random draw
that bypasses the rules under "different", ``autograd.grad`` on batched tensors, an op that
reaches the Rust core with a BatchedTensor -- ``_NeedLoop`` makes vmap rerun the whole
function as a loop.
"""

import warnings

from .. import _C


_active = [0]  # number of running batched vmaps: the fast check in the dispatch hooks
_next_level = [0]


class _NeedLoop(Exception):
    """Raised inside a batched vmap where only the per-example loop can give the answer."""


_ITEM_ERROR = ("vmap: It looks like you're calling .item() on a Tensor. We don't support vmap over "
               "calling .item() on a Tensor, please try to rewrite what you're doing with other "
               "operations. If error is occurring somewhere inside PyTorch internals, please file a "
               "bug report.")
_FLOW_ERROR = ("vmap: It looks like you're attempting to use a Tensor in some data-dependent control "
               "flow. We don't support that yet, please file an issue at "
               "https://github.com/pytorch/pytorch/issues .")
_INPLACE_ERROR = ("vmap: {op}(self, *extra_args) is not possible because there exists a Tensor `other` "
                  "in extra_args that has more elements than `self`. This happened due to `other` being "
                  "vmapped over but `self` not being vmapped over in a vmap. Please try to use "
                  "out-of-place operators instead of {op}. If said operator is being called inside the "
                  "PyTorch framework, please file a bug report")


def _is_inplace(name):
    return (name.endswith("_") and not name.startswith("_") and name != "where_"
            or name in _INPLACE_DUNDERS)


def _is_bt(x):
    return type(x) is BatchedTensor


def _is_tensor(x):
    return type(x) is BatchedTensor or isinstance(x, _C.Tensor)


def _lvl(x):
    return x._lvl if type(x) is BatchedTensor else 0


def _top(args, kwargs=None):
    """(level, batch size) of the innermost BatchedTensor among the arguments (one level of
    lists/tuples looked into); (0, 0) when there is none."""
    best = None
    for a in args:
        if type(a) is BatchedTensor:
            if best is None or a._lvl > best._lvl:
                best = a
        elif isinstance(a, (list, tuple)):
            for b in a:
                if type(b) is BatchedTensor and (best is None or b._lvl > best._lvl):
                    best = b
    if kwargs:
        for a in kwargs.values():
            if type(a) is BatchedTensor and (best is None or a._lvl > best._lvl):
                best = a
    if best is None:
        return 0, 0
    return best._lvl, best._v.shape[0]


def refuse(*trees):
    """Inside a batched vmap, a transform or an autograd call that only the loop can run:
    raise ``_NeedLoop`` if a BatchedTensor is among ``trees`` (lists, tuples, dicts)."""
    if _active[0] and _has_bt(trees):
        raise _NeedLoop()


def _has_bt(x):
    if type(x) is BatchedTensor:
        return True
    if isinstance(x, (list, tuple)):
        return any(_has_bt(e) for e in x)
    if isinstance(x, dict):
        return any(_has_bt(e) for e in x.values())
    return False


def _any_bt(args, kwargs=None):
    return _top(args, kwargs)[0] > 0


def _rank(x, lvl):
    """Logical rank of ``x`` at level ``lvl``."""
    if type(x) is BatchedTensor and x._lvl == lvl:
        return x._v.dim() - 1
    return x.dim()


def _wrap(x, lvl):
    if isinstance(x, (tuple, list)):
        vals = [_wrap(e, lvl) for e in x]
        if hasattr(type(x), "_fields"):  # namedtuple (values, indices)
            return type(x)(*vals)
        return type(x)(vals)
    if _is_tensor(x):
        return BatchedTensor(x, lvl)
    return x


def _phys(x, lvl, rank=None):
    """The physical tensor of ``x`` at ``lvl`` (padded with size-1 dims after the batch dim up
    to logical ``rank``); unbatched operands are returned as they are (they broadcast)."""
    if type(x) is BatchedTensor and x._lvl == lvl:
        v = x._v
        if rank is not None:
            for _ in range(rank - (v.dim() - 1)):
                v = v.unsqueeze(1)
        return v
    return x


def _expanded(x, lvl, batch):
    """The physical tensor of ``x`` at ``lvl``; unbatched tensors get the batch dim by expand."""
    if type(x) is BatchedTensor and x._lvl == lvl:
        return x._v
    return x.unsqueeze(0).expand(batch, *x.shape)


def _flat2(v, batch):
    """Physical ``v`` as [batch, everything else] (also for a batch of 0)."""
    n = 1
    for size in v.shape[1:]:
        n *= size
    return v.reshape(batch, n)


def _norm_dim(d, rank):
    """Logical dim ``d`` checked against logical ``rank`` (PyTorch's IndexError), made
    non-negative."""
    if not isinstance(d, int) or isinstance(d, bool):
        raise TypeError(f"dim must be an int, got {type(d).__name__}")
    r = max(rank, 1)
    if not -r <= d < r:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-r}, {r - 1}], but got {d})")
    return d % r


def _shift(d, rank):
    """Logical dim(s) ``d`` -> physical dim(s) (past the batch dim)."""
    if isinstance(d, (tuple, list)):
        return type(d)(_norm_dim(e, rank) + 1 for e in d)
    return _norm_dim(d, rank) + 1


def call(name, args, kwargs=None):
    """``Tensor.<name>(*args, **kwargs)`` where the operands may be BatchedTensors of any
    level (the innermost one's rule runs) or plain tensors (the core runs)."""
    kwargs = kwargs or {}
    if _any_bt(args, kwargs):
        return dispatch(name, args, kwargs)
    return getattr(_C.Tensor, name)(*args, **kwargs)


def fn_call(fn, name, args, kwargs):
    """A Python-level function (``torch.cat``, ``F.linear``...) called with BatchedTensors:
    its rule; a per-example loop for the functions that hand tensors to the core directly;
    the function itself otherwise (it is made of ops that have rules)."""
    rule = _FN_RULES.get(name)
    if rule is not None:
        return rule(fn, args, kwargs)
    if name in _FN_LOOP:
        return _loop(name, fn, args, kwargs)
    return fn(*args, **kwargs)


# Python-level functions that pass their tensors to the core directly and have no rule
_FN_LOOP = {"fold", "unfold", "prelu", "adaptive_max_pool2d_with_indices", "bilinear", "one_hot",
            "multi_head_attention_forward", "scaled_dot_product_attention", "rnn_tanh_cell", "lstm_cell",
            "gru_cell", "ctc_loss", "multilabel_margin_loss", "multi_margin_loss", "grid_sample",
            "affine_grid", "embedding_bag"}


def dispatch(name, args, kwargs):
    rule = _RULES.get(name)
    if rule is not None:
        return rule(name, args, kwargs)
    return _loop(name, lambda *a, **k: call(name, a, k), args, kwargs)


# ---- the fallback: once per batch element ----------------------------------------------

_warned = set()


def _warn_fallback(name):
    if name not in _warned:
        _warned.add(name)
        warnings.warn(
            f"There is a performance drop because we have not yet implemented the batching rule for "
            f"{name}. It runs once per batch element and the results are stacked. (This warning is "
            "shown once per op.)", UserWarning, stacklevel=4)


def _slice(x, lvl, b):
    if type(x) is BatchedTensor and x._lvl == lvl:
        return x._v.select(0, b)
    if isinstance(x, (list, tuple)) and not hasattr(type(x), "_fields"):
        return type(x)(_slice(e, lvl, b) for e in x)
    return x


def _loop(name, fn, args, kwargs):
    lvl, batch = _top(args, kwargs)
    inplace = _is_inplace(name)
    if inplace and not (type(args[0]) is BatchedTensor and args[0]._lvl == lvl):
        raise RuntimeError(_INPLACE_ERROR.format(op="inplace arithmetic"))
    if batch == 0:
        raise _NeedLoop()
    _warn_fallback(name)
    outs = []
    for b in range(batch):
        outs.append(fn(*[_slice(a, lvl, b) for a in args],
                       **{k: _slice(v, lvl, b) for k, v in kwargs.items()}))
    if inplace:
        return args[0]
    return _stack_results(outs, lvl)


def _stack_results(outs, lvl):
    first = outs[0]
    if _is_tensor(first):
        return BatchedTensor(stack(list(outs), 0), lvl)
    if isinstance(first, (tuple, list)):
        parts = [_stack_results([o[i] for o in outs], lvl) for i in range(len(first))]
        if hasattr(type(first), "_fields"):
            return type(first)(*parts)
        return type(first)(parts)
    if first is None:
        return None
    if all(o == first for o in outs[1:]):
        return first
    raise RuntimeError(_FLOW_ERROR)


# ---- BatchedTensor ---------------------------------------------------------------------

class BatchedTensor:
    """A tensor seen without its batch dim (see the module docstring).  ``isinstance(x,
    Tensor)`` holds, as in PyTorch, so code that checks for tensors runs unchanged."""

    __slots__ = ("_v", "_lvl", "__weakref__")

    def __init__(self, value, lvl):
        self._v = value
        self._lvl = lvl

    @property
    def __class__(self):
        return _C.Tensor

    # -- metadata ---------------------------------------------------------------------
    @property
    def shape(self):
        return self._v.shape[1:]

    def size(self, dim=None):
        if dim is None:
            return self.shape
        return self.shape[_norm_dim(dim, self.dim())]

    def dim(self):
        return self._v.dim() - 1

    ndimension = dim

    @property
    def ndim(self):
        return self.dim()

    def numel(self):
        n = 1
        for s in self.shape:
            n *= s
        return n

    nelement = numel

    def __len__(self):
        if self.dim() == 0:
            raise TypeError("len() of a 0-d tensor")
        return self.shape[0]

    def __iter__(self):
        if self.dim() == 0:
            raise TypeError("iteration over a 0-d tensor")
        return iter(self.unbind(0))

    dtype = property(lambda self: self._v.dtype)
    device = property(lambda self: self._v.device)
    is_cuda = property(lambda self: self._v.is_cuda)
    layout = property(lambda self: self._v.layout)
    requires_grad = property(lambda self: self._v.requires_grad)
    is_leaf = property(lambda self: self._v.is_leaf)
    grad_fn = property(lambda self: self._v.grad_fn)
    grad = property(lambda self: None)
    data = property(lambda self: BatchedTensor(self._v.data, self._lvl))

    def is_floating_point(self):
        return self._v.is_floating_point()

    def is_complex(self):
        return self._v.dtype.is_complex

    def is_contiguous(self, memory_format=None):
        return self._v.is_contiguous()

    def element_size(self):
        return self._v.element_size()

    def requires_grad_(self, requires_grad=True):
        self._v.requires_grad_(requires_grad)
        return self

    def __repr__(self):
        inner = repr(self._v).replace("\n", "\n    ")
        return f"BatchedTensor(lvl={self._lvl}, bdim=0, value=\n    {inner}\n)"

    __str__ = __repr__

    # -- data-dependent Python conversions -----------------------------------------
    def item(self):
        raise RuntimeError(_ITEM_ERROR)

    def __bool__(self):
        raise RuntimeError(_FLOW_ERROR)

    def __float__(self):
        raise RuntimeError(_ITEM_ERROR)

    __int__ = __index__ = __float__

    def tolist(self):
        raise RuntimeError("Cannot access data pointer of Tensor that doesn't have storage")

    numpy = data_ptr = tolist

    def __hash__(self):
        return id(self)

    # -- everything else goes through the rules --------------------------------------
    def __getattr__(self, name):
        attr = _C.Tensor.__dict__.get(name)
        if attr is None:
            raise AttributeError(f"'Tensor' object has no attribute '{name}'")
        if name in _NEW_FACTORIES:
            # new_zeros & co. of a BatchedTensor are batched, as in PyTorch (their rule)
            return lambda *args, **kwargs: dispatch(name, (self,) + args, kwargs)
        if getattr(attr, "_dim_alias", False):
            # a native method behind the axis=/keepdims= renaming: its rule, with the names renamed
            def call(*args, **kwargs):
                if "axis" in kwargs and "dim" not in kwargs:
                    kwargs["dim"] = kwargs.pop("axis")
                if "keepdims" in kwargs and "keepdim" not in kwargs:
                    kwargs["keepdim"] = kwargs.pop("keepdims")
                return dispatch(name, (self,) + args, kwargs)
            return call
        if type(attr).__name__ == "function":
            # a Python-level Tensor method (to, float, new_zeros...): run it on the batched tensor
            return attr.__get__(self, BatchedTensor)
        if not callable(attr):
            return getattr(self._v, name)
        return lambda *args, **kwargs: dispatch(name, (self,) + args, kwargs)


def _dunder(name):
    def method(self, *args):
        return dispatch(name, (self,) + args, {})

    method.__name__ = name
    return method


_INPLACE_DUNDERS = {"__iadd__", "__isub__", "__imul__", "__itruediv__", "__ifloordiv__", "__imod__",
                    "__ipow__", "__iand__", "__ior__", "__ixor__", "__setitem__"}

for _n in ("__add__ __radd__ __sub__ __rsub__ __mul__ __rmul__ __truediv__ __rtruediv__ __floordiv__ "
           "__rfloordiv__ __mod__ __rmod__ __pow__ __rpow__ __matmul__ __rmatmul__ __and__ __rand__ "
           "__or__ __ror__ __xor__ __rxor__ __eq__ __ne__ __lt__ __le__ __gt__ __ge__ __neg__ __abs__ "
           "__invert__ __pos__ __getitem__ __setitem__ __iadd__ __isub__ __imul__ __itruediv__ "
           "__ifloordiv__ __imod__ __ipow__ __iand__ __ior__ __ixor__").split():
    setattr(BatchedTensor, _n, _dunder(_n))


def stack(tensors, dim=0):
    """``torch.stack`` for a list that may hold BatchedTensors."""
    if _any_bt(tensors):
        return _fn_stack(_C.stack, (tensors, dim), {})
    return _C.stack(tensors, dim)


# ---- rules ------------------------------------------------------------------------------

_RULES = {}
_FN_RULES = {}


def _rule(names, table=_RULES):
    def deco(f):
        for n in names.split():
            table[n] = f
        return f

    return deco


def _tensor_args(args, kwargs):
    return [a for a in list(args) + list(kwargs.values()) if _is_tensor(a)]


def _batched_among(args, kwargs, lvl):
    return any(_is_at(a, lvl) for a in _tensor_args(args, kwargs))


@_rule(
    # unary
    "abs abs_ neg neg_ negative exp exp_ expm1 log log_ log1p log2 log10 sqrt sqrt_ rsqrt sin sin_ cos cos_ "
    "tan tan_ tanh tanh_ sigmoid sigmoid_ relu relu_ sign reciprocal reciprocal_ floor floor_ ceil trunc "
    "round erf atan asin acos sinh cosh square clone contiguous detach isnan isinf isfinite logical_not "
    "bitwise_not float double half long int short char byte bool to type_as clamp clamp_ clip "
    "clamp_min clamp_max fill_ zero_ copy_ _to_dtype _to_device "
    # binary / ternary
    "add add_ sub sub_ mul mul_ multiply div div_ divide true_divide pow pow_ maximum minimum eq ne lt le gt "
    "ge logical_and logical_or logical_xor bitwise_and bitwise_or bitwise_xor floor_divide remainder fmod "
    "atan2 arctan2 lerp lerp_ addcmul addcmul_ addcdiv addcdiv_ masked_fill masked_fill_ where where_ "
    "isclose "
    "__add__ __radd__ __sub__ __rsub__ __mul__ __rmul__ __truediv__ __rtruediv__ __floordiv__ "
    "__rfloordiv__ __mod__ __rmod__ __pow__ __rpow__ __and__ __rand__ __or__ __ror__ __xor__ __rxor__ "
    "__eq__ __ne__ __lt__ __le__ __gt__ __ge__ __neg__ __abs__ __invert__ __pos__ __iadd__ __isub__ "
    "__imul__ __itruediv__ __ifloordiv__ __imod__ __ipow__ __iand__ __ior__ __ixor__")
def _pointwise(name, args, kwargs):
    lvl, _ = _top(args, kwargs)
    tensors = _tensor_args(args, kwargs)
    rank = max(_rank(t, lvl) for t in tensors)
    self_ = args[0]
    inplace = _is_inplace(name)
    if inplace:
        if not (_is_bt(self_) and self_._lvl == lvl):
            raise RuntimeError(_INPLACE_ERROR.format(op="inplace arithmetic"))
        rank = _rank(self_, lvl)
    pargs = [_phys(a, lvl, rank) if _is_tensor(a) else a for a in args]
    pkw = {k: (_phys(v, lvl, rank) if _is_tensor(v) else v) for k, v in kwargs.items()}
    if inplace:
        # self keeps its own physical tensor (padding it would make a new view)
        pargs[0] = self_._v
    out = call(name, pargs, pkw)
    if inplace:
        return self_
    return _wrap(out, lvl)


def _dim_arg(args, kwargs, pos, key, default):
    """(value, setter) of the dim argument at position ``pos`` (after self) or keyword ``key``."""
    if key in kwargs:
        return kwargs[key], "kw"
    if len(args) > pos + 1:
        return args[pos + 1], "pos"
    return default, "default"


def _with_dim(args, kwargs, pos, key, value):
    args = list(args)
    kwargs = dict(kwargs)
    if key in kwargs or len(args) <= pos + 1:
        kwargs[key] = value
    else:
        args[pos + 1] = value
    return args, kwargs


# name -> (position after self, keyword, default) of the dim argument; ops that keep the rank
_DIM_OPS = {
    "softmax": (0, "dim", None), "log_softmax": (0, "dim", None), "cumsum": (0, "dim", None),
    "cumprod": (0, "dim", None), "cumprod_": (0, "dim", None), "argsort": (0, "dim", -1),
    "sort": (0, "dim", -1), "topk": (1, "dim", -1), "narrow": (0, "dim", None),
    "split": (1, "dim", 0), "chunk": (1, "dim", 0),
    "logcumsumexp": (0, "dim", None), "cummax": (0, "dim", None), "cummin": (0, "dim", None),
    "kthvalue": (1, "dim", -1),
}
# ops that remove the dim: same table, rank of the result is smaller
_SELECT_OPS = {"select": (0, "dim", None), "unbind": (0, "dim", 0)}


@_rule(" ".join(list(_DIM_OPS) + list(_SELECT_OPS)))
def _dim_op(name, args, kwargs):
    lvl, _ = _top(args, kwargs)
    self_ = args[0]
    if not (_is_bt(self_) and self_._lvl == lvl) or _tensor_args(args[1:], kwargs):
        return dispatch_loop(name, args, kwargs)
    rank = _rank(self_, lvl)
    pos, key, default = _DIM_OPS.get(name) or _SELECT_OPS[name]
    d, _ = _dim_arg(args, kwargs, pos, key, default)
    if d is None:
        return dispatch_loop(name, args, kwargs)
    if rank == 0:
        # a 0-d logical tensor: dim 0/-1 is a dim of size 1 to the op; give it one
        if name in _SELECT_OPS:
            _norm_dim(d, 0)
            return dispatch_loop(name, args, kwargs)
        out = _dim_op(name, (BatchedTensor(self_._v.unsqueeze(1), lvl),) + tuple(args[1:]), kwargs)
        return _wrap_map(out, lambda t: t.squeeze(1), lvl)
    nargs, nkw = _with_dim(args, kwargs, pos, key, _shift(d, rank))
    nargs[0] = self_._v
    return _wrap(call(name, nargs, nkw), lvl)


def _wrap_map(out, f, lvl):
    if _is_bt(out) and out._lvl == lvl:
        return BatchedTensor(f(out._v), lvl)
    if isinstance(out, (tuple, list)):
        vals = [_wrap_map(o, f, lvl) for o in out]
        return type(out)(*vals) if hasattr(type(out), "_fields") else type(out)(vals)
    return out


def dispatch_loop(name, args, kwargs):
    return _loop(name, lambda *a, **k: call(name, a, k), args, kwargs)


# reductions: dim at position 0 (keyword "dim"), None = all dims
_REDUCE = {"sum": 0, "mean": 0, "prod": 0, "amax": 0, "amin": 0, "logsumexp": 0, "all": 0, "any": 0,
           "std": 0, "var": 0, "argmax": 0, "argmin": 0, "norm": 1, "max": 0, "min": 0,
           "nansum": 0, "count_nonzero": 0, "median": 0}


@_rule(" ".join(_REDUCE))
def _reduce(name, args, kwargs):
    lvl, batch = _top(args, kwargs)
    self_ = args[0]
    if name in ("max", "min") and (len(args) > 1 and _is_tensor(args[1]) or _is_tensor(kwargs.get("other"))):
        return _pointwise("maximum" if name == "max" else "minimum", args, kwargs)
    if not (_is_bt(self_) and self_._lvl == lvl) or _tensor_args(args[1:], kwargs):
        return dispatch_loop(name, args, kwargs)
    rank = _rank(self_, lvl)
    pos = _REDUCE[name]
    d, _ = _dim_arg(args, kwargs, pos, "dim", None)
    if name in ("std", "var") and isinstance(d, bool):  # std(unbiased) form
        d = None
        args = (args[0],) + tuple(args[1:])
        kwargs = dict(kwargs, unbiased=args[1])
        args = args[:1]
    if d is not None and not (isinstance(d, (tuple, list)) and len(d) == 0):
        if rank == 0:
            dd = d if isinstance(d, (tuple, list)) else [d]
            for e in dd:
                _norm_dim(e, 0)
            nargs, nkw = _with_dim(args, kwargs, pos, "dim", 1)
            nargs[0] = self_._v.unsqueeze(1)
            out = call(name, nargs, nkw)
            keep = nkw.get("keepdim", False) or (len(nargs) > pos + 2 and nargs[pos + 2] is True)
            if keep:
                out = _map_out(out, lambda t: t.squeeze(1))
            return _wrap(out, lvl)
        nargs, nkw = _with_dim(args, kwargs, pos, "dim", _shift(d, rank))
        nargs[0] = self_._v
        return _wrap(call(name, nargs, nkw), lvl)
    # over all logical dims: flatten them, reduce dim 1
    keepdim = kwargs.get("keepdim", False)
    if name in ("max", "min", "median") and d is None:
        flat = _flat2(self_._v, batch)
        op = {"max": "amax", "min": "amin"}.get(name, name)
        out = call(op, [flat, 1] if op != "median" else [flat, 1], {})
        if name == "median":
            out = out[0]
        return BatchedTensor(out, lvl)
    if name in ("argmax", "argmin"):
        flat = _flat2(self_._v, batch)
        out = call(name, [flat, 1], {"keepdim": False})
        if keepdim:
            out = out.reshape(batch, *([1] * rank))
        return BatchedTensor(out, lvl)
    nkw = {k: v for k, v in kwargs.items() if k not in ("dim", "keepdim")}
    nargs = list(args[:pos + 1])
    nargs[0] = _flat2(self_._v, batch)
    nargs, nkw = _with_dim(nargs, nkw, pos, "dim", 1)
    out = call(name, nargs, nkw)
    if keepdim:
        out = out.reshape(batch, *([1] * rank))
    return BatchedTensor(out, lvl)


def _map_out(out, f):
    if isinstance(out, (tuple, list)):
        vals = [_map_out(o, f) for o in out]
        return type(out)(*vals) if hasattr(type(out), "_fields") else type(out)(vals)
    return f(out)


def _only_self(name, args, kwargs):
    """(lvl, batch, self) when only self is batched; None otherwise (the loop runs)."""
    lvl, batch = _top(args, kwargs)
    self_ = args[0]
    if not (_is_bt(self_) and self_._lvl == lvl) or _tensor_args(args[1:], kwargs):
        return None
    return lvl, batch, self_


def _self_only(rule):
    """A rule for ops where only self may be batched (the loop runs them otherwise); the rule
    gets the level, the batch size and self after the op's arguments."""
    def run(name, args, kwargs):
        got = _only_self(name, args, kwargs)
        if got is None:
            return dispatch_loop(name, args, kwargs)
        return rule(name, args, kwargs, *got)

    run.__name__ = rule.__name__
    return run


def _sizes(args):
    if len(args) == 1 and isinstance(args[0], (tuple, list)) or len(args) == 1 and type(args[0]).__name__ == "Size":
        return tuple(args[0])
    return tuple(args)


@_rule("flip")
@_self_only
def _flip(name, args, kwargs, lvl, batch, self_):
    dims = _sizes(args[1:]) if len(args) > 1 else tuple(kwargs["dims"])
    return BatchedTensor(self_._v.flip(*_shift(list(dims), max(self_.dim(), 1))), lvl)


@_rule("reshape view")
@_self_only
def _reshape(name, args, kwargs, lvl, batch, self_):
    shape = _sizes(args[1:]) if len(args) > 1 else tuple(kwargs.get("shape", kwargs.get("size", ())))
    if name == "view" and len(shape) == 1 and not isinstance(shape[0], int):
        # view(dtype)
        return BatchedTensor(self_._v.view(shape[0]), lvl)
    return BatchedTensor(call(name, [self_._v, (batch,) + tuple(shape)], {}), lvl)


@_rule("view_as reshape_as expand_as")
def _as(name, args, kwargs):
    other = args[1] if len(args) > 1 else kwargs["other"]
    base = {"view_as": "view", "reshape_as": "reshape", "expand_as": "expand"}[name]
    return dispatch(base, (args[0], tuple(other.shape)), {})


@_rule("expand")
@_self_only
def _expand(name, args, kwargs, lvl, batch, self_):
    sizes = _sizes(args[1:]) if len(args) > 1 else tuple(kwargs["size"])
    v = _phys(self_, lvl, len(sizes))
    return BatchedTensor(v.expand(batch, *sizes), lvl)


@_rule("repeat")
@_self_only
def _repeat(name, args, kwargs, lvl, batch, self_):
    reps = _sizes(args[1:]) if len(args) > 1 else tuple(kwargs["repeats"])
    if len(reps) < self_.dim():
        raise RuntimeError("Number of dimensions of repeat dims can not be smaller than number of "
                           "dimensions of tensor")
    v = _phys(self_, lvl, len(reps))
    return BatchedTensor(v.repeat(1, *reps), lvl)


@_rule("permute")
@_self_only
def _permute(name, args, kwargs, lvl, batch, self_):
    dims = _sizes(args[1:]) if len(args) > 1 else tuple(kwargs["dims"])
    rank = self_.dim()
    if len(dims) != rank:
        raise RuntimeError(
            f"permute(sparse_coo): number of dimensions in the tensor input does not match the length of "
            f"the desired ordering of dimensions i.e. input.dim() = {rank} is not equal to len(dims) = {len(dims)}")
    return BatchedTensor(self_._v.permute(0, *[_shift(d, rank) for d in dims]), lvl)


def _movedim(x, src, dst):
    """``x.movedim(src, dst)`` for one dim, through permute (x: any tensor)."""
    n = x.dim()
    src, dst = src % n, dst % n
    order = [d for d in range(n) if d != src]
    order.insert(dst, src)
    return x.permute(*order)


@_rule("transpose swapaxes transpose_")
@_self_only
def _transpose(name, args, kwargs, lvl, batch, self_):
    rank = self_.dim()
    d0 = args[1] if len(args) > 1 else kwargs["dim0"]
    d1 = args[2] if len(args) > 2 else kwargs["dim1"]
    if rank == 0:
        _norm_dim(d0, 0), _norm_dim(d1, 0)
        return self_ if name.endswith("_") else BatchedTensor(self_._v, lvl)
    out = self_._v.transpose(_shift(d0, rank), _shift(d1, rank))
    if name.endswith("_"):
        raise _NeedLoop()
    return BatchedTensor(out, lvl)


@_rule("t")
def _t(name, args, kwargs):
    self_ = args[0]
    if self_.dim() > 2:
        raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is {self_.dim()}D")
    if self_.dim() < 2:
        return self_
    return _transpose("transpose", (self_, 0, 1), {})


BatchedTensor.T = property(lambda self: self.permute(*reversed(range(self.dim()))))
BatchedTensor.mT = property(lambda self: _transpose("transpose", (self, -2, -1), {}))
BatchedTensor.H = BatchedTensor.T
BatchedTensor.mH = BatchedTensor.mT


@_rule("unsqueeze")
@_self_only
def _unsqueeze(name, args, kwargs, lvl, batch, self_):
    d = args[1] if len(args) > 1 else kwargs["dim"]
    return BatchedTensor(self_._v.unsqueeze(_shift(d, self_.dim() + 1)), lvl)


@_rule("squeeze")
@_self_only
def _squeeze(name, args, kwargs, lvl, batch, self_):
    rank = self_.dim()
    d = args[1] if len(args) > 1 else kwargs.get("dim")
    shape = self_.shape
    if d is None:
        dims = [i for i in range(rank) if shape[i] == 1]
    else:
        dims = [_norm_dim(e, rank) for e in (d if isinstance(d, (tuple, list)) else [d])]
        if rank == 0:
            return BatchedTensor(self_._v, lvl)
    keep = [s for i, s in enumerate(shape) if not (i in dims and s == 1)]
    return BatchedTensor(self_._v.reshape(batch, *keep), lvl)


@_rule("unsqueeze_ squeeze_")
def _inplace_view(name, args, kwargs):
    raise _NeedLoop()  # a view changing shape in place: the loop runs it


@_rule("flatten")
@_self_only
def _flatten(name, args, kwargs, lvl, batch, self_):
    rank = self_.dim()
    start = args[1] if len(args) > 1 else kwargs.get("start_dim", 0)
    end = args[2] if len(args) > 2 else kwargs.get("end_dim", -1)
    if rank == 0:
        _norm_dim(start, 0), _norm_dim(end, 0)
        return BatchedTensor(self_._v.reshape(batch, 1), lvl)
    s, e = _norm_dim(start, rank), _norm_dim(end, rank)
    if s > e:
        raise RuntimeError("flatten() has invalid args: start_dim cannot come after end_dim")
    return BatchedTensor(self_._v.flatten(s + 1, e + 1), lvl)


@_rule("gather")
def _gather(name, args, kwargs):
    lvl, batch = _top(args, kwargs)
    self_ = args[0]
    d = args[1] if len(args) > 1 else kwargs["dim"]
    index = args[2] if len(args) > 2 else kwargs["index"]
    rank = _rank(self_, lvl)
    if rank == 0 or _rank(index, lvl) != rank:
        return dispatch_loop(name, args, kwargs)
    out = call("gather", [_expanded(self_, lvl, batch), _shift(d, rank), _expanded(index, lvl, batch)],
               {k: v for k, v in kwargs.items() if k not in ("dim", "index")})
    return BatchedTensor(out, lvl)


@_rule("index_select")
def _index_select(name, args, kwargs):
    lvl, batch = _top(args, kwargs)
    self_ = args[0]
    d = args[1] if len(args) > 1 else kwargs["dim"]
    index = args[2] if len(args) > 2 else kwargs["index"]
    if not (_is_bt(self_) and self_._lvl == lvl) or _is_bt(index) and index._lvl == lvl:
        return dispatch_loop(name, args, kwargs)
    rank = _rank(self_, lvl)
    if rank == 0:
        return dispatch_loop(name, args, kwargs)
    return BatchedTensor(call("index_select", [self_._v, _shift(d, rank), index], {}), lvl)


# -- matmul family -----------------------------------------------------------------------

def _matmul(a, b):
    """Logical ``a @ b`` where either may be batched (any level)."""
    lvl, batch = _top((a, b))
    ra, rb = _rank(a, lvl), _rank(b, lvl)
    if ra == 0 or rb == 0:
        raise RuntimeError(f"both arguments to matmul need to be at least 1D, but they are {ra}D and {rb}D")
    if ra == 1 and rb == 1:
        return _reduce("sum", (_pointwise("mul", (a, b), {}), -1), {})
    if ra == 1:
        return _squeeze("squeeze", (_matmul(_unsqueeze("unsqueeze", (a, 0), {}) if _is_at(a, lvl)
                                            else a.unsqueeze(0), b), -2), {})
    if rb == 1:
        return _squeeze("squeeze", (_matmul(a, _unsqueeze("unsqueeze", (b, -1), {}) if _is_at(b, lvl)
                                            else b.unsqueeze(-1)), -1), {})
    rank = max(ra, rb)
    pa = _phys(a, lvl, rank)
    pb = _phys(b, lvl, rank)
    if not _is_at(a, lvl) and ra == rank:
        # the unbatched operand must not broadcast against the batch dim
        pa = pa.unsqueeze(0)
    if not _is_at(b, lvl) and rb == rank:
        pb = pb.unsqueeze(0)
    return BatchedTensor(call("matmul", [pa, pb], {}), lvl)


def _is_at(x, lvl):
    return type(x) is BatchedTensor and x._lvl == lvl


@_rule("matmul __matmul__ __rmatmul__ mm bmm mv dot")
def _matmul_rule(name, args, kwargs):
    a, b = args[0], (args[1] if len(args) > 1 else next(iter(kwargs.values())))
    if name == "__rmatmul__":
        a, b = b, a
    ra, rb = a.dim(), b.dim()
    if name == "mm" and (ra != 2 or rb != 2):
        raise RuntimeError("self must be a matrix" if ra != 2 else "mat2 must be a matrix")
    if name == "bmm" and (ra != 3 or rb != 3):
        raise RuntimeError(f"batch1 must be a 3D tensor" if ra != 3 else "batch2 must be a 3D tensor")
    if name == "mv" and (ra != 2 or rb != 1):
        raise RuntimeError(f"vector + matrix @ vector expected, got {rb}, {ra}, {ra}")
    if name == "dot" and (ra != 1 or rb != 1):
        raise RuntimeError(f"1D tensors expected, but got {ra}D and {rb}D tensors")
    return _matmul(a, b)


@_rule("addmm addmv baddbmm")
def _addmm(name, args, kwargs):
    inp, m1, m2 = args[0], args[1], args[2]
    beta = kwargs.get("beta", 1)
    alpha = kwargs.get("alpha", 1)
    prod = _matmul_rule({"addmm": "mm", "addmv": "mv", "baddbmm": "bmm"}[name], (m1, m2), {})
    if alpha != 1:
        prod = prod * alpha
    if beta == 0:
        return prod
    return prod + (inp if beta == 1 else inp * beta)


# -- indexing ----------------------------------------------------------------------------

def _bool_dtype():
    from .. import bool as torch_bool

    return torch_bool


def _index_ok(idx):
    """(ok, physical index) for a logical index: ints, slices, None, Ellipsis, and unbatched
    index tensors that sit next to each other."""
    parts = idx if isinstance(idx, tuple) else (idx,)
    tensor_pos = []
    for i, p in enumerate(parts):
        if _is_bt(p) or isinstance(p, (list,)):
            return False, None
        if isinstance(p, _C.Tensor):
            if p.dtype == _bool_dtype() and p.dim() == 0:
                return False, None
            tensor_pos.append(i)
        elif not (p is None or p is Ellipsis or isinstance(p, (int, slice)) and not isinstance(p, bool)):
            return False, None
    if tensor_pos and tensor_pos != list(range(tensor_pos[0], tensor_pos[0] + len(tensor_pos))):
        return False, None
    return True, (slice(None),) + parts


@_rule("__getitem__")
def _getitem(name, args, kwargs):
    lvl, batch = _top(args, kwargs)
    self_, idx = args
    if not _is_at(self_, lvl):
        return dispatch_loop(name, args, kwargs)
    ok, pidx = _index_ok(idx)
    if not ok:
        return dispatch_loop(name, args, kwargs)
    _check_index_ints(self_, idx)
    return BatchedTensor(self_._v[pidx], lvl)


def _check_index_ints(self_, idx):
    """Integer indices are checked against the logical sizes (PyTorch's IndexError)."""
    parts = idx if isinstance(idx, tuple) else (idx,)
    shape = self_.shape
    d = 0
    for p in parts:
        if p is Ellipsis:
            return
        if p is None:
            continue
        if isinstance(p, int):
            if d >= len(shape):
                raise IndexError(f"too many indices for tensor of dimension {len(shape)}")
            if not -shape[d] <= p < shape[d]:
                raise IndexError(f"index {p} is out of bounds for dimension {d} with size {shape[d]}")
        d += p.dim() if isinstance(p, _C.Tensor) and p.dtype == _bool_dtype() else 1


@_rule("__setitem__")
def _setitem(name, args, kwargs):
    lvl, batch = _top(args, kwargs)
    self_, idx, value = args
    if not _is_at(self_, lvl):
        raise RuntimeError(_INPLACE_ERROR.format(op="inplace arithmetic"))
    ok, pidx = _index_ok(idx)
    if not ok:
        return dispatch_loop(name, args, kwargs)
    _check_index_ints(self_, idx)
    if _is_at(value, lvl):
        target_rank = self_._v[pidx].dim() - 1
        value = _phys(value, lvl, target_rank)
    self_._v[pidx] = value
    return None


# -- factories from a batched tensor -------------------------------------------------------

_NEW_FACTORIES = ("new_zeros", "new_ones", "new_empty", "new_full", "new_tensor")


@_rule(" ".join(_NEW_FACTORIES))
def _new(name, args, kwargs):
    lvl, batch = _top(args[:1])
    self_ = args[0]
    out = getattr(self_._v, name)(*args[1:], **kwargs) if _is_at(self_, lvl) else None
    if name == "new_tensor":
        return out
    # PyTorch: new_* of a BatchedTensor is batched (the batch dim in front)
    return BatchedTensor(out.unsqueeze(0).expand(batch, *out.shape).contiguous(), lvl)


# ---- Python-level functions: torch.* and nn.functional ------------------------------------

def _fn_rule(names):
    return _rule(names, _FN_RULES)


@_fn_rule("stack")
def _fn_stack(fn, args, kwargs):
    tensors = list(args[0]) if args else list(kwargs["tensors"])
    dim = args[1] if len(args) > 1 else kwargs.get("dim", 0)
    lvl, batch = _top(tensors)
    rank = max(_rank(t, lvl) for t in tensors)
    d = _shift(dim, rank + 1)
    return BatchedTensor(stack([_expanded(t, lvl, batch) for t in tensors], d), lvl)


def _C_cat_any(tensors, dim):
    if _any_bt(tensors):
        return _fn_cat(_C.cat, (tensors, dim), {})
    return _C.cat(tensors, dim)


@_fn_rule("cat")
def _fn_cat(fn, args, kwargs):
    tensors = list(args[0]) if args else list(kwargs["tensors"])
    dim = args[1] if len(args) > 1 else kwargs.get("dim", 0)
    lvl, batch = _top(tensors)
    # legacy: 1-d empty tensors are skipped by cat
    keep = [t for t in tensors if not (_rank(t, lvl) == 1 and t.shape[0] == 0 and not _is_at(t, lvl))]
    rank = max(_rank(t, lvl) for t in keep)
    d = _shift(dim, rank)
    return BatchedTensor(_C_cat_any([_expanded(t, lvl, batch) for t in keep], d), lvl)


@_fn_rule("where")
def _fn_where(fn, args, kwargs):
    cond = args[0] if args else kwargs["condition"]
    x = args[1] if len(args) > 1 else kwargs.get("input")
    y = args[2] if len(args) > 2 else kwargs.get("other")
    if x is None and y is None:
        raise RuntimeError(_FLOW_ERROR)
    lvl, batch = _top((cond, x, y))
    ts = [t for t in (cond, x, y) if _is_tensor(t)]
    rank = max(_rank(t, lvl) for t in ts)

    def p(t):
        return _phys(t, lvl, rank) if _is_tensor(t) else t

    pc, px, py = p(cond), p(x), p(y)
    if _any_bt((pc, px, py)):
        return BatchedTensor(_fn_where(fn, (pc, px, py), {}), lvl)
    return BatchedTensor(_C.where(pc, px, py), lvl)


@_fn_rule("zeros_like ones_like empty_like full_like")
def _fn_like(fn, args, kwargs):
    x = args[0]
    lvl, batch = _top((x,))
    return BatchedTensor(fn(x._v, *args[1:], **kwargs), lvl)


@_fn_rule("dropout dropout1d dropout2d dropout3d")
def _fn_dropout(fn, args, kwargs):
    """Dropout runs its decomposition (``empty_like``/``new_empty`` + ``bernoulli_``, as ATen's
    on the CPU), whose ops have rules; an unbatched input under ``randomness="different"`` is
    expanded along the batch first, as PyTorch's rule does, so each example gets its mask."""
    kw = dict(zip(("input", "p", "training", "inplace"), args))
    kw.update(kwargs)
    x = kw.get("input")
    if _modes and kw.get("training", True) and kw.get("p", 0.5) != 0 and _is_tensor(x):
        lvl, batch, randomness = _modes[-1]
        if randomness == "error":
            raise RuntimeError(_RANDOM_ERROR)
        if randomness == "different" and not _is_at(x, lvl):
            kw["input"] = BatchedTensor(x.unsqueeze(0).expand(batch, *x.shape), lvl)
    return fn(**kw)


@_fn_rule("glu")
def _fn_glu(fn, args, kwargs):
    x = args[0] if args else kwargs.pop("input")
    dim = args[1] if len(args) > 1 else kwargs.pop("dim", -1)
    lvl, batch = _top((x,))
    return BatchedTensor(fn(x._v, _shift(dim, _rank(x, lvl))), lvl)


@_fn_rule("batch_norm group_norm instance_norm")
def _fn_norm(fn, args, kwargs):
    """Normalisations whose statistics are per row of N (group/instance norm), or fixed
    (batch norm in eval mode): the vmap batch folds into N.  Batch norm with batch statistics
    runs per example."""
    name = fn.__name__
    params = {"batch_norm": ("input", "running_mean", "running_var", "weight", "bias", "training",
                             "momentum", "eps"),
              "group_norm": ("input", "num_groups", "weight", "bias", "eps"),
              "instance_norm": ("input", "running_mean", "running_var", "weight", "bias",
                                "use_input_stats", "momentum", "eps")}[name]
    kw = dict(zip(params, args))
    kw.update(kwargs)
    x = kw.pop("input")
    lvl, batch = _top((x,), kw)
    per_example = (name == "batch_norm" and (kw.get("training", False) or kw.get("running_mean") is None)
                   or name == "instance_norm" and kw.get("running_mean") is not None)
    if not _is_at(x, lvl) or _batched_among((), kw, lvl) or per_example or _rank(x, lvl) < 2:
        return _loop(name, fn, (x,), kw)
    v = x._v
    out = fn(v.reshape(batch * v.shape[1], *v.shape[2:]), **kw)
    return BatchedTensor(out.reshape(batch, -1, *out.shape[1:]), lvl)


# activations and others that only call Tensor methods (or act elementwise on the physical
# tensor): the function itself runs on the batched tensor / its physical tensor
_ELEMENTWISE_F = ("relu relu_ relu6 elu elu_ selu celu leaky_relu leaky_relu_ gelu silu mish "
                  "hardtanh hardtanh_ hardsigmoid hardswish sigmoid tanh softplus softsign "
                  "tanhshrink logsigmoid hardshrink softshrink threshold threshold_ glu_none")


@_fn_rule(_ELEMENTWISE_F)
def _fn_elementwise(fn, args, kwargs):
    x = args[0] if args else kwargs.pop("input")
    args = args[1:] if args else args
    lvl, batch = _top((x,) + tuple(args), kwargs)
    if not _is_at(x, lvl) or _tensor_args(args, kwargs):
        return _loop(fn.__name__, fn, (x,) + tuple(args), kwargs)
    inplace = kwargs.get("inplace", False) or fn.__name__.endswith("_")
    out = fn(x._v, *args, **kwargs)
    return x if inplace else BatchedTensor(out, lvl)


@_fn_rule("softmax log_softmax softmin")
def _fn_softmax(fn, args, kwargs):
    x = args[0] if args else kwargs.pop("input")
    lvl, batch = _top((x,))
    dim = args[1] if len(args) > 1 else kwargs.pop("dim", None)
    rest = args[2:]
    if dim is None or not _is_at(x, lvl):
        return _loop(fn.__name__, fn, (x, dim) + tuple(rest), kwargs)
    rank = _rank(x, lvl)
    if rank == 0:
        out = fn(x._v.unsqueeze(1), 1, *rest, **kwargs).squeeze(1)
    else:
        out = fn(x._v, _shift(dim, rank), *rest, **kwargs)
    return BatchedTensor(out, lvl)


@_fn_rule("linear")
def _fn_linear(fn, args, kwargs):
    names = ("input", "weight", "bias")
    vals = list(args) + [kwargs[n] for n in names[len(args):] if n in kwargs]
    x, w = vals[0], vals[1]
    b = vals[2] if len(vals) > 2 else None
    out = _matmul(x, w.t() if not _is_bt(w) else _t("t", (w,), {}))
    if b is not None:
        out = out + b
    return out


@_fn_rule("conv1d conv2d conv3d")
def _fn_conv(fn, args, kwargs):
    """Batched weights: the B models become groups of one convolution (input channels
    B*C, output channels B*O), as PyTorch's rule does; unbatched weights: the spatial rule."""
    names = ("input", "weight", "bias", "stride", "padding", "dilation", "groups")
    kw = dict(zip(names, args))
    kw.update(kwargs)
    x, w, b = kw.pop("input"), kw.pop("weight"), kw.pop("bias", None)
    lvl, batch = _top((x, w, b))
    if not _is_at(w, lvl) and not _is_at(b, lvl):
        return _fn_spatial(fn, (x, w, b), kw)
    nd = int(fn.__name__[-2])
    groups = kw.pop("groups", 1)
    px = _expanded(x, lvl, batch)
    unbatched_layout = px.dim() == nd + 2
    if unbatched_layout:
        px = px.unsqueeze(1)
    n, c = px.shape[1], px.shape[2]
    # [B, N, C, *sp] -> [N, B*C, *sp]
    px = px.transpose(0, 1).reshape(n, batch * c, *px.shape[3:])
    pw = _expanded(w, lvl, batch)
    pw = pw.reshape(batch * pw.shape[1], *pw.shape[2:])
    pb = None if b is None else _expanded(b, lvl, batch).reshape(-1)
    out = fn(px, pw, pb, groups=groups * batch, **kw)
    # [N, B*O, *sp'] -> [B, N, O, *sp']
    # contiguous: the ops after a convolution (relu, pooling, their backwards) run their fast
    # paths on dense tensors, not on the transposed view
    out = out.reshape(n, batch, -1, *out.shape[2:]).transpose(0, 1).contiguous()
    if unbatched_layout:
        out = out.squeeze(1)
    return BatchedTensor(out, lvl)


@_fn_rule("conv_transpose1d conv_transpose2d conv_transpose3d max_pool1d max_pool2d "
          "max_pool3d avg_pool1d avg_pool2d avg_pool3d adaptive_avg_pool1d adaptive_avg_pool2d "
          "adaptive_avg_pool3d adaptive_max_pool1d adaptive_max_pool2d adaptive_max_pool3d lp_pool1d "
          "lp_pool2d interpolate upsample pixel_shuffle pixel_unshuffle local_response_norm pad "
          "max_pool1d_with_indices max_pool2d_with_indices max_pool3d_with_indices")
def _fn_spatial(fn, args, kwargs):
    """Ops over (N, C, spatial...) whose N rows are independent: the vmap batch folds into N."""
    name = fn.__name__
    x = args[0] if args else kwargs.pop("input")
    rest = tuple(args[1:])
    lvl, batch = _top((x,) + rest, kwargs)
    if not _is_at(x, lvl) or _batched_among(rest, kwargs, lvl):
        return _loop(name, fn, (x,) + rest, kwargs)
    nd = {"1": 1, "2": 2, "3": 3}.get(next((c for c in name if c.isdigit()), ""), None)
    rank = _rank(x, lvl)
    v = x._v
    if name in ("interpolate", "upsample", "local_response_norm"):
        nd = rank - 2
    if name in ("pixel_shuffle", "pixel_unshuffle"):
        # any leading dims: the batch dim is one more
        return BatchedTensor(fn(v, *rest, **kwargs), lvl)
    if name == "pad":
        mode = rest[1] if len(rest) > 1 else kwargs.get("mode", "constant")
        pad = rest[0] if rest else kwargs["pad"]
        if mode == "constant":
            # constant padding of trailing dims: the batch dim is one more lead dim
            return BatchedTensor(fn(v, *rest, **kwargs), lvl)
        nd = len(pad) // 2
    unbatched_layout = nd is not None and rank == nd + 1
    if unbatched_layout:
        v = v.unsqueeze(1)
    folded = v.reshape(batch * v.shape[1], *v.shape[2:])
    out = fn(folded, *rest, **kwargs)

    def unfold(t):
        t = t.reshape(batch, -1, *t.shape[1:])
        return t.squeeze(1) if unbatched_layout else t

    return _wrap(_map_out(out, unfold), lvl)


# losses: the physical op with reduction='none', reduced per example
_LOSS_FNS = ("mse_loss l1_loss smooth_l1_loss huber_loss binary_cross_entropy "
             "binary_cross_entropy_with_logits soft_margin_loss")


@_fn_rule(_LOSS_FNS)
def _fn_loss_pointwise(fn, args, kwargs):
    x = args[0] if args else kwargs.pop("input")
    y = args[1] if len(args) > 1 else kwargs.pop("target")
    rest = args[2:]
    reduction = kwargs.pop("reduction", "mean")
    if rest or kwargs.get("size_average") is not None or kwargs.get("reduce") is not None or \
            _tensor_args((), kwargs):
        return _loop(fn.__name__, fn, (x, y) + tuple(rest), dict(kwargs, reduction=reduction))
    lvl, batch = _top((x, y))
    rank = max(_rank(x, lvl), _rank(y, lvl))
    if x.shape != y.shape:
        return _loop(fn.__name__, fn, (x, y), dict(kwargs, reduction=reduction))
    px, py = _expanded(x, lvl, batch), _expanded(y, lvl, batch)
    out = fn(px, py, reduction="none", **kwargs)
    return _reduce_loss(out, reduction, batch, rank, lvl)


def _reduce_loss(out, reduction, batch, rank, lvl):
    if reduction == "none":
        return BatchedTensor(out, lvl)
    flat = _flat2(out, batch)
    if reduction == "sum":
        return BatchedTensor(flat.sum(1), lvl)
    if reduction == "mean":
        return BatchedTensor(flat.mean(1), lvl)
    raise ValueError(f"{reduction} is not a valid value for reduction")


@_fn_rule("cross_entropy nll_loss")
def _fn_class_loss(fn, args, kwargs):
    names = ("input", "target", "weight", "size_average", "ignore_index", "reduce", "reduction",
             "label_smoothing")
    kw = dict(zip(names, args))
    kw.update(kwargs)
    x, y = kw.pop("input"), kw.pop("target")
    reduction = kw.pop("reduction", "mean")
    lvl, batch = _top((x, y), kw)
    if _tensor_args((), kw) or kw.get("size_average") is not None or kw.get("reduce") is not None:
        return _loop(fn.__name__, fn, (x, y), dict(kw, reduction=reduction))
    rx, ry = _rank(x, lvl), _rank(y, lvl)
    if not (rx == ry + 1 or rx == ry and y.is_floating_point()) or rx == 0:
        return _loop(fn.__name__, fn, (x, y), dict(kw, reduction=reduction))
    px, py = _expanded(x, lvl, batch), _expanded(y, lvl, batch)
    if rx == 1:
        # one unbatched-layout sample per example, (C,): the vmap batch is the loss's N
        return BatchedTensor(fn(px, py, reduction="none", **kw), lvl)
    n = px.shape[1]
    fx = px.reshape(batch * n, *px.shape[2:])
    fy = py.reshape(batch * n, *py.shape[2:])
    out = fn(fx, fy, reduction="none", **kw)
    out = out.reshape(batch, n, *out.shape[1:])
    if reduction == "none":
        return BatchedTensor(out, lvl)
    flat = _flat2(out, batch)
    if reduction == "sum":
        return BatchedTensor(flat.sum(1), lvl)
    if reduction != "mean":
        raise ValueError(f"{reduction} is not a valid value for reduction")
    if not y.is_floating_point():
        # the mean over the targets that are not ignored
        valid = _flat2(py != kw.get("ignore_index", -100), batch).sum(1).to(out.dtype)
        return BatchedTensor(flat.sum(1) / valid, lvl)
    return BatchedTensor(flat.mean(1), lvl)


@_fn_rule("embedding")
def _fn_embedding(fn, args, kwargs):
    x = args[0] if args else kwargs.pop("input")
    w = args[1] if len(args) > 1 else kwargs.pop("weight")
    lvl, batch = _top((x, w))
    if not _is_at(x, lvl) or _is_tensor(w) and _is_at(w, lvl) or kwargs.get("max_norm") is not None:
        return _loop("embedding", fn, (x, w) + tuple(args[2:]), kwargs)
    return BatchedTensor(fn(x._v, w, *args[2:], **kwargs), lvl)


@_fn_rule("layer_norm")
def _fn_layer_norm(fn, args, kwargs):
    names = ("input", "normalized_shape", "weight", "bias", "eps")
    kw = dict(zip(names, args))
    kw.update(kwargs)
    x = kw.pop("input")
    lvl, batch = _top((x,), kw)
    if not _is_at(x, lvl) or _tensor_args((), kw) and any(_is_at(t, lvl) for t in _tensor_args((), kw)):
        return _loop("layer_norm", fn, (x,), kw)
    return BatchedTensor(fn(x._v, **kw), lvl)


# ---- random ops: vmap's randomness modes ----------------------------------------------------
# PyTorch's rules for random ops (functorch's BatchRulesRandomness) see every random op inside
# vmap, batched operands or not, and apply each running vmap's ``randomness`` from the innermost
# out: "error" raises, "different" draws for the whole batch at once (a leading batch dim of the
# physical tensor, so the examples' values differ and the stream is PyTorch's), "same" draws once
# for the logical shape.  The functions and BatchedTensor methods that draw come here
# (``random_call``); a draw that bypasses them (an in-place random method of a plain tensor) is
# seen as a change of the default generator's state between two rule calls: under "error" that
# is PyTorch's error, under "different" the vmap reruns as a per-example loop, under "same" it
# is what PyTorch does too (one draw shared by every example).

_RANDOM_ERROR = ("vmap: called random operation while in randomness error mode. Please either "
                 "use the 'same' or 'different' randomness flags on vmap or perform the "
                 "randomness operation out of vmap")
_SAME_BATCHED = ("Vmap does not currently support same randomness with a batched tensor input. "
                 "Please file an issue with functorch")
_DIFFERENT_INPLACE = ("vmap: Cannot ask for different inplace randomness on an unbatched tensor. This "
                      "will appear like same randomness. If this is necessary for your usage, please "
                      "file an issue with functorch.")

_modes = []     # (level, batch size, randomness) of each running batched vmap, innermost last
_seen = [None]  # the default generator's state after the last draw a rule made
_raw = [0]      # > 0 while a rule runs the op itself: the random functions pass calls through


def random_active():
    """Whether a call of a random function must go through ``random_call``."""
    return bool(_modes) and not _raw[0]


def push_mode(lvl, batch, randomness):
    if not _modes:
        _seen[0] = _C.get_rng_state()
    _modes.append((lvl, batch, randomness))


def pop_mode(check):
    """Leave the innermost batched vmap; ``check``: it returned, so look for untracked draws."""
    try:
        if check:
            _check_untracked()
    finally:
        _modes.pop()
        if not _modes:
            _seen[0] = None


def _check_untracked():
    if _seen[0] is None:
        return
    now = _C.get_rng_state()
    if not now.equal(_seen[0]):
        modes = {m[2] for m in _modes}
        if "error" in modes:
            raise RuntimeError(_RANDOM_ERROR)
        if "different" in modes:
            raise _NeedLoop()
        _seen[0] = now


def random_call(kind, fn, args, kwargs):
    """A random function or method (``kind``: how its operands are batched) called inside a
    batched vmap: the rules of every running level, innermost first."""
    _check_untracked()
    try:
        return _RANDOM_KINDS[kind](len(_modes) - 1, fn, args, kwargs)
    finally:
        _seen[0] = _C.get_rng_state()


def _raw_call(fn, *args, **kwargs):
    _raw[0] += 1
    try:
        return fn(*args, **kwargs)
    finally:
        _raw[0] -= 1


def _level(k):
    lvl, batch, randomness = _modes[k]
    if randomness == "error":
        raise RuntimeError(_RANDOM_ERROR)
    return lvl, batch, randomness


def _factory(k, make, shape, per_example):
    """``make(shape)`` at level ``k``: "different" prepends the batch (``per_example``: draws
    once per example and stacks, as randperm's rule does)."""
    if k < 0:
        return _raw_call(make, tuple(shape))
    lvl, batch, randomness = _level(k)
    if randomness == "same":
        return _factory(k - 1, make, shape, per_example)
    if per_example:
        return BatchedTensor(stack([_factory(k - 1, make, shape, True) for _ in range(batch)], 0), lvl)
    return BatchedTensor(_factory(k - 1, make, (batch,) + tuple(shape), False), lvl)


def _size_of(args, kwargs):
    """(shape, other keywords) of ``rand(*size, ...)`` / ``rand(size, ...)`` / ``size=``."""
    kw = dict(kwargs)
    if "size" in kw:
        return tuple(kw.pop("size")), kw
    if len(args) == 1 and isinstance(args[0], (tuple, list)):
        return tuple(args[0]), kw
    return tuple(args), kw


def _random_factory(k, fn, args, kwargs):
    shape, kw = _size_of(args, kwargs)
    return _factory(k, lambda s: fn(s, **kw), shape, False)


def _random_randint(k, fn, args, kwargs):
    kw = dict(kwargs)
    a = list(args)
    size = kw.pop("size") if "size" in kw else (a.pop() if a and isinstance(a[-1], (tuple, list)) else None)
    if size is None:
        return _raw_call(fn, *args, **kwargs)  # the function's own TypeError
    bounds = a + [kw.pop(n) for n in ("low", "high") if n in kw]
    return _factory(k, lambda s: fn(*bounds, s, **kw), tuple(size), False)


def _random_randperm(k, fn, args, kwargs):
    return _factory(k, lambda s: fn(*args, **kwargs), (), True)


def _random_normal(k, fn, args, kwargs):
    names = ("mean", "std", "size")
    kw = dict(zip(names, args))
    kw.update(kwargs)
    mean, std = kw.get("mean"), kw.get("std", 1.0)
    mean_t, std_t = _is_tensor(mean), _is_tensor(std)
    if not (mean_t or std_t):
        shape = kw.pop("size", None)
        if shape is None:
            return _raw_call(fn, **kw)  # the function's own TypeError
        return _factory(k, lambda s: fn(size=s, **kw), tuple(shape), False)
    if mean_t and std_t:
        raise _NeedLoop()  # normal(Tensor, Tensor): no rule (the loop runs it)
    key = "mean" if mean_t else "std"
    x = kw.pop(key)
    return _draw_like(k, lambda t: fn(**{key: t}, **kw), x, "pointwise")


def _draw_like(k, make, x, kind):
    """``make(x)`` at level ``k`` for a draw shaped by the tensor ``x``: ``"pointwise"`` (a
    fresh draw per element of ``x``: bernoulli(p), normal(mean_t, ...); same randomness with
    a batched ``x`` is PyTorch's error), ``"like"`` (rand_like & co: ``x``'s values do not
    matter, same randomness draws for one example) or ``"multinomial"`` (pointwise over the
    rows of ``x``; a batch of distributions per example folds into the rows)."""
    if k < 0:
        return _raw_call(make, x)
    lvl, batch, randomness = _level(k)
    batched = _is_at(x, lvl)
    if randomness == "same":
        if batched and kind != "like":
            raise RuntimeError(_SAME_BATCHED)
        return _draw_like(k - 1, make, x._v.select(0, 0) if batched else x, kind)
    v = x._v if batched else x.unsqueeze(0).expand(batch, *x.shape)
    if kind == "multinomial" and v.dim() == 3:  # (B*M, S) -> multinomial -> (B, M, n)
        out = _draw_like(k - 1, make, v.reshape(batch * v.shape[1], v.shape[2]), kind)
        return BatchedTensor(out.reshape(batch, v.shape[1], out.shape[-1]), lvl)
    return BatchedTensor(_draw_like(k - 1, make, v, kind), lvl)


def _random_drawn_like(kind):
    def rule(k, fn, args, kwargs):
        x = args[0] if args else kwargs.pop("input")
        return _draw_like(k, lambda t: fn(t, *args[1:], **kwargs), x, kind)

    return rule


def _inplace_random(k, name, self_, rest, kw):
    """``self_.<name>(*rest, **kw)`` (uniform_, normal_, bernoulli_...) at level ``k``."""
    if k < 0:
        return _raw_call(getattr(_C.Tensor, name), self_, *rest, **kw)
    lvl, batch, randomness = _level(k)
    batched = _is_at(self_, lvl)
    if randomness == "different":
        if not batched:
            raise RuntimeError(_DIFFERENT_INPLACE)
        _inplace_random(k - 1, name, self_._v, rest, kw)
    elif batched:  # "same" into a batched tensor: one draw of the logical shape for every example
        inter = _C.empty(tuple(self_.shape), dtype=self_.dtype, device=self_.device)
        _inplace_random(k - 1, name, inter, rest, kw)
        call("copy_", (self_, inter))
    else:
        _inplace_random(k - 1, name, self_, rest, kw)
    return self_


def _random_inplace(k, name, args, kwargs):
    rest = list(args[1:])
    if name == "bernoulli_" and (rest and _is_tensor(rest[0]) or _is_tensor(kwargs.get("p"))):
        raise _NeedLoop()  # bernoulli_(Tensor p): no rule (the loop runs it)
    return _inplace_random(k, name, args[0], rest, kwargs)


_RANDOM_KINDS = {"factory": _random_factory, "randint": _random_randint, "randperm": _random_randperm,
                 "normal": _random_normal, "pointwise": _random_drawn_like("pointwise"),
                 "like": _random_drawn_like("like"), "multinomial": _random_drawn_like("multinomial"),
                 "inplace": _random_inplace}

# Tensor methods that draw (wrapped by ferrograd/__init__.py, batched or plain self): their kind
RANDOM_METHODS = {"uniform_": "inplace", "normal_": "inplace", "random_": "inplace",
                  "exponential_": "inplace", "bernoulli_": "inplace", "geometric_": "inplace",
                  "cauchy_": "inplace", "log_normal_": "inplace", "bernoulli": "pointwise",
                  "multinomial": "multinomial"}
