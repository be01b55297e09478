"""``Poisson(rate)``."""

import numbers

from . import constraints
from ._samplers import _poisson
from .exp_family import ExponentialFamily
from .utils import _xlogy, broadcast_all

__all__ = ["Poisson"]


def _torch():
    import ferrograd

    return ferrograd


class Poisson(ExponentialFamily):
    """The Poisson distribution. Samples come from ferrograd's own sampler (PyTorch's
    algorithm, not its random stream), so they differ from PyTorch's under one seed."""

    arg_constraints = {"rate": constraints.nonnegative}
    support = constraints.nonnegative_integer

    @property
    def mean(self):
        """``rate``."""
        return self.rate

    @property
    def mode(self):
        """``floor(rate)``."""
        return self.rate.floor()

    @property
    def variance(self):
        """``rate``."""
        return self.rate

    def __init__(self, rate, validate_args=None):
        (self.rate,) = broadcast_all(rate)
        batch_shape = () if isinstance(rate, numbers.Number) else self.rate.size()
        super().__init__(batch_shape, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        """This distribution with ``rate`` expanded to ``batch_shape``."""
        new = self._get_checked_instance(Poisson, _instance)
        batch_shape = _torch().Size(batch_shape)
        new.rate = self.rate.expand(batch_shape)
        super(Poisson, new).__init__(batch_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    def sample(self, sample_shape=()):
        """Poisson counts (the rate's dtype), without gradient."""
        from .. import no_grad

        shape = self._extended_shape(sample_shape)
        with no_grad():
            return _poisson(self.rate.expand(shape))

    def log_prob(self, value):
        """``x log rate - rate - lgamma(x + 1)``."""
        if self._validate_args:
            self._validate_sample(value)
        rate, value = broadcast_all(self.rate, value)
        return _xlogy(value, rate) - rate - (value + 1).lgamma()

    @property
    def _natural_params(self):
        return (_torch().log(self.rate),)

    def _log_normalizer(self, x):
        return _torch().exp(x)
