//! A convolution's column matrices, written straight from (and summed straight back into)
//! the unpadded (n, c, h, w) image: no padded copy of the input, and the rows split over
//! the team.
//!
//! Row `r = (ci, ki, kj)` of the columns holds, for every output position (oy, ox), the
//! input element `(ci, oy·sh - top + ki·dh, ox·sw - left + kj·dw)`, or `fill` where that
//! falls in the padding. With the batch inside the columns are (c·kh·kw, n·oh·ow), else
//! (n, c·kh·kw, oh·ow): either way a sequence of segments of oh·ow elements, one per
//! (sample, row), which is what the kernels walk.

use super::{alloc, team};
use crate::backend::{Conv2d, ConvWindow};
use super::matmul::gemm_into;

/// The columns of the contiguous image `x` (n, c, h, w).
pub(crate) fn im2col<T: Copy + Send + Sync + alloc::Cached>(x: &[T], [n, c, h, w]: [usize; 4], win: &ConvWindow, batch_inner: bool, fill: T) -> crate::Result<Vec<T>> {
    let [kh, kw] = win.kernel;
    let [oh, ow] = win.out;
    let (k, l) = (c * kh * kw, oh * ow);
    let mut out = alloc::take::<T>(n * k * l)?;
    if out.is_empty() {
        return Ok(out);
    }
    let p = team::SendPtr(out.as_mut_ptr());
    let segment = |s: usize| {
        // segment s: (row r, sample b) with the batch inside, else (sample b, row r)
        let (b, r) = if batch_inner { (s % n, s / n) } else { (s / k, s % k) };
        let (ci, ki, kj) = (r / (kh * kw), r / kw % kh, r % kw);
        let plane = &x[(b * c + ci) * h * w..(b * c + ci + 1) * h * w];
        // SAFETY: segment s is out[s*l..(s+1)*l], disjoint from every other segment, and
        // `out` stays borrowed until `run_blocks` returns after every block.
        let dst = unsafe { std::slice::from_raw_parts_mut(p.get().add(s * l), l) };
        fill_rows(plane, [h, w], win, [ki, kj], 0, dst, fill);
    };
    let segments = n * k;
    if super::parallel(n * k * l) {
        team::run_blocks(segments, &|range| range.for_each(segment));
    } else {
        (0..segments).for_each(segment);
    }
    Ok(out)
}

/// The adjoint of `im2col`: zeros of (n, c, h, w) with every column element added at its
/// input position (padding positions dropped). Each image plane sums its rows (ki, kj) and
/// positions (oy, ox) in that order, whatever the number of threads, as the strided scatter
/// over the window view does.
pub(crate) fn col2im<T: Copy + Default + std::ops::AddAssign + Send + Sync + alloc::Cached>(cols: &[T], [n, c, h, w]: [usize; 4], win: &ConvWindow, batch_inner: bool) -> crate::Result<Vec<T>> {
    let [kh, kw] = win.kernel;
    let [oh, ow] = win.out;
    let (k, l) = (c * kh * kw, oh * ow);
    let mut out = alloc::try_zeroed::<T>(n * c * h * w)?;
    if out.is_empty() || l == 0 {
        return Ok(out);
    }
    let p = team::SendPtr(out.as_mut_ptr());
    let plane_of = |bc: usize| {
        let (b, ci) = (bc / c, bc % c);
        // SAFETY: plane bc is out[bc*h*w..(bc+1)*h*w], disjoint from every other plane, and
        // `out` stays borrowed until `run_blocks` returns after every block.
        let plane = unsafe { std::slice::from_raw_parts_mut(p.get().add(bc * h * w), h * w) };
        for ki in 0..kh {
            for kj in 0..kw {
                let r = (ci * kh + ki) * kw + kj;
                let s = if batch_inner { r * n + b } else { b * k + r };
                add_rows(plane, [h, w], win, [ki, kj], 0, &cols[s * l..(s + 1) * l]);
            }
        }
    };
    if super::parallel(n * k * l) {
        team::run_blocks(n * c, &|range| range.for_each(plane_of));
    } else {
        (0..n * c).for_each(plane_of);
    }
    Ok(out)
}

/// Row (ki, kj) of one image plane's columns for the output rows from `oy0`
/// (`dst.len() / ow` of them): the input element under each window position, or `fill`
/// in the padding.
fn fill_rows<T: Copy>(plane: &[T], [h, w]: [usize; 2], win: &ConvWindow, [ki, kj]: [usize; 2], oy0: usize, dst: &mut [T], fill: T) {
    let (xs, x0) = columns(win, kj, w);
    let ow = win.out[1];
    if win.stride == [1, 1] && ow == w && w > 0 {
        // unit strides and output rows as wide as the input's (a "same" convolution): the
        // rows inside the image are one shifted run of the plane, copied at once, and only
        // the columns that fall into the padding are then filled (they hold the
        // neighbouring rows' ends)
        let rows = (dst.len() / ow) as i64;
        let y0 = (oy0 + ki * win.dilation[0]) as i64 - win.pad[0];
        let lo = (-y0).clamp(0, rows) as usize;
        let hi = (h as i64 - y0).clamp(lo as i64, rows) as usize;
        dst[..lo * ow].fill(fill);
        dst[hi * ow..].fill(fill);
        if lo < hi {
            // dst[d] = plane[d + off] for d in the rows lo..hi (some d at the edges fall
            // outside the plane: padding columns of its first and last row)
            let off = y0 * w as i64 + x0;
            let d0 = ((lo * ow) as i64).max(-off) as usize;
            let d1 = ((hi * ow) as i64).min((h * w) as i64 - off).max(d0 as i64) as usize;
            // (nothing to copy when every column of these rows is padding: a kernel wider
            // than the padded input's edge, e.g. a 5x5 kernel over a 1x1 plane with padding 2)
            if d0 < d1 {
                dst[d0..d1].copy_from_slice(&plane[(d0 as i64 + off) as usize..(d1 as i64 + off) as usize]);
            }
            for row in dst[lo * ow..hi * ow].chunks_exact_mut(ow) {
                row[..xs.start].fill(fill);
                row[xs.end..].fill(fill);
            }
        }
        return;
    }
    for (i, row) in dst.chunks_exact_mut(win.out[1]).enumerate() {
        let y = ((oy0 + i) * win.stride[0] + ki * win.dilation[0]) as i64 - win.pad[0];
        if y < 0 || y >= h as i64 || xs.is_empty() {
            row.fill(fill);
            continue;
        }
        let src = &plane[y as usize * w..(y as usize + 1) * w];
        row[..xs.start].fill(fill);
        row[xs.end..].fill(fill);
        let first = ((xs.start * win.stride[1]) as i64 + x0) as usize;
        if win.stride[1] == 1 {
            row[xs.clone()].copy_from_slice(&src[first..first + xs.len()]);
        } else {
            for (d, &v) in row[xs.clone()].iter_mut().zip(src[first..].iter().step_by(win.stride[1])) {
                *d = v;
            }
        }
    }
}

/// The adjoint of `fill_rows`: the column row `src` (output rows from `oy0`) added at its
/// input positions of `plane`, in order (padding positions dropped).
fn add_rows<T: Copy + std::ops::AddAssign>(plane: &mut [T], [h, w]: [usize; 2], win: &ConvWindow, [ki, kj]: [usize; 2], oy0: usize, src: &[T]) {
    let (xs, x0) = columns(win, kj, w);
    if xs.is_empty() {
        return;
    }
    let first = ((xs.start * win.stride[1]) as i64 + x0) as usize;
    for (i, row) in src.chunks_exact(win.out[1]).enumerate() {
        let y = ((oy0 + i) * win.stride[0] + ki * win.dilation[0]) as i64 - win.pad[0];
        if y < 0 || y >= h as i64 {
            continue;
        }
        let dst = &mut plane[y as usize * w..(y as usize + 1) * w];
        if win.stride[1] == 1 {
            for (d, &v) in dst[first..].iter_mut().zip(&row[xs.clone()]) {
                *d += v;
            }
        } else {
            for (d, &v) in dst[first..].iter_mut().step_by(win.stride[1]).zip(&row[xs.clone()]) {
                *d += v;
            }
        }
    }
}

/// Bytes of one column buffer (c·kh·kw rows of a chunk of output positions): a few times
/// L2's size (Zen 4: 1 MiB, 32 MiB of L3), so that the columns, written by im2col or by the
/// input-gradient product, are read back from cache by the product or col2im that follows,
/// in chunks wide enough for the product. 64→64 channels on 32×32 planes (2.3 MiB a
/// sample), batch 64, one thread, ms for forward / input gradient / weight gradient:
/// 320 KiB chunks 56 / 57 / 63, 1 MiB 55 / 56 / 61, whole samples 52 / 53 / 59; 14×14
/// planes (whole samples in any case) the same.
const CHUNK_BYTES: usize = 4 << 20;

/// `CHUNK_BYTES`, less on many threads (each holds up to two such buffers: 16 threads keep
/// 1 MiB each rather than filling 128 MiB, far past a shared L3).
fn chunk_budget() -> usize {
    CHUNK_BYTES.min((16 << 20) / crate::runtime::num_threads().max(1)).max(1 << 20)
}

/// A convolution's per-sample plan: output rows per column chunk (all of them where one
/// sample's columns fit `CHUNK_BYTES`), and whether samples go to the team (each product
/// single-threaded) or run in turn with gemm's own threads.
struct Plan {
    rows: usize,
    per_sample_threads: bool,
    gemm_par: gemm::Parallelism,
}

fn plan<T>(cv: &Conv2d, chunk_bytes: usize) -> Plan {
    let [n, c, _, _] = cv.nchw;
    let [kh, kw] = cv.win.kernel;
    let [oh, ow] = cv.win.out;
    let row_bytes = (c * kh * kw * ow).max(1) * std::mem::size_of::<T>();
    let rows = (chunk_bytes / row_bytes).clamp(1, oh.max(1));
    // chunks of whole vectors of positions where that costs at most half the rows (see
    // `channel_slices`)
    let whole = lanes::<T>() / gcd(ow.max(1), lanes::<T>());
    let rows = if rows < oh && rows >= 2 * whole { rows / whole * whole } else { rows };
    let threads = crate::runtime::num_threads();
    let macs = n * cv.oc * (c / cv.groups) * kh * kw * oh * ow;
    let per_sample_threads = threads > 1 && n >= threads && macs >= 1 << 20;
    // with fewer samples than threads, each product uses gemm's threads where it is big enough
    let chunk_macs = cv.oc * (c / cv.groups) * kh * kw * rows * ow;
    let gemm_par = if threads > 1 && !per_sample_threads && chunk_macs >= 1 << 22 { gemm::Parallelism::Rayon(threads) } else { gemm::Parallelism::None };
    Plan { rows, per_sample_threads, gemm_par }
}

/// Elements of `T` in one AVX-512 vector: the `gemm` crate's kernels store that many output
/// positions at a time.
fn lanes<T>() -> usize {
    64 / std::mem::size_of::<T>()
}

fn gcd(a: usize, b: usize) -> usize {
    if b == 0 { a } else { gcd(b, a % b) }
}

/// Output channels per product of the forward pass: (first, count) slices of a group's `og`.
/// The product stores along positions, so `gemm` treats a chunk's columns (positions ×
/// c·kh·kw, positions contiguous) as its left operand. On AVX-512 it copies (packs) that
/// operand when the product has more than 48 output channels (8 of its 6-column kernels) and
/// reads it where im2col wrote it at 48 or fewer, if the chunk is whole vectors of positions.
/// So wider groups go in slices of at most 48 channels (multiples of 6) that read the same
/// columns from L2: 64→64 channels on 32×32 planes, batch 64, one thread, the product alone
/// 100 → 110 GFLOP/s, the whole forward 51.5 → 49.0 ms (`conv::timing`; bits unchanged at
/// that shape, but `gemm` may block the sums differently at others). Measured for float32 only.
fn channel_slices<T>(og: usize, lc: usize) -> Vec<(usize, usize)> {
    if og <= 48 || lc % lanes::<T>() != 0 || std::mem::size_of::<T>() != 4 || !super::math::avx512() {
        return vec![(0, og)];
    }
    let mut out = Vec::new();
    let mut first = 0;
    for left_parts in (1..=og.div_ceil(48)).rev() {
        let left = og - first;
        let count = left.div_ceil(left_parts).next_multiple_of(6).min(left);
        out.push((first, count));
        first += count;
    }
    out
}

/// Columns of sample `b` of the contiguous image `x` for the output rows `oy0..oy0 + rows`
/// into `buf` ((c·kh·kw) × (rows·ow), row-major).
fn sample_columns<T: Copy + Default>(x: &[T], cv: &Conv2d, b: usize, oy0: usize, rows: usize, ld: usize, buf: &mut [T]) {
    let [_, c, h, w] = cv.nchw;
    let [kh, kw] = cv.win.kernel;
    let lc = rows * cv.win.out[1];
    for r in 0..c * kh * kw {
        let (ci, ki, kj) = (r / (kh * kw), r / kw % kh, r % kw);
        let plane = &x[(b * c + ci) * h * w..(b * c + ci + 1) * h * w];
        fill_rows(plane, [h, w], &cv.win, [ki, kj], oy0, &mut buf[r * ld..r * ld + lc], T::default());
    }
}

/// The row stride of a column buffer with rows of `lc` elements: `lc`, or one cache line
/// more where rows 2 KiB apart would map a column of the buffer onto a few L1 sets (a
/// product reading it column-wise, the weight gradient's, slowed 2.5x on 32×32 planes).
fn lead<T>(lc: usize) -> usize {
    let size = std::mem::size_of::<T>();
    if (lc * size) % 2048 == 0 { lc + 64 / size } else { lc }
}

/// `run(part, b, scratch)` for every sample `b`, the samples cut into `parts` contiguous
/// runs (on the team when `on_team`, else in order on this thread), each run in order with
/// `per` elements of scratch to itself (contents unspecified: `run` writes before it
/// reads). The scratch is one slot per thread, not per part: a part takes a free slot and
/// gives it back when done.
fn for_samples<T: Copy + Default + Send + Sync + alloc::Cached>(n: usize, parts: usize, on_team: bool, per: usize, run: &(dyn Fn(usize, usize, &mut [T]) + Sync)) -> crate::Result<()> {
    let parts = parts.clamp(1, n.max(1));
    let on_team = on_team && parts > 1;
    let slots = if on_team { crate::runtime::num_threads().clamp(1, parts) } else { 1 };
    let mut scratch = alloc::take::<T>(slots * per)?;
    let sp = team::SendPtr(scratch.as_mut_ptr());
    let free = parking_lot::Mutex::new((0..slots).collect::<Vec<usize>>());
    let part = |i: usize| {
        // at most one part per thread runs at once, so a slot is free (unless the thread
        // count grew meanwhile: then a buffer of its own)
        let slot = free.lock().pop();
        let mut own = None;
        let buf: &mut [T] = match slot {
            // SAFETY: the slot's scratch is scratch[s*per..(s+1)*per], held by this part
            // alone until it goes back on the free list below, and `scratch` outlives the
            // region.
            Some(s) => unsafe { std::slice::from_raw_parts_mut(sp.get().add(s * per), per) },
            None => own.insert(vec![T::default(); per]),
        };
        for b in i * n / parts..(i + 1) * n / parts {
            run(i, b, buf);
        }
        if let Some(s) = slot {
            free.lock().push(s);
        }
    };
    if on_team {
        team::run(parts, &part);
    } else {
        (0..parts).for_each(part);
    }
    T::cache().give(scratch);
    Ok(())
}

/// A 2-d convolution (n, c, h, w) ⊛ (oc, c/g, kh, kw) → (n, oc, oh, ow) of contiguous
/// operands, one sample at a time: its columns (a chunk of output rows at a time, in L2)
/// and one product per group written straight into the sample's output rows, the bias
/// stored first and the product added to it. No whole-batch columns (at batch 64 and
/// 64→64 channels on 32×32, 151 MB), no (oc, n, L) result to move.
pub(crate) fn conv2d<T: crate::dtype::Elem + alloc::Cached + 'static>(x: &[T], wt: &[T], bias: Option<&[T]>, cv: &Conv2d) -> crate::Result<Vec<T>> {
    conv2d_chunked(x, wt, bias, cv, chunk_budget())
}

fn conv2d_chunked<T: crate::dtype::Elem + alloc::Cached + 'static>(x: &[T], wt: &[T], bias: Option<&[T]>, cv: &Conv2d, chunk_bytes: usize) -> crate::Result<Vec<T>> {
    let [n, c, _, _] = cv.nchw;
    let [kh, kw] = cv.win.kernel;
    let [oh, ow] = cv.win.out;
    let (g, oc, l) = (cv.groups, cv.oc, oh * ow);
    let (og, kk) = (oc / g, c / g * kh * kw);
    let mut out = alloc::take::<T>(n * oc * l)?;
    if out.is_empty() {
        return Ok(out);
    }
    let pl = plan::<T>(cv, chunk_bytes);
    let p = team::SendPtr(out.as_mut_ptr());
    let parts = if pl.per_sample_threads { crate::runtime::num_threads() * 4 } else { 1 };
    for_samples::<T>(n, parts, pl.per_sample_threads, c * kh * kw * lead::<T>(pl.rows * ow), &|_, b, buf| {
        for oy0 in (0..oh).step_by(pl.rows) {
            let rows = pl.rows.min(oh - oy0);
            let lc = rows * ow;
            let ld = lead::<T>(lc);
            let slices = channel_slices::<T>(og, lc);
            sample_columns(x, cv, b, oy0, rows, ld, buf);
            // SAFETY: sample b's output is out[b*oc*l..(b+1)*oc*l], written by this call
            // only (samples are disjoint between blocks), and `out` outlives the region.
            let dst = unsafe { p.get().add(b * oc * l + oy0 * ow) };
            if let Some(bias) = bias {
                for (o, &bv) in bias.iter().enumerate() {
                    // SAFETY: row o's chunk, inside sample b's output (as above).
                    unsafe { std::slice::from_raw_parts_mut(dst.add(o * l), lc) }.fill(bv);
                }
            }
            for gi in 0..g {
                for &(o0, oc_n) in &slices {
                    let o = gi * og + o0;
                    // SAFETY: T is f32/f64 (the backend's dtype match); A = the slice's
                    // weight rows (oc_n × kk, row-major) inside `wt`; B = the group's column
                    // rows (kk × lc) inside `buf`; C = the slice's output rows of this chunk
                    // (row stride l) inside sample b's output, touched by nothing else.
                    unsafe {
                        gemm_into([oc_n, lc, kk], dst.add(o * l), l as isize, bias.is_some(),
                                  (wt.as_ptr().add(o * kk), kk as isize, 1), (buf.as_ptr().add(gi * kk * ld), ld as isize, 1), pl.gemm_par);
                    }
                }
            }
        }
    })?;
    Ok(out)
}

/// Samples per partial weight gradient: the batch in at most this many fixed blocks, each
/// summed in sample order by one thread, the blocks' partials then summed in block order,
/// so that the result does not depend on the number of threads.
const WEIGHT_BLOCKS: usize = 16;

/// The gradients of `conv2d` for the output gradient `gy` (contiguous (n, oc, oh, ow)):
/// the input's (each sample: Wᵀ·gy a chunk at a time, summed back into the sample's planes
/// from L2) and the weight's (Σ_b gy_b · columns_bᵀ, the columns recomputed a chunk at a
/// time), each only when asked for.
#[allow(clippy::type_complexity)]
pub(crate) fn conv2d_backward<T: crate::dtype::Elem + alloc::Cached + std::ops::AddAssign + 'static>(gy: &[T], x: &[T], wt: &[T], cv: &Conv2d, want: [bool; 2]) -> crate::Result<(Option<Vec<T>>, Option<Vec<T>>)> {
    conv2d_backward_chunked(gy, x, wt, cv, want, chunk_budget())
}

#[allow(clippy::type_complexity)]
fn conv2d_backward_chunked<T: crate::dtype::Elem + alloc::Cached + std::ops::AddAssign + 'static>(gy: &[T], x: &[T], wt: &[T], cv: &Conv2d, [want_x, want_w]: [bool; 2], chunk_bytes: usize) -> crate::Result<(Option<Vec<T>>, Option<Vec<T>>)> {
    let [n, c, h, w] = cv.nchw;
    let [kh, kw] = cv.win.kernel;
    let [oh, ow] = cv.win.out;
    let (g, oc, l) = (cv.groups, cv.oc, oh * ow);
    let (og, kk) = (oc / g, c / g * kh * kw);
    let mut dx = if want_x { Some(alloc::try_zeroed::<T>(n * c * h * w)?) } else { None };
    let blocks = n.clamp(1, WEIGHT_BLOCKS);
    let mut partials = if want_w { Some(alloc::try_zeroed::<T>(blocks * oc * kk)?) } else { None };
    if n == 0 || l == 0 || oc == 0 || kk == 0 {
        return Ok((dx, partials.map(|mut p| { p.truncate(oc * kk); p })));
    }
    let pl = plan::<T>(cv, chunk_bytes);
    let dxp = team::SendPtr(dx.as_mut().map_or(std::ptr::null_mut(), |v| v.as_mut_ptr()));
    let pp = team::SendPtr(partials.as_mut().map_or(std::ptr::null_mut(), |v| v.as_mut_ptr()));
    let len = c * kh * kw * lead::<T>(pl.rows * ow);
    // the weight gradient's product with its larger side as the rows (gemm's kernels are
    // 64 rows tall): as Wᵀ (kk × og) where kk >= og, else as W (og × kk)
    let wt_rows = kk >= og;
    let sample = |blk: usize, b: usize, scratch: &mut [T]| {
        let (bufx, bufg) = scratch.split_at_mut(len);
        let gyb = &gy[b * oc * l..(b + 1) * oc * l];
        for oy0 in (0..oh).step_by(pl.rows) {
            let rows = pl.rows.min(oh - oy0);
            let lc = rows * ow;
            if want_w {
                let buf = &mut *bufx;
                let ld = lead::<T>(lc);
                sample_columns(x, cv, b, oy0, rows, ld, buf);
                for gi in 0..g {
                    let part = (blk * oc + gi * og) * kk;
                    let gyp = gyb[gi * og * l + oy0 * ow..].as_ptr();
                    // SAFETY (both): T is f32/f64; the chunk's column rows of the group
                    // (kk × lc at row stride ld) lie inside `buf`, the group's output-gradient
                    // rows (og × lc at row stride l) inside `gy`; C = block blk's partial for
                    // the group, written only by the thread that runs block blk (its samples
                    // run in order on one thread).
                    if wt_rows {
                        // Wᵀ += columns · gyᵀ: the columns packed row by row (W's own
                        // orientation gathers them at a stride of lc: 64×288 by 196-column
                        // chunks 6.6 → 5.4 ms per batch of 64)
                        unsafe {
                            gemm_into([kk, og, lc], pp.get().add(part), og as isize, true,
                                      (buf.as_ptr().add(gi * kk * ld), ld as isize, 1), (gyp, 1, l as isize), pl.gemm_par);
                        }
                    } else {
                        // W += gy · columnsᵀ
                        unsafe {
                            gemm_into([og, kk, lc], pp.get().add(part), kk as isize, true,
                                      (gyp, l as isize, 1), (buf.as_ptr().add(gi * kk * ld), 1, ld as isize), pl.gemm_par);
                        }
                    }
                }
            }
            if want_x {
                let buf = &mut *bufg;
                for gi in 0..g {
                    // SAFETY: T is f32/f64; A = the group's Wᵀ (kk × og), the weight rows
                    // read column-major (read in place by gemm, no packing) inside `wt`;
                    // B = the group's output-gradient rows of this chunk (og × lc, row stride
                    // l); C = the group's kk column rows (row stride lc) inside `buf`.
                    unsafe {
                        gemm_into([kk, lc, og], buf.as_mut_ptr().add(gi * kk * lc), lc as isize, false,
                                  (wt.as_ptr().add(gi * og * kk), 1, kk as isize), (gyb.as_ptr().add(gi * og * l + oy0 * ow), l as isize, 1), pl.gemm_par);
                    }
                }
                // SAFETY: sample b's planes are dx[b*c*h*w..(b+1)*c*h*w], written by this
                // call only, and `dx` outlives the region.
                let img = unsafe { std::slice::from_raw_parts_mut(dxp.get().add(b * c * h * w), c * h * w) };
                for (r, src) in buf[..c * kh * kw * lc].chunks_exact(lc).enumerate() {
                    let (ci, ki, kj) = (r / (kh * kw), r / kw % kh, r % kw);
                    add_rows(&mut img[ci * h * w..(ci + 1) * h * w], [h, w], &cv.win, [ki, kj], oy0, src);
                }
            }
        }
    };
    // one part per weight block, its samples in order on one thread: the same sums in the
    // same order on the team or not
    for_samples::<T>(n, blocks, pl.per_sample_threads, 2 * len, &sample)?;
    let dw = partials.map(|mut p| {
        let (first, rest) = p.split_at_mut(oc * kk);
        for part in rest.chunks_exact(oc * kk) {
            for (a, &v) in first.iter_mut().zip(part) {
                *a += v;
            }
        }
        p.truncate(oc * kk);
        if !wt_rows {
            return p;
        }
        // each group's Wᵀ (kk × og) back to (og × kk)
        let mut dw = vec![T::default(); oc * kk];
        for gi in 0..g {
            for r in 0..kk {
                for o in 0..og {
                    dw[(gi * og + o) * kk + r] = p[gi * og * kk + r * og + o];
                }
            }
        }
        dw
    });
    Ok((dx, dw))
}

/// For kernel column `kj`: the output columns `ox` whose input column `ox·sw + x0` lies
/// inside the image (a range), and `x0 = kj·dw - left`.
fn columns(win: &ConvWindow, kj: usize, w: usize) -> (std::ops::Range<usize>, i64) {
    let ow = win.out[1];
    let sw = win.stride[1] as i64;
    let x0 = (kj * win.dilation[1]) as i64 - win.pad[2];
    // ox·sw + x0 >= 0  ⇔  ox >= ceil(-x0 / sw);  ox·sw + x0 <= w - 1  ⇔  ox <= floor((w - 1 - x0) / sw)
    let lo = if x0 >= 0 { 0 } else { (-x0 + sw - 1) / sw };
    let hi = if (w as i64 - 1 - x0) < 0 { -1 } else { (w as i64 - 1 - x0) / sw };
    let (lo, hi) = (lo.min(ow as i64) as usize, (hi + 1).clamp(0, ow as i64) as usize);
    (lo..hi.max(lo), x0)
}

#[cfg(test)]
mod tests {
    use super::{col2im, conv2d_backward_chunked, conv2d_chunked, im2col};
    use crate::backend::{Conv2d, ConvWindow};

    /// The column element at (segment s, position q) by the definition, and im2col/col2im
    /// against it for paddings (also negative), strides, dilations, both column layouts.
    #[test]
    fn columns_match_the_definition() {
        let cases = [
            ([2usize, 3, 5, 6], [3usize, 3], [1usize, 1], [1usize, 1], [1i64, 1, 1, 1]),
            ([1, 2, 7, 7], [3, 2], [2, 3], [1, 2], [0, 2, 3, 1]),
            ([2, 1, 6, 9], [2, 3], [1, 2], [2, 1], [-1, 0, 2, -1]),
            ([3, 2, 4, 4], [1, 1], [1, 1], [1, 1], [0, 0, 0, 0]),
            // a kernel wider than the padded plane's edge: rows that are all padding
            ([1, 2, 1, 1], [5, 5], [1, 1], [1, 1], [2, 2, 2, 2]),
            ([1, 3, 2, 2], [7, 7], [1, 1], [1, 1], [3, 3, 3, 3]),
        ];
        for (nchw, kernel, stride, dilation, pad) in cases {
            let [n, c, h, w] = nchw;
            let oh = ((h as i64 + pad[0] + pad[1] - (dilation[0] * (kernel[0] - 1) + 1) as i64) / stride[0] as i64 + 1) as usize;
            let ow = ((w as i64 + pad[2] + pad[3] - (dilation[1] * (kernel[1] - 1) + 1) as i64) / stride[1] as i64 + 1) as usize;
            let win = ConvWindow { kernel, stride, dilation, pad, out: [oh, ow] };
            let x: Vec<f64> = (0..n * c * h * w).map(|i| i as f64 + 1.0).collect();
            let (k, l) = (c * kernel[0] * kernel[1], oh * ow);
            let at = |b: usize, r: usize, q: usize| -> Option<usize> {
                let (ci, ki, kj) = (r / (kernel[0] * kernel[1]), r / kernel[1] % kernel[0], r % kernel[1]);
                let (oy, ox) = (q / ow, q % ow);
                let y = (oy * stride[0] + ki * dilation[0]) as i64 - pad[0];
                let xx = (ox * stride[1] + kj * dilation[1]) as i64 - pad[2];
                (y >= 0 && y < h as i64 && xx >= 0 && xx < w as i64).then(|| ((b * c + ci) * h + y as usize) * w + xx as usize)
            };
            for batch_inner in [false, true] {
                let cols = im2col(&x, nchw, &win, batch_inner, -7.0).unwrap();
                let g: Vec<f64> = (0..cols.len()).map(|i| (i % 17) as f64 - 8.0).collect();
                let mut want_img = vec![0f64; x.len()];
                for b in 0..n {
                    for r in 0..k {
                        let s = if batch_inner { r * n + b } else { b * k + r };
                        for q in 0..l {
                            let got = cols[s * l + q];
                            match at(b, r, q) {
                                Some(i) => {
                                    assert_eq!(got, x[i], "{nchw:?} {batch_inner} b{b} r{r} q{q}");
                                    want_img[i] += g[s * l + q];
                                }
                                None => assert_eq!(got, -7.0),
                            }
                        }
                    }
                }
                assert_eq!(col2im(&g, nchw, &win, batch_inner).unwrap(), want_img, "{nchw:?} {batch_inner}");
            }
        }
    }

    /// The fused convolution and its gradients against the definition (direct sums), with
    /// groups, strides, dilations, paddings (also negative), one-row chunks and whole
    /// samples, on one thread and on two: equal to within rounding, and the gradients the
    /// same bits whatever the chunking's thread split.
    #[test]
    fn fused_convolution_matches_the_definition() {
        let cases = [
            // (n, c, h, w), oc, groups, kernel, stride, dilation, pad
            ([3usize, 4, 6, 5], 6usize, 2usize, [3usize, 2], [1usize, 2], [1usize, 1], [1i64, 1, 0, 2]),
            ([5, 3, 7, 7], 4, 1, [3, 3], [2, 1], [2, 1], [2, 1, 1, 1]),
            ([2, 2, 5, 8], 2, 2, [1, 3], [1, 1], [1, 2], [-1, 0, 2, 0]),
            ([17, 1, 4, 4], 3, 1, [2, 2], [1, 1], [1, 1], [0, 0, 0, 0]),
            ([4, 3, 6, 7], 4, 1, [3, 3], [1, 1], [2, 2], [2, 2, 2, 2]),
            ([2, 2, 5, 6], 4, 2, [3, 3], [1, 1], [1, 1], [1, 1, 1, 1]),
            // fewer column rows than output channels (the weight gradient as W), and
            // 256-element rows (f64: 2 KiB, a padded buffer stride)
            ([3, 1, 5, 5], 8, 1, [2, 2], [1, 1], [1, 1], [0, 1, 1, 0]),
            ([2, 1, 16, 16], 8, 1, [1, 1], [1, 1], [1, 1], [0, 0, 0, 0]),
        ];
        for (nchw, oc, groups, kernel, stride, dilation, pad) in cases {
            let [n, c, h, w] = nchw;
            let oh = ((h as i64 + pad[0] + pad[1] - (dilation[0] * (kernel[0] - 1) + 1) as i64) / stride[0] as i64 + 1) as usize;
            let ow = ((w as i64 + pad[2] + pad[3] - (dilation[1] * (kernel[1] - 1) + 1) as i64) / stride[1] as i64 + 1) as usize;
            let cv = Conv2d { nchw, oc, groups, win: ConvWindow { kernel, stride, dilation, pad, out: [oh, ow] } };
            let (cg, og) = (c / groups, oc / groups);
            let kk = cg * kernel[0] * kernel[1];
            let x: Vec<f64> = (0..n * c * h * w).map(|i| (0.37 * i as f64).sin()).collect();
            let wt: Vec<f64> = (0..oc * kk).map(|i| (0.91 * i as f64 + 0.2).cos()).collect();
            let bias: Vec<f64> = (0..oc).map(|i| i as f64 - 1.5).collect();
            let gy: Vec<f64> = (0..n * oc * oh * ow).map(|i| (0.13 * i as f64 + 1.0).sin()).collect();
            // the definition: y[b,o,p,q] = bias[o] + Σ x[b, g·cg + ci, p·sh - top + ki·dh, q·sw - left + kj·dw] w[o, ci, ki, kj]
            let mut want_y = vec![0f64; n * oc * oh * ow];
            let (mut want_dx, mut want_dw) = (vec![0f64; x.len()], vec![0f64; wt.len()]);
            for b in 0..n {
                for o in 0..oc {
                    let gi = o / og;
                    for p in 0..oh {
                        for q in 0..ow {
                            let yi = ((b * oc + o) * oh + p) * ow + q;
                            let mut acc = bias[o];
                            for ci in 0..cg {
                                for ki in 0..kernel[0] {
                                    for kj in 0..kernel[1] {
                                        let yy = (p * stride[0] + ki * dilation[0]) as i64 - pad[0];
                                        let xx = (q * stride[1] + kj * dilation[1]) as i64 - pad[2];
                                        if yy < 0 || yy >= h as i64 || xx < 0 || xx >= w as i64 {
                                            continue;
                                        }
                                        let xi = ((b * c + gi * cg + ci) * h + yy as usize) * w + xx as usize;
                                        let wi = ((o * cg + ci) * kernel[0] + ki) * kernel[1] + kj;
                                        acc += x[xi] * wt[wi];
                                        want_dx[xi] += gy[yi] * wt[wi];
                                        want_dw[wi] += gy[yi] * x[xi];
                                    }
                                }
                            }
                            want_y[yi] = acc;
                        }
                    }
                }
            }
            let close = |got: &[f64], want: &[f64], what: &str| {
                assert_eq!(got.len(), want.len());
                for (i, (a, b)) in got.iter().zip(want).enumerate() {
                    assert!((a - b).abs() < 1e-9 * (1.0 + b.abs()), "{nchw:?} {what}[{i}]: {a} vs {b}");
                }
            };
            let mut grads = Vec::new();
            for threads in [1, 2] {
                crate::runtime::set_num_threads(threads);
                for chunk in [1, 1 << 20] {
                    close(&conv2d_chunked(&x, &wt, Some(&bias), &cv, chunk).unwrap(), &want_y, "y");
                    let nob = conv2d_chunked(&x, &wt, None, &cv, chunk).unwrap();
                    let unb: Vec<f64> = want_y.iter().enumerate().map(|(i, v)| v - bias[i / (oh * ow) % oc]).collect();
                    close(&nob, &unb, "y without bias");
                    let (dx, dw) = conv2d_backward_chunked(&gy, &x, &wt, &cv, [true, true], chunk).unwrap();
                    close(dx.as_ref().unwrap(), &want_dx, "dx");
                    close(dw.as_ref().unwrap(), &want_dw, "dw");
                    let (only_x, none_w) = conv2d_backward_chunked(&gy, &x, &wt, &cv, [true, false], chunk).unwrap();
                    assert!(none_w.is_none());
                    assert_eq!(only_x, dx);
                    let (none_x, only_w) = conv2d_backward_chunked(&gy, &x, &wt, &cv, [false, true], chunk).unwrap();
                    assert!(none_x.is_none());
                    assert_eq!(only_w, dw);
                    grads.push((chunk, dx.unwrap(), dw.unwrap()));
                }
            }
            // the same chunking gives the same bits on one thread and two
            for (chunk, dx, dw) in &grads[2..] {
                let (_, dx1, dw1) = grads.iter().find(|g| g.0 == *chunk).unwrap();
                assert_eq!((dx, dw), (dx1, dw1), "{nchw:?} chunk {chunk}");
            }
        }
    }
}

#[cfg(test)]
mod slices {
    use super::{channel_slices, conv2d_chunked};
    use crate::backend::{Conv2d, ConvWindow};

    /// The forward's channel slices tile each group's channels, at most 48 each, and a
    /// float32 convolution that takes them (more than 48 channels a group, whole vectors
    /// of positions) agrees with the definition, with and without groups and bias.
    #[test]
    fn sliced_forward_matches_the_definition() {
        for og in [1usize, 48, 49, 64, 100, 256] {
            let s = channel_slices::<f32>(og, 64);
            assert_eq!(s.iter().map(|p| p.1).sum::<usize>(), og);
            assert!(s.windows(2).all(|p| p[0].0 + p[0].1 == p[1].0) && s[0].0 == 0);
            assert!(s.iter().all(|p| p.1 <= 48 || s.len() == 1));
        }
        for (oc, groups) in [(100usize, 1usize), (112, 2)] {
            let (n, c, h, w) = (2usize, 4usize, 8usize, 8usize);
            let cv = Conv2d { nchw: [n, c, h, w], oc, groups, win: ConvWindow { kernel: [3, 3], stride: [1, 1], dilation: [1, 1], pad: [1, 1, 1, 1], out: [h, w] } };
            let (cg, og) = (c / groups, oc / groups);
            let x: Vec<f32> = (0..n * c * h * w).map(|i| (0.37 * i as f32).sin()).collect();
            let wt: Vec<f32> = (0..oc * cg * 9).map(|i| (0.91 * i as f32 + 0.2).cos()).collect();
            let bias: Vec<f32> = (0..oc).map(|i| i as f32 * 0.1 - 1.5).collect();
            for with_bias in [false, true] {
                let y = conv2d_chunked(&x, &wt, with_bias.then_some(&bias[..]), &cv, 4 << 20).unwrap();
                for b in 0..n {
                    for o in 0..oc {
                        for p in 0..h {
                            for q in 0..w {
                                let mut acc = if with_bias { bias[o] as f64 } else { 0.0 };
                                for ci in 0..cg {
                                    for ki in 0..3 {
                                        for kj in 0..3 {
                                            let (yy, xx) = (p as i64 + ki as i64 - 1, q as i64 + kj as i64 - 1);
                                            if yy < 0 || yy >= h as i64 || xx < 0 || xx >= w as i64 {
                                                continue;
                                            }
                                            let xi = ((b * c + o / og * cg + ci) * h + yy as usize) * w + xx as usize;
                                            acc += x[xi] as f64 * wt[((o * cg + ci) * 3 + ki) * 3 + kj] as f64;
                                        }
                                    }
                                }
                                let got = y[((b * oc + o) * h + p) * w + q] as f64;
                                assert!((got - acc).abs() <= 1e-5 * (1.0 + acc.abs()), "oc {oc} g {groups} ({b},{o},{p},{q}): {got} vs {acc}");
                            }
                        }
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod timing {
    use super::{conv2d_backward_chunked, conv2d_chunked};
    use crate::backend::{Conv2d, ConvWindow};

    /// `cargo test --release --lib conv::timing -- --ignored --nocapture`: µs per call of the
    /// fused kernels by chunk size (FG_THREADS threads).
    #[test]
    #[ignore]
    fn chunk_sizes() {
        let threads = std::env::var("FG_THREADS").ok().and_then(|v| v.parse().ok()).unwrap_or(1);
        crate::runtime::set_num_threads(threads);
        for (c, hw) in [(3usize, 32usize), (32, 14), (64, 32), (64, 28)] {
            let cv = Conv2d { nchw: [64, c, hw, hw], oc: 64, groups: 1, win: ConvWindow { kernel: [3, 3], stride: [1, 1], dilation: [1, 1], pad: [1, 1, 1, 1], out: [hw, hw] } };
            let x: Vec<f32> = (0..64 * c * hw * hw).map(|i| (i as f32 * 0.37).sin()).collect();
            let w: Vec<f32> = (0..64 * c * 9).map(|i| (i as f32 * 0.11).cos()).collect();
            let gy: Vec<f32> = (0..64 * 64 * hw * hw).map(|i| (i as f32 * 0.13).sin()).collect();
            for kib in [320usize, 640, 1024, 4096] {
                let time = |f: &dyn Fn()| {
                    f();
                    let mut best = f64::MAX;
                    for _ in 0..5 {
                        let t = std::time::Instant::now();
                        f();
                        best = best.min(t.elapsed().as_secs_f64() * 1e6);
                    }
                    best
                };
                let fw = time(&|| { conv2d_chunked(&x, &w, None, &cv, kib << 10).unwrap(); });
                let bx = time(&|| { conv2d_backward_chunked(&gy, &x, &w, &cv, [true, false], kib << 10).unwrap(); });
                let bw = time(&|| { conv2d_backward_chunked(&gy, &x, &w, &cv, [false, true], kib << 10).unwrap(); });
                println!("c={c} hw={hw} chunk {kib:5} KiB: fwd {fw:8.0}  dx {bx:8.0}  dw {bw:8.0} µs");
            }
        }
    }
}
