"""``torch.nn.attention``: the scaled-dot-product-attention backend selection. ferrograd has one
``scaled_dot_product_attention`` implementation (what PyTorch's math backend computes), so
:func:`sdpa_kernel` records the requested backends and every choice runs that one."""

import contextlib
import enum

__all__ = ["SDPBackend", "sdpa_kernel", "WARN_FOR_UNFUSED_KERNELS"]

WARN_FOR_UNFUSED_KERNELS = False


class SDPBackend(enum.IntEnum):
    """The scaled dot product attention backends (PyTorch's enum values)."""

    ERROR = -1
    MATH = 0
    FLASH_ATTENTION = 1
    EFFICIENT_ATTENTION = 2
    CUDNN_ATTENTION = 3
    OVERRIDEABLE = 4

    def __repr__(self):
        return f"<SDPBackend.{self.name}: {self.value}>"

    def __str__(self):
        return f"SDPBackend.{self.name}"


_ALL = [SDPBackend.FLASH_ATTENTION, SDPBackend.EFFICIENT_ATTENTION, SDPBackend.MATH, SDPBackend.CUDNN_ATTENTION]
_current = list(_ALL)


def _cur_sdpa_kernel_backends(with_priority=False):
    return list(_current)


def _sdpa_kernel(backends, set_priority=False):
    _current[:] = list(backends)


@contextlib.contextmanager
def sdpa_kernel(backends, set_priority=False):
    """Context manager that selects the backends of ``scaled_dot_product_attention`` (accepted and
    recorded: ferrograd computes every backend with its one, math, implementation)."""
    if not isinstance(backends, (list, SDPBackend)):
        raise AssertionError(
            f"Backend must be an instance of SDPBackend or a list of SDPBackend instances, got {type(backends).__name__}")
    if isinstance(backends, SDPBackend):
        backends = [backends]
    backends = list(dict.fromkeys(backends))
    previous_backends = _cur_sdpa_kernel_backends(with_priority=set_priority)
    try:
        _sdpa_kernel(backends, set_priority)
        yield {}
    finally:
        _sdpa_kernel(previous_backends, set_priority)
