"""Grad-mode switches, as context managers and decorators (thread-local, like PyTorch)."""

from types import TracebackType
from typing import Any, Callable, Optional, TypeVar

_F = TypeVar("_F", bound=Callable[..., Any])

__all__ = ["enable_grad", "inference_mode", "no_grad", "set_grad_enabled"]

class _DecoratorContextManager:
    """Usable as ``with no_grad():`` and as ``@no_grad()`` (generator functions too)."""
    def __call__(self, func: _F) -> _F: ...
    def clone(self) -> _DecoratorContextManager: ...

class no_grad(_DecoratorContextManager):
    """Context manager (and decorator) that disables gradient calculation.

    Inside it, every computation has ``requires_grad=False`` even if its inputs require grad.
    Useful for inference and for updating parameters in place. Thread-local; does not affect
    other threads."""
    prev: Optional[bool]
    def __init__(self, orig_func: Optional[Callable[..., Any]] = None) -> None: ...

    def __enter__(self) -> None: ...
    def __exit__(self, *exc: object) -> None: ...

class enable_grad(_DecoratorContextManager):
    """Context manager (and decorator) that enables gradient calculation inside a
    ``no_grad`` (or ``set_grad_enabled(False)``) region."""
    prev: bool

    def __enter__(self) -> None: ...
    def __exit__(self, *exc: object) -> None: ...

class set_grad_enabled(_DecoratorContextManager):
    """Set gradient calculation on or off: takes effect at once when called as a function
    (``torch.set_grad_enabled(False)``), or for a ``with`` block / a decorated function."""
    mode: bool
    prev: bool
    def __init__(self, mode: bool) -> None: ...
    def clone(self) -> set_grad_enabled:
        """A new context manager with the same mode (used when decorating functions)."""
    def __enter__(self) -> None: ...
    def __exit__(self, *exc: object) -> None: ...

class inference_mode(_DecoratorContextManager):
    """Like ``no_grad``, and tensors created inside are inference tensors
    (``Tensor.is_inference()``), which cannot be used in autograd later.
    ``inference_mode(False)`` turns it off inside an enabled region."""
    mode: bool
    prev_inf: bool
    prev_grad: bool
    def __init__(self, mode: bool = True) -> None: ...
    def clone(self) -> inference_mode:
        """A new context manager with the same mode (used when decorating functions)."""
    def __enter__(self) -> None: ...
    def __exit__(self, *exc: object) -> None: ...
