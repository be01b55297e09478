"""``torch.accelerator``: the device-generic API current PyTorch examples start with
(``device = torch.accelerator.current_accelerator() if torch.accelerator.is_available() else
"cpu"``). ferrograd's accelerator is CUDA."""

from . import cuda as _cuda


def is_available():
    return _cuda.is_available()


def device_count():
    return _cuda.device_count()


def current_accelerator(check_available=False):
    """``device(type='cuda')`` when a GPU is usable, else None."""
    from ._helpers import device

    if _cuda.is_available():
        return device("cuda")
    return None


def current_device_index():
    return _cuda.current_device()


current_device_idx = current_device_index


def set_device_index(device):
    _cuda.set_device(device)


set_device_idx = set_device_index


def synchronize(device=None):
    _cuda.synchronize(device)
