"""An activation's or pointwise loss's backward under create_graph is a node of its own, as in
PyTorch (``LeakyReluBackwardBackward0``, ``MseLossBackwardBackward0``...): the gradient requires
grad even where it is constant in the input, second derivatives match PyTorch's, and
hardsigmoid's has PyTorch's NotImplemented node.  Goldens: fixtures/double_backward_nodes.json,
recorded from PyTorch 2.13."""

import json
import pathlib

import pytest

import ferrograd as torch
import ferrograd.nn.functional as F  # noqa: F401  (used by the recorded expressions)

GOLD = json.loads((pathlib.Path(__file__).parent / "fixtures" / "double_backward_nodes.json").read_text())


@pytest.mark.parametrize("name", sorted(GOLD["cases"]))
def test_double_backward_matches_pytorch(name):
    case = GOLD["cases"][name]
    x = torch.tensor(GOLD["x"], requires_grad=True)
    t = torch.tensor(GOLD["t"])  # noqa: F841  (used by the recorded expressions)
    y = eval(case["src"])
    g, = torch.autograd.grad((y * torch.arange(1.0, 1.0 + y.numel()).reshape(y.shape)).sum(), x, create_graph=True)
    assert g.grad_fn.name() == case["grad_fn"]
    assert torch.allclose(g.detach(), torch.tensor(case["grad"]), rtol=1e-5, atol=1e-6)
    weights = torch.tensor([1.0, -2.0, 0.5, 1.5, 1.0])
    if "error" in case:
        with pytest.raises(RuntimeError, match=case["error"]):
            torch.autograd.grad((g * weights).sum(), x, create_graph=True)
        return
    g2, = torch.autograd.grad((g * weights).sum(), x, create_graph=True, allow_unused=True, materialize_grads=True)
    assert torch.allclose(g2.detach(), torch.tensor(case["grad2"]), rtol=1e-3, atol=1e-5), (g2, case["grad2"])


def test_third_order_through_the_backward_node():
    # d³/dx³ gelu by nesting: the backward node's own backward is differentiable
    x = torch.tensor([0.3, -0.7], dtype=torch.float64, requires_grad=True)
    g1, = torch.autograd.grad(F.gelu(x).sum(), x, create_graph=True)
    g2, = torch.autograd.grad(g1.sum(), x, create_graph=True)
    assert g1.grad_fn.name() == "GeluBackwardBackward0"
    g3, = torch.autograd.grad(g2.sum(), x)
    # f''' of gelu = φ(x) (x³ - 4x)
    import math
    phi = [math.exp(-v * v / 2) / math.sqrt(2 * math.pi) for v in (0.3, -0.7)]
    expected = [p * (v ** 3 - 4 * v) for p, v in zip(phi, (0.3, -0.7))]
    assert g3.tolist() == pytest.approx(expected, rel=1e-9)
