"""``torch.amp``: ``GradScaler`` (dynamic loss scaling, as PyTorch's) and ``autocast``.

ferrograd runs ops in the dtypes they are given: ``autocast`` disables itself (with
PyTorch's warning) for a CUDA device when CUDA is unavailable and is a no-op when
``enabled=False``; enabled on an available device it raises NotImplementedError, since
running in full precision would silently differ from PyTorch's mixed-precision results."""

from .autocast_mode import autocast, is_autocast_available
from .grad_scaler import GradScaler

__all__ = ["autocast", "GradScaler", "is_autocast_available"]
