"""What tutorial-style programs ran into, against PyTorch's results
(tools/record_programs_goldens.py -> fixtures/programs.json): collation, version
comparisons, warning locations, packed RNN dropout, half-precision scalar arithmetic, and
PyTorch's errors for loss dtypes, overlapping in-place writes and layer mismatches."""

import json
import os

import numpy as np
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


@pytest.mark.parametrize("name", sorted(n for n in GOLDENS if not n.startswith(("halfops_", "f32ulp_"))))
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


@pytest.mark.parametrize("name", sorted(n for n in GOLDENS if n.startswith("f32ulp_")))
def test_float32_kernels_match_bitwise(name):
    # float32 kernels that reproduce ATen's formula (GELU's A&S erf, Sleef's exp, the order of
    # operations and GCC's fused multiply-adds) give PyTorch's bits. The tanh approximation
    # of GELU calls tanh, where Sleef's double-float kernel and ours differ by an ulp on ~5%
    # of inputs (more after the backward's products): those may differ by about an ulp of 1
    expected = np.array(GOLDENS[name], dtype=np.float32)
    got = np.array(GOT[name], dtype=np.float32)
    assert expected.shape == got.shape
    off = expected != got
    if "tanh" not in name:
        assert not off.any(), f"{name}: {off.sum()} of {off.size} differ, e.g. {expected[off][:3]} vs {got[off][:3]}"
    # (an ulp of tanh near -1 is many ulp of `1 + tanh` after the cancellation: compared
    # absolutely there)
    assert off.mean() <= 0.2, f"{name}: {off.sum()} of {off.size} differ"
    assert np.allclose(got, expected, rtol=1e-6, atol=1e-6), name


def test_every_result_has_a_golden():
    assert sorted(GOT) == sorted(GOLDENS)
