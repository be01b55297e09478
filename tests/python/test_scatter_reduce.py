"""scatter_reduce and the deprecated scatter(reduce=) against PyTorch's results
(tools/record_scatter_goldens.py -> fixtures/scatter.json)."""

import json
import os

import pytest

import ferrograd
import scatter_scenarios
from _golden import assert_matches_golden

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "fixtures", "scatter.json")) as fh:
    GOLDENS = json.load(fh)
GOT = scatter_scenarios.run(ferrograd)


def _names(path, s):
    return s.replace("ferrograd", "torch")


@pytest.mark.parametrize("name", sorted(GOLDENS))
def test_matches_pytorch(name):
    assert_matches_golden(GOLDENS[name], GOT[name], rtol=1e-5, atol=1e-6, normalize_str=_names, label=name)


def test_every_result_has_a_golden():
    assert sorted(GOT) == sorted(GOLDENS)
