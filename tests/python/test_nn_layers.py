"""nn layers and losses against PyTorch goldens (fixtures/nn_layers.json, recorded by
tools/record_nn_layer_goldens.py from tests/python/nn_layer_scenarios.py): forward values,
grad_fn names, input and parameter gradients, running statistics, every loss under every
reduction, reprs and error types/messages."""

import json
import math
import os

import pytest

import ferrograd as torch
from _golden import assert_matches_golden, first_difference
import nn_layer_scenarios as scenarios

FIXTURE = os.path.join(os.path.dirname(__file__), "fixtures", "nn_layers.json")

with open(FIXTURE) as f:
    GOLDEN = json.load(f)["scenarios"]

# floats within rel 1e-4 / abs 1e-5
RTOL = 1e-4
ATOL = 1e-5


def _first_difference(expected, got):
    return first_difference(expected, got, rtol=RTOL, atol=ATOL)


def test_every_scenario_has_a_golden():
    assert sorted(GOLDEN) == sorted(scenarios.SCENARIOS)


@pytest.mark.parametrize("name", sorted(scenarios.SCENARIOS))
def test_scenario_matches_torch(name):
    got = scenarios.SCENARIOS[name](torch)
    got = json.loads(json.dumps(got, allow_nan=True))
    assert_matches_golden(GOLDEN[name], got, rtol=RTOL, atol=ATOL, label=name)


def test_comparison_catches_differences():
    assert _first_difference({"a": [1.0, "x"]}, {"a": [1.0, "x"]}) is None
    assert _first_difference({"a": [1.0]}, {"a": [1.01]})[0] == "$.a[0]"
    assert _first_difference([True], [1]) is not None
    assert _first_difference({"a": 1}, {"b": 1}) is not None


def _numeric_grad(f, x, eps=1e-6):
    flat = x.detach().reshape(-1).tolist()
    out = []
    for i in range(len(flat)):
        hi, lo = list(flat), list(flat)
        hi[i] += eps
        lo[i] -= eps
        fh = float(f(torch.tensor(hi, dtype=torch.float64).reshape(x.shape)))
        fl = float(f(torch.tensor(lo, dtype=torch.float64).reshape(x.shape)))
        out.append((fh - fl) / (2 * eps))
    return out


@pytest.mark.parametrize("case", ["conv", "convt", "maxpool", "avgpool", "bn", "ln", "gn", "gelu", "nll", "bcel"])
def test_double_backward_matches_finite_differences(case):
    """The backward formulas are differentiable: the gradient of (sum of squared first
    gradients) matches central differences in float64."""
    F = torch.nn.functional
    w = torch.tensor([[[[0.3, -0.2], [0.5, 0.1]]], [[[-0.4, 0.2], [0.1, 0.6]]]], dtype=torch.float64)
    fns = {
        "conv": lambda x: F.conv2d(x, w, padding=1, stride=(1, 2)).sin().sum(),
        "convt": lambda x: F.conv_transpose2d(x, w, stride=2, padding=1, output_padding=1).sin().sum(),
        "maxpool": lambda x: (F.max_pool2d(x, 2, stride=1) ** 2).sum(),
        "avgpool": lambda x: (F.avg_pool2d(x, 2, stride=1, padding=1, count_include_pad=False) ** 2).sum(),
        "bn": lambda x: (F.batch_norm(x, None, None, training=True) * torch.arange(1.0, 10.0, dtype=torch.float64).reshape(1, 1, 3, 3)).sin().sum(),
        "ln": lambda x: (F.layer_norm(x, (3,)) * torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64)).sin().sum(),
        "gn": lambda x: (F.group_norm(x, 1) * torch.arange(1.0, 10.0, dtype=torch.float64).reshape(1, 1, 3, 3)).sin().sum(),
        "gelu": lambda x: F.gelu(x).sum(),
        "nll": lambda x: F.cross_entropy(x.reshape(3, 3), torch.tensor([0, 2, 1]), label_smoothing=0.1),
        "bcel": lambda x: F.binary_cross_entropy_with_logits(x, torch.full((1, 1, 3, 3), 0.3, dtype=torch.float64),
                                                             pos_weight=torch.tensor([2.0], dtype=torch.float64)),
    }
    f = fns[case]
    shape = (1, 2, 3, 3) if case == "convt" else (1, 1, 3, 3)
    n = 1
    for s in shape:
        n *= s
    x0 = torch.tensor([math.sin(1.7 * i + 0.2) + 0.05 * i for i in range(n)], dtype=torch.float64).reshape(shape)

    def g2(x):
        if not x.requires_grad:
            x = x.detach().requires_grad_()
        (g,) = torch.autograd.grad(f(x), x, create_graph=True)
        return (g * g).sum()

    x = x0.clone().requires_grad_()
    (gg,) = torch.autograd.grad(g2(x), x)
    num = _numeric_grad(g2, x0)
    for a, b in zip(gg.reshape(-1).tolist(), num):
        assert math.isclose(a, b, rel_tol=1e-4, abs_tol=1e-6), (case, gg.reshape(-1).tolist(), num)
