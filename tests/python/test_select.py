"""nonzero, boolean-mask indexing and gather against numpy (exact): every dtype, empty and degenerate
shapes, NaN and -0.0, masks over all dims and over the leading dims, and the gradient."""

import numpy as np
import pytest

import ferrograd as torch

SHAPES = [(5,), (3, 4), (2, 3, 5), (4, 1, 3, 2), (0, 3), (3, 0), (17, 33), (1, 1)]
DTYPES = [np.float32, np.float64, np.int64, np.int32, np.bool_, np.uint8, np.float16]


@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_nonzero_and_masks_are_numpys(shape, dtype):
    g = np.random.default_rng(len(shape))
    x = (g.standard_normal(shape) * 2).round().astype(dtype)
    if np.dtype(dtype).kind == "f" and x.size:
        x.reshape(-1)[0] = np.nan  # non-zero
        x.reshape(-1)[-1] = -0.0   # zero
    t = torch.tensor(x)
    nz = t.nonzero()
    assert nz.dtype == torch.int64 and nz.shape == (np.count_nonzero(x), len(shape))
    np.testing.assert_array_equal(nz.numpy(), np.argwhere(x))
    for got, want in zip(t.nonzero(as_tuple=True), np.nonzero(x)):
        np.testing.assert_array_equal(got.numpy(), want)
    m = x != 0
    y = g.standard_normal(shape).astype(np.float32)
    np.testing.assert_array_equal(torch.tensor(y)[torch.tensor(m)].numpy(), y[m])
    if len(shape) >= 2:
        rows = m.reshape(shape[0], -1).any(1) if m.size else np.zeros(shape[0], bool)
        np.testing.assert_array_equal(torch.tensor(y)[torch.tensor(rows)].numpy(), y[rows])


def test_mask_index_gradient():
    w = np.array([[1.0, -2.0, 3.0], [-4.0, 5.0, -6.0]])
    x = torch.tensor(w, requires_grad=True)
    y = x[x > 0]
    assert y.grad_fn.name() == "IndexBackward0"
    (y * torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64)).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [[1.0, 0.0, 2.0], [0.0, 3.0, 0.0]])
    x.grad = None
    r = x[torch.tensor([False, True])]
    r.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [[0.0, 0.0, 0.0], [1.0, 1.0, 1.0]])


def test_mask_shape_mismatch_is_pytorchs_error():
    x = torch.zeros(3, 4)
    with pytest.raises(IndexError, match=r"The shape of the mask \[3, 3\] at index 1 does not match"):
        x[torch.ones(3, 3, dtype=torch.bool)]


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int64], ids=lambda d: np.dtype(d).name)
def test_gather_matches_numpy_and_checks_each_index(dtype):
    g = np.random.default_rng(7)
    x = (g.standard_normal((6, 9, 5)) * 10).astype(dtype)
    for d in range(3):
        shape = list(x.shape)
        shape[d] = 4
        idx = g.integers(0, x.shape[d], shape)
        np.testing.assert_array_equal(torch.tensor(x).gather(d, torch.tensor(idx)).numpy(), np.take_along_axis(x, idx, d))
        # the first bad value in the index's order is the one PyTorch names
        bad = idx.copy()
        bad.reshape(-1)[7] = x.shape[d] + 3
        bad.reshape(-1)[11] = -2
        with pytest.raises(RuntimeError, match=rf"^index {x.shape[d] + 3} is out of bounds for dimension {d} with size {x.shape[d]}$"):
            torch.tensor(x).gather(d, torch.tensor(bad))
    # a smaller index along the other dims reads its own coordinates only
    idx = np.zeros((2, 3, 1), np.int64)
    np.testing.assert_array_equal(torch.tensor(x).gather(2, torch.tensor(idx)).numpy(), x[:2, :3, :1])


@pytest.mark.parametrize("dtype", [np.int64, np.int32, np.uint8, np.bool_], ids=lambda d: np.dtype(d).name)
def test_unique_of_integers_is_numpys(dtype):
    g = np.random.default_rng(3)
    for x in (g.integers(0, 10, (40, 7)), g.integers(-5, 6, 13), g.integers(0, 200, 1), g.integers(-(10 ** 9), 10 ** 9, 50)):
        x = x.astype(dtype) if dtype != np.bool_ else (x % 2).astype(bool)
        want = np.unique(x, return_inverse=True, return_counts=True)
        got = torch.unique(torch.tensor(x), return_inverse=True, return_counts=True)
        np.testing.assert_array_equal(got[0].numpy(), want[0])
        np.testing.assert_array_equal(got[1].numpy(), want[1].reshape(x.shape))
        np.testing.assert_array_equal(got[2].numpy(), want[2])
        assert got[1].shape == x.shape and str(got[0].dtype) == f"torch.{'bool' if dtype == np.bool_ else np.dtype(dtype).name}"
        np.testing.assert_array_equal(torch.unique(torch.tensor(x)).numpy(), want[0])


def test_index_writes_in_place_reach_views_and_bump_the_version():
    g = np.random.default_rng(11)
    base = np.arange(40, dtype=np.float32)
    x = torch.tensor(base.copy())
    tail = x[5:]  # a contiguous view at an offset: written through its own storage offset
    idx = g.integers(0, 35, 12)
    vals = g.standard_normal(12).astype(np.float32)
    v0 = tail._version
    tail[torch.tensor(idx)] = torch.tensor(vals)
    want = base.copy()
    want[5:][idx] = vals
    np.testing.assert_array_equal(x.numpy(), want)
    assert tail._version > v0 and x._version == tail._version
    # accumulate adds every duplicate; put_ takes flat (and negative) positions
    y = torch.zeros(3, 4)
    y.index_put_((torch.tensor([0, 0, 2]), torch.tensor([1, 1, 3])), torch.tensor([1.0, 2.0, 5.0]), accumulate=True)
    np.testing.assert_array_equal(y.numpy(), [[0, 3, 0, 0], [0, 0, 0, 0], [0, 0, 0, 5]])
    y.put_(torch.tensor([0, -1]), torch.tensor([7.0, 8.0]))
    assert y[0, 0].item() == 7.0 and y[2, 3].item() == 8.0
    # a write into a tensor saved for backward is PyTorch's version error
    w = torch.ones(4, requires_grad=True)
    s = torch.ones(4)
    out = (w * s).sum()
    s[torch.tensor([1])] = 3.0
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        out.backward()
    # bad positions leave the tensor as it was
    z = torch.zeros(5)
    with pytest.raises(IndexError):
        z[torch.tensor([1, 9])] = torch.tensor([1.0, 1.0])
    np.testing.assert_array_equal(z.numpy(), np.zeros(5, np.float32))


def test_scatter_like_writes_in_place():
    g = np.random.default_rng(12)
    x0 = g.standard_normal((6, 5)).astype(np.float32)
    idx = np.array([[0, 2, 1, 4, 3], [5, 5, 0, 1, 2]])
    src = g.standard_normal((2, 5)).astype(np.float32)
    x = torch.tensor(x0.copy())
    v = x._version
    x.scatter_(0, torch.tensor(idx), torch.tensor(src))
    want = x0.copy()
    for i in range(2):
        for j in range(5):
            want[idx[i, j], j] = src[i, j]
    np.testing.assert_array_equal(x.numpy(), want)
    assert x._version > v
    x.scatter_add_(0, torch.tensor(idx), torch.tensor(src))
    for i in range(2):
        for j in range(5):
            want[idx[i, j], j] += src[i, j]
    np.testing.assert_allclose(x.numpy(), want, rtol=0, atol=0)
    x.scatter_(1, torch.tensor([[0], [4]]), 9.0)
    want[0, 0] = 9.0
    want[1, 4] = 9.0
    np.testing.assert_array_equal(x.numpy(), want)
    # index_add_ / index_copy_ / index_fill_ on a view at an offset reach the base
    base = torch.zeros(4, 3)
    rows = base[1:]
    rows.index_add_(0, torch.tensor([0, 2, 0]), torch.ones(3, 3), alpha=2)
    rows.index_copy_(0, torch.tensor([1]), torch.full((1, 3), 7.0))
    rows.index_fill_(1, torch.tensor([2]), -1.0)
    np.testing.assert_array_equal(base.numpy(), [[0, 0, 0], [4, 4, -1], [7, 7, -1], [2, 2, -1]])
    # a strided target takes the copying path with the same result
    t = torch.zeros(3, 4).t()
    t.scatter_(0, torch.tensor([[3, 0, 1]]), torch.tensor([[1.0, 2.0, 3.0]]))
    np.testing.assert_array_equal(t.numpy()[[3, 0, 1], [0, 1, 2]], [1.0, 2.0, 3.0])
    # with history the node is PyTorch's
    w = torch.zeros(3, requires_grad=True)
    y = w.clone()
    y.scatter_add_(0, torch.tensor([1]), torch.tensor([5.0]))
    assert y.grad_fn.name() == "ScatterAddBackward0"


@pytest.mark.parametrize("dim", [0, 1, 2, -1])
def test_index_add_in_place_matches_numpy(dim):
    g = np.random.default_rng(13)
    x0 = g.standard_normal((4, 5, 6)).astype(np.float64)
    d = dim % 3
    idx = g.integers(-x0.shape[d], x0.shape[d], 7)
    shape = list(x0.shape)
    shape[d] = 7
    src = g.standard_normal(shape)
    want = x0.copy()
    for k, i in enumerate(idx):
        sl = [slice(None)] * 3
        sl[d] = i
        ssl = [slice(None)] * 3
        ssl[d] = k
        want[tuple(sl)] += 0.5 * src[tuple(ssl)]
    x = torch.tensor(x0.copy())
    x.index_add_(dim, torch.tensor(idx), torch.tensor(src), alpha=0.5)
    np.testing.assert_allclose(x.numpy(), want, rtol=1e-15, atol=1e-15)
    with pytest.raises(IndexError):
        x.index_add_(dim, torch.tensor([x0.shape[d]]), torch.tensor(src[tuple(slice(0, 1) if k == d else slice(None) for k in range(3))]))


def test_a_failed_in_place_scatter_leaves_later_ops_out_of_place():
    x = torch.zeros(5)
    with pytest.raises(RuntimeError, match="out of bounds"):
        x.scatter_(0, torch.tensor([7]), torch.tensor([1.0]))
    y = x.scatter(0, torch.tensor([1]), torch.tensor([2.0]))
    assert x.tolist() == [0.0] * 5 and y.tolist() == [0.0, 2.0, 0.0, 0.0, 0.0]


def test_one_hot_values_shapes_and_errors():
    F = torch.nn.functional
    lab = np.random.default_rng(5).integers(0, 7, (3, 4, 5))
    got = F.one_hot(torch.tensor(lab), 9)
    assert got.dtype == torch.int64 and tuple(got.shape) == (3, 4, 5, 9)
    np.testing.assert_array_equal(got.numpy(), np.eye(9, dtype=np.int64)[lab])
    # the class count inferred from the largest value; a 0-d index; an empty one
    assert tuple(F.one_hot(torch.tensor([0, 3])).shape) == (2, 4)
    assert F.one_hot(torch.tensor(2), 3).tolist() == [0, 0, 1]
    assert tuple(F.one_hot(torch.zeros(0, dtype=torch.int64), 4).shape) == (0, 4)
    with pytest.raises(RuntimeError, match="Class values must be non-negative."):
        F.one_hot(torch.tensor([1, -1]), 3)
    with pytest.raises(RuntimeError, match="Class values must be smaller than num_classes."):
        F.one_hot(torch.tensor([1, 3]), 3)
    with pytest.raises(RuntimeError, match="Can not infer total number of classes from empty tensor."):
        F.one_hot(torch.zeros(0, dtype=torch.int64))
    with pytest.raises(RuntimeError, match="one_hot is only applicable to index tensor"):
        F.one_hot(torch.tensor([1.0]), 3)


def test_scatter_positions_in_every_layout():
    # scatter's positions (an odometer over the index's shape) against numpy, along each dim
    # of a 3-d self with a smaller index, and a 0-d self with a 1-element index
    g = np.random.default_rng(9)
    x = g.standard_normal((4, 5, 6)).astype(np.float32)
    for dim in range(3):
        ishape = [3, 4, 5]
        idx = g.integers(0, x.shape[dim], ishape)
        src = g.standard_normal((4, 5, 6)).astype(np.float32)
        want = x.copy()
        for p in np.ndindex(*ishape):
            q = list(p)
            q[dim] = idx[p]
            want[tuple(q)] = src[p]
        got = torch.tensor(x).scatter(dim, torch.tensor(idx), torch.tensor(src))
        np.testing.assert_array_equal(got.numpy(), want)
        got_ = torch.tensor(x)
        got_.scatter_(dim, torch.tensor(idx), 2.5)
        want_ = x.copy()
        for p in np.ndindex(*ishape):
            q = list(p)
            q[dim] = idx[p]
            want_[tuple(q)] = 2.5
        np.testing.assert_array_equal(got_.numpy(), want_)
    assert torch.tensor(1.0).scatter(0, torch.tensor([0]), torch.tensor([7.0])).item() == 7.0
    with pytest.raises(RuntimeError, match="index 6 is out of bounds for dimension 2 with size 6"):
        torch.tensor(x).scatter_(2, torch.tensor([[[0, 6, 9]]]), 1.0)


@pytest.mark.parametrize("n, top", [(10, 5), (5000, 9), (5000, 6000)])
@pytest.mark.parametrize("dt", [np.uint8, np.int32, np.int64])
def test_bincount_counts(n, top, dt):
    if dt == np.uint8:
        top = min(top, 255)
    x = np.random.default_rng(n + top).integers(0, top, n).astype(dt)
    got = torch.bincount(torch.tensor(x), minlength=top + 3)
    assert got.dtype == torch.int64
    np.testing.assert_array_equal(got.numpy(), np.bincount(x, minlength=top + 3))


def test_bincount_weights_add_in_their_dtype_in_order():
    # float32 weights add in float32, in input order (ATen's loop): 1e8 + 1 rounds to 1e8
    got = torch.bincount(torch.tensor([0, 0, 0]), torch.tensor([1e8, 1.0, -1e8]))
    assert got.dtype == torch.float32 and got.tolist() == [0.0]
    x = np.random.default_rng(3).integers(0, 7, 999)
    w = np.random.default_rng(4).standard_normal(999).astype(np.float32)
    want = np.zeros(7, np.float32)
    for v, wv in zip(x, w):
        want[v] = np.float32(want[v] + wv)
    np.testing.assert_array_equal(torch.bincount(torch.tensor(x), torch.tensor(w)).numpy(), want)
    # other weights in float64
    for wt in (torch.tensor([1, 2]), torch.tensor([1.0, 2.0], dtype=torch.float16), torch.tensor([1.0, 2.0], dtype=torch.float64)):
        r = torch.bincount(torch.tensor([0, 2]), wt)
        assert r.dtype == torch.float64 and r.tolist() == [1.0, 0.0, 2.0]
    # an empty input: int64 zeros of minlength, weights or not
    r = torch.bincount(torch.tensor([], dtype=torch.int64), torch.tensor([]), minlength=3)
    assert r.dtype == torch.int64 and r.tolist() == [0, 0, 0]
    assert torch.bincount(torch.tensor([3, 1]), minlength=6).tolist() == [0, 1, 0, 1, 0, 0]


def test_bincount_errors():
    only = "bincount only supports 1-d non-negative integral inputs."
    with pytest.raises(RuntimeError, match=only):
        torch.bincount(torch.tensor([[1]]))
    with pytest.raises(RuntimeError, match=only):
        torch.bincount(torch.tensor([1, -1]))
    with pytest.raises(NotImplementedError, match="\"bincount_cpu\" not implemented for 'Float'"):
        torch.bincount(torch.tensor([1.0]))
    with pytest.raises(NotImplementedError, match="\"bincount_cpu\" not implemented for 'Bool'"):
        torch.bincount(torch.tensor([True]))
    with pytest.raises(RuntimeError, match="minlength should be >= 0"):
        torch.bincount(torch.tensor([1]), minlength=-1)
    with pytest.raises(RuntimeError, match="weights should be 1-d and have the same length as input"):
        torch.bincount(torch.tensor([1, 2]), torch.tensor([1.0]))


@pytest.mark.parametrize("threads", [1, 2])
def test_large_ops_on_the_team_match_one_thread(threads):
    # gather, cumsum, topk, an int sum, lerp, fills and copies split over the team give the
    # one-thread values; gather's error names the first bad index in order
    old = torch.get_num_threads()
    torch.set_num_threads(threads)
    try:
        g = np.random.default_rng(11)
        xn = g.standard_normal((512, 300)).astype(np.float32)
        x = torch.tensor(xn)
        idx = g.integers(0, 300, (512, 300))
        np.testing.assert_array_equal(x.gather(1, torch.tensor(idx)).numpy(), np.take_along_axis(xn, idx, 1))
        bad = idx.copy()
        bad[300, 7], bad[100, 3], bad[450, 0] = 301, 302, 303
        with pytest.raises(RuntimeError, match="index 302 is out of bounds for dimension 1 with size 300"):
            x.gather(1, torch.tensor(bad))
        c = x.cumsum(1).numpy()
        want = np.cumsum(xn.astype(np.float64), 1).astype(np.float32)
        np.testing.assert_array_equal(c, want)
        ci = torch.tensor(idx).cumsum(1).numpy()
        np.testing.assert_array_equal(ci, np.cumsum(idx, 1))
        v, i = x.topk(3, 1)
        np.testing.assert_array_equal(v.numpy(), -np.sort(-xn, 1)[:, :3])
        big = g.integers(-1000, 1000, 300_000)
        assert torch.tensor(big).sum().item() == int(big.sum())
        y = torch.tensor(g.standard_normal((512, 300)).astype(np.float32))
        rows = torch.cat([torch.lerp(x[k:k + 1], y[k:k + 1], 0.3) for k in range(512)])
        np.testing.assert_array_equal(torch.lerp(x, y, 0.3).numpy(), rows.numpy())
        assert (torch.full((700, 300), 2.5).numpy() == 2.5).all()
        z = torch.zeros(700, 300)
        del z
        assert (torch.zeros(700, 300).numpy() == 0).all()
        np.testing.assert_array_equal(x.clone().numpy(), xn)
    finally:
        torch.set_num_threads(old)
