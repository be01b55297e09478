"""``Beta(concentration1, concentration0)``."""

import numbers

from . import constraints
from .dirichlet import Dirichlet
from .exp_family import ExponentialFamily
from .utils import broadcast_all

__all__ = ["Beta"]


def _torch():
    import ferrograd

    return ferrograd


class Beta(ExponentialFamily):
    """The beta distribution, the first coordinate of a
    ``Dirichlet([concentration1, concentration0])`` (reparameterized as that Dirichlet is)."""

    arg_constraints = {"concentration1": constraints.positive, "concentration0": constraints.positive}
    support = constraints.unit_interval
    has_rsample = True

    def __init__(self, concentration1, concentration0, validate_args=None):
        t = _torch()
        if isinstance(concentration1, numbers.Number) and isinstance(concentration0, numbers.Number):
            concentration1_concentration0 = t.tensor([float(concentration1), float(concentration0)])
        else:
            concentration1, concentration0 = broadcast_all(concentration1, concentration0)
            concentration1_concentration0 = t.stack([concentration1, concentration0], -1)
        self._dirichlet = Dirichlet(concentration1_concentration0, validate_args=validate_args)
        super().__init__(self._dirichlet._batch_shape, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        """This distribution with its parameters expanded to ``batch_shape``."""
        new = self._get_checked_instance(Beta, _instance)
        batch_shape = _torch().Size(batch_shape)
        new._dirichlet = self._dirichlet.expand(batch_shape)
        super(Beta, new).__init__(batch_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    @property
    def mean(self):
        """``a / (a + b)``."""
        return self.concentration1 / (self.concentration1 + self.concentration0)

    @property
    def mode(self):
        """The Dirichlet mode's first coordinate."""
        return self._dirichlet.mode[..., 0]

    @property
    def variance(self):
        """``a b / ((a + b)² (a + b + 1))``."""
        total = self.concentration1 + self.concentration0
        return self.concentration1 * self.concentration0 / (total.pow(2) * (total + 1))

    def rsample(self, sample_shape=()):
        """The first coordinate of Dirichlet samples."""
        return self._dirichlet.rsample(sample_shape).select(-1, 0)

    def log_prob(self, value):
        """The Dirichlet ``log_prob`` of ``(x, 1 - x)``."""
        if self._validate_args:
            self._validate_sample(value)
        heads_tails = _torch().stack([value, 1.0 - value], -1)
        return self._dirichlet.log_prob(heads_tails)

    def entropy(self):
        """The Dirichlet entropy."""
        return self._dirichlet.entropy()

    @property
    def concentration1(self):
        """The first concentration (``a``)."""
        return self._dirichlet.concentration[..., 0]

    @property
    def concentration0(self):
        """The second concentration (``b``)."""
        return self._dirichlet.concentration[..., 1]

    @property
    def _natural_params(self):
        return (self.concentration1, self.concentration0)

    def _log_normalizer(self, x, y):
        t = _torch()
        return t.lgamma(x) + t.lgamma(y) - t.lgamma(x + y)
