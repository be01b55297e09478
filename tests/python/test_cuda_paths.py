"""The GPU paths the first GPU run brought up, on every device (the CUDA cases skip without a
GPU): GEMM operand layouts (cuBLAS takes views with a unit stride on either side), chunked
reductions of few long rows, index results on the input's device, DLPack with CUDA memory,
and the device allocator's out-of-memory error."""

import numpy as np
import pytest

import ferrograd as torch
import ferrograd.nn.functional as F

from conftest import to_np


@pytest.mark.parametrize("m,k,n", [(1, 1, 1), (1, 7, 5), (6, 1, 4), (5, 7, 1), (33, 17, 9), (64, 64, 64)])
@pytest.mark.parametrize("ta,tb", [(False, False), (True, False), (False, True), (True, True)])
def test_matmul_operand_layouts(device, m, k, n, ta, tb):
    rng = np.random.RandomState(m * 100 + k * 10 + n)
    a = rng.randn(m, k)
    b = rng.randn(k, n)
    ta_t = torch.tensor(a.T.copy(), dtype=torch.float64, device=device).t() if ta else torch.tensor(a, dtype=torch.float64, device=device)
    tb_t = torch.tensor(b.T.copy(), dtype=torch.float64, device=device).t() if tb else torch.tensor(b, dtype=torch.float64, device=device)
    np.testing.assert_allclose(to_np(ta_t @ tb_t), a @ b, rtol=1e-10, atol=1e-10)


def test_matmul_sliced_batched_and_broadcast(device):
    rng = np.random.RandomState(0)
    big = rng.randn(4, 10, 12)
    x = torch.tensor(big, dtype=torch.float32, device=device)
    w = rng.randn(5, 3)
    tw = torch.tensor(w, dtype=torch.float32, device=device)
    # a column slice: row stride 12 > 5 columns
    np.testing.assert_allclose(to_np(x[:, :, 2:7] @ tw), big[:, :, 2:7] @ w, rtol=1e-4, atol=1e-4)
    # a batched product with a broadcast (stride 0) right operand
    y = rng.randn(12, 6)
    np.testing.assert_allclose(to_np(x @ torch.tensor(y, dtype=torch.float32, device=device)), big @ y, rtol=1e-4, atol=1e-4)
    # batched, both transposed
    z = rng.randn(4, 6, 10)
    got = x.transpose(1, 2) @ torch.tensor(z, dtype=torch.float32, device=device).transpose(1, 2)
    np.testing.assert_allclose(to_np(got), big.transpose(0, 2, 1) @ z.transpose(0, 2, 1), rtol=1e-4, atol=1e-4)
    # gradients through the same layouts
    a = torch.tensor(rng.randn(7, 5), dtype=torch.float64, device=device, requires_grad=True)
    b = torch.tensor(rng.randn(5, 3), dtype=torch.float64, device=device, requires_grad=True)
    (a @ b).sum().backward()
    np.testing.assert_allclose(to_np(a.grad), np.ones((7, 3)) @ to_np(b).T, rtol=1e-10)
    np.testing.assert_allclose(to_np(b.grad), to_np(a).T @ np.ones((7, 3)), rtol=1e-10)


@pytest.mark.parametrize("shape,dim", [((1 << 20,), None), ((3, 300000), 1), ((5, 70000), None), ((200000, 3), 0)])
def test_long_row_reductions(device, shape, dim):
    rng = np.random.RandomState(1)
    a = rng.rand(*shape)
    t = torch.tensor(a, device=device)
    kw = {} if dim is None else {"dim": dim}
    np.testing.assert_allclose(to_np(t.sum(**kw)), a.sum(**({} if dim is None else {"axis": dim})), rtol=1e-9)
    np.testing.assert_allclose(to_np(t.amax(**kw) if dim is not None else t.max()), a.max(**({} if dim is None else {"axis": dim})))
    np.testing.assert_allclose(to_np(t.amin(**kw) if dim is not None else t.min()), a.min(**({} if dim is None else {"axis": dim})))
    near_one = torch.tensor(1 + (a - 0.5) * 1e-6, device=device)
    np.testing.assert_allclose(to_np(near_one.prod(**kw)), np.prod(1 + (a - 0.5) * 1e-6, **({} if dim is None else {"axis": dim})), rtol=1e-9)
    f = torch.tensor(a, dtype=torch.float32, device=device)
    np.testing.assert_allclose(to_np(f.sum(**kw)), a.sum(**({} if dim is None else {"axis": dim})), rtol=1e-4)
    # the same value twice: the split depends on the shape alone
    assert torch.equal(f.sum(**kw), f.sum(**kw))


def test_nan_in_a_long_row_propagates(device):
    a = np.zeros(1 << 18)
    a[12345] = np.nan
    t = torch.tensor(a, device=device)
    assert np.isnan(t.max().item()) and np.isnan(t.sum().item())


def test_index_results_live_on_the_input_device(device):
    x = torch.tensor([[0.0, 1.5], [2.0, 0.0]], device=device)
    assert x.nonzero().device == x.device and x.nonzero().tolist() == [[0, 1], [1, 0]]
    assert all(t.device == x.device for t in x.nonzero(as_tuple=True))
    assert torch.nonzero(torch.tensor(3.0, device=device)).device == x.device
    labels = torch.tensor([1, 0, 2], device=device)
    oh = F.one_hot(labels, 3)
    assert oh.device == x.device and oh.tolist() == [[0, 1, 0], [1, 0, 0], [0, 0, 1]]
    up = F.interpolate(torch.ones(1, 1, 2, 2, device=device), scale_factor=2)
    assert up.device == x.device and up.shape == (1, 1, 4, 4)
    assert F.dropout(torch.ones(3, device=device), 1.0).device == x.device
    padded = F.pad(torch.ones(1, 1, 2, 2, device=device), (1, 1, 1, 1), mode="reflect")
    assert padded.device == x.device


def test_gradchecks_run_on_the_device(device):
    z = torch.randn(3, dtype=torch.float64, device=device, requires_grad=True)
    assert torch.autograd.gradcheck(lambda t: (t.sin() * t).sum(), (z,))
    assert torch.autograd.gradgradcheck(lambda t: (t.sin() * t).sum(), (z,))
    jac = torch.autograd.functional.jacobian(lambda t: t * 2, z)
    assert jac.device == z.device


def test_factories_build_on_the_device(device):
    for t in (torch.zeros(2, 3, device=device), torch.ones(4, device=device), torch.empty(5, device=device),
              torch.full((2,), 7.0, device=device)):
        assert t.device.type == device
    assert torch.ones(3, device=device).sum().item() == 3.0
    assert torch.full((2, 2), 7, device=device).tolist() == [[7, 7], [7, 7]]


def test_cuda_out_of_memory_is_pytorchs():
    if not torch.cuda.is_available():
        pytest.skip("no CUDA device on this machine")
    with pytest.raises(torch.cuda.OutOfMemoryError, match="CUDA out of memory. Tried to allocate"):
        torch.empty(1 << 45, device="cuda")
    assert torch.ones(4, device="cuda").sum().item() == 4.0


def test_cuda_dlpack_round_trip_is_zero_copy():
    if not torch.cuda.is_available():
        pytest.skip("no CUDA device on this machine")
    t = torch.arange(6.0, device="cuda").reshape(2, 3)
    assert t.__dlpack_device__() == (2, 0)
    u = torch.from_dlpack(t.__dlpack__(stream=1))
    assert u.device == t.device and u.data_ptr() == t.data_ptr()
    u.add_(1)
    assert t.tolist() == [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]
    v = torch.utils.dlpack.from_dlpack(torch.utils.dlpack.to_dlpack(t.t()))
    assert v.tolist() == t.t().tolist()
    w = torch.from_dlpack(t[1])
    assert w.tolist() == [4.0, 5.0, 6.0]
    assert torch.from_dlpack(t.__dlpack__(stream=7)).tolist() == t.tolist()  # another stream: synchronised
    with pytest.raises(AssertionError, match="stream 0 is ambiguous"):
        t.__dlpack__(stream=0)
    del t, u, v, w  # the storage outlives the imports; nothing is freed twice
    assert torch.ones(1, device="cuda").item() == 1.0
