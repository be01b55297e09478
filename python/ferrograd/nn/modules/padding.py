"""Padding layers (``torch.nn.modules.padding``): constant, zero, reflection, replication and
circular padding of the last one, two or three dimensions, through ``F.pad``."""

from .. import functional as F
from .module import Module

__all__ = ["ConstantPad1d", "ConstantPad2d", "ConstantPad3d", "ZeroPad1d", "ZeroPad2d", "ZeroPad3d",
           "ReflectionPad1d", "ReflectionPad2d", "ReflectionPad3d", "ReplicationPad1d", "ReplicationPad2d",
           "ReplicationPad3d", "CircularPad1d", "CircularPad2d", "CircularPad3d"]


def _ntuple(padding, n):
    if isinstance(padding, int):
        return (padding,) * (2 * n)
    return tuple(padding)


class _PadNd(Module):
    __constants__ = ["padding"]
    _n = 1
    _mode = "constant"

    def __init__(self, padding):
        super().__init__()
        self.padding = _ntuple(padding, self._n)

    def forward(self, input):
        return F.pad(input, self.padding, self._mode)

    def extra_repr(self):
        return f"{self.padding}"


class _ConstantPadNd(_PadNd):
    __constants__ = ["padding", "value"]

    def __init__(self, padding, value):
        super().__init__(padding)
        self.value = value

    def forward(self, input):
        return F.pad(input, self.padding, "constant", self.value)

    def extra_repr(self):
        return f"padding={self.padding}, value={self.value}"


class ConstantPad1d(_ConstantPadNd):
    """Pad the last dimension with ``value`` (``padding``: int or (left, right))."""
    _n = 1


class ConstantPad2d(_ConstantPadNd):
    """Pad the last two dimensions with ``value`` (``padding``: int or (left, right, top, bottom))."""
    _n = 2


class ConstantPad3d(_ConstantPadNd):
    """Pad the last three dimensions with ``value``."""
    _n = 3


class _ZeroPadNd(_ConstantPadNd):
    def __init__(self, padding):
        super().__init__(padding, 0.0)

    def extra_repr(self):
        return f"{self.padding}"


class ZeroPad1d(_ZeroPadNd):
    """Pad the last dimension with zeros."""
    _n = 1


class ZeroPad2d(_ZeroPadNd):
    """Pad the last two dimensions with zeros."""
    _n = 2


class ZeroPad3d(_ZeroPadNd):
    """Pad the last three dimensions with zeros."""
    _n = 3


class ReflectionPad1d(_PadNd):
    """Pad the last dimension with the reflection of the input (edge not repeated)."""
    _n, _mode = 1, "reflect"


class ReflectionPad2d(_PadNd):
    """Pad the last two dimensions with the reflection of the input."""
    _n, _mode = 2, "reflect"


class ReflectionPad3d(_PadNd):
    """Pad the last three dimensions with the reflection of the input."""
    _n, _mode = 3, "reflect"


class ReplicationPad1d(_PadNd):
    """Pad the last dimension by repeating the edge values."""
    _n, _mode = 1, "replicate"


class ReplicationPad2d(_PadNd):
    """Pad the last two dimensions by repeating the edge values."""
    _n, _mode = 2, "replicate"


class ReplicationPad3d(_PadNd):
    """Pad the last three dimensions by repeating the edge values."""
    _n, _mode = 3, "replicate"


class CircularPad1d(_PadNd):
    """Pad the last dimension by wrapping around."""
    _n, _mode = 1, "circular"


class CircularPad2d(_PadNd):
    """Pad the last two dimensions by wrapping around."""
    _n, _mode = 2, "circular"


class CircularPad3d(_PadNd):
    """Pad the last three dimensions by wrapping around."""
    _n, _mode = 3, "circular"
