"""Sums over leading dimensions against PyTorch's results bit for bit
(tools/record_column_sum_goldens.py -> fixtures/column_sums.json): ATen's cascade order, in
the element type."""

import json
import os

import pytest

import ferrograd
import column_sum_scenarios

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "fixtures", "column_sums.json")) as fh:
    GOLDENS = json.load(fh)
GOLDENS.pop("_cpu_capability")
GOT = column_sum_scenarios.run(ferrograd)


@pytest.mark.parametrize("name", sorted(GOLDENS))
def test_matches_pytorch_exactly(name):
    assert GOT[name] == GOLDENS[name], name


def test_every_result_has_a_golden():
    assert sorted(GOT) == sorted(GOLDENS)


@pytest.mark.parametrize("threads", [1, 2])
def test_independent_of_the_thread_count(threads):
    old = ferrograd.get_num_threads()
    ferrograd.set_num_threads(threads)
    try:
        x = ferrograd.randn(3000, 1030)
        a = x.sum(0)
    finally:
        ferrograd.set_num_threads(old)
    assert ferrograd.equal(a, x.sum(0))
