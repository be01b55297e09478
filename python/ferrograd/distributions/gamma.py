"""``Gamma(concentration, rate)``."""

import numbers

from . import constraints
from ._samplers import _gammainc, _standard_gamma
from .exp_family import ExponentialFamily
from .utils import _xlogy, broadcast_all

__all__ = ["Gamma"]


def _torch():
    import ferrograd

    return ferrograd


class Gamma(ExponentialFamily):
    """The gamma distribution (shape ``concentration``, inverse scale ``rate``). ``rsample``
    is reparameterized with implicit gradients, as PyTorch's; the samples come from
    ferrograd's own Marsaglia-Tsang sampler, so they differ from PyTorch's under one seed."""

    arg_constraints = {"concentration": constraints.positive, "rate": constraints.positive}
    support = constraints.nonnegative
    has_rsample = True
    _mean_carrier_measure = 0

    @property
    def mean(self):
        """``concentration / rate``."""
        return self.concentration / self.rate

    @property
    def mode(self):
        """``(concentration - 1) / rate`` clamped at 0."""
        return ((self.concentration - 1) / self.rate).clamp(min=0)

    @property
    def variance(self):
        """``concentration / rate²``."""
        return self.concentration / self.rate.pow(2)

    def __init__(self, concentration, rate, validate_args=None):
        self.concentration, self.rate = broadcast_all(concentration, rate)
        if isinstance(concentration, numbers.Number) and isinstance(rate, numbers.Number):
            batch_shape = ()
        else:
            batch_shape = self.concentration.size()
        super().__init__(batch_shape, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        """This distribution with its parameters expanded to ``batch_shape``."""
        new = self._get_checked_instance(Gamma, _instance)
        batch_shape = _torch().Size(batch_shape)
        new.concentration = self.concentration.expand(batch_shape)
        new.rate = self.rate.expand(batch_shape)
        super(Gamma, new).__init__(batch_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    def rsample(self, sample_shape=()):
        """Standard gamma draws divided by ``rate`` (at least the dtype's smallest normal)."""
        t = _torch()
        shape = self._extended_shape(sample_shape)
        value = _standard_gamma(self.concentration.expand(shape)) / self.rate.expand(shape)
        value.detach().clamp_(min=t.finfo(value.dtype).tiny)
        return value

    def log_prob(self, value):
        """``a log b + (a - 1) log x - b x - lgamma(a)``."""
        t = _torch()
        value = t.as_tensor(value, dtype=self.rate.dtype, device=self.rate.device)
        if self._validate_args:
            self._validate_sample(value)
        return (_xlogy(self.concentration, self.rate) + _xlogy(self.concentration - 1, value)
                - self.rate * value - t.lgamma(self.concentration))

    def entropy(self):
        """``a - log b + lgamma(a) + (1 - a) digamma(a)``."""
        t = _torch()
        return (self.concentration - t.log(self.rate) + t.lgamma(self.concentration)
                + (1.0 - self.concentration) * t.digamma(self.concentration))

    @property
    def _natural_params(self):
        return (self.concentration - 1, -self.rate)

    def _log_normalizer(self, x, y):
        t = _torch()
        return t.lgamma(x + 1) + (x + 1) * t.log(-y.reciprocal())

    def cdf(self, value):
        """The regularized lower incomplete gamma ``P(a, b x)``."""
        if self._validate_args:
            self._validate_sample(value)
        return _gammainc(self.concentration, self.rate * value)
