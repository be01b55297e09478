"""Gradient clipping: ``clip_grad_norm_`` (by the total norm of all gradients) and
``clip_grad_value_`` (elementwise)."""

import functools
import types
import warnings

from ...autograd.grad_mode import no_grad

__all__ = ["clip_grad_norm", "clip_grad_norm_", "clip_grad_value_"]


def _no_grad(func):
    @functools.wraps(func)
    def _no_grad_wrapper(*args, **kwargs):
        with no_grad():
            return func(*args, **kwargs)

    return _no_grad_wrapper


def _group_by_device_and_dtype(tensors):
    """{(device, dtype): [tensors]} in first-seen order (torch groups the same way)."""
    groups = {}
    for t in tensors:
        groups.setdefault((str(t.device), t.dtype), []).append(t)
    return groups


@_no_grad
def _get_total_norm(tensors, norm_type=2.0, error_if_nonfinite=False, foreach=None):
    """The ``norm_type`` norm of all ``tensors`` taken as one vector (the norm of the
    per-tensor norms). ``foreach`` picks torch's fused kernels there; the CPU and CUDA devices
    both support either choice and the per-tensor loop here computes the same values."""
    import ferrograd as torch

    if isinstance(tensors, torch.Tensor):
        tensors = [tensors]
    else:
        tensors = list(tensors)
    norm_type = float(norm_type)
    if len(tensors) == 0:
        return torch.tensor(0.0)
    first_device = tensors[0].device
    norms = []
    for (device, _), device_tensors in _group_by_device_and_dtype(tensors).items():
        norms.extend(g.norm(norm_type) for g in device_tensors)
    total_norm = torch.stack([norm.to(first_device) for norm in norms]).norm(norm_type)
    if error_if_nonfinite and torch.logical_or(total_norm.isnan(), total_norm.isinf()):
        raise RuntimeError(
            f"The total norm of order {norm_type} for gradients from "
            "`parameters` is non-finite, so it cannot be clipped. To disable "
            "this error and scale the gradients by the non-finite norm anyway, "
            "set `error_if_nonfinite=False`")
    return total_norm


@_no_grad
def _clip_grads_with_norm_(parameters, max_norm, total_norm, foreach=None):
    """Scale the gradients of ``parameters`` by ``min(1, max_norm / (total_norm + 1e-6))``."""
    import ferrograd as torch

    if isinstance(parameters, torch.Tensor):
        parameters = [parameters]
    grads = [p.grad for p in parameters if p.grad is not None]
    max_norm = float(max_norm)
    if len(grads) == 0:
        return
    clip_coef = max_norm / (total_norm + 1e-6)
    clip_coef_clamped = torch.clamp(clip_coef, max=1.0)
    for (device, _), device_grads in _group_by_device_and_dtype(grads).items():
        coef = clip_coef_clamped.to(device)
        for g in device_grads:
            g.mul_(coef)


@_no_grad
def clip_grad_norm_(parameters, max_norm, norm_type=2.0, error_if_nonfinite=False, foreach=None):
    """Clip the gradients of ``parameters`` in place so that their total ``norm_type`` norm
    is at most ``max_norm``; returns the total norm before clipping (a tensor)."""
    import ferrograd as torch

    if isinstance(parameters, torch.Tensor):
        parameters = [parameters]
    else:
        is_generator = isinstance(parameters, types.GeneratorType)
        parameters = list(parameters)
        if is_generator and len(parameters) == 0:
            warnings.warn("`parameters` is an empty generator, no gradient clipping will occur.",
                          stacklevel=3)
    grads = [p.grad for p in parameters if p.grad is not None]
    total_norm = _get_total_norm(grads, norm_type, error_if_nonfinite, foreach)
    _clip_grads_with_norm_(parameters, max_norm, total_norm, foreach)
    return total_norm


def clip_grad_norm(parameters, max_norm, norm_type=2.0, error_if_nonfinite=False, foreach=None):
    """Deprecated alias of :func:`clip_grad_norm_`."""
    warnings.warn("`torch.nn.utils.clip_grad_norm` is now deprecated "
                  "in favor of `torch.nn.utils.clip_grad_norm_`.", FutureWarning, stacklevel=2)
    return clip_grad_norm_(parameters, max_norm, norm_type, error_if_nonfinite, foreach)


@_no_grad
def clip_grad_value_(parameters, clip_value, foreach=None):
    """Clamp every gradient of ``parameters`` to [-clip_value, clip_value] in place."""
    import ferrograd as torch

    if isinstance(parameters, torch.Tensor):
        parameters = [parameters]
    clip_value = float(clip_value)
    grads = [p.grad for p in parameters if p.grad is not None]
    for (device, _), device_grads in _group_by_device_and_dtype(grads).items():
        for grad in device_grads:
            grad.clamp_(min=-clip_value, max=clip_value)
