//! Custom differentiable operations written in Rust, with PyTorch's `autograd.Function`
//! ctx semantics: `save_for_backward`, `needs_input_grad`, `mark_dirty`,
//! `mark_non_differentiable` and `set_materialize_grads` — what PyTorch gives C++ users.
//!
//! ```
//! use ferrograd::autograd::{apply_function, BackwardCtx, Function, FunctionCtx};
//! use ferrograd::{ops, Result, Tensor};
//!
//! /// y = x³, with dy/dx = 3x².
//! struct Cube;
//!
//! impl Function for Cube {
//!     fn name(&self) -> String { "CubeBackward".into() }
//!     fn forward(&self, ctx: &mut FunctionCtx, inputs: &[Tensor]) -> Result<Vec<Tensor>> {
//!         ctx.save_for_backward(&[&inputs[0]]);
//!         Ok(vec![ops::pow_scalar(&inputs[0], ferrograd::Scalar::Int(3))?])
//!     }
//!     fn backward(&self, ctx: &BackwardCtx<'_>, grads: &[Option<Tensor>]) -> Result<Vec<Option<Tensor>>> {
//!         let x = &ctx.saved_tensors()?[0];
//!         let g = grads[0].as_ref().expect("materialized");
//!         let d = ops::mul(&ops::pow_scalar(x, ferrograd::Scalar::Int(2))?, &Tensor::wrapped_scalar(ferrograd::Scalar::Int(3)))?;
//!         Ok(vec![Some(ops::mul(g, &d)?)])
//!     }
//! }
//!
//! let x = Tensor::from_vec(vec![2.0f32], &[1]).unwrap();
//! x.set_requires_grad(true)?;
//! let y = apply_function(Cube, &[x.clone()])?.remove(0);
//! assert_eq!(y.grad_fn().unwrap().name, "CubeBackward");
//! ferrograd::backward(&ops::sum(&y, None)?, None, false, false)?;
//! assert_eq!(x.grad().unwrap().to_vec::<f32>().unwrap(), vec![12.0]);
//! # Ok::<(), ferrograd::Error>(())
//! ```

use crate::autograd::NodeRef;
use super::{is_grad_enabled, Backward, GradModeGuard, InputMeta, Node, SavedTensor};
use crate::error::Result;
use crate::tensor::Tensor;
use crate::{bail, ensure};
use parking_lot::Mutex;
use std::any::Any;
use std::collections::HashMap;


/// A custom operation: a forward and its backward.
pub trait Function: Send + Sync + 'static {
    /// The `grad_fn` name (PyTorch uses `<ClassName>Backward`).
    fn name(&self) -> String;
    /// Compute the outputs (runs with grad mode off).
    fn forward(&self, ctx: &mut FunctionCtx, inputs: &[Tensor]) -> Result<Vec<Tensor>>;
    /// One gradient per input (None where not needed or not differentiable).
    fn backward(&self, ctx: &BackwardCtx<'_>, grads: &[Option<Tensor>]) -> Result<Vec<Option<Tensor>>>;
}

/// What `forward` may record for `backward`.
pub struct FunctionCtx {
    to_save: Vec<Tensor>,
    saved: Vec<SavedTensor>,
    needs_input_grad: Vec<bool>,
    dirty: Vec<Tensor>,
    non_differentiable: Vec<Tensor>,
    materialize_grads: bool,
    values: HashMap<String, Box<dyn Any + Send + Sync>>,
}

impl FunctionCtx {
    /// Tensors the backward will need (version-checked when unpacked).
    pub fn save_for_backward(&mut self, tensors: &[&Tensor]) {
        self.to_save = tensors.iter().map(|t| (*t).clone()).collect();
    }
    /// Whether input `i` needs a gradient.
    pub fn needs_input_grad(&self, i: usize) -> bool {
        self.needs_input_grad.get(i).copied().unwrap_or(false)
    }
    /// Declare that the forward modified `t` (an input) in place.
    pub fn mark_dirty(&mut self, t: &Tensor) {
        self.dirty.push(t.clone());
    }
    /// Declare an output that has no gradient (e.g. indices).
    pub fn mark_non_differentiable(&mut self, t: &Tensor) {
        self.non_differentiable.push(t.clone());
    }
    /// When false, backward receives None for outputs that got no gradient.
    pub fn set_materialize_grads(&mut self, on: bool) {
        self.materialize_grads = on;
    }
    /// Keep a non-tensor value for backward (PyTorch's `ctx.foo = ...`).
    pub fn set<V: Any + Send + Sync>(&mut self, key: &str, v: V) {
        self.values.insert(key.to_string(), Box::new(v));
    }
    /// A value stored with `set`.
    pub fn get<V: Any>(&self, key: &str) -> Option<&V> {
        self.values.get(key).and_then(|b| b.downcast_ref())
    }
}

/// The ctx as seen from `backward`.
pub struct BackwardCtx<'a> {
    ctx: &'a FunctionCtx,
    node: &'a NodeRef,
}

impl BackwardCtx<'_> {
    /// The saved tensors, checked against in-place modification since they were saved.
    pub fn saved_tensors(&self) -> Result<Vec<Tensor>> {
        self.ctx.saved.iter().map(|s| s.unpack(self.node)).collect()
    }
    pub fn needs_input_grad(&self, i: usize) -> bool {
        self.ctx.needs_input_grad(i)
    }
    pub fn get<V: Any>(&self, key: &str) -> Option<&V> {
        self.ctx.get(key)
    }
}

struct RustFunctionBackward<F: Function> {
    f: F,
    ctx: Mutex<FunctionCtx>,
}

impl<F: Function> Backward for RustFunctionBackward<F> {
    fn apply(&self, node: &NodeRef, grads: Vec<Option<Tensor>>, _needs: &[bool]) -> Result<Vec<Option<Tensor>>> {
        let ctx = self.ctx.lock();
        let grads = materialize(node, grads, ctx.materialize_grads)?;
        let out = self.f.backward(&BackwardCtx { ctx: &ctx, node }, &grads)?;
        ensure!(out.len() == node.next_edges.len(), Runtime,
            "function {} returned an incorrect number of gradients (expected {}, got {})", node.name, node.next_edges.len(), out.len());
        Ok(out)
    }
    fn release(&self) {
        for s in self.ctx.lock().saved.iter_mut() {
            s.release();
        }
    }
    fn saved(&self) -> Vec<(usize, usize)> {
        self.ctx.lock().saved.iter().filter_map(|s| s.storage_key()).collect()
    }
    fn materialize_grads(&self) -> bool {
        false
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// What a custom Function's ctx declared during its forward.
pub struct ForwardMarks<'a> {
    /// `save_for_backward` (None entries are skipped).
    pub to_save: &'a [Option<Tensor>],
    /// `mark_dirty`: inputs modified in place.
    pub dirty: &'a [Tensor],
    /// `mark_non_differentiable`: outputs that get no gradient.
    pub non_differentiable: &'a [Tensor],
}

/// Connect a custom Function's outputs to the graph with PyTorch's ctx rules — shared by the
/// Rust API (`apply_function`) and the Python bindings. `inputs` has `None` for non-tensor
/// arguments and `outputs` for non-tensor results. The leaf rule for dirty inputs comes
/// first; saved outputs are saved as outputs (no reference cycle), other saved tensors as
/// inputs; an input returned unmodified becomes a new alias; non-differentiable and
/// non-float outputs get no `grad_fn`. `make_backward` receives the saved tensors and builds
/// the node's backward. Returns the outputs to hand back (aliases where made).
pub fn connect_outputs(
    name: String,
    inputs: &[Option<Tensor>],
    outputs: Vec<Option<Tensor>>,
    marks: ForwardMarks<'_>,
    make_backward: impl FnOnce(Vec<SavedTensor>) -> Box<dyn Backward>,
) -> Result<(NodeRef, Vec<Option<Tensor>>)> {
    let is_input = |t: &Tensor| inputs.iter().flatten().any(|i| i.same(t));
    for d in marks.dirty {
        ensure!(is_input(d), Runtime, "mark_dirty: only inputs can be marked dirty");
        if d.is_leaf() && d.requires_grad() {
            bail!(Runtime, "a leaf Variable that requires grad has been used in an in-place operation.");
        }
    }
    // marking a tensor dirty counts as a write (PyTorch bumps its version once more), before
    // anything is saved
    for d in marks.dirty {
        d.bump_version();
    }
    let mut saved = Vec::with_capacity(marks.to_save.len());
    for t in marks.to_save.iter().flatten() {
        let out_pos = outputs.iter().position(|o| o.as_ref().is_some_and(|o| o.same(t)));
        let non_diff = marks.non_differentiable.iter().any(|n| n.same(t));
        saved.push(match out_pos {
            Some(p) if !non_diff => SavedTensor::output(t, p as u32, &name)?,
            _ => SavedTensor::input(t)?,
        });
    }
    // one edge per tensor input (as torch: a non-tensor argument has no place in the graph)
    let edges: super::Edges = inputs.iter().flatten().map(|t| t.gradient_edge()).collect();
    // an input returned as is: the output is a new alias of it (torch makes a view)
    let outputs: Vec<Option<Tensor>> = outputs
        .into_iter()
        .map(|o| o.map(|o| if is_input(&o) && !marks.dirty.iter().any(|d| d.same(&o)) { o.detach() } else { o }))
        .collect();
    let meta: Vec<InputMeta> = outputs
        .iter()
        .map(|o| match o {
            Some(t) => InputMeta::of(t),
            None => InputMeta { shape: Default::default(), dtype: crate::dtype::DType::Float32, device: crate::device::Device::Cpu },
        })
        .collect();
    let node = Node::new(name, edges, meta, make_backward(saved));
    for (i, o) in outputs.iter().enumerate() {
        let Some(o) = o else { continue };
        if marks.non_differentiable.iter().any(|n| n.same(o)) || !o.dtype().is_float() {
            continue;
        }
        o.set_grad_fn(Some(node.clone()), i as u32);
    }
    Ok((node, outputs))
}

/// Gradients for a Function's backward: missing ones as zeros of the output's metadata when
/// `materialize` (the default), else left `None`.
pub fn materialize(node: &Node, grads: Vec<Option<Tensor>>, materialize: bool) -> Result<Vec<Option<Tensor>>> {
    if !materialize {
        return Ok(grads);
    }
    grads.into_iter().enumerate().map(|(i, g)| match g {
        Some(g) => Ok(Some(g)),
        None => node.input_meta[i].zeros().map(Some),
    }).collect()
}

/// Run `f` on `inputs` and connect its outputs to the graph (`Function.apply`).
pub fn apply_function<F: Function>(f: F, inputs: &[Tensor]) -> Result<Vec<Tensor>> {
    let recording = is_grad_enabled() && inputs.iter().any(|t| t.requires_grad());
    let mut ctx = FunctionCtx {
        to_save: Vec::new(),
        saved: Vec::new(),
        needs_input_grad: inputs.iter().map(|t| recording && t.requires_grad()).collect(),
        dirty: Vec::new(),
        non_differentiable: Vec::new(),
        materialize_grads: true,
        values: HashMap::new(),
    };
    let outputs = {
        let _g = GradModeGuard::new(false);
        f.forward(&mut ctx, inputs)?
    };
    if !recording {
        return Ok(outputs);
    }
    let name = f.name();
    let to_save: Vec<Option<Tensor>> = std::mem::take(&mut ctx.to_save).into_iter().map(Some).collect();
    let dirty = std::mem::take(&mut ctx.dirty);
    let non_diff = std::mem::take(&mut ctx.non_differentiable);
    let ins: Vec<Option<Tensor>> = inputs.iter().cloned().map(Some).collect();
    let (_, outs) = connect_outputs(name, &ins, outputs.into_iter().map(Some).collect(),
        ForwardMarks { to_save: &to_save, dirty: &dirty, non_differentiable: &non_diff },
        move |saved| {
            ctx.saved = saved;
            Box::new(RustFunctionBackward { f, ctx: Mutex::new(ctx) })
        })?;
    Ok(outs.into_iter().flatten().collect())
}
