"""``Bernoulli``: 1 with probability ``probs`` (or ``sigmoid(logits)``), else 0."""

import numbers

from . import constraints
from .exp_family import ExponentialFamily
from .utils import broadcast_all, _expand_probs_or_logits, lazy_property, logits_to_probs, probs_to_logits

__all__ = ["Bernoulli"]


def _torch():
    import ferrograd

    return ferrograd


class Bernoulli(ExponentialFamily):
    """Samples drawn with ``torch.bernoulli`` (the same random stream as PyTorch)."""

    arg_constraints = {"probs": constraints.unit_interval, "logits": constraints.real}
    support = constraints.boolean
    has_enumerate_support = True
    _mean_carrier_measure = 0

    def __init__(self, probs=None, logits=None, validate_args=None):
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
        new = self._get_checked_instance(Bernoulli, _instance)
        batch_shape = _torch().Size(batch_shape)
        _expand_probs_or_logits(self, new, batch_shape)
        super(Bernoulli, new).__init__(batch_shape, validate_args=False)
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

    @property
    def mean(self):
        """``probs``."""
        return self.probs

    @property
    def mode(self):
        """1 where ``probs > 1/2``, 0 below, NaN at exactly 1/2."""
        mode = (self.probs >= 0.5).to(self.probs)
        mode[self.probs == 0.5] = float("nan")
        return mode

    @property
    def variance(self):
        """``p (1 - p)``."""
        return self.probs * (1 - self.probs)

    def sample(self, sample_shape=()):
        """0/1 samples (the parameters' dtype)."""
        from .. import no_grad

        shape = self._extended_shape(sample_shape)
        with no_grad():
            return _torch().bernoulli(self.probs.expand(shape))

    def log_prob(self, value):
        """``-BCE(logits, value)``."""
        if self._validate_args:
            self._validate_sample(value)
        from ..nn.functional import binary_cross_entropy_with_logits

        logits, value = broadcast_all(self.logits, value)
        return -binary_cross_entropy_with_logits(logits, value, reduction="none")

    def entropy(self):
        """``BCE(logits, probs)``."""
        from ..nn.functional import binary_cross_entropy_with_logits

        return binary_cross_entropy_with_logits(self.logits, self.probs, reduction="none")

    def enumerate_support(self, expand=True):
        """``[0, 1]`` shaped ``(2,) + (1,) * len(batch_shape)`` (expanded over the batch)."""
        t = _torch()
        values = t.arange(2, dtype=self._param.dtype, device=self._param.device)
        values = values.view((-1,) + (1,) * len(self._batch_shape))
        if expand:
            values = values.expand((-1,) + tuple(self._batch_shape))
        return values

    @property
    def _natural_params(self):
        return (_torch().logit(self.probs),)

    def _log_normalizer(self, x):
        return _torch().log1p(_torch().exp(x))
