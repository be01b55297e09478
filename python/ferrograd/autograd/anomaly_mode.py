"""Anomaly detection (``detect_anomaly`` / ``set_detect_anomaly``).

When on (with ``check_nan``), the engine checks every gradient a node produces and raises
PyTorch's ``Function 'XBackward0' returned nan values in its 0th output.`` at the first
non-finite one; a second line says whether the gradient flowing into that node was already
non-finite, so the node that *created* the NaN is named. The check only reads the produced
gradients, so it costs one pass over them, not a forward traceback per op.
"""

import warnings

from .. import _C

_STATE = [False, True]


def is_anomaly_enabled():
    return _STATE[0]


def is_anomaly_check_nan_enabled():
    return _STATE[1]


def _set(enabled, check_nan):
    _STATE[:] = [bool(enabled), bool(check_nan)]
    _C._set_anomaly(bool(enabled), bool(check_nan))


class detect_anomaly:
    """Context manager (and decorator) that turns anomaly detection on."""

    def __init__(self, check_nan=True):
        self.check_nan = check_nan
        warnings.warn("Anomaly Detection has been enabled. This mode will increase the runtime and should only be enabled for debugging.", stacklevel=2)

    def __enter__(self):
        self.prev = list(_STATE)
        _set(True, self.check_nan)

    def __exit__(self, *exc):
        _set(*self.prev)

    def __call__(self, fn):
        import functools

        @functools.wraps(fn)
        def wrapper(*a, **k):
            with self.__class__(self.check_nan):
                return fn(*a, **k)

        return wrapper


class set_detect_anomaly:
    """Turn anomaly detection on or off (also a context manager)."""

    def __init__(self, mode, check_nan=True):
        self.prev = list(_STATE)
        _set(mode, check_nan)

    def __enter__(self):
        pass

    def __exit__(self, *exc):
        _set(*self.prev)
