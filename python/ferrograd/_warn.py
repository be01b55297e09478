"""``warnings`` as the vmap-aware wrappers need it: ``nn.functional``'s public functions are
wrapped (``ferrograd._vmappable``), which puts one more frame between a function and its
caller than PyTorch has, so a ``stacklevel`` that names the caller's line in PyTorch would
name the wrapper's. ``warn`` here counts frames as PyTorch's would, skipping the wrappers."""

import sys
import warnings as _warnings

_WRAPPERS = set()


def register_wrapper(fn):
    """Frames running ``fn``'s code are not counted by ``warn``'s ``stacklevel``."""
    _WRAPPERS.add(fn.__code__)
    return fn


def warn(message, category=None, stacklevel=1, source=None):
    """``warnings.warn`` with ``stacklevel`` counted without the wrappers' frames."""
    f = sys._getframe(1)
    level, extra = 1, 0
    while f is not None and level < stacklevel:
        f = f.f_back
        if f is not None and f.f_code in _WRAPPERS:
            extra += 1
        else:
            level += 1
    _warnings.warn(message, category, stacklevel + extra + 1, source)


def warn_native(message, category=UserWarning):
    """A warning raised by native code, attributed as PyTorch's C++ warnings are: to the
    innermost Python frame that is not one of the wrappers (the call into the library)."""
    f = sys._getframe(1)
    level = 1
    while f is not None and f.f_code in _WRAPPERS:
        f = f.f_back
        level += 1
    _warnings.warn(message, category, level + 1)
