"""Tensor attributes and torch functions real programs reach for early (tile, ravel,
broadcast_to, fliplr/flipud/rot90, count_nonzero, diff, Tensor.new, the device predicates,
nbytes/itemsize, is_signed/is_nonzero, the comparison aliases), scatter/gather with a 0-dim
index, the random streams to the bit (randn's vectorised Box-Muller, uniform_'s fused
multiply-add), backends flags, pickling functional ops. Run with ``torch`` bound to PyTorch
(tools/record_surface_goldens.py records fixtures/surface.json) or to ferrograd
(test_surface.py compares)."""

import hashlib
import io
import pickle


def _v(t):
    return [v if v == v else "nan" for v in t.detach().double().flatten().tolist()]


def _caught(f):
    try:
        return f()
    except Exception as e:  # noqa: BLE001 - PyTorch's error is the result
        return {"error": [type(e).__name__, str(e)]}


def _res(r):
    if not hasattr(r, "grad_fn"):
        return r if not isinstance(r, tuple) else list(r)
    return {"value": _v(r), "shape": list(r.shape), "dtype": str(r.dtype).split(".")[-1],
            "fn": type(r.grad_fn).__name__ if r.grad_fn else None}


def _bits(t):
    return hashlib.sha256(t.detach().numpy().tobytes()).hexdigest()


def _setitem_bool0d(torch):
    t = torch.tensor(1.0)
    t[torch.tensor(False)] = 3.0
    t[torch.tensor(True)] = t * 4.0
    return t


def _unfold_grad(torch):
    x = torch.arange(10.0).requires_grad_()
    w = x.unfold(0, 4, 3)
    g, = torch.autograd.grad((w * torch.arange(12.0).reshape(3, 4)).sum(), x)
    return g


def _factory_out(torch):
    c = torch.ones(2, 3)
    r = [torch.zeros(2, 3, out=c) is c, _v(c)]
    torch.manual_seed(0)
    torch.rand(2, 3, out=c)
    r.append(_v(c))
    d = torch.empty(0, dtype=torch.float64)
    torch.ones(4, out=d)
    r.append([list(d.shape), str(d.dtype)])
    return r


def _device_ctx(torch):
    with torch.device("cpu"):
        t = torch.zeros(2)
    return str(t.device)


def _inplace_ops(torch):
    r = {}
    for name, args in (("ceil_", ()), ("round_", ()), ("sign_", ()), ("erf_", ()), ("expm1_", ()), ("log1p_", ()),
                       ("square_", ()), ("tan_", ()), ("atan2_", (torch.tensor(0.5),)), ("fmod_", (0.7,)),
                       ("remainder_", (0.7,)), ("eq_", (1.5,)), ("lt_", (1.0,)), ("logit_", ()), ("cumsum_", (0,)),
                       ("reciprocal_", ()), ("trunc_", ()), ("frac_", ()) if False else ("floor_", ())):
        def one(name=name, args=args):
            leaf = torch.tensor([0.25, 0.5, 1.5], requires_grad=True)
            x = leaf.clone()
            ret = getattr(x, name)(*args)
            g = torch.autograd.grad(x.sum(), leaf, allow_unused=True)[0] if x.requires_grad else None
            return {"same": ret is x, "v": _v(x), "fn": type(x.grad_fn).__name__ if x.grad_fn else None,
                    "g": None if g is None else _v(g)}
        r[name] = _caught(one)
    y = torch.tensor([0.25, 0.5])
    r["torch.sin_"] = [torch.sin_(y) is y, _v(y)]
    r["torch.sigmoid_"] = _v(torch.sigmoid_(torch.tensor([0.0, 1.0])))
    return r


def _inplace_view(torch):
    leaf = torch.ones(2, 3, requires_grad=True)
    b = leaf.clone()
    v = b[0]
    v.exp_()
    g, = torch.autograd.grad(b.sum(), leaf)
    return [type(b.grad_fn).__name__, type(v.grad_fn).__name__, _v(b), _v(g)]


def run(torch):
    F = torch.nn.functional

    out = {}
    x = torch.arange(6.0).reshape(2, 3).requires_grad_()
    xi = torch.tensor([[0, 1, 0], [2, 0, 3]])
    cases = {
        "tile": lambda: x.tile(2, 1), "tile_short": lambda: torch.tile(x, (2,)), "tile_long": lambda: x.tile((2, 1, 2)),
        "ravel": lambda: x.ravel(), "ravel_t": lambda: x.t().ravel(), "ravel_fn": lambda: torch.ravel(x.t()),
        "broadcast_to": lambda: x.broadcast_to(4, 2, 3), "broadcast_to_fn": lambda: torch.broadcast_to(x, (2, 2, 3)),
        "broadcast_to_bad": lambda: x.broadcast_to(3, 3),
        "fliplr": lambda: torch.fliplr(x), "flipud": lambda: x.flipud(), "fliplr_1d": lambda: torch.fliplr(torch.arange(3)),
        "flipud_0d": lambda: torch.flipud(torch.tensor(3)),
        "rot90": lambda: torch.rot90(x), "rot90_2": lambda: torch.rot90(x, 2), "rot90_m1": lambda: x.rot90(-1),
        "rot90_5": lambda: torch.rot90(x, 5, [1, 0]), "rot90_0": lambda: torch.rot90(x, 0),
        "rot90_3d": lambda: torch.rot90(torch.arange(8).reshape(2, 2, 2), 1, [0, 2]),
        "rot90_onedim": lambda: torch.rot90(x, 1, [0]), "rot90_same": lambda: torch.rot90(x, 1, [0, 0]),
        "count_nonzero": lambda: torch.count_nonzero(xi), "count_nonzero0": lambda: xi.count_nonzero(0),
        "count_nonzero_t": lambda: torch.count_nonzero(xi, dim=(0, 1)),
        "diff": lambda: torch.diff(x), "diff2": lambda: x.diff(n=2, dim=1, prepend=torch.zeros(2, 1)),
        "diff0": lambda: torch.diff(x, dim=0, append=torch.ones(1, 3)), "diff_bool": lambda: torch.diff(torch.tensor([True, False, False])),
        "diff_int": lambda: torch.diff(xi, dim=1), "diff_scalar": lambda: torch.diff(torch.tensor(3.0)),
        "new_size": lambda: list(x.new(2, 3).shape), "new_data": lambda: x.new([1, 2]), "new_empty": lambda: list(x.new().shape),
        "new_Size": lambda: list(x.new(torch.Size([4])).shape), "new_dtype": lambda: str(xi.new([1.5]).dtype),
        "props": lambda: [x.is_cpu, x.is_xpu, x.is_mps, x.nbytes, x.itemsize, x.get_device(), xi.nbytes, xi.itemsize],
        "is_signed": lambda: [x.is_signed(), torch.tensor([True]).is_signed(), torch.tensor([1], dtype=torch.uint8).is_signed(), torch.is_signed(xi)],
        "is_nonzero": lambda: [torch.tensor(3.0).is_nonzero(), torch.tensor([0]).is_nonzero(), torch.is_nonzero(torch.tensor([[1.5]]))],
        "is_nonzero_many": lambda: torch.tensor([1.0, 2.0]).is_nonzero(), "is_nonzero_none": lambda: torch.tensor([]).is_nonzero(),
        "compare": lambda: [_res(x.greater(2)), _res(torch.less_equal(x, 2)), _res(x.not_equal(x.detach())), _res(torch.greater_equal(x, 3))],
        "subtract": lambda: torch.subtract(x, 1, alpha=2), "swapdims": lambda: x.swapdims(0, 1), "absolute": lambda: torch.absolute(-x),
        "positive": lambda: torch.positive(x), "positive_bool": lambda: torch.positive(torch.tensor([True])),
        "outer": lambda: torch.arange(2.0).requires_grad_().outer(torch.arange(3.0)), "ger": lambda: torch.ger(torch.arange(2.0), torch.arange(3.0)),
        "constants": lambda: [torch.pi, torch.e, torch.inf, str(torch.nan), torch.newaxis],
        "scatter_0d": lambda: torch.zeros(5).scatter_(0, torch.tensor(3), value=1),
        "scatter_0d_src": lambda: torch.zeros(5).scatter(0, torch.tensor(3), torch.tensor(7.0)),
        "scatter_add_0d": lambda: torch.zeros(5).scatter_add(0, torch.tensor(3), torch.tensor(7.0)),
        "gather_0d": lambda: torch.arange(5.0).gather(0, torch.tensor(2)),
        "bool0d_index": lambda: [list(torch.tensor(1.0)[torch.tensor(True)].shape), list(torch.tensor(1.0)[torch.tensor(False)].shape),
                                 list(torch.arange(6.0).reshape(2, 3)[..., torch.tensor(True)].shape),
                                 list(torch.arange(6.0).reshape(2, 3)[0, torch.tensor(True)].shape)],
        "bool0d_setitem": lambda: _v(_setitem_bool0d(torch)),
        "unfold": lambda: x.unfold(1, 2, 1), "unfold_step": lambda: torch.arange(10.0).requires_grad_().unfold(0, 3, 2),
        "unfold_0d": lambda: torch.tensor(5.0).unfold(0, 1, 1), "unfold_big": lambda: x.unfold(1, 4, 1),
        "unfold_step0": lambda: x.unfold(1, 2, 0), "unfold_grad": lambda: _v(_unfold_grad(torch)),
        "factory_out": lambda: _factory_out(torch), "device_ctx": lambda: _device_ctx(torch),
        "inplace_ops": lambda: _inplace_ops(torch),
        "inplace_int_sqrt": lambda: torch.tensor([1, 4]).sqrt_(),
        "inplace_view": lambda: _inplace_view(torch),
        "one_hot_lambda": lambda: torch.zeros(10, dtype=torch.float).scatter_(0, torch.tensor(4), value=1),
        "deterministic": lambda: [torch.are_deterministic_algorithms_enabled(), torch.is_deterministic_algorithms_warn_only_enabled()],
        "backends": lambda: [torch.backends.cudnn.is_available(), torch.backends.mps.is_available(), torch.backends.cudnn.deterministic,
                             torch.backends.cudnn.benchmark, torch.backends.cuda.matmul.allow_tf32, torch.backends.mkldnn.enabled],
    }
    for name, f in cases.items():
        out[name] = _caught(lambda: _res(f()))
    # the random streams, to the bit
    for n in (16, 17, 1000, 4099):
        torch.manual_seed(0)
        out[f"randn_{n}"] = _bits(torch.randn(n))
    torch.manual_seed(1)
    out["normal_"] = _bits(torch.empty(300).normal_(0.5, 0.3))
    for dt in ("float32", "float64"):
        torch.manual_seed(2)
        out[f"uniform_{dt}"] = _bits(torch.empty(1000, dtype=getattr(torch, dt)).uniform_(-1 / 3, 1 / 3))
    torch.manual_seed(3)
    lin = torch.nn.Linear(50, 40)
    out["linear_init"] = [_bits(lin.weight), _bits(lin.bias)]
    torch.manual_seed(4)
    emb = torch.nn.Embedding(30, 20)
    out["embedding_init"] = _bits(emb.weight)
    # pickling functions (a module holding F.relu) and loading a module under safe_globals
    out["pickle_fns"] = [pickle.loads(pickle.dumps(f)) is f for f in (F.relu, F.gelu, F.dropout, torch.cat, torch.det, torch.stack)]
    buf = io.BytesIO()
    torch.save(torch.nn.Linear(2, 2), buf)
    buf.seek(0)

    def safe_load():
        with torch.serialization.safe_globals([torch.nn.Linear]):
            m = torch.load(buf)
        return [type(m).__name__, list(m.weight.shape)]
    out["safe_globals_module"] = _caught(safe_load)
    out["ndql_home"] = torch.nn.modules.linear.NonDynamicallyQuantizableLinear.__module__.split(".", 1)[1]
    return out
