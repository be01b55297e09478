"""``torch.linalg``: the cross product, vector and matrix norms, inverse, determinant,
solvers (LU, triangular, Cholesky), the QR, symmetric-eigen and singular value
decompositions, pseudo-inverse, rank, condition number, matrix powers and chained products —
each with PyTorch's values, errors (``LinAlgError`` for singular or indefinite input) and
``grad_fn`` names. The decompositions run in the core (``ops::linalg``, f64 kernels);
the compositions here follow ATen's."""

import math

import ferrograd as _torch

from . import _C
from ._helpers import _named

__all__ = [
    "cross", "vector_norm", "matrix_norm", "norm", "LinAlgError", "inv", "inv_ex", "det", "slogdet",
    "solve", "solve_triangular", "cholesky", "cholesky_ex", "qr", "eigh", "eigvalsh", "svd", "svdvals",
    "pinv", "matrix_rank", "cond", "matrix_power", "multi_dot", "matrix_exp", "vecdot", "diagonal", "matmul", "vander",
    "solve_ex", "tensorinv", "tensorsolve", "lstsq", "lu_factor", "lu_factor_ex", "lu", "lu_solve",
]


class _LinAlgError(RuntimeError):
    """``torch.linalg.LinAlgError``: a matrix a decomposition or solver cannot handle
    (singular, not positive-definite)."""


_LinAlgError.__module__ = "torch._C"
LinAlgError = _LinAlgError


def _out(r, out):
    if out is None:
        return r
    if isinstance(r, tuple):
        for o, v in zip(out, r):
            o.resize_(v.shape)
            o.copy_(v)
        return out
    out.resize_(r.shape)
    out.copy_(r)
    return out


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
        # ATen: the singular values of A with (d0, d1) moved last, then their max / min / sum
        perm = [i for i in range(A.dim()) if i not in (d0, d1)] + [d0, d1]
        s = svdvals(A.permute(perm))
        if dtype is not None:
            s = s.to(dtype)
        if ord == "nuc":
            r = s.sum(-1, keepdim)
        else:
            r = s.amax(-1, keepdim) if ord > 0 else s.amin(-1, keepdim)
        if keepdim:
            inv_perm = [perm.index(i) for i in range(A.dim())]
            r = r.unsqueeze(-1).permute(inv_perm)
        return _out(r, out)
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


# ---- inverse, determinant -----------------------------------------------------------------

def inv_ex(A, *, check_errors=False, out=None):
    """The inverse of each square matrix and LAPACK's ``info`` (0, or the index of the first
    zero pivot of a singular matrix), as ``torch.return_types.linalg_inv_ex``."""
    r = _C._linalg_inv_ex(A, check_errors, "linalg.inv_ex")
    return _out(_named("linalg_inv_ex", ("inverse", "info"), *r), out)


def inv(A, *, out=None):
    """The inverse of each square matrix (LinalgInvExBackward0); a singular one raises
    ``LinAlgError``."""
    return _out(_C._linalg_inv_ex(A, True, "linalg.inv")[0], out)


def matrix_exp(A):
    """The matrix exponential of each square matrix (LinalgMatrixExpBackward0)."""
    return _C._linalg_matrix_exp(A)


def det(A, *, out=None):
    """The determinant of each square matrix (LinalgDetBackward0)."""
    return _out(_C._linalg_det(A, "linalg.det"), out)


def slogdet(A, *, out=None):
    """The sign and the log of the absolute value of each determinant (0 and -inf for a
    singular matrix), as ``torch.return_types.linalg_slogdet``."""
    return _out(_named("linalg_slogdet", ("sign", "logabsdet"), *_C._linalg_slogdet(A, "linalg.slogdet")), out)


# ---- solvers ------------------------------------------------------------------------------

def solve(A, B, *, left=True, out=None):
    """X with ``A X = B`` (``X A = B`` where not ``left``) for square invertible A; B may be
    a (batch of) vector(s); batch dims broadcast (LinalgSolveExBackward0)."""
    return _out(_C._linalg_solve(A, B, left), out)


_REQUIRED = object()


def solve_triangular(A, B, *, upper=_REQUIRED, left=True, unitriangular=False, out=None):
    """X with ``A X = B`` (``X A = B``) reading only A's upper or lower triangle (ones on the
    diagonal where ``unitriangular``) (LinalgSolveTriangularBackward0)."""
    if upper is _REQUIRED:
        raise TypeError('linalg_solve_triangular() missing 1 required positional arguments: "upper"')
    return _out(_C._linalg_solve_triangular(A, B, upper, left, unitriangular), out)


def cholesky_ex(A, *, upper=False, check_errors=False, out=None):
    """The Cholesky factor and LAPACK's ``info`` (0, or the order of the first leading minor
    that is not positive-definite), as ``torch.return_types.linalg_cholesky_ex``."""
    r = _C._linalg_cholesky_ex(A, upper, check_errors, "linalg.cholesky_ex", False)
    return _out(_named("linalg_cholesky_ex", ("L", "info"), *r), out)


def cholesky(A, *, upper=False, out=None):
    """L with ``A = L Lᵀ`` from A's lower triangle (``U = Lᵀ`` where ``upper``)
    (LinalgCholeskyExBackward0); a matrix that is not positive-definite raises
    ``LinAlgError``."""
    return _out(_C._linalg_cholesky_ex(A, upper, True, "linalg.cholesky", False)[0], out)


# ---- decompositions -----------------------------------------------------------------------

def qr(A, mode="reduced", *, out=None):
    """Q (orthonormal columns) and R (upper triangular) with ``A = Q R``; ``mode`` is
    ``'reduced'``, ``'complete'`` or ``'r'`` (an empty Q). LAPACK's Householder signs."""
    return _out(_named("linalg_qr", ("Q", "R"), *_C._linalg_qr(A, mode)), out)


def _uplo(UPLO):
    if not (isinstance(UPLO, str) and len(UPLO) == 1 and UPLO.upper() in ("L", "U")):
        raise RuntimeError(f"Expected UPLO argument to be 'L' or 'U', but got {UPLO}")
    return UPLO.upper() == "U"


def eigh(A, UPLO="L", *, out=None):
    """Ascending eigenvalues and orthonormal eigenvectors (columns) of the symmetric matrix
    in A's lower (or upper) triangle (LinalgEighBackward0)."""
    if A.dim() >= 2 and A.shape[-1] == A.shape[-2]:
        upper = _uplo(UPLO)
    else:
        upper = False
    r = _C._linalg_eigh(A, upper, True, "linalg.eigh")
    if A.dim() >= 2 and A.shape[-1] != A.shape[-2]:
        _uplo(UPLO)
    return _out(_named("linalg_eigh", ("eigenvalues", "eigenvectors"), *r), out)


def eigvalsh(A, UPLO="L", *, out=None):
    """The ascending eigenvalues of the symmetric matrix in A's lower (or upper) triangle."""
    upper = _uplo(UPLO) if A.dim() >= 2 and A.shape[-1] == A.shape[-2] else False
    return _out(_C._linalg_eigh(A, upper, False, "linalg.eigh")[0], out)


def _driver(driver):
    if driver is not None:
        raise RuntimeError("torch.linalg.svd: keyword argument `driver=` is only supported on CUDA inputs with cuSOLVER backend.")


def svd(A, full_matrices=True, *, driver=None, out=None):
    """U, the descending singular values S and Vh with ``A = U diag(S) Vh``
    (LinalgSvdBackward0); ``full_matrices`` completes U and Vh to square orthogonal
    matrices. The signs of singular vector pairs are this implementation's."""
    _driver(driver)
    return _out(_named("linalg_svd", ("U", "S", "Vh"), *_C._linalg_svd(A, full_matrices, True, "linalg.svd")), out)


def svdvals(A, *, driver=None, out=None):
    """The singular values of each matrix, descending."""
    _driver(driver)
    return _out(_C._linalg_svd(A, False, False, "linalg.svd")[1], out)


def _tol(v, name):
    if v is None or isinstance(v, (int, float)):
        return None if v is None else float(v)
    if isinstance(v, _torch.Tensor) and v.numel() == 1:
        return float(v.item())
    raise NotImplementedError(f"linalg: a per-matrix tensor {name} is not supported by ferrograd yet; pass a number")


def pinv(A, rcond=None, hermitian=False, *, atol=None, rtol=None, out=None):
    """The Moore-Penrose pseudo-inverse: V diag(1/s) Uᵀ over the singular values above
    ``max(atol, rtol·s_max)`` (LinalgPinvBackward0); ``rcond`` is the old name of ``rtol``."""
    if rcond is not None:
        atol, rtol = 0.0, rcond
    return _out(_C._linalg_pinv(A, _tol(atol, "atol"), _tol(rtol, "rtol"), hermitian), out)


def matrix_rank(A, tol=None, hermitian=False, *, atol=None, rtol=None, out=None):
    """The number of singular values (|eigenvalues| where ``hermitian``) above
    ``max(atol, rtol·σ_max)``; ``rtol`` defaults to eps·max(m, n) without a positive atol."""
    if A.dim() < 2:
        raise RuntimeError("torch.linalg.matrix_rank: The input tensor input must have at least 2 dimensions.")
    if not A.dtype.is_floating_point:
        raise RuntimeError("This function doesn't handle types other than float and double")
    if tol is not None:
        atol, rtol = tol, 0.0
    atol_v, rtol_v = _tol(atol, "atol"), _tol(rtol, "rtol")
    m, n = A.shape[-2], A.shape[-1]
    eps = _torch.finfo(A.dtype).eps
    if rtol_v is None:
        rtol_v = 0.0 if (atol_v is not None and atol_v > 0) else eps * max(m, n)
    atol_v = 0.0 if atol_v is None else atol_v
    with _torch.no_grad():
        if A.numel() == 0:
            return _out(_torch.zeros(tuple(A.shape[:-2]), dtype=_torch.int64, device=A.device), out)
        if hermitian:
            s = eigvalsh(A).abs()
            smax = s.amax(-1, True)
        else:
            s = svdvals(A)
            smax = s.narrow(-1, 0, 1)
        tol_t = (smax * rtol_v).clamp(min=atol_v)
        r = (s > tol_t).sum(-1)
    return _out(r, out)


def cond(A, p=None, *, out=None):
    """The condition number: σ_max/σ_min for ``p`` None, 2 (σ_min/σ_max for -2), else
    ``‖A‖_p·‖A⁻¹‖_p`` (inf where A is singular)."""
    if A.dim() < 2:
        raise RuntimeError("linalg.cond: The input tensor must have at least 2 dimensions.")
    ordv = 2 if p is None else p
    if isinstance(ordv, str):
        if ordv not in ("fro", "nuc"):
            raise RuntimeError(f"linalg.cond got an invalid norm type: {ordv}")
    elif ordv not in (1, -1, 2, -2, math.inf, -math.inf):
        raise RuntimeError(f"linalg.cond got an invalid norm type: {_num(ordv)}")
    if not isinstance(ordv, str) and abs(ordv) == 2:
        s = svdvals(A)
        smax, smin = s.narrow(-1, 0, 1), s.narrow(-1, s.shape[-1] - 1, 1)
        r = smin / smax if ordv == -2 else smax / smin
        return _out(r.squeeze(-1), out)
    label = ordv if isinstance(ordv, str) else (f"{float(ordv):f}" if isinstance(ordv, float) else str(ordv))
    if A.shape[-1] != A.shape[-2]:
        raise RuntimeError(f"linalg.cond(ord={label}): A must be batches of square matrices, but they are {A.shape[-2]} by {A.shape[-1]} matrices")
    if ordv == "nuc":
        s = svdvals(A)
        return _out(s.sum(-1) * s.reciprocal().sum(-1), out)
    inverse, info = inv_ex(A)
    inverse = inverse.masked_fill(info.unsqueeze(-1).unsqueeze(-1) > 0, math.inf)
    r = matrix_norm(A, ordv) * matrix_norm(inverse, ordv)
    r = r.nan_to_num(math.inf, math.inf, -math.inf)
    return _out(r, out)


# ---- products -----------------------------------------------------------------------------

def matrix_power(A, n, *, out=None):
    """``A`` to the integer power ``n`` by repeated squaring (``n = 0``: the identity;
    negative ``n``: powers of the inverse)."""
    if A.dim() < 2:
        raise RuntimeError("linalg.matrix_power: The input tensor A must have at least 2 dimensions.")
    if A.shape[-1] != A.shape[-2]:
        raise RuntimeError(f"linalg.matrix_power: A must be batches of square matrices, but they are {A.shape[-2]} by {A.shape[-1]} matrices")
    if n == 0:
        r = A.clone()
        r.copy_(_torch.eye(A.shape[-1], dtype=A.dtype, device=A.device).expand_as(A))
        return _out(r, out)
    if n == -1:
        return _out(inv(A), out)
    if n < 0:
        A = inv(A)
        n = -n
    if n == 1:
        return _out(A.clone(), out)
    if n == 2:
        return _out(_torch.matmul(A, A), out)
    if n == 3:
        return _out(_torch.matmul(_torch.matmul(A, A), A), out)
    z = result = None
    while n > 0:
        bit = n % 2
        n //= 2
        z = A if z is None else _torch.matmul(z, z)
        if bit == 1:
            result = z if result is None else _torch.matmul(result, z)
    return _out(result, out)


def vecdot(x, y, *, dim=-1, out=None):
    """``Σ conj(x) · y`` along ``dim`` (the other dims broadcast)."""
    r = ((x.conj() if x.is_complex() else x) * y).sum(dim)
    return _out(r, out)


def diagonal(A, *, offset=0, dim1=-2, dim2=-1):
    """The diagonal of each matrix (a view; ``torch.diagonal`` with matrix defaults)."""
    return _torch.diagonal(A, offset, dim1, dim2)


def matmul(input, other, *, out=None):
    """``torch.matmul``."""
    return _out(_torch.matmul(input, other), out)


def vander(x, *, N=None):
    """The Vandermonde matrix of increasing powers ``[1, x, x², ...]`` (``N`` columns, the
    length of ``x`` by default), as ATen builds it: a cumulative product after a column of
    ones (CatBackward0)."""
    if x.dim() < 1:
        raise RuntimeError("x must have at least one dimension.")
    n = x.shape[-1] if N is None else N
    if n <= 0:
        raise RuntimeError("N must be greater than 1.")
    ones = _torch.ones_like(x).unsqueeze(-1)
    if n == 1:
        return ones
    powers = x.unsqueeze(-1).expand(*x.shape, n - 1).cumprod(-1)
    return _torch.cat([ones, powers], -1)


def solve_ex(A, B, *, left=True, check_errors=False, out=None):
    """``solve`` with an ``info`` tensor (zeros: a singular matrix raises, as ``solve``)."""
    r = solve(A, B, left=left)
    info = _torch.zeros(A.shape[:-2], dtype=_torch.int32)
    return _out(_named("linalg_solve_ex", ("result", "info"), r, info), out)


def tensorinv(A, ind=2, *, out=None):
    """The inverse of ``A`` seen as a linear map from its last dims to its first ``ind``."""
    if ind <= 0:
        raise RuntimeError(f"Expected a strictly positive integer for 'ind', but got {ind}")
    lead, rest = list(A.shape[:ind]), list(A.shape[ind:])
    rows, cols = math.prod(lead), math.prod(rest)
    if rows != cols:
        raise RuntimeError(f"Expected self to satisfy the requirement prod(self.shape[ind:]) == prod(self.shape[:ind]), "
                           f"but got {cols} != {rows}")
    return _out(inv(A.reshape(rows, cols)).reshape(rest + lead), out)


def tensorsolve(A, B, dims=None, *, out=None):
    """``X`` with ``tensordot(A, X, X.dim()) == B``: ``A`` seen as a square matrix from the
    dims after ``B``'s to ``B``'s (``dims`` first moved to the end)."""
    if dims is not None:
        nd = A.dim()
        dims = [d % nd for d in dims]
        order = [d for d in range(nd) if d not in dims] + dims
        A = A.permute(order)
    rest = list(A.shape[B.dim():])
    n = math.prod(rest)
    return _out(solve(A.reshape(B.numel(), n), B.reshape(B.numel())).reshape(rest), out)


def lstsq(A, B, rcond=None, *, driver=None):
    """The least-squares solution of ``A X = B`` (the minimum-norm one when ``A`` is rank
    deficient), with ``residuals`` (for ``gelsd`` / ``gelss`` / ``gels`` when ``m > n`` and
    ``A`` has full rank), ``rank`` (not for ``gels``) and ``singular_values`` (``gelsd`` /
    ``gelss``), as PyTorch's CPU drivers return them (``gelsy`` by default)."""
    drivers = ("gels", "gelsy", "gelsd", "gelss")
    if driver is None:
        driver = "gelsy"
    if driver not in drivers:
        raise RuntimeError(f"parameter `driver` should be one of (gels, gelsy, gelsd, gelss)")
    if A.dim() < 2:
        raise RuntimeError(f"torch.linalg.lstsq: input must have at least 2 dimensions.")
    vector = B.dim() == A.dim() - 1
    Bm = B.unsqueeze(-1) if vector else B
    m, n = A.shape[-2], A.shape[-1]
    eps = _torch.finfo(A.dtype if A.is_floating_point() else _torch.float32).eps
    rc = eps * max(m, n) if rcond is None or rcond < 0 else rcond
    X = pinv(A, rtol=rc) @ Bm
    empty = _torch.empty(0, dtype=A.dtype)
    rank = matrix_rank(A, rtol=rc) if driver != "gels" else _torch.empty(0, dtype=_torch.int64)
    full = driver != "gelsy" and m > n and bool((matrix_rank(A, rtol=rc) == n).all())
    residuals = ((A @ X - Bm).abs() ** 2).sum(-2) if full else empty
    sv = svdvals(A) if driver in ("gelsd", "gelss") else empty
    X = X.squeeze(-1) if vector else X
    return _named("linalg_lstsq", ("solution", "residuals", "rank", "singular_values"), X, residuals, rank, sv)


def _lu_one(A, pivot):
    """LAPACK's getrf on one (m, n) matrix, as a differentiable composition: at step k the row
    with the first largest |value| in column k moves up (partial pivoting), the column below
    the pivot is divided by it and the trailing block updated. Returns (LU, 1-based pivots,
    info: 1 + the first step with a zero pivot, 0 if none)."""
    m, n = A.shape
    rows = list(range(m))
    pivots, info = [], 0
    for k in range(min(m, n)):
        col = A[k:, k].detach().abs()
        p = k + (int(col.argmax()) if pivot else 0)
        pivots.append(p + 1)
        if p != k:
            order = list(range(m))
            order[k], order[p] = p, k
            A = A[order]
            rows[k], rows[p] = rows[p], rows[k]
        piv = A[k, k]
        if float(piv.detach()) == 0.0:
            info = info or k + 1
            continue
        if k + 1 < m:
            l = A[k + 1:, k] / piv
            trail = A[k + 1:, k + 1:] - l.unsqueeze(1) * A[k, k + 1:].unsqueeze(0)
            lower = _torch.cat([A[k + 1:, :k], l.unsqueeze(1), trail], 1)
            A = _torch.cat([A[:k + 1], lower], 0)
    return A, pivots, info


def _lu_batched(A, pivot, name):
    if A.dim() < 2:
        raise RuntimeError(f"{name}: The input tensor A must have at least 2 dimensions.")
    if not (A.dtype.is_floating_point or A.dtype.is_complex):
        raise RuntimeError(f"{name}: Expected a floating point or complex tensor as input. Got {_dtype_name(A.dtype)}")
    batch = tuple(A.shape[:-2])
    m, n = A.shape[-2:]
    mats = A.reshape(-1, m, n)
    outs, pivs, infos = [], [], []
    for i in range(mats.shape[0]):
        lu, p, info = _lu_one(mats[i], pivot)
        outs.append(lu)
        pivs.append(p)
        infos.append(info)
    k = min(m, n)
    LU = _torch.stack(outs).reshape(A.shape) if outs else A.clone()
    piv = _torch.tensor(pivs, dtype=_torch.int32).reshape(batch + (k,)) if outs else _torch.zeros(batch + (k,), dtype=_torch.int32)
    info = _torch.tensor(infos, dtype=_torch.int32).reshape(batch) if outs else _torch.zeros(batch, dtype=_torch.int32)
    return LU, piv, info


def lu_factor_ex(A, *, pivot=True, check_errors=False, out=None):
    """The LU factorization with partial pivoting, compact (``LU``: L's multipliers below the
    diagonal, U on and above), the 1-based row ``pivots`` (int32) and ``info`` (> 0: the
    first zero pivot)."""
    LU, piv, info = _lu_batched(A, pivot, "torch.linalg.lu_factor_ex")
    if check_errors and bool((info > 0).any()):
        raise LinAlgError(f"torch.linalg.lu_factor_ex: U[{int(info.max())},{int(info.max())}] is zero and using it on "
                          "lu_solve would result in a division by zero.")
    return _out(_named("linalg_lu_factor_ex", ("LU", "pivots", "info"), LU, piv, info), out)


def lu_factor(A, *, pivot=True, out=None):
    """``(LU, pivots)`` of ``lu_factor_ex``; a zero pivot raises, as PyTorch."""
    LU, piv, info = _lu_batched(A, pivot, "torch.linalg.lu_factor")
    bad = info.reshape(-1)
    bad = bad[bad > 0]
    if bad.numel():
        i = int(bad[0])
        raise RuntimeError(f"torch.linalg.lu_factor: U[{i},{i}] is zero and using it on lu_solve would result in a "
                           "division by zero. If you still want to perform the factorization, consider calling "
                           "linalg.lu(A, pivot) or linalg.lu_factor_ex(A, pivot)")
    return _out(_named("linalg_lu_factor", ("LU", "pivots"), LU, piv), out)


def _unpack(LU, pivots, unpack_data=True, unpack_pivots=True):
    m, n = LU.shape[-2:]
    k = min(m, n)
    if unpack_data:
        L = _torch.tril(LU[..., :, :k], -1) + _torch.eye(m, k, dtype=LU.dtype)
        U = _torch.triu(LU[..., :k, :])
    else:
        L = U = _torch.empty(0, dtype=LU.dtype)
    if unpack_pivots:
        batch = tuple(LU.shape[:-2])
        flat = pivots.reshape(-1, k).tolist()
        mats = []
        for piv in flat:
            perm = list(range(m))
            for i, p in enumerate(piv):
                perm[i], perm[p - 1] = perm[p - 1], perm[i]
            P = _torch.zeros(m, m, dtype=LU.dtype)
            for i, r in enumerate(perm):
                P[r, i] = 1
            mats.append(P)
        P = _torch.stack(mats).reshape(batch + (m, m)) if mats else _torch.zeros(batch + (m, m), dtype=LU.dtype)
    else:
        P = _torch.empty(0, dtype=LU.dtype)
    return P, L, U


def lu(A, *, pivot=True, out=None):
    """``A = P L U`` with partial pivoting: the permutation matrix ``P``, unit lower
    triangular ``L`` (m × k) and upper triangular ``U`` (k × n)."""
    LU, piv, _ = _lu_batched(A, pivot, "torch.linalg.lu")
    return _out(_named("linalg_lu", ("P", "L", "U"), *_unpack(LU, piv)), out)


def lu_solve(LU, pivots, B, *, left=True, adjoint=False, out=None):
    """Solve ``A X = B`` (``X A = B`` with ``left=False``; ``Aᴴ`` with ``adjoint``) from
    ``lu_factor``'s output."""
    P, L, U = _unpack(LU, pivots)
    if not left:
        # X A = B  <=>  Aᴴ Xᴴ = Bᴴ
        Xh = lu_solve(LU, pivots, B.mH, left=True, adjoint=not adjoint)
        return _out(Xh.mH, out)
    if adjoint:
        # Aᴴ = Uᴴ Lᴴ Pᵀ: X = P L⁻ᴴ U⁻ᴴ B
        Y = solve_triangular(U.mH, B, upper=False)
        Z = solve_triangular(L.mH, Y, upper=True, unitriangular=True)
        return _out(P @ Z, out)
    Y = solve_triangular(L, P.mT @ B, upper=False, unitriangular=True)
    return _out(solve_triangular(U, Y, upper=True), out)


def lu_unpack(LU_data, LU_pivots, unpack_data=True, unpack_pivots=True, *, out=None):
    """``(P, L, U)`` from ``lu_factor``'s compact output (``torch.lu_unpack``)."""
    return _out(_named("lu_unpack", ("P", "L", "U"), *_unpack(LU_data, LU_pivots, unpack_data, unpack_pivots)), out)


def multi_dot(tensors, *, out=None):
    """The product of a chain of matrices in the cheapest order (the first may be a row
    vector, the last a column vector)."""
    n = len(tensors)
    if n < 2:
        raise RuntimeError(f"multi_dot(): expected at least 2 tensors but got {n}")
    ts = list(tensors)
    if ts[0].dim() not in (1, 2):
        raise RuntimeError(f"multi_dot(): the first tensor must be 1D or 2D but got {ts[0].dim()}D")
    if ts[-1].dim() not in (1, 2):
        raise RuntimeError(f"multi_dot(): the last tensor must be 1D or 2D but got {ts[-1].dim()}D")
    for i in range(1, n - 1):
        if ts[i].dim() != 2:
            raise RuntimeError(f"multi_dot(): tensor {i} must be 2D but got {ts[i].dim()}D")
    for i in range(1, n):
        if ts[i].dtype != ts[0].dtype:
            raise RuntimeError(f"multi_dot(): all tensors must have be the same dtype but tensor 0 is {_dtype_name(ts[0].dtype)} and tensor {i} is {_dtype_name(ts[i].dtype)}")
    out_shape = []
    if ts[0].dim() == 1:
        ts[0] = ts[0].unsqueeze(0)
    else:
        out_shape.append(ts[0].shape[0])
    if ts[-1].dim() == 1:
        ts[-1] = ts[-1].unsqueeze(-1)
    else:
        out_shape.append(ts[-1].shape[-1])
    for i in range(1, n):
        if ts[i - 1].shape[-1] != ts[i].shape[0]:
            a, b = list(tensors[i - 1].shape), list(tensors[i].shape)
            raise RuntimeError(f"multi_dot(): tensors {i - 1} and {i} with shapes {a} and {b} cannot be multiplied")
    if n == 2:
        r = ts[0].mm(ts[1])
    elif n == 3:
        a, b, c, d = ts[0].shape[0], ts[1].shape[0], ts[2].shape[0], ts[2].shape[1]
        cost_1 = (a * c) * (b + d)
        cost_2 = (b * d) * (a + c)
        r = ts[0].mm(ts[1].mm(ts[2])) if cost_1 > cost_2 else ts[0].mm(ts[1]).mm(ts[2])
    else:
        p = [t.shape[0] for t in ts] + [ts[-1].shape[1]]
        m = [[0] * n for _ in range(n)]
        s = [[0] * n for _ in range(n)]
        for length in range(1, n):
            for i in range(n - length):
                j = i + length
                m[i][j] = None
                for k in range(i, j):
                    q = m[i][k] + m[k + 1][j] + p[i] * p[k + 1] * p[j + 1]
                    if m[i][j] is None or q < m[i][j]:
                        m[i][j], s[i][j] = q, k

        def chain(i, j):
            if i == j:
                return ts[i]
            return chain(i, s[i][j]).mm(chain(s[i][j] + 1, j))

        r = chain(0, n - 1)
    return _out(r.view(out_shape), out)


# ---- torch.* and Tensor methods built on the above ----------------------------------------

_warned = set()


def _warn_once(key, msg):
    import warnings

    if key not in _warned:
        _warned.add(key)
        warnings.warn(msg, UserWarning, stacklevel=3)


def _t_slogdet(self):
    """``torch.slogdet`` / ``Tensor.slogdet``: ``torch.return_types.slogdet``."""
    return _named("slogdet", ("sign", "logabsdet"), *_C._linalg_slogdet(self, "linalg.slogdet"))


def _t_cholesky(self, upper=False, *, out=None):
    """``torch.cholesky`` (deprecated; CholeskyBackward0)."""
    _warn_once("cholesky", "torch.cholesky is deprecated in favor of torch.linalg.cholesky and will be removed in a future PyTorch release.\n"
               "L = torch.cholesky(A)\nshould be replaced with\nL = torch.linalg.cholesky(A)\nand\n"
               "U = torch.cholesky(A, upper=True)\nshould be replaced with\nU = torch.linalg.cholesky(A).mH\n"
               "This transform will produce equivalent results for all valid (symmetric positive definite) inputs.")
    return _out(_C._linalg_cholesky_ex(self, upper, True, "cholesky", True)[0], out)


def _t_cholesky_solve(self, input2, upper=False, *, out=None):
    """``torch.cholesky_solve(B, L)``: X with ``L Lᵀ X = B`` (CholeskySolveBackward0)."""
    return _out(_C._cholesky_solve(self, input2, upper), out)


def _t_cholesky_inverse(self, upper=False, *, out=None):
    """``torch.cholesky_inverse(L)``: ``(L Lᵀ)⁻¹`` from the Cholesky factor's triangle."""
    return _out(_C._cholesky_inverse(self, upper), out)


def _t_qr(self, some=True, *, out=None):
    """``torch.qr`` (deprecated): ``linalg.qr`` in mode 'reduced' or 'complete'."""
    _warn_once("qr", "torch.qr is deprecated in favor of torch.linalg.qr and will be removed in a future PyTorch release.\n"
               "The boolean parameter 'some' has been replaced with a string parameter 'mode'.\n"
               "Q, R = torch.qr(A, some)\nshould be replaced with\n"
               "Q, R = torch.linalg.qr(A, 'reduced' if some else 'complete')")
    return _out(_named("qr", ("Q", "R"), *_C._linalg_qr(self, "reduced" if some else "complete")), out)


def _t_svd(self, some=True, compute_uv=True, *, out=None):
    """``torch.svd``: U, S and V (not Vh); without ``compute_uv``, zero U and V."""
    if self.dim() < 2:
        raise RuntimeError(f"linalg.svd: input should have at least 2 dimensions, but has {self.dim()} dimensions instead")
    if compute_uv:
        U, S, Vh = _C._linalg_svd(self, not some, True, "linalg.svd")
    else:
        S = svdvals(self)
        m, n = self.shape[-2], self.shape[-1]
        U = _torch.zeros(tuple(self.shape[:-2]) + (m, m), dtype=self.dtype, device=self.device)
        Vh = _torch.zeros(tuple(self.shape[:-2]) + (n, n), dtype=self.dtype, device=self.device)
    return _out(_named("svd", ("U", "S", "V"), U, S, Vh.mH), out)


def _t_pinverse(self, rcond=1e-15):
    """``torch.pinverse``: ``linalg.pinv`` with ``rtol = rcond``."""
    return pinv(self, atol=0.0, rtol=rcond)


def _t_logdet(self):
    """``torch.logdet``: log det, NaN for a negative determinant (WhereBackward0)."""
    return _C._logdet(self)


def _t_matrix_exp(self):
    """``torch.matrix_exp``: ``linalg.matrix_exp``."""
    return matrix_exp(self)


def _t_det(self):
    """``torch.det``: ``linalg.det``."""
    return det(self)


def _t_inverse(self, *, out=None):
    """``torch.inverse``: ``linalg.inv``."""
    return inv(self, out=out)


def _t_matrix_power(self, n):
    """``torch.matrix_power``: ``linalg.matrix_power``."""
    return matrix_power(self, n)


_CDIST_MODES = {None: 0, "use_mm_for_euclid_dist_if_necessary": 0, "use_mm_for_euclid_dist": 1, "donot_use_mm_for_euclid_dist": 2}


def cdist(x1, x2, p=2.0, compute_mode="use_mm_for_euclid_dist_if_necessary"):
    """``torch.cdist``: the p-norm distance between each row of ``x1`` and each row of
    ``x2`` (batch dims broadcast; CdistBackward0). For p = 2 with more than 25 rows it uses
    the matrix-product form ‖a‖² - 2a·b + ‖b‖² as PyTorch does."""
    if compute_mode not in _CDIST_MODES:
        raise ValueError(f"{compute_mode} is not a valid value for compute_mode")
    mode = _CDIST_MODES[compute_mode]
    if x1.dim() >= 2 and x2.dim() >= 2 and p == 2 and x1.shape[-1] == x2.shape[-1] and x1.dtype == x2.dtype \
            and x1.dtype.is_floating_point and x1.numel() > 0 and x2.numel() > 0 \
            and (mode == 1 or (mode == 0 and (x1.shape[-2] > 25 or x2.shape[-2] > 25))):
        batch = tuple(_torch.broadcast_shapes(x1.shape[:-2], x2.shape[:-2]))
        r1, r2, c = x1.shape[-2], x2.shape[-2], x1.shape[-1]
        a = x1.expand(batch + (r1, c)).reshape((-1, r1, c))
        b = x2.expand(batch + (r2, c)).reshape((-1, r2, c))
        a_norm = a.pow(2).sum(-1, keepdim=True)
        b_norm = b.pow(2).sum(-1, keepdim=True)
        a_ = _torch.cat([a.mul(-2), a_norm, _torch.ones_like(a_norm)], -1)
        b_ = _torch.cat([b, _torch.ones_like(b_norm), b_norm], -1)
        r = a_.matmul(b_.transpose(-2, -1))
        r.clamp_min_(0).sqrt_()
        return r.view(batch + (r1, r2))
    return _C._cdist(x1, x2, float(p))


def _functional(meth):
    """``torch.f(input, ...)`` from the method ``Tensor.f``."""
    def fn(*args, **kwargs):
        if "input" in kwargs:
            args = (kwargs.pop("input"),) + args
        return meth(*args, **kwargs)

    fn.__name__ = fn.__qualname__ = meth.__name__[3:]
    fn.__doc__ = meth.__doc__
    return fn


def _install(torch, Tensor):
    """Bind the torch.* functions and Tensor methods that are linear algebra."""
    for name, f in (("inverse", _t_inverse), ("det", _t_det), ("logdet", _t_logdet), ("slogdet", _t_slogdet),
                    ("cholesky", _t_cholesky), ("cholesky_solve", _t_cholesky_solve), ("cholesky_inverse", _t_cholesky_inverse), ("qr", _t_qr),
                    ("svd", _t_svd), ("pinverse", _t_pinverse), ("matrix_power", _t_matrix_power),
                    ("matrix_exp", _t_matrix_exp)):
        setattr(Tensor, name, f)
        setattr(torch, name, _functional(f))
    torch.cdist = cdist
