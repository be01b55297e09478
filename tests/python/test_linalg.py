"""torch.linalg decompositions and solvers (inv/inv_ex, det/slogdet/logdet, solve,
solve_triangular, cholesky/cholesky_ex/cholesky_solve, qr, eigh/eigvalsh, svd/svdvals/
torch.svd, the singular-value norms, matrix_rank, pinv, cond, matrix_power, multi_dot,
cdist) against PyTorch's results (tools/record_linalg_goldens.py -> fixtures/linalg.json),
on every device."""

import functools
import json
import os

import pytest

import ferrograd
import linalg_scenarios
from _golden import assert_matches_golden

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "fixtures", "linalg.json")) as fh:
    GOLDENS = json.load(fh)


@functools.lru_cache(maxsize=None)
def got(device):
    return linalg_scenarios.run(ferrograd, device)


def _tolerances(name):
    # float32 cases: PyTorch runs LAPACK in float32, ferrograd may work in float64 inside
    # (the same scenarios computed in float64 differ from the float32 goldens by up to 7e-5)
    if "_f64" in name:
        return 1e-6, 1e-8
    return 2e-4, 2e-5


@pytest.mark.parametrize("name", sorted(GOLDENS))
def test_matches_pytorch(name, device):
    rtol, atol = _tolerances(name)
    assert_matches_golden(GOLDENS[name], got(device)[name], rtol=rtol, atol=atol, label=name,
                          normalize_str=lambda _, s: s.replace("ferrograd", "torch"))


def test_every_result_has_a_golden():
    assert sorted(got("cpu")) == sorted(GOLDENS)
