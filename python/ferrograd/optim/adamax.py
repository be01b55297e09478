"""Adamax (Adam with the infinity norm), as ``torch.optim.Adamax``."""

import ferrograd as torch

from .optimizer import (
    _view_as_real,
    Optimizer,
    _add,
    _addcdiv_,
    _check_adam_family,
    _check_capturable,
    _check_state_steps,
    _get_value,
    _lerp_,
    _new_step,
    _resolve_foreach,
    _to_scalar,
    _use_grad_for_differentiable,
)

__all__ = ["Adamax", "adamax"]


class Adamax(Optimizer):
    r"""Implements the Adamax algorithm (a variant of Adam based on the infinity norm).

    Args:
        params (iterable): parameters or named parameters to optimize, or parameter groups
        lr (float, Tensor, optional): learning rate (default: 2e-3)
        betas (Tuple[float, float], optional): running-average coefficients (default: (0.9, 0.999))
        eps (float, optional): term added to the denominator (default: 1e-8)
        weight_decay (float, optional): weight decay (L2 penalty) (default: 0)
        foreach, maximize, differentiable, capturable: as in PyTorch
    """

    def __init__(self, params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0,
                 foreach=None, *, maximize=False, differentiable=False, capturable=False):
        _check_adam_family(lr, betas, eps, weight_decay)

        defaults = {
            "lr": lr,
            "betas": betas,
            "eps": eps,
            "weight_decay": weight_decay,
            "foreach": foreach,
            "maximize": maximize,
            "differentiable": differentiable,
            "capturable": capturable,
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

    def _init_group(self, group, params_with_grad, grads, exp_avgs, exp_infs, state_steps):
        has_complex = False
        sparse_msg = "Adamax does not support sparse gradients"
        for p, state in self._params_with_grads(group, params_with_grad, grads, sparse_msg):
            if len(state) == 0:
                state["step"] = _new_step(group, p)
                state["exp_avg"] = torch.zeros_like(p)
                state["exp_inf"] = torch.zeros_like(p)
            exp_avgs.append(state["exp_avg"])
            exp_infs.append(state["exp_inf"])
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
            params_with_grad, grads, exp_avgs, exp_infs, state_steps = [], [], [], [], []
            beta1, beta2 = group["betas"]
            has_complex = self._init_group(group, params_with_grad, grads, exp_avgs, exp_infs,
                                           state_steps)
            adamax(
                params_with_grad,
                grads,
                exp_avgs,
                exp_infs,
                state_steps,
                eps=group["eps"],
                beta1=beta1,
                beta2=beta2,
                lr=group["lr"],
                weight_decay=group["weight_decay"],
                foreach=group["foreach"],
                maximize=group["maximize"],
                differentiable=group["differentiable"],
                capturable=group["capturable"],
                has_complex=has_complex,
            )
        return loss


def adamax(params, grads, exp_avgs, exp_infs, state_steps, foreach=None, maximize=False,
           differentiable=False, capturable=False, has_complex=False, *, eps, beta1, beta2, lr,
           weight_decay):
    r"""Functional API that performs the Adamax update over lists of tensors (in place)."""
    # complex parameters update as pairs of reals (as PyTorch; its has_complex flag)
    params, grads, exp_avgs, exp_infs = _view_as_real(params, grads, exp_avgs, exp_infs)
    _check_state_steps(state_steps)
    run, check_per_param = _resolve_foreach(
        params, foreach, differentiable, capturable,
        lambda: _check_capturable(params, state_steps, supports_xla=False), empty_first=False,
    )
    if not run:
        return

    lr = _to_scalar(lr)
    for i, param in enumerate(params):
        grad = grads[i] if not maximize else -grads[i]
        exp_avg = exp_avgs[i]
        exp_inf = exp_infs[i]
        step_t = state_steps[i]
        if check_per_param:
            _check_capturable([param], [step_t])

        step_t += 1

        if weight_decay != 0:
            grad = _add(grad, param, alpha=weight_decay)

        _lerp_(exp_avg, grad, 1 - beta1)
        if not differentiable:
            torch.maximum(exp_inf.mul_(beta2), grad.abs().add_(eps), out=exp_inf)
        else:
            norm_buf = torch.cat(
                [exp_inf.mul_(beta2).unsqueeze(0), grad.abs().add_(eps).unsqueeze_(0)], 0
            )
            exp_inf.copy_(torch.amax(norm_buf, 0, keepdim=False))

        if capturable:
            neg_bias_correction = beta1 ** step_t - 1
            neg_bias_correction.div_(lr)
            denom = exp_inf * neg_bias_correction
            _addcdiv_(param, exp_avg, denom)
        else:
            bias_correction = 1 - beta1 ** _get_value(step_t)
            clr = lr / bias_correction
            _addcdiv_(param, exp_avg, exp_inf, value=-clr)
