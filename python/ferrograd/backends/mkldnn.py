"""``torch.backends.mkldnn``: ferrograd does not use oneDNN, so it is never available;
``enabled``, ``deterministic`` and ``allow_tf32`` are settings programs may set and read back
(they change no kernel: ferrograd's CPU kernels are ATen's own formulas, the ones PyTorch runs
with oneDNN off)."""

from contextlib import contextmanager

enabled = True
deterministic = False
allow_tf32 = True
fp32_precision = "none"


def is_available():
    """Whether the library is available to ferrograd."""
    return False


def set_flags(_enabled=None, _deterministic=None, _allow_tf32=None, _fp32_precision="none"):
    """Set the oneDNN flags given (None keeps one); returns the previous four."""
    global enabled, deterministic, allow_tf32, fp32_precision
    orig = (enabled, deterministic, allow_tf32, fp32_precision)
    if _enabled is not None:
        enabled = _enabled
    if _deterministic is not None:
        deterministic = _deterministic
    if _allow_tf32 is not None:
        allow_tf32 = _allow_tf32
    if _fp32_precision is not None:
        fp32_precision = _fp32_precision
    return orig


@contextmanager
def flags(enabled=False, deterministic=False, allow_tf32=True, fp32_precision="none"):
    """A context manager setting the oneDNN flags for a block and restoring them after."""
    orig = set_flags(enabled, deterministic, allow_tf32, fp32_precision)
    try:
        yield
    finally:
        set_flags(*orig)
