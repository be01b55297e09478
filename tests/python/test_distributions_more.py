"""torch.distributions (Independent, MultivariateNormal, transforms, the continuous and
discrete families, Gamma/Beta/Dirichlet, MixtureSameFamily, kl_divergence) against PyTorch's
results (tools/record_distributions_more_goldens.py -> fixtures/distributions_more.json)."""

import json
import os

import pytest

import ferrograd
import distributions_more_scenarios
from _golden import assert_matches_golden

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "fixtures", "distributions_more.json")) as fh:
    GOLDENS = json.load(fh)
GOT = distributions_more_scenarios.run(ferrograd)


def _names(path, s):
    return s.replace("ferrograd", "torch")


@pytest.mark.parametrize("name", sorted(GOLDENS))
def test_matches_pytorch(name):
    assert_matches_golden(GOLDENS[name], GOT[name], rtol=1e-5, atol=1e-5, normalize_str=_names, label=name)


def test_every_result_has_a_golden():
    assert sorted(GOT) == sorted(GOLDENS)
