"""nn.Module, containers, nn.init and nn.utils against PyTorch goldens.

Every scenario of nn_module_scenarios.py runs with ferrograd and must give what it gave with
PyTorch (fixtures/nn_module.json, recorded by tools/record_nn_module_goldens.py): registration
rules and error messages, traversal order, state_dict/load_state_dict, conversions, hooks
(forward, full backward, pre), reprs, container semantics, pickling/deepcopy, init gains, fans,
deterministic initialisers and the bounds of the random ones, gradient clipping."""

import json
import math
import os

import pytest

import ferrograd as torch
import nn_module_scenarios as scenarios

FIXTURE = os.path.join(os.path.dirname(__file__), "fixtures", "nn_module.json")

with open(FIXTURE) as f:
    GOLDEN = json.load(f)["scenarios"]


def _first_difference(expected, got, path="$"):
    """The path and both values where ``got`` first differs from ``expected``, or None.
    Floats within rel 1e-5 / abs 1e-6 (NaN equals NaN); bools, ints and strings exactly."""
    if isinstance(expected, bool) or isinstance(got, bool):
        return None if type(expected) is type(got) and expected == got else (path, expected, got)
    if isinstance(expected, float) or isinstance(got, float):
        if not isinstance(expected, (int, float)) or not isinstance(got, (int, float)):
            return path, expected, got
        if isinstance(expected, int) != isinstance(got, int):
            return path, expected, got
        if math.isnan(expected) and math.isnan(got):
            return None
        if math.isclose(expected, got, rel_tol=1e-5, abs_tol=1e-6) or expected == got:
            return None
        return path, expected, got
    if isinstance(expected, dict):
        if not isinstance(got, dict) or sorted(expected) != sorted(got):
            return path + " (keys)", sorted(expected) if isinstance(expected, dict) else expected, \
                sorted(got) if isinstance(got, dict) else got
        for k in expected:
            d = _first_difference(expected[k], got[k], f"{path}.{k}")
            if d:
                return d
        return None
    if isinstance(expected, list):
        if isinstance(got, tuple):
            got = list(got)
        if not isinstance(got, list) or len(expected) != len(got):
            return path + " (length)", expected, got
        for i, (e, g) in enumerate(zip(expected, got)):
            d = _first_difference(e, g, f"{path}[{i}]")
            if d:
                return d
        return None
    return None if type(expected) is type(got) and expected == got else (path, expected, got)


def test_every_scenario_has_a_golden():
    assert sorted(GOLDEN) == sorted(scenarios.SCENARIOS)


@pytest.mark.parametrize("name", sorted(scenarios.SCENARIOS))
def test_scenario_matches_torch(name):
    got = scenarios.run_one(torch, name)
    # JSON has no tuples; compare through the same round trip the golden took
    got = json.loads(json.dumps(got, allow_nan=True))
    diff = _first_difference(GOLDEN[name], got)
    assert diff is None, f"{name}: at {diff[0]}: torch gave {diff[1]!r}, ferrograd gave {diff[2]!r}"


def test_comparison_catches_differences():
    # the comparison itself: a changed value, type, key or length is reported
    assert _first_difference({"a": [1.0, "x"]}, {"a": [1.0, "x"]}) is None
    assert _first_difference({"a": [1.0]}, {"a": [1.1]})[0] == "$.a[0]"
    assert _first_difference([1], [1.0]) is not None
    assert _first_difference([True], [1]) is not None
    assert _first_difference({"a": 1}, {"b": 1}) is not None
    assert _first_difference([1, 2], [1]) is not None
    assert _first_difference(float("nan"), float("nan")) is None
