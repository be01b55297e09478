"""Comparison of ferrograd's results with PyTorch's recorded goldens, shared by the golden-based
test modules (nn layers, nn.Module, recurrent/attention layers, optimizers).

A golden is JSON: dicts, lists, strings, numbers, bools and None. ``got`` must have the same
structure (a tuple counts as a list), the same keys and lengths, numbers of the same kind (a
bool is not an int, an int is not a float), floats within ``atol + rtol * |expected|`` with NaN
equal to NaN and infinities exactly, and everything else equal. Strings on both sides pass
through ``normalize_str(path, s)`` first when given (to spell ferrograd's names as torch's, or
to accept a documented alias of a grad_fn name).
"""

import math


def first_difference(expected, got, path="$", *, rtol, atol, normalize_str=None):
    """Where ``got`` first differs from ``expected``: ``(path, expected, got)``, or None."""
    if isinstance(expected, bool) or isinstance(got, bool):
        return None if type(expected) is type(got) and expected == got else (path, expected, got)
    if isinstance(expected, float) or isinstance(got, float):
        if not (isinstance(expected, float) and isinstance(got, float)):
            return path, expected, got
        if math.isnan(expected) or math.isnan(got):
            return None if math.isnan(expected) and math.isnan(got) else (path, expected, got)
        if expected == got:
            return None
        if not math.isinf(expected) and abs(got - expected) <= atol + rtol * abs(expected):
            return None
        return path, expected, got
    if isinstance(expected, dict):
        if not isinstance(got, dict) or sorted(expected) != sorted(got):
            return (path + " (keys)", sorted(expected),
                    sorted(got) if isinstance(got, dict) else got)
        for k in expected:
            d = first_difference(expected[k], got[k], f"{path}.{k}", rtol=rtol, atol=atol,
                                 normalize_str=normalize_str)
            if d:
                return d
        return None
    if isinstance(expected, list):
        if isinstance(got, tuple):
            got = list(got)
        if not isinstance(got, list) or len(expected) != len(got):
            return path + " (length)", expected, got
        for i, (e, g) in enumerate(zip(expected, got)):
            d = first_difference(e, g, f"{path}[{i}]", rtol=rtol, atol=atol,
                                 normalize_str=normalize_str)
            if d:
                return d
        return None
    if isinstance(expected, str) and isinstance(got, str) and normalize_str is not None:
        expected, got = normalize_str(path, expected), normalize_str(path, got)
    return None if type(expected) is type(got) and expected == got else (path, expected, got)


def assert_matches_golden(expected, got, *, rtol, atol, normalize_str=None, label=""):
    """Assert ``got`` matches the golden ``expected``, naming the first difference."""
    diff = first_difference(expected, got, rtol=rtol, atol=atol, normalize_str=normalize_str)
    assert diff is None, (
        f"{label}{': ' if label else ''}at {diff[0]}: torch gave {diff[1]!r}, "
        f"ferrograd gave {diff[2]!r}"
    )


def values(t):
    """A tensor's values as a flat list of floats (NaN as "nan"), for a scenario's result."""
    return [v if v == v else "nan" for v in t.detach().double().flatten().tolist()]


def caught(f):
    """``f()``, or the error it raises as ``{"error": [type, message]}`` (PyTorch's error is
    a scenario's result too)."""
    try:
        return f()
    except Exception as e:  # noqa: BLE001
        return {"error": [type(e).__name__, str(e)]}
