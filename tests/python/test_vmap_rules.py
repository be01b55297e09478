"""vmap's batching rules (func/_batched.py) against the per-example loop.

The loop (``func._batched_disabled``) runs the function on each example and stacks: it is the
definition of vmap's values, and it matches PyTorch (the recorded scenarios in test_func*.py).
Each case here runs both ways and compares values, and checks that an op with a rule runs
once for the whole batch (no fallback warning, the function called once); the same cases are
also compared with PyTorch's own vmap outputs, recorded into fixtures/vmap_rules.json by
tools/record_vmap_goldens.py."""

import contextlib
import json
import pathlib
import warnings

import pytest

import ferrograd as torch
import ferrograd.nn.functional as F
from ferrograd import func

torch.manual_seed(0)
A = torch.randn(4, 3)
B = torch.randn(4, 3)
M = torch.randn(4, 3, 5)
N5 = torch.randn(4, 5, 2)
V3 = torch.randn(3)
W53 = torch.randn(5, 3)
IMG = torch.randn(4, 2, 3, 6, 6)
S = torch.randn(4)


@contextlib.contextmanager
def _loop_mode():
    func._batched_disabled[0] = True
    try:
        yield
    finally:
        func._batched_disabled[0] = False


def _run_both(f, args, in_dims=0, out_dims=0, expect_rules=True):
    calls = []

    def counted(*a, **k):
        calls.append(1)
        return f(*a, **k)

    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        batched = func.vmap(counted, in_dims=in_dims, out_dims=out_dims)(*args)
    fallbacks = [str(x.message) for x in w if "performance drop" in str(x.message)
                 or "once per batch element" in str(x.message)]
    if expect_rules:
        assert fallbacks == [], fallbacks
        assert len(calls) == 1
    with _loop_mode(), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        looped = func.vmap(f, in_dims=in_dims, out_dims=out_dims)(*args)
    return batched, looped


def _close(a, b):
    if isinstance(a, (tuple, list)):
        assert len(a) == len(b)
        for x, y in zip(a, b):
            _close(x, y)
        return
    assert tuple(a.shape) == tuple(b.shape), (a.shape, b.shape)
    assert a.dtype == b.dtype
    if a.dtype.is_floating_point:
        assert torch.allclose(a, b, rtol=1e-5, atol=1e-6, equal_nan=True), (a, b)
    else:
        assert bool(torch.equal(a, b))


CASES = {
    # pointwise
    "unary": (lambda x: x.exp().sin().abs().sqrt(), (A,)),
    "binary_same": (lambda x, y: x * y + x / (y.abs() + 1) - y ** 2, (A, B)),
    "binary_unbatched": (lambda x, v: torch.maximum(x, v) + torch.atan2(x, v), (A, V3), (0, None)),
    "broadcast_ranks": (lambda x, m: x + m, (A, torch.randn(4, 2, 3))),
    "scalar_reflected": (lambda x: 2 - x + 3 / (x.abs() + 1) + 2 ** x, (A,)),
    "compare_where": (lambda x, y: torch.where(x > y, x, y * 0.5), (A, B)),
    "clamp_tensor": (lambda x, y: x.clamp(min=y), (A, B)),
    "masked_fill": (lambda x: x.masked_fill(x < 0, 0.0), (A,)),
    "inplace": (lambda x, y: x.clone().mul_(y).add_(1.0), (A, B)),
    "cast": (lambda x: (x > 0).float() + x.double().float() + x.to(torch.float64).float(), (A,)),
    "lerp_addcmul": (lambda x, y: torch.lerp(x, y, 0.3) + torch.addcmul(x, y, x, value=0.5), (A, B)),
    # reductions
    "sum_all": (lambda x: x.sum(), (M,)),
    "sum_dims": (lambda x: (x.sum(0), x.sum(-1, keepdim=True), x.sum((0, 1))), (M,)),
    "mean_std_var": (lambda x: (x.mean(1), x.std(), x.var(0, keepdim=True), x.std(dim=1, correction=0)), (M,)),
    "max_min": (lambda x: (x.max(), x.min(1), x.max(dim=-1, keepdim=True), x.amax((0, 1)), x.max(x * 0.5)), (M,)),
    "arg_reductions": (lambda x: (x.argmax(), x.argmin(1), x.argmax(0, keepdim=True)), (M,)),
    "logsumexp_norm_prod": (lambda x: (x.logsumexp(1), x.norm(), x.norm(2, 1), x.prod(), x.prod(0)), (M,)),
    "all_any": (lambda x: ((x > 0).all(), (x > 0).any(1)), (M,)),
    "scalar_reductions": (lambda s: (s.sum(), s.sum(0), s.mean(-1), s.max()), (S,)),
    # dims
    "softmax_cumsum": (lambda x: (x.softmax(0), x.log_softmax(-1), x.cumsum(1)), (M,)),
    "sort_topk": (lambda x: (x.sort(1), x.topk(2, dim=0), x.argsort()), (M,)),
    "split_chunk_unbind": (lambda x: (x.split(2, 1), x.chunk(2), x.unbind(1)), (M,)),
    "select_narrow_flip": (lambda x: (x.select(1, 2), x.narrow(0, 1, 2), x.flip(0, 1)), (M,)),
    "gather_index_select": (lambda x, i: (x.gather(1, i), x.index_select(1, torch.tensor([4, 0]))),
                            (M, torch.randint(0, 5, (4, 3, 2)))),
    # shapes
    "reshape_view": (lambda x: (x.reshape(5, 3), x.view(-1), x.reshape(3, -1, 1)), (M,)),
    "permute_transpose": (lambda x: (x.permute(1, 0), x.transpose(0, 1), x.t(), x.T, x.mT), (M,)),
    "unsqueeze_squeeze": (lambda x: (x.unsqueeze(0), x.unsqueeze(-1).squeeze(-1), x.reshape(1, 3, 1, 5).squeeze(),
                                      x.reshape(1, 15).squeeze(0)), (M,)),
    "flatten_expand_repeat": (lambda x: (x.flatten(), x.unsqueeze(0).expand(2, 3, 5), x.repeat(2, 1, 1),
                                          x[:1].expand_as(x)), (M,)),
    "in_dim_1": (lambda x: x.sum(0) * 2, (M,), 1),
    "in_dim_neg": (lambda x: x.t() @ x, (M,), -1),
    "out_dims": (lambda x: (x * 2, x.sum(1)), (M,), 0, (1, 0)),
    # indexing
    "getitem_basic": (lambda x: (x[0], x[:, 1:3], x[..., -1], x[None, 1, ::2], x[1:, None]), (M,)),
    "getitem_tensor": (lambda x: (x[torch.tensor([2, 0])], x[:, torch.tensor([1, 1, 4])]), (M,)),
    "setitem": (lambda x, y: _setitem(x.clone(), y), (M, torch.randn(4, 5))),
    # matmul
    "matmul_shapes": (lambda x, y: (x @ W53, V3 @ x, x.t() @ y, y @ y, torch.matmul(W53, y)), (M, A)),
    "mm_mv_dot_bmm": (lambda x, y, z: (x.t().mm(W53.t()), torch.mv(x.t(), y), y.dot(y), torch.bmm(z.unsqueeze(0), z.t().unsqueeze(0))),
                      (M, A, N5)),
    "addmm": (lambda x: torch.addmm(torch.ones(3), x, W53, beta=0.5, alpha=2.0), (M,)),
    # factories and joins
    "cat_stack": (lambda x, y: (torch.cat([x, y.unsqueeze(1).expand(3, 2)], 1), torch.stack([x[:, 0], y, V3]), torch.cat([V3, y])),
                  (M, A)),
    "like": (lambda x: (torch.zeros_like(x) + x, torch.ones_like(x), torch.full_like(x, 2.0), x.new_zeros(2)), (A,)),
    # nn.functional
    "activations": (lambda x: (F.relu(x), F.gelu(x), F.silu(x), F.leaky_relu(x, 0.1), F.softplus(x), F.elu(x), F.tanh(x)), (A,)),
    "linear": (lambda x: F.linear(x, W53, torch.ones(5)), (A,)),
    "linear_batched_weight": (lambda w, b: F.linear(torch.ones(2, 3), w, b), (torch.randn(4, 5, 3), torch.randn(4, 5))),
    "softmax_fn": (lambda x: (F.softmax(x, dim=1), F.log_softmax(x, -1)), (M,)),
    "conv2d": (lambda x: F.conv2d(x, torch.ones(4, 3, 3, 3) * 0.1, torch.ones(4), padding=1), (IMG,)),
    "conv2d_batched_weight": (lambda x, w: F.conv2d(x, w, stride=2), (IMG, torch.randn(4, 5, 3, 3, 3))),
    "conv1d_unbatched_layout": (lambda x: F.conv1d(x, torch.ones(2, 3, 2)), (torch.randn(4, 3, 7),)),
    "pools": (lambda x: (F.max_pool2d(x, 2), F.avg_pool2d(x, 3), F.adaptive_avg_pool2d(x, 1)), (IMG,)),
    "losses": (lambda x, y: (F.mse_loss(x, y), F.l1_loss(x, y, reduction="sum"), F.smooth_l1_loss(x, y, reduction="none")),
               (A, B)),
    "cross_entropy": (lambda x, t: (F.cross_entropy(x, t), F.cross_entropy(x, t, reduction="sum"),
                                    F.nll_loss(x.log_softmax(1), t, reduction="none"), F.cross_entropy(x, t, ignore_index=1)),
                      (torch.randn(4, 6, 5), torch.randint(0, 5, (4, 6)))),
    "cross_entropy_single": (lambda x, t: F.cross_entropy(x, t), (torch.randn(4, 5), torch.randint(0, 5, (4,)))),
    "layer_norm_embedding": (lambda x, i: (F.layer_norm(x, (5,)), F.embedding(i, W53)), (M, torch.randint(0, 5, (4, 2)))),
    "pad": (lambda x: (F.pad(x, (1, 1)), F.pad(x, (1, 2), mode="reflect")), (M,)),
    "norms_eval": (lambda x: (F.batch_norm(x, torch.zeros(2), torch.ones(2) * 2, torch.ones(2), torch.zeros(2)),
                              F.group_norm(x, 1), F.glu(x, 1)), (IMG[:, :, :2],)),
    "composites": (lambda x, y: (F.normalize(x, dim=1), F.pairwise_distance(x, y),
                                 F.dropout(x, 0.5, training=False), F.kl_div(x.log_softmax(1), y.softmax(1), reduction="batchmean")),
                   (M, torch.randn(4, 3, 5))),
}


def _setitem(x, y):
    x[0] = y
    x[1, 2:] = 0.0
    return x


def _case(name):
    """(function, inputs, in_dims, out_dims) of a case (dims default to 0)."""
    case = CASES[name]
    in_dims = case[2] if len(case) > 2 else 0
    out_dims = case[3] if len(case) > 3 else 0
    return case[0], case[1], in_dims, out_dims


@pytest.mark.parametrize("name", list(CASES))
def test_rule_matches_loop(name):
    f, args, in_dims, out_dims = _case(name)
    batched, looped = _run_both(f, args, in_dims, out_dims)
    _close(batched, looped)


def test_nested_vmap_levels():
    X, Y = torch.randn(3, 4), torch.randn(5, 4)

    def f(a, b):
        return (a * b).sum() + a.max() * b.mean()

    batched, looped = _run_both(func.vmap(f, in_dims=(None, 0)), (X, Y), (0, None))
    _close(batched, looped)
    assert tuple(batched.shape) == (3, 5)
    triple, looped3 = _run_both(func.vmap(func.vmap(lambda s: s * s + s.exp())), (torch.randn(2, 3, 4),))
    _close(triple, looped3)


def test_per_sample_gradients_in_one_pass():
    w = torch.randn(3)
    X, t = torch.randn(5, 3), torch.randn(5)

    def loss(w, x, t):
        return ((x * w).sum() - t) ** 2 + F.softplus(w).sum()

    f = func.grad(loss)
    batched, looped = _run_both(f, (w, X, t), (None, 0, 0))
    _close(batched, looped)
    expected = torch.stack([func.grad(loss)(w, X[i], t[i]) for i in range(5)])
    _close(batched, expected)
    gv, gv_loop = _run_both(func.grad_and_value(loss, argnums=(0, 1)), (w, X, t), (None, 0, 0))
    _close(gv, gv_loop)


def test_fallback_for_an_op_without_rule_warns_once_and_matches():
    def f(x):
        return F.prelu(x, torch.tensor([0.25])) * 2

    x = torch.randn(4, 3, 2)
    func._batched._warned.discard("prelu")
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        out = func.vmap(f)(x)
        func.vmap(f)(x)
    msgs = [str(m.message) for m in w if "batching rule for prelu" in str(m.message)]
    assert len(msgs) == 1
    _close(out, torch.stack([f(x[i]) for i in range(4)]))


def test_transforms_inside_vmap_fall_back_to_the_loop():
    x = torch.randn(3, 2)
    out = func.vmap(func.jacrev(lambda v: v.sin() * v.sum()))(x)
    expected = torch.stack([func.jacrev(lambda v: v.sin() * v.sum())(x[i]) for i in range(3)])
    _close(out, expected)


def test_vmap_errors_match_pytorch():
    x = torch.randn(3, 4)
    with pytest.raises(RuntimeError, match=r"vmap: It looks like you're calling .item\(\)"):
        func.vmap(lambda r: r.sum().item())(x)
    with pytest.raises(RuntimeError, match="data-dependent control flow"):
        func.vmap(lambda r: r * 2 if r.sum() > 0 else r)(x)
    with pytest.raises(IndexError, match=r"Dimension out of range \(expected to be in range of \[-1, 0\], but got 2\)"):
        func.vmap(lambda r: r.sum(dim=2))(x)
    with pytest.raises(IndexError, match=r"but got -2\)"):
        func.vmap(lambda r: r.softmax(-2))(x)

    def into_unbatched(r):
        y = torch.zeros(4)
        y[0] = r[0]
        return y

    with pytest.raises(RuntimeError, match=r"vmap: inplace arithmetic\(self, \*extra_args\) is not possible"):
        func.vmap(into_unbatched)(x)
    with pytest.raises(ValueError, match="must only return Tensors, got type <class 'int'>"):
        func.vmap(lambda r: r.shape[0])(x)


def test_batched_tensor_looks_like_pytorchs():
    seen = {}

    def f(r):
        seen["isinstance"] = isinstance(r, torch.Tensor)
        seen["shape"] = tuple(r.shape)
        seen["dim"] = r.dim()
        seen["repr"] = repr(r)
        return r

    func.vmap(f)(torch.ones(2, 3))
    assert seen["isinstance"] and seen["shape"] == (3,) and seen["dim"] == 1
    assert seen["repr"].startswith("BatchedTensor(lvl=") and "bdim=0, value=\n    tensor([[1., 1., 1.]," in seen["repr"]


def test_vmap_output_keeps_autograd_history():
    x = torch.randn(4, 3, requires_grad=True)
    out = func.vmap(lambda r: (r.exp() * V3).sum())(x)
    out.sum().backward()
    _close(x.grad, x.detach().exp() * V3)


def _small_cnn():
    torch.manual_seed(1)
    return torch.nn.Sequential(
        torch.nn.Conv2d(1, 4, 3), torch.nn.ReLU(), torch.nn.MaxPool2d(2), torch.nn.Flatten(),
        torch.nn.Linear(4 * 3 * 3, 5), torch.nn.LogSoftmax(dim=1))


def test_per_sample_gradients_tutorial_cnn():
    # PyTorch's per-sample-gradients tutorial: functional_call + grad + vmap(in_dims=(None, None, 0, 0))
    model = _small_cnn()
    params = {k: v.detach() for k, v in model.named_parameters()}
    buffers = {k: v.detach() for k, v in model.named_buffers()}
    data, targets = torch.randn(6, 1, 8, 8), torch.randint(0, 5, (6,))

    def compute_loss(params, buffers, sample, target):
        predictions = func.functional_call(model, (params, buffers), (sample.unsqueeze(0),))
        return F.nll_loss(predictions, target.unsqueeze(0))

    batched, looped = _run_both(func.grad(compute_loss), (params, buffers, data, targets), (None, None, 0, 0))
    assert set(batched) == set(params)
    for k in params:
        assert tuple(batched[k].shape) == (6,) + tuple(params[k].shape)
        _close(batched[k], looped[k])


def test_model_ensembling_tutorial():
    models = [_small_cnn() for _ in range(3)]
    params, buffers = func.stack_module_state(models)
    x = torch.randn(2, 1, 8, 8)

    def fmodel(params, buffers, x):
        return func.functional_call(models[0], (params, buffers), (x,))

    batched, looped = _run_both(fmodel, (params, buffers, x), (0, 0, None))
    _close(batched, looped)
    _close(batched, torch.stack([m(x) for m in models]).detach())


def test_chunk_size_runs_the_batched_function_per_chunk():
    calls = []

    def f(r):
        calls.append(tuple(r._v.shape))  # the physical batch of this chunk
        return (r * 2).sum(), r + 1

    x = torch.randn(5, 3)
    out = func.vmap(f, chunk_size=2, out_dims=(0, 1))(x)
    assert calls == [(2, 3), (2, 3), (1, 3)]
    _close(out, ((x * 2).sum(1), (x + 1).t()))


def test_batch_of_size_zero_runs_with_rules():
    out = func.vmap(lambda r: r.exp().sum())(torch.zeros(0, 3))
    assert tuple(out.shape) == (0,)


GOLD = json.loads((pathlib.Path(__file__).parent / "fixtures" / "vmap_rules.json").read_text())


def _matches_gold(got, want):
    if isinstance(want, list):
        assert isinstance(got, (tuple, list)) and len(got) == len(want)
        for g, w in zip(got, want):
            _matches_gold(g, w)
        return
    assert tuple(got.shape) == tuple(want["shape"])
    assert str(got.dtype).replace("torch.", "") == want["dtype"], (got.dtype, want["dtype"])
    expected = torch.tensor(want["data"], dtype=torch.float64).reshape(want["shape"])
    assert torch.allclose(got.double(), expected, rtol=1e-4, atol=1e-5, equal_nan=True), (got, expected)


@pytest.mark.parametrize("name", sorted(GOLD))
def test_rule_matches_pytorch(name):
    # recorded by tools/record_vmap_goldens.py from PyTorch's torch.func.vmap on the same cases
    # (the inputs come from manual_seed(0) streams, which ferrograd reproduces value for value)
    f, args, in_dims, out_dims = _case(name)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = func.vmap(f, in_dims=in_dims, out_dims=out_dims)(*args)
    _matches_gold(got, GOLD[name]["value"])


_VMAP_INPLACE = ("vmap: inplace arithmetic(self, *extra_args) is not possible because there exists a Tensor `other` "
                 "in extra_args that has more elements than `self`. This happened due to `other` being vmapped over "
                 "but `self` not being vmapped over in a vmap. Please try to use out-of-place operators instead of "
                 "inplace arithmetic. If said operator is being called inside the PyTorch framework, please file a "
                 "bug report instead.")


@pytest.mark.parametrize("body,message", [
    # PyTorch 2.13's messages for the same functions under torch.func.vmap
    (lambda z, x: z.add_(x), "output with shape [3] doesn't match the broadcast shape [2, 3]"),
    (lambda z, x: z.sub_(x), "output with shape [3] doesn't match the broadcast shape [2, 3]"),
    (lambda z, x: z.__iadd__(x), "output with shape [3] doesn't match the broadcast shape [2, 3]"),
    (lambda z, x: z.mul_(x), _VMAP_INPLACE),
    (lambda z, x: z.div_(x), _VMAP_INPLACE),
    (lambda z, x: z.copy_(x), _VMAP_INPLACE),
])
def test_inplace_write_of_a_vmapped_value_into_an_unvmapped_tensor_raises(body, message):
    def f(x):
        z = torch.zeros(3)
        body(z, x)
        return z
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no whole-function fallback either
        with pytest.raises(RuntimeError) as e:
            func.vmap(f)(torch.ones(2, 3))
    assert str(e.value) == message
