"""``torch.nn``: Parameter and Buffer (``parameter.py``), Module and the layers
(``modules/``), ``functional``, ``init`` and ``utils``."""

from .parameter import Buffer, Parameter, UninitializedBuffer, UninitializedParameter
from .parameter import _rebuild_parameter  # noqa: F401  (pickles made before the split name it here)
from .modules import *  # noqa: F401,F403
from .modules import __all__ as _modules_all
from . import functional  # noqa: F401
from . import init  # noqa: F401
from . import utils  # noqa: F401
from . import modules  # noqa: F401
from . import parameter  # noqa: F401
from . import parallel  # noqa: F401  (DistributedDataParallel; imports ferrograd.distributed)
from .parallel import DataParallel  # noqa: F401
from . import attention  # noqa: F401

__all__ = ["Parameter", "Buffer", "UninitializedParameter", "UninitializedBuffer", "DataParallel", "attention", "functional", "init", "utils", "modules", "parameter"] + list(_modules_all)
