//! Python data <-> tensors: nested lists with dtype inference, NumPy sharing, tolist.

use super::tensor::{dtype_arg, PyTensor};
use crate::dtype::{default_float, DType};
use crate::storage::{Buf, CpuStorage, StorageCell, StorageElem};
use crate::tensor::{Scalar, Tensor};
use crate::with_buf;
use numpy::{PyArrayDescrMethods, PyArrayDyn, PyArrayMethods, PyUntypedArray, PyUntypedArrayMethods};
use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyFloat, PyInt, PyList, PySequence, PyTuple};

/// One scalar read from Python data.
#[derive(Clone, Copy)]
enum Val {
    B(bool),
    I(i64),
    F(f64),
    /// A NumPy float scalar: it carries its dtype (float32 or float64) into inference.
    NpF(f64, DType),
    /// A NumPy integer scalar, with its dtype (int32 stays int32 in a list of them).
    NpI(i64, DType),
    /// A complex number (`1+2j`, a NumPy complex scalar with its dtype).
    C(f64, f64, Option<DType>),
}

impl Val {
    /// As a (re, im) pair.
    fn pair(self) -> (f64, f64) {
        match self {
            Val::B(b) => (b as u8 as f64, 0.0),
            Val::I(i) | Val::NpI(i, _) => (i as f64, 0.0),
            Val::F(f) | Val::NpF(f, _) => (f, 0.0),
            Val::C(r, i, _) => (r, i),
        }
    }
}

fn scalar_of(obj: &Bound<'_, PyAny>) -> PyResult<Option<Val>> {
    if obj.is_instance_of::<PyBool>() {
        return Ok(Some(Val::B(obj.extract()?)));
    }
    if obj.is_instance_of::<PyInt>() {
        // (PyTorch's message for an int beyond 64 bits)
        let v = obj.extract().map_err(|_| pyo3::exceptions::PyValueError::new_err("Overflow when unpacking long long"))?;
        return Ok(Some(Val::I(v)));
    }
    if obj.is_exact_instance_of::<PyFloat>() {
        return Ok(Some(Val::F(obj.extract()?)));
    }
    if let Ok(c) = obj.cast::<pyo3::types::PyComplex>() {
        // numpy.complex128 is a complex subclass
        let dt = if obj.is_exact_instance_of::<pyo3::types::PyComplex>() { None } else { Some(DType::Complex128) };
        return Ok(Some(Val::C(c.real(), c.imag(), dt)));
    }
    if obj.is_instance_of::<PyFloat>() {
        // a float subclass: numpy.float64 carries its dtype
        let v = obj.extract()?;
        return Ok(Some(if obj.hasattr("dtype")? { Val::NpF(v, DType::Float64) } else { Val::F(v) }));
    }
    if let Ok(t) = obj.cast::<PyTensor>() {
        let t = &t.get().t;
        if t.numel() == 1 && t.dim() == 0 && t.dtype().is_complex() {
            let (r, i) = crate::ops::complex::to_pairs(t)?[0];
            return Ok(Some(Val::C(r, i, None)));
        }
        if t.numel() == 1 && t.dim() == 0 {
            return Ok(Some(match t.item()? {
                Scalar::Bool(b) => Val::B(b),
                Scalar::Int(i) => Val::I(i),
                Scalar::Float(f) => Val::F(f),
            }));
        }
    }
    // numpy scalars and other numbers
    if obj.hasattr("__float__")? && !obj.is_instance_of::<PyList>() && !obj.is_instance_of::<PyTuple>() && !obj.hasattr("__len__")? {
        if obj.hasattr("dtype")? {
            let kind: String = obj.getattr("dtype")?.getattr("kind")?.extract()?;
            if kind == "b" { return Ok(Some(Val::B(obj.extract::<bool>().or_else(|_| obj.call_method0("__bool__")?.extract())?))); }
            if kind == "i" || kind == "u" {
                let v: i64 = obj.call_method0("__int__")?.extract()?;
                let name: String = obj.getattr("dtype")?.getattr("name")?.extract()?;
                let dt = match name.as_str() { "int8" => DType::Int8, "int16" => DType::Int16, "int32" => DType::Int32, "uint8" => DType::UInt8, _ => DType::Int64 };
                return Ok(Some(Val::NpI(v, dt)));
            }
            if kind == "c" {
                let size: usize = obj.getattr("dtype")?.getattr("itemsize")?.extract()?;
                let c = obj.call_method0("__complex__")?;
                let c = c.cast::<pyo3::types::PyComplex>()?;
                return Ok(Some(Val::C(c.real(), c.imag(), Some(if size == 16 { DType::Complex128 } else { DType::Complex64 }))));
            }
        }
        let v: f64 = obj.call_method0("__float__")?.extract()?;
        if obj.hasattr("dtype")? {
            let size: usize = obj.getattr("dtype")?.getattr("itemsize")?.extract()?;
            return Ok(Some(Val::NpF(v, if size == 8 { DType::Float64 } else { DType::Float32 })));
        }
        return Ok(Some(Val::F(v)));
    }
    Ok(None)
}

fn walk(obj: &Bound<'_, PyAny>, depth: usize, shape: &mut Vec<usize>, out: &mut Vec<Val>) -> PyResult<()> {
    if let Some(v) = scalar_of(obj)? {
        if depth < shape.len() {
            return Err(PyValueError::new_err(format!("expected sequence of length {} at dim {} (got 0)", shape[depth], depth)));
        }
        out.push(v);
        return Ok(());
    }
    if obj.is_instance_of::<pyo3::types::PyString>() {
        return Err(PyTypeError::new_err(format!("new(): invalid data type '{}'", obj.get_type().name()?)));
    }
    if let Ok(t) = obj.cast::<PyTensor>() {
        // a tensor inside a list: splice its values
        let t = &t.get().t;
        let s = t.shape();
        if depth == shape.len() {
            shape.extend(s.iter().copied());
        }
        if t.dtype().is_complex() {
            out.extend(crate::ops::complex::to_pairs(t)?.into_iter().map(|(r, i)| Val::C(r, i, None)));
            return Ok(());
        }
        let vals = t.to_f64_vec()?;
        let is_int = !t.dtype().is_float();
        for v in vals {
            out.push(if t.dtype() == DType::Bool { Val::B(v != 0.0) } else if is_int { Val::I(v as i64) } else { Val::F(v) });
        }
        return Ok(());
    }
    // a NumPy array inside a list: its elements one by one (NumPy scalars keep their dtype),
    // with PyTorch's warning about the cost
    if depth > 0 && obj.hasattr("ndim")? && obj.hasattr("dtype")? && obj.hasattr("__getitem__")? {
        warn_ndarray_list(obj.py())?;
        let n = obj.len()?;
        if depth == shape.len() {
            shape.push(n);
        } else if shape[depth] != n {
            return Err(PyValueError::new_err(format!("expected sequence of length {} at dim {} (got {})", shape[depth], depth, n)));
        }
        for i in 0..n {
            walk(&obj.get_item(i)?, depth + 1, shape, out)?;
        }
        return Ok(());
    }
    let seq = obj.cast::<PySequence>().map_err(|_| {
        PyTypeError::new_err(format!("Could not infer dtype of {}", obj.get_type().name().map(|n| n.to_string()).unwrap_or_default()))
    })?;
    let n = seq.len()?;
    if depth == shape.len() {
        shape.push(n);
    } else if shape[depth] != n {
        return Err(PyValueError::new_err(format!("expected sequence of length {} at dim {} (got {})", shape[depth], depth, n)));
    }
    for i in 0..n {
        walk(&seq.get_item(i)?, depth + 1, shape, out)?;
    }
    Ok(())
}

/// `torch.tensor(data)`-style conversion (always copies).
pub fn tensor_from_data(data: &Bound<'_, PyAny>, dtype: Option<DType>) -> PyResult<Tensor> {
    if let Ok(t) = data.cast::<PyTensor>() {
        let t = t.get().t.detach_copy()?;
        return Ok(match dtype { Some(d) if d != t.dtype() => crate::ops::cast_raw(&t, d)?, _ => t });
    }
    if data.cast::<PyUntypedArray>().is_ok() {
        let t = from_numpy(data)?.detach_copy()?;
        return Ok(match dtype { Some(d) if d != t.dtype() => crate::ops::cast_raw(&t, d)?, _ => t });
    }
    let mut shape = Vec::new();
    let mut vals = Vec::new();
    walk(data, 0, &mut shape, &mut vals)?;
    let np_float = vals.iter().filter_map(|v| if let Val::NpF(_, d) = v { Some(*d) } else { None }).max();
    let np_complex = vals.iter().filter_map(|v| if let Val::C(_, _, d) = v { Some(d.unwrap_or_else(crate::dtype::default_complex)) } else { None }).max();
    let inferred = if let Some(d) = np_complex {
        d
    } else if let Some(d) = np_float {
        // matches torch: NumPy float scalars keep their dtype
        d
    } else if vals.iter().any(|v| matches!(v, Val::F(_))) {
        default_float()
    } else if !vals.is_empty() && vals.iter().all(|v| matches!(v, Val::B(_))) {
        DType::Bool
    } else if !vals.is_empty() && vals.iter().all(|v| matches!(v, Val::NpI(..) | Val::B(_))) {
        // matches torch: NumPy integer scalars keep their dtype (promoted among themselves)
        vals.iter().filter_map(|v| if let Val::NpI(_, d) = v { Some(*d) } else { None })
            .reduce(DType::promote).unwrap_or(DType::Int64)
    } else if vals.is_empty() {
        default_float()
    } else {
        DType::Int64
    };
    let dt = dtype.unwrap_or(inferred);
    if dt.is_complex() {
        let pairs: Vec<(f64, f64)> = vals.iter().map(|v| v.pair()).collect();
        return Ok(crate::ops::complex::from_pairs(&pairs, &shape, dt)?);
    }
    if vals.iter().any(|v| matches!(v, Val::C(..))) {
        return Err(PyTypeError::new_err("must be real number, not complex"));
    }
    for v in &vals {
        let sc = match *v { Val::B(b) => crate::Scalar::Bool(b), Val::I(i) | Val::NpI(i, _) => crate::Scalar::Int(i), Val::F(f) | Val::NpF(f, _) | Val::C(f, ..) => crate::Scalar::Float(f) };
        if dt.int_overflows(sc) {
            return Err(crate::Error::Runtime(format!("value cannot be converted to type {} without overflow", dt.name())).into());
        }
    }
    Ok(if dt.is_float() {
        let f: Vec<f64> = vals.iter().map(|v| v.pair().0).collect();
        crate::tensor::from_f64s(&f, &shape, dt)?
    } else {
        let i: Vec<i64> = vals.iter().map(|v| match *v { Val::B(b) => b as i64, Val::I(i) | Val::NpI(i, _) => i, Val::F(f) | Val::NpF(f, _) | Val::C(f, ..) => f as i64 }).collect();
        crate::tensor::from_i64s(&i, &shape, dt)?
    })
}

/// Keeps a NumPy array alive while a storage borrows its memory.
struct ArrayOwner(#[allow(dead_code)] Py<PyAny>);

fn borrow_array<T: StorageElem + numpy::Element>(arr: &Bound<'_, PyAny>) -> PyResult<Tensor> {
    let a = arr.cast::<PyArrayDyn<T>>()?;
    let item = std::mem::size_of::<T>() as isize;
    let shape: Vec<usize> = a.shape().to_vec();
    let mut strides = Vec::with_capacity(shape.len());
    for &s in a.strides() {
        if s < 0 {
            return Err(PyValueError::new_err("At least one stride in the given numpy array is negative, and tensors with negative strides are not currently supported. (You can probably work around this by making a copy of your array  with array.copy().) "));
        }
        strides.push((s / item) as usize);
    }
    let numel: usize = shape.iter().product();
    let extent = if numel == 0 { 0 } else { 1 + shape.iter().zip(&strides).map(|(&n, &s)| (n - 1) * s).sum::<usize>() };
    let ptr = a.data();
    // SAFETY: `ptr` is the array's data pointer; the array is kept alive by the owner box for
    // as long as the storage lives, and every element address within `extent` lies inside its
    // buffer (non-negative strides checked above).
    let buf = unsafe { Buf::external(ptr, extent, Box::new(ArrayOwner(arr.clone().unbind()))) };
    let storage = match T::wrap(Vec::new()) {
        CpuStorage::Bool(_) => CpuStorage::Bool(cast_buf(buf)),
        CpuStorage::U8(_) => CpuStorage::U8(cast_buf(buf)),
        CpuStorage::I8(_) => CpuStorage::I8(cast_buf(buf)),
        CpuStorage::I16(_) => CpuStorage::I16(cast_buf(buf)),
        CpuStorage::I32(_) => CpuStorage::I32(cast_buf(buf)),
        CpuStorage::I64(_) => CpuStorage::I64(cast_buf(buf)),
        CpuStorage::F16(_) => CpuStorage::F16(cast_buf(buf)),
        CpuStorage::BF16(_) => CpuStorage::BF16(cast_buf(buf)),
        CpuStorage::F32(_) => CpuStorage::F32(cast_buf(buf)),
        CpuStorage::F64(_) => CpuStorage::F64(cast_buf(buf)),
    };
    let layout = crate::shape::Layout { shape: shape.into_iter().collect(), strides: strides.into_iter().collect(), offset: 0 };
    Ok(Tensor::from_parts(StorageCell::cpu(storage), layout, T::DTYPE))
}

/// Reinterpret a `Buf<T>` as `Buf<U>` where T and U are the same type (checked by DTYPE).
fn cast_buf<T: 'static, U: 'static>(b: Buf<T>) -> Buf<U> {
    let any: Box<dyn std::any::Any> = Box::new(b);
    *any.downcast::<Buf<U>>().expect("invariant: same element type")
}

/// `torch.from_numpy(arr)`: shares the array's memory.
pub fn from_numpy(arr: &Bound<'_, PyAny>) -> PyResult<Tensor> {
    let ua = arr.cast::<PyUntypedArray>().map_err(|_| PyTypeError::new_err(format!("expected np.ndarray (got {})", arr.get_type().name().map(|n| n.to_string()).unwrap_or_default())))?;
    let kind = ua.dtype().kind();
    let size = ua.dtype().itemsize();
    match (kind, size) {
        (b'f', 4) => borrow_array::<f32>(arr),
        (b'f', 8) => borrow_array::<f64>(arr),
        (b'f', 2) => {
            let f = arr.call_method1("astype", ("float32",))?;
            Ok(crate::ops::cast_raw(&borrow_array::<f32>(&f)?, DType::Float16)?)
        }
        (b'i', 8) => borrow_array::<i64>(arr),
        (b'i', 4) => borrow_array::<i32>(arr),
        (b'i', 2) => borrow_array::<i16>(arr),
        (b'i', 1) => borrow_array::<i8>(arr),
        (b'u', 1) => borrow_array::<u8>(arr),
        (b'b', 1) => borrow_array::<bool>(arr),
        // complex: the array with a trailing axis of 1 viewed as (re, im) pairs of its real
        // type, shared, then seen as complex again
        (b'c', 8 | 16) => {
            let real = if size == 8 { "float32" } else { "float64" };
            let np = arr.py().import("numpy")?;
            let pairs = arr.call_method1("__getitem__", ((pyo3::types::PyEllipsis::get(arr.py()), np.getattr("newaxis")?),))?.call_method1("view", (real,))?;
            let t = if size == 8 { borrow_array::<f32>(&pairs)? } else { borrow_array::<f64>(&pairs)? };
            Ok(crate::ops::complex::fresh_complex(&t)?)
        }
        // uint16/32/64 have no tensor dtype here yet: widened to int64 (a copy; uint64 values
        // above 2**63 wrap as in a C cast)
        (b'u', _) => {
            let f = arr.call_method1("astype", ("int64",))?;
            borrow_array::<i64>(&f)
        }
        _ => Err(PyTypeError::new_err(format!("can't convert np.ndarray of type {}. The only supported types are: float64, float32, float16, complex64, complex128, int64, int32, int16, int8, uint64, uint32, uint16, uint8, and bool.", arr.getattr("dtype")?.str()?))),
    }
}

/// `tensor.numpy()`: a NumPy view over the tensor's storage, kept alive by the tensor.
pub fn to_numpy<'py>(slf: &Bound<'py, PyTensor>) -> PyResult<Bound<'py, PyAny>> {
    let t = &slf.get().t;
    let d = t.data();
    let l = d.layout.clone();
    let st = d.storage.data.read();
    fn view<'py, T: StorageElem + numpy::Element>(buf: &[T], l: &crate::shape::Layout, owner: Bound<'py, PyAny>) -> Bound<'py, PyAny> {
        use numpy::ndarray::{ArrayView, IxDyn, ShapeBuilder};
        let shape: Vec<usize> = l.shape.to_vec();
        let strides: Vec<usize> = l.strides.to_vec();
        let base = if buf.is_empty() { buf.as_ptr() } else { buf[l.offset..].as_ptr() };
        // SAFETY: the layout addresses only elements inside `buf` (the storage), which the
        // owner tensor keeps alive; the view is handed to NumPy with that owner as its base.
        unsafe {
            let v = ArrayView::from_shape_ptr(IxDyn(&shape).strides(IxDyn(&strides)), base);
            numpy::PyArray::borrow_from_array(&v, owner).into_any()
        }
    }
    let owner = slf.clone().into_any();
    if t.dtype().is_complex() && st.as_cpu().is_some() {
        // the real view's array, seen as complex by NumPy (pairs are its last, unit-stride axis)
        drop(st);
        drop(d);
        let real = crate::ops::complex::view_as_real_raw(t)?;
        let arr = to_numpy(&Bound::new(slf.py(), PyTensor::new(real))?)?;
        let c = arr.call_method1("view", (if t.dtype() == DType::Complex64 { "complex64" } else { "complex128" },))?;
        return c.call_method1("__getitem__", ((pyo3::types::PyEllipsis::get(slf.py()), 0),));
    }
    let Some(st) = st.as_cpu() else {
        return Err(pyo3::exceptions::PyTypeError::new_err(format!(
            "can't convert {} device type tensor to numpy. Use Tensor.cpu() to copy the tensor to host memory first.", t.device())));
    };
    Ok(match st {
        CpuStorage::F32(b) => view::<f32>(b, &l, owner),
        CpuStorage::F64(b) => view::<f64>(b, &l, owner),
        CpuStorage::I64(b) => view::<i64>(b, &l, owner),
        CpuStorage::I32(b) => view::<i32>(b, &l, owner),
        CpuStorage::I16(b) => view::<i16>(b, &l, owner),
        CpuStorage::I8(b) => view::<i8>(b, &l, owner),
        CpuStorage::U8(b) => view::<u8>(b, &l, owner),
        CpuStorage::Bool(b) => view::<bool>(b, &l, owner),
        CpuStorage::BF16(_) => {
            // NumPy has no bfloat16 (torch's message)
            return Err(pyo3::exceptions::PyTypeError::new_err("Got unsupported ScalarType BFloat16"));
        }
        CpuStorage::F16(_) => {
            let f = crate::ops::cast_raw(t, DType::Float32)?;
            let arr = to_numpy(&Bound::new(slf.py(), PyTensor::new(f))?)?;
            return arr.call_method1("astype", ("float16",));
        }
    })
}

/// `tolist()`: nested Python lists of bool/int/float.
pub fn tolist(py: Python<'_>, t: &Tensor) -> PyResult<Py<PyAny>> {
    let shape = t.shape();
    let dt = t.dtype();
    let items: Vec<Py<PyAny>> = if dt.is_complex() {
        crate::ops::complex::to_pairs(t)?.into_iter().map(|(r, i)| pyo3::types::PyComplex::from_doubles(py, r, i).into_any().unbind()).collect()
    } else { t.with_host(|s, l| -> PyResult<Vec<Py<PyAny>>> {
        let mut out = Vec::with_capacity(l.numel());
        with_buf!(s, b => crate::shape::walk1(l, |o| {
            use crate::dtype::Elem;
            let v = b[o];
            let r = match dt {
                DType::Bool => PyBool::new(py, v.to_i64() != 0).to_owned().into_any().unbind(),
                d if d.category() == crate::dtype::Category::Integral => pyo3::types::PyInt::new(py, v.to_i64()).into_any().unbind(),
                _ => PyFloat::new(py, v.to_f64()).into_any().unbind(),
            };
            out.push(r);
        }));
        Ok(out)
    })??};
    if shape.is_empty() {
        return Ok(items.into_iter().next().expect("invariant: one element"));
    }
    fn build(py: Python<'_>, shape: &[usize], items: &mut std::vec::IntoIter<Py<PyAny>>) -> PyResult<Py<PyAny>> {
        let n = shape[0];
        let mut v = Vec::with_capacity(n);
        for _ in 0..n {
            if shape.len() == 1 {
                v.push(items.next().expect("invariant: enough items"));
            } else {
                v.push(build(py, &shape[1..], items)?);
            }
        }
        Ok(PyList::new(py, v)?.into_any().unbind())
    }
    let mut it = items.into_iter();
    build(py, &shape, &mut it)
}

/// A Python number or bool as a scalar, if it is one.
/// A Python complex number (or NumPy complex scalar) as (re, im), if it is one.
pub fn py_complex(obj: &Bound<'_, PyAny>) -> Option<(f64, f64)> {
    obj.cast::<pyo3::types::PyComplex>().ok().map(|c| (c.real(), c.imag()))
}

pub fn py_scalar(obj: &Bound<'_, PyAny>) -> Option<Scalar> {
    if obj.is_instance_of::<PyBool>() {
        return obj.extract().ok().map(Scalar::Bool);
    }
    if obj.is_instance_of::<PyInt>() {
        return obj.extract().ok().map(Scalar::Int);
    }
    if obj.is_instance_of::<PyFloat>() {
        return obj.extract().ok().map(Scalar::Float);
    }
    // a NumPy scalar (np.int32(3), np.float64(x), np.bool_) is a Python number to torch
    if obj.get_type().getattr("__module__").ok().and_then(|m| m.extract::<String>().ok()).is_some_and(|m| m == "numpy")
        && obj.cast::<numpy::PyUntypedArray>().is_err()
        && obj.hasattr("item").unwrap_or(false)
    {
        return obj.call_method0("item").ok().and_then(|v| py_scalar(&v));
    }
    None
}

/// Parse `dtype=` keyword values.
pub fn opt_dtype(obj: Option<&Bound<'_, PyAny>>) -> PyResult<Option<DType>> {
    match obj {
        None => Ok(None),
        Some(o) if o.is_none() => Ok(None),
        Some(o) => dtype_arg(o).map(Some),
    }
}

/// A `device=` argument: None (the CPU), a string (`"cpu"`, `"cuda:1"`), a `torch.device`, or
/// an int (a CUDA ordinal), parsed with the core's grammar.
pub fn device_arg(device: Option<&Bound<'_, PyAny>>) -> PyResult<crate::Device> {
    let Some(d) = device else { return Ok(crate::device::default_device()) };
    if d.is_none() {
        return Ok(crate::device::default_device());
    }
    if let Ok(i) = d.extract::<i64>() {
        if i < 0 {
            return Err(PyRuntimeError::new_err("Device index must not be negative"));
        }
        return Ok(crate::Device::Cuda(i as usize));
    }
    let s: String = d.str()?.extract()?;
    let spec: crate::device::DeviceSpec = s.parse()?;
    Ok(spec.resolve(crate::device::current_cuda_device()))
}

/// PyTorch's (once per process) warning for `torch.tensor([ndarray, ...])`.
fn warn_ndarray_list(py: Python<'_>) -> PyResult<()> {
    static WARNED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
    if !WARNED.swap(true, std::sync::atomic::Ordering::Relaxed) {
        let msg = c"Creating a tensor from a list of numpy.ndarrays is extremely slow. Please consider converting the list to a single numpy.ndarray with numpy.array() before converting to a tensor.";
        PyErr::warn(py, &py.get_type::<pyo3::exceptions::PyUserWarning>(), msg, 1)?;
    }
    Ok(())
}
