"""Scenarios for lerp, addcmul, addcdiv, cumprod, addmm, addmv and baddbmm, run with a
torch-like module.

tools/record_pointwise_extra_goldens.py runs every scenario with PyTorch and stores the results
in fixtures/pointwise_extra.json; tests/python/test_pointwise_extra.py runs them with ferrograd
and compares. A scenario is ``(name, fn)``: ``fn(torch)`` returns plain JSON data (values as
nested lists, dtypes and grad_fn names as strings, errors as ``[type name, message]``).
"""

X = [[0.5, -1.2, 2.0, 0.3], [1.5, -0.7, 0.9, -2.1], [0.2, 1.1, -0.4, 0.8]]
Y = [[1.0, 0.4, -0.6, 2.2], [-0.3, 1.7, 0.25, 0.6], [0.9, -1.4, 1.3, -0.5]]
Z = [[0.7, 1.3, -0.9, 1.6], [1.1, -0.8, 1.9, 0.45], [-1.2, 0.6, 0.35, 1.4]]
ROW = [0.2, -0.9, 1.4, 0.6]
COL = [[0.1], [0.8], [-0.35]]


def _t(torch, data, dtype="float64", rg=False):
    return torch.tensor(data, dtype=getattr(torch, dtype), requires_grad=rg)


def _err(f):
    try:
        f()
    except Exception as e:  # noqa: BLE001 - the type and message are the result
        return [type(e).__name__, str(e)]
    return None


def _name(t):
    return None if t.grad_fn is None else t.grad_fn.name()


def _grads(torch, out, inputs, weight=None):
    """First and second derivatives of ``sum(out**2 * weight)`` (a non-linear loss, so the
    double backward goes through the backward formula's own graph)."""
    loss = (out * out).sum() if weight is None else (out * out * weight).sum()
    gs = torch.autograd.grad(loss, inputs, create_graph=True)
    first = [g.tolist() for g in gs]
    total = sum((g * g).sum() for g in gs)
    second = torch.autograd.grad(total, inputs, allow_unused=True)
    return {"first": first, "second": [None if g is None else g.tolist() for g in second]}


def _full(torch, out, inputs):
    return {"value": out.tolist(), "dtype": str(out.dtype), "grad_fn": _name(out), "grads": _grads(torch, out, inputs)}


# ---- lerp ----------------------------------------------------------------------------------

def lerp_scalar(torch):
    res = {}
    for w in (0.3, 0.7, 0.0, 1.0, -0.25):
        x, y = _t(torch, X, rg=True), _t(torch, Y, rg=True)
        res[str(w)] = _full(torch, torch.lerp(x, y, w), [x, y])
    x, y = _t(torch, X, rg=True), _t(torch, ROW, rg=True)
    res["broadcast"] = _full(torch, x.lerp(y, 0.6), [x, y])
    return res


def lerp_tensor(torch):
    x, y, w = _t(torch, X, rg=True), _t(torch, ROW, rg=True), _t(torch, COL, rg=True)
    res = {"broadcast": _full(torch, torch.lerp(x, y, w), [x, y, w])}
    x, y, w = _t(torch, X, rg=True), _t(torch, Y, rg=True), _t(torch, Z, rg=True)
    res["same"] = _full(torch, torch.lerp(x, y, w), [x, y, w])
    # a 0-dim weight of another dtype is accepted; its gradient keeps its dtype
    x = _t(torch, X, "float32", rg=True)
    w = torch.tensor(0.3, dtype=torch.float64, requires_grad=True)
    out = torch.lerp(x, _t(torch, Y, "float32"), w)
    gx, gw = torch.autograd.grad(out.sum(), [x, w])
    res["zero_dim_weight"] = {"value": out.tolist(), "dtype": str(out.dtype), "grad_fn": _name(out),
                              "gx": gx.tolist(), "gw": gw.item(), "gw_dtype": str(gw.dtype)}
    return res


def lerp_float32(torch):
    x, y = _t(torch, X, "float32"), _t(torch, Y, "float32")
    w = _t(torch, Z, "float32") * 0.5
    return {"scalar": [torch.lerp(x, y, w_).tolist() for w_ in (0.1, 0.5, 0.9)],
            "tensor": torch.lerp(x, y, w).tolist(),
            "half": torch.lerp(x.half(), y.half(), 0.3).float().tolist(),
            "dtype": str(torch.lerp(x.half(), y.half(), 0.3).dtype)}


def lerp_inplace(torch):
    x = _t(torch, X, rg=True)
    a = x * 1
    a.lerp_(_t(torch, Y), 0.25)
    b = x * 1
    b.lerp_(_t(torch, Y), _t(torch, Z))
    g = torch.autograd.grad((a + b).sum(), x)[0]
    return {"a": a.tolist(), "b": b.tolist(), "names": [_name(a), _name(b)], "grad": g.tolist()}


def lerp_errors(torch):
    f32, f64 = _t(torch, X, "float32"), _t(torch, X)
    i64 = torch.tensor([[1, 2], [3, 4]])
    return {
        "end_dtype": _err(lambda: torch.lerp(f32, f64, 0.3)),
        "end_dtype2": _err(lambda: torch.lerp(f64, f32, 0.3)),
        "weight_dtype": _err(lambda: torch.lerp(f32, f32, f64)),
        "weight_dtype_1d": _err(lambda: torch.lerp(f32, f32, torch.tensor([0.3], dtype=torch.float64))),
        "int_scalar": _err(lambda: torch.lerp(i64, i64, 0.3)),
        "int_tensor": _err(lambda: torch.lerp(i64, i64, i64)),
        "shape": _err(lambda: torch.lerp(f32, _t(torch, [1.0] * 5, "float32"), 0.3)),
        "shape_weight": _err(lambda: torch.lerp(f32, f32, _t(torch, [1.0] * 5, "float32"))),
        "inplace_broadcast": _err(lambda: _t(torch, ROW).lerp_(f64, 0.3)),
        "method_types": _err(lambda: f32.lerp(1.0, 0.3)),
        "method_weight_type": _err(lambda: f32.lerp(f32, "a")),
        "inplace_types": _err(lambda: f32.lerp_(1.0, 0.3)),
    }


# ---- addcmul / addcdiv ------------------------------------------------------------------------

def addcmul(torch):
    res = {}
    for v in (1, 0.5, -2.0):
        s, a, b = _t(torch, X, rg=True), _t(torch, Y, rg=True), _t(torch, Z, rg=True)
        res[str(v)] = _full(torch, torch.addcmul(s, a, b, value=v), [s, a, b])
    s, a, b = _t(torch, ROW, rg=True), _t(torch, COL, rg=True), _t(torch, Y, rg=True)
    res["broadcast"] = _full(torch, s.addcmul(a, b, value=0.75), [s, a, b])
    return res


def addcdiv(torch):
    res = {}
    for v in (1, 0.5, -2.0):
        s, a, b = _t(torch, X, rg=True), _t(torch, Y, rg=True), _t(torch, Z, rg=True)
        res[str(v)] = _full(torch, torch.addcdiv(s, a, b, value=v), [s, a, b])
    s, a, b = _t(torch, ROW, rg=True), _t(torch, COL, rg=True), _t(torch, Z, rg=True)
    res["broadcast"] = _full(torch, s.addcdiv(a, b, value=0.75), [s, a, b])
    return res


def addc_dtypes(torch):
    f32, f64 = _t(torch, X, "float32"), _t(torch, Y)
    i = torch.tensor([[1, 2], [3, -4]])
    f = _t(torch, [[0.5, 1.5], [2.0, -1.0]], "float32")
    zf = torch.tensor(2.0, dtype=torch.float64)
    out = {}
    cases = {
        "mul_f32_f64": lambda: torch.addcmul(f32, f64, f32),
        "mul_f32_int": lambda: torch.addcmul(f, i, i),
        "mul_int": lambda: torch.addcmul(i, i, i, value=2),
        "mul_int_fvalue": lambda: torch.addcmul(i, i, i, value=1.7),
        "mul_int_negfvalue": lambda: torch.addcmul(i, i, i, value=-1.7),
        "mul_zero_dim": lambda: torch.addcmul(f, zf, f),
        "mul_zero_dim_int": lambda: torch.addcmul(i, zf, i),
        "mul_bool_value": lambda: torch.addcmul(f, f, f, value=True),
        "div_f32_f64": lambda: torch.addcdiv(f32, f32, f64, value=2),
        "div_int_self": lambda: torch.addcdiv(i, f, i),
        "div_int_value": lambda: torch.addcdiv(f, f, f, value=3),
    }
    for k, fn in cases.items():
        r = fn()
        out[k] = [str(r.dtype), r.tolist()]
    a = _t(torch, X, "float32")
    a.addcmul_(f64, f64, value=0.5)
    out["inplace_promote"] = [str(a.dtype), a.tolist()]
    b = _t(torch, X, "float32")
    b.addcdiv_(_t(torch, Y, "float32"), _t(torch, Z, "float32"))
    out["inplace_div"] = [str(b.dtype), b.tolist()]
    return out


def addc_errors(torch):
    f32 = _t(torch, X, "float32")
    i = torch.tensor([[1, 2], [3, 4]])
    b = torch.tensor([[True, False]])
    return {
        "mul_bool": _err(lambda: torch.addcmul(b, b, b)),
        "mul_shape": _err(lambda: torch.addcmul(f32, _t(torch, [1.0] * 5, "float32"), f32)),
        "mul_tensor1_number": _err(lambda: torch.addcmul(f32, 2.0, f32)),
        "mul_method_tensor1_number": _err(lambda: f32.addcmul(2.0, f32)),
        "mul_value_type": _err(lambda: f32.addcmul(f32, f32, value="a")),
        "mul_inplace_cast": _err(lambda: i.clone().addcmul_(_t(torch, [[1.0, 2.0]], "float32"), _t(torch, [[1.0, 2.0]], "float32"))),
        "mul_inplace_broadcast": _err(lambda: _t(torch, ROW, "float32").addcmul_(f32, f32)),
        "div_int": _err(lambda: torch.addcdiv(i, i, i)),
        "div_int_operands": _err(lambda: torch.addcdiv(_t(torch, [[1.0, 2.0], [3.0, 4.0]], "float32"), i, i)),
        "div_bool": _err(lambda: torch.addcdiv(b, b, b)),
        "div_shape": _err(lambda: torch.addcdiv(f32, f32, _t(torch, [1.0] * 5, "float32"))),
    }


def addc_inplace_grad(torch):
    s = _t(torch, X, rg=True)
    a, b = _t(torch, Y, rg=True), _t(torch, Z, rg=True)
    u = s * 1
    u.addcmul_(a, b, value=0.5)
    v = s * 1
    v.addcdiv_(a, b, value=-1.5)
    gs = torch.autograd.grad((u * v).sum(), [s, a, b])
    return {"names": [_name(u), _name(v)], "u": u.tolist(), "v": v.tolist(), "grads": [g.tolist() for g in gs]}


# ---- cumprod ------------------------------------------------------------------------------------

def cumprod_values(torch):
    x = _t(torch, X)
    i = torch.tensor([[1, 2, 3], [-2, 0, 4]])
    b = torch.tensor([[True, True, False], [True, True, True]])
    return {
        "dim0": x.cumprod(0).tolist(), "dim1": torch.cumprod(x, 1).tolist(), "neg": x.cumprod(-1).tolist(),
        "f32": _t(torch, X, "float32").cumprod(1).tolist(),
        "int": [str(i.cumprod(1).dtype), i.cumprod(1).tolist()],
        "bool": [str(b.cumprod(1).dtype), b.cumprod(1).tolist()],
        "dtype": [str(torch.cumprod(i, 1, dtype=torch.float32).dtype), torch.cumprod(i, 1, dtype=torch.float32).tolist()],
        "half": [str(_t(torch, X, "float16").cumprod(1).dtype), _t(torch, X, "float16").cumprod(1).float().tolist()],
        "zero_dim": [torch.cumprod(torch.tensor(2.5), 0).tolist(), torch.cumprod(torch.tensor(2.5), -1).tolist()],
        "inplace": _t(torch, X).cumprod_(1).tolist(),
        "inplace_int": i.clone().cumprod_(0).tolist(),
    }


def cumprod_grads(torch):
    res = {}
    rows = {
        "no_zero": [[0.5, -1.2, 2.0, 0.3, 1.5]],
        "one_zero": [[2.0, 0.0, 3.0, 1.5, 5.0]],
        "two_zeros": [[2.0, 0.0, 3.0, 0.0, 5.0]],
        "first_zero": [[0.0, 1.5, -2.0, 0.5, 3.0]],
        "last_zero": [[1.5, -2.0, 0.5, 3.0, 0.0]],
        "mixed_rows": [[2.0, 0.0, 3.0, 0.0, 5.0], [0.5, -1.2, 2.0, 0.3, 1.5], [0.0, 0.0, 1.0, 2.0, 3.0]],
    }
    for k, data in rows.items():
        for dim in (1, 0):
            x = _t(torch, data, rg=True)
            out = x.cumprod(dim)
            # plain backward (no graph: the O(n) path with zeros) and double backward
            g_plain = torch.autograd.grad((out * _t(torch, [[1.0, -0.5, 2.0, 0.25, 1.5]] * len(data))).sum(), x, retain_graph=True)[0]
            # a loss linear in the output: its double backward is the second derivative of cumprod
            w = _t(torch, [[0.5, 1.0, -1.5, 2.0, 0.75]] * len(data))
            g_lin = torch.autograd.grad((out * w).sum(), x, create_graph=True)[0]
            gg_lin = torch.autograd.grad((g_lin * g_lin).sum(), x, retain_graph=True)[0] if g_lin.requires_grad else None
            res[f"{k}_{dim}"] = {"value": out.tolist(), "grad_fn": _name(out), "plain": g_plain.tolist(),
                                 "lin": [g_lin.tolist(), None if gg_lin is None else gg_lin.tolist()], "grads": _grads(torch, out, [x])}
    x = _t(torch, 3.0, rg=True)
    res["zero_dim"] = _grads(torch, x.cumprod(0), [x])
    x = _t(torch, [[2.0], [0.0]], rg=True)
    res["size_one"] = _grads(torch, x.cumprod(1), [x])
    return res


def cumprod_jvp_zeros(torch):
    import importlib
    fwAD = importlib.import_module(torch.__name__ + ".autograd.forward_ad")
    res = {}
    for k, data in {"zeros": [[2.0, 0.0, 3.0, 0.0, 5.0], [0.0, 1.5, -2.0, 0.5, 3.0]],
                    "none": [[0.5, -1.2, 2.0, 0.3, 1.5], [1.0, 2.0, 3.0, 4.0, 5.0]]}.items():
        with fwAD.dual_level():
            x = fwAD.make_dual(_t(torch, data), _t(torch, [[0.3, -1.0, 0.5, 2.0, -0.7], [1.1, 0.2, -0.4, 0.9, 0.6]]))
            p, t = fwAD.unpack_dual(x.cumprod(1))
            res[k] = [p.tolist(), t.tolist()]
    return res


def cumprod_errors(torch):
    x = _t(torch, X, "float32")
    return {
        "dim": _err(lambda: torch.cumprod(x, 2)),
        "inplace_dtype": _err(lambda: x.clone().cumprod_(1, dtype=torch.float64)),
        "grad_int_dtype": _err(lambda: torch.cumprod(_t(torch, X, rg=True), 1, dtype=torch.int64)),
        "dim_type": _err(lambda: torch.cumprod(x, "a")),
    }


def cumprod_inplace_grad(torch):
    x = _t(torch, [[2.0, 0.0, 3.0, 1.5], [0.5, -1.0, 2.0, 4.0]], rg=True)
    y = x * 1
    y.cumprod_(1)
    g = torch.autograd.grad(y.sum(), x)[0]
    return {"value": y.tolist(), "grad_fn": _name(y), "grad": g.tolist()}


# ---- addmm / addmv / baddbmm ---------------------------------------------------------------------

M1 = [[0.5, -1.2, 2.0], [1.5, -0.7, 0.9]]
M2 = [[1.0, 0.4, -0.6, 2.2], [-0.3, 1.7, 0.25, 0.6], [0.9, -1.4, 1.3, -0.5]]
B1 = [M1, [[0.2, 1.1, -0.4], [0.8, 0.3, -1.5]]]
B2 = [M2, [[0.7, 1.3, -0.9, 1.6], [1.1, -0.8, 1.9, 0.45], [-1.2, 0.6, 0.35, 1.4]]]
VEC = [0.6, -1.1, 0.35]


def addmm(torch):
    res = {}
    for name, inp, kw in (("bias", ROW, {}), ("full", [r[:4] for r in X[:2]], {"beta": 0.5, "alpha": 2}),
                          ("col", [[0.3], [-0.8]], {"beta": -1.5, "alpha": 0.25}), ("zero_dim", 1.5, {"alpha": 3})):
        i, a, b = _t(torch, inp, rg=True), _t(torch, M1, rg=True), _t(torch, M2, rg=True)
        out = torch.addmm(i, a, b, **kw)
        res[name] = _full(torch, out, [i, a, b])
        res[name]["saved"] = [out.grad_fn._saved_alpha, out.grad_fn._saved_beta]
    i, a, b = _t(torch, ROW, rg=True), _t(torch, M1, rg=True), _t(torch, M2, rg=True)
    res["method"] = _full(torch, i.addmm(a, b, beta=0), [a, b])
    nan = torch.full((4,), float("nan"), dtype=torch.float64)
    res["beta0_nan"] = torch.addmm(nan, _t(torch, M1), _t(torch, M2), beta=0).tolist()
    li = torch.tensor([3, -2, 1, 4])
    lm1 = torch.tensor([[1, 2, 3], [-1, 0, 2]])
    lm2 = torch.tensor([[1, 0, 2, 1], [2, 1, 0, -1], [0, 3, 1, 1]])
    res["int"] = [torch.addmm(li, lm1, lm2, beta=2, alpha=3).tolist(), torch.addmm(li, lm1, lm2, beta=0.5, alpha=1.5).tolist(),
                  str(torch.addmm(li, lm1, lm2).dtype)]
    res["f32"] = torch.addmm(_t(torch, ROW, "float32"), _t(torch, M1, "float32"), _t(torch, M2, "float32"), beta=0.5, alpha=-1).tolist()
    c = _t(torch, [r[:4] for r in X[:2]])
    c.addmm_(_t(torch, M1), _t(torch, M2), alpha=0.5)
    res["inplace"] = c.tolist()
    x = _t(torch, [r[:4] for r in X[:2]], rg=True)
    y = x * 1
    y.addmm_(_t(torch, M1), _t(torch, M2), beta=2)
    res["inplace_grad"] = [_name(y), torch.autograd.grad(y.sum(), x)[0].tolist()]
    return res


def addmv(torch):
    res = {}
    for name, inp, kw in (("vec", [0.3, -0.8], {}), ("bcast", [0.7], {"beta": 0.5, "alpha": 2}), ("zero_dim", -1.25, {"beta": 2})):
        i, m, v = _t(torch, inp, rg=True), _t(torch, M1, rg=True), _t(torch, VEC, rg=True)
        out = torch.addmv(i, m, v, **kw)
        res[name] = _full(torch, out, [i, m, v])
    li, lm, lv = torch.tensor([1, -2]), torch.tensor([[1, 2, 3], [-1, 0, 2]]), torch.tensor([2, -1, 3])
    res["int"] = [torch.addmv(li, lm, lv, beta=3, alpha=2).tolist(), str(torch.addmv(li, lm, lv).dtype)]
    c = _t(torch, [0.3, -0.8])
    c.addmv_(_t(torch, M1), _t(torch, VEC), beta=-1)
    res["inplace"] = c.tolist()
    return res


def baddbmm(torch):
    res = {}
    for name, inp, kw in (("bias", ROW, {}), ("full", [[r[:4] for r in X[:2]], [r[:4] for r in Y[:2]]], {"beta": 0.5, "alpha": -2}),
                          ("plane", [r[:4] for r in Z[:2]], {"alpha": 0.5})):
        i, a, b = _t(torch, inp, rg=True), _t(torch, B1, rg=True), _t(torch, B2, rg=True)
        out = torch.baddbmm(i, a, b, **kw)
        res[name] = _full(torch, out, [i, a, b])
    li = torch.tensor([1, 2, 3, 4])
    res["int"] = torch.baddbmm(li, torch.tensor([[[1, 2], [3, 4]]]), torch.tensor([[[1, 0, 2, 1], [0, 1, 1, -1]]]), beta=2).tolist()
    c = _t(torch, [[r[:4] for r in X[:2]], [r[:4] for r in Y[:2]]])
    c.baddbmm_(_t(torch, B1), _t(torch, B2), beta=0.25)
    res["inplace"] = c.tolist()
    return res


def mm_family_errors(torch):
    F, D = torch.float32, torch.float64

    def r(*shape, dtype=F):
        return torch.zeros(*shape, dtype=dtype)
    out = {
        "addmm_in": _err(lambda: torch.addmm(r(3), r(2, 3), r(3, 4))),
        "addmm_in2": _err(lambda: torch.addmm(r(3, 4), r(2, 3), r(3, 4))),
        "addmm_in3d": _err(lambda: torch.addmm(r(1, 2, 4), r(2, 3), r(3, 4))),
        "addmm_mm": _err(lambda: torch.addmm(r(4), r(2, 3), r(2, 4))),
        "addmm_1d": _err(lambda: torch.addmm(r(4), r(3), r(3, 4))),
        "addmm_1d2": _err(lambda: torch.addmm(r(4), r(2, 3), r(3))),
        "addmm_bool": _err(lambda: torch.addmm(r(4).bool(), r(2, 3).bool(), r(3, 4).bool())),
        "addmm_inplace": _err(lambda: r(4).addmm_(r(2, 3), r(3, 4))),
        "addmm_inplace2": _err(lambda: r(2, 5).addmm_(r(2, 3), r(3, 4))),
        "addmm_mat1_type": _err(lambda: torch.addmm(r(4), 1, r(3, 4))),
        "addmv_in": _err(lambda: torch.addmv(r(3), r(2, 3), r(3))),
        "addmv_in2": _err(lambda: torch.addmv(r(2, 2), r(2, 3), r(3))),
        "addmv_size": _err(lambda: torch.addmv(r(2), r(2, 3), r(4))),
        "addmv_dim": _err(lambda: torch.addmv(r(2), r(2, 3), r(3, 4))),
        "addmv_dim2": _err(lambda: torch.addmv(r(2), r(3), r(3))),
        "addmv_bool": _err(lambda: torch.addmv(r(2).bool(), r(2, 3).bool(), r(3).bool())),
        "addmv_inplace": _err(lambda: r(1).addmv_(r(2, 3), r(3))),
        "addmv_vec_type": _err(lambda: r(2).addmv(r(2, 3), 2)),
        "baddbmm_in": _err(lambda: torch.baddbmm(r(3, 4), r(5, 2, 3), r(5, 3, 4))),
        "baddbmm_in3d": _err(lambda: torch.baddbmm(r(4, 2, 4), r(5, 2, 3), r(5, 3, 4))),
        "baddbmm_b": _err(lambda: torch.baddbmm(r(2, 4), r(5, 2, 3), r(4, 3, 4))),
        "baddbmm_k": _err(lambda: torch.baddbmm(r(2, 4), r(5, 2, 3), r(5, 2, 4))),
        "baddbmm_2d": _err(lambda: torch.baddbmm(r(2, 4), r(2, 3), r(3, 4))),
        "baddbmm_1d": _err(lambda: torch.baddbmm(r(2, 4), r(3), r(5, 3, 4))),
        "baddbmm_4d": _err(lambda: torch.baddbmm(r(2, 4), r(5, 2, 3, 1), r(5, 3, 4))),
        "baddbmm_4d2": _err(lambda: torch.baddbmm(r(2, 4), r(5, 2, 3), r(5, 3, 4, 1))),
        "baddbmm_bool": _err(lambda: torch.baddbmm(r(2, 4).bool(), r(5, 2, 3).bool(), r(5, 3, 4).bool())),
        "baddbmm_inplace": _err(lambda: r(2, 4).baddbmm_(r(5, 2, 3), r(5, 3, 4))),
    }
    for dt in ((F, D, F), (D, F, D), (D, D, F), (F, F, D), (D, F, F)):
        key = "".join("d" if d == D else "f" for d in dt)
        out[f"addmm_{key}"] = _err(lambda: torch.addmm(r(4, dtype=dt[0]), r(2, 3, dtype=dt[1]), r(3, 4, dtype=dt[2])))
        out[f"addmv_{key}"] = _err(lambda: torch.addmv(r(2, dtype=dt[0]), r(2, 3, dtype=dt[1]), r(3, dtype=dt[2])))
        out[f"baddbmm_{key}"] = _err(lambda: torch.baddbmm(r(2, 4, dtype=dt[0]), r(5, 2, 3, dtype=dt[1]), r(5, 3, 4, dtype=dt[2])))
    return out


def mm_family_jvp(torch):
    import importlib
    fwAD = importlib.import_module(torch.__name__ + ".autograd.forward_ad")
    res = {}
    with fwAD.dual_level():
        i = fwAD.make_dual(_t(torch, ROW), _t(torch, [0.5, -0.25, 1.0, 0.75]))
        a = fwAD.make_dual(_t(torch, M1), _t(torch, [[0.1, 0.2, -0.3], [0.4, -0.5, 0.6]]))
        b = _t(torch, M2)
        p, t = fwAD.unpack_dual(torch.addmm(i, a, b, beta=0.5, alpha=-2))
        res["addmm"] = [p.tolist(), t.tolist()]
        v = fwAD.make_dual(_t(torch, VEC), _t(torch, [1.0, -2.0, 0.5]))
        p, t = fwAD.unpack_dual(torch.addmv(_t(torch, [0.3, -0.8]), a, v, beta=2, alpha=0.5))
        res["addmv"] = [p.tolist(), t.tolist()]
        bb = fwAD.make_dual(_t(torch, B2), _t(torch, B2) * 0.5)
        p, t = fwAD.unpack_dual(torch.baddbmm(i, _t(torch, B1), bb, alpha=3))
        res["baddbmm"] = [p.tolist(), t.tolist()]
        x = fwAD.make_dual(_t(torch, X), _t(torch, Y))
        w = fwAD.make_dual(_t(torch, Z), _t(torch, X))
        p, t = fwAD.unpack_dual(torch.lerp(x, _t(torch, Y), w))
        res["lerp_tensor"] = [p.tolist(), t.tolist()]
        p, t = fwAD.unpack_dual(torch.addcdiv(x, w, _t(torch, Z), value=0.5))
        res["addcdiv"] = [p.tolist(), t.tolist()]
        p, t = fwAD.unpack_dual(torch.addcdiv(_t(torch, X), _t(torch, Y), w, value=-1.5))
        res["addcdiv_den"] = [p.tolist(), t.tolist()]
    return res


SCENARIOS = [
    ("lerp_scalar", lerp_scalar),
    ("lerp_tensor", lerp_tensor),
    ("lerp_float32", lerp_float32),
    ("lerp_inplace", lerp_inplace),
    ("lerp_errors", lerp_errors),
    ("addcmul", addcmul),
    ("addcdiv", addcdiv),
    ("addc_dtypes", addc_dtypes),
    ("addc_errors", addc_errors),
    ("addc_inplace_grad", addc_inplace_grad),
    ("cumprod_values", cumprod_values),
    ("cumprod_grads", cumprod_grads),
    ("cumprod_jvp_zeros", cumprod_jvp_zeros),
    ("cumprod_errors", cumprod_errors),
    ("cumprod_inplace_grad", cumprod_inplace_grad),
    ("addmm", addmm),
    ("addmv", addmv),
    ("baddbmm", baddbmm),
    ("mm_family_errors", mm_family_errors),
    ("mm_family_jvp", mm_family_jvp),
]
