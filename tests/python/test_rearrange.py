"""torch.func.rearrange (functorch's einops-style rearrange): shapes, values, dtypes, gradients
and error messages, all recorded from PyTorch 2.13. Written as ``import ferrograd as torch``:
the same file passes under PyTorch with ferrograd replaced by torch."""

import re
import warnings

import pytest

import ferrograd as torch

try:
    from ferrograd.func import rearrange
except ImportError:  # ferrograd.func re-exports it once its __init__ imports the module
    from ferrograd.func._rearrange import rearrange


def x24():
    return torch.arange(24.).reshape(2, 3, 4)


@pytest.mark.parametrize("pattern, lengths, shape, head", [
    ("b h w -> b h w", {}, (2, 3, 4), list(range(12))),
    ("b h w -> (b h) w", {}, (6, 4), list(range(12))),
    ("b h w -> w b h", {}, (4, 2, 3), [0, 4, 8, 12, 16, 20, 1, 5, 9, 13, 17, 21]),
    ("b (h1 h) w -> b h1 h w", {"h1": 3}, (2, 3, 1, 4), list(range(12))),
    ("b h (w1 w) -> (b w1) h w", {"w1": 2}, (4, 3, 2), [0, 1, 4, 5, 8, 9, 2, 3, 6, 7, 10, 11]),
    ("... w -> w ...", {}, (4, 2, 3), [0, 4, 8, 12, 16, 20, 1, 5, 9, 13, 17, 21]),
    ("b ... -> b (...)", {}, (2, 12), list(range(12))),
    ("b h w -> b h w 1", {}, (2, 3, 4, 1), list(range(12))),
    ("b h w -> 1 b 1 h w ()", {}, (1, 2, 1, 3, 4, 1), list(range(12))),
    ("b h w -> b (h w) ()", {}, (2, 12, 1), list(range(12))),
    ("b (h 1) w -> b h w", {}, (2, 3, 4), list(range(12))),
    ("b h w->b h w", {}, (2, 3, 4), list(range(12))),
    ("b h w -> b h w", {"b": 2}, (2, 3, 4), list(range(12))),
])
def test_patterns(pattern, lengths, shape, head):
    r = rearrange(x24(), pattern, **lengths)
    assert tuple(r.shape) == shape
    assert r.flatten().tolist()[:12] == [float(v) for v in head]


def test_full_values_and_inverse():
    x = x24()
    r = rearrange(x, "b (h1 h) (w1 w) -> (b h1 w1) h w", h1=3, w1=2)
    assert tuple(r.shape) == (12, 1, 2)
    assert r.flatten().tolist() == [0., 1., 2., 3., 4., 5., 6., 7., 8., 9., 10., 11., 12., 13., 14., 15., 16., 17.,
                                    18., 19., 20., 21., 22., 23.]
    r = rearrange(x, "b h w -> h (w b)")
    assert r.tolist() == [[0., 12., 1., 13., 2., 14., 3., 15.], [4., 16., 5., 17., 6., 18., 7., 19.],
                          [8., 20., 9., 21., 10., 22., 11., 23.]]
    back = rearrange(r, "h (w b) -> b h w", b=2)
    assert back.tolist() == x.tolist()


def test_unitary_anonymous_axis_on_the_left_is_summed():
    # PyTorch sums over the left side's unitary anonymous axes (whatever their size)
    x = torch.arange(30).reshape(2, 5, 3)
    r = rearrange(x, "a 1 b -> b a")
    assert r.dtype == torch.int64
    assert r.tolist() == [[30, 105], [35, 110], [40, 115]]
    assert rearrange(x.int(), "a () b -> b a").dtype == torch.int64
    assert rearrange(torch.ones(2, 1, 3), "a () b -> b a").tolist() == [[1., 1.], [1., 1.], [1., 1.]]
    r = rearrange(x.bool(), "a b c -> c (a b)")
    assert r.dtype == torch.bool and tuple(r.shape) == (3, 10)


def test_sequence_of_tensors_is_stacked():
    r = rearrange([torch.ones(2, 3), torch.zeros(2, 3)], "n a b -> a (n b)")
    assert r.tolist() == [[1., 1., 1., 0., 0., 0.], [1., 1., 1., 0., 0., 0.]]
    z = rearrange((torch.ones(2), torch.zeros(2), torch.ones(2)), "n k -> k n")
    assert z.tolist() == [[1., 0., 1.], [1., 0., 1.]]


def test_zero_dim_and_empty():
    s = torch.tensor(5.)
    assert rearrange(s, " -> ") is s
    assert rearrange(s, "... -> ...") is s
    assert tuple(rearrange(s, "-> 1 1").shape) == ()  # PyTorch: identity for a 0-d pattern
    assert tuple(rearrange(torch.ones(0, 4), "a (b c) -> c a b", c=2).shape) == (2, 0, 2)


def test_gradients():
    y = torch.arange(24.).reshape(2, 3, 4).requires_grad_()
    w = torch.arange(24.).reshape(4, 2, 3)
    (rearrange(y, "b h w -> w b h") * w).sum().backward()
    assert y.grad.tolist() == [[[0., 6., 12., 18.], [1., 7., 13., 19.], [2., 8., 14., 20.]],
                               [[3., 9., 15., 21.], [4., 10., 16., 22.], [5., 11., 17., 23.]]]
    y.grad = None
    out = rearrange(y, "b (h 1) (w1 w) -> (w1 b) () h w", w1=2)
    assert tuple(out.shape) == (4, 1, 3, 2) and out.grad_fn is not None
    out.pow(2).sum().backward()
    assert y.grad.tolist() == (2 * y.detach()).tolist()


@pytest.mark.parametrize("pattern, lengths, err, msg", [
    ("b h w -> b h", {}, ValueError, "Identifiers only on one side of rearrange expression (should be on both): {'w'}"),
    ("b h -> b h", {}, ValueError,
     "Number of dimensions in pattern (2) must be equal to the number of dimensions in the tensor (3)"),
    ("a b c d ... -> a b c d ...", {}, ValueError,
     "Number of dimensions in pattern (4) must be less than or equal to the number of dimensions in the tensor (3)"),
    ("b h w -> b h w", {"q": 3}, ValueError, "Identifiers not found in rearrange expression: {'q'}"),
    ("b h w -> b 2 h w", {}, ValueError, "rearrange only supports unnamed axes of size 1"),
    ("b h w b -> b", {}, ValueError, "Indexing expression contains duplicate dimension 'b'"),
    ("b h w", {}, ValueError, "Pattern must contain a single '->' separator"),
    ("b h w -> (b (h w))", {}, ValueError, "Axis composition is one-level (brackets inside brackets not allowed)"),
    ("b h w -> b h w)", {}, ValueError, "Brackets are not balanced"),
    ("b h w -> b h w .. ", {}, ValueError, "Expression may contain dots only inside ellipsis (...)"),
    ("b ... -> b ... ...", {}, ValueError,
     "Expression may contain dots only inside ellipsis (...); only one ellipsis for tensor "),
    ("b h w -> b ... h w", {}, ValueError,
     "Ellipsis found in right side, but not left side of a pattern b h w -> b ... h w"),
    ("(b ...) -> b", {}, ValueError, "Ellipsis is parenthesis in the left side is not allowed: (b ...) -> b"),
    ("b h w -> _b h w", {}, ValueError, "Invalid axis identifier: _b\naxis name should should not start or end with underscore"),
    ("b h w -> b h w+", {}, ValueError, "Unknown character '+'"),
    ("b h w -> b h (w", {}, ValueError, "Imbalanced parentheses in expression: ' b h (w'"),
    ("b h w -> b h w", {"\u2026": 2}, ValueError, "'\u2026' is not an allowed axis identifier"),
    ("b 0 w -> b w", {}, ValueError, "Anonymous axis should have positive length, not 0"),
    ("b h w -> b h w", {"h": 3.5}, TypeError, "rearrange axis lengths must be integers, got: <class 'float'>"),
])
def test_pattern_errors(pattern, lengths, err, msg):
    with pytest.raises(err, match="^" + re.escape(msg) + "$"):
        rearrange(x24(), pattern, **lengths)


@pytest.mark.parametrize("pattern, lengths, msg", [
    ("b (h1 h) w -> b h1 h w", {}, "cannot infer the sizes of two dimensions at once d1 and d2"),
    ("b (h1 h) w -> b h1 h w", {"h1": 2}, "inferred dimension does not evenly fit into larger dimension: 3 vs (2, '?')"),
    ("b h w -> b h w", {"b": 3}, "Dimension sizes to do not match (2 != 3) when matching dimension pack (d0,)"),
    ("b h (w1 w) -> b h w1 w", {"w1": 3}, "inferred dimension does not evenly fit into larger dimension: 4 vs (3, '?')"),
    ("b h (w1 w) -> b h w1 w", {"w1": 2, "w": 3},
     "Dimension sizes to do not match (4 != 6) when matching dimension pack (d2, d3)"),
])
def test_size_binding_errors(pattern, lengths, msg):
    # PyTorch raises functorch.dim.DimensionBindError (an Exception subclass)
    with pytest.raises(Exception, match="^" + re.escape(msg) + "$") as info:
        rearrange(x24(), pattern, **lengths)
    assert type(info.value).__name__ == "DimensionBindError"


def test_identifier_warnings():
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        r = rearrange(torch.ones(2, 3), "axis lambda -> lambda axis")
    assert tuple(r.shape) == (3, 2)
    got = sorted((c.category.__name__, str(c.message)) for c in w)
    assert ("FutureWarning", "It is discouraged to use 'axis' as an axis name and will raise an error in future") in got
    assert ("RuntimeWarning", "It is discouraged to use axes names that are keywords: lambda") in got
