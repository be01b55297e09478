"""repr/str of tensors and nodes match PyTorch's text."""

import ferrograd as torch


def r(t):
    return repr(t).replace("ferrograd.", "torch.")


def test_numbers():
    assert r(torch.tensor([1, 2, 3])) == "tensor([1, 2, 3])"
    assert r(torch.tensor([1.0, 2.0])) == "tensor([1., 2.])"
    assert r(torch.tensor([0.1, 0.25, 1 / 3])) == "tensor([0.1000, 0.2500, 0.3333])"
    assert r(torch.tensor([1e-5, 1.0, 1e5])) == "tensor([1.0000e-05, 1.0000e+00, 1.0000e+05])"
    assert r(torch.tensor(-0.5)) == "tensor(-0.5000)"
    assert r(torch.tensor([True, False])) == "tensor([ True, False])"
    assert r(torch.tensor([float("nan"), 1.0, float("inf")])) == "tensor([nan, 1., inf])"


def test_layout_and_suffixes():
    assert r(torch.arange(6.0).reshape(2, 3)) == "tensor([[0., 1., 2.],\n        [3., 4., 5.]])"
    assert r(torch.zeros(0, 3)) == "tensor([], size=(0, 3))"
    leaf = torch.tensor([1.0, 2.0], requires_grad=True)
    assert r(leaf) == "tensor([1., 2.], requires_grad=True)"
    assert r(leaf * 2) == "tensor([2., 4.], grad_fn=<MulBackward0>)"
    assert r(torch.tensor([1.5], dtype=torch.float64)) == "tensor([1.5000], dtype=torch.float64)"
    assert r(torch.ones(1001)) == "tensor([1., 1., 1.,  ..., 1., 1., 1.])"


def test_nodes_and_sizes():
    y = torch.tensor([1.0], requires_grad=True) * 2
    assert r(y.grad_fn).startswith("<MulBackward0 object at 0x")
    assert r(torch.ones(2, 3).shape) == "torch.Size([2, 3])"
    assert "{}".format(torch.tensor(4.5)) == "4.5"
