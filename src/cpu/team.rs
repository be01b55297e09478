//! A spinning fork-join team for short parallel regions.
//!
//! Rayon parks idle workers, and a caller outside the pool blocks on a latch: a region
//! costs two cross-core wake-ups, 12-25 µs each on a cloud guest (an inter-processor
//! interrupt is a VM exit). That is 10-15% of a 256×256 matmul and more than the whole of
//! the mid-size products of an MLP step. The team instead keeps `threads - 1` helpers that
//! spin for a while after each region (as OpenMP's runtime does, which is what PyTorch runs
//! on), and the calling thread takes a share of the work itself, so a region costs a few
//! atomic operations (~0.2 µs measured) while the helpers are warm.
//!
//! A helper spins with `spin_loop` briefly, then with `yield_now` (so any other runnable
//! thread gets the core) until `SPIN` has passed, then parks; the next region unparks it.
//! One region runs at a time: a second caller (another Python thread, or a part that itself
//! asks for a region) runs its parts through rayon or inline instead of waiting.

use std::any::Any;
use std::cell::{Cell, UnsafeCell};
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::runtime::ForkLock;

/// How long an idle helper stays awake for the next region.
const SPIN: Duration = Duration::from_micros(300);

/// One region: `f(i)` for every `i < parts`. `f` is lifetime-erased; it is only called
/// while the `run` that published it waits for every helper's acknowledgement.
struct Job {
    f: *const (dyn Fn(usize) + Sync + 'static),
    parts: usize,
}

struct Team {
    pid: u32,
    threads: usize,
    helpers: Vec<std::thread::Thread>,
    /// Set while a region runs (one owner at a time).
    busy: AtomicBool,
    /// Bumped once per region; helpers run a region when they see it change.
    epoch: AtomicU64,
    job: UnsafeCell<Job>,
    next: AtomicUsize,
    /// Helpers done with the current region.
    acks: AtomicUsize,
    sleeping: Vec<AtomicBool>,
    /// Each helper's kernel thread id and the CPU it last ran on (Linux; -1 when unknown).
    tids: Vec<AtomicI32>,
    cpus: Vec<AtomicI32>,
    shutdown: AtomicBool,
    panic: Mutex<Option<Box<dyn Any + Send>>>,
}

// SAFETY: `job` is written only by the owner of `busy`, before it bumps `epoch` (Release) and
// after every helper has acknowledged the previous region (Acquire); helpers read it only
// between seeing a new epoch (Acquire) and acknowledging. The raw `f` it holds is a `Sync`
// closure that outlives the region (see `run`).
unsafe impl Sync for Team {}
// SAFETY: as above; the team is shared with its helper threads through an `Arc`.
unsafe impl Send for Team {}

/// A raw pointer handed to the parts of a region, each of which touches its own disjoint
/// elements (the caller's SAFETY comment says which).
pub(crate) struct SendPtr<T>(pub *mut T);
impl<T> Clone for SendPtr<T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for SendPtr<T> {}
// SAFETY: only used to hand disjoint ranges of one buffer to the parts of a region, which
// ends before the buffer's borrow does.
unsafe impl<T> Sync for SendPtr<T> {}
// SAFETY: as above.
unsafe impl<T> Send for SendPtr<T> {}
impl<T> SendPtr<T> {
    pub(crate) fn get(self) -> *mut T {
        self.0
    }
}

static TEAM: ForkLock<Option<Arc<Team>>> = ForkLock::new(None);

thread_local! {
    /// True on helper threads and on a thread that owns a region (nested regions run inline).
    static IN_TEAM: Cell<bool> = const { Cell::new(false) };
}

fn run_part(team: &Team, f: &(dyn Fn(usize) + Sync), i: usize) {
    if let Err(p) = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| f(i))) {
        let mut slot = team.panic.lock().unwrap_or_else(|e| e.into_inner());
        slot.get_or_insert(p);
    }
}

fn claim_all(team: &Team, f: &(dyn Fn(usize) + Sync), parts: usize) {
    loop {
        let i = team.next.fetch_add(1, Ordering::AcqRel);
        if i >= parts {
            return;
        }
        run_part(team, f, i);
    }
}

fn helper_loop(team: Arc<Team>, h: usize) {
    IN_TEAM.with(|c| c.set(true));
    // epochs start at 0: a region published before this thread got here is still seen
    let mut seen = 0;
    let placement = placement::Helper::new(&team.tids[h]);
    loop {
        let start = Instant::now();
        let mut spins = 0u32;
        loop {
            if spins % 256 == 0 {
                team.cpus[h].store(placement::current_cpu(), Ordering::Relaxed);
            }
            if team.shutdown.load(Ordering::Acquire) {
                return;
            }
            let e = team.epoch.load(Ordering::Acquire);
            if e != seen {
                seen = e;
                break;
            }
            spins = spins.wrapping_add(1);
            if spins < 4096 {
                std::hint::spin_loop();
            } else if start.elapsed() < SPIN {
                std::thread::yield_now();
            } else {
                // announce the sleep, then look once more: the owner bumps `epoch` before it
                // reads `sleeping` (both SeqCst), so either we see the region or it unparks us
                // (an unpark before the park makes the park return at once)
                team.sleeping[h].store(true, Ordering::SeqCst);
                if team.epoch.load(Ordering::SeqCst) == seen && !team.shutdown.load(Ordering::SeqCst) {
                    std::thread::park();
                }
                team.sleeping[h].store(false, Ordering::SeqCst);
                spins = 0;
            }
        }
        // SAFETY: a new epoch was seen (Acquire), so the owner finished writing `job` and waits
        // for this helper's acknowledgement before it returns or writes `job` again.
        let job = unsafe { &*team.job.get() };
        // SAFETY: `f` points to the owner's closure, alive until our acknowledgement below.
        let f = unsafe { &*job.f };
        claim_all(&team, f, job.parts);
        team.acks.fetch_add(1, Ordering::AcqRel);
        placement.restore();
    }
}

fn noop(_: usize) {}
static NOOP: fn(usize) = noop;

fn build(threads: usize) -> Option<Arc<Team>> {
    let n = threads - 1;
    let mut team = Team {
        pid: std::process::id(),
        threads,
        helpers: Vec::with_capacity(n),
        busy: AtomicBool::new(false),
        epoch: AtomicU64::new(0),
        job: UnsafeCell::new(Job { f: &NOOP, parts: 0 }),
        next: AtomicUsize::new(0),
        acks: AtomicUsize::new(0),
        sleeping: (0..n).map(|_| AtomicBool::new(false)).collect(),
        tids: (0..n).map(|_| AtomicI32::new(-1)).collect(),
        cpus: (0..n).map(|_| AtomicI32::new(-1)).collect(),
        shutdown: AtomicBool::new(false),
        panic: Mutex::new(None),
    };
    // the helpers need the Arc, and the Arc needs their handles: start them parked on a
    // channel that hands them the finished team
    let mut senders = Vec::with_capacity(n);
    for h in 0..n {
        let (tx, rx) = std::sync::mpsc::channel::<Arc<Team>>();
        let handle = std::thread::Builder::new()
            .name(format!("ferrograd-team-{h}"))
            .spawn(move || {
                if let Ok(t) = rx.recv() {
                    helper_loop(t, h)
                }
            })
            .ok()?;
        team.helpers.push(handle.thread().clone());
        senders.push(tx);
    }
    let team = Arc::new(team);
    for tx in senders {
        let _ = tx.send(team.clone());
    }
    Some(team)
}

/// The team for `threads` threads in this process (rebuilt after a fork or a thread-count
/// change; an outdated team's helpers are told to exit).
fn team(threads: usize) -> Option<Arc<Team>> {
    crate::runtime::install_fork_handlers();
    let pid = std::process::id();
    let mut g = TEAM.lock();
    if let Some(t) = g.as_ref() {
        if t.pid == pid && t.threads == threads {
            return Some(t.clone());
        }
        if t.pid == pid {
            // take the region slot for good (waiting out a region in flight), so no region
            // can start on a team whose helpers are leaving
            while t.busy.compare_exchange(false, true, Ordering::Acquire, Ordering::Relaxed).is_err() {
                std::thread::yield_now();
            }
            t.shutdown.store(true, Ordering::SeqCst);
            for h in &t.helpers {
                h.unpark();
            }
        } else {
            // inherited through fork: its helpers do not exist here; leak it untouched
            std::mem::forget(g.take());
        }
    }
    *g = build(threads);
    g.clone()
}

/// Run `f(0), ..., f(parts - 1)` on up to `runtime::num_threads()` threads, the calling
/// thread included, and return when all are done. A panic in any part is re-raised here
/// after every part has finished.
pub fn run(parts: usize, f: &(dyn Fn(usize) + Sync)) {
    let threads = crate::runtime::num_threads();
    if parts <= 1 || threads <= 1 || IN_TEAM.with(|c| c.get()) {
        (0..parts).for_each(f);
        return;
    }
    let Some(team) = team(threads) else {
        return fallback(parts, f);
    };
    if team.busy.compare_exchange(false, true, Ordering::Acquire, Ordering::Relaxed).is_err() {
        return fallback(parts, f);
    }
    // SAFETY: erasing the closure's lifetime is sound because this function does not return
    // (not even by unwinding: parts run under catch_unwind) before every helper has
    // acknowledged the region, after which no helper touches `f`.
    let erased: *const (dyn Fn(usize) + Sync + 'static) = unsafe { std::mem::transmute(f as *const (dyn Fn(usize) + Sync)) };
    // SAFETY: we own `busy`, and every helper acknowledged the previous region, so no helper
    // reads `job` now.
    unsafe { *team.job.get() = Job { f: erased, parts } };
    team.next.store(0, Ordering::Relaxed);
    team.acks.store(0, Ordering::Relaxed);
    team.epoch.fetch_add(1, Ordering::SeqCst);
    let me = placement::current_cpu();
    for (h, t) in team.helpers.iter().enumerate() {
        if team.sleeping[h].load(Ordering::SeqCst) {
            t.unpark();
        } else if me >= 0 && team.cpus[h].load(Ordering::Relaxed) == me {
            // a spinning helper never sleeps, so the scheduler never moves it off our CPU by
            // itself (it lands there when another process's thread keeps the other CPU busy,
            // e.g. a BLAS thread spinning after a numpy call); the two would then take turns
            placement::move_off(team.tids[h].load(Ordering::Relaxed), me);
        }
    }
    IN_TEAM.with(|c| c.set(true));
    claim_all(&team, f, parts);
    IN_TEAM.with(|c| c.set(false));
    let mut spins = 0u32;
    while team.acks.load(Ordering::Acquire) < team.helpers.len() {
        spins = spins.wrapping_add(1);
        if spins < 4096 {
            std::hint::spin_loop();
        } else {
            std::thread::yield_now();
        }
    }
    let p = team.panic.lock().unwrap_or_else(|e| e.into_inner()).take();
    team.busy.store(false, Ordering::Release);
    if let Some(p) = p {
        std::panic::resume_unwind(p);
    }
}

/// `f(range)` over `0..items` cut into a few contiguous blocks per thread, claimed like the
/// parts of `run`. Streaming kernels want long sequential runs per thread (hardware
/// prefetch, DRAM pages): one claim per 64 KiB chunk interleaves the threads' accesses and
/// cost a 16M-element sum half its two-thread bandwidth.
pub fn run_blocks(items: usize, f: &(dyn Fn(std::ops::Range<usize>) + Sync)) {
    let parts = items.min(crate::runtime::num_threads() * 4).max(1);
    run(parts, &|p| f(p * items / parts..(p + 1) * items / parts));
}

/// Another region is running: use the rayon pool (or run inline on one of its workers).
fn fallback(parts: usize, f: &(dyn Fn(usize) + Sync)) {
    use rayon::prelude::*;
    crate::runtime::install(|| (0..parts).into_par_iter().for_each(f));
}

/// Keeping a helper off the owner's CPU (Linux; elsewhere these do nothing).
mod placement {
    #[cfg(target_os = "linux")]
    pub fn current_cpu() -> i32 {
        // SAFETY: no arguments, no memory touched; -1 on failure.
        unsafe { libc::sched_getcpu() }
    }

    #[cfg(not(target_os = "linux"))]
    pub fn current_cpu() -> i32 {
        -1
    }

    /// Move thread `tid` off CPU `cpu` by narrowing its affinity mask (the helper widens it
    /// again after the region, which does not move it back).
    #[cfg(target_os = "linux")]
    pub fn move_off(tid: i32, cpu: i32) {
        if tid <= 0 || cpu < 0 || cpu as usize >= libc::CPU_SETSIZE as usize {
            return;
        }
        // SAFETY: `set` is a plain bitmask owned by this frame; the calls only read/write it
        // and the target thread's scheduling attributes (failures are ignored: a cpuset may
        // forbid the change, which only costs speed).
        unsafe {
            let mut set: libc::cpu_set_t = std::mem::zeroed();
            if libc::sched_getaffinity(tid, std::mem::size_of::<libc::cpu_set_t>(), &mut set) != 0 {
                return;
            }
            libc::CPU_CLR(cpu as usize, &mut set);
            if libc::CPU_COUNT(&set) > 0 {
                libc::sched_setaffinity(tid, std::mem::size_of::<libc::cpu_set_t>(), &set);
            }
        }
    }

    #[cfg(not(target_os = "linux"))]
    pub fn move_off(_tid: i32, _cpu: i32) {}

    /// A helper's original affinity, put back after a region in which it was moved.
    pub struct Helper {
        #[cfg(target_os = "linux")]
        original: Option<libc::cpu_set_t>,
    }

    impl Helper {
        #[cfg(target_os = "linux")]
        pub fn new(tid_slot: &std::sync::atomic::AtomicI32) -> Helper {
            // SAFETY: gettid has no preconditions; `set` is a plain bitmask owned by this frame.
            unsafe {
                tid_slot.store(libc::gettid(), std::sync::atomic::Ordering::Relaxed);
                let mut set: libc::cpu_set_t = std::mem::zeroed();
                let ok = libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut set) == 0;
                Helper { original: ok.then_some(set) }
            }
        }

        #[cfg(not(target_os = "linux"))]
        pub fn new(_tid_slot: &std::sync::atomic::AtomicI32) -> Helper {
            Helper {}
        }

        /// Widen this thread's affinity back to what it started with, if it was narrowed.
        #[cfg(target_os = "linux")]
        pub fn restore(&self) {
            let Some(orig) = self.original.as_ref() else { return };
            // SAFETY: plain bitmasks owned by this frame / `self`; only this thread's
            // scheduling attributes change.
            unsafe {
                let mut now: libc::cpu_set_t = std::mem::zeroed();
                if libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut now) == 0
                    && libc::CPU_EQUAL(&now, orig)
                {
                    return;
                }
                libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), orig);
            }
        }

        #[cfg(not(target_os = "linux"))]
        pub fn restore(&self) {}
    }
}

/// Hold the team's lock across a fork (released by `fork_unlock`).
pub(crate) fn fork_lock() {
    TEAM.fork_hold();
}

/// Release the lock taken by `fork_lock`.
///
/// # Safety
/// Only after `fork_lock`, in the parent or the child of that fork.
pub(crate) unsafe fn fork_unlock() {
    // SAFETY: the caller guarantees the lock is held by `fork_lock` of this fork.
    unsafe { TEAM.fork_release() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_every_part_once_and_reraises_panics() {
        crate::runtime::set_num_threads(2);
        for parts in [1usize, 2, 3, 17] {
            let hits: Vec<AtomicUsize> = (0..parts).map(|_| AtomicUsize::new(0)).collect();
            for _ in 0..200 {
                run(parts, &|i| {
                    hits[i].fetch_add(1, Ordering::Relaxed);
                });
            }
            assert!(hits.iter().all(|h| h.load(Ordering::Relaxed) == 200));
        }
        // nested regions run inline
        let total = AtomicUsize::new(0);
        run(2, &|_| run(3, &|_| {
            total.fetch_add(1, Ordering::Relaxed);
        }));
        assert_eq!(total.load(Ordering::Relaxed), 6);
        let r = std::panic::catch_unwind(|| run(4, &|i| assert!(i != 3, "part three")));
        assert!(r.is_err());
        // the team is usable after a panic
        let total = AtomicUsize::new(0);
        run(4, &|_| {
            total.fetch_add(1, Ordering::Relaxed);
        });
        assert_eq!(total.load(Ordering::Relaxed), 4);
    }
}
