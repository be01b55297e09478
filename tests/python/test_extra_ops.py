"""tril/triu, roll, scatter/index_add, asinh/acosh/atanh/lgamma/digamma, einsum, movedim,
the *stack family, meshgrid, tensor_split, repeat_interleave, masked_select, nan_to_num,
unique, finfo/iinfo against PyTorch's results (tools/record_extra_ops_goldens.py ->
fixtures/extra_ops.json), on every device."""

import functools
import json
import math
import os

import pytest

import ferrograd
import extra_ops_scenarios

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "fixtures", "extra_ops.json")) as fh:
    GOLDENS = json.load(fh)


@functools.lru_cache(maxsize=None)
def got(device):
    return extra_ops_scenarios.run(ferrograd, device)


def close(got_, want, path):
    if isinstance(want, dict):
        assert isinstance(got_, dict) and sorted(got_) == sorted(want), f"{path}: {got_!r} != {want!r}"
        for k in want:
            close(got_[k], want[k], path + (k,))
    elif isinstance(want, list):
        assert isinstance(got_, list) and len(got_) == len(want), f"{path}: {got_!r} != {want!r}"
        for i, (g, w) in enumerate(zip(got_, want)):
            close(g, w, path + (i,))
    elif isinstance(want, float):
        assert isinstance(got_, (int, float)) and math.isclose(got_, want, rel_tol=1e-5, abs_tol=1e-6), f"{path}: {got_} != {want}"
    elif isinstance(want, str):
        assert got_.replace("ferrograd", "torch") == want, f"{path}: {got_!r} != {want!r}"
    else:
        assert got_ == want, f"{path}: {got_!r} != {want!r}"


@pytest.mark.parametrize("name", sorted(GOLDENS))
def test_matches_pytorch(name, device):
    close(got(device)[name], GOLDENS[name], (name,))


def test_every_result_has_a_golden():
    assert sorted(got("cpu")) == sorted(GOLDENS)
