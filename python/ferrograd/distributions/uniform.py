"""``Uniform(low, high)`` on ``[low, high)``."""

import numbers

from . import constraints
from .distribution import Distribution
from .utils import broadcast_all

__all__ = ["Uniform"]


def _torch():
    import ferrograd

    return ferrograd


class Uniform(Distribution):
    """``rsample`` is ``low + u * (high - low)`` with ``u = rand(...)`` (reparameterized)."""

    has_rsample = True

    @property
    def arg_constraints(self):
        """``low < high``, elementwise."""
        return {"low": constraints.less_than(self.high), "high": constraints.greater_than(self.low)}

    def __init__(self, low, high, validate_args=None):
        self.low, self.high = broadcast_all(low, high)
        if isinstance(low, numbers.Number) and isinstance(high, numbers.Number):
            batch_shape = ()
        else:
            batch_shape = self.low.size()
        super().__init__(batch_shape, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        """This distribution with ``low`` and ``high`` expanded to ``batch_shape``."""
        new = self._get_checked_instance(Uniform, _instance)
        batch_shape = _torch().Size(batch_shape)
        new.low = self.low.expand(batch_shape)
        new.high = self.high.expand(batch_shape)
        super(Uniform, new).__init__(batch_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    @constraints.dependent_property(is_discrete=False, event_dim=0)
    def support(self):
        """``[low, high]``."""
        return constraints.interval(self.low, self.high)

    @property
    def mean(self):
        """``(low + high) / 2``."""
        return (self.high + self.low) / 2

    @property
    def mode(self):
        """Undefined: NaN."""
        return float("nan") * self.high

    @property
    def stddev(self):
        """``(high - low) / √12``."""
        return (self.high - self.low) / 12**0.5

    @property
    def variance(self):
        """``(high - low)² / 12``."""
        return (self.high - self.low).pow(2) / 12

    def rsample(self, sample_shape=()):
        """``low + u * (high - low)``."""
        shape = self._extended_shape(sample_shape)
        rand = _torch().rand(shape, dtype=self.low.dtype, device=self.low.device)
        return self.low + rand * (self.high - self.low)

    def log_prob(self, value):
        """``-log(high - low)`` inside, ``-inf`` outside."""
        if self._validate_args:
            self._validate_sample(value)
        lb = self.low.le(value).type_as(self.low)
        ub = self.high.gt(value).type_as(self.low)
        return (lb.mul(ub)).log() - (self.high - self.low).log()

    def cdf(self, value):
        """``(x - low) / (high - low)`` clamped to [0, 1]."""
        if self._validate_args:
            self._validate_sample(value)
        result = (value - self.low) / (self.high - self.low)
        return result.clamp(min=0, max=1)

    def icdf(self, value):
        """``low + p (high - low)``."""
        return value * (self.high - self.low) + self.low

    def entropy(self):
        """``log(high - low)``."""
        return (self.high - self.low).log()
