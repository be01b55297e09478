//! The Python extension's global allocator: small blocks from mimalloc, large ones from the
//! system allocator.
//!
//! Every op allocates a few small blocks (the tensor, its storage cell and version counter,
//! a small output buffer and, under autograd, edges); glibc's `malloc`/`free` pair was most of
//! a small op's allocation cost, and mimalloc's thread-local free lists halve it. Large blocks
//! (convolution columns, GEMM packing, activations) stay with glibc: mimalloc returns freed
//! huge blocks to the OS after a short delay, so a training step re-faulted (and the kernel
//! re-zeroed) its large buffers on every call, which doubled a 64-channel convolution's time.
//! Large tensor buffers are recycled by `cpu::alloc`'s cache in any case.
//!
//! Which allocator owns a block follows from its size alone (`dealloc` and `realloc` are given
//! the layout it was allocated with), so no header or lookup is needed.

use std::alloc::{GlobalAlloc, Layout, System};

/// Keeps glibc's large blocks in the heap between training steps (called once, at import).
///
/// glibc maps blocks above its mmap threshold (128 KiB at first) one by one and unmaps them on
/// free, raising the threshold only as such blocks are freed, and it returns a heap top above
/// its trim threshold to the OS: the first steps of a training loop, whose activations and
/// column buffers are 1-30 MiB, page-faulted (and the kernel zeroed) their buffers on every
/// step until the thresholds had crept up (a small CNN at 2 threads: 6-9 steps at 60-75 ms
/// before settling at ~25). Blocks up to 32 MiB (glibc's largest threshold) now come from the
/// heap, up to 256 MiB of freed top stays mapped, and the heap grows 64 MiB at a time (first
/// steps 55, then ~33 ms). Freed memory is reused by the process, not returned; the figures
/// are those glibc's own `MALLOC_*_` tunables would set, so an explicit environment wins
/// (glibc reads it first, and this leaves the values alone when one is set).
pub fn tune_system_allocator() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        let set = |name: &str, param: libc::c_int, value: libc::c_int| {
            if std::env::var_os(name).is_none() {
                // SAFETY: mallopt only adjusts the allocator's parameters (thread-safe in
                // glibc); the values are within the documented ranges.
                unsafe { libc::mallopt(param, value) };
            }
        };
        set("MALLOC_MMAP_THRESHOLD_", libc::M_MMAP_THRESHOLD, 32 << 20);
        set("MALLOC_TRIM_THRESHOLD_", libc::M_TRIM_THRESHOLD, 256 << 20);
        set("MALLOC_TOP_PAD_", libc::M_TOP_PAD, 64 << 20);
    }
}

/// Blocks up to this size come from mimalloc.
const SMALL: usize = 64 * 1024;

pub struct SplitAlloc;

#[inline(always)]
fn small(l: &Layout) -> bool {
    l.size() <= SMALL
}

// SAFETY: each block is allocated and freed by the same underlying allocator, chosen by the
// size in its layout, which `GlobalAlloc`'s contract guarantees is the same at allocation and
// deallocation; a reallocation across the threshold moves the bytes between the two.
unsafe impl GlobalAlloc for SplitAlloc {
    #[inline]
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        // SAFETY: forwarded with the caller's (non-zero-size) layout.
        unsafe { if small(&l) { mimalloc::MiMalloc.alloc(l) } else { System.alloc(l) } }
    }
    #[inline]
    unsafe fn alloc_zeroed(&self, l: Layout) -> *mut u8 {
        // SAFETY: as for `alloc`.
        unsafe { if small(&l) { mimalloc::MiMalloc.alloc_zeroed(l) } else { System.alloc_zeroed(l) } }
    }
    #[inline]
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        // SAFETY: `p` came from `alloc*` with this layout, so from the allocator `small` picks.
        unsafe { if small(&l) { mimalloc::MiMalloc.dealloc(p, l) } else { System.dealloc(p, l) } }
    }
    #[inline]
    unsafe fn realloc(&self, p: *mut u8, l: Layout, new_size: usize) -> *mut u8 {
        let new = Layout::from_size_align(new_size, l.align()).expect("realloc: the caller guarantees a valid layout");
        // SAFETY: `p` is owned by the allocator `small(&l)` picks; a move across the
        // threshold allocates in the other one, copies the common prefix and frees the old block.
        unsafe {
            match (small(&l), small(&new)) {
                (true, true) => mimalloc::MiMalloc.realloc(p, l, new_size),
                (false, false) => System.realloc(p, l, new_size),
                _ => {
                    let q = self.alloc(new);
                    if !q.is_null() {
                        std::ptr::copy_nonoverlapping(p, q, l.size().min(new_size));
                        self.dealloc(p, l);
                    }
                    q
                }
            }
        }
    }
}
