//! Graph nodes (`Node`), edges, hooks, the iterative dropper, and `record`, which attaches a
//! backward closure to the outputs of an op.

use crate::autograd::NodeRef;
use super::SavedTensor;
use crate::dtype::DType;
use crate::error::Result;
use crate::shape::Dims;
use crate::tensor::Tensor;
use parking_lot::Mutex;
use smallvec::SmallVec;
use std::borrow::Cow;
use std::cell::{Cell, RefCell};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// Where a gradient goes: input `input_nr` of `node`.
#[derive(Clone)]
pub struct Edge {
    pub node: NodeRef,
    pub input_nr: u32,
}

/// A node's outgoing edges, inline up to two (most ops have one or two inputs).
pub type Edges = SmallVec<[Option<Edge>; 2]>;

/// Shape and dtype of one forward output, i.e. of the gradient a node receives there.
#[derive(Clone, Debug)]
pub struct InputMeta {
    pub shape: Dims,
    pub dtype: DType,
    pub device: crate::device::Device,
}

impl InputMeta {
    /// The metadata of `t` (what a gradient flowing to it must look like).
    pub fn of(t: &Tensor) -> InputMeta {
        let d = t.data();
        InputMeta { shape: d.layout.shape.clone(), dtype: d.dtype, device: d.storage.device() }
    }
    /// Zeros of this shape, dtype and device (a materialized missing gradient).
    pub fn zeros(&self) -> crate::error::Result<Tensor> {
        crate::tensor::zeros_on(&self.shape, self.dtype, self.device)
    }
}

/// A hook on a tensor's gradient; may return a replacement.
pub trait TensorHook: Send + Sync {
    fn call(&self, grad: &Tensor) -> Result<Option<Tensor>>;
    /// The hook's name in error messages (`hook '<name>' has changed ...`).
    fn name(&self) -> String {
        "hook".into()
    }
}

/// PyTorch's checks on a tensor hook's replacement gradient: same size, dtype and device.
pub fn check_hook_result(hook: &dyn TensorHook, old: &Tensor, new: &Tensor) -> Result<()> {
    if new.shape() != old.shape() {
        crate::bail!(Runtime, "hook '{}' has changed the size of value", hook.name());
    }
    if new.dtype() != old.dtype() {
        crate::bail!(Runtime, "hook '{}' has changed the type of value (was torch.{} got torch.{})", hook.name(), old.dtype().legacy_name(), new.dtype().legacy_name());
    }
    if new.device() != old.device() {
        crate::bail!(Runtime, "hook '{}' has changed the type of value (was {} got {})", hook.name(), old.device(), new.device());
    }
    Ok(())
}
/// A node pre-hook: sees the gradients flowing into the node; may replace them.
pub trait PreHook: Send + Sync {
    fn call(&self, grad_outputs: &[Option<Tensor>]) -> Result<Option<Vec<Option<Tensor>>>>;
}
/// A node post-hook: sees the gradients it produced and received; may replace the produced.
pub trait PostHook: Send + Sync {
    fn call(&self, grad_inputs: &[Option<Tensor>], grad_outputs: &[Option<Tensor>]) -> Result<Option<Vec<Option<Tensor>>>>;
}
/// Runs after a leaf's `.grad` was written.
pub trait PostAccHook: Send + Sync {
    fn call(&self, tensor: &Tensor) -> Result<()>;
}

/// Hooks registered on a node.
#[derive(Default)]
pub struct NodeHooks {
    pub tensor_pre: Vec<(u32, u64, Arc<dyn TensorHook>)>,
    pub pre: Vec<(u64, Arc<dyn PreHook>)>,
    pub post: Vec<(u64, Arc<dyn PostHook>)>,
    /// Outputs whose gradient is retained (`retain_grad`).
    pub retain: Vec<(u32, std::sync::Weak<crate::tensor::TensorImpl>)>,
}

/// The backward computation of a node.
pub trait Backward: Send + Sync {
    /// Gradients w.r.t. the forward inputs, one per next edge.
    fn apply(&self, node: &NodeRef, grads: Vec<Option<Tensor>>, needs: &[bool]) -> Result<Vec<Option<Tensor>>>;
    /// Free saved tensors.
    fn release(&self) {}
    /// Bytes held by saved tensors (storage keys and sizes).
    fn saved(&self) -> Vec<(usize, usize)> {
        Vec::new()
    }
    /// Whether missing gradients are filled with zeros before `apply`.
    fn materialize_grads(&self) -> bool {
        true
    }
    /// Whether `apply` must run on the thread that called backward (a binding returns true
    /// for bodies that call into an interpreter with a global lock, such as Python).
    fn runs_on_calling_thread(&self) -> bool {
        false
    }
    /// For downcasting (the bindings reach their Function node's saved tensors).
    fn as_any(&self) -> &dyn std::any::Any;
    /// Saved tensor `i` unpacked (for the `_saved_*` attributes); None if there is none.
    fn saved_tensor(&self, _node: &NodeRef, _i: usize) -> Option<Result<Tensor>> {
        None
    }
    /// Forward AD: the saved outputs take the tangents their originals (`outputs`) just got.
    fn share_saved_tangents(&self, _outputs: &[&Tensor]) {}
    /// `_raw_saved_<name>.register_hooks(pack, unpack)` on saved slot `i` (None: no such slot).
    fn register_saved_hooks(&self, _i: usize, _h: Arc<dyn super::SavedTensorHooks>) -> Option<Result<()>> {
        None
    }
}

/// A non-tensor value a node keeps from its forward (`_saved_exponent`, `_saved_dim`, ...).
#[derive(Clone, Debug, PartialEq)]
pub enum SavedValue {
    /// A number argument (a Scalar in derivatives.yaml): shown as the Python int.
    Int(i64),
    /// An `int64_t` argument (`dim`, ...): torch's bindings show these as unsigned, so a
    /// negative dim reads as 2^64 - 1 ...; kept as the user gave it.
    Int64(i64),
    Float(f64),
    Bool(bool),
    Ints(Vec<i64>),
    /// A string argument (gelu's `approximate`).
    Str(&'static str),
    None,
}

/// What the `_saved_*` attributes of a node show: names of its saved tensors (by slot) and its
/// saved scalars, as torch names them in derivatives.yaml (`self`, `other`, `result`, `mat2`,
/// `exponent`, `dim`, `keepdim`, `self_sym_sizes`, `alpha`, ...).
#[derive(Default, Debug)]
pub struct SavedInfo {
    pub tensors: Vec<Option<&'static str>>,
    pub values: Vec<(&'static str, SavedValue)>,
}

/// One node of the autograd graph.
pub struct Node {
    pub name: Cow<'static, str>,
    pub seq_nr: u64,
    pub next_edges: Edges,
    pub input_meta: SmallVec<[InputMeta; 1]>,
    backward: super::BackwardBox,
    /// For `AccumulateGrad`: the leaf it writes into. Weak, so that a leaf's `.grad` built
    /// with `create_graph=True` (whose history ends here) does not keep the leaf alive in a
    /// cycle, the leak PyTorch documents for gradient penalties.
    pub variable: Option<std::sync::Weak<crate::tensor::TensorImpl>>,
    pub hooks: Mutex<NodeHooks>,
    /// The bindings' cached Python object, for identity (`a.grad_fn is b.grad_fn`).
    pub py_slot: std::sync::atomic::AtomicUsize,
    /// In anomaly mode: where the forward op was called (shown if its backward fails).
    pub anomaly_trace: Option<String>,
    /// Names of what the node saved, for the `_saved_*` attributes.
    pub saved_info: Mutex<Option<Box<SavedInfo>>>,
    /// The default names of saved slots 0..16, two bits each (0 none, 1 `self`, 2 `other`,
    /// 3 `result`): set by `record` without allocating, overridden by `saved_info`.
    pub default_saved_names: std::sync::atomic::AtomicU32,
}

/// How the embedding (the Python bindings) captures the current call stack and emits a
/// warning; used by anomaly mode.
pub struct AnomalyHooks {
    pub trace: fn() -> Option<String>,
    pub warn: fn(&str),
}

static ANOMALY_HOOKS: std::sync::OnceLock<AnomalyHooks> = std::sync::OnceLock::new();

/// Install the stack-capture and warning functions anomaly mode uses (once per process).
pub fn set_anomaly_hooks(h: AnomalyHooks) {
    let _ = ANOMALY_HOOKS.set(h);
}

pub(crate) fn anomaly_warn(msg: &str) {
    if let Some(h) = ANOMALY_HOOKS.get() {
        (h.warn)(msg);
    }
}

fn anomaly_trace() -> Option<String> {
    if !super::anomaly().0 {
        return None;
    }
    ANOMALY_HOOKS.get().and_then(|h| (h.trace)())
}

static SEQ: AtomicU64 = AtomicU64::new(0);
static HOOK_ID: AtomicU64 = AtomicU64::new(0);

/// A fresh id for a hook (used by removal handles).
pub fn next_hook_id() -> u64 {
    HOOK_ID.fetch_add(1, Ordering::Relaxed)
}

impl Node {
    pub fn new(name: impl Into<Cow<'static, str>>, next_edges: impl Into<Edges>, input_meta: impl Into<SmallVec<[InputMeta; 1]>>, backward: Box<dyn Backward>) -> NodeRef {
        let (name, next_edges, input_meta) = (name.into(), next_edges.into(), input_meta.into());
        // SAFETY: `init_fields` writes every field but the backward, written here.
        unsafe {
            NodeRef::emplace(|p| {
                Node::init_fields(p, name, next_edges, input_meta, SEQ.fetch_add(1, Ordering::Relaxed), None, anomaly_trace());
                std::ptr::addr_of_mut!((*p).backward).write(super::BackwardBox::from_box(backward));
            })
        }
    }
    /// A node whose backward `b` is written into the node's own arena slot when it fits
    /// (see `BackwardBox`): no allocation and no copy of the node through the stack.
    #[inline]
    pub fn with_backward<B: Backward + 'static>(name: Cow<'static, str>, next_edges: Edges, input_meta: SmallVec<[InputMeta; 1]>, b: B) -> NodeRef {
        // SAFETY: `init_fields` writes every field but the backward, which `write` initialises.
        unsafe {
            NodeRef::emplace(|p| {
                Node::init_fields(p, name, next_edges, input_meta, SEQ.fetch_add(1, Ordering::Relaxed), None, anomaly_trace());
                super::BackwardBox::write(std::ptr::addr_of_mut!((*p).backward), b);
            })
        }
    }
    /// Write every field of the node at `p` except `backward`.
    ///
    /// # Safety
    /// `p` is valid for writes; the fields are uninitialised (nothing is dropped).
    #[inline(always)]
    unsafe fn init_fields(p: *mut Node, name: Cow<'static, str>, next_edges: Edges, input_meta: SmallVec<[InputMeta; 1]>, seq_nr: u64, variable: Option<std::sync::Weak<crate::tensor::TensorImpl>>, anomaly_trace: Option<String>) {
        use std::ptr::addr_of_mut;
        // SAFETY: the caller's contract; each field is written once.
        unsafe {
            addr_of_mut!((*p).name).write(name);
            addr_of_mut!((*p).seq_nr).write(seq_nr);
            addr_of_mut!((*p).next_edges).write(next_edges);
            addr_of_mut!((*p).input_meta).write(input_meta);
            addr_of_mut!((*p).variable).write(variable);
            addr_of_mut!((*p).hooks).write(Mutex::new(NodeHooks::default()));
            addr_of_mut!((*p).py_slot).write(std::sync::atomic::AtomicUsize::new(0));
            addr_of_mut!((*p).anomaly_trace).write(anomaly_trace);
            addr_of_mut!((*p).saved_info).write(Mutex::new(None));
            addr_of_mut!((*p).default_saved_names).write(std::sync::atomic::AtomicU32::new(0));
        }
    }
    /// The node's backward computation (None for `AccumulateGrad`).
    #[inline]
    pub fn backward(&self) -> Option<&(dyn Backward + 'static)> {
        self.backward.get()
    }
    /// The saved tensor or value called `name` (`self`, `result`, `exponent`, ...), or None
    /// when the node has no such field.
    /// The saved-tensor slot named `name` (`self`, `result`, `mat2`...), if the node saved one.
    pub fn saved_slot(&self, name: &str) -> Option<usize> {
        let info = self.saved_info.lock();
        let explicit = info.as_ref().and_then(|info| info.tensors.iter().position(|n| *n == Some(name)));
        explicit.or_else(|| {
            if info.as_ref().is_some_and(|info| info.values.iter().any(|(n, _)| *n == name)) {
                return None;
            }
            let code = match name { "self" => 1, "other" => 2, "result" => 3, _ => return None };
            let packed = self.default_saved_names.load(Ordering::Relaxed);
            (0..16).find(|k| (packed >> (2 * k)) & 3 == code)
        })
    }
    /// Set the packed default names of `out`'s node's saved slots (two bits a slot: 1 `self`,
    /// 2 `other`, 3 `result`), for hot ops that save in their own order.
    pub fn set_default_saved_names(out: &Tensor, code: u32) {
        if let Some(n) = out.meta().grad_fn.clone() {
            n.default_saved_names.store(code, Ordering::Relaxed);
        }
    }
    /// Name saved field `name` (replacing one of the same name) on the node of `out`.
    pub fn annotate(out: &Tensor, values: &[(&'static str, SavedValue)], tensors: &[(usize, &'static str)]) {
        let Some(node) = out.grad_fn() else { return };
        for &(i, _) in tensors {
            if i < 16 {
                node.default_saved_names.fetch_and(!(3u32 << (2 * i)), Ordering::Relaxed);
            }
        }
        let mut g = node.saved_info.lock();
        let info = g.get_or_insert_with(Default::default);
        for (n, v) in values {
            info.values.retain(|(m, _)| m != n);
            info.values.push((n, v.clone()));
        }
        for &(i, n) in tensors {
            if info.tensors.len() <= i {
                info.tensors.resize(i + 1, None);
            }
            info.tensors[i] = Some(n);
        }
    }
    /// `annotate` for a hot op: `values` runs only when `out` has a node (no allocation
    /// without grad).
    #[inline]
    pub fn annotate_with(out: &Tensor, tensors: &[(usize, &'static str)], values: impl FnOnce() -> Vec<(&'static str, SavedValue)>) {
        if out.has_grad_fn() {
            Node::annotate(out, &values(), tensors);
        }
    }
    pub fn is_accumulate_grad(&self) -> bool {
        self.variable.is_some()
    }
    /// For `AccumulateGrad`: the leaf, if it is still alive.
    pub fn leaf(&self) -> Option<Tensor> {
        self.variable.as_ref().and_then(|w| w.upgrade()).map(Tensor)
    }
    /// Free saved tensors.
    pub fn release(&self) {
        if let Some(b) = self.backward() {
            b.release();
        }
    }
}

/// Fields PyTorch's node classes always show, for the nodes that record them only when they
/// differ (`AddBackward0._saved_alpha` is 1; a product with a number saved no `self`: None).
fn default_field(node: &str, field: &str) -> Option<SavedValue> {
    match (node, field) {
        ("AddBackward0" | "SubBackward0", "alpha") => Some(SavedValue::Int(1)),
        ("MulBackward0" | "DivBackward0", "self" | "other") => Some(SavedValue::None),
        _ => None,
    }
}

const DEFAULT_FIELDS: [(&str, &str); 6] = [
    ("AddBackward0", "alpha"), ("SubBackward0", "alpha"), ("MulBackward0", "self"), ("MulBackward0", "other"),
    ("DivBackward0", "self"), ("DivBackward0", "other"),
];

impl NodeRef {
    /// The names of the node's saved fields (`self`, `result`, `dim`, ...), tensors first (for
    /// `dir(grad_fn)`).
    pub fn saved_names(&self) -> Vec<&'static str> {
        let mut names = Vec::new();
        let info = self.saved_info.lock();
        let packed = self.default_saved_names.load(Ordering::Relaxed);
        let has_slot = |k: usize| self.backward().is_some_and(|b| b.saved_tensor(self, k).is_some());
        for k in 0..16 {
            let explicit = info.as_ref().and_then(|i| i.tensors.get(k).copied().flatten());
            let name = explicit.or(match (packed >> (2 * k)) & 3 { 1 => Some("self"), 2 => Some("other"), 3 => Some("result"), _ => None });
            if let Some(n) = name {
                if !names.contains(&n) && has_slot(k) {
                    names.push(n);
                }
            }
        }
        if let Some(i) = info.as_ref() {
            for (n, _) in &i.values {
                if !names.contains(n) {
                    names.push(n);
                }
            }
        }
        for (node, f) in DEFAULT_FIELDS {
            if node == self.name && !names.contains(&f) {
                names.push(f);
            }
        }
        names
    }
    /// The saved tensor or value called `name` (`self`, `result`, `exponent`, ...), or None
    /// when the node has no such field.
    pub fn saved_field(&self, name: &str) -> Option<Result<SavedField>> {
        let slot = match self.saved_slot(name) {
            Some(slot) => slot,
            None => {
                let info = self.saved_info.lock();
                let v = info.as_ref().and_then(|info| info.values.iter().find(|(n, _)| *n == name)).map(|v| v.1.clone());
                return v.or_else(|| default_field(&self.name, name)).map(|v| Ok(SavedField::Value(v)));
            }
        };
        let b = self.backward()?;
        b.saved_tensor(self, slot).map(|r| r.map(SavedField::Tensor))
    }
}

/// The node that writes a leaf's `.grad`.
pub struct AccumulateGrad;

impl AccumulateGrad {
    pub fn new_node(variable: Tensor) -> NodeRef {
        let meta = InputMeta::of(&variable);
        let weak = Arc::downgrade(&variable.0);
        // SAFETY: `init_fields` writes every field but the backward, written here.
        unsafe {
            NodeRef::emplace(|p| {
                Node::init_fields(p, Cow::Borrowed("AccumulateGrad"), Edges::new(), smallvec::smallvec![meta], u64::MAX, Some(weak), None);
                std::ptr::addr_of_mut!((*p).backward).write(super::BackwardBox::empty());
            })
        }
    }
}

// Note [Iterative teardown]
// A chain of a million nodes would overflow the stack if each Node dropped the next one
// recursively (Node -> edge -> Node, or Node -> saved tensor -> grad_fn -> Node). Instead,
// a node whose last reference goes pushes the nodes it points to onto a thread-local queue,
// and only the outermost drop drains it, one node at a time. The queue holds `NodeRef`s
// directly, so a drop costs no allocation. An edge to a node that other references keep
// alive (a leaf's AccumulateGrad, a node still in use) is released on the spot: only a
// possibly-last reference is queued. Draining flag and queue are one thread-local, reached
// once per outermost drop (in a shared library each thread-local access is a call).
struct Teardown {
    draining: Cell<bool>,
    queue: RefCell<Vec<NodeRef>>,
}

thread_local! {
    static TEARDOWN: Teardown = const { Teardown { draining: Cell::new(false), queue: RefCell::new(Vec::new()) } };
}

impl Teardown {
    /// Release `n`, queueing it if this may be its last reference.
    #[inline]
    fn release(&self, n: NodeRef) {
        if NodeRef::strong_count(&n) > 1 {
            // (another thread may drop its reference meanwhile, making this the last: the
            // node then drops here, one level down, and queues what it points to)
            drop(n);
        } else {
            self.queue.borrow_mut().push(n);
        }
    }

    /// Drop the queued nodes one by one (each may queue more) and end the draining.
    fn drain(&self) {
        loop {
            let next = self.queue.borrow_mut().pop();
            match next {
                Some(n) => drop(n),
                None => break,
            }
        }
        self.draining.set(false);
    }
}

/// Drop a node reference without recursion. See Note [Iterative teardown].
pub fn drop_node(n: NodeRef) {
    if NodeRef::strong_count(&n) > 1 {
        return; // not the last reference: nothing cascades
    }
    let n = match TEARDOWN.try_with(|t| t as *const Teardown) {
        // SAFETY: the thread-local lives until this thread's teardown, after this call.
        Ok(t) => {
            let t = unsafe { &*t };
            if t.draining.get() {
                t.queue.borrow_mut().push(n);
                return;
            }
            t.draining.set(true);
            drop(n); // queues what the node points to
            t.drain();
            return;
        }
        Err(_) => n,
    };
    drop(n); // thread teardown: the queue is gone, drop directly
}

impl Drop for Node {
    fn drop(&mut self) {
        let edges = std::mem::take(&mut self.next_edges);
        let bw = &mut self.backward;
        let Ok(t) = TEARDOWN.try_with(|t| t as *const Teardown) else {
            // thread teardown: the queue is gone, drop directly
            drop(edges);
            bw.clear();
            return;
        };
        // SAFETY: the thread-local outlives this call (try_with succeeded).
        let t = unsafe { &*t };
        let outer = !t.draining.replace(true);
        for e in edges.into_iter().flatten() {
            t.release(e.node);
        }
        // saved tensors drop here; their grad_fns are queued by TensorImpl::drop
        bw.clear();
        if outer {
            t.drain();
        }
    }
}

/// An op's saved tensors: the first inline (in the node's arena slot), more on the heap.
type SavedList = SmallVec<[SavedTensor; 1]>;

/// Saved tensors and the formula of an op's backward, as recorded by `record`.
pub struct FnBackward<F> {
    saved: Mutex<SavedList>,
    f: F,
}

/// Access to a node's saved tensors from inside its backward formula.
pub struct Saved<'a>(SavedSrc<'a>);

enum SavedSrc<'a> {
    /// A recorded node's saved tensors.
    Node { node: &'a NodeRef, saved: &'a Mutex<SavedList> },
    /// The tensors themselves (a forward-AD fallback evaluating the formula without a node).
    Direct(&'a [Tensor]),
}

impl<'a> Saved<'a> {
    /// Saved tensors given directly, in `record`'s order.
    pub fn direct(t: &'a [Tensor]) -> Saved<'a> {
        Saved(SavedSrc::Direct(t))
    }
    /// Saved tensor `i` (inputs first, in the order given to `record`, then outputs).
    pub fn get(&self, i: usize) -> Result<Tensor> {
        match &self.0 {
            SavedSrc::Node { node, saved } => saved.lock()[i].unpack(node),
            SavedSrc::Direct(t) => Ok(t[i].clone()),
        }
    }
}

impl<F> Backward for FnBackward<F>
where
    F: Fn(&Saved<'_>, &[Tensor], &[bool]) -> Result<Vec<Option<Tensor>>> + Send + Sync + 'static,
{
    fn apply(&self, node: &NodeRef, grads: Vec<Option<Tensor>>, needs: &[bool]) -> Result<Vec<Option<Tensor>>> {
        // as PyTorch's generated nodes, which unpack every saved variable first: a node whose
        // saved tensors were freed raises even where its formula would not read them (the
        // embedding's, which keeps its own row list)
        if self.saved.lock().iter().any(|s| s.is_released()) {
            crate::bail!(Runtime, "{}", super::saved::SECOND_BACKWARD);
        }
        let grads: SmallVec<[Tensor; 2]> = grads.into_iter().map(|g| g.expect("invariant: builtin nodes get materialized grads")).collect();
        (self.f)(&Saved(SavedSrc::Node { node, saved: &self.saved }), &grads, needs)
    }
    fn release(&self) {
        for s in self.saved.lock().iter_mut() {
            s.release();
        }
    }
    fn saved(&self) -> Vec<(usize, usize)> {
        self.saved.lock().iter().filter_map(|s| s.storage_key()).collect()
    }
    fn register_saved_hooks(&self, i: usize, h: Arc<dyn super::SavedTensorHooks>) -> Option<Result<()>> {
        let t = match self.saved.lock().get(i)?.for_hooks() {
            Ok(t) => t,
            Err(e) => return Some(Err(e)),
        };
        // pack outside the lock: the hook runs user code
        Some(super::saved::pack_with(&h, &t).map(|p| {
            if let Some(s) = self.saved.lock().get_mut(i) {
                s.set_packed(h, p);
            }
        }))
    }
    fn share_saved_tangents(&self, outputs: &[&Tensor]) {
        for s in self.saved.lock().iter() {
            s.share_output_tangent(outputs);
        }
    }
    fn saved_tensor(&self, node: &NodeRef, i: usize) -> Option<Result<Tensor>> {
        self.saved.lock().get(i).map(|s| s.unpack(node))
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

/// A saved field as the bindings show it.
pub enum SavedField {
    Tensor(Tensor),
    Value(SavedValue),
}

/// What an op saves for backward.
pub enum Save<'a> {
    /// An input tensor.
    In(&'a Tensor),
    /// Output number `n` of the op.
    Out(usize),
}

/// Whether an op over `inputs` must record history.
pub fn needs_record(inputs: &[&Tensor]) -> bool {
    super::is_grad_enabled() && inputs.iter().any(|t| t.requires_grad())
}

/// A backward formula's result that PyTorch cannot differentiate again: when it carries
/// history (`create_graph`), it gets a node `name` (`PdistBackwardBackward0`) whose own
/// backward raises "the derivative for '`op`' is not implemented." (as derivatives.yaml's
/// `not_implemented`), so a first-order use stays fine.
pub fn not_differentiable_again(result: Tensor, inputs: &[&Tensor], name: &'static str, op: &'static str) -> Result<Tensor> {
    if !needs_record(inputs) {
        return Ok(result);
    }
    let out = result.detach();
    record(name, inputs, &[&out], &[], move |_, _, _| {
        Err(crate::error::Error::NotImplemented(format!("the derivative for '{op}' is not implemented.")))
    })?;
    Ok(out)
}

/// ATen's `check_no_requires_grad`: an argument that `f`'s formula does not differentiate
/// (a loss's class weights) may not require grad while grad mode is on.
pub fn check_no_requires_grad(t: Option<&Tensor>, arg: &str, f: &str) -> Result<()> {
    if t.is_some_and(|t| t.requires_grad()) && super::is_grad_enabled() {
        return Err(crate::error::Error::Runtime(format!(
            "The function '{f}' is not differentiable with respect to argument '{arg}'. This input cannot have requires_grad True.")));
    }
    Ok(())
}

/// Whether an op over `inputs` must record history or propagate a tangent (forward AD).
pub fn needs_history(inputs: &[&Tensor]) -> bool {
    needs_record(inputs) || (super::forward::is_active() && inputs.iter().any(|t| t.meta().fw_grad.is_some()))
}

/// Attach a backward node named `name` to `outputs`, if any input requires grad.
///
/// `f(saved, grads, needs)` returns one gradient per input (`None` where not needed); grads
/// are the gradients of `outputs`, zero-filled where none arrived.
pub fn record(
    name: &'static str,
    inputs: &[&Tensor],
    outputs: &[&Tensor],
    save: &[Save<'_>],
    f: impl Fn(&Saved<'_>, &[Tensor], &[bool]) -> Result<Vec<Option<Tensor>>> + Send + Sync + 'static,
) -> Result<()> {
    if super::forward::is_active() {
        // no JVP formula: the tangents come from the backward formula
        let direct: Vec<Tensor> = save.iter().map(|s| match s { Save::In(t) => (*t).clone(), Save::Out(i) => outputs[*i].clone() }).collect();
        let f = Arc::new(f);
        let g = f.clone();
        let node = record_backward(name, inputs, outputs, save, move |s: &Saved<'_>, gr: &[Tensor], n: &[bool]| g(s, gr, n))?;
        super::forward::fallback(inputs, outputs, node.as_ref(), &direct, &*f)?;
        share_saved_tangents(node.as_ref(), outputs);
        return Ok(());
    }
    record_backward(name, inputs, outputs, save, f).map(|_| ())
}

/// `record` for an op with a JVP formula: the node is recorded, then, at a live forward-AD
/// level, `jvp(input tangents)` gives the outputs' tangents (see `forward::jvp`).
pub fn record_jvp(
    name: &'static str,
    inputs: &[&Tensor],
    outputs: &[&Tensor],
    save: &[Save<'_>],
    f: impl Fn(&Saved<'_>, &[Tensor], &[bool]) -> Result<Vec<Option<Tensor>>> + Send + Sync + 'static,
    jvp: impl FnOnce(&super::forward::Tangents) -> Result<Vec<Option<Tensor>>>,
) -> Result<()> {
    let node = record_backward(name, inputs, outputs, save, f)?;
    super::forward::jvp(inputs, outputs, jvp)?;
    share_saved_tangents(node.as_ref(), outputs);
    Ok(())
}

/// Forward AD: a node that saved its outputs (as history-free aliases) hands them the
/// outputs' tangents, so a backward pass run at the level sees them (forward-over-reverse).
fn share_saved_tangents(node: Option<&NodeRef>, outputs: &[&Tensor]) {
    if let Some(n) = node {
        if super::forward::is_active() {
            if let Some(b) = n.backward() {
                b.share_saved_tangents(outputs);
            }
        }
    }
}

/// `record` for an elementwise op of one input (its Jacobian is diagonal): the JVP formula is
/// the backward formula applied to the tangent (derivatives.yaml's `auto_element_wise`).
pub fn record_ew(
    name: &'static str,
    x: &Tensor,
    out: &Tensor,
    save: &[Save<'_>],
    f: impl Fn(&Saved<'_>, &[Tensor], &[bool]) -> Result<Vec<Option<Tensor>>> + Send + Sync + 'static,
) -> Result<()> {
    if !super::forward::is_active() {
        return record_backward(name, &[x], &[out], save, f).map(|_| ());
    }
    let direct: Vec<Tensor> = save.iter().map(|s| match s { Save::In(t) => (*t).clone(), Save::Out(_) => out.clone() }).collect();
    let f = Arc::new(f);
    let g = f.clone();
    let node = record_backward(name, &[x], &[out], save, move |s: &Saved<'_>, gr: &[Tensor], n: &[bool]| g(s, gr, n))?;
    super::forward::elementwise(x, out, node.as_ref(), &direct, &*f)?;
    share_saved_tangents(node.as_ref(), &[out]);
    Ok(())
}

/// The backward half of `record`: the node (if one was recorded).
fn record_backward(
    name: &'static str,
    inputs: &[&Tensor],
    outputs: &[&Tensor],
    save: &[Save<'_>],
    f: impl Fn(&Saved<'_>, &[Tensor], &[bool]) -> Result<Vec<Option<Tensor>>> + Send + Sync + 'static,
) -> Result<Option<NodeRef>> {
    match recording_edges(inputs) {
        Some(edges) => {
            record_with(edges, name, outputs, save, f)?;
            // default field names: the first input is `self`, the second `other`, output 0
            // is `result` (ops whose derivative names differ annotate after recording)
            // (packed in one word on the node: no allocation or lock on this path)
            let mut code = 0u32;
            for (k, s) in save.iter().enumerate().take(16) {
                let c = match s {
                    Save::In(t) => match inputs.iter().position(|i| Arc::ptr_eq(&i.0, &t.0)) { Some(0) => 1, Some(1) => 2, _ => 0 },
                    Save::Out(0) => 3,
                    Save::Out(_) => 0,
                };
                code |= c << (2 * k);
            }
            let node = outputs.first().and_then(|o| o.meta().grad_fn.clone());
            if code != 0 {
                if let Some(n) = &node {
                    n.default_saved_names.store(code, Ordering::Relaxed);
                }
            }
            Ok(node)
        }
        None => Ok(None),
    }
}

/// The inputs' gradient edges when an op over them must record history (grad mode on and
/// at least one input requires grad); the edges double as the requires-grad test.
pub fn recording_edges(inputs: &[&Tensor]) -> Option<Edges> {
    if !super::is_grad_enabled() {
        return None;
    }
    let edges: Edges = inputs.iter().map(|t| t.gradient_edge()).collect();
    if edges.iter().all(|e| e.is_none()) {
        None
    } else {
        Some(edges)
    }
}

thread_local! {
    static AS_WRITTEN: Cell<bool> = const { Cell::new(false) };
}

/// Whether nodes are being recorded with their formula as written (`AsWrittenGuard`).
pub(crate) fn as_written_active() -> bool {
    AS_WRITTEN.with(|c| c.get())
}

/// While alive, nodes with complex outputs are recorded with their formula as written (it
/// already gives the conjugate-Wirtinger gradient: it takes real or imaginary parts, so it is
/// not the complex chain rule `g · f'(z)` that `record_with` otherwise conjugates around).
pub struct AsWrittenGuard(bool);

impl AsWrittenGuard {
    #[allow(clippy::new_without_default)]
    pub fn new() -> Self {
        AsWrittenGuard(AS_WRITTEN.with(|c| c.replace(true)))
    }
}

impl Drop for AsWrittenGuard {
    fn drop(&mut self) {
        AS_WRITTEN.with(|c| c.set(self.0));
    }
}

/// An observer of recorded ops (selective activation checkpointing): sees the node name and
/// the outputs of each op whose history is recorded on this thread, and may hand back tensors
/// whose values the outputs take instead (the cached results of a checkpointed region).
/// The `bool` says whether the op runs as the computation of an in-place op (`mul_`).
pub type RecordObserver = Arc<dyn Fn(&str, bool, &[&Tensor]) -> Result<Option<Vec<Tensor>>> + Send + Sync>;

thread_local! {
    static RECORD_OBSERVERS: RefCell<Vec<RecordObserver>> = const { RefCell::new(Vec::new()) };
    static IN_PLACE: Cell<bool> = const { Cell::new(false) };
}

/// While alive, the ops recorded on this thread compute an in-place op's new value (what a
/// record observer is told).
pub struct InPlaceGuard(bool);

impl InPlaceGuard {
    #[allow(clippy::new_without_default)]
    pub fn new() -> Self {
        InPlaceGuard(IN_PLACE.with(|c| c.replace(true)))
    }
}

impl Drop for InPlaceGuard {
    fn drop(&mut self) {
        IN_PLACE.with(|c| c.set(self.0));
    }
}

/// Make `o` see the ops recorded on this thread (until `pop_record_observer`).
pub fn push_record_observer(o: RecordObserver) {
    RECORD_OBSERVERS.with(|s| s.borrow_mut().push(o));
    OBSERVED.fetch_add(1, Ordering::Relaxed);
}

/// Remove the innermost record observer.
pub fn pop_record_observer() {
    if RECORD_OBSERVERS.with(|s| s.borrow_mut().pop()).is_some() {
        OBSERVED.fetch_sub(1, Ordering::Relaxed);
    }
}

/// Record observers installed on any thread: while none is, recording skips the
/// thread-local lookup.
static OBSERVED: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// Show the op being recorded to the innermost observer (suspended while it runs, so the ops
/// it runs itself are not observed); its replacement values become the outputs' data.
fn observe_record(name: &str, outputs: &[&Tensor]) -> Result<()> {
    if OBSERVED.load(Ordering::Relaxed) == 0 {
        return Ok(());
    }
    let observers = RECORD_OBSERVERS.with(|s| if s.borrow().is_empty() { None } else { Some(std::mem::take(&mut *s.borrow_mut())) });
    let Some(observers) = observers else { return Ok(()) };
    let r = observers.last().map_or(Ok(None), |o| o(name, IN_PLACE.with(|c| c.get()), outputs));
    RECORD_OBSERVERS.with(|s| *s.borrow_mut() = observers);
    if let Some(values) = r? {
        crate::ensure!(values.len() == outputs.len(), Runtime, "selective checkpointing: {} cached outputs for {} outputs of {}", values.len(), outputs.len(), name);
        for (o, v) in outputs.iter().zip(&values) {
            crate::ensure!(o.shape() == v.shape() && o.dtype() == v.dtype(), Runtime,
                "selective checkpointing: the cached output of {} has shape {:?} and dtype {}, the recomputed one {:?} and {}",
                name, v.shape(), v.dtype().scalar_name(), o.shape(), o.dtype().scalar_name());
            o.set_data(v.data().clone());
        }
    }
    Ok(())
}

/// `record` with the edges already computed by `recording_edges`.
pub fn record_with(
    edges: Edges,
    name: &'static str,
    outputs: &[&Tensor],
    save: &[Save<'_>],
    f: impl Fn(&Saved<'_>, &[Tensor], &[bool]) -> Result<Vec<Option<Tensor>>> + Send + Sync + 'static,
) -> Result<()> {
    // integer and bool results never carry history (only floating tensors can require grad),
    // e.g. a float that requires grad written into an int tensor
    if outputs.iter().all(|o| {
        let d = o.dtype();
        !d.is_float() && !d.is_complex()
    }) {
        return Ok(());
    }
    observe_record(name, outputs)?;
    let mut saved = SavedList::with_capacity(save.len());
    for s in save {
        saved.push(match s {
            Save::In(t) => SavedTensor::input(t)?,
            Save::Out(i) => SavedTensor::output(outputs[*i], *i as u32, name)?,
        });
    }
    let meta: SmallVec<[InputMeta; 1]> = outputs
        .iter()
        .map(|t| InputMeta::of(t))
        .collect();
    // one allocation for the saved tensors and the formula together
    let node = if meta.iter().any(|m| m.dtype.is_complex()) && !AS_WRITTEN.with(|c| c.get()) {
        // a formula written as the complex chain rule `g · f'(z)` gives PyTorch's
        // conjugate-Wirtinger gradient as conj(formula(conj g)) (see `ops::complex`)
        let f = move |s: &Saved<'_>, g: &[Tensor], n: &[bool]| -> Result<Vec<Option<Tensor>>> {
            let gc = g.iter().map(crate::ops::complex::conj).collect::<Result<Vec<_>>>()?;
            f(s, &gc, n)?.into_iter().map(|r| r.map(|t| crate::ops::complex::conj(&t)).transpose()).collect()
        };
        Node::with_backward(Cow::Borrowed(name), edges, meta, FnBackward { saved: Mutex::new(saved), f })
    } else {
        Node::with_backward(Cow::Borrowed(name), edges, meta, FnBackward { saved: Mutex::new(saved), f })
    };
    for (i, o) in outputs.iter().enumerate() {
        o.set_grad_fn(Some(node.clone()), i as u32);
    }
    Ok(())
}
