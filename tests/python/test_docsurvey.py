"""Divergences found by running PyTorch's own docstring examples against ferrograd (the
expected values were printed by PyTorch 2.13), and the kernels rewritten in the same session
(sort keys, vector arg-reductions, reductions over leading dims, log)."""

import math
import struct
import warnings

import pytest

import ferrograd as torch
import ferrograd.nn.functional as F


def test_asarray_requires_grad_follows_pytorch_2_13():
    a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    b = a + 2
    c = torch.asarray(b, requires_grad=False)
    assert not c.requires_grad and c.grad_fn is None and c.tolist() == [3.0, 4.0, 5.0]
    assert torch.asarray(a, requires_grad=False).requires_grad is False
    assert torch.asarray(a) is a
    t = torch.asarray(b, requires_grad=True)
    assert t.requires_grad and type(t.grad_fn).__name__ == "AddBackward0"
    assert torch.asarray([1.0, 2.0], requires_grad=True).requires_grad
    torch._mathops._asarray_warned = False
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        e = torch.asarray(b)
        torch.asarray(b)
    assert type(e.grad_fn).__name__ == "AddBackward0"
    msgs = [str(x.message) for x in w]
    assert len(msgs) == 1 and msgs[0].startswith("torch.asarray: unspecified requires_grad now defaults to obj.requires_grad")
    assert w[0].filename == __file__


def test_embedding_second_backward_raises():
    emb = torch.nn.Embedding(10, 3)
    out = emb(torch.tensor([1, 2])).sum()
    out.backward()
    with pytest.raises(RuntimeError, match="Trying to backward through the graph a second time"):
        out.backward()
    assert emb.weight.grad[1].tolist() == [1.0, 1.0, 1.0]


def test_factory_memory_format():
    assert torch.empty((2, 3, 5, 7), memory_format=torch.channels_last).stride() == (105, 1, 21, 3)
    assert torch.empty(2, 3, 4, 5, 6, memory_format=torch.channels_last_3d).is_contiguous(memory_format=torch.channels_last_3d)
    assert torch.empty(2, 3, memory_format=torch.contiguous_format).stride() == (3, 1)
    with pytest.raises(TypeError, match=r"^zeros\(\) got an unexpected keyword argument 'memory_format'$"):
        torch.zeros(2, 3, 4, 5, memory_format=torch.channels_last)
    with pytest.raises(TypeError, match=r"^ones\(\) got an unexpected keyword argument 'foo'$"):
        torch.ones(2, foo=1)


def test_threshold_of_integers():
    assert torch.nn.Threshold(0, 0.5)(torch.arange(-3, 3)).tolist() == [0, 0, 0, 0, 1, 2]
    assert F.threshold(torch.arange(-3, 3), 0, 5).tolist() == [5, 5, 5, 5, 1, 2]
    assert F.threshold(torch.arange(-3, 3), 0.5, 2.7).tolist() == [2, 2, 2, 2, 1, 2]
    assert F.threshold(torch.arange(-3, 3).to(torch.uint8), 1, -1).tolist() == [253, 254, 255, 255, 255, 2]
    y = torch.arange(-3, 3)
    F.threshold_(y, 0, 9)
    assert y.tolist() == [9, 9, 9, 9, 1, 2]
    with pytest.raises(NotImplementedError, match="\"threshold_cpu\" not implemented for 'Bool'"):
        F.threshold(torch.arange(-3, 3) > 0, 0, 1)


@pytest.mark.parametrize("dt", ["float16", "bfloat16"])
def test_half_default_dtype(dt):
    d = getattr(torch, dt)
    try:
        torch.set_default_dtype(d)
        assert torch.get_default_dtype() == d
        assert torch.tensor([1.2, 3]).dtype == d and torch.zeros(2).dtype == d and torch.randn(2).dtype == d
        assert (torch.ones(2, dtype=torch.int64) / 2).dtype == d
    finally:
        torch.set_default_dtype(torch.float32)
    with pytest.raises(TypeError, match="only floating-point types are supported as the default type"):
        torch.set_default_dtype(torch.int64)


def test_subclass_prints_its_name():
    class MyT(torch.Tensor):
        pass

    assert repr(torch.tensor([1.0, 2.0]).as_subclass(MyT)) == "MyT([1., 2.])"
    assert repr(torch.nn.Parameter(torch.ones(2))) == "Parameter containing:\ntensor([1., 1.], requires_grad=True)"


def test_generator_and_typename():
    g = torch.Generator()
    g.manual_seed(3)
    assert g.set_state(g.get_state()) is g
    assert repr(g).startswith("<ferrograd._C.Generator object at 0x")
    assert torch.typename(torch.nn.Parameter) == "torch.nn.parameter.Parameter"
    assert torch.typename(torch.nn.Linear(1, 1)) == "torch.nn.modules.linear.Linear"
    assert torch.typename(1) == "int" and torch.typename(len) == "len" and torch.typename(int) == "int"
    assert torch.typename(torch.ones(1)) == "torch.FloatTensor"


def test_masked_scatter_broadcasts_self():
    self = torch.tensor([0, 0, 0, 0, 0])
    mask = torch.tensor([[0, 0, 0, 1, 1], [1, 1, 0, 1, 1]], dtype=torch.bool)
    source = torch.tensor([[0, 1, 2, 3, 4], [5, 6, 7, 8, 9]])
    assert self.masked_scatter(mask, source).tolist() == [[0, 0, 0, 0, 1], [2, 3, 0, 4, 5]]
    x = torch.zeros(3, requires_grad=True)
    y = x.masked_scatter(torch.tensor([[True, False, True], [False, True, False]]), torch.ones(3))
    y.sum().backward()
    assert x.grad.tolist() == [1.0, 1.0, 1.0]
    with pytest.raises(RuntimeError):
        self.clone().masked_scatter_(mask, source)


def test_composite_layers_record_pytorchs_node():
    torch.manual_seed(0)
    x = torch.randn(1, 2, 4, 4, 4, dtype=torch.float64, requires_grad=True)
    w = torch.randn(3, 2, 2, 2, 2, dtype=torch.float64, requires_grad=True)
    b = torch.randn(3, dtype=torch.float64, requires_grad=True)
    y = F.conv3d(x, w, b, padding=1)
    assert repr(y.grad_fn).startswith("<ConvolutionBackward0 object at 0x")
    assert y.grad_fn._saved_stride == (1, 1, 1) and y.grad_fn._saved_transposed is False
    assert torch.autograd.gradcheck(lambda x, w, b: F.conv3d(x, w, b, stride=2, padding=1), (x, w, b))
    assert torch.autograd.gradgradcheck(lambda x, w, b: F.conv3d(x, w, b, padding=1), (x, w, b))
    wt = torch.randn(2, 3, 2, 2, 2, dtype=torch.float64, requires_grad=True)
    assert type(F.conv_transpose3d(x, wt, b, stride=2).grad_fn).__name__ == "ConvolutionBackward0"
    assert torch.autograd.gradcheck(lambda x, w, b: F.conv_transpose3d(x, w, b, stride=2), (x, wt, b))
    y = F.conv3d(x, w)
    y.sum().backward()
    with pytest.raises(RuntimeError, match="second time"):
        y.sum().backward()
    e = torch.nn.EmbeddingBag(10, 3, mode="max")
    o = e(torch.tensor([[1, 2], [3, 3]]))
    assert type(o.grad_fn).__name__ == "EmbeddingBagBackward0"
    o.sum().backward()
    assert e.weight.grad.sum().item() == 6.0
    a = torch.randn(3, dtype=torch.float64, requires_grad=True)
    c = torch.randn(3, dtype=torch.float64)
    d = torch.dist(a, c, 3)
    assert type(d.grad_fn).__name__ == "DistBackward0" and d.grad_fn._saved_p == 3
    assert torch.autograd.gradcheck(lambda a: torch.dist(a, c, 3), (a,))


def _awkward():
    nan, inf = float("nan"), float("inf")
    return torch.tensor([[1.0, nan, 0.0, -0.0, 2.0, -inf, 2.0], [3.0, 3.0, -1.0, nan, -nan, inf, 0.0]])


def test_sort_keys_are_stable_and_order_nan_last():
    y = _awkward()
    v, i = y.sort(-1)
    # PyTorch's order (NaN largest, ties and ±0 in index order)
    assert i.tolist() == [[5, 2, 3, 0, 4, 6, 1], [2, 6, 0, 1, 5, 3, 4]]
    v, i = y.sort(-1, descending=True)
    assert i.tolist() == [[1, 4, 6, 0, 2, 3, 5], [3, 4, 5, 0, 1, 6, 2]]
    assert y.double().sort(-1)[1].tolist() == y.sort(-1)[1].tolist()
    n = torch.tensor([[3, -1, 3, 0, -7]], dtype=torch.int32)
    assert n.sort(-1)[1].tolist() == [[4, 1, 3, 0, 2]] and n.long().sort(-1, descending=True)[1].tolist() == [[0, 2, 3, 1, 4]]


def test_vector_extremes_find_the_first():
    y = _awkward()
    assert y.max(-1)[1].tolist() == [1, 3] and y.argmin(-1).tolist() == [1, 3]
    z = torch.tensor([[-0.0, 0.0, -1.0], [2.0, 5.0, 5.0]])
    v, i = z.max(-1)
    assert i.tolist() == [0, 1] and math.copysign(1, v[0].item()) == -1
    assert z.argmax(-1).tolist() == [0, 1]


def test_reductions_over_leading_dims():
    y = _awkward()
    m = y.amax(0)
    assert math.isnan(m[1]) and m[0].item() == 3.0 and m[5].item() == math.inf and m[6].item() == 2.0
    assert y.amin(0)[5].item() == -math.inf
    x = torch.arange(24.0).reshape(4, 6)
    assert x.t().sum(-1).tolist() == x.sum(0).tolist() == [36.0, 40.0, 44.0, 48.0, 52.0, 56.0]
    assert x.t().amax(-1).tolist() == [18.0, 19.0, 20.0, 21.0, 22.0, 23.0]
    p = torch.arange(24.0).reshape(2, 3, 4).permute(2, 0, 1)  # memory order (0, 1, 2) of the base
    assert p.sum((1, 2)).tolist() == [60.0, 66.0, 72.0, 78.0]
    assert torch.cat([torch.ones(2, 3), torch.zeros(1, 3)]).tolist() == [[1.0] * 3, [1.0] * 3, [0.0] * 3]


def test_log_kernels_are_correctly_rounded():
    xs = [0.0, -0.0, -1.0, 1.0, 2.0, math.inf, 1e-45, 3.4e38, 0.1, 0.7, 1.0000001, 0.99999994, 123.456, 5e-39]
    t = torch.tensor(xs)
    got = t.log().tolist()

    def f32(v):
        return struct.unpack("f", struct.pack("f", v))[0]

    for x, g in zip(t.tolist(), got):
        if x < 0:
            assert math.isnan(g)
        elif x == 0:
            assert g == -math.inf
        elif x == math.inf:
            assert g == math.inf
        else:
            assert g == f32(math.log(x)), x
    assert t[3:].log2().tolist()[:2] == [0.0, 1.0]
    assert torch.tensor([1000.0]).log10().item() == f32(3.0)


def test_small_surface_from_the_docstrings():
    assert torch.rsub(torch.tensor([1.0, 2.0]), torch.tensor([5.0, 5.0]), alpha=2).tolist() == [3.0, 1.0]
    assert torch.rsub(torch.tensor([1, 2]), 5).tolist() == [4, 3]
    x = torch.randn(2, requires_grad=True)
    y = torch.fill(x, 3.0)
    assert y.tolist() == [3.0, 3.0] and type(y.grad_fn).__name__ == "FillBackward0"
    y.sum().backward()
    assert x.grad.tolist() == [0.0, 0.0]
    assert torch.max_pool3d(torch.randn(1, 1, 4, 4, 4), 2).shape == (1, 1, 2, 2, 2)
    assert abs(torch.binary_cross_entropy_with_logits(torch.zeros(2), torch.ones(2), None, None, 1).item() - math.log(2)) < 1e-6
    t = torch.ones(1)
    assert (torch.get_device(t), torch.is_inference(t), torch.is_conj(t), torch.is_neg(t)) == (-1, False, False, False)
    # PyTorch: tensor([0.3935, 0.8009]) and tensor([0.6065, 0.1991])
    assert torch.allclose(torch.igamma(torch.tensor([1.0, 2.0]), torch.tensor([0.5, 3.0])), torch.tensor([0.3935, 0.8009]), atol=1e-4)
    assert torch.allclose(torch.tensor([1.0, 2.0]).igammac(torch.tensor([0.5, 3.0])), torch.tensor([0.6065, 0.1991]), atol=1e-4)
    assert torch.empty(2, 3, 4, 5, memory_format=torch.channels_last).dim_order() == (0, 2, 3, 1)
    assert torch.ones(2, 3).t().dim_order() == (1, 0)
    assert torch.nonzero_static(torch.tensor([1, 0, 1]), size=4).tolist() == [[0], [2], [-1], [-1]]
    assert torch.tensor([[1, 0], [1, 1]]).nonzero_static(size=2, fill_value=7).tolist() == [[0, 0], [1, 0]]
    s = torch.ones(2, 3)
    s.swapaxes_(0, 1)
    assert s.shape == (3, 2)
    a = torch.tensor([4, 6])
    a.gcd_(torch.tensor([6, 9]))
    assert a.tolist() == [2, 3]
    c = torch.tensor([2.0])
    c.arccosh_()
    assert abs(c.item() - math.acosh(2.0)) < 1e-6 and torch.arccosh_ is torch.acosh_


def test_masked_reductions_match_pytorch():
    m = torch.masked
    x = torch.tensor([[-3, -2, -1], [0, 1, 2]])
    mask = torch.tensor([[True, False, True], [False, False, False]])
    assert m.sum(x, 1, mask=mask).tolist() == [-4, 0] and m.sum(x, mask=mask).item() == -4
    assert m.sum(x, 1, keepdim=True, mask=mask).tolist() == [[-4], [0]] and m.sum(x, 1).tolist() == [-6, 3]
    assert m.prod(x, 1, mask=mask).tolist() == [3, 1]
    assert m.amax(x, 1, mask=mask).tolist() == [-1, -9223372036854775808]
    assert m.amin(x, 1, mask=mask).tolist() == [-3, 9223372036854775807]
    assert m.argmax(x, 1, mask=mask).tolist() == [2, 0] and m.argmin(x, 1, mask=mask).tolist() == [0, 0]
    assert m.cumsum(x, 1, mask=mask).tolist() == [[-3, -3, -4], [0, 0, 0]]
    assert m.cumprod(x, 1, mask=mask).tolist() == [[-3, -3, 3], [1, 1, 1]]
    with pytest.raises(ValueError, match="mean\\(\\): Could not infer output dtype. Input dtype must be"):
        m.mean(x, 1, mask=mask)
    f = x.float()
    mean = m.mean(f, 1, mask=mask)
    assert mean[0].item() == -2.0 and math.isnan(mean[1])
    sm = m.softmax(f, 1, mask=mask)
    assert torch.allclose(sm[0], torch.tensor([0.1192, 0.0, 0.8808]), atol=1e-4) and bool(sm[1].isnan().all())
    assert m.log_softmax(f, 1, mask=mask)[0, 1].item() == -math.inf
    assert torch.allclose(m.softmin(f, 1, mask=mask)[0], torch.tensor([0.8808, 0.0, 0.1192]), atol=1e-4)
    assert m.logsumexp(f, 1, mask=mask)[1].item() == -math.inf
    assert torch.allclose(m.norm(f, 2.0, 1, mask=mask), torch.tensor([3.1623, 0.0]), atol=1e-4)
    v = m.var(f, 1, unbiased=False, mask=mask)
    assert v[0].item() == 1.0 and math.isnan(v[1]) and m.std(f, 1, unbiased=False, mask=mask)[0].item() == 1.0
    med = m.median(f, 1, mask=mask)
    assert med[0].item() == -3.0 and math.isnan(med[1])
    nz = m.normalize(f, 2.0, 1, mask=mask)
    assert torch.allclose(nz, torch.tensor([[-0.9487, 0.0, -0.3162], [0.0, 0.0, 0.0]]), atol=1e-4)


def test_resize_follows_the_storage():
    x = torch.arange(6.0)
    x.resize_(2, 2)
    assert x.tolist() == [[0.0, 1.0], [2.0, 3.0]] and x.stride() == (2, 1)
    x.resize_(10)
    assert x.shape == (10,) and x[:6].tolist() == [0.0, 1.0, 2.0, 3.0, 4.0, 5.0]
    z = torch.arange(4.0)
    z.resize_as_(torch.ones(2, 2))
    assert z.shape == (2, 2)
    with pytest.raises(RuntimeError, match="cannot resize variables that require grad"):
        torch.ones(2, requires_grad=True).resize_(3)
    w = torch.arange(6.0).view(2, 3).t()
    w.resize_(2, 3)
    assert w.tolist() == [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]] and w.stride() == (3, 1)
    a = torch.arange(6.0)
    v = a[2:]
    v.resize_(2)
    v[0] = 100
    assert a.tolist() == [0.0, 1.0, 100.0, 3.0, 4.0, 5.0]


def test_error_parity_from_the_docstrings():
    with torch.inference_mode():
        y = torch.ones(2)
    with pytest.raises(RuntimeError, match="Inference tensors do not track version counter."):
        y._version
    assert torch.ones(2)._version == 0
    with pytest.raises(NotImplementedError, match="\"poisson_cpu\" not implemented for 'Long'"):
        torch.distributions.Poisson(torch.tensor([4])).sample()
    with pytest.raises(RuntimeError, match="first has size 5 in dim -1 and second has size 3 in dim 1"):
        torch.tensordot(torch.randn(3, 4, 5), torch.randn(4, 3, 2), dims=2)
    assert torch.tensordot(torch.randn(3, 4, 5), torch.randn(4, 5, 2), dims=2).shape == (3, 2)
