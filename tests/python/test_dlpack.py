"""DLPack in and out (CPU): zero-copy round trips with NumPy, capsule names and layout,
ownership (consume once, producer kept alive, deleter called once) and argument checks."""

import ctypes
import gc
import sys

import numpy as np
import pytest

import ferrograd as torch
import ferrograd.utils.dlpack as tdl

DTYPES = [
    (torch.float16, np.float16),
    (torch.float32, np.float32),
    (torch.float64, np.float64),
    (torch.int32, np.int32),
    (torch.int64, np.int64),
    (torch.bool, np.bool_),
]

_get_name = ctypes.pythonapi.PyCapsule_GetName
_get_name.restype = ctypes.c_char_p
_get_name.argtypes = [ctypes.py_object]
_get_pointer = ctypes.pythonapi.PyCapsule_GetPointer
_get_pointer.restype = ctypes.c_void_p
_get_pointer.argtypes = [ctypes.py_object, ctypes.c_char_p]


def capsule_name(cap):
    return _get_name(cap).decode()


class DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class DLTensor(ctypes.Structure):
    _fields_ = [
        ("data", ctypes.c_void_p),
        ("device", DLDevice),
        ("ndim", ctypes.c_int32),
        ("dtype", DLDataType),
        ("shape", ctypes.POINTER(ctypes.c_int64)),
        ("strides", ctypes.POINTER(ctypes.c_int64)),
        ("byte_offset", ctypes.c_uint64),
    ]


class DLManagedTensorVersioned(ctypes.Structure):
    _fields_ = [
        ("major", ctypes.c_uint32),
        ("minor", ctypes.c_uint32),
        ("manager_ctx", ctypes.c_void_p),
        ("deleter", ctypes.c_void_p),
        ("flags", ctypes.c_uint64),
        ("dl_tensor", DLTensor),
    ]


def sample(dt, shape=(2, 3)):
    n = int(np.prod(shape))
    if dt == torch.bool:
        return torch.tensor((np.arange(n) % 3 == 0).reshape(shape).tolist())
    return torch.arange(n).reshape(*shape).to(dt)


# ---- protocol basics ------------------------------------------------------------------------


def test_dlpack_device():
    assert torch.ones(2).__dlpack_device__() == (1, 0)
    assert torch.tensor(1.0).__dlpack_device__() == (1, 0)


def test_capsule_names_legacy_and_versioned():
    t = torch.arange(4.0)
    assert capsule_name(t.__dlpack__()) == "dltensor"
    assert capsule_name(t.__dlpack__(max_version=(0, 8))) == "dltensor"
    assert capsule_name(t.__dlpack__(max_version=(1, 0))) == "dltensor_versioned"
    assert capsule_name(t.__dlpack__(max_version=(1, 3))) == "dltensor_versioned"
    assert capsule_name(t.__dlpack__(max_version=(2, 0))) == "dltensor_versioned"
    assert capsule_name(tdl.to_dlpack(t)) == "dltensor"
    assert "dltensor_versioned" in repr(t.__dlpack__(max_version=(1, 0)))


def test_versioned_capsule_layout():
    base = torch.arange(12.0, dtype=torch.float32).reshape(3, 4)
    t = base[1:, ::2]  # offset 4, strides (4, 2)
    cap = t.__dlpack__(max_version=(1, 0))
    m = DLManagedTensorVersioned.from_address(_get_pointer(cap, b"dltensor_versioned"))
    assert (m.major, m.minor) == (1, 0)
    assert m.flags == 0  # writable, not a copy
    dl = m.dl_tensor
    assert (dl.device.device_type, dl.device.device_id) == (1, 0)
    assert (dl.dtype.code, dl.dtype.bits, dl.dtype.lanes) == (2, 32, 1)
    assert dl.ndim == 2
    assert [dl.shape[i] for i in range(2)] == [2, 2]
    assert [dl.strides[i] for i in range(2)] == [4, 2]
    assert dl.byte_offset == 0
    assert dl.data == t.data_ptr() == base.data_ptr() + 4 * 4
    copied = DLManagedTensorVersioned.from_address(_get_pointer(t.__dlpack__(max_version=(1, 0), copy=True), b"dltensor_versioned"))
    assert copied.flags == 2  # DLPACK_FLAG_BITMASK_IS_COPIED


def test_unconsumed_capsules_are_freed():
    t = torch.arange(1000.0)
    for _ in range(200):
        t.__dlpack__()
        t.__dlpack__(max_version=(1, 0))
    gc.collect()
    assert t[999].item() == 999.0


# ---- NumPy both ways, zero-copy --------------------------------------------------------------


def test_numpy_from_ferrograd_shares_memory():
    t = torch.arange(6.0).reshape(2, 3)
    a = np.from_dlpack(t)
    assert a.shape == (2, 3) and a.dtype == np.float32
    assert a.flags.writeable
    assert a.ctypes.data == t.data_ptr()
    t.add_(10)
    assert a.tolist() == [[10.0, 11.0, 12.0], [13.0, 14.0, 15.0]]
    a[1, 2] = -1.0
    assert t[1, 2].item() == -1.0


def test_ferrograd_from_numpy_shares_memory():
    a = np.arange(6.0).reshape(2, 3)
    t = torch.from_dlpack(a)
    assert t.dtype == torch.float64 and tuple(t.shape) == (2, 3)
    assert t.data_ptr() == a.ctypes.data
    a[0, 0] = 42.0
    assert t[0, 0].item() == 42.0
    t.add_(1)
    assert a.tolist() == [[43.0, 2.0, 3.0], [4.0, 5.0, 6.0]]


def test_ferrograd_round_trip_shares_memory():
    t = torch.arange(5)
    u = torch.from_dlpack(t)
    assert u.data_ptr() == t.data_ptr()
    u[0] = 7
    assert t[0].item() == 7
    v = tdl.from_dlpack(tdl.to_dlpack(t))
    assert v.data_ptr() == t.data_ptr()


@pytest.mark.parametrize("dt,npdt", DTYPES, ids=[str(d[0]) for d in DTYPES])
def test_every_dtype_both_ways(dt, npdt):
    t = sample(dt)
    a = np.from_dlpack(t)
    assert a.dtype == npdt
    assert a.tolist() == t.tolist()
    assert a.ctypes.data == t.data_ptr()
    back = torch.from_dlpack(a)
    assert back.dtype == dt
    assert back.tolist() == t.tolist()
    assert back.data_ptr() == t.data_ptr()
    src = (np.arange(6) % 2 == 0) if npdt is np.bool_ else np.arange(6).astype(npdt)
    u = torch.from_dlpack(src)
    assert u.dtype == dt and u.tolist() == src.tolist()
    assert u.data_ptr() == src.ctypes.data


def test_non_contiguous_export():
    base = torch.arange(12.0).reshape(3, 4)
    tt = base.t()
    a = np.from_dlpack(tt)
    assert a.shape == (4, 3) and a.strides == (4, 16)
    assert a.tolist() == tt.tolist()
    s = base[1:, 1::2]
    b = np.from_dlpack(s)
    assert b.tolist() == s.tolist() == [[5.0, 7.0], [9.0, 11.0]]
    assert b.ctypes.data == s.data_ptr()
    base[2, 3] = 100.0
    assert b[1, 1] == 100.0 and a[3, 2] == 100.0


def test_non_contiguous_import():
    a = np.arange(12, dtype=np.int64).reshape(3, 4)
    t = torch.from_dlpack(a.T)
    assert tuple(t.shape) == (4, 3) and t.stride() == (1, 4)
    assert t.tolist() == a.T.tolist()
    s = torch.from_dlpack(a[1:, 1::2])
    assert s.stride() == (4, 2)
    assert s.tolist() == a[1:, 1::2].tolist()
    assert s.data_ptr() == a[1:, 1::2].ctypes.data
    a[2, 3] = -5
    assert s[1, 1].item() == -5 and t[3, 2].item() == -5


def test_zero_dim_and_empty():
    z = torch.tensor(3.5, dtype=torch.float64)
    a = np.from_dlpack(z)
    assert a.shape == () and a.item() == 3.5
    t = torch.from_dlpack(np.array(2.5))
    assert t.dim() == 0 and t.item() == 2.5
    e = torch.zeros(0, 3)
    b = np.from_dlpack(e)
    assert b.shape == (0, 3) and b.dtype == np.float32
    u = torch.from_dlpack(np.empty((2, 0), dtype=np.int32))
    assert tuple(u.shape) == (2, 0) and u.dtype == torch.int32 and u.numel() == 0


# ---- ownership --------------------------------------------------------------------------------


def test_capsule_consumed_once():
    t = torch.arange(3.0)
    for cap in (t.__dlpack__(), t.__dlpack__(max_version=(1, 0))):
        name = capsule_name(cap)
        u = torch.from_dlpack(cap)
        assert u.tolist() == [0.0, 1.0, 2.0]
        assert capsule_name(cap) == "used_" + name
        with pytest.raises(RuntimeError, match="consumed only once"):
            torch.from_dlpack(cap)


def test_producer_alive_after_tensor_deleted():
    t = torch.arange(1000.0, dtype=torch.float64)
    a = np.from_dlpack(t)
    del t
    gc.collect()
    junk = [torch.full((1000,), 7.0, dtype=torch.float64) for _ in range(20)]
    assert a.tolist() == [float(i) for i in range(1000)]
    a[0] = 5.0  # still writable memory that we own
    assert a[0] == 5.0
    del junk


def test_imported_array_alive_and_deleter_called_once():
    a = np.arange(100.0)
    base = sys.getrefcount(a)
    t = torch.from_dlpack(a)  # NumPy's manager context holds a reference to `a`
    assert sys.getrefcount(a) == base + 1
    view = t[10:20]
    del t
    gc.collect()
    assert sys.getrefcount(a) == base + 1  # the view keeps the storage (and `a`) alive
    assert view.tolist() == [float(i) for i in range(10, 20)]
    del view
    gc.collect()
    assert sys.getrefcount(a) == base  # the deleter ran, exactly once

    b = np.arange(10.0)
    keep = torch.from_dlpack(b)
    del b
    gc.collect()
    assert keep.tolist() == [float(i) for i in range(10)]


def test_read_only_import_is_copied():
    a = np.arange(4.0)
    a.flags.writeable = False
    base = sys.getrefcount(a)
    t = torch.from_dlpack(a)
    assert sys.getrefcount(a) == base  # copied; the producer was released at once
    assert t.tolist() == [0.0, 1.0, 2.0, 3.0]
    t.add_(1)
    assert a.tolist() == [0.0, 1.0, 2.0, 3.0]


# ---- argument checks ---------------------------------------------------------------------------


def test_requires_grad_refused():
    t = torch.ones(3, requires_grad=True)
    with pytest.raises(RuntimeError, match="Can't export tensors that require gradient, use tensor.detach()"):
        t.__dlpack__()
    with pytest.raises(BufferError):
        np.from_dlpack(t)
    assert np.from_dlpack(t.detach()).tolist() == [1.0, 1.0, 1.0]


def test_stream_on_cpu():
    t = torch.ones(2)
    assert capsule_name(t.__dlpack__(stream=None)) == "dltensor"
    assert capsule_name(t.__dlpack__(stream=-1)) == "dltensor"
    with pytest.raises(AssertionError, match="stream should be None on cpu"):
        t.__dlpack__(stream=1)
    with pytest.raises(TypeError, match="stream must be"):
        t.__dlpack__(stream="0")


def test_dl_device_and_copy():
    t = torch.arange(4.0)
    assert capsule_name(t.__dlpack__(dl_device=(1, 0))) == "dltensor"
    with pytest.raises(BufferError):
        t.__dlpack__(dl_device=(2, 0))
    shared = np.from_dlpack(t, copy=False)
    copied = np.from_dlpack(t, copy=True)
    t.add_(1)
    assert shared.tolist() == [1.0, 2.0, 3.0, 4.0]
    assert copied.tolist() == [0.0, 1.0, 2.0, 3.0]
    assert copied.ctypes.data != t.data_ptr()


def test_import_rejections():
    with pytest.raises(BufferError, match="negative strides"):
        torch.from_dlpack(np.arange(5.0)[::-1])
    with pytest.raises(BufferError, match="unsupported DLPack dtype"):
        torch.from_dlpack(np.arange(3, dtype=np.uint16))
    u = torch.from_dlpack(np.arange(3, dtype=np.uint8))
    assert u.dtype == torch.uint8 and u.tolist() == [0, 1, 2]
    with pytest.raises(BufferError, match="bytes other than 0 and 1"):
        torch.from_dlpack(np.array([0, 2], dtype=np.uint8).view(np.bool_))
    with pytest.raises(TypeError):
        torch.from_dlpack([1, 2, 3])

    class OnGpu:
        called = False

        def __dlpack_device__(self):
            return (2, 0)

        def __dlpack__(self, **kw):
            OnGpu.called = True
            raise AssertionError("must not be called")

    if not torch.cuda.is_available():
        # as PyTorch: a CUDA producer needs a usable CUDA device first
        with pytest.raises(RuntimeError, match="Found no NVIDIA driver|Torch not compiled with CUDA enabled"):
            torch.from_dlpack(OnGpu())
        assert not OnGpu.called

    class OnOpenCL(OnGpu):
        def __dlpack_device__(self):
            return (4, 0)

    with pytest.raises(BufferError, match="only CPU and CUDA tensors"):
        torch.from_dlpack(OnOpenCL())
    assert not OnGpu.called


def test_failed_import_leaves_capsule_usable():
    a = np.arange(3, dtype=np.uint16)
    cap = a.__dlpack__()
    with pytest.raises(BufferError):
        torch.from_dlpack(cap)
    assert capsule_name(cap) == "dltensor"  # not consumed: its own destructor frees it


def test_old_producer_without_max_version():
    class Old:
        def __init__(self, a):
            self.a = a

        def __dlpack__(self, stream=None):
            return self.a.__dlpack__(stream=stream)

        def __dlpack_device__(self):
            return self.a.__dlpack_device__()

    a = np.arange(3.0)
    t = torch.from_dlpack(Old(a))
    assert t.tolist() == [0.0, 1.0, 2.0] and t.data_ptr() == a.ctypes.data
