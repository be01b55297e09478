"""RAdam (rectified Adam), as ``torch.optim.RAdam``."""

import ferrograd as torch

from .optimizer import (
    _view_as_real,
    Optimizer,
    _add,
    _add_,
    _addcmul_,
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

__all__ = ["RAdam", "radam"]


class RAdam(Optimizer):
    r"""Implements the RAdam algorithm.

    Args:
        params (iterable): parameters or named parameters to optimize, or parameter groups
        lr (float, Tensor, optional): learning rate (default: 1e-3)
        betas (Tuple[float, float], optional): running-average coefficients (default: (0.9, 0.999))
        eps (float, optional): term added to the denominator (default: 1e-8)
        weight_decay (float, optional): weight decay (L2 penalty) (default: 0)
        decoupled_weight_decay (bool, optional): AdamW-style decay (RAdamW) (default: False)
        foreach, maximize, capturable, differentiable: as in PyTorch
    """

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0,
                 decoupled_weight_decay=False, *, foreach=None, maximize=False, capturable=False,
                 differentiable=False):
        _check_adam_family(lr, betas, eps, weight_decay)
        defaults = {
            "lr": lr,
            "betas": betas,
            "eps": eps,
            "weight_decay": weight_decay,
            "maximize": maximize,
            "foreach": foreach,
            "capturable": capturable,
            "decoupled_weight_decay": decoupled_weight_decay,
            "differentiable": differentiable,
        }
        super().__init__(params, defaults)

    def __setstate__(self, state):
        super().__setstate__(state)
        self._upgrade_unpickled_groups(
            (
                ("foreach", None), ("maximize", False), ("differentiable", False),
                ("decoupled_weight_decay", False), ("capturable", False)
            ),
        )

    def _init_group(self, group, params_with_grad, grads, exp_avgs, exp_avg_sqs, state_steps):
        has_complex = False
        sparse_msg = "RAdam does not support sparse gradients"
        for p, state in self._params_with_grads(group, params_with_grad, grads, sparse_msg):
            if len(state) == 0:
                state["step"] = _new_step(group, p)
                state["exp_avg"] = torch.zeros_like(p)
                state["exp_avg_sq"] = torch.zeros_like(p)
            exp_avgs.append(state["exp_avg"])
            exp_avg_sqs.append(state["exp_avg_sq"])
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
            params_with_grad, grads, exp_avgs, exp_avg_sqs, state_steps = [], [], [], [], []
            beta1, beta2 = group["betas"]
            has_complex = self._init_group(group, params_with_grad, grads, exp_avgs, exp_avg_sqs,
                                           state_steps)
            radam(
                params_with_grad,
                grads,
                exp_avgs,
                exp_avg_sqs,
                state_steps,
                beta1=beta1,
                beta2=beta2,
                lr=group["lr"],
                weight_decay=group["weight_decay"],
                eps=group["eps"],
                maximize=group["maximize"],
                foreach=group["foreach"],
                capturable=group["capturable"],
                differentiable=group["differentiable"],
                decoupled_weight_decay=group["decoupled_weight_decay"],
                has_complex=has_complex,
            )
        return loss


def radam(params, grads, exp_avgs, exp_avg_sqs, state_steps, decoupled_weight_decay=False,
          foreach=None, differentiable=False, capturable=False, has_complex=False, maximize=False,
          *, beta1, beta2, lr, weight_decay, eps):
    r"""Functional API that performs the RAdam update over lists of tensors (in place)."""
    # complex parameters update as pairs of reals (as PyTorch; its has_complex flag)
    params, grads, exp_avgs, exp_avg_sqs = _view_as_real(params, grads, exp_avgs, exp_avg_sqs)
    _check_state_steps(state_steps)
    run, check_per_param = _resolve_foreach(
        params, foreach, differentiable, capturable,
        lambda: _check_capturable(params, state_steps, supports_xla=False),
    )
    if not run:
        return

    lr = _to_scalar(lr)
    for i, param in enumerate(params):
        grad = grads[i] if not maximize else -grads[i]
        exp_avg = exp_avgs[i]
        exp_avg_sq = exp_avg_sqs[i]
        step_t = state_steps[i]
        if check_per_param:
            _check_capturable([param], [step_t])

        step_t += 1
        step = step_t if capturable else _get_value(step_t)

        if weight_decay != 0:
            if decoupled_weight_decay:
                param.mul_(1 - lr * weight_decay)
            else:
                grad = _add(grad, param, alpha=weight_decay)

        _lerp_(exp_avg, grad, 1 - beta1)
        _addcmul_(exp_avg_sq.mul_(beta2), grad, grad, value=1 - beta2)

        bias_correction1 = 1 - beta1 ** step
        bias_correction2 = 1 - beta2 ** step
        bias_corrected_exp_avg = exp_avg / bias_correction1

        # maximum length of the approximated SMA, and its value at this step
        rho_inf = 2 / (1 - beta2) - 1
        rho_t = rho_inf - 2 * step * (beta2 ** step) / bias_correction2

        def _compute_rect():
            return (
                (rho_t - 4) * (rho_t - 2) * rho_inf / ((rho_inf - 4) * (rho_inf - 2) * rho_t)
            ) ** 0.5

        def _compute_adaptive_lr():
            exp_avg_sq_sqrt = exp_avg_sq.sqrt()
            if differentiable:
                exp_avg_sq_sqrt = exp_avg_sq_sqrt.add(eps)
            else:
                exp_avg_sq_sqrt = exp_avg_sq_sqrt.add_(eps)
            return (bias_correction2 ** 0.5) / exp_avg_sq_sqrt

        if capturable:
            update = torch.where(rho_t > 5.0, _compute_rect() * _compute_adaptive_lr(), 1.0)
            _add_(param, bias_corrected_exp_avg * lr * update, alpha=-1.0)
        elif rho_t > 5.0:
            _add_(param, bias_corrected_exp_avg * lr * _compute_adaptive_lr() * _compute_rect(),
                  alpha=-1.0)
        else:
            _add_(param, bias_corrected_exp_avg * lr, alpha=-1.0)
