"""nn.Module, containers, nn.init and nn.utils against PyTorch goldens.

Every scenario of nn_module_scenarios.py runs with ferrograd and must give what it gave with
PyTorch (fixtures/nn_module.json, recorded by tools/record_nn_module_goldens.py): registration
rules and error messages, traversal order, state_dict/load_state_dict, conversions, hooks
(forward, full backward, pre), reprs, container semantics, pickling/deepcopy, init gains, fans,
deterministic initialisers and the bounds of the random ones, gradient clipping."""

import json
import os

import pytest

import ferrograd as torch
from _golden import assert_matches_golden, first_difference
import nn_module_scenarios as scenarios

FIXTURE = os.path.join(os.path.dirname(__file__), "fixtures", "nn_module.json")

with open(FIXTURE) as f:
    GOLDEN = json.load(f)["scenarios"]

# floats within rel 1e-5 / abs 1e-6
RTOL = 1e-5
ATOL = 1e-6


def _first_difference(expected, got):
    return first_difference(expected, got, rtol=RTOL, atol=ATOL)


def test_every_scenario_has_a_golden():
    assert sorted(GOLDEN) == sorted(scenarios.SCENARIOS)


@pytest.mark.parametrize("name", sorted(scenarios.SCENARIOS))
def test_scenario_matches_torch(name):
    got = scenarios.run_one(torch, name)
    # JSON has no tuples; compare through the same round trip the golden took
    got = json.loads(json.dumps(got, allow_nan=True))
    assert_matches_golden(GOLDEN[name], got, rtol=RTOL, atol=ATOL, label=name)


def test_comparison_catches_differences():
    # the comparison itself: a changed value, type, key or length is reported
    assert _first_difference({"a": [1.0, "x"]}, {"a": [1.0, "x"]}) is None
    assert _first_difference({"a": [1.0]}, {"a": [1.1]})[0] == "$.a[0]"
    assert _first_difference([1], [1.0]) is not None
    assert _first_difference([True], [1]) is not None
    assert _first_difference({"a": 1}, {"b": 1}) is not None
    assert _first_difference([1, 2], [1]) is not None
    assert _first_difference(float("nan"), float("nan")) is None
