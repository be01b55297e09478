"""``torch.special``: the special functions under their SciPy-style names (each the same
function as its ``torch.*`` counterpart, so values, gradients and ``grad_fn`` names match)."""

import ferrograd as _torch

__all__ = [
    "erf", "erfinv", "expit", "logit", "xlogy", "log1p", "expm1", "exp2", "digamma", "psi", "gammaln",
    "logsumexp", "softmax", "log_softmax", "round",
]


def erf(input):
    """The error function of the elements."""
    return _torch.erf(input)


def erfinv(input):
    """The inverse error function of the elements."""
    return _torch.erfinv(input)


def expit(input):
    """The logistic sigmoid ``1 / (1 + exp(-x))`` of the elements."""
    return _torch.sigmoid(input)


def logit(input, eps=None):
    """``log(p / (1 - p))``, ``p`` clamped to ``[eps, 1 - eps]`` when ``eps`` is given."""
    return _torch.logit(input, eps)


def xlogy(input, other):
    """``input * log(other)``, 0 where ``input`` is 0."""
    return _torch.xlogy(input, other)


def log1p(input):
    """``log(1 + x)`` of the elements."""
    return _torch.log1p(input)


def expm1(input):
    """``exp(x) - 1`` of the elements."""
    return _torch.expm1(input)


def exp2(input):
    """``2 ** x`` of the elements."""
    return _torch.exp2(input)


def digamma(input):
    """The digamma function of the elements."""
    return _torch.digamma(input)


psi = digamma


def gammaln(input):
    """``ln |Γ(x)|`` of the elements."""
    return _torch.lgamma(input)


def logsumexp(input, dim, keepdim=False):
    """``log(sum(exp(x)))`` over ``dim``, computed stably."""
    return _torch.logsumexp(input, dim, keepdim)


def softmax(input, dim, *, dtype=None):
    """Softmax over ``dim``."""
    return _torch.softmax(input, dim, dtype=dtype)


def log_softmax(input, dim, *, dtype=None):
    """Log-softmax over ``dim``."""
    return _torch.log_softmax(input, dim, dtype=dtype)


def round(input, *, decimals=0):
    """The elements rounded half to even (to ``decimals`` decimal places)."""
    return _torch.round(input, decimals=decimals)
