"""``FisherSnedecor(df1, df2)``: the F distribution, a ratio of scaled gammas."""

import math
import numbers

from . import constraints
from .distribution import Distribution
from .gamma import Gamma
from .utils import broadcast_all

__all__ = ["FisherSnedecor"]


def _torch():
    import ferrograd

    return ferrograd


class FisherSnedecor(Distribution):
    """The Fisher-Snedecor (F) distribution: ``X1 / X2`` with ``Xi ~ Gamma(dfi/2, dfi)``
    (reparameterized; the gamma draws are PyTorch's)."""

    arg_constraints = {"df1": constraints.positive, "df2": constraints.positive}
    support = constraints.positive
    has_rsample = True

    def __init__(self, df1, df2, validate_args=None):
        t = _torch()
        self.df1, self.df2 = broadcast_all(df1, df2)
        self._gamma1 = Gamma(self.df1 * 0.5, self.df1)
        self._gamma2 = Gamma(self.df2 * 0.5, self.df2)
        if isinstance(df1, numbers.Number) and isinstance(df2, numbers.Number):
            batch_shape = t.Size()
        else:
            batch_shape = self.df1.size()
        super().__init__(batch_shape, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        """This distribution with its parameters expanded to ``batch_shape``."""
        new = self._get_checked_instance(FisherSnedecor, _instance)
        batch_shape = _torch().Size(batch_shape)
        new.df1 = self.df1.expand(batch_shape)
        new.df2 = self.df2.expand(batch_shape)
        new._gamma1 = self._gamma1.expand(batch_shape)
        new._gamma2 = self._gamma2.expand(batch_shape)
        super(FisherSnedecor, new).__init__(batch_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    @property
    def mean(self):
        """``df2 / (df2 - 2)`` (NaN for ``df2 <= 2``)."""
        df2 = self.df2.clone(memory_format=_torch().contiguous_format)
        df2[df2 <= 2] = math.nan
        return df2 / (df2 - 2)

    @property
    def mode(self):
        """``(df1 - 2)/df1 · df2/(df2 + 2)`` (NaN for ``df1 <= 2``)."""
        mode = (self.df1 - 2) / self.df1 * self.df2 / (self.df2 + 2)
        mode[self.df1 <= 2] = math.nan
        return mode

    @property
    def variance(self):
        """``2 df2² (df1 + df2 - 2) / (df1 (df2 - 2)² (df2 - 4))`` (NaN for ``df2 <= 4``)."""
        df2 = self.df2.clone(memory_format=_torch().contiguous_format)
        df2[df2 <= 4] = math.nan
        return 2 * df2.pow(2) * (self.df1 + df2 - 2) / (self.df1 * (df2 - 2).pow(2) * (df2 - 4))

    def rsample(self, sample_shape=()):
        """The ratio of the two gammas' reparameterized draws (at least the dtype's tiny)."""
        t = _torch()
        shape = self._extended_shape(sample_shape)
        X1 = self._gamma1.rsample(sample_shape).view(shape)
        X2 = self._gamma2.rsample(sample_shape).view(shape)
        tiny = t.finfo(X2.dtype).tiny
        X2.clamp_(min=tiny)
        Y = X1 / X2
        Y.clamp_(min=tiny)
        return Y

    def log_prob(self, value):
        """The F density's log."""
        t = _torch()
        if self._validate_args:
            self._validate_sample(value)
        ct1 = self.df1 * 0.5
        ct2 = self.df2 * 0.5
        ct3 = self.df1 / self.df2
        t1 = (ct1 + ct2).lgamma() - ct1.lgamma() - ct2.lgamma()
        t2 = ct1 * ct3.log() + (ct1 - 1) * t.log(value)
        t3 = (ct1 + ct2) * t.log1p(ct3 * value)
        return t1 + t2 - t3
