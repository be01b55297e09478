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
    install_fork_handlers();
    let pid = std::process::id();
    let mut g = POOL.lock();
    if let Some(s) = g.as_ref() {
        if s.pid == pid && s.threads == n {
            return s.pool.clone();
        }
        if s.pid != pid {
            // a pool inherited through fork has no threads here: leak it rather than run its
            // teardown against a registry whose workers never existed in this process
            if let Some(old) = g.take() {
                std::mem::forget(old);
            }
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

/// Register the fork handlers once: before a fork every process-wide lock of the crate is
/// taken (so no other thread is inside one), after it they are released in the parent and
/// the child. A child thus never inherits a lock held by a thread that does not exist there.
pub fn install_fork_handlers() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        // SAFETY: the three handlers are `extern "C"` functions with no arguments that never
        // unwind; registering them has no other precondition.
        unsafe {
            libc::pthread_atfork(Some(fork_prepare), Some(fork_parent), Some(fork_child));
        }
    });
}

/// The crate's process-wide locks, in one fixed order (taken in it, released in reverse).
/// SAFETY (for the callers below): each release matches the take of the same fork.
unsafe fn fork_locks(lock: bool) {
    if lock {
        std::mem::forget(REQUESTED.lock());
        std::mem::forget(POOL.lock());
        // SAFETY: taking locks has no precondition.
        unsafe {
            crate::random::fork_lock(true);
            crate::cpu::alloc::fork_locks(true);
            crate::autograd::fork_lock_accumulation(true);
        }
    } else {
        // SAFETY: releasing what `fork_prepare` took in this same fork.
        unsafe {
            crate::autograd::fork_lock_accumulation(false);
            crate::cpu::alloc::fork_locks(false);
            crate::random::fork_lock(false);
            POOL.force_unlock();
            REQUESTED.force_unlock();
        }
    }
}

extern "C" fn fork_prepare() {
    // SAFETY: a take; the matching release runs in `fork_parent`/`fork_child`.
    unsafe { fork_locks(true) }
}

extern "C" fn fork_parent() {
    // SAFETY: releases what `fork_prepare` took before this fork.
    unsafe { fork_locks(false) }
}

extern "C" fn fork_child() {
    // SAFETY: the child has only the forking thread, which took these locks in
    // `fork_prepare`; releasing them here is the matching release.
    unsafe { fork_locks(false) }
}
