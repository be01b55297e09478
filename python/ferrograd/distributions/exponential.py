"""``Exponential(rate)``."""

import numbers

from . import constraints
from .exp_family import ExponentialFamily
from .utils import broadcast_all

__all__ = ["Exponential"]


def _torch():
    import ferrograd

    return ferrograd


class Exponential(ExponentialFamily):
    """The exponential distribution; ``rsample`` is ``exponential_() / rate`` (PyTorch's
    stream, reparameterized)."""

    arg_constraints = {"rate": constraints.positive}
    support = constraints.nonnegative
    has_rsample = True
    _mean_carrier_measure = 0

    @property
    def mean(self):
        """``1 / rate``."""
        return self.rate.reciprocal()

    @property
    def mode(self):
        """Zero."""
        return _torch().zeros_like(self.rate)

    @property
    def stddev(self):
        """``1 / rate``."""
        return self.rate.reciprocal()

    @property
    def variance(self):
        """``rate^-2``."""
        return self.rate.pow(-2)

    def __init__(self, rate, validate_args=None):
        (self.rate,) = broadcast_all(rate)
        batch_shape = () if isinstance(rate, numbers.Number) else self.rate.size()
        super().__init__(batch_shape, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        """This distribution with ``rate`` expanded to ``batch_shape``."""
        new = self._get_checked_instance(Exponential, _instance)
        batch_shape = _torch().Size(batch_shape)
        new.rate = self.rate.expand(batch_shape)
        super(Exponential, new).__init__(batch_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    def rsample(self, sample_shape=()):
        """Standard exponential draws divided by ``rate``."""
        shape = self._extended_shape(sample_shape)
        eps = _torch().empty(shape, dtype=self.rate.dtype, device=self.rate.device).exponential_()
        return eps / self.rate

    def log_prob(self, value):
        """``log rate - rate * x``."""
        if self._validate_args:
            self._validate_sample(value)
        return self.rate.log() - self.rate * value

    def cdf(self, value):
        """``1 - exp(-rate * x)``."""
        if self._validate_args:
            self._validate_sample(value)
        return 1 - _torch().exp(-self.rate * value)

    def icdf(self, value):
        """``-log(1 - p) / rate``."""
        return -_torch().log1p(-value) / self.rate

    def entropy(self):
        """``1 - log rate``."""
        return 1.0 - _torch().log(self.rate)

    @property
    def _natural_params(self):
        return (-self.rate,)

    def _log_normalizer(self, x):
        return -_torch().log(-x)
