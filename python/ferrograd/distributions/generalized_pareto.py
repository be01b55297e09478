"""``GeneralizedPareto(loc, scale, concentration)``."""

import math
import numbers

from . import constraints
from .distribution import Distribution
from .utils import broadcast_all

__all__ = ["GeneralizedPareto"]


def _torch():
    import ferrograd

    return ferrograd


class GeneralizedPareto(Distribution):
    """The generalized Pareto distribution (exponential for ``concentration == 0``, Pareto
    for ``concentration > 0``, bounded for ``concentration < 0``); ``rsample`` is the
    ``icdf`` of ``rand`` draws (PyTorch's stream)."""

    arg_constraints = {"loc": constraints.real, "scale": constraints.positive, "concentration": constraints.real}
    has_rsample = True

    def __init__(self, loc, scale, concentration, validate_args=None):
        t = _torch()
        self.loc, self.scale, self.concentration = broadcast_all(loc, scale, concentration)
        if (isinstance(loc, numbers.Number) and isinstance(scale, numbers.Number)
                and isinstance(concentration, numbers.Number)):
            batch_shape = t.Size()
        else:
            batch_shape = self.loc.size()
        super().__init__(batch_shape, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        """This distribution with its parameters expanded to ``batch_shape``."""
        new = self._get_checked_instance(GeneralizedPareto, _instance)
        batch_shape = _torch().Size(batch_shape)
        new.loc = self.loc.expand(batch_shape)
        new.scale = self.scale.expand(batch_shape)
        new.concentration = self.concentration.expand(batch_shape)
        super(GeneralizedPareto, new).__init__(batch_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    def rsample(self, sample_shape=()):
        """The ``icdf`` of uniform draws."""
        shape = self._extended_shape(sample_shape)
        u = _torch().rand(shape, dtype=self.loc.dtype, device=self.loc.device)
        return self.icdf(u)

    def log_prob(self, value):
        """``-log scale - (1/ξ + 1) log1p(ξ z)`` (``-log scale - z`` for ``ξ = 0``)."""
        t = _torch()
        if self._validate_args:
            self._validate_sample(value)
        z = self._z(value)
        eq_zero = t.isclose(self.concentration, t.tensor(0.0))
        safe_conc = t.where(eq_zero, t.ones_like(self.concentration), self.concentration)
        y = 1 / safe_conc + t.ones_like(z)
        where_nonzero = t.where(y == 0, y, y * t.log1p(safe_conc * z))
        log_scale = math.log(self.scale) if isinstance(self.scale, numbers.Real) else self.scale.log()
        return -log_scale - t.where(eq_zero, z, where_nonzero)

    def log_survival_function(self, value):
        """``log(1 - cdf)``: ``-log1p(ξ z)/ξ`` (``-z`` for ``ξ = 0``)."""
        t = _torch()
        if self._validate_args:
            self._validate_sample(value)
        z = self._z(value)
        eq_zero = t.isclose(self.concentration, t.tensor(0.0))
        safe_conc = t.where(eq_zero, t.ones_like(self.concentration), self.concentration)
        where_nonzero = -t.log1p(safe_conc * z) / safe_conc
        return t.where(eq_zero, -z, where_nonzero)

    def log_cdf(self, value):
        """``log1p(-exp(log_survival_function))``."""
        t = _torch()
        return t.log1p(-t.exp(self.log_survival_function(value)))

    def cdf(self, value):
        """``exp(log_cdf)``."""
        return _torch().exp(self.log_cdf(value))

    def icdf(self, value):
        """``loc + scale/ξ · expm1(-ξ log1p(-p))`` (``loc - scale log1p(-p)`` for ``ξ = 0``)."""
        t = _torch()
        loc = self.loc
        scale = self.scale
        concentration = self.concentration
        eq_zero = t.isclose(concentration, t.zeros_like(concentration))
        safe_conc = t.where(eq_zero, t.ones_like(concentration), concentration)
        logu = t.log1p(-value)
        where_nonzero = loc + scale / safe_conc * t.expm1(-safe_conc * logu)
        where_zero = loc - scale * logu
        return t.where(eq_zero, where_zero, where_nonzero)

    def _z(self, x):
        return (x - self.loc) / self.scale

    @property
    def mean(self):
        """``loc + scale / (1 - ξ)`` (NaN for ``ξ >= 1``)."""
        t = _torch()
        concentration = self.concentration
        valid = concentration < 1
        safe_conc = t.where(valid, concentration, 0.5)
        result = self.loc + self.scale / (1 - safe_conc)
        return t.where(valid, result, math.nan)

    @property
    def variance(self):
        """``scale² / ((1 - ξ)² (1 - 2ξ))`` (NaN for ``ξ >= 1/2``)."""
        t = _torch()
        concentration = self.concentration
        valid = concentration < 0.5
        safe_conc = t.where(valid, concentration, 0.25)
        result = self.scale ** 2 / ((1 - safe_conc) ** 2 * (1 - 2 * safe_conc))
        return t.where(valid, result, math.nan)

    def entropy(self):
        """``log scale + ξ + 1``."""
        t = _torch()
        ans = t.log(self.scale) + self.concentration + 1
        # ``broadcast_to`` (PyTorch's spelling) is ``expand``; ferrograd's ``broadcast_to``
        # rejects the empty shape of a scalar batch, so expand directly
        return ans.expand(self._batch_shape)

    @property
    def mode(self):
        """``loc``."""
        return self.loc

    @constraints.dependent_property(is_discrete=False, event_dim=0)
    def support(self):
        """``[loc, loc - scale/ξ]`` for ``ξ < 0``, ``[loc, inf]`` otherwise."""
        t = _torch()
        lower = self.loc
        upper = t.where(self.concentration < 0, lower - self.scale / self.concentration, math.inf)
        return constraints.interval(lower, upper)
