"""torch.linalg decompositions and solvers: inv/inv_ex, det/slogdet/logdet, solve,
solve_triangular, cholesky/cholesky_ex/cholesky_solve, qr, eigh/eigvalsh, svd/svdvals/
torch.svd, the singular-value norms, matrix_rank, pinv, cond, matrix_power, multi_dot and
cdist. Run with ``torch`` bound to PyTorch (tools/record_linalg_goldens.py records
fixtures/linalg.json) or to ferrograd (test_linalg.py compares): values, shapes, dtypes,
grad_fn names, named-tuple types, gradients of a weighted loss (and of a gradient for a few),
errors.

Eigenvectors and singular vectors are defined only up to sign (LAPACK's choice), so the
eigh/svd cases never record them: they record eigen/singular values, reconstructions and
elementwise squares, and differentiate losses that do not depend on those signs. QR's signs
are those of Householder reflections (R's diagonal may be negative), so Q and R are recorded
as they come. Cases whose name ends in ``_f64`` (and their ``_grad``/``_grad2``) are float64,
the rest float32."""

import math
import warnings

INF = float("inf")


def _v(t):
    return [v if v == v else "nan" for v in t.detach().double().flatten().tolist()]


def _dt(t):
    return str(t.dtype).replace("torch.", "")


def _fn(t):
    return type(t.grad_fn).__name__ if t.grad_fn is not None else None


def _one(r):
    return {"value": _v(r), "shape": list(r.shape), "dtype": _dt(r), "fn": _fn(r)}


def _vals(r):
    """A part computed from a decomposition's outputs: its grad_fn is not PyTorch's concern."""
    return {"value": _v(r), "shape": list(r.shape), "dtype": _dt(r)}


def _meta(r):
    """An output whose values are not recorded (sign-ambiguous vectors, LAPACK's leftovers)."""
    return {"shape": list(r.shape), "dtype": _dt(r), "fn": _fn(r)}


def _tuple_type(r):
    fields = getattr(r, "_fields", None) or getattr(type(r), "__match_args__", None)
    return [type(r).__module__ + "." + type(r).__name__, None if fields is None else list(fields)]


def _result(r):
    if isinstance(r, (tuple, list)):
        out = {"parts": [_one(e) for e in r]}
        if type(r) not in (tuple, list):
            out["tuple"] = _tuple_type(r)
        return out
    return _one(r)


def _caught(f):
    try:
        return f()
    except Exception as e:  # noqa: BLE001 - PyTorch's error is the result
        return {"error": [type(e).__name__, str(e)]}


def _quiet(f):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return f()


def _weights(n, k):
    """n fixed random-looking weights (three decimals), the k-th set."""
    return [round(math.sin(0.9 * i + 1.7 * k + 0.4) + 0.5 * math.cos(2.3 * i + k), 3) for i in range(n)]


def _eigh_view(r):
    L, V = r
    return [L, V * V, (V * L.unsqueeze(-2)) @ V.mT]


def _svd_view(r):
    """S, U*U, Vh*Vh and U diag(S) Vh (the first k columns / rows when full_matrices)."""
    U, S, Vh = r
    k = S.shape[-1]
    U, Vh = U[..., :k], Vh[..., :k, :]
    return [S, U * U, Vh * Vh, (U * S.unsqueeze(-2)) @ Vh]


def _torch_svd_view(r):
    U, S, V = r
    k = S.shape[-1]
    U, V = U[..., :k], V[..., :k]
    return [S, U * U, V * V, (U * S.unsqueeze(-2)) @ V.mT]


def _svd_full_view(r):
    """full_matrices=True: the complete U and Vh are orthogonal whatever their signs."""
    U, S, Vh = r
    return [S, U.mT @ U, Vh @ Vh.mT]


def run(torch, device="cpu"):
    def T(data, **kw):
        return torch.tensor(data, device=device, **kw)

    def D(data):
        return T(data, dtype=torch.float64)

    def W(t, k):
        return T(_weights(t.numel(), k), dtype=t.dtype).reshape(tuple(t.shape))

    # general (non-symmetric) well-conditioned matrices
    g2 = [[1.5, -0.5], [0.7, 2.0]]
    g3 = [[2.0, -1.0, 0.5], [0.3, 3.0, -1.0], [1.0, 0.4, 2.5]]
    g3b = [[1.0, 0.5, -0.3], [-0.6, 2.0, 0.4], [0.2, -0.1, 1.5]]
    g4 = [[3.0, 0.2, -0.5, 1.0], [0.4, 2.5, 0.3, -0.6], [-1.0, 0.5, 4.0, 0.2], [0.3, -0.8, 0.6, 2.0]]
    neg2 = [[1.0, 2.0], [3.0, 1.0]]  # det -5
    sing2 = [[1.0, 2.0], [2.0, 4.0]]  # LU with partial pivoting gives an exact zero pivot
    sing3 = [[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [0.0, 1.0, 1.0]]  # rank 2, exact zero pivot 3
    # symmetric positive definite, well-separated eigenvalues
    p2 = [[2.0, 0.6], [0.6, 1.0]]
    p3 = [[4.0, 1.0, -2.0], [1.0, 5.0, 0.5], [-2.0, 0.5, 6.0]]
    p3b = [[2.0, -0.3, 0.4], [-0.3, 3.0, 0.2], [0.4, 0.2, 1.5]]
    notpd = [[1.0, 2.0, 0.0], [2.0, 1.0, 0.5], [0.0, 0.5, 3.0]]  # leading minor 2 is -3
    # triangular
    lo3 = [[2.0, 0.0, 0.0], [0.5, 1.5, 0.0], [-0.3, 0.8, 1.2]]
    up3 = [[1.5, -0.4, 0.7], [0.0, 2.0, 0.3], [0.0, 0.0, 1.2]]
    # rectangular
    tall = [[1.0, 2.0, 0.5], [-1.0, 0.3, 2.0], [0.7, -1.2, 1.0], [2.0, 0.1, -0.4]]
    wide = [[1.0, -0.5, 2.0, 0.3], [0.4, 1.5, -1.0, 0.8]]
    rhs3 = [[1.0, -2.0], [0.5, 3.0], [-1.5, 0.2]]
    rhs3b = [[[0.3, 1.0], [-1.0, 0.7], [2.0, -0.4]], [[1.2, -0.6], [0.1, 0.9], [-0.8, 1.4]]]
    vec3 = [0.7, -1.1, 2.0]
    rows2 = [[1.0, -0.5, 2.0], [0.3, 0.8, -1.0]]  # right-hand sides of X A = B
    unit_up = [[5.0, 0.3, -0.2], [0.0, 7.0, 0.4], [0.0, 0.0, 9.0]]  # diagonal ignored when unitriangular
    notpd1 = [[-1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]  # leading minor 1 is -1
    # cdist point sets (no ties in |x1 - x2| per pair, no zero differences)
    x1 = [[0.0, 1.0, 2.0], [1.3, -1.1, 0.5], [2.2, 0.15, -1.0]]
    x2 = [[1.1, 1.35, 0.9], [-0.4, -2.0, 1.25]]
    x1b = [[[0.0, 1.0], [1.3, -1.1], [2.2, 0.15]], [[0.5, -0.7], [-1.2, 0.35], [0.8, 2.1]]]
    x2b = [[[1.1, 1.35], [-0.4, -2.0]], [[0.25, 0.6], [-1.6, -0.9]]]

    A3, A3d = T(g3), D(g3)
    P3, P3d = T(p3), D(p3)
    Pb = T([p3, p3b])
    Gb = T([g3, g3b])
    st = torch.linalg.solve_triangular
    C = dict  # a case: f, ins, view (sign-safe parts to record), grad, grad2
    cases = {
        # inverse
        "inv": C(f=lambda a: torch.linalg.inv(a), ins=[A3], grad2=True),
        "inv_f64": C(f=lambda a: torch.linalg.inv(a), ins=[A3d], grad2=True),
        "inv_2x2": C(f=lambda a: torch.linalg.inv(a), ins=[T(g2)]),
        "inv_4x4_f64": C(f=lambda a: torch.linalg.inv(a), ins=[D(g4)]),
        "inv_batch": C(f=lambda a: torch.linalg.inv(a), ins=[Gb], grad2=True),
        "inverse": C(f=lambda a: torch.inverse(a), ins=[A3]),
        "inverse_method": C(f=lambda a: a.inverse(), ins=[Gb]),
        "inv_ex": C(f=lambda a: torch.linalg.inv_ex(a), ins=[A3]),
        "inv_ex_batch_f64": C(f=lambda a: torch.linalg.inv_ex(a), ins=[D([g3, g3b])]),
        "inv_ex_singular": C(f=lambda a: torch.linalg.inv_ex(a), ins=[T(sing2)], view=lambda r: [r.info], grad=False),
        "inv_ex_singular_batch": C(f=lambda a: torch.linalg.inv_ex(a), ins=[D([g3, sing3])], view=lambda r: [r.info], grad=False),
        # determinants
        "det": C(f=lambda a: torch.linalg.det(a), ins=[A3], grad2=True),
        "det_f64": C(f=lambda a: torch.linalg.det(a), ins=[A3d], grad2=True),
        "det_2x2": C(f=lambda a: torch.linalg.det(a), ins=[T(neg2)]),
        "det_4x4_f64": C(f=lambda a: torch.linalg.det(a), ins=[D(g4)]),
        "det_batch": C(f=lambda a: torch.linalg.det(a), ins=[Gb], grad2=True),
        "det_torch": C(f=lambda a: torch.det(a), ins=[A3]),
        "det_method": C(f=lambda a: a.det(), ins=[Gb]),
        # det of an exactly singular matrix: 0; the gradient (the cofactor matrix) is checked
        # both by plain backward and with create_graph=True (different code paths in PyTorch)
        "det_singular": C(f=lambda a: torch.linalg.det(a), ins=[T(sing2)]),
        "det_singular_f64": C(f=lambda a: torch.linalg.det(a), ins=[D(sing3)]),
        "det_singular_create_graph": C(f=lambda a: torch.linalg.det(a), ins=[T(sing2)], create_graph=True),
        "det_singular_create_graph_f64": C(f=lambda a: torch.linalg.det(a), ins=[D(sing3)], create_graph=True),
        "slogdet": C(f=lambda a: torch.linalg.slogdet(a), ins=[A3]),
        "slogdet_negative_f64": C(f=lambda a: torch.linalg.slogdet(a), ins=[D(neg2)], grad2=True),
        "slogdet_batch": C(f=lambda a: torch.linalg.slogdet(a), ins=[T([g3, [[0.0, 1.0, 0.2], [1.5, 0.1, -0.3], [0.4, 0.2, 2.0]]])]),
        "slogdet_singular": C(f=lambda a: torch.linalg.slogdet(a), ins=[T(sing2)], grad=False),
        "slogdet_torch": C(f=lambda a: torch.slogdet(a), ins=[T(neg2)]),
        "slogdet_method": C(f=lambda a: a.slogdet(), ins=[A3d]),
        "logdet": C(f=lambda a: torch.logdet(a), ins=[A3]),
        "logdet_f64": C(f=lambda a: torch.logdet(a), ins=[P3d]),
        "logdet_negative": C(f=lambda a: torch.logdet(a), ins=[T(neg2)]),
        "logdet_batch_mixed": C(f=lambda a: a.logdet(), ins=[T([g2, neg2])]),
        "logdet_singular": C(f=lambda a: torch.logdet(a), ins=[T(sing2)], grad=False),
        # solve
        "solve": C(f=lambda a, b: torch.linalg.solve(a, b), ins=[A3, T(rhs3)], grad2=True),
        "solve_f64": C(f=lambda a, b: torch.linalg.solve(a, b), ins=[A3d, D(rhs3)], grad2=True),
        "solve_vector": C(f=lambda a, b: torch.linalg.solve(a, b), ins=[A3, T(vec3)]),
        "solve_vector_batch": C(f=lambda a, b: torch.linalg.solve(a, b), ins=[Gb, T([vec3, [0.2, 1.0, -0.5]])]),
        "solve_vector_ambiguous": C(f=lambda a, b: torch.linalg.solve(a, b), ins=[T([g2, neg2]), T([[1.0, 2.0], [3.0, 4.0]])]),
        "solve_vector_1d_batch_a": C(f=lambda a, b: torch.linalg.solve(a, b), ins=[Gb, T(vec3)]),
        "solve_batch": C(f=lambda a, b: torch.linalg.solve(a, b), ins=[Gb, T(rhs3b)]),
        "solve_batch_bcast_b": C(f=lambda a, b: torch.linalg.solve(a, b), ins=[Gb, T(rhs3)]),
        "solve_batch_bcast_a": C(f=lambda a, b: torch.linalg.solve(a, b), ins=[A3, T(rhs3b)]),
        "solve_batch_bcast_both_f64": C(f=lambda a, b: torch.linalg.solve(a, b), ins=[D([g3, g3b]).unsqueeze(1), D(rhs3b).unsqueeze(0)]),
        "solve_left_false": C(f=lambda a, b: torch.linalg.solve(a, b, left=False), ins=[A3, T(rows2)], grad2=True),
        "solve_left_false_batch": C(f=lambda a, b: torch.linalg.solve(a, b, left=False), ins=[Gb, T([[1.0, -0.5, 2.0]])]),
        # solve_triangular (only the named triangle of A is read)
        "solve_triangular_upper": C(f=lambda a, b: torch.linalg.solve_triangular(a, b, upper=True), ins=[T(up3), T(rhs3)], grad2=True),
        "solve_triangular_lower_f64": C(f=lambda a, b: torch.linalg.solve_triangular(a, b, upper=False), ins=[D(lo3), D(rhs3)]),
        "solve_triangular_full_upper": C(f=lambda a, b: torch.linalg.solve_triangular(a, b, upper=True), ins=[A3, T(rhs3)]),
        "solve_triangular_full_lower": C(f=lambda a, b: torch.linalg.solve_triangular(a, b, upper=False), ins=[A3, T(rhs3)]),
        "solve_triangular_left_false": C(f=lambda a, b: st(a, b, upper=False, left=False), ins=[T(lo3), T(rows2)]),
        "solve_triangular_unitriangular": C(f=lambda a, b: st(a, b, upper=True, unitriangular=True), ins=[T(unit_up), T(rhs3)]),
        "solve_triangular_unitriangular_lower": C(f=lambda a, b: st(a, b, upper=False, unitriangular=True, left=False), ins=[A3, T(rhs3).mT]),
        "solve_triangular_batch": C(f=lambda a, b: torch.linalg.solve_triangular(a, b, upper=True), ins=[Gb, T(rhs3)]),
        # cholesky
        "cholesky": C(f=lambda a: torch.linalg.cholesky(a), ins=[P3], grad2=True),
        "cholesky_f64": C(f=lambda a: torch.linalg.cholesky(a), ins=[P3d], grad2=True),
        "cholesky_upper": C(f=lambda a: torch.linalg.cholesky(a, upper=True), ins=[P3]),
        "cholesky_2x2": C(f=lambda a: torch.linalg.cholesky(a), ins=[T(p2)]),
        "cholesky_batch": C(f=lambda a: torch.linalg.cholesky(a), ins=[Pb]),
        "cholesky_batch_upper_f64": C(f=lambda a: torch.linalg.cholesky(a, upper=True), ins=[D([p3, p3b])], grad2=True),
        "cholesky_ex": C(f=lambda a: torch.linalg.cholesky_ex(a), ins=[P3]),
        "cholesky_ex_upper": C(f=lambda a: torch.linalg.cholesky_ex(a, upper=True), ins=[Pb]),
        "cholesky_ex_not_pd": C(f=lambda a: torch.linalg.cholesky_ex(a), ins=[T(notpd)], view=lambda r: [r.info], grad=False),
        "cholesky_ex_not_pd_batch": C(f=lambda a: torch.linalg.cholesky_ex(a), ins=[T([p3, notpd, notpd1])],
                                      view=lambda r: [r.info], grad=False),
        "cholesky_solve": C(f=lambda b, l: torch.cholesky_solve(b, l), ins=[T(rhs3), T(lo3)], grad2=True),
        "cholesky_solve_upper": C(f=lambda b, u: torch.cholesky_solve(b, u, upper=True), ins=[T(rhs3), T(up3)]),
        "cholesky_solve_f64": C(f=lambda b, l: torch.cholesky_solve(b, l), ins=[D(rhs3), D(lo3)]),
        "cholesky_solve_batch": C(f=lambda b, l: torch.cholesky_solve(b, l), ins=[T(rhs3b), T(lo3)]),
        "cholesky_solve_method": C(f=lambda b, l: b.cholesky_solve(l, True), ins=[T(rhs3), T(up3)]),
        # qr (Householder: signs are deterministic)
        "qr_square": C(f=lambda a: torch.linalg.qr(a), ins=[A3]),
        "qr_square_f64": C(f=lambda a: torch.linalg.qr(a), ins=[A3d], grad2=True),
        "qr_tall": C(f=lambda a: torch.linalg.qr(a), ins=[T(tall)]),
        "qr_tall_complete": C(f=lambda a: torch.linalg.qr(a, mode="complete"), ins=[T(tall)]),
        "qr_tall_r": C(f=lambda a: torch.linalg.qr(a, mode="r"), ins=[T(tall)]),
        "qr_wide": C(f=lambda a: torch.linalg.qr(a), ins=[T(wide)]),
        "qr_wide_complete": C(f=lambda a: torch.linalg.qr(a, "complete"), ins=[T(wide)]),
        "qr_wide_r": C(f=lambda a: torch.linalg.qr(a, mode="r"), ins=[T(wide)]),
        "qr_square_complete": C(f=lambda a: torch.linalg.qr(a, mode="complete"), ins=[T(g4)]),
        "qr_batch_f64": C(f=lambda a: torch.linalg.qr(a), ins=[D([g3, g3b])]),
        "qr_method": C(f=lambda a: a.qr(), ins=[T(tall)]),
        # eigh (eigenvectors only through V*V and V diag(L) V^T)
        "eigh": C(f=lambda a: torch.linalg.eigh(a), ins=[P3], view=_eigh_view),
        "eigh_f64": C(f=lambda a: torch.linalg.eigh(a), ins=[P3d], view=_eigh_view),
        "eigh_upper": C(f=lambda a: torch.linalg.eigh(a, UPLO="U"), ins=[P3], view=_eigh_view),
        "eigh_nonsym_lower": C(f=lambda a: torch.linalg.eigh(a), ins=[A3], view=_eigh_view),
        "eigh_nonsym_upper": C(f=lambda a: torch.linalg.eigh(a, "U"), ins=[A3], view=_eigh_view),
        "eigh_batch": C(f=lambda a: torch.linalg.eigh(a), ins=[Pb], view=_eigh_view),
        "eigh_2x2_indefinite": C(f=lambda a: torch.linalg.eigh(a), ins=[T([[1.0, 2.0], [2.0, -1.5]])], view=_eigh_view),
        "eigvalsh": C(f=lambda a: torch.linalg.eigvalsh(a), ins=[P3]),
        "eigvalsh_f64": C(f=lambda a: torch.linalg.eigvalsh(a), ins=[P3d]),
        "eigvalsh_nonsym_lower": C(f=lambda a: torch.linalg.eigvalsh(a, UPLO="L"), ins=[A3]),
        "eigvalsh_nonsym_upper": C(f=lambda a: torch.linalg.eigvalsh(a, UPLO="U"), ins=[A3]),
        "eigvalsh_batch": C(f=lambda a: torch.linalg.eigvalsh(a), ins=[Pb]),
        "eigvalsh_uplo_lower_case": C(f=lambda a: torch.linalg.eigvalsh(a, UPLO="u"), ins=[A3]),
        # svd (singular vectors only through squares and U diag(S) Vh)
        "svd": C(f=lambda a: torch.linalg.svd(a, full_matrices=False), ins=[A3], view=_svd_view),
        "svd_f64": C(f=lambda a: torch.linalg.svd(a, full_matrices=False), ins=[A3d], view=_svd_view),
        "svd_tall": C(f=lambda a: torch.linalg.svd(a, full_matrices=False), ins=[T(tall)], view=_svd_view),
        "svd_wide": C(f=lambda a: torch.linalg.svd(a, full_matrices=False), ins=[T(wide)], view=_svd_view),
        "svd_batch": C(f=lambda a: torch.linalg.svd(a, full_matrices=False), ins=[Gb], view=_svd_view),
        "svd_full_default": C(f=lambda a: torch.linalg.svd(a), ins=[T(tall)], view=_svd_view),
        "svd_full_orthogonal_tall": C(f=lambda a: torch.linalg.svd(a), ins=[T(tall)], view=_svd_full_view, grad=False),
        "svd_full_orthogonal_wide": C(f=lambda a: torch.linalg.svd(a, full_matrices=True), ins=[T(wide)], view=_svd_full_view, grad=False),
        "svd_torch": C(f=lambda a: torch.svd(a), ins=[A3], view=_torch_svd_view),
        "svd_torch_tall": C(f=lambda a: torch.svd(a), ins=[T(tall)], view=_torch_svd_view),
        "svd_torch_some_false": C(f=lambda a: torch.svd(a, some=False), ins=[T(wide)], view=_torch_svd_view),
        "svd_method_f64": C(f=lambda a: a.svd(), ins=[D(wide)], view=_torch_svd_view),
        "svdvals": C(f=lambda a: torch.linalg.svdvals(a), ins=[A3]),
        "svdvals_tall": C(f=lambda a: torch.linalg.svdvals(a), ins=[T(tall)]),
        "svdvals_wide_f64": C(f=lambda a: torch.linalg.svdvals(a), ins=[D(wide)]),
        "svdvals_batch": C(f=lambda a: torch.linalg.svdvals(a), ins=[Gb]),
        "svdvals_singular": C(f=lambda a: torch.linalg.svdvals(a), ins=[D(sing3)], grad=False),
        # an infinity (and no NaN): LAPACK ends in NaN values, without an error
        "svdvals_inf": C(f=lambda a: torch.linalg.svdvals(a), ins=[T([[1.0, float("inf")], [2.0, 3.0]])], grad=False),
        "svd_inf_values": C(f=lambda a: torch.linalg.svd(a)[1], ins=[D([[1.0, 2.0, 0.5], [float("-inf"), 3.0, 1.0]])], grad=False),
        # singular-value norms, rank, pseudo-inverse, condition number
        "matrix_norm_2": C(f=lambda a: torch.linalg.matrix_norm(a, 2), ins=[A3]),
        "matrix_norm_m2": C(f=lambda a: torch.linalg.matrix_norm(a, -2), ins=[A3]),
        "matrix_norm_nuc": C(f=lambda a: torch.linalg.matrix_norm(a, "nuc"), ins=[A3]),
        "matrix_norm_2_tall_f64": C(f=lambda a: torch.linalg.matrix_norm(a, ord=2), ins=[D(tall)]),
        "matrix_norm_nuc_batch_keepdim": C(f=lambda a: torch.linalg.matrix_norm(a, "nuc", keepdim=True), ins=[Gb]),
        "matrix_norm_m2_dims": C(f=lambda a: torch.linalg.matrix_norm(a, -2, dim=(0, 2)), ins=[Gb]),
        "norm_2": C(f=lambda a: torch.linalg.norm(a, 2), ins=[A3]),
        "norm_nuc": C(f=lambda a: torch.linalg.norm(a, "nuc"), ins=[T(wide)]),
        "norm_m2_dim": C(f=lambda a: torch.linalg.norm(a, -2, dim=(-2, -1)), ins=[Gb]),
        "matrix_rank": C(f=lambda a: torch.linalg.matrix_rank(a), ins=[A3], grad=False),
        "matrix_rank_singular": C(f=lambda a: torch.linalg.matrix_rank(a), ins=[T(sing3)], grad=False),
        "matrix_rank_singular_f64": C(f=lambda a: torch.linalg.matrix_rank(a), ins=[D(sing2)], grad=False),
        "matrix_rank_tall": C(f=lambda a: torch.linalg.matrix_rank(a), ins=[T(tall)], grad=False),
        "matrix_rank_batch": C(f=lambda a: torch.linalg.matrix_rank(a), ins=[T([g3, sing3])], grad=False),
        "matrix_rank_hermitian": C(f=lambda a: torch.linalg.matrix_rank(a, hermitian=True), ins=[T([[1.0, 2.0], [2.0, 4.0]])], grad=False),
        "matrix_rank_atol": C(f=lambda a: torch.linalg.matrix_rank(a, atol=1.0), ins=[A3], grad=False),
        "matrix_rank_rtol": C(f=lambda a: torch.linalg.matrix_rank(a, rtol=0.5), ins=[A3], grad=False),
        "pinv": C(f=lambda a: torch.linalg.pinv(a), ins=[A3]),
        "pinv_tall": C(f=lambda a: torch.linalg.pinv(a), ins=[T(tall)]),
        "pinv_wide_f64": C(f=lambda a: torch.linalg.pinv(a), ins=[D(wide)]),
        "pinv_batch": C(f=lambda a: torch.linalg.pinv(a), ins=[Gb]),
        "pinv_hermitian": C(f=lambda a: torch.linalg.pinv(a, hermitian=True), ins=[P3]),
        "pinv_singular_f64": C(f=lambda a: torch.linalg.pinv(a), ins=[D(sing3)], grad=False),
        "cond": C(f=lambda a: torch.linalg.cond(a), ins=[A3]),
        "cond_f64": C(f=lambda a: torch.linalg.cond(a), ins=[P3d]),
        "cond_tall": C(f=lambda a: torch.linalg.cond(a), ins=[T(tall)]),
        "cond_batch": C(f=lambda a: torch.linalg.cond(a), ins=[Gb]),
        # matrix_power, multi_dot
        "matrix_power_3": C(f=lambda a: torch.linalg.matrix_power(a, 3), ins=[A3]),
        "matrix_power_2_f64": C(f=lambda a: torch.linalg.matrix_power(a, 2), ins=[A3d]),
        "matrix_power_5_batch": C(f=lambda a: torch.linalg.matrix_power(a, 5), ins=[Gb]),
        "matrix_power_1": C(f=lambda a: torch.linalg.matrix_power(a, 1), ins=[A3]),
        "matrix_power_0": C(f=lambda a: torch.linalg.matrix_power(a, 0), ins=[Gb]),
        "matrix_power_m1": C(f=lambda a: torch.linalg.matrix_power(a, -1), ins=[A3]),
        "matrix_power_m3_f64": C(f=lambda a: torch.linalg.matrix_power(a, -3), ins=[A3d]),
        "matrix_power_method": C(f=lambda a: a.matrix_power(4), ins=[T(g2)]),
        "matrix_power_torch": C(f=lambda a: torch.matrix_power(a, -2), ins=[T(g2)]),
        "multi_dot_2": C(f=lambda a, b: torch.linalg.multi_dot([a, b]), ins=[T(tall), A3]),
        "multi_dot_3": C(f=lambda a, b, c: torch.linalg.multi_dot([a, b, c]), ins=[T(tall), A3, T(rhs3)]),
        "multi_dot_4_f64": C(f=lambda a, b, c, d: torch.linalg.multi_dot((a, b, c, d)), ins=[D(wide), D(tall), A3d, D(rhs3)]),
        "multi_dot_vec_first": C(f=lambda v, a, b: torch.linalg.multi_dot([v, a, b]), ins=[T([0.5, -1.0, 2.0, 0.3]), T(tall), A3]),
        "multi_dot_vec_last": C(f=lambda a, b, v: torch.linalg.multi_dot([a, b, v]), ins=[T(tall), A3, T(vec3)]),
        "multi_dot_vec_both": C(f=lambda v, a, w: torch.linalg.multi_dot([v, a, w]), ins=[T([0.5, -1.0, 2.0, 0.3]), T(tall), T(vec3)]),
        # cdist
        "cdist": C(f=lambda a, b: torch.cdist(a, b), ins=[T(x1), T(x2)]),
        "cdist_f64": C(f=lambda a, b: torch.cdist(a, b), ins=[D(x1), D(x2)]),
        "cdist_p1": C(f=lambda a, b: torch.cdist(a, b, p=1), ins=[T(x1), T(x2)]),
        "cdist_pinf": C(f=lambda a, b: torch.cdist(a, b, p=INF), ins=[T(x1), T(x2)]),
        "cdist_p05": C(f=lambda a, b: torch.cdist(a, b, p=0.5), ins=[T(x1), T(x2)]),
        "cdist_p3": C(f=lambda a, b: torch.cdist(a, b, 3.0), ins=[T(x1), T(x2)]),
        "cdist_p0": C(f=lambda a, b: torch.cdist(a, b, p=0), ins=[T(x1), T(x2)]),
        "cdist_batch": C(f=lambda a, b: torch.cdist(a, b), ins=[T(x1b), T(x2b)]),
        "cdist_batch_p1": C(f=lambda a, b: torch.cdist(a, b, p=1), ins=[T(x1b), T(x2b)]),
        "cdist_batch_bcast": C(f=lambda a, b: torch.cdist(a, b), ins=[T(x1b), T(x2b[0])]),
        "cdist_self_zero": C(f=lambda a, b: torch.cdist(a, b), ins=[T(x1), T([x1[1], x2[0]])]),
        # pdist (PdistBackward0) and the matrix exponential (LinalgMatrixExpBackward0)
        "pdist": C(f=lambda a: torch.pdist(a), ins=[T(x1 + x2)]),
        "pdist_p1": C(f=lambda a: torch.nn.functional.pdist(a, 1), ins=[T(x1 + x2)]),
        "pdist_pinf": C(f=lambda a: torch.pdist(a, INF), ins=[T(x1 + x2)]),
        "pdist_p05": C(f=lambda a: torch.pdist(a, 0.5), ins=[T(x1 + x2)]),
        "pdist_p3_f64": C(f=lambda a: torch.pdist(a, 3), ins=[D(x1 + x2)]),
        "pdist_p0": C(f=lambda a: torch.pdist(a, 0), ins=[T(x1)]),
        "pdist_one_row": C(f=lambda a: torch.pdist(a), ins=[T(x1[:1])]),
        "pdist_repeated_row": C(f=lambda a: torch.pdist(a), ins=[T([x1[0], x1[0], x2[1]])]),
        "pdist_3d": C(f=lambda a: torch.pdist(a), ins=[T(x1b)]),
        "pdist_int": C(f=lambda a: torch.pdist(a), ins=[T([[1, 2], [3, 4]])]),
        "pdist_neg_p": C(f=lambda a: torch.pdist(a, -1), ins=[T(x1)]),
        "matrix_exp": C(f=lambda a: torch.linalg.matrix_exp(a), ins=[T(g3)]),
        "matrix_exp_f64": C(f=lambda a: torch.matrix_exp(a), ins=[D(g4)], grad2=True),
        "matrix_exp_batch": C(f=lambda a: a.matrix_exp(), ins=[T([g3, g3b])]),
        "matrix_exp_large_norm_f64": C(f=lambda a: torch.linalg.matrix_exp(a * 3), ins=[D(g4)]),
        "matrix_exp_zero": C(f=lambda a: torch.linalg.matrix_exp(a * 0), ins=[T(g2)]),
        "matrix_exp_1x1": C(f=lambda a: torch.linalg.matrix_exp(a), ins=[T([[0.7]])]),
        "matrix_exp_rect": C(f=lambda a: torch.linalg.matrix_exp(a), ins=[T(tall)]),
        "matrix_exp_vector": C(f=lambda a: torch.linalg.matrix_exp(a), ins=[T(x1[0])]),
        "matrix_exp_int": C(f=lambda a: torch.linalg.matrix_exp(a), ins=[T([[1, 2], [3, 4]])]),
    }
    out = {}
    for name, c in cases.items():
        ins, view = c["ins"], c.get("view")

        def fresh():
            return [t.detach().clone().requires_grad_(t.is_floating_point()) for t in ins]

        def forward():
            ts = fresh()
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # torch.qr / Tensor.qr warn once per process
                r = c["f"](*ts)
            if view is None:
                rec = _result(r)
            else:
                raw = list(r) if isinstance(r, (tuple, list)) else [r]
                rec = {"raw": [_meta(p) for p in raw], "parts": [_vals(p) for p in view(r)]}
                if isinstance(r, tuple):
                    rec["tuple"] = _tuple_type(r)
            return rec
        out[name] = _caught(forward)
        if not c.get("grad", True):
            continue

        def parts_and_inputs():
            ts = fresh()
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                r = c["f"](*ts)
            if view is not None:
                parts = view(r)
            else:
                parts = list(r) if isinstance(r, (tuple, list)) else [r]
            return ts, parts

        def loss_of(parts, k0):
            return sum((p * W(p, k0 + k)).sum() for k, p in enumerate(parts) if p.requires_grad)

        def grad():
            ts, parts = parts_and_inputs()
            gs = torch.autograd.grad(loss_of(parts, 0), ts, allow_unused=True,
                                     create_graph=c.get("create_graph", False))
            return [None if g is None else _v(g) for g in gs]
        out[name + "_grad"] = _caught(grad)
        if not c.get("grad2"):
            continue

        def grad2():
            ts, parts = parts_and_inputs()
            gs = torch.autograd.grad(loss_of(parts, 0), ts, create_graph=True)
            gs2 = torch.autograd.grad(loss_of(list(gs), 20), ts, allow_unused=True)
            return {"fn": [_fn(g) for g in gs], "grad": [None if g is None else _v(g) for g in gs2]}
        out[name + "_grad2"] = _caught(grad2)

    A = T(g3)
    ints = T([[2, 1], [1, 3]])
    errors = {
        "inv_non_square": lambda: torch.linalg.inv(T(tall)),
        "inv_1d": lambda: torch.linalg.inv(T(vec3)),
        "inv_int": lambda: torch.linalg.inv(ints),
        "inv_singular": lambda: torch.linalg.inv(T(sing2)),
        "inv_singular_3x3_f64": lambda: torch.linalg.inv(D(sing3)),
        "inv_singular_batch": lambda: torch.linalg.inv(T([g2, sing2])),
        "inverse_singular": lambda: torch.inverse(T(sing2)),
        "inv_ex_non_square": lambda: torch.linalg.inv_ex(T(wide)),
        "inv_ex_check_errors": lambda: torch.linalg.inv_ex(T(sing2), check_errors=True),
        "det_non_square": lambda: torch.linalg.det(T(tall)),
        "det_1d": lambda: torch.linalg.det(T(vec3)),
        "det_int": lambda: torch.linalg.det(ints),
        "det_torch_non_square": lambda: torch.det(T(wide)),
        "slogdet_non_square": lambda: torch.linalg.slogdet(T(wide)),
        "slogdet_int": lambda: torch.linalg.slogdet(ints),
        "logdet_int": lambda: torch.logdet(ints),
        "logdet_1d": lambda: torch.logdet(T(vec3)),
        "solve_non_square": lambda: torch.linalg.solve(T(tall), T(tall)),
        "solve_singular": lambda: torch.linalg.solve(T(sing2), T([[1.0], [2.0]])),
        "solve_singular_batch": lambda: torch.linalg.solve(T([g2, sing2]), T([1.0, 2.0])),
        "solve_batch_mismatch": lambda: torch.linalg.solve(Gb, T([rhs3, rhs3, rhs3])),
        "solve_rhs_rows": lambda: torch.linalg.solve(A, T([[1.0, 2.0], [3.0, 4.0]])),
        "solve_rhs_vector_length": lambda: torch.linalg.solve(A, T([1.0, 2.0])),
        "solve_left_false_cols": lambda: torch.linalg.solve(A, T(rhs3), left=False),
        "solve_int": lambda: torch.linalg.solve(ints, ints),
        "solve_dtype_mismatch": lambda: torch.linalg.solve(A, D(rhs3)),
        "solve_1d": lambda: torch.linalg.solve(T(vec3), T(vec3)),
        "solve_triangular_1d_b": lambda: torch.linalg.solve_triangular(A, T(vec3), upper=True),
        "solve_triangular_non_square": lambda: torch.linalg.solve_triangular(T(tall), T(rhs3), upper=True),
        "solve_triangular_rows": lambda: torch.linalg.solve_triangular(A, T([[1.0, 2.0]]), upper=True),
        "solve_triangular_no_upper": lambda: torch.linalg.solve_triangular(A, T(rhs3)),
        "cholesky_not_pd": lambda: torch.linalg.cholesky(T(notpd)),
        "cholesky_not_pd_first": lambda: torch.linalg.cholesky(T([[-1.0, 0.0], [0.0, 1.0]])),
        "cholesky_not_pd_batch": lambda: torch.linalg.cholesky(T([p3, p3b, notpd])),
        "cholesky_non_square": lambda: torch.linalg.cholesky(T(wide)),
        "cholesky_1d": lambda: torch.linalg.cholesky(T(vec3)),
        "cholesky_int": lambda: torch.linalg.cholesky(ints),
        "cholesky_ex_check_errors": lambda: torch.linalg.cholesky_ex(T(notpd), check_errors=True),
        "cholesky_solve_shape": lambda: torch.cholesky_solve(T([[1.0, 2.0]]), T(lo3)),
        "cholesky_solve_1d": lambda: torch.cholesky_solve(T(vec3), T(lo3)),
        "qr_mode": lambda: torch.linalg.qr(A, mode="full"),
        "qr_1d": lambda: torch.linalg.qr(T(vec3)),
        "qr_int": lambda: torch.linalg.qr(ints),
        "eigh_uplo": lambda: torch.linalg.eigh(T(p3), UPLO="X"),
        "eigvalsh_uplo": lambda: torch.linalg.eigvalsh(T(p3), UPLO="upper"),
        "eigh_non_square": lambda: torch.linalg.eigh(T(tall)),
        "svd_1d": lambda: torch.linalg.svd(T(vec3)),
        "svd_int": lambda: torch.linalg.svd(ints),
        "svdvals_1d": lambda: torch.linalg.svdvals(T(vec3)),
        # NaN anywhere: LinAlgError from svd's name, whichever function called it
        "svd_nan": lambda: torch.linalg.svd(T([[1.0, float("nan")], [2.0, 3.0]])),
        "svd_nan_wide_f64": lambda: torch.linalg.svd(D([[1.0, 2.0, 0.5], [0.0, float("nan"), 1.0]]), full_matrices=False),
        "svdvals_nan_batch": lambda: torch.linalg.svdvals(T([g3, [[1.0, 0.0, 0.0], [0.0, float("nan"), 0.0], [0.0, 0.0, 1.0]]])),
        "torch_svd_nan": lambda: torch.svd(T([[float("nan"), 1.0], [2.0, 3.0], [0.0, 1.0]])),
        "matrix_norm_nuc_nan": lambda: torch.linalg.matrix_norm(T([[1.0, float("nan")], [2.0, 3.0]]), "nuc"),
        "matrix_norm_2_nan_batch": lambda: torch.linalg.matrix_norm(T([g2, [[1.0, float("nan")], [2.0, 3.0]]]), 2),
        "pinv_nan": lambda: torch.linalg.pinv(T([[1.0, float("nan")], [2.0, 3.0]])),
        "matrix_rank_nan": lambda: torch.linalg.matrix_rank(T([[1.0, float("nan")], [2.0, 3.0]])),
        "cond_nan": lambda: torch.linalg.cond(T([[1.0, float("nan")], [2.0, 3.0]])),
        "matrix_norm_2_1d": lambda: torch.linalg.matrix_norm(T(vec3), 2),
        "matrix_rank_1d": lambda: torch.linalg.matrix_rank(T(vec3)),
        "matrix_rank_int": lambda: torch.linalg.matrix_rank(ints),
        "pinv_1d": lambda: torch.linalg.pinv(T(vec3)),
        "cond_1d": lambda: torch.linalg.cond(T(vec3)),
        "matrix_power_non_square": lambda: torch.linalg.matrix_power(T(tall), 2),
        "matrix_power_1d": lambda: torch.linalg.matrix_power(T(vec3), 2),
        "matrix_power_int_negative": lambda: torch.linalg.matrix_power(ints, -1),
        "matrix_power_singular_negative": lambda: torch.linalg.matrix_power(T(sing2), -1),
        "multi_dot_one": lambda: torch.linalg.multi_dot([A]),
        "multi_dot_shapes": lambda: torch.linalg.multi_dot([A, T(wide)]),
        "multi_dot_3d": lambda: torch.linalg.multi_dot([A, Gb]),
        "cdist_last_dim": lambda: torch.cdist(T(x1), T(x2b[0])),
        "cdist_1d": lambda: torch.cdist(T(vec3), T(vec3)),
        "cdist_negative_p": lambda: torch.cdist(T(x1), T(x2), p=-1),
        "cdist_int": lambda: torch.cdist(ints, ints),
        "cdist_batch_mismatch": lambda: torch.cdist(T(x1b), T([x2b[0], x2b[1], x2b[0]])),
    }
    for name, f in errors.items():
        out["err_" + name] = _caught(lambda: _result(f()))

    # named tuples: the type, its fields and its repr
    out["repr_slogdet"] = repr(torch.linalg.slogdet(T([[1.0, 2.0], [3.0, 4.0]])))
    out["repr_slogdet_torch"] = repr(torch.slogdet(T([[2.0, 0.0], [0.0, 4.0]], dtype=torch.float64)))
    out["repr_inv_ex"] = repr(torch.linalg.inv_ex(T([[2.0, 0.0], [0.0, 4.0]])))
    out["repr_cholesky_ex"] = repr(torch.linalg.cholesky_ex(T([[4.0, 0.0], [0.0, 9.0]])))
    out["repr_qr"] = repr(torch.linalg.qr(T([[3.0, 4.0], [4.0, -3.0]])))
    out["tuple_types"] = {
        "inv_ex": _tuple_type(torch.linalg.inv_ex(A)),
        "slogdet": _tuple_type(torch.linalg.slogdet(A)),
        "slogdet_torch": _tuple_type(torch.slogdet(A)),
        "cholesky_ex": _tuple_type(torch.linalg.cholesky_ex(T(p3))),
        "qr": _tuple_type(torch.linalg.qr(A)),
        "qr_method": _tuple_type(_quiet(lambda: A.qr())),
        "eigh": _tuple_type(torch.linalg.eigh(T(p3))),
        "svd": _tuple_type(torch.linalg.svd(A)),
        "svd_torch": _tuple_type(torch.svd(A)),
        "svd_method": _tuple_type(A.svd()),
    }
    s = torch.linalg.slogdet(A)
    out["slogdet_attrs"] = [_v(s.sign), _v(s.logabsdet), _v(s[0]), _v(s[1]), len(s)]
    q = torch.linalg.qr(T(tall), mode="r")
    out["qr_r_mode_q"] = _meta(q.Q)
    return out
