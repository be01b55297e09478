"""``parameters_to_vector`` / ``vector_to_parameters``."""

__all__ = ["parameters_to_vector", "vector_to_parameters"]


def parameters_to_vector(parameters):
    """All parameters flattened and concatenated into one vector (differentiable)."""
    from ... import cat

    param_device = None
    vec = []
    for param in parameters:
        param_device = _check_param_device(param, param_device)
        vec.append(param.view(-1))
    return cat(vec)


def vector_to_parameters(vec, parameters):
    """Give each parameter, in order, its slice of ``vec`` as its data."""
    from ... import Tensor
    from ..modules.module import _typename

    if not isinstance(vec, Tensor):
        raise TypeError(f"expected torch.Tensor, but got: {_typename(vec)}")
    param_device = None
    pointer = 0
    for param in parameters:
        param_device = _check_param_device(param, param_device)
        num_param = param.numel()
        param.data = vec[pointer:pointer + num_param].view_as(param).data
        pointer += num_param


def _get_device_index(param):
    # torch's Tensor.get_device(): the CUDA ordinal, -1 on the CPU
    dev = param.device
    if dev.type == "cuda":
        return dev.index if dev.index is not None else 0
    return -1


def _check_param_device(param, old_param_device):
    if old_param_device is None:
        old_param_device = _get_device_index(param) if param.device.type == "cuda" else -1
    else:
        if param.device.type == "cuda":
            warn = _get_device_index(param) != old_param_device
        else:
            warn = old_param_device != -1
        if warn:
            raise TypeError("Found two parameters on different devices, this is currently not supported.")
    return old_param_device
