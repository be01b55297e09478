"""``torch.autocast`` (see ``ferrograd.amp``): per-thread automatic mixed precision. While it
is on for a device type, matrix products, ``linear``, convolutions and attention run in the
autocast dtype (bfloat16 by default on the CPU, float16 on CUDA) and the losses in float32,
as PyTorch's autocast lists; the state lives in the core (``ferrograd._C._autocast_*``)."""

import functools
import warnings

__all__ = ["autocast", "is_autocast_available", "is_autocast_enabled", "get_autocast_dtype", "set_autocast_enabled",
           "set_autocast_dtype"]

_DEFAULT = {"cpu": "bfloat16", "cuda": "float16"}
# how many autocast regions are open in any thread: the Python-level entry points only ask
# the core for this thread's state when one is (a zero test otherwise)
_open = [0]


def is_autocast_available(device_type):
    """Whether autocast can run on ``device_type`` (``cpu`` and ``cuda``)."""
    return device_type in ("cpu", "cuda")


def _dtype(name):
    import ferrograd

    return getattr(ferrograd, name)


_last_dtype = {}


def get_autocast_dtype(device_type):
    """The dtype autocast uses on ``device_type`` (the last one set, else the default)."""
    from .. import _C

    _check_device(device_type)
    cur = _C._autocast_get(device_type)
    return cur if cur is not None else _last_dtype.get(device_type, _dtype(_DEFAULT[device_type]))


def is_autocast_enabled(device_type="cuda"):
    """Whether autocast is on for ``device_type`` in this thread."""
    from .. import _C

    _check_device(device_type)
    return _C._autocast_get(device_type) is not None


def set_autocast_enabled(device_type, enabled=None):
    """Turn this thread's autocast for ``device_type`` on (in its current dtype) or off."""
    from .. import _C

    if enabled is None:  # the legacy one-argument form: CUDA
        device_type, enabled = "cuda", device_type
    _check_device(device_type)
    _C._autocast_set(device_type, get_autocast_dtype(device_type) if enabled else None)


def set_autocast_dtype(device_type, dtype):
    """The dtype autocast uses on ``device_type`` from now on."""
    from .. import _C

    _check_device(device_type)
    _last_dtype[device_type] = dtype
    if _C._autocast_get(device_type) is not None:
        _C._autocast_set(device_type, dtype)


_DEVICE_TYPES = ("cpu", "cuda", "ipu", "xpu", "mkldnn", "opengl", "opencl", "ideep", "hip", "ve", "fpga", "maia", "xla",
                 "lazy", "vulkan", "mps", "meta", "hpu", "mtia", "privateuseone")


def _check_device(device_type):
    if device_type not in ("cpu", "cuda"):
        if device_type not in _DEVICE_TYPES:
            raise RuntimeError(f"Invalid device string: '{device_type}'")
        raise RuntimeError(f"User specified an unsupported autocast device_type '{device_type}'")


def _lower(*ts):
    """Operands of a lower-precision op (None passes through)."""
    from .. import _C

    return tuple(None if t is None else _C._autocast_cast(t) for t in ts)


def _full(*ts):
    """Operands of a float32 op (None and non-tensors pass through)."""
    from .. import _C, Tensor

    return tuple(_C._autocast_cast(t, True) if isinstance(t, Tensor) else t for t in ts)


class autocast:
    """``torch.autocast(device_type, dtype=None, enabled=True, cache_enabled=None)``: a
    context manager (and decorator) that turns autocast on or off for ``device_type`` in this
    thread and restores the previous state on exit."""

    def __init__(self, device_type, dtype=None, enabled=True, cache_enabled=None):
        if not isinstance(device_type, str):
            raise ValueError(f"Expected `device_type` of type `str`, got: `{type(device_type)}`")
        self.device = device_type
        if device_type not in ("cpu", "cuda"):
            # another valid device type: nothing of it runs here, so the region changes nothing
            try:
                _check_device(device_type)
            except RuntimeError as e:
                if str(e).startswith("Invalid device string"):
                    raise
            self.fast_dtype, self._enabled, self._cache_enabled = dtype, False, cache_enabled
            return
        self.fast_dtype = dtype if dtype is not None else get_autocast_dtype(device_type)
        self._cache_enabled = True if cache_enabled is None else cache_enabled
        self._enabled = enabled
        if enabled and device_type == "cuda":
            from .. import cuda

            if not cuda.is_available():
                warnings.warn("CUDA is not available or torch_xla is imported. Disabling autocast.", UserWarning, stacklevel=2)
                self._enabled = False
        if self._enabled and device_type == "cpu" and str(self.fast_dtype) not in ("torch.bfloat16", "torch.float16"):
            warnings.warn("In CPU autocast, but the target dtype is not supported. Disabling autocast.\n"
                          "CPU Autocast only supports dtypes of torch.bfloat16, torch.float16 currently.", stacklevel=2)
            self._enabled = False
        if self._enabled and device_type == "cuda" and str(self.fast_dtype) not in ("torch.bfloat16", "torch.float16"):
            raise RuntimeError("In CUDA autocast, but the target dtype is not supported. Disabling autocast.\n"
                               "CUDA Autocast only supports dtypes of torch.float16, torch.bfloat16 currently.")

    def __enter__(self):
        from .. import _C

        if self.device not in ("cpu", "cuda"):
            self._prev, self._prev_last = None, None
            _open[0] += 1
            return self
        self._prev = _C._autocast_set(self.device, self.fast_dtype if self._enabled else None)
        self._prev_last = _last_dtype.get(self.device)
        if self._enabled:
            _last_dtype[self.device] = self.fast_dtype
        _open[0] += 1
        return self

    def __exit__(self, exc_type, exc_val, exc_tb):
        from .. import _C

        _open[0] -= 1
        if self.device not in ("cpu", "cuda"):
            return False
        _C._autocast_set(self.device, self._prev)
        if self._prev_last is None:
            _last_dtype.pop(self.device, None)
        else:
            _last_dtype[self.device] = self._prev_last
        return False

    def __call__(self, func):
        @functools.wraps(func)
        def decorate(*args, **kwargs):
            with self:
                return func(*args, **kwargs)

        return decorate
