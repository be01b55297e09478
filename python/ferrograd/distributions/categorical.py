"""``Categorical``: a distribution over ``{0, ..., K-1}`` given by ``probs`` or ``logits``
(the last dimension)."""

import math

from . import constraints
from .distribution import Distribution
from .utils import _expand_probs_or_logits, lazy_property, logits_to_probs, probs_to_logits

__all__ = ["Categorical"]


def _torch():
    import ferrograd

    return ferrograd


class Categorical(Distribution):
    """Samples are indices drawn with ``multinomial`` (so the same random stream as PyTorch)."""

    arg_constraints = {"probs": constraints.simplex, "logits": constraints.real_vector}
    has_enumerate_support = True

    def __init__(self, probs=None, logits=None, validate_args=None):
        if (probs is None) == (logits is None):
            raise ValueError("Either `probs` or `logits` must be specified, but not both.")
        if probs is not None:
            if probs.dim() < 1:
                raise ValueError("`probs` parameter must be at least one-dimensional.")
            self.probs = probs / probs.sum(-1, keepdim=True)
        else:
            if logits.dim() < 1:
                raise ValueError("`logits` parameter must be at least one-dimensional.")
            self.logits = logits - logits.logsumexp(dim=-1, keepdim=True)
        self._param = self.probs if probs is not None else self.logits
        self._num_events = self._param.size()[-1]
        batch_shape = self._param.size()[:-1] if self._param.dim() > 1 else ()
        super().__init__(batch_shape, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        """This distribution with its parameter expanded to ``batch_shape + (K,)``."""
        new = self._get_checked_instance(Categorical, _instance)
        batch_shape = _torch().Size(batch_shape)
        param_shape = tuple(batch_shape) + (self._num_events,)
        _expand_probs_or_logits(self, new, param_shape)
        new._num_events = self._num_events
        super(Categorical, new).__init__(batch_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    def _new(self, *args, **kwargs):
        return self._param.new(*args, **kwargs)

    @constraints.dependent_property(is_discrete=True, event_dim=0)
    def support(self):
        """``{0, ..., K-1}``."""
        return constraints.integer_interval(0, self._num_events - 1)

    @lazy_property
    def logits(self):
        """Normalised log-probabilities."""
        return probs_to_logits(self.probs)

    @lazy_property
    def probs(self):
        """Probabilities (softmax of the logits)."""
        return logits_to_probs(self.logits)

    @property
    def param_shape(self):
        """The shape of ``probs``/``logits``."""
        return self._param.size()

    @property
    def mean(self):
        """Undefined: NaN."""
        return _torch().full(self._extended_shape(), math.nan, dtype=self.probs.dtype, device=self.probs.device)

    @property
    def mode(self):
        """The most probable index."""
        return self.probs.argmax(dim=-1)

    @property
    def variance(self):
        """Undefined: NaN."""
        return _torch().full(self._extended_shape(), math.nan, dtype=self.probs.dtype, device=self.probs.device)

    def sample(self, sample_shape=()):
        """Indices drawn from ``probs`` (``multinomial`` with replacement)."""
        t = _torch()
        if not isinstance(sample_shape, t.Size):
            sample_shape = t.Size(sample_shape)
        probs_2d = self.probs.reshape(-1, self._num_events)
        samples_2d = t.multinomial(probs_2d, sample_shape.numel(), True).T
        return samples_2d.reshape(self._extended_shape(sample_shape))

    def log_prob(self, value):
        """The log-probability of the indices in ``value``."""
        t = _torch()
        if self._validate_args:
            self._validate_sample(value)
        value = value.long().unsqueeze(-1)
        value, log_pmf = t.broadcast_tensors(value, self.logits)
        value = value[..., :1]
        return log_pmf.gather(-1, value).squeeze(-1)

    def entropy(self):
        """``-Σ p log p`` over the categories."""
        t = _torch()
        min_real = t.finfo(self.logits.dtype).min
        logits = t.clamp(self.logits, min=min_real)
        p_log_p = logits * self.probs
        return -p_log_p.sum(-1)

    def enumerate_support(self, expand=True):
        """Every category, shaped ``(K,) + (1,) * len(batch_shape)`` (expanded over the batch)."""
        t = _torch()
        num_events = self._num_events
        values = t.arange(num_events, dtype=t.int64, device=self._param.device)
        values = values.view((-1,) + (1,) * len(self._batch_shape))
        if expand:
            values = values.expand((-1,) + tuple(self._batch_shape))
        return values
