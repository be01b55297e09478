"""``LogisticNormal(loc, scale)``: a ``Normal`` pushed onto the simplex by stick breaking."""

from . import constraints
from .normal import Normal
from .transformed_distribution import TransformedDistribution
from .transforms import StickBreakingTransform

__all__ = ["LogisticNormal"]


class LogisticNormal(TransformedDistribution):
    """``StickBreakingTransform`` applied to ``Normal(loc, scale)`` samples (the last
    dimension is the event; reparameterized; PyTorch's stream)."""

    arg_constraints = {"loc": constraints.real, "scale": constraints.positive}
    support = constraints.simplex
    has_rsample = True

    def __init__(self, loc, scale, validate_args=None):
        base_dist = Normal(loc, scale, validate_args=validate_args)
        if not base_dist.batch_shape:
            base_dist = base_dist.expand([1])
        super().__init__(base_dist, StickBreakingTransform(), validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        """This distribution with its base expanded to ``batch_shape``."""
        new = self._get_checked_instance(LogisticNormal, _instance)
        return super().expand(batch_shape, _instance=new)

    @property
    def loc(self):
        """The base normal's ``loc``."""
        return self.base_dist.base_dist.loc

    @property
    def scale(self):
        """The base normal's ``scale``."""
        return self.base_dist.base_dist.scale
