"""tril/triu, roll, scatter/index_add, asinh/acosh/atanh/lgamma/digamma, einsum, movedim,
the *stack family, meshgrid, tensor_split, repeat_interleave, masked_select, nan_to_num,
unique, finfo/iinfo against PyTorch's results (tools/record_extra_ops_goldens.py ->
fixtures/extra_ops.json), on every device."""

import functools
import json
import os

import pytest

import ferrograd
import extra_ops_scenarios
from _golden import assert_matches_golden

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "fixtures", "extra_ops.json")) as fh:
    GOLDENS = json.load(fh)


@functools.lru_cache(maxsize=None)
def got(device):
    return extra_ops_scenarios.run(ferrograd, device)


@pytest.mark.parametrize("name", sorted(GOLDENS))
def test_matches_pytorch(name, device):
    assert_matches_golden(GOLDENS[name], got(device)[name], rtol=1e-5, atol=1e-6, label=name,
                          normalize_str=lambda _, s: s.replace("ferrograd", "torch"))


def test_every_result_has_a_golden():
    assert sorted(got("cpu")) == sorted(GOLDENS)
