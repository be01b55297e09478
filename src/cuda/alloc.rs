//! The caching device allocator's bookkeeping, as PyTorch's CUDA caching allocator does it
//! in outline: requests are rounded up to a size class, freed blocks are kept per (stream,
//! size class) instead of being returned to the driver, a cached block that is much larger
//! than a request is split, and on out-of-memory the cache is released and the allocation
//! retried once before the error.
//!
//! It is a plain type over a [`DeviceMemory`] (the driver in production, a fake device in the
//! unit tests), so every rule here is tested on machines without a GPU.

use crate::error::{Error, Result};
use std::collections::BTreeMap;

/// Raw device memory: what the allocator asks the driver for.
pub trait DeviceMemory {
    /// Allocate `bytes`; `None` when the device is out of memory.
    fn malloc(&mut self, bytes: usize) -> Result<Option<u64>>;
    /// Give back an allocation made by `malloc`.
    fn free(&mut self, ptr: u64, bytes: usize) -> Result<()>;
    /// (free, total) bytes of the device.
    fn mem_info(&self) -> Result<(usize, usize)>;
}

/// Allocations are rounded up to this granularity (PyTorch's `kMinBlockSize`).
pub const MIN_BLOCK: usize = 512;
/// Requests up to this size share 2 MiB segments (PyTorch's small pool).
pub const SMALL_SIZE: usize = 1 << 20;
/// Segment size for small requests.
pub const SMALL_SEGMENT: usize = 2 << 20;

/// The rounded size a request is served with.
pub fn round_size(bytes: usize) -> usize {
    if bytes < MIN_BLOCK {
        MIN_BLOCK
    } else {
        bytes.div_ceil(MIN_BLOCK) * MIN_BLOCK
    }
}

/// A block handed out to a tensor: where it is and how big it is (the rounded size).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Block {
    pub ptr: u64,
    pub size: usize,
    pub stream: usize,
}

/// Counters behind `torch.cuda.memory_allocated()` and friends.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MemoryStats {
    /// Bytes in blocks handed out to tensors.
    pub allocated: usize,
    pub max_allocated: usize,
    /// Bytes obtained from the driver (handed out or cached).
    pub reserved: usize,
    pub max_reserved: usize,
    /// Driver allocations that failed and were retried after emptying the cache.
    pub retries: usize,
}

/// The caching allocator of one device.
pub struct CachingAllocator<M: DeviceMemory> {
    mem: M,
    device: usize,
    /// Free cached blocks by (stream, size) → pointers.
    free: BTreeMap<(usize, usize), Vec<u64>>,
    /// Driver allocations (segments) by base pointer → size; blocks carved from a segment
    /// are returned to the driver only whole.
    segments: BTreeMap<u64, usize>,
    /// Blocks carved out of a segment (pointer → (segment base, size)), live or cached.
    carved: BTreeMap<u64, (u64, usize)>,
    stats: MemoryStats,
}

impl<M: DeviceMemory> CachingAllocator<M> {
    pub fn new(mem: M, device: usize) -> Self {
        CachingAllocator { mem, device, free: BTreeMap::new(), segments: BTreeMap::new(), carved: BTreeMap::new(), stats: MemoryStats::default() }
    }

    pub fn stats(&self) -> MemoryStats {
        self.stats
    }

    /// `torch.cuda.reset_peak_memory_stats()`.
    pub fn reset_peak(&mut self) {
        self.stats.max_allocated = self.stats.allocated;
        self.stats.max_reserved = self.stats.reserved;
    }

    /// A block of at least `bytes` for `stream`.
    pub fn allocate(&mut self, bytes: usize, stream: usize) -> Result<Block> {
        let size = round_size(bytes);
        if let Some(b) = self.take_cached(size, stream) {
            return Ok(self.hand_out(b));
        }
        let seg = if size <= SMALL_SIZE { SMALL_SEGMENT } else { size };
        let base = match self.mem.malloc(seg)? {
            Some(p) => p,
            None => {
                // out of memory: give the cache back to the driver and try once more
                self.stats.retries += 1;
                self.empty_cache()?;
                match self.mem.malloc(seg)? {
                    Some(p) => p,
                    None => return Err(self.oom(size)),
                }
            }
        };
        self.segments.insert(base, seg);
        self.stats.reserved += seg;
        self.stats.max_reserved = self.stats.max_reserved.max(self.stats.reserved);
        self.carved.insert(base, (base, size));
        if seg > size {
            // the rest of a small segment is cached for later small requests
            let rest = base + size as u64;
            self.carved.insert(rest, (base, seg - size));
            self.free.entry((stream, seg - size)).or_default().push(rest);
        }
        Ok(self.hand_out(Block { ptr: base, size, stream }))
    }

    /// A cached block of exactly `size`, or a larger one split down to it.
    fn take_cached(&mut self, size: usize, stream: usize) -> Option<Block> {
        if let Some(v) = self.free.get_mut(&(stream, size)) {
            if let Some(p) = v.pop() {
                if v.is_empty() {
                    self.free.remove(&(stream, size));
                }
                return Some(Block { ptr: p, size, stream });
            }
        }
        // the smallest larger block of this stream; split it when the remainder is useful
        let key = self.free.range((stream, size + 1)..(stream + 1, 0)).next().map(|(k, _)| *k)?;
        let v = self.free.get_mut(&key)?;
        let p = v.pop()?;
        if v.is_empty() {
            self.free.remove(&key);
        }
        let big = key.1;
        let (seg, _) = self.carved[&p];
        // large blocks are split only when the remainder is a block of its own worth keeping
        if big - size >= MIN_BLOCK && (size <= SMALL_SIZE || big - size > SMALL_SIZE) {
            self.carved.insert(p, (seg, size));
            let rest = p + size as u64;
            self.carved.insert(rest, (seg, big - size));
            self.free.entry((stream, big - size)).or_default().push(rest);
            Some(Block { ptr: p, size, stream })
        } else {
            Some(Block { ptr: p, size: big, stream })
        }
    }

    fn hand_out(&mut self, b: Block) -> Block {
        self.stats.allocated += b.size;
        self.stats.max_allocated = self.stats.max_allocated.max(self.stats.allocated);
        b
    }

    /// A tensor's block comes back: cached for its stream, not returned to the driver.
    pub fn release(&mut self, b: Block) {
        self.stats.allocated = self.stats.allocated.saturating_sub(b.size);
        self.free.entry((b.stream, b.size)).or_default().push(b.ptr);
    }

    /// `torch.cuda.empty_cache()`: return every segment none of whose blocks is live.
    pub fn empty_cache(&mut self) -> Result<()> {
        let mut cached_per_segment: BTreeMap<u64, usize> = BTreeMap::new();
        for ((_, size), ptrs) in &self.free {
            for p in ptrs {
                if let Some(&(seg, _)) = self.carved.get(p) {
                    *cached_per_segment.entry(seg).or_default() += size;
                }
            }
        }
        let whole: Vec<(u64, usize)> =
            self.segments.iter().filter(|(base, size)| cached_per_segment.get(base) == Some(size)).map(|(b, s)| (*b, *s)).collect();
        for (base, size) in whole {
            self.free.retain(|_, ptrs| {
                ptrs.retain(|p| self.carved.get(p).map(|c| c.0) != Some(base));
                !ptrs.is_empty()
            });
            self.carved.retain(|_, c| c.0 != base);
            self.segments.remove(&base);
            self.mem.free(base, size)?;
            self.stats.reserved -= size;
        }
        Ok(())
    }

    fn oom(&self, size: usize) -> Error {
        let (free, total) = self.mem.mem_info().unwrap_or((0, 0));
        Error::OutOfMemory { device: self.device, requested: size, total, free, allocated: self.stats.allocated, reserved: self.stats.reserved }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A device with a fixed capacity that hands out increasing addresses.
    struct FakeDevice {
        capacity: usize,
        used: usize,
        next: u64,
        live: BTreeMap<u64, usize>,
        frees: usize,
    }

    impl FakeDevice {
        fn new(capacity: usize) -> Self {
            FakeDevice { capacity, used: 0, next: 0x1000, live: BTreeMap::new(), frees: 0 }
        }
    }

    impl DeviceMemory for FakeDevice {
        fn malloc(&mut self, bytes: usize) -> Result<Option<u64>> {
            if self.used + bytes > self.capacity {
                return Ok(None);
            }
            let p = self.next;
            self.next += bytes as u64;
            self.used += bytes;
            self.live.insert(p, bytes);
            Ok(Some(p))
        }
        fn free(&mut self, ptr: u64, bytes: usize) -> Result<()> {
            assert_eq!(self.live.remove(&ptr), Some(bytes), "free of an unknown or resized block");
            self.used -= bytes;
            self.frees += 1;
            Ok(())
        }
        fn mem_info(&self) -> Result<(usize, usize)> {
            Ok((self.capacity - self.used, self.capacity))
        }
    }

    #[test]
    fn sizes_round_to_512() {
        assert_eq!(round_size(1), 512);
        assert_eq!(round_size(512), 512);
        assert_eq!(round_size(513), 1024);
    }

    #[test]
    fn freed_blocks_are_reused_not_returned() {
        let mut a = CachingAllocator::new(FakeDevice::new(64 << 20), 0);
        let b = a.allocate(4 << 20, 0).unwrap();
        a.release(b);
        assert_eq!(a.stats().allocated, 0);
        assert_eq!(a.stats().reserved, 4 << 20, "the block stays cached");
        let c = a.allocate(4 << 20, 0).unwrap();
        assert_eq!(c.ptr, b.ptr, "the cached block is handed out again");
        assert_eq!(a.mem.frees, 0);
    }

    #[test]
    fn small_requests_share_a_segment() {
        let mut a = CachingAllocator::new(FakeDevice::new(64 << 20), 0);
        let x = a.allocate(1000, 0).unwrap();
        let y = a.allocate(1000, 0).unwrap();
        assert_eq!(x.size, 1024);
        assert_eq!(a.stats().reserved, SMALL_SEGMENT, "one 2 MiB segment serves both");
        assert_ne!(x.ptr, y.ptr);
        assert_eq!(a.stats().allocated, 2048);
        assert_eq!(a.stats().max_allocated, 2048);
    }

    #[test]
    fn streams_do_not_share_cached_blocks() {
        let mut a = CachingAllocator::new(FakeDevice::new(64 << 20), 0);
        let b = a.allocate(4 << 20, 1).unwrap();
        a.release(b);
        let c = a.allocate(4 << 20, 2).unwrap();
        assert_ne!(c.ptr, b.ptr);
        assert_eq!(a.stats().reserved, 8 << 20);
    }

    #[test]
    fn out_of_memory_empties_the_cache_and_retries_once() {
        let mut a = CachingAllocator::new(FakeDevice::new(10 << 20), 0);
        let b = a.allocate(6 << 20, 0).unwrap();
        a.release(b);
        // 6 MiB cached + 6 MiB more does not fit: the cache is emptied, the retry succeeds
        let c = a.allocate(7 << 20, 0).unwrap();
        assert_eq!(a.stats().retries, 1);
        assert_eq!(a.mem.frees, 1);
        assert_eq!(a.stats().reserved, 7 << 20);
        // now nothing can be freed: a typed error with the sizes
        let e = a.allocate(8 << 20, 0).unwrap_err();
        match &e {
            Error::OutOfMemory { requested, total, allocated, .. } => {
                assert_eq!(*requested, 8 << 20);
                assert_eq!(*total, 10 << 20);
                assert_eq!(*allocated, 7 << 20);
            }
            other => panic!("expected OutOfMemory, got {other:?}"),
        }
        assert!(e.to_string().starts_with("CUDA out of memory. Tried to allocate 8.00 MiB. GPU 0 has a total capacity of 10.00 MiB"), "{e}");
        a.release(c);
    }

    #[test]
    fn large_cached_blocks_split_for_smaller_requests() {
        let mut a = CachingAllocator::new(FakeDevice::new(64 << 20), 0);
        let b = a.allocate(8 << 20, 0).unwrap();
        a.release(b);
        let c = a.allocate(3 << 20, 0).unwrap();
        assert_eq!(c.ptr, b.ptr);
        assert_eq!(c.size, 3 << 20);
        let d = a.allocate(5 << 20, 0).unwrap();
        assert_eq!(d.ptr, b.ptr + (3 << 20), "the remainder serves the next request");
        assert_eq!(a.stats().reserved, 8 << 20);
        a.release(c);
        a.release(d);
        a.empty_cache().unwrap();
        assert_eq!(a.stats().reserved, 0, "a segment goes back once all its pieces are cached");
    }

    #[test]
    fn empty_cache_keeps_segments_with_live_blocks_and_peak_resets() {
        let mut a = CachingAllocator::new(FakeDevice::new(64 << 20), 0);
        let x = a.allocate(1000, 0).unwrap();
        let y = a.allocate(1000, 0).unwrap();
        a.release(x);
        a.empty_cache().unwrap();
        assert_eq!(a.stats().reserved, SMALL_SEGMENT, "y still lives in the segment");
        a.release(y);
        a.reset_peak();
        assert_eq!(a.stats().max_allocated, 0);
        a.empty_cache().unwrap();
        assert_eq!(a.stats().reserved, 0);
    }
}
