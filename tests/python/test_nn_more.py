"""EmbeddingBag, Bilinear, Fold/Unfold, LazyLinear, LocalResponseNorm/CrossMapLRN2d,
ChannelShuffle, alpha dropout, RReLU, the multi-class margin losses, gumbel_softmax, LPPool,
MaxUnpool, affine_grid and grid_sample against PyTorch's results
(tools/record_nn_more_goldens.py -> fixtures/nn_more.json). The random layers draw PyTorch's
CPU random stream, so they are compared exactly too."""

import json
import os

import pytest

import ferrograd
import nn_more_scenarios
from _golden import assert_matches_golden

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "fixtures", "nn_more.json")) as fh:
    GOLDENS = json.load(fh)
GOT = nn_more_scenarios.run(ferrograd)


def _names(path, s):
    return s.replace("ferrograd", "torch")


@pytest.mark.parametrize("name", sorted(GOLDENS))
def test_matches_pytorch(name):
    assert_matches_golden(GOLDENS[name], GOT[name], rtol=1e-5, atol=1e-5, normalize_str=_names, label=name)


def test_every_result_has_a_golden():
    assert sorted(GOT) == sorted(GOLDENS)
