"""``grad_fn._raw_saved_<name>`` and ``register_hooks`` on a saved tensor, as PyTorch 2.13
(this file runs unchanged with ``import torch as ferrograd``)."""

import pytest

import ferrograd


def test_raw_saved_hooks_transform_what_backward_sees():
    x = ferrograd.tensor([0.5, -1.0, 2.0], requires_grad=True)
    y = x.sin()
    raw = y.grad_fn._raw_saved_self
    calls = []

    def pack(t):
        calls.append("pack")
        return t * 0  # backward will see cos(0) = 1

    def unpack(p):
        calls.append("unpack")
        return p

    raw.register_hooks(pack, unpack)
    assert calls == ["pack"]
    y.sum().backward()
    assert calls == ["pack", "unpack"]
    assert x.grad.tolist() == [1.0, 1.0, 1.0]


def test_raw_saved_identity_hooks_keep_the_gradient():
    x = ferrograd.tensor([0.5, -1.0], requires_grad=True)
    w = ferrograd.tensor([2.0, 3.0], requires_grad=True)
    y = x * w
    y.grad_fn._raw_saved_other.register_hooks(lambda t: t, lambda t: t)
    y.grad_fn._raw_saved_self.register_hooks(lambda t: t.clone(), lambda t: t)
    y.sum().backward()
    assert x.grad.tolist() == [2.0, 3.0]
    assert w.grad.tolist() == [0.5, -1.0]


def test_raw_saved_errors():
    x = ferrograd.tensor([0.5, -1.0], requires_grad=True)
    z = x.sin()
    raw = z.grad_fn._raw_saved_self
    with pytest.raises(TypeError, match="register_hooks"):
        raw.register_hooks(lambda t: t, 1)
    raw.register_hooks(lambda t: t, lambda t: t)
    with pytest.raises(RuntimeError, match="hooks have already been set"):
        raw.register_hooks(lambda t: t, lambda t: t)
    q = x.exp()
    q.sum().backward()
    with pytest.raises(RuntimeError, match="after it has been freed"):
        q.grad_fn._raw_saved_result.register_hooks(lambda t: t, lambda t: t)
    with pytest.raises(AttributeError):
        q.grad_fn._raw_saved_nothing_like_this
    s = x.sum(0)
    with pytest.raises(AttributeError):
        s.grad_fn._raw_saved_dim


def test_saved_tensor_hooks_keep_higher_order_history():
    x = ferrograd.tensor([1.0, 2.0], requires_grad=True)
    with ferrograd.autograd.graph.saved_tensors_hooks(lambda t: t.detach().clone(), lambda t: t):
        y = x * x * x
    (g,) = ferrograd.autograd.grad(y.sum(), x, create_graph=True)
    assert g.tolist() == [3.0, 12.0] and g.grad_fn is not None
    (h,) = ferrograd.autograd.grad(g.sum(), x)
    assert h.tolist() == [6.0, 12.0]


def test_saved_tensor_hooks_do_not_see_python_numbers():
    x = ferrograd.tensor([1.0, 2.0], requires_grad=True)
    seen = []
    with ferrograd.autograd.graph.saved_tensors_hooks(lambda t: (seen.append(tuple(t.shape)), t)[1], lambda t: t):
        x * 2
        x.exp()
        x.pow(2)
    assert seen == [(2,), (2,)]
