"""``torch.save`` / ``torch.load`` in PyTorch's own file format, so checkpoints move both ways
between ferrograd and PyTorch.

The format (PyTorch >= 1.6, "zip serialization"): an uncompressed zip archive whose entries all
sit under one folder (``archive/`` when writing to a buffer, the file's base name when writing
to a path):

* ``data.pkl``: the object, pickled (protocol 2 by default). Tensors are reduced to
  ``torch._utils._rebuild_tensor_v2(storage, storage_offset, size, stride, requires_grad,
  OrderedDict())`` and Parameters to ``torch._utils._rebuild_parameter(tensor, requires_grad,
  OrderedDict())``; each storage is a persistent id ``('storage', torch.<Kind>Storage, key,
  location, numel)``, so views of one tensor share one storage record and are views again
  after loading.
* ``data/<key>``: each storage's raw bytes, little-endian, every record's data 64-byte aligned
  (the local header's extra field carries ``FB`` padding, as PyTorch's writer does).
* ``.format_version`` (``1``), ``.storage_alignment`` (``64``), ``byteorder`` (``little``),
  ``version`` (``3``) and ``.data/serialization_id``.

Pickled names are PyTorch's (``torch._utils``, ``torch.FloatStorage``, ``torch.Size``,
``torch.float32``, ``torch.nn.parameter.Parameter`` ...), so PyTorch reads these files; on load
those names resolve to ferrograd's objects. ``weights_only=True`` (the default) runs PyTorch's
restricted unpickler rules: only tensors, containers, primitive types and allow-listed globals
(``add_safe_globals`` / ``safe_globals``) load, anything else raises ``UnpicklingError`` with
PyTorch's text.
"""

import collections
import contextlib
import ctypes
import io
import mmap as _mmap
import os
import pickle
import random
import struct
import sys
import threading
import warnings
import zipfile
import zlib

import numpy as np

import ferrograd as _fg

__all__ = ["add_safe_globals", "clear_safe_globals", "default_restore_location", "get_safe_globals",
           "load", "safe_globals", "save", "StorageType"]

DEFAULT_PROTOCOL = 2
STORAGE_ALIGNMENT = 64
_FILE_FORMAT_VERSION = "3\n"

UNSAFE_MESSAGE = (
    "In PyTorch 2.6, we changed the default value of the `weights_only` argument in `torch.load` "
    "from `False` to `True`. Re-running `torch.load` with `weights_only` set to `False` will likely succeed, "
    "but it can result in arbitrary code execution. Do it only if you got the file from a "
    "trusted source."
)
DOCS_MESSAGE = (
    "\n\nCheck the documentation of torch.load to learn more about types accepted by default with "
    "weights_only https://pytorch.org/docs/stable/generated/torch.load.html."
)

# ---- dtypes and storage kinds --------------------------------------------------------------

# dtype name -> (legacy storage class name, NumPy dtype string, element size)
_DTYPE_TABLE = {
    "float64": ("DoubleStorage", "<f8"),
    "float32": ("FloatStorage", "<f4"),
    "float16": ("HalfStorage", "<f2"),
    "bfloat16": ("BFloat16Storage", "<i2"),  # read and written as int16 bits (NumPy has no bfloat16)
    "int64": ("LongStorage", "<i8"),
    "int32": ("IntStorage", "<i4"),
    "int16": ("ShortStorage", "<i2"),
    "int8": ("CharStorage", "i1"),
    "uint8": ("ByteStorage", "u1"),
    "bool": ("BoolStorage", "?"),
    "complex64": ("ComplexFloatStorage", "<c8"),
    "complex128": ("ComplexDoubleStorage", "<c16"),
}
_STORAGE_TO_DTYPE = {storage: name for name, (storage, _) in _DTYPE_TABLE.items()}


def _dtype_name(dtype):
    return str(dtype).split(".")[-1]


def _np_dtype(dtype_name, byteorder="little"):
    code = _DTYPE_TABLE[dtype_name][1]
    if code is None:
        raise RuntimeError(f"ferrograd.load: storages of dtype torch.{dtype_name} cannot be read (no such dtype in ferrograd)")
    dt = np.dtype(code)
    return dt.newbyteorder(">") if byteorder == "big" and dt.itemsize > 1 else dt


def _ferrograd_dtype(dtype_name):
    dt = getattr(_fg, dtype_name, None)
    if not isinstance(dt, _fg.dtype):
        raise RuntimeError(f"ferrograd.load: the file holds a torch.{dtype_name} tensor; ferrograd has no {dtype_name} dtype")
    return dt


class StorageType:
    """What a pickled ``torch.<Kind>Storage`` name resolves to when loading: it knows its dtype."""

    def __init__(self, name):
        if name not in _STORAGE_TO_DTYPE and name != "UntypedStorage":
            raise KeyError(name)
        self.name = name
        self._dtype_name = _STORAGE_TO_DTYPE.get(name, "uint8")

    @property
    def dtype(self):
        return _ferrograd_dtype(self._dtype_name)

    def __str__(self):
        return f"StorageType(dtype=torch.{self._dtype_name})"

    __repr__ = __str__


# ---- pickled names: PyTorch's on disk, ferrograd's in memory ----------------------------------

class _TorchName:
    """A global as PyTorch names it (written by ferrograd's pickler as that name)."""

    __slots__ = ("module", "name")

    def __init__(self, module, name):
        self.module = module
        self.name = name

    def __repr__(self):
        return f"{self.module}.{self.name}"

    def __call__(self, *args, **kwargs):  # a reduce function must be callable; only its name is written
        raise TypeError(f"{self!r} is a name written into pickles, not a function")


_REBUILD_TENSOR_V2 = _TorchName("torch._utils", "_rebuild_tensor_v2")
_REBUILD_PARAMETER = _TorchName("torch._utils", "_rebuild_parameter")
_TORCH_SIZE = _TorchName("torch", "Size")
_TORCH_DEVICE = _TorchName("torch", "device")
_STORAGE_NAMES = {storage: _TorchName("torch", storage) for storage, _ in _DTYPE_TABLE.values()}


def _torch_module_name(module):
    """``ferrograd.x.y`` -> ``torch.x.y`` (the names ferrograd mirrors)."""
    if module == "ferrograd._helpers":
        return "torch"
    if module == "ferrograd.nn":
        return "torch.nn.parameter"
    return "torch" + module[len("ferrograd"):]


# ---- saving ----------------------------------------------------------------------------------

class _StorageGroup:
    """One storage of the tensors being saved: identified by its device and first byte; its
    extent grows to cover every tensor (and every view base) seen on it."""

    __slots__ = ("key", "dtype_name", "device", "start", "numel", "owner")

    def __init__(self, key, dtype_name, device, start, owner):
        self.key = key
        self.dtype_name = dtype_name
        self.device = device
        self.start = start
        self.numel = 0
        self.owner = owner


def _extent(t):
    """Number of storage elements from the storage start that ``t`` reaches."""
    if t.numel() == 0:
        return t.storage_offset()
    return t.storage_offset() + 1 + sum((s - 1) * st for s, st in zip(t.shape, t.stride()))


def _root(t):
    while t._base is not None:
        t = t._base
    return t


class _Storages:
    """Storage bookkeeping for one ``save``: the first pass registers every tensor, so the
    second pass writes each storage's full extent."""

    def __init__(self):
        self.groups = {}
        self.order = []

    def group_of(self, t):
        dev = str(t.device)
        esize = t.element_size()
        start = t.data_ptr() - t.storage_offset() * esize
        ident = (dev, start)
        g = self.groups.get(ident)
        dtype_name = _dtype_name(t.dtype)
        if g is None:
            g = _StorageGroup(str(len(self.order)), dtype_name, dev, start, t)
            self.groups[ident] = g
            self.order.append(g)
        elif g.dtype_name != dtype_name and t.numel() > 0:
            raise RuntimeError("Cannot save multiple tensors or storages that view the same data as different types")
        reach = _extent(t)
        root = _root(t)
        if root.data_ptr() - root.storage_offset() * esize == start:
            reach = max(reach, _extent(root))
        g.numel = max(g.numel, reach)
        return g

    def raw_bytes(self, g):
        """The storage's bytes, little-endian (CPU memory read in place; other devices copied)."""
        esize = _np_dtype(g.dtype_name).itemsize
        nbytes = g.numel * esize
        if nbytes == 0:
            return b""
        if g.device == "cpu":
            return ctypes.string_at(g.start, nbytes)
        # a device storage: copy it through a CPU copy of the tensor that spans it
        root = _root(g.owner)
        if root.storage_offset() == 0 and root.is_contiguous() and root.numel() >= g.numel:
            host = root.detach().cpu().contiguous()
            return ctypes.string_at(host.data_ptr(), nbytes)
        raise RuntimeError("ferrograd.save: cannot read a non-CPU storage that no contiguous tensor covers")


class _TorchPickler(pickle._Pickler):
    """A pickler that writes ferrograd objects under PyTorch's names."""

    def __init__(self, file, protocol, storages, location_strings):
        super().__init__(file, protocol=protocol)
        self._storages = storages
        self._locations = location_strings
        self._storage_word = "storage"

    def persistent_id(self, obj):
        if type(obj) is _StorageGroup:
            loc = self._locations.setdefault(obj.device, obj.device)
            return (self._storage_word, _STORAGE_NAMES[_DTYPE_TABLE[obj.dtype_name][0]], obj.key, loc, obj.numel)
        return None

    def reducer_override(self, obj):
        if isinstance(obj, _fg.Tensor):
            if isinstance(obj, _fg.nn.Parameter):
                return (_REBUILD_PARAMETER, (obj.detach(), obj.requires_grad, collections.OrderedDict()))
            g = self._storages.group_of(obj)
            return (_REBUILD_TENSOR_V2, (g, obj.storage_offset(), tuple(obj.shape), tuple(obj.stride()),
                                         obj.requires_grad, collections.OrderedDict()))
        if isinstance(obj, _fg.Size):
            return (_TORCH_SIZE, (tuple(obj),))
        if isinstance(obj, _fg.device):
            return (_TORCH_DEVICE, (obj.type,) if obj.index is None else (obj.type, obj.index))
        return NotImplemented

    def save(self, obj, save_persistent_id=True):
        if type(obj) is _fg.dtype:
            obj = self._dtype_names.setdefault(_dtype_name(obj), _TorchName("torch", _dtype_name(obj)))
        if type(obj) is _TorchName:
            memo = self.memo.get(id(obj))
            if memo is not None:
                self.write(self.get(memo[0]))
                return
            self._write_global(obj.module, obj.name)
            self.memoize(obj)
            return
        super().save(obj, save_persistent_id)

    _dtype_names = {}

    def _write_global(self, module, name):
        if self.proto >= 4:
            self.save(module)
            self.save(name)
            self.write(pickle.STACK_GLOBAL)
        else:
            self.write(pickle.GLOBAL + module.encode("utf-8") + b"\n" + name.encode("utf-8") + b"\n")

    def save_global(self, obj, name=None):
        module = getattr(obj, "__module__", None)
        if isinstance(module, str) and (module == "ferrograd" or module.startswith("ferrograd.")):
            qual = name if name is not None else getattr(obj, "__qualname__", obj.__name__)
            self._write_global(_torch_module_name(module), qual)
            self.memoize(obj)
            return
        super().save_global(obj, name)


class _NullSink:
    def write(self, b):
        return len(b)


class _ZipWriter:
    """Writes the zip layout of PyTorch's archive writer: stored entries, data descriptors,
    ``FB``-padded local extra fields aligning each record's data to 64 bytes, then the central
    directory and the zip64 end records."""

    def __init__(self, out, archive_name):
        self.out = out
        self.prefix = archive_name + "/"
        self.pos = 0
        self.entries = []
        self.crc_all = 0

    def _write(self, b):
        self.out.write(b)
        self.pos += len(b)

    def record(self, name, data):
        if isinstance(data, str):
            data = data.encode("utf-8")
        full = (self.prefix + name).encode("utf-8")
        size = len(data)
        if size >= 0xFFFFFFFF or self.pos >= 0xFFFFFFFF:
            raise RuntimeError("ferrograd.save: records or archives of 4 GiB and more are not supported (no zip64 records)")
        start = self.pos + 30 + len(full) + 4
        pad = (-start) % STORAGE_ALIGNMENT
        extra = b"FB" + struct.pack("<H", pad) + b"Z" * pad
        crc = zlib.crc32(data) & 0xFFFFFFFF
        offset = self.pos
        # an empty record has no data descriptor (flag bit 3 clear), as in PyTorch's writer
        flags = 0x0808 if size else 0x0800
        self._write(struct.pack("<IHHHHHIIIHH", 0x04034B50, 0, flags, 0, 0, 0, 0, 0, 0, len(full), len(extra)))
        self._write(full)
        self._write(extra)
        self._write(data)
        if size:
            self._write(struct.pack("<IIII", 0x08074B50, crc, size, size))
        self.entries.append((full, crc, size, offset, flags))
        self.crc_all = zlib.crc32(data, self.crc_all)

    def finish(self):
        serialization_id = "%020d%020d" % (random.getrandbits(64), self.crc_all & 0xFFFFFFFF)
        self.record(".data/serialization_id", serialization_id)
        cd_start = self.pos
        for full, crc, size, offset, flags in self.entries:
            self._write(struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 0, 0, flags, 0, 0, 0, crc, size, size,
                                    len(full), 0, 0, 0, 0, 0, offset))
            self._write(full)
        cd_size = self.pos - cd_start
        n = len(self.entries)
        z64 = self.pos
        self._write(struct.pack("<IQHHIIQQQQ", 0x06064B50, 44, 0x031E, 45, 0, 0, n, n, cd_size, cd_start))
        self._write(struct.pack("<IIQI", 0x07064B50, 0, z64, 1))
        self._write(struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, n, n, cd_size, cd_start, 0))


def _is_path(f):
    return isinstance(f, (str, os.PathLike))


def _archive_name(path):
    """The record folder PyTorch's writer uses for a file: its base name up to the last dot."""
    name = os.fspath(path)
    if isinstance(name, bytes):
        name = os.fsdecode(name)
    base = name.replace("\\", "/").rsplit("/", 1)[-1]
    if "." in base:
        base = base[:base.rfind(".")]
    return base or "archive"


def save(obj, f, pickle_module=pickle, pickle_protocol=DEFAULT_PROTOCOL, _use_new_zipfile_serialization=True,
         _disable_byteorder_record=False):
    """Save ``obj`` to ``f`` (a path, or a binary file object such as ``io.BytesIO``) in
    PyTorch's zip format; PyTorch's ``torch.load`` reads the result.

    ``pickle_protocol`` is the pickle protocol of ``data.pkl`` (2 by default, as torch).
    ``pickle_module`` must be the standard ``pickle`` module (ferrograd writes PyTorch's names
    with its own pickler)."""
    if not _use_new_zipfile_serialization:
        raise RuntimeError("ferrograd.save: the legacy (pre-1.6, non-zip) format is not supported; "
                           "use _use_new_zipfile_serialization=True")
    if pickle_module is not pickle:
        raise RuntimeError("ferrograd.save: only the standard pickle module is supported as pickle_module")
    storages = _Storages()
    # pass 1: find every storage and its full extent (views may reach beyond the first tensor)
    _TorchPickler(_NullSink(), pickle_protocol, storages, {}).dump(obj)
    buf = io.BytesIO()
    _TorchPickler(buf, pickle_protocol, _FrozenStorages(storages), {}).dump(obj)

    def write_all(out, name):
        z = _ZipWriter(out, name)
        z.record("data.pkl", buf.getvalue())
        z.record(".format_version", "1")
        z.record(".storage_alignment", str(STORAGE_ALIGNMENT))
        if not _disable_byteorder_record:
            z.record("byteorder", sys.byteorder)
        for g in storages.order:
            z.record(f"data/{g.key}", storages.raw_bytes(g))
        z.record("version", _FILE_FORMAT_VERSION)
        z.finish()

    if _is_path(f):
        with open(f, "wb") as out:
            write_all(out, _archive_name(f))
    else:
        if not hasattr(f, "write"):
            raise AttributeError(f"'{type(f).__name__}' object has no attribute 'write'")
        write_all(f, "archive")
        if hasattr(f, "flush"):
            f.flush()


class _FrozenStorages:
    """The second pass sees the groups the first pass found (same keys, full extents)."""

    def __init__(self, storages):
        self._s = storages

    def group_of(self, t):
        dev = str(t.device)
        start = t.data_ptr() - t.storage_offset() * t.element_size()
        return self._s.groups[(dev, start)]


# ---- loading: storages and tensors -------------------------------------------------------------

class _LoadedStorage:
    """A storage read from an archive: a flat tensor over its bytes (views of it alias)."""

    def __init__(self, flat, dtype_name, numpy_array=None):
        self.flat = flat
        self.dtype_name = dtype_name
        self._numpy = numpy_array  # the CPU memory behind ``flat``, when it is NumPy's

    @property
    def device(self):
        return self.flat.device

    @property
    def dtype(self):
        return self.flat.dtype

    def size(self):
        return self.flat.numel()

    def nbytes(self):
        return self.flat.numel() * self.flat.element_size()

    def cpu(self):
        return self if self.flat.device.type == "cpu" else _LoadedStorage(self.flat.cpu(), self.dtype_name)

    def cuda(self, device=None, non_blocking=False):
        dev = "cuda" if device is None else (f"cuda:{device}" if isinstance(device, int) else str(device))
        return _LoadedStorage(self.flat.to(dev), self.dtype_name)

    def to(self, device=None, non_blocking=False):
        return _LoadedStorage(self.flat.to(device), self.dtype_name)

    def __len__(self):
        return self.flat.numel()

    def __repr__(self):
        return f"ferrograd storage of {self.flat.numel()} {self.dtype_name} on {self.flat.device}"


def _contiguous_strides(size):
    out, acc = [], 1
    for s in reversed(size):
        out.append(acc)
        acc *= max(s, 1)
    return tuple(reversed(out))


def _view_of(flat, offset, size, stride):
    """A view of the 1-D ``flat`` with the given geometry, built from view operations (so it
    shares memory and reports the same ``storage_offset``); ``None`` when the geometry is not
    reachable by narrow/view/select/permute/expand."""
    size, stride = tuple(size), tuple(stride)
    n_total = flat.numel()
    numel = 1
    for s in size:
        numel *= s
    if numel == 0:
        if offset > n_total:
            return None
        return flat.narrow(0, offset, 0).view(size)
    if stride == _contiguous_strides(size) or len(size) == 0:
        if offset + numel > n_total:
            return None
        return flat.narrow(0, offset, numel).view(size)
    real = [d for d in range(len(size)) if size[d] > 1 and stride[d] != 0]
    real.sort(key=lambda d: -stride[d])
    strides = [stride[d] for d in real]
    sizes = [size[d] for d in real]
    k = len(real)
    if k == 0:
        base = flat.narrow(0, offset, 1).view(())
    else:
        if any(s <= 0 for s in strides):
            return None
        radix = [None] + [strides[i - 1] // strides[i] for i in range(1, k)]
        for i in range(1, k):
            if strides[i - 1] % strides[i] != 0:
                return None
        r = offset % strides[0]
        start = offset - r
        picks = [0]
        for i in range(1, k):
            picks.append(r // strides[i])
            r %= strides[i]
        last = r
        for i in range(1, k):
            if picks[i] + sizes[i] > radix[i]:
                return None
        if last >= strides[-1] or start + sizes[0] * strides[0] > n_total:
            return None
        shape = [sizes[0]] + radix[1:] + [strides[-1]]
        base = flat.narrow(0, start, sizes[0] * strides[0]).view(tuple(shape))
        for i in range(1, k):
            base = base.narrow(i, picks[i], sizes[i])
        base = base.select(k, last)
    # base has the `real` dims in stride order; add the others, then restore the order
    order = list(real)
    for d in range(len(size)):
        if d not in real:
            base = base.unsqueeze(base.dim())
            order.append(d)
    perm = [order.index(d) for d in range(len(size))]
    if perm != list(range(len(size))):
        base = base.permute(*perm)
    if any(stride[d] == 0 and size[d] > 1 for d in range(len(size))):
        base = base.expand(*size)
    return base


def _as_strided_numpy(storage, offset, size, stride):
    """Fallback view through NumPy: shares memory with the storage, but starts a new storage
    (``storage_offset()`` is 0)."""
    arr = storage._numpy
    if arr is None:
        raise RuntimeError("ferrograd.load: cannot rebuild this tensor's strides on a non-CPU storage")
    esize = arr.itemsize
    view = np.lib.stride_tricks.as_strided(arr[offset:], shape=tuple(size), strides=tuple(s * esize for s in stride))
    return _fg.from_numpy(view)


def _tensor_from_storage(storage, storage_offset, size, stride):
    if isinstance(storage, _LoadedStorage):
        t = _view_of(storage.flat, storage_offset, size, stride)
        if t is None:
            t = _as_strided_numpy(storage, storage_offset, size, stride)
        return t
    raise TypeError(f"expected a storage, got {type(storage).__name__}")


def _rebuild_tensor(storage, storage_offset, size, stride):
    return _tensor_from_storage(storage, storage_offset, size, stride)


def _rebuild_tensor_v2(storage, storage_offset, size, stride, requires_grad, backward_hooks, metadata=None):
    t = _tensor_from_storage(storage, storage_offset, size, stride)
    if requires_grad:
        t.requires_grad_(True)
    for hook in (backward_hooks or {}).values():
        t.register_hook(hook)
    if metadata:
        for k, v in metadata.items():
            setattr(t, k, v)
    return t


def _rebuild_parameter(data, requires_grad, backward_hooks):
    p = _fg.nn.Parameter(data, requires_grad)
    for hook in (backward_hooks or {}).values():
        p.register_hook(hook)
    return p


def _set_obj_state(obj, state):
    if isinstance(state, tuple):
        if len(state) != 2:
            raise RuntimeError(f"Invalid serialized state: {state}")
        dict_state, slots_state = state
    else:
        dict_state, slots_state = state, None
    for k, v in (dict_state or {}).items():
        setattr(obj, k, v)
    for k, v in (slots_state or {}).items():
        setattr(obj, k, v)
    return obj


def _rebuild_parameter_with_state(data, requires_grad, backward_hooks, state):
    return _set_obj_state(_rebuild_parameter(data, requires_grad, backward_hooks), state)


def _rebuild_from_type_v2(func, new_type, args, state):
    ret = func(*args)
    if type(ret) is not new_type and not (new_type is _fg.Tensor and isinstance(ret, _fg.Tensor)):
        if new_type is _fg.nn.Parameter:
            ret = _fg.nn.Parameter(ret)
        else:
            raise RuntimeError(f"ferrograd.load: tensor subclass {new_type} cannot be rebuilt")
    setstate = getattr(type(ret), "__setstate__", None)
    if setstate is not None and setstate is not getattr(_fg.Tensor, "__setstate__", None):
        ret.__setstate__(state)
    else:
        _set_obj_state(ret, state)
    return ret


def _unsupported_rebuild(name):
    def rebuild(*args, **kwargs):
        raise RuntimeError(f"ferrograd.load: cannot rebuild torch._utils.{name} "
                           "(sparse, quantized, nested, meta and wrapper-subclass tensors are not supported)")

    rebuild.__name__ = name
    return rebuild


def _get_layout(name):
    if name != "torch.strided":
        raise RuntimeError(f"ferrograd.load: layout {name} is not supported")
    return name


_REBUILD_FUNCTIONS = {
    "_rebuild_tensor": _rebuild_tensor,
    "_rebuild_tensor_v2": _rebuild_tensor_v2,
    "_rebuild_parameter": _rebuild_parameter,
    "_rebuild_parameter_with_state": _rebuild_parameter_with_state,
}
for _n in ("_rebuild_qtensor", "_rebuild_tensor_v3", "_rebuild_sparse_tensor", "_rebuild_meta_tensor_no_storage",
           "_rebuild_nested_tensor", "_rebuild_wrapper_subclass", "_rebuild_device_tensor_from_numpy",
           "_rebuild_device_tensor_from_cpu_tensor"):
    _REBUILD_FUNCTIONS[_n] = _unsupported_rebuild(_n)
del _n


def _allowed_globals():
    """PyTorch's default weights-only allow list, resolved to ferrograd's objects."""
    from codecs import encode

    rc = {
        "collections.OrderedDict": collections.OrderedDict,
        "collections.Counter": collections.Counter,
        "torch.nn.parameter.Parameter": _fg.nn.Parameter,
        "torch.serialization._get_layout": _get_layout,
        "torch.Size": _fg.Size,
        "torch.Tensor": _fg.Tensor,
        "torch.device": _fg.device,
        "_codecs.encode": encode,
        "builtins.bytearray": bytearray,
        "builtins.set": set,
        "builtins.complex": complex,
        "torch._tensor._rebuild_from_type_v2": _rebuild_from_type_v2,
    }
    for name in _DTYPE_TABLE:
        dt = getattr(_fg, name, None)
        if isinstance(dt, _fg.dtype):
            rc[f"torch.{name}"] = dt
    for storage in _STORAGE_TO_DTYPE:
        rc[f"torch.{storage}"] = StorageType(storage)
    rc["torch.storage.UntypedStorage"] = StorageType("UntypedStorage")
    for legacy in ("FloatTensor", "DoubleTensor", "LongTensor", "IntTensor", "BoolTensor", "HalfTensor"):
        if hasattr(_fg, legacy):
            rc[f"torch.{legacy}"] = getattr(_fg, legacy)
    for name, fn in _REBUILD_FUNCTIONS.items():
        rc[f"torch._utils.{name}"] = fn
    return rc


_ALLOWED = None


def _get_allowed_globals():
    global _ALLOWED
    if _ALLOWED is None:
        _ALLOWED = _allowed_globals()
    return _ALLOWED


# ---- user allow list ---------------------------------------------------------------------------

_marked_safe_globals_set = set()


def add_safe_globals(safe_globals):
    """Allow these globals (classes/functions, or ``(obj, "module.name")`` pairs) in
    ``weights_only`` loads."""
    global _marked_safe_globals_set
    _marked_safe_globals_set = _marked_safe_globals_set.union(set(safe_globals))


def get_safe_globals():
    return list(_marked_safe_globals_set)


def clear_safe_globals():
    global _marked_safe_globals_set
    _marked_safe_globals_set = set()


def _remove_safe_globals(globals_to_remove):
    global _marked_safe_globals_set
    _marked_safe_globals_set = _marked_safe_globals_set - set(globals_to_remove)


class safe_globals:
    """Context manager adding globals to the ``weights_only`` allow list for its duration."""

    def __init__(self, safe_globals):
        self.safe_globals = safe_globals

    def __enter__(self):
        add_safe_globals(self.safe_globals)

    def __exit__(self, type, value, tb):
        _remove_safe_globals(self.safe_globals)


def _get_user_allowed_globals():
    rc = {}
    for f in _marked_safe_globals_set:
        if isinstance(f, tuple):
            if len(f) != 2:
                raise ValueError(f"Expected tuple of length 2 (global, str of callable full path), but got tuple of length: {len(f)}")
            if type(f[1]) is not str:
                raise TypeError(f"Expected second item in tuple to be str of callable full path, but got: {type(f[1])}")
            f, name = f
            rc[name] = f
        else:
            module, name = f.__module__, f.__qualname__
            rc[f"{module}.{name}"] = f
            if module == "ferrograd" or module.startswith("ferrograd."):
                rc[f"{_torch_module_name(module)}.{name}"] = f
    return rc


# ---- the weights-only unpickler ------------------------------------------------------------------

_BLOCKED_MODULES = ("sys", "os", "posix", "nt")


def _maybe_decode_ascii(s):
    return s.decode("ascii") if isinstance(s, bytes) else s


class _WeightsOnlyUnpickler:
    """PyTorch's restricted pickle machine: a fixed set of opcodes, globals only from the allow
    lists, REDUCE/NEWOBJ/BUILD only on allowed objects, persistent ids only for storages."""

    def __init__(self, file, persistent_load, encoding="bytes"):
        self.read = file.read
        self.readline = file.readline
        self.persistent_load = persistent_load
        self.encoding = encoding
        self.memo = {}
        self.proto = -1

    def _global(self):
        module = self.readline()[:-1].decode("utf-8")
        name = self.readline()[:-1].decode("utf-8")
        from _compat_pickle import IMPORT_MAPPING, NAME_MAPPING

        if (module, name) in NAME_MAPPING:
            module, name = NAME_MAPPING[(module, name)]
        elif module in IMPORT_MAPPING:
            module = IMPORT_MAPPING[module]
        full = f"{module}.{name}"
        if module in _BLOCKED_MODULES:
            raise pickle.UnpicklingError(f"Trying to load unsupported GLOBAL {full} whose module {module} is blocked.")
        allowed = _get_allowed_globals()
        if full in allowed:
            return allowed[full]
        user = _get_user_allowed_globals()
        if full in user:
            return user[full]
        if full in ("torch.nested._internal.nested_tensor.NestedTensor", "torch.nested._internal.nested_tensor._rebuild_njt",
                    "torch._dynamo.decorators._DimRange"):
            raise pickle.UnpicklingError("``torch.nested`` and ``torch._dynamo`` must be imported to load nested jagged tensors (NJTs)")
        if full.startswith("torch.distributed."):
            raise pickle.UnpicklingError("``torch.distributed.tensor`` must be imported to load DTensors")
        shown = full
        if shown.startswith("builtins"):
            rest = shown[len("builtins"):]
            shown = rest[1:] if rest.startswith(".") else "builtins" + rest
        raise pickle.UnpicklingError(
            f"Unsupported global: GLOBAL {shown} was not an allowed global by default. "
            f"Please use `torch.serialization.add_safe_globals([{shown}])` or the "
            f"`torch.serialization.safe_globals([{shown}])` context manager to allowlist this global "
            "if you trust this class/function.")

    def _allowed(self, obj):
        return any(obj is v for v in _get_allowed_globals().values()) or \
            any(obj is v for v in _get_user_allowed_globals().values())

    def _pop_mark(self):
        items = self.stack
        self.stack = self.metastack.pop()
        return items

    def _check_set_item_target(self, opcode):
        if type(self.stack[-1]) not in (dict, collections.OrderedDict, collections.Counter):
            raise pickle.UnpicklingError(f"Can only {opcode} for dict, collections.OrderedDict, "
                                         f"collections.Counter, but got {type(self.stack[-1])}")

    def load(self):
        self.metastack = []
        self.stack = []
        read = self.read
        while True:
            key = read(1)
            if not key:
                raise EOFError
            op = key[0]
            st = self.stack
            if op == pickle.GLOBAL[0]:
                st.append(self._global())
            elif op == pickle.NEWOBJ[0]:
                args = st.pop()
                cls = st.pop()
                if cls is _fg.nn.Parameter:
                    st.append(_fg.nn.Parameter(*args))
                elif self._allowed(cls):
                    st.append(cls.__new__(cls, *args))
                else:
                    raise pickle.UnpicklingError("Can only create new object for nn.Parameter or classes allowlisted "
                                                 f"via `add_safe_globals` but got {cls}")
            elif op == pickle.REDUCE[0]:
                args = st.pop()
                func = st[-1]
                if not self._allowed(func):
                    msg = f"Trying to call reduce for unrecognized function {func}"
                    if hasattr(func, "__self__"):
                        msg += f" which belongs to {func.__self__}"
                    raise pickle.UnpicklingError(msg)
                st[-1] = func(*args)
            elif op == pickle.BUILD[0]:
                state = st.pop()
                inst = st[-1]
                if type(inst) is _fg.nn.Parameter:
                    _set_obj_state(inst, state)
                elif type(inst) is collections.OrderedDict:
                    inst.__dict__.update(state)
                elif self._allowed(type(inst)):
                    if getattr(type(inst), "__setstate__", None) not in (None, getattr(object, "__setstate__", None)):
                        inst.__setstate__(state)
                    else:
                        slots = None
                        if isinstance(state, tuple) and len(state) == 2:
                            state, slots = state
                        if state:
                            inst.__dict__.update(state)
                        if slots:
                            for k, v in slots.items():
                                setattr(inst, k, v)
                else:
                    raise pickle.UnpicklingError("Can only build Tensor, Parameter, OrderedDict or types allowlisted "
                                                 f"via `add_safe_globals`, but got {type(inst)}")
            elif op == pickle.APPEND[0]:
                item = st.pop()
                if type(st[-1]) is not list:
                    raise pickle.UnpicklingError(f"Can only append to lists, but got {type(st[-1])}")
                st[-1].append(item)
            elif op == pickle.APPENDS[0]:
                items = self._pop_mark()
                if type(self.stack[-1]) is not list:
                    raise pickle.UnpicklingError(f"Can only extend lists, but got {type(self.stack[-1])}")
                self.stack[-1].extend(items)
            elif op == pickle.SETITEM[0]:
                v, k = st.pop(), st.pop()
                self._check_set_item_target("SETITEM")
                st[-1][k] = v
            elif op == pickle.SETITEMS[0]:
                items = self._pop_mark()
                self._check_set_item_target("SETITEMS")
                for i in range(0, len(items), 2):
                    self.stack[-1][items[i]] = items[i + 1]
            elif op == pickle.MARK[0]:
                self.metastack.append(self.stack)
                self.stack = []
            elif op == pickle.TUPLE[0]:
                items = self._pop_mark()
                self.stack.append(tuple(items))
            elif op == pickle.TUPLE1[0]:
                st[-1] = (st[-1],)
            elif op == pickle.TUPLE2[0]:
                st[-2:] = [(st[-2], st[-1])]
            elif op == pickle.TUPLE3[0]:
                st[-3:] = [(st[-3], st[-2], st[-1])]
            elif op == pickle.NONE[0]:
                st.append(None)
            elif op == pickle.NEWFALSE[0]:
                st.append(False)
            elif op == pickle.NEWTRUE[0]:
                st.append(True)
            elif op == pickle.EMPTY_TUPLE[0]:
                st.append(())
            elif op == pickle.EMPTY_LIST[0]:
                st.append([])
            elif op == pickle.EMPTY_DICT[0]:
                st.append({})
            elif op == pickle.EMPTY_SET[0]:
                st.append(set())
            elif op == pickle.BININT[0]:
                st.append(struct.unpack("<i", read(4))[0])
            elif op == pickle.BININT1[0]:
                st.append(read(1)[0])
            elif op == pickle.BININT2[0]:
                st.append(struct.unpack("<H", read(2))[0])
            elif op == pickle.BINFLOAT[0]:
                st.append(struct.unpack(">d", read(8))[0])
            elif op == pickle.BINUNICODE[0]:
                n = struct.unpack("<I", read(4))[0]
                if n > sys.maxsize:
                    raise pickle.UnpicklingError("String is too long")
                st.append(str(read(n), "utf-8", "surrogatepass"))
            elif op == pickle.SHORT_BINSTRING[0]:
                n = read(1)[0]
                data = read(n)
                if self.encoding != "bytes":
                    data = data.decode(self.encoding, "strict")
                st.append(data)
            elif op == pickle.BINPERSID[0]:
                pid = st.pop()
                if type(pid) is not tuple and type(pid) is not int:
                    raise pickle.UnpicklingError(f"persistent_load id must be tuple or int, but got {type(pid)}")
                if type(pid) is tuple and len(pid) > 0 and _maybe_decode_ascii(pid[0]) != "storage":
                    raise pickle.UnpicklingError(f"Only persistent_load of storage is allowed, but got {type(pid[0])}")
                st.append(self.persistent_load(pid))
            elif op in (pickle.BINGET[0], pickle.LONG_BINGET[0]):
                idx = read(1)[0] if op == pickle.BINGET[0] else struct.unpack("<I", read(4))[0]
                st.append(self.memo[idx])
            elif op in (pickle.BINPUT[0], pickle.LONG_BINPUT[0]):
                idx = read(1)[0] if op == pickle.BINPUT[0] else struct.unpack("<I", read(4))[0]
                self.memo[idx] = st[-1]
            elif op == pickle.LONG1[0]:
                n = read(1)[0]
                st.append(pickle.decode_long(read(n)))
            elif op == pickle.PROTO[0]:
                self.proto = read(1)[0]
                if self.proto != 2:
                    warnings.warn(f"Detected pickle protocol {self.proto} in the checkpoint, which was "
                                  "not the default pickle protocol used by `torch.load` (2). The weights_only "
                                  "Unpickler might not support all instructions implemented by this protocol, "
                                  "please file an issue for adding support if you encounter this.", stacklevel=2)
            elif op == pickle.STOP[0]:
                return st.pop()
            else:
                raise pickle.UnpicklingError(f"Unsupported operand {op}")


def _full_unpickler_class(pickle_module):
    base = pickle_module.Unpickler

    class _TorchNamesUnpickler(base):
        """The ordinary unpickler, with PyTorch's names resolved to ferrograd's objects."""

        def find_class(self, module, name):
            full = f"{module}.{name}"
            allowed = _get_allowed_globals()
            if full in allowed:
                return allowed[full]
            if module == "torch" or module.startswith("torch."):
                import importlib

                mod = "ferrograd" + module[len("torch"):]
                for candidate in (mod, "ferrograd"):
                    try:
                        obj = importlib.import_module(candidate)
                        for part in name.split("."):
                            obj = getattr(obj, part)
                        return obj
                    except (ImportError, AttributeError):
                        continue
                raise AttributeError(f"Can't get attribute '{name}' on ferrograd's counterpart of <module '{module}'>")
            return super().find_class(module, name)

    return _TorchNamesUnpickler


# ---- locations -----------------------------------------------------------------------------------

def _validate_cuda(location):
    dev = _fg.device(location)
    if not _fg.cuda.is_available():
        raise RuntimeError("Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. "
                           "If you are running on a CPU-only machine, please use torch.load with "
                           "map_location=torch.device('cpu') to map your storages to the CPU.")
    index = dev.index if dev.index is not None else 0
    count = _fg.cuda.device_count()
    if index >= count:
        raise RuntimeError(f"Attempting to deserialize object on CUDA device {index} but torch.cuda.device_count() is "
                           f"{count}. Please use torch.load with map_location to map your storages to an existing device.")
    return _fg.device("cuda", index)


def default_restore_location(storage, location):
    """Put ``storage`` on the device named by ``location`` (``cpu``, ``cuda``, ``cuda:N``)."""
    if location == "cpu":
        return storage.cpu()
    if location == "cuda" or location.startswith("cuda:") or (location.startswith("cuda") and location[4:].isdigit()):
        return storage.to(_validate_cuda(location))
    if location == "meta" or location.startswith("meta"):
        raise RuntimeError("ferrograd.load: meta storages are not supported")
    raise RuntimeError(f"don't know how to restore data location of {type(storage).__name__} (tagged with {location})")


def _get_restore_location(map_location):
    if map_location is None:
        return default_restore_location
    if isinstance(map_location, dict):
        return lambda storage, location: default_restore_location(storage, map_location.get(location, location))
    if isinstance(map_location, bytes):
        map_location = map_location.decode("ascii")
    if isinstance(map_location, str):
        return lambda storage, location: default_restore_location(storage, map_location)
    if isinstance(map_location, _fg.device):
        return lambda storage, location: default_restore_location(storage, str(map_location))

    def restore(storage, location):
        result = map_location(storage, location)
        if result is None:
            result = default_restore_location(storage, location)
        return result

    return restore


# ---- load ----------------------------------------------------------------------------------------

class _Archive:
    """Records of a PyTorch zip archive (all under one folder)."""

    def __init__(self, fileobj, mapped=None):
        self.zip = zipfile.ZipFile(fileobj)
        names = self.zip.namelist()
        if not names:
            raise RuntimeError("PytorchStreamReader failed locating file data.pkl: file not found")
        self.prefix = names[0].split("/", 1)[0] + "/"
        self.infos = {i.filename: i for i in self.zip.infolist()}
        self.mapped = mapped

    def has(self, name):
        return self.prefix + name in self.infos

    def read(self, name):
        if not self.has(name):
            raise RuntimeError(f"PytorchStreamReader failed locating file {name}: file not found")
        return self.zip.read(self.prefix + name)

    def array(self, name, np_dtype, count):
        """The record as a writable NumPy array (a copy-on-write map of the file with mmap)."""
        info = self.infos.get(self.prefix + name)
        if info is None:
            raise RuntimeError(f"PytorchStreamReader failed locating file {name}: file not found")
        if self.mapped is not None and info.compress_type == zipfile.ZIP_STORED:
            header = self.mapped[info.header_offset:info.header_offset + 30]
            nlen, elen = struct.unpack("<HH", header[26:30])
            start = info.header_offset + 30 + nlen + elen
            return np.frombuffer(self.mapped, dtype=np_dtype, count=count, offset=start)
        raw = self.zip.read(info)
        return np.frombuffer(raw, dtype=np_dtype, count=count).copy()


def _load_archive(archive, map_location, weights_only, pickle_module, encoding):
    restore = _get_restore_location(map_location)
    byteorder = archive.read("byteorder").decode() if archive.has("byteorder") else "little"
    if byteorder not in ("little", "big"):
        raise ValueError("Unknown endianness type: " + byteorder)
    loaded = {}

    def persistent_load(saved_id):
        if not isinstance(saved_id, tuple):
            raise pickle.UnpicklingError("unsupported persistent id encountered")
        typename = _maybe_decode_ascii(saved_id[0])
        if typename != "storage":
            raise RuntimeError(f"Unknown typename for persistent_load, expected 'storage' but got '{typename}'")
        storage_type, key, location, numel = saved_id[1:]
        if key in loaded:
            return loaded[key]
        if isinstance(storage_type, StorageType):
            dtype_name = storage_type._dtype_name
        elif isinstance(storage_type, _fg.dtype):
            dtype_name = _dtype_name(storage_type)
        else:
            raise RuntimeError(f"ferrograd.load: unknown storage type {storage_type!r}")
        if storage_type is not None and getattr(storage_type, "name", None) == "UntypedStorage":
            dtype_name = "uint8"
        dt = _ferrograd_dtype(dtype_name)
        arr = archive.array(f"data/{key}", _np_dtype(dtype_name, byteorder), numel)
        if byteorder == "big" and arr.dtype.itemsize > 1:
            arr = arr.byteswap().view(arr.dtype.newbyteorder("="))
        flat = _fg.from_numpy(arr)
        if dt == _fg.bfloat16:
            flat = _fg._C._bitcast_copy(flat, dt)
        if flat.dtype != dt:
            raise RuntimeError(f"ferrograd.load: storage of torch.{dtype_name} read as {flat.dtype}")
        storage = restore(_LoadedStorage(flat, dtype_name, arr), _maybe_decode_ascii(location))
        if not isinstance(storage, _LoadedStorage):
            raise RuntimeError(f"map_location should return a storage, but got {type(storage).__name__}")
        loaded[key] = storage
        return storage

    data = io.BytesIO(archive.read("data.pkl"))
    if weights_only:
        return _WeightsOnlyUnpickler(data, persistent_load, encoding=encoding).load()
    unpickler = _full_unpickler_class(pickle_module)(data, encoding=encoding)
    unpickler.persistent_load = persistent_load
    return unpickler.load()


def _get_wo_message(message):
    import re

    if re.search(r"GLOBAL (\S+) was not an allowed global by default.", message) is not None:
        updated = ("Weights only load failed. This file can still be loaded, to do so you have two options, "
                   "\033[1mdo those steps only if you trust the source of the checkpoint\033[0m. "
                   f"\n\t(1) {UNSAFE_MESSAGE}\n\t(2) Alternatively, to load with `weights_only=True` please check "
                   "the recommended steps in the following error message.\n\tWeightsUnpickler error: " + message)
    else:
        if re.search(r"(\S+) must be (\S+) to load", message) is not None:
            return f"Weights only load failed. {message}\n {UNSAFE_MESSAGE}\n"
        updated = f"Weights only load failed. {UNSAFE_MESSAGE}\n"
        if re.search(r"whose module (\S+) is blocked", message) is None:
            updated += ("Please file an issue with the following so that we can make "
                        "`weights_only=True` compatible with your use case: WeightsUnpickler error: ")
        updated += "\n\n" + message
    return updated + DOCS_MESSAGE


def load(f, map_location=None, pickle_module=None, *, weights_only=None, mmap=None, **pickle_load_args):
    """Load an object saved with ``torch.save`` (by PyTorch or by ferrograd) from ``f``, a path
    or a binary file object.

    ``map_location`` moves storages: a device string or ``torch.device`` (all storages), a dict
    mapping saved locations to new ones, or a callable ``(storage, location) -> storage`` (returning
    ``None`` falls back to the saved location). ``weights_only`` (default ``True`` unless a
    ``pickle_module`` is given) restricts unpickling to tensors, primitive types, containers and
    allow-listed globals. ``mmap=True`` maps the file (copy-on-write) instead of reading the
    storages into memory; it needs a path."""
    true_values = ("1", "y", "yes", "true")
    force_wo = os.getenv("TORCH_FORCE_WEIGHTS_ONLY_LOAD", "0").lower() in true_values
    force_no_wo = os.getenv("TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD", "0").lower() in true_values
    if force_wo and force_no_wo:
        raise RuntimeError("Only one of `TORCH_FORCE_WEIGHTS_ONLY_LOAD` or `TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD` "
                           "should be set, but both were set.")
    weights_only_not_set = weights_only is None
    if weights_only_not_set:
        weights_only = pickle_module is None
    if force_wo:
        weights_only = True
    elif force_no_wo and weights_only_not_set:
        warnings.warn("Environment variable TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD detected, since the"
                      "`weights_only` argument was not explicitly passed to `torch.load`, forcing weights_only=False.",
                      UserWarning, stacklevel=2)
        weights_only = False
    if weights_only:
        if pickle_module is not None:
            raise RuntimeError("Can not safely load weights when explicit pickle_module is specified")
    elif pickle_module is None:
        pickle_module = pickle
    if pickle_load_args and weights_only:
        warnings.warn("pickle_load_args only works if `weights_only=False`.")
    encoding = pickle_load_args.pop("encoding", "utf-8")
    if pickle_load_args:
        raise TypeError(f"ferrograd.load got unsupported pickle_load_args {sorted(pickle_load_args)}")
    mmap = bool(mmap)
    if mmap and not _is_path(f):
        raise ValueError("f must be a file path in order to use the mmap argument")

    def run(archive):
        if weights_only:
            try:
                return _load_archive(archive, map_location, True, None, encoding)
            except pickle.UnpicklingError as e:
                raise pickle.UnpicklingError(_get_wo_message(str(e))) from None
        return _load_archive(archive, map_location, False, pickle_module, encoding)

    if _is_path(f):
        with open(f, "rb") as fh:
            if not zipfile.is_zipfile(fh):
                _not_zip(f, mmap)
            fh.seek(0)
            if mmap:
                mapped = _mmap.mmap(fh.fileno(), 0, access=_mmap.ACCESS_COPY)
                return run(_Archive(fh, mapped))
            return run(_Archive(fh))
    if not hasattr(f, "read"):
        raise AttributeError(f"'{type(f).__name__}' object has no attribute 'read'")
    fileobj = f
    if not (hasattr(f, "seek") and hasattr(f, "tell") and getattr(f, "seekable", lambda: True)()):
        fileobj = io.BytesIO(f.read())
    start = fileobj.tell()
    if not zipfile.is_zipfile(fileobj):
        _not_zip(f, mmap)
    fileobj.seek(start)
    return run(_Archive(fileobj))


def _not_zip(f, mmap):
    if mmap:
        name = f"{f}, " if isinstance(f, str) else ""
        raise RuntimeError("mmap can only be used with files saved with "
                           f"`torch.save({name}_use_new_zipfile_serialization=True), "
                           "please torch.save your checkpoint with this option in order to use mmap.")
    raise RuntimeError("ferrograd.load: not a zip archive written by torch.save; the legacy (pre-1.6) "
                       "format and TorchScript archives are not supported")


# ---- deep copies that keep views together ----------------------------------------------------------

def _copy_sharing_storage(t, memo):
    """A copy of ``t``'s values for ``copy.deepcopy``: tensors deep-copied together that view one
    storage get views of one new storage (as torch, which deep-copies the storage through the
    memo), with the same offset, size and stride. Non-CPU tensors are cloned one by one."""
    if t.device.type != "cpu" or t.numel() == 0:
        return t.clone()
    esize = t.element_size()
    start = t.data_ptr() - t.storage_offset() * esize
    reach = _extent(t)
    root = _root(t)
    if root.data_ptr() - root.storage_offset() * esize == start:
        reach = max(reach, _extent(root))
    key = ("ferrograd.serialization.storage", start)
    entry = memo.get(key)
    if entry is None or entry[0].numel() < reach or entry[0].dtype != t.dtype:
        arr = np.frombuffer(ctypes.string_at(start, reach * esize), dtype=_np_dtype(_dtype_name(t.dtype))).copy()
        flat = _fg.from_numpy(arr)
        if t.dtype == _fg.bfloat16:
            flat, arr = _fg._C._bitcast_copy(flat, t.dtype), None
        entry = (flat, arr)
        memo[key] = entry
    flat, arr = entry
    view = _view_of(flat, t.storage_offset(), tuple(t.shape), tuple(t.stride()))
    if view is None:
        view = _as_strided_numpy(_LoadedStorage(flat, _dtype_name(t.dtype), arr), t.storage_offset(),
                                 tuple(t.shape), tuple(t.stride()))
    return view
