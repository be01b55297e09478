"""Adagrad, as ``torch.optim.Adagrad``."""

import ferrograd as torch

from .optimizer import (
    _view_as_real,
    Optimizer,
    _add,
    _addcdiv_,
    _addcmul_,
    _check_lr,
    _check_nonnegative,
    _default_to_fused_or_foreach,
    _device_dtype_check_for_fused,
    _get_scalar_dtype,
    _get_value,
    _scalar,
    _to_scalar,
    _use_grad_for_differentiable,
)

__all__ = ["Adagrad", "adagrad"]


class Adagrad(Optimizer):
    r"""Implements the Adagrad algorithm.

    Args:
        params (iterable): parameters or named parameters to optimize, or parameter groups
        lr (float, Tensor, optional): learning rate (default: 1e-2)
        lr_decay (float, optional): learning rate decay (default: 0)
        weight_decay (float, optional): weight decay (L2 penalty) (default: 0)
        initial_accumulator_value (float, optional): initial value of the sum of squares of
            gradients (default: 0)
        eps (float, optional): term added to the denominator (default: 1e-10)
        foreach, maximize, differentiable, fused: as in PyTorch
    """

    def __init__(
        self,
        params,
        lr=1e-2,
        lr_decay=0,
        weight_decay=0,
        initial_accumulator_value=0,
        eps=1e-10,
        foreach=None,
        *,
        maximize=False,
        differentiable=False,
        fused=None,
    ):
        _check_lr(lr)
        _check_nonnegative(lr_decay, "lr_decay value")
        _check_nonnegative(weight_decay, "weight_decay value")
        if not 0.0 <= initial_accumulator_value:
            raise ValueError(
                f"Invalid initial_accumulator_value value: {initial_accumulator_value}"
            )
        _check_nonnegative(eps, "epsilon value")

        defaults = {
            "lr": lr,
            "lr_decay": lr_decay,
            "eps": eps,
            "weight_decay": weight_decay,
            "initial_accumulator_value": initial_accumulator_value,
            "foreach": foreach,
            "maximize": maximize,
            "differentiable": differentiable,
            "fused": fused,
        }
        super().__init__(params, defaults)

        if fused:
            if differentiable:
                raise RuntimeError("`fused` does not support `differentiable`")
            if foreach:
                raise RuntimeError("`fused` and `foreach` cannot be `True` together.")
            self._need_device_dtype_check_for_fused = True
            self._step_supports_amp_scaling = True

        for group in self.param_groups:
            for p in group["params"]:
                state = self.state[p]
                state["step"] = (
                    torch.zeros((), dtype=_get_scalar_dtype(is_fused=group["fused"]), device=p.device)
                    if group["fused"]
                    else torch.tensor(0.0, dtype=_get_scalar_dtype())
                )
                state["sum"] = torch.full_like(p, initial_accumulator_value)

    def __setstate__(self, state):
        super().__setstate__(state)
        fused = None
        for group in self.param_groups:
            group.setdefault("foreach", None)
            group.setdefault("maximize", False)
            group.setdefault("differentiable", False)
            fused = group.setdefault("fused", None)
            for p in group["params"]:
                p_state = self.state.get(p, [])
                if len(p_state) != 0 and not torch.is_tensor(p_state["step"]):
                    step_val = float(p_state["step"])
                    p_state["step"] = (
                        torch.tensor(step_val, dtype=_get_scalar_dtype(is_fused=fused), device=p.device)
                        if group["fused"]
                        else torch.tensor(step_val, dtype=_get_scalar_dtype())
                    )
        state_values = list(self.state.values())
        step_is_tensor = (len(state_values) != 0) and torch.is_tensor(state_values[0]["step"])
        if not step_is_tensor:
            for s in state_values:
                s["step"] = torch.tensor(float(s["step"]), dtype=_get_scalar_dtype(is_fused=fused))

    def share_memory(self):
        """Calls ``share_memory_()`` on the state sum tensors."""
        for group in self.param_groups:
            for p in group["params"]:
                self.state[p]["sum"].share_memory_()

    def _init_group(self, group, params_with_grad, grads, state_sums, state_steps):
        has_sparse_grad, has_complex = False, False
        for p in group["params"]:
            if p.grad is not None:
                if group["fused"] and getattr(self, "_need_device_dtype_check_for_fused", True):
                    _device_dtype_check_for_fused(p)
                    self._need_device_dtype_check_for_fused = False
                has_sparse_grad |= p.grad.is_sparse
                params_with_grad.append(p)
                grads.append(p.grad)
                state = self.state[p]
                if len(state) == 0:
                    if group["fused"]:
                        _device_dtype_check_for_fused(p)
                    state["step"] = (
                        torch.zeros((), dtype=_get_scalar_dtype(is_fused=group["fused"]), device=p.device)
                        if group["fused"]
                        else torch.tensor(0.0, dtype=_get_scalar_dtype())
                    )
                    state["sum"] = torch.full_like(p, self.defaults["initial_accumulator_value"])
                state_sums.append(state["sum"])
                state_steps.append(state["step"])
        return has_sparse_grad, has_complex

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
            params_with_grad = []
            grads = []
            state_sums = []
            state_steps = []

            has_sparse_grad, has_complex = self._init_group(
                group, params_with_grad, grads, state_sums, state_steps
            )

            adagrad(
                params_with_grad,
                grads,
                state_sums,
                state_steps,
                lr=group["lr"],
                weight_decay=group["weight_decay"],
                lr_decay=group["lr_decay"],
                eps=group["eps"],
                has_sparse_grad=has_sparse_grad,
                foreach=group["foreach"],
                maximize=group["maximize"],
                differentiable=group["differentiable"],
                has_complex=has_complex,
                fused=group["fused"],
                grad_scale=getattr(self, "grad_scale", None),
                found_inf=getattr(self, "found_inf", None),
            )

        return loss


def adagrad(
    params,
    grads,
    state_sums,
    state_steps,
    fused=None,
    grad_scale=None,
    found_inf=None,
    has_sparse_grad=False,
    foreach=None,
    differentiable=False,
    has_complex=False,
    *,
    lr,
    weight_decay,
    lr_decay,
    eps,
    maximize,
):
    r"""Functional API that performs the Adagrad update over lists of tensors (in place)."""
    # complex parameters update as pairs of reals (as PyTorch; its has_complex flag)
    params, grads, state_sums = _view_as_real(params, grads, state_sums)
    if not all(isinstance(t, torch.Tensor) for t in state_steps):
        raise RuntimeError(
            "API has changed, `state_steps` argument must contain a list of singleton tensors"
        )
    if fused is None and foreach is None:
        _, foreach = _default_to_fused_or_foreach(params, differentiable, use_fused=False)
    if fused is None:
        fused = False
    if foreach is None:
        foreach = False

    if fused:
        if not params:
            return
        if has_sparse_grad or has_complex:
            raise RuntimeError("`fused` does not support sparse grad or complex param")
        if differentiable:
            raise RuntimeError("adagrad with fused=True does not support differentiable=True")
        if found_inf is not None and _scalar(found_inf) != 0:
            return
        if grad_scale is not None:
            grads = [g.div(grad_scale) for g in grads]
    else:
        if grad_scale is not None or found_inf is not None:
            raise AssertionError("Expected grad_scale and found_inf to be None")
        if foreach:
            if len(params) == 0:
                return
            if differentiable:
                raise AssertionError("_foreach ops don't support autograd")

    _adagrad_update(
        params,
        grads,
        state_sums,
        state_steps,
        lr=lr,
        weight_decay=weight_decay,
        lr_decay=lr_decay,
        eps=eps,
        maximize=maximize,
        differentiable=differentiable,
    )


def _adagrad_update(params, grads, state_sums, state_steps, *, lr, weight_decay, lr_decay, eps,
                    maximize, differentiable):
    """The Adagrad update of every parameter of a group; in-place tensor ops only."""
    lr = _to_scalar(lr)
    # the whole group in one Rust call (dense gradients; the same arithmetic)
    if (not differentiable and params and not any(g.is_sparse for g in grads)
            and not any(isinstance(v, torch.Tensor) for v in (lr, weight_decay, lr_decay, eps))
            and torch._C._foreach_adagrad_step(
                params, grads, state_sums, state_steps, lr=float(lr), lr_decay=float(lr_decay),
                weight_decay=float(weight_decay), eps=float(eps), maximize=bool(maximize))):
        return
    for param, grad, state_sum, step_t in zip(params, grads, state_sums, state_steps):
        step_t += 1
        step = _get_value(step_t)
        grad = grad if not maximize else -grad

        if weight_decay != 0:
            if grad.is_sparse:
                raise RuntimeError("weight_decay option is not compatible with sparse gradients")
            grad = _add(grad, param, alpha=weight_decay)

        clr = lr / (1 + (step - 1) * lr_decay)

        _addcmul_(state_sum, grad, grad, value=1)
        if differentiable:
            std = state_sum.sqrt() + eps
        else:
            std = state_sum.sqrt().add_(eps)
        if isinstance(clr, torch.Tensor) and clr.requires_grad:
            param.sub_(grad.mul(clr).div_(std))
        else:
            _addcdiv_(param, grad, std, value=-_scalar(clr))
