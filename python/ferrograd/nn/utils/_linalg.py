"""Ops the parametrizations need that ferrograd's core does not have yet, written as
compositions of differentiable ops (autograd differentiates through them):

* ``norm_except_dim`` / ``_weight_norm`` (``torch.norm_except_dim``, ``torch._weight_norm``),
* ``matrix_exp`` (``torch.matrix_exp``): scaling and squaring of a degree-18 Taylor polynomial;
  its gradient is the exact derivative of that approximation (PyTorch differentiates the
  exponential itself): the two agree to float rounding,
* ``householder_product`` (``torch.linalg.householder_product``),
* ``make_orthogonal``: the Q of a QR decomposition with a non-negative diagonal of R (PyTorch
  goes through ``torch.geqrf``, which ferrograd lacks; ``linalg.qr`` gives the same Q).
"""

import math

import ferrograd as torch

from ...autograd.grad_mode import no_grad


def norm_except_dim(v, pow=2, dim=0):
    """The ``pow``-norm of ``v`` over every dim but ``dim`` (kept with size 1 elsewhere);
    ``dim=-1``: the norm of the whole tensor (0-d)."""
    if dim == -1:
        return v.norm(pow)
    if dim == 0:
        output_size = [1] * v.dim()
        output_size[0] = v.size(0)
        return v.contiguous().view(v.size(0), -1).norm(pow, 1).view(output_size)
    if dim == v.dim() - 1:
        output_size = [1] * v.dim()
        output_size[v.dim() - 1] = v.size(v.dim() - 1)
        return v.contiguous().view(-1, v.size(v.dim() - 1)).norm(pow, 0).view(output_size)
    return norm_except_dim(v.transpose(0, dim), pow, 0).transpose(0, dim)


def weight_norm(v, g, dim=0):
    """``v * (g / norm_except_dim(v, 2, dim))``: the weight of a weight-normalized layer."""
    if v.device != g.device:
        raise RuntimeError(
            f"Expected all tensors to be on the same device, but found at least two devices, "
            f"{v.device} and {g.device}!")
    return v.contiguous() * (g.contiguous() / norm_except_dim(v.contiguous(), 2, dim))


def matrix_exp(A):
    """The matrix exponential of a square matrix (or batch), by scaling and squaring."""
    if A.dim() < 2 or A.size(-1) != A.size(-2):
        raise RuntimeError("matrix_exp: Expected self to be a square matrix or a batch of square matrices")
    n = A.size(-1)
    if A.numel() == 0:
        return A.clone()
    with no_grad():
        norm1 = float(A.abs().sum(-2).amax())
    s = 0
    if norm1 > 0.5 and math.isfinite(norm1):
        s = max(0, math.ceil(math.log2(norm1 / 0.5)))
    X = A / (2.0 ** s) if s else A
    eye = torch.eye(n, dtype=A.dtype, device=A.device).expand(A.shape)
    E = eye
    for j in range(18, 0, -1):
        E = eye + (X @ E) / float(j)
    for _ in range(s):
        E = E @ E
    return E


def householder_product(A, tau):
    """The first ``n`` columns of ``H_1 H_2 ... H_k`` with ``H_i = I - tau_i v_i v_i^H``, where
    ``v_i`` is column ``i`` of ``A`` below the diagonal, with an implicit 1 on it."""
    m, n = A.size(-2), A.size(-1)
    k = tau.size(-1)
    Q = torch.eye(m, dtype=A.dtype, device=A.device).expand(*A.shape[:-2], m, m)
    rows = torch.arange(m, device=A.device)
    for i in range(k):
        below = (rows > i).to(A.dtype)
        unit = (rows == i).to(A.dtype)
        v = A[..., :, i] * below + unit
        Qv = (Q @ v.unsqueeze(-1))
        Q = Q - tau[..., i].unsqueeze(-1).unsqueeze(-1) * Qv * v.conj().unsqueeze(-2)
    return Q[..., :, :n]


def make_orthogonal(A):
    """The Q of ``A = QR`` (``A`` tall) scaled so that the diagonal of R is non-negative."""
    Q, R = torch.linalg.qr(A)
    return Q * R.diagonal(dim1=-2, dim2=-1).sgn().unsqueeze(-2)


def geqrf(A):
    """LAPACK's ``geqrf`` (``torch.geqrf``), without gradient: ``(a, tau)`` where R is the upper
    triangle of ``a`` and the Householder vectors of Q are below its diagonal (unit first
    entry implied), ``H_i = I - tau_i v_i v_i^T`` (real matrices only)."""
    if A.is_complex():
        raise NotImplementedError("geqrf of complex matrices is not implemented in ferrograd")
    with no_grad():
        m, n = A.size(-2), A.size(-1)
        k = min(m, n)
        batch = tuple(A.shape[:-2])
        flat = A.reshape(-1, m, n).clone()
        taus = torch.zeros(flat.size(0), k, dtype=A.dtype, device=A.device)
        for b in range(flat.size(0)):
            a = flat[b]
            for j in range(k):
                alpha = float(a[j, j])
                x = a[j + 1:, j]
                xnorm = float(x.norm()) if x.numel() else 0.0
                if xnorm == 0.0:
                    continue  # tau = 0: H_j is the identity
                beta = -math.copysign(math.hypot(alpha, xnorm), alpha)
                tau = (beta - alpha) / beta
                x.mul_(1.0 / (alpha - beta))
                a[j, j] = beta
                taus[b, j] = tau
                if j + 1 < n:
                    v = torch.cat([torch.ones(1, dtype=A.dtype, device=A.device), x])
                    rest = a[j:, j + 1:]
                    rest.sub_(tau * v.unsqueeze(1) * (v.unsqueeze(0) @ rest))
        return flat.reshape(*batch, m, n), taus.reshape(*batch, k)
