"""``torch.func.rearrange``: einops-style rearrangement of a tensor's axes (functorch's
``functorch.einops.rearrange``), built on ``reshape``/``permute``.

PyTorch computes it with first-class dimensions (``functorch.dim``); here the same pattern is
turned into one reshape onto the elementary axes, one permute, a sum over the left side's
unitary anonymous axes (``1`` / ``()``, as PyTorch does) and one reshape into the right side's
groups. Values, shapes, dtypes, gradients and error messages are PyTorch's; the binding errors
PyTorch raises as ``functorch.dim.DimensionBindError`` are raised as
``ferrograd.func._rearrange.DimensionBindError`` (also an ``Exception`` subclass, same text).

The pattern parser follows functorch's ``_parsing.py`` (itself adapted from einops, MIT
License, Copyright (c) 2018 Alex Rogozhnikov) so that every message matches.
"""

import functools
import keyword
import warnings

__all__ = ["rearrange"]

_ellipsis = "\u2026"  # one unicode symbol: a string, not a list, but iterable


class DimensionBindError(Exception):
    """A pattern's axes do not fit the tensor's sizes (``functorch.dim.DimensionBindError``)."""


class AnonymousAxis:
    """An axis with a size but no name (``2`` in ``"b 2 h"``); instances never compare equal."""

    def __init__(self, value):
        self.value = int(value)
        if self.value < 1:
            raise ValueError(f"Anonymous axis should have positive length, not {self.value}")

    def __repr__(self):
        return f"{self.value}-axis"


class ParsedExpression:
    """One side of a pattern: its identifiers and its composition (a list of groups, each a
    list of identifiers; ``_ellipsis`` for an ellipsis outside brackets)."""

    def __init__(self, expression, *, allow_underscore=False, allow_duplicates=False):
        self.has_ellipsis = False
        self.has_ellipsis_parenthesized = None
        self.identifiers = set()
        self.has_non_unitary_anonymous_axes = False
        self.composition = []
        if "." in expression:
            if "..." not in expression:
                raise ValueError("Expression may contain dots only inside ellipsis (...)")
            if str.count(expression, "...") != 1 or str.count(expression, ".") != 3:
                raise ValueError(
                    "Expression may contain dots only inside ellipsis (...); only one ellipsis for tensor ")
            expression = expression.replace("...", _ellipsis)
            self.has_ellipsis = True

        bracket_group = None

        def add_axis_name(x):
            if x in self.identifiers:
                if not (allow_underscore and x == "_") and not allow_duplicates:
                    raise ValueError(f"Indexing expression contains duplicate dimension '{x}'")
            if x == _ellipsis:
                self.identifiers.add(_ellipsis)
                if bracket_group is None:
                    self.composition.append(_ellipsis)
                    self.has_ellipsis_parenthesized = False
                else:
                    bracket_group.append(_ellipsis)
                    self.has_ellipsis_parenthesized = True
                return
            is_number = str.isdecimal(x)
            if is_number and int(x) == 1:
                # an anonymous axis of length 1: an empty group (ignored inside brackets)
                if bracket_group is None:
                    self.composition.append([])
                return
            is_axis_name, reason = self.check_axis_name_return_reason(x, allow_underscore=allow_underscore)
            if not (is_number or is_axis_name):
                raise ValueError(f"Invalid axis identifier: {x}\n{reason}")
            axis_name = AnonymousAxis(x) if is_number else x
            self.identifiers.add(axis_name)
            if is_number:
                self.has_non_unitary_anonymous_axes = True
            if bracket_group is None:
                self.composition.append([axis_name])
            else:
                bracket_group.append(axis_name)

        current_identifier = None
        for char in expression:
            if char in "() ":
                if current_identifier is not None:
                    add_axis_name(current_identifier)
                current_identifier = None
                if char == "(":
                    if bracket_group is not None:
                        raise ValueError("Axis composition is one-level (brackets inside brackets not allowed)")
                    bracket_group = []
                elif char == ")":
                    if bracket_group is None:
                        raise ValueError("Brackets are not balanced")
                    self.composition.append(bracket_group)
                    bracket_group = None
            elif str.isalnum(char) or char in ("_", _ellipsis):
                current_identifier = char if current_identifier is None else current_identifier + char
            else:
                raise ValueError(f"Unknown character '{char}'")

        if bracket_group is not None:
            raise ValueError(f"Imbalanced parentheses in expression: '{expression}'")
        if current_identifier is not None:
            add_axis_name(current_identifier)

    @staticmethod
    def check_axis_name_return_reason(name, allow_underscore=False):
        """``(valid, reason)``: axis names are Python identifiers, not starting or ending with an
        underscore (keywords and ``axis`` are accepted with a warning)."""
        if not str.isidentifier(name):
            return False, "not a valid python identifier"
        if name[0] == "_" or name[-1] == "_":
            if name == "_" and allow_underscore:
                return True, ""
            return False, "axis name should should not start or end with underscore"
        if keyword.iskeyword(name):
            warnings.warn(f"It is discouraged to use axes names that are keywords: {name}", RuntimeWarning)
        if name == "axis":
            warnings.warn("It is discouraged to use 'axis' as an axis name and will raise an error in future",
                          FutureWarning)
        return True, ""


def _parse_pattern(pattern, axes_lengths):
    try:
        left_str, right_str = pattern.split("->")
    except ValueError:
        raise ValueError("Pattern must contain a single '->' separator") from None
    if _ellipsis in axes_lengths:
        raise ValueError(f"'{_ellipsis}' is not an allowed axis identifier")
    left = ParsedExpression(left_str)
    right = ParsedExpression(right_str)
    if not left.has_ellipsis and right.has_ellipsis:
        raise ValueError(f"Ellipsis found in right side, but not left side of a pattern {pattern}")
    if left.has_ellipsis and left.has_ellipsis_parenthesized:
        raise ValueError(f"Ellipsis is parenthesis in the left side is not allowed: {pattern}")
    return left, right


def _validate(left, right, axes_lengths):
    for length in axes_lengths.values():
        if (length_type := type(length)) is not int:
            raise TypeError(f"rearrange axis lengths must be integers, got: {length_type}")
    if left.has_non_unitary_anonymous_axes or right.has_non_unitary_anonymous_axes:
        raise ValueError("rearrange only supports unnamed axes of size 1")
    difference = set.symmetric_difference(left.identifiers, right.identifiers)
    if len(difference) > 0:
        raise ValueError(f"Identifiers only on one side of rearrange expression (should be on both): {difference}")
    unmatched_axes = axes_lengths.keys() - left.identifiers
    if len(unmatched_axes) > 0:
        raise ValueError(f"Identifiers not found in rearrange expression: {unmatched_axes}")


class _Dim:
    """An elementary axis ``d<i>``: its name (as PyTorch's messages print it) and size."""

    __slots__ = ("name", "size")

    def __init__(self, name):
        self.name = name
        self.size = None

    def __repr__(self):
        return self.name


def _bind(sz, dims):
    """Bind the axes of one left-side group (packed into a tensor dim of size ``sz``); the
    checks and messages of functorch.dim's ``_bind_dims_to_size``."""
    rhs_prod = 1
    for i, dim in enumerate(dims):
        if dim.size is None:
            for j in range(i + 1, len(dims)):
                if dims[j].size is None:
                    raise DimensionBindError(
                        f"cannot infer the sizes of two dimensions at once {dim!r} and {dims[j]!r}")
                rhs_prod *= dims[j].size
            if sz % rhs_prod != 0:
                tup = tuple(d.size if d.size is not None else "?" for d in dims)
                raise DimensionBindError(f"inferred dimension does not evenly fit into larger dimension: {sz} vs {tup}")
            dim.size = sz // rhs_prod
            rhs_prod = sz
            break
        rhs_prod *= dim.size
    if rhs_prod != sz:
        raise DimensionBindError(
            f"Dimension sizes to do not match ({sz} != {rhs_prod}) when matching dimension pack {tuple(dims)}")


@functools.lru_cache(256)
def _plan(tensor_ndim, pattern, axes_items):
    """The pattern as index lists over the elementary axes: ``(n_dims, left, right, anon,
    lengths)``; ``left``/``right`` hold one entry per group (a tuple of axis indices, or an int
    for an axis of the left ellipsis, which binds alone)."""
    axes_lengths = dict(axes_items)
    left, right = _parse_pattern(pattern, axes_lengths)
    _validate(left, right, axes_lengths)

    n_anon_dims = sum(not dim for dim in left.composition)
    if left.has_ellipsis:
        n_ellipsis_dims = tensor_ndim - (len(left.composition) - 1)
        n_named_dims = len(left.identifiers) - 1
        if (pattern_ndim := n_anon_dims + n_named_dims) > tensor_ndim:
            raise ValueError(
                f"Number of dimensions in pattern ({pattern_ndim}) must be less than or equal to the number of "
                f"dimensions in the tensor ({tensor_ndim})")
    else:
        n_ellipsis_dims = 0
        n_named_dims = len(left.identifiers)
        if (pattern_ndim := len(left.composition)) != tensor_ndim:
            raise ValueError(
                f"Number of dimensions in pattern ({pattern_ndim}) must be equal to the number of dimensions in "
                f"the tensor ({tensor_ndim})")
    n_dims = n_named_dims + n_ellipsis_dims + n_anon_dims
    if n_dims == 0:
        return None  # an identity rearrangement of a 0-dimensional tensor

    ident = {}
    anon = []
    i = 0
    left_groups = []
    for dimension in left.composition:
        if isinstance(dimension, list):
            group = []
            for identifier in dimension:
                ident[identifier] = (i,)
                group.append(i)
                i += 1
            if not dimension:  # a unitary anonymous axis: summed over, as in PyTorch
                anon.append(i)
                group.append(i)
                i += 1
            left_groups.append(tuple(group))
        else:  # the ellipsis: one entry per axis it covers
            ident[_ellipsis] = tuple(range(i, i + n_ellipsis_dims))
            left_groups.extend(range(i, i + n_ellipsis_dims))
            i += n_ellipsis_dims

    right_groups = []
    for dimension in right.composition:
        if isinstance(dimension, list):
            right_groups.append(tuple(d for identifier in dimension for d in ident[identifier]))
        else:
            right_groups.extend(ident[_ellipsis])
    lengths = tuple((ident[name][0], length) for name, length in axes_lengths.items())
    return n_dims, tuple(left_groups), tuple(right_groups), tuple(anon), lengths


def rearrange(tensor, pattern, **axes_lengths):
    """Reorder, merge and split the axes of ``tensor`` as an einops pattern says
    (``torch.func.rearrange``, functorch's native ``einops.rearrange``).

    ``pattern`` is ``"<left> -> <right>"``: the left side names the tensor's dims (a group
    ``(h1 h)`` splits one dim into several axes, ``...`` stands for the dims not named, ``1`` or
    ``()`` is a dim of size 1), the right side arranges the same names (a group merges axes,
    ``1``/``()`` inserts a dim of size 1). ``axes_lengths`` gives the sizes that splitting needs
    (``h1=2``). A list or tuple of tensors is stacked along a new first dim first.

    ``tensor`` is a tensor, or a sequence of tensors of one shape; ``pattern`` the
    rearrangement pattern, e.g. ``"b (h1 h) w c -> (b h1) h w c"``; ``**axes_lengths`` the
    sizes of axes that cannot be inferred. The result is the rearranged tensor
    (differentiable; made of reshape and permute, a view where the layout allows).

    Example::

        >>> images = torch.randn(32, 30, 40, 3)
        >>> rearrange(images, "b h w c -> b c h w").shape
        torch.Size([32, 3, 30, 40])
        >>> rearrange(images, "b (h1 h) (w1 w) c -> (b h1 w1) h w c", h1=2, w1=2).shape
        torch.Size([128, 15, 20, 3])
    """
    import ferrograd

    if not isinstance(tensor, ferrograd.Tensor):
        tensor = ferrograd.stack(tensor)
    plan = _plan(tensor.ndim, pattern, tuple(axes_lengths.items()))
    if plan is None:
        return tensor
    n_dims, left_groups, right_groups, anon, lengths = plan

    dims = [_Dim(f"d{i}") for i in range(n_dims)]
    for i, length in lengths:
        dims[i].size = length
    for sz, group in zip(tensor.shape, left_groups):
        if isinstance(group, int):  # an ellipsis axis: a fresh dim bound to the size
            dims[group].size = sz
        else:
            _bind(sz, [dims[i] for i in group])

    out = tensor.reshape([d.size for d in dims])
    order = [i for g in right_groups for i in ((g,) if isinstance(g, int) else g)]
    out = out.permute(order + list(anon))
    if anon:
        out = out.sum(dim=tuple(range(len(order), len(order) + len(anon))))
    shape = []
    for g in right_groups:
        if isinstance(g, int):
            shape.append(dims[g].size)
        else:
            shape.append(functools.reduce(lambda a, i: a * dims[i].size, g, 1))
    return out.reshape(shape)


rearrange.__module__ = "ferrograd.func"
