"""``Pareto(scale, alpha)``: ``scale * exp(E)`` with ``E ~ Exponential(alpha)``."""

from . import constraints
from .exponential import Exponential
from .transformed_distribution import TransformedDistribution
from .transforms import AffineTransform, ExpTransform
from .utils import broadcast_all

__all__ = ["Pareto"]


class Pareto(TransformedDistribution):
    """The Pareto type I distribution (reparameterized; PyTorch's stream)."""

    arg_constraints = {"alpha": constraints.positive, "scale": constraints.positive}

    def __init__(self, scale, alpha, validate_args=None):
        self.scale, self.alpha = broadcast_all(scale, alpha)
        base_dist = Exponential(self.alpha, validate_args=validate_args)
        transforms = [ExpTransform(), AffineTransform(loc=0, scale=self.scale)]
        super().__init__(base_dist, transforms, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        """This distribution with its parameters (and base) expanded to ``batch_shape``."""
        new = self._get_checked_instance(Pareto, _instance)
        new.scale = self.scale.expand(batch_shape)
        new.alpha = self.alpha.expand(batch_shape)
        return super().expand(batch_shape, _instance=new)

    @property
    def mean(self):
        """``α scale / (α - 1)`` (``α`` clamped at 1: infinite below)."""
        a = self.alpha.clamp(min=1)
        return a * self.scale / (a - 1)

    @property
    def mode(self):
        """``scale``."""
        return self.scale

    @property
    def variance(self):
        """``scale² α / ((α - 1)² (α - 2))`` (``α`` clamped at 2: infinite below)."""
        a = self.alpha.clamp(min=2)
        return self.scale.pow(2) * a / ((a - 1).pow(2) * (a - 2))

    @constraints.dependent_property(is_discrete=False, event_dim=0)
    def support(self):
        """``[scale, inf)``."""
        return constraints.greater_than_eq(self.scale)

    def entropy(self):
        """``log(scale/α) + 1 + 1/α``."""
        return (self.scale / self.alpha).log() + (1 + self.alpha.reciprocal())
