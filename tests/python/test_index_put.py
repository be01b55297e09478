"""``Tensor.index_put_`` / ``index_put`` as PyTorch 2.13 (runs unchanged with
``import torch as ferrograd``)."""

import pytest

import ferrograd


def test_index_put_values_accumulate_and_masks():
    x = ferrograd.zeros(3, 4)
    x.index_put_((ferrograd.tensor([0, 2]), ferrograd.tensor([1, 3])), ferrograd.tensor(5.0))
    assert x.tolist() == [[0.0, 5.0, 0.0, 0.0], [0.0] * 4, [0.0, 0.0, 0.0, 5.0]]
    x.index_put_((ferrograd.tensor([0, 0]),), ferrograd.ones(4), accumulate=True)
    assert x[0].tolist() == [2.0, 7.0, 2.0, 2.0]
    m = ferrograd.tensor([True, False, True])
    y = x.index_put((m,), ferrograd.tensor(-1.0))
    assert y.tolist() == [[-1.0] * 4, [0.0] * 4, [-1.0] * 4]
    assert x[0].tolist() == [2.0, 7.0, 2.0, 2.0]


def test_index_put_errors_and_history():
    x = ferrograd.zeros(3, 4)
    with pytest.raises(IndexError, match="tensors used as indices must be long, int, byte or bool tensors"):
        x.index_put_([ferrograd.tensor([0.5])], ferrograd.tensor(1.0))
    with pytest.raises(TypeError, match="must be tuple of Tensors, not Tensor"):
        x.index_put_(ferrograd.tensor([0]), ferrograd.tensor(1.0))
    a = ferrograd.zeros(3, requires_grad=True).clone()
    v = ferrograd.tensor(2.0, requires_grad=True)
    a.index_put_((ferrograd.tensor([1]),), v)
    assert type(a.grad_fn).__name__ == "IndexPutBackward0"
    a.sum().backward()
    assert v.grad.item() == 1.0
