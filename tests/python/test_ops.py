"""Every op: forward against NumPy, backward against finite differences."""

import numpy as np
import pytest

import ferrograd as torch
from conftest import check_grads, to_np

R = np.random.RandomState(42)
POS = R.uniform(0.5, 2.0, size=(3, 4))
ANY = R.uniform(-2.0, 2.0, size=(3, 4))
UNIT = R.uniform(-0.9, 0.9, size=(3, 4))

UNARY = [
    ("exp", np.exp, ANY), ("log", np.log, POS), ("sqrt", np.sqrt, POS),
    ("rsqrt", lambda a: 1 / np.sqrt(a), POS), ("sin", np.sin, ANY), ("cos", np.cos, ANY),
    ("tanh", np.tanh, ANY), ("sigmoid", lambda a: 1 / (1 + np.exp(-a)), ANY),
    ("relu", lambda a: np.maximum(a, 0), ANY), ("abs", np.abs, ANY), ("neg", np.negative, ANY),
    ("reciprocal", lambda a: 1 / a, POS), ("log1p", np.log1p, POS), ("expm1", np.expm1, ANY),
    ("tan", np.tan, UNIT), ("atan", np.arctan, ANY), ("asin", np.arcsin, UNIT), ("acos", np.arccos, UNIT),
    ("sinh", np.sinh, ANY), ("cosh", np.cosh, ANY), ("square", np.square, ANY),
    ("log2", np.log2, POS), ("log10", np.log10, POS),
]


@pytest.mark.parametrize("name,ref,data", UNARY, ids=[u[0] for u in UNARY])
def test_unary(device, name, ref, data):
    x = torch.tensor(data, dtype=torch.float32, device=device)
    np.testing.assert_allclose(to_np(getattr(x, name)()), ref(data.astype(np.float32)), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(to_np(getattr(torch, name)(x)), ref(data.astype(np.float32)), rtol=1e-5, atol=1e-6)
    check_grads(lambda t: getattr(t, name)(), [data], device=device)


def test_clamp_and_pow_scalar(device):
    check_grads(lambda t: t.clamp(-1.0, 1.0), [ANY], device=device)
    check_grads(lambda t: t.clamp(min=0.0), [ANY], device=device)
    check_grads(lambda t: t ** 3, [ANY], device=device)
    check_grads(lambda t: t ** 0.5, [POS], device=device)
    check_grads(lambda t: 2 ** t, [ANY], device=device)
    np.testing.assert_allclose(to_np(torch.tensor(ANY, device=device).clamp(max=0.5)), np.minimum(ANY, 0.5))


BINARY = [
    ("add", np.add, ANY, ANY), ("sub", np.subtract, ANY, ANY), ("mul", np.multiply, ANY, ANY),
    ("div", np.divide, ANY, POS), ("pow", np.power, POS, ANY),
    ("maximum", np.maximum, ANY, ANY[::-1].copy()), ("minimum", np.minimum, ANY, ANY[::-1].copy()),
]


@pytest.mark.parametrize("name,ref,a,b", BINARY, ids=[b[0] for b in BINARY])
def test_binary(device, name, ref, a, b):
    ta, tb = torch.tensor(a, device=device), torch.tensor(b, device=device)
    np.testing.assert_allclose(to_np(getattr(ta, name)(tb)), ref(a, b), rtol=1e-6)
    check_grads(lambda x, y: getattr(x, name)(y), [a, b], device=device)
    # broadcasting: a row against the matrix
    check_grads(lambda x, y: getattr(x, name)(y), [a, b[:1]], device=device)


def test_operators_and_scalars():
    a = np.array([1.0, 2.0, 4.0])
    x = torch.tensor(a)
    np.testing.assert_allclose(to_np(2 - x), 2 - a)
    np.testing.assert_allclose(to_np(1 / x), 1 / a)
    np.testing.assert_allclose(to_np(x / 2), a / 2)
    np.testing.assert_allclose(to_np(x // 3), a // 3)
    np.testing.assert_allclose(to_np(x % 3), a % 3)
    np.testing.assert_allclose(to_np(-x), -a)
    check_grads(lambda t: 2 - t, [a])
    check_grads(lambda t: 1 / t, [a])
    check_grads(lambda t: 3 * t + 1, [a])


def test_comparisons():
    a, b = np.array([1.0, 2.0, 3.0]), np.array([3.0, 2.0, 1.0])
    ta, tb = torch.tensor(a), torch.tensor(b)
    for op, ref in [("eq", np.equal), ("ne", np.not_equal), ("lt", np.less), ("le", np.less_equal),
                    ("gt", np.greater), ("ge", np.greater_equal)]:
        assert to_np(getattr(ta, op)(tb)).tolist() == ref(a, b).tolist()
    assert (ta > 1).any().item() and not (ta > 5).any().item()
    assert (ta > 0).all().item()
    assert torch.equal(ta, ta.clone()) and not torch.equal(ta, tb)
    assert torch.allclose(ta, ta + 1e-9) and not torch.allclose(ta, ta + 1e-3)


REDUCTIONS = [
    ("sum", lambda t: t.sum(), lambda a: a.sum()),
    ("sum_dim", lambda t: t.sum(1), lambda a: a.sum(1)),
    ("sum_keepdim", lambda t: t.sum(0, keepdim=True), lambda a: a.sum(0, keepdims=True)),
    ("mean", lambda t: t.mean(), lambda a: a.mean()),
    ("mean_dim", lambda t: t.mean(dim=-1), lambda a: a.mean(-1)),
    ("prod", lambda t: t.prod(), lambda a: a.prod()),
    ("prod_dim", lambda t: t.prod(1), lambda a: a.prod(1)),
    ("max", lambda t: t.max(), lambda a: a.max()),
    ("min_dim", lambda t: t.min(dim=0).values, lambda a: a.min(0)),
    ("max_dim", lambda t: t.max(dim=1)[0], lambda a: a.max(1)),
    ("norm", lambda t: t.norm(), lambda a: np.linalg.norm(a)),
    ("norm_dim", lambda t: t.norm(dim=1), lambda a: np.linalg.norm(a, axis=1)),
    ("norm_p1", lambda t: t.norm(p=1), lambda a: np.abs(a).sum()),
    ("softmax", lambda t: t.softmax(1), lambda a: np.exp(a) / np.exp(a).sum(1, keepdims=True)),
    ("log_softmax", lambda t: t.log_softmax(0), lambda a: a - np.log(np.exp(a).sum(0, keepdims=True))),
    ("var", lambda t: t.var(), lambda a: a.var(ddof=1)),
    ("var_dim", lambda t: t.var(1, unbiased=False), lambda a: a.var(1)),
    ("std", lambda t: t.std(dim=0), lambda a: a.std(0, ddof=1)),
    ("logsumexp", lambda t: t.logsumexp(1), lambda a: np.log(np.exp(a).sum(1))),
    ("cumsum", lambda t: t.cumsum(1), lambda a: a.cumsum(1)),
    ("flip", lambda t: t.flip(0), lambda a: a[::-1]),
    ("repeat", lambda t: t.repeat(2, 1), lambda a: np.tile(a, (2, 1))),
]


@pytest.mark.parametrize("name,f,ref", REDUCTIONS, ids=[r[0] for r in REDUCTIONS])
def test_reductions(device, name, f, ref):
    np.testing.assert_allclose(to_np(f(torch.tensor(ANY, device=device))), ref(ANY), rtol=1e-6)
    check_grads(f, [ANY], device=device)


def test_argmax_and_integer_sums():
    t = torch.tensor(ANY)
    assert t.argmax().item() == ANY.argmax()
    assert to_np(t.argmin(dim=1)).tolist() == ANY.argmin(1).tolist()
    assert torch.tensor([1, 2, 3]).sum().item() == 6
    assert torch.tensor([1, 2, 3]).sum().dtype == torch.int64


def test_matmul_family(device):
    a, b = R.randn(3, 4), R.randn(4, 2)
    v = R.randn(4)
    np.testing.assert_allclose(to_np(torch.mm(torch.tensor(a, device=device), torch.tensor(b, device=device))), a @ b, rtol=1e-10)
    check_grads(lambda x, y: x.mm(y), [a, b], device=device)
    check_grads(lambda x, y: x.mv(y), [a, v], device=device)
    check_grads(lambda x, y: x.dot(y), [v, v * 2], device=device)
    check_grads(lambda x, y: x @ y, [R.randn(2, 3, 4), R.randn(2, 4, 5)], device=device)
    check_grads(lambda x, y: x.bmm(y), [R.randn(2, 3, 4), R.randn(2, 4, 5)], device=device)
    check_grads(lambda x, y: x @ y, [R.randn(2, 3, 4), R.randn(4, 2)], device=device)
    check_grads(lambda x, y: x @ y, [R.randn(4), R.randn(4, 2)], device=device)
    big_a, big_b = R.randn(70, 90).astype(np.float32), R.randn(90, 50).astype(np.float32)
    np.testing.assert_allclose(to_np(torch.tensor(big_a, device=device) @ torch.tensor(big_b, device=device)), big_a @ big_b, rtol=1e-4, atol=1e-4)
    # transposed (strided) operands
    np.testing.assert_allclose(to_np(torch.tensor(a, device=device).t() @ torch.tensor(a, device=device)), a.T @ a, rtol=1e-10)


SHAPE_OPS = [
    ("view", lambda t: t.view(4, 3)), ("reshape", lambda t: t.reshape(-1)),
    ("t", lambda t: t.t()), ("transpose", lambda t: t.transpose(0, 1)),
    ("permute", lambda t: t.unsqueeze(0).permute(2, 0, 1)),
    ("squeeze", lambda t: t.unsqueeze(1).squeeze()), ("unsqueeze", lambda t: t.unsqueeze(-1)),
    ("expand", lambda t: t[:1].expand(5, 4)), ("contiguous", lambda t: t.t().contiguous()),
    ("narrow", lambda t: t.narrow(1, 1, 2)), ("select", lambda t: t.select(0, 1)),
    ("slice", lambda t: t[1:, ::2]), ("index_list", lambda t: t[[0, 2, 2]]),
    ("index_tensor", lambda t: t[:, torch.tensor([3, 0], device=t.device)]), ("mask", lambda t: t[t > 0]),
    ("cat", lambda t: torch.cat([t, t * 2], dim=1)), ("stack", lambda t: torch.stack([t, t], 0)),
    ("flatten", lambda t: t.flatten()), ("clone", lambda t: t.clone()),
    ("gather", lambda t: t.gather(1, torch.tensor([[0, 1], [2, 3], [1, 1]], device=t.device))),
    ("where", lambda t: torch.where(t > 0, t, t * 3)),
]


@pytest.mark.parametrize("name,f", SHAPE_OPS, ids=[s[0] for s in SHAPE_OPS])
def test_shape_ops_grads(device, name, f):
    check_grads(f, [ANY], device=device)


def test_shape_ops_forward():
    a = np.arange(12.0).reshape(3, 4)
    t = torch.tensor(a)
    assert to_np(t.t()).tolist() == a.T.tolist()
    assert to_np(t[1:, ::2]).tolist() == a[1:, ::2].tolist()
    assert to_np(t[[0, 2]]).tolist() == a[[0, 2]].tolist()
    assert to_np(t[t > 5]).tolist() == a[a > 5].tolist()
    assert to_np(t[..., 1]).tolist() == a[..., 1].tolist()
    assert list(t[None, 0].shape) == [1, 4]
    assert to_np(torch.cat([t, t])).tolist() == np.concatenate([a, a]).tolist()
    assert to_np(torch.stack([t, t], 1)).tolist() == np.stack([a, a], 1).tolist()
    assert list(t.permute(1, 0).stride()) == [1, 4]


def test_setitem_records_copyslices():
    m = torch.tensor([[2.0, 3.0]], requires_grad=True)
    n = torch.zeros((1, 2))
    n[0, 0] = m[0, 0] ** 2
    n[0, 1] = m[0, 1] ** 3
    assert type(n.grad_fn).__name__ == "CopySlices"
    n.backward(torch.tensor([[1.0, 1.0]]))
    assert to_np(m.grad).tolist() == [[4.0, 27.0]]


def test_inplace_ops():
    t = torch.tensor([1.0, -2.0, 3.0])
    assert t.add_(1) is t and to_np(t).tolist() == [2.0, -1.0, 4.0]
    t.mul_(2).sub_(1).div_(2)
    np.testing.assert_allclose(to_np(t), [1.5, -1.5, 3.5])
    t.clamp_(-1, 2)
    assert to_np(t).tolist() == [1.5, -1.0, 2.0]
    t.copy_(torch.tensor([7.0, 8.0, 9.0]))
    t.fill_(0.5)
    assert to_np(t).tolist() == [0.5] * 3
    t.zero_()
    assert t._version == 8


def test_numpy_interop_shares_memory():
    arr = np.array([[1.0, 2.0], [3.0, 4.0]])
    t = torch.from_numpy(arr)
    arr[0, 0] = 10.0
    t[1, 1] = -4.0
    assert t[0, 0].item() == 10.0 and arr[1, 1] == -4.0
    back = t.numpy()
    back[0, 1] = 7.0
    assert t[0, 1].item() == 7.0
    assert torch.tensor([1, 2]).numpy().dtype == np.int64
    assert torch.tensor([True]).tolist() == [True]


def test_factories():
    assert torch.arange(5).tolist() == [0, 1, 2, 3, 4]
    # int64 ranges in integer arithmetic (exact past 2^53), ATen's length rule
    big = 2 ** 60 + 1
    assert torch.arange(big, big + 7, 3).tolist() == [big, big + 3, big + 6]
    assert torch.arange(10, -3, -4).tolist() == [10, 6, 2, -2]
    assert torch.arange(0, 10, 5).tolist() == [0, 5] and torch.arange(3, 3).tolist() == []
    with pytest.raises(RuntimeError, match="upper bound and lower bound inconsistent with step sign"):
        torch.arange(0, 5, -1)
    with pytest.raises(RuntimeError, match="step must be nonzero"):
        torch.arange(0, 5, 0)
    np.testing.assert_allclose(to_np(torch.linspace(0, 1, 5)), np.linspace(0, 1, 5), rtol=1e-6)
    assert to_np(torch.eye(2, 3)).tolist() == np.eye(2, 3).tolist()
    assert torch.full((2,), 3).dtype == torch.int64
    torch.manual_seed(1)
    a = torch.randn(100)
    torch.manual_seed(1)
    assert torch.randn(100).tolist() == a.tolist()
    r = torch.rand(1000)
    assert 0 <= r.min().item() and r.max().item() < 1
    assert abs(torch.randn(10000).mean().item()) < 0.05
    assert torch.zeros_like(torch.ones(2, 3, dtype=torch.float64)).dtype == torch.float64
