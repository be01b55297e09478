"""The shared golden comparison (tests/python/_golden.py) itself."""

import pytest

from _golden import assert_matches_golden, first_difference


def _diff(expected, got, **kw):
    return first_difference(expected, got, rtol=1e-5, atol=1e-6, **kw)


def test_equal_structures_match():
    assert _diff({"a": [1.0, "x", None, True, 3]}, {"a": (1.0, "x", None, True, 3)}) is None
    assert _diff(float("nan"), float("nan")) is None
    assert _diff(float("inf"), float("inf")) is None
    assert _diff(1.0, 1.0 + 5e-7) is None


def test_differences_are_located():
    assert _diff({"a": [1.0, 2.0]}, {"a": [1.0, 2.1]})[0] == "$.a[1]"
    assert _diff({"a": 1}, {"b": 1})[0] == "$ (keys)"
    assert _diff([1, 2], [1])[0] == "$ (length)"
    assert _diff(float("inf"), float("-inf")) is not None
    assert _diff(float("nan"), 1.0) is not None
    assert _diff(1.0, float("nan")) is not None


def test_kinds_of_numbers_must_agree():
    assert _diff([1], [1.0]) is not None
    assert _diff([1.0], [1]) is not None
    assert _diff([True], [1]) is not None
    assert _diff([1], [True]) is not None


def test_normalize_str_applies_to_both_sides():
    def norm(path, s):
        s = s.replace("ferrograd", "torch")
        return {"AliasBackward0": "StackBackward0"}.get(s, s) if path.endswith(".grad_fn") else s

    assert _diff({"r": "torch.float32"}, {"r": "ferrograd.float32"}, normalize_str=norm) is None
    assert _diff({"r": "torch.float32"}, {"r": "ferrograd.float32"}) is not None
    assert _diff({"grad_fn": "AliasBackward0"}, {"grad_fn": "StackBackward0"},
                 normalize_str=norm) is None
    assert _diff({"name": "AliasBackward0"}, {"name": "StackBackward0"},
                 normalize_str=norm) is not None


def test_assert_names_the_first_difference():
    assert_matches_golden({"a": 1.0}, {"a": 1.0}, rtol=0, atol=0)
    with pytest.raises(AssertionError, match=r"case: at \$\.a: torch gave 1\.0, ferrograd gave 2\.0"):
        assert_matches_golden({"a": 1.0}, {"a": 2.0}, rtol=0, atol=0, label="case")
