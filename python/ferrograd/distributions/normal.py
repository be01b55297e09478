"""``Normal(loc, scale)``."""

import math
import numbers

from . import constraints
from .exp_family import ExponentialFamily
from .utils import broadcast_all

__all__ = ["Normal"]


def _torch():
    import ferrograd

    return ferrograd


class Normal(ExponentialFamily):
    """The normal distribution; ``rsample`` is ``loc + eps * scale`` (reparameterized)."""

    arg_constraints = {"loc": constraints.real, "scale": constraints.positive}
    support = constraints.real
    has_rsample = True
    _mean_carrier_measure = 0

    def __init__(self, loc, scale, validate_args=None):
        self.loc, self.scale = broadcast_all(loc, scale)
        if isinstance(loc, numbers.Number) and isinstance(scale, numbers.Number):
            batch_shape = ()
        else:
            batch_shape = self.loc.size()
        super().__init__(batch_shape, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        """This distribution with ``loc`` and ``scale`` expanded to ``batch_shape``."""
        new = self._get_checked_instance(Normal, _instance)
        batch_shape = _torch().Size(batch_shape)
        new.loc = self.loc.expand(batch_shape)
        new.scale = self.scale.expand(batch_shape)
        super(Normal, new).__init__(batch_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    @property
    def mean(self):
        """``loc``."""
        return self.loc

    @property
    def mode(self):
        """``loc``."""
        return self.loc

    @property
    def stddev(self):
        """``scale``."""
        return self.scale

    @property
    def variance(self):
        """``scale²``."""
        return self.stddev.pow(2)

    def sample(self, sample_shape=()):
        """Samples drawn with ``torch.normal(loc, scale)``, without gradient."""
        from .. import no_grad

        t = _torch()
        shape = self._extended_shape(sample_shape)
        with no_grad():
            return t.normal(self.loc.expand(shape), self.scale.expand(shape))

    def rsample(self, sample_shape=()):
        """``loc + eps * scale`` with standard normal ``eps``."""
        t = _torch()
        shape = self._extended_shape(sample_shape)
        eps = t.empty(shape, dtype=self.loc.dtype, device=self.loc.device).normal_()
        return self.loc + eps * self.scale

    def log_prob(self, value):
        """``-(x - loc)² / (2 scale²) - log scale - log √(2π)``."""
        if self._validate_args:
            self._validate_sample(value)
        var = self.scale**2
        log_scale = math.log(self.scale) if isinstance(self.scale, numbers.Real) else self.scale.log()
        return -((value - self.loc) ** 2) / (2 * var) - log_scale - math.log(math.sqrt(2 * math.pi))

    def cdf(self, value):
        """``(1 + erf((x - loc) / (scale √2))) / 2``."""
        if self._validate_args:
            self._validate_sample(value)
        return 0.5 * (1 + _torch().erf((value - self.loc) * self.scale.reciprocal() / math.sqrt(2)))

    def icdf(self, value):
        """``loc + scale · √2 · erfinv(2p - 1)``."""
        return self.loc + self.scale * _torch().erfinv(2 * value - 1) * math.sqrt(2)

    def entropy(self):
        """``1/2 + log(2π)/2 + log scale``."""
        return 0.5 + 0.5 * math.log(2 * math.pi) + _torch().log(self.scale)

    @property
    def _natural_params(self):
        return (self.loc / self.scale.pow(2), -0.5 * self.scale.pow(2).reciprocal())

    def _log_normalizer(self, x, y):
        return -0.25 * x.pow(2) / y + 0.5 * _torch().log(-math.pi / y)
