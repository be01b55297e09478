//! Fused layer-norm kernels over the rows of a contiguous (rows, r) tensor: statistics,
//! normalisation and the per-column affine in one pass over the output, and the backward's
//! input, weight and bias gradients in one pass over the input. Arithmetic is in f64 (the
//! row statistics of f32 inputs too), the results in the input's dtype.

use super::alloc;
use crate::dtype::Elem;

/// Σ f(v) over `row` with 8 independent accumulators (a single f64 chain is bound by the
/// add latency; eight lanes let the compiler vectorise).
#[inline(always)]
fn lanes_sum<T: Elem>(row: &[T], f: impl Fn(f64) -> f64) -> f64 {
    let mut acc = [0.0f64; 8];
    let chunks = row.chunks_exact(8);
    let tail = chunks.remainder();
    for c in chunks {
        for k in 0..8 {
            acc[k] += f(c[k].to_f64());
        }
    }
    let mut s = acc.iter().sum::<f64>();
    for &v in tail {
        s += f(v.to_f64());
    }
    s
}

#[inline(always)]
/// Mean and 1/sqrt(var + eps) of one row (two passes: the mean, then the squared
/// deviations, so large offsets do not cancel).
fn row_stats<T: Elem>(row: &[T], eps: f64) -> (f64, f64) {
    let n = row.len().max(1) as f64;
    let mean = lanes_sum(row, |v| v) / n;
    let var = lanes_sum(row, |v| (v - mean) * (v - mean)) / n;
    (mean, 1.0 / (var + eps).sqrt())
}

/// `y = (x - mean) * rstd * w + b` per row of `x` (`rows` × `r`), `w`/`b` per column, with
/// each row's mean and rstd (PyTorch's `result1`/`result2`); rows in blocks on the team,
/// each block's loops built for AVX2+FMA where the CPU has them.
#[allow(clippy::type_complexity)]
pub(crate) fn layer_norm<T: Elem + alloc::Cached>(x: &[T], r: usize, w: Option<&[T]>, b: Option<&[T]>, eps: f64) -> crate::Result<(Vec<T>, Vec<T>, Vec<T>)> {
    let mut out = alloc::take::<T>(x.len())?;
    let rows = if r == 0 { 0 } else { x.len() / r };
    let (mut means, mut rstds) = (vec![T::from_f64(0.0); rows], vec![T::from_f64(0.0); rows]);
    if r == 0 {
        return Ok((out, means, rstds));
    }
    let (mp, rp) = (super::team::SendPtr(means.as_mut_ptr()), super::team::SendPtr(rstds.as_mut_ptr()));
    let per = super::rows_per_block(rows, r, super::CHUNK, usize::MAX);
    super::par_row_blocks(&mut out, r, per, |_, row0, ob| super::math::simd(#[inline(always)] || {
        let xb = &x[row0 * r..row0 * r + ob.len()];
        let nb = ob.len() / r;
        // SAFETY: this block owns rows row0..row0+nb of `means` and `rstds` (disjoint from
        // every other block's), which outlive the blocks.
        let (mb, rb) = unsafe { (std::slice::from_raw_parts_mut(mp.get().add(row0), nb), std::slice::from_raw_parts_mut(rp.get().add(row0), nb)) };
        if let (Some(xb), Some(ob), Some(w), Some(b)) = (as_f32(xb), as_f32_mut(ob), opt_f32(w), opt_f32(b)) {
            // float32 in float32 arithmetic, as PyTorch's kernel (its opmath type for float)
            for (i, (xr, yr)) in xb.chunks_exact(r).zip(ob.chunks_exact_mut(r)).enumerate() {
                let (m, rs) = layer_norm_row_f32(xr, yr, w, b, eps);
                (mb[i], rb[i]) = (T::from_f64(m as f64), T::from_f64(rs as f64));
            }
            return;
        }
        for (i, (xr, yr)) in xb.chunks_exact(r).zip(ob.chunks_exact_mut(r)).enumerate() {
            let (m, rs) = layer_norm_row(xr, yr, w, b, eps);
            (mb[i], rb[i]) = (T::from_f64(m), T::from_f64(rs));
        }
    }));
    Ok((out, means, rstds))
}

/// `x` as `[f32]` when `T` is f32.
fn as_f32<T: 'static>(x: &[T]) -> Option<&[f32]> {
    // SAFETY: T is f32 (same type id), so the slice is a slice of f32.
    (std::any::TypeId::of::<T>() == std::any::TypeId::of::<f32>()).then(|| unsafe { std::slice::from_raw_parts(x.as_ptr() as *const f32, x.len()) })
}

/// `as_f32` of an optional slice: `Some(None)` for none, `None` when `T` is not f32.
fn opt_f32<T: 'static>(x: Option<&[T]>) -> Option<Option<&[f32]>> {
    match x {
        None => Some(None),
        Some(v) => as_f32(v).map(Some),
    }
}

fn as_f32_mut<T: 'static>(x: &mut [T]) -> Option<&mut [f32]> {
    // SAFETY: as in `as_f32`; the borrow is moved into the returned slice.
    (std::any::TypeId::of::<T>() == std::any::TypeId::of::<f32>()).then(|| unsafe { std::slice::from_raw_parts_mut(x.as_mut_ptr() as *mut f32, x.len()) })
}

/// Σ f(v) over an f32 row in 16 f32 lanes (vectorises), the lanes added in f64.
#[inline(always)]
fn lanes_sum_f32(row: &[f32], f: impl Fn(f32) -> f32) -> f64 {
    let mut acc = [0.0f32; 16];
    let chunks = row.chunks_exact(16);
    let tail = chunks.remainder();
    for c in chunks {
        for k in 0..16 {
            acc[k] += f(c[k]);
        }
    }
    acc.iter().map(|&v| v as f64).sum::<f64>() + tail.iter().map(|&v| f(v) as f64).sum::<f64>()
}

/// `yr[j] = f(xr[j], w[j], b[j])` with one loop per affine case, so that no branch sits in
/// the inner loop (a missing weight or bias is a constant `None` once `f` is inlined).
#[inline(always)]
fn affine_row<T: Copy>(xr: &[T], yr: &mut [T], w: Option<&[T]>, b: Option<&[T]>, f: impl Fn(T, Option<T>, Option<T>) -> T) {
    match (w, b) {
        (Some(w), Some(b)) => {
            for ((y, &v), (&wj, &bj)) in yr.iter_mut().zip(xr).zip(w.iter().zip(b)) {
                *y = f(v, Some(wj), Some(bj));
            }
        }
        (Some(w), None) => {
            for ((y, &v), &wj) in yr.iter_mut().zip(xr).zip(w) {
                *y = f(v, Some(wj), None);
            }
        }
        (None, Some(b)) => {
            for ((y, &v), &bj) in yr.iter_mut().zip(xr).zip(b) {
                *y = f(v, None, Some(bj));
            }
        }
        (None, None) => {
            for (y, &v) in yr.iter_mut().zip(xr) {
                *y = f(v, None, None);
            }
        }
    }
}

/// `layer_norm_row` for float32 with an optional affine (two passes for the statistics).
#[inline(always)]
fn layer_norm_row_f32(xr: &[f32], yr: &mut [f32], w: Option<&[f32]>, b: Option<&[f32]>, eps: f64) -> (f32, f32) {
    let n = xr.len().max(1) as f64;
    let mean = (lanes_sum_f32(xr, |v| v) / n) as f32;
    let var = lanes_sum_f32(xr, |v| (v - mean) * (v - mean)) / n;
    let rstd = (1.0 / (var + eps).sqrt()) as f32;
    affine_row(xr, yr, w, b, |v, wj, bj| {
        let t = (v - mean) * rstd;
        let t = wj.map_or(t, |w| t * w);
        bj.map_or(t, |b| t + b)
    });
    (mean, rstd)
}

#[inline(always)]
fn layer_norm_row<T: Elem>(xr: &[T], yr: &mut [T], w: Option<&[T]>, b: Option<&[T]>, eps: f64) -> (f64, f64) {
    let (mean, rstd) = row_stats(xr, eps);
    affine_row(xr, yr, w, b, |v, wj, bj| {
        let t = (v.to_f64() - mean) * rstd;
        let t = wj.map_or(t, |w| t * w.to_f64());
        T::from_f64(bj.map_or(t, |b| t + b.to_f64()))
    });
    (mean, rstd)
}

/// The gradients of `layer_norm` given `g`: `gx = rstd (gxhat - mean(gxhat) - xhat
/// mean(gxhat xhat))` with `gxhat = g w`, and the column sums `gw = Σ g xhat`, `gb = Σ g`
/// (each only when asked for). Rows run in blocks on the team; each block sums its own
/// `gw`/`gb` partials, added in block order afterwards (the same on any thread count).
#[allow(clippy::type_complexity)]
pub(crate) fn layer_norm_backward<T: Elem + alloc::Cached>(
    g: &[T], x: &[T], r: usize, w: Option<&[T]>, eps: f64, want_w: bool, want_b: bool,
) -> crate::Result<(Vec<T>, Option<Vec<T>>, Option<Vec<T>>)> {
    let mut gx = alloc::take::<T>(x.len())?;
    let mut gw = vec![0.0f64; if want_w { r } else { 0 }];
    let mut gb = vec![0.0f64; if want_b { r } else { 0 }];
    if r > 0 {
        let rows = x.len() / r;
        let per = super::rows_per_block(rows, r, 1 << 17, 64);
        let blocks = rows.div_ceil(per);
        let (mut pw, mut pb) = (vec![0.0f64; if want_w { blocks * r } else { 0 }], vec![0.0f64; if want_b { blocks * r } else { 0 }]);
        let (pwp, pbp) = (super::team::SendPtr(pw.as_mut_ptr()), super::team::SendPtr(pb.as_mut_ptr()));
        super::par_row_blocks(&mut gx, r, per, |blk, row0, ob| super::math::simd(#[inline(always)] || {
            // SAFETY: block `blk` owns the partial rows blk*r..(blk+1)*r of `pw`/`pb` (empty
            // when not wanted); both outlive the region.
            let gwb = if want_w { unsafe { std::slice::from_raw_parts_mut(pwp.get().add(blk * r), r) } } else { &mut [][..] };
            let gbb = if want_b { unsafe { std::slice::from_raw_parts_mut(pbp.get().add(blk * r), r) } } else { &mut [][..] };
            let span = row0 * r..row0 * r + ob.len();
            if let (Some(xb), Some(gb_), Some(ob), Some(w)) = (as_f32(&x[span.clone()]), as_f32(&g[span.clone()]), as_f32_mut(ob), opt_f32(w)) {
                // float32 in float32 arithmetic (as PyTorch's kernel), the block's column
                // sums in float32 too, then added to the f64 partials
                let mut sw = vec![0.0f32; if want_w { r } else { 0 }];
                let mut sb = vec![0.0f32; if want_b { r } else { 0 }];
                for ((xr, gr), or) in xb.chunks_exact(r).zip(gb_.chunks_exact(r)).zip(ob.chunks_exact_mut(r)) {
                    layer_norm_backward_row_f32(xr, gr, or, w, eps, &mut sw, &mut sb);
                }
                gwb.iter_mut().zip(&sw).for_each(|(a, &v)| *a = v as f64);
                gbb.iter_mut().zip(&sb).for_each(|(a, &v)| *a = v as f64);
                return;
            }
            let mut gxhat = vec![0.0f64; r];
            for ((xr, gr), or) in x[span.clone()].chunks_exact(r).zip(g[span].chunks_exact(r)).zip(ob.chunks_exact_mut(r)) {
                layer_norm_backward_row(xr, gr, or, w, eps, &mut gxhat, gwb, gbb);
            }
        }));
        for blk in 0..blocks {
            if want_w {
                gw.iter_mut().zip(&pw[blk * r..(blk + 1) * r]).for_each(|(a, p)| *a += p);
            }
            if want_b {
                gb.iter_mut().zip(&pb[blk * r..(blk + 1) * r]).for_each(|(a, p)| *a += p);
            }
        }
    }
    let conv = |v: Vec<f64>| -> Vec<T> { v.into_iter().map(T::from_f64).collect() };
    Ok((gx, want_w.then(|| conv(gw)), want_b.then(|| conv(gb))))
}

/// One row of `layer_norm_backward`: its `gx` into `or`, its terms added to `gw`/`gb` (empty
/// slices when not wanted).
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn layer_norm_backward_row<T: Elem>(xr: &[T], gr: &[T], or: &mut [T], w: Option<&[T]>, eps: f64, gxhat: &mut [f64], gw: &mut [f64], gb: &mut [f64]) {
    let r = xr.len();
    let (mean, rstd) = row_stats(xr, eps);
    match w {
        Some(w) => gxhat.iter_mut().zip(gr).zip(w).for_each(|((d, &gv), &wv)| *d = gv.to_f64() * wv.to_f64()),
        None => gxhat.iter_mut().zip(gr).for_each(|(d, &gv)| *d = gv.to_f64()),
    }
    for ((a, &gv), &xv) in gw.iter_mut().zip(gr).zip(xr) {
        *a += gv.to_f64() * (xv.to_f64() - mean) * rstd;
    }
    for (a, &gv) in gb.iter_mut().zip(gr) {
        *a += gv.to_f64();
    }
    // Σ gxhat and Σ gxhat·xhat with eight accumulators each
    let (mut a1, mut a2) = ([0.0f64; 8], [0.0f64; 8]);
    let main = r - r % 8;
    for j0 in (0..main).step_by(8) {
        for k in 0..8 {
            let j = j0 + k;
            a1[k] += gxhat[j];
            a2[k] += gxhat[j] * (xr[j].to_f64() - mean) * rstd;
        }
    }
    let (mut m1, mut m2) = (a1.iter().sum::<f64>(), a2.iter().sum::<f64>());
    for j in main..r {
        m1 += gxhat[j];
        m2 += gxhat[j] * (xr[j].to_f64() - mean) * rstd;
    }
    let (m1, m2) = (m1 / r as f64, m2 / r as f64);
    for j in 0..r {
        let xhat = (xr[j].to_f64() - mean) * rstd;
        or[j] = T::from_f64(rstd * (gxhat[j] - m1 - xhat * m2));
    }
}

/// `layer_norm_backward_row` for float32 in float32 arithmetic (16 lanes for the sums).
#[inline(always)]
fn layer_norm_backward_row_f32(xr: &[f32], gr: &[f32], or: &mut [f32], w: Option<&[f32]>, eps: f64, gw: &mut [f32], gb: &mut [f32]) {
    let r = xr.len();
    let n = r.max(1) as f64;
    let mean = (lanes_sum_f32(xr, |v| v) / n) as f32;
    let var = lanes_sum_f32(xr, |v| (v - mean) * (v - mean)) / n;
    let rstd = (1.0 / (var + eps).sqrt()) as f32;
    // Σ gxhat and Σ gxhat·xhat (gxhat = g w) in 16 lanes each, with the column terms of gw
    // (g xhat) and gb (g) added in the same pass when both are wanted
    let (m1, m2) = match (w, gw.len() == r && gb.len() == r) {
        (Some(w), true) => row_terms_f32::<true>(xr, gr, w, mean, rstd, gw, gb),
        (None, true) => row_terms_f32::<false>(xr, gr, xr, mean, rstd, gw, gb),
        _ => {
            for ((a, &gv), &xv) in gw.iter_mut().zip(gr).zip(xr) {
                *a += gv * ((xv - mean) * rstd);
            }
            for (a, &gv) in gb.iter_mut().zip(gr) {
                *a += gv;
            }
            match w {
                Some(w) => row_terms_f32::<true>(xr, gr, w, mean, rstd, &mut [], &mut []),
                None => row_terms_f32::<false>(xr, gr, xr, mean, rstd, &mut [], &mut []),
            }
        }
    };
    let (m1, m2) = ((m1 / n) as f32, (m2 / n) as f32);
    match w {
        Some(w) => {
            for (((o, &gv), &xv), &wj) in or.iter_mut().zip(gr).zip(xr).zip(w) {
                *o = rstd * (gv * wj - m1 - (xv - mean) * rstd * m2);
            }
        }
        None => {
            for ((o, &gv), &xv) in or.iter_mut().zip(gr).zip(xr) {
                *o = rstd * (gv - m1 - (xv - mean) * rstd * m2);
            }
        }
    }
}

/// The row sums of `layer_norm_backward_row_f32`: (Σ gxhat, Σ gxhat·xhat) with gxhat = g w
/// (`W`; else g, and `w` unused), 16 float32 lanes over the main part and the tail in f64;
/// `g xhat` and `g` added to `gw` / `gb` in the same pass when they are rows (else empty).
#[inline(always)]
fn row_terms_f32<const W: bool>(xr: &[f32], gr: &[f32], w: &[f32], mean: f32, rstd: f32, gw: &mut [f32], gb: &mut [f32]) -> (f64, f64) {
    let r = xr.len();
    let cols = !gw.is_empty();
    let (mut a1, mut a2) = ([0.0f32; 16], [0.0f32; 16]);
    let main = r - r % 16;
    if cols {
        let it = xr[..main].chunks_exact(16).zip(gr[..main].chunks_exact(16)).zip(w[..main].chunks_exact(16));
        for (((x, g), wc), (cw, cb)) in it.zip(gw[..main].chunks_exact_mut(16).zip(gb[..main].chunks_exact_mut(16))) {
            for k in 0..16 {
                let xh = (x[k] - mean) * rstd;
                cw[k] += g[k] * xh;
                cb[k] += g[k];
                let gh = if W { g[k] * wc[k] } else { g[k] };
                a1[k] += gh;
                a2[k] += gh * xh;
            }
        }
    } else {
        for ((x, g), wc) in xr[..main].chunks_exact(16).zip(gr[..main].chunks_exact(16)).zip(w[..main].chunks_exact(16)) {
            for k in 0..16 {
                let xh = (x[k] - mean) * rstd;
                let gh = if W { g[k] * wc[k] } else { g[k] };
                a1[k] += gh;
                a2[k] += gh * xh;
            }
        }
    }
    let (mut m1, mut m2) = (a1.iter().map(|&v| v as f64).sum::<f64>(), a2.iter().map(|&v| v as f64).sum::<f64>());
    for j in main..r {
        let xh = (xr[j] - mean) * rstd;
        if cols {
            gw[j] += gr[j] * xh;
            gb[j] += gr[j];
        }
        let gh = (if W { gr[j] * w[j] } else { gr[j] }) as f64;
        m1 += gh;
        m2 += gh * xh as f64;
    }
    (m1, m2)
}

/// Per-channel mean and biased variance of `x` laid out as (n, c, s) contiguous: two passes
/// (the mean, then the squared deviations) in f64 lanes, channels on the team.
pub(crate) fn channel_stats<T: Elem>(x: &[T], (n, c, s): (usize, usize, usize)) -> (Vec<f64>, Vec<f64>) {
    let (mut mean, mut var) = (vec![0.0f64; c], vec![0.0f64; c]);
    let count = (n * s).max(1) as f64;
    let (mp, vp) = (super::team::SendPtr(mean.as_mut_ptr()), super::team::SendPtr(var.as_mut_ptr()));
    let channel = |ch: usize| super::math::simd(#[inline(always)] || {
        let seg = |b: usize| &x[(b * c + ch) * s..(b * c + ch + 1) * s];
        let m = (0..n).map(|b| lanes_sum(seg(b), |v| v)).sum::<f64>() / count;
        let v = (0..n).map(|b| lanes_sum(seg(b), |v| (v - m) * (v - m))).sum::<f64>() / count;
        // SAFETY: channel ch writes only element ch of `mean`/`var`, which outlive the region.
        unsafe {
            *mp.get().add(ch) = m;
            *vp.get().add(ch) = v;
        }
    });
    if super::parallel(x.len()) && c > 1 {
        super::team::run(c, &channel);
    } else {
        (0..c).for_each(channel);
    }
    (mean, var)
}

/// `y = x * alpha[ch] + beta[ch]` over `x` laid out as (n, c, s) contiguous, planes in blocks
/// on the team.
pub(crate) fn channel_affine<T: Elem + alloc::Cached>(x: &[T], (_n, c, s): (usize, usize, usize), alpha: &[T], beta: &[T]) -> crate::Result<Vec<T>> {
    let mut out = alloc::take::<T>(x.len())?;
    if s == 0 || c == 0 {
        return Ok(out);
    }
    let per = super::rows_per_block(x.len() / s, s, super::CHUNK, usize::MAX);
    super::par_row_blocks(&mut out, s, per, |_, p0, ob| super::math::simd(#[inline(always)] || {
        let xb = &x[p0 * s..p0 * s + ob.len()];
        if let (Some(xb), Some(ob), Some(alpha), Some(beta)) = (as_f32(xb), as_f32_mut(ob), as_f32(alpha), as_f32(beta)) {
            // float32 in float32 arithmetic, as the tensor ops `x * alpha + beta` it replaces
            for (i, (xr, yr)) in xb.chunks_exact(s).zip(ob.chunks_exact_mut(s)).enumerate() {
                let (a, b) = (alpha[(p0 + i) % c], beta[(p0 + i) % c]);
                for (y, &v) in yr.iter_mut().zip(xr) {
                    *y = v * a + b;
                }
            }
            return;
        }
        for (i, (xr, yr)) in xb.chunks_exact(s).zip(ob.chunks_exact_mut(s)).enumerate() {
            let (a, b) = (alpha[(p0 + i) % c].to_f64(), beta[(p0 + i) % c].to_f64());
            for (y, &v) in yr.iter_mut().zip(xr) {
                *y = T::from_f64(v.to_f64() * a + b);
            }
        }
    }));
    Ok(out)
}

/// The batch norm's gradients over x laid out as (n, c, s) contiguous, given the output
/// gradient `g`, the per-channel `mean` and `invstd` the forward used and the weight `w`:
/// `gx = w invstd (g - [training] (Σg + (x - mean) invstd² Σg(x - mean)) / (n s))`,
/// `gw = invstd Σ g (x - mean)`, `gb = Σ g` (sums per channel over n and s).
#[allow(clippy::too_many_arguments, clippy::type_complexity)]
pub(crate) fn batch_norm_backward<T: Elem + alloc::Cached>(
    g: &[T], x: &[T], mean: &[T], invstd: &[T], w: Option<&[T]>, (n, c, s): (usize, usize, usize), training: bool,
    want_x: bool, want_w: bool, want_b: bool,
) -> crate::Result<(Option<Vec<T>>, Option<Vec<T>>, Option<Vec<T>>)> {
    let mut gx = if want_x { Some(alloc::take::<T>(x.len())?) } else { None };
    let (mut gw, mut gb) = (vec![0.0f64; c], vec![0.0f64; c]);
    let m = (n * s).max(1) as f64;
    let gxp = gx.as_mut().map(|v| super::team::SendPtr(v.as_mut_ptr()));
    let (gwp, gbp) = (super::team::SendPtr(gw.as_mut_ptr()), super::team::SendPtr(gb.as_mut_ptr()));
    // channels are independent: each writes its own gw/gb slot and its own planes of gx
    let channel = |ch: usize| super::math::simd(#[inline(always)] || {
        let (mu, rstd) = (mean[ch].to_f64(), invstd[ch].to_f64());
        let (mut sg, mut sgx) = ([0.0f64; 8], [0.0f64; 8]);
        let (mut tg, mut tgx) = (0.0f64, 0.0f64);
        for b in 0..n {
            let o = (b * c + ch) * s;
            let (gr, xr) = (&g[o..o + s], &x[o..o + s]);
            let main = s - s % 8;
            for j0 in (0..main).step_by(8) {
                for k in 0..8 {
                    let gv = gr[j0 + k].to_f64();
                    sg[k] += gv;
                    sgx[k] += gv * (xr[j0 + k].to_f64() - mu);
                }
            }
            for j in main..s {
                let gv = gr[j].to_f64();
                tg += gv;
                tgx += gv * (xr[j].to_f64() - mu);
            }
        }
        let (sum_g, sum_gx) = (tg + sg.iter().sum::<f64>(), tgx + sgx.iter().sum::<f64>());
        // SAFETY: slot `ch` of gw/gb belongs to this channel only; both outlive the region.
        unsafe {
            *gbp.get().add(ch) = sum_g;
            *gwp.get().add(ch) = sum_gx * rstd;
        }
        if let Some(gxp) = gxp {
            let scale = rstd * w.map(|w| w[ch].to_f64()).unwrap_or(1.0);
            let (mg, k) = if training { (sum_g / m, rstd * rstd * sum_gx / m) } else { (0.0, 0.0) };
            for b in 0..n {
                let o = (b * c + ch) * s;
                // SAFETY: the plane (b, ch) of gx, elements o..o+s, is written by this channel
                // only; gx outlives the region.
                let d = unsafe { std::slice::from_raw_parts_mut(gxp.get().add(o), s) };
                for ((d, &gv), &xv) in d.iter_mut().zip(&g[o..o + s]).zip(&x[o..o + s]) {
                    *d = T::from_f64(scale * (gv.to_f64() - mg - (xv.to_f64() - mu) * k));
                }
            }
        }
    });
    if super::parallel(x.len()) && c > 1 {
        super::team::run_blocks(c, &|r| r.for_each(channel));
    } else {
        (0..c).for_each(channel);
    }
    let conv = |v: Vec<f64>| -> Vec<T> { v.into_iter().map(T::from_f64).collect() };
    Ok((gx, want_w.then(|| conv(gw)), want_b.then(|| conv(gb))))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn batch_norm_backward_matches_finite_differences() {
        let (n, c, sp) = (2usize, 3usize, 4usize);
        let x: Vec<f64> = (0..n * c * sp).map(|i| ((i * 7 % 13) as f64) * 0.2 - 1.1).collect();
        let g: Vec<f64> = (0..n * c * sp).map(|i| ((i * 5 % 9) as f64) * 0.3 - 1.0).collect();
        let w: Vec<f64> = vec![0.7, 1.3, -0.4];
        let eps = 1e-5;
        // training forward: per-channel batch statistics, y = (x - mean) invstd w
        let fwd = |x: &[f64], w: &[f64]| -> (Vec<f64>, Vec<f64>, Vec<f64>) {
            let mut mean = vec![0.0; c];
            let mut var = vec![0.0; c];
            for ch in 0..c {
                let vals: Vec<f64> = (0..n).flat_map(|b| x[(b * c + ch) * sp..(b * c + ch + 1) * sp].to_vec()).collect();
                mean[ch] = vals.iter().sum::<f64>() / vals.len() as f64;
                var[ch] = vals.iter().map(|v| (v - mean[ch]).powi(2)).sum::<f64>() / vals.len() as f64;
            }
            let invstd: Vec<f64> = var.iter().map(|v| 1.0 / (v + eps).sqrt()).collect();
            let y = (0..x.len()).map(|i| { let ch = (i / sp) % c; (x[i] - mean[ch]) * invstd[ch] * w[ch] }).collect();
            (y, mean, invstd)
        };
        let loss = |x: &[f64], w: &[f64]| -> f64 { fwd(x, w).0.iter().zip(&g).map(|(a, b)| a * b).sum() };
        let (_, mean, invstd) = fwd(&x, &w);
        let (gx, gw, gb) = batch_norm_backward(&g, &x, &mean, &invstd, Some(&w), (n, c, sp), true, true, true, true).unwrap();
        let (gx, gw, gb) = (gx.unwrap(), gw.unwrap(), gb.unwrap());
        let h = 1e-6;
        for i in 0..x.len() {
            let (mut p, mut m) = (x.clone(), x.clone());
            p[i] += h;
            m[i] -= h;
            assert!((gx[i] - (loss(&p, &w) - loss(&m, &w)) / (2.0 * h)).abs() < 1e-6);
        }
        for ch in 0..c {
            let (mut p, mut m) = (w.clone(), w.clone());
            p[ch] += h;
            m[ch] -= h;
            assert!((gw[ch] - (loss(&x, &p) - loss(&x, &m)) / (2.0 * h)).abs() < 1e-6);
            let sum_g: f64 = (0..n).flat_map(|b| g[(b * c + ch) * sp..(b * c + ch + 1) * sp].to_vec()).sum();
            assert!((gb[ch] - sum_g).abs() < 1e-12);
        }
    }

    #[test]
    fn backward_matches_finite_differences() {
        let (rows, r) = (3usize, 5usize);
        let x: Vec<f64> = (0..rows * r).map(|i| ((i * 7 % 11) as f64) * 0.3 - 1.0).collect();
        let w: Vec<f64> = (0..r).map(|j| 0.5 + j as f64 * 0.25).collect();
        let b: Vec<f64> = (0..r).map(|j| j as f64 * 0.1).collect();
        let g: Vec<f64> = (0..rows * r).map(|i| ((i * 5 % 7) as f64) * 0.2 - 0.6).collect();
        let eps = 1e-5;
        let loss = |x: &[f64], w: &[f64], b: &[f64]| -> f64 {
            let (y, _, _) = layer_norm(x, r, Some(w), Some(b), eps).unwrap();
            y.iter().zip(&g).map(|(a, c)| a * c).sum()
        };
        let (gx, gw, gb) = layer_norm_backward(&g, &x, r, Some(&w), eps, true, true).unwrap();
        let h = 1e-6;
        for i in 0..x.len() {
            let (mut p, mut m) = (x.clone(), x.clone());
            p[i] += h;
            m[i] -= h;
            assert!((gx[i] - (loss(&p, &w, &b) - loss(&m, &w, &b)) / (2.0 * h)).abs() < 1e-6);
        }
        for j in 0..r {
            let (mut p, mut m) = (w.clone(), w.clone());
            p[j] += h;
            m[j] -= h;
            assert!((gw.as_ref().unwrap()[j] - (loss(&x, &p, &b) - loss(&x, &m, &b)) / (2.0 * h)).abs() < 1e-6);
            let (mut p, mut m) = (b.clone(), b.clone());
            p[j] += h;
            m[j] -= h;
            assert!((gb.as_ref().unwrap()[j] - (loss(&x, &w, &p) - loss(&x, &w, &m)) / (2.0 * h)).abs() < 1e-6);
        }
    }

    /// The per-row statistics the forward hands back (`result1`/`result2`) are each row's
    /// mean and 1/sqrt(var + eps), in float32 and float64.
    #[test]
    fn forward_returns_each_rows_mean_and_rstd() {
        let (rows, r) = (40usize, 37usize);
        let x: Vec<f64> = (0..rows * r).map(|i| ((i * 7 % 23) as f64) * 0.3 - 2.0).collect();
        let eps = 1e-5;
        let (_, m, v) = layer_norm(&x, r, None, None, eps).unwrap();
        let x32: Vec<f32> = x.iter().map(|&v| v as f32).collect();
        let (_, m32, v32) = layer_norm(&x32, r, None, None, eps).unwrap();
        for (i, row) in x.chunks(r).enumerate() {
            let mean = row.iter().sum::<f64>() / r as f64;
            let var = row.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / r as f64;
            let rstd = 1.0 / (var + eps).sqrt();
            assert!((m[i] - mean).abs() < 1e-12 && (v[i] - rstd).abs() < 1e-12);
            assert!((m32[i] as f64 - mean).abs() < 1e-5 && (v32[i] as f64 - rstd).abs() < 1e-5 * rstd);
        }
    }

    /// The float32 backward (float32 arithmetic) against the float64 one, with and without a
    /// weight, rows of 37 (a 16-lane tail) over several blocks.
    #[test]
    fn float32_backward_matches_float64() {
        let (rows, r) = (300usize, 37usize);
        let x: Vec<f64> = (0..rows * r).map(|i| ((i * 7 % 23) as f64) * 0.3 - 2.0).collect();
        let g: Vec<f64> = (0..rows * r).map(|i| ((i * 5 % 13) as f64) * 0.2 - 1.1).collect();
        let w: Vec<f64> = (0..r).map(|j| 0.5 + j as f64 * 0.05).collect();
        let f = |v: &[f64]| v.iter().map(|&a| a as f32).collect::<Vec<f32>>();
        for weight in [true, false] {
            let (gx, gw, gb) = layer_norm_backward(&g, &x, r, weight.then_some(&w[..]), 1e-5, true, true).unwrap();
            let wf = f(&w);
            let (gx32, gw32, gb32) = layer_norm_backward(&f(&g), &f(&x), r, weight.then_some(&wf[..]), 1e-5, true, true).unwrap();
            let close = |a: &[f32], b: &[f64], tol: f64| a.iter().zip(b).all(|(&p, &q)| (p as f64 - q).abs() <= tol * (1.0 + q.abs()));
            assert!(close(&gx32, &gx, 1e-4), "gx");
            assert!(close(gw32.as_ref().unwrap(), gw.as_ref().unwrap(), 1e-4), "gw");
            assert!(close(gb32.as_ref().unwrap(), gb.as_ref().unwrap(), 1e-5), "gb");
        }
    }

    #[test]
    #[ignore = "timing: cargo test --release --lib layer_norm_speed -- --ignored --nocapture"]
    fn layer_norm_speed() {
        crate::runtime::set_num_threads(1);
        let (rows, r) = (8192, 512);
        let x: Vec<f32> = (0..rows * r).map(|i| ((i * 7919) % 1000) as f32 * 0.002 - 1.0).collect();
        let g: Vec<f32> = (0..rows * r).map(|i| ((i * 104_729) % 997) as f32 * 0.001 - 0.5).collect();
        let w: Vec<f32> = (0..r).map(|i| 1.0 + i as f32 * 0.001).collect();
        for _ in 0..3 {
            let t = std::time::Instant::now();
            std::hint::black_box(layer_norm(&x, r, Some(&w), Some(&w), 1e-5).unwrap());
            let f = t.elapsed().as_secs_f64() * 1e3;
            let t = std::time::Instant::now();
            std::hint::black_box(layer_norm_backward(&g, &x, r, Some(&w), 1e-5, true, true).unwrap());
            println!("layer_norm (8192, 512): forward {f:.2} ms, backward {:.2} ms", t.elapsed().as_secs_f64() * 1e3);
        }
    }
}

