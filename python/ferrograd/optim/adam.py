"""Adam (and, through ``decoupled_weight_decay``, AdamW), as ``torch.optim.Adam``."""

import ferrograd as torch

from .optimizer import (
    _view_as_real,
    Optimizer,
    _add,
    _addcdiv_,
    _addcmul_,
    _check_capturable,
    _default_to_fused_or_foreach,
    _device_dtype_check_for_fused,
    _get_scalar_dtype,
    _get_value,
    _lerp_,
    _scalar,
    _to_scalar,
    _use_grad_for_differentiable,
)

__all__ = ["Adam", "adam"]


class Adam(Optimizer):
    r"""Implements the Adam algorithm.

    Args:
        params (iterable): parameters or named parameters to optimize, or parameter groups
        lr (float, Tensor, optional): learning rate (default: 1e-3)
        betas (tuple[float | Tensor, float | Tensor], optional): coefficients of the running
            averages of the gradient and its square (default: (0.9, 0.999))
        eps (float, optional): term added to the denominator (default: 1e-8)
        weight_decay (float, optional): weight decay (L2 penalty) (default: 0)
        amsgrad (bool, optional): use the AMSGrad variant (default: False)
        foreach, maximize, capturable, differentiable, fused: as in PyTorch
        decoupled_weight_decay (bool, optional): AdamW's decoupled decay (default: False)
    """

    def __init__(
        self,
        params,
        lr=1e-3,
        betas=(0.9, 0.999),
        eps=1e-8,
        weight_decay=0,
        amsgrad=False,
        *,
        foreach=None,
        maximize=False,
        capturable=False,
        differentiable=False,
        fused=None,
        decoupled_weight_decay=False,
    ):
        if isinstance(lr, torch.Tensor):
            if foreach and not capturable:
                raise ValueError(
                    "lr as a Tensor is not supported for capturable=False and foreach=True"
                )
            if lr.numel() != 1:
                raise ValueError("Tensor lr must be 1-element")
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        if not 0.0 <= betas[0] < 1.0:
            raise ValueError(f"Invalid beta parameter at index 0: {betas[0]}")
        if not 0.0 <= betas[1] < 1.0:
            raise ValueError(f"Invalid beta parameter at index 1: {betas[1]}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if not (
            (isinstance(betas[0], float) and isinstance(betas[1], float))
            or (isinstance(betas[0], torch.Tensor) and isinstance(betas[1], torch.Tensor))
        ):
            raise ValueError("betas must be either both floats or both Tensors")
        for i in (0, 1):
            if isinstance(betas[i], torch.Tensor):
                if not capturable and foreach:
                    raise ValueError(
                        f"betas[{i}] as a Tensor is not supported for capturable=False and foreach=True"
                    )
                if betas[i].numel() != 1:
                    raise ValueError(f"Tensor betas[{i}] must be 1-element")
        betas = tuple(map(_to_scalar, betas))

        defaults = {
            "lr": lr,
            "betas": betas,
            "eps": eps,
            "weight_decay": weight_decay,
            "amsgrad": amsgrad,
            "maximize": maximize,
            "foreach": foreach,
            "capturable": capturable,
            "differentiable": differentiable,
            "fused": fused,
            "decoupled_weight_decay": decoupled_weight_decay,
        }
        super().__init__(params, defaults)

        if fused:
            if differentiable:
                raise RuntimeError("`fused` does not support `differentiable`")
            self._step_supports_amp_scaling = True
            if foreach:
                raise RuntimeError("`fused` and `foreach` cannot be `True` together.")

    def __setstate__(self, state):
        super().__setstate__(state)
        self._upgrade_unpickled_groups(
            (
                ("amsgrad", False), ("maximize", False), ("foreach", None), ("capturable", False),
                ("differentiable", False), ("decoupled_weight_decay", False), ("fused", None),
            ),
        )

    def _init_group(self, group, params_with_grad, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs,
                    state_steps):
        has_complex = False
        for p in group["params"]:
            if p.grad is None:
                continue
            params_with_grad.append(p)
            if p.grad.is_sparse:
                raise RuntimeError(
                    "Adam does not support sparse gradients, please consider SparseAdam instead"
                )
            grads.append(p.grad)

            state = self.state[p]
            if len(state) == 0:
                if group["fused"]:
                    _device_dtype_check_for_fused(p)
                # `step` lives on the CPU unless capturable or fused (as in PyTorch)
                state["step"] = (
                    torch.zeros((), dtype=_get_scalar_dtype(is_fused=group["fused"]), device=p.device)
                    if group["capturable"] or group["fused"]
                    else torch.tensor(0.0, dtype=_get_scalar_dtype(), device="cpu")
                )
                state["exp_avg"] = torch.zeros_like(p)
                state["exp_avg_sq"] = torch.zeros_like(p)
                if group["amsgrad"]:
                    state["max_exp_avg_sq"] = torch.zeros_like(p)

            exp_avgs.append(state["exp_avg"])
            exp_avg_sqs.append(state["exp_avg_sq"])
            if group["amsgrad"]:
                max_exp_avg_sqs.append(state["max_exp_avg_sq"])
            if group["differentiable"] and state["step"].requires_grad:
                raise RuntimeError(
                    "`requires_grad` is not supported for `step` in differentiable mode"
                )
            if group["foreach"] and torch.is_tensor(group["lr"]) and not group["capturable"]:
                raise RuntimeError(
                    "lr as a Tensor is not supported for capturable=False and foreach=True"
                )
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
            params_with_grad = []
            grads = []
            exp_avgs = []
            exp_avg_sqs = []
            max_exp_avg_sqs = []
            state_steps = []
            beta1, beta2 = group["betas"]

            has_complex = self._init_group(
                group, params_with_grad, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs, state_steps
            )

            adam(
                params_with_grad,
                grads,
                exp_avgs,
                exp_avg_sqs,
                max_exp_avg_sqs,
                state_steps,
                amsgrad=group["amsgrad"],
                has_complex=has_complex,
                beta1=beta1,
                beta2=beta2,
                lr=group["lr"],
                weight_decay=group["weight_decay"],
                eps=group["eps"],
                maximize=group["maximize"],
                foreach=group["foreach"],
                capturable=group["capturable"],
                differentiable=group["differentiable"],
                fused=group["fused"],
                grad_scale=getattr(self, "grad_scale", None),
                found_inf=getattr(self, "found_inf", None),
                decoupled_weight_decay=group["decoupled_weight_decay"],
            )

        return loss


def adam(
    params,
    grads,
    exp_avgs,
    exp_avg_sqs,
    max_exp_avg_sqs,
    state_steps,
    foreach=None,
    capturable=False,
    differentiable=False,
    fused=None,
    grad_scale=None,
    found_inf=None,
    has_complex=False,
    decoupled_weight_decay=False,
    *,
    amsgrad,
    beta1,
    beta2,
    lr,
    weight_decay,
    eps,
    maximize,
):
    r"""Functional API that performs the Adam update over lists of tensors (in place).

    The foreach, fused and for-loop implementations of PyTorch compute the same update; each
    choice keeps PyTorch's checks.
    """
    # complex parameters update as pairs of reals (as PyTorch; its has_complex flag)
    params, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs = _view_as_real(params, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs)
    if fused is None and foreach is None:
        _, foreach = _default_to_fused_or_foreach(params, differentiable, use_fused=False)
        if foreach and isinstance(lr, torch.Tensor) and not capturable:
            foreach = False
    if fused is None:
        fused = False
    if foreach is None:
        foreach = False

    if not all(isinstance(t, torch.Tensor) for t in state_steps):
        raise RuntimeError(
            "API has changed, `state_steps` argument must contain a list of singleton tensors"
        )

    check_capturable_per_param = False
    if fused:
        if not params:
            return
        if differentiable:
            raise RuntimeError("Adam with fused=True does not support differentiable=True")
    elif foreach:
        if len(params) == 0:
            return
        if isinstance(lr, torch.Tensor):
            if not capturable:
                raise RuntimeError(
                    "lr as a Tensor is not supported for capturable=False and foreach=True"
                )
            if lr.numel() != 1:
                raise ValueError("Tensor lr must be 1-element")
        for name, beta in (("beta1", beta1), ("beta2", beta2)):
            if isinstance(beta, torch.Tensor):
                if not capturable:
                    raise ValueError(
                        f"{name} as a Tensor is not supported for capturable=False and foreach=True"
                    )
                if beta.numel() != 1:
                    raise ValueError(f"Tensor {name} must be 1-element")
        if capturable:
            _check_capturable(params, state_steps, supports_xla=False)
        if grad_scale is not None or found_inf is not None:
            raise AssertionError("Expected grad_scale and found_inf to be None")
        if differentiable:
            raise AssertionError("_foreach ops don't support autograd")
    else:
        if grad_scale is not None or found_inf is not None:
            raise AssertionError("Expected grad_scale and found_inf to be None")
        check_capturable_per_param = capturable

    if fused:
        for step_t in state_steps:
            step_t += 1
        if found_inf is not None and _scalar(found_inf) != 0:
            for step_t in state_steps:
                step_t -= 1
            return
        if grad_scale is not None:
            grads = [g.div(grad_scale) for g in grads]
        increment_steps = False
    else:
        increment_steps = True

    _adam_update(
        params,
        grads,
        exp_avgs,
        exp_avg_sqs,
        max_exp_avg_sqs,
        state_steps,
        amsgrad=amsgrad,
        beta1=beta1,
        beta2=beta2,
        lr=lr,
        weight_decay=weight_decay,
        eps=eps,
        maximize=maximize,
        capturable=capturable,
        differentiable=differentiable,
        decoupled_weight_decay=decoupled_weight_decay,
        increment_steps=increment_steps,
        check_capturable=check_capturable_per_param,
    )


def _adam_update(params, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs, state_steps, *, amsgrad,
                 beta1, beta2, lr, weight_decay, eps, maximize, capturable, differentiable,
                 decoupled_weight_decay, increment_steps=True, check_capturable=False):
    """The Adam update of every parameter of a group; in-place tensor ops only."""
    lr = _to_scalar(lr)
    beta1 = _to_scalar(beta1)
    beta2 = _to_scalar(beta2)

    # the whole group in one Rust call (the same arithmetic, in the parameters' precision)
    # when the hyperparameters are numbers and the tensors dense CPU float32/float64
    if (increment_steps and not capturable and not differentiable and not check_capturable and params
            and not any(isinstance(v, torch.Tensor) for v in (lr, beta1, beta2, weight_decay, eps))
            and torch._C._foreach_adam_step(
                params, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs if amsgrad else [], state_steps,
                lr=float(lr), beta1=float(beta1), beta2=float(beta2), eps=float(eps),
                weight_decay=float(weight_decay), amsgrad=bool(amsgrad), maximize=bool(maximize),
                decoupled=bool(decoupled_weight_decay))):
        return

    for i, param in enumerate(params):
        grad = grads[i] if not maximize else -grads[i]
        exp_avg = exp_avgs[i]
        exp_avg_sq = exp_avg_sqs[i]
        step_t = state_steps[i]

        if check_capturable:
            _check_capturable([param], [step_t])

        if increment_steps:
            step_t += 1

        if weight_decay != 0:
            if decoupled_weight_decay:
                param.mul_(1 - lr * weight_decay)
            elif differentiable and isinstance(weight_decay, torch.Tensor) and weight_decay.requires_grad:
                grad = grad.add_(param.clone().mul(weight_decay))
            else:
                grad = _add(grad, param, alpha=weight_decay)

        if isinstance(beta1, torch.Tensor) and beta1.device != param.device:
            device_beta1 = beta1.to(device=param.device, dtype=param.dtype)
        else:
            device_beta1 = beta1

        _lerp_(exp_avg, grad, 1 - device_beta1)

        if differentiable and isinstance(beta2, torch.Tensor) and beta2.requires_grad:
            _lerp_(exp_avg_sq, torch.square(grad), 1 - beta2)
        else:
            _addcmul_(exp_avg_sq.mul_(beta2), grad, grad, value=1 - beta2)

        if capturable or differentiable:
            step = step_t
            if differentiable and isinstance(beta1, torch.Tensor) and beta1.requires_grad:
                bias_correction1 = 1 - beta1 ** step.clone()
            else:
                bias_correction1 = 1 - beta1 ** step
            if differentiable and isinstance(beta2, torch.Tensor) and beta2.requires_grad:
                bias_correction2 = 1 - beta2 ** step.clone()
            else:
                bias_correction2 = 1 - beta2 ** step

            step_size = lr / bias_correction1
            step_size_neg = step_size.neg()
            bias_correction2_sqrt = bias_correction2.sqrt()

            if amsgrad:
                max_exp_avg_sq = max_exp_avg_sqs[i].clone() if differentiable else max_exp_avg_sqs[i]
                max_exp_avg_sqs[i].copy_(torch.maximum(max_exp_avg_sq, exp_avg_sq))
                denom = (max_exp_avg_sqs[i].sqrt() / (bias_correction2_sqrt * step_size_neg)).add_(
                    eps / step_size_neg
                )
            else:
                denom = (exp_avg_sq.sqrt() / (bias_correction2_sqrt * step_size_neg)).add_(
                    eps / step_size_neg
                )
            _addcdiv_(param, exp_avg.clone() if differentiable else exp_avg, denom)
        else:
            step = _get_value(step_t)
            bias_correction1 = 1 - beta1 ** step
            bias_correction2 = 1 - beta2 ** step
            step_size = lr / bias_correction1
            bias_correction2_sqrt = bias_correction2 ** 0.5

            if amsgrad:
                torch.maximum(max_exp_avg_sqs[i], exp_avg_sq, out=max_exp_avg_sqs[i])
                denom = (max_exp_avg_sqs[i].sqrt() / bias_correction2_sqrt).add_(eps)
            else:
                denom = (exp_avg_sq.sqrt() / bias_correction2_sqrt).add_(eps)

            _addcdiv_(param, exp_avg, denom, value=-step_size)
