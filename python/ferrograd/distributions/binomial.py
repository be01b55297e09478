"""``Binomial(total_count=1, probs | logits)``."""

from . import constraints
from ._samplers import _binomial
from .distribution import Distribution
from .utils import _CountAndProbs, lazy_property, logits_to_probs, probs_to_logits

__all__ = ["Binomial"]


def _torch():
    import ferrograd

    return ferrograd


def _clamp_by_zero(x):
    # x.clamp(min=0) with a gradient of 1/2 at 0
    return (x.clamp(min=0) + x - x.clamp(max=0)) / 2


class Binomial(_CountAndProbs, Distribution):
    """Successes in ``total_count`` Bernoulli(``probs``) trials (samples: ATen's kernel on
    PyTorch's random stream)."""

    arg_constraints = {"total_count": constraints.nonnegative_integer, "probs": constraints.unit_interval,
                       "logits": constraints.real}
    has_enumerate_support = True

    def __init__(self, total_count=1, probs=None, logits=None, validate_args=None):
        batch_shape = self._init_count_params(total_count, probs, logits)
        super().__init__(batch_shape, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        """This distribution with its parameters expanded to ``batch_shape``."""
        new = self._get_checked_instance(Binomial, _instance)
        batch_shape = _torch().Size(batch_shape)
        self._expand_count_params(new, batch_shape)
        super(Binomial, new).__init__(batch_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    @constraints.dependent_property(is_discrete=True, event_dim=0)
    def support(self):
        """``{0, ..., total_count}``."""
        return constraints.integer_interval(0, self.total_count)

    @property
    def mean(self):
        """``n p``."""
        return self.total_count * self.probs

    @property
    def mode(self):
        """``floor((n + 1) p)`` clamped at ``n``."""
        return ((self.total_count + 1) * self.probs).floor().clamp(max=self.total_count)

    @property
    def variance(self):
        """``n p (1 - p)``."""
        return self.total_count * self.probs * (1 - self.probs)

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
        """The shape of ``probs``/``logits``."""
        return self._param.size()

    def sample(self, sample_shape=()):
        """Binomial counts (the parameter's dtype), without gradient."""
        from .. import no_grad

        shape = self._extended_shape(sample_shape)
        with no_grad():
            return _binomial(self.total_count.expand(shape), self.probs.expand(shape))

    def log_prob(self, value):
        """``log C(n, k) + k logit - n log(1 + exp(logit))`` (stably)."""
        if self._validate_args:
            self._validate_sample(value)
        t = _torch()
        log_factorial_n = t.lgamma(self.total_count + 1)
        log_factorial_k = t.lgamma(value + 1)
        log_factorial_nmk = t.lgamma(self.total_count - value + 1)
        normalize_term = (self.total_count * _clamp_by_zero(self.logits)
                          + self.total_count * t.log1p(t.exp(-t.abs(self.logits))) - log_factorial_n)
        return value * self.logits - log_factorial_k - log_factorial_nmk - normalize_term

    def entropy(self):
        """``-Σ p log p`` over the support (one ``total_count`` only)."""
        total_count = int(self.total_count.max())
        if not self.total_count.min() == total_count:
            raise NotImplementedError("Inhomogeneous total count not supported by `entropy`.")
        log_prob = self.log_prob(self.enumerate_support(False))
        return -(_torch().exp(log_prob) * log_prob).sum(0)

    def enumerate_support(self, expand=True):
        """``0, ..., total_count`` along a new leading dimension (one ``total_count`` only)."""
        t = _torch()
        total_count = int(self.total_count.max())
        if not self.total_count.min() == total_count:
            raise NotImplementedError("Inhomogeneous total count not supported by `enumerate_support`.")
        values = t.arange(1 + total_count, dtype=self._param.dtype, device=self._param.device)
        values = values.view((-1,) + (1,) * len(self._batch_shape))
        if expand:
            values = values.expand((-1,) + tuple(self._batch_shape))
        return values
