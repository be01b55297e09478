"""torch.distributions families beyond distributions_more (Weibull, Pareto, HalfCauchy,
InverseGamma, Kumaraswamy, FisherSnedecor, GeneralizedPareto, ContinuousBernoulli, VonMises,
NegativeBinomial, LogisticNormal, LKJCholesky, Wishart), biject_to/transform_to and their KL
divergences against PyTorch's results (tools/record_distributions_extra_goldens.py ->
fixtures/distributions_extra.json)."""

import json
import os

import pytest

import ferrograd
import distributions_extra_scenarios
from _golden import assert_matches_golden

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "fixtures", "distributions_extra.json")) as fh:
    GOLDENS = json.load(fh)
GOT = distributions_extra_scenarios.run(ferrograd)


def _names(path, s):
    return s.replace("ferrograd", "torch")


@pytest.mark.parametrize("name", sorted(GOLDENS))
def test_matches_pytorch(name):
    assert_matches_golden(GOLDENS[name], GOT[name], rtol=1e-5, atol=1e-5, normalize_str=_names, label=name)


def test_every_result_has_a_golden():
    assert sorted(GOT) == sorted(GOLDENS)


def test_no_scenario_failed_in_pytorch():
    """Every scenario ran to completion in PyTorch (an error inside a scenario is recorded
    as its result, so a whole scenario that errored would compare nothing useful)."""
    whole = [k for k, v in GOLDENS.items() if isinstance(v, dict) and set(v) == {"error"}
             and not k.startswith("err_") and not k.startswith("lkj_scalar")]
    assert whole == []
