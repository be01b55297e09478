"""``LogitRelaxedBernoulli`` and ``RelaxedBernoulli(temperature, probs | logits)`` (the
binary Concrete / Gumbel-softmax relaxation)."""

import numbers

from . import constraints
from .distribution import Distribution
from .transformed_distribution import TransformedDistribution
from .transforms import SigmoidTransform
from .utils import broadcast_all, clamp_probs, _expand_probs_or_logits, lazy_property, logits_to_probs, probs_to_logits

__all__ = ["LogitRelaxedBernoulli", "RelaxedBernoulli"]


def _torch():
    import ferrograd

    return ferrograd


class LogitRelaxedBernoulli(Distribution):
    """The logit of a ``RelaxedBernoulli``: ``(logit(u) + logit(p)) / temperature`` with
    ``u = rand(...)`` (PyTorch's stream, reparameterized)."""

    arg_constraints = {"probs": constraints.unit_interval, "logits": constraints.real}
    support = constraints.real

    def __init__(self, temperature, probs=None, logits=None, validate_args=None):
        self.temperature = temperature
        if (probs is None) == (logits is None):
            raise ValueError("Either `probs` or `logits` must be specified, but not both.")
        if probs is not None:
            is_scalar = isinstance(probs, numbers.Number)
            (self.probs,) = broadcast_all(probs)
        else:
            is_scalar = isinstance(logits, numbers.Number)
            (self.logits,) = broadcast_all(logits)
        self._param = self.probs if probs is not None else self.logits
        batch_shape = () if is_scalar else self._param.size()
        super().__init__(batch_shape, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        """This distribution with its parameter expanded to ``batch_shape``."""
        new = self._get_checked_instance(LogitRelaxedBernoulli, _instance)
        batch_shape = _torch().Size(batch_shape)
        new.temperature = self.temperature
        _expand_probs_or_logits(self, new, batch_shape)
        super(LogitRelaxedBernoulli, new).__init__(batch_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    def _new(self, *args, **kwargs):
        return self._param.new(*args, **kwargs)

    @lazy_property
    def logits(self):
        """Log-odds."""
        return probs_to_logits(self.probs, is_binary=True)

    @lazy_property
    def probs(self):
        """The probability of 1."""
        return logits_to_probs(self.logits, is_binary=True)

    @property
    def param_shape(self):
        """The shape of ``probs``/``logits``."""
        return self._param.size()

    def rsample(self, sample_shape=()):
        """``(logit(u) + logit(p)) / temperature`` (clamped probabilities)."""
        t = _torch()
        shape = self._extended_shape(sample_shape)
        probs = clamp_probs(self.probs.expand(shape))
        uniforms = clamp_probs(t.rand(shape, dtype=probs.dtype, device=probs.device))
        return (uniforms.log() - (-uniforms).log1p() + probs.log() - (-probs).log1p()) / self.temperature

    def log_prob(self, value):
        """``log τ + d - 2 log(1 + exp(d))`` with ``d = logits - τ x``."""
        if self._validate_args:
            self._validate_sample(value)
        logits, value = broadcast_all(self.logits, value)
        diff = logits - value.mul(self.temperature)
        return self.temperature.log() + diff - 2 * diff.exp().log1p()


class RelaxedBernoulli(TransformedDistribution):
    """``sigmoid`` of a ``LogitRelaxedBernoulli``: a reparameterizable relaxation of
    ``Bernoulli`` on ``(0, 1)``."""

    arg_constraints = {"probs": constraints.unit_interval, "logits": constraints.real}
    support = constraints.unit_interval
    has_rsample = True

    def __init__(self, temperature, probs=None, logits=None, validate_args=None):
        base_dist = LogitRelaxedBernoulli(temperature, probs, logits)
        super().__init__(base_dist, SigmoidTransform(), validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        """This distribution with its base expanded to ``batch_shape``."""
        new = self._get_checked_instance(RelaxedBernoulli, _instance)
        return super().expand(batch_shape, _instance=new)

    @property
    def temperature(self):
        """The relaxation temperature."""
        return self.base_dist.temperature

    @property
    def logits(self):
        """Log-odds."""
        return self.base_dist.logits

    @property
    def probs(self):
        """The probability of 1."""
        return self.base_dist.probs
