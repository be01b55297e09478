"""``torch.distributed`` for ferrograd, on MPI through mpi4py (``pip install "ferrograd[mpi]"``).

Start the processes with ``mpiexec -n N python script.py``; ``init_process_group("mpi")`` takes the
rank and world size from MPI. See docs/distributed.md."""

from .distributed_c10d import (  # noqa: F401
    Backend, GroupMember, ProcessGroup, ReduceOp, Work, all_gather, all_gather_into_tensor, all_gather_single,
    all_reduce, barrier, broadcast, default_pg_timeout, destroy_process_group, get_backend, get_global_rank,
    get_group_rank, get_process_group_ranks, get_rank, get_world_size, group, init_process_group, irecv,
    is_available, is_gloo_available, is_initialized, is_mpi_available, is_nccl_available,
    is_torchelastic_launched, is_ucc_available, is_xccl_available, isend, new_group, recv,
    reduce_scatter_single, reduce_scatter_tensor, send,
)
from . import distributed_c10d  # noqa: F401

__all__ = list(distributed_c10d.__all__) + ["default_pg_timeout", "distributed_c10d", "is_ucc_available",
                                            "is_xccl_available"]
