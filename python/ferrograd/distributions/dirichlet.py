"""``Dirichlet(concentration)``."""

from . import constraints
from ._samplers import _dirichlet
from .exp_family import ExponentialFamily
from .utils import _xlogy

__all__ = ["Dirichlet"]


def _torch():
    import ferrograd

    return ferrograd


class Dirichlet(ExponentialFamily):
    """The Dirichlet distribution over the simplex (the last dimension). ``rsample`` normalises
    gamma draws; its gradient flows through the gammas' implicit reparameterization (PyTorch
    instead uses a Beta-marginal approximation, ``_dirichlet_grad``; both are unbiased, the
    per-sample values differ), and the samples differ from PyTorch's under one seed."""

    arg_constraints = {"concentration": constraints.independent(constraints.positive, 1)}
    support = constraints.simplex
    has_rsample = True

    def __init__(self, concentration, validate_args=None):
        if concentration.dim() < 1:
            raise ValueError("`concentration` parameter must be at least one-dimensional.")
        self.concentration = concentration
        batch_shape, event_shape = concentration.shape[:-1], concentration.shape[-1:]
        super().__init__(batch_shape, event_shape, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        """This distribution with ``concentration`` expanded to ``batch_shape + (K,)``."""
        new = self._get_checked_instance(Dirichlet, _instance)
        batch_shape = _torch().Size(batch_shape)
        new.concentration = self.concentration.expand(tuple(batch_shape) + tuple(self.event_shape))
        super(Dirichlet, new).__init__(batch_shape, self.event_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    def rsample(self, sample_shape=()):
        """Gamma(concentration) draws divided by their sum (clamped into ``(0, 1)``)."""
        shape = self._extended_shape(sample_shape)
        return _dirichlet(self.concentration.expand(shape))

    def log_prob(self, value):
        """``Σ (α - 1) log x + lgamma(Σ α) - Σ lgamma(α)``."""
        if self._validate_args:
            self._validate_sample(value)
        t = _torch()
        return (_xlogy(self.concentration - 1.0, value).sum(-1) + t.lgamma(self.concentration.sum(-1))
                - t.lgamma(self.concentration).sum(-1))

    @property
    def mean(self):
        """``α / Σ α``."""
        return self.concentration / self.concentration.sum(-1, True)

    @property
    def mode(self):
        """``(α - 1)+ / Σ (α - 1)+`` (a vertex where every ``α < 1``)."""
        from ..nn.functional import one_hot

        concentrationm1 = (self.concentration - 1).clamp(min=0.0)
        mode = concentrationm1 / concentrationm1.sum(-1, True)
        mask = (self.concentration < 1).all(dim=-1)
        mode[mask] = one_hot(mode[mask].argmax(dim=-1), concentrationm1.shape[-1]).to(mode)
        return mode

    @property
    def variance(self):
        """``α (α0 - α) / (α0² (α0 + 1))``."""
        con0 = self.concentration.sum(-1, True)
        return self.concentration * (con0 - self.concentration) / (con0.pow(2) * (con0 + 1))

    def entropy(self):
        """The Dirichlet entropy."""
        t = _torch()
        k = self.concentration.size(-1)
        a0 = self.concentration.sum(-1)
        return (t.lgamma(self.concentration).sum(-1) - t.lgamma(a0) - (k - a0) * t.digamma(a0)
                - ((self.concentration - 1.0) * t.digamma(self.concentration)).sum(-1))

    @property
    def _natural_params(self):
        return (self.concentration,)

    def _log_normalizer(self, x):
        return x.lgamma().sum(-1) - _torch().lgamma(x.sum(-1))
