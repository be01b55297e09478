"""ASGD (averaged stochastic gradient descent), as ``torch.optim.ASGD``."""

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
    _get_scalar_dtype,
    _get_value,
    _resolve_foreach,
    _scalar,
    _to_scalar,
    _use_grad_for_differentiable,
)

__all__ = ["ASGD", "asgd"]


class ASGD(Optimizer):
    r"""Implements averaged stochastic gradient descent.

    Args:
        params (iterable): parameters or named parameters to optimize, or parameter groups
        lr (float, Tensor, optional): learning rate (default: 1e-2)
        lambd (float, optional): decay term (default: 1e-4)
        alpha (float, optional): power for eta update (default: 0.75)
        t0 (float, optional): point at which to start averaging (default: 1e6)
        weight_decay (float, optional): weight decay (L2 penalty) (default: 0)
        foreach, maximize, differentiable, capturable: as in PyTorch
    """

    def __init__(self, params, lr=1e-2, lambd=1e-4, alpha=0.75, t0=1e6, weight_decay=0,
                 foreach=None, maximize=False, differentiable=False, capturable=False):
        _check_lr(lr)
        _check_nonnegative(weight_decay, "weight_decay value")
        defaults = {
            "lr": lr,
            "lambd": lambd,
            "alpha": alpha,
            "t0": t0,
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
            keys=("step", "eta", "mu"),
            always_on_device=True,
        )

    def _init_group(self, group, params_with_grad, grads, mus, axs, etas, state_steps):
        has_complex = False
        sparse_msg = "ASGD does not support sparse gradients"
        for p, state in self._params_with_grads(group, params_with_grad, grads, sparse_msg):
            if len(state) == 0:
                state["step"] = torch.zeros((), device=p.device, dtype=_get_scalar_dtype())
                state["eta"] = torch.tensor(
                    _scalar(_to_scalar(group["lr"])), device=p.device, dtype=_get_scalar_dtype()
                )
                state["mu"] = torch.ones((), device=p.device, dtype=_get_scalar_dtype())
                state["ax"] = torch.zeros_like(p)
            mus.append(state["mu"])
            axs.append(state["ax"])
            etas.append(state["eta"])
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
            params_with_grad, grads, mus, axs, etas, state_steps = [], [], [], [], [], []
            has_complex = self._init_group(group, params_with_grad, grads, mus, axs, etas,
                                           state_steps)
            asgd(
                params_with_grad,
                grads,
                axs,
                mus,
                etas,
                state_steps,
                lambd=group["lambd"],
                lr=group["lr"],
                t0=group["t0"],
                alpha=group["alpha"],
                weight_decay=group["weight_decay"],
                foreach=group["foreach"],
                maximize=group["maximize"],
                differentiable=group["differentiable"],
                capturable=group["capturable"],
                has_complex=has_complex,
            )
        return loss


def asgd(params, grads, axs, mus, etas, state_steps, foreach=None, maximize=False,
         differentiable=False, capturable=False, has_complex=False, *, lambd, lr, t0, alpha,
         weight_decay):
    r"""Functional API that performs the ASGD update over lists of tensors (in place)."""
    # complex parameters update as pairs of reals (as PyTorch; its has_complex flag)
    params, grads, axs = _view_as_real(params, grads, axs)
    what = "params, mus, etas, and state_steps"
    run, check_per_param = _resolve_foreach(
        params, foreach, differentiable, capturable,
        lambda: _check_capturable(params, state_steps, supports_xla=False, others=(mus, etas),
                                  what=what),
    )
    if not run:
        return

    lr = _to_scalar(lr)
    for i, param in enumerate(params):
        grad = grads[i] if not maximize else -grads[i]
        mu = mus[i]
        ax = axs[i]
        eta = etas[i]
        step_t = state_steps[i]
        if check_per_param:
            _check_capturable([param], [step_t], others=([mu], [eta]), what=what)

        step_t += 1

        if weight_decay != 0:
            grad = _add(grad, param, alpha=weight_decay)

        if capturable:
            param.mul_(1 - lambd * eta)
            _addcmul_(param, grad, eta, value=-1)
        else:
            eta_value = _get_value(eta)
            param.mul_(1 - lambd * eta_value)
            _add_(param, grad, alpha=-eta_value)

        # averaging
        if capturable or mu.item() != 1:
            ax.add_(param.sub(ax).mul_(mu))
        else:
            ax.copy_(param)

        if capturable:
            eta.copy_(lr / ((1 + lambd * lr * step_t) ** alpha))
            mu.copy_(1 / torch.maximum(step_t - t0, torch.ones_like(step_t)))
        else:
            step = _get_value(step_t)
            eta.fill_(_scalar(lr / ((1 + lambd * lr * step) ** alpha)))
            mu.fill_(1 / max(1, step - t0))
