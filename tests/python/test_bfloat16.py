"""torch.bfloat16: names, promotion, rounding, reductions, autograd, random streams and
persistence; expectations recorded from PyTorch 2.13."""

import numpy as np
import pytest

import ferrograd as torch

b = torch.bfloat16


def test_dtype_object():
    assert repr(b) == "torch.bfloat16" and str(b) == "torch.bfloat16"
    assert b.is_floating_point and b.is_signed and b.itemsize == 2


def test_values_round_to_bfloat16_and_print():
    x = torch.tensor([1.1, 2.5, -3.0], dtype=b)
    assert x.tolist() == [1.1015625, 2.5, -3.0]
    assert repr(x) == "tensor([ 1.1016,  2.5000, -3.0000], dtype=torch.bfloat16)"
    assert x.to(torch.float16).tolist() == [1.1015625, 2.5, -3.0]
    assert torch.tensor(3.0).to(b).item() == 3.0


def test_conversions_round_as_c10():
    # c10 builds a half value from a float: a double is rounded to float32 first (two
    # roundings: 1 + 2^-8 + 2^-40 lands on a tie and goes to even), a float32 rounds to
    # nearest even on all its bits (0x3f808001 is above the tie: it rounds up)
    v = 1.00390625 + 2.0 ** -40
    assert torch.tensor([v], dtype=b).item() == 1.0
    assert torch.tensor([v], dtype=torch.float64).to(b).item() == 1.0
    assert torch.full((1,), v, dtype=b).item() == 1.0
    assert torch.tensor([1 + 2.0 ** -11 + 2.0 ** -40], dtype=torch.float64).half().item() == 1.0
    above_tie = torch.from_numpy(np.array([0x3F808001], dtype=np.uint32).view(np.float32))
    assert above_tie.to(b).item() == 1.0078125
    # every bfloat16 value narrows exactly and widens back (vector kernels both ways)
    every = torch.from_numpy((np.arange(65536, dtype=np.uint32) << 16).view(np.float32))
    finite = every[~torch.isnan(every)]
    assert torch.equal(finite.to(b).float(), finite)
    assert torch.isnan(every.to(b)).sum().item() == 2 * 127


def test_promotion():
    x = torch.tensor([1.0, 2.0, 3.0], dtype=b)
    assert (x + torch.ones(3, dtype=torch.float16)).dtype == torch.float32
    assert (x + 1).dtype == b
    assert (x + torch.ones(3)).dtype == torch.float32
    assert (x * 2.5).dtype == b
    assert (torch.ones(3, dtype=torch.int32) + x).dtype == b


def test_reductions_accumulate_in_float32():
    x = torch.tensor([1.1, 2.5, -3.0], dtype=b)
    assert x.sum().item() == pytest.approx(0.6015625) and x.sum().dtype == b
    assert x.mean().item() == pytest.approx(0.2001953125)


def test_autograd():
    y = torch.tensor([0.1, 0.2], dtype=b, requires_grad=True)
    (y * y).sum().backward()
    assert y.grad.dtype == b
    assert y.grad.tolist() == pytest.approx([0.2001953125, 0.400390625])


def test_random_streams_match_torch():
    torch.manual_seed(0)
    assert torch.rand(4, dtype=b).tolist() == [0.49609375, 0.76953125, 0.08837890625, 0.1318359375]
    torch.manual_seed(0)
    assert torch.randn(4, dtype=b).tolist() == [1.5390625, -0.29296875, -2.171875, 0.5703125]


def test_numpy_refuses_as_torch():
    with pytest.raises(TypeError, match="^Got unsupported ScalarType BFloat16$"):
        torch.ones(2, dtype=b).numpy()


def test_save_and_load_round_trip(tmp_path):
    x = torch.tensor([1.1, -2.5, 3.0e10, 1e-20], dtype=b)
    p = tmp_path / "x.pt"
    torch.save({"x": x, "view": x[1:3]}, p)
    d = torch.load(p)
    assert d["x"].dtype == b and d["x"].tolist() == x.tolist()
    assert d["view"].tolist() == x[1:3].tolist()
    import copy
    assert copy.deepcopy(x).tolist() == x.tolist()


def test_random_streams_vectorised_sizes():
    torch.manual_seed(3)
    assert torch.randn(20, dtype=b).tolist() == [
        -0.07666015625, 0.359375, -0.78125, 0.0712890625, 0.26171875, 0.9296875, -0.515625, -1.6484375,
        1.046875, 0.5234375, -0.1669921875, 0.052978515625, 0.5625, 2.25, 1.8671875, -1.1953125, 0.99609375,
        0.458984375, 2.4375, -0.146484375]
    torch.manual_seed(3)
    assert torch.rand(20, dtype=b).tolist() == [
        0.0042724609375, 0.10546875, 0.28515625, 0.0269775390625, 0.470703125, 0.06005859375, 0.7734375,
        0.7421875, 0.59375, 0.88671875, 0.451171875, 0.80078125, 0.1494140625, 0.40234375, 0.05419921875,
        0.458984375, 0.17578125, 0.94921875, 0.84765625, 0.875]
    torch.manual_seed(3)
    assert torch.empty(20, dtype=b).normal_(2, 3).tolist() == [
        1.7734375, 3.078125, -0.345703125, 2.21875, 2.78125, 4.78125, 0.45703125, -2.953125, 5.125, 3.5625,
        1.5, 2.15625, 3.6875, 8.75, 7.59375, -1.5859375, 5.0, 3.375, 9.3125, 1.5625]


def test_reduced_precision_random_streams_match_torch():
    """float16/bfloat16 normals: float math, uniforms drawn block by block (the tail block from
    fresh draws); float16 uniforms with its 11 bits."""
    torch.manual_seed(5)
    assert torch.randn(20, dtype=torch.float16).tolist() == [1.8427734375, 0.51904296875, -1.7119140625, -1.701171875, 2.779296875, 1.2216796875, -0.33642578125, -0.96484375, -0.129638671875, -0.6015625, 0.14501953125, -0.1497802734375, -0.4375, 0.779296875, -0.058349609375, -2.03125, 1.4833984375, 0.494140625, 0.249267578125, 1.7470703125]
    torch.manual_seed(5)
    assert torch.rand(20, dtype=torch.float16).tolist() == [0.830078125, 0.1260986328125, 0.9072265625, 0.81982421875, 0.919921875, 0.11663818359375, 0.1644287109375, 0.73779296875, 0.03326416015625, 0.994140625, 0.6064453125, 0.564453125, 0.0723876953125, 0.6591796875, 0.71484375, 0.5791015625, 0.98095703125, 0.650390625, 0.056640625, 0.919921875]
    torch.manual_seed(5)
    assert torch.empty(40, dtype=b).normal_(2, 3).tolist() == [7.53125, 3.5625, -3.140625, -3.109375, 8.0625, 1.1953125, 1.609375, -2.3125, 3.171875, 1.9453125, -2.0625, -0.1923828125, 4.96875, 0.7421875, 0.2451171875, -0.34765625, 10.3125, 5.65625, 0.9921875, -0.89453125, 1.609375, 0.1943359375, 2.4375, 1.546875, 1.21875, -0.197265625, 7.09375, 1.4609375, 7.78125, 2.859375, 4.8125, -5.21875, 1.5546875, 4.6875, 3.640625, -2.921875, -3.453125, 1.3828125, 0.421875, -3.09375]
