"""PyTorch parity found by the differential fuzzer: grad_fn names of composite ops, the layout
of elementwise results, multi-output views, in-place writes through views of any base, and
argument checks. Every expectation here was checked against PyTorch 2.13."""

import math
import warnings

import pytest

import ferrograd as torch


def name(t):
    return type(t.grad_fn).__name__ if t.grad_fn is not None else None


@pytest.fixture
def x():
    return torch.randn(2, 4, requires_grad=True)


def test_selection_ops_record_their_own_nodes(x):
    assert name(x.sort()[0]) == "SortBackward0"
    assert name(x.sort(stable=True)[0]) == "SortBackward1"
    assert name(x.topk(1)[0]) == "TopkBackward0"
    assert name(x.index_select(0, torch.tensor([0]))) == "IndexSelectBackward0"
    assert name(x.gather(0, torch.tensor([[0]]))) == "GatherBackward0"
    assert name(x[[0]]) == "IndexBackward0"


def test_split_family_is_one_multi_output_node(x):
    y = x * 1
    parts = y.split(1)
    assert [name(p) for p in parts] == ["SplitBackward0"] * 2
    assert parts[0].grad_fn is parts[1].grad_fn
    assert [p.output_nr for p in parts] == [0, 1]
    assert name(y.chunk(2)[1]) == "SplitBackward0"
    assert name(y.split([1, 1])[0]) == "SplitWithSizesBackward0"
    assert name(y.unbind()[0]) == "UnbindBackward0"
    assert name(y.split(5)[0]) == "SplitBackward0"
    # only some outputs used: the others get zero gradient
    (parts[1] * 3).sum().backward()
    assert x.grad.tolist() == [[0.0] * 4, [3.0] * 4]


def test_multi_output_views_refuse_in_place(x):
    y = x * 1
    a, b = y.split(1)
    with pytest.raises(RuntimeError, match=r"^Output 1 of Split is a view and is being modified inplace\. This view is the output of a function that returns multiple views\."):
        b.add_(1)
    with pytest.raises(RuntimeError, match=r"^Output 0 of Unbind is a view"):
        y.unbind(1)[0].zero_()
    # a view of a multi-output view inherits the rule, named after its own node
    with pytest.raises(RuntimeError, match=r"^Output 0 of Select is a view"):
        a[0].mul_(2)
    # without grad the write is allowed
    with torch.no_grad():
        b.mul_(2)
    c = torch.ones(4, 3)
    p, _ = c.split(2)
    p.add_(1)
    assert c[0, 0].item() == 2.0


def test_reshape_view_alias_and_copy(x):
    assert name(x.reshape(8)) == "ViewBackward0"
    t = x.t()
    assert name(t.reshape(4, 2)) == "ReshapeAliasBackward0"
    r = t.reshape(8)
    assert name(r) == "UnsafeViewBackward0"
    assert type(r.grad_fn.next_functions[0][0]).__name__ == "CloneBackward0"
    assert x.flatten(1, 1) is x


def test_matmul_composes_as_aten(x):
    a3 = torch.randn(2, 3, 4, requires_grad=True)
    assert name(a3 @ torch.randn(4, 5)) == "UnsafeViewBackward0"
    assert name(a3 @ torch.randn(4)) == "UnsafeViewBackward0"
    assert name(torch.randn(5, 3) @ a3) == "UnsafeViewBackward0"
    assert name(torch.randn(5, 3, requires_grad=True) @ torch.randn(2, 3, 4)) == "CloneBackward0"
    assert name(torch.randn(1, 4, requires_grad=True) @ torch.randn(2, 4, 3)) == "TransposeBackward0"
    assert name(torch.randn(4, requires_grad=True) @ torch.randn(4, 2)) == "SqueezeBackward4"
    # values agree with the batched definition
    a, b = torch.randn(5, 3, requires_grad=True), torch.randn(2, 3, 4)
    out = a @ b
    ref = torch.stack([a @ b[0], a @ b[1]])
    assert torch.allclose(out, ref, atol=1e-6)


def test_norm_is_one_node_for_every_p(x):
    for p in (2, 1, 3, 0.5, 0, float("inf"), -float("inf")):
        assert name(x.norm(p=p)) == "LinalgVectorNormBackward0"
    v = torch.tensor([3.0, -4.0, 4.0], requires_grad=True)
    v.norm(p=float("inf")).backward()
    assert v.grad.tolist() == [0.0, -0.5, 0.5]  # ties split evenly, sign kept
    v.grad = None
    v.norm(p=1).backward()
    assert v.grad.tolist() == [1.0, -1.0, 1.0]
    v.grad = None
    v.norm(p=3).backward()
    n = (27 + 64 + 64) ** (1 / 3)
    assert all(math.isclose(g, s * a * a / n ** 2, rel_tol=1e-5) for g, s, a in zip(v.grad.tolist(), (1, -1, 1), (3, 4, 4)))
    assert x.norm(dtype=torch.float64).dtype == torch.float64
    with pytest.raises(RuntimeError, match="dtype should be floating point"):
        x.norm(dtype=torch.int64)


def test_other_overload_names(x):
    assert name(x.masked_fill(x > 0, 1.0)) == "MaskedFillBackward0"
    assert name(x.masked_fill(x > 0, torch.tensor(1.0))) == "MaskedFillBackward1"
    assert name(x.round()) == "RoundBackward0"
    assert name(x.round(decimals=0)) == "RoundBackward1"
    assert name(x.div(2)) == "DivBackward0"
    assert name(x.div(2, rounding_mode=None)) == "DivBackward2"
    assert name(torch.div(x, torch.ones(4), rounding_mode=None)) == "DivBackward2"
    with pytest.raises(TypeError, match=r"^div\(\) received an invalid combination of arguments - got \(int, mode=NoneType\)"):
        x.div(2, mode=None)


def test_tuple_keys_skip_full_slices(x):
    assert name(x[:]) == "SliceBackward0"
    assert name(x[:, :]) == "AliasBackward0"
    assert name(x[0:2, 0:10]) == "AliasBackward0"
    assert name(x[:, -100:]) == "SliceBackward0"
    assert name(x[0, :]) == "SelectBackward0"
    assert tuple(x[..., 0, ...].shape) == (2,)
    assert tuple(x[..., ...].shape) == (2, 4)


def test_elementwise_results_keep_the_operands_layout():
    a = torch.randn(3, 4).t()
    assert a.stride() == (1, 4)
    assert (a * 2).stride() == (1, 4)
    assert (a + torch.randn(4, 3)).stride() == (1, 4)   # the first operand decides
    assert (torch.randn(4, 3) + a).stride() == (3, 1)
    assert a.exp().stride() == (1, 4)
    assert a.clone().stride() == (1, 4)
    assert a.contiguous().stride() == (3, 1)
    assert a.to(torch.float64).stride() == (1, 4)
    with pytest.raises(RuntimeError, match="view size is not compatible"):
        (a * 2).view(-1)
    assert (a * 2).reshape(-1).tolist() == (a * 2).contiguous().view(-1).tolist()
    p = torch.randn(2, 3, 4).permute(2, 0, 1)
    assert (p + 1).stride() == p.stride()
    assert torch.where(a > 0, a, 0.0).stride() == (1, 4)


def test_in_place_through_a_view_of_a_non_contiguous_base():
    # a base that is transposed (or starts past offset 0) takes writes through its views
    w = torch.randn(3, 4)
    x = w.t().detach().requires_grad_()       # a leaf with strides (1, 4)
    y = x * 1                                 # keeps the transposed layout
    y[1].mul_(10)
    y.sum().backward()
    expect = [[1.0] * 3, [10.0] * 3, [1.0] * 3, [1.0] * 3]
    assert x.grad.tolist() == expect
    z = torch.arange(12.0).reshape(3, 4)[1:].detach().requires_grad_()   # offset 4
    u = z * 1
    u[:, 1].zero_()
    u.sum().backward()
    assert z.grad.tolist() == [[1.0, 0.0, 1.0, 1.0], [1.0, 0.0, 1.0, 1.0]]


def test_fills_and_copies_into_expanded_memory():
    e = torch.zeros(3).expand(2, 3)
    e.fill_(2.0)
    e.zero_()
    e[0] = torch.ones(3)
    assert e.tolist() == [[1.0] * 3, [1.0] * 3]
    with pytest.raises(RuntimeError, match="more than one element of the written-to tensor"):
        e.add_(1)


def test_zero_size_tensors_are_contiguous():
    z = torch.zeros(0, 1).expand(0, 3)
    assert z.is_contiguous()
    assert z.contiguous() is z


def test_nonzero_layout_and_scalars():
    m = torch.tensor([[1, 0, 2], [0, 3, 0]])
    nz = m.nonzero()
    assert nz.tolist() == [[0, 0], [0, 2], [1, 1]]
    assert nz.stride() == (1, 3)
    assert [t.tolist() for t in m.nonzero(as_tuple=True)] == [[0, 0, 1], [0, 2, 1]]
    assert tuple(torch.tensor(2.5).nonzero().shape) == (1, 0)
    assert tuple(torch.tensor(0.0).nonzero().shape) == (0, 0)
    assert [t.tolist() for t in torch.where(torch.tensor(3))] == [[0]]


def test_integer_matmul_wraps_like_int64():
    a = torch.tensor([[2 ** 62, 3]])
    b = torch.tensor([[4], [5]])
    assert (a @ b).item() == 15   # 2**62 * 4 wraps to 0, as in two's complement
    assert (torch.tensor([[2 ** 31 - 1]], dtype=torch.int32) @ torch.tensor([[2]], dtype=torch.int32)).item() == -2


def test_nan_propagates():
    assert math.isnan(torch.tensor([float("nan")]).tanh().item())
    x = torch.tensor([1.0, 2.0])
    r = x.clamp(torch.tensor([0.0, 0.0]), torch.tensor([float("nan"), 5.0]))
    assert math.isnan(r[0].item()) and r[1].item() == 2.0


def test_float32_variance_does_not_overflow():
    x = torch.tensor([1e30, -1e30, 0.0, 1.0])
    assert math.isfinite(x.std().item())
    assert math.isclose(x.std().item(), 1e30 * math.sqrt(2 / 3), rel_tol=1e-5)


def test_dtype_and_argument_errors():
    b = torch.tensor([True, False])
    with pytest.raises(NotImplementedError, match="\"bitwise_and_cpu\" not implemented for 'Float'"):
        torch.tensor([1.0]) & torch.tensor([1.0])
    with pytest.raises(NotImplementedError, match="\"pow\" not implemented for 'Bool'"):
        b ** b
    with pytest.raises(NotImplementedError, match="\"remainder_cpu\" not implemented for 'Bool'"):
        b % b
    with pytest.raises(NotImplementedError, match="\"bmm\" not implemented for 'Bool'"):
        torch.bmm(b[None, None], b[None, :, None].float())
    with pytest.raises(TypeError, match=r"^maximum\(\): argument 'other' \(position 1\) must be Tensor, not int$"):
        torch.ones(2).maximum(3)
    with pytest.raises(TypeError, match=r"^logical_and\(\): argument 'other' \(position 2\) must be Tensor, not float$"):
        torch.logical_and(torch.ones(2), 1.5)
    with pytest.raises(TypeError, match='flip\\(\\) missing 1 required positional arguments: "dims"'):
        torch.ones(2).flip()
    with pytest.raises(TypeError, match='expand\\(\\) missing 1 required positional arguments: "size"'):
        torch.ones(2).expand()
    with pytest.raises(TypeError, match="view\\(\\) received an invalid combination of arguments"):
        torch.ones(2).view()
    with pytest.raises(RuntimeError, match="^std and var only support floating point and complex dtypes$"):
        torch.tensor([1, 2]).std()
    with pytest.raises(RuntimeError, match="^Autograd not support dtype: Long$"):
        torch.ones(3, requires_grad=True).cumsum(0, dtype=torch.int64)
    with pytest.raises(RuntimeError, match="^Autograd not support dtype: Long$"):
        torch.ones(3, requires_grad=True).sum(dtype=torch.int64)
    with pytest.raises(RuntimeError, match="can't be cast to the desired output type long int"):
        torch.tensor([1, 2]).clamp_(0.5)
    with pytest.raises(IndexError, match="^select\\(\\) cannot be applied to a 0-dim tensor.$"):
        torch.tensor(1.0).select(0, 0)
    with pytest.raises(IndexError, match="^index is out of bounds for dimension with size 0$"):
        torch.zeros(0)[[0]]
    with pytest.raises(RuntimeError, match="^output with shape \\[3\\] doesn't match the broadcast shape \\[2, 3\\]$"):
        torch.zeros(3).copy_(torch.ones(2, 3))
    with pytest.raises(RuntimeError, match="^vector \\+ matrix @ vector expected, got 1, 2, 2$"):
        torch.mv(torch.ones(2, 2), torch.ones(2, 2))
    with pytest.raises(RuntimeError, match="^index_select\\(\\): Index to scalar can have only 1 value, got 2 value\\(s\\)$"):
        torch.tensor(1.0).index_select(0, torch.tensor([0, 0]))
    with pytest.raises(IndexError, match="^index out of range in self$"):
        torch.ones(3, 2).index_select(0, torch.tensor([5]))
    with pytest.raises(RuntimeError, match="^INDICES element is out of DATA bounds, id=5 axis_dim=2$"):
        torch.ones(3, 2).index_select(1, torch.tensor([5]))


def test_matrix_transpose_attributes():
    with pytest.raises(RuntimeError, match="^tensor.mT is only supported on matrices or batches of matrices. Got 1-D tensor.$"):
        torch.ones(3).mT
    s = torch.tensor(2.0)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        assert s.mT is s and s.mH is s
    assert any("Tensor.mT is deprecated on 0-D tensors" in str(m.message) for m in w)
    assert tuple(torch.ones(2, 3, 4).mH.shape) == (2, 4, 3)
    with pytest.raises(RuntimeError, match="For batches of matrices, consider using tensor.mH"):
        torch.ones(2, 3, 4).H
    assert name(torch.randn((), requires_grad=True).transpose(0, 0)) == "TransposeBackward0"


def test_bool_plus_scaled_number_is_float32():
    assert torch.tensor(True).add(1.5, alpha=0.5).dtype == torch.float32
