"""``Gumbel(loc, scale)``."""

import math
import numbers

from . import constraints
from .transformed_distribution import TransformedDistribution
from .transforms import AffineTransform, ExpTransform
from .uniform import Uniform
from .utils import broadcast_all, euler_constant

__all__ = ["Gumbel"]


def _torch():
    import ferrograd

    return ferrograd


class Gumbel(TransformedDistribution):
    """``loc - scale * log(-log U)`` with ``U`` uniform on ``[tiny, 1 - eps)`` (PyTorch's
    stream; no ``rsample``, as in PyTorch)."""

    arg_constraints = {"loc": constraints.real, "scale": constraints.positive}
    support = constraints.real

    def __init__(self, loc, scale, validate_args=None):
        t = _torch()
        self.loc, self.scale = broadcast_all(loc, scale)
        finfo = t.finfo(self.loc.dtype)
        if isinstance(loc, numbers.Number) and isinstance(scale, numbers.Number):
            base_dist = Uniform(finfo.tiny, 1 - finfo.eps, validate_args=validate_args)
        else:
            base_dist = Uniform(t.full_like(self.loc, finfo.tiny), t.full_like(self.loc, 1 - finfo.eps),
                                validate_args=validate_args)
        transforms = [ExpTransform().inv, AffineTransform(loc=0, scale=-t.ones_like(self.scale)),
                      ExpTransform().inv, AffineTransform(loc=loc, scale=-self.scale)]
        super().__init__(base_dist, transforms, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        """This distribution with ``loc``, ``scale`` and its base expanded to ``batch_shape``."""
        new = self._get_checked_instance(Gumbel, _instance)
        new.loc = self.loc.expand(batch_shape)
        new.scale = self.scale.expand(batch_shape)
        return super().expand(batch_shape, _instance=new)

    def log_prob(self, value):
        """``z - exp(z) - log scale`` with ``z = (loc - x)/scale``."""
        if self._validate_args:
            self._validate_sample(value)
        y = (self.loc - value) / self.scale
        return y - y.exp() - self.scale.log()

    @property
    def mean(self):
        """``loc + scale γ`` (Euler's constant)."""
        return self.loc + self.scale * euler_constant

    @property
    def mode(self):
        """``loc``."""
        return self.loc

    @property
    def stddev(self):
        """``π scale / √6``."""
        return (math.pi / math.sqrt(6)) * self.scale

    @property
    def variance(self):
        """``(π scale)² / 6``."""
        return self.stddev.pow(2)

    def entropy(self):
        """``log scale + 1 + γ``."""
        return self.scale.log() + (1 + euler_constant)
