"""Adafactor (factored second moments, relative step sizes), as ``torch.optim.Adafactor``
(PyTorch 2.13: the same arguments, validation messages, state keys and update formulas, with
both the for-loop and the ``foreach`` arithmetic)."""

import ferrograd as torch

from .optimizer import Optimizer, _add_, _get_scalar_dtype, _lerp_, _to_scalar

__all__ = ["Adafactor", "adafactor"]


class Adafactor(Optimizer):
    r"""Implements the Adafactor algorithm (Shazeer & Stern, 2018), as PyTorch does.

    For a parameter with more than one dimension the second moment is kept factored along the
    last two dimensions (``row_var``: the mean of ``g**2`` over the last dim, ``col_var``: over
    the second-to-last); a vector keeps a full ``variance``. Each step:

    * ``beta2_t = 1 - t ** beta2_decay``, ``rho_t = min(lr, 1 / sqrt(t))``,
      ``alpha_t = max(eps2, RMS(param)) * rho_t``;
    * decoupled weight decay ``param *= 1 - lr * weight_decay``;
    * the variance estimate ``row_var @ col_var / max(mean(row_var), eps1)`` (or ``variance``);
    * ``update = grad / max(sqrt(var_estimate), eps1)``, clipped to ``RMS(update) <= d``;
    * ``param -= alpha_t * update``.

    Args:
        params (iterable): parameters or named parameters to optimize, or parameter groups
        lr (float, Tensor, optional): maximum relative step size and weight-decay factor
            (default: 1e-2)
        beta2_decay (float, optional): the decay rate of beta2 (default: -0.8)
        eps (Tuple[float | None, float], optional): epsilon1 (default: ``None``, the machine
            epsilon of the parameter's dtype) and epsilon2 (default: 1e-3)
        d (float, optional): the clipping threshold of the update's RMS (default: 1.0)
        weight_decay (float, optional): decoupled weight decay coefficient (default: 0.0)
        foreach (bool, optional): use the multi-tensor arithmetic (default: None, the for-loop)
        maximize (bool, optional): maximize the objective instead of minimizing (default: False)
    """

    def __init__(self, params, lr=1e-2, beta2_decay=-0.8, eps=(None, 1e-3), d=1.0,
                 weight_decay=0.0, *, foreach=None, maximize=False):
        if isinstance(lr, torch.Tensor) and lr.numel() != 1:
            raise ValueError("Tensor lr must be 1-element")
        if not 0.0 <= lr:
            raise ValueError(f"Learning rate should be >= 0 but is: {lr}")
        if not 0.0 >= beta2_decay:
            raise ValueError(f"beta2_decay should be <= 0 but is: {beta2_decay}")
        if eps[0] is not None and not 0.0 <= eps[0]:
            raise ValueError(f"epsilon1 should be >= 0 but is: {eps[0]}")
        if not 0.0 <= eps[1]:
            raise ValueError(f"epsilon2 should be >= 0 but is: {eps[1]}")
        if not 1.0 <= d:
            raise ValueError(f"Clipping threshold d should be >= 1 but is: {d}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"weight_decay should be >= 0 but is: {weight_decay}")
        defaults = {
            "lr": lr,
            "beta2_decay": beta2_decay,
            "eps": eps,
            "d": d,
            "weight_decay": weight_decay,
            "foreach": foreach,
            "maximize": maximize,
        }
        super().__init__(params, defaults)

    def __setstate__(self, state):
        super().__setstate__(state)
        for group in self.param_groups:
            group.setdefault("foreach", None)
            for p in group["params"]:
                p_state = self.state.get(p, [])
                if len(p_state) != 0 and not torch.is_tensor(p_state["step"]):
                    p_state["step"] = torch.tensor(float(p_state["step"]), dtype=_get_scalar_dtype())

    def _init_group(self, group, params_with_grad, grads, row_vars, col_vars, variances,
                    state_steps):
        for p in group["params"]:
            if p.grad is None:
                continue
            if torch.is_complex(p):
                raise RuntimeError("Adafactor does not support complex parameters")
            if p.grad.is_sparse:
                raise RuntimeError("Adafactor does not support sparse gradients")
            params_with_grad.append(p)
            grads.append(p.grad)
            state = self.state[p]
            if len(state) == 0:
                state["step"] = torch.tensor(0.0, dtype=_get_scalar_dtype())
                if p.grad.dim() > 1:
                    row_shape = list(p.grad.shape)
                    row_shape[-1] = 1
                    state["row_var"] = p.grad.new_zeros(row_shape)
                    col_shape = list(p.grad.shape)
                    col_shape[-2] = 1
                    state["col_var"] = p.grad.new_zeros(col_shape)
                else:
                    state["variance"] = torch.zeros_like(p.grad)
            row_vars.append(state.get("row_var", None))
            col_vars.append(state.get("col_var", None))
            variances.append(state.get("variance", None))
            state_steps.append(state["step"])
        return False  # has_complex

    def step(self, closure=None):
        """Perform a single optimization step.

        Args:
            closure (Callable, optional): A closure that reevaluates the model and returns the loss.
        """
        loss = self._closure_loss(closure)
        with torch.no_grad():
            for group in self.param_groups:
                params_with_grad, grads, row_vars, col_vars, variances, state_steps = [], [], [], [], [], []
                eps1, eps2 = group["eps"]
                has_complex = self._init_group(group, params_with_grad, grads, row_vars, col_vars,
                                               variances, state_steps)
                adafactor(
                    params_with_grad,
                    grads,
                    row_vars,
                    col_vars,
                    variances,
                    state_steps,
                    d=group["d"],
                    lr=group["lr"],
                    beta2_decay=group["beta2_decay"],
                    weight_decay=group["weight_decay"],
                    eps1=eps1,
                    eps2=eps2,
                    foreach=group["foreach"],
                    maximize=group["maximize"],
                    grad_scale=getattr(self, "grad_scale", None),
                    found_inf=getattr(self, "found_inf", None),
                    has_complex=has_complex,
                )
        return loss


Adafactor.__module__ = "ferrograd.optim"


def _row_col_mean(grad, dim):
    """``(grad * grad).mean(dim, keepdim=True)`` computed as PyTorch does (a norm, squared)."""
    return torch.norm(grad, dim=dim, keepdim=True).square_().div_(grad.size(dim))


def _single_tensor_adafactor(params, grads, row_vars, col_vars, variances, state_steps, grad_scale,
                             found_inf, *, d, lr, beta2_decay, weight_decay, eps1, eps2, maximize,
                             has_complex):
    if grad_scale is not None or found_inf is not None:
        raise AssertionError("Grad scaling should occur outside of optimizer.step()")
    lr = _to_scalar(lr)
    for i, param in enumerate(params):
        grad = grads[i] if not maximize else -grads[i]
        step_t = state_steps[i]
        row_var, col_var, variance = row_vars[i], col_vars[i], variances[i]
        if eps1 is None:
            eps1 = torch.finfo(param.dtype).eps

        step_t += 1
        step_float = step_t.item()

        one_minus_beta2_t = step_float ** beta2_decay
        rho_t = min(lr, 1 / (step_float ** 0.5))
        alpha = max(eps2, param.norm(2).item() / (param.numel() ** 0.5)) * rho_t

        if weight_decay != 0:
            param.mul_(1 - lr * weight_decay)

        if grad.dim() > 1:
            if row_var is None or col_var is None:
                raise AssertionError(
                    "row_var and col_var should be defined when grad is multidimensional"
                )
            _lerp_(row_var, _row_col_mean(grad, -1), one_minus_beta2_t)
            _lerp_(col_var, _row_col_mean(grad, -2), one_minus_beta2_t)
            var_estimate = row_var @ col_var
            var_estimate.div_(row_var.mean(dim=-2, keepdim=True).clamp_(min=eps1))
        else:
            if variance is None:
                raise AssertionError("variance should be defined when grad is a vector")
            _lerp_(variance, grad * grad, one_minus_beta2_t)
            var_estimate = variance.clone()

        update = var_estimate.clamp_(min=eps1 * eps1).rsqrt_()
        update.mul_(grad)
        denom = max(1.0, update.norm(2).item() / ((update.numel() ** 0.5) * d))
        _add_(param, update, alpha=-alpha / denom)


def _group_by_device_dtype_and_is_multidim(tensorlists):
    """Split the parallel lists by (device, dtype, grad has more than one dim), in order of
    first appearance."""
    groups = {}
    for j, p in enumerate(tensorlists[0]):
        grad = tensorlists[1][j]
        if grad is None:
            raise AssertionError("grad should not be None")
        key = (p.device, p.dtype, grad.dim() > 1)
        if key not in groups:
            groups[key] = [[] for _ in tensorlists]
        for i, lst in enumerate(tensorlists):
            groups[key][i].append(lst[j])
    return groups


def _multi_tensor_adafactor(params, grads, row_vars, col_vars, variances, state_steps, grad_scale,
                            found_inf, *, d, lr, beta2_decay, weight_decay, eps1, eps2, maximize,
                            has_complex):
    if len(params) == 0:
        return
    if grad_scale is not None or found_inf is not None:
        raise AssertionError("Grad scaling should occur outside of optimizer.step()")
    lr = _to_scalar(lr)

    grouped = _group_by_device_dtype_and_is_multidim(
        [params, grads, row_vars, col_vars, variances, state_steps]
    )
    for (_, dtype, is_multidim), (g_params, g_grads, g_rows, g_cols, g_vars, g_steps) in grouped.items():
        if eps1 is None:
            eps1 = torch.finfo(dtype).eps
        if maximize:
            g_grads = [-g for g in g_grads]
        for s in g_steps:
            s.add_(torch.tensor(1.0), alpha=1.0)

        one_minus_beta2_ts = [s.item() ** beta2_decay for s in g_steps]
        rho_ts = [min(lr, 1 / (s.item() ** 0.5)) for s in g_steps]
        alphas = [max(eps2, p.norm(2).item() / (p.numel() ** 0.5)) * r for p, r in zip(g_params, rho_ts)]

        if weight_decay != 0:
            for p in g_params:
                p.mul_(1 - lr * weight_decay)

        if is_multidim:
            if g_rows[0] is None or g_cols[0] is None:
                raise AssertionError(
                    "row_var and col_var should be defined when grad is multidimensional"
                )
            for row_var, col_var, grad, w in zip(g_rows, g_cols, g_grads, one_minus_beta2_ts):
                row_mean = torch.norm(grad, dim=-1, keepdim=True)
                row_mean.mul_(row_mean).div_(grad.size(-1))
                _lerp_(row_var, row_mean, w)
            for row_var, col_var, grad, w in zip(g_rows, g_cols, g_grads, one_minus_beta2_ts):
                col_mean = torch.norm(grad, dim=-2, keepdim=True)
                col_mean.mul_(col_mean).div_(grad.size(-2))
                _lerp_(col_var, col_mean, w)
            var_estimates = [r @ c for r, c in zip(g_rows, g_cols)]
            for v, r in zip(var_estimates, g_rows):
                v.div_(r.mean(dim=-2, keepdim=True).clamp_(min=eps1))
        else:
            if g_vars[0] is None:
                raise AssertionError("variance should be defined when grad is a vector")
            for variance, grad, w in zip(g_vars, g_grads, one_minus_beta2_ts):
                _lerp_(variance, grad * grad, w)
            var_estimates = [v.clone() for v in g_vars]

        updates = []
        for v, grad in zip(var_estimates, g_grads):
            updates.append(v.clamp_(min=eps1 * eps1).rsqrt_().mul_(grad))
        scales = [
            -a / (max(1.0, u.norm(2).item() / ((u.numel() ** 0.5) * d)))
            for a, u in zip(alphas, updates)
        ]
        for p, u, s in zip(g_params, updates, scales):
            p.add_(u.mul_(s))


def adafactor(params, grads, row_vars, col_vars, variances, state_steps, foreach=None,
              grad_scale=None, found_inf=None, has_complex=False, *, d, lr, beta2_decay,
              weight_decay, eps1, eps2, maximize):
    r"""Functional API that performs the Adafactor update over lists of tensors (in place).

    See :class:`~ferrograd.optim.Adafactor` for details.
    """
    if not all(isinstance(t, torch.Tensor) for t in state_steps):
        raise RuntimeError("`state_steps` argument must contain a list of singleton tensors")
    func = _multi_tensor_adafactor if foreach else _single_tensor_adafactor
    func(params, grads, row_vars, col_vars, variances, state_steps, d=d, lr=lr,
         beta2_decay=beta2_decay, weight_decay=weight_decay, eps1=eps1, eps2=eps2,
         maximize=maximize, grad_scale=grad_scale, found_inf=found_inf, has_complex=has_complex)
