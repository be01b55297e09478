r"""Stochastic Weight Averaging and exponential moving averages of a model's weights, as
``torch.optim.swa_utils`` (PyTorch 2.13): :class:`AveragedModel`, :class:`SWALR`,
:func:`update_bn` and the averaging-function factories."""

import itertools
import math
import warnings
from copy import deepcopy

import ferrograd as torch
from ferrograd.nn import Module

from .lr_scheduler import LRScheduler, _format_param
from .optimizer import _lerp_

__all__ = [
    "AveragedModel",
    "update_bn",
    "SWALR",
    "get_ema_multi_avg_fn",
    "get_swa_multi_avg_fn",
    "get_ema_avg_fn",
    "get_swa_avg_fn",
]


def _lerp_list_(starts, ends, weight):
    """``torch._foreach_lerp_(starts, ends, weight)``: each ``start.lerp_(end, weight)``."""
    for s, e in zip(starts, ends):
        _lerp_(s, e, weight)


def _check_decay(decay):
    if decay < 0.0 or decay > 1.0:
        raise ValueError(
            f"Invalid decay value {decay} provided. Please provide a value in [0,1] range."
        )


def get_ema_multi_avg_fn(decay=0.999):
    """The in-place exponential moving average over lists of parameters:
    ``ema = decay * ema + (1 - decay) * model`` (for :class:`AveragedModel`'s ``multi_avg_fn``).

    Args:
        decay (float): decay rate in ``[0, 1]`` (default: 0.999)
    """
    _check_decay(decay)

    def ema_update(ema_param_list, current_param_list, _):
        with torch.no_grad():
            if torch.is_floating_point(ema_param_list[0]) or torch.is_complex(ema_param_list[0]):
                _lerp_list_(ema_param_list, current_param_list, 1 - decay)
            else:
                for p_ema, p_model in zip(ema_param_list, current_param_list):
                    p_ema.copy_(p_ema * decay + p_model * (1 - decay))

    return ema_update


def get_swa_multi_avg_fn():
    """The in-place equal-weight running average over lists of parameters:
    ``avg += (model - avg) / (num_averaged + 1)`` (for :class:`AveragedModel`'s ``multi_avg_fn``)."""

    def swa_update(averaged_param_list, current_param_list, num_averaged):
        with torch.no_grad():
            if torch.is_floating_point(averaged_param_list[0]) or torch.is_complex(averaged_param_list[0]):
                _lerp_list_(averaged_param_list, current_param_list, 1 / (num_averaged + 1))
            else:
                diffs = [c - a for c, a in zip(current_param_list, averaged_param_list)]
                if isinstance(num_averaged, torch.Tensor):
                    for a, diff in zip(averaged_param_list, diffs):
                        a.addcdiv_(diff, num_averaged + 1)
                else:
                    for a, diff in zip(averaged_param_list, diffs):
                        a.add_(diff, alpha=1.0 / (num_averaged + 1))

    return swa_update


def get_ema_avg_fn(decay=0.999):
    """The exponential moving average of one parameter: returns
    ``decay * ema_param + (1 - decay) * current_param`` (for :class:`AveragedModel`'s ``avg_fn``).

    Args:
        decay (float): decay rate in ``[0, 1]`` (default: 0.999)
    """
    _check_decay(decay)

    def ema_update(ema_param, current_param, num_averaged):
        with torch.no_grad():
            return decay * ema_param + (1 - decay) * current_param

    return ema_update


def get_swa_avg_fn():
    """The equal-weight running average of one parameter: returns
    ``averaged + (current - averaged) / (num_averaged + 1)`` (for :class:`AveragedModel`'s ``avg_fn``)."""

    def swa_update(averaged_param, current_param, num_averaged):
        with torch.no_grad():
            return averaged_param + (current_param - averaged_param) / (num_averaged + 1)

    return swa_update


def _group_by_device_and_dtype(self_params, model_params):
    """``{(device, dtype): (self_list, model_list)}`` in order of first appearance."""
    groups = {}
    for a, m in zip(self_params, model_params):
        key = (a.device, a.dtype)
        if key not in groups:
            groups[key] = ([], [])
        groups[key][0].append(a)
        groups[key][1].append(m)
    return groups


class AveragedModel(Module):
    r"""A copy of ``model`` whose parameters (and, with ``use_buffers``, buffers) are running
    averages of ``model``'s, for Stochastic Weight Averaging (SWA) and exponential moving
    averages (EMA).

    Args:
        model (Module): the model to average (deep-copied into ``self.module``)
        device (torch.device, optional): where to keep the averaged model
        avg_fn (callable, optional): ``avg_fn(averaged_param, model_param, num_averaged)``
            returning the new average of one parameter
        multi_avg_fn (callable, optional): ``multi_avg_fn(averaged_list, model_list,
            num_averaged)`` updating lists of parameters in place; with neither function an
            equal-weight average (SWA) is used
        use_buffers (bool): average the buffers too (default: ``False``: copy them)

    The first :meth:`update_parameters` copies ``model``'s values; ``n_averaged`` (a buffer)
    counts the updates.
    """

    def __init__(self, model, device=None, avg_fn=None, multi_avg_fn=None, use_buffers=False):
        super().__init__()
        if avg_fn is not None and multi_avg_fn is not None:
            raise AssertionError("Only one of avg_fn and multi_avg_fn should be provided")
        self.module = deepcopy(model)
        if device is not None:
            self.module = self.module.to(device)
        self.register_buffer("n_averaged", torch.tensor(0, dtype=torch.long, device=device))
        self.avg_fn = avg_fn
        self.multi_avg_fn = multi_avg_fn
        self.use_buffers = use_buffers

    def forward(self, *args, **kwargs):
        """Forward pass: the averaged module's."""
        return self.module(*args, **kwargs)

    def update_parameters(self, model):
        """Fold ``model``'s current parameters (and buffers, with ``use_buffers``) into the
        averages, then increment ``n_averaged``."""
        self_param = (
            itertools.chain(self.module.parameters(), self.module.buffers())
            if self.use_buffers
            else self.parameters()
        )
        model_param = (
            itertools.chain(model.parameters(), model.buffers())
            if self.use_buffers
            else model.parameters()
        )
        self_param_detached = []
        model_param_detached = []
        copy_param = bool(self.n_averaged == 0)
        for p_averaged, p_model in zip(self_param, model_param):
            p_model_ = p_model.detach().to(p_averaged.device)
            self_param_detached.append(p_averaged.detach())
            model_param_detached.append(p_model_)
            if copy_param:
                p_averaged.detach().copy_(p_model_)

        if self.n_averaged > 0:
            if self.multi_avg_fn is not None or self.avg_fn is None:
                grouped = _group_by_device_and_dtype(self_param_detached, model_param_detached)
                for (device, _), (self_params, model_params) in grouped.items():
                    if self.multi_avg_fn:
                        self.multi_avg_fn(self_params, model_params, self.n_averaged.to(device))
                    else:
                        # the CPU has no foreach kernels: PyTorch averages one tensor at a time
                        avg_fn = get_swa_avg_fn()
                        n_averaged = self.n_averaged.to(device)
                        for p_averaged, p_model in zip(self_params, model_params):
                            p_averaged.copy_(avg_fn(p_averaged, p_model, n_averaged))
            else:
                for p_averaged, p_model in zip(self_param_detached, model_param_detached):
                    n_averaged = self.n_averaged.to(p_averaged.device)
                    p_averaged.detach().copy_(self.avg_fn(p_averaged.detach(), p_model, n_averaged))

        if not self.use_buffers:
            # keep the buffers in sync with the source model
            for b_swa, b_model in zip(self.module.buffers(), model.buffers(), strict=True):
                b_swa.detach().copy_(b_model.detach().to(b_swa.device))
        self.n_averaged += 1


def update_bn(loader, model, device=None):
    r"""Recompute the BatchNorm running statistics of ``model`` with one pass over ``loader``.

    Each batch is a tensor, or a list/tuple whose first element is the input; the running
    means and variances are reset and re-estimated as cumulative averages (``momentum=None``),
    then the momenta and the training mode are restored.

    Args:
        loader (iterable): the batches
        model (Module): the model whose BatchNorm statistics to update
        device (torch.device, optional): move each batch there first
    """
    with torch.no_grad():
        momenta = {}
        for module in model.modules():
            if isinstance(module, torch.nn.modules.batchnorm._BatchNorm):
                module.reset_running_stats()
                momenta[module] = module.momentum

        if not momenta:
            return

        was_training = model.training
        model.train()
        for module in momenta:
            module.momentum = None

        for input in loader:
            if isinstance(input, (list, tuple)):
                input = input[0]
            if device is not None:
                input = input.to(device)
            model(input)

        for bn_module in momenta:
            bn_module.momentum = momenta[bn_module]
        model.train(was_training)


class SWALR(LRScheduler):
    r"""Anneals the learning rate of each parameter group to a fixed ``swa_lr``, for SWA.

    Args:
        optimizer (Optimizer): wrapped optimizer
        swa_lr (float or list): the target learning rate, for all groups or one per group
        anneal_epochs (int): number of epochs of the annealing phase (default: 10)
        anneal_strategy (str): ``"cos"`` (cosine annealing, default) or ``"linear"``
        last_epoch (int): the index of the last epoch (default: -1)
    """

    def __init__(self, optimizer, swa_lr, anneal_epochs=10, anneal_strategy="cos", last_epoch=-1):
        swa_lrs = _format_param("swa_lr", optimizer, swa_lr)
        for lr, group in zip(swa_lrs, optimizer.param_groups):
            group["swa_lr"] = lr
        if anneal_strategy not in ["cos", "linear"]:
            raise ValueError(
                "anneal_strategy must be one of 'cos' or 'linear', "
                f"instead got {anneal_strategy}"
            )
        self._set_anneal_func(anneal_strategy)
        if not isinstance(anneal_epochs, int) or anneal_epochs < 0:
            raise ValueError(f"anneal_epochs must be equal or greater than 0, got {anneal_epochs}")
        self.anneal_epochs = anneal_epochs
        super().__init__(optimizer, last_epoch)

    @staticmethod
    def _linear_anneal(t):
        return t

    @staticmethod
    def _cosine_anneal(t):
        return (1 - math.cos(math.pi * t)) / 2

    @staticmethod
    def _get_initial_lr(lr, swa_lr, alpha):
        if alpha == 1:
            return swa_lr
        return (lr - alpha * swa_lr) / (1 - alpha)

    def get_lr(self):
        """The next learning rate of each param group: an interpolation (by the anneal
        function) between the group's current ``lr`` and its ``swa_lr`` over
        ``anneal_epochs`` epochs, then ``swa_lr``."""
        if not self._get_lr_called_within_step:
            warnings.warn(
                "To get the last learning rate computed by the scheduler, "
                "please use `get_last_lr()`.",
                UserWarning,
                stacklevel=2,
            )
        step = self._step_count - 1
        if self.anneal_epochs == 0:
            step = max(1, step)
        prev_t = max(0, min(1, (step - 1) / max(1, self.anneal_epochs)))
        prev_alpha = self.anneal_func(prev_t)
        prev_lrs = [
            self._get_initial_lr(group["lr"], group["swa_lr"], prev_alpha)
            for group in self.optimizer.param_groups
        ]
        t = max(0, min(1, step / max(1, self.anneal_epochs)))
        alpha = self.anneal_func(t)
        return [
            group["swa_lr"] * alpha + lr * (1 - alpha)
            for group, lr in zip(self.optimizer.param_groups, prev_lrs)
        ]

    def _set_anneal_func(self, anneal_strategy):
        self._anneal_strategy = anneal_strategy
        if anneal_strategy == "cos":
            self.anneal_func = self._cosine_anneal
        else:
            self.anneal_func = self._linear_anneal

    def state_dict(self):
        """The scheduler's state: every attribute except the optimizer and the anneal function."""
        return {
            key: value
            for key, value in self.__dict__.items()
            if key not in ("optimizer", "anneal_func")
        }

    def load_state_dict(self, state_dict):
        """Load the scheduler's state (an object returned by :meth:`state_dict`)."""
        self.__dict__.update(state_dict)
        self._set_anneal_func(self._anneal_strategy)
