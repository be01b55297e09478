"""``ExponentialFamily``: distributions of the form ``exp(<t(x), θ> - F(θ) + k(x))``, whose
entropy (and KL divergence within one family) follow from the log-normalizer ``F``."""

from .distribution import Distribution

__all__ = ["ExponentialFamily"]


def _torch():
    import ferrograd

    return ferrograd


class ExponentialFamily(Distribution):
    """Base class of exponential-family distributions: subclasses give ``_natural_params``,
    ``_log_normalizer`` and ``_mean_carrier_measure``; the entropy is then a Bregman
    divergence computed with autograd."""

    @property
    def _natural_params(self):
        raise NotImplementedError

    def _log_normalizer(self, *natural_params):
        raise NotImplementedError

    @property
    def _mean_carrier_measure(self):
        raise NotImplementedError

    def entropy(self):
        """``F(θ) - <θ, ∇F(θ)> - E[k(x)]`` (the gradient taken with autograd)."""
        t = _torch()
        result = -self._mean_carrier_measure
        nparams = [p.detach().requires_grad_() for p in self._natural_params]
        lg_normal = self._log_normalizer(*nparams)
        gradients = t.autograd.grad(lg_normal.sum(), nparams, create_graph=True)
        result += lg_normal
        for np, g in zip(nparams, gradients):
            result -= (np * g).reshape(tuple(self._batch_shape) + (-1,)).sum(-1)
        return result
