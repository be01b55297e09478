"""``Kumaraswamy(concentration1, concentration0)``: ``(1 - U^(1/b))^(1/a)`` with ``U``
uniform on ``[0, 1)``."""

import math

from . import constraints
from .transformed_distribution import TransformedDistribution
from .transforms import AffineTransform, PowerTransform
from .uniform import Uniform
from .utils import broadcast_all, euler_constant

__all__ = ["Kumaraswamy"]


def _torch():
    import ferrograd

    return ferrograd


def _moments(a, b, n):
    """The ``n``-th moment ``b B(1 + n/a, b)``."""
    t = _torch()
    arg1 = 1 + n / a
    log_value = t.lgamma(arg1) + t.lgamma(b) - t.lgamma(arg1 + b)
    return b * t.exp(log_value)


class Kumaraswamy(TransformedDistribution):
    """The Kumaraswamy distribution on ``[0, 1]`` (reparameterized; PyTorch's stream)."""

    arg_constraints = {"concentration1": constraints.positive, "concentration0": constraints.positive}
    support = constraints.unit_interval
    has_rsample = True

    def __init__(self, concentration1, concentration0, validate_args=None):
        t = _torch()
        self.concentration1, self.concentration0 = broadcast_all(concentration1, concentration0)
        base_dist = Uniform(t.full_like(self.concentration0, 0), t.full_like(self.concentration0, 1),
                            validate_args=validate_args)
        transforms = [PowerTransform(exponent=self.concentration0.reciprocal()),
                      AffineTransform(loc=1.0, scale=-1.0),
                      PowerTransform(exponent=self.concentration1.reciprocal())]
        super().__init__(base_dist, transforms, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        """This distribution with its parameters (and base) expanded to ``batch_shape``."""
        new = self._get_checked_instance(Kumaraswamy, _instance)
        new.concentration1 = self.concentration1.expand(batch_shape)
        new.concentration0 = self.concentration0.expand(batch_shape)
        return super().expand(batch_shape, _instance=new)

    @property
    def mean(self):
        """``b B(1 + 1/a, b)``."""
        return _moments(self.concentration1, self.concentration0, 1)

    @property
    def mode(self):
        """``((a - 1)/(a b - 1))^(1/a)`` (NaN when ``a < 1`` or ``b < 1``)."""
        log_mode = (self.concentration0.reciprocal() * (-self.concentration0).log1p()
                    - (-self.concentration0 * self.concentration1).log1p())
        log_mode[(self.concentration0 < 1) | (self.concentration1 < 1)] = math.nan
        return log_mode.exp()

    @property
    def variance(self):
        """The second moment minus the squared mean."""
        return _moments(self.concentration1, self.concentration0, 2) - _torch().pow(self.mean, 2)

    def entropy(self):
        """``(1 - 1/b) + (1 - 1/a) H_b - log a - log b`` (``H_b`` the harmonic number)."""
        t = _torch()
        t1 = 1 - self.concentration1.reciprocal()
        t0 = 1 - self.concentration0.reciprocal()
        H0 = t.digamma(self.concentration0 + 1) + euler_constant
        return t0 + t1 * H0 - t.log(self.concentration1) - t.log(self.concentration0)
