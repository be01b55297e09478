"""``DataParallel`` (``torch.nn.parallel.data_parallel``): with no CUDA device (or one) it runs the
wrapped module itself, as PyTorch does."""

from ..modules.module import Module

__all__ = ["DataParallel"]


def _to_device(obj, device):
    if hasattr(obj, "grad_fn"):
        return obj.to(device)
    if isinstance(obj, tuple):
        return tuple(_to_device(o, device) for o in obj)
    if isinstance(obj, list):
        return [_to_device(o, device) for o in obj]
    if isinstance(obj, dict):
        return {k: _to_device(v, device) for k, v in obj.items()}
    return obj


class DataParallel(Module):
    """Implements data parallelism at the module level. Without CUDA devices it just calls the
    module (as PyTorch); on one CUDA device it moves the module and the inputs there. Splitting a
    batch over several GPUs is not supported (NotImplementedError: use DistributedDataParallel)."""

    def __init__(self, module, device_ids=None, output_device=None, dim=0):
        from ... import cuda, device

        super().__init__()
        if not cuda.is_available():
            self.module = module
            self.device_ids = []
            return
        if device_ids is None:
            device_ids = list(range(cuda.device_count()))
        if not device_ids:
            raise RuntimeError("no available devices were found")
        ids = [d.index if hasattr(d, "index") else int(d) for d in device_ids]
        if len(ids) > 1:
            raise NotImplementedError("DataParallel over several GPUs is not supported by ferrograd; use "
                                      "DistributedDataParallel")
        if output_device is None:
            output_device = ids[0]
        self.dim = dim
        self.module = module
        self.device_ids = ids
        self.output_device = output_device.index if hasattr(output_device, "index") else int(output_device)
        self.src_device_obj = device("cuda", ids[0])
        self.module.to(self.src_device_obj)

    def forward(self, *inputs, **kwargs):
        """Run the wrapped module (on its device)."""
        if not self.device_ids:
            return self.module(*inputs, **kwargs)
        for t in list(self.module.parameters()) + list(self.module.buffers()):
            if t.device != self.src_device_obj:
                raise RuntimeError(f"module must have its parameters and buffers on device {self.src_device_obj} "
                                   f"(device_ids[0]) but found one of them on device: {t.device}")
        return self.module(*_to_device(inputs, self.src_device_obj), **_to_device(kwargs, self.src_device_obj))
