"""Complex-tensor scenarios run with ``torch`` bound to PyTorch (tools/record_complex_goldens.py
records fixtures/complex_goldens.json) or to ferrograd (test_complex.py compares).

Each scenario takes the library module and returns a dict of results: tensors (values, dtype,
shape), ``grad_fn`` names, printed forms, Python values, or an error as (type, message)."""

import numpy as np


def plain(torch, x):
    """A JSON-able form of a result (tensors as dtype, shape and flat real values)."""
    if isinstance(x, torch.Tensor):
        x = x.detach()
        if x.is_complex():
            data = torch.view_as_real(x.resolve_conj()).flatten().tolist()
        else:
            data = x.double().flatten().tolist() if x.dtype != torch.bool else x.flatten().tolist()
        return {"dtype": str(x.dtype), "shape": list(x.shape), "data": data}
    if isinstance(x, complex):
        return {"complex": [x.real, x.imag]}
    if isinstance(x, (list, tuple)):
        return [plain(torch, e) for e in x]
    return x


def caught(f):
    try:
        return f()
    except Exception as e:  # PyTorch's error, compared by type and text
        return {"error": [type(e).__name__, str(e)]}


def _z(torch, dtype=None):
    return torch.tensor([1 + 2j, 3 - 1j, -0.5 + 0j, 0.25 - 2.5j], dtype=dtype, requires_grad=True)


_W = [2 - 1j, 1j, 1.5 + 0.25j, -1 + 0.5j]
_G = [0.3 - 0.7j, 1.1 + 0.2j, -0.4 + 0.9j, 0.6 + 0.1j]

# elementwise ops on complex z: value, grad_fn name, z.grad for a complex grad_output
UNARY = {
    "neg": lambda z: -z, "exp": lambda z: z.exp(), "log": lambda z: z.log(), "sqrt": lambda z: z.sqrt(),
    "reciprocal": lambda z: z.reciprocal(), "sin": lambda z: z.sin(), "cos": lambda z: z.cos(),
    "tanh": lambda z: z.tanh(), "sigmoid": lambda z: z.sigmoid(), "sinh": lambda z: z.sinh(),
    "cosh": lambda z: z.cosh(), "rsqrt": lambda z: z.rsqrt(), "conj": lambda z: z.conj(),
    "sgn": lambda z: z.sgn(), "pow2": lambda z: z ** 2, "pow3": lambda z: z.pow(3),
    "pow_half": lambda z: z ** 0.5, "pow_neg1": lambda z: z ** -1, "square": lambda z: z.square(),
    "mul_scalar": lambda z: z * 2, "mul_complex_scalar": lambda z: z * (1 + 1j),
    "add_complex_scalar": lambda z: z + 2j, "rsub_scalar": lambda z: 1 - z, "div_scalar": lambda z: z / 4,
    "rdiv_complex": lambda z: (2 - 1j) / z, "log2": lambda z: z.log2(), "log10": lambda z: z.log10(),
    "log1p": lambda z: z.log1p(), "expm1": lambda z: z.expm1(), "tan": lambda z: z.tan(), "atan": lambda z: z.atan(),
    "asin": lambda z: z.asin(), "acos": lambda z: z.acos(), "mH": lambda z: z.reshape(2, 2).mH, "H": lambda z: z.reshape(2, 2).H,
}
# ops with a real result
TO_REAL = {
    "abs": lambda z: z.abs(), "angle": lambda z: z.angle(), "real": lambda z: z.real, "imag": lambda z: z.imag,
    "view_as_real": None,
}
BINARY = {"add": lambda a, b: a + b, "sub": lambda a, b: a - b, "mul": lambda a, b: a * b, "div": lambda a, b: a / b,
          "matmul": lambda a, b: a.reshape(2, 2) @ b.reshape(2, 2)}


def _unary(torch, name):
    z = _z(torch)
    f = UNARY[name]
    out = f(z)
    g = torch.tensor(_G).reshape(out.shape)
    out.backward(g)
    return {"out": plain(torch, out), "grad_fn": type(out.grad_fn).__name__, "grad": plain(torch, z.grad)}


def _to_real(torch, name):
    z = _z(torch)
    out = torch.view_as_real(z) if name == "view_as_real" else TO_REAL[name](z)
    g = torch.tensor([0.3, 1.1, -0.4, 0.6]) if out.dim() == 1 else torch.tensor([[0.3, -0.2], [1.1, 0.4], [-0.4, 0.5], [0.6, 0.7]])
    out.backward(g)
    return {"out": plain(torch, out), "grad_fn": type(out.grad_fn).__name__, "grad": plain(torch, z.grad)}


def _binary(torch, name, mixed):
    a = _z(torch)
    b = torch.tensor([2.0, -1.5, 0.5, 3.0], requires_grad=True) if mixed else torch.tensor(_W, requires_grad=True)
    out = BINARY[name](a, b) if mixed != "left" else BINARY[name](b, a)
    out.backward(torch.tensor(_G).reshape(out.shape))
    return {"out": plain(torch, out), "grad_fn": type(out.grad_fn).__name__, "grad_a": plain(torch, a.grad),
            "grad_b": plain(torch, b.grad)}


def s_constructors(torch):
    r = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    i = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
    c = torch.complex(r, i)
    (c * torch.tensor(_W[:3])).abs().sum().backward()
    rr = torch.tensor([1.0, 2.0], requires_grad=True)
    th = torch.tensor([0.5, -1.0], requires_grad=True)
    p = torch.polar(rr, th)
    (p * torch.tensor([1 + 2j, 3 - 1j])).real.sum().backward()
    x = torch.arange(12.0).reshape(3, 2, 2).requires_grad_()
    vc = torch.view_as_complex(x)
    (vc * torch.tensor([1j, 2])).abs().sum().backward()
    return {"complex": plain(torch, c), "complex_fn": type(c.grad_fn).__name__, "r_grad": plain(torch, r.grad),
            "i_grad": plain(torch, i.grad), "polar": plain(torch, p), "polar_fn": type(p.grad_fn).__name__,
            "rr_grad": plain(torch, rr.grad), "th_grad": plain(torch, th.grad), "vc": plain(torch, vc),
            "vc_fn": type(vc.grad_fn).__name__, "x_grad": plain(torch, x.grad),
            "zeros": plain(torch, torch.zeros(2, 3, dtype=torch.cfloat)),
            "ones": plain(torch, torch.ones(2, dtype=torch.complex128)),
            "full": plain(torch, torch.full((2,), 1.5, dtype=torch.cfloat)),
            "from_list": plain(torch, torch.tensor([[1, 2j], [3.5, -1 - 1j]])),
            "cdouble_list": plain(torch, torch.tensor([1j], dtype=torch.cdouble)),
            "to_cfloat": plain(torch, torch.tensor([1.5, -2.0]).to(torch.cfloat)),
            "cdouble_method": plain(torch, torch.tensor([1.5, -2.0]).cdouble()),
            "numpy_in": plain(torch, torch.from_numpy(np.array([1 + 2j, 3 - 4j], dtype=np.complex64))),
            "numpy_in128": plain(torch, torch.tensor(np.array([[1j, 2]], dtype=np.complex128)))}


def s_reductions(torch):
    z = torch.tensor([[1 + 2j, 3 - 1j, 0.5j], [-2 + 0j, 1 + 1j, 4 - 3j]], requires_grad=True)
    out = {}
    for name, f in {"sum": lambda z: z.sum(), "sum0": lambda z: z.sum(0), "sum1k": lambda z: z.sum(1, keepdim=True),
                    "mean": lambda z: z.mean(), "mean1": lambda z: z.mean(1), "sum_neg": lambda z: z.sum(-1)}.items():
        z.grad = None
        o = f(z)
        o.backward(torch.full(o.shape, 0.5 - 1j, dtype=torch.cfloat))
        out[name] = {"out": plain(torch, o), "fn": type(o.grad_fn).__name__, "grad": plain(torch, z.grad)}
    return out


def s_products(torch):
    """prod / cumprod of complex tensors (values, grad_fn, gradients; zeros in the input)."""
    out = {}
    for zero in (False, True):
        z = torch.tensor([[1 + 2j, 3 - 1j, 0.5j], [-2 + 0j, 0j if zero else 1 + 1j, 4 - 3j]], requires_grad=True)
        for name, f in {"prod": lambda z: z.prod(), "prod1": lambda z: z.prod(1), "prod0k": lambda z: z.prod(0, keepdim=True),
                        "cumprod1": lambda z: z.cumprod(1), "cumprod0": lambda z: z.cumprod(0),
                        "prod_of_cumprod": lambda z: z.cumprod(1).prod(1)}.items():
            z.grad = None
            o = f(z)
            o.backward(torch.full(o.shape, 0.5 - 1j, dtype=torch.cfloat))
            out[f"{name}{'_zero' if zero else ''}"] = {"out": plain(torch, o), "fn": type(o.grad_fn).__name__,
                                                       "grad": plain(torch, z.grad)}
    long = torch.tensor([complex(1 + 0.01 * k, 0.05 * (k % 3) - 0.05) for k in range(37)], dtype=torch.cdouble)
    out["prod_long"] = plain(torch, long.prod())
    out["cumprod_long"] = plain(torch, long.cumprod(0))
    w = torch.tensor([[1 + 1j, 2 - 1j], [0.5j, 3 + 0j]])
    out["errors"] = {name: caught(f) for name, f in {
        "max": lambda: w.max(), "min": lambda: w.min(), "max_dim": lambda: w.max(1), "min_dim": lambda: w.min(0),
        "amax": lambda: w.amax(), "amin": lambda: w.amin(1), "argmax": lambda: w.argmax(), "argmin": lambda: w.argmin(1),
        "sort": lambda: w.sort(), "argsort": lambda: w.argsort(), "topk": lambda: w.topk(1),
        "maximum": lambda: torch.maximum(w, w), "minimum": lambda: torch.minimum(w, w), "max_binary": lambda: torch.max(w, w)}.items()}
    return out


def s_forward_ad(torch):
    """Forward-mode AD through complex tensors: the tangent of each op's output, for a primal
    that does not and one that does require grad (the JVP then comes from the recorded node)."""
    fwAD = torch.autograd.forward_ad
    z0 = torch.tensor([1 + 2j, -0.5 + 1j, 3 - 1j, 0.25 + 0.5j], dtype=torch.complex64)
    tz = torch.tensor([0.5 - 1j, 1 + 0.25j, -2 + 1j, 0.1 + 0.3j], dtype=torch.complex64)
    w = torch.tensor([2 - 1j, 0.5j, 1 + 1j, -1 + 0.25j], dtype=torch.complex64)
    x0 = torch.tensor([0.3, -1.2, 2.0, 0.7])
    tx = torch.tensor([1.0, 0.5, -0.25, 2.0])
    ops = {
        "exp": lambda d: d.exp(), "log": lambda d: d.log(), "sin": lambda d: d.sin(), "tanh": lambda d: d.tanh(),
        "sqrt": lambda d: d.sqrt(), "sigmoid": lambda d: d.sigmoid(), "reciprocal": lambda d: d.reciprocal(),
        "pow2": lambda d: d ** 2, "pow_half": lambda d: d.pow(0.5), "pow_tensor": lambda d: d ** w, "rpow": lambda d: w ** d,
        "mul": lambda d: d * w, "div": lambda d: d / w, "rdiv": lambda d: w / d, "add": lambda d: d + w,
        "sub": lambda d: w - d, "square": lambda d: d * d, "scalar_mul": lambda d: d * (1 - 2j), "abs": lambda d: d.abs(),
        "angle": lambda d: d.angle(), "conj": lambda d: d.conj(), "real": lambda d: d.real, "imag": lambda d: d.imag,
        "sgn": lambda d: d.sgn(), "view_as_real": lambda d: torch.view_as_real(d), "sum": lambda d: d.sum(),
        "mean": lambda d: d.mean(), "var": lambda d: d.var(), "norm": lambda d: d.norm(),
        "matmul": lambda d: d.reshape(2, 2) @ w.reshape(2, 2), "mv": lambda d: d.reshape(2, 2) @ w[:2],
        "cumsum": lambda d: d.cumsum(0), "prod": lambda d: d.prod(), "cumprod": lambda d: d.cumprod(0),
        "transpose": lambda d: d.reshape(2, 2).t(), "index": lambda d: d[1:3], "cat": lambda d: torch.cat([d, w]),
        "stack": lambda d: torch.stack([d, w]), "mH": lambda d: d.reshape(2, 2).mH, "vdot": lambda d: torch.vdot(d, w),
        "dot": lambda d: torch.dot(d, w), "where": lambda d: torch.where(torch.tensor([True, False, True, False]), d, w),
        "flip": lambda d: d.flip(0), "gather": lambda d: d.gather(0, torch.tensor([3, 3, 1])),
        "clone": lambda d: d.clone(), "mul_inplace": lambda d: d.clone().mul_(w), "to_cdouble": lambda d: d.to(torch.complex128),
        "abs_squared_sum": lambda d: (d.abs() ** 2).sum(), "real_of_product": lambda d: (d * w).real.sum(),
        "exp_of_norm": lambda d: (d.conj() * d).exp(),
    }
    real_ops = {"complex": lambda d: torch.complex(d, d * 2), "polar": lambda d: torch.polar(d.abs() + 1, d),
                "view_as_complex": lambda d: torch.view_as_complex(d.reshape(2, 2)), "real_times_complex": lambda d: d * w}
    out = {}
    for req in (False, True):
        for table, p0, t in ((ops, z0, tz), (real_ops, x0, tx)):
            for name, f in table.items():
                p = p0.clone().requires_grad_(req)

                def run():
                    with fwAD.dual_level():
                        o = f(fwAD.make_dual(p, t))
                        return plain(torch, fwAD.unpack_dual(o).tangent)
                out[f"{name}{'_req' if req else ''}"] = caught(run)
    # forward-over-reverse: a Hessian-vector product of a real function of complex inputs
    z = z0.clone().requires_grad_(True)
    with fwAD.dual_level():
        d = fwAD.make_dual(z, tz)
        loss = (d.abs() ** 2 * w.real).sum() + (d * d).real.sum()
        g, = torch.autograd.grad(loss, d, create_graph=True)
        out["hvp"] = plain(torch, fwAD.unpack_dual(g).tangent)
    out["jvp"] = plain(torch, torch.func.jvp(lambda a: (a.sin() * w).sum(), (z0,), (tz,)))
    return out


def s_branch_cuts(torch):
    """asin/acos/atan/sqrt/log on and near their branch cuts, signed zeros naming the side."""
    re = torch.tensor([2.0, 2.0, -2.0, -2.0, 0.0, 0.0, -0.0, -0.0, 0.5, 1.5, -3.0, 1.0, -1.0, 0.0, 1e-9],
                      dtype=torch.float64)
    im = torch.tensor([0.0, -0.0, 0.0, -0.0, 2.0, -2.0, 2.0, -2.0, 0.0, 0.1, 0.0, 0.0, 0.0, 1.0, -1e-9],
                      dtype=torch.float64)
    z = torch.complex(re, im)
    return {f: plain(torch, getattr(z, f)()) for f in ("asin", "acos", "atan", "sqrt", "log")}


def s_matmul(torch):
    a = torch.tensor([[1 + 1j, 2, -1j], [0, 1j, 3 - 2j]], requires_grad=True)
    b = torch.tensor([[1j, 2 - 1j], [0.5, 1], [-1 + 1j, 2j]], requires_grad=True)
    m = a @ b
    m.abs().sum().backward()
    c = torch.tensor([[[1 + 1j, 2j], [0, 1]], [[1, -1j], [2, 3 + 1j]]], requires_grad=True)
    d = torch.bmm(c, c)
    torch.view_as_real(d).sum().backward()
    v = torch.tensor([1 + 1j, 2 - 1j], dtype=torch.cdouble)
    return {"mm": plain(torch, m), "mm_fn": type(m.grad_fn).__name__, "a_grad": plain(torch, a.grad),
            "b_grad": plain(torch, b.grad), "bmm": plain(torch, d), "bmm_fn": type(d.grad_fn).__name__,
            "c_grad": plain(torch, c.grad), "mv": plain(torch, torch.mv(torch.tensor([[1, 1j], [2j, 1]], dtype=torch.cdouble), v)),
            "dtype_error": caught(lambda: torch.mm(a, torch.ones(3, 2)))}


def s_mixed_and_promotion(torch):
    r = torch.tensor([1.0, 2.0], dtype=torch.float64)
    z = torch.tensor([1j, 2 - 1j])
    return {"f64_c64": plain(torch, r * z), "scalar_c": plain(torch, torch.tensor([1, 2]) * 1j),
            "f32_c": plain(torch, torch.ones(2) * (1 + 1j)), "f64_c": plain(torch, r + 1j),
            "c64_f64_0dim": plain(torch, z + torch.tensor(2.0, dtype=torch.float64)),
            "c_int": plain(torch, z * torch.tensor([2, 3])), "div_int": plain(torch, torch.tensor([1, 2]) / z),
            "promote": str(torch.promote_types(torch.complex64, torch.float64)),
            "result_type": str(torch.result_type(torch.tensor([1.0], dtype=torch.float64), 1j)),
            "eq": plain(torch, torch.tensor([1 + 1j, 2j, 3]) == torch.tensor([1 + 1j, 2, 3])),
            "ne": plain(torch, torch.tensor([1 + 1j, 2j, 3]) != torch.tensor([1 + 1j, 2, 3])),
            "inplace_err": caught(lambda: torch.zeros(2).add_(z)),
            "isnan": plain(torch, torch.tensor([complex(float("nan"), 0), 1j, complex(1, float("inf"))]).isnan()),
            "isfinite": plain(torch, torch.tensor([complex(float("nan"), 0), 1j, complex(1, float("inf"))]).isfinite())}


def s_shapes_and_indexing(torch):
    c = torch.view_as_complex(torch.arange(24.0).reshape(3, 4, 2))
    q = torch.zeros(3, dtype=torch.cfloat)
    q[1] = 2 + 3j
    q[0] += 1j
    q[2:] = torch.tensor([5.0])
    z = torch.tensor([1 + 1j, 2 - 2j, 3j], requires_grad=True)
    sel = z[torch.tensor([2, 0, 2])]
    sel.backward(torch.tensor([1j, 2, 1]))
    return {"row": plain(torch, c[1]), "col": plain(torch, c[:, 1]), "t": plain(torch, c.t()),
            "reshape": plain(torch, c.t().reshape(12)), "contig": plain(torch, c.t().contiguous()),
            "cat": plain(torch, torch.cat([c[:1], c[2:]])), "stack": plain(torch, torch.stack([c[0], c[2]], 1)),
            "index": plain(torch, c[torch.tensor([2, 0])]), "setitem": plain(torch, q),
            "index_grad": plain(torch, z.grad), "index_fn": type(sel.grad_fn).__name__,
            "where": plain(torch, torch.where(torch.tensor([True, False]), torch.tensor([1j, 2j]), torch.tensor([3.0, 4.0]))),
            "flip": plain(torch, c[0].flip(0)), "expand": plain(torch, c[0, :1].expand(3)),
            "clone": plain(torch, c[::2, ::3].clone()), "real_view_write": plain(torch, _real_write(torch))}


def _real_write(torch):
    c = torch.zeros(2, dtype=torch.cfloat)
    c.real.fill_(1.5)
    c.imag[1] = -2
    return c


def s_python_values(torch):
    w = torch.tensor([2 - 1j, 1j, 1.5 + 0.25j])
    return {"item": plain(torch, w[0].item()), "tolist": [plain(torch, v) for v in w.tolist()],
            "numpy": [[v.real, v.imag] for v in w.numpy().tolist()], "numpy_dtype": str(w.numpy().dtype),
            "numpy128": str(w.to(torch.cdouble).numpy().dtype), "is_complex": [w.is_complex(), torch.is_complex(w), torch.ones(1).is_complex()],
            "dtype_attrs": [torch.complex64.is_complex, torch.float32.is_complex, str(torch.float64.to_complex()),
                            str(torch.complex64.to_real()), str(torch.cfloat), str(torch.cdouble), torch.complex128.itemsize],
            "real_of_real": plain(torch, torch.ones(2).real), "float_cast": plain(torch, w.float()),
            "element_size": w.element_size()}


def s_printing(torch):
    return {"reprs": [repr(t) for t in [
        torch.tensor([1 + 2j, 3 - 1j, -0.5 + 0j]), torch.tensor(1 + 2j), torch.zeros(2, dtype=torch.cfloat),
        torch.tensor([1e10 + 1j, 1e-3j]), torch.tensor([[1.5 + 2j, -3.25 - 1e-4j]], dtype=torch.cdouble),
        torch.ones(2, 2) * (1 + 1j), torch.tensor([1 + 1j], requires_grad=True),
        torch.tensor([1 + 1j], requires_grad=True) * 2, torch.view_as_complex(torch.arange(40.0).reshape(4, 5, 2)),
        torch.tensor([complex(float("nan"), 1), complex(1, float("inf"))]), torch.tensor([-0.0 - 0.0j, 0.0 + 0.0j]),
        torch.zeros(0, dtype=torch.cfloat)]]}


def s_errors(torch):
    w = torch.tensor([2 - 1j, 1j])
    z = torch.tensor([1 + 1j, 2j], requires_grad=True)
    return {"implicit_grad": caught(lambda: z.sum().backward()),
            "relu": caught(lambda: torch.relu(w)), "lt": caught(lambda: w < w), "floor": caught(lambda: w.floor()),
            "sign": caught(lambda: w.sign()), "clamp": caught(lambda: w.clamp(0, 1)),
            "vac_size": caught(lambda: torch.view_as_complex(torch.zeros(3))),
            "vac_dtype": caught(lambda: torch.view_as_complex(torch.zeros(3, 2, dtype=torch.int64))),
            "vac_stride": caught(lambda: torch.view_as_complex(torch.zeros(2, 3).t())),
            "vac_stride2": caught(lambda: torch.view_as_complex(torch.zeros(3, 3)[:, :2])),
            "vac_offset": caught(lambda: torch.view_as_complex(torch.zeros(7)[1:].view(3, 2))),
            "vac_0dim": caught(lambda: torch.view_as_complex(torch.zeros(()))),
            "var_real": caught(lambda: torch.view_as_real(torch.zeros(2))),
            "imag_real": caught(lambda: torch.zeros(2).imag),
            "complex_dtypes": caught(lambda: torch.complex(torch.zeros(2), torch.zeros(2, dtype=torch.float64))),
            "complex_ints": caught(lambda: torch.complex(torch.zeros(2, dtype=torch.int64), torch.zeros(2, dtype=torch.int64))),
            "float_list": caught(lambda: torch.tensor([1j, 2], dtype=torch.float32)),
            "item_many": caught(lambda: w.item()),
            "abs_": caught(lambda: w.clone().abs_()),
            "bernoulli_": caught(lambda: w.clone().bernoulli_()),
            "bernoulli": caught(lambda: torch.bernoulli(w))}


def s_more_ops(torch):
    z = torch.tensor([1 + 2j, 3 - 1j, -0.5 + 0.5j], requires_grad=True)
    w = torch.tensor([2 - 1j, 1j, 1.5 + 0.25j], requires_grad=True)
    out = {}
    for name, f in {"pow_tt": lambda: z ** w, "pow_cscalar": lambda: z ** (1 + 1j), "rpow": lambda: 2 ** z,
                    "cumsum": lambda: z.cumsum(0), "dot": lambda: torch.dot(z, w), "vdot": lambda: torch.vdot(z, w),
                    "var": lambda: z.var(), "std": lambda: z.std(), "norm": lambda: z.norm(),
                    "var_dim": lambda: torch.stack([z, w]).var(0), "pow_real_tensor": lambda: z ** torch.tensor([2.0, 0.5, -1.0])}.items():
        z.grad = w.grad = None
        o = f()
        g = torch.full(o.shape, 0.5 - 0.25j, dtype=o.dtype) if o.is_complex() else torch.full(o.shape, 0.75, dtype=o.dtype)
        o.backward(g)
        out[name] = {"out": plain(torch, o), "fn": type(o.grad_fn).__name__, "gz": plain(torch, z.grad),
                     "gw": plain(torch, w.grad)}
    q = z.detach().clone()
    q.mul_(w.detach())
    q.add_(1j)
    q -= 2
    q.div_(torch.tensor([1.0, 2.0, 4.0]))
    out["inplace"] = plain(torch, q)
    out["fill"] = plain(torch, torch.zeros(2, dtype=torch.cfloat).fill_(2 - 3j))
    out["copy_real"] = plain(torch, torch.zeros(3, dtype=torch.cfloat).copy_(torch.tensor([1.0, 2.0, 3.0])))
    out["bool"] = plain(torch, torch.tensor([0j, 1j, 2]).bool())
    out["nonzero"] = plain(torch, torch.tensor([0j, 1j, 0, 3]).nonzero())
    out["masked_fill"] = plain(torch, z.detach().masked_fill(torch.tensor([True, False, True]), 0))
    out["index_select"] = plain(torch, z.detach().index_select(0, torch.tensor([2, 1])))
    out["gather"] = plain(torch, z.detach().gather(0, torch.tensor([2, 2])))
    out["allclose"] = torch.allclose(z.detach(), z.detach().clone())
    out["type"] = z.type()
    out["sum_dtype"] = plain(torch, z.detach().sum(dtype=torch.cdouble))
    out["div_zero"] = plain(torch, torch.tensor([1 + 1j, 0j, -2j, 1e30 + 1e30j]) / torch.tensor([0j, 0j, 1e-30 + 0j, 3e30 - 1e30j]))
    out["div_big"] = plain(torch, torch.tensor([1e20 + 1e20j], dtype=torch.cdouble) / torch.tensor([1e300 + 1e300j], dtype=torch.cdouble))
    out["linear"] = plain(torch, torch.nn.functional.linear(z.detach().reshape(1, 3), torch.ones(2, 3, dtype=torch.cfloat)))
    return out


def s_inplace_grad(torch):
    out = {}
    for name, op in {"mul_": lambda y: y.mul_(1j), "imul": lambda y: y.__imul__(1 - 1j), "mul_t": lambda y: y.mul_(torch.tensor(2j)),
                     "add_": lambda y: y.add_(1j), "sub_": lambda y: y.sub_(torch.tensor([1.0, 2.0])), "div_": lambda y: y.div_(1j),
                     "mul_real": lambda y: y.mul_(2.0), "exp_": lambda y: y.exp_(), "neg_": lambda y: y.neg_(),
                     "setitem": lambda y: y.__setitem__(0, 3 - 1j)}.items():
        z = torch.tensor([1 + 1j, 2j], requires_grad=True)
        y = z * 2
        op(y)
        (y * torch.tensor([1 + 2j, 3 - 1j])).real.sum().backward()
        out[name] = {"y": plain(torch, y), "fn": type(y.grad_fn).__name__, "grad": plain(torch, z.grad)}
    return out


def s_random(torch):
    out = {}
    for seed in (0, 7):
        torch.manual_seed(seed)
        out[f"seed{seed}"] = [plain(torch, torch.randn(3, dtype=torch.cfloat)), plain(torch, torch.rand(5, dtype=torch.cdouble)),
                              plain(torch, torch.randn(20, dtype=torch.cfloat)), plain(torch, torch.randn(2, 3, dtype=torch.cdouble)),
                              plain(torch, torch.zeros(9, dtype=torch.cfloat).normal_(1.0, 2.0)),
                              plain(torch, torch.zeros(4, dtype=torch.cfloat).uniform_(-1, 1))]
    torch.manual_seed(0)
    out["printed"] = repr(torch.randn(2, 2, dtype=torch.cfloat))
    return out


SCENARIOS = {
    **{f"unary_{n}": (lambda n: lambda torch: _unary(torch, n))(n) for n in UNARY},
    **{f"to_real_{n}": (lambda n: lambda torch: _to_real(torch, n))(n) for n in TO_REAL},
    **{f"binary_{n}": (lambda n: lambda torch: _binary(torch, n, False))(n) for n in BINARY},
    **{f"binary_{n}_real_right": (lambda n: lambda torch: _binary(torch, n, True))(n) for n in ("add", "sub", "mul", "div")},
    **{f"binary_{n}_real_left": (lambda n: lambda torch: _binary(torch, n, "left"))(n) for n in ("add", "sub", "mul", "div")},
    "constructors": s_constructors, "reductions": s_reductions, "products": s_products, "forward_ad": s_forward_ad, "branch_cuts": s_branch_cuts, "matmul": s_matmul,
    "mixed_and_promotion": s_mixed_and_promotion, "shapes_and_indexing": s_shapes_and_indexing,
    "python_values": s_python_values, "printing": s_printing, "errors": s_errors, "random": s_random, "more_ops": s_more_ops,
    "inplace_grad": s_inplace_grad,
}


def run(torch, name):
    return caught(lambda: SCENARIOS[name](torch))
