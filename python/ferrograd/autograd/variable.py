"""``torch.autograd.variable``: the module that holds the legacy ``Variable``."""

from . import Variable, VariableMeta  # noqa: F401

__all__ = ["Variable", "VariableMeta"]
