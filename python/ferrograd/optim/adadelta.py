"""Adadelta, as ``torch.optim.Adadelta``."""

import ferrograd as torch

from .optimizer import (
    _view_as_real,
    Optimizer,
    _add,
    _add_,
    _addcmul_,
    _check_capturable,
    _check_lr,
    _check_nonnegative,
    _check_state_steps,
    _default_to_fused_or_foreach,
    _new_step,
    _scalar,
    _to_scalar,
    _use_grad_for_differentiable,
)

__all__ = ["Adadelta", "adadelta"]


class Adadelta(Optimizer):
    r"""Implements the Adadelta algorithm.

    Args:
        params (iterable): parameters or named parameters to optimize, or parameter groups
        lr (float, Tensor, optional): coefficient that scales delta (default: 1.0)
        rho (float, optional): running-average coefficient of squared gradients (default: 0.9)
        eps (float, optional): term added to the denominator (default: 1e-6)
        weight_decay (float, optional): weight decay (L2 penalty) (default: 0)
        foreach, capturable, maximize, differentiable: as in PyTorch
    """

    def __init__(self, params, lr=1.0, rho=0.9, eps=1e-6, weight_decay=0, foreach=None, *,
                 capturable=False, maximize=False, differentiable=False):
        _check_lr(lr)
        if not 0.0 <= rho <= 1.0:
            raise ValueError(f"Invalid rho value: {rho}")
        _check_nonnegative(eps, "epsilon value")
        _check_nonnegative(weight_decay, "weight_decay value")

        defaults = {
            "lr": lr,
            "rho": rho,
            "eps": eps,
            "weight_decay": weight_decay,
            "maximize": maximize,
            "capturable": capturable,
            "foreach": foreach,
            "differentiable": differentiable,
        }
        super().__init__(params, defaults)

    def __setstate__(self, state):
        super().__setstate__(state)
        self._upgrade_unpickled_groups(
            (
                ("foreach", None), ("maximize", False), ("differentiable", False), ("capturable",
                False)
            ),
        )

    def _init_group(self, group, params_with_grad, grads, square_avgs, acc_deltas, state_steps):
        has_complex = False
        sparse_msg = "Adadelta does not support sparse gradients"
        for p, state in self._params_with_grads(group, params_with_grad, grads, sparse_msg):
            if len(state) == 0:
                state["step"] = _new_step(group, p)
                state["square_avg"] = torch.zeros_like(p)
                state["acc_delta"] = torch.zeros_like(p)
            square_avgs.append(state["square_avg"])
            acc_deltas.append(state["acc_delta"])
            state_steps.append(state["step"])
        return has_complex

    @_use_grad_for_differentiable
    def step(self, closure=None):
        """Perform a single optimization step.

        Args:
            closure (Callable, optional): A closure that reevaluates the model and returns the loss.
        """
        loss = self._closure_loss(closure)

        for group in self.param_groups:
            params_with_grad, grads, square_avgs, acc_deltas, state_steps = [], [], [], [], []
            has_complex = self._init_group(group, params_with_grad, grads, square_avgs,
                                           acc_deltas, state_steps)
            adadelta(
                params_with_grad,
                grads,
                square_avgs,
                acc_deltas,
                state_steps,
                lr=group["lr"],
                rho=group["rho"],
                eps=group["eps"],
                weight_decay=group["weight_decay"],
                foreach=group["foreach"],
                maximize=group["maximize"],
                differentiable=group["differentiable"],
                capturable=group["capturable"],
                has_complex=has_complex,
            )
        return loss


def adadelta(params, grads, square_avgs, acc_deltas, state_steps, capturable=False, foreach=None,
             differentiable=False, has_complex=False, *, lr, rho, eps, weight_decay, maximize):
    r"""Functional API that performs the Adadelta update over lists of tensors (in place)."""
    # complex parameters update as pairs of reals (as PyTorch; its has_complex flag)
    params, grads, square_avgs, acc_deltas = _view_as_real(params, grads, square_avgs, acc_deltas)
    _check_state_steps(state_steps)
    if foreach is None:
        _, foreach = _default_to_fused_or_foreach(params, differentiable, use_fused=False)
    if foreach and differentiable:
        raise AssertionError("_foreach ops don't support autograd")
    if capturable:
        _check_capturable(params, state_steps, supports_xla=False)
    if len(params) == 0:
        return

    lr = _to_scalar(lr)
    for param, grad, square_avg, acc_delta, step in zip(params, grads, square_avgs, acc_deltas,
                                                        state_steps):
        step += 1
        grad = grad if not maximize else -grad

        if weight_decay != 0:
            grad = _add(grad, param, alpha=weight_decay)

        _addcmul_(square_avg.mul_(rho), grad, grad, value=1 - rho)
        std = square_avg.add(eps).sqrt_()
        delta = acc_delta.add(eps).sqrt_()
        if differentiable:
            delta = delta.clone()
        delta.div_(std).mul_(grad)
        _addcmul_(acc_delta.mul_(rho), delta, delta, value=1 - rho)
        if isinstance(lr, torch.Tensor) and lr.requires_grad:
            param.sub_(delta.mul(lr))
        else:
            _add_(param, delta, alpha=-_scalar(lr))
