//! Row reductions and row scans on contiguous CPU buffers: sum, prod, max/min (with
//! indices), all/any, cumsum, the product of the others, softmax and log_softmax.

use super::{reduce_rows, sum_slice};
use crate::backend::{ReduceOp, ScanOp};
use crate::dtype::{DType, Elem};
use crate::error::Result;
use crate::shape::Layout;
use crate::storage::{CpuStorage, StorageElem};
use crate::{all_types, bail, float_types};
use num_traits::Float;

fn rows_of<'a, T: StorageElem>(s: &'a CpuStorage, l: &Layout) -> Result<&'a [T]> {
    if l.numel() == 0 {
        return Ok(&[]);
    }
    match l.contiguous_range() {
        Some(r) => Ok(&T::get(s)[r]),
        None => bail!(Runtime, "invariant: row kernels take contiguous input"),
    }
}

/// Reduce each row of `row` elements; the result is cast to `out`.
pub fn reduce(s: &CpuStorage, l: &Layout, row: usize, op: ReduceOp, out: DType) -> Result<CpuStorage> {
    let dt = s.dtype();
    let natural = match op {
        ReduceOp::Sum if out == dt && dt == DType::Float32 && aten_inner_rows::<f32>(l.numel(), row) => {
            f32::wrap(reduce_rows(rows_of::<f32>(s, l)?, row, |r| super::math::simd(|| inner_cascade(r))))
        }
        ReduceOp::Sum if out == dt && dt == DType::Float64 && aten_inner_rows::<f64>(l.numel(), row) => {
            f64::wrap(reduce_rows(rows_of::<f64>(s, l)?, row, |r| super::math::simd(|| inner_cascade(r))))
        }
        ReduceOp::Sum if out.is_float() => float_types!(out, U => all_types!(dt, T => {
            let x = rows_of::<T>(s, l)?;
            U::wrap(reduce_rows(x, row, |r| U::from_f64(sum_slice(r))))
        })),
        ReduceOp::Sum => all_types!(dt, T => {
            let x = rows_of::<T>(s, l)?;
            // (vectorised past the baseline target's two lanes; a single long row in chunks on
            // the team: wrapping integer sums are exact in any order)
            let sum = |r: &[T]| super::math::simd(|| r.iter().fold(0i64, |a, v| a.wrapping_add(v.to_i64())));
            if x.len() == row && super::parallel(row) {
                let mut parts = vec![0i64; row.div_ceil(super::CHUNK)];
                let p = super::team::SendPtr(parts.as_mut_ptr());
                super::team::run_blocks(parts.len(), &|rs| {
                    for i in rs {
                        // SAFETY: each block writes only its own parts' slots; `parts` outlives the region.
                        unsafe { *p.get().add(i) = sum(&x[i * super::CHUNK..((i + 1) * super::CHUNK).min(row)]) };
                    }
                });
                i64::wrap(vec![parts.iter().fold(0i64, |a, &v| a.wrapping_add(v))])
            } else {
                i64::wrap(reduce_rows(x, row, sum))
            }
        }),
        ReduceOp::Prod if out.is_float() => float_types!(out, U => all_types!(dt, T => {
            let x = rows_of::<T>(s, l)?;
            U::wrap(reduce_rows(x, row, |r| U::from_f64(r.iter().map(|v| v.to_f64()).product())))
        })),
        ReduceOp::Prod => all_types!(dt, T => {
            let x = rows_of::<T>(s, l)?;
            i64::wrap(reduce_rows(x, row, |r| r.iter().fold(1i64, |a, v| a.wrapping_mul(v.to_i64()))))
        }),
        ReduceOp::Max | ReduceOp::Min if dt == DType::Float32 => {
            let is_max = op == ReduceOp::Max;
            f32::wrap(reduce_rows(rows_of::<f32>(s, l)?, row, |r| super::math::extreme_f32(r, is_max)))
        }
        ReduceOp::Max | ReduceOp::Min => {
            let is_max = op == ReduceOp::Max;
            all_types!(dt, T => {
                let x = rows_of::<T>(s, l)?;
                T::wrap(reduce_rows(x, row, |r| if is_max { extreme_value::<T, true>(r) } else { extreme_value::<T, false>(r) }))
            })
        }
        ReduceOp::LogSumExp => match dt {
            DType::Float32 => f32::wrap(reduce_rows(rows_of::<f32>(s, l)?, row, super::math::logsumexp_row_f32)),
            _ => float_types!(dt, T => {
                let x = rows_of::<T>(s, l)?;
                T::wrap(reduce_rows(x, row, |r| {
                    // as the float32 kernel, in f64
                    let m = r.iter().fold(f64::NEG_INFINITY, |a, v| a.max(v.to_f64()));
                    let m = if m.is_infinite() { 0.0 } else { m };
                    T::from_f64(r.iter().map(|v| (v.to_f64() - m).exp()).sum::<f64>().ln() + m)
                }))
            }),
        },
        ReduceOp::NormTwo => match dt {
            DType::Float32 => f32::wrap(reduce_rows(rows_of::<f32>(s, l)?, row, super::math::norm2_row_f32)),
            DType::Float64 => f64::wrap(reduce_rows(rows_of::<f64>(s, l)?, row, super::math::norm2_row_f64)),
            _ => float_types!(dt, T => {
                let x = rows_of::<T>(s, l)?;
                T::wrap(reduce_rows(x, row, |r| T::from_f64(r.iter().map(|v| v.to_f64() * v.to_f64()).sum::<f64>().sqrt())))
            }),
        },
        ReduceOp::All | ReduceOp::Any => {
            if dt != DType::Bool {
                bail!(Runtime, "invariant: all/any take bool rows");
            }
            let x = rows_of::<bool>(s, l)?;
            let all = op == ReduceOp::All;
            bool::wrap(reduce_rows(x, row, |r| if all { r.iter().all(|&v| v) } else { r.iter().any(|&v| v) }))
        }
    };
    if natural.dtype() == out {
        return Ok(natural);
    }
    let n = natural.len();
    super::contiguous_cast(&natural, &Layout::contiguous(&[n]), out)
}

/// The first extreme of a row and its index; the first NaN wins.
fn extreme<T: Elem>(r: &[T], is_max: bool) -> (T, i64) {
    let mut bi = 0usize;
    for (i, &v) in r.iter().enumerate() {
        let c = r[bi];
        if c != c {
            break;
        }
        if v != v || if is_max { v > c } else { v < c } {
            bi = i;
        }
    }
    (r[bi], bi as i64)
}

/// The max (`MAX`) or min of a row, NaN if any element is NaN: eight independent lanes of
/// branch-free selects (vectorised), then the lanes; `extreme` where the row is empty.
#[allow(clippy::eq_op)]
fn extreme_value<T: Elem, const MAX: bool>(r: &[T]) -> T {
    extreme_value_lanes::<T, MAX, 8>(r)
}

/// `extreme_value` in `W` independent lanes (32 float32 lanes: four AVX2 vectors, so the
/// compare-select chains overlap).
#[inline(always)]
#[allow(clippy::eq_op)]
pub(super) fn extreme_value_lanes<T: Elem, const MAX: bool, const W: usize>(r: &[T]) -> T {
    let Some(&first) = r.first() else { return extreme(r, MAX).0 };
    let pick = |a: T, v: T| if v != v || (if MAX { v > a } else { v < a }) { v } else { a };
    let mut lanes = [first; W];
    let chunks = r.chunks_exact(W);
    let tail = chunks.remainder();
    for c in chunks {
        for k in 0..W {
            lanes[k] = pick(lanes[k], c[k]);
        }
    }
    let m = lanes.iter().fold(first, |a, &v| pick(a, v));
    tail.iter().fold(m, |a, &v| pick(a, v))
}

/// `op` over the leading rows of the contiguous `l` seen as rows of `inner` (see
/// `BackendStorage::reduce_leading`): sums (float32 and float64) and maxima / minima (every
/// real dtype, NaN winning as in the row kernel); `None` for other ops.
pub fn reduce_leading(s: &CpuStorage, l: &Layout, inner: usize, op: ReduceOp) -> Result<Option<CpuStorage>> {
    match op {
        ReduceOp::Sum => sum_leading(s, l, inner),
        ReduceOp::Max | ReduceOp::Min => {
            if inner == 0 || l.numel() % inner != 0 || l.numel() == 0 {
                return Ok(None);
            }
            let max = op == ReduceOp::Max;
            Ok(Some(match s.dtype() {
                DType::Float32 => f32::wrap(super::math::extreme_leading_f32(rows_of::<f32>(s, l)?, inner, max)),
                dt => all_types!(dt, T => {
                    let x = rows_of::<T>(s, l)?;
                    let mut acc = x[..inner].to_vec();
                    for row in x.chunks_exact(inner).skip(1) {
                        if max { extreme_into::<T, true>(&mut acc, row) } else { extreme_into::<T, false>(&mut acc, row) }
                    }
                    T::wrap(acc)
                }),
            }))
        }
        _ => Ok(None),
    }
}

/// `acc[j] = extreme(acc[j], row[j])`: the larger (`MAX`) or smaller, a NaN on either side
/// kept (elementwise, vectorised).
#[inline(always)]
#[allow(clippy::eq_op)]
pub(super) fn extreme_into<T: Elem, const MAX: bool>(acc: &mut [T], row: &[T]) {
    // one select of two compares joined without a branch (`|`, not `||`): the shape the loop
    // vectoriser turns into compares and a blend
    for (a, &v) in acc.iter_mut().zip(row) {
        let c = *a;
        let take = (v != v) | if MAX { v > c } else { v < c };
        *a = if take { v } else { c };
    }
}

/// Column sums of the contiguous `l` seen as rows of `inner`, float32 and float64 (`None`
/// otherwise), bit for bit as ATen's `cascade_sum` computes a reduction over the leading
/// dimension (`vectorized_outer_sum`): the output split into column blocks (per column the
/// order of additions is what counts, so the blocks here are as wide as suits the loop), each
/// column summed in the element type with `multi_row_sum`'s four-level cascade where it lies
/// in ATen's groups of `4 * Vec::size()` columns, and the last columns with `row_sum`'s four
/// interleaved partial cascades. Parallel over column blocks (each column's order is the
/// same on any number of threads).
fn sum_leading(s: &CpuStorage, l: &Layout, inner: usize) -> Result<Option<CpuStorage>> {
    if inner == 0 || l.numel() % inner != 0 {
        return Ok(None);
    }
    Ok(match s.dtype() {
        DType::Float32 => Some(f32::wrap(cascade_columns::<f32>(rows_of::<f32>(s, l)?, inner)?)),
        DType::Float64 => Some(f64::wrap(cascade_columns::<f64>(rows_of::<f64>(s, l)?, inner)?)),
        _ => None,
    })
}

/// Columns per block of `cascade_columns`: 1 KiB of float32 per row, so that each pass down
/// the rows reads whole runs of cache lines.
const BLOCK: usize = 256;

/// The columns of `x` (rows of `cols`) summed as ATen's `vectorized_outer_sum` (see
/// `sum_leading`).
fn cascade_columns<T: StorageElem + Float + Send + Sync>(x: &[T], cols: usize) -> Result<Vec<T>> {
    let rows = x.len() / cols;
    let mut out = super::alloc::try_filled(cols, T::zero())?;
    // ATen's groups of four vectors (of four columns where a row is narrower than a vector,
    // its `scalar_outer_sum`): the columns before `main` take the direct cascade
    let lanes = super::math::ATEN_VECTOR_BYTES / std::mem::size_of::<T>();
    let group = if cols >= lanes { 4 * lanes } else { 4 };
    let main = cols - cols % group;
    let blocks = cols.div_ceil(BLOCK);
    let one = |b: usize, o: &mut [T]| {
        let c0 = b * BLOCK;
        let w = o.len();
        let mut acc = [T::zero(); BLOCK];
        let acc = &mut acc[..w];
        if c0 + w <= main {
            super::math::simd(|| multi_row_cascade(x, cols, c0, 0, 1, rows, acc));
            for (o, &a) in o.iter_mut().zip(acc.iter()) {
                // ATen accumulates into a zero-filled output
                *o = T::zero() + a;
            }
            return;
        }
        for (k, o) in o.iter_mut().enumerate() {
            let c = c0 + k;
            *o = T::zero() + if c < main { column_cascade(x, cols, c, rows) } else { column_row_sum(x, cols, c, rows) };
        }
    };
    let work = x.len();
    if super::parallel(work) && blocks > 1 {
        let p = super::team::SendPtr(out.as_mut_ptr());
        super::team::run_blocks(blocks, &|bs| {
            for b in bs {
                let w = BLOCK.min(cols - b * BLOCK);
                // SAFETY: block b writes only out[b * BLOCK .. b * BLOCK + w], disjoint between
                // blocks, and `out` outlives the region (`run_blocks` returns after every block).
                let o = unsafe { std::slice::from_raw_parts_mut(p.get().add(b * BLOCK), w) };
                one(b, o);
            }
        });
    } else {
        for (b, o) in out.chunks_mut(BLOCK).enumerate() {
            one(b, o);
        }
    }
    Ok(out)
}

/// Whether ATen sums rows of `row` elements (of `numel` in all) with `vectorized_inner_sum`
/// whatever its thread count: rows of at least one vector, and either several rows (its
/// threads split the outputs, each row summed whole by one) or one row too short for its
/// threads to split (`GRAIN_SIZE`) or no second thread. (A single long row on several threads
/// is summed in per-thread parts: the f64 path stays.)
fn aten_inner_rows<T>(numel: usize, row: usize) -> bool {
    let lanes = super::math::ATEN_VECTOR_BYTES / std::mem::size_of::<T>();
    row >= lanes && (numel > row || numel < 32768 || crate::runtime::num_threads() == 1)
}

/// The sum of a contiguous row bit for bit as ATen's `vectorized_inner_sum` (float32 and
/// float64; at least one vector): the row read as 32-byte vectors in groups of four, each
/// of the four partial vectors summed with `multi_row_sum`'s four-level cascade over the
/// groups; the vectors past the last group added to the first partial, the other three
/// partials added to it in order; then a scalar total of the elements past the last vector,
/// to which the lanes are added in order, stored into a zero-filled output (so `-0.0` sums
/// to `+0.0`). Float accumulators throughout, as ATen (whose sums of float32 do not widen).
#[inline(always)]
fn inner_cascade<T: Float>(r: &[T]) -> T {
    const MAX_W: usize = 4 * super::math::ATEN_VECTOR_BYTES / 4;
    let lanes = super::math::ATEN_VECTOR_BYTES / std::mem::size_of::<T>();
    let w = 4 * lanes;
    let vectors = r.len() / lanes;
    let n = vectors / 4;
    let mut part = [T::zero(); MAX_W];
    cascade_into::<T, MAX_W>(n, |i| &r[i * w..i * w + w], &mut part[..w]);
    for v in n * 4..vectors {
        for l in 0..lanes {
            part[l] = part[l] + r[v * lanes + l];
        }
    }
    for k in 1..4 {
        for l in 0..lanes {
            part[l] = part[l] + part[k * lanes + l];
        }
    }
    let mut total = T::zero();
    for &v in &r[vectors * lanes..] {
        total = total + v;
    }
    for &v in &part[..lanes] {
        total = total + v;
    }
    T::zero() + total
}

/// ATen's `utils::CeilLog2`.
fn ceil_log2(x: usize) -> u32 {
    if x <= 2 {
        1
    } else {
        usize::BITS - (x - 1).leading_zeros()
    }
}

/// `multi_row_sum` over `n` rows `r0, r0 + step, ...` of the columns `c0 .. c0 + acc.len()`
/// of `x` (rows of `cols`), into `acc`: sums of `2^p` rows (p = max(4, ceil(log2 n) / 4))
/// are added into three higher levels as the row count crosses multiples of `2^p`, `2^2p`,
/// `2^3p`, and the levels are added together at the end.
#[inline(always)]
fn multi_row_cascade<T: Float>(x: &[T], cols: usize, c0: usize, r0: usize, step: usize, n: usize, acc: &mut [T]) {
    let w = acc.len();
    cascade_into::<T, BLOCK>(n, |i| &x[(r0 + i * step) * cols + c0..(r0 + i * step) * cols + c0 + w], acc);
}

/// ATen's `multi_row_sum` cascade: `n` rows (`row(i)`, each `out.len() <= N` wide) summed
/// into the first of four levels, which passes its sums up as the row count crosses
/// multiples of `2^p`, `2^2p`, `2^3p` (p = max(4, ceil(log2 n) / 4)); the levels added in
/// order into `out`.
#[inline(always)]
fn cascade_into<'a, T: Float + 'a, const N: usize>(n: usize, row: impl Fn(usize) -> &'a [T], out: &mut [T]) {
    const LEVELS: usize = 4;
    let w = out.len();
    let p = 4.max(ceil_log2(n) / LEVELS as u32);
    let level_step = 1usize << p;
    let mask = level_step - 1;
    let mut lv = [[T::zero(); N]; LEVELS];
    let mut i = 0;
    while i + level_step <= n {
        for _ in 0..level_step {
            for (a, &v) in lv[0][..w].iter_mut().zip(row(i)) {
                *a = *a + v;
            }
            i += 1;
        }
        for j in 1..LEVELS {
            let (lo, hi) = lv.split_at_mut(j);
            for (h, l) in hi[0][..w].iter_mut().zip(lo[j - 1][..w].iter_mut()) {
                *h = *h + *l;
                *l = T::zero();
            }
            if i & (mask << (j as u32 * p)) != 0 {
                break;
            }
        }
    }
    while i < n {
        for (a, &v) in lv[0][..w].iter_mut().zip(row(i)) {
            *a = *a + v;
        }
        i += 1;
    }
    for (k, o) in out.iter_mut().enumerate() {
        let mut s = lv[0][k];
        for l in &lv[1..] {
            s = s + l[k];
        }
        *o = s;
    }
}

/// One column of the direct cascade (`multi_row_sum` with one column).
fn column_cascade<T: Float>(x: &[T], cols: usize, c: usize, rows: usize) -> T {
    let mut a = [T::zero()];
    multi_row_cascade(x, cols, c, 0, 1, rows, &mut a);
    a[0]
}

/// One column as ATen's `row_sum`: four partial cascades over the rows `k, k + 4, ...`, the
/// rows past the last group of four added to the first, then the partials in order.
fn column_row_sum<T: Float>(x: &[T], cols: usize, c: usize, rows: usize) -> T {
    let groups = rows / 4;
    let mut parts = [T::zero(); 4];
    for (k, p) in parts.iter_mut().enumerate() {
        let mut a = [T::zero()];
        multi_row_cascade(x, cols, c, k, 4, groups, &mut a);
        *p = a[0];
    }
    for r in groups * 4..rows {
        parts[0] = parts[0] + x[r * cols + c];
    }
    let mut s = parts[0];
    for &p in &parts[1..] {
        s = s + p;
    }
    s
}

pub fn arg_reduce(s: &CpuStorage, l: &Layout, row: usize, is_max: bool) -> Result<(CpuStorage, CpuStorage)> {
    let dt = s.dtype();
    if dt == DType::Float32 {
        // the extreme by the vector kernel, then the first element equal to it (or the first
        // NaN): what `extreme`'s scan finds, in two vectorised passes
        let res: Vec<(f32, i64)> = reduce_rows(rows_of::<f32>(s, l)?, row, |r| {
            if r.is_empty() {
                return extreme(r, is_max);
            }
            let m = super::math::extreme_f32(r, is_max);
            #[allow(clippy::eq_op)]
            let i = if m != m { r.iter().position(|v| v != v) } else { r.iter().position(|&v| v == m) };
            let i = i.unwrap_or(0);
            (r[i], i as i64)
        });
        let (v, i): (Vec<f32>, Vec<i64>) = res.into_iter().unzip();
        return Ok((f32::wrap(v), i64::wrap(i)));
    }
    Ok(all_types!(dt, T => {
        let x = rows_of::<T>(s, l)?;
        let res: Vec<(T, i64)> = reduce_rows(x, row, |r| extreme(r, is_max));
        let (v, i): (Vec<T>, Vec<i64>) = res.into_iter().unzip();
        (T::wrap(v), i64::wrap(i))
    }))
}

/// Softmax (or log-softmax) of float16 / bfloat16 rows as ATen's reduced-precision kernels:
/// each block of rows widened to float32, `softmax_rows_half_f32` (in float, with ATen's
/// roundings of the log-sum), rounded back once. Rows in blocks on the team.
fn softmax_rows_half<H: StorageElem>(x: &[H], row: usize, log: bool) -> Result<Vec<H>> {
    let round = super::half_rounding(H::DTYPE);
    let mut out = super::alloc::take::<H>(x.len())?;
    let per = super::rows_per_block(x.len() / row, row, super::CHUNK, usize::MAX);
    super::par_row_blocks(&mut out, row, per, |_, row0, ob| {
        let n = ob.len();
        let (mut wide, mut res) = (vec![0f32; n], vec![0f32; n]);
        let widened = super::half_cast(&x[row0 * row..row0 * row + n], &mut wide);
        super::math::softmax_rows_half_f32(&wide, &mut res, row, log, round);
        let rounded = super::half_cast(&res, ob);
        debug_assert!(widened && rounded, "softmax_rows_half: a float16/bfloat16 slice");
    });
    Ok(out)
}

fn softmax_rows<T: StorageElem + Float>(x: &[T], row: usize, log: bool) -> Vec<T> {
    let mut out = vec![T::zero(); x.len()];
    for (o, r) in out.chunks_mut(row).zip(x.chunks(row)) {
        // as torch: an infinite maximum gives NaN (inf - inf), not a silently finite row
        let m = r.iter().fold(T::neg_infinity(), |a, &b| a.max(b));
        let sum: f64 = r.iter().map(|&x| (x - m).exp().to_f64()).sum();
        if log {
            let ls = T::from_f64(sum.ln());
            for (o, &x) in o.iter_mut().zip(r) {
                *o = x - m - ls;
            }
        } else {
            let inv = T::from_f64(1.0 / sum);
            for (o, &x) in o.iter_mut().zip(r) {
                *o = (x - m).exp() * inv;
            }
        }
    }
    out
}

/// A key whose unsigned order is the float order with ±0 equal and every NaN the largest.
#[inline(always)]
fn f32_order_key(v: f32) -> u32 {
    if v.is_nan() {
        return u32::MAX;
    }
    let b = if v == 0.0 { 0 } else { v.to_bits() };
    if b >> 31 == 1 { !b } else { b | 0x8000_0000 }
}

/// `f32_order_key` for doubles.
#[inline(always)]
fn f64_order_key(v: f64) -> u64 {
    if v.is_nan() {
        return u64::MAX;
    }
    let b = if v == 0.0 { 0 } else { v.to_bits() };
    if b >> 63 == 1 { !b } else { b | (1 << 63) }
}

/// The stable argsort of each row by order keys: each element's key (inverted when
/// `descending`, so equal values still come in index order) packed above its index by `pack`,
/// sorted, the index read back by `index` (an unstable sort of unique keys is stable).
fn argsort_keyed<T: Copy, K: Ord + Copy>(x: &[T], row: usize, pack: impl Fn(T, usize) -> K, index: impl Fn(K) -> i64) -> Vec<i64> {
    let mut out = Vec::with_capacity(x.len());
    let mut keys: Vec<K> = Vec::with_capacity(row);
    for r in x.chunks(row) {
        keys.clear();
        keys.extend(r.iter().enumerate().map(|(i, &v)| pack(v, i)));
        keys.sort_unstable();
        out.extend(keys.iter().map(|&k| index(k)));
    }
    out
}

/// `argsort_keyed` with 32-bit keys: `key << 32 | index` in 64 bits.
fn argsort_keyed32<T: Copy>(x: &[T], row: usize, descending: bool, key: impl Fn(T) -> u32) -> Vec<i64> {
    argsort_keyed(x, row, |v, i| {
        let k = key(v);
        ((if descending { !k } else { k } as u64) << 32) | i as u64
    }, |k| (k & 0xffff_ffff) as i64)
}

/// `argsort_keyed` with 64-bit keys: `key << 64 | index` in 128 bits.
fn argsort_keyed64<T: Copy>(x: &[T], row: usize, descending: bool, key: impl Fn(T) -> u64) -> Vec<i64> {
    argsort_keyed(x, row, |v, i| {
        let k = key(v);
        ((if descending { !k } else { k } as u128) << 64) | i as u128
    }, |k| (k as u64 & 0xffff_ffff) as i64)
}

/// The int64 permutation that sorts each row (stable; NaN sorts as the largest value).
pub fn argsort_rows(s: &CpuStorage, l: &Layout, row: usize, descending: bool) -> Result<CpuStorage> {
    let row = row.max(1);
    // the common dtypes sort integer keys that order as the values do (ties by index, so an
    // unstable sort of the keys is the stable sort): 3-4x faster than comparing through the
    // index permutation
    if row <= u32::MAX as usize {
        match s.dtype() {
            DType::Float32 => return Ok(i64::wrap(argsort_keyed32(rows_of::<f32>(s, l)?, row, descending, f32_order_key))),
            DType::Int32 => return Ok(i64::wrap(argsort_keyed32(rows_of::<i32>(s, l)?, row, descending, |v| (v as u32) ^ 0x8000_0000))),
            DType::Float64 => return Ok(i64::wrap(argsort_keyed64(rows_of::<f64>(s, l)?, row, descending, f64_order_key))),
            DType::Int64 => return Ok(i64::wrap(argsort_keyed64(rows_of::<i64>(s, l)?, row, descending, |v| (v as u64) ^ (1 << 63)))),
            _ => {}
        }
    }
    Ok(all_types!(s.dtype(), T => {
        let x = rows_of::<T>(s, l)?;
        let mut out = Vec::with_capacity(x.len());
        for r in x.chunks(row) {
            let mut ix: Vec<usize> = (0..r.len()).collect();
            ix.sort_by(|&a, &b| {
                let (va, vb) = (r[a], r[b]);
                #[allow(clippy::eq_op)]
                let o = va.partial_cmp(&vb).unwrap_or_else(|| (va != va).cmp(&(vb != vb)));
                if descending { o.reverse() } else { o }
            });
            out.extend(ix.into_iter().map(|i| i as i64));
        }
        i64::wrap(out)
    }))
}

/// The int64 indices of the `k` largest (smallest) of each row of the contiguous `l`, in
/// the order torch's CPU topk gives them, ties included (libstdc++'s selection, replayed).
pub fn topk_rows(s: &CpuStorage, l: &Layout, row: usize, k: usize, largest: bool, sorted: bool) -> Result<CpuStorage> {
    let row = row.max(1);
    Ok(all_types!(s.dtype(), T => {
        let x = rows_of::<T>(s, l)?;
        let rows = x.len() / row;
        let mut out = vec![0i64; rows * k];
        let one = |r: usize, o: &mut [i64]| {
            #[allow(clippy::eq_op)]
            let idx = super::topk_order::topk_row(&x[r * row..(r + 1) * row], k, largest, sorted, |v: T| v != v);
            o.iter_mut().zip(idx).for_each(|(o, i)| *o = i as i64);
        };
        if super::parallel(x.len()) && rows > 1 && k > 0 {
            // rows on the team (the work is the input's: the output is k per row)
            let p = super::team::SendPtr(out.as_mut_ptr());
            super::team::run_blocks(rows, &|rs| {
                for r in rs {
                    // SAFETY: row r writes only out[r*k..(r+1)*k]; `out` outlives the region.
                    one(r, unsafe { std::slice::from_raw_parts_mut(p.get().add(r * k), k) });
                }
            });
        } else {
            for (r, o) in out.chunks_mut(k.max(1)).enumerate().take(rows) {
                one(r, o);
            }
        }
        i64::wrap(out)
    }))
}

/// `out[i] = step(&mut acc, x[i])` along each row of `row` elements, `acc` starting at `init`
/// in each row (a running sum or product), rows in blocks on the team when large.
fn scan_rows<T: Copy + Sync, U: super::alloc::Cached, A: Copy + Sync>(x: &[T], row: usize, init: A, step: impl Fn(&mut A, T) -> U + Sync) -> Result<Vec<U>> {
    let mut out = super::alloc::take::<U>(x.len())?;
    let per = super::rows_per_block(x.len() / row.max(1), row, super::CHUNK, usize::MAX);
    super::par_row_blocks(&mut out, row, per, |_, row0, ob| {
        for (o, r) in ob.chunks_mut(row).zip(x[row0 * row..].chunks(row)) {
            let mut acc = init;
            for (o, &v) in o.iter_mut().zip(r) {
                *o = step(&mut acc, v);
            }
        }
    });
    Ok(out)
}

/// A row-wise scan (same shape out).
pub fn scan(s: &CpuStorage, l: &Layout, row: usize, op: ScanOp) -> Result<CpuStorage> {
    let dt = s.dtype();
    let row = row.max(1);
    Ok(match op {
        ScanOp::Softmax | ScanOp::LogSoftmax => {
            if !dt.is_float() {
                bail!(Runtime, "invariant: softmax of a float tensor");
            }
            let log = op == ScanOp::LogSoftmax;
            if dt == DType::Float32 {
                // float32: the vectorised row kernel, rows in blocks on the team
                let x = rows_of::<f32>(s, l)?;
                let mut out = super::alloc::take::<f32>(x.len())?;
                let per = super::rows_per_block(x.len() / row, row, super::CHUNK, usize::MAX);
                super::par_row_blocks(&mut out, row, per, |_, row0, ob| super::math::softmax_rows_f32(&x[row0 * row..row0 * row + ob.len()], ob, row, log));
                return Ok(f32::wrap(out));
            }
            match dt {
                DType::BFloat16 => return Ok(half::bf16::wrap(softmax_rows_half(rows_of(s, l)?, row, log)?)),
                DType::Float16 => return Ok(half::f16::wrap(softmax_rows_half(rows_of(s, l)?, row, log)?)),
                _ => {}
            }
            float_types!(dt, T => T::wrap(softmax_rows(rows_of::<T>(s, l)?, row, log)))
        }
        ScanOp::Cumsum => match dt {
            // each row's running sum in order (int64, or double rounded at each step: torch's
            // cpu_cum_base_kernel), rows in blocks on the team
            DType::Int64 | DType::Int32 | DType::Int16 | DType::Int8 | DType::UInt8 | DType::Bool => all_types!(dt, T => {
                let x = rows_of::<T>(s, l)?;
                i64::wrap(scan_rows(x, row, 0i64, |acc, v: T| { *acc = acc.wrapping_add(v.to_i64()); *acc })?)
            }),
            _ => float_types!(dt, T => {
                let x = rows_of::<T>(s, l)?;
                T::wrap(scan_rows(x, row, 0f64, |acc, v: T| { *acc += v.to_f64(); T::from_f64(*acc) })?)
            }),
        },
        // torch's cpu_cum_base_kernel: the running product in the accumulate type (int64 for
        // integers, double for floats), rounded to the element type at each step
        ScanOp::Cumprod => match dt {
            DType::Int64 | DType::Int32 | DType::Int16 | DType::Int8 | DType::UInt8 | DType::Bool => all_types!(dt, T => {
                let x = rows_of::<T>(s, l)?;
                i64::wrap(scan_rows(x, row, 1i64, |acc, v: T| { *acc = acc.wrapping_mul(v.to_i64()); *acc })?)
            }),
            _ => float_types!(dt, T => {
                let x = rows_of::<T>(s, l)?;
                T::wrap(scan_rows(x, row, 1f64, |acc, v: T| { *acc *= v.to_f64(); T::from_f64(*acc) })?)
            }),
        },
        ScanOp::ProdOthers => all_types!(dt, T => {
            let x = rows_of::<T>(s, l)?;
            let mut out = vec![T::default(); x.len()];
            for (o, r) in out.chunks_mut(row).zip(x.chunks(row)) {
                // prefix products forward, then suffix products backward
                let mut pre = 1.0;
                let mut prefix = vec![1.0; r.len()];
                for i in 0..r.len() {
                    prefix[i] = pre;
                    pre *= r[i].to_f64();
                }
                let mut suf = 1.0;
                for i in (0..r.len()).rev() {
                    o[i] = T::from_f64(prefix[i] * suf);
                    suf *= r[i].to_f64();
                }
            }
            T::wrap(out)
        }),
    })
}


#[cfg(test)]
mod tests {
    use super::extreme_value;

    #[test]
    fn extreme_value_matches_a_scan_and_propagates_nan() {
        for n in [1usize, 7, 8, 9, 16, 37] {
            let row: Vec<f32> = (0..n).map(|i| ((i * 7 % 11) as f32) - 5.0).collect();
            let (mx, mn) = (row.iter().cloned().fold(f32::MIN, f32::max), row.iter().cloned().fold(f32::MAX, f32::min));
            assert_eq!(extreme_value::<f32, true>(&row), mx);
            assert_eq!(extreme_value::<f32, false>(&row), mn);
            for at in [0, n / 2, n - 1] {
                let mut r = row.clone();
                r[at] = f32::NAN;
                assert!(extreme_value::<f32, true>(&r).is_nan() && extreme_value::<f32, false>(&r).is_nan(), "n {n} at {at}");
            }
        }
        assert_eq!(extreme_value::<i64, true>(&[3, -2, 9, 4, 1, 1, 1, 1, 1, 8]), 9);
    }

    /// Rows with ties, ±0, NaNs of both signs and infinities, long enough for every lane.
    fn awkward_rows() -> Vec<f32> {
        (0..3 * 67).map(|i| match i % 13 {
            0 => f32::NAN,
            1 => -0.0,
            2 => 0.0,
            3 => f32::INFINITY,
            4 => f32::NEG_INFINITY,
            5 => -f32::NAN,
            k => ((i * 31 % 17) as f32 - 8.0) * if k % 2 == 0 { 0.5 } else { 1.0 },
        }).collect()
    }

    #[test]
    fn keyed_argsort_is_the_stable_comparison_sort() {
        use crate::storage::StorageElem;
        let x = awkward_rows();
        for descending in [false, true] {
            let got = super::argsort_rows(&f32::wrap(x.clone()), &crate::shape::Layout::contiguous(&[3, 67]), 67, descending).unwrap();
            let got = i64::get(&got).to_vec();
            for (r, g) in x.chunks(67).zip(got.chunks(67)) {
                let mut ix: Vec<usize> = (0..67).collect();
                ix.sort_by(|&a, &b| {
                    let o = r[a].partial_cmp(&r[b]).unwrap_or_else(|| r[a].is_nan().cmp(&r[b].is_nan()));
                    if descending { o.reverse() } else { o }
                });
                assert_eq!(g, &ix.iter().map(|&i| i as i64).collect::<Vec<_>>()[..], "descending {descending}");
            }
            let xd: Vec<f64> = x.iter().map(|&v| v as f64).collect();
            let gd = super::argsort_rows(&f64::wrap(xd), &crate::shape::Layout::contiguous(&[3, 67]), 67, descending).unwrap();
            assert_eq!(i64::get(&gd), &got[..]);
        }
    }

    #[test]
    fn vector_arg_reduce_finds_the_first_extreme() {
        use crate::storage::StorageElem;
        let x: Vec<f32> = awkward_rows().into_iter().map(|v| if v.is_nan() { 1.0 } else { v }).collect();
        let mut with_nan = x.clone();
        with_nan[67 + 40] = f32::NAN;
        with_nan[67 + 50] = -f32::NAN;
        for row in [x, with_nan] {
            for is_max in [true, false] {
                let (v, i) = super::arg_reduce(&f32::wrap(row.clone()), &crate::shape::Layout::contiguous(&[3, 67]), 67, is_max).unwrap();
                for (k, r) in row.chunks(67).enumerate() {
                    let (want_v, want_i) = super::extreme(r, is_max);
                    assert_eq!(i64::get(&i)[k], want_i);
                    assert_eq!(f32::get(&v)[k].to_bits(), want_v.to_bits());
                }
            }
        }
    }

    #[test]
    fn leading_extremes_match_the_rows() {
        use crate::backend::ReduceOp;
        use crate::storage::StorageElem;
        let x = awkward_rows();
        for op in [ReduceOp::Max, ReduceOp::Min] {
            let got = super::reduce_leading(&f32::wrap(x.clone()), &crate::shape::Layout::contiguous(&[3, 67]), 67, op).unwrap().unwrap();
            let got = f32::get(&got);
            for j in 0..67 {
                let col = [x[j], x[67 + j], x[134 + j]];
                let want = if op == ReduceOp::Max { super::extreme_value::<f32, true>(&col) } else { super::extreme_value::<f32, false>(&col) };
                assert!(got[j] == want || (got[j].is_nan() && want.is_nan()), "{op:?} column {j}");
            }
        }
    }

    /// The blocked column cascade gives each column exactly the scalar reference's sum (the
    /// direct cascade inside ATen's groups of four vectors, `row_sum` after them) for widths
    /// around the group and block edges and row counts across the cascade's level steps.
    #[test]
    fn column_cascade_blocks_match_the_per_column_reference() {
        for &(rows, cols) in &[(1, 5), (17, 3), (256, 33), (300, 1030), (4097, 70), (70_000, 2), (40, 12), (5, 260)] {
            let x: Vec<f32> = (0..rows * cols).map(|i| (((i * 2_654_435_761) % 10_007) as f32 - 5000.0) * 1.37e-3).collect();
            let got = super::cascade_columns::<f32>(&x, cols).unwrap();
            let lanes = crate::cpu::math::ATEN_VECTOR_BYTES / 4;
            let group = if cols >= lanes { 4 * lanes } else { 4 };
            let main = cols - cols % group;
            for c in 0..cols {
                let want: f32 = if c < main { super::column_cascade(&x, cols, c, rows) } else { super::column_row_sum(&x, cols, c, rows) };
                assert_eq!(got[c].to_bits(), (0.0 + want).to_bits(), "{rows}x{cols} column {c}");
            }
        }
    }
}
