"""``torch.nn.parallel``: ``DistributedDataParallel`` (on ferrograd.distributed's MPI groups)."""

from .distributed import DistributedDataParallel  # noqa: F401

__all__ = ["DistributedDataParallel"]
