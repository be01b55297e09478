//! `torch.Generator` and the random entry points that take `generator=`: translation only; the
//! streams and sampling live in `crate::random` and `crate::ops::random`.

use super::tensor::{wrap, PyTensor};
use crate::random::{default_generator, Generator};
use crate::tensor::Tensor;
use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;

/// `torch.Generator(device='cpu')`.
#[pyclass(name = "Generator", module = "ferrograd", frozen)]
pub struct PyGenerator {
    pub g: Generator,
    device: crate::Device,
}

/// torch's seed unpacking: an unsigned 64-bit value, or a negative one taken as its two's
/// complement bits.
fn unpack_seed(seed: &Bound<'_, PyAny>) -> PyResult<u64> {
    let seed = seed.call_method0("__index__").map_err(|_| PyTypeError::new_err(format!("manual_seed expected a long, but got {}", seed.get_type().name().map(|n| n.to_string()).unwrap_or_default())))?;
    if let Ok(v) = seed.extract::<u64>() {
        return Ok(v);
    }
    match seed.extract::<i64>() {
        Ok(v) => Ok(v as u64),
        Err(_) => Err(PyRuntimeError::new_err("Overflow when unpacking long long")),
    }
}

fn nondeterministic_seed() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u128(std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_nanos()).unwrap_or(0));
    // torch keeps seeds within 2**53 so they survive a round trip through a Python float? no:
    // it uses 63 bits; keep 63 as `torch.seed()` does
    h.finish() & (u64::MAX >> 1)
}

#[pymethods]
impl PyGenerator {
    #[new]
    #[pyo3(signature = (device=None))]
    fn new(device: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        // a Generator is a CPU one unless a device is named (the default device does not apply)
        let d = match device { Some(d) if !d.is_none() => super::convert::device_arg(Some(d))?, _ => crate::Device::Cpu };
        crate::cuda::check_device(d)?;
        Ok(PyGenerator { g: Generator::new(crate::random::DEFAULT_SEED), device: d })
    }
    /// Sets the seed for generating random numbers; returns the generator.
    fn manual_seed<'py>(slf: &Bound<'py, Self>, seed: &Bound<'py, PyAny>) -> PyResult<Bound<'py, Self>> {
        let s = unpack_seed(seed)?;
        slf.get().g.with(|g| g.manual_seed(s));
        Ok(slf.clone())
    }
    /// Gets a non-deterministic random number from the OS and seeds the generator with it.
    fn seed(&self) -> u64 {
        let s = nondeterministic_seed();
        self.g.with(|g| g.manual_seed(s));
        s
    }
    /// Returns the initial seed for generating random numbers.
    fn initial_seed(&self) -> u64 {
        self.g.with(|g| g.initial_seed())
    }
    /// Returns the generator state as a ``torch.ByteTensor`` (PyTorch's layout).
    fn get_state(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let bytes = self.g.with(|g| g.get_state());
        let v: Vec<i64> = bytes.iter().map(|&b| b as i64).collect();
        wrap(py, crate::tensor::from_i64s(&v, &[v.len()], crate::DType::UInt8)?)
    }
    /// Sets the generator state from a tensor returned by ``get_state``.
    fn set_state<'py>(slf: &Bound<'py, Self>, new_state: &Bound<'py, PyAny>) -> PyResult<Bound<'py, Self>> {
        let t = new_state.cast::<PyTensor>().map_err(|_| PyTypeError::new_err(format!("expected a torch.ByteTensor, but got {}", new_state.get_type().name().map(|n| n.to_string()).unwrap_or_default())))?;
        let t = &t.get().t;
        if t.dtype() != crate::DType::UInt8 {
            return Err(PyTypeError::new_err(format!("expected a torch.ByteTensor, but got {}", t.dtype().legacy_name())));
        }
        let bytes: Vec<u8> = t.to_i64_vec()?.into_iter().map(|b| b as u8).collect();
        slf.get().g.with(|g| g.set_state(&bytes))?;
        Ok(slf.clone())
    }
    /// The device of the generator (``cpu``).
    #[getter]
    fn device(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let m = py.import("ferrograd")?;
        Ok(m.getattr("device")?.call1((self.device.to_string(),))?.unbind())
    }
    fn __repr__(&self) -> String {
        format!("<ferrograd._C.Generator object at {:p}>", self as *const Self)
    }
}

/// A `generator=` argument: None, or a Generator.
pub fn gen_arg(obj: Option<&Bound<'_, PyAny>>) -> PyResult<Option<Generator>> {
    match obj {
        None => Ok(None),
        Some(o) if o.is_none() => Ok(None),
        Some(o) => match o.cast::<PyGenerator>() {
            Ok(g) => Ok(Some(g.get().g.clone())),
            Err(_) => Err(PyTypeError::new_err(format!("expected a torch.Generator, but got {}", o.get_type().name().map(|n| n.to_string()).unwrap_or_default()))),
        },
    }
}

static DEFAULT_OBJ: pyo3::sync::PyOnceLock<Py<PyGenerator>> = pyo3::sync::PyOnceLock::new();

/// `torch.default_generator`: one Python object over the core's default generator.
#[pyfunction]
pub fn _default_generator(py: Python<'_>) -> PyResult<Py<PyGenerator>> {
    Ok(DEFAULT_OBJ.get_or_try_init(py, || Py::new(py, PyGenerator { g: default_generator().clone(), device: crate::Device::Cpu }))?.clone_ref(py))
}

#[pyfunction]
fn manual_seed(py: Python<'_>, seed: &Bound<'_, PyAny>) -> PyResult<Py<PyGenerator>> {
    let s = unpack_seed(seed)?;
    default_generator().with(|g| g.manual_seed(s));
    _default_generator(py)
}

#[pyfunction]
fn seed() -> u64 {
    let s = nondeterministic_seed();
    default_generator().with(|g| g.manual_seed(s));
    s
}

#[pyfunction]
fn initial_seed() -> u64 {
    default_generator().with(|g| g.initial_seed())
}

fn tensor_of<'a>(o: &'a Bound<'_, PyAny>, what: &str) -> PyResult<&'a Bound<'a, PyTensor>> {
    o.cast::<PyTensor>().map_err(|_| PyTypeError::new_err(format!("{what}(): argument 'input' (position 1) must be Tensor, not {}", o.get_type().name().map(|n| n.to_string()).unwrap_or_default())))
}

#[pyfunction]
#[pyo3(signature = (input, p=None, *, generator=None, out=None))]
fn bernoulli(py: Python<'_>, input: &Bound<'_, PyAny>, p: Option<f64>, generator: Option<&Bound<'_, PyAny>>, out: Option<&Bound<'_, PyAny>>) -> PyResult<Py<PyAny>> {
    let x = &tensor_of(input, "bernoulli")?.get().t;
    let g = gen_arg(generator)?;
    let r = match p {
        Some(p) => {
            let o = crate::tensor::zeros_on(&x.shape(), x.dtype(), x.device())?;
            crate::ops::bernoulli_scalar_(&o, p, g.as_ref())?;
            o
        }
        None => crate::ops::bernoulli(x, g.as_ref())?,
    };
    write_out(py, r, out)
}

/// ATen's CPU samplers, element by element on the generator (`kind`: "gamma" — the standard
/// gamma of float64 `x`, `single` for a float32 kernel's rounding —, "poisson", or
/// "binomial" with counts `x` and probabilities `y`): float64 samples of `x`'s shape. `x`
/// (and `y`) are float64 CPU tensors.
#[pyfunction]
#[pyo3(signature = (kind, x, single=false, generator=None, y=None))]
fn _sample_exact(py: Python<'_>, kind: &str, x: PyRef<'_, PyTensor>, single: bool, generator: Option<&Bound<'_, PyAny>>, y: Option<PyRef<'_, PyTensor>>) -> PyResult<Py<PyAny>> {
    let x = x.t.clone();
    let g = gen_arg(generator)?;
    let vals = x.to_f64_vec()?;
    let gen = crate::random::or_default(g.as_ref());
    let out = match kind {
        "gamma" => gen.with(|g| crate::random::standard_gamma(g, &vals, single)),
        "poisson" => gen.with(|g| crate::random::poisson(g, &vals)),
        "binomial" => {
            let p = y.ok_or_else(|| PyValueError::new_err("binomial needs the probabilities"))?.t.to_f64_vec()?;
            if p.len() != vals.len() {
                return Err(PyValueError::new_err("binomial: count and prob must have the same number of elements"));
            }
            gen.with(|g| crate::random::binomial(g, &vals, &p, single))
        }
        k => return Err(PyValueError::new_err(format!("unknown sampler {k}"))),
    };
    wrap(py, Tensor::from_vec(out, &x.shape())?)
}

fn write_out(py: Python<'_>, r: Tensor, out: Option<&Bound<'_, PyAny>>) -> PyResult<Py<PyAny>> {
    match out {
        Some(o) if !o.is_none() => {
            let o = o.cast::<PyTensor>().map_err(|_| PyTypeError::new_err("out= must be a Tensor"))?;
            super::tensor_ops::into_out(py, "random", r, o)
        }
        _ => wrap(py, r),
    }
}

#[pyfunction]
#[pyo3(signature = (input, num_samples, replacement=false, *, generator=None, out=None))]
fn multinomial(py: Python<'_>, input: &Bound<'_, PyAny>, num_samples: i64, replacement: bool, generator: Option<&Bound<'_, PyAny>>, out: Option<&Bound<'_, PyAny>>) -> PyResult<Py<PyAny>> {
    let x = &tensor_of(input, "multinomial")?.get().t;
    let r = crate::ops::multinomial(x, num_samples, replacement, gen_arg(generator)?.as_ref())?;
    write_out(py, r, out)
}

#[pyfunction]
#[pyo3(signature = (mean, std, *, generator=None))]
fn _normal_tensors(py: Python<'_>, mean: PyRef<'_, PyTensor>, std: PyRef<'_, PyTensor>, generator: Option<&Bound<'_, PyAny>>) -> PyResult<Py<PyAny>> {
    wrap(py, crate::ops::normal_tensors(&mean.t, &std.t, gen_arg(generator)?.as_ref())?)
}

#[pyfunction]
#[pyo3(signature = (n, *, generator=None, dtype=None, device=None, requires_grad=false, layout=None, pin_memory=false, out=None))]
#[allow(clippy::too_many_arguments)]
fn randperm(py: Python<'_>, n: i64, generator: Option<&Bound<'_, PyAny>>, dtype: Option<&Bound<'_, PyAny>>, device: Option<&Bound<'_, PyAny>>, requires_grad: bool, layout: Option<&Bound<'_, PyAny>>, pin_memory: bool, out: Option<&Bound<'_, PyAny>>) -> PyResult<Py<PyAny>> {
    let _ = (layout, pin_memory);
    if n < 0 {
        return Err(PyRuntimeError::new_err(format!("n must be non-negative, got{n}")));
    }
    let dt = super::convert::opt_dtype(dtype)?.unwrap_or(crate::DType::Int64);
    let d = super::convert::device_arg(device)?;
    crate::cuda::check_device(d)?;
    let t = crate::ops::randperm(n as usize, dt, gen_arg(generator)?.as_ref())?;
    let t = if d == crate::Device::Cpu { t } else { crate::backend::to_device(&t, d)? };
    if requires_grad {
        if !dt.is_float() {
            return Err(PyRuntimeError::new_err("Only Tensors of floating point and complex dtype can require gradients"));
        }
        t.set_requires_grad(true)?;
    }
    write_out(py, t, out)
}

#[pyfunction]
fn get_rng_state(py: Python<'_>) -> PyResult<Py<PyAny>> {
    _default_generator(py)?.bind(py).borrow().get_state(py)
}

#[pyfunction]
fn set_rng_state(py: Python<'_>, new_state: &Bound<'_, PyAny>) -> PyResult<()> {
    PyGenerator::set_state(_default_generator(py)?.bind(py), new_state).map(|_| ())
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyGenerator>()?;
    m.add_function(wrap_pyfunction!(_default_generator, m)?)?;
    m.add_function(wrap_pyfunction!(manual_seed, m)?)?;
    m.add_function(wrap_pyfunction!(seed, m)?)?;
    m.add_function(wrap_pyfunction!(initial_seed, m)?)?;
    m.add_function(wrap_pyfunction!(bernoulli, m)?)?;
    m.add_function(wrap_pyfunction!(_sample_exact, m)?)?;
    m.add_function(wrap_pyfunction!(multinomial, m)?)?;
    m.add_function(wrap_pyfunction!(_normal_tensors, m)?)?;
    m.add_function(wrap_pyfunction!(randperm, m)?)?;
    m.add_function(wrap_pyfunction!(get_rng_state, m)?)?;
    m.add_function(wrap_pyfunction!(set_rng_state, m)?)?;
    let _ = PyValueError::new_err("");
    Ok(())
}
