"""Worker processes of the DataLoader (``torch.utils.data._utils.worker``): the loop each worker
runs, the per-worker seeding torch does, and ``get_worker_info()``."""

import os
import queue
import random
from dataclasses import dataclass

_worker_info = None


class ManagerWatchdog:
    """Tells a worker whether the process that started it is still alive."""

    def __init__(self):
        self.manager_pid = os.getppid()
        self.manager_dead = False

    def is_alive(self):
        if not self.manager_dead:
            self.manager_dead = os.getppid() != self.manager_pid
        return not self.manager_dead


@dataclass(frozen=True)
class WorkerInfo:
    """What ``get_worker_info()`` returns inside a worker: its ``id`` (0 .. num_workers - 1),
    ``num_workers``, the ``seed`` it was seeded with (``base_seed + id``) and its own copy of the
    ``dataset``."""

    id: int
    num_workers: int
    seed: int
    dataset: object
    rng: object = None
    worker_method: str = "multiprocessing"


def get_worker_info():
    """Information about the current DataLoader worker process (a :class:`WorkerInfo`), or
    ``None`` in the main process."""
    return _worker_info


@dataclass(frozen=True)
class _IterableDatasetStopIteration:
    """Sent by a worker whose iterable dataset is exhausted."""

    worker_id: int


@dataclass(frozen=True)
class _ResumeIteration:
    """Sent to persistent workers at the start of each new epoch."""

    seed: object = None


_M32 = 0xFFFFFFFF


def _generate_state(base_seed, worker_id):
    """The four 32-bit words torch seeds NumPy's global generator with in worker ``worker_id``:
    NumPy's SeedSequence mixing of ``[worker_id, low 32 bits, high 32 bits, 0]``, so each worker
    gets an independent NumPy stream derived from ``base_seed`` (same values as torch)."""
    mult_a = 0x931E8875
    const = [0x43B0D7E5]

    def hashmix(v):
        v = (v ^ const[0]) & _M32
        const[0] = (const[0] * mult_a) & _M32
        v = (v * const[0]) & _M32
        return (v ^ (v >> 16)) & _M32

    def mix(x, y):
        r = ((0xCA01F9DD * x) - (0x4973F715 * y)) & _M32
        return (r ^ (r >> 16)) & _M32

    pool = [hashmix(e) for e in (worker_id, base_seed & _M32, base_seed >> 32, 0)]
    for src in range(4):
        for dst in range(4):
            if src != dst:
                pool[dst] = mix(pool[dst], hashmix(pool[src]))
    out = []
    const_b = 0x8B51F9DD
    for v in pool:
        v = (v ^ const_b) & _M32
        const_b = (const_b * 0x58F38DED) & _M32
        v = (v * const_b) & _M32
        out.append((v ^ (v >> 16)) & _M32)
    return out


def _seed_worker(base_seed, worker_id):
    """Seed Python's, ferrograd's and NumPy's global generators as torch's worker does;
    returns the worker's seed."""
    import ferrograd as torch

    seed = base_seed + worker_id
    random.seed(seed)
    torch.manual_seed(seed)
    try:
        import numpy as np
    except ImportError:  # pragma: no cover
        return seed
    np.random.seed(_generate_state(base_seed, worker_id))
    return seed


def _worker_loop(dataset_kind, dataset, index_queue, data_queue, done_event, auto_collation,
                 collate_fn, drop_last, base_seed, init_fn, worker_id, num_workers,
                 persistent_workers, shared_seed):
    """Body of one worker process: seed, run ``worker_init_fn``, then answer ``(idx, index)``
    requests with ``(idx, data)`` until told to stop (``None``) or the parent dies."""
    from . import ExceptionWrapper, MP_STATUS_CHECK_INTERVAL
    from ..dataloader import _DatasetKind
    import ferrograd as torch

    global _worker_info
    try:
        torch.set_num_threads(1)
        seed = _seed_worker(base_seed, worker_id)
        _worker_info = WorkerInfo(id=worker_id, num_workers=num_workers, seed=seed, dataset=dataset)

        init_error = None
        fetcher = None
        try:
            if init_fn is not None:
                init_fn(worker_id)
            fetcher = _DatasetKind.create_fetcher(dataset_kind, dataset, auto_collation, collate_fn, drop_last)
        except Exception:
            init_error = ExceptionWrapper(where=f"in DataLoader worker process {worker_id}")

        exhausted = False
        watchdog = ManagerWatchdog()
        while watchdog.is_alive():
            try:
                msg = index_queue.get(timeout=MP_STATUS_CHECK_INTERVAL)
            except queue.Empty:
                continue
            if isinstance(msg, _ResumeIteration):
                data_queue.put((msg, None))
                exhausted = False
                fetcher = _DatasetKind.create_fetcher(dataset_kind, dataset, auto_collation, collate_fn, drop_last)
                continue
            if msg is None:
                break
            if done_event.is_set() or exhausted:
                continue
            idx, index = msg
            if init_error is not None:
                data, init_error = init_error, None
            else:
                try:
                    data = fetcher.fetch(index)
                except Exception as e:
                    if isinstance(e, StopIteration) and dataset_kind == _DatasetKind.Iterable:
                        data = _IterableDatasetStopIteration(worker_id)
                        exhausted = True
                    else:
                        data = ExceptionWrapper(where=f"in DataLoader worker process {worker_id}")
            data_queue.put((idx, data))
            del data, idx, index, msg
    except KeyboardInterrupt:
        pass
    if done_event.is_set():
        data_queue.cancel_join_thread()
        data_queue.close()
