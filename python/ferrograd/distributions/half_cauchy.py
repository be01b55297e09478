"""``HalfCauchy(scale)``: ``|X|`` with ``X ~ Cauchy(0, scale)``."""

import math

from . import constraints
from .cauchy import Cauchy
from .transformed_distribution import TransformedDistribution
from .transforms import AbsTransform

__all__ = ["HalfCauchy"]


def _torch():
    import ferrograd

    return ferrograd


class HalfCauchy(TransformedDistribution):
    """``|X|`` with ``X ~ Cauchy(0, scale)`` (reparameterized; PyTorch's stream)."""

    arg_constraints = {"scale": constraints.positive}
    support = constraints.nonnegative
    has_rsample = True

    def __init__(self, scale, validate_args=None):
        base_dist = Cauchy(0, scale, validate_args=False)
        super().__init__(base_dist, AbsTransform(), validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        """This distribution with its base expanded to ``batch_shape``."""
        new = self._get_checked_instance(HalfCauchy, _instance)
        return super().expand(batch_shape, _instance=new)

    @property
    def scale(self):
        """The base Cauchy's ``scale``."""
        return self.base_dist.scale

    @property
    def mean(self):
        """Infinite."""
        return _torch().full(self._extended_shape(), math.inf, dtype=self.scale.dtype, device=self.scale.device)

    @property
    def mode(self):
        """Zero."""
        return _torch().zeros_like(self.scale)

    @property
    def variance(self):
        """The base variance (infinite)."""
        return self.base_dist.variance

    def log_prob(self, value):
        """The base ``log_prob`` plus ``log 2`` (``-inf`` below 0)."""
        t = _torch()
        if self._validate_args:
            self._validate_sample(value)
        value = t.as_tensor(value, dtype=self.base_dist.scale.dtype, device=self.base_dist.scale.device)
        log_prob = self.base_dist.log_prob(value) + math.log(2)
        return t.where(value >= 0, log_prob, -math.inf)

    def cdf(self, value):
        """``2 F(x) - 1`` with ``F`` the base CDF."""
        if self._validate_args:
            self._validate_sample(value)
        return 2 * self.base_dist.cdf(value) - 1

    def icdf(self, prob):
        """The base ``icdf`` at ``(p + 1)/2``."""
        return self.base_dist.icdf((prob + 1) / 2)

    def entropy(self):
        """The base entropy minus ``log 2``."""
        return self.base_dist.entropy() - math.log(2)
