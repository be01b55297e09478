"""``HalfNormal(scale)``: ``|X|`` with ``X ~ Normal(0, scale)``."""

import math

from . import constraints
from .normal import Normal
from .transformed_distribution import TransformedDistribution
from .transforms import AbsTransform

__all__ = ["HalfNormal"]


def _torch():
    import ferrograd

    return ferrograd


class HalfNormal(TransformedDistribution):
    """``|X|`` with ``X ~ Normal(0, scale)`` (reparameterized)."""

    arg_constraints = {"scale": constraints.positive}
    support = constraints.nonnegative
    has_rsample = True

    def __init__(self, scale, validate_args=None):
        base_dist = Normal(0, scale, validate_args=False)
        super().__init__(base_dist, AbsTransform(), validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        """This distribution with its base expanded to ``batch_shape``."""
        new = self._get_checked_instance(HalfNormal, _instance)
        return super().expand(batch_shape, _instance=new)

    @property
    def scale(self):
        """The base normal's ``scale``."""
        return self.base_dist.scale

    @property
    def mean(self):
        """``scale √(2/π)``."""
        return self.scale * math.sqrt(2 / math.pi)

    @property
    def mode(self):
        """Zero."""
        return _torch().zeros_like(self.scale)

    @property
    def variance(self):
        """``scale² (1 - 2/π)``."""
        return self.scale.pow(2) * (1 - 2 / math.pi)

    def log_prob(self, value):
        """The base ``log_prob`` plus ``log 2`` (``-inf`` below 0)."""
        if self._validate_args:
            self._validate_sample(value)
        log_prob = self.base_dist.log_prob(value) + math.log(2)
        return _torch().where(value >= 0, log_prob, -math.inf)

    def cdf(self, value):
        """``2 Φ(x) - 1``."""
        if self._validate_args:
            self._validate_sample(value)
        return 2 * self.base_dist.cdf(value) - 1

    def icdf(self, prob):
        """The base ``icdf`` at ``(p + 1)/2``."""
        return self.base_dist.icdf((prob + 1) / 2)

    def entropy(self):
        """The base entropy minus ``log 2``."""
        return self.base_dist.entropy() - math.log(2)
