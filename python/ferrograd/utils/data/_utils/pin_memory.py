"""``pin_memory=True`` support (``torch.utils.data._utils.pin_memory``).

ferrograd has no page-locked host allocator: pinning a batch is a no-op on CPU tensors (the
batch is returned as it is, with the same structure), which is what torch does when no
accelerator is available. The DataLoader warns as torch does in that case."""

import collections

import ferrograd as torch


def pin_memory(data, device=None):
    """Return ``data`` with every tensor "pinned": CPU tensors are returned unchanged (no pinned
    allocator exists), containers are rebuilt around their pinned members as in torch."""
    if isinstance(data, torch.Tensor):
        return data
    if isinstance(data, (str, bytes)):
        return data
    if isinstance(data, collections.abc.Mapping):
        try:
            if isinstance(data, collections.abc.MutableMapping):
                import copy

                out = copy.copy(data)
                out.update({k: pin_memory(v, device) for k, v in data.items()})
                return out
            return type(data)({k: pin_memory(v, device) for k, v in data.items()})
        except TypeError:
            return {k: pin_memory(v, device) for k, v in data.items()}
    if isinstance(data, tuple) and hasattr(data, "_fields"):
        return type(data)(*(pin_memory(v, device) for v in data))
    if isinstance(data, tuple):
        return [pin_memory(v, device) for v in data]
    if isinstance(data, collections.abc.Sequence):
        try:
            if isinstance(data, collections.abc.MutableSequence):
                import copy

                out = copy.copy(data)
                for i, v in enumerate(data):
                    out[i] = pin_memory(v, device)
                return out
            return type(data)([pin_memory(v, device) for v in data])
        except TypeError:
            return [pin_memory(v, device) for v in data]
    if hasattr(data, "pin_memory"):
        return data.pin_memory()
    return data
