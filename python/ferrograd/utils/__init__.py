"""``torch.utils`` counterparts (``ferrograd.utils.dlpack``)."""

from . import dlpack  # noqa: F401
