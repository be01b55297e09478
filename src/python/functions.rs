//! Module-level functions of `ferrograd._C`: factories, joins, grad modes, the backward
//! entry point, threads, and the graph memory report.

use super::convert::{self, opt_dtype};
use super::tensor::{self as pt, shape_args, usize_shape, wrap, PyTensor};
use crate::autograd::{self, BackwardRequest};
use crate::dtype::{default_float, DType};
use crate::tensor::{self as tf, Scalar, Tensor};
use pyo3::exceptions::{PyRuntimeError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};

const FACTORY_GRAD: &str = "Only Tensors of floating point and complex dtype can require gradients";

/// A factory's result, moved to its device, with `requires_grad` checked and set.
fn finish(py: Python<'_>, t: Tensor, device: crate::Device, requires_grad: bool) -> PyResult<Py<PyAny>> {
    let t = if t.device() == device { t } else { crate::backend::to_device(&t, device)? };
    if requires_grad {
        if !t.dtype().is_float() && !t.dtype().is_complex() {
            return Err(PyRuntimeError::new_err(FACTORY_GRAD));
        }
        t.set_requires_grad(true)?;
    }
    wrap(py, t)
}

/// A factory's `device=` argument, parsed by the core and checked usable.
fn check_device(device: Option<&Bound<'_, PyAny>>) -> PyResult<crate::Device> {
    let d = super::convert::device_arg(device)?;
    crate::cuda::check_device(d)?;
    Ok(d)
}

#[pyfunction]
#[pyo3(name = "tensor", signature = (data, *, dtype=None, device=None, requires_grad=false, pin_memory=false))]
fn tensor_(py: Python<'_>, data: &Bound<'_, PyAny>, dtype: Option<&Bound<'_, PyAny>>, device: Option<&Bound<'_, PyAny>>, requires_grad: bool, pin_memory: bool) -> PyResult<Py<PyAny>> {
    let _ = pin_memory;
    if data.is_instance_of::<PyTensor>() {
        PyErr::warn(py, &py.get_type::<pyo3::exceptions::PyUserWarning>(),
            c"To copy construct from a tensor, it is recommended to use sourceTensor.detach().clone() or sourceTensor.detach().clone().requires_grad_(True), rather than torch.tensor(sourceTensor).", 1)?;
    }
    let dev = check_device(device)?;
    let t = convert::tensor_from_data(data, opt_dtype(dtype)?)?;
    finish(py, t, dev, requires_grad)
}

/// `torch.nan_to_num` of a real floating tensor (NanToNumBackward0).
#[pyfunction]
#[pyo3(signature = (x, nan=0.0, posinf=None, neginf=None))]
fn _nan_to_num(py: Python<'_>, x: PyRef<'_, PyTensor>, nan: f64, posinf: Option<f64>, neginf: Option<f64>) -> PyResult<Py<PyAny>> {
    let x = x.t.clone();
    super::tensor::wrap(py, crate::ops::nan_to_num(&x, nan, posinf, neginf)?)
}

/// `torch.bincount` (the core's `ops::bincount`: its checks, dtypes and summation order).
#[pyfunction]
#[pyo3(signature = (input, weights=None, minlength=0))]
fn _bincount(py: Python<'_>, input: PyRef<'_, PyTensor>, weights: Option<PyRef<'_, PyTensor>>, minlength: i64) -> PyResult<Py<PyAny>> {
    let (x, w) = (input.t.clone(), weights.map(|w| w.t.clone()));
    super::tensor::wrap(py, crate::ops::bincount(&x, w.as_ref(), minlength)?)
}

fn autocast_device(device_type: &str) -> PyResult<crate::autocast::DeviceType> {
    match device_type {
        "cpu" => Ok(crate::autocast::DeviceType::Cpu),
        "cuda" => Ok(crate::autocast::DeviceType::Cuda),
        d => Err(pyo3::exceptions::PyRuntimeError::new_err(format!("unsupported autocast device_type '{d}'"))),
    }
}

/// This thread's autocast dtype for `device_type` (None: off).
#[pyfunction]
fn _autocast_get(py: Python<'_>, device_type: &str) -> PyResult<Option<Py<super::tensor::PyDType>>> {
    Ok(crate::autocast::get(autocast_device(device_type)?).map(|d| super::tensor::dtype_obj(py, d)))
}

/// Set this thread's autocast dtype for `device_type` (None: off); returns the previous one.
#[pyfunction]
#[pyo3(signature = (device_type, dtype=None))]
fn _autocast_set(py: Python<'_>, device_type: &str, dtype: Option<&Bound<'_, PyAny>>) -> PyResult<Option<Py<super::tensor::PyDType>>> {
    let d = dtype.map(super::tensor::dtype_arg).transpose()?;
    Ok(crate::autocast::set(autocast_device(device_type)?, d).map(|d| super::tensor::dtype_obj(py, d)))
}

/// An operand of a lower-precision op (`full`: of a float32 op) under this thread's autocast.
#[pyfunction]
#[pyo3(signature = (t, full=false))]
fn _autocast_cast(py: Python<'_>, t: PyRef<'_, PyTensor>, full: bool) -> PyResult<Py<PyAny>> {
    let t = t.t.clone();
    super::tensor::wrap(py, if full { crate::autocast::full(&t)? } else { crate::autocast::lower(&t)? })
}

/// `torch.promote_types(type1, type2)`: the dtype both promote to.
#[pyfunction]
fn promote_types(py: Python<'_>, type1: &Bound<'_, PyAny>, type2: &Bound<'_, PyAny>) -> PyResult<Py<super::tensor::PyDType>> {
    let (a, b) = (super::tensor::dtype_arg(type1)?, super::tensor::dtype_arg(type2)?);
    Ok(super::tensor::dtype_obj(py, crate::dtype::DType::promote(a, b)))
}

/// `torch.result_type(tensor1, tensor2)`: the dtype of an arithmetic op on the two operands
/// (tensors or Python numbers).
#[pyfunction]
fn result_type(py: Python<'_>, tensor1: &Bound<'_, PyAny>, tensor2: &Bound<'_, PyAny>) -> PyResult<Py<super::tensor::PyDType>> {
    let need = |o: &Bound<'_, PyAny>| -> PyResult<Tensor> {
        super::tensor::operand(o)?.ok_or_else(|| pyo3::exceptions::PyTypeError::new_err(format!(
            "result_type() received an invalid combination of arguments - got ({})", o.get_type().name().map(|n| n.to_string()).unwrap_or_default())))
    };
    let (a, b) = (need(tensor1)?, need(tensor2)?);
    Ok(super::tensor::dtype_obj(py, crate::dtype::result_type(&[(a.dtype(), a.priority()), (b.dtype(), b.priority())])))
}

/// `torch.vdot(input, other)`: the dot product of `input.conj()` and `other` (1-D tensors).
#[pyfunction]
fn vdot(py: Python<'_>, input: PyRef<'_, PyTensor>, other: PyRef<'_, PyTensor>) -> PyResult<Py<PyAny>> {
    wrap(py, crate::ops::vdot(&input.t, &other.t)?)
}

/// `torch.view_as_real(z)`: the (re, im) pairs of a complex tensor as a real view.
#[pyfunction]
fn view_as_real(py: Python<'_>, input: PyRef<'_, PyTensor>) -> PyResult<Py<PyAny>> {
    wrap(py, crate::ops::complex::view_as_real(&input.t)?)
}

/// `torch.view_as_complex(x)`: a float tensor whose last dim holds (re, im) pairs, as a
/// complex view.
#[pyfunction]
fn view_as_complex(py: Python<'_>, input: PyRef<'_, PyTensor>) -> PyResult<Py<PyAny>> {
    wrap(py, crate::ops::complex::view_as_complex(&input.t)?)
}

/// `torch.complex(real, imag)`.
#[pyfunction]
fn complex(py: Python<'_>, real: PyRef<'_, PyTensor>, imag: PyRef<'_, PyTensor>) -> PyResult<Py<PyAny>> {
    wrap(py, crate::ops::complex::complex(&real.t, &imag.t)?)
}

/// `torch.polar(abs, angle)`.
#[pyfunction]
fn polar(py: Python<'_>, abs: PyRef<'_, PyTensor>, angle: PyRef<'_, PyTensor>) -> PyResult<Py<PyAny>> {
    wrap(py, crate::ops::complex::polar(&abs.t, &angle.t)?)
}

#[pyfunction]
fn from_numpy(py: Python<'_>, arr: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
    wrap(py, convert::from_numpy(arr)?)
}

#[pyfunction]
#[pyo3(signature = (data, dtype=None, device=None))]
fn as_tensor(py: Python<'_>, data: &Bound<'_, PyAny>, dtype: Option<&Bound<'_, PyAny>>, device: Option<&Bound<'_, PyAny>>) -> PyResult<Py<PyAny>> {
    let dev = check_device(device)?;
    let dt = opt_dtype(dtype)?;
    if let Ok(t) = data.cast::<PyTensor>() {
        let src = &t.get().t;
        // matches torch: the same tensor when neither dtype nor device changes
        let moved = match device {
            Some(d) if !d.is_none() && dev != src.device() => Some(crate::ops::to_device(src, dev)?),
            _ => None,
        };
        return match (dt, moved) {
            (Some(d), m) if d != t.get().t.dtype() => wrap(py, crate::ops::to_dtype(m.as_ref().unwrap_or(src), d)?),
            (_, Some(m)) => wrap(py, m),
            _ => Ok(t.clone().into_any().unbind()),
        };
    }
    if data.cast::<numpy::PyUntypedArray>().is_ok() {
        let t = convert::from_numpy(data)?;
        let t = match dt { Some(d) if d != t.dtype() => crate::ops::cast_raw(&t, d)?, _ => t };
        return finish(py, t, dev, false);
    }
    finish(py, convert::tensor_from_data(data, dt)?, dev, false)
}

/// A `*size, **kw` factory: `make` builds the tensor on the device asked for (or on the CPU,
/// and `finish` moves it).
/// A factory `name` (`zeros`, `empty`, ...) of `size` and the keywords PyTorch's takes
/// (`memory_format` only for `empty`, where the result is then laid out in that format).
fn factory(py: Python<'_>, name: &str, size: &Bound<'_, PyTuple>, kw: Option<&Bound<'_, PyDict>>, make: impl FnOnce(&[usize], DType, crate::Device) -> crate::Result<Tensor>) -> PyResult<Py<PyAny>> {
    let get = |k: &str| -> PyResult<Option<Bound<'_, PyAny>>> { match kw { Some(d) => d.get_item(k), None => Ok(None) } };
    let takes_format = name == "empty";
    if let Some(d) = kw {
        const KNOWN: [&str; 8] = ["dtype", "device", "requires_grad", "size", "out", "layout", "pin_memory", "generator"];
        for k in d.keys() {
            let k: String = k.extract()?;
            if !KNOWN.contains(&k.as_str()) && !(takes_format && k == "memory_format") {
                return Err(PyTypeError::new_err(format!("{name}() got an unexpected keyword argument '{k}'")));
            }
        }
    }
    let format = if takes_format {
        super::tensor_ops::memory_format(get("memory_format")?.as_ref(), name, crate::ops::MemoryFormat::Contiguous)?
    } else {
        crate::ops::MemoryFormat::Contiguous
    };
    let make = |s: &[usize], d: DType, dev: crate::Device| -> crate::Result<Tensor> {
        let t = make(s, d, dev)?;
        if format == crate::ops::MemoryFormat::Contiguous { Ok(t) } else { crate::ops::contiguous_as(&t, format) }
    };
    // out=: the result takes out's dtype (unless dtype= says otherwise) and is written into it
    let out = get("out")?.filter(|o| !o.is_none());
    let out = match &out {
        Some(o) => Some(o.cast::<PyTensor>().map_err(|_| PyTypeError::new_err("out= must be a Tensor"))?.clone()),
        None => None,
    };
    let dtype = match (opt_dtype(get("dtype")?.as_ref())?, &out) {
        (Some(d), _) => d,
        (None, Some(o)) => o.get().t.dtype(),
        (None, None) => default_float(),
    };
    let rg = match get("requires_grad")? { Some(v) => v.is_truthy()?, None => false };
    let dev = match (&out, get("device")?) {
        (Some(o), None) => o.get().t.device(),
        (_, d) => check_device(d.as_ref())?,
    };
    let dims = match (size.is_empty(), get("size")?) {
        (true, Some(s)) => s.extract::<Vec<i64>>()?,
        _ => shape_args(size)?,
    };
    let shape = usize_shape(&dims)?;
    let r = make(&shape, dtype, dev)?;
    match out {
        Some(o) => {
            let r = if r.device() != dev { crate::ops::to_device(&r, dev)? } else { r };
            super::tensor_ops::into_out(py, "factory", r, &o)
        }
        None => finish(py, r, dev, rg),
    }
}

#[pyfunction]
#[pyo3(signature = (*size, **kw))]
fn zeros(py: Python<'_>, size: &Bound<'_, PyTuple>, kw: Option<&Bound<'_, PyDict>>) -> PyResult<Py<PyAny>> {
    // matches torch: zeros words its negative-size error differently from the others
    if shape_args(size).is_ok_and(|d| d.iter().any(|&x| x < 0)) {
        return Err(PyRuntimeError::new_err("zeros: Dimension size must be non-negative."));
    }
    factory(py, "zeros", size, kw, tf::zeros_on)
}

#[pyfunction]
#[pyo3(signature = (*size, **kw))]
fn ones(py: Python<'_>, size: &Bound<'_, PyTuple>, kw: Option<&Bound<'_, PyDict>>) -> PyResult<Py<PyAny>> {
    factory(py, "ones", size, kw, |s, d, dev| tf::full_on(s, Scalar::Int(1), d, dev))
}

#[pyfunction]
#[pyo3(signature = (*size, **kw))]
fn empty(py: Python<'_>, size: &Bound<'_, PyTuple>, kw: Option<&Bound<'_, PyDict>>) -> PyResult<Py<PyAny>> {
    factory(py, "empty", size, kw, tf::scratch_on)
}

#[pyfunction]
#[pyo3(signature = (*size, **kw))]
fn rand(py: Python<'_>, size: &Bound<'_, PyTuple>, kw: Option<&Bound<'_, PyDict>>) -> PyResult<Py<PyAny>> {
    let g = super::random::gen_arg(kw.map(|d| d.get_item("generator")).transpose()?.flatten().as_ref())?;
    factory(py, "rand", size, kw, |s, d, _| crate::ops::rand(s, d, g.as_ref()))
}

#[pyfunction]
#[pyo3(signature = (*size, **kw))]
fn randn(py: Python<'_>, size: &Bound<'_, PyTuple>, kw: Option<&Bound<'_, PyDict>>) -> PyResult<Py<PyAny>> {
    let g = super::random::gen_arg(kw.map(|d| d.get_item("generator")).transpose()?.flatten().as_ref())?;
    factory(py, "randn", size, kw, |s, d, _| crate::ops::randn(s, d, g.as_ref()))
}

#[pyfunction]
#[pyo3(signature = (size, fill_value, *, dtype=None, device=None, requires_grad=false))]
fn full(py: Python<'_>, size: &Bound<'_, PyAny>, fill_value: &Bound<'_, PyAny>, dtype: Option<&Bound<'_, PyAny>>, device: Option<&Bound<'_, PyAny>>, requires_grad: bool) -> PyResult<Py<PyAny>> {
    let dev = check_device(device)?;
    let shape = usize_shape(&size.extract::<Vec<i64>>()?)?;
    if let Some((re, im)) = convert::py_complex(fill_value) {
        let dt = opt_dtype(dtype)?.unwrap_or_else(crate::dtype::default_complex);
        if !dt.is_complex() {
            return Err(PyTypeError::new_err("must be real number, not complex"));
        }
        let n = crate::shape::numel_checked(&shape)?;
        return finish(py, crate::ops::complex::from_pairs(&vec![(re, im); n], &shape, dt)?, dev, requires_grad);
    }
    if fill_value.is_instance_of::<pyo3::types::PyInt>() && convert::py_scalar(fill_value).is_none() {
        return Err(pyo3::exceptions::PyOverflowError::new_err("int too big to convert"));
    }
    let v = convert::py_scalar(fill_value).or_else(|| fill_value.cast::<PyTensor>().ok().and_then(|t| t.get().t.item().ok()))
        .ok_or_else(|| PyTypeError::new_err("full(): fill_value must be a number"))?;
    let dt = opt_dtype(dtype)?.unwrap_or(match v { Scalar::Bool(_) => DType::Bool, Scalar::Int(_) => DType::Int64, Scalar::Float(_) => default_float() });
    finish(py, tf::full_on(&shape, v, dt, dev)?, dev, requires_grad)
}

#[pyfunction]
#[pyo3(signature = (start, end=None, step=None, *, dtype=None, device=None, requires_grad=false))]
fn arange(py: Python<'_>, start: &Bound<'_, PyAny>, end: Option<&Bound<'_, PyAny>>, step: Option<&Bound<'_, PyAny>>, dtype: Option<&Bound<'_, PyAny>>, device: Option<&Bound<'_, PyAny>>, requires_grad: bool) -> PyResult<Py<PyAny>> {
    let dev = check_device(device)?;
    let sc = |o: &Bound<'_, PyAny>| -> PyResult<Scalar> {
        convert::py_scalar(o).or_else(|| o.cast::<PyTensor>().ok().and_then(|t| t.get().t.item().ok())).ok_or_else(|| PyTypeError::new_err("arange(): arguments must be numbers"))
    };
    let (s, e) = match end { Some(e) if !e.is_none() => (sc(start)?, sc(e)?), _ => (Scalar::Int(0), sc(start)?) };
    let st = match step { Some(x) if !x.is_none() => sc(x)?, _ => Scalar::Int(1) };
    let all_int = [s, e, st].iter().all(|x| !matches!(x, Scalar::Float(_)));
    let dt = opt_dtype(dtype)?.unwrap_or(if all_int { DType::Int64 } else { default_float() });
    if let (DType::Int64, Scalar::Int(a), Scalar::Int(b), Scalar::Int(c)) = (dt, s, e, st) {
        // integers into int64: exact past 2^53
        return finish(py, tf::arange_i64(a, b, c)?, dev, requires_grad);
    }
    finish(py, tf::arange(s.as_f64(), e.as_f64(), st.as_f64(), dt)?, dev, requires_grad)
}

#[pyfunction]
#[pyo3(signature = (start, end, steps, *, dtype=None, device=None, requires_grad=false))]
fn linspace(py: Python<'_>, start: f64, end: f64, steps: i64, dtype: Option<&Bound<'_, PyAny>>, device: Option<&Bound<'_, PyAny>>, requires_grad: bool) -> PyResult<Py<PyAny>> {
    if steps < 0 {
        return Err(pyo3::exceptions::PyRuntimeError::new_err("number of steps must be non-negative"));
    }
    let dev = check_device(device)?;
    let dt = opt_dtype(dtype)?.unwrap_or_else(default_float);
    finish(py, tf::linspace(start, end, steps as usize, dt)?, dev, requires_grad)
}

#[pyfunction]
#[pyo3(signature = (n, m=None, *, dtype=None, device=None, requires_grad=false))]
fn eye(py: Python<'_>, n: usize, m: Option<usize>, dtype: Option<&Bound<'_, PyAny>>, device: Option<&Bound<'_, PyAny>>, requires_grad: bool) -> PyResult<Py<PyAny>> {
    let dev = check_device(device)?;
    let dt = opt_dtype(dtype)?.unwrap_or_else(default_float);
    finish(py, tf::eye(n, m.unwrap_or(n), dt)?, dev, requires_grad)
}

#[pyfunction]
#[pyo3(signature = (*args, **kw))]
fn randint(py: Python<'_>, args: &Bound<'_, PyTuple>, kw: Option<&Bound<'_, PyDict>>) -> PyResult<Py<PyAny>> {
    let get = |k: &str| -> PyResult<Option<Bound<'_, PyAny>>> { match kw { Some(d) => d.get_item(k), None => Ok(None) } };
    let int = |o: Bound<'_, PyAny>| -> PyResult<i64> { o.extract::<i64>() };
    let mut pos: Vec<Bound<'_, PyAny>> = args.iter().collect();
    // randint(high, size) / randint(low, high, size), any of them by keyword
    let size = match get("size")? { Some(s) => s, None => pos.pop().ok_or_else(|| PyTypeError::new_err("randint() missing required argument 'size' (pos 2)"))? };
    let high = match get("high")? { Some(h) => int(h)?, None => int(pos.pop().ok_or_else(|| PyTypeError::new_err("randint() missing required argument 'high' (pos 1)"))?)? };
    let low = match get("low")? { Some(l) => int(l)?, None => match pos.pop() { Some(l) => int(l)?, None => 0 } };
    if !pos.is_empty() {
        return Err(PyTypeError::new_err("randint() received an invalid combination of arguments"));
    }
    if high <= low {
        return Err(PyRuntimeError::new_err(format!("random_ expects 'from' to be less than 'to', but got from={} >= to={}", low, high)));
    }
    let shape = usize_shape(&size.extract::<Vec<i64>>()?)?;
    let dt = opt_dtype(get("dtype")?.as_ref())?.unwrap_or(DType::Int64);
    let dev = check_device(get("device")?.as_ref())?;
    let g = super::random::gen_arg(get("generator")?.as_ref())?;
    finish(py, crate::ops::randint(low, high, &shape, dt, g.as_ref())?, dev, get("requires_grad")?.map(|v| v.is_truthy()).transpose()?.unwrap_or(false))
}

fn tensor_list(seq: &Bound<'_, PyAny>) -> PyResult<Vec<Tensor>> {
    seq.try_iter()?.map(|x| Ok(x?.cast::<PyTensor>().map_err(|_| PyTypeError::new_err("expected a sequence of Tensors"))?.get().t.clone())).collect()
}

#[pyfunction]
#[pyo3(signature = (tensors, dim=0, *, out=None))]
fn cat(py: Python<'_>, tensors: &Bound<'_, PyAny>, dim: i64, out: Option<&Bound<'_, PyTensor>>) -> PyResult<Py<PyAny>> {
    let ts = tensor_list(tensors)?;
    let work: usize = ts.iter().map(|t| t.numel()).sum();
    super::tensor_ops::run_out(py, "cat", work, out, || crate::ops::cat(&ts, dim))
}

#[pyfunction]
#[pyo3(signature = (tensors, dim=0, *, out=None))]
fn stack(py: Python<'_>, tensors: &Bound<'_, PyAny>, dim: i64, out: Option<&Bound<'_, PyTensor>>) -> PyResult<Py<PyAny>> {
    let ts = tensor_list(tensors)?;
    let work: usize = ts.iter().map(|t| t.numel()).sum();
    super::tensor_ops::run_out(py, "stack", work, out, || crate::ops::stack(&ts, dim))
}

#[pyfunction]
fn _set_default_device(device: Option<&Bound<'_, PyAny>>) -> PyResult<()> {
    let d = match device { Some(d) if !d.is_none() => check_device(Some(d))?, _ => crate::Device::Cpu };
    crate::device::set_default_device(d);
    Ok(())
}

#[pyfunction]
fn _default_device() -> String {
    crate::device::default_device().to_string()
}

#[pyfunction]
#[pyo3(name = "where")]
fn where_(py: Python<'_>, condition: PyRef<'_, PyTensor>, input: &Bound<'_, PyAny>, other: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
    let a = pt::need_tensor(input, "where")?;
    let b = pt::need_tensor(other, "where")?;
    wrap(py, crate::ops::where_(&condition.t, &a, &b)?)
}

#[pyfunction]
fn is_grad_enabled() -> bool {
    autograd::is_grad_enabled()
}

#[pyfunction]
fn _set_grad_enabled(on: bool) -> bool {
    autograd::set_grad_enabled(on)
}

#[pyfunction]
fn is_inference_mode_enabled() -> bool {
    autograd::is_inference_mode()
}

#[pyfunction]
fn _set_inference_mode(on: bool) -> bool {
    autograd::set_inference_mode(on)
}

#[pyfunction]
fn _default_float() -> &'static str {
    default_float().name()
}

#[pyfunction]
fn _set_default_float(name: &str) -> PyResult<()> {
    match DType::from_name(name) {
        Some(d @ (DType::Float32 | DType::Float64 | DType::Float16 | DType::BFloat16)) => {
            crate::dtype::set_default_float(d);
            Ok(())
        }
        _ => Err(PyTypeError::new_err("only floating-point types are supported as the default type")),
    }
}

/// The engine entry point behind `backward` and `autograd.grad`; runs with the GIL released.
#[pyfunction]
#[pyo3(signature = (outputs, grad_outputs, keep_graph, create_graph, inputs, accumulate))]
fn _run_backward(py: Python<'_>, outputs: &Bound<'_, PyAny>, grad_outputs: &Bound<'_, PyAny>, keep_graph: bool, create_graph: bool, inputs: Option<&Bound<'_, PyAny>>, accumulate: bool) -> PyResult<Py<PyList>> {
    let outs = tensor_list(outputs)?;
    let grads = tensor_list(grad_outputs)?;
    let ins = match inputs { Some(i) if !i.is_none() => Some(tensor_list(i)?), _ => None };
    let req = BackwardRequest { outputs: outs, grad_outputs: grads, keep_graph, create_graph, inputs: ins, accumulate };
    let res = py.detach(move || autograd::grad(req))?;
    let objs: Vec<Py<PyAny>> = res.into_iter().map(|g| pt::wrap_opt(py, g)).collect::<PyResult<_>>()?;
    Ok(PyList::new(py, objs)?.unbind())
}

/// Threads used by kernels and the backward engine.
#[pyfunction]
fn get_num_threads() -> usize {
    crate::runtime::num_threads()
}

/// Set the number of threads for kernels and the backward engine.
#[pyfunction]
fn set_num_threads(n: usize) -> PyResult<()> {
    if n == 0 {
        return Err(PyRuntimeError::new_err("set_num_threads expects a positive integer"));
    }
    crate::runtime::set_num_threads(n);
    Ok(())
}

/// Bytes held by saved tensors in the graph behind `t`: (live nodes, total bytes, [(name, bytes)]).
#[pyfunction]
fn _graph_report(t: PyRef<'_, PyTensor>) -> (usize, usize, Vec<(String, u64, usize)>) {
    let r = crate::autograd::graph_report(&t.t);
    (r.nodes, r.total_bytes, r.per_node)
}

/// `torch.device(str)`'s grammar, from the core: (type, index).
#[pyfunction]
fn _parse_device(s: &str) -> PyResult<(String, Option<usize>)> {
    let spec: crate::device::DeviceSpec = s.parse()?;
    Ok((if spec.cuda { "cuda" } else { "cpu" }.to_string(), spec.index))
}

/// `torch.cuda.is_available()` / `device_count()` from the core's backend.
#[pyfunction]
fn _cuda_device_count() -> usize {
    crate::cuda::device_count()
}

/// The error a CUDA entry point raises in this build (for `torch.cuda._lazy_init`).
#[pyfunction]
fn _cuda_check() -> PyResult<()> {
    crate::cuda::check_device(crate::Device::Cuda(crate::device::current_cuda_device()))?;
    Ok(())
}

#[pyfunction]
fn _cuda_current_device() -> PyResult<usize> {
    _cuda_check()?;
    Ok(crate::device::current_cuda_device())
}

#[pyfunction]
fn _cuda_set_device(i: usize) -> PyResult<()> {
    Ok(crate::device::set_current_cuda_device(i)?)
}

#[pyfunction]
fn _cuda_device_name(i: usize) -> PyResult<String> {
    Ok(crate::cuda::device_name(i)?)
}

#[pyfunction]
fn _cuda_synchronize(i: usize) -> PyResult<()> {
    let dev = crate::Device::Cuda(i);
    crate::cuda::check_device(dev)?;
    Ok(crate::cuda::synchronize(i)?)
}

/// Which GEMM CUDA matmul runs: "cublas (<library>)", "ptx", or "none" without CUDA.
#[pyfunction]
fn _cuda_matmul_backend() -> String {
    crate::cuda::matmul_backend()
}

/// (allocated, max_allocated, reserved, max_reserved) bytes of device `i`'s allocator.
#[pyfunction]
fn _cuda_memory_stats(i: usize) -> PyResult<(usize, usize, usize, usize)> {
    let s = crate::cuda::memory_stats(i)?;
    Ok((s.allocated, s.max_allocated, s.reserved, s.max_reserved))
}

#[pyfunction]
fn _cuda_empty_cache(i: usize) -> PyResult<()> {
    Ok(crate::cuda::empty_cache(i)?)
}

#[pyfunction]
fn _cuda_reset_peak_memory_stats(i: usize) -> PyResult<()> {
    Ok(crate::cuda::reset_peak_memory_stats(i)?)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(_parse_device, m)?)?;
    m.add_function(wrap_pyfunction!(_cuda_device_count, m)?)?;
    m.add_function(wrap_pyfunction!(_cuda_check, m)?)?;
    m.add_function(wrap_pyfunction!(_cuda_current_device, m)?)?;
    m.add_function(wrap_pyfunction!(_cuda_set_device, m)?)?;
    m.add_function(wrap_pyfunction!(_cuda_device_name, m)?)?;
    m.add_function(wrap_pyfunction!(_cuda_synchronize, m)?)?;
    m.add_function(wrap_pyfunction!(_cuda_memory_stats, m)?)?;
    m.add_function(wrap_pyfunction!(_cuda_empty_cache, m)?)?;
    m.add_function(wrap_pyfunction!(_cuda_matmul_backend, m)?)?;
    m.add_function(wrap_pyfunction!(_cuda_reset_peak_memory_stats, m)?)?;
    m.add_function(wrap_pyfunction!(tensor_, m)?)?;
    m.add_function(wrap_pyfunction!(from_numpy, m)?)?;
    m.add_function(wrap_pyfunction!(view_as_real, m)?)?;
    m.add_function(wrap_pyfunction!(vdot, m)?)?;
    m.add_function(wrap_pyfunction!(promote_types, m)?)?;
    m.add_function(wrap_pyfunction!(_autocast_get, m)?)?;
    m.add_function(wrap_pyfunction!(_nan_to_num, m)?)?;
    m.add_function(wrap_pyfunction!(_bincount, m)?)?;
    m.add_function(wrap_pyfunction!(_autocast_set, m)?)?;
    m.add_function(wrap_pyfunction!(_autocast_cast, m)?)?;
    m.add_function(wrap_pyfunction!(result_type, m)?)?;
    m.add_function(wrap_pyfunction!(view_as_complex, m)?)?;
    m.add_function(wrap_pyfunction!(complex, m)?)?;
    m.add_function(wrap_pyfunction!(polar, m)?)?;
    m.add_function(wrap_pyfunction!(as_tensor, m)?)?;
    m.add_function(wrap_pyfunction!(zeros, m)?)?;
    m.add_function(wrap_pyfunction!(ones, m)?)?;
    m.add_function(wrap_pyfunction!(empty, m)?)?;
    m.add_function(wrap_pyfunction!(rand, m)?)?;
    m.add_function(wrap_pyfunction!(randn, m)?)?;
    m.add_function(wrap_pyfunction!(full, m)?)?;
    m.add_function(wrap_pyfunction!(arange, m)?)?;
    m.add_function(wrap_pyfunction!(linspace, m)?)?;
    m.add_function(wrap_pyfunction!(eye, m)?)?;
    m.add_function(wrap_pyfunction!(randint, m)?)?;
    m.add_function(wrap_pyfunction!(cat, m)?)?;
    m.add_function(wrap_pyfunction!(_set_default_device, m)?)?;
    m.add_function(wrap_pyfunction!(_default_device, m)?)?;
    m.add_function(wrap_pyfunction!(stack, m)?)?;
    m.add_function(wrap_pyfunction!(where_, m)?)?;
    m.add_function(wrap_pyfunction!(is_grad_enabled, m)?)?;
    m.add_function(wrap_pyfunction!(_set_grad_enabled, m)?)?;
    m.add_function(wrap_pyfunction!(is_inference_mode_enabled, m)?)?;
    m.add_function(wrap_pyfunction!(_set_inference_mode, m)?)?;
    m.add_function(wrap_pyfunction!(_default_float, m)?)?;
    m.add_function(wrap_pyfunction!(_set_default_float, m)?)?;
    m.add_function(wrap_pyfunction!(_run_backward, m)?)?;
    m.add_function(wrap_pyfunction!(get_num_threads, m)?)?;
    m.add_function(wrap_pyfunction!(set_num_threads, m)?)?;
    m.add_function(wrap_pyfunction!(_graph_report, m)?)?;
    m.add_function(wrap_pyfunction!(pt::_dtypes, m)?)?;
    m.add_function(wrap_pyfunction!(super::function::_function_apply, m)?)?;
    m.add_function(wrap_pyfunction!(super::function::_saved_tensors, m)?)?;
    m.add_function(wrap_pyfunction!(super::hooks::_push_saved_hooks, m)?)?;
    m.add_function(wrap_pyfunction!(super::hooks::_pop_saved_hooks, m)?)?;
    m.add_function(wrap_pyfunction!(super::hooks::_push_write_observer, m)?)?;
    m.add_function(wrap_pyfunction!(super::hooks::_pop_write_observer, m)?)?;
    m.add_function(wrap_pyfunction!(super::hooks::_push_record_observer, m)?)?;
    m.add_function(wrap_pyfunction!(super::tensor_ops::_xlogy, m)?)?;
    m.add_function(wrap_pyfunction!(super::tensor_ops::_var_mean, m)?)?;
    m.add_function(wrap_pyfunction!(super::tensor_ops::select_scatter, m)?)?;
    m.add_function(wrap_pyfunction!(super::tensor_ops::slice_scatter, m)?)?;
    m.add_function(wrap_pyfunction!(super::tensor_ops::diagonal_scatter, m)?)?;
    m.add_function(wrap_pyfunction!(super::tensor_ops::_rot90, m)?)?;
    m.add_function(wrap_pyfunction!(super::tensor_ops::_inplace_apply, m)?)?;
    m.add_function(wrap_pyfunction!(super::tensor_ops::_linalg_cross, m)?)?;
    m.add_function(wrap_pyfunction!(super::hooks::_pop_record_observer, m)?)?;
    m.add_function(wrap_pyfunction!(super::hooks::_set_anomaly, m)?)?;
    m.add_function(wrap_pyfunction!(_current_graph_task_id, m)?)?;
    m.add_function(wrap_pyfunction!(_will_engine_execute_node, m)?)?;
    m.add_function(wrap_pyfunction!(_is_checkpoint_valid, m)?)?;
    m.add_function(wrap_pyfunction!(_queue_callback, m)?)?;
    m.add_function(wrap_pyfunction!(_increment_version, m)?)?;
    m.add_function(wrap_pyfunction!(_enter_dual_level, m)?)?;
    m.add_function(wrap_pyfunction!(_exit_dual_level, m)?)?;
    m.add_function(wrap_pyfunction!(_make_dual, m)?)?;
    m.add_function(wrap_pyfunction!(_unpack_dual, m)?)?;
    m.add_function(wrap_pyfunction!(_fw_level_exists, m)?)?;
    m.add_function(wrap_pyfunction!(_fw_tangent, m)?)?;
    m.add_function(wrap_pyfunction!(_fw_set_tangent, m)?)?;
    m.add_function(wrap_pyfunction!(_fw_suspend, m)?)?;
    m.add_function(wrap_pyfunction!(_set_multithreading_enabled, m)?)?;
    m.add_function(wrap_pyfunction!(_is_multithreading_enabled, m)?)?;
    m.add_function(wrap_pyfunction!(_bitcast_copy, m)?)?;
    m.add_function(wrap_pyfunction!(_profiler_start, m)?)?;
    m.add_function(wrap_pyfunction!(_profiler_stop, m)?)?;
    m.add_function(wrap_pyfunction!(_profiler_enabled, m)?)?;
    m.add_function(wrap_pyfunction!(_profiler_range_begin, m)?)?;
    m.add_function(wrap_pyfunction!(_profiler_range_end, m)?)?;
    Ok(())
}

/// Test support: `y = x` with a backward that panics (to show a panic in a worker becomes a
/// RuntimeError and leaves the engine usable).
#[pyfunction]
fn _panicking_identity(py: Python<'_>, x: PyRef<'_, PyTensor>) -> PyResult<Py<PyAny>> {
    let out = crate::ops::clone(&x.t.detach())?;
    crate::autograd::record("PanicBackward", &[&x.t], &[&out], &[], |_, _, _| panic!("injected panic"))?;
    wrap(py, out)
}

/// Test support: an op whose forward panics, to check that no panic crosses the binding
/// boundary (it must arrive as a RuntimeError naming an internal error).
#[pyfunction]
fn _panicking_op(py: Python<'_>, x: PyRef<'_, PyTensor>) -> PyResult<Py<PyAny>> {
    let t = x.t.clone();
    super::tensor_ops::run(py, t.numel(), move || -> crate::Result<Tensor> { panic!("injected panic in an op of {} elements", t.numel()) })
}

pub fn register_test_support(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(_panicking_identity, m)?)?;
    m.add_function(wrap_pyfunction!(_panicking_op, m)?)
}

fn py_stack() -> Option<String> {
    Python::attach(|py| -> PyResult<String> {
        let lines = py.import("traceback")?.call_method0("format_stack")?;
        let parts: Vec<String> = lines.extract()?;
        // drop the frames of ferrograd's own Python package (by its directory, so a user's
        // folder that happens to be called `ferrograd` keeps its frames)
        let _ = parts;
        let pkg: String = py.import("ferrograd")?.getattr("__file__")?.extract()?;
        let dir = std::path::Path::new(&pkg).parent().map(|p| format!("{}{}", p.display(), std::path::MAIN_SEPARATOR)).unwrap_or_default();
        let tb = py.import("traceback")?;
        let frames = tb.call_method0("extract_stack")?;
        let keep = pyo3::types::PyList::empty(py);
        for f in frames.try_iter()? {
            let f = f?;
            let name: String = f.getattr("filename")?.extract()?;
            if dir.is_empty() || !name.starts_with(&dir) {
                keep.append(f)?;
            }
        }
        let lines: Vec<String> = tb.call_method1("format_list", (keep,))?.extract()?;
        Ok(lines.concat())
    })
    .ok()
}

fn py_warn(msg: &str) {
    Python::attach(|py| {
        let cmsg = std::ffi::CString::new(msg.replace('\0', " ")).unwrap_or_default();
        let _ = PyErr::warn(py, &py.get_type::<pyo3::exceptions::PyUserWarning>(), &cmsg, 1);
    });
}

/// Let anomaly mode capture Python stacks and emit Python warnings.
pub fn install_anomaly_hooks() {
    crate::autograd::set_anomaly_hooks(crate::autograd::AnomalyHooks { trace: py_stack, warn: py_warn });
}

/// The id of the backward pass running on this thread, -1 outside backward.
#[pyfunction]
fn _current_graph_task_id() -> i64 {
    autograd::current_graph_task_id().map_or(-1, |i| i as i64)
}

/// Whether `node` runs in the current backward pass (only valid inside backward).
#[pyfunction]
fn _will_engine_execute_node(node: &Bound<'_, PyAny>) -> PyResult<bool> {
    let n = node.cast::<super::node::PyNode>().map_err(|_| {
        PyTypeError::new_err(format!("_will_engine_execute_node expects an grad_fn, got {}", node.get_type().name().map(|n| n.to_string()).unwrap_or_default()))
    })?;
    let n = n.get().node()?;
    Ok(autograd::will_execute(&n)?)
}

/// Whether a reentrant checkpoint may recompute now: False inside `autograd.grad` or
/// `backward(inputs=...)`.
#[pyfunction]
fn _is_checkpoint_valid() -> bool {
    autograd::checkpoint_valid()
}

/// Run `cb()` when the current backward pass has run all its nodes.
#[pyfunction]
fn _queue_callback(cb: Py<PyAny>) -> PyResult<()> {
    autograd::queue_callback(Box::new(move || {
        Python::attach(|py| cb.call0(py).map(|_| ()).map_err(crate::Error::Python))
    }))?;
    Ok(())
}

/// Mark `t` as modified in place, as an in-place op would.
#[pyfunction]
fn _increment_version(t: PyRef<'_, PyTensor>) {
    t.t.bump_version();
}

/// `enter_dual_level()`: opens the forward-AD level (only one may be live).
#[pyfunction]
fn _enter_dual_level() -> PyResult<i64> {
    Ok(crate::autograd::forward::enter_level()?)
}

/// `exit_dual_level(level)`: closes the level, deleting every tangent.
#[pyfunction]
fn _exit_dual_level(level: i64) -> PyResult<()> {
    Ok(crate::autograd::forward::exit_level(level)?)
}

/// `make_dual(primal, tangent)`: a view of `primal` carrying `tangent`.
#[pyfunction]
fn _make_dual(py: Python<'_>, primal: PyRef<'_, PyTensor>, tangent: PyRef<'_, PyTensor>) -> PyResult<Py<PyAny>> {
    let d = crate::autograd::forward::make_dual(&primal.t, &tangent.t)?;
    super::tensor::wrap(py, d)
}

/// `unpack_dual(t)`: `(primal view, tangent or None)`.
#[pyfunction]
fn _unpack_dual(py: Python<'_>, t: PyRef<'_, PyTensor>) -> PyResult<(Py<PyAny>, Option<Py<PyAny>>)> {
    let (p, tan) = crate::autograd::forward::unpack_dual(&t.t)?;
    Ok((super::tensor::wrap(py, p)?, tan.map(|x| super::tensor::wrap(py, x)).transpose()?))
}

/// Whether a forward-AD level is live.
#[pyfunction]
fn _fw_level_exists() -> bool {
    crate::autograd::forward::level_exists()
}

/// The tangent of `t` at the live level (None when it has none).
#[pyfunction]
fn _fw_tangent(py: Python<'_>, t: PyRef<'_, PyTensor>) -> PyResult<Option<Py<PyAny>>> {
    let tan = if crate::autograd::forward::level_exists() { t.t.meta().fw_grad.clone() } else { None };
    tan.map(|x| super::tensor::wrap(py, x)).transpose()
}

/// Set the tangent of `t` in place (a custom Function's outputs), with make_dual's checks.
#[pyfunction]
fn _fw_set_tangent(t: PyRef<'_, PyTensor>, tangent: PyRef<'_, PyTensor>) -> PyResult<()> {
    Ok(crate::autograd::forward::set_tangent(&t.t, &tangent.t)?)
}

/// Suspend (True) or restore tangent propagation on this thread; returns the previous state
/// (a custom Function's forward runs suspended: its tangents come from its `jvp`).
#[pyfunction]
fn _fw_suspend(on: bool) -> bool {
    let prev = crate::autograd::forward::is_suspended();
    std::mem::forget(crate::autograd::forward::SuspendGuard::new(on));
    prev
}

/// Let backward passes started on this thread run branches on the worker pool (or not).
#[pyfunction]
fn _set_multithreading_enabled(on: bool) {
    crate::autograd::set_multithreading_enabled(on);
}

/// Whether backward passes started on this thread may run branches in parallel.
#[pyfunction]
fn _is_multithreading_enabled() -> bool {
    crate::autograd::multithreading_enabled()
}

/// Start the profiler (a new session).
#[pyfunction]
fn _profiler_start(record_shapes: bool) {
    crate::profiler::start(record_shapes);
}

/// Stop the profiler: `(name, kind, thread, start_ns, end_ns, shapes)` per event.
#[pyfunction]
#[allow(clippy::type_complexity)]
fn _profiler_stop(py: Python<'_>) -> Vec<(String, &'static str, u64, u64, u64, Vec<Vec<usize>>)> {
    let events = py.detach(crate::profiler::stop);
    events.into_iter().map(|e| {
        let kind = match e.kind {
            crate::profiler::EventKind::Op => "op",
            crate::profiler::EventKind::Backward => "backward",
            crate::profiler::EventKind::User => "user",
        };
        (e.name.into_owned(), kind, e.thread, e.start_ns, e.end_ns, e.shapes)
    }).collect()
}

/// Whether the profiler is recording.
#[pyfunction]
fn _profiler_enabled() -> bool {
    crate::profiler::enabled()
}

/// Open a user range; 0 when the profiler is off.
#[pyfunction]
fn _profiler_range_begin(name: String) -> u64 {
    crate::profiler::range_begin(name)
}

/// Close a user range.
#[pyfunction]
fn _profiler_range_end(id: u64) {
    crate::profiler::range_end(id)
}

/// A copy of the 2-byte tensor `t` with its bits read as `dtype` (int16 <-> bfloat16 / float16).
#[pyfunction]
fn _bitcast_copy(py: Python<'_>, t: PyRef<'_, PyTensor>, dtype: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
    let to = pt::dtype_arg(dtype)?;
    let src = crate::ops::contiguous(&t.t.detach())?;
    let bits: Vec<u16> = match src.dtype() {
        DType::Int16 => src.to_i64_vec()?.into_iter().map(|v| v as i16 as u16).collect(),
        DType::BFloat16 => crate::backend::with_host(&src, |s, l| {
            let v = <half::bf16 as crate::storage::StorageElem>::get(s);
            v[l.offset..l.offset + l.numel()].iter().map(|x| x.to_bits()).collect()
        })?,
        DType::Float16 => crate::backend::with_host(&src, |s, l| {
            let v = <half::f16 as crate::storage::StorageElem>::get(s);
            v[l.offset..l.offset + l.numel()].iter().map(|x| x.to_bits()).collect()
        })?,
        d => return Err(PyTypeError::new_err(format!("_bitcast_copy: a 2-byte dtype is expected, got {}", d.name()))),
    };
    let shape = src.shape();
    use crate::storage::StorageElem;
    let storage = match to {
        DType::Int16 => i16::wrap(bits.into_iter().map(|b| b as i16).collect()),
        DType::BFloat16 => half::bf16::wrap(bits.into_iter().map(half::bf16::from_bits).collect()),
        DType::Float16 => half::f16::wrap(bits.into_iter().map(half::f16::from_bits).collect()),
        d => return Err(PyTypeError::new_err(format!("_bitcast_copy: a 2-byte dtype is expected, got {}", d.name()))),
    };
    let out = Tensor::from_parts(crate::storage::StorageCell::cpu(storage), crate::shape::Layout::contiguous(&shape), to);
    wrap(py, out)
}
