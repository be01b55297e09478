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
