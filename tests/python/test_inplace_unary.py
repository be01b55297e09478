"""In-place unary ops without history write straight into the buffer (one pass): the values
are the out-of-place op's bit for bit, views and numpy arrays sharing the memory see them,
versions move, and the cases the direct path does not take (recorded history, strided or
integer tensors, forward-mode tangents) keep their PyTorch behaviour."""

import numpy as np
import pytest

import ferrograd as torch
import ferrograd.nn.functional as F

OPS = [
    ("exp_", torch.exp), ("log_", torch.log), ("sqrt_", torch.sqrt), ("neg_", torch.neg), ("abs_", torch.abs),
    ("sigmoid_", torch.sigmoid), ("tanh_", torch.tanh), ("sin_", torch.sin), ("cos_", torch.cos),
    ("reciprocal_", torch.reciprocal), ("floor_", torch.floor), ("relu_", torch.relu),
]


def _data(dtype, n=70_001):
    # large enough for the parallel chunks; NaN, ±inf, ±0 and negatives included
    g = np.random.default_rng(1)
    v = g.standard_normal(n) * 3
    v[:6] = [np.nan, np.inf, -np.inf, 0.0, -0.0, -1.5]
    return torch.from_numpy(v.astype(dtype))


def _bits(t):
    a = t.numpy()
    return a.view(np.uint32 if a.dtype == np.float32 else np.uint64)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("name,f", OPS, ids=[o[0] for o in OPS])
def test_in_place_matches_out_of_place_bit_for_bit(name, f, dtype):
    x = _data(dtype)
    want = f(x)
    y = x.clone()
    v0 = y._version
    r = getattr(y, name)()
    assert r is y
    assert y._version == v0 + 1
    np.testing.assert_array_equal(_bits(y), _bits(want))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_clamp_and_functional_relu_in_place(dtype):
    x = _data(dtype)
    for lo, hi in [(-1, 1), (-0.5, None), (None, 0.25), (2, 1)]:
        y = x.clone()
        y.clamp_(lo, hi)
        np.testing.assert_array_equal(_bits(y), _bits(torch.clamp(x, lo, hi)))
    y = x.clone()
    out = F.relu(y, inplace=True)
    assert out is y
    np.testing.assert_array_equal(_bits(y), _bits(torch.relu(x)))


def test_views_and_numpy_share_the_write():
    a = np.linspace(-2, 2, 12, dtype=np.float32)
    t = torch.from_numpy(a)
    v = t.view(3, 4)[1]
    t.relu_()
    assert (a >= 0).all(), "the numpy array is the tensor's memory"
    assert v.tolist() == t[4:8].tolist()
    p = t.data_ptr()
    t.exp_()
    assert t.data_ptr() == p
    np.testing.assert_allclose(a, t.numpy())


def test_a_contiguous_view_is_updated_in_place_and_the_rest_untouched():
    base = torch.arange(-6.0, 6.0).reshape(3, 4)
    row = base[1]
    row.neg_()
    assert base.tolist() == [[-6.0, -5.0, -4.0, -3.0], [2.0, 1.0, -0.0, -1.0], [2.0, 3.0, 4.0, 5.0]]
    col = base[:, 0]  # strided: the general path
    col.abs_()
    assert base[:, 0].tolist() == [6.0, 2.0, 2.0]


def test_integer_and_recorded_cases_keep_their_behaviour():
    i = torch.tensor([-3, 2, -1])
    i.abs_()
    assert i.tolist() == [3, 2, 1] and i.dtype == torch.int64
    with pytest.raises(RuntimeError, match="result type Float can't be cast to the desired output type Long"):
        torch.tensor([1, 2]).exp_()
    leaf = torch.tensor([1.0, -2.0], requires_grad=True)
    with pytest.raises(RuntimeError, match="a leaf Variable that requires grad is being used in an in-place operation."):
        leaf.relu_()
    with torch.no_grad():
        leaf.relu_()
    assert leaf.tolist() == [1.0, 0.0]
    x = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
    y = x * 1
    y.tanh_()
    assert type(y.grad_fn).__name__ == "TanhBackward0"
    y.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), 1 - np.tanh(x.detach().numpy()) ** 2, rtol=1e-6)


def test_inference_tensors_and_forward_mode():
    with torch.inference_mode():
        t = torch.ones(3)
    with pytest.raises(RuntimeError, match="Inplace update to inference tensor outside InferenceMode"):
        t.exp_()
    import ferrograd.autograd.forward_ad as fwAD

    with fwAD.dual_level():
        p = torch.tensor([0.1, 0.2])
        d = fwAD.make_dual(p.clone(), torch.tensor([1.0, 1.0]))
        d.exp_()
        np.testing.assert_allclose(fwAD.unpack_dual(d).tangent.numpy(), np.exp([0.1, 0.2]), rtol=1e-6)


def test_fill_and_zero_write_the_buffer_and_check_numbers():
    x = torch.empty(3, 4)
    v0 = x._version
    assert x.fill_(2.5) is x and x._version == v0 + 1
    assert x.tolist() == [[2.5] * 4] * 3
    x.zero_()
    assert x.tolist() == [[0.0] * 4] * 3
    x[1].fill_(torch.tensor(7.0))
    x[:, 0].fill_(1)  # strided: the general path
    assert x.tolist() == [[1.0, 0.0, 0.0, 0.0], [1.0, 7.0, 7.0, 7.0], [1.0, 0.0, 0.0, 0.0]]
    e = torch.zeros(1).expand(3)  # overlapping memory: torch allows fills
    e.fill_(4)
    assert e.tolist() == [4.0, 4.0, 4.0]
    # Python numbers must fit the dtype (c10::overflows); tensors convert as casts
    for dt, v, name in [(torch.int8, 300, "int8_t"), (torch.float16, 1e6, "c10::Half"), (torch.float16, 65504.5, "c10::Half"),
                        (torch.int32, float("nan"), "int"), (torch.float32, 1e40, "float"), (torch.bfloat16, 1e39, "c10::BFloat16")]:
        with pytest.raises(RuntimeError, match=f"value cannot be converted to type {name} without overflow"):
            torch.zeros(2, dtype=dt).fill_(v)
    assert torch.zeros(2, dtype=torch.int8).fill_(torch.tensor(300)).tolist() == [44, 44]
    assert torch.zeros(2, dtype=torch.uint8).fill_(-1).tolist() == [255, 255]
    assert torch.zeros(2, dtype=torch.int64).fill_(2.7).tolist() == [2, 2]
    assert torch.zeros(2, dtype=torch.bool).fill_(0.5).tolist() == [True, True]
    assert torch.zeros(2, dtype=torch.float16).fill_(float("inf")).tolist() == [float("inf")] * 2
    with pytest.raises(RuntimeError, match="value cannot be converted to type c10::Half without overflow"):
        torch.full((2,), 1e6, dtype=torch.float16)
    with pytest.raises(RuntimeError, match="value cannot be converted to type float without overflow"):
        torch.zeros(2).masked_fill(torch.tensor([True, False]), 1e40)
    assert torch.tensor([1e6], dtype=torch.float16).tolist() == [float("inf")]
    w = torch.ones(3, requires_grad=True)
    with pytest.raises(RuntimeError, match="a leaf Variable that requires grad is being used in an in-place operation."):
        w.fill_(0)
    y = w * 2
    y.fill_(3)
    assert type(y.grad_fn).__name__ == "FillBackward2"


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_clamp_min_and_max_in_place(dtype):
    x = _data(dtype)
    for lo in (-0.5, 0, 2):
        y = x.clone()
        assert y.clamp_min_(lo) is y
        np.testing.assert_array_equal(_bits(y), _bits(torch.clamp_min(x, lo)))
        y = x.clone()
        assert y.clamp_max_(lo) is y
        np.testing.assert_array_equal(_bits(y), _bits(torch.clamp_max(x, lo)))
    # recorded: the named backward, as PyTorch's
    w = torch.ones(3, requires_grad=True)
    y = w * 1
    y.clamp_min_(0.5)
    assert y.grad_fn.name() == "ClampMinBackward0"
    y = w * 1
    y.clamp_max_(0.5)
    assert y.grad_fn.name() == "ClampMaxBackward0"


def test_clamp_min_and_max_in_place_refuse_a_wider_bound():
    # PyTorch's in-place result-type check, with C++ type names
    with pytest.raises(RuntimeError, match="^result type Float can't be cast to the desired output type long int$"):
        torch.tensor([1, 2]).clamp_min_(0.5)
    with pytest.raises(RuntimeError, match="^result type Long can't be cast to the desired output type bool$"):
        torch.tensor([True]).clamp_max_(0)
    t = torch.tensor([1, 5])
    t.clamp_min_(2)
    assert t.tolist() == [2, 5]
