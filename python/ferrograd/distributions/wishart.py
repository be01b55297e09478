"""``Wishart(df, covariance_matrix | precision_matrix | scale_tril)``."""

import math
import numbers
import warnings

from . import constraints
from .chi2 import Chi2
from .exp_family import ExponentialFamily
from .multivariate_normal import _precision_to_scale_tril
from .utils import lazy_property

__all__ = ["Wishart"]

_log_2 = math.log(2)


def _torch():
    import ferrograd

    return ferrograd


def _mvdigamma(x, p):
    """The multivariate digamma ``Σ_{i<p} digamma(x - i/2)``."""
    t = _torch()
    if not x.gt((p - 1) / 2).all():
        raise AssertionError("Wrong domain for multivariate digamma function.")
    return t.digamma(x.unsqueeze(-1)
                     - t.arange(p, dtype=x.dtype, device=x.device).div(2).expand(tuple(x.shape) + (-1,))).sum(-1)


def _clamp_above_eps(x):
    return x.clamp(min=_torch().finfo(x.dtype).eps)


class Wishart(ExponentialFamily):
    """The Wishart distribution over positive-definite matrices, parameterized by ``df`` and
    one of the covariance matrix, the precision matrix or the covariance's lower Cholesky
    factor. ``rsample`` uses the Bartlett decomposition (chi-squared and normal draws:
    PyTorch's streams), with PyTorch's retry loop for singular samples."""

    support = constraints.positive_definite
    has_rsample = True
    _mean_carrier_measure = 0

    @property
    def arg_constraints(self):
        """The parameters' constraints (``df`` above ``dim - 1``)."""
        return {"covariance_matrix": constraints.positive_definite,
                "precision_matrix": constraints.positive_definite,
                "scale_tril": constraints.lower_cholesky,
                "df": constraints.greater_than(self.event_shape[-1] - 1)}

    def __init__(self, df, covariance_matrix=None, precision_matrix=None, scale_tril=None, validate_args=None):
        t = _torch()
        if (covariance_matrix is not None) + (scale_tril is not None) + (precision_matrix is not None) != 1:
            raise AssertionError("Exactly one of covariance_matrix or precision_matrix or scale_tril may be specified.")
        param = next(p for p in (covariance_matrix, precision_matrix, scale_tril) if p is not None)
        if param.dim() < 2:
            raise ValueError("scale_tril must be at least two-dimensional, with optional leading batch dimensions")
        if isinstance(df, numbers.Number):
            batch_shape = t.Size(param.shape[:-2])
            self.df = t.tensor(df, dtype=param.dtype, device=param.device)
        else:
            batch_shape = t.broadcast_shapes(param.shape[:-2], df.shape)
            self.df = df.expand(batch_shape)
        event_shape = param.shape[-2:]
        if self.df.le(event_shape[-1] - 1).any():
            raise ValueError(f"Value of df={df} expected to be greater than ndim - 1 = {event_shape[-1] - 1}.")
        if scale_tril is not None:
            self.scale_tril = param.expand(tuple(batch_shape) + (-1, -1))
        elif covariance_matrix is not None:
            self.covariance_matrix = param.expand(tuple(batch_shape) + (-1, -1))
        elif precision_matrix is not None:
            self.precision_matrix = param.expand(tuple(batch_shape) + (-1, -1))
        if self.df.lt(event_shape[-1]).any():
            warnings.warn("Low df values detected. Singular samples are highly likely to occur for "
                          "ndim - 1 < df < ndim.", stacklevel=2)
        super().__init__(batch_shape, event_shape, validate_args=validate_args)
        self._batch_dims = [-(x + 1) for x in range(len(self._batch_shape))]
        if scale_tril is not None:
            self._unbroadcasted_scale_tril = scale_tril
        elif covariance_matrix is not None:
            self._unbroadcasted_scale_tril = t.linalg.cholesky(covariance_matrix)
        else:
            self._unbroadcasted_scale_tril = _precision_to_scale_tril(precision_matrix)
        # chi-squared degrees of freedom of the Bartlett decomposition's diagonal
        self._dist_chi2 = Chi2(df=(self.df.unsqueeze(-1)
                                   - t.arange(self._event_shape[-1], dtype=self._unbroadcasted_scale_tril.dtype,
                                              device=self._unbroadcasted_scale_tril.device
                                              ).expand(tuple(batch_shape) + (-1,))))

    def expand(self, batch_shape, _instance=None):
        """This distribution with its parameters expanded to ``batch_shape``."""
        t = _torch()
        new = self._get_checked_instance(Wishart, _instance)
        batch_shape = t.Size(batch_shape)
        cov_shape = t.Size(tuple(batch_shape) + tuple(self.event_shape))
        new._unbroadcasted_scale_tril = self._unbroadcasted_scale_tril.expand(cov_shape)
        new.df = self.df.expand(batch_shape)
        new._batch_dims = [-(x + 1) for x in range(len(batch_shape))]
        if "covariance_matrix" in self.__dict__:
            new.covariance_matrix = self.covariance_matrix.expand(cov_shape)
        if "scale_tril" in self.__dict__:
            new.scale_tril = self.scale_tril.expand(cov_shape)
        if "precision_matrix" in self.__dict__:
            new.precision_matrix = self.precision_matrix.expand(cov_shape)
        new._dist_chi2 = Chi2(df=(new.df.unsqueeze(-1)
                                  - t.arange(self.event_shape[-1], dtype=new._unbroadcasted_scale_tril.dtype,
                                             device=new._unbroadcasted_scale_tril.device
                                             ).expand(tuple(batch_shape) + (-1,))))
        super(Wishart, new).__init__(batch_shape, self.event_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    @lazy_property
    def scale_tril(self):
        """The lower Cholesky factor of the covariance (scale) matrix."""
        return self._unbroadcasted_scale_tril.expand(tuple(self._batch_shape) + tuple(self._event_shape))

    @lazy_property
    def covariance_matrix(self):
        """The scale matrix ``L Lᵀ``."""
        return (self._unbroadcasted_scale_tril @ self._unbroadcasted_scale_tril.transpose(-2, -1)).expand(
            tuple(self._batch_shape) + tuple(self._event_shape))

    @lazy_property
    def precision_matrix(self):
        """The inverse of the scale matrix."""
        t = _torch()
        identity = t.eye(self._event_shape[-1], device=self._unbroadcasted_scale_tril.device,
                         dtype=self._unbroadcasted_scale_tril.dtype)
        return t.cholesky_solve(identity, self._unbroadcasted_scale_tril).expand(
            tuple(self._batch_shape) + tuple(self._event_shape))

    @property
    def mean(self):
        """``df · Σ``."""
        return self.df.view(tuple(self._batch_shape) + (1, 1)) * self.covariance_matrix

    @property
    def mode(self):
        """``(df - p - 1) Σ`` (NaN where ``df <= p + 1``)."""
        factor = self.df - self.covariance_matrix.shape[-1] - 1
        factor[factor <= 0] = math.nan
        return factor.view(tuple(self._batch_shape) + (1, 1)) * self.covariance_matrix

    @property
    def variance(self):
        """``df (Σ_ij² + Σ_ii Σ_jj)``."""
        t = _torch()
        V = self.covariance_matrix
        diag_V = V.diagonal(dim1=-2, dim2=-1)
        return self.df.view(tuple(self._batch_shape) + (1, 1)) * (
            V.pow(2) + t.einsum("...i,...j->...ij", diag_V, diag_V))

    def _bartlett_sampling(self, sample_shape=()):
        t = _torch()
        p = self._event_shape[-1]
        # Bartlett decomposition: chi draws on the diagonal, normal draws below it
        noise = _clamp_above_eps(self._dist_chi2.rsample(sample_shape).sqrt()).diag_embed(dim1=-2, dim2=-1)
        i, j = t.tril_indices(p, p, offset=-1)
        noise[..., i, j] = t.randn(tuple(t.Size(sample_shape)) + tuple(self._batch_shape) + (int(p * (p - 1) / 2),),
                                   dtype=noise.dtype, device=noise.device)
        chol = self._unbroadcasted_scale_tril @ noise
        return chol @ chol.transpose(-2, -1)

    def rsample(self, sample_shape=(), max_try_correction=None):
        """Bartlett-decomposition samples. As PyTorch's (2.13), the first check marks the
        samples that *are* positive definite as singular, so valid first draws are redrawn
        (``Singular sample detected.`` warning) and differentiating the redrawn sample fails
        (the retry loop modifies the mask the in-place index assignment saved)."""
        t = _torch()
        if max_try_correction is None:
            max_try_correction = 10
        sample_shape = t.Size(sample_shape)
        sample = self._bartlett_sampling(sample_shape)
        is_singular = self.support.check(sample)
        if self._batch_shape:
            is_singular = is_singular.amax(self._batch_dims)
        if is_singular.any():
            warnings.warn("Singular sample detected.", stacklevel=2)
            for _ in range(max_try_correction):
                sample_new = self._bartlett_sampling(is_singular[is_singular].shape)
                sample[is_singular] = sample_new
                is_singular_new = ~self.support.check(sample_new)
                if self._batch_shape:
                    is_singular_new = is_singular_new.amax(self._batch_dims)
                is_singular[is_singular.clone()] = is_singular_new
                if not is_singular.any():
                    break
        return sample

    def log_prob(self, value):
        """The Wishart log density."""
        t = _torch()
        if self._validate_args:
            self._validate_sample(value)
        nu = self.df
        p = self._event_shape[-1]
        return (-nu * (p * _log_2 / 2 + self._unbroadcasted_scale_tril.diagonal(dim1=-2, dim2=-1).log().sum(-1))
                - t.mvlgamma(nu / 2, p=p)
                + (nu - p - 1) / 2 * t.linalg.slogdet(value).logabsdet
                - t.cholesky_solve(value, self._unbroadcasted_scale_tril).diagonal(dim1=-2, dim2=-1).sum(dim=-1) / 2)

    def entropy(self):
        """The Wishart entropy."""
        t = _torch()
        nu = self.df
        p = self._event_shape[-1]
        return ((p + 1) * (p * _log_2 / 2 + self._unbroadcasted_scale_tril.diagonal(dim1=-2, dim2=-1).log().sum(-1))
                + t.mvlgamma(nu / 2, p=p) - (nu - p - 1) / 2 * _mvdigamma(nu / 2, p=p) + nu * p / 2)

    @property
    def _natural_params(self):
        nu = self.df
        p = self._event_shape[-1]
        return -self.precision_matrix / 2, (nu - p - 1) / 2

    def _log_normalizer(self, x, y):
        t = _torch()
        p = self._event_shape[-1]
        return ((y + (p + 1) / 2) * (-t.linalg.slogdet(-2 * x).logabsdet + _log_2 * p)
                + t.mvlgamma(y + (p + 1) / 2, p=p))
