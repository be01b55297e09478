"""float16 / bfloat16 softmax and log-softmax over the last dim computed as ATen's
reduced-precision kernels (in float32, Sleef's exp over whole vectors and libm's over the rest,
the log-sum rounded to the dtype twice): bit for bit against PyTorch 2.13's results recorded by
tools/record_softmax_half_goldens.py at one and two threads; softmax over another dim too
(ATen's vector runs of columns and its scalar path, which rounds each exponential first),
log_softmax there within the dtype's last place."""

import json
import pathlib

import numpy as np
import pytest

import ferrograd as torch
import softmax_half_scenarios as sc

GOLD = json.loads((pathlib.Path(__file__).parent / "fixtures" / "softmax_half.json").read_text())


@pytest.mark.parametrize("threads", [1, 2])
def test_matches_pytorch_bit_for_bit(threads):
    old = torch.get_num_threads()
    torch.set_num_threads(threads)
    try:
        mine = sc.run(torch)
    finally:
        torch.set_num_threads(old)
    gold = {**GOLD["1"], **GOLD[str(threads)]}
    assert sorted(mine) == sorted(gold)
    for case, want in gold.items():
        dtype = case.split()[0]
        a, b = sc.values(mine[case], dtype), sc.values(want, dtype)
        assert a.shape == b.shape, case
        assert (np.isnan(a) == np.isnan(b)).all(), case
        ok = ~np.isnan(b)
        # over a dim other than the last ATen's reduced kernels round each exponential to the
        # dtype before the scaling where a column is outside its 32-wide vector blocks; here
        # every element rounds once, so the two may differ there by the dtype's last place
        bf = dtype == "bfloat16"
        ulp = 2.0 ** (np.floor(np.log2(np.maximum(np.abs(b[ok]), 2.0 ** (-126 if bf else -14)))) - (7 if bf else 10))
        tol = ulp if "log_softmax" in case and case.endswith("dim 0") else 0.0
        bad = np.nonzero(np.abs(a[ok] - b[ok]) > tol)[0]
        assert bad.size == 0, f"{case}: {bad.size} differ, first {a[ok][bad[:3]]} vs {b[ok][bad[:3]]}"


def test_large_rows_split_over_threads_agree():
    x = torch.randn(300, 700).bfloat16()
    old = torch.get_num_threads()
    try:
        torch.set_num_threads(1)
        one = (torch.softmax(x, -1), torch.log_softmax(x, -1))
        torch.set_num_threads(2)
        two = (torch.softmax(x, -1), torch.log_softmax(x, -1))
    finally:
        torch.set_num_threads(old)
    assert torch.equal(one[0], two[0]) and torch.equal(one[1], two[1])
    assert one[0].dtype == torch.bfloat16
    assert torch.allclose(one[0].float().sum(-1), torch.ones(300), atol=2e-2)
