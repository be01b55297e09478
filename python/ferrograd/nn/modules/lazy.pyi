"""Type stubs for ``ferrograd.nn.modules.lazy`` (docstrings: see the module itself)."""

from typing import Any, Optional

__all__ = ["LazyModuleMixin"]

class LazyModuleMixin:
    """A mixin for modules that infer the shapes of their parameters from the first input."""
    cls_to_become: Optional[type]
    def __init__(self, *args: Any, **kwargs: Any) -> None: ...
    def initialize_parameters(self, *args: Any, **kwargs: Any) -> None:
        """Shape and initialize the uninitialized parameters from the first input (each lazy module defines it)."""
    def has_uninitialized_params(self) -> bool:
        """Whether any parameter or buffer is still uninitialized."""
