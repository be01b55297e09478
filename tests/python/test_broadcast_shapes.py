"""torch.broadcast_shapes: sizes and ints broadcast as tensors would, with PyTorch's errors
(checked against PyTorch 2.13)."""

import pytest

import ferrograd as torch


def test_broadcast_shapes():
    assert torch.broadcast_shapes((2, 1), (3,), 1, ()) == torch.Size([2, 3])
    assert isinstance(torch.broadcast_shapes((2, 1)), torch.Size)
    assert torch.broadcast_shapes() == torch.Size([])
    assert torch.broadcast_shapes(0, (2, 1)) == torch.Size([2, 0])
    assert torch.broadcast_shapes(torch.ones(4, 1).shape, [5]) == (4, 5)
    with pytest.raises(ValueError, match="^Attempting to broadcast a dimension with negative length!$"):
        torch.broadcast_shapes((2, -1))
    with pytest.raises(RuntimeError, match=r"^Attempting to broadcast a dimension of length 4 at -1! Mismatching argument at index 1 had \(4,\); but expected shape should be broadcastable to \[2, 3\]$"):
        torch.broadcast_shapes((2, 3), (4,))
