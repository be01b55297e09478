"""``add`` / ``sub`` with ``alpha`` and the ``out=`` forms of the four arithmetic ops: values
bit for bit (ATen computes ``self + alpha * other`` with one fused multiply-add per element, in
float32 for the half types), result strides, the autograd node (one AddBackward0 /
SubBackward0 with ``_saved_alpha`` and edges straight to both operands), gradients and the
errors. Inputs come from a seeded NumPy generator. Run with ``torch`` bound to PyTorch
(tools/record_add_alpha_goldens.py records fixtures/add_alpha.json) or to ferrograd
(test_add_alpha.py compares, exactly)."""

import warnings

import numpy as np


def _v(t):
    return t.detach().double().flatten().tolist()


def _caught(f):
    try:
        return f()
    except Exception as e:  # noqa: BLE001 - PyTorch's error is the result
        return {"error": [type(e).__name__, str(e)]}


def _next(t):
    return [None if f is None else type(f).__name__ for f, _ in t.grad_fn.next_functions]


def run(torch):
    g = np.random.default_rng(11)
    f32 = lambda *s: torch.from_numpy(g.standard_normal(s).astype(np.float32))  # noqa: E731
    out = {}
    a, b = f32(300), f32(300)
    for alpha in (0.1, -0.3, 2.5, 3, 1e-3):
        out[f"add_f32_{alpha}"] = _v(a.add(b, alpha=alpha))
        out[f"sub_f32_{alpha}"] = _v(a.sub(b, alpha=alpha))
        out[f"fn_add_f32_{alpha}"] = _v(torch.add(a, b, alpha=alpha))
        out[f"fn_sub_f32_{alpha}"] = _v(torch.sub(a, b, alpha=alpha))
    # short tensors (a vector kernel's tail) and odd lengths
    for n in (1, 7, 17, 33):
        out[f"add_f32_n{n}"] = _v(a[:n].add(b[:n], alpha=0.7))
    # broadcasting, a transposed operand (the result follows its strides), a Python number
    m, row = f32(6, 5), f32(5)
    out["add_bcast_row"] = _v(m.add(row, alpha=0.3))
    out["add_bcast_col"] = _v(m.add(f32(6, 1), alpha=-1.7))
    mt = f32(5, 6).t()
    r = mt.add(m, alpha=0.9)
    out["add_transposed"] = [_v(r), list(r.stride())]
    out["add_number"] = _v(m.add(1.7, alpha=0.3))
    out["sub_number"] = _v(m.sub(0.6, alpha=2))
    out["rsub_alpha"] = _v(torch.rsub(m, row, alpha=0.3))
    # float64, the half types, mixed dtypes
    a64, b64 = a.double(), b.double() * 0.37
    out["add_f64"] = _v(a64.add(b64, alpha=0.1))
    out["sub_f64"] = _v(a64.sub(b64, alpha=0.1))
    out["add_f16"] = _v(a.half().add(b.half(), alpha=0.1))
    out["sub_bf16"] = _v(a.bfloat16().sub(b.bfloat16(), alpha=0.3))
    out["add_f16_number"] = _v(a.half().add(1.1, alpha=0.3))
    out["add_f32_f64_0dim"] = _v(a.add(torch.tensor(0.123456789, dtype=torch.float64), alpha=0.1))
    r = a.add(b64, alpha=0.1)
    out["add_f32_f64"] = [_v(r), str(r.dtype)]
    ia, ib = torch.arange(-5, 5, dtype=torch.int32) * 400000000, torch.arange(10, dtype=torch.int32) * 700000000
    out["add_int_wraps"] = _v(ia.add(ib, alpha=3))
    out["sub_int64"] = _v(ia.long().sub(ib.long(), alpha=-7))
    r = ia.add(b[:10], alpha=2)
    out["add_int_float"] = [_v(r), str(r.dtype)]
    out["add_complex"] = _caught(lambda: [[z.real, z.imag] for z in torch.complex(a[:4], b[:4]).add(torch.complex(b[:4], a[:4]), alpha=0.1).tolist()])
    out["add_bool"] = _v(torch.tensor([True, False]).add(torch.tensor([True, True]), alpha=False).long())

    # in place
    x = a.clone()
    x.add_(b, alpha=0.1)
    out["add__f32"] = _v(x)
    x = a.clone()
    x.sub_(b, alpha=0.1)
    out["sub__f32"] = _v(x)
    x = m.clone()
    x.add_(row, alpha=-2.5)
    out["add__bcast"] = _v(x)
    x = a.double()
    x.add_(b64, alpha=0.1)
    out["add__f64"] = _v(x)
    x = a.half()
    x.add_(b.half(), alpha=0.1)
    out["add__f16"] = _v(x)
    x = a.clone()
    x.add_(2.5, alpha=0.1)
    out["add__number"] = _v(x)
    x = f32(5, 6).t()
    x.add_(m, alpha=0.9)
    out["add__transposed_dst"] = _v(x)
    x = ia.clone()
    x.add_(ib, alpha=3)
    out["add__int"] = _v(x)
    x = a.clone()
    x.add_(x, alpha=0.5)
    out["add__self"] = _v(x)

    # out=
    for name, f in (("add", lambda o: torch.add(a, b, alpha=0.1, out=o)),
                    ("sub", lambda o: torch.sub(a, b, alpha=0.1, out=o)),
                    ("add1", lambda o: torch.add(a, b, out=o)),
                    ("mul", lambda o: torch.mul(a, b, out=o)),
                    ("mul_num", lambda o: torch.mul(a, 0.01, out=o)),
                    ("div", lambda o: torch.div(a, b, out=o)),
                    ("true_divide", lambda o: torch.true_divide(a, b, out=o)),
                    ("multiply", lambda o: torch.multiply(a, b, out=o)),
                    ("sub1", lambda o: torch.sub(a, b, out=o))):
        o = torch.empty(300)
        r = f(o)
        out[f"out_{name}"] = [_v(o), r is o]
    o = torch.empty(6, 5)
    torch.mul(m, row, out=o)
    out["out_mul_bcast"] = _v(o)
    o = torch.empty(3)
    with warnings.catch_warnings(record=True) as ws:
        warnings.simplefilter("always")
        torch.mul(m, row, out=o)  # resized, with a deprecation warning
    out["out_mul_resized"] = [_v(o), list(o.shape), [str(w.message).split(".")[0] for w in ws]]
    o = torch.empty(300, dtype=torch.float64)
    torch.mul(a, b, out=o)
    out["out_mul_f64_dst"] = _v(o)
    o = torch.empty(5, 6).t()
    torch.add(m, row, alpha=0.2, out=o)
    out["out_add_transposed_dst"] = [_v(o), list(o.stride())]
    o = b.clone()
    torch.mul(a, o, out=o)
    out["out_mul_alias_other"] = _v(o)
    o = a.clone()
    torch.add(o, b, alpha=0.25, out=o)
    out["out_add_alias_self"] = _v(o)
    o = torch.empty(4, dtype=torch.int64)
    torch.mul(torch.arange(4), 3, out=o)
    out["out_mul_int"] = _v(o)
    o = torch.empty(4)
    torch.div(torch.arange(4), 3, out=o)
    out["out_div_int"] = _v(o)
    o = torch.empty(4)
    torch.div(a[:4], b[:4], rounding_mode=None, out=o)
    out["out_div_mode_none"] = _v(o)

    # autograd: one node with edges to both operands
    pa = a[:6].clone().requires_grad_()
    pb = b[:6].clone().requires_grad_()
    pr = row.clone().requires_grad_()
    pm = m.clone().requires_grad_()
    for name, f in (("add", lambda: pa.add(pb, alpha=0.5)), ("sub", lambda: pa.sub(pb, alpha=0.5)),
                    ("add_int_alpha", lambda: pa.add(pb, alpha=3)), ("sub_neg", lambda: pa.sub(pb, alpha=-2)),
                    ("bcast", lambda: pm.add(pr, alpha=1.5)), ("bcast_sub", lambda: pm.sub(pr, alpha=1.5)),
                    ("number", lambda: pa.add(2.0, alpha=0.5)),
                    ("fn", lambda: torch.add(pa, pb, alpha=0.25))):
        y = f()
        ga = (pa if name not in ("bcast", "bcast_sub") else pm)
        gb = (pb if name not in ("bcast", "bcast_sub") else pr)
        ga.grad = gb.grad = None
        y.backward(torch.ones_like(y) * 0.7)
        out[f"grad_{name}"] = [type(y.grad_fn).__name__, _next(y), y.grad_fn._saved_alpha, _v(y),
                               _v(ga.grad), None if gb.grad is None else _v(gb.grad)]
    x = a[:6].clone()
    x.add_(pb, alpha=0.5)
    out["grad_inplace"] = [type(x.grad_fn).__name__, _next(x), x.grad_fn._saved_alpha, _v(x)]
    pd = pa.detach().clone().requires_grad_()
    y = pd.double().add(pb.double(), alpha=0.1)
    z = y.sum() * 3
    out["grad_double"] = [_v(torch.autograd.grad(z, (pd, pb))[0]), _v(torch.autograd.grad(pd.add(pb, alpha=0.1).sum(), pb)[0])]
    # second order: the gradient of the alpha-scaled edge is itself differentiable
    w = pb * 1.0
    y = pa.add(w * w, alpha=0.5).sum()
    (gw,) = torch.autograd.grad(y, pb, create_graph=True)
    out["grad_second_order"] = [_v(gw), _v(torch.autograd.grad(gw.sum(), pb)[0])]

    # errors
    fi = torch.arange(4)
    out["err_float_alpha_int"] = _caught(lambda: fi.add(fi, alpha=0.5))
    out["err_bool_alpha"] = _caught(lambda: a.add(b, alpha=True))
    out["err_sub_bool"] = _caught(lambda: torch.tensor([True]).sub(torch.tensor([True]), alpha=2))
    out["err_inplace_float_alpha_int"] = _caught(lambda: fi.clone().add_(fi, alpha=0.5))
    out["err_inplace_leaf"] = _caught(lambda: pa.add_(pb, alpha=0.5))
    out["err_out_grad"] = _caught(lambda: torch.add(pa, pb, alpha=0.5, out=torch.empty(6)))
    out["err_out_int_dst"] = _caught(lambda: torch.mul(a, b, out=torch.empty(300, dtype=torch.int64)))
    out["err_out_float_alpha_int"] = _caught(lambda: torch.add(fi, fi, alpha=0.5, out=torch.empty(4, dtype=torch.int64)))
    out["err_inplace_bcast"] = _caught(lambda: row.clone().add_(m, alpha=0.5))
    out["err_shape"] = _caught(lambda: a.add(b[:7], alpha=0.5))
    return out
