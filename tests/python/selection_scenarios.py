"""Value-selecting reductions and running extremes: median/nanmedian (all and along a dim),
kthvalue, cummax/cummin, logcumsumexp, msort, aminmax. Run with ``torch`` bound to PyTorch
(tools/record_selection_goldens.py records fixtures/selection.json) or to ferrograd
(test_selection_ops.py compares): values, indices, grad_fn names, gradients, errors."""

NAN = float("nan")


def _v(t):
    return [v if v == v else "nan" for v in t.detach().double().flatten().tolist()]


def _result(r):
    if isinstance(r, tuple):
        return {"type": type(r).__name__, "parts": [_v(e) for e in r], "shapes": [list(e.shape) for e in r],
                "fns": [type(e.grad_fn).__name__ if e.grad_fn else None for e in r]}
    return {"value": _v(r), "shape": list(r.shape), "fn": type(r.grad_fn).__name__ if r.grad_fn else None}


def _caught(f):
    try:
        return f()
    except Exception as e:  # noqa: BLE001 - PyTorch's error is the result
        return {"error": [type(e).__name__, str(e)]}


def run(torch):
    x = torch.tensor([[3., 1, 2, 5, 0.5], [0.5, 4, -1, 2, 4], [1, 1, 2, 2, 3]])
    xn = torch.tensor([[3., NAN, 2, 5], [1, NAN, NAN, 0], [1, 2, 3, 4]])
    xi = torch.tensor([[3, 1, 2, 5], [0, 4, -1, 2]])
    ops = {
        "median": lambda t: t.median(), "median1": lambda t: t.median(1), "median0k": lambda t: t.median(0, keepdim=True),
        "nanmedian": lambda t: t.nanmedian(), "nanmedian1": lambda t: t.nanmedian(1),
        "kth2": lambda t: t.kthvalue(2, 1), "kth1_0k": lambda t: t.kthvalue(1, 0, True), "kth3": lambda t: torch.kthvalue(t, 3, dim=0),
        "cummax1": lambda t: t.cummax(1), "cummin0": lambda t: t.cummin(0), "cummax_fn": lambda t: torch.cummax(t, dim=-1),
        "logcumsumexp1": lambda t: t.logcumsumexp(1), "logcumsumexp0": lambda t: torch.logcumsumexp(t, 0),
        "msort": lambda t: torch.msort(t), "aminmax": lambda t: torch.aminmax(t), "aminmax1": lambda t: torch.aminmax(t, dim=1),
        "aminmax0k": lambda t: t.aminmax(dim=0, keepdim=True), "median_fn": lambda t: torch.median(t, dim=1),
    }
    out = {}
    for name, f in ops.items():
        out[name] = _caught(lambda: _result(f(x)))
        out[name + "_nan"] = _caught(lambda: _result(f(xn)))
        if not name.startswith("logcumsumexp"):
            out[name + "_int"] = _caught(lambda: _result(f(xi)))

        def grad():
            t = x.detach().clone().requires_grad_()
            r = f(t)
            loss = (r[0].sin() + r[1].cos()).sum() if type(r).__name__ == "aminmax" else \
                (r[0] if isinstance(r, tuple) else r).sin().sum()
            g, = torch.autograd.grad(loss, t, create_graph=True)
            gg, = torch.autograd.grad(g.sum(), t, allow_unused=True) if g.requires_grad else (None,)
            return {"grad": _v(g), "double": None if gg is None else _v(gg)}
        out[name + "_grad"] = _caught(grad)
    out["repr_median"] = repr(x.median(1))
    out["repr_aminmax"] = repr(torch.aminmax(x))
    for name, f in {"kth_bad": lambda: x.kthvalue(6, 1), "kth0": lambda: x.kthvalue(0), "median_empty": lambda: torch.tensor([]).median(),
                    "median_empty_dim": lambda: torch.zeros(2, 0).median(1), "aminmax_empty": lambda: torch.tensor([]).aminmax(),
                    "scalar_median": lambda: torch.tensor(3.).median(0), "scalar_cummax": lambda: torch.tensor(3.).cummax(0),
                    "logcumsumexp_scalar": lambda: torch.tensor(3.).logcumsumexp(0),
                    "logcumsumexp_inf": lambda: torch.tensor([-float("inf"), 0., float("inf")]).logcumsumexp(0),
                    "logcumsumexp_big": lambda: torch.tensor([1000., 1000., -1000.]).logcumsumexp(0),
                    "complex_median": lambda: torch.tensor([1j, 2]).median(),
                    "kth_ties": lambda: torch.tensor([[2., 2, 1, 1, 2, 1, 2, 2]]).kthvalue(4, 1)}.items():
        out[name] = _caught(lambda: _result(f()))
    return out
