"""``ferrograd.cuda``: device queries answered by the core's CUDA backend; without a usable
GPU ``is_available()`` is False and CUDA calls raise PyTorch's errors."""

from . import _C


class OutOfMemoryError(RuntimeError):
    """``torch.cuda.OutOfMemoryError``: the device allocator could not satisfy a request."""


def is_available():
    return _C._cuda_device_count() > 0


def device_count():
    return _C._cuda_device_count()


def _lazy_init():
    # raises PyTorch's error when no CUDA device can be used
    _C._cuda_check()


def synchronize(device=None):
    _lazy_init()


def manual_seed(seed):
    pass


def manual_seed_all(seed):
    pass


def current_device():
    _lazy_init()


def _legacy(name, dt):
    import ferrograd

    return ferrograd._legacy(name, dt, is_cuda=True)


def __getattr__(name):
    import ferrograd

    table = {"FloatTensor": ferrograd.float32, "DoubleTensor": ferrograd.float64, "LongTensor": ferrograd.int64,
             "IntTensor": ferrograd.int32, "BoolTensor": ferrograd.bool, "HalfTensor": ferrograd.float16}
    if name in table:
        return _legacy(name, table[name])
    raise AttributeError(name)
