"""``LKJCholesky(dim, concentration)``: the LKJ distribution over lower Cholesky factors of
correlation matrices (after NumPyro's implementation, as PyTorch's)."""

import math

from . import constraints
from .beta import Beta
from .distribution import Distribution
from .utils import broadcast_all

__all__ = ["LKJCholesky"]


def _torch():
    import ferrograd

    return ferrograd


class LKJCholesky(Distribution):
    """Lower Cholesky factors ``L`` of correlation matrices ``M = L Lᵀ`` with density
    proportional to ``det(M)^(η - 1)`` (``η = concentration``); samples come from the onion
    method (beta and normal draws: PyTorch's streams)."""

    arg_constraints = {"concentration": constraints.positive}
    support = constraints.corr_cholesky

    def __init__(self, dim, concentration=1.0, validate_args=None):
        t = _torch()
        if dim < 2:
            raise ValueError(f"Expected dim to be an integer greater than or equal to 2. Found dim={dim}.")
        self.dim = dim
        (self.concentration,) = broadcast_all(concentration)
        batch_shape = self.concentration.size()
        event_shape = t.Size((dim, dim))
        # the marginal of each off-diagonal element is Beta(conc + (dim - 2)/2, conc + (dim - 2)/2) on [-1, 1]
        marginal_conc = self.concentration + 0.5 * (self.dim - 2)
        offset = t.arange(self.dim - 1, dtype=self.concentration.dtype, device=self.concentration.device)
        offset = t.cat([offset.new_zeros((1,)), offset])
        beta_conc1 = offset + 0.5
        beta_conc0 = marginal_conc.unsqueeze(-1) - 0.5 * offset
        self._beta = Beta(beta_conc1, beta_conc0)
        super().__init__(batch_shape, event_shape, validate_args)

    def expand(self, batch_shape, _instance=None):
        """This distribution with its concentration expanded to ``batch_shape``."""
        new = self._get_checked_instance(LKJCholesky, _instance)
        batch_shape = _torch().Size(batch_shape)
        new.dim = self.dim
        new.concentration = self.concentration.expand(batch_shape)
        new._beta = self._beta.expand(tuple(batch_shape) + (self.dim,))
        super(LKJCholesky, new).__init__(batch_shape, self.event_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    def sample(self, sample_shape=()):
        """Onion-method samples: beta-distributed squared row norms times uniform directions
        on the hypersphere, the diagonal completing each row to unit length."""
        t = _torch()
        y = self._beta.sample(sample_shape).unsqueeze(-1)
        u_normal = t.randn(self._extended_shape(sample_shape), dtype=y.dtype, device=y.device).tril(-1)
        u_hypersphere = u_normal / u_normal.norm(dim=-1, keepdim=True)
        # the first row is the unit vector e_1 (its norm above divided 0 by 0)
        u_hypersphere[..., 0, :].fill_(0.0)
        w = t.sqrt(y) * u_hypersphere
        eps = t.finfo(w.dtype).tiny
        diag_elems = t.clamp(1 - t.sum(w ** 2, dim=-1), min=eps).sqrt()
        w += t.diag_embed(diag_elems)
        return w

    def log_prob(self, value):
        """``Σ_i (2(η - 1) + dim - i) log L_ii`` minus the log normalizer."""
        t = _torch()
        if self._validate_args:
            self._validate_sample(value)
        diag_elems = value.diagonal(dim1=-1, dim2=-2)[..., 1:]
        order = t.arange(2, self.dim + 1, device=self.concentration.device)
        order = 2 * (self.concentration - 1).unsqueeze(-1) + self.dim - order
        unnormalized_log_pdf = t.sum(order * diag_elems.log(), dim=-1)
        dm1 = self.dim - 1
        alpha = self.concentration + 0.5 * dm1
        denominator = t.lgamma(alpha) * dm1
        numerator = t.mvlgamma(alpha - 0.5, dm1)
        pi_constant = 0.5 * dm1 * math.log(math.pi)
        normalize_term = pi_constant + numerator - denominator
        return unnormalized_log_pdf - normalize_term
