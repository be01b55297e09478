"""torch.linalg decompositions and solvers (inv/inv_ex, det/slogdet/logdet, solve,
solve_triangular, cholesky/cholesky_ex/cholesky_solve, qr, eigh/eigvalsh, svd/svdvals/
torch.svd, the singular-value norms, matrix_rank, pinv, cond, matrix_power, multi_dot,
cdist) against PyTorch's results (tools/record_linalg_goldens.py -> fixtures/linalg.json),
on every device."""

import functools
import json
import os

import numpy as np
import pytest

import ferrograd
import linalg_scenarios
from _golden import assert_matches_golden

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "fixtures", "linalg.json")) as fh:
    GOLDENS = json.load(fh)


@functools.lru_cache(maxsize=None)
def got(device):
    return linalg_scenarios.run(ferrograd, device)


def _tolerances(name):
    # float32 cases: PyTorch runs LAPACK in float32, ferrograd may work in float64 inside
    # (the same scenarios computed in float64 differ from the float32 goldens by up to 7e-5)
    if "_f64" in name:
        return 1e-6, 1e-8
    return 2e-4, 2e-5


@pytest.mark.parametrize("name", sorted(GOLDENS))
def test_matches_pytorch(name, device):
    rtol, atol = _tolerances(name)
    assert_matches_golden(GOLDENS[name], got(device)[name], rtol=rtol, atol=atol, label=name,
                          normalize_str=lambda _, s: s.replace("ferrograd", "torch"))


def test_every_result_has_a_golden():
    assert sorted(got("cpu")) == sorted(GOLDENS)


def test_forward_mode_tangents_match_pytorch():
    """Forward-mode AD through the decompositions (values from PyTorch 2.13's torch.func.jvp
    with a non-symmetric tangent: cholesky uses its own JVP formula, which reads all of dA)."""
    import ferrograd.func as F

    A = ferrograd.tensor([[2.0, 1.0], [1.0, 3.0]])
    T = ferrograd.tensor([[0.1, 0.2], [0.3, 0.4]])
    want = {
        "det": [0.6], "inv": [0.008, -0.016, -0.036, -0.028], "eigvalsh": [-0.0407, 0.5407],
        "svdvals": [0.5407, -0.0407], "cholesky": [0.0354, 0.0, 0.1945, 0.0553], "slogdet": [0.12],
        "solve": [-0.008, -0.064],
    }
    fns = {
        "det": ferrograd.linalg.det, "inv": ferrograd.linalg.inv, "eigvalsh": ferrograd.linalg.eigvalsh,
        "svdvals": ferrograd.linalg.svdvals, "cholesky": ferrograd.linalg.cholesky,
        "slogdet": lambda a: ferrograd.linalg.slogdet(a)[1], "solve": lambda a: ferrograd.linalg.solve(a, ferrograd.ones(2)),
    }
    for name, f in fns.items():
        got = F.jvp(f, (A,), (T,))[1].flatten().tolist()
        assert got == pytest.approx(want[name], abs=1e-4), name


def test_rust_kernels_agree_with_float64_reconstruction():
    """A larger random case: solve, inv, qr, eigh and svd reconstruct their inputs."""
    g = ferrograd.Generator().manual_seed(0)
    A = ferrograd.randn(12, 12, generator=g, dtype=ferrograd.float64)
    B = ferrograd.randn(12, 3, generator=g, dtype=ferrograd.float64)
    X = ferrograd.linalg.solve(A, B)
    assert float((A @ X - B).abs().max()) < 1e-10
    assert float((A @ ferrograd.linalg.inv(A) - ferrograd.eye(12, dtype=ferrograd.float64)).abs().max()) < 1e-10
    Q, R = ferrograd.linalg.qr(A[:, :7])
    assert float((Q @ R - A[:, :7]).abs().max()) < 1e-12
    S = A @ A.mT
    L, V = ferrograd.linalg.eigh(S)
    assert float((V @ ferrograd.diag(L) @ V.mT - S).abs().max()) < 1e-9
    U, s, Vh = ferrograd.linalg.svd(A[:5], full_matrices=False)
    assert float((U @ ferrograd.diag(s) @ Vh - A[:5]).abs().max()) < 1e-12
    assert float(ferrograd.linalg.det(A)) == pytest.approx(float(ferrograd.linalg.slogdet(A)[0] * ferrograd.linalg.slogdet(A)[1].exp()), rel=1e-10)


def test_cholesky_inverse_matches_pytorch():
    """torch.cholesky_inverse (CholeskyInverseBackward0): values and gradients from PyTorch
    2.13; the gradient is the full matrix -(C L), C = X (g + gᵀ) X, as PyTorch's."""
    L = ferrograd.tensor([[2.0, 0, 0], [0.5, 1.5, 0], [-1, 0.25, 1.2]], requires_grad=True)
    W = ferrograd.tensor([[0.3, -0.2, 0.5], [0.1, 0.4, -0.6], [0.7, 0.2, 0.9]])
    want = [0.48153, -0.173804, 0.376157, -0.173804, 0.463735, -0.115741, 0.376157, -0.115741, 0.694444]
    want_g = [-0.378844, 0.351387, -1.492609, 0.144772, -0.338034, 0.693061, -0.535301, 0.450424, -1.996327]
    for upper in (False, True):
        r = ferrograd.cholesky_inverse(L.mT if upper else L, upper=upper)
        assert type(r.grad_fn).__name__ == "CholeskyInverseBackward0"
        assert r.flatten().tolist() == pytest.approx(want, abs=1e-5)
        (g,) = ferrograd.autograd.grad((r * W).sum(), L)
        assert g.flatten().tolist() == pytest.approx(want_g, abs=1e-5)
    assert L.detach().cholesky_inverse().shape == (3, 3)
    assert ferrograd.cholesky_inverse(ferrograd.tensor([[2.0, 0], [1, 1]]).expand(2, 2, 2)).shape == (2, 2, 2)
    with pytest.raises(RuntimeError, match="^cholesky_inverse: The input tensor A must have at least 2 dimensions.$"):
        ferrograd.cholesky_inverse(ferrograd.ones(3))
    with pytest.raises(RuntimeError, match="^cholesky_inverse: A must be batches of square matrices, but they are 2 by 3 matrices$"):
        ferrograd.cholesky_inverse(ferrograd.ones(2, 3))
    with pytest.raises(NotImplementedError, match="^\"cholesky_inverse_out_cpu\" not implemented for 'Long'$"):
        ferrograd.cholesky_inverse(ferrograd.ones(2, 2, dtype=ferrograd.int64))


def test_pdist_refuses_forward_ad_and_a_second_backward_as_pytorch():
    # ATen's _pdist_forward has no forward-AD formula and _pdist_backward no derivative: a
    # tangent raises at once, a create_graph gradient only when differentiated again
    import ferrograd.autograd.forward_ad as fwAD

    x = ferrograd.tensor([[0.0, 1.0], [1.5, -0.5], [2.0, 2.0]], dtype=ferrograd.float64, requires_grad=True)
    with fwAD.dual_level():
        with pytest.raises(NotImplementedError, match="Trying to use forward AD with _pdist_forward that does not support it"):
            ferrograd.pdist(fwAD.make_dual(x.detach(), ferrograd.ones(3, 2, dtype=ferrograd.float64)))
    (g,) = ferrograd.autograd.grad(ferrograd.pdist(x).sum(), x, create_graph=True)
    assert type(g.grad_fn).__name__ == "PdistBackwardBackward0"
    with pytest.raises(NotImplementedError, match=r"the derivative for '_pdist_backward' is not implemented\."):
        g.sum().backward()
    (g1,) = ferrograd.autograd.grad(ferrograd.pdist(x).sum(), x)
    assert g1.grad_fn is None and ferrograd.allclose(g1, g.detach())


def test_matrix_exp_tangent_matches_central_differences():
    from ferrograd.func import jvp

    a = ferrograd.tensor([[0.3, -1.2, 0.5], [0.8, 0.1, -0.4], [-0.6, 0.9, 0.2]], dtype=ferrograd.float64)
    t = ferrograd.tensor([[1.0, 0.5, -0.3], [0.2, -0.7, 0.4], [0.6, 0.1, -0.2]], dtype=ferrograd.float64)
    _, jt = jvp(ferrograd.linalg.matrix_exp, (a,), (t,))
    e = 1e-6
    fd = (ferrograd.linalg.matrix_exp(a + e * t) - ferrograd.linalg.matrix_exp(a - e * t)) / (2 * e)
    assert float((jt - fd).abs().max()) < 1e-7


def test_cdist_direct_path_matches_the_definition():
    # the direct (non-matrix-product) distances: every p, x2's rows not a multiple of the
    # kernel's 32-column blocks, batch broadcast, float32 and float64
    g = np.random.default_rng(7)
    a = g.standard_normal((2, 5, 7))
    b = g.standard_normal((45, 7))
    b[3] = a[0, 1]  # a zero distance
    check_cdist_direct(a, b)
    # 64 points of x2: the transpose's rows one cache line longer than its points
    check_cdist_direct(a, g.standard_normal((64, 7)))
    assert ferrograd.cdist(ferrograd.zeros(3, 0), ferrograd.zeros(4, 0)).tolist() == [[0.0] * 4] * 3


def check_cdist_direct(a, b):
    diff = np.abs(a[:, :, None, :] - b[None, None, :, :])
    want = {0.0: (diff != 0).sum(-1).astype(np.float64), 1.0: diff.sum(-1), 2.0: np.sqrt((diff ** 2).sum(-1)),
            3.0: ((diff ** 3).sum(-1)) ** (1 / 3), float("inf"): diff.max(-1), 0.5: (np.sqrt(diff).sum(-1)) ** 2}
    for dt, tol in ((np.float64, 1e-12), (np.float32, 1e-5)):
        ta, tb = ferrograd.from_numpy(a.astype(dt)), ferrograd.from_numpy(b.astype(dt))
        for p, w in want.items():
            got = ferrograd.cdist(ta, tb, p=p, compute_mode="donot_use_mm_for_euclid_dist")
            assert got.shape == (2, 5, len(b)) and got.dtype == ta.dtype
            np.testing.assert_allclose(got.numpy(), w, rtol=tol, atol=tol, err_msg=f"p={p} {dt}")


@pytest.mark.parametrize("n", [41, 128])
def test_pdist_matches_the_definition(n):
    # each row's distances to the rows after it at once (a sub-range of the transpose's
    # columns): every p, more rows than one 32-point block, a repeated row, no columns; 128
    # points: a multiple of 64, where the transpose's rows are one cache line longer
    g = np.random.default_rng(11)
    x = g.standard_normal((n, 6))
    x[7] = x[30]  # a zero distance
    i, j = np.triu_indices(n, 1)
    diff = np.abs(x[i] - x[j])
    want = {0.0: (diff != 0).sum(-1).astype(np.float64), 1.0: diff.sum(-1), 2.0: np.sqrt((diff ** 2).sum(-1)),
            3.0: ((diff ** 3).sum(-1)) ** (1 / 3), float("inf"): diff.max(-1), 0.5: (np.sqrt(diff).sum(-1)) ** 2}
    for dt, tol in ((np.float64, 1e-12), (np.float32, 1e-5)):
        t = ferrograd.from_numpy(x.astype(dt))
        for p, w in want.items():
            got = ferrograd.pdist(t, p=p)
            assert got.shape == (n * (n - 1) // 2,) and got.dtype == t.dtype
            np.testing.assert_allclose(got.numpy(), w, rtol=tol, atol=tol, err_msg=f"p={p} {dt}")
    assert ferrograd.pdist(ferrograd.zeros(4, 0)).tolist() == [0.0] * 6
    assert ferrograd.pdist(ferrograd.zeros(1, 3)).shape == (0,)
    assert ferrograd.pdist(ferrograd.zeros(0, 3)).shape == (0,)
