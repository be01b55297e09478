"""NAdam (Adam with Nesterov momentum), as ``torch.optim.NAdam``."""

import ferrograd as torch

from .optimizer import (
    _view_as_real,
    Optimizer,
    _add,
    _addcdiv_,
    _addcmul_,
    _check_adam_family,
    _check_capturable,
    _check_nonnegative,
    _check_state_steps,
    _get_scalar_dtype,
    _get_value,
    _lerp_,
    _resolve_foreach,
    _to_scalar,
    _use_grad_for_differentiable,
)

__all__ = ["NAdam", "nadam"]


class NAdam(Optimizer):
    r"""Implements the NAdam algorithm.

    Args:
        params (iterable): parameters or named parameters to optimize, or parameter groups
        lr (float, Tensor, optional): learning rate (default: 2e-3)
        betas (Tuple[float, float], optional): running-average coefficients (default: (0.9, 0.999))
        eps (float, optional): term added to the denominator (default: 1e-8)
        weight_decay (float, optional): weight decay (L2 penalty) (default: 0)
        momentum_decay (float, optional): momentum decay (default: 4e-3)
        decoupled_weight_decay (bool, optional): AdamW-style decay (NAdamW) (default: False)
        foreach, maximize, capturable, differentiable: as in PyTorch
    """

    def __init__(self, params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0,
                 momentum_decay=4e-3, decoupled_weight_decay=False, *, foreach=None,
                 maximize=False, capturable=False, differentiable=False):
        _check_adam_family(lr, betas, eps, weight_decay)
        _check_nonnegative(momentum_decay, "momentum_decay value")
        defaults = {
            "lr": lr,
            "betas": betas,
            "eps": eps,
            "weight_decay": weight_decay,
            "momentum_decay": momentum_decay,
            "decoupled_weight_decay": decoupled_weight_decay,
            "maximize": maximize,
            "foreach": foreach,
            "capturable": capturable,
            "differentiable": differentiable,
        }
        super().__init__(params, defaults)

    def __setstate__(self, state):
        super().__setstate__(state)
        self._upgrade_unpickled_groups(
            (
                ("maximize", False), ("foreach", None), ("capturable", False), ("differentiable",
                False), ("decoupled_weight_decay", False)
            ),
            keys=("step", "mu_product"),
        )

    def _init_group(self, group, params_with_grad, grads, exp_avgs, exp_avg_sqs, mu_products,
                    state_steps):
        has_complex = False
        sparse_msg = "NAdam does not support sparse gradients"
        for p, state in self._params_with_grads(group, params_with_grad, grads, sparse_msg):
            if len(state) == 0:
                if group["capturable"]:
                    state["step"] = torch.zeros((), dtype=_get_scalar_dtype(), device=p.device)
                    state["mu_product"] = torch.ones((), dtype=_get_scalar_dtype(), device=p.device)
                else:
                    state["step"] = torch.tensor(0.0, dtype=_get_scalar_dtype())
                    state["mu_product"] = torch.tensor(1.0, dtype=_get_scalar_dtype())
                state["exp_avg"] = torch.zeros_like(p)
                state["exp_avg_sq"] = torch.zeros_like(p)
            exp_avgs.append(state["exp_avg"])
            exp_avg_sqs.append(state["exp_avg_sq"])
            mu_products.append(state["mu_product"])
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
            params_with_grad, grads, exp_avgs, exp_avg_sqs, mu_products, state_steps = (
                [], [], [], [], [], []
            )
            beta1, beta2 = group["betas"]
            has_complex = self._init_group(group, params_with_grad, grads, exp_avgs, exp_avg_sqs,
                                           mu_products, state_steps)
            nadam(
                params_with_grad,
                grads,
                exp_avgs,
                exp_avg_sqs,
                mu_products,
                state_steps,
                beta1=beta1,
                beta2=beta2,
                lr=group["lr"],
                weight_decay=group["weight_decay"],
                momentum_decay=group["momentum_decay"],
                eps=group["eps"],
                maximize=group["maximize"],
                decoupled_weight_decay=group["decoupled_weight_decay"],
                foreach=group["foreach"],
                capturable=group["capturable"],
                differentiable=group["differentiable"],
                has_complex=has_complex,
            )
        return loss


def nadam(params, grads, exp_avgs, exp_avg_sqs, mu_products, state_steps,
          decoupled_weight_decay=False, foreach=None, capturable=False, differentiable=False,
          has_complex=False, maximize=False, *, beta1, beta2, lr, weight_decay, momentum_decay,
          eps):
    r"""Functional API that performs the NAdam update over lists of tensors (in place)."""
    # complex parameters update as pairs of reals (as PyTorch; its has_complex flag)
    params, grads, exp_avgs, exp_avg_sqs = _view_as_real(params, grads, exp_avgs, exp_avg_sqs)
    _check_state_steps(state_steps)
    _check_state_steps(mu_products, "mu_products")
    run, check_per_param = _resolve_foreach(
        params, foreach, differentiable, capturable,
        lambda: _check_capturable(params, state_steps, supports_xla=False, others=(mu_products,),
                                  what="params, mu_products, and state_steps"),
    )
    if not run:
        return

    lr = _to_scalar(lr)
    for i, param in enumerate(params):
        grad = grads[i] if not maximize else -grads[i]
        exp_avg = exp_avgs[i]
        exp_avg_sq = exp_avg_sqs[i]
        mu_product = mu_products[i]
        step_t = state_steps[i]
        if check_per_param:
            _check_capturable([param], [step_t], others=([mu_product],),
                              what="params, mu_products and state_steps")

        step_t += 1
        step = step_t if capturable else _get_value(step_t)

        bias_correction2 = 1 - beta2 ** step

        if weight_decay != 0:
            if decoupled_weight_decay:
                param.mul_(1 - lr * weight_decay)
            else:
                grad = _add(grad, param, alpha=weight_decay)

        mu = beta1 * (1.0 - 0.5 * (0.96 ** (step * momentum_decay)))
        mu_next = beta1 * (1.0 - 0.5 * (0.96 ** ((step + 1) * momentum_decay)))

        mu_product *= mu

        _lerp_(exp_avg, grad, 1 - beta1)
        _addcmul_(exp_avg_sq.mul_(beta2), grad, grad, value=1 - beta2)
        denom = exp_avg_sq.div(bias_correction2).sqrt()

        if differentiable or capturable:
            denom = denom.add(eps)
            mu_product_next = mu_product * mu_next
            grad = grad * (-lr * (1.0 - mu) / (1.0 - mu_product))
            exp_avg = exp_avg * (-lr * mu_next / (1.0 - mu_product_next))
            _addcdiv_(param, grad, denom)
            _addcdiv_(param, exp_avg, denom)
        else:
            mu_product_next = _get_value(mu_product) * mu_next
            denom.add_(eps)
            _addcdiv_(param, grad, denom, value=(-lr * (1.0 - mu) / (1.0 - _get_value(mu_product))))
            _addcdiv_(param, exp_avg, denom, value=(-lr * mu_next) / (1.0 - mu_product_next))
