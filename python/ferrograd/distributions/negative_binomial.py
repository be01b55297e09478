"""``NegativeBinomial(total_count, probs | logits)``: successes before ``total_count``
failures."""

from . import constraints
from .distribution import Distribution
from .gamma import Gamma
from .utils import _CountAndProbs, lazy_property, logits_to_probs, probs_to_logits

__all__ = ["NegativeBinomial"]


def _torch():
    import ferrograd

    return ferrograd


def _logsigmoid(x):
    from ..nn.functional import logsigmoid

    return logsigmoid(x)


class NegativeBinomial(_CountAndProbs, Distribution):
    """The number of successes of Bernoulli(``probs``) trials before ``total_count``
    failures; samples are a gamma-Poisson mixture (both draws are PyTorch's)."""

    arg_constraints = {"total_count": constraints.greater_than_eq(0),
                       "probs": constraints.half_open_interval(0.0, 1.0), "logits": constraints.real}
    support = constraints.nonnegative_integer

    def __init__(self, total_count, probs=None, logits=None, validate_args=None):
        batch_shape = self._init_count_params(total_count, probs, logits)
        super().__init__(batch_shape, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        """This distribution with its parameters expanded to ``batch_shape``."""
        new = self._get_checked_instance(NegativeBinomial, _instance)
        batch_shape = _torch().Size(batch_shape)
        self._expand_count_params(new, batch_shape)
        super(NegativeBinomial, new).__init__(batch_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    @property
    def mean(self):
        """``total_count · exp(logits)``."""
        return self.total_count * _torch().exp(self.logits)

    @property
    def mode(self):
        """``floor((total_count - 1) · exp(logits))`` clamped at 0."""
        return ((self.total_count - 1) * self.logits.exp()).floor().clamp(min=0.0)

    @property
    def variance(self):
        """``mean / sigmoid(-logits)``."""
        return self.mean / _torch().sigmoid(-self.logits)

    @lazy_property
    def logits(self):
        """Log-odds of success."""
        return probs_to_logits(self.probs, is_binary=True)

    @lazy_property
    def probs(self):
        """The success probability."""
        return logits_to_probs(self.logits, is_binary=True)

    @property
    def param_shape(self):
        """The shape of the parameter given."""
        return self._param.size()

    @lazy_property
    def _gamma(self):
        return Gamma(concentration=self.total_count, rate=_torch().exp(-self.logits), validate_args=False)

    def sample(self, sample_shape=()):
        """Poisson draws at gamma-distributed rates (without gradient)."""
        from .. import no_grad

        with no_grad():
            rate = self._gamma.sample(sample_shape=sample_shape)
            return _torch().poisson(rate)

    def log_prob(self, value):
        """``r log σ(-l) + k log σ(l) + lgamma(r + k) - lgamma(1 + k) - lgamma(r)``."""
        t = _torch()
        if self._validate_args:
            self._validate_sample(value)
        log_unnormalized_prob = self.total_count * _logsigmoid(-self.logits) + value * _logsigmoid(self.logits)
        log_normalization = -t.lgamma(self.total_count + value) + t.lgamma(1.0 + value) + t.lgamma(self.total_count)
        log_normalization = log_normalization.masked_fill(self.total_count + value == 0.0, 0.0)
        return log_unnormalized_prob - log_normalization
