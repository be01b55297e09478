"""``torch.nn.utils.convert_conv2d_weight_memory_format`` /
``convert_conv3d_weight_memory_format``: give the weights of the (transposed) convolutions
of a module tree a memory format (``torch.channels_last`` for example)."""

import ferrograd as torch

__all__ = ["convert_conv2d_weight_memory_format", "convert_conv3d_weight_memory_format"]


def _convert(module, memory_format, kinds, recurse):
    if isinstance(module, kinds):
        # PyTorch also calls resize_(same size, memory_format): a no-op on this clone
        module.weight.data = module.weight.detach().clone(memory_format=memory_format)
    for child in module.children():
        recurse(child, memory_format)
    return module


def convert_conv2d_weight_memory_format(module, memory_format):
    """Convert the weight of every ``Conv2d`` / ``ConvTranspose2d`` in ``module`` (and its
    descendants) to ``memory_format``, in place. Returns ``module``."""
    return _convert(module, memory_format, (torch.nn.Conv2d, torch.nn.ConvTranspose2d),
                    convert_conv2d_weight_memory_format)


def convert_conv3d_weight_memory_format(module, memory_format):
    """Convert the weight of every ``Conv3d`` / ``ConvTranspose3d`` in ``module`` (and its
    descendants) to ``memory_format``, in place. Returns ``module``."""
    kinds = tuple(k for k in (getattr(torch.nn, "Conv3d", None), getattr(torch.nn, "ConvTranspose3d", None))
                  if k is not None)
    return _convert(module, memory_format, kinds, convert_conv3d_weight_memory_format)
