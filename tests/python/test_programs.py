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


@pytest.mark.parametrize("name", sorted(n for n in GOLDENS if not n.startswith("halfops_")))
def test_matches_pytorch(name):
    # half-precision results are compared exactly (one rounding from float32, as PyTorch)
    assert_matches_golden(GOLDENS[name], GOT[name], rtol=1e-6, atol=1e-6, normalize_str=_names, label=name)


@pytest.mark.parametrize("name", sorted(n for n in GOLDENS if n.startswith("halfops_")))
def test_half_layers_round_once(name):
    # float16/bfloat16 layers: computed in float32 and rounded once, an element equals
    # PyTorch's unless the float32 value sits within an ulp of a rounding boundary (a
    # different exp/log approximation or summation order): at most 1% of the elements may
    # then land one half-precision step away; a formula rounded at each step misses a third
    expected, got = GOLDENS[name], GOT[name]
    assert len(expected) == len(got)
    step = 2.0 ** -7 if "bfloat16" in name else 2.0 ** -10
    off = [(e, g) for e, g in zip(expected, got) if e != g]
    assert len(off) <= max(1, len(expected) // 100), f"{name}: {len(off)} of {len(expected)} differ, e.g. {off[:3]}"
    for e, g in off:
        assert abs(g - e) <= 2 * step * max(abs(e), 1e-3), f"{name}: torch gave {e}, ferrograd gave {g}"


def test_every_result_has_a_golden():
    assert sorted(GOT) == sorted(GOLDENS)
