"""Autograd semantics: backward/grad, graph structure, hooks, custom Functions, grad modes,
in-place rules and higher-order derivatives."""

import warnings

import numpy as np
import pytest

import ferrograd as torch
from conftest import raises, to_np


def test_blitz_example():
    x = torch.ones(2, 2, requires_grad=True)
    out = ((x + 2) * (x + 2) * 3).mean()
    out.backward()
    assert to_np(x.grad).tolist() == [[4.5, 4.5], [4.5, 4.5]]
    assert type(out.grad_fn).__name__ == "MeanBackward0"


def test_next_functions_and_accumulate_grad():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = (x * 3 + 1).sum()
    add = y.grad_fn.next_functions[0][0]
    mul = add.next_functions[0][0]
    acc = mul.next_functions[0][0]
    assert [type(n).__name__ for n in (add, mul, acc)] == ["AddBackward0", "MulBackward0", "AccumulateGrad"]
    assert acc.variable is x
    assert y.grad_fn is y.grad_fn


def test_retain_graph_and_second_backward_error():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = (x.exp() * x).sum()
    y.backward(retain_graph=True)
    y.backward()
    raises(RuntimeError, "Trying to backward through the graph a second time", y.backward)


def test_grad_accumulates_in_place_and_none_resets():
    w = torch.tensor([1.0, -1.0], requires_grad=True)
    (w * 2).sum().backward()
    g = w.grad
    (w * 3).sum().backward()
    assert w.grad is g and to_np(g).tolist() == [5.0, 5.0]
    w.grad = None
    (w * 4).sum().backward()
    assert to_np(w.grad).tolist() == [4.0, 4.0]


def test_autograd_grad_and_unused():
    x = torch.tensor(1.0, requires_grad=True)
    z = torch.tensor(2.0, requires_grad=True)
    y = x * 3
    raises(RuntimeError, "The differentiated Tensor at index 1 appears to not have been used", lambda: torch.autograd.grad(y, [x, z], retain_graph=True))
    gx, gz = torch.autograd.grad(y, [x, z], allow_unused=True)
    assert gx.item() == 3.0 and gz is None
    assert x.grad is None


def test_higher_order():
    x = torch.tensor(2.0, requires_grad=True)
    d1, = torch.autograd.grad(x ** 4, x, create_graph=True)
    d2, = torch.autograd.grad(d1, x, create_graph=True)
    d3, = torch.autograd.grad(d2, x)
    assert (d1.item(), d2.item(), d3.item()) == (32.0, 48.0, 48.0)


@pytest.mark.parametrize("f", [lambda t: t.exp(), lambda t: t.sin() * t, lambda t: t.tanh(), lambda t: t.sigmoid(),
                               lambda t: (t * t).sqrt(), lambda t: t.softmax(0), lambda t: t.log_softmax(0)])
def test_double_backward_matches_gradgradcheck(f):
    x = torch.tensor([0.3, -0.7, 1.1], dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradgradcheck(lambda t: f(t), (x,))


def test_hooks_order_and_removal():
    seen = []
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * 3
    y.register_hook(lambda g: seen.append(("first", to_np(g).tolist())))
    y.register_hook(lambda g: g + 1)
    y.retain_grad()
    (y * y).sum().backward()
    assert seen == [("first", [6.0, 12.0])]
    assert to_np(y.grad).tolist() == [7.0, 13.0]
    h = x.register_hook(lambda g: g * 0)
    x.grad = None
    (x * 5).sum().backward()
    assert to_np(x.grad).tolist() == [0.0, 0.0]
    h.remove()
    x.grad = None
    (x * 5).sum().backward()
    assert to_np(x.grad).tolist() == [5.0, 5.0]


def test_node_hooks_and_post_accumulate():
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    c = a * 2
    events = []
    c.grad_fn.register_prehook(lambda go: (go[0] * 2,))
    c.grad_fn.register_hook(lambda gi, go: events.append("post"))
    a.register_post_accumulate_grad_hook(lambda p: events.append(("acc", to_np(p.grad).tolist())))
    c.sum().backward()
    assert events == ["post", ("acc", [4.0, 4.0])]


def test_custom_function():
    class Square(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * x

        @staticmethod
        def backward(ctx, g):
            x, = ctx.saved_tensors
            return 2 * x * g

    x = torch.tensor([1.0, -3.0], requires_grad=True)
    y = Square.apply(x)
    assert type(y.grad_fn).__name__ == "SquareBackward"
    y.backward(torch.tensor([1.0, 0.5]))
    assert to_np(x.grad).tolist() == [2.0, -3.0]


def test_grad_modes():
    x = torch.tensor([1.0], requires_grad=True)
    with torch.no_grad():
        assert not (x * 2).requires_grad
        with torch.enable_grad():
            assert (x * 2).requires_grad
    with torch.inference_mode():
        y = x * 2
    assert y.is_inference() and not y.requires_grad

    @torch.no_grad()
    def f():
        return torch.is_grad_enabled()

    assert f() is False and torch.is_grad_enabled()


def test_inplace_rules():
    w = torch.tensor([1.0, 2.0], requires_grad=True)
    raises(RuntimeError, "a leaf Variable that requires grad is being used in an in-place operation.", lambda: w.add_(1))
    a = torch.tensor([0.5, 1.5], requires_grad=True)
    b = a.exp()
    c = b * 3
    b.add_(1)
    raises(RuntimeError, "one of the variables needed for gradient computation has been modified by an inplace operation", lambda: c.sum().backward())
    base = torch.zeros(2, 3)
    view = base[0]
    view.add_(1)
    assert base._version == view._version == 1


def test_nonleaf_grad_warning():
    x = torch.tensor([1.0], requires_grad=True)
    y = x * 2
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        assert y.grad is None
    assert w and "not a leaf Tensor" in str(w[0].message)


def test_functional_jacobian_hessian():
    F = torch.autograd.functional
    x = torch.tensor([2.0, 3.0])
    j = F.jacobian(lambda t: torch.stack([t[0] * t[1], t[0] ** 2 + t[1]]), x)
    assert to_np(j).tolist() == [[3.0, 2.0], [4.0, 1.0]]
    h = F.hessian(lambda t: (t ** 3).sum() + t[0] * t[1], x)
    assert to_np(h).tolist() == [[12.0, 1.0], [1.0, 18.0]]
