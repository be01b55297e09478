"""``torch.nn.attention``: the scaled-dot-product-attention backend selection. On CPU
ferrograd has PyTorch's two: the math composition and the flash kernel (one
ScaledDotProductFlashAttentionForCpuBackward0 node), chosen as PyTorch chooses them; the
switches are ``torch.backends.cuda``'s (``enable_flash_sdp`` ...)."""

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
# the backends' switches are torch.backends.cuda's (``enable_flash_sdp`` ...), as in PyTorch
_FLAGS = {SDPBackend.FLASH_ATTENTION: "flash", SDPBackend.EFFICIENT_ATTENTION: "mem_efficient",
          SDPBackend.MATH: "math", SDPBackend.CUDNN_ATTENTION: "cudnn"}
_priority = [None]  # the order set with set_priority=True, else None (PyTorch's default order)


def _switches():
    from ...backends import cuda

    return cuda._SDP


def _cur_sdpa_kernel_backends(with_priority=False):
    on = [b for b in _ALL if _switches()[_FLAGS[b]]]
    if with_priority and _priority[0] is not None:
        return [b for b in _priority[0] if b in on] + [b for b in on if b not in _priority[0]]
    return on


def _sdpa_kernel(backends, set_priority=False):
    for b, flag in _FLAGS.items():
        _switches()[flag] = b in backends
    if set_priority:
        _priority[0] = list(backends)


def _flash_first():
    """Whether ``scaled_dot_product_attention`` may take the flash kernel: it is enabled and,
    where a priority order was set, ranked above the math backend."""
    if not _switches()["flash"]:
        return False
    order = _priority[0]
    if order is None or SDPBackend.MATH not in order or not _switches()["math"]:
        return True
    return order.index(SDPBackend.FLASH_ATTENTION) < order.index(SDPBackend.MATH) if SDPBackend.FLASH_ATTENTION in order else False


@contextlib.contextmanager
def sdpa_kernel(backends, set_priority=False):
    """Context manager that selects the backends of ``scaled_dot_product_attention`` (flash and
    math are computed; the others are accepted switches)."""
    if not isinstance(backends, (list, SDPBackend)):
        raise AssertionError(
            f"Backend must be an instance of SDPBackend or a list of SDPBackend instances, got {type(backends).__name__}")
    if isinstance(backends, SDPBackend):
        backends = [backends]
    backends = list(dict.fromkeys(backends))
    previous_backends = _cur_sdpa_kernel_backends(with_priority=set_priority)
    previous_priority = _priority[0]
    try:
        _sdpa_kernel(backends, set_priority)
        yield {}
    finally:
        _sdpa_kernel(previous_backends, False)
        _priority[0] = previous_priority
