"""``torch.multiprocessing``: Python's ``multiprocessing`` (every name of it is here), plus
PyTorch's ``spawn`` / ``start_processes`` and the sharing-strategy settings. Tensors cross
process boundaries by pickling (their data is copied; ferrograd has no shared-memory
tensor transport)."""

import multiprocessing
import multiprocessing.connection
import sys
from multiprocessing import *  # noqa: F401,F403

from .spawn import ProcessContext, ProcessExitedException, ProcessRaisedException, spawn, start_processes

__all__ = ["set_sharing_strategy", "get_sharing_strategy", "get_all_sharing_strategies", "spawn", "start_processes",
           "ProcessContext", "ProcessExitedException", "ProcessRaisedException"] + list(multiprocessing.__all__)

_ALL_STRATEGIES = {"file_descriptor", "file_system"} if sys.platform != "darwin" else {"file_system"}
_strategy = "file_descriptor" if sys.platform != "darwin" else "file_system"


def set_sharing_strategy(new_strategy):
    """Choose how tensors are shared between processes (one of
    ``get_all_sharing_strategies()``)."""
    global _strategy
    assert new_strategy in _ALL_STRATEGIES
    _strategy = new_strategy


def get_sharing_strategy():
    """The current sharing strategy."""
    return _strategy


def get_all_sharing_strategies():
    """The sharing strategies this platform supports."""
    return set(_ALL_STRATEGIES)
