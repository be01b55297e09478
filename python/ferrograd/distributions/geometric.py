"""``Geometric(probs | logits)``: the number of failures before the first success."""

import numbers

from . import constraints
from .distribution import Distribution
from .utils import broadcast_all, lazy_property, logits_to_probs, probs_to_logits

__all__ = ["Geometric"]


def _torch():
    import ferrograd

    return ferrograd


class Geometric(Distribution):
    """Failures before the first success of Bernoulli(``probs``) trials; samples are
    ``floor(log u / log(1 - p))`` with ``u = uniform_(tiny, 1)`` (PyTorch's stream)."""

    arg_constraints = {"probs": constraints.unit_interval, "logits": constraints.real}
    support = constraints.nonnegative_integer

    def __init__(self, probs=None, logits=None, validate_args=None):
        if (probs is None) == (logits is None):
            raise ValueError("Either `probs` or `logits` must be specified, but not both.")
        if probs is not None:
            (self.probs,) = broadcast_all(probs)
        else:
            (self.logits,) = broadcast_all(logits)
        probs_or_logits = probs if probs is not None else logits
        batch_shape = () if isinstance(probs_or_logits, numbers.Number) else probs_or_logits.size()
        super().__init__(batch_shape, validate_args=validate_args)
        if self._validate_args and probs is not None:
            value = self.probs
            valid = value > 0
            if not valid.all():
                invalid_value = value.data[~valid]
                raise ValueError(f"Expected parameter probs ({type(value).__name__} of shape {tuple(value.shape)}) "
                                 f"of distribution {self!r} to be positive but found invalid values:\n{invalid_value}")

    def expand(self, batch_shape, _instance=None):
        """This distribution with its parameter expanded to ``batch_shape``."""
        new = self._get_checked_instance(Geometric, _instance)
        batch_shape = _torch().Size(batch_shape)
        if "probs" in self.__dict__:
            new.probs = self.probs.expand(batch_shape)
        if "logits" in self.__dict__:
            new.logits = self.logits.expand(batch_shape)
        super(Geometric, new).__init__(batch_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    @property
    def mean(self):
        """``1/p - 1``."""
        return 1.0 / self.probs - 1.0

    @property
    def mode(self):
        """Zero."""
        return _torch().zeros_like(self.probs)

    @property
    def variance(self):
        """``(1/p - 1) / p``."""
        return (1.0 / self.probs - 1.0) / self.probs

    @lazy_property
    def logits(self):
        """Log-odds of success."""
        return probs_to_logits(self.probs, is_binary=True)

    @lazy_property
    def probs(self):
        """The success probability."""
        return logits_to_probs(self.logits, is_binary=True)

    def sample(self, sample_shape=()):
        """``floor(log u / log(1 - p))``, without gradient."""
        from .. import no_grad

        t = _torch()
        shape = self._extended_shape(sample_shape)
        tiny = t.finfo(self.probs.dtype).tiny
        with no_grad():
            u = t.empty(shape, dtype=self.probs.dtype, device=self.probs.device).uniform_(tiny, 1)
            return (u.log() / (-self.probs).log1p()).floor()

    def log_prob(self, value):
        """``x log(1 - p) + log p``."""
        if self._validate_args:
            self._validate_sample(value)
        value, probs = broadcast_all(value, self.probs)
        probs = probs.clone()
        probs[(probs == 1) & (value == 0)] = 0
        return value * (-probs).log1p() + self.probs.log()

    def entropy(self):
        """``BCE(logits, probs) / p``."""
        from ..nn.functional import binary_cross_entropy_with_logits

        return binary_cross_entropy_with_logits(self.logits, self.probs, reduction="none") / self.probs
