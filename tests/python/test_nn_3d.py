"""3-d convolution / pooling, fractional max pooling, CTC loss, the lazy conv / norm layers,
SyncBatchNorm, DataParallel, the in-place activation functionals, the deprecated upsample
functionals, pdist and ``torch.nn.attention`` against PyTorch's results
(tools/record_nn_3d_goldens.py -> fixtures/nn_3d.json). The random pieces draw PyTorch's CPU
random stream, so they are compared exactly too."""

import json
import os

import pytest

import ferrograd
import nn_3d_scenarios
from _golden import assert_matches_golden

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "fixtures", "nn_3d.json")) as fh:
    GOLDENS = json.load(fh)
GOT = nn_3d_scenarios.run(ferrograd)


def _names(path, s):
    return s.replace("ferrograd", "torch")


@pytest.mark.parametrize("name", sorted(GOLDENS))
def test_matches_pytorch(name):
    assert_matches_golden(GOLDENS[name], GOT[name], rtol=1e-5, atol=1e-5, normalize_str=_names, label=name)


def test_every_result_has_a_golden():
    assert sorted(GOT) == sorted(GOLDENS)
