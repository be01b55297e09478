"""What real programs ran into (a survey of tutorial-style programs diffed against PyTorch):
collation of string fields, ``torch.__version__`` comparisons, the line a warning names,
the conversion-to-scalar warning, packed RNNs' dropout between layers, half-precision
arithmetic with a number, and the errors PyTorch raises for loss dtypes, overlapping
in-place writes and mismatched layer parameters. Run with ``torch`` bound to PyTorch
(tools/record_programs_goldens.py records fixtures/programs.json) or to ferrograd
(test_programs.py compares)."""

import contextlib
import collections
import importlib
import warnings

from _golden import caught as _caught
from _golden import values as _v


def _show(x):
    """A collated batch as plain data: tensors as (dtype, values), containers kept."""
    if hasattr(x, "grad_fn"):
        return ["tensor", str(x.dtype).split(".")[-1], _v(x)]
    if isinstance(x, tuple) and hasattr(x, "_fields"):
        return ["namedtuple", [_show(e) for e in x]]
    if isinstance(x, (list, tuple)):
        return [type(x).__name__, [_show(e) for e in x]]
    if isinstance(x, dict):
        return ["dict", {k: _show(v) for k, v in x.items()}]
    return x


def _collate(torch, out):
    dc = importlib.import_module(torch.__name__ + ".utils.data").default_collate
    P = collections.namedtuple("P", "name value")
    out["collate_str_pairs"] = _show(dc([("a", 1), ("b", 2)]))
    out["collate_mixed"] = _show(dc([(torch.zeros(2), 0, "a.png"), (torch.ones(2), 1, "b.png")]))
    out["collate_dict"] = _show(dc([{"n": "x", "v": 1.5}, {"n": "y", "v": 2.5}]))
    out["collate_namedtuple"] = _show(dc([P("s", 1), P("t", 2)]))
    out["collate_lists"] = _show(dc([["a", 1], ["b", 2]]))
    out["collate_nested"] = _show(dc([[("a", 1)], [("b", 2)]]))
    loader = torch.utils.data.DataLoader([(torch.zeros(2), "a"), (torch.ones(2), "b"), (torch.ones(2), "c")], batch_size=2)
    out["collate_loader"] = [_show(b) for b in loader]


def _version(torch, out):
    v = torch.__version__
    out["layout"] = [repr(torch.ones(2).layout), torch.ones(2).layout == torch.strided, repr(torch.sparse_coo),
                     type(torch.strided).__name__, torch.strided == torch.sparse_coo]
    out["version"] = [type(v).__name__, isinstance(v, str), v >= (2, 0), v < "2.14", v > "2.13.0a0", v >= "1.8.0",
                      v < (2, 13, 1), v.split("+")[0].split(".")[:2], torch.version.__version__ == v]


def _warnings(torch, out):
    F = torch.nn.functional
    nn = torch.nn

    def where(f):
        with warnings.catch_warnings(record=True) as ws:
            warnings.simplefilter("always")
            f()
        return [[w.filename.rsplit("/", 1)[-1].replace("programs_scenarios.py", "<here>"), w.category.__name__,
                 str(w.message)[:60]] for w in ws]
    out["warn_softmax"] = where(lambda: F.softmax(torch.ones(2, 3)))
    out["warn_mse_size"] = where(lambda: F.mse_loss(torch.ones(2, 3), torch.ones(3)))
    out["warn_affine_grid"] = where(lambda: F.affine_grid(torch.ones(1, 2, 3), [1, 1, 2, 2]))
    out["warn_upsample"] = where(lambda: F.upsample(torch.ones(1, 1, 2, 2), scale_factor=2))
    out["warn_module_softmax"] = where(lambda: nn.Softmax()(torch.ones(2, 3)))
    b = torch.ones(1, requires_grad=True) * 2
    with torch.no_grad():
        out["warn_scalar_no_grad"] = where(lambda: float(b))
    out["warn_scalar_int"] = where(lambda: int(b))
    out["warn_scalar_item"] = where(lambda: b.item())


def _rnn(torch, out):
    nn = torch.nn
    R = importlib.import_module(torch.__name__ + ".nn.utils.rnn")
    for cls in (nn.GRU, nn.LSTM, nn.RNN):
        for bi in (False, True):
            torch.manual_seed(0)
            g = cls(2, 3, num_layers=3, dropout=0.5, bidirectional=bi)
            x = torch.randn(4, 3, 2, requires_grad=True)
            o, h = g(R.pack_padded_sequence(x, [4, 3, 3], enforce_sorted=False))
            hh = h[0] if isinstance(h, tuple) else h
            (o.data.sum() + (hh * hh).sum()).backward()
            out[f"packed_dropout_{cls.__name__}_{bi}"] = [_v(o.data), _v(hh), _v(x.grad), _v(torch.rand(2))]


def _half(torch, out):
    torch.manual_seed(0)
    for dt in (torch.float16, torch.bfloat16):
        h = torch.randn(64).to(dt)
        name = str(dt).split(".")[-1]
        out[f"half_scalar_{name}"] = [_v(h * 1.1), _v(h + 0.3), _v(h - 1e-3), _v(h / 3.3), _v(1.7 - h), _v(2.9 / (h.abs() + 1)),
                                      _v(h * torch.tensor(1.1)), _v(torch.tensor(0.7, dtype=torch.float64) + h), _v(h * 3)]


def _errors(torch, out):
    F = torch.nn.functional
    nn = torch.nn
    p = torch.tensor([0.3, 0.8], requires_grad=True)
    cases = {
        "bce_long_target": lambda: F.binary_cross_entropy(p, torch.tensor([1, 0])),
        "bce_double_target": lambda: F.binary_cross_entropy(p, torch.tensor([1.0, 0.0]).double()),
        "bcel_long_target": lambda: F.binary_cross_entropy_with_logits(p, torch.tensor([1, 0])),
        "bcel_bool_target": lambda: F.binary_cross_entropy_with_logits(p, torch.tensor([True, False])),
        "bcel_double_target": lambda: F.binary_cross_entropy_with_logits(p, torch.tensor([1.0, 0.0]).double()).dtype.is_floating_point,
        "kl_div_long": lambda: F.kl_div(p, torch.tensor([1, 0]), reduction="sum"),
        "kl_div_long_input": lambda: F.kl_div(p.long(), torch.tensor([1.0, 0.0]), reduction="sum"),
        "overlap_setitem": lambda: _setitem_overlap(torch),
        "overlap_add_": lambda: _v(_add_overlap(torch)),
        "overlap_copy_": lambda: _v(_copy_overlap(torch)),
        "overlap_same_ok": lambda: _v(_same_overlap(torch)),
        "overlap_disjoint_ok": lambda: _v(_disjoint(torch)),
        "conv_double_bias": lambda: nn.Conv2d(1, 1, 3)(torch.ones(1, 1, 5, 5).double()),
        "conv_double_nobias": lambda: nn.Conv2d(1, 1, 3, bias=False)(torch.ones(1, 1, 5, 5).double()),
        "conv_float_wdouble": lambda: nn.Conv2d(1, 1, 3).double()(torch.ones(1, 1, 5, 5)),
        "conv1d_double": lambda: nn.Conv1d(1, 1, 3)(torch.ones(1, 1, 5).double()),
        "bn_channels": lambda: nn.BatchNorm2d(3)(torch.ones(2, 4, 2, 2)),
        "bn_channels_no_stats": lambda: nn.BatchNorm2d(3, track_running_stats=False)(torch.ones(2, 4, 2, 2)),
        "cat_empty": lambda: torch.cat([]),
        "index_add_dtype": lambda: torch.zeros(3).index_add_(0, torch.tensor([0]), torch.ones(1).double()),
        "embedding_float": lambda: nn.Embedding(3, 2)(torch.tensor([1.0])),
        "embedding_short": lambda: nn.Embedding(3, 2)(torch.tensor([1]).short()),
        "embedding_bool": lambda: nn.Embedding(3, 2)(torch.tensor([True])),
        "einsum_broadcast": lambda: torch.einsum("ij,jk->ik", torch.ones(3, 3), torch.ones(4, 2)),
        "einsum_broadcast_ok": lambda: _v(torch.einsum("ij,jk->ik", torch.ones(3, 1), torch.ones(4, 2))),
        "affine_grid_tuple_size": lambda: F.affine_grid(torch.zeros(1, 3, 3), (1, 1, 3, 3), align_corners=False),
        "affine_grid_list_size": lambda: F.affine_grid(torch.zeros(1, 3, 3), [1, 1, 3, 3], align_corners=False),
    }
    for k, f in cases.items():
        out[f"err_{k}"] = _caught(f)


def _setitem_overlap(torch):
    r = torch.arange(5)
    r[1:4] = r[0:3]
    return r.tolist()


def _add_overlap(torch):
    r = torch.arange(6.0)
    r[1:].add_(r[:-1])
    return r


def _copy_overlap(torch):
    r = torch.arange(6.0)
    r[2:5].copy_(r[1:4])
    return r


def _same_overlap(torch):
    r = torch.arange(6.0)
    r[1:4].add_(r[1:4])
    r[0:2] = r[0:2]
    return r


def _disjoint(torch):
    r = torch.arange(6.0)
    r[3:].add_(r[:3])
    r[:2].copy_(r[4:])
    return r


def _autocast(torch, out):
    nn = torch.nn
    F = nn.functional
    torch.manual_seed(0)
    m = nn.Sequential(nn.Linear(4, 3), nn.ReLU(), nn.Linear(3, 2))
    x = torch.randn(5, 4)
    y = torch.tensor([0, 1, 1, 0, 1])
    r = [torch.is_autocast_enabled("cpu"), str(torch.get_autocast_dtype("cpu")), str(torch.get_autocast_dtype("cuda"))]
    with torch.autocast("cpu"):
        r.append([torch.is_autocast_enabled("cpu"), torch.is_autocast_enabled()])
        o = m(x)
        loss = F.cross_entropy(o, y)
        r.append([str(o.dtype), o.grad_fn.name(), str(loss.dtype), _v(o), _v(loss)])
        r.append([str(t.dtype) for t in (x @ x.t(), torch.mm(x, x.t()), x.matmul(x.t()), torch.addmm(torch.zeros(5, 5), x, x.t()),
                                         torch.bmm(x[None], x.t()[None]), x + 1, torch.relu(o), o.float(),
                                         F.mse_loss(o, o.detach()), F.softmax(o, -1), F.log_softmax(o, -1),
                                         F.linear(x, torch.ones(3, 4), torch.ones(3)), F.linear(x[None], torch.ones(3, 4), torch.ones(3)),
                                         torch.matmul(x.double(), x.double().t()),
                                         nn.Conv2d(1, 2, 3)(torch.randn(1, 1, 5, 5)), nn.Conv1d(1, 2, 3)(torch.randn(1, 1, 5)),
                                         F.binary_cross_entropy_with_logits(o, torch.ones(5, 2)), F.nll_loss(F.log_softmax(o, -1), y))])
        with torch.autocast("cpu", enabled=False):
            r.append(["inner", str(m(x).dtype), torch.is_autocast_enabled("cpu")])
        r.append(str(m(x).dtype))
    loss.backward()
    r.append([str(m[0].weight.grad.dtype), _v(m[0].weight.grad), _v(m[2].bias.grad)])
    with torch.autocast("cpu", dtype=torch.float16):
        r.append(str(m(x).dtype))
    with warnings.catch_warnings(record=True) as ws:
        warnings.simplefilter("always")
        with torch.autocast("cpu", dtype=torch.float32):
            r.append(["f32", str(m(x).dtype), [str(w.message) for w in ws]])

    @torch.autocast("cpu")
    def f(a):
        return a @ a.t()
    r.append([str(f(x).dtype), torch.is_autocast_enabled("cpu")])
    out["autocast_cpu"] = r
    out["autocast_bad_device"] = _caught(lambda: torch.autocast("xpu2"))


def _names(torch, out):
    x = torch.tensor([1.0, float("nan"), float("inf"), -float("inf"), -2.5], requires_grad=True)
    y = torch.nan_to_num(x, nan=2.0)
    (y * torch.arange(5.0)).sum().backward()
    out["nan_to_num"] = [y.grad_fn.name(), [a for a in dir(y.grad_fn) if a.startswith("_saved")], _v(y), _v(x.grad),
                         _v(torch.nan_to_num(x.detach(), posinf=5.0, neginf=-7)), _v(torch.nan_to_num(x.detach().half())),
                         str(torch.nan_to_num(torch.tensor([1, 2])).dtype), _v(x.detach().nan_to_num()),
                         _v(torch.view_as_real(torch.nan_to_num(torch.complex(x.detach(), x.detach().flip(0)))))]
    z = torch.ones(3, requires_grad=True) * 2
    z[0] = 1
    leaf = torch.ones(2, requires_grad=True)
    out["node_names"] = [z.grad_fn.name(), type(z.grad_fn).__name__, leaf.sum().grad_fn.next_functions[0][0].name()]

    def where(f):
        with warnings.catch_warnings(record=True) as ws:
            warnings.simplefilter("always")
            f()
        return [[w.filename.rsplit("/", 1)[-1].replace("programs_scenarios.py", "<here>"), str(w.message)] for w in ws]
    out["warn_tensor_of_tensor"] = where(lambda: (torch.tensor(x), torch.tensor(torch.ones(2)), torch.tensor([1.0])))


def _samplers(torch, out):
    D = torch.distributions
    cases = {
        "gamma": lambda: D.Gamma(torch.tensor([2.0, 0.5, 7.5, 1.0]), 1.5).sample((3,)),
        "gamma_double": lambda: D.Gamma(torch.tensor([2.0, 0.3], dtype=torch.float64), 1.0).rsample((2,)),
        "beta": lambda: D.Beta(2.0, 3.0).sample((4,)),
        "dirichlet": lambda: D.Dirichlet(torch.tensor([0.5, 1.0, 2.5])).sample((2,)),
        "chi2": lambda: D.Chi2(torch.tensor([1.0, 4.0])).sample((3,)),
        "student_t": lambda: D.StudentT(torch.tensor([3.0, 10.0])).sample((2,)),
        "poisson": lambda: D.Poisson(torch.tensor([0.5, 3.0, 12.0, 100.0])).sample((3,)),
        "torch_poisson": lambda: torch.poisson(torch.tensor([[1.0, 25.0], [0.0, 7.0]])),
        "standard_gamma": lambda: torch._standard_gamma(torch.tensor([0.7, 3.0])),
        "fisher": lambda: D.FisherSnedecor(torch.tensor([3.0]), torch.tensor([5.0])).sample((2,)) if hasattr(D, "FisherSnedecor") else None,
    }
    for k, f in cases.items():
        if k == "fisher":
            continue
        torch.manual_seed(7)
        out[f"sample_{k}"] = _caught(lambda f=f: [_v(f()), _v(torch.rand(2))])
    torch.manual_seed(3)
    c = torch.tensor([1.5, 0.4], requires_grad=True)
    x = D.Gamma(c, 2.0).rsample()
    x.sum().backward()
    out["gamma_rsample_grad"] = [_v(x), _v(c.grad)]


def _fills(torch, out):
    """The in-place random fills: PyTorch's streams for a seed (every dtype they accept),
    their grad_fn names on a tensor that requires grad, and their errors."""
    for dt in (torch.float64, torch.float32, torch.float16, torch.bfloat16):
        name = str(dt).split(".")[-1]
        torch.manual_seed(0)
        out[f"fill_{name}"] = [_v(torch.empty(20, dtype=dt).cauchy_(1.0, 2.0)), _v(torch.empty(20, dtype=dt).log_normal_(0.5, 0.75)),
                               _v(torch.empty(20, dtype=dt).geometric_(0.3)), _v(torch.empty(5, dtype=dt).exponential_(2.0)),
                               _v(torch.empty(3, dtype=dt).cauchy_()), _v(torch.empty(3, dtype=dt).log_normal_())]
    torch.manual_seed(1)
    out["fill_geometric_ints"] = [_v(torch.empty(8, dtype=dt).geometric_(0.6)) for dt in (torch.int64, torch.int32, torch.uint8)]
    torch.manual_seed(2)
    g = torch.Generator().manual_seed(5)
    t = torch.empty(3, 4).t()
    out["fill_generator_strided"] = [_v(torch.empty(6).cauchy_(generator=g)), _v(t.log_normal_(generator=g)), _v(torch.rand(2))]
    x = torch.zeros(4, requires_grad=True)
    y = x.clone()
    names = []
    for f in (lambda: y.uniform_(), lambda: y.normal_(), lambda: y.random_(), lambda: y.random_(5), lambda: y.random_(0, 5),
              lambda: y.bernoulli_(0.5), lambda: y.bernoulli_(torch.full((4,), 0.5)), lambda: y.exponential_(),
              lambda: y.cauchy_(), lambda: y.log_normal_(), lambda: y.geometric_(0.5)):
        names.append(f().grad_fn.name())
    (y * 2).sum().backward()
    out["fill_grad_fn"] = [names, _v(x.grad)]
    cases = {
        "cauchy_sigma": lambda: torch.empty(3).cauchy_(0, 0),
        "cauchy_long": lambda: torch.empty(3, dtype=torch.long).cauchy_(),
        "cauchy_int": lambda: torch.empty(3, dtype=torch.int32).cauchy_(),
        "cauchy_complex": lambda: torch.empty(3, dtype=torch.complex64).cauchy_(),
        "geometric_p0": lambda: torch.empty(3).geometric_(0),
        "geometric_p1": lambda: torch.empty(3).geometric_(1.5),
        "geometric_bool": lambda: torch.empty(3, dtype=torch.bool).geometric_(0.5),
        "log_normal_std": lambda: torch.empty(3).log_normal_(0, -1),
        "log_normal_long": lambda: torch.empty(3, dtype=torch.long).log_normal_(),
        "exponential_long": lambda: torch.empty(3, dtype=torch.long).exponential_(),
        "exponential_uint8": lambda: torch.empty(3, dtype=torch.uint8).exponential_(),
        "fill_leaf": lambda: torch.empty(3, requires_grad=True).uniform_(),
        "fill_leaf_cauchy": lambda: torch.empty(3, requires_grad=True).cauchy_(),
        "fill_expanded": lambda: torch.empty(1).expand(3).log_normal_(),
        "size_float": lambda: torch.Size([2.5]),
        "size_str": lambda: torch.Size(["a"]),
        "size_tensor_float": lambda: torch.Size([torch.tensor(2.5)]),
        "size_ok": lambda: [repr(torch.Size([True, torch.tensor(3), 2])), repr(torch.Size())],
        "lazy_requires_grad": lambda: torch.nn.LazyLinear(3).requires_grad_(False),
        "lazy_param_numel": lambda: torch.nn.LazyLinear(3).weight.numel(),
        "lazy_param_ok": lambda: [str(torch.nn.LazyLinear(3).weight.dtype), torch.nn.LazyLinear(3).weight.requires_grad],
    }
    for k, f in cases.items():
        r = _caught(f)
        out[f"fill_err_{k}"] = r if isinstance(r, (dict, list, str)) else "ok"


def _aten_kernels(torch):
    """PyTorch with oneDNN off (its own ATen kernels); a no-op elsewhere."""
    mkldnn = getattr(getattr(torch, "backends", None), "mkldnn", None)
    flags = getattr(mkldnn, "flags", None)
    return flags(enabled=False) if flags is not None else contextlib.nullcontext()


def _half_ops(torch, out):
    """Half-precision layers and activations: ATen computes a float16/bfloat16 element in
    float32 and rounds once (a formula in the element type rounds after every step)."""
    F = torch.nn.functional
    torch.manual_seed(0)
    x = torch.randn(16, 64)
    w, b = torch.randn(64), torch.randn(64)
    W, B = torch.randn(32, 64), torch.randn(32)
    for dt in (torch.bfloat16, torch.float16):
        name = str(dt).split(".")[-1]
        h = x.to(dt)
        ops = {
            "sigmoid": lambda: torch.sigmoid(h), "rsqrt": lambda: h.abs().rsqrt(), "silu": lambda: F.silu(h),
            "softplus": lambda: F.softplus(h), "hardswish": lambda: F.hardswish(h), "gelu": lambda: F.gelu(h),
            "gelu_tanh": lambda: F.gelu(h, approximate="tanh"), "mish": lambda: F.mish(h), "selu": lambda: F.selu(h),
            "hardsigmoid": lambda: F.hardsigmoid(h), "logsigmoid": lambda: F.logsigmoid(h), "pow3": lambda: h ** 3,
            "lerp": lambda: torch.lerp(h, h.flip(0), 0.3), "lerp_hi": lambda: torch.lerp(h, h.flip(0), 0.8),
            "softmax": lambda: F.softmax(h, -1), "log_softmax": lambda: F.log_softmax(h, -1),
            "log_softmax_dim0": lambda: F.log_softmax(h, 0),
            "layer_norm": lambda: F.layer_norm(h, (64,), w.to(dt), b.to(dt)), "layer_norm_plain": lambda: F.layer_norm(h, (64,)),
            "rms_norm": lambda: F.rms_norm(h, (64,), w.to(dt)), "group_norm": lambda: F.group_norm(h.view(16, 8, 8), 4),
            "batch_norm": lambda: F.batch_norm(h.view(16, 8, 8), None, None, training=True),
            "linear_bias": lambda: F.linear(h, W.to(dt), B.to(dt)), "addmm": lambda: torch.addmm(B.to(dt), h, W.to(dt).t()),
        }
        for k, f in ops.items():
            out[f"halfops_{name}_{k}"] = _v(f())
        # gradients of the fused layer kernels in float32 (rounded once per gradient)
        hx = h.clone().requires_grad_()
        hw = w.to(dt).requires_grad_()
        F.layer_norm(hx, (64,), hw).sum().backward()
        out[f"halfops_{name}_layer_norm_grad"] = _v(hx.grad)
        hx = h.clone().requires_grad_()
        F.gelu(hx).backward(torch.ones_like(hx))
        out[f"halfops_{name}_gelu_grad"] = _v(hx.grad)
    # float32 GELU: ATen's kernels (erf by Abramowitz & Stegun, not libm's), both forms and
    # their backward, compared bit by bit (tests/python/test_programs.py)
    xg = torch.randn(4096) * 3
    # (PyTorch's default GELU is oneDNN's where the tensor suits it; the goldens are ATen's
    # own kernel, which it runs for every other layout)
    with _aten_kernels(torch):
        out["f32ulp_gelu"] = _v(F.gelu(xg))
        out["f32ulp_gelu_tanh"] = _v(F.gelu(xg, approximate="tanh"))
        for k, approx in (("gelu_grad", "none"), ("gelu_tanh_grad", "tanh")):
            xr = xg.clone().requires_grad_()
            F.gelu(xr, approximate=approx).backward(torch.full_like(xr, 0.75))
            out[f"f32ulp_{k}"] = _v(xr.grad)
    # sigmoid and SiLU: ATen's `1 / (1 + exp(-x))` and `x / (1 + exp(-x))` (Sleef's exp), their
    # backward in ATen's order of products
    out["f32ulp_sigmoid"] = _v(torch.sigmoid(xg))
    out["f32ulp_silu"] = _v(F.silu(xg))
    for k, f in (("sigmoid_grad", torch.sigmoid), ("silu_grad", F.silu)):
        xr = xg.clone().requires_grad_()
        f(xr).backward(torch.full_like(xr, 0.75))
        out[f"f32ulp_{k}"] = _v(xr.grad)
    # float32 lerp: a fused multiply-add, as ATen's kernel
    a, e = torch.randn(256), torch.randn(256)
    out["lerp_float32_fma"] = [_v(torch.lerp(a, e, 0.3)), _v(torch.lerp(a, a + 1e-3, 0.7)), _v(torch.lerp(a, e, torch.rand(256)))]


def run(torch):
    out = {}
    _collate(torch, out)
    _version(torch, out)
    _warnings(torch, out)
    _rnn(torch, out)
    _half(torch, out)
    _errors(torch, out)
    _autocast(torch, out)
    _names(torch, out)
    _samplers(torch, out)
    _fills(torch, out)
    _half_ops(torch, out)
    return out
