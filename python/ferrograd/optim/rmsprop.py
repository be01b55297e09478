"""RMSprop, as ``torch.optim.RMSprop``."""

import ferrograd as torch

from .optimizer import (
    _view_as_real,
    Optimizer,
    _add,
    _add_,
    _addcdiv_,
    _addcmul_,
    _check_capturable,
    _check_lr,
    _check_nonnegative,
    _default_to_fused_or_foreach,
    _lerp_,
    _new_step,
    _scalar,
    _to_scalar,
    _use_grad_for_differentiable,
)

__all__ = ["RMSprop", "rmsprop"]


class RMSprop(Optimizer):
    r"""Implements the RMSprop algorithm.

    Args:
        params (iterable): parameters or named parameters to optimize, or parameter groups
        lr (float, Tensor, optional): learning rate (default: 1e-2)
        alpha (float, optional): smoothing constant (default: 0.99)
        eps (float, optional): term added to the denominator (default: 1e-8)
        weight_decay (float, optional): weight decay (L2 penalty) (default: 0)
        momentum (float, optional): momentum factor (default: 0)
        centered (bool, optional): normalize by an estimate of the gradient's variance
        capturable, foreach, maximize, differentiable: as in PyTorch
    """

    def __init__(
        self,
        params,
        lr=1e-2,
        alpha=0.99,
        eps=1e-8,
        weight_decay=0,
        momentum=0,
        centered=False,
        capturable=False,
        foreach=None,
        maximize=False,
        differentiable=False,
    ):
        _check_lr(lr)
        _check_nonnegative(eps, "epsilon value")
        _check_nonnegative(momentum, "momentum value")
        _check_nonnegative(weight_decay, "weight_decay value")
        _check_nonnegative(alpha, "alpha value")

        defaults = {
            "lr": lr,
            "momentum": momentum,
            "alpha": alpha,
            "eps": eps,
            "centered": centered,
            "weight_decay": weight_decay,
            "capturable": capturable,
            "foreach": foreach,
            "maximize": maximize,
            "differentiable": differentiable,
        }
        super().__init__(params, defaults)

    def __setstate__(self, state):
        super().__setstate__(state)
        self._upgrade_unpickled_groups(
            (
                ("momentum", 0), ("centered", False), ("foreach", None), ("maximize", False),
                ("differentiable", False), ("capturable", False)
            ),
        )

    def _init_group(self, group, params_with_grad, grads, square_avgs, momentum_buffer_list,
                    grad_avgs, state_steps):
        has_complex = False
        sparse_msg = "RMSprop does not support sparse gradients"
        for p, state in self._params_with_grads(group, params_with_grad, grads, sparse_msg):
            if len(state) == 0:
                state["step"] = _new_step(group, p)
                state["square_avg"] = torch.zeros_like(p)
                if group["momentum"] > 0:
                    state["momentum_buffer"] = torch.zeros_like(p)
                if group["centered"]:
                    state["grad_avg"] = torch.zeros_like(p)
            square_avgs.append(state["square_avg"])
            state_steps.append(state["step"])
            if group["momentum"] > 0:
                momentum_buffer_list.append(state["momentum_buffer"])
            if group["centered"]:
                grad_avgs.append(state["grad_avg"])
        return has_complex

    @_use_grad_for_differentiable
    def step(self, closure=None):
        """Perform a single optimization step.

        Args:
            closure (Callable, optional): A closure that reevaluates the model and returns the loss.
        """
        loss = self._closure_loss(closure)

        for group in self.param_groups:
            params_with_grad = []
            grads = []
            square_avgs = []
            grad_avgs = []
            momentum_buffer_list = []
            state_steps = []

            has_complex = self._init_group(
                group, params_with_grad, grads, square_avgs, momentum_buffer_list, grad_avgs,
                state_steps,
            )

            rmsprop(
                params_with_grad,
                grads,
                square_avgs,
                grad_avgs,
                momentum_buffer_list,
                state_steps,
                lr=group["lr"],
                alpha=group["alpha"],
                eps=group["eps"],
                weight_decay=group["weight_decay"],
                momentum=group["momentum"],
                centered=group["centered"],
                foreach=group["foreach"],
                maximize=group["maximize"],
                differentiable=group["differentiable"],
                capturable=group["capturable"],
                has_complex=has_complex,
            )

        return loss


def rmsprop(
    params,
    grads,
    square_avgs,
    grad_avgs,
    momentum_buffer_list,
    state_steps,
    foreach=None,
    maximize=False,
    differentiable=False,
    capturable=False,
    has_complex=False,
    *,
    lr,
    alpha,
    eps,
    weight_decay,
    momentum,
    centered,
):
    r"""Functional API that performs the RMSprop update over lists of tensors (in place)."""
    # complex parameters update as pairs of reals (as PyTorch; its has_complex flag)
    params, grads, square_avgs, grad_avgs, momentum_buffer_list = _view_as_real(params, grads, square_avgs, grad_avgs, momentum_buffer_list)
    if not all(isinstance(t, torch.Tensor) for t in state_steps):
        raise RuntimeError(
            "API has changed, `state_steps` argument must contain a list of singleton tensors"
        )
    if foreach is None:
        _, foreach = _default_to_fused_or_foreach(params, differentiable, use_fused=False)

    check_capturable_per_param = False
    if foreach:
        if len(params) == 0:
            return
        if differentiable:
            raise AssertionError("_foreach ops don't support autograd")
        if capturable:
            _check_capturable(params, state_steps)
    else:
        check_capturable_per_param = capturable

    _rmsprop_update(
        params,
        grads,
        square_avgs,
        grad_avgs,
        momentum_buffer_list,
        state_steps,
        lr=lr,
        alpha=alpha,
        eps=eps,
        weight_decay=weight_decay,
        momentum=momentum,
        centered=centered,
        maximize=maximize,
        differentiable=differentiable,
        check_capturable=check_capturable_per_param,
    )


def _rmsprop_update(params, grads, square_avgs, grad_avgs, momentum_buffer_list, state_steps, *,
                    lr, alpha, eps, weight_decay, momentum, centered, maximize, differentiable,
                    check_capturable=False):
    """The RMSprop update of every parameter of a group; in-place tensor ops only."""
    lr = _to_scalar(lr)
    # the whole group in one Rust call (the same arithmetic, in the parameters' precision)
    if (not differentiable and not check_capturable and params
            and not any(isinstance(v, torch.Tensor) for v in (lr, alpha, eps, weight_decay, momentum))
            and torch._C._foreach_rmsprop_step(
                params, grads, square_avgs, grad_avgs if centered else [],
                momentum_buffer_list if momentum > 0 else [], state_steps,
                lr=float(lr), alpha=float(alpha), eps=float(eps), weight_decay=float(weight_decay),
                momentum=float(momentum), centered=bool(centered), maximize=bool(maximize))):
        return
    for i, param in enumerate(params):
        step = state_steps[i]
        if check_capturable:
            _check_capturable([param], [step])

        grad = grads[i]
        grad = grad if not maximize else -grad
        square_avg = square_avgs[i]

        step += 1

        if weight_decay != 0:
            grad = _add(grad, param, alpha=weight_decay)

        _addcmul_(square_avg.mul_(alpha), grad, grad, value=1 - alpha)

        if centered:
            grad_avg = grad_avgs[i]
            _lerp_(grad_avg, grad, 1 - alpha)
            avg = _addcmul_(square_avg.clone(), grad_avg, grad_avg, value=-1).sqrt_()
        else:
            avg = square_avg.sqrt()

        if differentiable:
            avg = avg.add(eps)
        else:
            avg = avg.add_(eps)

        if momentum > 0:
            buf = momentum_buffer_list[i]
            _addcdiv_(buf.mul_(momentum), grad, avg)
            if isinstance(lr, torch.Tensor) and lr.requires_grad:
                param.sub_(buf.mul(lr))
            else:
                _add_(param, buf, alpha=-_scalar(lr))
        else:
            if isinstance(lr, torch.Tensor) and lr.requires_grad:
                param.sub_(grad.mul(lr).div_(avg))
            else:
                _addcdiv_(param, grad, avg, value=-_scalar(lr))
