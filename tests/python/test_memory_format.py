"""torch.memory_format: channels-last layouts from contiguous / clone / to / *_like, the
is_contiguous check per format, and PyTorch's errors (values checked against PyTorch 2.13)."""

import pickle

import pytest

import ferrograd as torch


def test_channels_last_layouts_and_gradients():
    x = torch.arange(120.0).reshape(2, 3, 4, 5).requires_grad_()
    y = x.contiguous(memory_format=torch.channels_last)
    assert y.stride() == (60, 1, 15, 3)
    assert type(y.grad_fn).__name__ == "CloneBackward0"
    assert not y.is_contiguous() and y.is_contiguous(memory_format=torch.channels_last)
    assert bool((y == x).all())
    assert y.contiguous(memory_format=torch.channels_last) is y
    assert x.clone(memory_format=torch.channels_last).stride() == (60, 1, 15, 3)
    assert x.to(memory_format=torch.channels_last).stride() == (60, 1, 15, 3)
    (y * torch.arange(120.0).reshape(2, 3, 4, 5)).sum().backward()
    assert x.grad.stride() == (60, 20, 5, 1) and float(x.grad.sum()) == 7140.0
    # *_like keeps a channels-last input's layout unless told otherwise
    assert torch.empty_like(y).stride() == (60, 1, 15, 3)
    assert torch.zeros_like(y, memory_format=torch.contiguous_format).stride() == (60, 20, 5, 1)
    assert y.contiguous().stride() == (60, 20, 5, 1)
    assert (y + 1).stride() == (60, 1, 15, 3)
    v = torch.zeros(2, 3, 2, 2, 2).contiguous(memory_format=torch.channels_last_3d)
    assert v.stride() == (24, 1, 12, 6, 3)


def test_memory_format_objects_and_errors():
    assert repr(torch.channels_last) == "torch.channels_last"
    assert repr(torch.contiguous_format) == "torch.contiguous_format"
    assert pickle.loads(pickle.dumps(torch.channels_last)) is torch.channels_last
    assert not torch.ones(2, 3).is_contiguous(memory_format=torch.channels_last)
    assert torch.ones(2, 3).clone(memory_format=torch.preserve_format).is_contiguous()
    t = torch.ones(3, 2).t()
    assert t.clone().stride() == (1, 2)  # preserve_format keeps the dim order
    assert t.clone(memory_format=torch.contiguous_format).stride() == (3, 1)
    with pytest.raises(RuntimeError, match="^required rank 4 tensor to use channels_last format$"):
        torch.ones(2, 3).contiguous(memory_format=torch.channels_last)
    with pytest.raises(RuntimeError, match="^required rank 5 tensor to use channels_last_3d format$"):
        torch.ones(2, 3).clone(memory_format=torch.channels_last_3d)
    with pytest.raises(TypeError, match="argument 'memory_format' must be torch.memory_format, not int"):
        torch.ones(2).contiguous(memory_format=3)
