//! CPU kernels on (storage, layout): strided walks with contiguous fast paths, typed loops,
//! chunks run in parallel on the spinning team (`team.rs`) above a size threshold. Nothing here knows about `Tensor`: this
//! folder is the CPU backend (`backend.rs` implements the contract of `crate::backend`).

pub mod alloc;
pub mod attention;
#[cfg(feature = "python")]
pub mod split_alloc;
mod backend;
pub(crate) mod conv;
pub mod elementwise;
mod grid;
pub mod index;
pub mod math;
pub mod linalg;
mod matmul;
pub(crate) mod norm;
pub mod optim;
pub(crate) mod pool;
pub mod reduce;
pub(crate) mod rnn;
pub(crate) mod team;
pub(crate) mod transpose;
pub mod topk_order;
pub use matmul::{gemm, gemm_batch, MatmulArgs};

use crate::dtype::{DType, Elem};
use crate::shape::{walk1, walk2, walk2_rows, Layout};
use crate::storage::{CpuStorage, StorageElem};
use crate::with_buf;
use half::f16;

/// Below this many elements a kernel runs on the calling thread (a hand-off costs more).
pub const PAR_THRESHOLD: usize = 1 << 16;
pub(crate) const CHUNK: usize = 1 << 14;

/// Rounding a float to `dt` (float16 or bfloat16, nearest even) and back: what storing a
/// float32 result in that dtype does.
pub(crate) fn half_rounding(dt: DType) -> fn(f32) -> f32 {
    fn bf16(v: f32) -> f32 {
        half::bf16::from_f32(v).to_f32()
    }
    fn f16(v: f32) -> f32 {
        half::f16::from_f32(v).to_f32()
    }
    if dt == DType::BFloat16 { bf16 } else { f16 }
}

/// Whether `n` elements are worth splitting over the threads.
fn parallel(n: usize) -> bool {
    n >= PAR_THRESHOLD && crate::runtime::num_threads() > 1
}

/// `d[dl] = s[sl]` row by row where both layouts run along their last dim with unit stride
/// (a slice of the last dim, a concatenation's part, a transpose of the leading dims): one
/// `memcpy` per row, the rows split over the team when the copy is large and the destination's
/// rows do not overlap (`rows_disjoint`; an overlapping one is written in order). False
/// (nothing done) for other layouts and for short rows, which the element walk serves.
fn copy_rows_between<T: Copy + Send + Sync>(d: &mut [T], dl: &Layout, s: &[T], sl: &Layout) -> bool {
    let nd = dl.ndim();
    if nd < 2 || dl.strides[nd - 1] != 1 || sl.strides[nd - 1] != 1 || dl.shape[nd - 1] < 16 {
        return false;
    }
    let inner = dl.shape[nd - 1];
    let n = dl.numel();
    let rows = n / inner;
    // each row's offsets in both layouts stepped from the last (`walk2_rows`; dividing a row
    // number down to its index cost ~10 ns a row, a sixth of a short row's copy)
    if parallel(n) && rows_disjoint(dl) && rows > 1 {
        let dp = team::SendPtr(d.as_mut_ptr());
        let dlen = d.len();
        team::run_blocks(rows, &|range| {
            walk2_rows(dl, sl, range, |od, os| {
                assert!(od + inner <= dlen, "copy_rows_between: destination row in bounds");
                // SAFETY: row r's destination `od..od + inner` is in bounds (asserted) and
                // disjoint from every other row's (`disjoint`), so each part writes only its
                // own rows; `d` outlives the region (`run_blocks` returns after every part).
                let dst = unsafe { std::slice::from_raw_parts_mut(dp.get().add(od), inner) };
                dst.copy_from_slice(&s[os..os + inner]);
            })
        });
    } else {
        walk2_rows(dl, sl, 0..rows, |od, os| d[od..od + inner].copy_from_slice(&s[os..os + inner]));
    }
    true
}

/// Whether no two elements of `l` share an offset: in order of stride, each dim steps past
/// the extent of the smaller ones (a sufficient test).
fn rows_disjoint(l: &Layout) -> bool {
    let mut dims: Vec<(usize, usize)> = (0..l.ndim()).filter(|&k| l.shape[k] > 1).map(|k| (l.strides[k], l.shape[k])).collect();
    dims.sort_unstable();
    let mut extent = 1;
    dims.iter().all(|&(st, sh)| {
        let ok = st >= extent;
        extent += st * (sh - 1);
        ok
    })
}

/// `k(i, chunk_i)` over the `CHUNK`-element chunks of `dst`, in parallel on the team.
fn team_chunks<U: Send>(dst: &mut [U], k: impl Fn(usize, &mut [U]) + Sync) {
    let n = dst.len();
    let p = team::SendPtr(dst.as_mut_ptr());
    team::run_blocks(n.div_ceil(CHUNK), &|r| {
        for i in r {
            let lo = i * CHUNK;
            let len = CHUNK.min(n - lo);
            // SAFETY: chunk i covers dst[lo..lo + len], disjoint from every other chunk, and
            // `dst` is borrowed mutably until `run_blocks` returns after every block.
            let c = unsafe { std::slice::from_raw_parts_mut(p.get().add(lo), len) };
            k(i, c)
        }
    });
}

/// `dst.fill(v)`, vectorised, in chunks on the team when large (a fill of a few MB is
/// bound by one core's store bandwidth).
pub(crate) fn par_fill<T: Copy + Send + Sync>(dst: &mut [T], v: T) {
    if parallel(dst.len()) {
        team_chunks(dst, |_, c| math::simd(|| c.fill(v)));
    } else {
        math::simd(|| dst.fill(v));
    }
}

/// `dst.copy_from_slice(src)`, in chunks on the team when large.
pub(crate) fn par_copy<T: Copy + Send + Sync>(dst: &mut [T], src: &[T]) {
    if parallel(dst.len()) {
        team_chunks(dst, |i, c| c.copy_from_slice(chunk_of(src, i, c.len())));
    } else {
        dst.copy_from_slice(src);
    }
}

/// The chunk of `x` that matches chunk `i` (of length `len`) of the destination.
fn chunk_of<T>(x: &[T], i: usize, len: usize) -> &[T] {
    &x[i * CHUNK..i * CHUNK + len]
}

/// `out[i] = f(x[i])` over a layout, into a fresh contiguous Vec (from the buffer cache).
pub fn map1<T: StorageElem, U: StorageElem>(s: &CpuStorage, l: &Layout, f: impl Fn(T) -> U + Sync) -> crate::Result<Vec<U>> {
    let mut out = alloc::take::<U>(l.numel())?;
    map1_into(&mut out, s, l, f);
    Ok(out)
}

/// `dst[i] = f(x[i])` over a layout into a contiguous destination of `l.numel()` elements.
pub fn map1_into<T: StorageElem, U: StorageElem>(dst: &mut [U], s: &CpuStorage, l: &Layout, f: impl Fn(T) -> U + Sync) {
    let x = T::get(s);
    if let Some(r) = l.contiguous_range() {
        let x = &x[r];
        par_zip1(dst, x, |o, x| math::map_tiered(o, x, &f));
        return;
    }
    let mut i = 0;
    walk1(l, |o| {
        dst[i] = f(x[o]);
        i += 1;
    });
}

/// Rows per block for `par_row_blocks`: about `elems` elements a block, and at most
/// `max_blocks` blocks (where each block keeps a partial result of its own).
pub(crate) fn rows_per_block(rows: usize, r: usize, elems: usize, max_blocks: usize) -> usize {
    (elems / r.max(1)).max(rows.div_ceil(max_blocks.max(1))).max(1)
}

/// `k(b, first_row, block)` over blocks of `per` whole rows of `dst` (rows of `r` elements;
/// `b` numbers the blocks), in parallel above the threshold. The blocks depend on the sizes
/// only, not on the thread count, so per-block partial results combined in block order are
/// the same on any number of threads.
pub(crate) fn par_row_blocks<U: Send>(dst: &mut [U], r: usize, per: usize, k: impl Fn(usize, usize, &mut [U]) + Sync) {
    let rows = if r == 0 { 0 } else { dst.len() / r };
    let per = per.max(1);
    let blocks = rows.div_ceil(per);
    let p = team::SendPtr(dst.as_mut_ptr());
    let one = |b: usize| {
        let (lo, hi) = (b * per, ((b + 1) * per).min(rows));
        // SAFETY: block b covers rows lo..hi of `dst`, disjoint from every other block, and
        // `dst` stays mutably borrowed until every block has run.
        let c = unsafe { std::slice::from_raw_parts_mut(p.get().add(lo * r), (hi - lo) * r) };
        k(b, lo, c)
    };
    if parallel(dst.len()) && blocks > 1 {
        team::run_blocks(blocks, &|range| range.for_each(one));
    } else {
        (0..blocks).for_each(one);
    }
}

/// Run `k(out_chunk, in_chunk)` over matching chunks, in parallel above the threshold.
pub fn par_zip1<T: Sync, U: Send>(dst: &mut [U], x: &[T], k: impl Fn(&mut [U], &[T]) + Sync) {
    if parallel(dst.len()) {
        team_chunks(dst, |i, o| k(o, chunk_of(x, i, o.len())));
    } else {
        k(dst, x);
    }
}

/// `k(out, a, b)` over matching chunks of three slices of one length, on the team when large.
pub fn par_zip2<T: Sync, U: Send>(dst: &mut [U], a: &[T], b: &[T], k: impl Fn(&mut [U], &[T], &[T]) + Sync) {
    if parallel(dst.len()) {
        team_chunks(dst, |i, o| k(o, chunk_of(a, i, o.len()), chunk_of(b, i, o.len())));
    } else {
        k(dst, a, b);
    }
}

/// `s + v * a * b` (`div`: `s + v * a / b`) of three slices of one length into a fresh
/// buffer, rounded as ATen's addcmul/addcdiv kernels round it: `v * a` first, then for
/// addcmul one fused multiply-add `fma(v a, b, s)` (ATen's builds contract it), for addcdiv
/// the quotient and then the sum; on the team when large.
pub fn addc<T>(s: &[T], a: &[T], b: &[T], v: T, div: bool) -> crate::Result<Vec<T>>
where
    T: alloc::Cached + Send + Sync + num_traits::Float,
{
    let mut out = alloc::take::<T>(s.len())?;
    let k = |o: &mut [T], s: &[T], a: &[T], b: &[T]| {
        if div {
            math::zip3_tiered(o, s, a, b, &|s, a, b| s + v * a / b);
        } else {
            math::zip3_tiered(o, s, a, b, &|s, a, b| (v * a).mul_add(b, s));
        }
    };
    if parallel(out.len()) {
        team_chunks(&mut out, |i, o| k(o, chunk_of(s, i, o.len()), chunk_of(a, i, o.len()), chunk_of(b, i, o.len())));
    } else {
        k(&mut out, s, a, b);
    }
    Ok(out)
}

/// `addc` in place: `s[i] += v * a[i] * b[i]` (`div`: `v * a[i] / b[i]`) with the same
/// rounding, for `addcmul_` / `addcdiv_` (an optimizer's moment updates).
pub fn addc_into<T>(s: &mut [T], a: &[T], b: &[T], v: T, div: bool)
where
    T: Send + Sync + num_traits::Float,
{
    let k = |o: &mut [T], a: &[T], b: &[T]| {
        if div {
            math::update2_tiered(o, a, b, &|s, a, b| s + v * a / b);
        } else {
            math::update2_tiered(o, a, b, &|s, a, b| (v * a).mul_add(b, s));
        }
    };
    if parallel(s.len()) {
        team_chunks(s, |i, o| k(o, chunk_of(a, i, o.len()), chunk_of(b, i, o.len())));
    } else {
        k(s, a, b);
    }
}

/// `out[i] = f(a[i], b[i])` over two layouts of the same (broadcast) shape.
pub fn map2<T: StorageElem, U: StorageElem>(
    a: &CpuStorage,
    la: &Layout,
    b: &CpuStorage,
    lb: &Layout,
    f: impl Fn(T, T) -> U + Sync,
) -> crate::Result<Vec<U>> {
    let mut out = alloc::take::<U>(la.numel())?;
    map2_into(&mut out, T::get(a), la, T::get(b), lb, f);
    Ok(out)
}

/// `dst[i] = f(a[i], b[i])` into a contiguous destination.
pub fn map2_into<T: Copy + Sync, U: Copy + Send>(dst: &mut [U], xa: &[T], la: &Layout, xb: &[T], lb: &Layout, f: impl Fn(T, T) -> U + Sync) {
    let n = la.numel();
    if let (Some(ra), Some(rb)) = (la.contiguous_range(), lb.contiguous_range()) {
        let (xa, xb) = (&xa[ra], &xb[rb]);
        let kernel = |o: &mut [U], a: &[T], b: &[T]| math::zip_tiered(o, a, b, &f);
        if parallel(n) {
            team_chunks(dst, |i, o| kernel(o, chunk_of(xa, i, o.len()), chunk_of(xb, i, o.len())));
        } else {
            kernel(dst, xa, xb);
        }
        return;
    }
    // scalar operand: common in `x * 2`
    if lb.strides.iter().all(|&s| s == 0) {
        if let Some(ra) = la.contiguous_range() {
            let c = xb[lb.offset];
            par_zip1(dst, &xa[ra], |o, a| math::map_tiered(o, a, &|a| f(a, c)));
            return;
        }
    }
    // broadcast along outer dims with unit- or zero-stride rows (`x + bias`): row by row
    let nd = la.ndim();
    if nd >= 1 && la.strides[nd - 1] <= 1 && lb.strides[nd - 1] <= 1 {
        let row = la.shape[nd - 1];
        if row > 0 {
            let outer = Layout { shape: la.shape[..nd - 1].into(), strides: la.strides[..nd - 1].into(), offset: la.offset };
            let outer_b = Layout { shape: lb.shape[..nd - 1].into(), strides: lb.strides[..nd - 1].into(), offset: lb.offset };
            let (sa, sb) = (la.strides[nd - 1], lb.strides[nd - 1]);
            // rows shorter than a vector or two (`labels[:, None] == arange(10)`) in plain
            // loops: a dispatch per row would cost more than the row
            let short = row < 16;
            let one = |o: &mut [U], oa: usize, ob: usize| match (sa, sb) {
                (1, 1) if short => o.iter_mut().zip(&xa[oa..oa + row]).zip(&xb[ob..ob + row]).for_each(|((o, &a), &b)| *o = f(a, b)),
                (1, _) if short => { let c = xb[ob]; o.iter_mut().zip(&xa[oa..oa + row]).for_each(|(o, &a)| *o = f(a, c)) }
                (_, 1) if short => { let c = xa[oa]; o.iter_mut().zip(&xb[ob..ob + row]).for_each(|(o, &b)| *o = f(c, b)) }
                (1, 1) => math::zip_tiered(o, &xa[oa..oa + row], &xb[ob..ob + row], &f),
                (1, _) => { let c = xb[ob]; math::map_tiered(o, &xa[oa..oa + row], &|a| f(a, c)) }
                (_, 1) => { let c = xa[oa]; math::map_tiered(o, &xb[ob..ob + row], &|b| f(c, b)) }
                _ => { let v = f(xa[oa], xb[ob]); o.iter_mut().for_each(|o| *o = v) }
            };
            if parallel(n) && n / row > 1 {
                // blocks of rows on the team (a Linear layer's bias add on two threads), each
                // row's offsets found from its index
                par_row_blocks(dst, row, (16_384 / row).max(1), |_, first, block| {
                    for (k, o) in block.chunks_exact_mut(row).enumerate() {
                        let (oa, ob) = (row_start(&outer, first + k), row_start(&outer_b, first + k));
                        one(o, oa, ob);
                    }
                });
                return;
            }
            let mut r = 0;
            walk2(&outer, &outer_b, |oa, ob| {
                one(&mut dst[r * row..(r + 1) * row], oa, ob);
                r += 1;
            });
            return;
        }
    }
    let mut i = 0;
    walk2(la, lb, |oa, ob| {
        dst[i] = f(xa[oa], xb[ob]);
        i += 1;
    });
}

/// `dst[i] = f(dst[i], b[i])` in place over a contiguous destination.
pub fn zip_inplace<T: Copy + Sync + Send>(dst: &mut [T], xb: &[T], lb: &Layout, f: impl Fn(T, T) -> T + Sync) {
    if lb.strides.iter().all(|&s| s == 0) {
        let c = xb[lb.offset];
        let kernel = |o: &mut [T]| math::update_tiered(o, None, c, &f);
        if parallel(dst.len()) {
            team_chunks(dst, |_, o| kernel(o));
        } else {
            kernel(dst);
        }
        return;
    }
    if let Some(rb) = lb.contiguous_range() {
        let xb = &xb[rb];
        let c = xb.first().copied();
        let kernel = |o: &mut [T], b: &[T]| if let Some(c) = c { math::update_tiered(o, Some(b), c, &f) };
        if parallel(dst.len()) {
            team_chunks(dst, |i, o| kernel(o, chunk_of(xb, i, o.len())));
        } else {
            kernel(dst, xb);
        }
        return;
    }
    let mut i = 0;
    walk1(lb, |ob| {
        dst[i] = f(dst[i], xb[ob]);
        i += 1;
    });
}

/// Float to integer as torch's x86 CPU kernels convert (`cvttsd2si`): truncation, and the
/// "integer indefinite" value (the type's minimum) for NaN and out-of-range values; uint8 goes
/// through int64, the other types narrower than 32 bits through int32, and wrap.
fn float_to_int(v: f64, to: DType) -> i64 {
    // uint8 goes through int64 as c10's `static_cast_with_inter_type<uint8_t>` does (so
    // 3e10 gives its low byte), the other narrow types through int32
    if to == DType::Int64 || to == DType::UInt8 {
        if v.is_nan() || v >= 9.223_372_036_854_775_808e18 || v < -9.223_372_036_854_775_808e18 { i64::MIN } else { v as i64 }
    } else if v.is_nan() || v >= 2_147_483_648.0 || v < -2_147_483_648.0 {
        i32::MIN as i64
    } else {
        v as i64
    }
}

/// # Safety
/// `A` and `B` must be the same type (callers match on the dtype tags, one Rust type each).
unsafe fn same<A, B>(s: &[A]) -> &[B] {
    debug_assert_eq!(std::mem::size_of::<A>(), std::mem::size_of::<B>());
    // SAFETY: A and B are the same type (the caller's contract), so the view is exact.
    unsafe { std::slice::from_raw_parts(s.as_ptr() as *const B, s.len()) }
}
/// # Safety
/// As `same`.
unsafe fn same_mut<A, B>(s: &mut [A]) -> &mut [B] {
    debug_assert_eq!(std::mem::size_of::<A>(), std::mem::size_of::<B>());
    // SAFETY: as `same`; the borrow is moved, so the view stays unique.
    unsafe { std::slice::from_raw_parts_mut(s.as_mut_ptr() as *mut B, s.len()) }
}

/// A float truncated toward zero to an integer as C++'s `static_cast` runs on x86 (PyTorch's
/// casts): NaN and values outside the integer's range give its minimum. One truncation per
/// lane (Rust's saturating `as` adds a fix-up per lane).
macro_rules! float_to_int_x86 {
    ($name:ident, $f:ty, $i:ty, $lim:expr) => {
        #[inline(always)]
        fn $name(v: $f) -> $i {
            let ok = v >= -$lim && v < $lim;
            // SAFETY: the value truncated is within the integer's range (0 where `v` is not)
            let i = unsafe { if ok { v } else { 0.0 }.to_int_unchecked::<$i>() };
            if ok {
                i
            } else {
                <$i>::MIN
            }
        }
    };
}
float_to_int_x86!(f32_to_i32, f32, i32, 2_147_483_648.0);
float_to_int_x86!(f64_to_i32, f64, i32, 2_147_483_648.0);
float_to_int_x86!(f32_to_i64, f32, i64, 9.223_372_036_854_775_808e18);
float_to_int_x86!(f64_to_i64, f64, i64, 9.223_372_036_854_775_808e18);

/// float32 to int64 through int32's truncation, one instruction per lane (int64's is a scalar
/// instruction per element without AVX-512DQ: half PyTorch's speed), a block at a time; a block
/// holding a value past int32 (or NaN) is redone element by element.
fn f32_to_i64_slice(o: &mut [i64], x: &[f32]) {
    for (o, x) in o.chunks_mut(256).zip(x.chunks(256)) {
        math::map_tiered(o, x, &|v: f32| f32_to_i32(v) as i64);
        if x.iter().fold(false, |wide, v| wide | !(v.abs() < 2_147_483_648.0)) {
            for (o, &v) in o.iter_mut().zip(x) {
                *o = f32_to_i64(v);
            }
        }
    }
}

/// Contiguous casts between the common real dtypes as plain loops the compiler vectorises (the
/// generic loop widens every element to f64 and back: 2-3 ns an element, up to ten times
/// PyTorch's time), on the team when large. The values are C++'s `static_cast`s as PyTorch
/// computes them on x86: floats truncated toward zero (NaN and out-of-range values to the
/// integer minimum, through int64 for uint8 and int32 for the other narrow types, then wrapped),
/// integers rounded once to a float, anything nonzero (NaN included) true. False for the
/// pairs left to the generic loop.
fn fast_cast<T: Elem, U: StorageElem>(x: &[T], out: &mut [U]) -> bool {
    if (T::DTYPE, U::DTYPE) == (DType::Float32, DType::Int64) {
        // SAFETY: the dtype tags name T and U, as in `arms!` below
        let (x, out) = unsafe { (same::<T, f32>(x), same_mut::<U, i64>(out)) };
        par_zip1(out, x, f32_to_i64_slice);
        return true;
    }
    macro_rules! arms {
        ($( ($a:ident, $ta:ty) => [$( ($b:ident, $tb:ty, $f:expr) ),* $(,)?] ),* $(,)?) => {
            match (T::DTYPE, U::DTYPE) {
                $($( (DType::$a, DType::$b) => {
                    // SAFETY: the dtype tags name T and U (the sealed Elem trait gives each
                    // dtype one Rust type), so the views are of the types the slices hold
                    let (x, out) = unsafe { (same::<T, $ta>(x), same_mut::<U, $tb>(out)) };
                    par_zip1(out, x, |o, x| math::map_tiered(o, x, &$f));
                } )*)*
                _ => return false,
            }
            true
        };
    }
    arms! {
        (Float32, f32) => [
            (Float64, f64, |v: f32| v as f64),
            (Int32, i32, f32_to_i32),
            (Int16, i16, |v: f32| f32_to_i32(v) as i16),
            (Int8, i8, |v: f32| f32_to_i32(v) as i8),
            (UInt8, u8, |v: f32| f32_to_i64(v) as u8),
            (Bool, bool, |v: f32| v != 0.0),
        ],
        (Float64, f64) => [
            (Float32, f32, |v: f64| v as f32),
            (Int64, i64, f64_to_i64),
            (Int32, i32, f64_to_i32),
            (UInt8, u8, |v: f64| f64_to_i64(v) as u8),
            (Bool, bool, |v: f64| v != 0.0),
        ],
        (Int64, i64) => [
            (Float32, f32, |v: i64| v as f32),
            (Float64, f64, |v: i64| v as f64),
            (Int32, i32, |v: i64| v as i32),
            (UInt8, u8, |v: i64| v as u8),
            (Bool, bool, |v: i64| v != 0),
        ],
        (Int32, i32) => [
            (Float32, f32, |v: i32| v as f32),
            (Float64, f64, |v: i32| v as f64),
            (Int64, i64, |v: i32| v as i64),
            (Bool, bool, |v: i32| v != 0),
        ],
        (Int16, i16) => [(Float32, f32, |v: i16| v as f32), (Int64, i64, |v: i16| v as i64)],
        (Int8, i8) => [(Float32, f32, |v: i8| v as f32), (Int64, i64, |v: i8| v as i64)],
        (UInt8, u8) => [
            (Float32, f32, |v: u8| v as f32),
            (Float64, f64, |v: u8| v as f64),
            (Int64, i64, |v: u8| v as i64),
            (Int32, i32, |v: u8| v as i32),
            (Bool, bool, |v: u8| v != 0),
        ],
        (Bool, bool) => [
            (Float32, f32, |v: bool| v as u8 as f32),
            (Float64, f64, |v: bool| v as u8 as f64),
            (Int64, i64, |v: bool| v as i64),
            (Int32, i32, |v: bool| v as i32),
            (UInt8, u8, |v: bool| v as u8),
        ],
    }
}

/// Float16/bfloat16 <-> float32 of contiguous slices at vector speed (the generic element
/// loop goes through f64 and cost 4-8 ns an element, ten times a half op's own work): bfloat16
/// takes `math`'s bit kernels, float16 `half`'s F16C slice conversions. False for other pairs.
fn half_cast<T: Elem, U: StorageElem>(x: &[T], out: &mut [U]) -> bool {
    use half::slice::HalfFloatSliceExt;
    // SAFETY: each arm's dtype tags name T and U (the sealed Elem trait gives each dtype one
    // Rust type), so every view below is of the type the slice really holds.
    unsafe {
        match (T::DTYPE, U::DTYPE) {
            (DType::BFloat16, DType::Float32) => math::bf16_to_f32(same(x), same_mut(out)),
            (DType::Float32, DType::BFloat16) => math::f32_to_bf16(same(x), same_mut(out)),
            (DType::Float16, DType::Float32) => same::<T, f16>(x).convert_to_f32_slice(same_mut(out)),
            (DType::Float32, DType::Float16) => same_mut::<U, f16>(out).convert_from_f32_slice(same(x)),
            _ => return false,
        }
    }
    true
}

fn cast_vec<T: Elem, U: StorageElem>(x: &[T], l: &Layout) -> crate::Result<Vec<U>> {
    let to_int = T::DTYPE.is_float() && U::DTYPE.category() == crate::dtype::Category::Integral;
    let conv = |v: T| -> U {
        if to_int {
            U::from_i64(float_to_int(v.to_f64(), U::DTYPE))
        } else if T::DTYPE.is_float() || U::DTYPE.is_float() {
            U::from_f64(v.to_f64())
        } else {
            U::from_i64(v.to_i64())
        }
    };
    // a broadcast layout can ask for far more elements than the source holds: the buffer
    // comes from the cache (a fresh large block from the system allocator costs a page fault
    // per 4 KiB: a 128×256 float32 clone took 23 µs instead of 5) or fails with the
    // allocator's error
    let n = l.numel();
    match l.contiguous_range() {
        Some(r) => {
            let mut out = alloc::take::<U>(n)?;
            if T::DTYPE == U::DTYPE {
                // SAFETY: equal dtype tags mean T and U are the same type (the sealed Elem
                // trait gives each dtype one Rust type), so the slice can be viewed as [U].
                let src = unsafe { std::slice::from_raw_parts(x[r].as_ptr() as *const U, n) };
                par_copy(&mut out, src);
                return Ok(out);
            }
            if !half_cast(&x[r.clone()], &mut out) && !fast_cast(&x[r.clone()], &mut out) {
                for (o, &v) in out.iter_mut().zip(&x[r]) {
                    *o = conv(v);
                }
            }
            return Ok(out);
        }
        None if transposed_last_two(l) => {
            let mut out = alloc::take::<U>(n)?;
            // `.t().contiguous()`, or a reduction moving dim 0 last: the source's unit stride
            // is the output's second-to-last dim, so walking the output in order reads one
            // element per cache line: the same dtype takes the register-block transpose,
            // a conversion 32×32 tiles that keep the lines in cache (~10x faster than in order)
            const B: usize = 32;
            let nd = l.ndim();
            let (r, c, cs) = (l.shape[nd - 2], l.shape[nd - 1], l.strides[nd - 1]);
            let outer = Layout { shape: l.shape[..nd - 2].into(), strides: l.strides[..nd - 2].into(), offset: l.offset };
            let same = T::DTYPE == U::DTYPE;
            let mut base = 0;
            walk1(&outer, |ob| {
                let src = &x[ob..ob + (r - 1) + (c - 1) * cs + 1];
                let dst = &mut out[base..base + r * c];
                if same {
                    // SAFETY: equal dtype tags mean T and U are the same type (the sealed
                    // Elem trait gives each dtype one Rust type).
                    let dst = unsafe { std::slice::from_raw_parts_mut(dst.as_mut_ptr() as *mut T, dst.len()) };
                    transpose::transpose_par(src, r, c, cs, dst, c);
                    base += r * c;
                    return;
                }
                for i0 in (0..r).step_by(B) {
                    for j0 in (0..c).step_by(B) {
                        for i in i0..(i0 + B).min(r) {
                            for j in j0..(j0 + B).min(c) {
                                dst[i * c + j] = conv(src[i + j * cs]);
                            }
                        }
                    }
                }
                base += r * c;
            });
            Ok(out)
        }
        None if T::DTYPE == U::DTYPE => {
            let mut out = alloc::take::<U>(n)?;
            // SAFETY: equal dtype tags mean T and U are the same type (the sealed Elem trait
            // gives each dtype one Rust type), so the output can be written as [T].
            let dst = unsafe { std::slice::from_raw_parts_mut(out.as_mut_ptr() as *mut T, n) };
            copy_rows(x, l, dst);
            Ok(out)
        }
        None => {
            let mut out = Vec::new();
            crate::cpu::alloc::check_host_bytes::<U>(n)?;
            out.try_reserve_exact(n).map_err(|_| crate::Error::HostOutOfMemory { bytes: n.saturating_mul(std::mem::size_of::<U>()) })?;
            walk1(l, |o| out.push(conv(x[o])));
            Ok(out)
        }
    }
}

/// `l` with adjacent dims merged where one walks on from the other (stride[d] =
/// stride[d+1] * shape[d+1]) and size-1 dims dropped: the same elements in the same order,
/// in as few (and as long) rows as possible.
fn coalesce(l: &Layout) -> Layout {
    let mut shape: crate::shape::Dims = Default::default();
    let mut strides: crate::shape::Dims = Default::default();
    for d in 0..l.ndim() {
        let (sz, st) = (l.shape[d], l.strides[d]);
        if sz == 1 {
            continue;
        }
        match (shape.last().copied(), strides.last().copied()) {
            (Some(ps), Some(pst)) if pst == st * sz => {
                let k = shape.len() - 1;
                shape[k] = ps * sz;
                strides[k] = st;
            }
            _ => {
                shape.push(sz);
                strides.push(st);
            }
        }
    }
    if shape.is_empty() {
        shape.push(1);
        strides.push(1);
    }
    Layout { shape, strides, offset: l.offset }
}

/// Rows `rows` of `x` (rows of `inner` elements, the callers check the bounds), stacked.
fn gather_rows<T: Copy + Send + Sync + alloc::Cached>(x: &[T], rows: &[usize], inner: usize, within: crate::backend::RowOrder) -> crate::Result<Vec<T>> {
    use crate::backend::RowOrder;
    let mut out = alloc::take::<T>(rows.len() * inner)?;
    if inner == 0 {
        return Ok(out);
    }
    // blocks of rows on the team (a batch of embedding lookups is megabytes)
    let per = rows_per_block(rows.len(), inner, CHUNK, usize::MAX);
    par_row_blocks(&mut out, inner, per, |_, row0, ob| {
        for (dst, &r) in ob.chunks_exact_mut(inner).zip(&rows[row0..]) {
            let src = &x[r * inner..(r + 1) * inner];
            match within {
                RowOrder::Same => dst.copy_from_slice(src),
                RowOrder::Reverse => {
                    for (d, s) in dst.iter_mut().zip(src.iter().rev()) {
                        *d = *s;
                    }
                }
                RowOrder::Rotate(k) => {
                    // out[i] = src[(i - k) mod inner]: the row's last k elements first
                    let k = k % inner;
                    dst[..k].copy_from_slice(&src[inner - k..]);
                    dst[k..].copy_from_slice(&src[..inner - k]);
                }
            }
        }
    });
    Ok(out)
}

/// `gather` along `d` of the contiguous `x` (shape `xshape`) by the contiguous `idx` (shape
/// `ishape`): the index walked as an odometer, a row of its last dim at a time (no offsets
/// materialised, no division per element), each value checked as it is read (PyTorch's
/// error for the first one out of bounds, in the index's order), so that the index is read
/// once (a separate bounds pass over an 8 MiB index cost as much as the gather).
fn gather_dim<T: alloc::Cached>(x: &[T], xshape: &[usize], idx: &[i64], ishape: &[usize], d: usize) -> crate::Result<Vec<T>> {
    let bound = xshape.get(d).copied().unwrap_or(1);
    let oob = |i: i64| crate::Error::Runtime(format!("index {i} is out of bounds for dimension {d} with size {bound}"));
    let mut out = alloc::take::<T>(idx.len())?;
    let Some(last) = ishape.len().checked_sub(1) else {
        // a 0-dim index on a 0/1-dim x
        if let (Some(o), Some(&i)) = (out.first_mut(), idx.first()) {
            if i as u64 >= bound as u64 {
                return Err(oob(i));
            }
            *o = x[i as usize];
        }
        return Ok(out);
    };
    let cs = crate::shape::contiguous_strides(xshape);
    let (row, sd, sl) = (ishape[last], cs[d], cs[last]);
    if row == 0 || idx.is_empty() {
        return Ok(out);
    }
    if bound == 0 {
        return Err(oob(idx[0]));
    }
    // rows r0..r1 of the index into `o`; Err(the first bad value)
    let rows_of = |r0: usize, r1: usize, o: &mut [T]| -> Result<(), i64> {
        // the outer coordinates of row r0 (mixed radix over ishape[..last]), then an odometer
        let mut ctr = vec![0usize; last];
        let mut q = r0;
        for k in (0..last).rev() {
            ctr[k] = q % ishape[k];
            q /= ishape[k];
        }
        for (o, iv) in o.chunks_exact_mut(row).zip(idx[r0 * row..r1 * row].chunks_exact(row)) {
            // the offset of the outer coordinates, the gathered dim's left out
            let base: usize = ctr.iter().enumerate().filter(|&(k, _)| k != d).map(|(k, &c)| c * cs[k]).sum();
            // the row's largest offset (with the largest index) lies inside x: the outer
            // coordinates are inside xshape (the index is no larger apart from d, which the
            // callers check), so each checked read below is in bounds
            let top = base + (row - 1) * if d == last { 0 } else { sl } + (bound - 1) * sd;
            assert!(top < x.len(), "gather: the index's shape exceeds the input's");
            if d == last {
                for (o, &i) in o.iter_mut().zip(iv) {
                    if i as u64 >= bound as u64 {
                        return Err(i);
                    }
                    // SAFETY: 0 <= i < bound, so base + i·sd <= top < x.len() (asserted above).
                    *o = unsafe { *x.get_unchecked(base + i as usize * sd) };
                }
            } else {
                for (j, (o, &i)) in o.iter_mut().zip(iv).enumerate() {
                    if i as u64 >= bound as u64 {
                        return Err(i);
                    }
                    // SAFETY: 0 <= i < bound and j < row, so the offset is <= top < x.len().
                    *o = unsafe { *x.get_unchecked(base + j * sl + i as usize * sd) };
                }
            }
            for k in (0..last).rev() {
                ctr[k] += 1;
                if ctr[k] < ishape[k] {
                    break;
                }
                ctr[k] = 0;
            }
        }
        Ok(())
    };
    let rows = idx.len() / row;
    if parallel(idx.len()) && rows > 1 {
        // blocks of rows on the team; each stops at its first bad value, and the earliest
        // block's is the first in the index's order
        let bad = std::sync::Mutex::new(Vec::new());
        let p = team::SendPtr(out.as_mut_ptr());
        team::run_blocks(rows, &|rs| {
            // SAFETY: the block's rows of `out`, disjoint from every other block's; `out`
            // outlives the region.
            let o = unsafe { std::slice::from_raw_parts_mut(p.get().add(rs.start * row), rs.len() * row) };
            if let Err(i) = rows_of(rs.start, rs.end, o) {
                bad.lock().unwrap_or_else(|e| e.into_inner()).push((rs.start, i));
            }
        });
        if let Some(&(_, i)) = bad.into_inner().unwrap_or_else(|e| e.into_inner()).iter().min_by_key(|b| b.0) {
            return Err(oob(i));
        }
    } else {
        rows_of(0, rows, &mut out).map_err(oob)?;
    }
    Ok(out)
}

/// Zeros of `base_rows` rows with row `k` of `src` added into row `rows[k]`, in order.
fn index_add_rows<T: Copy + Default + std::ops::AddAssign + alloc::Cached>(src: &[T], rows: &[usize], inner: usize, base_rows: usize) -> crate::Result<Vec<T>> {
    let mut out = alloc::try_zeroed::<T>(base_rows * inner)?;
    if inner == 0 {
        return Ok(out);
    }
    for (k, &r) in rows.iter().enumerate() {
        for (o, &v) in out[r * inner..(r + 1) * inner].iter_mut().zip(&src[k * inner..(k + 1) * inner]) {
            *o += v;
        }
    }
    Ok(out)
}

/// The adjoint of `copy_rows`: zeros of `base_numel` elements with `src` (in the row-major
/// order of `l`) added at the offsets of `l`, a row at a time; overlapping windows (col2im)
/// accumulate in row-major order, so the result is deterministic.
fn scatter_add_rows<T: Copy + Default + std::ops::AddAssign + alloc::Cached + Send + Sync>(src: &[T], l: &Layout, base_numel: usize) -> crate::Result<Vec<T>> {
    // where no two positions of `l` coincide each gets one value: written, as PyTorch's
    // slice / select backward copies into zeros (a -0.0 gradient stays -0.0); overlapping
    // positions accumulate
    let disjoint = rows_disjoint(l);
    if l.numel() > 0 && disjoint && l.ndim() >= 2 && l.strides[l.ndim() - 1] == 1 && l.shape[l.ndim() - 1] >= 16 {
        // a slice's or a block's gradient: zeros and the rows copied whole (on the team
        // past `parallel`, as `copy_rows_between` splits)
        let mut out = alloc::take::<T>(base_numel)?;
        if parallel(base_numel) {
            team_chunks(&mut out, |_, o| o.fill(T::default()));
        } else {
            out.fill(T::default());
        }
        let dense = Layout::contiguous(&l.shape);
        if copy_rows_between(&mut out, l, src, &dense) {
            return Ok(out);
        }
    }
    let mut out = alloc::try_zeroed::<T>(base_numel)?;
    if l.numel() == 0 {
        return Ok(out);
    }
    let (outer, inner, is) = rows_of(l);
    let mut pos = 0;
    walk1(&outer, |base| {
        let row = &src[pos..pos + inner];
        if is == 1 && disjoint {
            out[base..base + inner].copy_from_slice(row);
        } else if is == 1 {
            for (o, &v) in out[base..base + inner].iter_mut().zip(row) {
                *o += v;
            }
        } else {
            for (j, &v) in row.iter().enumerate() {
                if disjoint { out[base + j * is] = v } else { out[base + j * is] += v }
            }
        }
        pos += inner;
    });
    Ok(out)
}

/// `l` as rows: (the layout of the row starts, the row length, the stride within a row),
/// after coalescing.
fn rows_of(l: &Layout) -> (Layout, usize, usize) {
    let l = coalesce(l);
    let nd = l.ndim();
    let outer = Layout { shape: l.shape[..nd - 1].into(), strides: l.strides[..nd - 1].into(), offset: l.offset };
    (outer, l.shape[nd - 1], l.strides[nd - 1])
}

/// The elements of the strided layout `l` of `x`, in row-major order, into `out`: one copy
/// per innermost row (a memcpy where the row is unit-stride) instead of an index walk per
/// element. im2col windows, permutes and narrowed views take this path.
pub(crate) fn copy_rows<T: Copy + Send + Sync>(x: &[T], l: &Layout, out: &mut [T]) {
    if out.is_empty() {
        return;
    }
    let (outer, inner, is) = rows_of(l);
    let row = |base: usize, dst: &mut [T]| {
        if is == 1 {
            dst.copy_from_slice(&x[base..base + inner]);
        } else if is == 0 {
            dst.fill(x[base]);
        } else {
            for (j, d) in dst.iter_mut().enumerate() {
                *d = x[base + j * is];
            }
        }
    };
    let rows = out.len() / inner;
    if parallel(out.len()) && rows > 1 {
        // blocks of rows on the team, each row's start found from its index
        let p = team::SendPtr(out.as_mut_ptr());
        team::run_blocks(rows, &|range| {
            for i in range {
                // SAFETY: row i is out[i*inner..(i+1)*inner], disjoint from every other row,
                // and `out` stays mutably borrowed until every block has run.
                let dst = unsafe { std::slice::from_raw_parts_mut(p.get().add(i * inner), inner) };
                row(row_start(&outer, i), dst);
            }
        });
        return;
    }
    let mut pos = 0;
    walk1(&outer, |base| {
        row(base, &mut out[pos..pos + inner]);
        pos += inner;
    });
}

/// The storage offset of element `i` (row-major) of layout `l`.
fn row_start(l: &Layout, mut i: usize) -> usize {
    let mut off = l.offset;
    for d in (0..l.ndim()).rev() {
        let s = l.shape[d];
        off += (i % s) * l.strides[d];
        i /= s;
    }
    off
}

/// Whether `l`'s last two dims are a transpose of contiguous ones (unit stride on the
/// second-to-last dim, not on the last), large enough for tiling to pay.
fn transposed_last_two(l: &Layout) -> bool {
    let nd = l.ndim();
    nd >= 2 && l.strides[nd - 2] == 1 && l.strides[nd - 1] > 1 && l.shape[nd - 1] >= 16 && l.shape[nd - 2] >= 16 && l.numel() > 0
}

/// A contiguous copy of the elements of `l`, converted to `to`.
pub fn contiguous_cast(s: &CpuStorage, l: &Layout, to: DType) -> crate::Result<CpuStorage> {
    Ok(with_buf!(s, x => match to {
        DType::Bool => bool::wrap(cast_vec(x, l)?),
        DType::UInt8 => u8::wrap(cast_vec(x, l)?),
        DType::Int8 => i8::wrap(cast_vec(x, l)?),
        DType::Int16 => i16::wrap(cast_vec(x, l)?),
        DType::Int32 => i32::wrap(cast_vec(x, l)?),
        DType::Int64 => i64::wrap(cast_vec(x, l)?),
        DType::Float16 => f16::wrap(cast_vec(x, l)?),
        DType::BFloat16 => half::bf16::wrap(cast_vec(x, l)?),
        DType::Float32 => f32::wrap(cast_vec(x, l)?),
        DType::Float64 => f64::wrap(cast_vec(x, l)?),
        DType::Complex64 | DType::Complex128 => return Err(complex_storage(to)),
    }))
}

/// Write `src` (contiguous, same dtype as `dst`, `dl.numel()` elements) into `dst` at `dl`.
pub fn scatter_contiguous(dst: &mut CpuStorage, dl: &Layout, src: &CpuStorage) {
    fn go<T: StorageElem>(dst: &mut CpuStorage, dl: &Layout, src: &CpuStorage) {
        let s = T::get(src);
        let d = T::get_mut(dst);
        if let Some(r) = dl.contiguous_range() {
            d[r].copy_from_slice(&s[..dl.numel()]);
            return;
        }
        let mut i = 0;
        walk1(dl, |o| {
            d[o] = s[i];
            i += 1;
        });
    }
    match dst.dtype() {
        DType::Bool => go::<bool>(dst, dl, src),
        DType::UInt8 => go::<u8>(dst, dl, src),
        DType::Int8 => go::<i8>(dst, dl, src),
        DType::Int16 => go::<i16>(dst, dl, src),
        DType::Int32 => go::<i32>(dst, dl, src),
        DType::Int64 => go::<i64>(dst, dl, src),
        DType::Float16 => go::<f16>(dst, dl, src),
        DType::BFloat16 => go::<half::bf16>(dst, dl, src),
        DType::Float32 => go::<f32>(dst, dl, src),
        DType::Float64 => go::<f64>(dst, dl, src),
        // a storage holds real elements (complex tensors keep interleaved pairs)
        d @ (DType::Complex64 | DType::Complex128) => panic!("invariant: real storage expected, got {d:?}"),
    }
}

/// The error of a storage-level call asked for a complex dtype: storages hold real elements
/// (a complex tensor's storage is its real dtype, pairs interleaved), so a caller that got
/// here skipped `ops::complex`'s conversion.
pub fn complex_storage(d: DType) -> crate::Error {
    crate::Error::Internal(format!("a {} storage was requested; complex tensors are stored as interleaved {} pairs", d.name(), d.to_real().name()))
}

/// Reduce each contiguous row of length `row` with `f` (rows are `x.len() / row`).
pub fn reduce_rows<T: Copy + Send + Sync, U: Send>(x: &[T], row: usize, f: impl Fn(&[T]) -> U + Sync + Send) -> Vec<U> {
    if row == 0 {
        return Vec::new();
    }
    let rows = x.len() / row;
    if parallel(x.len()) && rows > 1 {
        let mut out: Vec<Option<U>> = (0..rows).map(|_| None).collect();
        let p = team::SendPtr(out.as_mut_ptr());
        team::run_blocks(rows, &|rs| {
            for r in rs {
                let v = f(&x[r * row..(r + 1) * row]);
                // SAFETY: each block writes only the slots of its own rows; `out` outlives
                // the region.
                unsafe { *p.get().add(r) = Some(v) };
            }
        });
        return out.into_iter().map(|v| v.expect("every row is reduced by its part")).collect();
    }
    x.chunks(row).map(f).collect()
}

/// A pairwise-summed total of a contiguous slice, in f64 for accuracy with f32 inputs
/// processed in independent lanes (vectorises, deterministic).
pub fn sum_slice<T: Elem>(x: &[T]) -> f64 {
    if x.len() >= PAR_THRESHOLD {
        // fixed chunking keeps the result independent of the thread count
        let parts: Vec<f64> = if crate::runtime::num_threads() > 1 {
            let mut parts = vec![0f64; x.len().div_ceil(CHUNK)];
            let p = team::SendPtr(parts.as_mut_ptr());
            team::run_blocks(parts.len(), &|r| {
                for i in r {
                    let v = sum_slice_seq(&x[i * CHUNK..x.len().min((i + 1) * CHUNK)]);
                    // SAFETY: chunk i writes only slot i of `parts`, which outlives the region.
                    unsafe { *p.get().add(i) = v };
                }
            });
            parts
        } else {
            x.chunks(CHUNK).map(sum_slice_seq).collect()
        };
        return parts.iter().sum();
    }
    sum_slice_seq(x)
}

fn sum_slice_seq<T: Elem>(x: &[T]) -> f64 {
    if T::DTYPE == crate::dtype::DType::Float32 {
        // SAFETY: T is f32 (checked through its DTYPE tag; the Elem trait is sealed and only
        // f32 carries DType::Float32), so the slice can be viewed as f32.
        let f = unsafe { std::slice::from_raw_parts(x.as_ptr() as *const f32, x.len()) };
        return math::sum_f32(f);
    }
    let mut lanes = [0f64; 8];
    let chunks = x.chunks_exact(8);
    let rem = chunks.remainder();
    for c in chunks {
        for i in 0..8 {
            lanes[i] += c[i].to_f64();
        }
    }
    let mut s: f64 = lanes.iter().sum();
    for v in rem {
        s += v.to_f64();
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn row_copies_match_the_strided_walk() {
        let x: Vec<f64> = (0..4000).map(|i| i as f64).collect();
        let lay = |shape: &[usize], strides: &[usize], offset: usize| Layout {
            shape: shape.iter().copied().collect(), strides: strides.iter().copied().collect(), offset };
        for l in [
            // an im2col window (n, c, kh, kw, oh, ow) over a padded 2x3x10x12 input
            lay(&[2, 3, 3, 3, 8, 10], &[360, 120, 12, 1, 12, 1], 0),
            // stride 2 windows, a narrowed view, a broadcast (stride 0), size-1 dims, a permute
            lay(&[2, 3, 2, 2, 4, 5], &[360, 120, 12, 1, 24, 2], 7),
            lay(&[5, 1, 7], &[20, 99, 1], 3),
            lay(&[4, 6], &[0, 1], 11),
            lay(&[3, 4, 5], &[1, 15, 3], 0),
            lay(&[7], &[3], 2),
        ] {
            let got: Vec<f64> = cast_vec(&x, &l).unwrap();
            let mut want = Vec::new();
            walk1(&l, |o| want.push(x[o]));
            assert_eq!(got, want, "{l:?}");
        }
    }

    #[test]
    fn half_casts_match_the_scalar_conversions() {
        // every bfloat16 / float16 bit pattern widens exactly; narrowing rounds to nearest
        // even (ties both ways, overflow to inf, subnormals, NaN payloads, signed zeros)
        let all: Vec<u16> = (0..=u16::MAX).collect();
        let whole = |n: usize| Layout::contiguous(&[n]);
        let bf: Vec<half::bf16> = all.iter().map(|&b| half::bf16::from_bits(b)).collect();
        let hf: Vec<f16> = all.iter().map(|&b| f16::from_bits(b)).collect();
        let wide_bf: Vec<f32> = cast_vec(&bf, &whole(bf.len())).unwrap();
        let wide_hf: Vec<f32> = cast_vec(&hf, &whole(hf.len())).unwrap();
        for i in 0..all.len() {
            // c10 widens a bfloat16 by the shift alone (a signalling NaN stays signalling)
            assert_eq!(wide_bf[i].to_bits(), (all[i] as u32) << 16, "bf16 {:#x}", all[i]);
            if !bf[i].is_nan() {
                assert_eq!(wide_bf[i], bf[i].to_f32(), "bf16 {:#x}", all[i]);
            }
            if !hf[i].is_nan() {
                assert_eq!(wide_hf[i].to_bits(), hf[i].to_f32().to_bits(), "f16 {:#x}", all[i]);
            }
        }
        let mut xs: Vec<f32> = vec![0.0, -0.0, 1.0, f32::INFINITY, f32::NEG_INFINITY, f32::MAX, f32::MIN_POSITIVE, 1e-40, 65504.0, 65520.0, 3.0e38];
        xs.extend((0..20_000u32).map(|i| f32::from_bits(i.wrapping_mul(2_654_435_761))));
        // exact ties: the bits below the kept half are 0x8000 (odd and even kept lsb)
        xs.extend([0x3f80_8000u32, 0x3f81_8000, 0xbf80_8000, 0x3f80_8001, 0x7f7f_8000].map(f32::from_bits));
        let n = xs.len();
        let to_bf: Vec<half::bf16> = cast_vec(&xs, &whole(n)).unwrap();
        let to_hf: Vec<f16> = cast_vec(&xs, &whole(n)).unwrap();
        for (i, &x) in xs.iter().enumerate() {
            if x.is_nan() {
                assert!(to_bf[i].is_nan() && to_hf[i].is_nan(), "{:#x}", x.to_bits());
                assert_eq!(to_bf[i].to_bits() >> 15, (x.to_bits() >> 31) as u16);
                continue;
            }
            assert_eq!(to_bf[i].to_bits(), half::bf16::from_f32(x).to_bits(), "bf16 of {:#x}", x.to_bits());
            assert_eq!(to_hf[i].to_bits(), f16::from_f32(x).to_bits(), "f16 of {:#x}", x.to_bits());
        }
    }

    #[test]
    fn strided_scatter_add_is_the_adjoint_of_the_row_copy() {
        // overlapping 3x3 windows with stride 1 (col2im) and a broadcast dim
        let lay = |shape: &[usize], strides: &[usize], offset: usize| Layout {
            shape: shape.iter().copied().collect(), strides: strides.iter().copied().collect(), offset };
        for l in [lay(&[2, 3, 3, 3, 8, 10], &[360, 120, 12, 1, 12, 1], 0), lay(&[4, 6], &[0, 1], 2), lay(&[3, 4, 5], &[1, 15, 3], 0)] {
            let n = l.numel();
            let src: Vec<f64> = (0..n).map(|i| (i % 7) as f64 - 2.5).collect();
            let got = scatter_add_rows(&src, &l, 800).unwrap();
            let mut want = vec![0.0f64; 800];
            let mut k = 0;
            walk1(&l, |o| {
                want[o] += src[k];
                k += 1;
            });
            assert_eq!(got, want, "{l:?}");
        }
    }

    #[test]
    fn tiled_transpose_copy_matches_the_strided_walk() {
        // (3, 40, 37) viewed with its last two dims swapped, plus an offset
        let (a, r, c) = (3usize, 37usize, 40usize);
        let x: Vec<f32> = (0..5 + a * r * c).map(|i| i as f32).collect();
        let l = Layout { shape: [a, r, c].into_iter().collect(), strides: [r * c, 1, r].into_iter().collect(), offset: 5 };
        assert!(transposed_last_two(&l));
        let got: Vec<f32> = cast_vec(&x, &l).unwrap();
        let mut want = Vec::new();
        walk1(&l, |o| want.push(x[o]));
        assert_eq!(got, want);
        let as_f64: Vec<f64> = cast_vec(&x, &l).unwrap();
        assert!(as_f64.iter().zip(&want).all(|(&g, &w)| g == w as f64));
    }
}
