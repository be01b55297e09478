"""``LogNormal(loc, scale)``: ``exp`` of a ``Normal(loc, scale)``."""

from . import constraints
from .normal import Normal
from .transformed_distribution import TransformedDistribution
from .transforms import ExpTransform

__all__ = ["LogNormal"]


class LogNormal(TransformedDistribution):
    """``X = exp(Y)`` with ``Y ~ Normal(loc, scale)`` (reparameterized)."""

    arg_constraints = {"loc": constraints.real, "scale": constraints.positive}
    support = constraints.positive
    has_rsample = True

    def __init__(self, loc, scale, validate_args=None):
        base_dist = Normal(loc, scale, validate_args=validate_args)
        super().__init__(base_dist, ExpTransform(), validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        """This distribution with its base expanded to ``batch_shape``."""
        new = self._get_checked_instance(LogNormal, _instance)
        return super().expand(batch_shape, _instance=new)

    @property
    def loc(self):
        """The base normal's ``loc``."""
        return self.base_dist.loc

    @property
    def scale(self):
        """The base normal's ``scale``."""
        return self.base_dist.scale

    @property
    def mean(self):
        """``exp(loc + scale²/2)``."""
        return (self.loc + self.scale.pow(2) / 2).exp()

    @property
    def mode(self):
        """``exp(loc - scale²)``."""
        return (self.loc - self.scale.square()).exp()

    @property
    def variance(self):
        """``(exp(scale²) - 1) exp(2 loc + scale²)``."""
        scale_sq = self.scale.pow(2)
        return scale_sq.expm1() * (2 * self.loc + scale_sq).exp()

    def entropy(self):
        """The base entropy plus ``loc``."""
        return self.base_dist.entropy() + self.loc
