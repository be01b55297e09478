"""``Multinomial(total_count=1, probs | logits)``."""

import math

from . import constraints
from .binomial import Binomial
from .categorical import Categorical
from .distribution import Distribution
from .utils import broadcast_all

__all__ = ["Multinomial"]


def _torch():
    import ferrograd

    return ferrograd


class Multinomial(Distribution):
    """Counts of ``total_count`` categorical draws; samples count ``Categorical`` draws (the
    same stream as PyTorch)."""

    arg_constraints = {"probs": constraints.simplex, "logits": constraints.real_vector}

    @property
    def mean(self):
        """``n p``."""
        return self.probs * self.total_count

    @property
    def variance(self):
        """``n p (1 - p)``."""
        return self.total_count * self.probs * (1 - self.probs)

    def __init__(self, total_count=1, probs=None, logits=None, validate_args=None):
        if not isinstance(total_count, int):
            raise NotImplementedError("inhomogeneous total_count is not supported")
        self.total_count = total_count
        self._categorical = Categorical(probs=probs, logits=logits)
        self._binomial = Binomial(total_count=total_count, probs=self.probs)
        batch_shape = self._categorical.batch_shape
        event_shape = self._categorical.param_shape[-1:]
        super().__init__(batch_shape, event_shape, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        """This distribution with its parameters expanded to ``batch_shape``."""
        new = self._get_checked_instance(Multinomial, _instance)
        batch_shape = _torch().Size(batch_shape)
        new.total_count = self.total_count
        new._categorical = self._categorical.expand(batch_shape)
        super(Multinomial, new).__init__(batch_shape, self.event_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    def _new(self, *args, **kwargs):
        return self._categorical._new(*args, **kwargs)

    @constraints.dependent_property(is_discrete=True, event_dim=1)
    def support(self):
        """Non-negative integer vectors summing to at most ``total_count``."""
        return constraints.multinomial(self.total_count)

    @property
    def logits(self):
        """The categorical log-probabilities."""
        return self._categorical.logits

    @property
    def probs(self):
        """The categorical probabilities."""
        return self._categorical.probs

    @property
    def param_shape(self):
        """The shape of ``probs``/``logits``."""
        return self._categorical.param_shape

    def sample(self, sample_shape=()):
        """Counts of ``total_count`` categorical draws (the probabilities' dtype)."""
        t = _torch()
        sample_shape = t.Size(sample_shape)
        samples = self._categorical.sample(t.Size((self.total_count,) + tuple(sample_shape)))
        shifted_idx = list(range(samples.dim()))
        shifted_idx.append(shifted_idx.pop(0))
        samples = samples.permute(*shifted_idx)
        counts = t.zeros(self._extended_shape(sample_shape), dtype=samples.dtype, device=samples.device)
        counts.scatter_add_(-1, samples, t.ones_like(samples))
        return counts.type_as(self.probs)

    def entropy(self):
        """The multinomial entropy (through the binomial marginals)."""
        t = _torch()
        n = t.tensor(self.total_count)
        cat_entropy = self._categorical.entropy()
        term1 = n * cat_entropy - t.lgamma(n + 1)
        support = self._binomial.enumerate_support(expand=False)[1:]
        binomial_probs = t.exp(self._binomial.log_prob(support))
        weights = t.lgamma(support + 1)
        term2 = (binomial_probs * weights).sum([0, -1])
        return term1 + term2

    def log_prob(self, value):
        """``lgamma(Σx + 1) - Σ lgamma(x + 1) + Σ x log p``."""
        if self._validate_args:
            self._validate_sample(value)
        t = _torch()
        logits, value = broadcast_all(self.logits, value)
        logits = logits.clone()
        log_factorial_n = t.lgamma(value.sum(-1) + 1)
        log_factorial_xs = t.lgamma(value + 1).sum(-1)
        logits[(value == 0) & (logits == -math.inf)] = 0
        log_powers = (logits * value).sum(-1)
        return log_factorial_n - log_factorial_xs + log_powers
