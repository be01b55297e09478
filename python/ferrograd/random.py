"""``torch.random``: the default CPU generator's seed and state, and ``fork_rng``."""

import contextlib
import warnings

__all__ = ["set_rng_state", "get_rng_state", "manual_seed", "seed", "initial_seed", "fork_rng",
           "thread_safe_generator"]

# one definition of each, in the package (this module is imported after they exist)
from . import get_rng_state, initial_seed, manual_seed, seed, set_rng_state  # noqa: E402,F401


_fork_rng_warned_already = False


@contextlib.contextmanager
def fork_rng(devices=None, enabled=True, _caller="fork_rng", _devices_kw="devices", device_type="cuda"):
    """Fork the RNG: on exit, the default CPU generator's state (and the CUDA devices' states,
    which here are the same CPU stream) is restored to what it was on entry."""
    if not enabled:
        yield
        return
    device_type = str(device_type)
    if device_type == "meta":
        yield
        return
    from . import cuda

    if devices is None and device_type == "cuda" and cuda.is_available():
        num = cuda.device_count()
        global _fork_rng_warned_already
        if num > 1 and not _fork_rng_warned_already:
            warnings.warn(
                f"CUDA reports that you have {num} available devices, and you have used {_caller} "
                f"without explicitly specifying which devices are being used. For safety, we "
                f"initialize *every* CUDA device by default, which can be quite slow if you have a "
                f"lot of CUDAs. If you know that you are only making use of a few CUDA devices, set "
                f"the environment variable CUDA_VISIBLE_DEVICES or the '{_devices_kw}' keyword "
                f"argument of {_caller} with the set of devices you are actually using.")
            _fork_rng_warned_already = True
    state = get_rng_state()
    try:
        yield
    finally:
        set_rng_state(state)


def thread_safe_generator():
    """The generator for random numbers in a DataLoader thread worker, ``None`` elsewhere (the
    global generator is used).  ferrograd's DataLoader workers are processes, each with its
    own seeded global generator, so this is always ``None``, as in PyTorch's main process and
    process workers."""
    return None
