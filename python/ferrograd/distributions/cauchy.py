"""``Cauchy(loc, scale)``."""

import math
import numbers

from . import constraints
from .distribution import Distribution
from .utils import broadcast_all

__all__ = ["Cauchy"]


def _torch():
    import ferrograd

    return ferrograd


def _standard_cauchy(shape, dtype, device):
    """``empty(shape).cauchy_()``, as PyTorch's ``rsample`` draws it."""
    return _torch().empty(shape, dtype=dtype, device=device).cauchy_()


class Cauchy(Distribution):
    """The Cauchy (Lorentz) distribution; ``rsample`` is ``loc + eps * scale`` with standard
    Cauchy ``eps`` (PyTorch's stream, reparameterized)."""

    arg_constraints = {"loc": constraints.real, "scale": constraints.positive}
    support = constraints.real
    has_rsample = True

    def __init__(self, loc, scale, validate_args=None):
        self.loc, self.scale = broadcast_all(loc, scale)
        if isinstance(loc, numbers.Number) and isinstance(scale, numbers.Number):
            batch_shape = ()
        else:
            batch_shape = self.loc.size()
        super().__init__(batch_shape, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        """This distribution with ``loc`` and ``scale`` expanded to ``batch_shape``."""
        new = self._get_checked_instance(Cauchy, _instance)
        batch_shape = _torch().Size(batch_shape)
        new.loc = self.loc.expand(batch_shape)
        new.scale = self.scale.expand(batch_shape)
        super(Cauchy, new).__init__(batch_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    @property
    def mean(self):
        """Undefined: NaN."""
        return _torch().full(self._extended_shape(), math.nan, dtype=self.loc.dtype, device=self.loc.device)

    @property
    def mode(self):
        """``loc``."""
        return self.loc

    @property
    def variance(self):
        """Infinite."""
        return _torch().full(self._extended_shape(), math.inf, dtype=self.loc.dtype, device=self.loc.device)

    def rsample(self, sample_shape=()):
        """``loc + eps * scale`` with standard Cauchy ``eps``."""
        shape = self._extended_shape(sample_shape)
        eps = _standard_cauchy(shape, self.loc.dtype, self.loc.device)
        return self.loc + eps * self.scale

    def log_prob(self, value):
        """``-log π - log scale - log(1 + ((x - loc)/scale)²)``."""
        if self._validate_args:
            self._validate_sample(value)
        return -math.log(math.pi) - self.scale.log() - (((value - self.loc) / self.scale) ** 2).log1p()

    def cdf(self, value):
        """``atan((x - loc)/scale)/π + 1/2``."""
        if self._validate_args:
            self._validate_sample(value)
        return _torch().atan((value - self.loc) / self.scale) / math.pi + 0.5

    def icdf(self, value):
        """``tan(π (p - 1/2)) scale + loc``."""
        return _torch().tan(math.pi * (value - 0.5)) * self.scale + self.loc

    def entropy(self):
        """``log(4π) + log scale``."""
        return math.log(4 * math.pi) + self.scale.log()
