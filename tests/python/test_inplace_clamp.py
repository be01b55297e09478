"""In-place clamp_min_ / clamp_max_ / clip_ (values and nodes checked against PyTorch 2.13)."""

import ferrograd as torch


def test_inplace_clamps():
    x = torch.tensor([-1.0, 2.0, 5.0], requires_grad=True)
    y = x * 1
    assert y.clamp_min_(0) is y
    assert y.tolist() == [0.0, 2.0, 5.0] and type(y.grad_fn).__name__ == "ClampMinBackward0"
    y.sum().backward()
    assert x.grad.tolist() == [0.0, 1.0, 1.0]
    z = (x * 1).clamp_max_(torch.tensor(3.0))
    assert z.tolist() == [-1.0, 2.0, 3.0]
    w = (x * 1).clip_(0, 3)
    assert w.tolist() == [0.0, 2.0, 3.0] and type(w.grad_fn).__name__ == "ClampBackward1"
    v = torch.tensor([1.0, 4.0]).clamp_max_(2)
    assert v.tolist() == [1.0, 2.0]
