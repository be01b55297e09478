"""Backward-of-backward nodes as PyTorch names them, with their values checked against finite
differences (this file runs unchanged with ``import torch as ferrograd``)."""

import pytest

import ferrograd


def _second(f, x, v):
    """(name of the first gradient's grad_fn, Hessian-vector product of sum(f(x) * w))."""
    x = x.clone().requires_grad_(True)
    w = ferrograd.linspace(-1.0, 1.5, x.numel(), dtype=x.dtype).reshape(x.shape)
    (g,) = ferrograd.autograd.grad((f(x) * w).sum(), x, create_graph=True)
    name = type(g.grad_fn).__name__
    (h,) = ferrograd.autograd.grad((g * v).sum(), x)
    return name, h, w


def _fd_hvp(f, x, v, w, eps=1e-6):
    def grad_at(z):
        z = z.clone().requires_grad_(True)
        (g,) = ferrograd.autograd.grad((f(z) * w).sum(), z)
        return g
    return (grad_at(x + eps * v) - grad_at(x - eps * v)) / (2 * eps)


@pytest.mark.parametrize("name,f,node", [
    ("softmax", lambda x: ferrograd.softmax(x, 1), "SoftmaxBackwardDataBackward0"),
    ("log_softmax", lambda x: ferrograd.log_softmax(x, 1), "LogSoftmaxBackwardDataBackward0"),
    ("log_softmax_dim0", lambda x: ferrograd.log_softmax(x, 0), "LogSoftmaxBackwardDataBackward0"),
    ("tanh", lambda x: ferrograd.tanh(x), "TanhBackwardBackward0"),
    ("sigmoid", lambda x: ferrograd.sigmoid(x), "SigmoidBackwardBackward0"),
])
def test_double_backward_node_and_values(name, f, node):
    x = ferrograd.tensor([[0.3, -1.2, 0.8, 2.0], [1.1, 0.0, -0.4, 0.5], [-2.0, 0.7, 1.3, -0.1]], dtype=ferrograd.float64)
    v = ferrograd.tensor([[1.0, 0.5, -1.0, 0.2], [0.0, -0.3, 0.8, 1.0], [0.4, 0.4, -0.6, 0.1]], dtype=ferrograd.float64)
    got_name, h, w = _second(f, x, v)
    assert got_name == node
    fd = _fd_hvp(f, x, v, w)
    assert ferrograd.allclose(h, fd, rtol=1e-5, atol=1e-7), (h, fd)


def test_softmax_double_backward_saved_fields():
    x = ferrograd.tensor([[0.3, -1.2, 0.8]], requires_grad=True)
    y = ferrograd.softmax(x, 1)
    (g,) = ferrograd.autograd.grad(y[0, 0], x, create_graph=True)
    assert g.grad_fn._saved_dim == 1
    assert g.grad_fn._saved_output.tolist()[0] == pytest.approx(y.tolist()[0])
