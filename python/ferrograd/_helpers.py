"""Small Python-side pieces the native module calls back into: ``Size``, ``device``,
tensor printing, node classes named after PyTorch's ``grad_fn`` classes, and the named
tuples returned by ``max``/``min``/``sort``."""

import collections

from . import _C
from ._tensor_str import tensor_repr as _tensor_repr  # noqa: F401 (called from Rust)


def _typename(obj):
    """``torch.typename``: ``torch.FloatTensor`` for a tensor, else the qualified type name."""
    if isinstance(obj, _C.Tensor):
        return obj.type()
    module = getattr(obj, "__module__", "") or ""
    if hasattr(obj, "__qualname__"):
        qualname = obj.__qualname__
    elif hasattr(obj, "__name__"):
        qualname = obj.__name__
    else:
        module = obj.__class__.__module__ or ""
        qualname = obj.__class__.__qualname__
    if module in {"", "builtins"}:
        return qualname
    return f"{module}.{qualname}"


class Size(tuple):
    """``torch.Size``: a tuple of ints that prints as ``torch.Size([2, 3])``."""

    def __new__(cls, sizes=()):
        sizes = tuple(sizes)
        for i, d in enumerate(sizes):
            if type(d) is not int:
                return tuple.__new__(cls, _size_items(sizes))
        return tuple.__new__(cls, sizes)

    def __repr__(self):
        return "torch.Size([" + ", ".join(str(int(d)) for d in self) + "])"

    __str__ = __repr__

    def numel(self):
        n = 1
        for d in self:
            n *= d
        return n

    def __getitem__(self, key):
        r = tuple.__getitem__(self, key)
        return Size(r) if isinstance(key, slice) else r

    def __add__(self, other):
        # as torch.Size: adding a tuple keeps the Size type
        if not isinstance(other, tuple):
            return NotImplemented
        return Size(tuple.__add__(self, other))

    def __radd__(self, other):
        if not isinstance(other, tuple):
            return NotImplemented
        return Size(tuple.__add__(other, self))

    def __mul__(self, n):
        return Size(tuple.__mul__(self, n))

    __rmul__ = __mul__


def _size_items(sizes):
    """The items of a ``torch.Size`` as ints: anything with ``__index__`` (bools, NumPy
    integers, one-element integer tensors), else PyTorch's TypeError."""
    import operator

    out = []
    for i, d in enumerate(sizes):
        try:
            out.append(operator.index(d))
        except TypeError:
            raise TypeError(f"torch.Size() takes an iterable of 'int' (item {i} is '{type(d).__name__}')") from None
    return out


import builtins

builtins_type = builtins.type


_DEVICE_STACK = []  # the default devices that ``with torch.device(...)`` blocks replaced


class device:
    """``torch.device``."""

    def __init__(self, type, index=None):
        from . import _C

        if isinstance(type, device):
            type, index = type.type, type.index
        elif isinstance(type, int) and not isinstance(type, bool):
            type, index = "cuda", type
        elif isinstance(type, str):
            parsed, idx = _C._parse_device(type)
            if idx is not None:
                if index is not None:
                    raise RuntimeError(f"type (string) must not include an index because index was passed explicitly: {type}")
                index = idx
            type = parsed
        else:
            raise TypeError(f"device() received an invalid combination of arguments - got ({builtins_type(type).__name__})")
        if index is not None and index < 0:
            raise RuntimeError(f"Device index must not be negative")
        self.type = type
        self.index = index

    def __repr__(self):
        return f"device(type='{self.type}')" if self.index is None else f"device(type='{self.type}', index={self.index})"

    def __str__(self):
        return self.type if self.index is None else f"{self.type}:{self.index}"

    def __eq__(self, other):
        if isinstance(other, str):
            other = device(other)
        return isinstance(other, device) and self.type == other.type and self.index == other.index

    def __hash__(self):
        return hash((self.type, self.index))

    def __enter__(self):
        """Make this the default device of factory functions for the block."""
        from . import _C

        _DEVICE_STACK.append(_C._default_device())
        _C._set_default_device(str(self))
        return self

    def __exit__(self, *exc):
        from . import _C

        _C._set_default_device(_DEVICE_STACK.pop())
        return False


_cpu_device = device("cpu")

_NODE_CLASSES = {}


def _metadata(self):
    d = self.__dict__.get("_metadata")
    if d is None:
        d = self.__dict__["_metadata"] = {}
    return d


def _node_class(name):
    """The Python class of builtin nodes called ``name`` (e.g. ``MulBackward0``)."""
    cls = _NODE_CLASSES.get(name)
    if cls is None:
        # module "builtins" makes the default repr read `<MulBackward0 object at 0x...>`
        cls = type(name, (_C.Node,), {"__module__": "builtins", "metadata": property(_metadata)})
        _NODE_CLASSES[name] = cls
    return cls


_RETURN_TYPES = {}


_RETURN_FIELDS = {"aminmax": ("min", "max")}


def _return_type(kind, values, indices):
    return _named(kind, _RETURN_FIELDS.get(kind, ("values", "indices")), values, indices)


def _named(kind, fields, *parts):
    """``torch.return_types.<kind>``: a named tuple of ``fields`` printed as PyTorch's."""
    cls = _RETURN_TYPES.get(kind)
    if cls is None:
        base = collections.namedtuple(kind, fields)

        def __repr__(self, _kind=kind, _fields=fields):
            body = ",\n".join(f"{f}={v!r}" for f, v in zip(_fields, self))
            return f"torch.return_types.{_kind}(\n{body})"

        cls = type(kind, (base,), {"__repr__": __repr__, "__slots__": (), "__module__": "ferrograd.return_types"})
        _RETURN_TYPES[kind] = cls
    return cls(*parts)


class _NamedConstant:
    """A torch constant known by its name (``torch.strided``, ``torch.channels_last``): it
    prints as ``torch.<name>`` and pickles as the module attribute of that name."""

    __slots__ = ("_name",)

    def __init__(self, name):
        self._name = name

    def __repr__(self):
        return f"torch.{self._name}"

    def __reduce__(self):
        return self._name


class layout(_NamedConstant):
    """``torch.layout``: how a tensor's elements are laid out in memory. ferrograd's tensors
    are all ``torch.strided``; the sparse and mkldnn layouts exist as names."""

    __slots__ = ()


strided = layout("strided")
sparse_coo = layout("sparse_coo")
sparse_csr = layout("sparse_csr")
sparse_csc = layout("sparse_csc")
sparse_bsr = layout("sparse_bsr")
sparse_bsc = layout("sparse_bsc")
_mkldnn = layout("_mkldnn")
jagged = layout("jagged")
