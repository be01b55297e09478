"""``ContinuousBernoulli(probs | logits)``: the continuous Bernoulli on ``[0, 1]``."""

import math
import numbers

from . import constraints
from .exp_family import ExponentialFamily
from .utils import broadcast_all, clamp_probs, _expand_probs_or_logits, lazy_property, logits_to_probs, probs_to_logits

__all__ = ["ContinuousBernoulli"]


def _torch():
    import ferrograd

    return ferrograd


def _bce_with_logits(logits, value):
    from ..nn.functional import binary_cross_entropy_with_logits

    return binary_cross_entropy_with_logits(logits, value, reduction="none")


class ContinuousBernoulli(ExponentialFamily):
    """The continuous Bernoulli distribution (Loaiza-Ganem and Cunningham, 2019) on
    ``[0, 1]``, with density proportional to ``p^x (1 - p)^(1 - x)``; ``rsample`` is the
    ``icdf`` of ``rand`` draws (PyTorch's stream). Near ``p = 1/2`` (within ``lims``)
    Taylor expansions replace the unstable closed forms."""

    arg_constraints = {"probs": constraints.unit_interval, "logits": constraints.real}
    support = constraints.unit_interval
    _mean_carrier_measure = 0
    has_rsample = True

    def __init__(self, probs=None, logits=None, lims=(0.499, 0.501), validate_args=None):
        t = _torch()
        if (probs is None) == (logits is None):
            raise ValueError("Either `probs` or `logits` must be specified, but not both.")
        if probs is not None:
            is_scalar = isinstance(probs, numbers.Number)
            (self.probs,) = broadcast_all(probs)
            if validate_args is not None:
                if not self.arg_constraints["probs"].check(self.probs).all():
                    raise ValueError("The parameter probs has invalid values")
            self.probs = clamp_probs(self.probs)
        else:
            is_scalar = isinstance(logits, numbers.Number)
            (self.logits,) = broadcast_all(logits)
        self._param = self.probs if probs is not None else self.logits
        batch_shape = t.Size() if is_scalar else self._param.size()
        self._lims = lims
        super().__init__(batch_shape, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        """This distribution with its parameter expanded to ``batch_shape``."""
        new = self._get_checked_instance(ContinuousBernoulli, _instance)
        new._lims = self._lims
        batch_shape = _torch().Size(batch_shape)
        _expand_probs_or_logits(self, new, batch_shape)
        super(ContinuousBernoulli, new).__init__(batch_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    def _new(self, *args, **kwargs):
        return self._param.new(*args, **kwargs)

    def _outside_unstable_region(self):
        t = _torch()
        return t.max(t.le(self.probs, self._lims[0]), t.gt(self.probs, self._lims[1]))

    def _cut_probs(self):
        t = _torch()
        return t.where(self._outside_unstable_region(), self.probs, self._lims[0] * t.ones_like(self.probs))

    def _cont_bern_log_norm(self):
        """The log normalizing constant as a function of ``probs``."""
        t = _torch()
        cut_probs = self._cut_probs()
        cut_probs_below_half = t.where(t.le(cut_probs, 0.5), cut_probs, t.zeros_like(cut_probs))
        cut_probs_above_half = t.where(t.ge(cut_probs, 0.5), cut_probs, t.ones_like(cut_probs))
        log_norm = t.log(t.abs(t.log1p(-cut_probs) - t.log(cut_probs))) - t.where(
            t.le(cut_probs, 0.5), t.log1p(-2.0 * cut_probs_below_half), t.log(2.0 * cut_probs_above_half - 1.0))
        x = t.pow(self.probs - 0.5, 2)
        taylor = math.log(2.0) + (4.0 / 3.0 + 104.0 / 45.0 * x) * x
        return t.where(self._outside_unstable_region(), log_norm, taylor)

    @property
    def mean(self):
        """``p/(2p - 1) + 1/(log(1 - p) - log p)`` (a Taylor expansion near 1/2)."""
        t = _torch()
        cut_probs = self._cut_probs()
        mus = cut_probs / (2.0 * cut_probs - 1.0) + 1.0 / (t.log1p(-cut_probs) - t.log(cut_probs))
        x = self.probs - 0.5
        taylor = 0.5 + (1.0 / 3.0 + 16.0 / 45.0 * t.pow(x, 2)) * x
        return t.where(self._outside_unstable_region(), mus, taylor)

    @property
    def stddev(self):
        """The square root of the variance."""
        return _torch().sqrt(self.variance)

    @property
    def variance(self):
        """``p(p - 1)/(1 - 2p)² + 1/(log(1 - p) - log p)²`` (a Taylor expansion near 1/2)."""
        t = _torch()
        cut_probs = self._cut_probs()
        vars = (cut_probs * (cut_probs - 1.0) / t.pow(1.0 - 2.0 * cut_probs, 2)
                + 1.0 / t.pow(t.log1p(-cut_probs) - t.log(cut_probs), 2))
        x = t.pow(self.probs - 0.5, 2)
        taylor = 1.0 / 12.0 - (1.0 / 15.0 - 128.0 / 945.0 * x) * x
        return t.where(self._outside_unstable_region(), vars, taylor)

    @lazy_property
    def logits(self):
        """``log(p / (1 - p))``."""
        return probs_to_logits(self.probs, is_binary=True)

    @lazy_property
    def probs(self):
        """``sigmoid(logits)``, clamped away from 0 and 1."""
        return clamp_probs(logits_to_probs(self.logits, is_binary=True))

    @property
    def param_shape(self):
        """The shape of the parameter given."""
        return self._param.size()

    def sample(self, sample_shape=()):
        """The ``icdf`` of ``rand`` draws, without gradient."""
        t = _torch()
        shape = self._extended_shape(sample_shape)
        u = t.rand(shape, dtype=self.probs.dtype, device=self.probs.device)
        with t.no_grad():
            return self.icdf(u)

    def rsample(self, sample_shape=()):
        """The ``icdf`` of ``rand`` draws."""
        t = _torch()
        shape = self._extended_shape(sample_shape)
        u = t.rand(shape, dtype=self.probs.dtype, device=self.probs.device)
        return self.icdf(u)

    def log_prob(self, value):
        """``-BCE(logits, x) + log C(p)``."""
        if self._validate_args:
            self._validate_sample(value)
        logits, value = broadcast_all(self.logits, value)
        return -_bce_with_logits(logits, value) + self._cont_bern_log_norm()

    def cdf(self, value):
        """``(p^x (1 - p)^(1 - x) + p - 1) / (2p - 1)`` (``x`` near 1/2), 0 below 0, 1 above 1."""
        t = _torch()
        if self._validate_args:
            self._validate_sample(value)
        cut_probs = self._cut_probs()
        cdfs = ((t.pow(cut_probs, value) * t.pow(1.0 - cut_probs, 1.0 - value) + cut_probs - 1.0)
                / (2.0 * cut_probs - 1.0))
        unbounded_cdfs = t.where(self._outside_unstable_region(), cdfs, value)
        return t.where(t.le(value, 0.0), t.zeros_like(value),
                       t.where(t.ge(value, 1.0), t.ones_like(value), unbounded_cdfs))

    def icdf(self, value):
        """``(log1p(-p + u(2p - 1)) - log1p(-p)) / (log p - log1p(-p))`` (``u`` near 1/2)."""
        t = _torch()
        cut_probs = self._cut_probs()
        return t.where(self._outside_unstable_region(),
                       (t.log1p(-cut_probs + value * (2.0 * cut_probs - 1.0)) - t.log1p(-cut_probs))
                       / (t.log(cut_probs) - t.log1p(-cut_probs)),
                       value)

    def entropy(self):
        """``mean (log(1 - p) - log p) - log C(p) - log(1 - p)``."""
        t = _torch()
        log_probs0 = t.log1p(-self.probs)
        log_probs1 = t.log(self.probs)
        return self.mean * (log_probs0 - log_probs1) - self._cont_bern_log_norm() - log_probs0

    @property
    def _natural_params(self):
        return (self.logits,)

    def _log_normalizer(self, x):
        """The log normalizing constant as a function of the natural parameter."""
        t = _torch()
        out_unst_reg = t.max(t.le(x, self._lims[0] - 0.5), t.gt(x, self._lims[1] - 0.5))
        cut_nat_params = t.where(out_unst_reg, x, (self._lims[0] - 0.5) * t.ones_like(x))
        log_norm = t.log(t.abs(t.special.expm1(cut_nat_params))) - t.log(t.abs(cut_nat_params))
        taylor = 0.5 * x + t.pow(x, 2) / 24.0 - t.pow(x, 4) / 2880.0
        return t.where(out_unst_reg, log_norm, taylor)
