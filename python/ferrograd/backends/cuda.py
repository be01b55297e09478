"""``torch.backends.cuda``: matmul precision flags and the scaled-dot-product-attention
backend switches, as settings (ferrograd's CUDA matmul is full float32; its attention is the
math path)."""


class _Matmul:
    allow_tf32 = False
    allow_fp16_reduced_precision_reduction = True
    allow_bf16_reduced_precision_reduction = True


matmul = _Matmul()
_SDP = {"flash": True, "mem_efficient": True, "math": True, "cudnn": True}


def is_built():
    """Whether this build can run CUDA (ferrograd loads the driver at run time)."""
    from .. import cuda as _cuda

    return _cuda.is_available()


def flash_sdp_enabled():
    """Whether the flash attention backend is enabled (a setting)."""
    return _SDP["flash"]


def mem_efficient_sdp_enabled():
    """Whether the memory-efficient attention backend is enabled (a setting)."""
    return _SDP["mem_efficient"]


def math_sdp_enabled():
    """Whether the math attention backend is enabled (a setting)."""
    return _SDP["math"]


def cudnn_sdp_enabled():
    """Whether the cuDNN attention backend is enabled (a setting)."""
    return _SDP["cudnn"]


def enable_flash_sdp(enabled):
    """Enable or disable the flash attention backend (a setting)."""
    _SDP["flash"] = bool(enabled)


def enable_mem_efficient_sdp(enabled):
    """Enable or disable the memory-efficient attention backend (a setting)."""
    _SDP["mem_efficient"] = bool(enabled)


def enable_math_sdp(enabled):
    """Enable or disable the math attention backend (a setting)."""
    _SDP["math"] = bool(enabled)


def enable_cudnn_sdp(enabled):
    """Enable or disable the cuDNN attention backend (a setting)."""
    _SDP["cudnn"] = bool(enabled)


def preferred_linalg_library(backend=None):
    """The linear-algebra library in use (ferrograd's own kernels: ``Default``)."""
    return "Default"
