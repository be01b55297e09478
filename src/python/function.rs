//! Custom `autograd.Function`: the node that calls a Python `backward`, and `_function_apply`,
//! which wires a forward's outputs into the graph with PyTorch's ctx semantics.

use crate::autograd::NodeRef;
use super::hooks::attached;
use super::node::PyNode;
use super::tensor::{wrap, PyTensor};
use crate::autograd::{is_grad_enabled, Backward, SavedTensor};
use crate::error::Result;
use crate::tensor::Tensor;
use parking_lot::Mutex;
use pyo3::exceptions::{PyRuntimeError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyTuple};


/// The backward of a Python Function: calls `ctx._forward_cls.backward(ctx, *grads)`.
pub struct PyFunctionBackward {
    /// The ctx object; taken by the garbage collector's clear when a cycle through it
    /// (`ctx.out = out`) is collected.
    pub(crate) ctx: Mutex<Option<Py<PyAny>>>,
    saved: Mutex<Vec<SavedTensor>>,
    materialize: bool,
    /// Which forward args were tensors (non-tensors must get None).
    is_tensor: Vec<bool>,
}

impl Backward for PyFunctionBackward {
    fn apply(&self, node: &NodeRef, grads: Vec<Option<Tensor>>, _needs: &[bool]) -> Result<Vec<Option<Tensor>>> {
        let grads = crate::autograd::materialize(node, grads, self.materialize)?;
        attached(|py| {
            let ctx = self.ctx.lock().as_ref().map(|c| c.clone_ref(py)).ok_or_else(|| PyRuntimeError::new_err("the ctx of this Function was cleared by the garbage collector"))?;
            let ctx = ctx.bind(py);
            let args: Vec<Py<PyAny>> = std::iter::once(Ok(ctx.clone().unbind()))
                .chain(grads.into_iter().map(|g| super::tensor::wrap_opt(py, g)))
                .collect::<PyResult<_>>()?;
            let bw = ctx.getattr("_forward_cls")?.getattr("backward")?;
            let r = bw.call1(PyTuple::new(py, args)?)?;
            let items: Vec<Bound<'_, PyAny>> = if let Ok(t) = r.cast::<PyTuple>() { t.iter().collect() } else if let Ok(l) = r.cast::<PyList>() { l.iter().collect() } else { vec![r] };
            let n = self.is_tensor.len();
            let mut items = items;
            // matches torch: extra trailing Nones are allowed
            while items.len() > n && items.last().is_some_and(|x| x.is_none()) {
                items.pop();
            }
            if items.len() != n {
                return Err(PyRuntimeError::new_err(format!("function {} returned an incorrect number of gradients (expected {}, got {})", node.name, n, items.len())));
            }
            // one gradient per tensor input (the node's edges)
            let mut out = Vec::with_capacity(n);
            for (i, it) in items.iter().enumerate() {
                if it.is_none() {
                    if self.is_tensor[i] {
                        out.push(None);
                    }
                } else if let Ok(t) = it.cast::<PyTensor>() {
                    if !self.is_tensor[i] {
                        return Err(PyRuntimeError::new_err(format!("function {} returned a gradient different than None at position {}, but the corresponding forward input was not a Variable", node.name, i + 1)));
                    }
                    out.push(Some(t.get().t.clone()));
                } else {
                    return Err(PyTypeError::new_err(format!("expected Tensor or None (got {})", it.get_type().name()?)));
                }
            }
            Ok(out)
        })
    }
    fn release(&self) {
        for s in self.saved.lock().iter_mut() {
            s.release();
        }
    }
    fn saved(&self) -> Vec<(usize, usize)> {
        self.saved.lock().iter().filter_map(|s| s.storage_key()).collect()
    }
    fn materialize_grads(&self) -> bool {
        false
    }
    fn runs_on_calling_thread(&self) -> bool {
        true
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

/// `ctx.saved_tensors` once the ctx is bound to its node.
#[pyfunction]
pub fn _saved_tensors(py: Python<'_>, ctx: &Bound<'_, PyNode>) -> PyResult<Py<PyTuple>> {
    let node = ctx.get().node()?;
    let bw = node.backward().and_then(|b| b.as_any().downcast_ref::<PyFunctionBackward>())
        .ok_or_else(|| PyRuntimeError::new_err("not a custom Function node"))?;
    let saved = bw.saved.lock();
    let objs: Vec<Py<PyAny>> = saved.iter().map(|s| s.unpack(&node).map_err(PyErr::from).and_then(|t| wrap(py, t))).collect::<PyResult<_>>()?;
    Ok(PyTuple::new(py, objs)?.unbind())
}

/// Wire the outputs of `Function.forward` into the graph.
///
/// `args` are the forward's arguments, `outputs` what it returned (a tensor or a tuple),
/// `to_save`, `dirty`, `non_diff` the ctx's marks. Returns the outputs to hand to the user.
#[pyfunction]
#[pyo3(signature = (ctx, name, args, outputs, to_save, dirty, non_diff, materialize))]
#[allow(clippy::too_many_arguments)]
pub fn _function_apply<'py>(
    py: Python<'py>,
    ctx: &Bound<'py, PyNode>,
    name: String,
    args: &Bound<'py, PyTuple>,
    outputs: &Bound<'py, PyAny>,
    to_save: &Bound<'py, PyTuple>,
    dirty: &Bound<'py, PyTuple>,
    non_diff: &Bound<'py, PyTuple>,
    materialize: bool,
) -> PyResult<Py<PyAny>> {
    let single = !outputs.is_instance_of::<PyTuple>();
    let outs: Vec<Bound<'py, PyAny>> = if single { vec![outputs.clone()] } else { outputs.cast::<PyTuple>()?.iter().collect() };
    let inputs: Vec<Option<Tensor>> = args.iter().map(|a| a.cast::<PyTensor>().ok().map(|t| t.get().t.clone())).collect();
    let record = is_grad_enabled() && inputs.iter().flatten().any(|t| t.requires_grad());
    if !record {
        // no graph: outputs are plain results (dirty inputs keep their own history; marking
        // them still counts as a write, as PyTorch)
        for d in dirty.iter() {
            if let Ok(t) = d.cast::<PyTensor>() {
                t.get().t.bump_version();
            }
        }
        return Ok(outputs.clone().unbind());
    }
    let tensors = |t: &Bound<'py, PyTuple>| -> Vec<Option<Tensor>> { t.iter().map(|o| o.cast::<PyTensor>().ok().map(|t| t.get().t.clone())).collect() };
    let (to_save, dirty, non_diff) = (tensors(to_save), tensors(dirty), tensors(non_diff));
    let (dirty, non_diff): (Vec<Tensor>, Vec<Tensor>) = (dirty.into_iter().flatten().collect(), non_diff.into_iter().flatten().collect());
    let out_tensors: Vec<Option<Tensor>> = outs.iter().map(|o| o.cast::<PyTensor>().ok().map(|t| t.get().t.clone())).collect();
    let is_tensor = inputs.iter().map(|t| t.is_some()).collect();
    let ctx_obj = ctx.clone().into_any().unbind();
    let (node, connected) = crate::autograd::connect_outputs(name, &inputs, out_tensors.clone(),
        crate::autograd::ForwardMarks { to_save: &to_save, dirty: &dirty, non_differentiable: &non_diff },
        |saved| Box::new(PyFunctionBackward { ctx: Mutex::new(Some(ctx_obj)), saved: Mutex::new(saved), materialize, is_tensor }))?;
    PyNode::bind_weak(ctx, &node);
    // hand back the user's own objects, except where the core made an alias
    let mut result: Vec<Py<PyAny>> = Vec::with_capacity(outs.len());
    for ((o, before), after) in outs.iter().zip(&out_tensors).zip(connected) {
        match (before, after) {
            (Some(b), Some(a)) if !a.same(b) => result.push(wrap(py, a)?),
            _ => result.push(o.clone().unbind()),
        }
    }
    if single {
        return Ok(result.into_iter().next().expect("invariant: one output"));
    }
    Ok(PyTuple::new(py, result)?.into_any().unbind())
}
