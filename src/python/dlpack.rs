//! DLPack exchange, both ways, hand-rolled: the `#[repr(C)]` structs of `dlpack.h` (legacy
//! `DLManagedTensor` and DLPack 1.x `DLManagedTensorVersioned`) carried in PyCapsules.
//!
//! Export (`to_dlpack`): the capsule is named `"dltensor_versioned"` when the consumer asked
//! for `max_version >= (1, 0)`, else `"dltensor"`. Its manager context keeps the tensor (and
//! its storage) alive and owns the shape/strides arrays; the consumer renames the capsule to
//! `used_*` and calls the deleter when done, or the capsule's destructor calls it if the
//! capsule was never consumed.
//!
//! Import (`from_dlpack`): host memory and CUDA devices, zero-copy: the
//! producer's memory becomes an external CPU buffer whose owner calls the producer's deleter
//! exactly once when the storage dies. Negative strides are rejected (a `Layout` cannot hold
//! them), except on dimensions of size <= 1, where a stride is never applied.
//!
//! Devices: `kDLCPU` and `kDLCUDA` (ordinal) both ways. CUDA work is queued on the legacy
//! default stream, so an import asks the producer for `stream=1`, and an export to another
//! stream synchronises first (`ferrograd/_dlpack.py`).

use super::tensor::wrap;
use crate::dtype::DType;
use crate::shape::Layout;
use crate::storage::{Buf, CpuStorage, StorageCell};
use crate::{Device, Tensor};
use pyo3::exceptions::{PyBufferError, PyRuntimeError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyCapsule, PyDict};
use pyo3::{ffi, PyErr};
use std::ffi::{c_void, CStr};
use std::sync::Arc;

// ---- dlpack.h -----------------------------------------------------------------------------

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct DLPackVersion {
    pub major: u32,
    pub minor: u32,
}

/// `DLDevice`; `device_type` is the C enum `DLDeviceType` (an `int`).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DLDevice {
    pub device_type: i32,
    pub device_id: i32,
}

pub const KDL_CPU: i32 = 1;
pub const KDL_CUDA: i32 = 2;
pub const KDL_CUDA_HOST: i32 = 3;
pub const KDL_ROCM_HOST: i32 = 11;
pub const KDL_CUDA_MANAGED: i32 = 13;

#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DLDataType {
    pub code: u8,
    pub bits: u8,
    pub lanes: u16,
}

pub const KDL_INT: u8 = 0;
pub const KDL_UINT: u8 = 1;
pub const KDL_FLOAT: u8 = 2;
pub const KDL_BOOL: u8 = 6;
pub const KDL_BFLOAT: u8 = 4;
pub const KDL_COMPLEX: u8 = 5;

#[repr(C)]
pub struct DLTensor {
    pub data: *mut c_void,
    pub device: DLDevice,
    pub ndim: i32,
    pub dtype: DLDataType,
    pub shape: *mut i64,
    /// In elements; NULL means compact row-major (allowed before DLPack 1.x).
    pub strides: *mut i64,
    pub byte_offset: u64,
}

/// The legacy (unversioned) managed tensor, capsule name `"dltensor"`.
#[repr(C)]
pub struct DLManagedTensor {
    pub dl_tensor: DLTensor,
    pub manager_ctx: *mut c_void,
    pub deleter: Option<unsafe extern "C" fn(*mut DLManagedTensor)>,
}

pub const DLPACK_FLAG_BITMASK_READ_ONLY: u64 = 1 << 0;
pub const DLPACK_FLAG_BITMASK_IS_COPIED: u64 = 1 << 1;

/// The DLPack 1.x managed tensor, capsule name `"dltensor_versioned"`.
#[repr(C)]
pub struct DLManagedTensorVersioned {
    pub version: DLPackVersion,
    pub manager_ctx: *mut c_void,
    pub deleter: Option<unsafe extern "C" fn(*mut DLManagedTensorVersioned)>,
    pub flags: u64,
    pub dl_tensor: DLTensor,
}

// The C ABI on 64-bit targets (as in dlpack.h).
#[cfg(target_pointer_width = "64")]
const _: () = {
    assert!(std::mem::size_of::<DLTensor>() == 48);
    assert!(std::mem::size_of::<DLManagedTensor>() == 64);
    assert!(std::mem::size_of::<DLManagedTensorVersioned>() == 80);
    assert!(std::mem::offset_of!(DLManagedTensorVersioned, dl_tensor) == 32);
};

const NAME: &CStr = c"dltensor";
const NAME_V: &CStr = c"dltensor_versioned";
const USED: &CStr = c"used_dltensor";
const USED_V: &CStr = c"used_dltensor_versioned";
// the private capsules an imported storage holds to call the producer's deleter
const OWNER: &CStr = c"ferrograd.dltensor";
const OWNER_V: &CStr = c"ferrograd.dltensor_versioned";

/// The DLPack version this module produces and consumes.
const VERSION: DLPackVersion = DLPackVersion { major: 1, minor: 0 };

fn dl_dtype(d: DType) -> DLDataType {
    let (code, bits) = match d {
        DType::Bool => (KDL_BOOL, 8),
        DType::UInt8 => (KDL_UINT, 8),
        DType::Int8 => (KDL_INT, 8),
        DType::Int16 => (KDL_INT, 16),
        DType::Int32 => (KDL_INT, 32),
        DType::Int64 => (KDL_INT, 64),
        DType::Float16 => (KDL_FLOAT, 16),
        DType::BFloat16 => (KDL_BFLOAT, 16),
        DType::Float32 => (KDL_FLOAT, 32),
        DType::Float64 => (KDL_FLOAT, 64),
        DType::Complex64 => (KDL_COMPLEX, 64),
        DType::Complex128 => (KDL_COMPLEX, 128),
    };
    DLDataType { code, bits, lanes: 1 }
}

fn dtype_of(t: DLDataType) -> PyResult<DType> {
    Ok(match (t.code, t.bits, t.lanes) {
        (KDL_BOOL, 8, 1) => DType::Bool,
        (KDL_UINT, 8, 1) => DType::UInt8,
        (KDL_INT, 8, 1) => DType::Int8,
        (KDL_INT, 16, 1) => DType::Int16,
        (KDL_INT, 32, 1) => DType::Int32,
        (KDL_INT, 64, 1) => DType::Int64,
        (KDL_FLOAT, 16, 1) => DType::Float16,
        (KDL_BFLOAT, 16, 1) => DType::BFloat16,
        (KDL_FLOAT, 32, 1) => DType::Float32,
        (KDL_FLOAT, 64, 1) => DType::Float64,
        (KDL_COMPLEX, 64, 1) => DType::Complex64,
        (KDL_COMPLEX, 128, 1) => DType::Complex128,
        (c, b, l) => {
            return Err(PyBufferError::new_err(format!(
                "from_dlpack: unsupported DLPack dtype (code={c}, bits={b}, lanes={l}); supported: float16/32/64, bfloat16, int8/16/32/64, uint8, bool"
            )))
        }
    })
}

/// The DLPack device of a storage device.
fn dl_device_of(d: Device) -> DLDevice {
    match d {
        Device::Cpu => DLDevice { device_type: KDL_CPU, device_id: 0 },
        Device::Cuda(i) => DLDevice { device_type: KDL_CUDA, device_id: i as i32 },
    }
}

/// Host memory a CPU tensor can address directly.
fn is_host(device_type: i32) -> bool {
    matches!(device_type, KDL_CPU | KDL_CUDA_HOST | KDL_ROCM_HOST | KDL_CUDA_MANAGED)
}

fn device_error(device_type: i32, device_id: i32) -> PyErr {
    PyBufferError::new_err(format!("from_dlpack: only CPU and CUDA tensors can be imported, got DLPack device ({device_type}, {device_id})"))
}

/// Whether a DLPack device can be imported: host memory, or a CUDA device this process can use.
fn importable(device_type: i32, device_id: i32) -> PyResult<bool> {
    if is_host(device_type) {
        return Ok(true);
    }
    if device_type == KDL_CUDA {
        let ordinal = usize::try_from(device_id).map_err(|_| device_error(device_type, device_id))?;
        crate::cuda::check_device(Device::Cuda(ordinal))?;
        return Ok(true);
    }
    Ok(false)
}

// ---- export -------------------------------------------------------------------------------

/// What an exported capsule keeps alive: the tensor handle, its storage (which `set_data`
/// or `out=` could otherwise swap out from under the consumer), and the shape/strides arrays
/// the `DLTensor` points into.
struct ExportCtx {
    _tensor: Tensor,
    _storage: Arc<StorageCell>,
    _shape: Box<[i64]>,
    _strides: Box<[i64]>,
}

/// The two managed-tensor layouts, for the code both share.
trait Managed {
    fn ctx(&self) -> *mut c_void;
}
impl Managed for DLManagedTensor {
    fn ctx(&self) -> *mut c_void {
        self.manager_ctx
    }
}
impl Managed for DLManagedTensorVersioned {
    fn ctx(&self) -> *mut c_void {
        self.manager_ctx
    }
}

/// Our deleter: frees the managed struct and its context. Safe to call from any thread
/// without the GIL (dropping a tensor needs none; pyo3 defers any Python decref).
unsafe extern "C" fn delete_export<M: Managed>(m: *mut M) {
    if m.is_null() {
        return;
    }
    // SAFETY: `m` came from `Box::into_raw` in `to_dlpack` and DLPack calls the deleter at most
    // once; its context came from `Box::into_raw::<ExportCtx>` there too.
    unsafe {
        let m = Box::from_raw(m);
        drop(Box::from_raw(m.ctx() as *mut ExportCtx));
    }
}

/// Destructor of every capsule this module creates: an unconsumed export capsule or an import
/// owner capsule calls the managed tensor's deleter; a `used_*` capsule does nothing.
unsafe extern "C" fn capsule_destructor(cap: *mut ffi::PyObject) {
    // SAFETY: CPython calls this with the dying capsule and the GIL held. `PyCapsule_IsValid`
    // never raises; once it confirms the name, `PyCapsule_GetPointer` with that name returns
    // the non-null pointer stored at creation, which is a live managed tensor of the layout
    // the name announces (its deleter has not run: a consumer that takes ownership renames
    // the capsule first).
    unsafe {
        for (name, versioned) in [(NAME_V, true), (OWNER_V, true), (NAME, false), (OWNER, false)] {
            if ffi::PyCapsule_IsValid(cap, name.as_ptr()) == 1 {
                let p = ffi::PyCapsule_GetPointer(cap, name.as_ptr());
                call_deleter(p, versioned);
                return;
            }
        }
    }
}

/// Call a managed tensor's deleter (DLPack allows it to be NULL).
///
/// # Safety
/// `p` is null or a live `DLManagedTensorVersioned` (`versioned`) / `DLManagedTensor` whose
/// deleter has not been called and whose caller owns it; it is dangling afterwards.
unsafe fn call_deleter(p: *mut c_void, versioned: bool) {
    if p.is_null() {
        return;
    }
    // SAFETY: per this function's contract.
    unsafe {
        if versioned {
            let m = p as *mut DLManagedTensorVersioned;
            if let Some(d) = (*m).deleter {
                d(m);
            }
        } else {
            let m = p as *mut DLManagedTensor;
            if let Some(d) = (*m).deleter {
                d(m);
            }
        }
    }
}

/// A capsule over `p` with our destructor; on failure the managed tensor is deleted.
///
/// # Safety
/// `p` is a live, owned managed tensor of the layout `name` announces (one of our names).
unsafe fn new_capsule<'py>(py: Python<'py>, p: *mut c_void, name: &'static CStr, versioned: bool) -> PyResult<Bound<'py, PyCapsule>> {
    // SAFETY: `p` is non-null and `name` is a 'static C string, as `PyCapsule_New` needs; the
    // GIL is held (`py`). A new reference (or NULL with an exception) comes back.
    let cap = unsafe { ffi::PyCapsule_New(p, name.as_ptr(), Some(capsule_destructor)) };
    if cap.is_null() {
        // SAFETY: no capsule took ownership, so we still own `p`.
        unsafe { call_deleter(p, versioned) };
        return Err(PyErr::fetch(py));
    }
    // SAFETY: `cap` is a new, owned reference to a capsule object.
    Ok(unsafe { Bound::from_owned_ptr(py, cap).cast_into_unchecked() })
}

/// A DLPack capsule sharing `t`'s memory: `"dltensor_versioned"` (DLPack 1.0, with `flags`)
/// when `max_version` is at least `(1, 0)`, else legacy `"dltensor"`. `copied` sets the
/// `IS_COPIED` flag (versioned only) when the caller exports a fresh copy.
pub fn to_dlpack<'py>(py: Python<'py>, t: &Tensor, max_version: Option<(u32, u32)>, copied: bool) -> PyResult<Bound<'py, PyCapsule>> {
    let versioned = matches!(max_version, Some((major, _)) if major >= VERSION.major);
    let d = t.data().clone();
    let device = dl_device_of(d.storage.device());
    let numel = d.layout.numel();
    let data = if numel == 0 {
        std::ptr::null_mut() // as dlpack.h asks for empty tensors
    } else {
        let st = d.storage.data.read();
        // the layout addresses elements of this buffer, so `offset` stays inside it; the
        // buffer never moves or shrinks while `ExportCtx` holds its storage (storages are not
        // resized in place)
        let off = d.layout.offset;
        match &*st {
            crate::storage::Storage::Cpu(cpu) => crate::with_buf!(cpu, b => b.as_ptr().wrapping_add(off) as *mut c_void),
            // a device address: the consumer reads it on its own stream, so the work queued
            // on ours must be done first (`Tensor.__dlpack__` synchronises for a foreign
            // stream; the legacy default stream is ordered with ours already)
            crate::storage::Storage::Cuda(c) => (c.as_ptr() + off * d.dtype.itemsize()) as *mut c_void,
        }
    };
    let shape: Box<[i64]> = d.layout.shape.iter().map(|&n| n as i64).collect();
    let strides: Box<[i64]> = d.layout.strides.iter().map(|&s| s as i64).collect();
    let ndim = shape.len();
    let ptr_of = |b: &[i64]| if ndim == 0 { std::ptr::null_mut() } else { b.as_ptr() as *mut i64 };
    let dl_tensor = DLTensor {
        data,
        device,
        ndim: ndim as i32,
        dtype: dl_dtype(d.dtype),
        shape: ptr_of(&shape),
        strides: ptr_of(&strides),
        byte_offset: 0,
    };
    // moving the boxed slices into the context does not move their heap blocks
    let ctx = Box::into_raw(Box::new(ExportCtx { _tensor: t.clone(), _storage: d.storage.clone(), _shape: shape, _strides: strides })) as *mut c_void;
    if versioned {
        let flags = if copied { DLPACK_FLAG_BITMASK_IS_COPIED } else { 0 };
        let m = DLManagedTensorVersioned { version: VERSION, manager_ctx: ctx, deleter: Some(delete_export::<DLManagedTensorVersioned>), flags, dl_tensor };
        // SAFETY: a freshly boxed, owned versioned managed tensor, named accordingly.
        unsafe { new_capsule(py, Box::into_raw(Box::new(m)) as *mut c_void, NAME_V, true) }
    } else {
        let m = DLManagedTensor { dl_tensor, manager_ctx: ctx, deleter: Some(delete_export::<DLManagedTensor>) };
        // SAFETY: a freshly boxed, owned legacy managed tensor, named accordingly.
        unsafe { new_capsule(py, Box::into_raw(Box::new(m)) as *mut c_void, NAME, false) }
    }
}

// ---- import -------------------------------------------------------------------------------

/// Keeps an imported managed tensor alive: a private capsule whose destructor calls the
/// producer's deleter. Holding a Python object (not a raw pointer) means the deleter runs
/// with the GIL held even when the storage dies on a worker thread (pyo3 defers the decref),
/// and never after interpreter shutdown.
struct ImportOwner(#[allow(dead_code)] Py<PyCapsule>);

/// What `from_dlpack` reads off a `DLTensor` before taking ownership.
struct Plan {
    dtype: DType,
    shape: Vec<usize>,
    strides: Vec<usize>,
    numel: usize,
    /// Elements from the first to one past the last addressed element.
    extent: usize,
    data: *mut u8,
}

fn buffer_error(msg: impl Into<String>) -> PyErr {
    PyBufferError::new_err(msg.into())
}

/// Validate a `DLTensor` and work out the buffer it addresses.
///
/// # Safety
/// `dl` is a live DLTensor of a managed tensor not yet deleted; its `shape`/`strides` point to
/// `ndim` elements (or strides is NULL), and its data to memory of its device valid for every
/// addressed element, as the DLPack contract requires of producers. (CUDA bools are not
/// read here, so their bytes are not checked.)
unsafe fn plan(dl: &DLTensor) -> PyResult<Plan> {
    if !importable(dl.device.device_type, dl.device.device_id)? {
        return Err(device_error(dl.device.device_type, dl.device.device_id));
    }
    let host = is_host(dl.device.device_type);
    let dtype = dtype_of(dl.dtype)?;
    let item = dtype.itemsize();
    let ndim = usize::try_from(dl.ndim).map_err(|_| buffer_error("from_dlpack: negative ndim"))?;
    if ndim > 0 && dl.shape.is_null() {
        return Err(buffer_error("from_dlpack: NULL shape"));
    }
    // SAFETY: `shape` points to `ndim` int64s (checked non-null when ndim > 0).
    let raw_shape: &[i64] = if ndim == 0 { &[] } else { unsafe { std::slice::from_raw_parts(dl.shape, ndim) } };
    let shape = raw_shape.iter().map(|&n| usize::try_from(n).map_err(|_| buffer_error("from_dlpack: negative size"))).collect::<PyResult<Vec<_>>>()?;
    let numel = shape.iter().try_fold(1usize, |a, &n| a.checked_mul(n)).ok_or_else(|| buffer_error("from_dlpack: too many elements"))?;
    let strides: Vec<usize> = if dl.strides.is_null() || ndim == 0 {
        crate::shape::contiguous_strides(&shape).to_vec()
    } else {
        // SAFETY: non-null `strides` points to `ndim` int64s.
        let raw = unsafe { std::slice::from_raw_parts(dl.strides, ndim) };
        let mut out = Vec::with_capacity(ndim);
        for (&s, &n) in raw.iter().zip(&shape) {
            out.push(match usize::try_from(s) {
                Ok(s) => s,
                Err(_) if n <= 1 => 0, // never applied
                Err(_) => return Err(buffer_error("from_dlpack: negative strides are not supported (make a copy first)")),
            });
        }
        out
    };
    if dl.byte_offset % item as u64 != 0 {
        return Err(buffer_error(format!("from_dlpack: byte_offset {} is not a multiple of the itemsize {item}", dl.byte_offset)));
    }
    if numel == 0 {
        return Ok(Plan { dtype, shape, strides, numel, extent: 0, data: std::ptr::null_mut() });
    }
    let too_big = || buffer_error("from_dlpack: the tensor addresses more memory than fits in the address space");
    let mut extent = 1usize;
    for (&n, &s) in shape.iter().zip(&strides) {
        extent = (n - 1).checked_mul(s).and_then(|x| x.checked_add(extent)).ok_or_else(too_big)?;
    }
    let bytes = extent.checked_mul(item).filter(|&b| b <= isize::MAX as usize).ok_or_else(too_big)?;
    if dl.data.is_null() {
        return Err(buffer_error("from_dlpack: NULL data pointer for a non-empty tensor"));
    }
    let offset = usize::try_from(dl.byte_offset).map_err(|_| too_big())?;
    let addr = (dl.data as usize).checked_add(offset).filter(|a| a.checked_add(bytes).is_some()).ok_or_else(too_big)?;
    if addr % item != 0 {
        return Err(buffer_error(format!("from_dlpack: the data pointer is not aligned to the itemsize {item}")));
    }
    // `wrapping_add` keeps the producer's pointer provenance; the sum was checked above
    let data = (dl.data as *mut u8).wrapping_add(offset);
    if dtype == DType::Bool && host {
        // SAFETY: `data..data+extent` lies within the producer's allocation (it spans the
        // first to the last addressed element), which holds initialised bools/bytes.
        let b = unsafe { std::slice::from_raw_parts(data, extent) };
        if b.iter().any(|&x| x > 1) {
            return Err(buffer_error("from_dlpack: a bool tensor holds bytes other than 0 and 1"));
        }
    }
    Ok(Plan { dtype, shape, strides, numel, extent, data })
}

/// Take a capsule's managed tensor: `(pointer, versioned)`; the capsule is renamed `used_*`.
/// Until the rename, the capsule (and its producer's destructor) still owns it.
fn consume(py: Python<'_>, cap: &Bound<'_, PyCapsule>) -> PyResult<(*mut c_void, bool)> {
    let p = cap.as_ptr();
    // SAFETY: `p` is a live capsule (GIL held); IsValid only compares its name and never raises.
    let versioned = unsafe { ffi::PyCapsule_IsValid(p, NAME_V.as_ptr()) } == 1;
    // SAFETY: as above.
    if !versioned && unsafe { ffi::PyCapsule_IsValid(p, NAME.as_ptr()) } != 1 {
        return Err(PyRuntimeError::new_err(
            "from_dlpack received an invalid capsule: a DLPack capsule is named \"dltensor\" or \"dltensor_versioned\" and can be consumed only once, so it may already have been used",
        ));
    }
    let name = if versioned { NAME_V } else { NAME };
    // SAFETY: the capsule is valid with this name, so this returns its non-null pointer.
    let managed = unsafe { ffi::PyCapsule_GetPointer(p, name.as_ptr()) };
    if managed.is_null() {
        return Err(PyErr::fetch(py));
    }
    Ok((managed, versioned))
}

/// Mark a capsule consumed: from here on the caller owns its managed tensor.
fn mark_used(py: Python<'_>, cap: &Bound<'_, PyCapsule>, versioned: bool) -> PyResult<()> {
    let used = if versioned { USED_V } else { USED };
    // SAFETY: a live capsule and a 'static name (the capsule keeps the pointer).
    if unsafe { ffi::PyCapsule_SetName(cap.as_ptr(), used.as_ptr()) } != 0 {
        return Err(PyErr::fetch(py));
    }
    Ok(())
}

/// Import a DLPack capsule as a tensor sharing its memory (read-only exports and empty
/// tensors are copied, and the producer released at once).
fn from_capsule(py: Python<'_>, cap: &Bound<'_, PyCapsule>) -> PyResult<Tensor> {
    let (managed, versioned) = consume(py, cap)?;
    if versioned {
        // SAFETY: `managed` is the capsule's live versioned managed tensor; `version` is its
        // first field in every DLPack major version, so reading it is always in bounds.
        let major = unsafe { (*(managed as *const DLManagedTensorVersioned)).version.major };
        if major != VERSION.major {
            // dlpack.h: on a major-version mismatch only the deleter may be touched
            mark_used(py, cap, versioned)?;
            // SAFETY: the rename made us the owner; `deleter` sits at the same offset in
            // every major version (dlpack.h keeps the fields up to `flags` stable).
            unsafe { call_deleter(managed, versioned) };
            return Err(buffer_error(format!("from_dlpack: DLPack major version {major} is not supported (expected {})", VERSION.major)));
        }
    }
    // SAFETY: `managed` is the capsule's live managed tensor of the layout its name announced
    // (version checked above); nothing deletes it while we read (the capsule still owns it,
    // and we hold the GIL).
    let (dl, read_only) = unsafe {
        if versioned {
            let m = &*(managed as *const DLManagedTensorVersioned);
            (&m.dl_tensor, m.flags & DLPACK_FLAG_BITMASK_READ_ONLY != 0)
        } else {
            (&(*(managed as *const DLManagedTensor)).dl_tensor, false)
        }
    };
    // SAFETY: `dl` is live (above) and the producer vouches for shape/strides/data.
    let p = unsafe { plan(dl)? };
    mark_used(py, cap, versioned)?;
    let owner_name = if versioned { OWNER_V } else { OWNER };
    // SAFETY: after the rename we own `managed`, of the layout `owner_name` announces.
    let owner = unsafe { new_capsule(py, managed, owner_name, versioned)? };
    let layout = Layout { shape: p.shape.iter().copied().collect(), strides: p.strides.iter().copied().collect(), offset: 0 };
    if p.numel == 0 {
        drop(owner); // releases the producer now
        return Ok(Tensor::from_parts(StorageCell::cpu(CpuStorage::zeros(p.dtype, 0)?), Layout::contiguous(&p.shape), p.dtype));
    }
    let keep: Box<dyn std::any::Any + Send + Sync> = Box::new(ImportOwner(owner.unbind()));
    let (ptr, n) = (p.data, p.extent);
    if dl.device.device_type == KDL_CUDA {
        if matches!(p.dtype, DType::Complex64 | DType::Complex128) {
            return Err(buffer_error("from_dlpack: complex CUDA tensors are not supported"));
        }
        let device = Device::Cuda(dl.device.device_id as usize);
        // SAFETY: `ptr` is the producer's device address (checked aligned in `plan`) of `n`
        // elements from the first to the last addressed one, valid until its deleter runs,
        // i.e. until `keep` dies with this storage; the primary context is shared by every
        // runtime-API library, so the address is valid in ours.
        let storage = unsafe { crate::cuda::CudaStorage::foreign(device, ptr as u64, n, p.dtype, keep)? };
        let t = Tensor::from_parts(StorageCell::new(crate::storage::Storage::Cuda(storage)), layout, p.dtype);
        return if read_only { Ok(t.detach_copy()?) } else { Ok(t) };
    }
    // SAFETY: `ptr` is aligned for the dtype (checked in `plan`) and points to `n` initialised
    // elements of it inside the producer's allocation, which stays valid until the deleter
    // runs, i.e. until `keep` (the owner capsule) dies with this storage. Nothing else in Rust
    // references that memory; other views of it (the producer's array) are foreign, as with
    // `from_numpy`. Bool bytes were checked to be 0/1.
    let storage = unsafe {
        match p.dtype {
            DType::Bool => CpuStorage::Bool(Buf::external(ptr as *mut bool, n, keep)),
            DType::UInt8 => CpuStorage::U8(Buf::external(ptr, n, keep)),
            DType::Int8 => CpuStorage::I8(Buf::external(ptr as *mut i8, n, keep)),
            DType::Int16 => CpuStorage::I16(Buf::external(ptr as *mut i16, n, keep)),
            DType::Int32 => CpuStorage::I32(Buf::external(ptr as *mut i32, n, keep)),
            DType::Int64 => CpuStorage::I64(Buf::external(ptr as *mut i64, n, keep)),
            DType::Float16 => CpuStorage::F16(Buf::external(ptr as *mut half::f16, n, keep)),
            DType::BFloat16 => CpuStorage::BF16(Buf::external(ptr as *mut half::bf16, n, keep)),
            DType::Float32 => CpuStorage::F32(Buf::external(ptr as *mut f32, n, keep)),
            DType::Float64 => CpuStorage::F64(Buf::external(ptr as *mut f64, n, keep)),
            // complex elements are (re, im) pairs of the real type, which is how they are stored
            DType::Complex64 => CpuStorage::F32(Buf::external(ptr as *mut f32, 2 * n, keep)),
            DType::Complex128 => CpuStorage::F64(Buf::external(ptr as *mut f64, 2 * n, keep)),
        }
    };
    let t = Tensor::from_parts(StorageCell::cpu(storage), layout, p.dtype);
    if read_only {
        // no read-only tensors here: copy, and drop the borrowed view (calling the deleter)
        return Ok(t.detach_copy()?);
    }
    Ok(t)
}

/// `ferrograd.from_dlpack(obj)`: `obj` has `__dlpack__` (asked for a versioned capsule, with
/// a fallback for producers that predate `max_version`) or is a capsule.
pub fn from_dlpack(py: Python<'_>, obj: &Bound<'_, PyAny>) -> PyResult<Tensor> {
    if let Ok(cap) = obj.cast::<PyCapsule>() {
        return from_capsule(py, cap);
    }
    if !obj.hasattr("__dlpack__")? {
        return Err(PyTypeError::new_err(format!(
            "from_dlpack: expected an object with __dlpack__ or a DLPack capsule, got {}",
            obj.get_type().name()?
        )));
    }
    let mut cuda = false;
    if obj.hasattr("__dlpack_device__")? {
        let (ty, id): (i32, i32) = obj.call_method0("__dlpack_device__")?.extract()?;
        if !importable(ty, id)? {
            return Err(device_error(ty, id));
        }
        cuda = ty == KDL_CUDA;
    }
    // a CUDA producer is asked to make its data ready for our stream: the legacy default
    // stream, which DLPack numbers 1
    let legacy = PyDict::new(py);
    if cuda {
        legacy.set_item("stream", 1)?;
    }
    let kwargs = legacy.copy()?;
    kwargs.set_item("max_version", (VERSION.major, VERSION.minor))?;
    let cap = match obj.call_method("__dlpack__", (), Some(&kwargs)) {
        Ok(c) => c,
        Err(e) if e.is_instance_of::<PyTypeError>(py) => obj.call_method("__dlpack__", (), Some(&legacy))?,
        Err(e) => return Err(e),
    };
    let cap = cap.cast::<PyCapsule>().map_err(|_| PyTypeError::new_err("from_dlpack: __dlpack__ did not return a PyCapsule"))?;
    from_capsule(py, cap)
}

// ---- bindings -----------------------------------------------------------------------------

/// `_C._to_dlpack(tensor, max_version=None, *, copied=False)`: the capsule behind
/// `Tensor.__dlpack__` and `utils.dlpack.to_dlpack` (argument checks live in Python).
#[pyfunction]
#[pyo3(name = "_to_dlpack", signature = (tensor, max_version=None, *, copied=false))]
fn py_to_dlpack<'py>(py: Python<'py>, tensor: PyRef<'py, super::tensor::PyTensor>, max_version: Option<(i64, i64)>, copied: bool) -> PyResult<Bound<'py, PyCapsule>> {
    let mv = max_version.map(|(a, b)| (a.clamp(0, u32::MAX as i64) as u32, b.clamp(0, u32::MAX as i64) as u32));
    to_dlpack(py, &tensor.t, mv, copied)
}

/// `_C.from_dlpack(obj)`.
#[pyfunction]
#[pyo3(name = "from_dlpack")]
fn py_from_dlpack(py: Python<'_>, obj: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
    wrap(py, from_dlpack(py, obj)?)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(py_to_dlpack, m)?)?;
    m.add_function(wrap_pyfunction!(py_from_dlpack, m)?)?;
    Ok(())
}
