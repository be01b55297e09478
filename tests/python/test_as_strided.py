"""Tensor.as_strided / torch.as_strided: views of the storage with explicit strides
(AsStridedBackward0, overlapping windows accumulate), PyTorch's checks and messages
(values checked against PyTorch 2.13)."""

import pytest

import ferrograd as torch


def test_views_and_gradients():
    x = torch.arange(6.0, requires_grad=True)
    y = x.as_strided((2, 2), (1, 2), 1)
    assert y.tolist() == [[1.0, 3.0], [2.0, 4.0]]
    assert type(y.grad_fn).__name__ == "AsStridedBackward0" and y._base is x
    y.sum().backward()
    assert x.grad.tolist() == [0.0, 1.0, 1.0, 1.0, 1.0, 0.0]
    # overlapping windows: each element's gradient counts its windows
    x.grad = None
    w = torch.as_strided(x, (3, 3), (1, 1))
    assert w.tolist() == [[0.0, 1.0, 2.0], [1.0, 2.0, 3.0], [2.0, 3.0, 4.0]]
    w.sum().backward()
    assert x.grad.tolist() == [1.0, 2.0, 3.0, 2.0, 1.0, 0.0]
    # the offset defaults to the input's own
    z = x.detach()[2:].as_strided((2,), (1,))
    assert z.tolist() == [2.0, 3.0] and z.storage_offset() == 2
    # a write through the view reaches the base
    b = torch.zeros(4)
    b.as_strided((2,), (2,)).fill_(1.0)
    assert b.tolist() == [1.0, 0.0, 1.0, 0.0]


def test_errors():
    x = torch.arange(6.0)
    with pytest.raises(RuntimeError, match="^mismatch in length of strides and shape$"):
        x.as_strided((2,), (1, 1))
    with pytest.raises(RuntimeError, match=r"^as_strided: Negative strides are not supported at the moment, got strides: \[-1\]$"):
        x.as_strided((2,), (-1,))
    with pytest.raises(RuntimeError, match=r"^setStorage: sizes \[20\], strides \[1\], storage offset 0, and itemsize 4 requiring a storage size of 80 are out of bounds for storage of size 24$"):
        x.as_strided((20,), (1,))
    with pytest.raises(RuntimeError, match=r"storage offset 5, and itemsize 4 requiring a storage size of 36"):
        torch.as_strided(x, (2, 2), (2, 1), 5)
