"""lerp, addcmul, addcdiv, cumprod, addmm, addmv and baddbmm against PyTorch's goldens: values,
dtypes, gradients, double backward, forward-mode tangents, grad_fn names and error messages
(recorded by tools/record_pointwise_extra_goldens.py from pointwise_extra_scenarios.py)."""

import json
import os

import pytest

import ferrograd as torch
from _golden import assert_matches_golden
from pointwise_extra_scenarios import SCENARIOS

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "fixtures", "pointwise_extra.json")) as fh:
    GOLDENS = json.load(fh)


def _normalize(path, s):
    # torch's dtype reprs are torch.float32: ferrograd's are ferrograd.float32
    return s.replace("ferrograd.", "torch.")


@pytest.mark.parametrize("name,fn", SCENARIOS, ids=[n for n, _ in SCENARIOS])
def test_matches_pytorch(name, fn):
    got = json.loads(json.dumps(fn(torch)))
    assert_matches_golden(GOLDENS["scenarios"][name], got, rtol=1e-5, atol=1e-6, normalize_str=_normalize, label=name)


def test_every_scenario_has_a_golden():
    assert sorted(GOLDENS["scenarios"]) == sorted(n for n, _ in SCENARIOS)


def test_cumprod_backward_with_zeros_matches_finite_differences():
    # the O(n) path (no graph) and the O(n^2) path (create_graph) agree with each other
    # and with central differences
    data = [[2.0, 0.0, 3.0, 0.0, 5.0], [0.0, 1.5, -2.0, 0.5, 3.0], [1.0, 2.0, 0.0, 4.0, 0.5]]
    w = torch.tensor([[1.0, -0.5, 2.0, 0.25, 1.5]] * 3, dtype=torch.float64)
    x = torch.tensor(data, dtype=torch.float64, requires_grad=True)
    g1 = torch.autograd.grad((x.cumprod(1) * w).sum(), x)[0]
    g2 = torch.autograd.grad((x.cumprod(1) * w).sum(), x, create_graph=True)[0]
    assert torch.allclose(g1, g2.detach())
    eps = 1e-6
    for i in range(3):
        for j in range(5):
            p = [r[:] for r in data]
            m = [r[:] for r in data]
            p[i][j] += eps
            m[i][j] -= eps
            fp = (torch.tensor(p, dtype=torch.float64).cumprod(1) * w).sum().item()
            fm = (torch.tensor(m, dtype=torch.float64).cumprod(1) * w).sum().item()
            assert abs((fp - fm) / (2 * eps) - g1[i, j].item()) < 1e-5
