"""Shared pieces of ``ferrograd.utils.data`` (``torch.utils.data._utils``): constants, the
exception carrier used by worker processes, and the int64 seed draw of the loaders."""

import sys
import traceback

IS_WINDOWS = sys.platform == "win32"
# seconds a worker (and the main process) waits on a queue before re-checking liveness
MP_STATUS_CHECK_INTERVAL = 5.0

try:
    import numpy  # noqa: F401

    HAS_NUMPY = True
except ImportError:  # pragma: no cover - numpy is a dependency of ferrograd
    HAS_NUMPY = False


class KeyErrorMessage(str):
    """A str whose repr is itself, so a re-raised KeyError prints its multi-line message."""

    def __repr__(self):
        return self


class ExceptionWrapper:
    """Carries an exception and its formatted traceback across processes, and re-raises it in
    the main process with torch's ``Caught <Type> in DataLoader worker process N.`` text."""

    def __init__(self, exc_info=None, where="in background"):
        if exc_info is None:
            exc_info = sys.exc_info()
        self.exc_type = exc_info[0]
        self.exc_msg = "".join(traceback.format_exception(*exc_info))
        self.where = where

    def reraise(self):
        msg = f"Caught {self.exc_type.__name__} {self.where}.\nOriginal {self.exc_msg}"
        if self.exc_type is KeyError:
            msg = KeyErrorMessage(msg)
        elif getattr(self.exc_type, "message", None):
            raise self.exc_type(message=msg)
        try:
            exc = self.exc_type(msg)
        except Exception:
            raise RuntimeError(msg) from None
        raise exc


def generator_kwargs(generator):
    """``{"generator": g}`` or ``{}``: the random factories of the core take ``generator=`` only
    when one is given (``None`` means the default generator, as in torch)."""
    return {} if generator is None else {"generator": generator}


def random_int64(generator=None):
    """``torch.empty((), dtype=torch.int64).random_(generator=generator).item()``: the draw torch's
    samplers and loaders use for seeds (one 64-bit draw, reduced to [0, 2**63))."""
    import ferrograd as torch

    return int(torch.empty((), dtype=torch.int64).random_(generator=generator).item())


from . import collate, fetch, pin_memory, worker  # noqa: E402,F401
