"""``torch.nn.parallel``: ``DistributedDataParallel`` (on ferrograd.distributed's MPI groups)."""

from .distributed import DistributedDataParallel  # noqa: F401
from .data_parallel import DataParallel  # noqa: F401

__all__ = ["DistributedDataParallel", "DataParallel"]
