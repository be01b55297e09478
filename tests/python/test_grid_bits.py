"""`grid_sample` in two dims against PyTorch 2.13's results bit for bit (recorded by
tools/record_grid_goldens.py): ATen's vectorised CPU kernels, with the multiply-adds its build
fuses and its 256-bit grouping of the input gradient's scatter, for every mode, padding and
alignment in float32 and float64."""

import json
import pathlib

import numpy as np
import pytest

import ferrograd as torch
import grid_scenarios as sc

GOLD = json.loads((pathlib.Path(__file__).parent / "fixtures" / "grid_sampler.json").read_text())
MINE = sc.run(torch)


def test_every_case_has_a_golden():
    assert sorted(MINE) == sorted(GOLD)


@pytest.mark.parametrize("key", sorted(GOLD))
def test_same_bits_as_pytorch(key):
    dtype = np.float64 if key.startswith("float64") else np.float32
    want = np.asarray(GOLD[key], dtype=np.int64 if dtype == np.float64 else np.int32)
    got = np.asarray(MINE[key], dtype=want.dtype)
    bad = np.nonzero(got != want)[0]
    assert bad.size == 0, (key, bad[:5].tolist(), got[bad[:5]].view(dtype).tolist(), want[bad[:5]].view(dtype).tolist())
