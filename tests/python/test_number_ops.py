"""A tensor with a Python number (`y * 1.0001`, `x + 1`): the core's number path
(`ops::number_op`) must give the values, dtypes, nodes and saved slots of the general path
with a wrapped number. Expectations as PyTorch 2.13 gives them."""
import math

import pytest

import ferrograd as torch


def test_values_and_dtypes():
    x = torch.tensor([1.5, -2.0, 0.0])
    assert (x + 1).tolist() == [2.5, -1.0, 1.0]
    assert (x - 0.5).tolist() == [1.0, -2.5, -0.5]
    assert (x * 2).tolist() == [3.0, -4.0, 0.0]
    assert (2 * x).tolist() == [3.0, -4.0, 0.0]
    assert (0.5 + x).tolist() == [2.0, -1.5, 0.5]
    q = x / 0
    assert q[0].item() == math.inf and q[1].item() == -math.inf and math.isnan(q[2].item())
    for r in (x + 1, x * 2.5, x / 3, x - 7):
        assert r.dtype == torch.float32
    d = torch.tensor([1.0], dtype=torch.float64)
    assert (d + 2**60).dtype == torch.float64 and (d + 2**60).item() == 2.0**60 + 1
    # beyond 2^53 the number takes the general path (and rounds the same way)
    assert (d * (2**62 + 1)).item() == float(2**62)
    # float32 arithmetic on the float32 tensor: the number is rounded into the op's type
    assert (torch.tensor([1.0]) + 1e-8).item() == 1.0
    # bool, int and half tensors take the general path
    assert (torch.tensor([True]) + 1).dtype == torch.int64
    assert (torch.tensor([1, 2]) * 2.5).tolist() == [2.5, 5.0]
    assert (torch.tensor([1.0], dtype=torch.float16) * 1.1).dtype == torch.float16
    assert (x + True).tolist() == [2.5, -1.0, 1.0]
    # a 0-dim tensor keeps its dtype too
    assert (torch.tensor(2.0) * 3).dtype == torch.float32
    # non-contiguous
    m = torch.arange(6.0).reshape(2, 3).t()
    assert (m + 1).tolist() == [[1.0, 4.0], [2.0, 5.0], [3.0, 6.0]]


def test_nodes_and_saved_slots():
    x = torch.ones(3, requires_grad=True)
    y = x * 2.0
    assert type(y.grad_fn).__name__ == "MulBackward0"
    assert y.grad_fn._saved_other.item() == 2.0 and y.grad_fn._saved_other.dtype == torch.float64
    assert y.grad_fn._saved_self is None
    assert y.grad_fn.next_functions[1] == (None, 0)
    z = y + 1
    assert type(z.grad_fn).__name__ == "AddBackward0"
    assert z.grad_fn.next_functions[0][0] is y.grad_fn and z.grad_fn.next_functions[1] == (None, 0)
    assert z.grad_fn._saved_alpha == 1
    s = z - 3
    assert type(s.grad_fn).__name__ == "SubBackward0" and s.grad_fn._saved_alpha == 1
    v = s / 4
    assert type(v.grad_fn).__name__ == "DivBackward0"
    assert v.grad_fn._saved_other.item() == 4 and v.grad_fn._saved_other.dtype == torch.int64
    r = 3 * v
    assert type(r.grad_fn).__name__ == "MulBackward0"
    r.sum().backward()
    assert x.grad.tolist() == [1.5, 1.5, 1.5]


def test_leaf_and_no_grad():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    with torch.no_grad():
        y = x + 1
    assert y.grad_fn is None and not y.requires_grad
    y = x + 1
    assert y.grad_fn.next_functions[0][0].variable is x
    # autograd.grad through the number path, and a gradient that is not asked for
    (g,) = torch.autograd.grad((x * 3 - 1).sum(), x)
    assert g.tolist() == [3.0, 3.0]
    w = torch.tensor([1.0], requires_grad=True)
    (gw,) = torch.autograd.grad((x.detach() * 2 + w).sum(), w)
    assert gw.tolist() == [2.0]


def test_forward_mode_and_hooks():
    import ferrograd.autograd.forward_ad as fwAD
    p = torch.tensor([1.0, 2.0])
    with fwAD.dual_level():
        d = fwAD.make_dual(p, torch.tensor([1.0, 1.0]))
        out = d * 3 + 1
        assert fwAD.unpack_dual(out).tangent.tolist() == [3.0, 3.0]
    x = torch.tensor([1.0], requires_grad=True)
    y = x + 2
    seen = []
    y.register_hook(lambda g: seen.append(g.item()))
    (y * 5).backward()
    assert seen == [5.0]
    assert x.grad.item() == 5.0


def test_in_place_on_the_result_is_still_checked():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    z = y * 3  # saves the number, not y
    y.add_(1)
    z.sum().backward()
    assert x.grad.tolist() == [6.0, 6.0]
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    b = a / 2
    c = b.sin()  # saves b
    b.mul_(2)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        c.sum().backward()


def test_method_forms():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    for r, name in ((x.add(1), "AddBackward0"), (x.sub(1), "SubBackward0"), (x.mul(2), "MulBackward0"),
                    (x.div(2), "DivBackward0"), (x.multiply(2.0), "MulBackward0"), (x.true_divide(4), "DivBackward0"),
                    (torch.mul(x, 2.0), "MulBackward0"), (torch.add(x, 1), "AddBackward0")):
        assert type(r.grad_fn).__name__ == name
    assert x.div(2, rounding_mode=None).grad_fn.name() == "DivBackward2"
    assert x.add(1, alpha=2).tolist() == [3.0, 4.0] and x.sub(1, alpha=2).tolist() == [-1.0, 0.0]
    assert x.add(1).tolist() == [2.0, 3.0] and x.sub(0.5).tolist() == [0.5, 1.5]
    assert x.mul(3).tolist() == [3.0, 6.0] and x.div(4).tolist() == [0.25, 0.5]
    o = torch.empty(2)
    torch.mul(x.detach(), 2.0, out=o)
    assert o.tolist() == [2.0, 4.0]
    with pytest.raises(RuntimeError, match="rounding_mode"):
        x.div(2, rounding_mode="round")
