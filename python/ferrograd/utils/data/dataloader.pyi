"""Type stubs for ``ferrograd.utils.data.dataloader``: ``DataLoader`` is generic in the
dataset's item type, as ``torch.utils.data.DataLoader`` is."""

import multiprocessing.context
from typing import Any, Callable, Generic, Iterable, Iterator, Optional, Sequence, TypeVar, Union

from ... import _C
from . import _utils
from ._utils.worker import WorkerInfo
from .dataset import Dataset
from .sampler import Sampler

_T_co = TypeVar("_T_co", covariant=True)

__all__ = ["DataLoader", "default_collate", "default_convert", "get_worker_info"]

def default_collate(batch: Any) -> Any:
    """Put each data field of a batch into a tensor with an outer batch dimension (tensors
    are stacked, numbers become tensors, mappings/sequences/namedtuples are collated field-wise)."""
def default_convert(data: Any) -> Any:
    """Convert NumPy arrays in ``data`` to tensors, leaving the structure (the ``batch_size=None`` collation)."""
def get_worker_info() -> Optional[WorkerInfo]:
    """Information about the current DataLoader worker process, or ``None`` in the main process."""

class _DatasetKind:
    Map: int
    Iterable: int
    @staticmethod
    def create_fetcher(kind: int, dataset: Any, auto_collation: bool, collate_fn: Any, drop_last: bool) -> Any: ...

class _InfiniteConstantSampler(Sampler[None]):
    def __iter__(self) -> Iterator[None]: ...

_START_METHODS: Optional[list[str]]

def _valid_start_methods() -> list[str]: ...
def _rebuild_tensor_bytes(raw: bytes, dtype_name: str, shape: Sequence[int], requires_grad: bool) -> _C.Tensor: ...
def _reduce_tensor(t: _C.Tensor) -> Any: ...

class DataLoader(Generic[_T_co]):
    """Combines a dataset and a sampler and iterates over batches of the dataset
    (``torch.utils.data.DataLoader``, with the same arguments and worker semantics).

    ``pin_memory=True``: ferrograd has no page-locked host memory, so batches are returned as
    they are (PyTorch does the same without an accelerator, and warns; so does this loader).
    """

    dataset: Dataset[_T_co]
    batch_size: Optional[int]
    drop_last: bool
    num_workers: int
    prefetch_factor: Optional[int]
    pin_memory: bool
    pin_memory_device: str
    timeout: float
    sampler: Union[Sampler[Any], Iterable[Any]]
    batch_sampler: Union[Sampler[Any], Iterable[Any], None]
    generator: Optional[_C.Generator]
    collate_fn: Callable[[Any], Any]
    worker_init_fn: Optional[Callable[[int], None]]
    persistent_workers: bool
    in_order: bool
    _iterator: Optional[_BaseDataLoaderIter]

    def __init__(self, dataset: Dataset[_T_co], batch_size: Optional[int] = 1, shuffle: Optional[bool] = None,
                 sampler: Union[Sampler[Any], Iterable[Any], None] = None,
                 batch_sampler: Union[Sampler[Any], Iterable[Any], None] = None, num_workers: int = 0,
                 collate_fn: Optional[Callable[[Any], Any]] = None, pin_memory: bool = False, drop_last: bool = False,
                 timeout: float = 0, worker_init_fn: Optional[Callable[[int], None]] = None,
                 multiprocessing_context: Union[str, multiprocessing.context.BaseContext, None] = None,
                 generator: Optional[_C.Generator] = None, *, prefetch_factor: Optional[int] = None,
                 persistent_workers: bool = False, pin_memory_device: str = "", in_order: bool = True) -> None: ...
    @property
    def multiprocessing_context(self) -> Any:
        """The multiprocessing context the workers start with (``None``: the default)."""
    @multiprocessing_context.setter
    def multiprocessing_context(self, ctx: Union[str, multiprocessing.context.BaseContext, None]) -> None: ...
    @property
    def _auto_collation(self) -> bool: ...
    @property
    def _index_sampler(self) -> Any: ...
    def check_worker_number_rationality(self) -> None:
        """Warn when ``num_workers`` exceeds the CPUs this process may use (as PyTorch does)."""
    def _get_iterator(self) -> _BaseDataLoaderIter: ...
    def __iter__(self) -> _BaseDataLoaderIter:
        """An iterator over batches (a fresh one, or the persistent workers' one reset)."""
    def __len__(self) -> int:
        """The number of batches (for an iterable dataset, an estimate from its length)."""

class _BaseDataLoaderIter:
    def __init__(self, loader: DataLoader[Any]) -> None: ...
    def __iter__(self) -> _BaseDataLoaderIter: ...
    def __next__(self) -> Any: ...
    def __len__(self) -> int: ...

class _SingleProcessDataLoaderIter(_BaseDataLoaderIter): ...
class _MultiProcessingDataLoaderIter(_BaseDataLoaderIter):
    def __del__(self) -> None: ...
