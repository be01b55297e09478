//! The graph arena: autograd nodes live in slots of per-thread slabs and are reached through
//! counted slot references (`NodeRef`) and generation-checked weak references (`WeakNodeRef`).
//!
//! Note [Graph arena]
//! Recording an op used to allocate its node on the heap (`Arc<Node>`), and freeing the graph
//! returned every node to the allocator. Nodes now live in slots, handed out by the recording
//! thread's own slab with no lock and no allocation once the slab has warmed up:
//!
//! - A slab (`Heap`) belongs to one thread at a time. It owns chunks of `CHUNK` slots, carved
//!   once and never returned to the system; a freed slot goes back on a free list and is the
//!   next one handed out (last in, first out, so a training loop that builds and frees the
//!   same graph every step reuses the same, cache-warm slots).
//! - A slot carries an atomic strong count (the node lives while a `NodeRef` — a tensor's
//!   `grad_fn`, an edge of another node, the engine's work list — points at it) and a
//!   generation, bumped each time the slot is freed. A `WeakNodeRef` is a slot plus the
//!   generation it was taken at: upgrading fails once the slot was freed, even if it was
//!   reused since (the generation moved on). Slot memory is never unmapped, so reading a
//!   stale slot's counters is always sound.
//! - Any thread may drop the last reference (the engine's workers run and release nodes, a
//!   tensor may die on another Python thread). The owning thread pushes the slot on its
//!   private free list; another thread pushes it on the slab's *remote* list, a lock-free
//!   stack the owner takes over whole (one atomic swap) when its private list runs dry —
//!   pushes only, and a single consumer taking everything, so no ABA problem arises.
//! - When a thread exits, its slab goes to a global list of orphans that the next new thread
//!   adopts, so slots freed later (by whoever held the last reference) are not lost.
//! - Freeing a graph is iterative: a dying node queues the nodes its edges point to (Note
//!   [Iterative teardown] in node.rs), each returns its slot as its count reaches zero.

use super::{Backward, Node};
use std::cell::{Cell, UnsafeCell};
use std::mem::MaybeUninit;
use std::ptr::{null_mut, NonNull};
use std::sync::atomic::{fence, AtomicPtr, AtomicU64, AtomicUsize, Ordering};

/// Slots carved at a time when a slab runs out.
const CHUNK: usize = 64;

struct Slot {
    strong: AtomicUsize,
    gen: AtomicU64,
    /// Free-list link (meaningful only while the slot is free).
    next: AtomicPtr<Slot>,
    /// The slab the slot belongs to (fixed when the chunk is carved).
    heap: *const Heap,
    node: UnsafeCell<MaybeUninit<Node>>,
}

/// One thread's slab.
struct Heap {
    /// Free slots only the owning thread touches.
    local: Cell<*mut Slot>,
    /// Slots freed by other threads.
    remote: AtomicPtr<Slot>,
    /// The owning thread's `thread_id` (0 while orphaned): a free compares it with its own
    /// instead of reading a thread-local (in a shared library each thread-local access is a
    /// call into the dynamic loader, as costly as the free itself).
    owner: AtomicUsize,
}

/// A number that identifies the calling thread among the live ones, cheap to read: the
/// thread pointer on x86-64 and AArch64 Linux (the x86-64 ABI's TCB self-pointer at `fs:0`,
/// `tpidr_el0`), elsewhere the address of a thread-local. Never 0.
#[inline(always)]
fn thread_id() -> usize {
    #[cfg(all(target_arch = "x86_64", target_os = "linux"))]
    {
        let tp: usize;
        // SAFETY: on x86-64 Linux (glibc and musl) `fs` addresses the thread control block,
        // whose first word is its own address (ABI); reading it has no other effect.
        unsafe { std::arch::asm!("mov {}, qword ptr fs:[0]", out(reg) tp, options(nostack, readonly, preserves_flags, pure)) };
        tp
    }
    #[cfg(all(target_arch = "aarch64", target_os = "linux"))]
    {
        let tp: usize;
        // SAFETY: reading the thread pointer register has no effect.
        unsafe { std::arch::asm!("mrs {}, tpidr_el0", out(reg) tp, options(nomem, nostack, preserves_flags, pure)) };
        tp
    }
    #[cfg(not(all(any(target_arch = "x86_64", target_arch = "aarch64"), target_os = "linux")))]
    {
        thread_local! { static ID: u8 = const { 0 }; }
        ID.with(|b| b as *const u8 as usize)
    }
}

// SAFETY: `local` is only read or written by the thread that owns the heap (the thread whose
// `HEAP` handle holds it); ownership moves between threads only through the `ORPHANS`
// lock, which orders the accesses. `remote` is atomic. Slots hold `Node`s, which are Send + Sync,
// behind atomic counts.
unsafe impl Sync for Heap {}
unsafe impl Send for Heap {}
unsafe impl Sync for Slot {}
unsafe impl Send for Slot {}

static ORPHANS: crate::runtime::ForkLock<Vec<&'static Heap>> = crate::runtime::ForkLock::new(Vec::new());

/// Hold (or, `false`, release) the orphan list across a fork (see `runtime::install_fork_handlers`).
///
/// # Safety
/// A release only after the hold of the same fork.
pub(crate) unsafe fn fork_lock(lock: bool) {
    if lock {
        ORPHANS.fork_hold();
    } else {
        // SAFETY: forwarded from the caller.
        unsafe { ORPHANS.fork_release() };
    }
}

/// This thread's slab, given up to `ORPHANS` when the thread exits.
struct HeapHandle(&'static Heap);

impl Drop for HeapHandle {
    fn drop(&mut self) {
        self.0.owner.store(0, Ordering::Relaxed);
        ORPHANS.lock().push(self.0);
    }
}

thread_local! {
    static HEAP: HeapHandle = HeapHandle(Heap::adopt());
}

impl Heap {
    /// An orphaned slab (of an exited thread), or a new one.
    /// The caller owns it until it gives it back to `ORPHANS` (which resets `owner`).
    fn adopt() -> &'static Heap {
        let heap: &'static Heap = ORPHANS.lock().pop().unwrap_or_else(|| Box::leak(Box::new(Heap { local: Cell::new(null_mut()), remote: AtomicPtr::new(null_mut()), owner: AtomicUsize::new(0) })));
        heap.owner.store(thread_id(), Ordering::Relaxed);
        heap
    }

    /// A free slot of this (the calling thread's) slab.
    fn pop(&'static self) -> NonNull<Slot> {
        let mut head = self.local.get();
        if head.is_null() {
            head = self.remote.swap(null_mut(), Ordering::Acquire);
            if head.is_null() {
                head = self.carve();
            }
        }
        // SAFETY: `head` is a free slot of this slab (from one of its lists or just carved);
        // its link was written before it was pushed (the remote list's Acquire swap orders it).
        let next = unsafe { (*head).next.load(Ordering::Relaxed) };
        self.local.set(next);
        // SAFETY: not null (carve returns a fresh chunk's first slot).
        unsafe { NonNull::new_unchecked(head) }
    }

    /// A new chunk of free slots, linked; returns its first.
    fn carve(&'static self) -> *mut Slot {
        let mut chunk: Vec<Slot> = Vec::with_capacity(CHUNK);
        for _ in 0..CHUNK {
            chunk.push(Slot { strong: AtomicUsize::new(0), gen: AtomicU64::new(0), next: AtomicPtr::new(null_mut()), heap: self, node: UnsafeCell::new(MaybeUninit::uninit()) });
        }
        // the arena keeps its slots for the life of the process (weak references may read
        // a freed slot's counters at any time)
        let chunk: &'static mut [Slot] = chunk.leak();
        let base = chunk.as_mut_ptr();
        for i in 0..CHUNK - 1 {
            // SAFETY: i + 1 < CHUNK, inside the leaked chunk.
            chunk[i].next.store(unsafe { base.add(i + 1) }, Ordering::Relaxed);
        }
        base
    }

    /// Give a freed slot back (any thread).
    fn push(&'static self, slot: *mut Slot) {
        // a thread sees its own id only in the slab it owns: ownership changes hands through
        // the `ORPHANS` lock (owner reset to 0 before a slab is given up), and a thread that
        // reuses an exited thread's control block starts after that thread's exit
        let mine = self.owner.load(Ordering::Relaxed) == thread_id();
        // SAFETY: the slot is free (its count reached zero and its node was dropped); only
        // the free lists reach it now.
        let s = unsafe { &*slot };
        if mine {
            s.next.store(self.local.get(), Ordering::Relaxed);
            self.local.set(slot);
            return;
        }
        let mut head = self.remote.load(Ordering::Relaxed);
        loop {
            s.next.store(head, Ordering::Relaxed);
            match self.remote.compare_exchange_weak(head, slot, Ordering::Release, Ordering::Relaxed) {
                Ok(_) => return,
                Err(h) => head = h,
            }
        }
    }
}

/// A counted reference to a graph node in the arena (the node lives while one exists).
pub struct NodeRef(NonNull<Slot>);

// SAFETY: a NodeRef only gives shared access to a `Node` (Send + Sync) and counts atomically.
unsafe impl Send for NodeRef {}
unsafe impl Sync for NodeRef {}

impl NodeRef {
    fn free_slot() -> NonNull<Slot> {
        HEAP.try_with(|h| h.0.pop()).unwrap_or_else(|_| {
            // thread teardown: this thread's slab is gone; use an orphan's (or a new one)
            let heap: &'static Heap = Heap::adopt();
            let s = heap.pop();
            heap.owner.store(0, Ordering::Relaxed);
            ORPHANS.lock().push(heap);
            s
        })
    }

    /// Place a node built by `init` directly in a slot of this thread's slab (no copy of the
    /// node through the stack).
    ///
    /// # Safety
    /// `init` must initialise every field of the `Node` it is given.
    #[inline]
    pub unsafe fn emplace(init: impl FnOnce(*mut Node)) -> NodeRef {
        let slot = Self::free_slot();
        // SAFETY: the slot is free and exclusively ours until the NodeRef is published; the
        // caller initialises the node.
        unsafe {
            let s = slot.as_ref();
            init((*s.node.get()).as_mut_ptr());
            // Release: a weak upgrade that sees this count also sees the bumped generation
            s.strong.store(1, Ordering::Release);
        }
        NodeRef(slot)
    }

    fn slot(&self) -> &Slot {
        // SAFETY: slots are never deallocated.
        unsafe { self.0.as_ref() }
    }

    /// Whether two references name the same node.
    pub fn ptr_eq(a: &NodeRef, b: &NodeRef) -> bool {
        a.0 == b.0
    }

    /// The node's address (an identity while the node lives).
    pub fn as_ptr(this: &NodeRef) -> *const Node {
        this.slot().node.get() as *const Node
    }

    /// How many `NodeRef`s point at the node.
    pub fn strong_count(this: &NodeRef) -> usize {
        this.slot().strong.load(Ordering::Acquire)
    }

    /// A weak reference: the slot and its current generation.
    pub fn downgrade(this: &NodeRef) -> WeakNodeRef {
        WeakNodeRef { slot: Some(this.0), gen: this.slot().gen.load(Ordering::Relaxed) }
    }
}

impl std::ops::Deref for NodeRef {
    type Target = Node;
    fn deref(&self) -> &Node {
        // SAFETY: the count is at least one while this reference exists, so the slot holds
        // an initialised node.
        unsafe { (*self.slot().node.get()).assume_init_ref() }
    }
}

impl Clone for NodeRef {
    fn clone(&self) -> NodeRef {
        let old = self.slot().strong.fetch_add(1, Ordering::Relaxed);
        if old > isize::MAX as usize {
            std::process::abort();
        }
        NodeRef(self.0)
    }
}

impl Drop for NodeRef {
    fn drop(&mut self) {
        let s = self.slot();
        if s.strong.fetch_sub(1, Ordering::Release) != 1 {
            return;
        }
        // the last reference: see every other holder's writes before dropping the node
        fence(Ordering::Acquire);
        // SAFETY: the count reached zero, so no reference reaches the node any more (a weak
        // upgrade cannot revive a zero count); it was initialised by `new`.
        unsafe { (*s.node.get()).assume_init_drop() };
        s.gen.fetch_add(1, Ordering::Release);
        // SAFETY: `heap` is the slab the slot was carved from; slabs are never freed.
        unsafe { &*s.heap }.push(self.0.as_ptr());
    }
}

/// A weak reference to a node: its slot and the slot's generation when it was taken.
#[derive(Clone, Default)]
pub struct WeakNodeRef {
    slot: Option<NonNull<Slot>>,
    gen: u64,
}

// SAFETY: only atomics of never-freed slots are read through it.
unsafe impl Send for WeakNodeRef {}
unsafe impl Sync for WeakNodeRef {}

impl WeakNodeRef {
    /// A weak reference to nothing.
    pub fn new() -> WeakNodeRef {
        WeakNodeRef::default()
    }

    /// The node, if it is still alive.
    pub fn upgrade(&self) -> Option<NodeRef> {
        let p = self.slot?;
        // SAFETY: slots are never deallocated.
        let s = unsafe { p.as_ref() };
        if s.gen.load(Ordering::Acquire) != self.gen {
            return None;
        }
        let mut n = s.strong.load(Ordering::Relaxed);
        loop {
            if n == 0 {
                return None;
            }
            match s.strong.compare_exchange_weak(n, n + 1, Ordering::AcqRel, Ordering::Relaxed) {
                Ok(_) => break,
                Err(m) => n = m,
            }
        }
        let r = NodeRef(p);
        // the slot may have been freed and reused between the two checks: the count we took
        // then belongs to a newer node, which we release again
        if s.gen.load(Ordering::Acquire) != self.gen {
            drop(r);
            return None;
        }
        Some(r)
    }
}

/// Bytes of a node's backward (its formula's captures and saved tensors) stored in the
/// node's own slot; larger ones go to the heap.
const INLINE_BACKWARD: usize = 256;

#[repr(C, align(16))]
struct InlineBuf([MaybeUninit<u8>; INLINE_BACKWARD]);

/// A node's backward computation, stored inside the node (so inside its arena slot) when it
/// fits, else boxed: recording an op allocates nothing for its formula. Written in place
/// (`write`), so the formula and its saved tensors are not copied through the stack.
pub struct BackwardBox {
    /// Set while `buf` holds a value: the value's `dyn Backward` from its address.
    cast: Option<unsafe fn(*const u8) -> *const dyn Backward>,
    heap: Option<Box<dyn Backward>>,
    buf: InlineBuf,
}

// SAFETY: the inline value is a `Backward`, which is Send + Sync.
unsafe impl Send for BackwardBox {}
unsafe impl Sync for BackwardBox {}

/// The `dyn Backward` at `p`, a `B` (the vtable is `B`'s).
unsafe fn cast_to<B: Backward + 'static>(p: *const u8) -> *const dyn Backward {
    p as *const B as *const dyn Backward
}

impl BackwardBox {
    /// No backward (an `AccumulateGrad` node).
    pub const fn empty() -> BackwardBox {
        BackwardBox { cast: None, heap: None, buf: InlineBuf([MaybeUninit::uninit(); INLINE_BACKWARD]) }
    }
    /// A backward that is already boxed.
    pub fn from_box(b: Box<dyn Backward>) -> BackwardBox {
        BackwardBox { cast: None, heap: Some(b), buf: InlineBuf([MaybeUninit::uninit(); INLINE_BACKWARD]) }
    }
    /// Initialise `*dst` with `b`: inline if it fits the buffer, else on the heap.
    ///
    /// # Safety
    /// `dst` is valid for writes and uninitialised (nothing there is dropped).
    #[inline]
    pub unsafe fn write<B: Backward + 'static>(dst: *mut BackwardBox, b: B) {
        // SAFETY: the caller gives a writable place; the fields are written once each.
        unsafe {
            if std::mem::size_of::<B>() <= INLINE_BACKWARD && std::mem::align_of::<B>() <= std::mem::align_of::<InlineBuf>() {
                std::ptr::addr_of_mut!((*dst).heap).write(None);
                // the buffer is large and aligned enough for a `B` (checked above); the value
                // is owned by the box from here (dropped in `clear`)
                (std::ptr::addr_of_mut!((*dst).buf) as *mut B).write(b);
                std::ptr::addr_of_mut!((*dst).cast).write(Some(cast_to::<B>));
            } else {
                std::ptr::addr_of_mut!((*dst).cast).write(None);
                std::ptr::addr_of_mut!((*dst).heap).write(Some(Box::new(b)));
            }
        }
    }
    /// The backward, if there is one.
    #[inline]
    pub fn get(&self) -> Option<&(dyn Backward + 'static)> {
        match (self.cast, &self.heap) {
            // SAFETY: `cast` was made for the type written into `buf` by `write`, which stays
            // initialised until `clear`; moving the box moves the bytes, which Rust values allow.
            (Some(cast), _) => Some(unsafe { &*cast(self.buf.0.as_ptr() as *const u8) }),
            (None, Some(b)) => Some(&**b),
            (None, None) => None,
        }
    }
    /// Drop the backward (and the tensors it saved); the box is empty afterwards.
    pub fn clear(&mut self) {
        if let Some(cast) = self.cast.take() {
            // SAFETY: the inline value is initialised (see `write`) and, `cast` being taken,
            // dropped exactly once.
            unsafe { std::ptr::drop_in_place(cast(self.buf.0.as_ptr() as *const u8) as *mut dyn Backward) };
        }
        self.heap = None;
    }
}

impl Drop for BackwardBox {
    fn drop(&mut self) {
        self.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::autograd::AccumulateGrad;
    use crate::tensor::Tensor;

    fn node() -> NodeRef {
        AccumulateGrad::new_node(Tensor::from_vec(vec![1.0f32], &[1]).unwrap())
    }

    #[test]
    fn slots_are_reused_and_weak_references_see_the_generation() {
        let a = node();
        let w = NodeRef::downgrade(&a);
        assert!(w.upgrade().is_some());
        let addr = NodeRef::as_ptr(&a);
        drop(a);
        assert!(w.upgrade().is_none());
        // the freed slot is the next one handed out; the old weak reference stays dead
        let b = node();
        assert_eq!(NodeRef::as_ptr(&b), addr);
        assert!(w.upgrade().is_none());
        assert!(NodeRef::downgrade(&b).upgrade().is_some());
        assert!(WeakNodeRef::new().upgrade().is_none());
    }

    #[test]
    fn thread_ids_are_stable_and_distinct_among_live_threads() {
        let me = thread_id();
        assert_ne!(me, 0);
        assert_eq!(me, thread_id());
        let barrier = std::sync::Arc::new(std::sync::Barrier::new(4));
        let ids: Vec<usize> = (0..4)
            .map(|_| {
                let b = barrier.clone();
                // all four alive at once (the barrier), so their ids must differ
                std::thread::spawn(move || {
                    let id = thread_id();
                    b.wait();
                    id
                })
            })
            .collect::<Vec<_>>()
            .into_iter()
            .map(|h| h.join().unwrap())
            .collect();
        let mut all = ids.clone();
        all.push(me);
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), 5, "{ids:?} and {me}");
    }

    #[test]
    fn a_node_freed_on_another_thread_returns_to_its_slab() {
        let a = node();
        let addr = NodeRef::as_ptr(&a) as usize;
        std::thread::spawn(move || drop(a)).join().unwrap();
        // the local list is empty of it; the remote list gives it back when needed
        let mut seen = false;
        let mut keep = Vec::new();
        for _ in 0..2 * CHUNK {
            let n = node();
            seen |= NodeRef::as_ptr(&n) as usize == addr;
            keep.push(n);
        }
        assert!(seen);
    }

    #[test]
    fn nodes_outlive_the_thread_that_recorded_them() {
        // a thread records a chain and exits (its slab becomes an orphan); the chain is used
        // and freed here, and the next threads adopt the slab and record into it
        let x = Tensor::from_vec(vec![1.0f32], &[1]).unwrap();
        x.set_requires_grad(true).unwrap();
        let xs = x.clone();
        let y = std::thread::spawn(move || {
            let mut y = xs;
            for _ in 0..3 * CHUNK {
                y = crate::ops::mul(&y, &Tensor::wrapped_scalar(crate::Scalar::Float(-1.0))).unwrap();
            }
            y
        })
        .join()
        .unwrap();
        let w = NodeRef::downgrade(&y.grad_fn().unwrap());
        crate::ops::sum(&y, None).unwrap().backward().unwrap();
        assert_eq!(x.grad().unwrap().to_f64_vec().unwrap(), vec![(-1f64).powi(3 * CHUNK as i32)]);
        drop(y);
        assert!(w.upgrade().is_none());
        for _ in 0..4 {
            std::thread::spawn(|| {
                let keep: Vec<NodeRef> = (0..2 * CHUNK).map(|_| node()).collect();
                assert!(keep.iter().all(|n| NodeRef::strong_count(n) == 1));
            })
            .join()
            .unwrap();
        }
    }

    #[test]
    fn counts_stay_exact_under_concurrent_clones_and_upgrades() {
        let a = node();
        let w = NodeRef::downgrade(&a);
        std::thread::scope(|s| {
            for _ in 0..4 {
                s.spawn(|| {
                    for _ in 0..10_000 {
                        let c = a.clone();
                        let u = w.upgrade().unwrap();
                        drop((c, u));
                    }
                });
            }
        });
        assert_eq!(NodeRef::strong_count(&a), 1);
    }
}
