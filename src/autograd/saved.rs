//! Saved tensors: what a backward node keeps from its forward, with a version check.

use crate::autograd::NodeRef;

use crate::error::Result;
use crate::tensor::Tensor;
use crate::{bail, ensure};
use std::sync::Arc;

/// The text PyTorch raises when a freed graph is walked again.
pub const SECOND_BACKWARD: &str = "Trying to backward through the graph a second time (or directly access saved tensors after they have already been freed). Saved intermediate values of the graph are freed when you call .backward() or autograd.grad(). Specify retain_graph=True if you need to backward through the graph a second time or if you need to access saved tensors after calling backward.";

/// `saved_tensors_hooks`: transform tensors when saved (pack) and when used (unpack).
pub trait SavedTensorHooks: Send + Sync {
    fn pack(&self, t: &Tensor) -> Result<Box<dyn std::any::Any + Send + Sync>>;
    fn unpack(&self, packed: &(dyn std::any::Any + Send + Sync)) -> Result<Tensor>;
}

thread_local! {
    static SAVED_HOOKS: std::cell::RefCell<Vec<Arc<dyn SavedTensorHooks>>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Make `h` the active saved-tensor hooks on this thread (until `pop_saved_hooks`).
pub fn push_saved_hooks(h: Arc<dyn SavedTensorHooks>) {
    SAVED_HOOKS.with(|s| s.borrow_mut().push(h));
}

/// Deactivate the innermost saved-tensor hooks.
pub fn pop_saved_hooks() {
    SAVED_HOOKS.with(|s| s.borrow_mut().pop());
}

fn active_hooks() -> Option<Arc<dyn SavedTensorHooks>> {
    SAVED_HOOKS.with(|s| s.borrow().last().cloned())
}

/// Pack with the hooks suspended, so ops inside a pack hook do not pack again.
pub(crate) fn pack_with(h: &Arc<dyn SavedTensorHooks>, t: &Tensor) -> Result<Box<dyn std::any::Any + Send + Sync>> {
    let saved = SAVED_HOOKS.with(|s| std::mem::take(&mut *s.borrow_mut()));
    let r = h.pack(t);
    SAVED_HOOKS.with(|s| *s.borrow_mut() = saved);
    r
}

/// An observer of writes: called with a tensor whose storage is about to be written (an
/// in-place op, an `out=` argument, an optimizer step), before the write.
/// `allow_mutation_on_saved_tensors` copies a saved tensor there before it changes, as
/// PyTorch's dispatch mode does.
pub type WriteObserver = Arc<dyn Fn(&Tensor) -> Result<()> + Send + Sync>;

thread_local! {
    static WRITE_OBSERVERS: std::cell::RefCell<Vec<WriteObserver>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Make `o` see the writes made on this thread (until `pop_write_observer`).
pub fn push_write_observer(o: WriteObserver) {
    WRITE_OBSERVERS.with(|s| s.borrow_mut().push(o));
}

/// Remove the innermost write observer.
pub fn pop_write_observer() {
    WRITE_OBSERVERS.with(|s| s.borrow_mut().pop());
}

/// Tell the write observers that `t`'s storage is about to be written. Observers are
/// suspended while they run (their own writes are not observed).
pub fn before_write(t: &Tensor) -> Result<()> {
    let observers = WRITE_OBSERVERS.with(|s| if s.borrow().is_empty() { None } else { Some(std::mem::take(&mut *s.borrow_mut())) });
    let Some(observers) = observers else { return Ok(()) };
    let r = observers.iter().try_for_each(|o| o(t));
    WRITE_OBSERVERS.with(|s| *s.borrow_mut() = observers);
    r
}

type Packed = (Arc<dyn SavedTensorHooks>, Box<dyn std::any::Any + Send + Sync>);

/// A tensor saved for backward.
pub struct SavedTensor {
    /// Set instead of `data` when saved-tensor hooks were active.
    packed: Option<Packed>,
    /// The input itself, or a history-free alias of an output (saving an output with its
    /// grad_fn would make a node own itself).
    data: Option<Tensor>,
    version: u64,
    is_output: bool,
    output_nr: u32,
    /// Name of the node that produced the tensor, for the version-mismatch message.
    producer: Option<std::borrow::Cow<'static, str>>,
    /// For an input packed by hooks: its place in the graph, given back to the unpacked
    /// tensor (as torch's `SavedVariable::unpack`), so a `create_graph` backward through the
    /// formula still reaches what the input came from.
    edge: Option<super::Edge>,
}

impl SavedTensor {
    /// Save an input of the op being recorded.
    pub fn input(t: &Tensor) -> Result<SavedTensor> {
        ensure!(!t.0.is_inference || crate::autograd::is_inference_mode(), Runtime,
            "Inference tensors cannot be saved for backward. Please do not use Tensors created in inference mode in computation tracked by autograd. To work around this, you can make a clone to get a normal tensor and use it in autograd, or use `torch.no_grad()` instead of `torch.inference_mode()`.");
        // a wrapped Python number (the `2` of `x * 2`) is a value to torch: no hooks see it
        if let Some(h) = active_hooks().filter(|_| !t.0.is_wrapped_number) {
            let p = pack_with(&h, t)?;
            return Ok(SavedTensor { packed: Some((h, p)), data: None, version: 0, is_output: false, output_nr: t.output_nr(), producer: None, edge: t.gradient_edge() });
        }
        Ok(SavedTensor {
            packed: None,
            data: Some(t.clone()),
            version: t.version(),
            is_output: false,
            output_nr: t.output_nr(),
            producer: t.grad_fn().map(|n| n.name.clone()),
            edge: None,
        })
    }

    /// Save an output of the op being recorded (node `name`, output `nr`).
    pub fn output(t: &Tensor, nr: u32, name: &str) -> Result<SavedTensor> {
        if let Some(h) = active_hooks() {
            let p = pack_with(&h, &t.detach())?;
            return Ok(SavedTensor { packed: Some((h, p)), data: None, version: 0, is_output: true, output_nr: nr, producer: None, edge: None });
        }
        Ok(SavedTensor {
            packed: None,
            data: Some(t.detach()),
            version: t.version(),
            is_output: true,
            output_nr: nr,
            producer: Some(std::borrow::Cow::Owned(name.to_string())),
            edge: None,
        })
    }

    /// Forward AD: a saved output alias takes the tangent of its original in `outputs`.
    pub fn share_output_tangent(&self, outputs: &[&Tensor]) {
        if let (true, Some(d)) = (self.is_output, &self.data) {
            if let Some(o) = outputs.get(self.output_nr as usize) {
                super::forward::share(o, d);
            }
        }
    }

    /// The tensor a `register_hooks` call packs, with torch's errors: hooks already set, or the
    /// tensor freed by a backward pass.
    pub fn for_hooks(&self) -> Result<Tensor> {
        if self.packed.is_some() {
            bail!(Runtime, "Calling register_hooks on a saved tensor whose hooks have already been set. Hint: only one pair of hooks is allowed at a time.");
        }
        match &self.data {
            Some(t) => Ok(t.clone()),
            None => bail!(Runtime, "Calling register_hooks on a saved tensor after it has been freed. Saved intermediate values of the graph are freed when you call .backward() or autograd.grad(). Specify retain_graph=True if you need to backward through the graph a second time or if you need to access saved variables after calling backward."),
        }
    }

    /// `register_hooks(pack, unpack)` on this saved tensor: it keeps only `pack(t)` from now
    /// on, and unpacks through `h`.
    pub fn set_packed(&mut self, h: Arc<dyn SavedTensorHooks>, p: Box<dyn std::any::Any + Send + Sync>) {
        if !self.is_output {
            self.edge = self.data.as_ref().and_then(|t| t.gradient_edge());
        }
        self.packed = Some((h, p));
        self.data = None;
    }

    /// Free the tensor (after a backward without retain_graph).
    pub fn release(&mut self) {
        self.data = None;
        self.packed = None;
    }

    /// Whether `release` freed it.
    pub fn is_released(&self) -> bool {
        self.data.is_none() && self.packed.is_none()
    }

    pub fn bytes(&self) -> usize {
        self.data.as_ref().map_or(0, |t| t.numel() * t.dtype().itemsize())
    }

    /// The storage this saved tensor keeps alive (for de-duplicated memory reports).
    pub fn storage_key(&self) -> Option<(usize, usize)> {
        self.data.as_ref().map(|t| (Arc::as_ptr(&t.data().storage) as usize, t.storage_bytes()))
    }

    /// The tensor back, checked against in-place writes; an output gets `node` as grad_fn.
    pub fn unpack(&self, node: &NodeRef) -> Result<Tensor> {
        if let Some((h, p)) = &self.packed {
            let t = h.unpack(p.as_ref())?;
            if self.is_output {
                let alias = t.detach();
                alias.set_grad_fn(Some(node.clone()), self.output_nr);
                return Ok(alias);
            }
            if let Some(e) = &self.edge {
                if !t.requires_grad() {
                    let alias = t.detach();
                    alias.set_grad_fn(Some(e.node.clone()), e.input_nr);
                    return Ok(alias);
                }
            }
            return Ok(t);
        }
        let Some(t) = &self.data else { bail!(Runtime, "{}", SECOND_BACKWARD) };
        let now = t.version();
        if now != self.version {
            let d = t.shape();
            // torch names the producer of a tensor in the graph; a saved constant (an index
            // tensor) is named by its type alone
            let which = match &self.producer {
                Some(p) => format!(", which is output {} of {},", self.output_nr, strip_backward(p)),
                None if t.requires_grad() => ", which is a leaf Variable,".to_string(),
                None => String::new(),
            };
            let kind = if t.dtype() == crate::dtype::DType::Bool {
                format!("{}BoolType", if t.device() == crate::Device::Cpu { "CPU" } else { "CUDA" })
            } else {
                format!("torch.{}", t.dtype().legacy_name())
            };
            bail!(Runtime, "one of the variables needed for gradient computation has been modified by an inplace operation: [{} {}]{} is at version {}; expected version {} instead. Hint: enable anomaly detection to find the operation that failed to compute its gradient, with torch.autograd.set_detect_anomaly(True, check_nan=False).",
                kind, crate::shape::fmt_list(&d), which, now, self.version);
        }
        if self.is_output {
            let alias = t.detach();
            alias.set_grad_fn(Some(node.clone()), self.output_nr);
            super::forward::share(t, &alias);
            return Ok(alias);
        }
        Ok(t.clone())
    }
}

/// `ExpBackward0` -> `Exp` (the form PyTorch's version message uses).
fn strip_backward(name: &str) -> &str {
    match name.find("Backward") {
        Some(i) if i > 0 => &name[..i],
        _ => name,
    }
}
