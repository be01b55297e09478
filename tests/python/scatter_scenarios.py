"""scatter_reduce (sum, prod, mean, amax, amin; with and without include_self; float, int and
bool; src larger than index; every dim) and the deprecated scatter(reduce=...). Run with
``torch`` bound to PyTorch (tools/record_scatter_goldens.py records fixtures/scatter.json) or
to ferrograd (test_scatter_reduce.py compares): values, dtypes, grad_fn names, gradients,
double backward, _saved_ fields, errors."""

NAN = float("nan")
REDUCES = ("sum", "prod", "mean", "amax", "amin")


def _v(t):
    return [v if v == v else "nan" for v in t.detach().double().flatten().tolist()]


def _caught(f):
    try:
        return f()
    except Exception as e:  # noqa: BLE001 - PyTorch's error is the result
        return {"error": [type(e).__name__, str(e)]}


def _res(r):
    return {"value": _v(r), "shape": list(r.shape), "dtype": str(r.dtype).split(".")[-1],
            "fn": type(r.grad_fn).__name__ if r.grad_fn else None}


def run(torch):
    out = {}
    x = torch.tensor([[1.0, -2.0, 3.0, 0.5], [4.0, 0.0, -1.0, 2.0], [2.0, 2.0, 5.0, -3.0]])
    src = torch.tensor([[0.5, 3.0, -1.0, 2.0, 7.0], [1.5, -2.0, 4.0, 2.0, 0.0], [3.0, 1.0, 2.0, -4.0, 6.0]])
    idx0 = torch.tensor([[0, 1, 0, 2], [2, 1, 0, 0]])        # along dim 0, smaller than src
    idx1 = torch.tensor([[3, 0, 3, 1, 3], [2, 2, 0, 0, 2], [1, 1, 1, 1, 1]])  # along dim 1
    ties = torch.tensor([[2.0, 2.0, 1.0, 2.0, 2.0], [0.0, 0.0, 0.0, 0.0, 0.0], [5.0, 1.0, 5.0, 5.0, 0.0]])
    for r in REDUCES:
        for inc in (True, False):
            key = f"{r}_{'self' if inc else 'noself'}"
            cases = {"d0": (0, idx0, src), "d1": (1, idx1, src), "neg": (-1, idx1, src), "ties": (1, idx1, ties)}
            for cname, (d, i, s) in cases.items():
                def fwd_bwd(d=d, i=i, s=s):
                    xt = x.clone().requires_grad_()
                    st = s.clone().requires_grad_()
                    y = xt.scatter_reduce(d, i, st, r, include_self=inc)
                    w = torch.linspace(-1.0, 1.0, y.numel()).reshape(y.shape)
                    gx, gs = torch.autograd.grad((y * y * w).sum(), (xt, st), create_graph=True)
                    res = _res(y)
                    res["gx"], res["gs"] = _v(gx), _v(gs)
                    res["saved"] = [y.grad_fn._saved_dim, y.grad_fn._saved_include_self,
                                    _v(y.grad_fn._saved_self), _v(y.grad_fn._saved_src), _v(y.grad_fn._saved_result)]
                    if r in ("sum", "mean"):
                        gg = torch.autograd.grad((gx * gx).sum() + (gs * gs).sum(), (xt, st), allow_unused=True)
                        res["gg"] = [None if g is None else _v(g) for g in gg]
                    return res
                out[f"{key}_{cname}"] = _caught(fwd_bwd)
            xi = torch.tensor([[3, 1, 2, 5], [0, 4, -1, 2], [7, -6, 1, 1]])
            si = torch.tensor([[4, 5, 6, -7], [2, 9, -3, 8]])
            out[f"{key}_int"] = _caught(lambda: _res(xi.scatter_reduce(0, torch.tensor([[0, 0, 1, 0], [0, 2, 1, 0]]), si, r, include_self=inc)))
            xb = torch.tensor([True, False, False, True])
            sb = torch.tensor([False, True, True])
            out[f"{key}_bool"] = _caught(lambda: _res(xb.scatter_reduce(0, torch.tensor([0, 1, 1]), sb, r, include_self=inc)))
            xn = torch.tensor([1.0, NAN, 3.0, 4.0])
            sn = torch.tensor([NAN, 2.0, 5.0, -1.0])
            out[f"{key}_nan"] = _caught(lambda: _res(xn.scatter_reduce(0, torch.tensor([0, 1, 2, 2]), sn, r, include_self=inc)))
            out[f"{key}_f64_fn"] = _caught(lambda: _res(torch.scatter_reduce(x.double(), 1, idx1, src.double(), reduce=r, include_self=inc)))
            y = x.clone()
            ret = y.scatter_reduce_(1, idx1, src, r, include_self=inc)
            out[f"{key}_inplace"] = {"same": ret is y, **_res(y)}
    # prod with zeros: self zeros, one src zero at a place, two src zeros at a place
    xz = torch.tensor([0.0, 2.0, 3.0, 0.0, 5.0])
    sz = torch.tensor([0.0, 4.0, 2.0, 0.0, 0.0, 3.0])
    iz = torch.tensor([0, 1, 1, 2, 2, 3])
    for inc in (True, False):
        def prod_zero(inc=inc):
            xt, st = xz.clone().requires_grad_(), sz.clone().requires_grad_()
            y = xt.scatter_reduce(0, iz, st, "prod", include_self=inc)
            gx, gs = torch.autograd.grad(y.sum(), (xt, st))
            return {**_res(y), "gx": _v(gx), "gs": _v(gs)}
        out[f"prod_zero_{inc}"] = _caught(prod_zero)
    # errors
    for name, f in {
        "bad_reduce": lambda: x.scatter_reduce(1, idx1, src, "foo"),
        "max_alias": lambda: _res(x.scatter_reduce(1, idx1, src, "max")),
        "min_alias": lambda: _res(x.scatter_reduce(1, idx1, src, "min")),
        "dtype": lambda: x.scatter_reduce(1, idx1, src.double(), "sum"),
        "index_dtype": lambda: x.scatter_reduce(1, idx1.float(), src, "sum"),
        "oob": lambda: x.scatter_reduce(1, idx1 + 3, src, "amax"),
        "neg_index": lambda: x.scatter_reduce(1, idx1 - 5, src, "amax"),
        "index_dims": lambda: x.scatter_reduce(1, torch.tensor([0, 1]), src, "sum"),
        "index_too_big": lambda: x.scatter_reduce(0, torch.zeros(4, 4, dtype=torch.long), src, "sum"),
        "bad_dim": lambda: x.scatter_reduce(2, idx1, src, "sum"),
        "bool_mean": lambda: torch.tensor([True]).scatter_reduce(0, torch.tensor([0]), torch.tensor([False]), "mean"),
        "empty_index": lambda: _res(x.scatter_reduce(0, torch.zeros(0, 4, dtype=torch.long), src, "amax", include_self=False)),
        "scalar": lambda: _res(torch.tensor(2.0).scatter_reduce(0, torch.tensor(0), torch.tensor(5.0), "prod")),
    }.items():
        out[name] = _caught(f)
    # the deprecated forms of scatter
    base = torch.ones(2, 4).requires_grad_().clone()
    for name, f in {
        "legacy_mul_src": lambda: _res(base.scatter(1, torch.tensor([[0, 0, 3], [1, 2, 1]]), torch.tensor([[2.0, 3.0, 4.0], [5.0, 6.0, 7.0]]), reduce="multiply")),
        "legacy_mul_value": lambda: _res(base.scatter(1, torch.tensor([[0, 0, 3], [1, 2, 1]]), 2.5, reduce="multiply")),
        "legacy_add_value": lambda: _res(base.scatter(1, torch.tensor([[0, 0, 3], [1, 2, 1]]), 2.5, reduce="add")),
        "legacy_mul_backward": lambda: base.scatter(1, torch.tensor([[0]]), 2.0, reduce="multiply").sum().backward(),
        "legacy_bad": lambda: base.scatter(1, torch.tensor([[0]]), 2.0, reduce="mean"),
        "legacy_mul_int_inplace": lambda: _res(torch.tensor([[1, 2], [3, 4]]).scatter_(0, torch.tensor([[1, 0]]), torch.tensor([[5, 6]]), reduce="multiply")),
    }.items():
        out[name] = _caught(f)
    return out
