"""nn.utils.rnn, PackedSequence through the recurrent layers, and the padding, pixel-shuffle,
upsampling, instance-norm and RMSNorm layers against PyTorch's results
(tools/record_nn_extra_goldens.py -> fixtures/nn_extra.json). float32 gradients through
batch-norm style reductions agree to ~2e-6 absolute."""

import json
import os

import pytest

import ferrograd
import nn_extra_scenarios
from _golden import assert_matches_golden

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "fixtures", "nn_extra.json")) as fh:
    GOLDENS = json.load(fh)
GOT = nn_extra_scenarios.run(ferrograd)


def _names(path, s):
    return s.replace("ferrograd", "torch")


@pytest.mark.parametrize("name", sorted(GOLDENS))
def test_matches_pytorch(name):
    assert_matches_golden(GOLDENS[name], GOT[name], rtol=1e-5, atol=1e-5, normalize_str=_names, label=name)


def test_every_result_has_a_golden():
    assert sorted(GOT) == sorted(GOLDENS)
