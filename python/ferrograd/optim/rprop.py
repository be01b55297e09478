"""Rprop (resilient backpropagation), as ``torch.optim.Rprop``."""

import ferrograd as torch

from .optimizer import (
    _view_as_real,
    Optimizer,
    _addcmul_,
    _check_capturable,
    _check_lr,
    _check_state_steps,
    _new_step,
    _resolve_foreach,
    _scalar,
    _to_scalar,
    _use_grad_for_differentiable,
)

__all__ = ["Rprop", "rprop"]


class Rprop(Optimizer):
    r"""Implements the resilient backpropagation algorithm.

    Args:
        params (iterable): parameters or named parameters to optimize, or parameter groups
        lr (float, Tensor, optional): initial step size (default: 1e-2)
        etas (Tuple[float, float], optional): (etaminus, etaplus) (default: (0.5, 1.2))
        step_sizes (Tuple[float, float], optional): minimal and maximal step sizes
            (default: (1e-6, 50))
        capturable, foreach, maximize, differentiable: as in PyTorch
    """

    def __init__(self, params, lr=1e-2, etas=(0.5, 1.2), step_sizes=(1e-6, 50), *,
                 capturable=False, foreach=None, maximize=False, differentiable=False):
        _check_lr(lr)
        if not 0.0 < etas[0] < 1.0 < etas[1]:
            raise ValueError(f"Invalid eta values: {etas[0]}, {etas[1]}")
        defaults = {
            "lr": lr,
            "etas": etas,
            "step_sizes": step_sizes,
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

    def _init_group(self, group, params, grads, prevs, step_sizes, state_steps):
        has_complex = False
        sparse_msg = "Rprop does not support sparse gradients"
        for p, state in self._params_with_grads(group, params, grads, sparse_msg):
            if len(state) == 0:
                state["step"] = _new_step(group, p)
                state["prev"] = torch.zeros_like(p)
                state["step_size"] = torch.full_like(p.grad, _scalar(_to_scalar(group["lr"])))
            prevs.append(state["prev"])
            step_sizes.append(state["step_size"])
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
            params, grads, prevs, step_sizes, state_steps = [], [], [], [], []
            etaminus, etaplus = group["etas"]
            step_size_min, step_size_max = group["step_sizes"]
            has_complex = self._init_group(group, params, grads, prevs, step_sizes, state_steps)
            rprop(
                params,
                grads,
                prevs,
                step_sizes,
                state_steps,
                step_size_min=step_size_min,
                step_size_max=step_size_max,
                etaminus=etaminus,
                etaplus=etaplus,
                foreach=group["foreach"],
                maximize=group["maximize"],
                differentiable=group["differentiable"],
                capturable=group["capturable"],
                has_complex=has_complex,
            )
        return loss


def rprop(params, grads, prevs, step_sizes, state_steps, foreach=None, capturable=False,
          maximize=False, differentiable=False, has_complex=False, *, step_size_min,
          step_size_max, etaminus, etaplus):
    r"""Functional API that performs the Rprop update over lists of tensors (in place)."""
    # complex parameters update as pairs of reals (as PyTorch; its has_complex flag)
    params, grads, prevs, step_sizes = _view_as_real(params, grads, prevs, step_sizes)
    _check_state_steps(state_steps)
    run, check_per_param = _resolve_foreach(
        params, foreach, differentiable, capturable,
        lambda: _check_capturable(params, state_steps),
    )
    if not run:
        return

    for i, param in enumerate(params):
        grad = grads[i] if not maximize else -grads[i]
        prev = prevs[i]
        step_size = step_sizes[i]
        step = state_steps[i]
        if check_per_param:
            _check_capturable([param], [step])

        step += 1

        sign = grad.mul(prev.clone() if differentiable else prev).sign()
        if capturable:
            sign.copy_(torch.where(sign.gt(0), etaplus, sign))
            sign.copy_(torch.where(sign.lt(0), etaminus, sign))
            sign.copy_(torch.where(sign.eq(0), 1, sign))
        else:
            sign[sign.gt(0)] = etaplus
            sign[sign.lt(0)] = etaminus
            sign[sign.eq(0)] = 1

        # update stepsizes with step size updates
        step_size.mul_(sign).clamp_(step_size_min, step_size_max)

        # for dir<0, dfdx=0; for dir>=0 dfdx=dfdx
        grad = grad.clone()
        if capturable:
            grad.copy_(torch.where(sign.eq(etaminus), 0, grad))
        else:
            grad[sign.eq(etaminus)] = 0

        # update parameters
        _addcmul_(param, grad.sign(), step_size, value=-1)
        prev.copy_(grad)
