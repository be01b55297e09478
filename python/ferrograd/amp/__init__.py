"""``torch.amp``: ``GradScaler`` (dynamic loss scaling, as PyTorch's) and ``autocast``
(per-thread automatic mixed precision: matrix products, ``linear``, convolutions and
attention in bfloat16 / float16, losses in float32, as PyTorch's autocast lists; see
``autocast_mode``)."""

from .autocast_mode import (autocast, get_autocast_dtype, is_autocast_available, is_autocast_enabled,
                            set_autocast_dtype, set_autocast_enabled)
from .grad_scaler import GradScaler

__all__ = ["autocast", "GradScaler", "is_autocast_available", "is_autocast_enabled", "get_autocast_dtype",
           "set_autocast_enabled", "set_autocast_dtype"]
