//! The process's worker pool, shared by intra-op kernels and the backward engine.
//!
//! Built lazily on first use and rebuilt in a forked child (a forked process inherits no
//! threads, so a pool built before the fork would hang it). The size comes from
//! `set_num_threads`, else `FERROGRAD_NUM_THREADS`, `OMP_NUM_THREADS`, or the core count.

use parking_lot::Mutex;
use rayon::ThreadPool;
use std::sync::Arc;

struct PoolState {
    pid: u32,
    threads: usize,
    pool: Option<Arc<ThreadPool>>,
}

static POOL: Mutex<Option<PoolState>> = Mutex::new(None);
static REQUESTED: Mutex<Option<usize>> = Mutex::new(None);

fn default_threads() -> usize {
    for var in ["FERROGRAD_NUM_THREADS", "OMP_NUM_THREADS"] {
        if let Some(n) = std::env::var(var).ok().and_then(|v| v.trim().parse::<usize>().ok()) {
            if n > 0 {
                return n;
            }
        }
    }
    std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1)
}

/// Set the number of threads (takes effect for the next parallel region).
pub fn set_num_threads(n: usize) {
    // the pool is kept when going single-threaded (it is simply not used), and rebuilt only
    // for a different multi-thread count: fresh workers start cold (no packing buffers)
    *REQUESTED.lock() = Some(n.max(1));
}

/// The number of threads parallel regions use.
pub fn num_threads() -> usize {
    REQUESTED.lock().unwrap_or_else(default_threads)
}

/// The pool, or None when running single-threaded.
pub fn pool() -> Option<Arc<ThreadPool>> {
    let n = num_threads();
    if n <= 1 {
        return None;
    }
    let pid = std::process::id();
    let mut g = POOL.lock();
    if let Some(s) = g.as_ref() {
        if s.pid == pid && s.threads == n {
            return s.pool.clone();
        }
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(n)
        .thread_name(|i| format!("ferrograd-{i}"))
        .build()
        .ok()
        .map(Arc::new);
    *g = Some(PoolState { pid, threads: n, pool: pool.clone() });
    pool
}

/// Run `f` inside the pool (so rayon calls in it use our threads); inline when
/// single-threaded or already on one of our workers.
pub fn install<R: Send>(f: impl FnOnce() -> R + Send) -> R {
    if rayon::current_thread_index().is_some() {
        return f();
    }
    match pool() {
        Some(p) => p.install(f),
        None => f(),
    }
}
