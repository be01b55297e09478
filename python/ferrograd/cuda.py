"""``torch.cuda``: device queries, memory statistics, synchronisation, events and the
default stream, answered by the core's CUDA backend. Without a usable GPU ``is_available()``
is False, ``device_count()`` is 0, and every call that needs a device raises PyTorch's error
("Found no NVIDIA driver on your system..." from a CUDA build, "Torch not compiled with CUDA
enabled" from a CPU-only build)."""

import os as _os
import time as _time

from . import _C


def _nvidia_lib_dirs():
    """The library folders of the NVIDIA wheels (``nvidia/cu13/lib``, ``nvidia/cublas/lib``,
    ...), where PyTorch's cuBLAS lives: the core looks for cuBLAS there before the loader's
    path (``$FERROGRAD_CUBLAS_DIRS``; ``FERROGRAD_CUBLAS=0`` keeps matmul on the PTX kernel)."""
    import importlib.util

    try:
        spec = importlib.util.find_spec("nvidia")
    except (ImportError, ValueError):
        return []
    dirs = []
    for base in (spec.submodule_search_locations or []) if spec else []:
        for sub in ("cu13/lib", "cublas/lib", "cu12/lib"):
            d = _os.path.join(base, sub)
            if _os.path.isdir(d):
                dirs.append(d)
    return dirs


if "FERROGRAD_CUBLAS_DIRS" not in _os.environ and _C._cuda_device_count() > 0:
    _os.environ["FERROGRAD_CUBLAS_DIRS"] = _os.pathsep.join(_nvidia_lib_dirs())


def _matmul_backend():
    """Which GEMM matmul runs on CUDA tensors: ``"cublas (<library>)"`` or ``"ptx"``."""
    return _C._cuda_matmul_backend()


class OutOfMemoryError(RuntimeError):
    """``torch.cuda.OutOfMemoryError``: the device allocator could not satisfy a request."""


def is_available():
    return _C._cuda_device_count() > 0


def device_count():
    return _C._cuda_device_count()


def is_initialized():
    return is_available()


def init():
    _lazy_init()


def _lazy_init():
    # raises PyTorch's error when no CUDA device can be used
    _C._cuda_check()


def _index(device):
    """The ordinal a ``device=`` argument of the torch.cuda functions names."""
    from ._helpers import device as _device

    if device is None:
        return current_device()
    if isinstance(device, int):
        return device
    d = device if isinstance(device, _device) else _device(device)
    if d.type != "cuda":
        raise ValueError(f"Expected a cuda device, but got: {d}")
    return current_device() if d.index is None else d.index


def current_device():
    return _C._cuda_current_device()


def set_device(device):
    _C._cuda_set_device(_index(device))


class device:
    """``with torch.cuda.device(i):`` — make ``i`` the current device inside the block."""

    def __init__(self, device):
        self.idx = _index(device) if device is not None else -1
        self.prev = -1

    def __enter__(self):
        if self.idx >= 0:
            self.prev = current_device()
            set_device(self.idx)

    def __exit__(self, *exc):
        if self.prev >= 0:
            set_device(self.prev)
        return False


def get_device_name(device=None):
    return _C._cuda_device_name(_index(device))


def synchronize(device=None):
    _C._cuda_synchronize(_index(device))


def manual_seed(seed):
    """As in PyTorch, safe without CUDA. Random tensors on CUDA devices are drawn from the
    global generator (seeded by ``torch.manual_seed``), so there is no separate CUDA stream
    to seed."""
    _ = int(seed)


def manual_seed_all(seed):
    manual_seed(seed)


def memory_allocated(device=None):
    return _C._cuda_memory_stats(_index(device))[0]


def max_memory_allocated(device=None):
    return _C._cuda_memory_stats(_index(device))[1]


def memory_reserved(device=None):
    return _C._cuda_memory_stats(_index(device))[2]


def max_memory_reserved(device=None):
    return _C._cuda_memory_stats(_index(device))[3]


def reset_peak_memory_stats(device=None):
    _C._cuda_reset_peak_memory_stats(_index(device))


def empty_cache():
    if is_available():
        _C._cuda_empty_cache(current_device())


class Stream:
    """The device's stream. ferrograd orders all work of a device on its default stream, so
    this is that stream (PyTorch's default stream); new streams are not supported."""

    def __init__(self, device=None, priority=0, **kwargs):
        self.device_index = _index(device)
        if kwargs.get("stream_id") not in (None, 0) or priority != 0:
            raise NotImplementedError("ferrograd runs each device's work on its default stream; creating other streams is not supported")

    def synchronize(self):
        synchronize(self.device_index)

    def wait_stream(self, stream):
        # one stream per device: work is already ordered
        _lazy_init()

    def wait_event(self, event):
        event.synchronize()

    def record_event(self, event=None):
        event = event or Event()
        event.record(self)
        return event

    def query(self):
        synchronize(self.device_index)
        return True

    def __eq__(self, other):
        return isinstance(other, Stream) and other.device_index == self.device_index

    def __hash__(self):
        return hash(("cuda-stream", self.device_index))

    def __repr__(self):
        return f"<torch.cuda.Stream device=cuda:{self.device_index} cuda_stream=0x0>"


def current_stream(device=None):
    return Stream(device)


def default_stream(device=None):
    return Stream(device)


class Event:
    """``torch.cuda.Event``. ``record()`` waits for the device's stream and notes the host
    clock, so ``elapsed_time`` measures the device work between two records (in ms)."""

    def __init__(self, enable_timing=False, blocking=False, interprocess=False):
        self.enable_timing = enable_timing
        self._t = None

    def record(self, stream=None):
        synchronize(stream.device_index if stream is not None else None)
        self._t = _time.perf_counter()

    def synchronize(self):
        if self._t is not None:
            synchronize()

    def wait(self, stream=None):
        self.synchronize()

    def query(self):
        return True

    def elapsed_time(self, end_event):
        if not (self.enable_timing and end_event.enable_timing):
            raise RuntimeError("Both events must be created with argument 'enable_timing=True'.")
        if self._t is None or end_event._t is None:
            raise RuntimeError("Both events must be recorded before calculating elapsed time.")
        return (end_event._t - self._t) * 1000.0


def _legacy(name, dt):
    import ferrograd

    return ferrograd._legacy(name, dt, is_cuda=True)


def __getattr__(name):
    import ferrograd

    table = {"FloatTensor": ferrograd.float32, "DoubleTensor": ferrograd.float64, "LongTensor": ferrograd.int64,
             "IntTensor": ferrograd.int32, "BoolTensor": ferrograd.bool, "HalfTensor": ferrograd.float16}
    if name in table:
        return _legacy(name, table[name])
    if name == "amp":
        from .amp import _cuda_amp

        return _cuda_amp
    raise AttributeError(name)
