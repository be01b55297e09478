//! The process's worker pool, shared by intra-op kernels and the backward engine.
//!
//! Built lazily on first use and rebuilt in a forked child (a forked process inherits no
//! threads, so a pool built before the fork would hang it). The size comes from
//! `set_num_threads`, else `FERROGRAD_NUM_THREADS`, `OMP_NUM_THREADS`, or the core count.

use rayon::ThreadPool;
use std::cell::UnsafeCell;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// A mutex for the crate's process-wide state that a fork cannot wedge. parking_lot parks
/// contended waiters in a process-wide table whose bucket locks a fork can catch in the middle
/// of an operation (a forked child then hangs on its first contended lock or on releasing a
/// lock a vanished thread was parked on). This lock is one atomic flag (spin, then yield): held
/// across a fork by `fork_hold` and released by `fork_release` with a plain store, it never
/// touches another thread's state.
pub struct ForkLock<T> {
    locked: AtomicBool,
    value: UnsafeCell<T>,
}

// SAFETY: the flag gives one thread at a time access to the value, as a mutex does.
unsafe impl<T: Send> Sync for ForkLock<T> {}
// SAFETY: moving the lock moves the value; no thread can hold a guard across the move.
unsafe impl<T: Send> Send for ForkLock<T> {}

/// Access to a `ForkLock`'s value; released on drop.
pub struct ForkGuard<'a, T> {
    lock: &'a ForkLock<T>,
}

impl<T> ForkLock<T> {
    pub const fn new(v: T) -> Self {
        ForkLock { locked: AtomicBool::new(false), value: UnsafeCell::new(v) }
    }
    pub fn lock(&self) -> ForkGuard<'_, T> {
        let mut spins = 0u32;
        while self.locked.compare_exchange_weak(false, true, Ordering::Acquire, Ordering::Relaxed).is_err() {
            spins += 1;
            if spins < 100 {
                std::hint::spin_loop();
            } else {
                std::thread::yield_now();
            }
        }
        ForkGuard { lock: self }
    }
    /// Take the lock for the duration of a fork (`fork_release` gives it back).
    pub fn fork_hold(&self) {
        std::mem::forget(self.lock());
    }
    /// Give back the lock taken by `fork_hold`.
    ///
    /// # Safety
    /// Only after `fork_hold` of the same fork, in the parent or the child.
    pub unsafe fn fork_release(&self) {
        self.locked.store(false, Ordering::Release);
    }
}

impl<T> std::ops::Deref for ForkGuard<'_, T> {
    type Target = T;
    fn deref(&self) -> &T {
        // SAFETY: the guard exists only while this thread holds the flag.
        unsafe { &*self.lock.value.get() }
    }
}

impl<T> std::ops::DerefMut for ForkGuard<'_, T> {
    fn deref_mut(&mut self) -> &mut T {
        // SAFETY: as in `deref`; `&mut self` makes the access unique.
        unsafe { &mut *self.lock.value.get() }
    }
}

impl<T> Drop for ForkGuard<'_, T> {
    fn drop(&mut self) {
        self.lock.locked.store(false, Ordering::Release);
    }
}

struct PoolState {
    pid: u32,
    threads: usize,
    pool: Option<Arc<ThreadPool>>,
}

static POOL: ForkLock<Option<PoolState>> = ForkLock::new(None);
static REQUESTED: ForkLock<Option<usize>> = ForkLock::new(None);

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
        REQUESTED.fork_hold();
        POOL.fork_hold();
        crate::cpu::team::fork_lock();
        // SAFETY: taking locks has no precondition.
        unsafe {
            crate::random::fork_lock(true);
            crate::cpu::alloc::fork_locks(true);
            crate::autograd::fork_lock_accumulation(true);
            crate::autograd::fork_lock_arena(true);
        }
    } else {
        // SAFETY: releasing what `fork_prepare` took in this same fork.
        unsafe {
            crate::autograd::fork_lock_arena(false);
            crate::autograd::fork_lock_accumulation(false);
            crate::cpu::alloc::fork_locks(false);
            crate::random::fork_lock(false);
            crate::cpu::team::fork_unlock();
            POOL.fork_release();
            REQUESTED.fork_release();
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
    // a forked child runs single-threaded until it asks for threads (`set_num_threads`), as
    // torch's DataLoader workers do: no worker pool, no contended lock in a process whose other
    // threads vanished mid-operation
    *REQUESTED.lock() = Some(1);
}
