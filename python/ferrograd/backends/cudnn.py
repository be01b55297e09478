"""``torch.backends.cudnn``: ferrograd's CUDA backend does not use cuDNN, so it is never
available; ``enabled``, ``benchmark``, ``deterministic`` and ``allow_tf32`` are settings
programs may set and read back (they change no kernel)."""

enabled = True
benchmark = False
benchmark_limit = 10
deterministic = False
allow_tf32 = True


def is_available():
    """Whether the library is available to ferrograd."""
    return False


def version():
    """cuDNN's version: None (not used by ferrograd)."""
    return None


def is_acceptable(tensor):
    """Whether cuDNN accepts ``tensor``: never (not used by ferrograd)."""
    return False


class _Flags:
    """``torch.backends.cudnn.flags(...)``: set the flags for a block, restore them after."""

    def __init__(self, enabled=False, benchmark=False, benchmark_limit=10, deterministic=False, allow_tf32=True):
        self._new = dict(enabled=enabled, benchmark=benchmark, benchmark_limit=benchmark_limit,
                         deterministic=deterministic, allow_tf32=allow_tf32)

    def __enter__(self):
        g = globals()
        self._old = {k: g[k] for k in self._new}
        g.update(self._new)

    def __exit__(self, *exc):
        globals().update(self._old)
        return False


def flags(enabled=False, benchmark=False, benchmark_limit=10, deterministic=False, allow_tf32=True):
    """A context manager setting the cuDNN flags for a block and restoring them after."""
    return _Flags(enabled, benchmark, benchmark_limit, deterministic, allow_tf32)
