"""Bad input raises PyTorch's exception type and message, never a crash."""

import pytest

import ferrograd as torch
from conftest import raises


def test_shape_errors():
    a = torch.ones(2, 3)
    raises(RuntimeError, "The size of tensor a (3) must match the size of tensor b (2) at non-singleton dimension 1", lambda: a + torch.ones(3, 2))
    raises(RuntimeError, "mat1 and mat2 shapes cannot be multiplied (2x3 and 2x3)", lambda: torch.mm(a, a))
    raises(RuntimeError, "shape '[5]' is invalid for input of size 6", lambda: a.reshape(5))
    raises(RuntimeError, "view size is not compatible with input tensor's size and stride", lambda: a.t().view(6))
    raises(IndexError, "Dimension out of range (expected to be in range of [-2, 1], but got 2)", lambda: a.sum(dim=2))
    raises(RuntimeError, "self must be a matrix", lambda: torch.mm(torch.ones(2), torch.ones(2)))
    raises(RuntimeError, "batch1 must be a 3D tensor", lambda: torch.bmm(a, a))
    raises(RuntimeError, "stack expects each tensor to be equal size", lambda: torch.stack([a, torch.ones(1, 3)]))
    raises(RuntimeError, "Sizes of tensors must match except in dimension 0", lambda: torch.cat([a, torch.ones(1, 2)]))


def test_value_and_index_errors():
    a = torch.ones(2, 3)
    raises(IndexError, "index 2 is out of bounds for dimension 0 with size 2", lambda: a[2])
    raises(IndexError, "index 5 is out of bounds for dimension 1 with size 3", lambda: a[0, 5])
    raises(RuntimeError, "a Tensor with 6 elements cannot be converted to Scalar", a.item)
    raises(ValueError, "expected sequence of length 2 at dim 1 (got 1)", lambda: torch.tensor([[1.0, 2.0], [3.0]]))
    raises(RuntimeError, "Only Tensors of floating point and complex dtype can require gradients", lambda: torch.zeros(2, dtype=torch.int64, requires_grad=True))
    raises(RuntimeError, "only Tensors of floating point dtype can require gradients", lambda: torch.tensor([1, 2]).requires_grad_())
    with pytest.raises(TypeError):
        torch.tensor("abc")


def test_autograd_errors():
    raises(RuntimeError, "element 0 of tensors does not require grad and does not have a grad_fn", lambda: torch.tensor([1.0]).sum().backward())
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    raises(RuntimeError, "grad can be implicitly created only for scalar outputs", lambda: (x * 2).backward())
    raises(RuntimeError, "Mismatch in shape: grad_output[0] has a shape of torch.Size([3])", lambda: (x * 2).backward(torch.ones(3)))
    raises(RuntimeError, "Can't call numpy() on Tensor that requires grad.", x.numpy)
    raises(RuntimeError, "cannot register a hook on a tensor that doesn't require gradient", lambda: torch.ones(1).register_hook(lambda g: g))
    raises(RuntimeError, "can't retain_grad on Tensor that has requires_grad=False", lambda: torch.ones(1).retain_grad())
    raises(RuntimeError, "mean(): could not infer output dtype", lambda: torch.tensor([1, 2]).mean())



def test_losses_refuse_class_weights_that_require_grad():
    # PyTorch's check_no_requires_grad: the weights are not differentiated, so they may not
    # require grad while grad mode is on (fine under no_grad)
    F = torch.nn.functional
    x = torch.rand(2, 3, requires_grad=True)
    w = torch.rand(3, requires_grad=True)
    msg = "The function '{}' is not differentiable with respect to argument '{}'. This input cannot have requires_grad True."
    raises(RuntimeError, msg.format("binary_cross_entropy_with_logits", "weight"), lambda: F.binary_cross_entropy_with_logits(x, torch.rand(2, 3), weight=w))
    raises(RuntimeError, msg.format("binary_cross_entropy_with_logits", "pos_weight"), lambda: F.binary_cross_entropy_with_logits(x, torch.rand(2, 3), pos_weight=w))
    raises(RuntimeError, msg.format("binary_cross_entropy", "weight"), lambda: F.binary_cross_entropy(x.sigmoid(), torch.rand(2, 3), weight=w))
    raises(RuntimeError, msg.format("nll_loss_forward", "weight"), lambda: F.nll_loss(x, torch.tensor([0, 2]), weight=w))
    raises(RuntimeError, msg.format("nll_loss_forward", "weight"), lambda: F.cross_entropy(x, torch.tensor([0, 2]), weight=w))
    raises(RuntimeError, msg.format("nll_loss2d_forward", "weight"), lambda: F.nll_loss(torch.rand(2, 3, 2, 2), torch.zeros(2, 2, 2, dtype=torch.int64), weight=w))
    raises(RuntimeError, msg.format("multi_margin_loss", "weight"), lambda: F.multi_margin_loss(x, torch.tensor([0, 2]), weight=w))
    with torch.no_grad():
        assert F.nll_loss(x, torch.tensor([0, 2]), weight=w).shape == ()
    assert F.cross_entropy(x, torch.rand(2, 3), weight=w).grad_fn is not None  # probabilities: differentiable


def test_python_exception_in_hook_propagates_unchanged():
    class Boom(Exception):
        pass

    x = torch.tensor([1.0], requires_grad=True)

    def hook(g):
        raise Boom("from hook")

    (x * 2).register_hook(hook)
    y = x * 2
    y.register_hook(hook)
    with pytest.raises(Boom, match="from hook"):
        y.sum().backward()
    # the engine is usable afterwards
    (x * 3).sum().backward()
    assert x.grad.item() == 3.0
