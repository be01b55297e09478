"""``torch.utils`` counterparts (``ferrograd.utils.dlpack``)."""

from . import dlpack  # noqa: F401
from . import data  # noqa: F401,E402
from . import checkpoint  # noqa: F401,E402
from . import _pytree  # noqa: F401,E402
