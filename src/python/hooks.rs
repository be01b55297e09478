//! Python callables as core hooks (each call attaches to the interpreter), and the handle
//! that removes a hook.

use super::tensor::{wrap, PyTensor};
use crate::autograd::{PostAccHook, PostHook, PreHook, TensorHook};
use crate::error::Result;
use crate::tensor::Tensor;
use pyo3::prelude::*;
use pyo3::types::PyTuple;

fn py_err(e: PyErr) -> crate::Error {
    super::errors::from_py(e)
}

/// Run `f` attached to the interpreter; a Python exception becomes `Error::Python`.
pub fn attached<R>(f: impl FnOnce(Python<'_>) -> PyResult<R>) -> Result<R> {
    Python::attach(|py| f(py).map_err(py_err))
}

fn opt_tensor(o: &Bound<'_, PyAny>) -> PyResult<Option<Tensor>> {
    if o.is_none() {
        return Ok(None);
    }
    Ok(Some(o.cast::<PyTensor>()?.get().t.clone()))
}

fn tensors_tuple<'py>(py: Python<'py>, ts: &[Option<Tensor>]) -> PyResult<Bound<'py, PyTuple>> {
    let objs: Vec<Py<PyAny>> = ts.iter().map(|t| super::tensor::wrap_opt(py, t.clone())).collect::<PyResult<_>>()?;
    PyTuple::new(py, objs)
}

fn tensors_from(o: &Bound<'_, PyAny>) -> PyResult<Vec<Option<Tensor>>> {
    o.try_iter()?.map(|x| opt_tensor(&x?)).collect()
}

/// `tensor.register_hook(fn)`.
pub struct PyTensorHook(pub Py<PyAny>);

impl TensorHook for PyTensorHook {
    fn call(&self, grad: &Tensor) -> Result<Option<Tensor>> {
        attached(|py| {
            let r = self.0.call1(py, (wrap(py, grad.clone())?,))?;
            let r = r.bind(py);
            if !r.is_none() && r.cast::<PyTensor>().is_err() {
                return Err(pyo3::exceptions::PyTypeError::new_err(format!("expected Variable, but hook returned '{}'", r.get_type().name()?)));
            }
            opt_tensor(r)
        })
    }
    fn name(&self) -> String {
        Python::attach(|py| self.0.bind(py).getattr("__name__").and_then(|n| n.extract::<String>()).unwrap_or_else(|_| "hook".into()))
    }
}

/// The replacement gradients a node hook returned, checked for count like torch.
fn hook_result(hook: &Bound<'_, PyAny>, r: &Bound<'_, PyAny>, expected: usize) -> PyResult<Option<Vec<Option<Tensor>>>> {
    if r.is_none() {
        return Ok(None);
    }
    let v = tensors_from(r)?;
    if v.len() != expected {
        let name = hook.getattr("__name__").and_then(|n| n.extract::<String>()).unwrap_or_else(|_| "hook".into());
        return Err(pyo3::exceptions::PyRuntimeError::new_err(format!(
            "hook '{}' has returned an incorrect number of values (got {}, but expected {})", name, v.len(), expected)));
    }
    Ok(Some(v))
}

/// `tensor.register_post_accumulate_grad_hook(fn)`.
pub struct PyPostAccHook(pub Py<PyAny>);

impl PostAccHook for PyPostAccHook {
    fn call(&self, t: &Tensor) -> Result<()> {
        attached(|py| {
            self.0.call1(py, (wrap(py, t.clone())?,))?;
            Ok(())
        })
    }
}

/// `node.register_prehook(fn)`: fn(grad_outputs) -> new grad_outputs or None.
pub struct PyPreHook(pub Py<PyAny>);

impl PreHook for PyPreHook {
    fn call(&self, grads: &[Option<Tensor>]) -> Result<Option<Vec<Option<Tensor>>>> {
        attached(|py| {
            let r = self.0.call1(py, (tensors_tuple(py, grads)?,))?;
            hook_result(self.0.bind(py), r.bind(py), grads.len())
        })
    }
}

/// `node.register_hook(fn)`: fn(grad_inputs, grad_outputs) -> new grad_inputs or None.
pub struct PyPostHook(pub Py<PyAny>);

impl PostHook for PyPostHook {
    fn call(&self, grad_inputs: &[Option<Tensor>], grad_outputs: &[Option<Tensor>]) -> Result<Option<Vec<Option<Tensor>>>> {
        attached(|py| {
            let r = self.0.call1(py, (tensors_tuple(py, grad_inputs)?, tensors_tuple(py, grad_outputs)?))?;
            hook_result(self.0.bind(py), r.bind(py), grad_inputs.len())
        })
    }
}

/// The handle returned by `register_hook`; `remove()` unregisters (the core's `HookHandle`).
#[pyclass(module = "ferrograd.utils.hooks", frozen)]
pub struct RemovableHandle(crate::autograd::HookHandle);

impl From<crate::autograd::HookHandle> for RemovableHandle {
    fn from(h: crate::autograd::HookHandle) -> Self {
        RemovableHandle(h)
    }
}

#[pymethods]
impl RemovableHandle {
    /// Unregister the hook (idempotent).
    fn remove(&self) {
        self.0.remove();
    }
    fn __enter__(slf: Py<Self>) -> Py<Self> {
        slf
    }
    fn __exit__(&self, _a: Py<PyAny>, _b: Py<PyAny>, _c: Py<PyAny>) {
        self.remove();
    }
}

/// `autograd.graph.saved_tensors_hooks(pack, unpack)`.
pub struct PySavedHooks {
    pub(super) pack: Py<PyAny>,
    pub(super) unpack: Py<PyAny>,
}

impl crate::autograd::SavedTensorHooks for PySavedHooks {
    fn pack(&self, t: &Tensor) -> Result<Box<dyn std::any::Any + Send + Sync>> {
        attached(|py| {
            let r = self.pack.call1(py, (wrap(py, t.clone())?,))?;
            Ok(Box::new(r) as Box<dyn std::any::Any + Send + Sync>)
        })
    }
    fn unpack(&self, packed: &(dyn std::any::Any + Send + Sync)) -> Result<Tensor> {
        let obj = packed.downcast_ref::<Py<PyAny>>().expect("invariant: packed by PySavedHooks");
        attached(|py| {
            let r = self.unpack.call1(py, (obj.clone_ref(py),))?;
            let t = r.bind(py).cast::<PyTensor>().map_err(|_| pyo3::exceptions::PyTypeError::new_err("Output of saved tensor unpack_hook expected to be a Tensor"))?;
            Ok(t.get().t.clone())
        })
    }
}

#[pyfunction]
pub fn _push_saved_hooks(pack: Py<PyAny>, unpack: Py<PyAny>) {
    crate::autograd::push_saved_hooks(std::sync::Arc::new(PySavedHooks { pack, unpack }));
}

#[pyfunction]
pub fn _pop_saved_hooks() {
    crate::autograd::pop_saved_hooks();
}

/// `allow_mutation_on_saved_tensors`: `observer(t)` runs before each write into `t`'s storage
/// on this thread (until `_pop_write_observer`).
#[pyfunction]
pub fn _push_write_observer(observer: Py<PyAny>) {
    crate::autograd::push_write_observer(std::sync::Arc::new(move |t: &Tensor| {
        attached(|py| observer.call1(py, (wrap(py, t.clone())?,)).map(|_| ()))
    }));
}

/// Selective checkpointing: `observer(name, in_place, outputs)` runs for each op recorded on this thread
/// (until `_pop_record_observer`); a list of tensors it returns replaces the outputs' values.
#[pyfunction]
pub fn _push_record_observer(observer: Py<PyAny>) {
    crate::autograd::push_record_observer(std::sync::Arc::new(move |name: &str, in_place: bool, outputs: &[&Tensor]| {
        attached(|py| {
            let outs = outputs.iter().map(|t| wrap(py, (*t).clone())).collect::<PyResult<Vec<_>>>()?;
            let r = observer.call1(py, (name, in_place, outs))?;
            let r = r.bind(py);
            if r.is_none() {
                return Ok(None);
            }
            let mut values = Vec::new();
            for v in r.try_iter()? {
                let v = v?;
                let t = v.cast::<PyTensor>().map_err(|_| pyo3::exceptions::PyTypeError::new_err("record observer: expected a list of tensors"))?;
                values.push(t.get().t.clone());
            }
            Ok(Some(values))
        })
    }));
}

#[pyfunction]
pub fn _pop_record_observer() {
    crate::autograd::pop_record_observer();
}

#[pyfunction]
pub fn _pop_write_observer() {
    crate::autograd::pop_write_observer();
}

#[pyfunction]
pub fn _set_anomaly(enabled: bool, check_nan: bool) {
    crate::autograd::set_anomaly(enabled, check_nan);
}
