//! A cache of large CPU buffers. A fresh 64 MiB output costs ~16k page faults when the
//! allocator hands memory back to the OS and maps it again; PyTorch's CPU allocator keeps
//! no blocks. Reusing freed buffers of the same size class makes fresh outputs as cheap
//! as `out=` ones.

use crate::runtime::ForkLock;

/// Buffers smaller than this are left to the system allocator. (glibc serves blocks from
/// 128 KiB up with fresh mmaps by default, so anything near that size pays page faults on
/// every allocation.)
pub const MIN_BYTES: usize = 1 << 14;
/// The cache never holds more than this many bytes.
const MAX_TOTAL: usize = 1 << 30;
/// At most this many buffers of one length are kept (a training step frees more than 8
/// activations of one shape at once: with 8, an MLP step refilled a third of its buffers).
const PER_SIZE: usize = 32;
/// ... and at most this many bytes of one length (but 4 buffers): 32 copies of a 32 MiB
/// output would hold a gigabyte, as when a loop's outputs come from elsewhere than the cache
/// (which then filled with buffers nobody took: `randint` of 4M slowed 13 → 75 ms per call
/// on its way to 1.1 GB).
const PER_SIZE_BYTES: usize = 256 << 20;

/// A cache of `Vec<T>`s keyed by length.
pub struct VecCache<T> {
    inner: ForkLock<(Vec<Vec<T>>, usize)>,
}

impl<T: Copy + Default> VecCache<T> {
    pub const fn new() -> Self {
        VecCache { inner: ForkLock::new((Vec::new(), 0)) }
    }

    /// A Vec of exactly `n` elements (contents unspecified for reused buffers), or the
    /// allocator's error when the memory is not there.
    pub fn take(&self, n: usize) -> crate::Result<Vec<T>> {
        // the buffer given back last: still in cache, and its pages mapped (a buffer that
        // was zeroed by the kernel and only partly written, a slice's gradient, would
        // otherwise fault its untouched pages in on the next user's write: a bias add after
        // three slice gradients 0.56 -> 1.04 ms)
        match self.take_cached(n) {
            Some(v) => Ok(v),
            None => try_filled(n, T::default()),
        }
    }

    /// A cached Vec of exactly `n` elements (contents unspecified), if one is there.
    pub fn take_cached(&self, n: usize) -> Option<Vec<T>> {
        if n * std::mem::size_of::<T>() < MIN_BYTES {
            return None;
        }
        let mut g = self.inner.lock();
        let i = g.0.iter().rposition(|v| v.len() == n)?;
        let v = g.0.swap_remove(i);
        g.1 -= n * std::mem::size_of::<T>();
        Some(v)
    }

    /// Give a buffer back (kept if large and there is room).
    pub fn give(&self, v: Vec<T>) {
        let bytes = v.len() * std::mem::size_of::<T>();
        if bytes < MIN_BYTES || v.len() != v.capacity() {
            return;
        }
        let mut g = self.inner.lock();
        let keep = (PER_SIZE_BYTES / bytes).clamp(4, PER_SIZE);
        if g.1 + bytes > MAX_TOTAL || g.0.iter().filter(|x| x.len() == v.len()).count() >= keep {
            return;
        }
        g.1 += bytes;
        g.0.push(v);
    }

    /// Hold the cache's lock across a fork (released by `fork_unlock`).
    pub(crate) fn fork_lock(&self) {
        self.inner.fork_hold();
    }

    /// Release the lock taken by `fork_lock`.
    ///
    /// # Safety
    /// Only after `fork_lock`, in the parent or the child of that fork.
    pub(crate) unsafe fn fork_unlock(&self) {
        // SAFETY: the caller guarantees the lock is held by `fork_lock` of this fork.
        unsafe { self.inner.fork_release() }
    }

    /// Free every cached buffer.
    pub fn clear(&self) {
        let mut g = self.inner.lock();
        g.0.clear();
        g.1 = 0;
    }
}

/// Element types with a buffer cache.
pub trait Cached: Copy + Default + Send + Sync + Sized + 'static {
    fn cache() -> &'static VecCache<Self>;
}

macro_rules! cached {
    ($($t:ty),*) => {$(
        impl Cached for $t {
            fn cache() -> &'static VecCache<Self> {
                static C: VecCache<$t> = VecCache::new();
                &C
            }
        }
    )*};
}
cached!(bool, u8, i8, i16, i32, i64, half::f16, half::bf16, f32, f64);

/// A Vec of `n` elements from the cache (contents unspecified; callers overwrite it).
pub fn take<T: Cached>(n: usize) -> crate::Result<Vec<T>> {
    T::cache().take(n)
}

/// The most bytes one buffer may take: physical memory plus swap. A larger request can never
/// be backed, but on a machine that overcommits memory (`vm.overcommit_memory = 1`) the
/// allocator would still hand it out and the process would die filling it; PyTorch's
/// allocator fails such requests on ordinary machines, so here they fail everywhere.
fn host_limit() -> usize {
    static LIMIT: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *LIMIT.get_or_init(|| {
        #[cfg(target_os = "linux")]
        {
            // SAFETY: `sysinfo` only writes the struct it is given, which is plain data.
            let mut si: libc::sysinfo = unsafe { std::mem::zeroed() };
            // SAFETY: as above; a non-zero return leaves the limit off.
            if unsafe { libc::sysinfo(&mut si) } == 0 {
                let unit = si.mem_unit.max(1) as u128;
                let total = (si.totalram as u128 + si.totalswap as u128) * unit;
                return usize::try_from(total).unwrap_or(usize::MAX);
            }
        }
        usize::MAX
    })
}

/// Err (PyTorch's CPU allocator message) when `n` elements of `T` exceed what the machine
/// could ever back.
pub fn check_host_bytes<T>(n: usize) -> crate::Result<()> {
    match n.checked_mul(std::mem::size_of::<T>()) {
        Some(b) if b <= host_limit() => Ok(()),
        _ => Err(out_of_memory::<T>(n)),
    }
}

fn out_of_memory<T>(n: usize) -> crate::Error {
    crate::Error::HostOutOfMemory { bytes: n.saturating_mul(std::mem::size_of::<T>()) }
}

/// `n` copies of `v`, or the allocator's error (never an abort): every allocation whose
/// size a user chooses goes through here or `try_with`.
pub fn try_filled<T: Clone>(n: usize, v: T) -> crate::Result<Vec<T>> {
    if n.checked_mul(std::mem::size_of::<T>()).is_some_and(|b| b <= 4096) {
        // small: the allocator's fast path (a failure here is an abort, as for any small Box)
        let mut out = Vec::with_capacity(n);
        out.resize(n, v);
        return Ok(out);
    }
    check_host_bytes::<T>(n)?;
    let mut out = Vec::new();
    out.try_reserve_exact(n).map_err(|_| out_of_memory::<T>(n))?;
    advise_huge_pages(out.as_ptr(), n);
    out.resize(n, v);
    Ok(out)
}

/// Buffers from this size up ask the kernel for transparent huge pages.
const HUGE_FROM: usize = 4 << 20;

/// Ask for 2 MiB pages over the whole 2 MiB-aligned part of a large, not yet written buffer
/// (Linux's `MADV_HUGEPAGE`; a no-op where THP is off or elsewhere). Streaming a large tensor
/// on one core is bound by TLB misses and by the hardware prefetchers stopping at each 4 KiB
/// page: a 64 MiB sum read 21-24 GB/s from 4 KiB pages and 26-30 from huge ones on the
/// development machine (Zen 4), and the first write faults once per 2 MiB instead of once per
/// 4 KiB. NumPy advises its large arrays the same way; PyTorch's allocator does so only under
/// `THP_MEM_ALLOC_ENABLE=1`.
fn advise_huge_pages<T>(p: *const T, n: usize) {
    #[cfg(target_os = "linux")]
    {
        const HUGE: usize = 2 << 20;
        let bytes = n.saturating_mul(std::mem::size_of::<T>());
        if bytes < HUGE_FROM {
            return;
        }
        let start = (p as usize).next_multiple_of(HUGE);
        let end = (p as usize + bytes) / HUGE * HUGE;
        if end > start {
            // SAFETY: the range lies inside the caller's live allocation; MADV_HUGEPAGE only
            // changes how the kernel backs those pages (their contents are unaffected), and a
            // failure (THP disabled, old kernel) leaves the mapping as it was.
            unsafe { libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE) };
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (p, n);
}

/// `n` copies of `v` in a cached buffer of that length where there is one (mapped, likely
/// in cache: a 4 MiB `full` 73 -> 45 µs), else a fresh one.
pub fn filled<T: Cached>(n: usize, v: T) -> crate::Result<Vec<T>> {
    match T::cache().take_cached(n) {
        Some(mut out) => {
            super::par_fill(&mut out, v);
            Ok(out)
        }
        None => try_filled(n, v),
    }
}

/// `n` zeros: a cached buffer of that length cleared, else straight from the allocator's
/// zeroed pages (calloc-like: large buffers are not touched until written), or the
/// allocator's error. Clearing mapped memory costs far less than faulting fresh pages in
/// (Zen 4: 10 MiB cleared ~0.4 ms, faulted in page by page ~5 ms, an embedding gradient's
/// backward 7 → 2 ms); without the reuse, gradients freed into the cache piled up there
/// unused (up to `PER_SIZE` of a size) while each new one faulted its pages in.
pub fn try_zeroed<T: Cached>(n: usize) -> crate::Result<Vec<T>> {
    if n == 0 || std::mem::size_of::<T>() == 0 {
        return Ok(Vec::new());
    }
    if let Some(mut v) = T::cache().take_cached(n) {
        // the `Cached` types (bool, integers, floats) have their zero as the default
        super::par_fill(&mut v, T::default());
        return Ok(v);
    }
    check_host_bytes::<T>(n)?;
    let layout = std::alloc::Layout::array::<T>(n).map_err(|_| out_of_memory::<T>(n))?;
    // SAFETY: `layout` has a non-zero size (n > 0 and T is not zero-sized).
    let p = unsafe { std::alloc::alloc_zeroed(layout) } as *mut T;
    if p.is_null() {
        return Err(out_of_memory::<T>(n));
    }
    advise_huge_pages(p, n);
    // SAFETY: `p` comes from the global allocator with the layout of `[T; n]` (what Vec
    // uses for capacity n), and every element is initialised: the `Cached` types (bool,
    // integers, floats) are valid as all-zero bytes (false, 0, +0.0).
    Ok(unsafe { Vec::from_raw_parts(p, n, n) })
}

/// `f(0), f(1), ..., f(n-1)`, or the allocator's error.
pub fn try_with<T>(n: usize, f: impl FnMut(usize) -> T) -> crate::Result<Vec<T>> {
    check_host_bytes::<T>(n)?;
    let mut out = Vec::new();
    out.try_reserve_exact(n).map_err(|_| out_of_memory::<T>(n))?;
    advise_huge_pages(out.as_ptr(), n);
    out.extend((0..n).map(f));
    Ok(out)
}

/// `try_with` into a cached buffer of `n` elements when one is there (its pages already
/// mapped: a fresh 8 MB block faults 2048 pages in as it is filled), vectorised.
pub fn cached_with<T: Cached>(n: usize, mut f: impl FnMut(usize) -> T) -> crate::Result<Vec<T>> {
    match T::cache().take_cached(n) {
        Some(mut v) => {
            super::math::simd(|| v.iter_mut().enumerate().for_each(|(i, o)| *o = f(i)));
            Ok(v)
        }
        None => try_with(n, f),
    }
}

/// Free all cached buffers (e.g. before measuring memory).
pub fn empty_cache() {
    bool::cache().clear();
    u8::cache().clear();
    i8::cache().clear();
    i16::cache().clear();
    i32::cache().clear();
    i64::cache().clear();
    half::f16::cache().clear();
    f32::cache().clear();
    f64::cache().clear();
}

/// Take (`lock`) or release every buffer cache's lock around a fork.
///
/// # Safety
/// Release only what a matching lock call took.
pub(crate) unsafe fn fork_locks(lock: bool) {
    macro_rules! each {
        ($($t:ty),*) => {$(
            if lock {
                <$t>::cache().fork_lock();
            } else {
                // SAFETY: forwarded from the caller: taken by the matching `lock` call.
                unsafe { <$t>::cache().fork_unlock() };
            }
        )*};
    }
    each!(bool, u8, i8, i16, i32, i64, half::f16, f32, f64);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn large_buffers_of_one_length_are_kept_by_bytes() {
        // 32 MiB buffers: 256 MiB of them (8), not PER_SIZE (32) = 1 GiB; small ones up to 32
        let cache = VecCache::<u8>::new();
        for _ in 0..12 {
            cache.give(vec![0u8; 32 << 20]);
        }
        let mut kept = 0;
        while cache.take_cached(32 << 20).is_some() {
            kept += 1;
        }
        assert_eq!(kept, 8);
        for _ in 0..40 {
            cache.give(vec![0u8; 1 << 16]);
        }
        let mut kept = 0;
        while cache.take_cached(1 << 16).is_some() {
            kept += 1;
        }
        assert_eq!(kept, PER_SIZE);
    }

    #[test]
    fn requests_beyond_memory_and_swap_fail_before_the_allocator() {
        // what an overcommitting allocator would hand out anyway
        let too_many = host_limit() / 8 + 1;
        assert!(matches!(try_zeroed::<f64>(too_many), Err(crate::Error::HostOutOfMemory { .. })));
        assert!(matches!(try_filled(too_many, 0u64), Err(crate::Error::HostOutOfMemory { .. })));
        assert!(matches!(try_with(too_many, |i| i as f64), Err(crate::Error::HostOutOfMemory { .. })));
        assert!(check_host_bytes::<f32>(1 << 20).is_ok());
        assert!(check_host_bytes::<f32>(usize::MAX).is_err());
    }

    /// A zeroed request reuses a cached buffer of its length, cleared (its old contents
    /// never show), and leaves the cache without it.
    #[test]
    fn zeroed_buffers_come_cleared_from_the_cache() {
        // a length no other test uses, so that parallel tests do not take it meanwhile
        let n = (1 << 16) + 12_345;
        let mut v = try_filled(n, 7i16).unwrap();
        v[n - 1] = -3;
        let addr = v.as_ptr() as usize;
        i16::cache().give(v);
        let z = try_zeroed::<i16>(n).unwrap();
        assert_eq!(z.as_ptr() as usize, addr, "the cached buffer is reused");
        assert!(z.iter().all(|&x| x == 0));
        assert!(i16::cache().take_cached(n).is_none());
    }

    /// Large buffers carry the huge-page advice (`hg` in their mapping's VmFlags), and the
    /// advice leaves the contents alone.
    #[cfg(target_os = "linux")]
    #[test]
    fn large_buffers_are_advised_huge_pages() {
        if !std::path::Path::new("/sys/kernel/mm/transparent_hugepage/enabled").exists() {
            return; // a kernel without THP: madvise fails and nothing changes
        }
        let advised = |addr: usize| -> bool {
            let smaps = std::fs::read_to_string("/proc/self/smaps").unwrap();
            let mut inside = false;
            for line in smaps.lines() {
                let head = line.split_whitespace().next().unwrap_or("");
                if let Some((a, b)) = head.split_once('-') {
                    if let (Ok(a), Ok(b)) = (usize::from_str_radix(a, 16), usize::from_str_radix(b, 16)) {
                        inside = a <= addr && addr < b;
                        continue;
                    }
                }
                if inside && line.starts_with("VmFlags:") {
                    return line.split_whitespace().any(|f| f == "hg");
                }
            }
            false
        };
        let big = try_filled(8 << 20, 1.5f32).unwrap();
        assert!(big.iter().all(|&v| v == 1.5));
        let mid = big.as_ptr() as usize + big.len() * 2; // the middle, inside the aligned part
        assert!(advised(mid));
        let zeros = try_zeroed::<f64>(4 << 20).unwrap();
        assert!(zeros.iter().all(|&v| v == 0.0));
        assert!(advised(zeros.as_ptr() as usize + zeros.len() * 4));
        let made = try_with(8 << 20, |i| i as u32).unwrap();
        assert!(made.iter().enumerate().all(|(i, &v)| v == i as u32));
        assert!(advised(made.as_ptr() as usize + made.len() * 2));
    }
}
