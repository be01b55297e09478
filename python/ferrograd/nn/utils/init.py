"""``torch.nn.utils.skip_init``: a module whose parameters and buffers are left
uninitialized."""

import inspect

__all__ = ["skip_init"]


def skip_init(module_cls, *args, **kwargs):
    """Instantiate ``module_cls(*args, **kwargs)`` with its parameters and buffers left
    uninitialized (empty storage on ``device``, default ``"cpu"``), for code that initializes
    them itself. The class must take a ``device`` argument.

    Differences from PyTorch: ferrograd has no ``meta`` device, so the module is built on the
    CPU (running its initialization once) and then moved with ``to_empty``: the result is the
    same, the saving of the skipped initialization is not."""
    from ..modules.module import Module

    if not issubclass(module_cls, Module):
        raise RuntimeError(f"Expected a Module; got {module_cls}")
    if "device" not in inspect.signature(module_cls).parameters:
        raise RuntimeError("Module must support a 'device' arg to skip initialization")

    final_device = kwargs.pop("device", "cpu")
    kwargs["device"] = "cpu"
    return module_cls(*args, **kwargs).to_empty(device=final_device)
