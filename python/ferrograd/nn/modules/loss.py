"""Loss modules."""

import warnings

from .. import functional as F
from .module import Module

__all__ = ["MSELoss", "CrossEntropyLoss"]


def _legacy_get_string(size_average, reduce, emit_warning=True):
    # the reduction the deprecated size_average/reduce flags ask for
    warning = "size_average and reduce args will be deprecated, please use reduction='{}' instead."
    if size_average is None:
        size_average = True
    if reduce is None:
        reduce = True
    if size_average and reduce:
        ret = "mean"
    elif reduce:
        ret = "sum"
    else:
        ret = "none"
    if emit_warning:
        warnings.warn(warning.format(ret), stacklevel=2)
    return ret


class _Loss(Module):
    def __init__(self, size_average=None, reduce=None, reduction="mean"):
        super().__init__()
        if size_average is not None or reduce is not None:
            self.reduction = _legacy_get_string(size_average, reduce)
        else:
            self.reduction = reduction


class _WeightedLoss(_Loss):
    def __init__(self, weight=None, size_average=None, reduce=None, reduction="mean"):
        super().__init__(size_average, reduce, reduction)
        self.register_buffer("weight", weight)


class MSELoss(_Loss):
    """Mean squared error."""

    __constants__ = ["reduction"]

    def __init__(self, size_average=None, reduce=None, reduction="mean"):
        super().__init__(size_average, reduce, reduction)

    def forward(self, input, target):
        return F.mse_loss(input, target, reduction=self.reduction)


class CrossEntropyLoss(_WeightedLoss):
    """Cross entropy of logits against class indices or class probabilities."""

    __constants__ = ["ignore_index", "reduction", "label_smoothing"]

    def __init__(self, weight=None, size_average=None, ignore_index=-100, reduce=None,
                 reduction="mean", label_smoothing=0.0):
        super().__init__(weight, size_average, reduce, reduction)
        self.ignore_index = ignore_index
        self.label_smoothing = label_smoothing

    def forward(self, input, target):
        # options left at their defaults are not passed, so a functional that lacks them
        # still serves the default case; a non-default one it lacks raises a TypeError
        kwargs = {"reduction": self.reduction}
        if self.weight is not None:
            kwargs["weight"] = self.weight
        if self.ignore_index != -100:
            kwargs["ignore_index"] = self.ignore_index
        if self.label_smoothing != 0.0:
            kwargs["label_smoothing"] = self.label_smoothing
        return F.cross_entropy(input, target, **kwargs)
