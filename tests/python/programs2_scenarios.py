"""The surface a second survey of tutorial-style programs reached for: ``torch._foreach_*``,
``torch.compile``'s ``OptimizedModule``, ``torch.utils._pytree``, the window functions and
``stft`` / ``istft``, ``unravel_index`` / ``fmax`` / ``gradient`` / ``frombuffer`` and
friends, bitwise not of integers, and PyTorch's errors for scalar conversion, ``unfold``
arguments, probability targets and reentrant checkpoints under ``autograd.grad``. Run with
``torch`` bound to PyTorch (tools/record_programs2_goldens.py records
fixtures/programs2.json) or to ferrograd (test_programs2.py compares)."""

import collections
import importlib
import io
import struct
import warnings

from _golden import caught as _caught
from _golden import values as _v


def _show(x):
    """Tensors as (dtype, shape, values); containers kept; other objects by repr."""
    if hasattr(x, "grad_fn"):
        return ["tensor", str(x.dtype).split(".")[-1], list(x.shape), _v(x.real if x.is_complex() else x)]
    if isinstance(x, (list, tuple)):
        return [type(x).__name__, [_show(e) for e in x]]
    if isinstance(x, dict):
        return {str(k): _show(v) for k, v in x.items()}
    return x


def _foreach(torch, out):
    ts = [torch.ones(2), torch.arange(3.0)]
    cases = {
        "add_scalar": lambda: torch._foreach_add(ts, 1.5), "add_list": lambda: torch._foreach_add(ts, [1, 2]),
        "add_tensors_alpha": lambda: torch._foreach_add(ts, ts, alpha=2), "mul_tensor": lambda: torch._foreach_mul(ts, torch.tensor(3.0)),
        "sub": lambda: torch._foreach_sub(ts, 0.5), "div": lambda: torch._foreach_div(ts, [2.0, 4.0]),
        "exp": lambda: torch._foreach_exp(ts), "sqrt": lambda: torch._foreach_sqrt(ts), "neg": lambda: torch._foreach_neg(ts),
        "norm": lambda: torch._foreach_norm(ts), "norm_inf": lambda: torch._foreach_norm(ts, float("inf")),
        "max": lambda: torch._foreach_max(ts), "pow_scalar_base": lambda: torch._foreach_pow(2.0, ts),
        "pow_list": lambda: torch._foreach_pow(ts, [2, 3]), "lerp": lambda: torch._foreach_lerp(ts, [torch.zeros(2), torch.ones(3)], 0.25),
        "addcmul": lambda: torch._foreach_addcmul(ts, ts, ts, [1.0, 2.0]),
        "addcdiv_tensor": lambda: torch._foreach_addcdiv(ts, ts, [torch.full((2,), 2.0), torch.full((3,), 4.0)], torch.tensor([1.0, 2.0])),
        "maximum": lambda: torch._foreach_maximum(ts, 1.5), "clamp_max": lambda: torch._foreach_clamp_max(ts, 0.5),
        "mm": lambda: torch._foreach_mm([torch.ones(2, 2)], [torch.ones(2, 3)]),
        "len_mismatch": lambda: torch._foreach_add(ts, [1]), "empty": lambda: torch._foreach_add([], 1),
        "tensor_len_mismatch": lambda: torch._foreach_add(ts, [torch.ones(2)]),
    }
    for k, f in cases.items():
        out[f"foreach_{k}"] = _caught(lambda f=f: _show(f()))
    a, b = torch.ones(2), torch.zeros(3)
    lst = [a, b]
    r = torch._foreach_add_(lst, 2)
    torch._foreach_mul_(lst, [2.0, 3.0])
    torch._foreach_lerp_(lst, [torch.zeros(2), torch.zeros(3)], 0.5)
    out["foreach_inplace"] = [r is lst, _v(a), _v(b), _show(torch._foreach_zero_([torch.ones(1)]))]


def _compile(torch, out):
    torch.manual_seed(0)
    m = torch.nn.Linear(2, 2)
    c = torch.compile(m)
    out["compile_module"] = [type(c).__name__, c._orig_mod is m, c.weight is m.weight, sorted(c.state_dict()),
                             [n for n, _ in c.named_parameters()], repr(c).splitlines()[:2]]
    c.eval()
    out["compile_train_mode"] = [m.training, c.training]

    def f(x):
        return x * 2

    g = torch.compile(f)
    out["compile_function"] = [g.__name__, _v(g(torch.ones(2)))]
    cases = {"bad_mode": lambda: torch.compile(m, mode="foo"), "mode_and_options": lambda: torch.compile(m, mode="default", options={}),
             "bad_kwarg": lambda: torch.compile(m, foo=1), "disable": lambda: torch.compile(m, disable=True) is m,
             "decorator": lambda: _v(torch.compile(mode="reduce-overhead")(f)(torch.ones(1))),
             "is_compiling": lambda: [torch.compiler.is_compiling(), importlib.import_module(torch.__name__ + "._dynamo").is_compiling()]}
    for k, fn in cases.items():
        r = _caught(fn)
        out[f"compile_{k}"] = r if isinstance(r, (dict, list, bool)) else repr(type(r).__name__)
    buf = io.BytesIO()
    torch.save(c.state_dict(), buf)
    buf.seek(0)
    d = torch.compile(torch.nn.Linear(2, 2))
    d.load_state_dict(torch.load(buf))
    out["compile_state_dict_roundtrip"] = _v(d(torch.ones(2)))


def _pytree(torch, out):
    p = importlib.import_module(torch.__name__ + ".utils._pytree")
    P = collections.namedtuple("P", "x y")
    tree = (1, [2, {"a": 3, "b": None}], P(4, 5), collections.OrderedDict(k=6))
    leaves, spec = p.tree_flatten(tree)
    out["pytree_flatten"] = [leaves, repr(spec).replace("programs2_scenarios.", "").replace("__main__.", ""), spec.num_leaves,
                             spec.num_nodes, spec.num_children]
    out["pytree_roundtrip"] = repr(p.tree_unflatten([x for x in leaves], spec)).replace("programs2_scenarios.", "")
    out["pytree_map"] = repr(p.tree_map(lambda v: v if v is None else v * 10, tree)).replace("programs2_scenarios.", "")
    out["pytree_misc"] = [repr(p.tree_map(lambda a, b: a + b, (1, 2), (10, 20))), p.tree_leaves({"b": 1, "a": 2}),
                          repr(p.tree_map_only(int, lambda v: -v, (1, 2.0))), p.tree_all(lambda v: v > 0, [1, 2]),
                          p.tree_any(lambda v: v > 1, [1, 2]), repr(p.tree_flatten({})[1]), repr(p.tree_flatten(5)[1]),
                          p.tree_structure(tree) == spec]
    out["pytree_errors"] = [_caught(lambda: p.tree_unflatten([1], p.tree_structure((1, 2)))),
                            _caught(lambda: p.tree_map(lambda a, b: a + b, (1, 2), (10, 20, 30)))]


def _windows(torch, out):
    for f in ("hann_window", "hamming_window", "blackman_window", "bartlett_window", "kaiser_window"):
        fn = getattr(torch, f)
        out[f"window_{f}"] = [_v(fn(n, p)) for n in (0, 1, 2, 5, 8) for p in (True, False)] + [_v(fn(6, dtype=torch.float64))]
    out["window_int_dtype"] = _caught(lambda: torch.hann_window(4, dtype=torch.long))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        x = torch.arange(16.0)
        s = torch.stft(x, 8, window=torch.hann_window(8), return_complex=True)
        r = torch.stft(x, 8, hop_length=2, win_length=6, window=torch.hann_window(6), return_complex=False, normalized=True)
        y = torch.istft(s, 8, window=torch.hann_window(8))
        y14 = torch.istft(s, 8, window=torch.hann_window(8), length=14)
        g = torch.Generator().manual_seed(0)
        b = torch.stft(torch.randn(2, 20, generator=g), 8, window=torch.hamming_window(8), return_complex=True, center=False)
        out["stft"] = [list(s.shape), _v(torch.view_as_real(s)), list(r.shape), _v(r), _v(y), _v(y14), list(b.shape),
                       list(torch.istft(b, 8, window=torch.hamming_window(8), center=False).shape)]
        out["stft_errors"] = [_caught(lambda: torch.stft(x, 32, return_complex=True, window=torch.ones(32), center=False)),
                              _caught(lambda: torch.stft(x, 8, hop_length=0, return_complex=True)),
                              _caught(lambda: torch.stft(x, 8, window=torch.ones(5), return_complex=True)),
                              _caught(lambda: torch.stft(x, 8))]


def _extras(torch, out):
    x = torch.tensor([[1.0, float("nan")], [float("inf"), -4.0]])
    cases = {
        "unravel_index": lambda: torch.unravel_index(torch.tensor([3, 5, -1]), (2, 3)),
        "unravel_float": lambda: torch.unravel_index(torch.tensor(1.0), (2,)),
        "fmax": lambda: torch.fmax(x, torch.tensor([[0.0, 2.0], [float("nan"), 0.0]])),
        "fmin": lambda: torch.fmin(x, torch.zeros(2, 2)),
        "isposinf": lambda: [torch.isposinf(x), torch.isneginf(-x)],
        "vdot": lambda: torch.ones(2).vdot(torch.tensor([2.0, 3.0])), "msort": lambda: torch.tensor([[3.0, 1.0], [2.0, 4.0]]).msort(),
        "adjoint": lambda: torch.adjoint(torch.arange(6.0).reshape(2, 3)),
        "addbmm": lambda: torch.addbmm(torch.ones(2, 2), torch.ones(3, 2, 1), torch.ones(3, 1, 2), beta=0.5, alpha=2),
        "sum_to_size": lambda: [torch.ones(2, 3).sum_to_size(1, 3), torch.ones(2, 3).sum_to_size(3), torch.ones(2, 3).sum_to_size((2, 1))],
        "sum_to_size_bad": lambda: torch.ones(2, 3).sum_to_size(4),
        "frombuffer": lambda: [torch.frombuffer(bytearray(b"\x01\x00\x02\x00"), dtype=torch.int16),
                               torch.frombuffer(bytearray(struct.pack("2f", 1.5, 2.5)), dtype=torch.float32),
                               torch.frombuffer(bytearray(b"\x01\x00\x02\x00"), dtype=torch.uint8, count=2, offset=1)],
        "scalar_tensor": lambda: [torch.scalar_tensor(3), torch.scalar_tensor(2, dtype=torch.int64)],
        "gradient": lambda: torch.gradient(torch.tensor([[1.0, 2, 4], [3, 5, 9]])),
        "gradient_spacing": lambda: torch.gradient(torch.tensor([1.0, 4, 9, 16]), spacing=2.0, edge_order=2),
        "gradient_coords": lambda: torch.gradient(torch.tensor([1.0, 4, 9, 16]), spacing=(torch.tensor([0.0, 1, 3, 4]),)),
        "nan_to_num_": lambda: torch.nan_to_num_(torch.tensor([float("nan"), 1.0])),
        "apply_": lambda: torch.ones(2).apply_(lambda v: v * 3),
        "prelu_method": lambda: torch.tensor([-1.0, 2.0]).prelu(torch.tensor([0.1])),
        "as_subclass": lambda: type(torch.ones(1).as_subclass(type("Sub", (torch.Tensor,), {}))).__name__,
        "bitwise_not": lambda: [~torch.tensor([1, 2, -3]), torch.bitwise_not(torch.tensor([1, 2], dtype=torch.uint8)),
                                ~torch.tensor([True, False])],
        "invert_float": lambda: ~torch.tensor([1.0]),
        "int_multi": lambda: int(torch.ones(2)), "float_multi": lambda: float(torch.ones(2)),
        "complex_multi": lambda: complex(torch.ones(2)), "item_multi": lambda: torch.ones(2).item(),
        "float_empty": lambda: float(torch.ones(0)),
        "copy_non_blocking": lambda: torch.zeros(2).copy_(torch.ones(2), non_blocking=True),
        "lstsq": lambda: [list(torch.linalg.lstsq(torch.tensor([[1.0, 2], [3, 4], [5, 7]]), torch.tensor([[1.0], [2], [4]]), driver=d))
                          for d in ("gelsy", "gelsd", "gelss")],
        "lstsq_rank_deficient": lambda: list(torch.linalg.lstsq(torch.tensor([[1.0, 2], [2, 4]]), torch.tensor([[1.0], [2]]))),
        "vander": lambda: [torch.linalg.vander(torch.tensor([1.0, 2, 3])), torch.linalg.vander(torch.tensor([1.0, 2, 3]), N=2)],
        "vecdot": lambda: torch.linalg.vecdot(torch.ones(2, 3), torch.arange(3.0)),
        "solve_ex": lambda: list(torch.linalg.solve_ex(torch.eye(2) * 2, torch.ones(2))),
        "tensorinv": lambda: torch.linalg.tensorinv(torch.eye(4).reshape(4, 2, 2) * 2, ind=1),
        "tensorsolve": lambda: torch.linalg.tensorsolve(torch.eye(6).reshape(2, 3, 6) * 2, torch.ones(2, 3)),
        "lu_factor": lambda: list(torch.linalg.lu_factor(torch.tensor([[1.0, 2, 3], [4, 5, 6], [7, 8, 10]]))),
        "lu": lambda: [list(torch.linalg.lu(torch.tensor([[1.0, 2, 3], [4, 5, 6], [7, 8, 10]]))),
                       list(torch.linalg.lu(torch.ones(2, 3))), list(torch.linalg.lu(torch.arange(6.0).reshape(3, 2)))],
        "lu_batched": lambda: list(torch.linalg.lu_factor(torch.randn(2, 3, 3, generator=torch.Generator().manual_seed(0)))),
        "lu_factor_ex_singular": lambda: list(torch.linalg.lu_factor_ex(torch.tensor([[0.0, 1], [0, 0]]))),
        "lu_factor_singular": lambda: torch.linalg.lu_factor(torch.tensor([[0.0, 1], [0, 0]])),
        "lu_solve": lambda: _lu_solves(torch),
        "lu_grad": lambda: _lu_grad(torch),
        "linalg_diagonal": lambda: torch.linalg.diagonal(torch.arange(9.0).reshape(3, 3), offset=1),
        "triangular_solve": lambda: [list(torch.triangular_solve(torch.tensor([[1.0], [2.0]]), torch.tensor([[2.0, 1.0], [0.0, 3.0]]))),
                                     list(torch.triangular_solve(torch.tensor([[1.0], [2.0]]), torch.tensor([[2.0, 1.0], [0.0, 3.0]]),
                                                                 upper=False, transpose=True, unitriangular=True)),
                                     torch.tensor([[1.0], [2.0]]).triangular_solve(torch.tensor([[2.0, 0.0], [1.0, 3.0]]), upper=False).solution],
    }
    for k, f in cases.items():
        r = _caught(f)
        out[f"extra_{k}"] = r if isinstance(r, (dict, str)) else _show(r)


def _errors(torch, out):
    F = torch.nn.functional
    logits, probs = torch.zeros(2, 3), torch.full((2, 3), 1 / 3)
    a = torch.ones(2, requires_grad=True)
    ckpt = importlib.import_module(torch.__name__ + ".utils.checkpoint")
    cases = {
        "unfold_stride0": lambda: F.unfold(torch.ones(1, 3, 8, 8), 4, stride=0),
        "unfold_dilation0": lambda: F.unfold(torch.ones(1, 3, 8, 8), 4, dilation=0),
        "unfold_kernel0": lambda: F.unfold(torch.ones(1, 3, 8, 8), 0),
        "unfold_negative_pad": lambda: F.unfold(torch.ones(1, 3, 8, 8), 4, padding=-1),
        "unfold_too_big": lambda: F.unfold(torch.ones(1, 3, 2, 2), 4),
        "fold_stride0": lambda: F.fold(torch.ones(1, 12, 4), (4, 4), 2, stride=0),
        "ce_prob_ignore_index": lambda: F.cross_entropy(logits, probs, ignore_index=1),
        "ce_prob_negative_ignore": lambda: _v(F.cross_entropy(logits, probs, ignore_index=-5)),
        "ce_float_2d_target": lambda: F.cross_entropy(logits, probs[:, :2]),
        "ce_float_1d_target": lambda: F.cross_entropy(logits, torch.tensor([0.0, 1.0])),
        "checkpoint_reentrant_grad": lambda: torch.autograd.grad(ckpt.checkpoint(torch.exp, a, use_reentrant=True).sum(), a),
        "checkpoint_reentrant_backward": lambda: _v(_backward_grad(torch, ckpt)),
        "repeat_interleave": lambda: torch.repeat_interleave(torch.tensor([1, 2]), torch.tensor([1, 2, 3])),
        "index_add_float_index": lambda: torch.zeros(3).index_add_(0, torch.tensor([1.0]), torch.ones(1)),
        "linspace_negative": lambda: torch.linspace(0, 1, -1),
        "grad_output_no_grad": lambda: torch.autograd.grad(torch.tensor(1.0) * 2, torch.tensor(1.0)),
        "functional_call_strict": lambda: importlib.import_module(torch.__name__ + ".func").functional_call(
            torch.nn.BatchNorm1d(3), {"weight": torch.ones(3)}, (torch.ones(4, 3),), strict=True),
        "instantiated_function": lambda: _instantiated(torch),
    }
    for k, f in cases.items():
        r = _caught(f)
        out[f"err_{k}"] = r if isinstance(r, (dict, list)) else _show(r)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with torch.autograd.detect_anomaly():
            x = torch.tensor([-1.0], requires_grad=True)
            out["err_anomaly_message"] = _caught(lambda: x.sqrt().sum().backward())
    fw = importlib.import_module(torch.__name__ + ".autograd.forward_ad")
    with fw.dual_level():
        d = fw.make_dual(torch.tensor([[1.0, 2.0], [3.0, 4.0]]), torch.tensor([[3.0, 4.0], [5.0, 6.0]]))
        e = fw.make_dual(torch.tensor(1.0), torch.tensor(2.0))
        out["dual_repr"] = [repr(d), repr(d * 2), repr(e)]
    with warnings.catch_warnings(record=True) as ws:
        warnings.simplefilter("always")
        torch.ones(3).scatter_(0, torch.tensor([0, 0]), torch.tensor([2.0, 3.0]), reduce="multiply")
        torch.ones(3).scatter_(0, torch.tensor([0, 0]), torch.tensor([2.0, 3.0]), reduce="add")
    out["warn_scatter_reduce"] = [str(w.message).split(" (Triggered")[0] for w in ws]


def _pad3d(torch, out):
    F = torch.nn.functional
    x = torch.arange(2 * 3 * 4 * 5, dtype=torch.float32).reshape(1, 2, 3, 4, 5).requires_grad_()
    for mode in ("reflect", "replicate"):
        y = F.pad(x, (1, 2, 1, 0, 2, 1), mode)
        (y * torch.arange(y.numel(), dtype=torch.float32).reshape(y.shape)).sum().backward()
        out[f"pad3d_{mode}"] = [list(y.shape), y.grad_fn.name(), list(y.grad_fn._saved_padding), _v(y), _v(x.grad)]
        x.grad = None
    out["pad3d_modules"] = [_v(torch.nn.ReflectionPad3d(1)(torch.ones(1, 2, 2, 2))),
                            _v(torch.nn.ReplicationPad3d((0, 1, 1, 0, 0, 2))(torch.arange(8.0).reshape(1, 2, 2, 2)))]
    out["pad3d_too_big"] = _caught(lambda: F.pad(torch.ones(1, 1, 2, 2, 2), (2, 2, 0, 0, 0, 0), "reflect"))


def _binomial(torch, out):
    D = torch.distributions
    for dt in (torch.float32, torch.float64):
        name = str(dt).split(".")[-1]
        torch.manual_seed(11)
        count = torch.tensor([0.0, 5.0, 20.0, 100.0, 1000.0, 37.0, 12.0, 3.0], dtype=dt)
        prob = torch.tensor([0.5, 0.3, 0.6, 0.25, 0.9, 0.05, 1.0, 0.0], dtype=dt)
        out[f"binomial_{name}"] = [_v(torch.binomial(count, prob)), _v(torch.binomial(count, prob)),
                                   _v(D.Binomial(torch.tensor(50.0, dtype=dt), torch.tensor(0.4, dtype=dt)).sample((6,))),
                                   _v(torch.rand(2))]


def _autograd_checks(torch, out):
    with warnings.catch_warnings(record=True) as ws:
        warnings.simplefilter("always")
        r = _caught(lambda: torch.autograd.gradcheck(torch.exp, (torch.tensor([0.3, 1.2], requires_grad=True),)))
    out["gradcheck_float32"] = [[str(w.message) for w in ws], r]

    class Bad(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g * 3

    x64 = torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True)
    out["gradcheck_mismatch"] = [_caught(lambda: torch.autograd.gradcheck(Bad.apply, (x64,))),
                                 torch.autograd.gradcheck(Bad.apply, (x64,), raise_exception=False),
                                 torch.autograd.gradcheck(lambda a, b: (a * b, (a + b).sum()),
                                                          (x64, torch.tensor([3.0, 4.0], dtype=torch.float64, requires_grad=True)))]
    out["norm_nuc"] = [_v(torch.norm(torch.tensor([[3.0, 1.0], [2.0, 5.0]]), p="nuc")), _v(torch.broadcast_to(torch.tensor(2.0), ()))]

    def modified_index(kind):
        x = torch.zeros(4, requires_grad=True)
        y = x.clone()
        idx = torch.tensor([True, False, True, False]) if kind == "mask" else torch.tensor([0, 2])
        y[idx] = torch.ones(2, requires_grad=True)
        idx[1] = not bool(idx[1]) if kind == "mask" else 1
        y.sum().backward()
        return _v(x.grad)

    out["index_put_modified_index"] = [_caught(lambda: modified_index("mask")), _caught(lambda: modified_index("long"))]


def _lu_solves(torch):
    A = torch.tensor([[1.0, 2, 3], [4, 5, 6], [7, 8, 10]])
    LU, piv = torch.linalg.lu_factor(A)
    B = torch.tensor([[1.0, 2], [0, 1], [3, -1]])
    return [torch.linalg.lu_solve(LU, piv, B), torch.linalg.lu_solve(LU, piv, B, adjoint=True),
            torch.linalg.lu_solve(LU, piv, B.mT, left=False), list(torch.lu_unpack(LU, piv))]


def _lu_grad(torch):
    x = torch.tensor([[1.0, 2, 3], [4, 5, 6], [7, 8, 10]], requires_grad=True)
    LU, _ = torch.linalg.lu_factor(x)
    (LU * torch.arange(9.0).reshape(3, 3)).sum().backward()
    return x.grad


def _instantiated(torch):
    class Twice(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g * 2

    with warnings.catch_warnings(record=True) as ws:
        warnings.simplefilter("always")
        f = Twice()
    return [[w.category.__name__, str(w.message).replace("programs2_scenarios.", "")] for w in ws], _caught(lambda: f(torch.ones(1)))


def _backward_grad(torch, ckpt):
    a = torch.ones(2, requires_grad=True)
    ckpt.checkpoint(torch.exp, a, use_reentrant=True).sum().backward()
    return a.grad


def _survey3(torch, out):
    """What a third survey of programs hit: autograd.functional's checks and zero-filling,
    sci_mode=False widths, shift operators, einsum's sublist form, format specs, nested
    inference_mode(False), var's degrees-of-freedom warning, int32 gather indices, index error
    texts, index_reduce, mark_dirty's version bump, LBFGS without a spurious warning."""
    af = importlib.import_module(torch.__name__ + ".autograd.functional")
    x = torch.tensor([0.5, -1.0, 2.0], dtype=torch.float64)
    y = torch.tensor([1.5, 0.25], dtype=torch.float64)
    one3, one2 = torch.ones(3, dtype=torch.float64), torch.ones(2, dtype=torch.float64)

    def f(a, b):
        return (a * a).sum() * b, a.exp()

    def s(a, b):
        return (a ** 3).sum() + (a[:2] * b).sum() * 2

    def shown(v):
        if isinstance(v, (tuple, list)):
            return [type(v).__name__] + [shown(e) for e in v]
        return _show(v)

    cases = {
        "jac": lambda: af.jacobian(f, (x, y)),
        "jac_unused": lambda: af.jacobian(lambda a: torch.ones(2, dtype=torch.float64), x),
        "jac_fwd": lambda: af.jacobian(f, (x, y), vectorize=True, strategy="forward-mode"),
        "jac_fwd_novec": lambda: af.jacobian(torch.sin, x, strategy="forward-mode"),
        "jac_strict": lambda: af.jacobian(lambda a, b: a.sin(), (x, y), strict=True),
        "jac_badtype": lambda: af.jacobian(lambda a: a, (x, 3)),
        "hess": lambda: af.hessian(s, (x, y)),
        "hess_unused": lambda: af.hessian(lambda a: torch.tensor(1.0, dtype=torch.float64), x),
        "hess_nonscalar": lambda: af.hessian(lambda a: a ** 2, x),
        "hess_strict_linear": lambda: af.hessian(lambda a: a.sum(), x, strict=True),
        "vjp": lambda: af.vjp(f, (x, y), (one2, one3)),
        "vjp_v_none": lambda: af.vjp(lambda a: a * 2, x),
        "vjp_bad_size": lambda: af.vjp(lambda a: a * 2, x, one2),
        "jvp": lambda: af.jvp(f, (x, y), (one3, one2)),
        "jvp_v_none": lambda: af.jvp(lambda a: a * 2, x),
        "jvp_strict_const": lambda: af.jvp(lambda a: torch.ones(2), x, one3, strict=True),
        "hvp": lambda: af.hvp(s, (x, y), (one3, one2)),
        "vhp": lambda: af.vhp(s, (x, y), (one3, one2)),
        "vhp_bad_len": lambda: af.vhp(s, (x, y), (one3,)),
        "hvp_tuple_out": lambda: af.hvp(lambda a: (a.sum(),), x, one3),
    }
    for k, fn in cases.items():
        r = _caught(fn)
        out[f"functional_{k}"] = r if isinstance(r, dict) else shown(r)
    # printing with sci_mode=False: widths measured in fixed notation
    torch.set_printoptions(sci_mode=False)
    try:
        out["print_sci_false"] = [str(torch.tensor([1e-8, 1e8])), str(torch.tensor([1e-5, 123456.0, 1.5])),
                                  str(torch.tensor([0.0, float("nan")]))]
    finally:
        torch.set_printoptions(profile="default")
        torch.set_printoptions(sci_mode=None)
    torch.set_printoptions(sci_mode=True)
    try:
        out["print_sci_true_zeros"] = str(torch.zeros(2))
    finally:
        torch.set_printoptions(sci_mode=None)
    i = torch.tensor([1, 8])
    z = i.clone()
    z <<= 1
    out["shifts"] = [_show(i << 2), _show(i >> 1), _show(2 << i), _show(64 >> i), _show(torch.tensor([True]) << 1), _show(z),
                     _caught(lambda: torch.tensor([1.5]) << 1)]
    a, b = torch.arange(6.0).view(2, 3), torch.arange(12.0).view(3, 4)
    out["einsum_sublist"] = [_show(torch.einsum(a, [0, 1], b, [1, 2], [0, 2])), _show(torch.einsum(a, [Ellipsis, 1], [1, Ellipsis])),
                             _caught(lambda: torch.einsum(a, [60, 1]))]
    p = torch.nn.Parameter(torch.tensor(1.5))
    out["format"] = [f"{torch.tensor(1.5):.3f}", _caught(lambda: f"{torch.tensor([1.5]):.3f}"), f"{torch.tensor([1.5])}",
                     _caught(lambda: f"{p:.2f}")]
    with torch.no_grad():
        with torch.inference_mode(False):
            out["inference_false"] = [torch.is_grad_enabled(), torch.is_inference_mode_enabled()]
    with warnings.catch_warnings(record=True) as ws:
        warnings.simplefilter("always")
        v = [torch.var(torch.ones(1)), torch.tensor([3.0]).std(), torch.ones(2, 3).var(dim=0, correction=2),
             torch.ones(3).var(), torch.var_mean(torch.ones(1))[0]]
    out["var_dof"] = [[_show(t) for t in v], [str(w.message) for w in ws]]
    m = torch.arange(12.0).view(3, 4)
    out["index_errors"] = [_caught(f) for f in (
        lambda: m[:, torch.tensor([4])], lambda: torch.zeros(2, 3, 4)[:, torch.tensor([0]), torch.tensor([9])],
        lambda: m[[0, 1], [0, 1, 2]], lambda: m.gather(1, torch.tensor([[0.5]])),
        lambda: torch.searchsorted(torch.tensor([[1.0, 2.0]]), torch.tensor([1.0, 2.0])))]
    out["gather_int32"] = _show(m.gather(1, torch.tensor([[0], [1], [2]], dtype=torch.int32)))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        src = torch.tensor([2.0, 3.0, 4.0], requires_grad=True)
        r = torch.ones(4).index_reduce(0, torch.tensor([0, 0, 3]), src, "prod")
        r.sum().backward()
        out["index_reduce"] = [_v(r), _v(src.grad)] + [
            _v(torch.full((2, 3), 2.0).index_reduce_(0, torch.tensor([1, 1]), torch.arange(6.0).view(2, 3), k, include_self=inc))
            for k in ("mean", "amax", "amin", "prod") for inc in (True, False)] + [
            _caught(lambda: torch.zeros(3).index_reduce_(0, torch.tensor([0]), torch.ones(1), "sum"))]

    class Dirty(torch.autograd.Function):
        @staticmethod
        def forward(ctx, t):
            ctx.mark_dirty(t)
            return t.mul_(2)

        @staticmethod
        def backward(ctx, g):
            return g * 2

    leaf = torch.ones(2, requires_grad=True)
    d1 = leaf.clone()
    Dirty.apply(d1)
    d2 = torch.ones(2)
    Dirty.apply(d2)
    out["mark_dirty_version"] = [d1._version, d2._version]
    w = torch.nn.Parameter(torch.tensor([1.5, -0.5]))
    opt = torch.optim.LBFGS([w], max_iter=3)

    def closure():
        opt.zero_grad()
        loss = ((w - 1) ** 2).sum() + 7
        loss.backward()
        return loss

    with warnings.catch_warnings(record=True) as ws:
        warnings.simplefilter("always")
        opt.step(closure)
    out["lbfgs_warnings"] = [str(w_.message) for w_ in ws]
    # rrelu as one node with its saved fields (training draws PyTorch's stream)
    F = torch.nn.functional
    xr = torch.tensor([-1.0, 2.0, -3.0], requires_grad=True)
    r = F.rrelu(xr, training=False)
    r.sum().backward()
    rr = [_show(r), r.grad_fn.name(), r.grad_fn._saved_lower, r.grad_fn._saved_upper, r.grad_fn._saved_training, _v(xr.grad)]
    xr.grad = None
    torch.manual_seed(0)
    r = F.rrelu(xr, training=True)
    rr += [_show(r), r.grad_fn.name(), _v(r.grad_fn._saved_noise)]
    r.sum().backward()
    rr += [_v(xr.grad)]
    w2 = xr.detach().clone().requires_grad_() * 1
    F.rrelu(w2, training=False, inplace=True)
    rr += [_show(w2), w2.grad_fn.name()]
    out["rrelu_node"] = rr
    # attention with both a mask and is_causal: the CPU flash kernel applies both
    g = torch.Generator().manual_seed(0)
    q, k, v = (torch.randn(1, 2, 4, 8, generator=g) for _ in range(3))
    am = torch.zeros(4, 4)
    am[2, 0] = -1e9
    bm = torch.ones(4, 4, dtype=torch.bool)
    bm[2, 0] = False
    out["sdpa_mask_and_causal"] = [_v(F.scaled_dot_product_attention(q, k, v, attn_mask=am, is_causal=True)),
                                   _v(F.scaled_dot_product_attention(q, k, v, attn_mask=bm, is_causal=True)),
                                   _caught(lambda: F.scaled_dot_product_attention(q[0], k[0], v[0], attn_mask=am, is_causal=True))]
    # Python ints beyond 64 bits
    out["big_ints"] = [_caught(f) for f in (lambda: torch.tensor(2 ** 64), lambda: torch.tensor([1, 2 ** 64]),
                                            lambda: torch.full((2,), 2 ** 64), lambda: torch.ones(2) * 2 ** 64,
                                            lambda: _show(torch.tensor(2 ** 63 - 1)))]


def run(torch):
    out = {}
    _survey3(torch, out)
    _foreach(torch, out)
    _compile(torch, out)
    _pytree(torch, out)
    _windows(torch, out)
    _extras(torch, out)
    _errors(torch, out)
    _pad3d(torch, out)
    _binomial(torch, out)
    _autograd_checks(torch, out)
    return out
