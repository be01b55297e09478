"""The surface a second program survey reached for, against PyTorch's recorded results
(tools/record_programs2_goldens.py -> fixtures/programs2.json): the multi-tensor ``_foreach_*``
ops, ``torch.compile``'s ``OptimizedModule``, ``torch.utils._pytree``, windows and
``stft`` / ``istft``, small functions, and PyTorch's errors and warnings."""

import json
import os

import pytest

import ferrograd
import programs2_scenarios
from _golden import assert_matches_golden

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "fixtures", "programs2.json")) as fh:
    GOLDENS = json.load(fh)
GOT = programs2_scenarios.run(ferrograd)


def _names(path, s):
    return s.replace("ferrograd", "torch")


@pytest.mark.parametrize("name", sorted(GOLDENS))
def test_matches_pytorch(name):
    # windows and transforms go through cos / i0 / FFT kernels other than ATen's: a few ulp
    tol = 2e-6 if name.startswith(("window_", "stft")) else 1e-6
    assert_matches_golden(GOLDENS[name], GOT[name], rtol=tol, atol=tol, normalize_str=_names, label=name)


def test_every_result_has_a_golden():
    assert sorted(GOT) == sorted(GOLDENS)
