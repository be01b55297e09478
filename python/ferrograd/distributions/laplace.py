"""``Laplace(loc, scale)``."""

import numbers

from . import constraints
from .distribution import Distribution
from .utils import broadcast_all

__all__ = ["Laplace"]


def _torch():
    import ferrograd

    return ferrograd


class Laplace(Distribution):
    """The Laplace distribution; ``rsample`` inverts the CDF at ``uniform_(eps - 1, 1)``
    draws (PyTorch's stream, reparameterized)."""

    arg_constraints = {"loc": constraints.real, "scale": constraints.positive}
    support = constraints.real
    has_rsample = True

    @property
    def mean(self):
        """``loc``."""
        return self.loc

    @property
    def mode(self):
        """``loc``."""
        return self.loc

    @property
    def variance(self):
        """``2 scale²``."""
        return 2 * self.scale.pow(2)

    @property
    def stddev(self):
        """``√2 scale``."""
        return (2**0.5) * self.scale

    def __init__(self, loc, scale, validate_args=None):
        self.loc, self.scale = broadcast_all(loc, scale)
        if isinstance(loc, numbers.Number) and isinstance(scale, numbers.Number):
            batch_shape = ()
        else:
            batch_shape = self.loc.size()
        super().__init__(batch_shape, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        """This distribution with ``loc`` and ``scale`` expanded to ``batch_shape``."""
        new = self._get_checked_instance(Laplace, _instance)
        batch_shape = _torch().Size(batch_shape)
        new.loc = self.loc.expand(batch_shape)
        new.scale = self.scale.expand(batch_shape)
        super(Laplace, new).__init__(batch_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    def rsample(self, sample_shape=()):
        """``loc - scale * sign(u) * log(1 - |u|)`` with ``u`` uniform on ``[eps - 1, 1)``."""
        t = _torch()
        shape = self._extended_shape(sample_shape)
        finfo = t.finfo(self.loc.dtype)
        u = t.empty(shape, dtype=self.loc.dtype, device=self.loc.device).uniform_(finfo.eps - 1, 1)
        return self.loc - self.scale * u.sign() * t.log1p(-u.abs())

    def log_prob(self, value):
        """``-log(2 scale) - |x - loc| / scale``."""
        if self._validate_args:
            self._validate_sample(value)
        t = _torch()
        return -t.log(2 * self.scale) - t.abs(value - self.loc) / self.scale

    def cdf(self, value):
        """``1/2 - sign(x - loc) expm1(-|x - loc| / scale) / 2``."""
        if self._validate_args:
            self._validate_sample(value)
        return 0.5 - 0.5 * (value - self.loc).sign() * _torch().expm1(-(value - self.loc).abs() / self.scale)

    def icdf(self, value):
        """``loc - scale * sign(p - 1/2) * log(1 - 2|p - 1/2|)``."""
        term = value - 0.5
        return self.loc - self.scale * term.sign() * _torch().log1p(-2 * term.abs())

    def entropy(self):
        """``1 + log(2 scale)``."""
        return 1 + _torch().log(2 * self.scale)
