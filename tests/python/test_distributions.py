"""torch.distributions against PyTorch's results
(tools/record_distributions_goldens.py -> fixtures/distributions.json)."""

import json
import math
import os

import pytest

import ferrograd
import distributions_scenarios

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "fixtures", "distributions.json")) as fh:
    GOLDENS = json.load(fh)
GOT = distributions_scenarios.run(ferrograd)


def close(got, want, path):
    if isinstance(want, dict):
        assert isinstance(got, dict) and sorted(got) == sorted(want), f"{path}: {got!r} != {want!r}"
        for k in want:
            close(got[k], want[k], path + (k,))
    elif isinstance(want, list):
        assert isinstance(got, list) and len(got) == len(want), f"{path}: {got!r} != {want!r}"
        for i, (g, w) in enumerate(zip(got, want)):
            close(g, w, path + (i,))
    elif isinstance(want, float) and not isinstance(want, bool):
        assert isinstance(got, (int, float)) and math.isclose(got, want, rel_tol=1e-5, abs_tol=1e-6), f"{path}: {got} != {want}"
    elif isinstance(want, str):
        assert got.replace("ferrograd", "torch") == want, f"{path}: {got!r} != {want!r}"
    else:
        assert got == want, f"{path}: {got!r} != {want!r}"


@pytest.mark.parametrize("name", sorted(GOLDENS))
def test_matches_pytorch(name):
    close(GOT[name], GOLDENS[name], (name,))


def test_every_result_has_a_golden():
    assert sorted(GOT) == sorted(GOLDENS)
