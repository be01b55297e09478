"""torch.nn.utils parametrize / parametrizations (weight_norm, spectral_norm, orthogonal),
the hook-based weight_norm and spectral_norm, prune, fusion, skip_init,
stateless.functional_call and the conv weight memory-format conversion against PyTorch's
results (tools/record_nn_utils_goldens.py -> fixtures/nn_utils.json). Values agree to float32
rounding (orthogonal's matrix_exp / householder_product are compositions here, fused kernels
in PyTorch)."""

import json
import os
import warnings

import pytest

import ferrograd
import nn_utils_scenarios
from _golden import assert_matches_golden

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "fixtures", "nn_utils.json")) as fh:
    GOLDENS = json.load(fh)
with warnings.catch_warnings():
    warnings.simplefilter("ignore", FutureWarning)  # the deprecated APIs warn (recorded per scenario)
    GOT = nn_utils_scenarios.run(ferrograd)


def _names(path, s):
    return s.replace("ferrograd", "torch")


@pytest.mark.parametrize("name", sorted(GOLDENS))
def test_matches_pytorch(name):
    assert_matches_golden(GOLDENS[name], GOT[name], rtol=1e-5, atol=1e-5, normalize_str=_names, label=name)


def test_every_result_has_a_golden():
    assert sorted(GOT) == sorted(GOLDENS)
