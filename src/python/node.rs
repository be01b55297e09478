//! Graph nodes as Python objects (`grad_fn`): one Python class per node name, identity
//! kept through the node's `py_slot`, and custom-Function contexts.

use super::hooks::{PyPostHook, PyPreHook, RemovableHandle};
use super::tensor::wrap;
use crate::autograd::{NodeRef, WeakNodeRef};
use parking_lot::Mutex;
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyTuple;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

/// How a Python node object holds its graph node.
pub enum NodeHold {
    Unbound,
    Strong(NodeRef),
    /// A custom Function's ctx: the node owns the ctx, so the ctx only points back weakly.
    Weak(WeakNodeRef),
}

/// `ferrograd._C.Node`: base class of every `grad_fn` class.
#[pyclass(name = "Node", module = "ferrograd._C", subclass, dict, weakref, frozen)]
pub struct PyNode {
    pub inner: Mutex<NodeHold>,
    me: AtomicUsize,
}

impl Drop for PyNode {
    fn drop(&mut self) {
        let me = self.me.load(Ordering::Relaxed);
        if me == 0 {
            return;
        }
        if let NodeHold::Strong(n) = &*self.inner.lock() {
            let _ = n.py_slot.compare_exchange(me, 0, Ordering::AcqRel, Ordering::Relaxed);
        }
    }
}

impl PyNode {
    pub fn node(&self) -> PyResult<NodeRef> {
        match &*self.inner.lock() {
            NodeHold::Strong(n) => Ok(n.clone()),
            NodeHold::Weak(w) => w.upgrade().ok_or_else(|| PyRuntimeError::new_err("the graph node of this object was freed")),
            NodeHold::Unbound => Err(PyRuntimeError::new_err("this Function context is not attached to a graph node yet")),
        }
    }
    /// Bind a ctx object to its node (custom Functions).
    pub fn bind_weak(obj: &Bound<'_, PyNode>, node: &NodeRef) {
        *obj.get().inner.lock() = NodeHold::Weak(NodeRef::downgrade(node));
        node.py_slot.store(obj.as_ptr() as usize, Ordering::Release);
    }
}

fn class_for<'py>(py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyAny>> {
    static F: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
    let f = F.get_or_try_init(py, || -> PyResult<Py<PyAny>> { Ok(py.import("ferrograd._helpers")?.getattr("_node_class")?.unbind()) })?;
    f.bind(py).call1((name,))
}

/// The Python object for a graph node (the same object every time while it lives).
pub fn wrap_node(py: Python<'_>, n: NodeRef) -> PyResult<Py<PyAny>> {
    let p = n.py_slot.load(Ordering::Acquire);
    if p != 0 {
        // SAFETY: a non-zero slot is the address of a live node object: either a builtin
        // wrapper (cleared in its Drop, under the GIL like this code) or a custom Function ctx
        // that the node itself keeps alive.
        return Ok(unsafe { Bound::from_borrowed_ptr(py, p as *mut pyo3::ffi::PyObject) }.unbind());
    }
    let cls = class_for(py, &n.name)?;
    let obj = cls.call0()?;
    let pn = obj.cast::<PyNode>()?;
    let addr = obj.as_ptr() as usize;
    *pn.get().inner.lock() = NodeHold::Strong(n.clone());
    pn.get().me.store(addr, Ordering::Relaxed);
    n.py_slot.store(addr, Ordering::Release);
    Ok(obj.unbind())
}

#[pymethods]
impl PyNode {
    #[new]
    #[pyo3(signature = (*_args, **_kwargs))]
    fn py_new(_args: &Bound<'_, PyTuple>, _kwargs: Option<&Bound<'_, pyo3::types::PyDict>>) -> Self {
        PyNode { inner: Mutex::new(NodeHold::Unbound), me: AtomicUsize::new(0) }
    }

    /// GC: drop the node's edge to this ctx when the collector clears it. (The edge itself
    /// is not reported by a traversal yet — a `__traverse__` on tensors that reported it was
    /// withdrawn after it crashed under reentrant backward — so a `ctx.out = out` cycle is
    /// still not collected; see the closing note.)
    fn __clear__(&self) {
        let node = match &*self.inner.lock() {
            NodeHold::Weak(w) => w.upgrade(),
            _ => None,
        };
        if let Some(n) = node {
            if let Some(b) = n.backward().and_then(|b| b.as_any().downcast_ref::<super::function::PyFunctionBackward>()) {
                let ctx = b.ctx.lock().take();
                drop(ctx);
            }
        }
    }

    /// The node's name, e.g. ``'MulBackward0'``; the engine's own nodes carry their C++
    /// namespace, as PyTorch's (``'torch::autograd::AccumulateGrad'``).
    fn name(&self) -> PyResult<String> {
        let n = self.node()?;
        Ok(match &*n.name {
            "AccumulateGrad" | "CopySlices" | "GraphRoot" | "Error" | "DelayedError" => format!("torch::autograd::{}", n.name),
            other => other.to_string(),
        })
    }

    /// The nodes this node sends gradients to, with the input index of each.
    #[getter]
    fn next_functions<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let n = self.node()?;
        let items: Vec<Bound<'py, PyTuple>> = n
            .next_edges
            .iter()
            .map(|e| match e {
                Some(e) => PyTuple::new(py, [wrap_node(py, e.node.clone())?, e.input_nr.into_pyobject(py)?.into_any().unbind()]),
                None => PyTuple::new(py, [py.None(), 0i64.into_pyobject(py)?.into_any().unbind()]),
            })
            .collect::<PyResult<_>>()?;
        PyTuple::new(py, items)
    }

    /// For an ``AccumulateGrad`` node, the leaf tensor it accumulates into.
    #[getter]
    fn variable(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        match self.node()?.leaf() {
            Some(v) => wrap(py, v),
            None => Err(pyo3::exceptions::PyAttributeError::new_err("'Node' object has no attribute 'variable'")),
        }
    }

    /// Register a hook called as ``hook(grad_inputs, grad_outputs)`` after the node ran;
    /// a returned tuple replaces ``grad_inputs``.
    fn register_hook(&self, hook: Py<PyAny>) -> PyResult<RemovableHandle> {
        Ok(crate::autograd::register_node_hook(&self.node()?, Arc::new(PyPostHook(hook))).into())
    }

    /// Register a hook called as ``hook(grad_outputs)`` before the node runs; a returned
    /// tuple replaces ``grad_outputs``.
    fn register_prehook(&self, hook: Py<PyAny>) -> PyResult<RemovableHandle> {
        Ok(crate::autograd::register_node_prehook(&self.node()?, Arc::new(PyPreHook(hook))).into())
    }

    /// The sequence number (creation order) of the node.
    fn _sequence_nr(&self) -> PyResult<u64> {
        Ok(self.node()?.seq_nr)
    }

    /// `_saved_self`, `_saved_result`, `_saved_exponent`, ...: what the node saved, by
    /// torch's derivative names (AttributeError for anything else).
    fn __getattr__(slf: &Bound<'_, Self>, name: &str) -> PyResult<Py<PyAny>> {
        let py = slf.py();
        if let Some(f) = name.strip_prefix("_raw_saved_") {
            if let Ok(n) = slf.get().node() {
                if let Some(slot) = n.saved_slot(f) {
                    if n.backward().is_some_and(|b| b.saved_tensor(&n, slot).is_some()) {
                        return Ok(Py::new(py, PySavedTensor { node: n, slot })?.into_any());
                    }
                }
            }
        }
        let field = name.strip_prefix("_saved_").and_then(|f| slf.get().node().ok().and_then(|n| n.saved_field(f)));
        match field {
            Some(Ok(crate::autograd::SavedField::Tensor(t))) => wrap(py, t),
            Some(Ok(crate::autograd::SavedField::Value(v))) => Ok(match v {
                crate::autograd::SavedValue::Int(i) => i.into_pyobject(py)?.into_any().unbind(),
                crate::autograd::SavedValue::Int64(i) => (i as u64).into_pyobject(py)?.into_any().unbind(),
                crate::autograd::SavedValue::Float(f) => f.into_pyobject(py)?.into_any().unbind(),
                crate::autograd::SavedValue::Bool(b) => pyo3::types::PyBool::new(py, b).to_owned().into_any().unbind(),
                // int64 arrays show as unsigned, as torch's bindings do (a -1 dim or shift
                // reads 2^64 - 1); sizes are never negative
                crate::autograd::SavedValue::Ints(v) => PyTuple::new(py, v.iter().map(|&i| i as u64))?.into_any().unbind(),
                crate::autograd::SavedValue::Str(v) => v.into_pyobject(py)?.into_any().unbind(),
                crate::autograd::SavedValue::None => py.None(),
            }),
            Some(Err(e)) => Err(e.into()),
            None => Err(pyo3::exceptions::PyAttributeError::new_err(format!("'{}' object has no attribute '{}'", slf.get_type().name()?, name))),
        }
    }

    /// The attributes, with the node's ``_saved_<name>`` (and ``_raw_saved_<name>`` for
    /// tensors) as PyTorch's node classes list them.
    fn __dir__(slf: &Bound<'_, Self>) -> PyResult<Vec<String>> {
        let py = slf.py();
        let base = py.import("builtins")?.getattr("object")?.getattr("__dir__")?.call1((slf,))?;
        let mut names: Vec<String> = base.extract()?;
        if let Ok(n) = slf.get().node() {
            for f in n.saved_names() {
                names.push(format!("_saved_{f}"));
                if n.saved_slot(f).is_some() {
                    names.push(format!("_raw_saved_{f}"));
                }
            }
        }
        names.sort();
        names.dedup();
        Ok(names)
    }

    /// Bytes held by this node's saved tensors.
    fn _nbytes_saved(&self) -> PyResult<usize> {
        let n = self.node()?;
        Ok(n.backward().map_or(0, |b| b.saved().iter().map(|s| s.1).sum()))
    }
}

/// A node's saved tensor itself (`grad_fn._raw_saved_<name>`): hooks can be put on it.
#[pyclass(name = "SavedTensor", module = "ferrograd._C")]
pub struct PySavedTensor {
    node: NodeRef,
    slot: usize,
}

#[pymethods]
impl PySavedTensor {
    /// Replace the saved tensor by ``pack_hook(tensor)`` now; the backward pass gets
    /// ``unpack_hook(packed)`` back (one pair of hooks per saved tensor).
    fn register_hooks(&self, pack_hook: Py<PyAny>, unpack_hook: Py<PyAny>) -> PyResult<()> {
        Python::attach(|py| {
            if !pack_hook.bind(py).is_callable() || !unpack_hook.bind(py).is_callable() {
                return Err(pyo3::exceptions::PyTypeError::new_err(
                    "register_hooks(): incompatible function arguments. The following argument types are supported:\n    1. (self: torch._C._autograd.SavedTensor, arg0: collections.abc.Callable, arg1: collections.abc.Callable) -> None"));
            }
            Ok(())
        })?;
        let h = Arc::new(super::hooks::PySavedHooks { pack: pack_hook, unpack: unpack_hook });
        match self.node.backward().and_then(|b| b.register_saved_hooks(self.slot, h)) {
            Some(r) => Ok(r?),
            None => Err(PyRuntimeError::new_err("this node saved no such tensor")),
        }
    }
}
