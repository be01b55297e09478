"""``torch.testing``: ``assert_close`` (PyTorch's comparison semantics and failure messages),
``make_tensor`` (PyTorch's algorithm on the global generator, so seeded tensors match
PyTorch's) and the deprecated ``assert_allclose``."""

import abc
import cmath
import collections.abc
import contextlib
import functools
import math
import warnings

import ferrograd as torch

try:
    import numpy as _np
except ImportError:  # pragma: no cover - numpy is optional
    _np = None

__all__ = ["assert_allclose", "assert_close", "make_tensor"]


def _dtypes(*names):
    return [getattr(torch, n) for n in names if hasattr(torch, n)]


class _ErrorMeta(Exception):
    """A failure found while comparing: the exception type, its message and where it occurred."""

    def __init__(self, type, msg, *, id=()):
        super().__init__("internal comparison error; raise ErrorMeta.to_error() instead")
        self.type = type
        self.msg = msg
        self.id = id

    def to_error(self, msg=None):
        """The user-facing exception (``msg`` replaces, or as a callable rewrites, the message)."""
        if not isinstance(msg, str):
            generated = self.msg
            if self.id:
                generated += f"\n\nThe failure occurred for item {''.join(str([item]) for item in self.id)}"
            msg = msg(generated) if callable(msg) else generated
        return self.type(msg)


# {dtype: (rtol, atol)}
_DTYPE_PRECISIONS = {}
for _names, _tol in ((("float16",), (0.001, 1e-5)), (("bfloat16",), (0.016, 1e-5)), (("float32",), (1.3e-6, 1e-5)),
                     (("float64",), (1e-7, 1e-7)), (("complex32",), (0.001, 1e-5)), (("complex64",), (1.3e-6, 1e-5)),
                     (("complex128",), (1e-7, 1e-7))):
    for _dt in _dtypes(*_names):
        _DTYPE_PRECISIONS[_dt] = _tol


def _default_tolerances(*inputs, dtype_precisions=None):
    dtypes = []
    for input in inputs:
        if isinstance(input, torch.Tensor):
            dtypes.append(input.dtype)
        elif isinstance(input, torch.dtype):
            dtypes.append(input)
        else:
            raise TypeError(f"Expected a torch.Tensor or a torch.dtype, but got {type(input)} instead.")
    dtype_precisions = dtype_precisions or _DTYPE_PRECISIONS
    rtols, atols = zip(*[dtype_precisions.get(dtype, (0.0, 0.0)) for dtype in dtypes])
    return max(rtols), max(atols)


def _get_tolerances(*inputs, rtol, atol, id=()):
    if (rtol is None) ^ (atol is None):
        raise _ErrorMeta(
            ValueError,
            f"Both 'rtol' and 'atol' must be either specified or omitted, "
            f"but got no {'rtol' if rtol is None else 'atol'}.",
            id=id,
        )
    if rtol is not None and atol is not None:
        return rtol, atol
    return _default_tolerances(*inputs)


def _make_mismatch_msg(*, default_identifier, identifier=None, extra=None, abs_diff, abs_diff_idx=None, atol,
                       rel_diff, rel_diff_idx=None, rtol):
    equality = rtol == 0 and atol == 0

    def make_diff_msg(*, type, diff, idx, tol):
        if idx is None:
            msg = f"{type.title()} difference: {diff}"
        else:
            msg = f"Greatest {type} difference: {diff} at index {idx}"
        if not equality:
            msg += f" (up to {tol} allowed)"
        return msg + "\n"

    if identifier is None:
        identifier = default_identifier
    elif callable(identifier):
        identifier = identifier(default_identifier)
    msg = f"{identifier} are not {'equal' if equality else 'close'}!\n\n"
    if extra:
        msg += f"{extra.strip()}\n"
    msg += make_diff_msg(type="absolute", diff=abs_diff, idx=abs_diff_idx, tol=atol)
    msg += make_diff_msg(type="relative", diff=rel_diff, idx=rel_diff_idx, tol=rtol)
    return msg.strip()


def _make_scalar_mismatch_msg(actual, expected, *, rtol, atol, identifier=None):
    abs_diff = abs(actual - expected)
    rel_diff = float("inf") if expected == 0 else abs_diff / abs(expected)
    return _make_mismatch_msg(default_identifier="Scalars", identifier=identifier,
                              extra=f"Expected {expected} but got {actual}.", abs_diff=abs_diff, atol=atol,
                              rel_diff=rel_diff, rtol=rtol)


def _make_tensor_mismatch_msg(actual, expected, matches, *, rtol, atol, identifier=None):
    def unravel_flat_index(flat_index):
        if not matches.shape:
            return ()
        inverse_index = []
        for size in matches.shape[::-1]:
            div, mod = divmod(flat_index, size)
            flat_index = div
            inverse_index.append(mod)
        return tuple(inverse_index[::-1])

    number_of_elements = matches.numel()
    total_mismatches = number_of_elements - int(torch.sum(matches))
    extra = (f"Mismatched elements: {total_mismatches} / {number_of_elements} "
             f"({total_mismatches / number_of_elements:.1%})")
    actual_flat = actual.flatten()
    expected_flat = expected.flatten()
    matches_flat = matches.flatten()
    if not actual.dtype.is_floating_point and not actual.dtype.is_complex:
        actual_flat = actual_flat.to(torch.int64)
        expected_flat = expected_flat.to(torch.int64)
    abs_diff = torch.abs(actual_flat - expected_flat)
    abs_diff[matches_flat] = 0
    max_abs_diff, max_abs_diff_flat_idx = torch.max(abs_diff, 0)
    rel_diff = abs_diff / torch.abs(expected_flat)
    rel_diff[matches_flat] = 0
    max_rel_diff, max_rel_diff_flat_idx = torch.max(rel_diff, 0)
    return _make_mismatch_msg(
        default_identifier="Tensor-likes", identifier=identifier, extra=extra,
        abs_diff=max_abs_diff.item(), abs_diff_idx=unravel_flat_index(int(max_abs_diff_flat_idx)), atol=atol,
        rel_diff=max_rel_diff.item(), rel_diff_idx=unravel_flat_index(int(max_rel_diff_flat_idx)), rtol=rtol,
    )


class _UnsupportedInputs(Exception):
    """A pair type cannot handle the inputs; the next one is tried."""


class _Pair(abc.ABC):
    """A comparison of one ``actual`` with one ``expected``."""

    def __init__(self, actual, expected, *, id=(), **unknown_parameters):
        self.actual = actual
        self.expected = expected
        self.id = id
        self._unknown_parameters = unknown_parameters

    @staticmethod
    def _inputs_not_supported():
        raise _UnsupportedInputs

    @staticmethod
    def _check_inputs_isinstance(*inputs, cls):
        if not all(isinstance(input, cls) for input in inputs):
            _Pair._inputs_not_supported()

    def _fail(self, type, msg, *, id=()):
        raise _ErrorMeta(type, msg, id=self.id if not id and hasattr(self, "id") else id)

    @abc.abstractmethod
    def compare(self):
        """Raise an ``_ErrorMeta`` when the inputs mismatch."""

    def extra_repr(self):
        """Attribute names shown in the representation."""
        return []

    def __repr__(self):
        body = [f"    {name}={value!s}," for name, value in
                [("id", self.id), ("actual", self.actual), ("expected", self.expected),
                 *[(extra, getattr(self, extra)) for extra in self.extra_repr()]]]
        return "\n".join((f"{type(self).__name__}(", *body, ")"))


class _ObjectPair(_Pair):
    def compare(self):
        try:
            equal = self.actual == self.expected
        except Exception as error:
            raise _ErrorMeta(ValueError, f"{self.actual} == {self.expected} failed with:\n{error}.",
                             id=self.id) from error
        if not equal:
            self._fail(AssertionError, f"{self.actual} != {self.expected}")


class _NonePair(_Pair):
    def __init__(self, actual, expected, **other_parameters):
        if not (actual is None or expected is None):
            self._inputs_not_supported()
        super().__init__(actual, expected, **other_parameters)

    def compare(self):
        if not (self.actual is None and self.expected is None):
            self._fail(AssertionError, f"None mismatch: {self.actual} is not {self.expected}")


class _BooleanPair(_Pair):
    def __init__(self, actual, expected, *, id, **other_parameters):
        types = (bool,) if _np is None else (bool, _np.bool_)
        self._check_inputs_isinstance(actual, expected, cls=types)
        actual, expected = (v if isinstance(v, bool) else v.item() for v in (actual, expected))
        super().__init__(actual, expected, **other_parameters)

    def compare(self):
        if self.actual is not self.expected:
            self._fail(AssertionError, f"Booleans mismatch: {self.actual} is not {self.expected}")


class _NumberPair(_Pair):
    _TYPE_TO_DTYPE = {int: torch.int64, float: torch.float64, complex: torch.complex128}
    _NUMBER_TYPES = tuple(_TYPE_TO_DTYPE.keys())

    def __init__(self, actual, expected, *, id=(), rtol=None, atol=None, equal_nan=False, check_dtype=False,
                 **other_parameters):
        types = self._NUMBER_TYPES if _np is None else (*self._NUMBER_TYPES, _np.number)
        self._check_inputs_isinstance(actual, expected, cls=types)
        actual, expected = (self._to_number(v, id=id) for v in (actual, expected))
        super().__init__(actual, expected, id=id, **other_parameters)
        self.rtol, self.atol = _get_tolerances(*[self._TYPE_TO_DTYPE[type(input)] for input in (actual, expected)],
                                               rtol=rtol, atol=atol, id=id)
        self.equal_nan = equal_nan
        self.check_dtype = check_dtype

    def _to_number(self, number_like, *, id):
        if _np is not None and isinstance(number_like, _np.number):
            return number_like.item()
        if isinstance(number_like, self._NUMBER_TYPES):
            return number_like
        raise _ErrorMeta(TypeError, f"Unknown number type {type(number_like)}.", id=id)

    def compare(self):
        if self.check_dtype and type(self.actual) is not type(self.expected):
            self._fail(AssertionError, f"The (d)types do not match: {type(self.actual)} != {type(self.expected)}.")
        if self.actual == self.expected:
            return
        if self.equal_nan and cmath.isnan(self.actual) and cmath.isnan(self.expected):
            return
        abs_diff = abs(self.actual - self.expected)
        tolerance = self.atol + self.rtol * abs(self.expected)
        if cmath.isfinite(abs_diff) and abs_diff <= tolerance:
            return
        self._fail(AssertionError, _make_scalar_mismatch_msg(self.actual, self.expected, rtol=self.rtol,
                                                             atol=self.atol))

    def extra_repr(self):
        return ("rtol", "atol", "equal_nan", "check_dtype")


class _TensorLikePair(_Pair):
    def __init__(self, actual, expected, *, id=(), allow_subclasses=True, rtol=None, atol=None, equal_nan=False,
                 check_device=True, check_dtype=True, check_layout=True, check_stride=False, **other_parameters):
        directly_related = isinstance(actual, type(expected)) or isinstance(expected, type(actual))
        if not directly_related:
            self._inputs_not_supported()
        if not allow_subclasses and type(actual) is not type(expected):
            self._inputs_not_supported()
        actual, expected = (self._to_tensor(v) for v in (actual, expected))
        super().__init__(actual, expected, id=id, **other_parameters)
        self.rtol, self.atol = _get_tolerances(actual, expected, rtol=rtol, atol=atol, id=self.id)
        self.equal_nan = equal_nan
        self.check_device = check_device
        self.check_dtype = check_dtype
        self.check_layout = check_layout
        self.check_stride = check_stride

    def _to_tensor(self, tensor_like):
        if isinstance(tensor_like, torch.Tensor):
            return tensor_like
        try:
            return torch.as_tensor(tensor_like)
        except Exception:
            self._inputs_not_supported()

    def compare(self):
        actual, expected = self.actual, self.expected
        self._compare_attributes(actual, expected)
        if any(input.device.type == "meta" for input in (actual, expected)):
            return
        actual, expected = self._equalize_attributes(actual, expected)
        self._compare_values(actual, expected)

    def _compare_attributes(self, actual, expected):
        def raise_mismatch_error(attribute_name, actual_value, expected_value):
            self._fail(AssertionError, f"The values for attribute '{attribute_name}' do not match: "
                                       f"{actual_value} != {expected_value}.")

        if actual.shape != expected.shape:
            raise_mismatch_error("shape", actual.shape, expected.shape)
        if actual.layout != expected.layout:
            if self.check_layout:
                raise_mismatch_error("layout", actual.layout, expected.layout)
        elif self.check_stride and actual.stride() != expected.stride():
            raise_mismatch_error("stride()", actual.stride(), expected.stride())
        if self.check_device and actual.device != expected.device:
            raise_mismatch_error("device", actual.device, expected.device)
        if self.check_dtype and actual.dtype != expected.dtype:
            raise_mismatch_error("dtype", actual.dtype, expected.dtype)

    def _equalize_attributes(self, actual, expected):
        if actual.device != expected.device:
            actual = actual.cpu()
            expected = expected.cpu()
        if actual.dtype != expected.dtype:
            wide = _dtypes("uint16", "uint32", "uint64")
            actual_dtype = torch.int64 if actual.dtype in wide else actual.dtype
            expected_dtype = torch.int64 if expected.dtype in wide else expected.dtype
            dtype = torch.promote_types(actual_dtype, expected_dtype)
            actual = actual.to(dtype)
            expected = expected.to(dtype)
        return actual, expected

    def _compare_values(self, actual, expected):
        matches = _isclose(actual, expected, rtol=self.rtol, atol=self.atol, equal_nan=self.equal_nan)
        if torch.all(matches):
            return
        if actual.shape == torch.Size([]):
            msg = _make_scalar_mismatch_msg(actual.item(), expected.item(), rtol=self.rtol, atol=self.atol)
        else:
            msg = _make_tensor_mismatch_msg(actual, expected, matches, rtol=self.rtol, atol=self.atol)
        self._fail(AssertionError, msg)

    def extra_repr(self):
        return ("rtol", "atol", "equal_nan", "check_device", "check_dtype", "check_layout", "check_stride")


def _isclose(actual, expected, *, rtol, atol, equal_nan):
    """``torch.isclose``, spelled out for complex tensors (compared by modulus of the difference)."""
    if not actual.dtype.is_complex:
        return torch.isclose(actual, expected, rtol=rtol, atol=atol, equal_nan=equal_nan)
    close = actual == expected
    if equal_nan:
        close = close | (actual.isnan() & expected.isnan())
    allowed_error = atol + (rtol * expected).abs()
    actual_error = (actual - expected).abs()
    return close | (actual_error.isfinite() & (actual_error <= allowed_error))


def _originate_pairs(actual, expected, *, pair_types, sequence_types=(collections.abc.Sequence,),
                     mapping_types=(collections.abc.Mapping,), id=(), **options):
    if (isinstance(actual, sequence_types) and not isinstance(actual, str)
            and isinstance(expected, sequence_types) and not isinstance(expected, str)):
        actual_len = len(actual)
        expected_len = len(expected)
        if actual_len != expected_len:
            raise _ErrorMeta(AssertionError,
                             f"The length of the sequences mismatch: {actual_len} != {expected_len}", id=id)
        pairs = []
        for idx in range(actual_len):
            pairs.extend(_originate_pairs(actual[idx], expected[idx], pair_types=pair_types,
                                          sequence_types=sequence_types, mapping_types=mapping_types,
                                          id=(*id, idx), **options))
        return pairs
    if isinstance(actual, mapping_types) and isinstance(expected, mapping_types):
        actual_keys = set(actual.keys())
        expected_keys = set(expected.keys())
        if actual_keys != expected_keys:
            missing_keys = expected_keys - actual_keys
            additional_keys = actual_keys - expected_keys
            raise _ErrorMeta(
                AssertionError,
                (f"The keys of the mappings do not match:\n"
                 f"Missing keys in the actual mapping: {sorted(missing_keys)}\n"
                 f"Additional keys in the actual mapping: {sorted(additional_keys)}"),
                id=id,
            )
        keys = actual_keys
        with contextlib.suppress(Exception):
            keys = sorted(keys)
        pairs = []
        for key in keys:
            pairs.extend(_originate_pairs(actual[key], expected[key], pair_types=pair_types,
                                          sequence_types=sequence_types, mapping_types=mapping_types,
                                          id=(*id, key), **options))
        return pairs
    for pair_type in pair_types:
        try:
            return [pair_type(actual, expected, id=id, **options)]
        except _UnsupportedInputs:
            continue
        except _ErrorMeta:
            raise
        except Exception as error:
            raise RuntimeError(
                f"Originating a {pair_type.__name__.lstrip('_')}() at item {''.join(str([item]) for item in id)} "
                f"with\n\n{type(actual).__name__}(): {actual}\n\nand\n\n{type(expected).__name__}(): {expected}\n\n"
                f"resulted in the unexpected exception above. "
                f"If you are a user and see this message during normal operation "
                "please file an issue at https://github.com/pytorch/pytorch/issues. "
                "If you are a developer and working on the comparison functions, "
                "please except the previous error and raise an expressive `ErrorMeta` instead."
            ) from error
    raise _ErrorMeta(TypeError,
                     f"No comparison pair was able to handle inputs of type {type(actual)} and {type(expected)}.",
                     id=id)


def _not_close_error_metas(actual, expected, *, pair_types=(_ObjectPair,), **options):
    __tracebackhide__ = True
    try:
        pairs = _originate_pairs(actual, expected, pair_types=pair_types, **options)
    except _ErrorMeta as error_meta:
        raise error_meta.to_error() from None
    error_metas = []
    for pair in pairs:
        try:
            pair.compare()
        except _ErrorMeta as error_meta:
            error_metas.append(error_meta)
        except Exception as error:
            raise RuntimeError(
                f"Comparing\n\n{pair}\n\nresulted in the unexpected exception above. "
                f"If you are a user and see this message during normal operation "
                "please file an issue at https://github.com/pytorch/pytorch/issues. "
                "If you are a developer and working on the comparison functions, "
                "please except the previous error and raise an expressive `ErrorMeta` instead."
            ) from error
    return error_metas


def assert_close(actual, expected, *, allow_subclasses=True, rtol=None, atol=None, equal_nan=False,
                 check_device=True, check_dtype=True, check_layout=True, check_stride=False, msg=None):
    """Assert that ``actual`` and ``expected`` are close: ``|actual - expected| <= atol + rtol *
    |expected|`` elementwise (NaNs equal only with ``equal_nan``), after checking shape and, unless
    disabled, device, dtype, layout and stride.

    Tensors, NumPy arrays, Python / NumPy numbers, ``None`` and booleans compare directly;
    sequences and mappings are compared item by item. Without ``rtol`` / ``atol`` (give both or
    neither) the defaults of the dtype apply (float32: 1.3e-6 / 1e-5, float64: 1e-7 / 1e-7,
    float16: 1e-3 / 1e-5, bfloat16: 1.6e-2 / 1e-5, integers and bool: exact). On a mismatch it
    raises ``AssertionError`` with PyTorch's message (mismatched elements, greatest absolute and
    relative differences and their indices); ``msg`` replaces it (a string) or rewrites it (a
    callable taking the generated message).
    """
    __tracebackhide__ = True
    error_metas = _not_close_error_metas(
        actual, expected, pair_types=(_NonePair, _BooleanPair, _NumberPair, _TensorLikePair),
        allow_subclasses=allow_subclasses, rtol=rtol, atol=atol, equal_nan=equal_nan, check_device=check_device,
        check_dtype=check_dtype, check_layout=check_layout, check_stride=check_stride, msg=msg,
    )
    if error_metas:
        raise error_metas[0].to_error(msg)


def assert_allclose(actual, expected, rtol=None, atol=None, equal_nan=True, msg=""):
    """Deprecated since PyTorch 1.12 (warns ``FutureWarning``): ``assert_close`` with looser
    defaults (float32: 1e-4 / 1e-5, float64: 1e-5 / 1e-8), NaNs equal, dtypes not checked, and
    non-tensor inputs converted to tensors first."""
    warnings.warn(
        "`torch.testing.assert_allclose()` is deprecated since 1.12 and will be removed in a future release. "
        "Please use `torch.testing.assert_close()` instead. "
        "You can find detailed upgrade instructions in https://github.com/pytorch/pytorch/issues/61844.",
        FutureWarning, stacklevel=2,
    )
    if not isinstance(actual, torch.Tensor):
        actual = torch.tensor(actual)
    if not isinstance(expected, torch.Tensor):
        expected = torch.tensor(expected, dtype=actual.dtype)
    if rtol is None and atol is None:
        rtol, atol = _default_tolerances(
            actual, expected,
            dtype_precisions={torch.float16: (1e-3, 1e-3), torch.float32: (1e-4, 1e-5), torch.float64: (1e-5, 1e-8)},
        )
    assert_close(actual, expected, rtol=rtol, atol=atol, equal_nan=equal_nan, check_device=True, check_dtype=False,
                 check_stride=False, msg=msg or None)


_INTEGRAL_TYPES = _dtypes("uint8", "int8", "int16", "int32", "int64", "uint16", "uint32", "uint64")
_FLOATING_TYPES = _dtypes("float16", "bfloat16", "float32", "float64")
_FLOATING_8BIT_TYPES = _dtypes("float8_e4m3fn", "float8_e5m2", "float8_e4m3fnuz", "float8_e5m2fnuz")
_COMPLEX_TYPES = _dtypes("complex32", "complex64", "complex128")
_BOOLEAN_OR_INTEGRAL_TYPES = [torch.bool, *_INTEGRAL_TYPES]
_FLOATING_OR_COMPLEX_TYPES = [*_FLOATING_TYPES, *_COMPLEX_TYPES]


def _finfo(dtype):
    """``torch.finfo`` of a floating or complex dtype (a complex dtype: its real part's)."""
    real = {"complex32": "float16", "complex64": "float32", "complex128": "float64"}.get(str(dtype).split(".")[-1])
    return torch.finfo(getattr(torch, real) if real else dtype)


def _uniform_random_(t, low, high):
    if high - low >= _finfo(t.dtype).max:
        return t.uniform_(low / 2, high / 2).mul_(2)
    return t.uniform_(low, high)


def make_tensor(*shape, dtype, device, low=None, high=None, requires_grad=False, noncontiguous=False,
                exclude_zero=False, memory_format=None):
    """A tensor of ``shape`` filled with values drawn uniformly from ``[low, high)`` with the global
    generator, as PyTorch draws them (``randint`` for bool and integers, ``uniform_`` for floating
    and complex dtypes), so a seeded call gives PyTorch's values.

    Defaults: bool ``[0, 2)``, unsigned ``[0, 10)``, signed integers ``[-9, 10)``, floating and
    complex ``[-9, 9)``; bounds outside the dtype's range are clamped. ``noncontiguous`` returns
    a strided view (when the tensor has more than one element), ``memory_format`` a copy in that
    format (mutually exclusive); ``exclude_zero`` replaces zeros by 1 (integers) or the dtype's
    ``tiny``; ``requires_grad`` is for floating and complex dtypes only.
    """

    def modify_low_high(low, high, *, lowest_inclusive, highest_exclusive, default_low, default_high):
        def clamp(a, lo, hi):
            return min(max(a, lo), hi)

        low = low if low is not None else default_low
        high = high if high is not None else default_high
        if any(isinstance(value, float) and math.isnan(value) for value in [low, high]):
            raise ValueError(f"`low` and `high` cannot be NaN, but got {low=} and {high=}")
        elif low == high and dtype in _FLOATING_OR_COMPLEX_TYPES:
            warnings.warn(
                "Passing `low==high` to `torch.testing.make_tensor` for floating or complex types "
                "is deprecated since 2.1 and will be removed in 2.3. "
                "Use `torch.full(...)` instead.",
                FutureWarning, stacklevel=3,
            )
        elif low >= high:
            raise ValueError(f"`low` must be less than `high`, but got {low} >= {high}")
        elif high < lowest_inclusive or low >= highest_exclusive:
            raise ValueError(
                f"The value interval specified by `low` and `high` is [{low}, {high}), "
                f"but {dtype} only supports [{lowest_inclusive}, {highest_exclusive})"
            )
        low = clamp(low, lowest_inclusive, highest_exclusive)
        high = clamp(high, lowest_inclusive, highest_exclusive)
        if dtype in _BOOLEAN_OR_INTEGRAL_TYPES:
            return math.ceil(low), math.ceil(high)
        return low, high

    if len(shape) == 1 and isinstance(shape[0], collections.abc.Sequence):
        shape = shape[0]
    shape = tuple(shape)

    if noncontiguous and memory_format is not None:
        raise ValueError(
            f"The parameters `noncontiguous` and `memory_format` are mutually exclusive, "
            f"but got {noncontiguous=} and {memory_format=}"
        )
    if requires_grad and dtype in _BOOLEAN_OR_INTEGRAL_TYPES:
        raise ValueError(f"`requires_grad=True` is not supported for boolean and integral dtypes, but got {dtype=}")

    noncontiguous = noncontiguous and functools.reduce(lambda x, y: x * y, shape, 1) > 1
    if noncontiguous:
        shape = (*shape[:-1], 2 * shape[-1])

    if dtype is torch.bool:
        low, high = modify_low_high(low, high, lowest_inclusive=0, highest_exclusive=2, default_low=0,
                                    default_high=2)
        result = torch.randint(low, high, shape, device=device, dtype=dtype)
    elif dtype in _BOOLEAN_OR_INTEGRAL_TYPES:
        low, high = modify_low_high(
            low, high, lowest_inclusive=torch.iinfo(dtype).min,
            highest_exclusive=torch.iinfo(dtype).max + (1 if dtype is not torch.int64 else 0),
            default_low=-9, default_high=10,
        )
        result = torch.randint(low, high, shape, device=device, dtype=dtype)
    elif dtype in _FLOATING_OR_COMPLEX_TYPES:
        low, high = modify_low_high(low, high, lowest_inclusive=_finfo(dtype).min,
                                    highest_exclusive=_finfo(dtype).max, default_low=-9, default_high=9)
        result = torch.empty(shape, device=device, dtype=dtype)
        _uniform_random_(torch.view_as_real(result) if dtype in _COMPLEX_TYPES else result, low, high)
    elif dtype in _FLOATING_8BIT_TYPES:
        low, high = modify_low_high(low, high, lowest_inclusive=_finfo(dtype).min,
                                    highest_exclusive=_finfo(dtype).max, default_low=-9, default_high=9)
        result = torch.empty(shape, device=device, dtype=torch.float32)
        _uniform_random_(result, low, high)
        result = result.to(dtype)
    else:
        raise TypeError(
            f"The requested dtype '{dtype}' is not supported by torch.testing.make_tensor()."
            " To request support, file an issue at: https://github.com/pytorch/pytorch/issues"
        )

    if noncontiguous:
        result = result[..., 1::2]
    elif memory_format is not None:
        result = result.clone(memory_format=memory_format)

    if exclude_zero:
        result[result == 0] = 1 if dtype in _BOOLEAN_OR_INTEGRAL_TYPES else _finfo(dtype).tiny

    if dtype in _FLOATING_OR_COMPLEX_TYPES:
        result.requires_grad = requires_grad
    return result
