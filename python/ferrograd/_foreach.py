"""``torch._foreach_*``: an op applied to every tensor of a list (the optimizers' and EMA
helpers' multi-tensor API). PyTorch fuses them into one kernel launch per dtype group; here
each is a loop over the list with the same semantics: a second argument may be a number,
a list of numbers, one tensor, or a list of tensors (taken element by element), the
in-place forms return the list they were given, the others a tuple."""

import numbers

__all__ = []

_UNARY = ("abs acos asin atan ceil cos cosh erf erfc exp expm1 floor frac lgamma log log10 log1p log2 neg "
          "reciprocal round rsqrt sigmoid sign sin sinh sqrt tan tanh trunc").split()
_BINARY = "add sub mul div clamp_min clamp_max maximum minimum pow".split()


def _torch():
    import ferrograd

    return ferrograd


def _check_list(name, tensors):
    if not isinstance(tensors, (list, tuple)) or not all(isinstance(t, _torch().Tensor) for t in tensors):
        raise TypeError(f"{name}(): argument 'self' (position 1) must be tuple of Tensors, not {type(tensors).__name__}")
    if len(tensors) == 0:
        raise RuntimeError("Tensor list must have at least one tensor.")


def _per_tensor(n, arg):
    """``arg`` spread over ``n`` tensors: a list is taken element by element (its length
    checked as PyTorch's), anything else repeats."""
    if isinstance(arg, (list, tuple)):
        if arg and isinstance(arg[0], _torch().Tensor):
            if len(arg) != n:
                raise RuntimeError(f"Tensor lists must have the same number of tensors, got {n} and {len(arg)}")
        elif len(arg) != n:
            raise RuntimeError("Tensor list must have same number of elements as scalar list.")
        return list(arg)
    return [arg] * n


def _binary_op(op, t, other, alpha):
    torch = _torch()
    if op in ("maximum", "minimum") and not isinstance(other, torch.Tensor):
        op = "clamp_min" if op == "maximum" else "clamp_max"
    if op in ("add", "sub") and alpha is not None:
        return getattr(torch, op)(t, other, alpha=alpha)
    return getattr(torch, op)(t, other)


def _make_unary(op, inplace):
    def f(self):
        _check_list(f.__name__, self)
        if inplace:
            for t in self:
                getattr(t, op + "_")()
            return self
        return tuple(getattr(_torch(), op)(t) for t in self)

    f.__name__ = f"_foreach_{op}{'_' if inplace else ''}"
    f.__doc__ = f"``{op}`` of every tensor of the list{' (in place)' if inplace else ''}."
    return f


def _make_binary(op, inplace):
    def f(self, other, *, alpha=None):
        name = f.__name__
        torch = _torch()
        if op == "pow" and isinstance(self, numbers.Number) and not inplace:
            # _foreach_pow(scalar, tensors): the number raised to each tensor
            _check_list(name, other)
            return tuple(torch.pow(self, t) for t in other)
        _check_list(name, self)
        if alpha is not None and (op not in ("add", "sub") or isinstance(other, numbers.Number)
                                  or (isinstance(other, (list, tuple)) and other and not isinstance(other[0], torch.Tensor))):
            raise TypeError(f"{name}() received an invalid combination of arguments - got (list, "
                            f"{type(other).__name__}, alpha={type(alpha).__name__})")
        args = _per_tensor(len(self), other)
        if inplace:
            for t, a in zip(self, args):
                _inplace(t, op, a, alpha)
            return self
        return tuple(_binary_op(op, t, a, alpha) for t, a in zip(self, args))

    f.__name__ = f"_foreach_{op}{'_' if inplace else ''}"
    f.__doc__ = f"``{op}`` of every tensor of the list with a number, numbers, a tensor or tensors{' (in place)' if inplace else ''}."
    return f


def _inplace(t, op, a, alpha):
    if op in ("maximum", "minimum"):
        return t.copy_(_binary_op(op, t, a, alpha))
    method = getattr(t, op + "_")
    if alpha is not None:
        return method(a, alpha=alpha)
    return method(a)


def _make_pointwise3(op, inplace):
    def f(self, tensor1, tensor2, value=1):
        _check_list(f.__name__, self)
        n = len(self)
        if isinstance(value, _torch().Tensor):
            # a 1-D tensor of the scalars, one per tensor
            value = value.tolist()
        t1, t2, vs = _per_tensor(n, tensor1), _per_tensor(n, tensor2), _per_tensor(n, value)
        if inplace:
            for t, a, b, v in zip(self, t1, t2, vs):
                getattr(t, op + "_")(a, b, value=v)
            return self
        return tuple(getattr(_torch(), op)(t, a, b, value=v) for t, a, b, v in zip(self, t1, t2, vs))

    f.__name__ = f"_foreach_{op}{'_' if inplace else ''}"
    f.__doc__ = f"``{op}`` over the lists, element by element{' (in place)' if inplace else ''}."
    return f


def _make_lerp(inplace):
    def f(self, tensors1, weight):
        _check_list(f.__name__, self)
        n = len(self)
        ends, ws = _per_tensor(n, tensors1), _per_tensor(n, weight)
        if inplace:
            for t, e, w in zip(self, ends, ws):
                t.lerp_(e, w)
            return self
        return tuple(_torch().lerp(t, e, w) for t, e, w in zip(self, ends, ws))

    f.__name__ = "_foreach_lerp_" if inplace else "_foreach_lerp"
    f.__doc__ = "``lerp`` of each tensor towards the matching end with a weight (or weights)."
    return f


def _foreach_zero_(self):
    """Zero every tensor of the list in place."""
    _check_list("_foreach_zero_", self)
    for t in self:
        t.zero_()
    return self


def _foreach_copy_(self, src, non_blocking=False):
    """Copy each tensor of ``src`` into the matching tensor of the list."""
    _check_list("_foreach_copy_", self)
    for t, s in zip(self, _per_tensor(len(self), src)):
        t.copy_(s, non_blocking)
    return self


def _foreach_clone(self, *, memory_format=None):
    """A copy of every tensor of the list."""
    _check_list("_foreach_clone", self)
    return tuple(t.clone() if memory_format is None else t.clone(memory_format=memory_format) for t in self)


def _foreach_norm(self, ord=2, dtype=None):
    """The vector norm of every tensor of the list (``linalg.vector_norm``)."""
    _check_list("_foreach_norm", self)
    return tuple(_torch().linalg.vector_norm(t, ord, dtype=dtype) for t in self)


def _foreach_powsum(self, exponent=2, dtype=None):
    """``Σ |t|^exponent`` of every tensor of the list (a norm without its root)."""
    _check_list("_foreach_powsum", self)
    out = []
    for t in self:
        v = t if dtype is None else t.to(dtype)
        out.append(v.abs().pow(exponent).sum())
    return tuple(out)


def _foreach_max(self):
    """The largest element of every tensor of the list."""
    _check_list("_foreach_max", self)
    return tuple(t.max() for t in self)


def _foreach_mm(self, mat2):
    """``mm`` of each matrix of the list with the matching one of ``mat2``."""
    _check_list("_foreach_mm", self)
    return tuple(_torch().mm(a, b) for a, b in zip(self, _per_tensor(len(self), mat2)))


def _install(namespace):
    """Define every ``_foreach_*`` function in ``namespace`` (the package's)."""
    fns = {}
    for op in _UNARY:
        fns[f"_foreach_{op}"] = _make_unary(op, False)
        fns[f"_foreach_{op}_"] = _make_unary(op, True)
    for op in _BINARY:
        fns[f"_foreach_{op}"] = _make_binary(op, False)
        fns[f"_foreach_{op}_"] = _make_binary(op, True)
    for op in ("addcmul", "addcdiv"):
        fns[f"_foreach_{op}"] = _make_pointwise3(op, False)
        fns[f"_foreach_{op}_"] = _make_pointwise3(op, True)
    fns["_foreach_lerp"] = _make_lerp(False)
    fns["_foreach_lerp_"] = _make_lerp(True)
    for f in (_foreach_zero_, _foreach_copy_, _foreach_clone, _foreach_norm, _foreach_powsum, _foreach_max, _foreach_mm):
        fns[f.__name__] = f
    for name, f in fns.items():
        f.__module__ = "torch"
        f.__qualname__ = name
        namespace[name] = f
    return sorted(fns)
