"""Stochastic gradient descent (optionally with momentum), as ``torch.optim.SGD``."""

import ferrograd as torch

from .optimizer import (
    Optimizer,
    _add,
    _add_,
    _device_dtype_check_for_fused,
    _scalar,
    _to_scalar,
    _use_grad_for_differentiable,
)

__all__ = ["SGD", "sgd"]


class SGD(Optimizer):
    r"""Implements stochastic gradient descent (optionally with momentum).

    Args:
        params (iterable): parameters or named parameters to optimize, or parameter groups
        lr (float, Tensor, optional): learning rate (default: 1e-3)
        momentum (float, optional): momentum factor (default: 0)
        dampening (float, optional): dampening for momentum (default: 0)
        weight_decay (float, optional): weight decay (L2 penalty) (default: 0)
        nesterov (bool, optional): enables Nesterov momentum (default: False)
        maximize (bool, optional): maximize the objective (default: False)
        foreach (bool, optional): whether the foreach implementation is used (default: None)
        differentiable (bool, optional): whether autograd records the step (default: False)
        fused (bool, optional): whether the fused implementation is used (default: None)
    """

    def __init__(
        self,
        params,
        lr=1e-3,
        momentum=0,
        dampening=0,
        weight_decay=0,
        nesterov=False,
        *,
        maximize=False,
        foreach=None,
        differentiable=False,
        fused=None,
    ):
        if isinstance(lr, torch.Tensor) and lr.numel() != 1:
            raise ValueError("Tensor lr must be 1-element")
        if lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if momentum < 0.0:
            raise ValueError(f"Invalid momentum value: {momentum}")
        if weight_decay < 0.0:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")

        defaults = {
            "lr": lr,
            "momentum": momentum,
            "dampening": dampening,
            "weight_decay": weight_decay,
            "nesterov": nesterov,
            "maximize": maximize,
            "foreach": foreach,
            "differentiable": differentiable,
            "fused": fused,
        }
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")
        super().__init__(params, defaults)

        if fused:
            self._step_supports_amp_scaling = True
            self._need_device_dtype_check_for_fused = True
            if differentiable:
                raise RuntimeError("`fused` does not support `differentiable`")
            if foreach:
                raise RuntimeError("`fused` and `foreach` cannot be `True` together.")

    def __setstate__(self, state):
        super().__setstate__(state)
        for group in self.param_groups:
            group.setdefault("nesterov", False)
            group.setdefault("maximize", False)
            group.setdefault("foreach", None)
            group.setdefault("differentiable", False)
            group.setdefault("fused", False)

    def _init_group(self, group, params, grads, momentum_buffer_list):
        has_sparse_grad = False
        for p in group["params"]:
            if p.grad is not None:
                if group["fused"] and getattr(self, "_need_device_dtype_check_for_fused", True):
                    _device_dtype_check_for_fused(p)
                    self._need_device_dtype_check_for_fused = False
                params.append(p)
                grads.append(p.grad)
                if p.grad.is_sparse:
                    has_sparse_grad = True
                if group["momentum"] != 0:
                    momentum_buffer_list.append(self.state[p].get("momentum_buffer"))
        return has_sparse_grad

    @_use_grad_for_differentiable
    def step(self, closure=None):
        """Perform a single optimization step.

        Args:
            closure (Callable, optional): A closure that reevaluates the model and returns the loss.
        """
        loss = None
        if closure is not None:
            with torch.enable_grad():
                loss = closure()

        for group in self.param_groups:
            params = []
            grads = []
            momentum_buffer_list = []
            has_sparse_grad = self._init_group(group, params, grads, momentum_buffer_list)

            sgd(
                params,
                grads,
                momentum_buffer_list,
                weight_decay=group["weight_decay"],
                momentum=group["momentum"],
                lr=group["lr"],
                dampening=group["dampening"],
                nesterov=group["nesterov"],
                maximize=group["maximize"],
                has_sparse_grad=has_sparse_grad,
                foreach=group["foreach"],
                fused=group["fused"],
                grad_scale=getattr(self, "grad_scale", None),
                found_inf=getattr(self, "found_inf", None),
            )

            if group["momentum"] != 0:
                for p, momentum_buffer in zip(params, momentum_buffer_list):
                    self.state[p]["momentum_buffer"] = momentum_buffer

        return loss


def sgd(
    params,
    d_p_list,
    momentum_buffer_list,
    has_sparse_grad=False,
    foreach=None,
    fused=None,
    grad_scale=None,
    found_inf=None,
    *,
    weight_decay,
    momentum,
    lr,
    dampening,
    nesterov,
    maximize,
):
    r"""Functional API that performs the SGD update over lists of tensors (in place).

    New momentum buffers are written into ``momentum_buffer_list``.
    """
    if fused and has_sparse_grad and params:
        raise RuntimeError("`_fused_sgd` does not support sparse gradients")
    if not fused and (grad_scale is not None or found_inf is not None):
        raise AssertionError("Expected grad_scale and found_inf to be None")
    if not params:
        return
    if fused:
        if found_inf is not None and _scalar(found_inf) != 0:
            return
        if grad_scale is not None:
            d_p_list = [g.div(grad_scale) for g in d_p_list]
    _sgd_update(
        params,
        d_p_list,
        momentum_buffer_list,
        weight_decay=weight_decay,
        momentum=momentum,
        lr=lr,
        dampening=dampening,
        nesterov=nesterov,
        maximize=maximize,
    )


def _sgd_update(params, grads, momentum_buffer_list, *, weight_decay, momentum, lr, dampening,
                nesterov, maximize):
    """The update of every parameter of a group; in-place tensor ops only."""
    lr = _to_scalar(lr)
    if _rust_sgd(params, grads, momentum_buffer_list, weight_decay=weight_decay, momentum=momentum,
                 lr=lr, dampening=dampening, nesterov=nesterov, maximize=maximize):
        return
    for i, param in enumerate(params):
        grad = grads[i] if not maximize else -grads[i]

        if weight_decay != 0:
            if isinstance(weight_decay, torch.Tensor) and weight_decay.requires_grad:
                grad = grad.add_(param.clone().mul(weight_decay))
            else:
                grad = _add(grad, param, alpha=weight_decay)

        if momentum != 0:
            buf = momentum_buffer_list[i]
            if buf is None:
                buf = grad.detach().clone()
                momentum_buffer_list[i] = buf
            else:
                _add_(buf.mul_(momentum), grad, alpha=1 - dampening)
            if nesterov:
                grad = _add(grad, buf, alpha=momentum)
            else:
                grad = buf

        if isinstance(lr, torch.Tensor) and lr.requires_grad:
            param.sub_(grad.mul(lr))
        else:
            _add_(param, grad, alpha=-_scalar(lr))


def _rust_sgd(params, grads, momentum_buffer_list, *, weight_decay, momentum, lr, dampening, nesterov,
              maximize):
    """The whole group's update in one Rust call (the same arithmetic as the loop above, in the
    parameters' precision). False when the group does not fit it (tensor hyperparameters,
    another device or dtype, non-dense tensors); nothing has changed then."""
    if not params or any(isinstance(v, torch.Tensor) for v in (lr, weight_decay, momentum, dampening)):
        return False
    bufs, fresh = [], []
    if momentum != 0:
        for i, b in enumerate(momentum_buffer_list):
            fresh.append(b is None)
            bufs.append(torch.empty_like(grads[i]) if b is None else b)
    ok = torch._C._foreach_sgd_step(params, grads, bufs, fresh, lr=float(lr), momentum=float(momentum),
                                    dampening=float(dampening), weight_decay=float(weight_decay),
                                    nesterov=bool(nesterov), maximize=bool(maximize))
    if ok:
        for i, f in enumerate(fresh):
            if f:
                momentum_buffer_list[i] = bufs[i]
    return ok
