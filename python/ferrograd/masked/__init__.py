"""``torch.masked``: reductions and normalizations of strided tensors that skip the elements
where ``mask`` is False (broadcast to the input). A masked-out element takes the reduction's
identity (0 for sums, 1 for products, the lowest value for maxima, ...); slices with nothing
left give that identity, or NaN where there is none (mean, variance, median, softmax).
``MaskedTensor`` is not provided."""

from . import _ops
from ._ops import (amax, amin, argmax, argmin, cumprod, cumsum, log_softmax, logsumexp, mean, median, norm,
                   normalize, prod, softmax, softmin, std, sum, var)

__all__ = ["amax", "amin", "argmax", "argmin", "cumprod", "cumsum", "log_softmax", "logsumexp", "mean", "median",
           "norm", "normalize", "prod", "softmax", "softmin", "std", "sum", "var"]
