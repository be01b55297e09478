"""`copy_` into strided views whose rows run along the last dim (a slice of the last dim, a
transpose of the leading dims, a narrowed block): row copies, split over threads when large;
checked against NumPy on both sides of the parallel threshold, at one and two threads."""

import numpy as np
import pytest

import ferrograd as torch


CASES = {
    "last_dim_slice": ((16, 128, 768), lambda z: z[..., 256:512], (16, 128, 256)),
    "leading_transpose": ((64, 32, 40), lambda z: z.swapaxes(0, 1), (32, 64, 40)),
    "block": ((300, 500), lambda z: z[7:207, 100:400], (200, 300)),
    "small_rows": ((4, 5, 17), lambda z: z[:, 1:4, :], (4, 3, 17)),
    "strided_rows": ((50, 2, 64), lambda z: z[:, 1], (50, 64)),
}


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("name", sorted(CASES))
def test_copy_into_views(name, threads):
    shape, view, src_shape = CASES[name]
    g = np.random.default_rng(len(name))
    base = g.standard_normal(shape).astype(np.float32)
    src = g.standard_normal(src_shape).astype(np.float32)
    old = torch.get_num_threads()
    torch.set_num_threads(threads)
    try:
        z = torch.from_numpy(base.copy())
        view(z).copy_(torch.from_numpy(src))
        # a strided source too: the transpose of a contiguous tensor
        z2 = torch.from_numpy(base.copy())
        st = torch.from_numpy(np.ascontiguousarray(np.swapaxes(src, 0, 1))).transpose(0, 1)
        view(z2).copy_(st)
    finally:
        torch.set_num_threads(old)
    want = base.copy()
    view(want)[...] = src
    assert np.array_equal(z.numpy(), want)
    assert np.array_equal(z2.numpy(), want)


def test_slice_backward_places_each_gradient():
    p = torch.randn(16, 128, 768, requires_grad=True)
    g = [torch.randn(16, 128, 256) for _ in range(3)]
    parts = [p.narrow(-1, 256 * i, 256) for i in range(3)]
    (grad,) = torch.autograd.grad(parts, (p,), g)
    assert torch.equal(grad, torch.cat(g, -1))


@pytest.mark.parametrize("shape", [(3, 4), (512, 600)])
def test_view_gradients_copy_into_zeros(shape):
    """PyTorch's slice / select backward copy the gradient into zeros (a -0.0 stays -0.0);
    an overlapping as_strided view sums (-0.0 + -0.0 + 0 is 0.0)."""
    x = torch.zeros(*shape, requires_grad=True)
    (g,) = torch.autograd.grad(x[:, 1:3], (x,), torch.full((shape[0], 2), -0.0))
    assert torch.equal(torch.signbit(g[:, 1:3]), torch.ones(shape[0], 2, dtype=torch.bool))
    assert not torch.signbit(g[:, 0]).any()
    (g,) = torch.autograd.grad(x[1], (x,), torch.full((shape[1],), -0.0))
    assert torch.signbit(g[1]).all() and not torch.signbit(g[0]).any()
    (g,) = torch.autograd.grad(x.as_strided((2, 2), (1, 1)), (x,), torch.full((2, 2), -0.0))
    assert not torch.signbit(g).any()
