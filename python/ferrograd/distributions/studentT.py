"""``StudentT(df, loc=0, scale=1)``."""

import math

from . import constraints
from .chi2 import Chi2
from .distribution import Distribution
from .utils import _standard_normal, broadcast_all

__all__ = ["StudentT"]


def _torch():
    import ferrograd

    return ferrograd


class StudentT(Distribution):
    """Student's t distribution; ``rsample`` is ``loc + scale * X / sqrt(Z / df)`` with standard
    normal ``X`` and ``Z ~ Chi2(df)`` (reparameterized through the gamma sampler)."""

    arg_constraints = {"df": constraints.positive, "loc": constraints.real, "scale": constraints.positive}
    support = constraints.real
    has_rsample = True

    @property
    def mean(self):
        """``loc`` (NaN where ``df <= 1``)."""
        m = self.loc.clone()
        m[self.df <= 1] = math.nan
        return m

    @property
    def mode(self):
        """``loc``."""
        return self.loc

    @property
    def variance(self):
        """``scale² df / (df - 2)`` (inf for ``1 < df <= 2``, NaN for ``df <= 1``)."""
        m = self.df.clone()
        big = self.df > 2
        m[big] = self.scale[big].pow(2) * self.df[big] / (self.df[big] - 2)
        m[(self.df <= 2) & (self.df > 1)] = math.inf
        m[self.df <= 1] = math.nan
        return m

    def __init__(self, df, loc=0.0, scale=1.0, validate_args=None):
        self.df, self.loc, self.scale = broadcast_all(df, loc, scale)
        self._chi2 = Chi2(self.df)
        batch_shape = self.df.size()
        super().__init__(batch_shape, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        """This distribution with its parameters expanded to ``batch_shape``."""
        new = self._get_checked_instance(StudentT, _instance)
        batch_shape = _torch().Size(batch_shape)
        new.df = self.df.expand(batch_shape)
        new.loc = self.loc.expand(batch_shape)
        new.scale = self.scale.expand(batch_shape)
        new._chi2 = self._chi2.expand(batch_shape)
        super(StudentT, new).__init__(batch_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    def rsample(self, sample_shape=()):
        """``loc + scale * X * rsqrt(Z / df)``."""
        t = _torch()
        shape = self._extended_shape(sample_shape)
        X = _standard_normal(shape, dtype=self.df.dtype, device=self.df.device)
        Z = self._chi2.rsample(sample_shape)
        Y = X * t.rsqrt(Z / self.df)
        return self.loc + self.scale * Y

    def log_prob(self, value):
        """The Student t log-density."""
        if self._validate_args:
            self._validate_sample(value)
        t = _torch()
        y = (value - self.loc) / self.scale
        Z = (self.scale.log() + 0.5 * self.df.log() + 0.5 * math.log(math.pi) + t.lgamma(0.5 * self.df)
             - t.lgamma(0.5 * (self.df + 1.0)))
        return -0.5 * (self.df + 1.0) * t.log1p(y**2.0 / self.df) - Z

    def entropy(self):
        """The Student t entropy."""
        t = _torch()
        lbeta = t.lgamma(0.5 * self.df) + math.lgamma(0.5) - t.lgamma(0.5 * (self.df + 1))
        return (self.scale.log() + 0.5 * (self.df + 1) * (t.digamma(0.5 * (self.df + 1)) - t.digamma(0.5 * self.df))
                + 0.5 * self.df.log() + lbeta)
