"""``torch.cuda.amp``: the deprecated spellings of ``torch.amp.GradScaler('cuda')`` and
``torch.amp.autocast('cuda')`` (with PyTorch's FutureWarning)."""

import warnings

from . import autocast_mode, grad_scaler

__all__ = ["GradScaler", "autocast"]


class GradScaler(grad_scaler.GradScaler):
    """Deprecated: ``torch.amp.GradScaler('cuda', ...)``."""

    def __init__(self, init_scale=2.0 ** 16, growth_factor=2.0, backoff_factor=0.5, growth_interval=2000, enabled=True):
        warnings.warn("`torch.cuda.amp.GradScaler(args...)` is deprecated. Please use `torch.amp.GradScaler('cuda', args...)` instead.",
                      FutureWarning, stacklevel=2)
        super().__init__("cuda", init_scale=init_scale, growth_factor=growth_factor, backoff_factor=backoff_factor,
                         growth_interval=growth_interval, enabled=enabled)


class autocast(autocast_mode.autocast):
    """Deprecated: ``torch.amp.autocast('cuda', ...)``."""

    def __init__(self, enabled=True, dtype=None, cache_enabled=True):
        warnings.warn("`torch.cuda.amp.autocast(args...)` is deprecated. Please use `torch.amp.autocast('cuda', args...)` instead.",
                      FutureWarning, stacklevel=2)
        super().__init__("cuda", dtype=dtype, enabled=enabled, cache_enabled=cache_enabled)
