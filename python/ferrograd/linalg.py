"""``torch.linalg``: the linear-algebra functions ferrograd implements so far — the cross
product and the vector and matrix norms (each with PyTorch's values, errors and ``grad_fn``
names; composed as ATen composes them). Decompositions and solvers (``det``, ``inv``,
``solve``, ``svd``, ...) and the norms that need singular values (matrix ``ord`` 2, -2,
``'nuc'``) are not here yet: those raise NotImplementedError."""

import ferrograd as _torch

from . import _C

__all__ = ["cross", "vector_norm", "matrix_norm", "norm"]


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
        raise TypeError(f"linalg_vector_norm(): argument 'ord' (position 2) must be Number, not {type(ord).__name__}")
    if not (x.dtype.is_floating_point or x.dtype.is_complex):
        raise RuntimeError(f"linalg.vector_norm: Expected a floating point or complex tensor as input. Got {_dtype_name(x.dtype)}")
    r = x.norm(float(ord), dim, keepdim, dtype=dtype)
    if out is not None:
        out.copy_(r)
        return out
    return r


def _wrap(d, ndim):
    if not -max(ndim, 1) <= d < max(ndim, 1):
        raise IndexError(f"Dimension out of range (expected to be in range of [{-max(ndim, 1)}, {max(ndim, 1) - 1}], but got {d})")
    return d + ndim if d < 0 else d


def matrix_norm(A, ord="fro", dim=(-2, -1), keepdim=False, *, dtype=None, out=None):
    """The matrix norm of ``A`` over the two dims ``dim``: ``'fro'`` (the 2-norm of the
    entries), ``1`` / ``-1`` (the largest / smallest column sum of ``|A|``), ``inf`` /
    ``-inf`` (the largest / smallest row sum)."""
    if isinstance(ord, str):
        if ord not in ("fro", "nuc"):
            raise RuntimeError(f"linalg.matrix_norm: Order {ord} not supported.")
    else:
        if abs(ord) not in (1.0, 2.0, float("inf")):
            raise RuntimeError(f"linalg.matrix_norm: Order {_num(ord)} not supported.")
    dim = [dim] if isinstance(dim, int) else list(dim)
    if A.dim() < 2:
        raise RuntimeError("linalg.matrix_norm: The input tensor A must have at least 2 dimensions.")
    if not (A.dtype.is_floating_point or A.dtype.is_complex):
        raise RuntimeError(f"linalg.matrix_norm: Expected a floating point or complex tensor as input. Got {_dtype_name(A.dtype)}")
    if len(dim) != 2:
        raise RuntimeError(f"linalg.matrix_norm: dim must be a 2-tuple. Got {' '.join(str(d) for d in dim)}")
    d0, d1 = _wrap(dim[0], A.dim()), _wrap(dim[1], A.dim())
    if d0 == d1:
        raise RuntimeError(f"linalg.matrix_norm: dims must be different. Got ({d0}, {d1})")
    if ord == "nuc" or (not isinstance(ord, str) and abs(ord) == 2.0):
        raise NotImplementedError(f"linalg.matrix_norm: ord={ord!r} needs singular values (linalg.svdvals), which ferrograd does not compute yet")
    if ord == "fro":
        r = vector_norm(A, 2, (d0, d1), keepdim, dtype=dtype)
    else:
        # ATen: the 1-norm along one dim (rows for inf), then the max / min along the other
        if ord in (float("inf"), -float("inf")):
            d0, d1 = d1, d0
        if not keepdim and d0 < d1:
            d1 -= 1
        s = vector_norm(A, 1, d0, keepdim, dtype=dtype)
        r = s.amax(d1, keepdim) if ord > 0 else s.amin(d1, keepdim)
    if out is not None:
        out.copy_(r)
        return out
    return r


def norm(A, ord=None, dim=None, keepdim=False, *, dtype=None, out=None):
    """A vector norm (``dim`` one dim, or ``A`` 1-D) or a matrix norm (``dim`` two dims, or
    ``A`` 2-D with ``ord`` given); without ``ord`` the 2-norm of the entries over ``dim``
    (all of them when ``dim`` is None)."""
    if isinstance(dim, int):
        dim = (dim,)
    if dim is not None:
        dim = tuple(dim)
        if len(dim) not in (1, 2):
            raise RuntimeError(f"linalg.norm: If dim is specified, it must be of length 1 or 2. Got {list(dim)}")
    elif ord is not None and A.dim() not in (1, 2):
        raise RuntimeError(f"linalg.norm: If dim is not specified but ord is, the input must be 1D or 2D. Got {A.dim()}D.")
    if isinstance(ord, str):
        return matrix_norm(A, ord, dim if dim is not None else (0, 1), keepdim, dtype=dtype, out=out)
    if ord is not None and ((dim is not None and len(dim) == 2) or (dim is None and A.dim() == 2)):
        return matrix_norm(A, ord, dim if dim is not None else (0, 1), keepdim, dtype=dtype, out=out)
    return vector_norm(A, 2 if ord is None else ord, dim, keepdim, dtype=dtype, out=out)


def _num(v):
    return str(int(v)) if float(v).is_integer() else str(v)


def _dtype_name(dt):
    return {"torch.int64": "Long", "torch.int32": "Int", "torch.int16": "Short", "torch.int8": "Char",
            "torch.uint8": "Byte", "torch.bool": "Bool"}.get(str(dt), str(dt))
