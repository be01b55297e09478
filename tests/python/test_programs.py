"""What tutorial-style programs ran into, against PyTorch's results
(tools/record_programs_goldens.py -> fixtures/programs.json): collation, version
comparisons, warning locations, packed RNN dropout, half-precision scalar arithmetic, and
PyTorch's errors for loss dtypes, overlapping in-place writes and layer mismatches."""

import json
import os

import pytest

import ferrograd
import programs_scenarios
from _golden import assert_matches_golden

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "fixtures", "programs.json")) as fh:
    GOLDENS = json.load(fh)
GOT = programs_scenarios.run(ferrograd)


def _names(path, s):
    return s.replace("ferrograd", "torch")


@pytest.mark.parametrize("name", sorted(GOLDENS))
def test_matches_pytorch(name):
    # half-precision results are compared exactly (one rounding from float32, as PyTorch)
    assert_matches_golden(GOLDENS[name], GOT[name], rtol=1e-6, atol=1e-6, normalize_str=_names, label=name)


def test_every_result_has_a_golden():
    assert sorted(GOT) == sorted(GOLDENS)
