"""torch.* ops that real programs reach for early: tril/triu, roll, scatter/scatter_add/
index_add (and their in-place forms), asinh/acosh/atanh/lgamma/digamma, einsum, movedim,
unflatten, the *stack family, meshgrid, tensor_split, repeat_interleave, masked_select,
nan_to_num, unique, finfo/iinfo. Run with ``torch`` bound to PyTorch
(tools/record_extra_ops_goldens.py records fixtures/extra_ops.json) or to ferrograd
(test_extra_ops.py compares): values, shapes, grad_fn names, gradients, errors."""

import warnings

NAN = float("nan")
INF = float("inf")


def _v(t):
    return [v if v == v else "nan" for v in t.detach().double().flatten().tolist()]


def _one(r):
    return {"value": _v(r), "shape": list(r.shape), "dtype": str(r.dtype).replace("torch.", ""),
            "fn": type(r.grad_fn).__name__ if r.grad_fn is not None else None}


def _result(r):
    if isinstance(r, (tuple, list)):
        return {"parts": [_one(e) for e in r]}
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


def _diag_write(a):
    b = a * 1
    b.diagonal().mul_(2)
    return b


def run(torch, device="cpu"):
    def T(data, **kw):
        return torch.tensor(data, device=device, **kw)

    x = T([[1., -2, 3, 0.5], [4, 5, -6, 2], [7, 8, 9, -1]])
    v = T([0.3, -0.7, 0.1, 0.9])
    idx = T([[0, 1, 2, 0], [2, 0, 1, 1]])
    row_idx = T([2, 0, 2])
    pos = T([0.5, 1.5, 3.0, 10.0, 0.1])
    unit = T([0.5, -0.25, 0.9, 0.0])
    cases = {
        # (function of its float inputs, inputs)
        "tril": (lambda a: a.tril(), [x]), "tril_k1": (lambda a: torch.tril(a, 1), [x]),
        "triu_km1": (lambda a: a.triu(-1), [x]), "triu_batch": (lambda a: torch.triu(a.reshape(3, 2, 2)), [x]),
        "roll_dim": (lambda a: a.roll(1, 0), [x]), "roll_dims": (lambda a: torch.roll(a, (1, -1), (0, 1)), [x]),
        "roll_flat": (lambda a: a.roll(5), [x]), "roll_neg": (lambda a: a.roll(-7, 1), [x]),
        "scatter_add": (lambda a, s: a.scatter_add(1, idx[:, :3], s[:2, :3]), [x, x]),
        "scatter_add0": (lambda a, s: torch.scatter_add(a, 0, idx, s[:2]), [x, x]),
        "scatter_src": (lambda a, s: a.scatter(1, T([[0, 1], [2, 3], [1, 0]]), s[:, :2]), [x, x]),
        "scatter_value": (lambda a: a.scatter(0, T([[2, 0, 1, 1]]), 7.5), [x]),
        "scatter_reduce_add": (lambda a, s: a.scatter(1, idx[:, :3], s[:2, :3], reduce="add"), [x, x]),
        "index_add": (lambda a, s: a.index_add(0, row_idx, s), [x, x]),
        "index_add_alpha": (lambda a, s: torch.index_add(a, 1, T([3, 3]), s[:, :2], alpha=-2), [x, x]),
        "scatter_add_inplace": (lambda a, s: (a * 1).scatter_add_(1, idx[:, :3], s[:2, :3]), [x, x]),
        "index_add_inplace": (lambda a, s: (a * 1).index_add_(0, row_idx, s), [x, x]),
        "tril_inplace": (lambda a: (a * 1).tril_(), [x]),
        "asinh": (lambda a: torch.asinh(a), [x]), "acosh": (lambda a: a.acosh(), [pos + 1]),
        "atanh": (lambda a: torch.atanh(a), [unit]), "arctanh": (lambda a: torch.arctanh(a), [unit]),
        "lgamma": (lambda a: torch.lgamma(a), [pos]), "lgamma_neg": (lambda a: a.lgamma(), [-pos.double()]),
        # float64: the float32 gradient at 0.1 (ψ·ψ' ≈ 560) differs in the 5th digit between
        # PyTorch's float arithmetic and ours in double
        "digamma": (lambda a: torch.digamma(a), [pos.double()]), "digamma_neg": (lambda a: a.digamma(), [-pos.double()]),
        "erfinv": (lambda a: torch.erfinv(a), [unit]), "erfinv_f64": (lambda a: a.erfinv(), [T([0.3, -0.999, 0.75, 0.0], dtype=torch.float64)]),
        "erfinv_special": (lambda a: torch.special.erfinv(a), [unit]),
        "logit": (lambda a: torch.logit(a), [T([0.1, 0.5, 0.9, 0.3])]), "logit_eps": (lambda a: a.logit(eps=0.2), [T([0.1, 0.5, 0.9, 0.3])]),
        "logit_special": (lambda a: torch.special.logit(a, 1e-3), [T([0.0, 0.5, 1.0, 0.3])]),
        "xlogy": (lambda a, b: torch.xlogy(a, b), [T([0.0, 2.0, -1.5, 3.0]), T([0.0, 0.5, 2.0, 4.0])]),
        "xlogy_bcast": (lambda a, b: a.xlogy(b), [x, pos[:4]]),
        "xlogy_scalar_other": (lambda a: torch.xlogy(a, 3.0), [v]),
        "xlogy_scalar_self": (lambda b: torch.xlogy(2, b), [pos]),
        "xlogy_special": (lambda a, b: torch.special.xlogy(a, b), [v.abs(), pos[:4]]),
        "expit_special": (lambda a: torch.special.expit(a), [v]),
        "exp2": (lambda a: torch.exp2(a), [x]), "exp2_special": (lambda a: torch.special.exp2(a), [v]),
        "kron": (lambda a, b: torch.kron(a, b), [x[:2, :3], x[1:, 1:3]]),
        "kron_1d_2d": (lambda a, b: a.kron(b), [v[:2], x[:2, :2]]),
        "kron_transposed": (lambda a, b: torch.kron(a.t(), b), [x[:, :2], v[:3]]),
        "kron_3d": (lambda a, b: torch.kron(a, b), [x.reshape(3, 2, 2), x[:2, :2]]),
        "cross_dim": (lambda a, b: torch.cross(a, b, dim=1), [x[:, :3], x[:, 1:]]),
        "cross_method_dim0": (lambda a, b: a.cross(b, dim=0), [x[:, :2], x[:, 2:]]),
        "linalg_cross": (lambda a, b: torch.linalg.cross(a, b), [x[:, :3], x[:, 1:]]),
        "linalg_cross_bcast": (lambda a, b: torch.linalg.cross(a, b), [x[:1, :3], x[:, 1:]]),
        "linalg_cross_dim": (lambda a, b: torch.linalg.cross(a, b, dim=-2), [x[:, :2], x[:, 1:3]]),
        "linalg_cross_batch": (lambda a, b: torch.linalg.cross(a.reshape(2, 2, 3), b.reshape(1, 2, 3)), [x, v[:3].repeat(2)]),
        "vector_norm": (lambda a: torch.linalg.vector_norm(a), [x]),
        "vector_norm_ord3_dim": (lambda a: torch.linalg.vector_norm(a, ord=3, dim=1), [x]),
        "vector_norm_inf_keepdim": (lambda a: torch.linalg.vector_norm(a, float("inf"), dim=(0, 1), keepdim=True), [x]),
        "vector_norm_neginf": (lambda a: torch.linalg.vector_norm(a, -INF, dim=0), [x]),
        "vector_norm_ord1": (lambda a: torch.linalg.vector_norm(a, 1, -1), [x]),
        "vector_norm_ord0": (lambda a: torch.linalg.vector_norm(a, 0), [x]),
        "vector_norm_dtype": (lambda a: torch.linalg.vector_norm(a, 2.5, dtype=torch.float64), [x]),
        "linalg_norm": (lambda a: torch.linalg.norm(a), [x]), "linalg_norm_vec_ord1": (lambda a: torch.linalg.norm(a, 1), [v]),
        "linalg_norm_fro": (lambda a: torch.linalg.norm(a, "fro"), [x]), "linalg_norm_ord1": (lambda a: torch.linalg.norm(a, 1), [x]),
        "linalg_norm_inf": (lambda a: torch.linalg.norm(a, float("inf")), [x]), "linalg_norm_dim": (lambda a: torch.linalg.norm(a, dim=1), [x]),
        "linalg_norm_dims": (lambda a: torch.linalg.norm(a, dim=(0, 1), keepdim=True), [x]),
        "linalg_norm_ord1_dim": (lambda a: torch.linalg.norm(a, 1, dim=1), [x]),
        "matrix_norm": (lambda a: torch.linalg.matrix_norm(a), [x]), "matrix_norm_1": (lambda a: torch.linalg.matrix_norm(a, 1), [x]),
        "matrix_norm_m1": (lambda a: torch.linalg.matrix_norm(a, -1), [x]),
        "matrix_norm_minf_keepdim": (lambda a: torch.linalg.matrix_norm(a, -INF, keepdim=True), [x]),
        "matrix_norm_batch_dims": (lambda a: torch.linalg.matrix_norm(a.reshape(3, 2, 2), INF, dim=(0, 2)), [x]),
        "gammaln_special": (lambda a: torch.special.gammaln(a), [pos]),
        "einsum_mm": (lambda a, b: torch.einsum("ij,jk->ik", a, b), [x, x.t()]),
        "einsum_implicit": (lambda a, b: torch.einsum("ij,jk", a, b), [x, x.t()]),
        "einsum_bmm": (lambda a, b: torch.einsum("bij,bjk->bik", a, b), [x.reshape(3, 2, 2), x.reshape(3, 2, 2)]),
        "einsum_dot_rows": (lambda a, b: torch.einsum("ij,ij->i", a, b), [x, x]),
        "einsum_outer": (lambda a, b: torch.einsum("i,j->ij", a, b), [v, v]),
        "einsum_transpose": (lambda a: torch.einsum("ij->ji", a), [x]),
        "einsum_sum": (lambda a: torch.einsum("ij->", a), [x]),
        "einsum_trace": (lambda a: torch.einsum("ii", a), [x[:, :3]]),
        "einsum_diag": (lambda a: torch.einsum("ii->i", a), [x[:, :3]]),
        "einsum_ellipsis": (lambda a, b: torch.einsum("...j,jk->...k", a, b), [x.reshape(3, 1, 4), x.t()]),
        "einsum_three": (lambda a, b, c: torch.einsum("ij,jk,k->i", a, b, c), [x, x.t(), v[:3]]),
        "einsum_list": (lambda a, b: torch.einsum("ij,j->i", [a, b]), [x, v]),
        "einsum_attention": (lambda q, k: torch.einsum("bhqd,bhkd->bhqk", q, k), [x.reshape(1, 2, 3, 2), x.reshape(1, 2, 3, 2)]),
        "diagonal": (lambda a: a.diagonal(), [x]), "diagonal_off": (lambda a: torch.diagonal(a, 1), [x]),
        "diagonal_neg": (lambda a: a.diagonal(-1), [x]), "diagonal_dims": (lambda a: torch.diagonal(a.reshape(3, 2, 2), 0, 1, 2), [x]),
        "diagonal_past": (lambda a: a.diagonal(5), [x]), "diagonal_inplace": (lambda a: _diag_write(a), [x]),
        "diag_vec": (lambda a: torch.diag(a), [v]), "diag_vec_off": (lambda a: torch.diag(a, -2), [v]),
        "diag_mat": (lambda a: torch.diag(a, 1), [x]), "diag_embed": (lambda a: torch.diag_embed(a, 1), [x]),
        "diag_embed_dims": (lambda a: a.diag_embed(0, 0, 2), [x]), "trace": (lambda a: torch.trace(a), [x]),
        "tensordot": (lambda a, b: torch.tensordot(a, b, dims=1), [x, x.t()]),
        "tensordot_pairs": (lambda a, b: torch.tensordot(a.reshape(3, 2, 2), b.reshape(2, 2, 3), dims=([1, 2], [0, 1])), [x, x]),
        "tensordot_zero": (lambda a, b: torch.tensordot(a, b, 0), [v[:2], v]),
        "take_along_dim": (lambda a: torch.take_along_dim(a, T([[0], [3], [1]]), 1), [x]),
        "take_along_dim_bcast": (lambda a: torch.take_along_dim(a, T([[2, 0, 1, 1]]), 0), [x]),
        "take_along_dim_flat": (lambda a: torch.take_along_dim(a, T([0, 11, 5])), [x]),
        "take_along_dim_method": (lambda a: a.take_along_dim(T([[0], [3], [1]]), dim=1), [x]),
        "cartesian_prod": (lambda a, b: torch.cartesian_prod(a, b), [v[:2], v[:3]]),
        "movedim": (lambda a: torch.movedim(a.reshape(3, 2, 2), 0, -1), [x]),
        "moveaxis": (lambda a: a.reshape(3, 2, 2).moveaxis((0, 1), (2, 0)), [x]),
        "unflatten": (lambda a: a.unflatten(1, (2, -1)), [x]),
        "hstack": (lambda a, b: torch.hstack([a, b]), [x, x]), "hstack_1d": (lambda a, b: torch.hstack((a, b)), [v, v]),
        "vstack": (lambda a, b: torch.vstack([a, b]), [v, v]), "dstack": (lambda a, b: torch.dstack([a, b]), [x, x]),
        "column_stack": (lambda a, b: torch.column_stack([a, b]), [v, v]),
        "meshgrid_ij": (lambda a, b: torch.meshgrid(a, b, indexing="ij"), [v[:3], v]),
        "meshgrid_xy": (lambda a, b: torch.meshgrid([a, b], indexing="xy"), [v[:3], v]),
        "tensor_split_n": (lambda a: torch.tensor_split(a, 3, dim=1), [x]),
        "tensor_split_idx": (lambda a: a.tensor_split([1, 3], 1), [x]),
        "repeat_interleave": (lambda a: a.repeat_interleave(2, 0), [x]),
        "repeat_interleave_flat": (lambda a: torch.repeat_interleave(a, 2), [v]),
        "repeat_interleave_counts": (lambda a: a.repeat_interleave(T([1, 0, 2]), dim=0), [x]),
        "masked_select": (lambda a: torch.masked_select(a, a > 1), [x]),
        "masked_select_bcast": (lambda a: a.masked_select(T([True, False, True, False])), [x]),
        "nan_to_num": (lambda a: torch.nan_to_num(a * T([[NAN, 1, INF, -INF]])), [x]),
        "nan_to_num_args": (lambda a: (a * T([[NAN, 1, INF, -INF]])).nan_to_num(nan=2.0, posinf=9.0, neginf=-9.0), [x]),
    }
    out = {}
    for name, (f, ins) in cases.items():
        out[name] = _caught(lambda: _result(f(*ins)))

        def grad():
            ts = [t.detach().clone().requires_grad_() for t in ins]
            r = f(*ts)
            parts = r if isinstance(r, (tuple, list)) else (r,)
            loss = sum((p * p).sin().sum() for p in parts if p.is_floating_point())
            gs = torch.autograd.grad(loss, ts, allow_unused=True)
            return [None if g is None else _v(g) for g in gs]
        out[name + "_grad"] = _caught(grad)
    ints = {
        "unique": lambda: torch.unique(T([3, 1, 3, 2, 1, 1])),
        "unique_all": lambda: torch.unique(T([3, 1, 3, 2, 1, 1]), return_inverse=True, return_counts=True),
        "unique_dim": lambda: torch.unique(T([[1, 2], [0, 1], [1, 2]]), dim=0, return_inverse=True),
        "unique_float": lambda: T([2.5, -1.0, 2.5]).unique(),
        "repeat_interleave_index": lambda: torch.repeat_interleave(T([2, 0, 3])),
        "scatter_int": lambda: T([[0, 0], [0, 0]]).scatter_add(0, T([[1, 0]]), T([[5, 6]])),
        "roll_int": lambda: T([1, 2, 3]).roll(1),
        "tril_int": lambda: torch.tril(T([[1, 2], [3, 4]])),
        "trace_int": lambda: torch.trace(T([[1, 2], [3, 4]])),
        "searchsorted": lambda: torch.searchsorted(T([1., 3, 5, 7]), T([0., 3, 6, 9])),
        "searchsorted_right": lambda: torch.searchsorted(T([1., 3, 5, 7]), T([0., 3, 6, 9]), right=True),
        "searchsorted_side_rows": lambda: torch.searchsorted(T([[1., 3, 5], [2, 4, 6]]), T([[3., 0], [4, 7]]), side="right"),
        "searchsorted_int32": lambda: torch.searchsorted(T([1, 3, 5]), T([2, 5]), out_int32=True),
        "bucketize": lambda: torch.bucketize(T([0., 3, 6]), T([1., 3, 5])),
        "bucketize_right": lambda: torch.bucketize(T([0., 3, 6]), T([1., 3, 5]), right=True),
        "bincount": lambda: torch.bincount(T([0, 2, 2, 5])),
        "bincount_min": lambda: torch.bincount(T([1, 1]), minlength=4),
        "bincount_weights": lambda: torch.bincount(T([0, 2, 2]), weights=T([0.5, 1.0, 2.0])),
        "histc": lambda: torch.histc(T([1., 2, 1, 2.5, 9]), bins=4, min=0, max=3),
        "histc_auto": lambda: torch.histc(T([1., 2, 1, 4]), bins=3),
        "bincount_method": lambda: T([0, 2, 2]).bincount(weights=T([0.5, 1.0, 2.0]), minlength=5),
        "histc_method": lambda: T([1., 2, 1, 2.5, 9]).histc(bins=4, min=0, max=3),
        "erfinv_edges": lambda: torch.erfinv(T([1.0, -1.0, 1.5, NAN, 0.999999])),
        "erfinv_int": lambda: torch.erfinv(T([0, 1])),
        "logit_int": lambda: torch.logit(T([0, 1])),
        "xlogy_nan": lambda: torch.xlogy(T([0.0, 0.0, 1.0]), T([NAN, 0.0, 0.0])),
        "xlogy_int": lambda: torch.xlogy(T([0, 2, 3]), T([5, 4, 0])),
        "kron_int": lambda: torch.kron(T([[1, 2], [3, 4]]), T([[0, 1], [1, 0]])),
        "exp2_int": lambda: torch.exp2(T([0, 3, -1])),
        "cross_int": lambda: torch.linalg.cross(T([[1, 2, 3], [0, -1, 2]]), T([[4, 5, 6]])),
    }
    for name, f in ints.items():
        out[name] = _caught(lambda: _result(f()))
    errors = {
        "tril_1d": lambda: v.tril(), "roll_mismatch": lambda: x.roll((1, 2), 0),
        "scatter_dtype": lambda: x.scatter_add(0, idx, T([[1, 2, 3, 4]])),
        "scatter_oob": lambda: x.scatter_add(0, T([[5, 0, 0, 0]]), x),
        "scatter_index_dtype": lambda: x.scatter(0, T([[0.0, 1, 0, 0]]), x),
        "scatter_big_index": lambda: x.scatter_add(1, T([[0, 1, 2, 3, 0]]), x),
        "index_add_count": lambda: x.index_add(0, T([0, 1]), x),
        "einsum_operands": lambda: torch.einsum("ij,jk->ik", x),
        "diagonal_same": lambda: x.diagonal(0, 1, 1), "trace_1d": lambda: torch.trace(v),
        "diag_3d": lambda: torch.diag(x.reshape(3, 2, 2)),
        "bincount_neg": lambda: torch.bincount(T([1, -1])), "bincount_float": lambda: torch.bincount(v),
        "tensordot_mismatch": lambda: torch.tensordot(x, x, dims=([0], [1])), "diagonal_dim": lambda: x.diagonal(0, 0, 2),
        "einsum_dims": lambda: torch.einsum("ijk->i", x),
        "movedim_repeat": lambda: torch.movedim(x, (0, 0), (1, 0)),
        "finfo_int": lambda: torch.finfo(torch.int32), "iinfo_float": lambda: torch.iinfo(torch.float32),
        "cross_length": lambda: torch.linalg.cross(x, x), "cross_ndim": lambda: torch.linalg.cross(v[:3], x[:, :3]),
        "cross_no_size3": lambda: _quiet(lambda: torch.cross(x[:2, :2], x[:2, :2])),
        "cross_dim_length": lambda: torch.cross(x[:, :2], x[:, :2], dim=1),
        "cross_dtype": lambda: torch.linalg.cross(x[:, :3], x[:, :3].double()),
        "cross_bool": lambda: torch.linalg.cross(x[:, :3] > 0, x[:, :3] > 1),
        "cross_dim_range": lambda: torch.linalg.cross(x[:, :3], x[:, :3], dim=2),
        "cross_bcast": lambda: torch.linalg.cross(x[:2, :3], x[:, :3]),
        "vector_norm_int": lambda: torch.linalg.vector_norm(T([1, 2])),
        "vector_norm_str": lambda: torch.linalg.vector_norm(x, "fro"),
        "norm_3d_ord": lambda: torch.linalg.norm(x.reshape(3, 2, 2), 1), "norm_3d_fro": lambda: torch.linalg.norm(x.reshape(3, 2, 2), "fro"),
        "norm_dim3": lambda: torch.linalg.norm(x, dim=(0, 1, 1)), "matrix_norm_1d": lambda: torch.linalg.matrix_norm(v),
        "matrix_norm_dim1": lambda: torch.linalg.norm(x, "fro", dim=0), "matrix_norm_dim3": lambda: torch.linalg.matrix_norm(x, dim=(0, 1, 1)),
        "matrix_norm_same": lambda: torch.linalg.matrix_norm(x, dim=(1, -1)), "matrix_norm_ord3": lambda: torch.linalg.matrix_norm(x, 3),
        "matrix_norm_ord_str": lambda: torch.linalg.matrix_norm(x, "abc"), "matrix_norm_int": lambda: torch.linalg.matrix_norm(T([[1, 2]]), 1),
        "matrix_norm_dim_range": lambda: torch.linalg.matrix_norm(x, dim=(0, 3)),
    }
    for name, f in errors.items():
        out[name] = _caught(lambda: _result(f()))
    for dt in ("float16", "bfloat16", "float32", "float64"):
        fi = torch.finfo(getattr(torch, dt))
        out["finfo_" + dt] = [repr(fi), fi.bits, fi.eps, fi.max, fi.min, fi.tiny, fi.resolution]
    for dt in ("uint8", "int8", "int16", "int32", "int64"):
        ii = torch.iinfo(getattr(torch, dt))
        out["iinfo_" + dt] = [repr(ii), ii.bits, ii.min, ii.max]
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        torch.meshgrid(v, v)
        out["meshgrid_warns"] = [str(m.message).split(" (Triggered internally")[0] for m in w]
    out["bfloat16_method"] = str(x.bfloat16().dtype).replace("torch.", "")
    return out
