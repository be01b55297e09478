"""``Weibull(scale, concentration)``: a unit exponential pushed through ``x^(1/k)`` and a
scaling by ``scale``."""

from . import constraints
from .exponential import Exponential
from .transformed_distribution import TransformedDistribution
from .transforms import AffineTransform, PowerTransform
from .utils import broadcast_all, euler_constant

__all__ = ["Weibull"]


def _torch():
    import ferrograd

    return ferrograd


class Weibull(TransformedDistribution):
    """The two-parameter Weibull distribution (scale ``λ``, shape ``k``): ``λ E^(1/k)`` with
    ``E ~ Exponential(1)`` (reparameterized; PyTorch's stream)."""

    arg_constraints = {"scale": constraints.positive, "concentration": constraints.positive}
    support = constraints.positive

    def __init__(self, scale, concentration, validate_args=None):
        t = _torch()
        self.scale, self.concentration = broadcast_all(scale, concentration)
        self.concentration_reciprocal = self.concentration.reciprocal()
        base_dist = Exponential(t.ones_like(self.scale), validate_args=validate_args)
        transforms = [PowerTransform(exponent=self.concentration_reciprocal),
                      AffineTransform(loc=0, scale=self.scale)]
        super().__init__(base_dist, transforms, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        """This distribution with its parameters (and base) expanded to ``batch_shape``."""
        new = self._get_checked_instance(Weibull, _instance)
        new.scale = self.scale.expand(batch_shape)
        new.concentration = self.concentration.expand(batch_shape)
        new.concentration_reciprocal = new.concentration.reciprocal()
        base_dist = self.base_dist.expand(batch_shape)
        transforms = [PowerTransform(exponent=new.concentration_reciprocal),
                      AffineTransform(loc=0, scale=new.scale)]
        super(Weibull, new).__init__(base_dist, transforms, validate_args=False)
        new._validate_args = self._validate_args
        return new

    @property
    def mean(self):
        """``λ Γ(1 + 1/k)``."""
        t = _torch()
        return self.scale * t.exp(t.lgamma(1 + self.concentration_reciprocal))

    @property
    def mode(self):
        """``λ ((k - 1)/k)^(1/k)`` (NaN for ``k < 1``)."""
        return self.scale * ((self.concentration - 1) / self.concentration) ** self.concentration.reciprocal()

    @property
    def variance(self):
        """``λ² (Γ(1 + 2/k) - Γ(1 + 1/k)²)``."""
        t = _torch()
        return self.scale.pow(2) * (t.exp(t.lgamma(1 + 2 * self.concentration_reciprocal))
                                    - t.exp(2 * t.lgamma(1 + self.concentration_reciprocal)))

    def entropy(self):
        """``γ (1 - 1/k) + log(λ/k) + 1``."""
        return (euler_constant * (1 - self.concentration_reciprocal)
                + _torch().log(self.scale * self.concentration_reciprocal) + 1)
