"""``torch.utils.dlpack``: DLPack capsules in and out.

``to_dlpack(t)`` gives a legacy ``"dltensor"`` capsule sharing ``t``'s memory (the idiomatic
route is ``consumer.from_dlpack(t)``, which calls ``t.__dlpack__``); ``from_dlpack(obj)``
takes an object with ``__dlpack__`` or a capsule and shares its memory. CPU only for now.
"""

from .. import _C
from .._dlpack import DLDeviceType

__all__ = ["DLDeviceType", "from_dlpack", "to_dlpack"]


def to_dlpack(tensor):
    """A legacy DLPack capsule (``"dltensor"``) sharing ``tensor``'s memory. Consume it once."""
    return _C._to_dlpack(tensor)


def from_dlpack(ext_tensor):
    """A tensor sharing the memory of ``ext_tensor`` (an object with ``__dlpack__``, or a
    DLPack capsule)."""
    return _C.from_dlpack(ext_tensor)
