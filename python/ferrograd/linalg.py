"""``torch.linalg``: the linear-algebra functions ferrograd implements so far — the cross
product and the vector norm (each with PyTorch's values, errors and ``grad_fn`` names).
Decompositions and solvers (``det``, ``inv``, ``solve``, ``svd``, ...) are not here yet."""

import ferrograd as _torch

from . import _C

__all__ = ["cross", "vector_norm"]


def cross(input, other, *, dim=-1, out=None):
    """The cross product of the 3-vectors along ``dim`` (LinalgCrossBackward0); the other
    dims broadcast, and both inputs have the same number of dims."""
    r = _C._linalg_cross(input, other, dim=dim)
    if out is not None:
        out.copy_(r)
        return out
    return r


def vector_norm(x, ord=2, dim=None, keepdim=False, *, dtype=None, out=None):
    """The ``ord``-norm of ``x`` seen as a vector (over all elements, or over ``dim``):
    ``(Σ |x|^ord)^(1/ord)``, the largest / smallest ``|x|`` for ``ord = ±inf``, the count of
    non-zeros for ``ord = 0`` (LinalgVectorNormBackward0)."""
    if isinstance(ord, str):
        raise TypeError(f"linalg_vector_norm(): argument 'ord' must be Number, not {type(ord).__name__}")
    if not (x.dtype.is_floating_point or x.dtype.is_complex):
        raise RuntimeError(f"linalg.vector_norm: Expected a floating point or complex tensor as input. Got {_dtype_name(x.dtype)}")
    r = x.norm(float(ord), dim, keepdim, dtype=dtype)
    if out is not None:
        out.copy_(r)
        return out
    return r


def _dtype_name(dt):
    return {"torch.int64": "Long", "torch.int32": "Int", "torch.int16": "Short", "torch.int8": "Char",
            "torch.uint8": "Byte", "torch.bool": "Bool"}.get(str(dt), str(dt))
