//! The backward engine: a GraphTask counts dependencies over the reachable graph, seeds the
//! roots, and runs nodes as their inputs complete.
//!
//! Bookkeeping is dense: every reachable node gets a slot index at discovery, and dependency
//! counts, input buffers and flags are vectors indexed by that slot. Contributions to a
//! node's input are summed in a fixed order, never by arrival, so gradients do not depend on
//! scheduling: the seeds first, then by producer from the highest sequence number down (the
//! order PyTorch's single-threaded engine runs them, so rounding matches its sums bit for
//! bit, which float16 gradients show), then by the producer's output position.

use crate::autograd::NodeRef;
use super::{GradModeGuard, Node};
use crate::error::Result;
use crate::ops;
use crate::tensor::Tensor;
use crate::{bail, ensure};
use smallvec::SmallVec;
use std::collections::{BinaryHeap, HashMap};
use std::sync::Arc;

/// One call of `backward` or `autograd.grad`.
pub struct BackwardRequest {
    pub outputs: Vec<Tensor>,
    /// One gradient per output (already validated or implicitly created).
    pub grad_outputs: Vec<Tensor>,
    pub keep_graph: bool,
    pub create_graph: bool,
    /// Tensors whose gradients are wanted; `None` means every leaf reachable.
    pub inputs: Option<Vec<Tensor>>,
    /// Accumulate into `.grad` (backward) rather than return the gradients (grad).
    pub accumulate: bool,
}

fn key(n: &NodeRef) -> usize {
    NodeRef::as_ptr(n) as usize
}

/// A callback queued with `queue_callback`: run once the graph task's nodes are done.
pub type FinalCallback = Box<dyn FnOnce() -> Result<()> + Send>;

/// What hooks may ask about the backward pass they run in (torch's current GraphTask):
/// its id, whether a node will execute, and its final callbacks. Hooks that come from
/// Python always run on the thread that called backward, where this is installed.
pub struct TaskContext {
    pub id: u64,
    /// `backward` (accumulating into leaves) rather than `autograd.grad`.
    accumulate: bool,
    /// a plain `backward()` (no `inputs`, not `grad`): reentrant checkpoints may run
    checkpoint_valid: bool,
    index: Arc<NodeIndex>,
    needed: Arc<Vec<bool>>,
    callbacks: parking_lot::Mutex<Vec<FinalCallback>>,
}

static NEXT_TASK_ID: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

thread_local! {
    /// The graph tasks running on this thread, innermost last (a hook may call backward).
    static CURRENT: std::cell::RefCell<Vec<Arc<TaskContext>>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Pops the thread's current task when the backward call ends, however it ends.
struct TaskGuard;
impl Drop for TaskGuard {
    fn drop(&mut self) {
        CURRENT.with(|c| c.borrow_mut().pop());
    }
}

fn current_task() -> Option<Arc<TaskContext>> {
    CURRENT.with(|c| c.borrow().last().cloned())
}

/// The id of the backward pass running on this thread (torch's `_current_graph_task_id`).
pub fn current_graph_task_id() -> Option<u64> {
    current_task().map(|t| t.id)
}

/// Whether a reentrant checkpoint may recompute in the current backward pass (torch's
/// `_is_checkpoint_valid`): not under `autograd.grad` or `backward(inputs=...)`, whose
/// restricted graphs the inner backward could not honour; true outside a backward.
pub fn checkpoint_valid() -> bool {
    current_task().is_none_or(|t| t.checkpoint_valid)
}

/// Whether `node` will run in the current backward pass (torch's `_will_engine_execute_node`):
/// reachable from its roots and, for `grad`/`backward(inputs=)`, on a path to an input.
pub fn will_execute(node: &NodeRef) -> Result<bool> {
    let Some(t) = current_task() else {
        bail!(Runtime, "_will_engine_execute_node should only be called during the backward pass");
    };
    if !t.accumulate && node.is_accumulate_grad() {
        bail!(Runtime, "A leaf node was passed to _will_engine_execute_node but we are currently running autograd.grad(). This is currently not supported.");
    }
    Ok(t.index.get(&key(node)).is_some_and(|&i| t.needed[i]))
}

/// Queue `f` to run when the current backward pass has run all its nodes (torch's
/// `Variable._execution_engine.queue_callback`), on the thread that called backward.
pub fn queue_callback(f: FinalCallback) -> Result<()> {
    let Some(t) = current_task() else {
        bail!(Runtime, "Final callbacks can only be installed during backward pass.");
    };
    t.callbacks.lock().push(f);
    Ok(())
}

/// Run the task's final callbacks in order (a callback may queue more).
fn run_callbacks(t: &TaskContext) -> Result<()> {
    loop {
        let batch: Vec<FinalCallback> = std::mem::take(&mut *t.callbacks.lock());
        if batch.is_empty() {
            return Ok(());
        }
        for f in batch {
            f()?;
        }
    }
}

/// The gradients arriving at one input of a node, keyed by (producer slot, position): inline
/// for the usual single contribution.
type Contributions = SmallVec<[(u128, Tensor); 1]>;
/// A node's pending input gradients, one list per input (inline for one input).
type Parts = SmallVec<[Contributions; 1]>;

/// Hashes a node's address (already unique and well spread above its alignment) with one
/// multiplication instead of SipHash: the engine looks a node up once per edge.
#[derive(Default, Clone, Copy)]
pub struct PtrHasher(u64);

impl std::hash::Hasher for PtrHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(5) ^ b as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }
    fn write_usize(&mut self, n: usize) {
        self.0 = ((n as u64) >> 4).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

/// Node address -> dense slot of a graph task.
pub type NodeIndex = HashMap<usize, usize, std::hash::BuildHasherDefault<PtrHasher>>;

/// Sum the contributions to one input slot in a fixed order: added into the running sum's
/// buffer where nothing else can see it (a gradient a backward formula just made, no
/// history), else into a new tensor. The same values either way.
fn sum_contributions(mut parts: Contributions) -> Result<Option<Tensor>> {
    parts.sort_by_key(|p| p.0);
    let mut it = parts.into_iter();
    let Some((_, mut acc)) = it.next() else { return Ok(None) };
    for (_, t) in it {
        if acc.is_sole_owner() && !t.requires_grad() {
            let _g = GradModeGuard::new(false);
            if ops::binary_into_fast(&acc, &acc, &t, ops::BinOp::Add, None)? {
                continue;
            }
        }
        acc = ops::add(&acc, &t)?;
    }
    Ok(Some(acc))
}

thread_local! {
    static MULTITHREADING: std::cell::Cell<bool> = const { std::cell::Cell::new(true) };
}

/// `autograd.set_multithreading_enabled`: whether backward passes started on this thread may
/// run independent branches on the worker pool (off: every node runs on the calling thread).
pub fn set_multithreading_enabled(on: bool) {
    MULTITHREADING.with(|m| m.set(on));
}

/// Whether backward passes started on this thread may run branches in parallel.
pub fn multithreading_enabled() -> bool {
    MULTITHREADING.with(|m| m.get())
}

/// `Tensor.backward` / `autograd.backward`.
pub fn backward(req: BackwardRequest) -> Result<()> {
    run(req).map(|_| ())
}

/// `autograd.grad`: the gradients of the inputs (None where unreachable).
pub fn grad(req: BackwardRequest) -> Result<Vec<Option<Tensor>>> {
    run(req)
}

struct Ready {
    prio: u64,
    slot: usize,
}
impl PartialEq for Ready {
    fn eq(&self, o: &Self) -> bool {
        self.prio == o.prio && self.slot == o.slot
    }
}
impl Eq for Ready {}
impl PartialOrd for Ready {
    fn partial_cmp(&self, o: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for Ready {
    fn cmp(&self, o: &Self) -> std::cmp::Ordering {
        // Later nodes first (PyTorch runs the highest sequence number first); ties by slot.
        self.prio.cmp(&o.prio).then(o.slot.cmp(&self.slot))
    }
}

/// Nodes in the last graph a backward pass walked (the next pass's first guess).
static LAST_GRAPH_NODES: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

fn run(req: BackwardRequest) -> Result<Vec<Option<Tensor>>> {
    // ---- roots ----
    let mut root_edges = Vec::with_capacity(req.outputs.len());
    for (i, t) in req.outputs.iter().enumerate() {
        match t.gradient_edge() {
            Some(e) => root_edges.push(e),
            None => bail!(Runtime, "element {} of tensors does not require grad and does not have a grad_fn", i),
        }
    }
    // ---- discovery (iterative DFS) ----
    // sized for the previous graph: a training loop's graphs repeat, so the index is built
    // without rehashing
    let hint = LAST_GRAPH_NODES.load(std::sync::atomic::Ordering::Relaxed).min(1 << 20);
    let mut nodes: Vec<NodeRef> = Vec::with_capacity(hint);
    let mut index: NodeIndex = NodeIndex::with_capacity_and_hasher(hint, Default::default());
    let mut stack: Vec<NodeRef> = Vec::new();
    for e in &root_edges {
        if !index.contains_key(&key(&e.node)) {
            index.insert(key(&e.node), nodes.len());
            nodes.push(e.node.clone());
            stack.push(e.node.clone());
        }
    }
    let mut deps: Vec<u32> = Vec::new();
    while let Some(n) = stack.pop() {
        for e in n.next_edges.iter().flatten() {
            let k = key(&e.node);
            match index.get(&k) {
                Some(&i) => {
                    if deps.len() <= i {
                        deps.resize(i + 1, 0);
                    }
                    deps[i] += 1;
                }
                None => {
                    let i = nodes.len();
                    index.insert(k, i);
                    nodes.push(e.node.clone());
                    if deps.len() <= i {
                        deps.resize(i + 1, 0);
                    }
                    deps[i] += 1;
                    stack.push(e.node.clone());
                }
            }
        }
    }
    deps.resize(nodes.len(), 0);
    let n = nodes.len();
    LAST_GRAPH_NODES.store(n, std::sync::atomic::Ordering::Relaxed);

    // ---- targets (autograd.grad / backward(inputs=...)) ----
    let mut captured: Vec<Option<Tensor>> = Vec::new();
    let mut capture_at: Vec<Vec<(u32, usize)>> = vec![Vec::new(); n];
    let mut needed = vec![true; n];
    if let Some(inputs) = &req.inputs {
        captured = vec![None; inputs.len()];
        let mut is_target = vec![false; n];
        for (pos, t) in inputs.iter().enumerate() {
            let Some(e) = t.gradient_edge() else { continue };
            if let Some(&i) = index.get(&key(&e.node)) {
                capture_at[i].push((e.input_nr, pos));
                is_target[i] = true;
            }
        }
        // needed = on a path to a target: reverse topological sweep (Kahn order).
        let mut order = Vec::with_capacity(n);
        let mut d = deps.clone();
        let mut q: Vec<usize> = (0..n).filter(|&i| d[i] == 0).collect();
        while let Some(i) = q.pop() {
            order.push(i);
            for e in nodes[i].next_edges.iter().flatten() {
                let j = index[&key(&e.node)];
                d[j] -= 1;
                if d[j] == 0 {
                    q.push(j);
                }
            }
        }
        for &i in order.iter().rev() {
            needed[i] = is_target[i]
                || nodes[i].next_edges.iter().flatten().any(|e| needed[index[&key(&e.node)]]);
        }
    }

    let index = Arc::new(index);
    let needed = Arc::new(needed);
    let ctx = Arc::new(TaskContext {
        id: NEXT_TASK_ID.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
        accumulate: req.accumulate,
        checkpoint_valid: req.accumulate && req.inputs.is_none(),
        index: index.clone(),
        needed: needed.clone(),
        callbacks: parking_lot::Mutex::new(Vec::new()),
    });
    CURRENT.with(|c| c.borrow_mut().push(ctx.clone()));
    let _installed = TaskGuard;

    // ---- seed ----
    let mut buffers: Vec<Parts> =
        nodes.iter().map(|nd| smallvec::smallvec![Contributions::new(); nd.input_meta.len().max(1)]).collect();
    for (i, (e, g)) in root_edges.iter().zip(&req.grad_outputs).enumerate() {
        let s = index[&key(&e.node)];
        buffers[s][e.input_nr as usize].push((i as u128, g.clone()));
    }
    let mut ready = BinaryHeap::new();
    for i in 0..n {
        if deps[i] == 0 && needed[i] {
            ready.push(Ready { prio: nodes[i].seq_nr, slot: i });
        }
    }

    if crate::runtime::num_threads() > 1 && multithreading_enabled() && has_parallel_branches(&nodes, &index, &needed) {
        if let Some(pool) = crate::runtime::pool() {
            let task = GraphTask { nodes, index, needed, capture_at, req, fw_suspended: super::forward::is_suspended() };
            let captured = run_parallel(pool, task, deps, buffers, captured, ready.into_iter().map(|r| r.slot).collect())?;
            run_callbacks(&ctx)?;
            return Ok(captured);
        }
    }
    let _mode = GradModeGuard::new(req.create_graph);
    while let Some(Ready { slot, .. }) = ready.pop() {
        let parts = std::mem::take(&mut buffers[slot]);
        let caps = run_node(&nodes[slot], parts, &capture_at[slot], &req, &index, &mut |r| {
            let j = r.0;
            if deliver(slot, nodes[slot].seq_nr, r, &mut buffers, &mut deps, &needed) {
                ready.push(Ready { prio: nodes[j].seq_nr, slot: j });
            }
        })?;
        for (pos, g) in caps {
            captured[pos] = g;
        }
    }
    drop(_mode);
    run_callbacks(&ctx)?;
    Ok(captured)
}

/// One gradient a node produced, with its destination: (slot, input number, the producing
/// position, gradient).
type Routed = (usize, usize, usize, Option<Tensor>);

/// Run one node, shared by the sequential and the parallel path: sum its incoming
/// contributions in key order, evaluate it (a panic becomes an error), validate each
/// produced gradient against the input it flows into and hand it to `emit`.
fn run_node(
    node: &NodeRef,
    parts: Parts,
    capture_at: &[(u32, usize)],
    req: &BackwardRequest,
    index: &NodeIndex,
    emit: &mut dyn FnMut(Routed),
) -> Result<Captures> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| -> Result<_> {
        let mut inputs = Vec::with_capacity(parts.len());
        for p in parts {
            inputs.push(sum_contributions(p)?);
        }
        let (outputs, caps) = evaluate(node, inputs, capture_at, req)?;
        for (pos, (edge, g)) in node.next_edges.iter().zip(outputs).enumerate() {
            let Some(edge) = edge else { continue };
            let g = match g {
                Some(g) => Some(validate(node, pos, &edge.node, edge.input_nr as usize, g)?),
                None => None,
            };
            emit((index[&key(&edge.node)], edge.input_nr as usize, pos, g));
        }
        Ok(caps)
    }))
    .unwrap_or_else(|p| Err(crate::Error::Runtime(format!("a backward node ({}) panicked: {}", node.name, panic_message(p)))))
}

/// Put one routed gradient into its destination's buffer (keyed by producer and position,
/// so sums do not depend on arrival order); true when the destination became ready.
fn deliver(slot: usize, seq_nr: u64, (j, nr, pos, g): Routed, buffers: &mut [Parts], deps: &mut [u32], needed: &[bool]) -> bool {
    if let Some(g) = g {
        // after the seeds (keys below 2^64), later producers first, then slot and position
        let key = ((u64::MAX - seq_nr) as u128 + 1) << 64 | (slot as u128) << 16 | pos as u128;
        buffers[j][nr].push((key, g));
    }
    deps[j] -= 1;
    deps[j] == 0 && needed[j]
}

/// Whether some node feeds two or more branches that each continue past one node: only then
/// can work overlap. A chain, or an MLP whose only fan-out is into leaf accumulators and
/// `TBackward -> AccumulateGrad` stubs, runs sequentially (a hand-off would cost more).
fn has_parallel_branches(nodes: &[NodeRef], index: &NodeIndex, needed: &[bool]) -> bool {
    let substantial = |n: &NodeRef| {
        !n.is_accumulate_grad() && needed[index[&key(n)]] && n.next_edges.iter().flatten().any(|e| !e.node.is_accumulate_grad())
    };
    nodes.iter().any(|n| n.next_edges.iter().flatten().filter(|e| substantial(&e.node)).count() >= 2)
}

/// Whether a node must run on the thread that called backward: it calls into Python (a
/// custom Function) or has hooks (which come from Python in the bindings).
fn needs_caller(node: &Node) -> bool {
    if node.backward().is_some_and(|b| b.runs_on_calling_thread()) {
        return true;
    }
    {
        let h = node.hooks.lock();
        if !h.tensor_pre.is_empty() || !h.pre.is_empty() || !h.post.is_empty() {
            return true;
        }
    }
    node.leaf().is_some_and(|v| {
        let m = v.meta();
        let hooks = m.hooks.as_ref().is_some_and(|l| !l.lock().is_empty());
        let post = m.post_acc_hooks.as_ref().is_some_and(|l| !l.lock().is_empty());
        hooks || post
    })
}

/// The read-only part of a GraphTask, shared by the workers.
struct GraphTask {
    nodes: Vec<NodeRef>,
    index: Arc<NodeIndex>,
    needed: Arc<Vec<bool>>,
    capture_at: Vec<Vec<(u32, usize)>>,
    req: BackwardRequest,
    /// The caller's forward-AD suspension (a fallback's reverse pass), carried to the workers.
    fw_suspended: bool,
}

/// The mutable part, behind one lock that is never held while a node runs.
struct TaskState {
    deps: Vec<u32>,
    buffers: Vec<Parts>,
    captured: Vec<Option<Tensor>>,
    outstanding: usize,
    error: Option<crate::Error>,
}

enum Msg {
    /// Run this slot on the calling thread (it carries Python).
    Caller(usize),
    Done,
}

struct Shared {
    task: GraphTask,
    state: parking_lot::Mutex<TaskState>,
    tx: crossbeam_channel::Sender<Msg>,
    pool: Arc<rayon::ThreadPool>,
}

// Note [Parallel backward]
// Ready native nodes run on the worker pool; a worker that finishes a node continues inline
// with one of the nodes it made ready (no hand-off along a chain) and spawns the others.
// Nodes that carry Python go to the calling thread, which waits on a channel with the GIL
// released and runs them (attaching for each call). The task lock guards only counters and
// buffers; it is never held while a node runs, while entering rayon, or while attaching to
// Python. Sums are taken in key order, so the result does not depend on which thread ran what.
fn run_parallel(
    pool: Arc<rayon::ThreadPool>,
    task: GraphTask,
    deps: Vec<u32>,
    buffers: Vec<Parts>,
    captured: Vec<Option<Tensor>>,
    initial: Vec<usize>,
) -> Result<Vec<Option<Tensor>>> {
    let (tx, rx) = crossbeam_channel::unbounded();
    let outstanding = initial.len();
    let shared = Arc::new(Shared {
        task,
        state: parking_lot::Mutex::new(TaskState { deps, buffers, captured, outstanding, error: None }),
        tx,
        pool,
    });
    if outstanding > 0 {
        for slot in initial {
            dispatch(&shared, slot);
        }
        loop {
            match rx.recv() {
                Ok(Msg::Caller(slot)) => process(&shared, slot, true),
                Ok(Msg::Done) | Err(_) => break,
            }
        }
    }
    let mut st = shared.state.lock();
    if let Some(e) = st.error.take() {
        return Err(e);
    }
    Ok(std::mem::take(&mut st.captured))
}

fn dispatch(shared: &Arc<Shared>, slot: usize) {
    if needs_caller(&shared.task.nodes[slot]) {
        let _ = shared.tx.send(Msg::Caller(slot));
    } else {
        let s = shared.clone();
        shared.pool.spawn(move || process(&s, slot, false));
    }
}

fn panic_message(p: Box<dyn std::any::Any + Send>) -> String {
    p.downcast_ref::<&str>().map(|s| s.to_string()).or_else(|| p.downcast_ref::<String>().cloned()).unwrap_or_else(|| "unknown panic".into())
}

/// Run `slot`, then keep going inline with a successor that belongs on this thread.
fn process(shared: &Arc<Shared>, mut slot: usize, on_caller: bool) {
    let t = &shared.task;
    let _mode = GradModeGuard::new(t.req.create_graph);
    let _fw = super::forward::SuspendGuard::new(t.fw_suspended);
    loop {
        let parts = {
            let mut st = shared.state.lock();
            if st.error.is_some() {
                None
            } else {
                Some(std::mem::take(&mut st.buffers[slot]))
            }
        };
        let result = parts.map(|parts| {
            let mut routed: SmallVec<[Routed; 2]> = SmallVec::new();
            run_node(&t.nodes[slot], parts, &t.capture_at[slot], &t.req, &t.index, &mut |r| routed.push(r)).map(|caps| (routed, caps))
        });
        let mut ready: SmallVec<[usize; 2]> = SmallVec::new();
        let done = {
            let mut st = shared.state.lock();
            match result {
                None => {}
                Some(Err(e)) => {
                    if st.error.is_none() {
                        st.error = Some(e);
                    }
                }
                Some(Ok((routed, caps))) => {
                    for (pos, g) in caps {
                        st.captured[pos] = g;
                    }
                    let st = &mut *st;
                    for r in routed {
                        let j = r.0;
                        if deliver(slot, t.nodes[slot].seq_nr, r, &mut st.buffers, &mut st.deps, &t.needed) && st.error.is_none() {
                            ready.push(j);
                        }
                    }
                }
            }
            st.outstanding = st.outstanding + ready.len() - 1;
            st.outstanding == 0
        };
        if done {
            let _ = shared.tx.send(Msg::Done);
            return;
        }
        // continue inline with one successor that belongs on this thread; hand off the rest
        let pick = ready.iter().position(|&j| needs_caller(&t.nodes[j]) == on_caller);
        let next = pick.map(|i| ready.swap_remove(i));
        for j in ready {
            dispatch(shared, j);
        }
        match next {
            Some(j) => slot = j,
            None => return,
        }
    }
}

/// Run one node: hooks, captures, the backward formula (or leaf accumulation), post-hooks.
type Captures = Vec<(usize, Option<Tensor>)>;

/// `evaluate_node`, and in anomaly mode, on failure, PyTorch's warning naming the node and
/// the forward call that created it.
fn evaluate(node: &NodeRef, inputs: Vec<Option<Tensor>>, capture_at: &[(u32, usize)], req: &BackwardRequest) -> Result<(Vec<Option<Tensor>>, Captures)> {
    // as torch's profiler shows it: the engine's evaluate_function around the node itself
    let _prof_outer = crate::profiler::scope(|| format!("autograd::engine::evaluate_function: {}", node.name).into(), crate::profiler::EventKind::Backward);
    let _prof = crate::profiler::scope(|| node.name.clone(), crate::profiler::EventKind::Backward);
    let r = evaluate_node(node, inputs, capture_at, req);
    if r.is_err() && super::anomaly().0 {
        if let Some(trace) = &node.anomaly_trace {
            super::node::anomaly_warn(&format!("Error detected in {}. Traceback of forward call that caused the error:\n{}", node.name, trace));
        }
    }
    r
}

fn evaluate_node(
    node: &NodeRef,
    mut inputs: Vec<Option<Tensor>>,
    capture_at: &[(u32, usize)],
    req: &BackwardRequest,
) -> Result<(Vec<Option<Tensor>>, Captures)> {
    // Tensor pre-hooks: on a leaf they live on the tensor, otherwise on the node.
    let leaf = node.leaf();
    if let Some(var) = &leaf {
        let hooks = var.meta().leaf_hooks();
        for h in hooks {
            if let Some(g) = &inputs[0] {
                if let Some(new) = h.call(g)? {
                    super::check_hook_result(&*h, g, &new)?;
                    inputs[0] = Some(new);
                }
            }
        }
    }
    // one look at the node's hook table: most nodes have none, and then none of the hook
    // stages below take the lock again
    let (has_pre, has_post) = {
        let h = node.hooks.lock();
        (!(h.tensor_pre.is_empty() && h.pre.is_empty() && h.retain.is_empty()), !h.post.is_empty())
    };
    if leaf.is_none() && has_pre {
        let hooks: Vec<_> = node.hooks.lock().tensor_pre.iter().map(|(nr, _, h)| (*nr, h.clone())).collect();
        for (nr, h) in hooks {
            if let Some(g) = &inputs[nr as usize] {
                if let Some(new) = h.call(g)? {
                    super::check_hook_result(&*h, g, &new)?;
                    inputs[nr as usize] = Some(new);
                }
            }
        }
    }
    let pre: Vec<_> = if has_pre { node.hooks.lock().pre.iter().map(|h| h.1.clone()).collect() } else { Vec::new() };
    for h in pre {
        if let Some(new) = h.call(&inputs)? {
            inputs = new;
        }
    }
    // retain_grad runs after the tensor hooks, so it sees their result (PyTorch 2.x order).
    let retain: Vec<_> = if has_pre { node.hooks.lock().retain.clone() } else { Vec::new() };
    for (nr, w) in retain {
        // an output that is also a `backward(inputs=...)` target gets its .grad below, once
        if req.accumulate && capture_at.iter().any(|&(c, _)| c == nr) {
            continue;
        }
        if let (Some(t), Some(g)) = (w.upgrade(), &inputs[nr as usize]) {
            let t = Tensor(t);
            let new = match t.grad() {
                None => g.detach_copy()?,
                Some(old) => ops::add(&old, g)?,
            };
            t.set_grad(Some(new));
        }
    }
    let caps: Captures = capture_at.iter().map(|&(nr, pos)| (pos, inputs[nr as usize].clone())).collect();
    if node.is_accumulate_grad() {
        let Some(var) = leaf else { return Ok((Vec::new(), caps)) };
        let var = &var;
        let targeted = !capture_at.is_empty();
        if req.accumulate && (req.inputs.is_none() || targeted) {
            if let Some(g) = inputs.into_iter().next().flatten() {
                accumulate_grad(var, g, req.create_graph)?;
            }
        }
        return Ok((Vec::new(), caps));
    }
    if req.accumulate && !capture_at.is_empty() {
        // backward(inputs=[non_leaf]): accumulate into its .grad.
        for &(nr, pos) in capture_at {
            if let (Some(g), Some(t)) = (&inputs[nr as usize], req.inputs.as_ref().map(|v| &v[pos])) {
                accumulate_grad(t, g.clone(), req.create_graph)?;
            }
        }
    }
    let bw = node.backward().expect("invariant: only AccumulateGrad has no backward");
    if bw.materialize_grads() {
        for (i, g) in inputs.iter_mut().enumerate() {
            if g.is_none() {
                let m = &node.input_meta[i];
                *g = Some(m.zeros()?);
            }
        }
    }
    let needs: SmallVec<[bool; 4]> = node.next_edges.iter().map(|e| e.is_some()).collect();
    let grad_outputs = if has_post { inputs.clone() } else { Vec::new() };
    let (anomaly, check_nan) = super::anomaly();
    let mut outputs = bw.apply(node, inputs, &needs)?;
    if anomaly && check_nan {
        for (i, g) in outputs.iter().enumerate() {
            let Some(g) = g else { continue };
            if non_finite(g) {
                let kind = if g.to_f64_vec().unwrap_or_default().iter().any(|v| v.is_nan()) { "nan" } else { "inf" };
                bail!(Runtime, "Function '{}' returned {} values in its {}th output.", node.name, kind, i);
            }
        }
    }
    ensure!(outputs.len() == node.next_edges.len(), Runtime,
        "function {} returned an incorrect number of gradients (expected {}, got {})",
        node.name, node.next_edges.len(), outputs.len());
    let post: Vec<_> = node.hooks.lock().post.iter().map(|h| h.1.clone()).collect();
    for h in post {
        if let Some(new) = h.call(&outputs, &grad_outputs)? {
            outputs = new;
        }
    }
    if !req.keep_graph {
        node.release();
    }
    Ok((outputs, caps))
}

/// Check (and where PyTorch does, fix) a gradient against the input it flows into.
fn validate(node: &Node, pos: usize, next: &Node, input_nr: usize, g: Tensor) -> Result<Tensor> {
    let m = &next.input_meta[input_nr];
    let mut g = g;
    if g.shape() != m.shape {
        match ops::sum_to(&g, &m.shape) {
            Ok(s) => g = s,
            Err(_) => bail!(Runtime, "Function {} returned an invalid gradient at index {} - got {} but expected shape compatible with {}",
                node.name, pos, crate::shape::fmt_list(&g.shape()), crate::shape::fmt_list(&m.shape)),
        }
    }
    if g.dtype() != m.dtype {
        g = ops::to_dtype(&g, m.dtype)?;
    }
    Ok(g)
}

/// Write a gradient into a leaf's `.grad` (PyTorch's AccumulateGrad), then run its
/// post-accumulate hooks.
fn accumulate_grad(var: &Tensor, g: Tensor, create_graph: bool) -> Result<()> {
    {
        // `.grad` is read, summed and written as one step per leaf: backward calls from
        // several threads into a shared leaf must not lose a contribution (striped locks, so
        // leaves need no lock field of their own and unrelated leaves rarely contend)
        let _acc = accumulation_lock(var).lock();
        accumulate_locked(var, g, create_graph)?;
    }
    let hooks = var.meta().post_hooks();
    for h in hooks {
        h.call(var)?;
    }
    Ok(())
}

static ACC_LOCKS: [crate::runtime::ForkLock<()>; 64] = [const { crate::runtime::ForkLock::new(()) }; 64];

/// The lock that serialises gradient accumulation into `var`.
fn accumulation_lock(var: &Tensor) -> &'static crate::runtime::ForkLock<()> {
    &ACC_LOCKS[(std::sync::Arc::as_ptr(&var.0) as usize >> 6) % ACC_LOCKS.len()]
}

/// Hold (`lock`) or release every accumulation lock around a fork.
///
/// # Safety
/// Release only what a matching lock call took.
pub(crate) unsafe fn fork_lock_accumulation(lock: bool) {
    for l in &ACC_LOCKS {
        if lock {
            l.fork_hold();
        } else {
            // SAFETY: forwarded from the caller: taken by the matching call of this fork.
            unsafe { l.fork_release() };
        }
    }
}

fn accumulate_locked(var: &Tensor, g: Tensor, create_graph: bool) -> Result<()> {
    match var.grad() {
        None => {
            let new = if create_graph && g.requires_grad() {
                // matches torch: the grad is a fresh copy of the incoming one (CopyBackwards)
                ops::copy_from(&crate::tensor::zeros_on(&g.shape(), g.dtype(), g.device())?, &g)?
            } else {
                g.detach_copy_if_shared()?
            };
            var.set_grad(Some(new));
        }
        Some(old) => {
            if create_graph {
                var.set_grad(Some(ops::add(&old, &g)?));
            } else {
                let _g = GradModeGuard::new(false);
                ops::add_inplace_raw(&old, &g)?;
            }
        }
    }
    Ok(())
}

/// Memory held by the graph behind a tensor.
pub struct GraphReport {
    /// Live nodes reachable from the tensor's grad_fn.
    pub nodes: usize,
    /// Bytes of distinct storages kept alive by saved tensors.
    pub total_bytes: usize,
    /// (node name, sequence number, bytes of its saved tensors).
    pub per_node: Vec<(String, u64, usize)>,
}

/// Walk the graph behind `t` (iteratively) and report saved-tensor memory.
pub fn graph_report(t: &Tensor) -> GraphReport {
    let mut seen: HashMap<usize, ()> = HashMap::new();
    let mut storages: HashMap<usize, usize> = HashMap::new();
    let mut per_node = Vec::new();
    let mut stack: Vec<NodeRef> = t.grad_fn().into_iter().collect();
    while let Some(n) = stack.pop() {
        if seen.insert(key(&n), ()).is_some() {
            continue;
        }
        let saved = n.backward().map(|b| b.saved()).unwrap_or_default();
        let bytes: usize = saved.iter().map(|s| s.1).sum();
        for (k, b) in saved {
            storages.insert(k, b);
        }
        per_node.push((n.name.to_string(), n.seq_nr, bytes));
        for e in n.next_edges.iter().flatten() {
            stack.push(e.node.clone());
        }
    }
    GraphReport { nodes: per_node.len(), total_bytes: storages.values().sum(), per_node }
}

fn non_finite(t: &Tensor) -> bool {
    t.dtype().is_float() && t.to_f64_vec().map(|v| v.iter().any(|v| !v.is_finite())).unwrap_or(false)
}
