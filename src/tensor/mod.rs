//! The tensor handle: a cheap `Arc` to storage + layout + dtype + autograd metadata.

mod api;
mod factory;
pub use api::BackwardOptions;
pub use factory::*;

use crate::autograd::NodeRef;
use crate::autograd::{AccumulateGrad, Edge, PostAccHook, TensorHook};
use crate::dtype::{DType, Elem, Priority};
use crate::error::Result;
use crate::shape::{Dims, Layout};
use crate::device::Device;
use crate::storage::{CpuStorage, Storage, StorageCell, StorageElem};
use crate::{bail, with_buf};
use parking_lot::{Mutex, RwLock, RwLockReadGuard};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// A Python-style scalar operand.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Scalar {
    Bool(bool),
    Int(i64),
    Float(f64),
}

impl Scalar {
    pub fn as_f64(self) -> f64 {
        match self {
            Scalar::Bool(b) => b as u8 as f64,
            Scalar::Int(i) => i as f64,
            Scalar::Float(f) => f,
        }
    }
    pub fn as_i64(self) -> i64 {
        match self {
            Scalar::Bool(b) => b as i64,
            Scalar::Int(i) => i,
            Scalar::Float(f) => f as i64,
        }
    }
    pub fn dtype(self) -> DType {
        match self {
            Scalar::Bool(_) => DType::Bool,
            Scalar::Int(_) => DType::Int64,
            Scalar::Float(_) => DType::Float64,
        }
    }
}

/// The data half of a tensor: which storage, where in it, what type.
#[derive(Clone)]
pub struct TensorData {
    pub storage: Arc<StorageCell>,
    pub layout: Layout,
    pub dtype: DType,
    /// Shared by views; bumped by every in-place write (see `Tensor::bump_version`).
    pub version: Arc<AtomicU64>,
}

/// Hooks registered on a tensor, removable by id.
pub type HookList<H> = Arc<Mutex<Vec<(u64, Arc<H>)>>>;

/// The autograd half of a tensor.
#[derive(Default)]
pub struct AutogradMeta {
    pub requires_grad: bool,
    pub grad: Option<Tensor>,
    pub grad_fn: Option<NodeRef>,
    pub output_nr: u32,
    pub retains_grad: bool,
    /// Hooks of a leaf (non-leaf hooks live on the grad_fn node); created on first use, so
    /// a fresh tensor costs no allocation for them.
    pub hooks: Option<HookList<dyn TensorHook>>,
    pub post_acc_hooks: Option<HookList<dyn PostAccHook>>,
    pub grad_accumulator: crate::autograd::WeakNodeRef,
    /// For a view created while recording: the base it looks into (for CopySlices).
    pub view_base: Option<Tensor>,
    /// For a view: the value of the version counter (shared with its base) when its grad_fn
    /// was recorded. A different value means the base, or another view of it, was written in
    /// place since; the view's history is then re-read from the base's (`refresh_view`).
    pub view_version: u64,
    /// How a view was made, for torch's in-place checks: `VIEW_MULTI_OUTPUT` for an output
    /// of split/chunk/unbind (or a view of one), which torch forbids writing in place.
    pub view_creation: u8,
    /// The tangent at the live forward-AD level (`autograd::forward`).
    pub fw_grad: Option<Tensor>,
}

/// `AutogradMeta::view_creation` of an output of a function returning several views.
pub const VIEW_MULTI_OUTPUT: u8 = 1;

impl AutogradMeta {
    /// The leaf's hook list, created on first use.
    pub fn hooks_list(&mut self) -> HookList<dyn TensorHook> {
        self.hooks.get_or_insert_with(Default::default).clone()
    }
    /// The leaf's post-accumulate hook list, created on first use.
    pub fn post_acc_list(&mut self) -> HookList<dyn PostAccHook> {
        self.post_acc_hooks.get_or_insert_with(Default::default).clone()
    }
    /// Snapshot of the leaf hooks (empty when none were registered).
    pub fn leaf_hooks(&self) -> Vec<Arc<dyn TensorHook>> {
        self.hooks.as_ref().map(|l| l.lock().iter().map(|h| h.1.clone()).collect()).unwrap_or_default()
    }
    /// Snapshot of the post-accumulate hooks.
    pub fn post_hooks(&self) -> Vec<Arc<dyn PostAccHook>> {
        self.post_acc_hooks.as_ref().map(|l| l.lock().iter().map(|h| h.1.clone()).collect()).unwrap_or_default()
    }
}

/// What a `Tensor` points to.
pub struct TensorImpl {
    data: RwLock<TensorData>,
    autograd: Mutex<AutogradMeta>,
    pub is_inference: bool,
    /// A Python scalar wrapped as a tensor (lowest promotion priority).
    pub is_wrapped_number: bool,
    /// The bindings' cached Python object (a weak reference), for identity (`x.grad is g`).
    pub py_slot: std::sync::atomic::AtomicUsize,
    /// Sticky: set once the tensor may have autograd history (`requires_grad`, a `grad_fn` or
    /// a view base was set), never cleared. While it is false, `gradient_edge` answers `None`
    /// without taking the metadata lock: most tensors of a no-grad op never lock it.
    grad_hint: std::sync::atomic::AtomicBool,
}

/// A tensor: a cheap, clonable handle.
#[derive(Clone)]
pub struct Tensor(pub Arc<TensorImpl>);

impl std::fmt::Debug for Tensor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Tensor(shape={:?}, dtype={})", self.shape(), self.dtype().name())
    }
}

impl TensorImpl {
    /// The autograd metadata if no one holds it now (for the garbage collector's traversal,
    /// which must not block).
    pub fn try_meta(&self) -> Option<parking_lot::MutexGuard<'_, AutogradMeta>> {
        self.autograd.try_lock()
    }
}

impl Drop for TensorImpl {
    fn drop(&mut self) {
        // A grad_fn may head a long chain: hand it to the iterative dropper.
        let meta = self.autograd.get_mut();
        if let Some(n) = meta.grad_fn.take() {
            crate::autograd::drop_node(n);
        }
    }
}

impl Tensor {
    /// A new tensor over `storage` with `layout`.
    pub fn from_parts(storage: Arc<StorageCell>, layout: Layout, dtype: DType) -> Tensor {
        Tensor::build(TensorData { storage, layout, dtype, version: Arc::new(AtomicU64::new(0)) }, false)
    }

    pub(crate) fn build(data: TensorData, wrapped: bool) -> Tensor {
        Tensor::build_with(data, wrapped, crate::autograd::is_inference_mode())
    }

    pub(crate) fn build_with(data: TensorData, wrapped: bool, inference: bool) -> Tensor {
        // Written field by field into the allocation: `Arc::new` of the whole struct would
        // build it on the stack and copy its few hundred bytes, a visible share of a small op.
        let mut a = Arc::<TensorImpl>::new_uninit();
        let p = Arc::get_mut(&mut a).expect("a fresh Arc is unique").as_mut_ptr();
        // SAFETY: `p` points to the uninitialised, exclusively owned `TensorImpl` of the fresh
        // allocation; every field is written exactly once below, so it is initialised when
        // `assume_init` runs.
        unsafe {
            std::ptr::addr_of_mut!((*p).data).write(RwLock::new(data));
            std::ptr::addr_of_mut!((*p).autograd).write(Mutex::new(AutogradMeta::default()));
            std::ptr::addr_of_mut!((*p).is_inference).write(inference);
            std::ptr::addr_of_mut!((*p).is_wrapped_number).write(wrapped);
            std::ptr::addr_of_mut!((*p).py_slot).write(std::sync::atomic::AtomicUsize::new(0));
            std::ptr::addr_of_mut!((*p).grad_hint).write(std::sync::atomic::AtomicBool::new(false));
            Tensor(a.assume_init())
        }
    }

    /// A contiguous CPU tensor owning `data` (`shape` must hold `data.len()` elements).
    pub(crate) fn from_storage(data: CpuStorage, shape: &[usize]) -> Tensor {
        let dtype = data.dtype();
        Tensor::from_parts(StorageCell::cpu(data), Layout::contiguous(shape), dtype)
    }

    /// A contiguous tensor over a fresh storage on its device.
    pub(crate) fn from_storage_on(data: Storage, shape: &[usize]) -> Tensor {
        let dtype = data.dtype();
        Tensor::from_parts(StorageCell::new(data), Layout::contiguous(shape), dtype)
    }

    /// A CPU tensor of `shape` owning `v` (row-major).
    ///
    /// ```
    /// let t = ferrograd::Tensor::from_vec(vec![1.0f32, 2.0, 3.0, 4.0], &[2, 2]).unwrap();
    /// assert_eq!(t.shape().as_slice(), &[2, 2]);
    /// assert!(ferrograd::Tensor::from_vec(vec![1.0f32], &[2]).is_err());
    /// ```
    pub fn from_vec<T: StorageElem>(v: Vec<T>, shape: &[usize]) -> Result<Tensor> {
        let n: usize = shape.iter().product();
        if n != v.len() {
            bail!(Runtime, "shape '{}' is invalid for input of size {}", crate::shape::fmt_list(shape), v.len());
        }
        Ok(Tensor::from_storage(T::wrap(v), shape))
    }

    /// A 0-dim complex128 tensor standing for a Python complex number in an op (`z * 1j`).
    pub fn wrapped_complex(re: f64, im: f64) -> Tensor {
        Tensor::build(
            TensorData {
                storage: StorageCell::cpu(f64::wrap(vec![re, im])),
                layout: Layout::contiguous(&[]),
                dtype: DType::Complex128,
                version: Arc::new(AtomicU64::new(0)),
            },
            true,
        )
    }

    /// A 0-dim tensor standing for a Python scalar in an op (`x * 2`).
    pub fn wrapped_scalar(s: Scalar) -> Tensor {
        let storage = match s {
            Scalar::Bool(b) => bool::wrap(vec![b]),
            Scalar::Int(i) => i64::wrap(vec![i]),
            Scalar::Float(f) => f64::wrap(vec![f]),
        };
        Tensor::build(
            TensorData {
                storage: StorageCell::cpu(storage),
                layout: Layout::contiguous(&[]),
                dtype: s.dtype(),
                version: Arc::new(AtomicU64::new(0)),
            },
            true,
        )
    }

    pub fn data(&self) -> RwLockReadGuard<'_, TensorData> {
        self.0.data.read()
    }
    pub fn set_data(&self, d: TensorData) {
        *self.0.data.write() = d;
    }
    /// `x.data = other`: `x` takes `other`'s storage, layout and dtype, keeping its own
    /// autograd identity (torch's `set_data`, with its dtype check).
    pub fn assign_data(&self, other: &Tensor) -> crate::Result<()> {
        crate::ensure!(!self.requires_grad() || other.dtype().is_float(), Runtime, "data set to a tensor that requires gradients must be floating point or complex dtype");
        let d = other.data().clone();
        let mut cur = self.data().clone();
        cur.storage = d.storage;
        cur.layout = d.layout;
        cur.dtype = d.dtype;
        self.set_data(cur);
        Ok(())
    }
    pub fn meta(&self) -> parking_lot::MutexGuard<'_, AutogradMeta> {
        self.0.autograd.lock()
    }
    pub fn layout(&self) -> Layout {
        self.0.data.read().layout.clone()
    }
    pub fn shape(&self) -> Dims {
        Dims::from_slice(&self.0.data.read().layout.shape)
    }
    pub fn strides(&self) -> Dims {
        Dims::from_slice(&self.0.data.read().layout.strides)
    }
    pub fn dim(&self) -> usize {
        self.0.data.read().layout.ndim()
    }
    pub fn numel(&self) -> usize {
        self.0.data.read().layout.numel()
    }
    pub fn dtype(&self) -> DType {
        self.0.data.read().dtype
    }
    /// The device the storage lives on.
    pub fn device(&self) -> Device {
        self.0.data.read().storage.device()
    }
    pub fn is_cuda(&self) -> bool {
        self.device().is_cuda()
    }
    pub fn is_contiguous(&self) -> bool {
        self.0.data.read().layout.is_contiguous()
    }
    pub fn version(&self) -> u64 {
        self.0.data.read().version.load(Ordering::Relaxed)
    }
    pub fn bump_version(&self) {
        self.0.data.read().version.fetch_add(1, Ordering::Relaxed);
    }
    pub fn same(&self, other: &Tensor) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
    pub fn shares_storage(&self, other: &Tensor) -> bool {
        Arc::ptr_eq(&self.data().storage, &other.data().storage)
    }
    pub fn priority(&self) -> Priority {
        if self.0.is_wrapped_number {
            Priority::Scalar
        } else if self.dim() == 0 {
            Priority::ZeroDim
        } else {
            Priority::Dimensioned
        }
    }

    // ---- autograd metadata ----
    pub fn requires_grad(&self) -> bool {
        if !self.grad_hint() {
            return false;
        }
        self.refresh_view();
        let m = self.meta();
        m.requires_grad || m.grad_fn.is_some()
    }
    /// Whether the tensor has a node (cheaper than `grad_fn()`: no view refresh, no clone).
    #[inline]
    pub fn has_grad_fn(&self) -> bool {
        self.grad_hint() && self.meta().grad_fn.is_some()
    }
    pub fn grad_fn(&self) -> Option<NodeRef> {
        if !self.grad_hint() {
            return None;
        }
        self.refresh_view();
        self.meta().grad_fn.clone()
    }
    /// A view whose base (or a sibling view) was written in place since its history was
    /// recorded takes its gradient from the base's current history (AsStridedBackward0), as
    /// torch regenerates a view's grad_fn: otherwise its stale node would route gradient
    /// through the values the write replaced.
    fn refresh_view(&self) {
        if !self.grad_hint() {
            return;
        }
        let (base, recorded) = {
            let m = self.meta();
            match &m.view_base {
                Some(b) if !Arc::ptr_eq(&b.0, &self.0) => (b.clone(), m.view_version),
                _ => return,
            }
        };
        let now = self.version();
        if now == recorded {
            return;
        }
        self.meta().view_version = now;
        if base.requires_grad() {
            crate::ops::regenerate_view_history(&base, self);
        }
    }
    pub fn output_nr(&self) -> u32 {
        self.meta().output_nr
    }
    pub fn is_leaf(&self) -> bool {
        !self.grad_hint() || self.meta().grad_fn.is_none()
    }
    pub fn grad(&self) -> Option<Tensor> {
        self.meta().grad.clone()
    }
    pub fn set_grad(&self, g: Option<Tensor>) {
        self.meta().grad = g;
    }
    /// `x.grad = g` with PyTorch's checks (same size, dtype and device).
    pub fn assign_grad(&self, g: Option<Tensor>) -> Result<()> {
        if let Some(g) = &g {
            if g.shape() != self.shape() {
                bail!(Runtime, "attempting to assign a gradient of size '{}' to a tensor of size '{}'. Please ensure that the gradient and the tensor are the same size",
                    crate::shape::fmt_list(&g.shape()), crate::shape::fmt_list(&self.shape()));
            }
            if g.dtype() != self.dtype() {
                bail!(Runtime, "assigned grad has data of a different type");
            }
            if g.device() != self.device() {
                bail!(Runtime, "assigned grad has data located on a different device");
            }
        }
        self.set_grad(g);
        Ok(())
    }
    /// `requires_grad_(flag)` with PyTorch's checks.
    pub fn set_requires_grad(&self, flag: bool) -> Result<()> {
        let mut m = self.meta();
        if m.grad_fn.is_some() {
            if flag {
                return Ok(());
            }
            bail!(Runtime, "you can only change requires_grad flags of leaf variables. If you want to use a computed variable in a subgraph that doesn't require differentiation use var_no_grad = var.detach().");
        }
        if flag && !self.dtype().is_float() && !self.dtype().is_complex() {
            bail!(Runtime, "only Tensors of floating point dtype can require gradients");
        }
        if flag {
            self.mark_grad();
        }
        m.requires_grad = flag;
        Ok(())
    }
    /// Sets the sticky hint that this tensor may have autograd history (see `grad_hint`):
    /// called by every writer of `requires_grad`, `grad_fn` and `view_base`.
    /// Whether the tensor may have autograd history (false: it has none; see `grad_hint`).
    #[inline]
    pub(crate) fn grad_hint(&self) -> bool {
        self.0.grad_hint.load(std::sync::atomic::Ordering::Relaxed)
    }
    pub(crate) fn mark_grad(&self) {
        self.0.grad_hint.store(true, std::sync::atomic::Ordering::Relaxed);
    }
    pub(crate) fn set_grad_fn(&self, node: Option<NodeRef>, output_nr: u32) {
        if node.is_some() {
            self.mark_grad();
        }
        let mut m = self.meta();
        if m.view_base.is_some() {
            // a view's history is current as of now (the version read without the meta held)
            drop(m);
            let v = self.version();
            m = self.meta();
            m.view_version = v;
        }
        m.requires_grad = node.is_some() || m.requires_grad;
        m.grad_fn = node;
        m.output_nr = output_nr;
    }
    /// The edge a gradient for this tensor flows into: its grad_fn, or its leaf accumulator.
    pub fn gradient_edge(&self) -> Option<Edge> {
        if !self.grad_hint() {
            return None;
        }
        let mut m = self.meta();
        // a view may first need its history re-read from its base (`refresh_view`); other
        // tensors are answered under this one lock
        if m.view_base.as_ref().is_some_and(|b| !Arc::ptr_eq(&b.0, &self.0)) {
            drop(m);
            self.refresh_view();
            m = self.meta();
        }
        if let Some(n) = &m.grad_fn {
            return Some(Edge { node: n.clone(), input_nr: m.output_nr });
        }
        if !m.requires_grad {
            return None;
        }
        if let Some(acc) = m.grad_accumulator.upgrade() {
            return Some(Edge { node: acc, input_nr: 0 });
        }
        drop(m);
        let acc = AccumulateGrad::new_node(self.clone());
        let mut m = self.meta();
        m.grad_accumulator = crate::autograd::NodeRef::downgrade(&acc);
        Some(Edge { node: acc, input_nr: 0 })
    }
    /// A new handle on the same data and version counter, without autograd history.
    pub fn detach(&self) -> Tensor {
        let d = self.data().clone();
        Tensor::build(d, false)
    }
    /// `.data`: like detach but with its own version counter (writes stay invisible to autograd).
    pub fn data_alias(&self) -> Tensor {
        let mut d = self.data().clone();
        d.version = Arc::new(AtomicU64::new(0));
        Tensor::build(d, false)
    }
    /// `detach_()`: drop the history in place.
    pub fn detach_(&self) -> Result<()> {
        let mut m = self.meta();
        m.grad_fn = None;
        m.requires_grad = false;
        m.output_nr = 0;
        Ok(())
    }

    // ---- element access (host reads: a device tensor is copied to the host first) ----
    /// Run `f` on a host view of the elements (the storage itself for CPU tensors).
    pub(crate) fn with_host<R>(&self, f: impl FnOnce(&CpuStorage, &Layout) -> R) -> Result<R> {
        crate::backend::with_host(self, f)
    }
    /// Element reads as reals refuse complex tensors (`ops::complex::to_pairs` reads those).
    fn check_real(&self, what: &'static str) -> Result<()> {
        let dt = self.dtype();
        if dt.is_complex() {
            return Err(crate::ops::complex::unsupported(what, dt));
        }
        Ok(())
    }
    /// All elements in row-major order, converted to f64.
    pub fn to_f64_vec(&self) -> Result<Vec<f64>> {
        self.check_real("to_f64_vec")?;
        self.with_host(|s, l| {
            if let Some(r) = l.contiguous_range() {
                // one pass over the slice (vectorised conversions), not a push per element
                // (15% of a 256×256 float32 Cholesky's time)
                let v: Vec<f64> = with_buf!(s, b => b[r].iter().map(|v| v.to_f64()).collect());
                return v;
            }
            let mut out = Vec::with_capacity(l.numel());
            with_buf!(s, b => crate::shape::walk1(l, |o| out.push(b[o].to_f64())));
            out
        })
    }
    /// The element of a one-element tensor, as f64.
    fn only_f64(&self) -> Result<f64> {
        self.check_real("to_f64_vec")?;
        self.with_host(|s, l| with_buf!(s, b => b[l.offset].to_f64()))
    }
    /// The element of a one-element tensor, as i64.
    fn only_i64(&self) -> Result<i64> {
        self.check_real("to_i64_vec")?;
        self.with_host(|s, l| with_buf!(s, b => b[l.offset].to_i64()))
    }
    /// All elements in row-major order, converted to i64 exactly.
    pub fn to_i64_vec(&self) -> Result<Vec<i64>> {
        self.check_real("to_i64_vec")?;
        self.with_host(|s, l| {
            if let Some(r) = l.contiguous_range() {
                // one pass over the slice (a copy for int64), not a push per element
                let v: Vec<i64> = with_buf!(s, b => b[r].iter().map(|v| v.to_i64()).collect());
                return v;
            }
            let mut out = Vec::with_capacity(l.numel());
            with_buf!(s, b => crate::shape::walk1(l, |o| out.push(b[o].to_i64())));
            out
        })
    }
    /// Elements as a typed row-major Vec; `T` must be the tensor's element type.
    ///
    /// ```
    /// let t = ferrograd::Tensor::from_vec(vec![1.0f32, 2.0], &[2]).unwrap();
    /// assert_eq!(t.to_vec::<f32>().unwrap(), vec![1.0, 2.0]);
    /// assert!(t.to_vec::<f64>().is_err());
    /// ```
    pub fn to_vec<T: StorageElem>(&self) -> Result<Vec<T>> {
        if T::DTYPE != self.dtype() {
            bail!(Runtime, "to_vec: the tensor holds {}, not {}", self.dtype().name(), T::DTYPE.name());
        }
        self.with_host(|s, l| crate::cpu::elementwise::gather::<T>(s, l))?
    }
    /// The single element as a scalar (`item()`).
    pub fn item(&self) -> Result<Scalar> {
        let n = self.numel();
        if n != 1 {
            bail!(Runtime, "a Tensor with {} elements cannot be converted to Scalar", n);
        }
        // the common host cases under one look at the data (`y * 1.0001` reads its Python
        // number through here on every call)
        {
            let d = self.data();
            let st = d.storage.data.read();
            if let Storage::Cpu(c) = &*st {
                let at = d.layout.offset;
                match (d.dtype, c) {
                    (DType::Float64, CpuStorage::F64(b)) => return Ok(Scalar::Float(b[at])),
                    (DType::Float32, CpuStorage::F32(b)) => return Ok(Scalar::Float(b[at] as f64)),
                    (DType::Int64, CpuStorage::I64(b)) => return Ok(Scalar::Int(b[at])),
                    _ => {}
                }
            }
        }
        // one element: read it in place (no Vec), at the layout's offset whatever the strides
        Ok(match self.dtype() {
            DType::Bool => Scalar::Bool(self.only_i64()? != 0),
            DType::UInt8 | DType::Int8 | DType::Int16 | DType::Int32 | DType::Int64 => Scalar::Int(self.only_i64()?),
            _ => Scalar::Float(self.only_f64()?),
        })
    }
    pub fn data_ptr(&self) -> usize {
        let d = self.data();
        let base = d.storage.data.read().as_ptr();
        base + d.layout.offset * d.dtype.itemsize()
    }
    /// Bytes of the storage behind this tensor.
    pub fn storage_bytes(&self) -> usize {
        let d = self.data();
        let n = d.storage.data.read().len();
        n * d.dtype.itemsize()
    }
}
