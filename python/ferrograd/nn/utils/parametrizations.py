"""``torch.nn.utils.parametrizations``: ``orthogonal``, ``weight_norm`` and ``spectral_norm``
written as parametrizations (:mod:`.parametrize`).

Differences from PyTorch: ``torch.matrix_exp``, ``torch.linalg.householder_product`` and
``torch.geqrf`` are not in ferrograd's core yet; ``orthogonal`` uses the compositions of
``_linalg`` (same values to float rounding; ``geqrf`` without gradient) unless the core
provides them."""

from enum import Enum, auto

import ferrograd as torch

from ... import Tensor
from ...autograd.grad_mode import no_grad
from .. import functional as F
from ..modules.module import Module
from . import _linalg, parametrize

__all__ = ["orthogonal", "spectral_norm", "weight_norm"]


def _matrix_exp(A):
    fn = getattr(torch, "matrix_exp", None)
    return fn(A) if fn is not None else _linalg.matrix_exp(A)


def _householder_product(A, tau):
    fn = getattr(torch.linalg, "householder_product", None)
    return fn(A, tau) if fn is not None else _linalg.householder_product(A, tau)


def _geqrf(A):
    fn = getattr(torch, "geqrf", None)
    return fn(A) if fn is not None else _linalg.geqrf(A)


def _is_orthogonal(Q, eps=None):
    n, k = Q.size(-2), Q.size(-1)
    Id = torch.eye(k, dtype=Q.dtype, device=Q.device)
    # a reasonable eps, but not too large
    eps = 10.0 * n * torch.finfo(Q.dtype).eps
    return torch.allclose(Q.mH @ Q, Id, atol=eps)


def _make_orthogonal(A):
    """The Q factor of ``A = QR`` (``A`` tall) with a real non-negative diagonal of R."""
    return _linalg.make_orthogonal(A)


class _OrthMaps(Enum):
    matrix_exp = auto()
    cayley = auto()
    householder = auto()


class _Orthogonal(Module):
    """The parametrization of :func:`orthogonal`: a map from unconstrained matrices to
    orthogonal (unitary) ones, composed with the stored ``base`` under the dynamic
    trivialization."""

    def __init__(self, weight, orthogonal_map, *, use_trivialization=True):
        super().__init__()
        if weight.is_complex() and orthogonal_map == _OrthMaps.householder:
            raise ValueError("The householder parametrization does not support complex tensors.")
        self.shape = weight.shape
        self.orthogonal_map = orthogonal_map
        if use_trivialization:
            self.register_buffer("base", None)

    def forward(self, X):
        """The orthogonal matrix (or batch) that ``X`` maps to."""
        n, k = X.size(-2), X.size(-1)
        transposed = n < k
        if transposed:
            X = X.mT
            n, k = k, n
        # here n >= k and X is a tall matrix
        if self.orthogonal_map == _OrthMaps.matrix_exp or self.orthogonal_map == _OrthMaps.cayley:
            # only the lower triangle of X is used
            X = X.tril()
            if n != k:
                # embed into a square matrix
                X = torch.cat([X, X.new_zeros(n, n - k).expand(*X.shape[:-2], -1, -1)], dim=-1)
            A = X - X.mH
            # A is skew-symmetric (or skew-hermitian)
            if self.orthogonal_map == _OrthMaps.matrix_exp:
                Q = _matrix_exp(A)
            else:
                # the Cayley retraction (I + A/2)(I - A/2)^{-1}
                Id = torch.eye(n, dtype=A.dtype, device=A.device)
                Q = torch.linalg.solve(torch.add(Id, A, alpha=-0.5), torch.add(Id, A, alpha=0.5))
            # Q is n x n
            if n != k:
                Q = Q[..., :k]
        else:
            # X is real here (checked at construction)
            A = X.tril(diagonal=-1)
            tau = 2.0 / (1.0 + (A * A).sum(dim=-2))
            Q = _householder_product(A, tau)
            # the diagonal of X is 1's and -1's: the reflectors' signs
            Q = Q * X.diagonal(dim1=-2, dim2=-1).int().unsqueeze(-2)

        if hasattr(self, "base"):
            Q = self.base @ Q
        if transposed:
            Q = Q.mT
        return Q

    def right_inverse(self, Q):
        """Store ``Q`` (orthogonalized by QR if it is not orthogonal) as the trivialization's
        ``base`` and return the original that maps to it (without trivialization, only the
        householder map can be assigned)."""
        with no_grad():
            if Q.shape != self.shape:
                raise ValueError(f"Expected a matrix or batch of matrices of shape {self.shape}. "
                                 f"Got a tensor of shape {Q.shape}.")
            Q_init = Q
            n, k = Q.size(-2), Q.size(-1)
            transpose = n < k
            if transpose:
                Q = Q.mT
                n, k = k, n

            # we always make sure to always copy Q in every path
            if not hasattr(self, "base"):
                if self.orthogonal_map == _OrthMaps.cayley or self.orthogonal_map == _OrthMaps.matrix_exp:
                    raise NotImplementedError("It is not possible to assign to the matrix exponential "
                                              "or the Cayley parametrizations when use_trivialization=False.")
                # householder: the reflectors of Q's QR decomposition, with the signs of R's
                # diagonal (flipped where the reflector is the identity) on the diagonal
                A, tau = _geqrf(Q)
                d = A.diagonal(dim1=-2, dim2=-1).sign()
                d = torch.where(tau == 0.0, -d, d)
                A.diagonal(dim1=-2, dim2=-1).copy_(d)
                return A.mT if transpose else A
            if n == k:
                # we check whether Q is orthogonal
                if not _is_orthogonal(Q):
                    Q = _make_orthogonal(Q)
                else:
                    Q = Q.clone()
            else:
                # complete Q into a full n x n orthogonal matrix
                N = torch.randn(*(Q.size()[:-2] + (n, n - k)), dtype=Q.dtype, device=Q.device)
                Q = torch.cat([Q, N], dim=-1)
                Q = _make_orthogonal(Q)
            self.base = Q

            # the original is -Id: forward maps it to the first k columns of Id (any map)
            neg_Id = torch.zeros_like(Q_init)
            neg_Id.diagonal(dim1=-2, dim2=-1).fill_(-1.0)
            return neg_Id


def orthogonal(module, name="weight", orthogonal_map=None, *, use_trivialization=True):
    """Apply an orthogonal (unitary) parametrization to a matrix or batch of matrices:
    ``module.<name>`` then has orthonormal columns (if it is tall) or rows (if it is wide).

    ``orthogonal_map`` picks the map from unconstrained matrices: ``"matrix_exp"`` (the
    exponential of a skew-symmetric matrix), ``"cayley"`` (the Cayley transform) or
    ``"householder"`` (a product of Householder reflectors). Default: ``"matrix_exp"`` if the
    matrix is square or complex, ``"householder"`` otherwise.

    With ``use_trivialization=True`` (default) an extra matrix ``base`` is stored in
    ``module.parametrizations.<name>[0].base`` (the dynamic trivialization framework) and the
    initial value is the original tensor if it is orthogonal, else its QR orthogonalization.

    Returns:
        ``module``, with the parametrization registered on ``name``.
    """
    weight = getattr(module, name, None)
    if not isinstance(weight, Tensor):
        raise ValueError(f"Module '{module}' has no parameter or buffer with name '{name}'")
    # we could implement this for 1-dim tensors as the maps on the sphere
    # but I believe it'd bite more people than it'd help
    if weight.ndim < 2:
        raise ValueError(f"Expected a matrix or batch of matrices. Got a tensor of {weight.ndim} dimensions.")
    if orthogonal_map is None:
        orthogonal_map = ("matrix_exp" if weight.size(-2) == weight.size(-1) or weight.is_complex()
                          else "householder")
    orth_enum = getattr(_OrthMaps, orthogonal_map, None)
    if orth_enum is None:
        raise ValueError('orthogonal_map has to be one of "matrix_exp", "cayley", "householder". '
                         f"Got: {orthogonal_map}")
    orth = _Orthogonal(weight, orth_enum, use_trivialization=use_trivialization)
    parametrize.register_parametrization(module, name, orth, unsafe=True)
    return module


class _WeightNorm(Module):
    """The parametrization of :func:`weight_norm`: ``(g, v) -> g * v / ||v||`` with the norm
    over every dim but ``dim`` (over the whole tensor for ``dim=None``)."""

    def __init__(self, dim=0):
        super().__init__()
        if dim is None:
            dim = -1
        self.dim = dim

    def forward(self, weight_g, weight_v):
        """The weight ``weight_g * weight_v / norm(weight_v)``."""
        return _linalg.weight_norm(weight_v, weight_g, self.dim)

    def right_inverse(self, weight):
        """``(norm(weight), weight)``: the magnitude and the direction."""
        weight_g = _linalg.norm_except_dim(weight, 2, self.dim)
        weight_v = weight
        return weight_g, weight_v


def weight_norm(module, name="weight", dim=0):
    """Apply weight normalization to the parameter ``name`` of ``module``:
    ``w = g * v / ||v||``, with the magnitude ``g`` in
    ``module.parametrizations.<name>.original0`` and the direction ``v`` in ``original1``.

    With ``dim=0`` (default) the norm is taken per output channel (over every other dim);
    ``dim=None`` takes it over the whole tensor. A state_dict saved with the old
    :func:`torch.nn.utils.weight_norm` (``<name>_g`` / ``<name>_v``) loads into it.

    Returns:
        ``module``, with the parametrization registered.
    """
    _weight_norm = _WeightNorm(dim)
    parametrize.register_parametrization(module, name, _weight_norm, unsafe=True)

    def _weight_norm_compat_hook(state_dict, prefix, local_metadata, strict, missing_keys,
                                 unexpected_keys, error_msgs):
        g_key = f"{prefix}{name}_g"
        v_key = f"{prefix}{name}_v"
        if g_key in state_dict and v_key in state_dict:
            original0 = state_dict.pop(g_key)
            original1 = state_dict.pop(v_key)
            state_dict[f"{prefix}parametrizations.{name}.original0"] = original0
            state_dict[f"{prefix}parametrizations.{name}.original1"] = original1

    module._register_load_state_dict_pre_hook(_weight_norm_compat_hook)
    return module


def _normalize_into(x, out, eps):
    # F.normalize(x, dim=0, eps=eps, out=out)
    out.copy_(F.normalize(x, dim=0, eps=eps))
    return out


class _SpectralNorm(Module):
    """The parametrization of :func:`spectral_norm`: the weight divided by its largest
    singular value, estimated by power iteration with the buffers ``_u`` and ``_v``."""

    def __init__(self, weight, n_power_iterations=1, dim=0, eps=1e-12):
        super().__init__()
        ndim = weight.ndim
        if dim >= ndim or dim < -ndim:
            raise IndexError("Dimension out of range (expected to be in range of "
                             f"[-{ndim}, {ndim - 1}] but got {dim})")
        if n_power_iterations <= 0:
            raise ValueError("Expected n_power_iterations to be positive, but "
                             f"got n_power_iterations={n_power_iterations}")
        self.dim = dim if dim >= 0 else dim + ndim
        self.eps = eps
        if ndim > 1:
            # for ndim == 1 we do not need to approximate anything (see forward)
            self.n_power_iterations = n_power_iterations
            weight_mat = self._reshape_weight_to_matrix(weight)
            h, w = weight_mat.size()

            u = weight_mat.new_empty(h).normal_(0, 1)
            v = weight_mat.new_empty(w).normal_(0, 1)
            self.register_buffer("_u", F.normalize(u, dim=0, eps=self.eps))
            self.register_buffer("_v", F.normalize(v, dim=0, eps=self.eps))

            # start with u, v initialized to some reasonable values by performing a number
            # of iterations of the power method
            self._power_method(weight_mat, 15)

    def _reshape_weight_to_matrix(self, weight):
        if weight.ndim <= 1:
            raise AssertionError(f"Expected weight to have more than 1 dimension, got {weight.ndim}")
        if self.dim != 0:
            # permute dim to front
            weight = weight.permute(self.dim, *(d for d in range(weight.dim()) if d != self.dim))
        return weight.flatten(1)

    def _power_method(self, weight_mat, n_power_iterations):
        with no_grad():
            if weight_mat.ndim <= 1:
                raise AssertionError(f"Expected weight_mat to have more than 1 dimension, got {weight_mat.ndim}")
            for _ in range(n_power_iterations):
                # the spectral norm of weight equals u^T W v, u and v the first singular vectors
                self._u = _normalize_into(torch.mv(weight_mat, self._v), self._u, self.eps)
                self._v = _normalize_into(torch.mv(weight_mat.H, self._u), self._v, self.eps)

    def forward(self, weight):
        """The weight divided by its estimated spectral norm (one power iteration per call in
        training mode); a vector is just normalized."""
        if weight.ndim == 1:
            # faster and more exact path, no need to approximate anything
            return F.normalize(weight, dim=0, eps=self.eps)
        weight_mat = self._reshape_weight_to_matrix(weight)
        if self.training:
            self._power_method(weight_mat, self.n_power_iterations)
        # see above on why we need to clone
        u = self._u.clone()
        v = self._v.clone()
        # the correct formula would be vdot(u, W v)
        sigma = torch.vdot(u, torch.mv(weight_mat, v))
        return weight / sigma

    def right_inverse(self, value):
        """The identity: any value can be assigned (it is normalized on read)."""
        # we may want to assert here that the passed value already
        # satisfies constraints
        return value


def _conv_transpose_types():
    # ConvTranspose3d may be missing from ferrograd.nn
    return tuple(getattr(torch.nn, n) for n in ("ConvTranspose1d", "ConvTranspose2d", "ConvTranspose3d")
                 if hasattr(torch.nn, n))


def spectral_norm(module, name="weight", n_power_iterations=1, eps=1e-12, dim=None):
    """Apply spectral normalization to the parameter ``name`` of ``module``:
    ``W_SN = W / sigma(W)``, with ``sigma`` estimated by ``n_power_iterations`` steps of the
    power method on every access in training mode (a tensor of more than 2 dims is reshaped to
    a matrix with ``dim`` first; a vector is just normalized). The singular vector estimates
    are the buffers ``module.parametrizations.<name>[0]._u`` and ``_v``, drawn from
    ``torch.randn``'s stream and refined by 15 power iterations at registration.

    Args:
        module (nn.Module): the containing module.
        name (str, optional): the parameter's name. Default: ``"weight"``.
        n_power_iterations (int, optional): power iterations per access. Default: ``1``.
        eps (float, optional): epsilon of the norms. Default: ``1e-12``.
        dim (int, optional): the output dim. Default: ``0``, or ``1`` for ConvTranspose.

    Returns:
        ``module``, with the parametrization registered.
    """
    weight = getattr(module, name, None)
    if not isinstance(weight, Tensor):
        raise ValueError(f"Module '{module}' has no parameter or buffer with name '{name}'")
    if dim is None:
        if isinstance(module, _conv_transpose_types()):
            dim = 1
        else:
            dim = 0
    parametrize.register_parametrization(module, name, _SpectralNorm(weight, n_power_iterations, dim, eps))
    return module
