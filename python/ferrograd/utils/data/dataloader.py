"""``DataLoader`` (``torch.utils.data.dataloader``): batches samples of a map-style or iterable
dataset, in the main process (``num_workers=0``) or in worker processes.

Multi-process loading runs real ``multiprocessing`` workers (the context given by
``multiprocessing_context``: ``"fork"``, ``"spawn"``, ``"forkserver"`` or a context object).
Each worker is seeded as in torch (``base_seed + worker_id`` for Python's ``random`` and
ferrograd's global generator, NumPy's from torch's SeedSequence mix), where ``base_seed`` is
one int64 draw from the loader's ``generator`` per iterator. Batches come back in sampler order
(``in_order=True``) or as they are ready; ``prefetch_factor`` batches per worker are in flight,
``timeout`` bounds the wait for one batch, ``persistent_workers`` keeps the workers between
epochs. Worker results travel pickled (tensors as raw bytes) rather than through shared
memory."""

import itertools
import multiprocessing as python_multiprocessing
import os
import queue
import threading
import warnings
from multiprocessing.reduction import ForkingPickler

import ferrograd as torch

from . import _utils
from ._utils import random_int64
from ._utils.worker import _IterableDatasetStopIteration, _ResumeIteration
from .dataset import IterableDataset
from .sampler import BatchSampler, RandomSampler, Sampler, SequentialSampler

__all__ = ["DataLoader", "default_collate", "default_convert", "get_worker_info"]

default_collate = _utils.collate.default_collate
default_convert = _utils.collate.default_convert
get_worker_info = _utils.worker.get_worker_info


# ---- tensors between processes ------------------------------------------------------------

def _rebuild_tensor_bytes(raw, dtype_name, shape, requires_grad):
    import numpy as np

    dtype = getattr(torch, dtype_name)
    np_dtype = {"float16": np.float16, "float32": np.float32, "float64": np.float64,
                "int32": np.int32, "int64": np.int64, "bool": np.bool_}[dtype_name]
    arr = np.frombuffer(raw, dtype=np_dtype).reshape(shape).copy()
    t = torch.from_numpy(arr)
    if t.dtype != dtype:
        t = t.to(dtype)
    if requires_grad:
        t.requires_grad_(True)
    return t


def _reduce_tensor(t):
    """Pickle a tensor for a multiprocessing queue as its raw bytes (much cheaper than the
    generic value-list pickling); devices other than CPU go through the generic path."""
    if t.device.type != "cpu" or not t.is_leaf:
        return t.__reduce_ex__(2)
    arr = t.detach().contiguous().numpy()
    return (_rebuild_tensor_bytes, (arr.tobytes(), str(t.dtype).split(".")[-1], tuple(t.shape), t.requires_grad))


ForkingPickler.register(torch.Tensor, _reduce_tensor)


# ---- dataset kinds and default samplers ---------------------------------------------------

class _DatasetKind:
    Map = 0
    Iterable = 1

    @staticmethod
    def create_fetcher(kind, dataset, auto_collation, collate_fn, drop_last):
        cls = _utils.fetch._MapDatasetFetcher if kind == _DatasetKind.Map else _utils.fetch._IterableDatasetFetcher
        return cls(dataset, auto_collation, collate_fn, drop_last)


class _InfiniteConstantSampler(Sampler):
    """The "sampler" of iterable datasets: ``None`` forever."""

    def __iter__(self):
        while True:
            yield None


_START_METHODS = None


def _valid_start_methods():
    return python_multiprocessing.get_all_start_methods()


class DataLoader:
    """Combines a dataset and a sampler and iterates over batches of the dataset.

    Arguments are torch's: ``batch_size=1`` (``None`` disables batching), ``shuffle``,
    ``sampler`` / ``batch_sampler`` (mutually exclusive with the options they replace),
    ``num_workers``, ``collate_fn``, ``pin_memory``, ``drop_last``, ``timeout``,
    ``worker_init_fn``, ``multiprocessing_context``, ``generator``, and keyword-only
    ``prefetch_factor``, ``persistent_workers``, ``pin_memory_device``, ``in_order``.

    ``pin_memory=True``: ferrograd has no page-locked host memory, so batches are returned as
    they are (a no-op on CPU tensors); without an accelerator torch does the same and warns, and
    so does this loader.
    """

    __initialized = False

    def __init__(self, dataset, batch_size=1, shuffle=None, sampler=None, batch_sampler=None,
                 num_workers=0, collate_fn=None, pin_memory=False, drop_last=False, timeout=0,
                 worker_init_fn=None, multiprocessing_context=None, generator=None, *,
                 prefetch_factor=None, persistent_workers=False, pin_memory_device="", in_order=True):
        if num_workers < 0:
            raise ValueError("num_workers option should be non-negative; "
                             "use num_workers=0 to disable multiprocessing.")
        if timeout < 0:
            raise ValueError("timeout option should be non-negative")
        if num_workers == 0 and prefetch_factor is not None:
            raise ValueError("prefetch_factor option could only be specified in multiprocessing."
                             "let num_workers > 0 to enable multiprocessing, otherwise set prefetch_factor to None.")
        if num_workers > 0 and prefetch_factor is None:
            prefetch_factor = 2
        elif prefetch_factor is not None and prefetch_factor < 0:
            raise ValueError("prefetch_factor option should be non-negative")
        if persistent_workers and num_workers == 0:
            raise ValueError("persistent_workers option needs num_workers > 0")

        self.dataset = dataset
        self.num_workers = num_workers
        self.prefetch_factor = prefetch_factor
        self.pin_memory = pin_memory
        self.pin_memory_device = pin_memory_device
        self.timeout = timeout
        self.worker_init_fn = worker_init_fn
        self.multiprocessing_context = multiprocessing_context
        self.in_order = in_order

        if isinstance(dataset, IterableDataset):
            self._dataset_kind = _DatasetKind.Iterable
            if shuffle not in {False, None}:
                raise ValueError("DataLoader with IterableDataset: expected unspecified shuffle option, "
                                 f"but got shuffle={shuffle}")
            if sampler is not None:
                raise ValueError("DataLoader with IterableDataset: expected unspecified sampler option, "
                                 f"but got sampler={sampler}")
            if batch_sampler is not None:
                raise ValueError("DataLoader with IterableDataset: expected unspecified "
                                 f"batch_sampler option, but got batch_sampler={batch_sampler}")
        else:
            shuffle = bool(shuffle)
            self._dataset_kind = _DatasetKind.Map

        if sampler is not None and shuffle:
            raise ValueError("sampler option is mutually exclusive with shuffle")

        if batch_sampler is not None:
            if batch_size != 1 or shuffle or sampler is not None or drop_last:
                raise ValueError("batch_sampler option is mutually exclusive "
                                 "with batch_size, shuffle, sampler, and "
                                 "drop_last")
            batch_size = None
            drop_last = False
        elif batch_size is None and drop_last:
            raise ValueError("batch_size=None option disables auto-batching "
                             "and is mutually exclusive with drop_last")

        if sampler is None:
            if self._dataset_kind == _DatasetKind.Iterable:
                sampler = _InfiniteConstantSampler()
            elif shuffle:
                sampler = RandomSampler(dataset, generator=generator)
            else:
                sampler = SequentialSampler(dataset)

        if batch_size is not None and batch_sampler is None:
            batch_sampler = BatchSampler(sampler, batch_size, drop_last)

        self.batch_size = batch_size
        self.drop_last = drop_last
        self.sampler = sampler
        self.batch_sampler = batch_sampler
        self.generator = generator

        if collate_fn is None:
            collate_fn = _utils.collate.default_collate if self._auto_collation else _utils.collate.default_convert
        self.collate_fn = collate_fn
        self.persistent_workers = persistent_workers

        self.__initialized = True
        self._IterableDataset_len_called = None
        self._iterator = None
        self.check_worker_number_rationality()

    # -- configuration ------------------------------------------------------------------------

    @property
    def multiprocessing_context(self):
        return self.__multiprocessing_context

    @multiprocessing_context.setter
    def multiprocessing_context(self, ctx):
        if ctx is not None:
            if self.num_workers <= 0:
                raise ValueError("multiprocessing_context can only be used with "
                                 "multi-process loading (num_workers > 0), but got "
                                 f"num_workers={self.num_workers}")
            if isinstance(ctx, str):
                valid = _valid_start_methods()
                if ctx not in valid:
                    raise ValueError("multiprocessing_context option "
                                     f"should specify a valid start method in {valid!r}, but got "
                                     f"multiprocessing_context={ctx!r}")
                ctx = python_multiprocessing.get_context(ctx)
            if not isinstance(ctx, python_multiprocessing.context.BaseContext):
                raise TypeError("multiprocessing_context option should be a valid context "
                                "object or a string specifying the start method, but got "
                                f"multiprocessing_context={ctx}")
        self.__multiprocessing_context = ctx

    def __setattr__(self, attr, val):
        if self.__initialized and attr in ("batch_size", "batch_sampler", "sampler", "drop_last",
                                           "dataset", "persistent_workers"):
            raise ValueError(f"{attr} attribute should not be set after {self.__class__.__name__} is initialized")
        super().__setattr__(attr, val)

    @property
    def _auto_collation(self):
        return self.batch_sampler is not None

    @property
    def _index_sampler(self):
        return self.batch_sampler if self._auto_collation else self.sampler

    def check_worker_number_rationality(self):
        if self.num_workers <= 0:
            return
        try:
            cpus = len(os.sched_getaffinity(0))
            checked = True
        except AttributeError:  # pragma: no cover - not Linux
            cpus = os.cpu_count()
            checked = False
        if cpus is not None and self.num_workers > cpus:
            warnings.warn(
                f"This DataLoader will create {self.num_workers} worker processes in total. "
                f"Our suggested max number of worker in current system is {cpus}"
                f"{' (`cpuset` is not taken into account)' if not checked else ''}"
                ", which is smaller than what this DataLoader is going to create. "
                "Please be aware that excessive worker creation might get DataLoader running slow "
                "or even freeze, lower the worker number to avoid potential slowness/freeze if necessary.",
                stacklevel=2)

    # -- iteration -------------------------------------------------------------------------------

    def _get_iterator(self):
        if self.num_workers == 0:
            return _SingleProcessDataLoaderIter(self)
        self.check_worker_number_rationality()
        return _MultiProcessingDataLoaderIter(self)

    def __iter__(self):
        if self.persistent_workers and self.num_workers > 0:
            if self._iterator is None:
                self._iterator = self._get_iterator()
            else:
                self._iterator._reset(self)
            return self._iterator
        return self._get_iterator()

    def __len__(self):
        if self._dataset_kind == _DatasetKind.Iterable:
            length = self._IterableDataset_len_called = len(self.dataset)
            if self.batch_size is not None:
                if self.drop_last:
                    length = length // self.batch_size
                else:
                    length = -(-length // self.batch_size)
            return length
        return len(self._index_sampler)


class _BaseDataLoaderIter:
    def __init__(self, loader):
        self._dataset = loader.dataset
        self._shared_seed = None
        self._dataset_kind = loader._dataset_kind
        self._IterableDataset_len_called = loader._IterableDataset_len_called
        self._auto_collation = loader._auto_collation
        self._drop_last = loader.drop_last
        self._index_sampler = loader._index_sampler
        self._num_workers = loader.num_workers
        if loader.pin_memory and loader.pin_memory_device:
            warnings.warn("pin_memory_device is deprecated, the current accelerator will be used as the device,"
                          f"ignore pin_memory_device='{loader.pin_memory_device}'.", stacklevel=2)
        if loader.pin_memory and not torch.accelerator.is_available():
            warnings.warn("'pin_memory' argument is set as true but no accelerator is found, "
                          "then device pinned memory won't be used.", stacklevel=2)
        self._pin_memory = loader.pin_memory and torch.accelerator.is_available()
        self._pin_memory_device = torch.accelerator.current_accelerator() if self._pin_memory else None
        self._timeout = loader.timeout
        self._collate_fn = loader.collate_fn
        self._sampler_iter = iter(self._index_sampler)
        # drawn after the sampler's iterator is made but before it runs, as in torch: with
        # shuffle=True and a generator, the seed draw comes before the permutation
        self._base_seed = random_int64(loader.generator)
        self._persistent_workers = loader.persistent_workers
        self._num_yielded = 0

    def __iter__(self):
        return self

    def _reset(self, loader, first_iter=False):
        self._sampler_iter = iter(self._index_sampler)
        self._num_yielded = 0
        self._IterableDataset_len_called = loader._IterableDataset_len_called

    def _next_index(self):
        return next(self._sampler_iter)

    def _next_data(self):
        raise NotImplementedError

    def __next__(self):
        if self._sampler_iter is None:
            self._reset()
        data = self._next_data()
        self._num_yielded += 1
        if (self._dataset_kind == _DatasetKind.Iterable and self._IterableDataset_len_called is not None
                and self._num_yielded > self._IterableDataset_len_called):
            msg = (f"Length of IterableDataset {self._dataset} was reported to be {self._IterableDataset_len_called}"
                   f"(when accessing len(dataloader)), but {self._num_yielded} samples have been fetched. ")
            if self._num_workers > 0:
                msg += ("For multiprocessing data-loading, this could be caused by not properly configuring the "
                        "IterableDataset replica at each worker. Please see "
                        "https://pytorch.org/docs/stable/data.html#torch.utils.data.IterableDataset for examples.")
            warnings.warn(msg, stacklevel=2)
        return data

    def __len__(self):
        return len(self._index_sampler)

    def __getstate__(self):
        raise NotImplementedError("{} cannot be pickled", self.__class__.__name__)


class _SingleProcessDataLoaderIter(_BaseDataLoaderIter):
    def __init__(self, loader):
        super().__init__(loader)
        if self._timeout != 0:
            raise AssertionError("_SingleProcessDataLoaderIter requires timeout == 0")
        if self._num_workers != 0:
            raise AssertionError("_SingleProcessDataLoaderIter requires num_workers == 0")
        self._dataset_fetcher = _DatasetKind.create_fetcher(
            self._dataset_kind, self._dataset, self._auto_collation, self._collate_fn, self._drop_last)

    def _next_data(self):
        index = self._next_index()
        data = self._dataset_fetcher.fetch(index)
        if self._pin_memory:
            data = _utils.pin_memory.pin_memory(data, self._pin_memory_device)
        return data


class _MultiProcessingDataLoaderIter(_BaseDataLoaderIter):
    """Worker processes fed through one index queue each, answering on one shared result queue;
    tasks go round-robin to the workers still active, ``prefetch_factor`` per worker ahead."""

    def __init__(self, loader):
        super().__init__(loader)
        if self._num_workers <= 0:
            raise AssertionError("num_workers must be greater than 0 for multiprocessing data loading")
        if loader.prefetch_factor <= 0:
            raise AssertionError("prefetch_factor must be greater than 0 for multiprocessing data loading")
        self._prefetch_factor = loader.prefetch_factor
        self._in_order = loader.in_order
        ctx = loader.multiprocessing_context or python_multiprocessing.get_context()
        self._worker_init_fn = loader.worker_init_fn
        self._worker_result_queue = ctx.Queue()
        self._workers_done_event = ctx.Event()
        self._index_queues = []
        self._workers = []
        for i in range(self._num_workers):
            iq = ctx.Queue()
            iq.cancel_join_thread()
            w = ctx.Process(
                target=_utils.worker._worker_loop,
                args=(self._dataset_kind, self._dataset, iq, self._worker_result_queue,
                      self._workers_done_event, self._auto_collation, self._collate_fn,
                      self._drop_last, self._base_seed, self._worker_init_fn, i,
                      self._num_workers, self._persistent_workers, self._shared_seed))
            w.daemon = True
            w.start()
            self._index_queues.append(iq)
            self._workers.append(w)
        self._data_queue = self._worker_result_queue
        self._shutdown = False
        self._reset(loader, first_iter=True)

    def _reset(self, loader, first_iter=False):
        super()._reset(loader, first_iter)
        self._send_idx = 0
        self._rcvd_idx = 0
        self._task_info = {}  # task idx -> (worker_id,) while pending, (worker_id, data) when ready
        self._tasks_outstanding = 0
        self._workers_status = [True] * self._num_workers
        self._worker_queue_idx_cycle = itertools.cycle(range(self._num_workers))
        if not first_iter:
            for iq in self._index_queues:
                iq.put(_ResumeIteration(self._shared_seed))
            waiting = self._num_workers
            while waiting > 0:
                ok, data = self._get_data_once()
                if not ok:
                    continue
                if isinstance(data[0], _ResumeIteration):
                    waiting -= 1
        for _ in range(self._prefetch_factor * self._num_workers):
            self._try_put_index()

    def _get_data_once(self):
        """One bounded wait on the result queue: (True, item) or (False, None); a worker that
        died meanwhile raises torch's RuntimeError."""
        try:
            return True, self._data_queue.get(timeout=_utils.MP_STATUS_CHECK_INTERVAL)
        except queue.Empty:
            dead = [w for i, w in enumerate(self._workers) if self._workers_status[i] and not w.is_alive()]
            if dead:
                pids = ", ".join(str(w.pid) for w in dead)
                self._shutdown_workers()
                raise RuntimeError(f"DataLoader worker (pid(s) {pids}) exited unexpectedly") from None
            return False, None

    def _get_data(self):
        if self._timeout > 0:
            try:
                return self._data_queue.get(timeout=self._timeout)
            except queue.Empty:
                dead = [w for i, w in enumerate(self._workers) if self._workers_status[i] and not w.is_alive()]
                if dead:
                    pids = ", ".join(str(w.pid) for w in dead)
                    self._shutdown_workers()
                    raise RuntimeError(f"DataLoader worker (pid(s) {pids}) exited unexpectedly") from None
                raise RuntimeError(f"DataLoader timed out after {self._timeout} seconds") from None
        while True:
            ok, data = self._get_data_once()
            if ok:
                return data

    def _next_data(self):
        while True:
            # skip tasks whose worker has stopped (iterable dataset exhausted) without answering
            while self._rcvd_idx < self._send_idx:
                info = self._task_info.get(self._rcvd_idx)
                if info:
                    worker_id = info[0]
                    if len(info) == 2 or self._workers_status[worker_id]:
                        break
                    del self._task_info[self._rcvd_idx]
                self._rcvd_idx += 1
            else:
                if not self._persistent_workers:
                    self._shutdown_workers()
                raise StopIteration

            if len(self._task_info[self._rcvd_idx]) == 2:
                data = self._task_info.pop(self._rcvd_idx)[1]
                self._rcvd_idx += 1
                return self._process_data(data)

            if self._shutdown or self._tasks_outstanding <= 0:
                raise AssertionError("DataLoader iterator has no task in flight")
            idx, data = self._get_data()
            self._tasks_outstanding -= 1
            if self._dataset_kind == _DatasetKind.Iterable and isinstance(data, _IterableDatasetStopIteration):
                if self._persistent_workers:
                    self._workers_status[data.worker_id] = False
                else:
                    self._mark_worker_as_unavailable(data.worker_id)
                self._try_put_index()
                continue
            if idx != self._rcvd_idx:
                if not self._in_order:
                    del self._task_info[idx]
                    return self._process_data(data)
                self._task_info[idx] += (data,)
            else:
                del self._task_info[idx]
                self._rcvd_idx += 1
                return self._process_data(data)

    def _try_put_index(self):
        if self._tasks_outstanding >= self._prefetch_factor * self._num_workers:
            raise AssertionError("Number of outstanding tasks exceeded the limit")
        try:
            index = self._next_index()
        except StopIteration:
            return
        for _ in range(self._num_workers):
            worker_id = next(self._worker_queue_idx_cycle)
            if self._workers_status[worker_id]:
                break
        else:
            return  # no worker left
        self._index_queues[worker_id].put((self._send_idx, index))
        self._task_info[self._send_idx] = (worker_id,)
        self._tasks_outstanding += 1
        self._send_idx += 1

    def _process_data(self, data):
        self._try_put_index()
        if isinstance(data, _utils.ExceptionWrapper):
            data.reraise()
        if self._pin_memory:
            data = _utils.pin_memory.pin_memory(data, self._pin_memory_device)
        return data

    def _mark_worker_as_unavailable(self, worker_id, shutdown=False):
        if not (self._workers_status[worker_id] or (self._persistent_workers and shutdown)):
            raise AssertionError("Worker status inconsistent when marking worker as unavailable")
        self._index_queues[worker_id].put(None)
        self._workers_status[worker_id] = False

    def _shutdown_workers(self):
        if getattr(self, "_shutdown", True):
            return
        self._shutdown = True
        try:
            self._workers_done_event.set()
            for worker_id in range(len(self._workers)):
                if self._persistent_workers or self._workers_status[worker_id]:
                    self._mark_worker_as_unavailable(worker_id, shutdown=True)
            for w in self._workers:
                w.join(timeout=_utils.MP_STATUS_CHECK_INTERVAL)
            for iq in self._index_queues:
                iq.cancel_join_thread()
                iq.close()
        finally:
            for w in self._workers:
                if w.is_alive():
                    w.terminate()
            self._worker_result_queue.cancel_join_thread()
            self._worker_result_queue.close()

    def __del__(self):
        self._shutdown_workers()
