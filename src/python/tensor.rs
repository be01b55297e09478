//! The `Tensor` class: identity-preserving wrapping, properties, conversion, indexing,
//! hooks. Op methods live in `tensor_ops.rs`.

use super::convert;
use super::hooks::{PyPostAccHook, PyTensorHook, RemovableHandle};
use crate::dtype::DType;
use crate::ops;
use crate::tensor::{Scalar, Tensor};
use pyo3::exceptions::{PyIndexError, PyRuntimeError, PyTypeError, PyUserWarning};
use pyo3::prelude::*;
use crate::ops::TensorIndex;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyEllipsis, PyList, PySlice, PyTuple};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

/// `ferrograd.dtype`.
#[pyclass(name = "dtype", module = "ferrograd", frozen, eq, hash, skip_from_py_object)]
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct PyDType {
    pub d: DType,
}

#[pymethods]
impl PyDType {
    /// Pickle as the module attribute of the same name (`ferrograd.float32`).
    fn __reduce__(&self) -> String {
        self.d.name().to_string()
    }

    fn __repr__(&self) -> String {
        format!("torch.{}", self.d.name())
    }
    /// ``True`` for float16, float32 and float64.
    #[getter]
    fn is_floating_point(&self) -> bool {
        self.d.is_float()
    }
    /// ``True`` for the floating-point and signed integer types.
    #[getter]
    fn is_signed(&self) -> bool {
        !matches!(self.d, DType::Bool | DType::UInt8)
    }
    /// The size of one element in bytes.
    #[getter]
    fn itemsize(&self) -> usize {
        self.d.itemsize()
    }
    /// ``True`` for complex64 and complex128.
    #[getter]
    fn is_complex(&self) -> bool {
        self.d.is_complex()
    }
    /// The complex dtype of a floating one (``float64`` → ``complex128``); complex dtypes
    /// are returned as they are.
    fn to_complex(&self, py: Python<'_>) -> PyResult<Py<PyDType>> {
        match self.d.to_complex() {
            Some(c) => Ok(dtype_obj(py, c)),
            None => Err(crate::Error::Runtime(format!("to_complex is only supported for floating point dtypes, but got {}", self.d.scalar_name())).into()),
        }
    }
    /// The real dtype of a complex one (``complex64`` → ``float32``); real dtypes are returned
    /// as they are.
    fn to_real(&self, py: Python<'_>) -> Py<PyDType> {
        dtype_obj(py, self.d.to_real())
    }
}

static DTYPES: PyOnceLock<Vec<Py<PyDType>>> = PyOnceLock::new();
const ALL_DTYPES: [DType; 12] = [DType::Bool, DType::UInt8, DType::Int8, DType::Int16, DType::Int32, DType::Int64, DType::Float16, DType::Float32, DType::Float64, DType::BFloat16, DType::Complex64, DType::Complex128];

/// The one Python object for each dtype (so `x.dtype is torch.float32`).
pub fn dtype_obj(py: Python<'_>, d: DType) -> Py<PyDType> {
    let all = DTYPES.get_or_init(py, || ALL_DTYPES.iter().map(|&d| Py::new(py, PyDType { d }).expect("dtype object")).collect());
    let i = ALL_DTYPES.iter().position(|&x| x == d).expect("invariant: known dtype");
    all[i].clone_ref(py)
}

/// The dtype singletons, for the Python package.
#[pyfunction]
pub fn _dtypes(py: Python<'_>) -> Vec<Py<PyDType>> {
    ALL_DTYPES.iter().map(|&d| dtype_obj(py, d)).collect()
}

/// Accept a dtype argument: `torch.float32`, or Python's `float`/`int`/`bool`.
pub fn dtype_arg(o: &Bound<'_, PyAny>) -> PyResult<DType> {
    if let Ok(d) = o.cast::<PyDType>() {
        return Ok(d.get().d);
    }
    let py = o.py();
    if o.is(py.get_type::<pyo3::types::PyFloat>()) {
        return Ok(DType::Float64);
    }
    if o.is(py.get_type::<pyo3::types::PyInt>()) {
        return Ok(DType::Int64);
    }
    if o.is(py.get_type::<pyo3::types::PyBool>()) {
        return Ok(DType::Bool);
    }
    if o.is(py.get_type::<pyo3::types::PyComplex>()) {
        return Ok(DType::Complex128);
    }
    if let Ok(d) = o.getattr("dtype") {
        if let Ok(d) = d.cast::<PyDType>() {
            return Ok(d.get().d);
        }
    }
    Err(PyTypeError::new_err(format!("dtype must be a ferrograd.dtype, not {}", o.get_type().name()?)))
}

/// `ferrograd.Tensor`.
#[pyclass(name = "Tensor", module = "ferrograd", subclass, weakref, dict, frozen)]
pub struct PyTensor {
    pub t: Tensor,
    /// This object's address, registered in the tensor's `py_slot` for identity.
    me: AtomicUsize,
}

impl PyTensor {
    pub fn new(t: Tensor) -> PyTensor {
        PyTensor { t, me: AtomicUsize::new(0) }
    }
}

impl Drop for PyTensor {
    fn drop(&mut self) {
        let me = self.me.load(Ordering::Relaxed);
        if me != 0 {
            let _ = self.t.0.py_slot.compare_exchange(me, 0, Ordering::AcqRel, Ordering::Relaxed);
        }
    }
}

/// The Python object for `t`: the existing one if `t` already has one, else a new one.
pub fn wrap(py: Python<'_>, t: Tensor) -> PyResult<Py<PyAny>> {
    let p = t.0.py_slot.load(Ordering::Acquire);
    if p != 0 {
        // SAFETY: a non-zero slot is the address of the live PyTensor registered below; it is
        // cleared in that object's Drop (which runs with the GIL held, as does this code), so
        // the pointer is valid here and we take a new strong reference to it.
        return Ok(unsafe { Bound::from_borrowed_ptr(py, p as *mut pyo3::ffi::PyObject) }.unbind());
    }
    let obj = Py::new(py, PyTensor::new(t.clone()))?;
    let addr = obj.as_ptr() as usize;
    obj.get().me.store(addr, Ordering::Relaxed);
    t.0.py_slot.store(addr, Ordering::Release);
    Ok(obj.into_any())
}

pub fn wrap_opt(py: Python<'_>, t: Option<Tensor>) -> PyResult<Py<PyAny>> {
    match t {
        Some(t) => wrap(py, t),
        None => Ok(py.None()),
    }
}

/// Register a Python subclass instance (created through `__new__`) as its tensor's object.
fn register(obj: &Bound<'_, PyTensor>) {
    let addr = obj.as_ptr() as usize;
    obj.get().me.store(addr, Ordering::Relaxed);
    obj.get().t.0.py_slot.store(addr, Ordering::Release);
}

fn py_helper<'py>(py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyAny>> {
    static MOD: PyOnceLock<Py<PyModule>> = PyOnceLock::new();
    let m = MOD.get_or_try_init(py, || py.import("ferrograd._helpers").map(|m| m.unbind()))?;
    m.bind(py).getattr(name)
}

/// Python's number conversions (`int(t)`, `float(t)`, `complex(t)`) of a tensor that is not
/// one element: PyTorch's ValueError (`t.item()` raises a RuntimeError instead).
pub fn one_element(t: &Tensor) -> PyResult<()> {
    if t.numel() != 1 {
        return Err(pyo3::exceptions::PyValueError::new_err("only one element tensors can be converted to Python scalars"));
    }
    Ok(())
}

/// A `ferrograd.Size` of known ints: `tuple.__new__(Size, dims)`, past `Size.__new__`'s
/// checks of each item (this is every `x.shape`).
pub fn new_size(py: Python<'_>, dims: Vec<usize>) -> PyResult<Bound<'_, PyAny>> {
    static NEW: PyOnceLock<(Py<PyAny>, Py<PyAny>)> = PyOnceLock::new();
    let (new, size) = NEW.get_or_try_init(py, || -> PyResult<_> {
        let new = py.get_type::<pyo3::types::PyTuple>().getattr("__new__")?.unbind();
        Ok((new, py_helper(py, "Size")?.unbind()))
    })?;
    new.bind(py).call1((size.bind(py), dims))
}

/// A tensor from an operand: a Tensor, or a Python number wrapped as a scalar.
pub fn operand(o: &Bound<'_, PyAny>) -> PyResult<Option<Tensor>> {
    if let Ok(t) = o.cast::<PyTensor>() {
        return Ok(Some(t.get().t.clone()));
    }
    if let Some(s) = convert::py_scalar(o) {
        return Ok(Some(Tensor::wrapped_scalar(s)));
    }
    if o.is_instance_of::<pyo3::types::PyInt>() {
        // an int beyond 64 bits (PyTorch's scalar conversion refuses it so)
        return Err(pyo3::exceptions::PyOverflowError::new_err("int too big to convert"));
    }
    if let Some((re, im)) = convert::py_complex(o) {
        return Ok(Some(Tensor::wrapped_complex(re, im)));
    }
    // matches torch: a NumPy array operand becomes a tensor of its dtype
    if o.cast::<numpy::PyUntypedArray>().is_ok() {
        return Ok(Some(convert::tensor_from_data(o, None)?));
    }
    Ok(None)
}

/// Like `operand` but raising TypeError for anything else.
pub fn need_tensor(o: &Bound<'_, PyAny>, what: &str) -> PyResult<Tensor> {
    operand(o)?.ok_or_else(|| PyTypeError::new_err(format!("{}: expected Tensor as argument, but got {}", what, o.get_type().name().map(|n| n.to_string()).unwrap_or_default())))
}

/// Sizes given as `f(2, 3)` or `f((2, 3))`.
pub fn shape_args(args: &Bound<'_, PyTuple>) -> PyResult<Vec<i64>> {
    if args.len() == 1 {
        let a = args.get_item(0)?;
        if !a.is_instance_of::<pyo3::types::PyInt>() {
            if let Ok(v) = a.extract::<Vec<i64>>() {
                return Ok(v);
            }
        }
    }
    args.iter().map(|a| a.extract::<i64>().map_err(|_| PyTypeError::new_err(format!("expected a sequence of integers or a single integer, got '{}'", a.get_type().name().map(|n| n.to_string()).unwrap_or_default())))).collect()
}

pub fn usize_shape(v: &[i64]) -> PyResult<Vec<usize>> {
    v.iter().map(|&d| if d < 0 { Err(PyRuntimeError::new_err(format!("Trying to create tensor with negative dimension {}: {:?}", d, v))) } else { Ok(d as usize) }).collect()
}

const NONLEAF_GRAD: &str = "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad attribute won't be populated during autograd.backward(). If you indeed want the .grad field to be populated for a non-leaf Tensor, use .retain_grad() on the non-leaf Tensor. If you access the non-leaf Tensor by mistake, make sure you access the leaf Tensor instead. See github.com/pytorch/pytorch/pull/30531 for more information.";

/// Parse an indexing key into the core's items (the semantics live in `ops::indexing`).
fn parse_key(key: &Bound<'_, PyAny>) -> PyResult<Vec<TensorIndex>> {
    let items: Vec<Bound<'_, PyAny>> = if let Ok(t) = key.cast::<PyTuple>() { t.iter().collect() } else { vec![key.clone()] };
    let mut out = Vec::with_capacity(items.len());
    for it in items {
        if it.is_none() {
            out.push(TensorIndex::NewAxis);
        } else if it.is_instance_of::<PyEllipsis>() {
            out.push(TensorIndex::Ellipsis);
        } else if let Ok(s) = it.cast::<PySlice>() {
            if let Some(item) = unpack_slice(s) {
                out.push(item);
                continue;
            }
            let get = |n: &str| -> PyResult<Option<i64>> {
                let v = s.getattr(n)?;
                if v.is_none() { Ok(None) } else { Ok(Some(index_int(&v)?)) }
            };
            out.push(TensorIndex::Slice { start: get("start")?, stop: get("stop")?, step: get("step")?.unwrap_or(1) });
        } else if it.is_instance_of::<pyo3::types::PyBool>() {
            out.push(TensorIndex::Tensor(Tensor::from_vec(vec![it.extract::<bool>()?], &[])?));
        } else if it.is_instance_of::<pyo3::types::PyInt>() {
            out.push(TensorIndex::Int(it.extract()?));
        } else if let Ok(t) = it.cast::<PyTensor>() {
            let t = &t.get().t;
            if t.dim() == 0 && t.dtype().category() == crate::dtype::Category::Integral {
                out.push(TensorIndex::Int(t.item()?.as_i64()));
            } else {
                out.push(TensorIndex::Tensor(t.clone()));
            }
        } else if it.is_instance_of::<pyo3::types::PyRange>() {
            // a range indexes as the list of its values
            let l = PyList::new(it.py(), it.try_iter()?.collect::<PyResult<Vec<_>>>()?)?;
            out.push(TensorIndex::Tensor(convert::tensor_from_data(l.as_any(), Some(crate::DType::Int64))?));
        } else if it.is_instance_of::<PyList>() || it.hasattr("__array__")? {
            out.push(TensorIndex::Tensor(convert::tensor_from_data(&it, None)?));
        } else if it.hasattr("__index__")? {
            out.push(TensorIndex::Int(it.call_method0("__index__")?.extract()?));
        } else {
            return Err(PyIndexError::new_err("only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables are valid indices (got ".to_string() + &it.get_type().name()?.to_string() + ")"));
        }
    }
    Ok(out)
}

/// A slice with a positive step, read in one C call (`PySlice_Unpack`: a missing start is 0,
/// a missing stop the largest index, as `slice` treats them); None for anything else, which
/// the attribute path reads and reports.
fn unpack_slice(s: &Bound<'_, PySlice>) -> Option<TensorIndex> {
    let (mut start, mut stop, mut step): (pyo3::ffi::Py_ssize_t, pyo3::ffi::Py_ssize_t, pyo3::ffi::Py_ssize_t) = (0, 0, 0);
    // SAFETY: `s` is a live slice object (the GIL is held through `Bound`); the three
    // out-pointers are valid locals.
    let rc = unsafe { pyo3::ffi::PySlice_Unpack(s.as_ptr(), &mut start, &mut stop, &mut step) };
    if rc < 0 {
        // the attribute path raises the error again, with its own wording
        let _ = PyErr::take(s.py());
        return None;
    }
    (step > 0).then_some(TensorIndex::Slice { start: Some(start as i64), stop: Some(stop as i64), step: step as i64 })
}

fn index_int(v: &Bound<'_, PyAny>) -> PyResult<i64> {
    if let Ok(t) = v.cast::<PyTensor>() {
        return Ok(t.get().t.item()?.as_i64());
    }
    v.extract::<i64>().or_else(|_| v.call_method0("__index__")?.extract())
}

#[pymethods]
impl PyTensor {
    #[new]
    #[pyo3(signature = (*args, **kwargs))]
    fn py_new(args: &Bound<'_, PyTuple>, kwargs: Option<&Bound<'_, PyDict>>) -> PyResult<Self> {
        if let Some(kw) = kwargs {
            if let Some(a) = kw.get_item("_alias")? {
                // used by subclasses (nn.Parameter): a new tensor object over the same data
                let t = a.cast::<PyTensor>()?.get().t.detach();
                return Ok(PyTensor::new(t));
            }
        }
        if args.is_empty() {
            return Ok(PyTensor::new(crate::tensor::zeros(&[0], crate::dtype::default_float())?));
        }
        let a0 = args.get_item(0)?;
        if args.len() == 1 && !a0.is_instance_of::<pyo3::types::PyInt>() {
            if let Ok(t) = a0.cast::<PyTensor>() {
                return Ok(PyTensor::new(t.get().t.detach()));
            }
            if let Ok(v) = a0.extract::<Vec<i64>>() {
                if a0.is_instance(&py_helper(a0.py(), "Size")?)? {
                    return Ok(PyTensor::new(crate::tensor::zeros(&usize_shape(&v)?, crate::dtype::default_float())?));
                }
            }
            let t = convert::tensor_from_data(&a0, Some(crate::dtype::default_float()))?;
            return Ok(PyTensor::new(t));
        }
        let shape = usize_shape(&shape_args(args)?)?;
        Ok(PyTensor::new(crate::tensor::zeros(&shape, crate::dtype::default_float())?))
    }

    /// Register a freshly constructed subclass instance (called by ``__init__`` helpers).
    fn _register(slf: &Bound<'_, Self>) {
        register(slf);
    }

    /// The size of the tensor, as a ``ferrograd.Size`` (``x.shape == x.size()``).
    #[getter]
    fn shape<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        new_size(py, self.t.shape().to_vec())
    }

    /// The size of the tensor (a ``ferrograd.Size``), or of dimension ``dim`` (an int).
    #[pyo3(signature = (dim=None))]
    fn size<'py>(&self, py: Python<'py>, dim: Option<i64>) -> PyResult<Bound<'py, PyAny>> {
        match dim {
            Some(d) => {
                let s = self.t.shape();
                let w = crate::shape::wrap_dim(d, s.len())?;
                Ok(s.get(w).copied().unwrap_or(1).into_pyobject(py)?.into_any())
            }
            None => self.shape(py),
        }
    }

    /// The strides (in elements) of all dimensions, or of dimension ``dim``.
    #[pyo3(signature = (dim=None))]
    fn stride<'py>(&self, py: Python<'py>, dim: Option<i64>) -> PyResult<Bound<'py, PyAny>> {
        let s = self.t.strides();
        match dim {
            Some(d) => {
                let w = crate::shape::wrap_dim(d, s.len())?;
                Ok(s[w].into_pyobject(py)?.into_any())
            }
            None => Ok(PyTuple::new(py, s.iter().copied())?.into_any()),
        }
    }

    /// The ``ferrograd.dtype`` of the tensor's elements.
    #[getter]
    fn dtype(&self, py: Python<'_>) -> Py<PyDType> {
        dtype_obj(py, self.t.dtype())
    }

    /// ``True`` if gradients need to be computed for this tensor. Only floating-point
    /// tensors can require gradients; set it on leaves (``x.requires_grad = True``).
    #[getter]
    fn get_requires_grad(&self) -> bool {
        self.t.requires_grad()
    }

    #[setter]
    fn set_requires_grad(&self, v: bool) -> PyResult<()> {
        self.check_requires_grad(v)?;
        Ok(self.t.set_requires_grad(v)?)
    }

    /// Set whether autograd should record operations on this tensor, in place; returns ``self``.
    #[pyo3(signature = (requires_grad=true))]
    fn requires_grad_<'py>(slf: &Bound<'py, Self>, requires_grad: bool) -> PyResult<Bound<'py, Self>> {
        slf.get().check_requires_grad(requires_grad)?;
        slf.get().t.set_requires_grad(requires_grad)?;
        Ok(slf.clone())
    }

    /// ``None`` by default; becomes a tensor the first time ``backward`` computes a
    /// gradient for this leaf, and accumulates on later calls.
    #[getter]
    fn get_grad(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let (leaf, retains) = { let m = self.t.meta(); (m.grad_fn.is_none(), m.retains_grad) };
        if !leaf && !retains {
            PyErr::warn(py, &py.get_type::<PyUserWarning>(), &std::ffi::CString::new(NONLEAF_GRAD).expect("no NUL"), 1)?;
        }
        wrap_opt(py, self.t.grad())
    }

    #[setter]
    fn set_grad(&self, g: Option<&Bound<'_, PyAny>>) -> PyResult<()> {
        let g = match g {
            None => None,
            Some(o) if o.is_none() => None,
            Some(o) => {
                let tn = o.get_type().name()?.to_string();
                let g = o.cast::<PyTensor>().map_err(|_| PyTypeError::new_err(format!("assigned grad expected to be a Tensor or None but got grad of type {}", tn)))?;
                Some(g.get().t.clone())
            }
        };
        Ok(self.t.assign_grad(g)?)
    }

    /// The backward node that created this tensor (``None`` for leaves), with PyTorch's
    /// class names (``MulBackward0``, ``SumBackward0``, ...).
    #[getter]
    fn grad_fn(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        match self.t.grad_fn() {
            Some(n) => super::node::wrap_node(py, n),
            None => Ok(py.None()),
        }
    }

    /// ``True`` for tensors that do not require grad, and for tensors that require grad
    /// and were created by the user (not by an operation recorded by autograd).
    #[getter]
    fn is_leaf(&self) -> bool {
        self.t.is_leaf()
    }

    /// The tensor's values as a tensor that shares storage but is detached from autograd.
    /// Assigning ``x.data = y`` replaces the values (and shape) without recording history.
    #[getter]
    fn get_data(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        wrap(py, self.t.data_alias())
    }

    #[setter]
    fn set_data(&self, other: PyRef<'_, PyTensor>) -> PyResult<()> {
        Ok(self.t.assign_data(&other.t)?)
    }

    #[getter]
    fn _version(&self) -> PyResult<u64> {
        if self.t.0.is_inference {
            return Err(PyRuntimeError::new_err("Inference tensors do not track version counter."));
        }
        Ok(self.t.version())
    }

    /// The ``ferrograd.device`` where this tensor's storage lives.
    #[getter]
    fn device<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        match self.t.device() {
            crate::Device::Cpu => py_helper(py, "_cpu_device"),
            d => py_helper(py, "device")?.call1((d.type_name(), d.index())),
        }
    }

    /// ``True`` if the tensor is stored on a CUDA device.
    #[getter]
    fn is_cuda(&self) -> bool {
        self.t.is_cuda()
    }

    /// `.to(device)` (differentiable; the same tensor when already there).
    fn _to_device(&self, py: Python<'_>, device: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let d = super::convert::device_arg(Some(device))?;
        if d == self.t.device() {
            return wrap(py, self.t.clone());
        }
        wrap(py, crate::ops::to_device(&self.t, d)?)
    }

    /// The number of dimensions; an alias for ``dim``.
    #[getter]
    fn ndim(&self) -> usize {
        self.t.dim()
    }

    /// The number of dimensions of the tensor.
    fn dim(&self) -> usize {
        self.t.dim()
    }

    /// Alias for ``dim``.
    fn ndimension(&self) -> usize {
        self.t.dim()
    }

    /// The total number of elements in the tensor.
    fn numel(&self) -> usize {
        self.t.numel()
    }

    /// Alias for ``numel``.
    fn nelement(&self) -> usize {
        self.t.numel()
    }

    /// The size in bytes of one element.
    fn element_size(&self) -> usize {
        self.t.dtype().itemsize()
    }

    /// The offset, in elements, of this tensor's first element in its storage.
    fn storage_offset(&self) -> usize {
        self.t.layout().offset
    }

    /// The address of the first element of the tensor.
    fn data_ptr(&self) -> usize {
        self.t.data_ptr()
    }

    /// ``True`` if the tensor is contiguous in memory in row-major order.
    #[pyo3(signature = (memory_format=None))]
    fn is_contiguous(&self, memory_format: Option<&Bound<'_, PyAny>>) -> PyResult<bool> {
        let mf = super::tensor_ops::memory_format(memory_format, "is_contiguous", crate::ops::MemoryFormat::Contiguous)?;
        Ok(crate::ops::is_contiguous_as(&self.t, mf))
    }

    /// ``True`` if the data type is a floating-point type.
    fn is_floating_point(&self) -> bool {
        self.t.dtype().is_float()
    }

    /// ``True`` if the data type is complex64 or complex128.
    fn is_complex(&self) -> bool {
        self.t.dtype().is_complex()
    }

    /// Always ``False``: ferrograd's ``conj`` computes the conjugate (no lazy bit).
    fn is_conj(&self) -> bool {
        false
    }

    /// Always ``False`` (no lazy negation bit).
    fn is_neg(&self) -> bool {
        false
    }

    /// The real parts: a view (the tensor itself for a real tensor).
    #[getter]
    fn real(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        wrap(py, crate::ops::complex::real(&self.t)?)
    }

    /// The imaginary parts: a view (complex tensors only).
    #[getter]
    fn imag(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        wrap(py, crate::ops::complex::imag(&self.t)?)
    }

    /// ``True`` if the tensor was created under ``ferrograd.inference_mode``.
    fn is_inference(&self) -> bool {
        self.t.0.is_inference
    }

    /// ``True`` if this non-leaf tensor keeps its ``.grad`` (see ``retain_grad``).
    #[getter]
    fn retains_grad(&self) -> bool {
        self.t.meta().retains_grad
    }

    /// The index of this tensor among the outputs of its ``grad_fn``.
    #[getter]
    fn output_nr(&self) -> u32 {
        self.t.output_nr()
    }

    /// The value of a one-element tensor as a standard Python number.
    fn item(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        if self.t.dtype().is_complex() {
            let n = self.t.numel();
            if n != 1 {
                return Err(crate::Error::Runtime(format!("a Tensor with {n} elements cannot be converted to Scalar")).into());
            }
            let (r, i) = crate::ops::complex::to_pairs(&self.t)?[0];
            return Ok(pyo3::types::PyComplex::from_doubles(py, r, i).into_any().unbind());
        }
        Ok(match self.t.item()? {
            Scalar::Bool(b) => pyo3::types::PyBool::new(py, b).to_owned().into_any().unbind(),
            Scalar::Int(i) => i.into_pyobject(py)?.into_any().unbind(),
            Scalar::Float(f) => f.into_pyobject(py)?.into_any().unbind(),
        })
    }

    /// The tensor as a (nested) list of Python numbers; a 0-d tensor gives a number.
    fn tolist(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        convert::tolist(py, &self.t)
    }

    /// The tensor as a NumPy ``ndarray`` sharing its memory (CPU tensors). A tensor that
    /// requires grad raises unless ``force=True`` (which detaches and copies as needed).
    #[pyo3(signature = (force=false))]
    fn numpy<'py>(slf: &Bound<'py, Self>, force: bool) -> PyResult<Bound<'py, PyAny>> {
        if slf.get().t.requires_grad() && crate::autograd::is_grad_enabled() && !force {
            return Err(PyRuntimeError::new_err("Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead."));
        }
        if force {
            let d = Bound::new(slf.py(), PyTensor::new(slf.get().t.detach()))?;
            return convert::to_numpy(&d);
        }
        convert::to_numpy(slf)
    }

    /// NumPy's array protocol (``np.asarray(x)``).
    #[pyo3(signature = (dtype=None, copy=None))]
    fn __array__<'py>(slf: &Bound<'py, Self>, dtype: Option<&Bound<'py, PyAny>>, copy: Option<bool>) -> PyResult<Bound<'py, PyAny>> {
        // as `.numpy()`: refused while the tensor requires grad and grad mode is on
        if slf.get().t.requires_grad() && crate::autograd::is_grad_enabled() {
            return Err(PyRuntimeError::new_err("Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead."));
        }
        let d = Bound::new(slf.py(), PyTensor::new(slf.get().t.detach()))?;
        let a = convert::to_numpy(&d)?;
        let a = match dtype {
            Some(dt) if !dt.is_none() => a.call_method1("astype", (dt,))?,
            _ => a,
        };
        // NumPy's protocol: copy=True asks for memory of its own (np.array), None/False may share
        match copy {
            Some(true) => a.call_method0("copy"),
            _ => Ok(a),
        }
    }

    /// A new tensor sharing storage, detached from the current graph (never requires grad).
    fn detach(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        wrap(py, self.t.detach())
    }

    /// Detach the tensor from the graph that created it, in place (makes it a leaf).
    fn detach_<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, Self>> {
        slf.get().t.detach_()?;
        Ok(slf.clone())
    }

    /// Make this non-leaf tensor keep its ``.grad`` during ``backward``.
    fn retain_grad(&self) -> PyResult<()> {
        Ok(self.t.retain_grad()?)
    }

    /// Register a backward hook, called with the gradient w.r.t. this tensor each time it
    /// is computed; a returned tensor replaces the gradient. Returns a handle with ``remove()``.
    fn register_hook(&self, hook: Py<PyAny>) -> PyResult<RemovableHandle> {
        Ok(self.t.register_hook(Arc::new(PyTensorHook(hook)))?.into())
    }

    /// Register a hook on a leaf, called with the tensor after its ``.grad`` has been
    /// accumulated. Returns a handle with ``remove()``.
    fn register_post_accumulate_grad_hook(&self, hook: Py<PyAny>) -> PyResult<RemovableHandle> {
        Ok(self.t.register_post_accumulate_grad_hook(Arc::new(PyPostAccHook(hook)))?.into())
    }

    fn __repr__(slf: &Bound<'_, Self>) -> PyResult<String> {
        py_helper(slf.py(), "_tensor_repr")?.call1((slf,))?.extract()
    }

    fn __str__(slf: &Bound<'_, Self>) -> PyResult<String> {
        Self::__repr__(slf)
    }

    /// As PyTorch's: a 0-d tensor of the Tensor class itself formats its number; anything else
    /// is `object.__format__` (its `str` for an empty spec, else TypeError).
    fn __format__(slf: &Bound<'_, Self>, spec: &str) -> PyResult<String> {
        let t = &slf.get().t;
        let ty = slf.get_type();
        if t.dim() == 0 && ty.is(slf.py().get_type::<PyTensor>()) {
            let item = slf.get().item(slf.py())?;
            return item.bind(slf.py()).call_method1("__format__", (spec,))?.extract();
        }
        if spec.is_empty() {
            return slf.str()?.extract();
        }
        Err(PyTypeError::new_err(format!("unsupported format string passed to {}.__format__", ty.name()?)))
    }

    fn __len__(&self) -> PyResult<usize> {
        let s = self.t.shape();
        if s.is_empty() {
            return Err(PyTypeError::new_err("len() of a 0-d tensor"));
        }
        Ok(s[0])
    }

    fn __iter__(slf: &Bound<'_, Self>) -> PyResult<Py<PyAny>> {
        let py = slf.py();
        let t = &slf.get().t;
        if t.dim() == 0 {
            return Err(PyTypeError::new_err("iteration over a 0-d tensor"));
        }
        let parts = ops::unbind(t, 0)?;
        let objs: Vec<Py<PyAny>> = parts.into_iter().map(|p| wrap(py, p)).collect::<PyResult<_>>()?;
        Ok(PyList::new(py, objs)?.call_method0("__iter__")?.unbind())
    }

    fn __bool__(&self) -> PyResult<bool> {
        let n = self.t.numel();
        if n != 1 {
            return Err(PyRuntimeError::new_err(if n == 0 { "Boolean value of Tensor with no values is ambiguous".to_string() } else { "Boolean value of Tensor with more than one value is ambiguous".to_string() }));
        }
        Ok(self.t.item()?.as_f64() != 0.0)
    }

    fn __float__(&self, py: Python<'_>) -> PyResult<f64> {
        one_element(&self.t)?;
        warn_scalar_of_grad(py, &self.t)?;
        Ok(self.t.item()?.as_f64())
    }

    fn __int__(&self) -> PyResult<i64> {
        one_element(&self.t)?;
        match self.t.item()? {
            crate::Scalar::Float(f) if f.is_nan() => Err(pyo3::exceptions::PyValueError::new_err("cannot convert float NaN to integer")),
            crate::Scalar::Float(f) if f.is_infinite() => Err(pyo3::exceptions::PyOverflowError::new_err("cannot convert float infinity to integer")),
            s => Ok(s.as_i64()),
        }
    }

    fn __index__(&self) -> PyResult<i64> {
        if self.t.dtype().is_float() || self.t.numel() != 1 {
            return Err(PyTypeError::new_err("only integer tensors of a single element can be converted to an index"));
        }
        Ok(self.t.item()?.as_i64())
    }

    fn __hash__(slf: &Bound<'_, Self>) -> isize {
        slf.as_ptr() as isize
    }

    fn __getitem__(&self, py: Python<'_>, key: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let items = parse_key(key)?;
        let t = &self.t;
        let tuple = key.is_instance_of::<PyTuple>();
        // views are cheap: the GIL is let go only for advanced (copying) indexing
        let out = if items.iter().any(|i| matches!(i, TensorIndex::Tensor(_))) {
            py.detach(|| ops::get_index_with(t, &items, tuple))?
        } else {
            ops::get_index_with(t, &items, tuple)?
        };
        wrap(py, out)
    }

    fn __setitem__(&self, key: &Bound<'_, PyAny>, value: &Bound<'_, PyAny>) -> PyResult<()> {
        let items = parse_key(key)?;
        let val = match operand(value)? {
            Some(v) => v,
            None => convert::tensor_from_data(value, Some(self.t.dtype()))?,
        };
        Ok(ops::set_index(&self.t, &items, &val)?)
    }
}

impl PyTensor {
    fn check_requires_grad(&self, v: bool) -> PyResult<()> {
        if v && !self.t.dtype().is_float() && !self.t.dtype().is_complex() && self.t.is_leaf() {
            return Err(PyRuntimeError::new_err("only Tensors of floating point dtype can require gradients"));
        }
        Ok(())
    }
}

/// PyTorch's once-per-process warning when `float(t)` reads a tensor that requires grad with
/// grad mode on (the number has no history); `int(t)` and `.item()` do not warn.
fn warn_scalar_of_grad(py: Python<'_>, t: &crate::Tensor) -> PyResult<()> {
    static WARNED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
    if t.requires_grad() && crate::autograd::is_grad_enabled() && !WARNED.swap(true, std::sync::atomic::Ordering::Relaxed) {
        let msg = c"Converting a tensor with requires_grad=True to a scalar may lead to unexpected behavior.\nConsider using tensor.detach() first. (Triggered internally at /__w/pytorch/pytorch/torch/csrc/autograd/generated/python_variable_methods.cpp:822.)";
        PyErr::warn(py, &py.get_type::<pyo3::exceptions::PyUserWarning>(), msg, 1)?;
    }
    Ok(())
}
