"""``InverseGamma(concentration, rate)``: ``1 / X`` with ``X ~ Gamma(concentration, rate)``."""

import math

from . import constraints
from .gamma import Gamma
from .transformed_distribution import TransformedDistribution
from .transforms import PowerTransform

__all__ = ["InverseGamma"]


def _torch():
    import ferrograd

    return ferrograd


class InverseGamma(TransformedDistribution):
    """``1 / X`` with ``X ~ Gamma(concentration, rate)`` (reparameterized; the gamma draws
    are PyTorch's)."""

    arg_constraints = {"concentration": constraints.positive, "rate": constraints.positive}
    support = constraints.positive
    has_rsample = True

    def __init__(self, concentration, rate, validate_args=None):
        base_dist = Gamma(concentration, rate, validate_args=validate_args)
        neg_one = -base_dist.rate.new_ones(())
        super().__init__(base_dist, PowerTransform(neg_one), validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        """This distribution with its base expanded to ``batch_shape``."""
        new = self._get_checked_instance(InverseGamma, _instance)
        return super().expand(batch_shape, _instance=new)

    @property
    def concentration(self):
        """The base gamma's ``concentration``."""
        return self.base_dist.concentration

    @property
    def rate(self):
        """The base gamma's ``rate``."""
        return self.base_dist.rate

    @property
    def mean(self):
        """``rate / (concentration - 1)`` (infinite for ``concentration <= 1``)."""
        result = self.rate / (self.concentration - 1)
        return _torch().where(self.concentration > 1, result, math.inf)

    @property
    def mode(self):
        """``rate / (concentration + 1)``."""
        return self.rate / (self.concentration + 1)

    @property
    def variance(self):
        """``rate² / ((a - 1)² (a - 2))`` (infinite for ``a <= 2``)."""
        result = self.rate.square() / ((self.concentration - 1).square() * (self.concentration - 2))
        return _torch().where(self.concentration > 2, result, math.inf)

    def entropy(self):
        """``a + log b + lgamma(a) - (1 + a) digamma(a)``."""
        return (self.concentration + self.rate.log() + self.concentration.lgamma()
                - (1 + self.concentration) * self.concentration.digamma())
