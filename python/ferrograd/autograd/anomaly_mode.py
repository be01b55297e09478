"""Anomaly detection switches (``detect_anomaly`` / ``set_detect_anomaly``)."""

import warnings

_ENABLED = [False, True]


def is_anomaly_enabled():
    return _ENABLED[0]


def is_anomaly_check_nan_enabled():
    return _ENABLED[1]


class detect_anomaly:
    """Context manager that turns anomaly detection on."""

    def __init__(self, check_nan=True):
        self.check_nan = check_nan
        warnings.warn("Anomaly Detection has been enabled. This mode will increase the runtime and should only be enabled for debugging.", stacklevel=2)

    def __enter__(self):
        self.prev = list(_ENABLED)
        _ENABLED[:] = [True, self.check_nan]

    def __exit__(self, *exc):
        _ENABLED[:] = self.prev


class set_detect_anomaly:
    """Turn anomaly detection on or off (also a context manager)."""

    def __init__(self, mode, check_nan=True):
        self.prev = list(_ENABLED)
        _ENABLED[:] = [bool(mode), check_nan]

    def __enter__(self):
        pass

    def __exit__(self, *exc):
        _ENABLED[:] = self.prev
