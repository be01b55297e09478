//! The CPU profiler behind `torch.autograd.profiler` / `torch.profiler`: kernels of the
//! backend seam (`aten::add`, `aten::mm`, ...), backward nodes (`MulBackward0`) and user
//! ranges (`record_function`) become timed events. Off (the default) a recording site costs
//! one relaxed atomic load; on, it costs two clock reads and a push into a per-thread buffer
//! (no lock shared between threads while recording).

use std::borrow::Cow;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Instant;

static ENABLED: AtomicBool = AtomicBool::new(false);
/// Bumped by every `start`: buffers of an earlier session are dropped, not mixed in.
static SESSION: AtomicU64 = AtomicU64::new(0);
static NEXT_THREAD: AtomicU64 = AtomicU64::new(1);

/// What an event measured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EventKind {
    /// A kernel of the backend seam (a forward or backward computation).
    Op,
    /// A backward node run by the engine.
    Backward,
    /// A user range (`record_function`).
    User,
}

/// One timed event; times in nanoseconds since the profiler's epoch.
#[derive(Clone, Debug)]
pub struct Event {
    pub name: Cow<'static, str>,
    pub kind: EventKind,
    /// A small id of the thread that ran it (1 for the first thread seen).
    pub thread: u64,
    pub start_ns: u64,
    pub end_ns: u64,
    /// Input shapes, when shapes are recorded.
    pub shapes: Vec<Vec<usize>>,
}

type Buffer = Arc<Mutex<(u64, Vec<Event>)>>;

fn registry() -> &'static Mutex<Vec<Buffer>> {
    static R: OnceLock<Mutex<Vec<Buffer>>> = OnceLock::new();
    R.get_or_init(|| Mutex::new(Vec::new()))
}

fn epoch() -> Instant {
    static E: OnceLock<Instant> = OnceLock::new();
    *E.get_or_init(Instant::now)
}

static RECORD_SHAPES: AtomicBool = AtomicBool::new(false);

thread_local! {
    /// This thread's buffer (registered once) and its small id.
    static LOCAL: (Buffer, u64) = {
        let b: Buffer = Arc::new(Mutex::new((0, Vec::new())));
        if let Ok(mut r) = registry().lock() {
            r.push(b.clone());
        }
        (b, NEXT_THREAD.fetch_add(1, Ordering::Relaxed))
    };
}

/// Whether the profiler is recording.
#[inline(always)]
pub fn enabled() -> bool {
    ENABLED.load(Ordering::Relaxed)
}

/// Whether input shapes are recorded with each event.
pub fn record_shapes() -> bool {
    RECORD_SHAPES.load(Ordering::Relaxed)
}

fn now_ns() -> u64 {
    epoch().elapsed().as_nanos() as u64
}

/// Start recording (a new session: earlier events are discarded).
pub fn start(record_shapes: bool) {
    epoch();
    SESSION.fetch_add(1, Ordering::SeqCst);
    RECORD_SHAPES.store(record_shapes, Ordering::Relaxed);
    ENABLED.store(true, Ordering::SeqCst);
}

/// Stop recording and return the session's events, ordered by start time.
pub fn stop() -> Vec<Event> {
    ENABLED.store(false, Ordering::SeqCst);
    let session = SESSION.load(Ordering::SeqCst);
    let mut out = Vec::new();
    if let Ok(r) = registry().lock() {
        for b in r.iter() {
            if let Ok(mut g) = b.lock() {
                if g.0 == session {
                    out.append(&mut g.1);
                } else {
                    g.1.clear();
                }
            }
        }
    }
    out.sort_by_key(|e| (e.start_ns, std::cmp::Reverse(e.end_ns)));
    out
}

fn push(e: Event) {
    let session = SESSION.load(Ordering::Relaxed);
    let _ = LOCAL.try_with(|(b, _)| {
        if let Ok(mut g) = b.lock() {
            if g.0 != session {
                g.0 = session;
                g.1.clear();
            }
            g.1.push(e);
        }
    });
}

fn thread_id() -> u64 {
    LOCAL.try_with(|(_, id)| *id).unwrap_or(0)
}

/// A running event: recorded when dropped.
pub struct Scope {
    name: Cow<'static, str>,
    kind: EventKind,
    start_ns: u64,
    shapes: Vec<Vec<usize>>,
}

impl Drop for Scope {
    fn drop(&mut self) {
        let end_ns = now_ns();
        push(Event { name: std::mem::take(&mut self.name), kind: self.kind, thread: thread_id(), start_ns: self.start_ns, end_ns, shapes: std::mem::take(&mut self.shapes) });
    }
}

/// Time the rest of the enclosing block as `name` (None, at the cost of one atomic load,
/// when the profiler is off).
#[inline(always)]
pub fn scope(name: impl FnOnce() -> Cow<'static, str>, kind: EventKind) -> Option<Scope> {
    if !enabled() {
        return None;
    }
    Some(Scope { name: name(), kind, start_ns: now_ns(), shapes: Vec::new() })
}

/// `scope` with the input shapes (recorded only when shapes are asked for).
#[inline(always)]
pub fn scope_shapes(name: impl FnOnce() -> Cow<'static, str>, kind: EventKind, shapes: impl FnOnce() -> Vec<Vec<usize>>) -> Option<Scope> {
    if !enabled() {
        return None;
    }
    let shapes = if record_shapes() { shapes() } else { Vec::new() };
    Some(Scope { name: name(), kind, start_ns: now_ns(), shapes })
}

/// Open user ranges (`record_function`), by id, so Python can close them out of order.
fn ranges() -> &'static Mutex<std::collections::HashMap<u64, Scope>> {
    static R: OnceLock<Mutex<std::collections::HashMap<u64, Scope>>> = OnceLock::new();
    R.get_or_init(|| Mutex::new(std::collections::HashMap::new()))
}

static NEXT_RANGE: AtomicU64 = AtomicU64::new(1);

/// Begin a user range; the id closes it (0 when the profiler is off: nothing to close).
pub fn range_begin(name: String) -> u64 {
    let Some(s) = scope(|| Cow::Owned(name), EventKind::User) else { return 0 };
    let id = NEXT_RANGE.fetch_add(1, Ordering::Relaxed);
    if let Ok(mut r) = ranges().lock() {
        r.insert(id, s);
    }
    id
}

/// End the user range `id` (recorded on the thread that ends it).
pub fn range_end(id: u64) {
    if id == 0 {
        return;
    }
    let s = ranges().lock().ok().and_then(|mut r| r.remove(&id));
    drop(s);
}
