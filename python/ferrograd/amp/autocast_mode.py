"""``torch.autocast`` (see ``ferrograd.amp``)."""

import functools
import warnings

__all__ = ["autocast", "is_autocast_available"]


def is_autocast_available(device_type):
    """Whether autocast can run on ``device_type``: never in ferrograd."""
    return False


class autocast:
    """Mixed-precision context: a no-op when disabled (or disabled for lack of the device,
    with PyTorch's warning); enabled, it raises NotImplementedError (ferrograd has no
    automatic casting)."""

    def __init__(self, device_type, dtype=None, enabled=True, cache_enabled=None):
        if not isinstance(device_type, str):
            raise ValueError(f"Expected `device_type` of type `str`, got: `{type(device_type)}`")
        self.device = device_type
        self.fast_dtype = dtype
        self._enabled = enabled
        if enabled and device_type == "cuda":
            from .. import cuda

            if not cuda.is_available():
                warnings.warn("CUDA is not available or torch_xla is imported. Disabling autocast.", UserWarning, stacklevel=2)
                self._enabled = False
        if self._enabled:
            raise NotImplementedError(
                f"torch.autocast(device_type={device_type!r}) is not implemented in ferrograd: ops run in the dtypes they "
                "are given; cast the model and inputs (e.g. .to(torch.bfloat16)) or pass enabled=False")

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc_val, exc_tb):
        return False

    def __call__(self, func):
        @functools.wraps(func)
        def decorate(*args, **kwargs):
            with self:
                return func(*args, **kwargs)

        return decorate
