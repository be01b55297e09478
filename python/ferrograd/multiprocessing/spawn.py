"""``torch.multiprocessing.spawn``: run ``fn(i, *args)`` in ``nprocs`` processes and join
them, raising in the parent what a child raised."""

import multiprocessing
import signal
import traceback

__all__ = ["ProcessContext", "ProcessExitedException", "ProcessRaisedException", "spawn", "start_processes"]


class ProcessException(Exception):
    """A child process failed."""

    def __init__(self, msg, error_index, pid):
        super().__init__(msg)
        self.msg = msg
        self.error_index = error_index
        self.pid = pid

    def __reduce__(self):
        return type(self), (self.msg, self.error_index, self.pid)


class ProcessRaisedException(ProcessException):
    """A child process raised an exception (its traceback is the message)."""


class ProcessExitedException(ProcessException):
    """A child process exited with a non-zero code or a signal."""

    def __init__(self, msg, error_index, error_pid, exit_code, signal_name=None):
        super().__init__(msg, error_index, error_pid)
        self.exit_code = exit_code
        self.signal_name = signal_name

    def __reduce__(self):
        return type(self), (self.msg, self.error_index, self.pid, self.exit_code, self.signal_name)


def _wrap(fn, i, args, error_queue):
    try:
        fn(i, *args)
    except KeyboardInterrupt:
        pass
    except Exception:
        error_queue.put(traceback.format_exc())
        raise SystemExit(1)


class ProcessContext:
    """The processes of one ``start_processes`` call; ``join()`` waits for them."""

    def __init__(self, processes, error_queues):
        self.error_queues = error_queues
        self.processes = processes
        self.sentinels = {p.sentinel: i for i, p in enumerate(processes)}

    def pids(self):
        """The children's process ids."""
        return [int(p.pid) for p in self.processes]

    def join(self, timeout=None):
        """Wait for the children (up to ``timeout`` seconds): True when all have exited
        cleanly, False while some still run; the first failure terminates the others and
        raises ``ProcessRaisedException`` / ``ProcessExitedException``."""
        if len(self.sentinels) == 0:
            return True
        ready = multiprocessing.connection.wait(self.sentinels.keys(), timeout=timeout)
        failed = None
        for sentinel in ready:
            index = self.sentinels.pop(sentinel)
            process = self.processes[index]
            process.join()
            if process.exitcode != 0:
                failed = index
                break
        if failed is None:
            return len(self.sentinels) == 0
        for p in self.processes:
            if p.is_alive():
                p.terminate()
            p.join()
        pid = self.processes[failed].pid
        if self.error_queues[failed].empty():
            code = self.processes[failed].exitcode
            if code < 0:
                name = signal.Signals(-code).name
                raise ProcessExitedException(f"process {failed} terminated with signal {name}", failed, pid, code, name)
            raise ProcessExitedException(f"process {failed} terminated with exit code {code}", failed, pid, code)
        original = self.error_queues[failed].get()
        msg = f"\n\n-- Process {failed} terminated with the following error:\n" + original
        raise ProcessRaisedException(msg, failed, pid)


def start_processes(fn, args=(), nprocs=1, join=True, daemon=False, start_method="spawn"):
    """Start ``nprocs`` processes running ``fn(i, *args)`` with the given start method; join
    them when ``join`` (else return their ``ProcessContext``)."""
    mp = multiprocessing.get_context(start_method)
    error_queues, processes = [], []
    for i in range(nprocs):
        q = mp.SimpleQueue()
        p = mp.Process(target=_wrap, args=(fn, i, args, q), daemon=daemon)
        p.start()
        error_queues.append(q)
        processes.append(p)
    context = ProcessContext(processes, error_queues)
    if not join:
        return context
    while not context.join():
        pass
    return None


def spawn(fn, args=(), nprocs=1, join=True, daemon=False, start_method="spawn"):
    """``start_processes`` with the ``spawn`` start method (PyTorch's ``mp.spawn``)."""
    return start_processes(fn, args, nprocs, join, daemon, start_method)
