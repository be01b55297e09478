//! Scaled dot-product attention as PyTorch's CPU flash kernel computes it, one block of query
//! rows at a time: the block's scores `q kᵀ` (one product), then per row the scale, the
//! mask, the maximum and `p = e^(s - max)` with its sum in one pass, then `p v` (a second
//! product) divided by the sum; the logsumexp `max + ln Σ` is kept for the backward. A block
//! of causal rows only computes the keys its last row sees, so on long sequences a causal
//! attention does about half the work. The scores of a block stay in cache between the two
//! products (the composed version wrote and reread the whole (l, s) matrix five times).
//!
//! The backward recomputes each block's probabilities from the logsumexp (`p = e^(s -
//! lse)`), then `dv += pᵀ do`, `dp = do vᵀ`, `ds = p (dp - rowsum(do ∘ o)) · scale`, `dq =
//! ds k`, `dk += dsᵀ q`; one part per key head, which owns its `dk`/`dv` rows and the `dq`
//! rows of the query heads it serves.

use super::matmul::gemm_into;
use super::team::{self, SendPtr};
use crate::backend::Attention;
use crate::dtype::Elem;
use crate::error::Result;
use num_traits::Float;

/// An additive mask over (b, h, l, s) read through its strides (zero strides broadcast).
#[derive(Clone, Copy)]
pub struct Mask<'a, T> {
    pub data: &'a [T],
    pub offset: usize,
    pub strides: [isize; 4],
}

impl<T: Copy> Mask<'_, T> {
    /// The element offset of (bi, hi, i, 0) and the step along the keys.
    #[inline]
    fn row(&self, bi: usize, hi: usize, i: usize) -> (isize, isize) {
        let [sb, sh, sl, ss] = self.strides;
        (self.offset as isize + bi as isize * sb + hi as isize * sh + i as isize * sl, ss)
    }
}

/// The float types with an attention kernel.
pub trait AttnFloat: Elem + Float + super::alloc::Cached {
    /// `row[j] = e^(row[j] - shift)` in place; returns the sum of the results.
    fn exp_shift_sum(row: &mut [Self], shift: Self) -> Self;
    /// `row[j] *= scale` (None: as it is) and the maximum of the results, NaN ignored (-inf
    /// for a row of NaNs; the callers' sums see a NaN).
    fn scale_max(row: &mut [Self], scale: Option<Self>) -> Self;
}

impl AttnFloat for f32 {
    fn exp_shift_sum(row: &mut [f32], shift: f32) -> f32 {
        super::math::exp_shift_sum_f32(row, shift)
    }
    fn scale_max(row: &mut [f32], scale: Option<f32>) -> f32 {
        super::math::scale_max_f32(row, scale)
    }
}

impl AttnFloat for f64 {
    fn scale_max(row: &mut [f64], scale: Option<f64>) -> f64 {
        if let Some(c) = scale {
            row.iter_mut().for_each(|x| *x *= c);
        }
        let mut mx = [f64::NEG_INFINITY; 8];
        let chunks = row.chunks_exact(8);
        let tail = chunks.remainder();
        for c in chunks {
            for k in 0..8 {
                mx[k] = if c[k] > mx[k] { c[k] } else { mx[k] };
            }
        }
        tail.iter().chain(&mx).fold(f64::NEG_INFINITY, |m, &v| if v > m { v } else { m })
    }
    fn exp_shift_sum(row: &mut [f64], shift: f64) -> f64 {
        let mut s = 0.0;
        for x in row {
            *x = (*x - shift).exp();
            s += *x;
        }
        s
    }
}

/// PyTorch's kernel's query rows per block (32 below 192 queries, 64 below 768, else 256)
/// and keys per block.
fn aten_q_block(l: usize) -> usize {
    if l < 192 {
        32
    } else if l < 768 {
        64
    } else {
        256
    }
}
const ATEN_KV_BLOCK: usize = 512;

/// Query rows per block here: 64 to 128, so that a block's scores stay within ~128 KiB of
/// float32 (products of 64 rows or more run near the `gemm` crate's full speed, 32-row ones
/// at two thirds of it).
fn block_rows(l: usize, s: usize) -> usize {
    (32_768 / s.max(1)).clamp(64, 128).min(l)
}

/// Each key head transposed to (e, s), row-major: the right operand of `q kᵀ` (and of `do
/// vᵀ`) read along its rows.
fn transposed_heads<T: AttnFloat>(k: &[T], heads: usize, s: usize, e: usize) -> Result<Vec<T>> {
    let mut kt = super::alloc::take::<T>(heads * s * e)?;
    let out = SendPtr(kt.as_mut_ptr());
    team::run(heads, &|t| {
        // SAFETY: part t writes only head t's s·e elements of `kt`, disjoint between parts,
        // and `kt` outlives the region (`run` returns after every part).
        let dst = unsafe { std::slice::from_raw_parts_mut(out.get().add(t * s * e), s * e) };
        super::transpose::transpose(&k[t * s * e..(t + 1) * s * e], e, s, e, dst, s);
    });
    Ok(kt)
}

/// One block of query rows `r0..r0 + rows` of query head (bi, hi) against key head `kh`.
struct Block {
    bi: usize,
    hi: usize,
    /// The query head's index in the (b·h) heads and the key head's in the (b·hk).
    bh: usize,
    kh: usize,
    r0: usize,
    rows: usize,
    /// The keys whose scores the block computes (see `new`).
    cols: usize,
    /// Whether a causal row's unseen keys are -inf whatever PyTorch's blocking (see `new`).
    tight: bool,
}

impl Block {
    /// Block `blk` of query head `bh`. A causal block computes the keys up to its last row.
    /// PyTorch's kernel computes whole blocks of 512 keys for each of its query blocks, the
    /// scores past a row's position set to -inf before the scale and the mask: with a
    /// positive scale and no mask they stay -inf (`tight`), else (a scale that is not
    /// positive, a mask) each row gets the keys PyTorch's blocks give it (`aten_keys`), and
    /// so the same NaNs.
    fn new(a: &Attention, masked: bool, bh: usize, blk: usize) -> Block {
        let br = block_rows(a.l, a.s);
        let (bi, hi) = (bh / a.h, bh % a.h);
        let r0 = blk * br;
        let rows = br.min(a.l - r0);
        let tight = a.causal && a.scale > 0.0 && !masked;
        let cols = match (a.causal, tight) {
            (false, _) => a.s,
            (true, true) => (r0 + rows).min(a.s),
            (true, false) => aten_keys(a, r0 + rows - 1),
        };
        Block { bi, hi, bh, kh: bi * a.hk + hi / (a.h / a.hk), r0, rows, cols, tight }
    }

    /// The block's scaled, masked scores `q kᵀ · scale + mask` into `sc` (rows × cols), from
    /// the transposed key heads `kt`; scores a row does not get are -inf. With `maxes` (the
    /// forward), a score a causal row does not see is first set to -inf, then scaled and
    /// masked as the rest (PyTorch's order; its backward zeroes those probabilities
    /// instead), and each row's maximum is pushed onto `maxes`.
    fn scores<T: AttnFloat>(&self, a: &Attention, q: &[T], kt: &[T], mask: Option<Mask<'_, T>>, mut maxes: Option<&mut Vec<T>>, sc: &mut [T]) {
        let (e, cols) = (a.e, self.cols);
        let qb = &q[(self.bh * a.l + self.r0) * e..];
        let kb = &kt[self.kh * a.s * e..];
        // SAFETY: T is f32/f64; q holds `rows` rows of e from qb's start and kt e rows of s
        // from kb's (the first `cols` of each read); sc holds rows × cols.
        unsafe {
            gemm_into([self.rows, cols, e], sc.as_mut_ptr(), cols as isize, false,
                      (qb.as_ptr(), e as isize, 1), (kb.as_ptr(), a.s as isize, 1), gemm::Parallelism::None)
        };
        let scale = T::from_f64(a.scale);
        for (r, row) in sc.chunks_exact_mut(cols.max(1)).take(self.rows).enumerate() {
            let i = self.r0 + r;
            let ext = if self.tight { cols } else { aten_keys(a, i) };
            if maxes.is_some() && a.causal && i + 1 < ext {
                row[i + 1..ext].fill(T::neg_infinity());
            }
            let mx = match mask {
                Some(m) => {
                    let (base, step) = m.row(self.bi, self.hi, i);
                    for (j, x) in row[..ext].iter_mut().enumerate() {
                        *x = *x * scale + m.data[(base + j as isize * step) as usize];
                    }
                    maxes.is_some().then(|| T::scale_max(&mut row[..ext], None))
                }
                None if maxes.is_some() => Some(T::scale_max(&mut row[..ext], Some(scale))),
                None => {
                    row[..ext].iter_mut().for_each(|x| *x = *x * scale);
                    None
                }
            };
            row[ext..].fill(T::neg_infinity());
            if let (Some(v), Some(mx)) = (maxes.as_deref_mut(), mx) {
                v.push(mx);
            }
        }
    }
}

/// The keys PyTorch's kernel computes scores of for query `i`: all, or when causal the whole
/// blocks of 512 keys up to the last row of `i`'s query block.
fn aten_keys(a: &Attention, i: usize) -> usize {
    if !a.causal {
        return a.s;
    }
    let qb = aten_q_block(a.l);
    let end = ((i / qb + 1) * qb).min(a.l).min(a.s);
    end.next_multiple_of(ATEN_KV_BLOCK).min(a.s)
}

/// The attention's forward: (output (b, h, l, e), logsumexp (b, h, l)) from contiguous
/// query, key and value.
pub fn forward<T: AttnFloat>(q: &[T], k: &[T], v: &[T], mask: Option<Mask<'_, T>>, a: &Attention) -> Result<(Vec<T>, Vec<T>)> {
    let e = a.e;
    // (every element of both is written below)
    let mut out = super::alloc::take::<T>(a.b * a.h * a.l * e)?;
    let mut lse = super::alloc::take::<T>(a.b * a.h * a.l)?;
    let blocks = a.l.div_ceil(block_rows(a.l, a.s));
    let kt = transposed_heads(k, a.b * a.hk, a.s, e)?;
    let (op, lp) = (SendPtr(out.as_mut_ptr()), SendPtr(lse.as_mut_ptr()));
    team::run(a.b * a.h * blocks, &|t| {
        let bl = Block::new(a, mask.is_some(), t / blocks, t % blocks);
        let cols = bl.cols;
        let mut p = vec![T::zero(); bl.rows * cols];
        let mut maxes = Vec::with_capacity(bl.rows);
        bl.scores(a, q, &kt, mask, Some(&mut maxes), &mut p);
        let mut stats = Vec::with_capacity(bl.rows);
        for ((r, row), &mx) in p.chunks_exact_mut(cols.max(1)).take(bl.rows).enumerate().zip(&maxes) {
            // (the keys past a tight causal row's position are -inf: probability 0)
            let live = if bl.tight { (bl.r0 + r + 1).min(cols) } else { cols };
            // (a row of NaNs has no maximum here: NaN, as ATen's, which keeps NaNs)
            let mx = if mx == T::neg_infinity() && row[..live].iter().any(|x| x.is_nan()) { T::nan() } else { mx };
            if mx == T::neg_infinity() {
                // every key masked: zeros out, logsumexp 0 (PyTorch's kernel)
                row.fill(T::zero());
                stats.push((T::zero(), T::one()));
            } else {
                let sum = T::exp_shift_sum(&mut row[..live], mx);
                row[live..].fill(T::zero());
                stats.push((mx, sum));
            }
        }
        let row0 = bl.bh * a.l + bl.r0;
        // SAFETY: part t writes only the output rows row0..row0 + rows and their logsumexp
        // entries, disjoint between parts; both buffers outlive the region (`run` returns
        // after every part); v holds `cols` rows of e from the key head's start.
        unsafe {
            let o = op.get().add(row0 * e);
            gemm_into([bl.rows, e, cols], o, e as isize, false, (p.as_ptr(), cols as isize, 1),
                      (v[bl.kh * a.s * e..].as_ptr(), e as isize, 1), gemm::Parallelism::None);
            for (r, &(mx, sum)) in stats.iter().enumerate() {
                let inv = T::one() / sum;
                for x in std::slice::from_raw_parts_mut(o.add(r * e), e) {
                    *x = *x * inv;
                }
                *lp.get().add(row0 + r) = mx + sum.ln();
            }
        }
    });
    Ok((out, lse))
}

/// The attention's backward: (dq, dk, dv), each when `want`s, from the contiguous output
/// gradient `go` and the forward's contiguous query, key, value, output and logsumexp.
#[allow(clippy::type_complexity)]
pub fn backward<T: AttnFloat>(go: &[T], [q, k, v, o, lse]: [&[T]; 5], mask: Option<Mask<'_, T>>, a: &Attention, want: [bool; 3])
    -> Result<(Option<Vec<T>>, Option<Vec<T>>, Option<Vec<T>>)> {
    let e = a.e;
    let g = a.h / a.hk;
    // (dq: every row is written by one block's product; dk and dv accumulate)
    let mut dq = super::alloc::take::<T>(if want[0] { a.b * a.h * a.l * e } else { 0 })?;
    let mut dk = vec![T::zero(); if want[1] { a.b * a.hk * a.s * e } else { 0 }];
    let mut dv = vec![T::zero(); if want[2] { a.b * a.hk * a.s * e } else { 0 }];
    let (dqp, dkp, dvp) = (SendPtr(dq.as_mut_ptr()), SendPtr(dk.as_mut_ptr()), SendPtr(dv.as_mut_ptr()));
    let blocks = a.l.div_ceil(block_rows(a.l, a.s));
    let scale = T::from_f64(a.scale);
    let (kt, vt) = (transposed_heads(k, a.b * a.hk, a.s, e)?, transposed_heads(v, a.b * a.hk, a.s, e)?);
    team::run(a.b * a.hk, &|t| {
        let (bi, kh) = (t / a.hk, t % a.hk);
        let (kb, vtb) = (&k[t * a.s * e..], &vt[t * a.s * e..]);
        for hi in kh * g..(kh + 1) * g {
            for blk in 0..blocks {
                let bl = Block::new(a, mask.is_some(), bi * a.h + hi, blk);
                let (rows, cols) = (bl.rows, bl.cols);
                let row0 = bl.bh * a.l + bl.r0;
                let (gob, qb, ob) = (&go[row0 * e..], &q[row0 * e..], &o[row0 * e..]);
                let mut p = vec![T::zero(); rows * cols];
                bl.scores(a, q, &kt, mask, None, &mut p);
                for (r, row) in p.chunks_exact_mut(cols.max(1)).take(rows).enumerate() {
                    // a causal row's probabilities past its position are zeroed, not computed
                    let live = if a.causal { (bl.r0 + r + 1).min(cols) } else { cols };
                    T::exp_shift_sum(&mut row[..live], lse[row0 + r]);
                    row[live..].fill(T::zero());
                }
                // SAFETY (every product below): T is f32/f64; part t writes only its key
                // head's dk/dv rows and the dq rows of its query heads, disjoint between
                // parts, and the buffers outlive the region; the operands hold the rows
                // their strides address (`rows` rows of e from row0, `cols` of the key
                // head's rows, the rows × cols block buffers).
                if want[2] {
                    // dv[..cols] += pᵀ do
                    // SAFETY: see above
                    unsafe {
                        gemm_into([cols, e, rows], dvp.get().add(t * a.s * e), e as isize, true,
                                  (p.as_ptr(), 1, cols as isize), (gob.as_ptr(), e as isize, 1), gemm::Parallelism::None)
                    };
                }
                if !(want[0] || want[1]) {
                    continue;
                }
                // dp = do vᵀ, then ds = p (dp - Σ do ∘ o) · scale in its place
                let mut ds = vec![T::zero(); rows * cols];
                // SAFETY: as above (ds is this part's own buffer)
                unsafe {
                    gemm_into([rows, cols, e], ds.as_mut_ptr(), cols as isize, false,
                              (gob.as_ptr(), e as isize, 1), (vtb.as_ptr(), a.s as isize, 1), gemm::Parallelism::None)
                };
                for r in 0..rows {
                    let delta = gob[r * e..(r + 1) * e].iter().zip(&ob[r * e..(r + 1) * e]).fold(T::zero(), |s, (&x, &y)| s + x * y);
                    for (d, &pv) in ds[r * cols..(r + 1) * cols].iter_mut().zip(&p[r * cols..(r + 1) * cols]) {
                        *d = pv * (*d - delta) * scale;
                    }
                }
                if want[0] {
                    // dq = ds k
                    // SAFETY: as above
                    unsafe {
                        gemm_into([rows, e, cols], dqp.get().add(row0 * e), e as isize, false,
                                  (ds.as_ptr(), cols as isize, 1), (kb.as_ptr(), e as isize, 1), gemm::Parallelism::None)
                    };
                }
                if want[1] {
                    // dk[..cols] += dsᵀ q
                    // SAFETY: as above
                    unsafe {
                        gemm_into([cols, e, rows], dkp.get().add(t * a.s * e), e as isize, true,
                                  (ds.as_ptr(), 1, cols as isize), (qb.as_ptr(), e as isize, 1), gemm::Parallelism::None)
                    };
                }
            }
        }
    });
    Ok((want[0].then_some(dq), want[1].then_some(dk), want[2].then_some(dv)))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// softmax(q kᵀ · scale + mask) v per query row, directly, in f64.
    fn naive(q: &[f64], k: &[f64], v: &[f64], mask: &[f64], a: &Attention) -> Vec<f64> {
        let (e, g) = (a.e, a.h / a.hk);
        let mut out = vec![0.0; a.b * a.h * a.l * e];
        for bh in 0..a.b * a.h {
            let kh = (bh / a.h) * a.hk + (bh % a.h) / g;
            for i in 0..a.l {
                let s: Vec<f64> = (0..a.s).map(|j| {
                    if a.causal && j > i {
                        return f64::NEG_INFINITY;
                    }
                    let dot: f64 = (0..e).map(|d| q[(bh * a.l + i) * e + d] * k[(kh * a.s + j) * e + d]).sum();
                    dot * a.scale + mask[(bh * a.l + i) * a.s + j]
                }).collect();
                let mx = s.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
                if mx == f64::NEG_INFINITY {
                    continue;
                }
                let p: Vec<f64> = s.iter().map(|x| (x - mx).exp()).collect();
                let sum: f64 = p.iter().sum();
                for d in 0..e {
                    out[(bh * a.l + i) * e + d] = (0..a.s).map(|j| p[j] * v[(kh * a.s + j) * e + d]).sum::<f64>() / sum;
                }
            }
        }
        out
    }

    #[test]
    fn forward_matches_the_formula_across_blocks_masks_and_groups() {
        let mut seed = 7u64;
        let mut rnd = move || {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            ((seed >> 11) as f64 / (1u64 << 53) as f64) * 2.0 - 1.0
        };
        for (l, s, causal) in [(5, 7, false), (70, 33, true), (33, 70, true), (200, 150, false), (200, 200, true)] {
            let a = Attention { b: 2, h: 4, hk: 2, l, s, e: 6, scale: 0.4, causal };
            let q: Vec<f64> = (0..a.b * a.h * l * a.e).map(|_| rnd()).collect();
            let k: Vec<f64> = (0..a.b * a.hk * s * a.e).map(|_| rnd()).collect();
            let v: Vec<f64> = (0..a.b * a.hk * s * a.e).map(|_| rnd()).collect();
            // a mask with -inf entries and every key of query 3 masked
            let mut mask: Vec<f64> = (0..a.b * a.h * l * s).map(|_| { let x = rnd(); if x > 0.6 { f64::NEG_INFINITY } else { x } }).collect();
            for bh in 0..a.b * a.h {
                mask[(bh * l + 3) * s..(bh * l + 4) * s].fill(f64::NEG_INFINITY);
            }
            let m = Mask { data: &mask, offset: 0, strides: [(a.h * l * s) as isize, (l * s) as isize, s as isize, 1] };
            let (out, lse) = forward(&q, &k, &v, Some(m), &a).expect("allocates");
            let want = naive(&q, &k, &v, &mask, &a);
            for (x, y) in out.iter().zip(&want) {
                assert!((x - y).abs() <= 1e-12 * (1.0 + y.abs()), "{l}x{s} causal={causal}: {x} vs {y}");
            }
            assert_eq!(lse[3], 0.0, "a fully masked query's logsumexp is 0");
            assert!(out[3 * a.e..4 * a.e].iter().all(|&x| x == 0.0));
        }
    }
}
