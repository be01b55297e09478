//! Pooling over the planes of a contiguous (planes, [d,] h, w) tensor, as PyTorch's CPU
//! kernels compute it. Max pooling: each output is the first maximum of its (dilated, padded)
//! window, the last NaN winning, with the flat in-plane index of that element; the backward
//! adds each output's gradient at its index. Average pooling: each window's sum over its
//! divisor. One pass over the input, no im2col copy: the 2×2 max pool has its own loop, every
//! other window shape (2-d, 3-d, fractional) goes through `PoolWindows`.

use super::alloc;
use crate::backend::{Pool2d, PoolWindows};
use crate::dtype::Elem;

/// (values, in-plane indices) of every output position of every plane.
pub(crate) fn max_pool2d<T: Elem + alloc::Cached>(x: &[T], planes: usize, hw: [usize; 2], pool: &Pool2d, out: [usize; 2]) -> crate::Result<(Vec<T>, Vec<i64>)> {
    let ([h, w], [oh, ow]) = (hw, out);
    let (k, s) = (pool.kernel, pool.stride);
    if pool.pad == [0, 0] && pool.dilation == [1, 1] && k == [2, 2] && s == [2, 2] && 2 * oh <= h && 2 * ow <= w {
        // the usual `MaxPool2d(2)`: full 2x2 windows, an output row at a time
        let l = oh * ow;
        let mut vals = alloc::take::<T>(planes * l)?;
        let mut ind = alloc::take::<i64>(planes * l)?;
        max_pool_2x2(x, planes, [h, w], [oh, ow], &mut vals, &mut ind);
        return Ok((vals, ind));
    }
    // any other window (padding, dilation, ceil mode, 3x3 stride 2): the windows kernel over
    // planes of depth 1 (same first-maximum and NaN rules, the in-plane index h * w + c)
    let win = PoolWindows::regular([1, h, w], [1, oh, ow], [1, k[0], k[1]], [1, s[0], s[1]], [0, pool.pad[0], pool.pad[1]], [1, pool.dilation[0], pool.dilation[1]]);
    max_pool_windows(x, planes, &win)
}

/// The 2×2, stride-2 pooling of full windows (the usual `MaxPool2d(2)`): the four elements of
/// each window compared in order with selects (`v > m || v is NaN`, as the general loop), an
/// output row at a time, so the loop has no inner loops, bounds checks or branches to mispredict.
fn max_pool_2x2<T: Elem>(x: &[T], planes: usize, [h, w]: [usize; 2], [oh, ow]: [usize; 2], vals: &mut [T], ind: &mut [i64]) {
    #[inline(always)]
    fn step<T: Elem>(v: T, k: i64, m: &mut T, best: &mut i64) {
        #[allow(clippy::eq_op)]
        let take = (v > *m) | (v != v);
        *m = if take { v } else { *m };
        *best = if take { k } else { *best };
    }
    let l = oh * ow;
    let one = |p: usize, vals: &mut [T], ind: &mut [i64]| {
        let plane = &x[p * h * w..(p + 1) * h * w];
        for i in 0..oh {
            let (b0, b1) = (2 * i * w, (2 * i + 1) * w);
            let (r0, r1) = (&plane[b0..b0 + 2 * ow], &plane[b1..b1 + 2 * ow]);
            let o = i * ow;
            let (vrow, irow) = (&mut vals[o..o + ow], &mut ind[o..o + ow]);
            for (j, ((v, k), (a, c))) in vrow.iter_mut().zip(irow.iter_mut()).zip(r0.chunks_exact(2).zip(r1.chunks_exact(2))).enumerate() {
                let (k0, k1) = ((b0 + 2 * j) as i64, (b1 + 2 * j) as i64);
                let (mut m, mut best) = (a[0], k0);
                step(a[1], k0 + 1, &mut m, &mut best);
                step(c[0], k1, &mut m, &mut best);
                step(c[1], k1 + 1, &mut m, &mut best);
                *v = m;
                *k = best;
            }
        }
    };
    by_plane(planes, h * w, l, vals, ind, one);
}

/// `f(p, out_p, ind_p)` for each plane `p` (outputs of `l` elements per plane), planes in
/// blocks on the team when the input (`planes` × `hw`) is large.
fn by_plane<T: Send, U: Send>(planes: usize, hw: usize, l: usize, out: &mut [T], ind: &mut [U], f: impl Fn(usize, &mut [T], &mut [U]) + Sync) {
    if super::parallel(planes * hw) && planes > 1 {
        let (po, pi) = (super::team::SendPtr(out.as_mut_ptr()), super::team::SendPtr(ind.as_mut_ptr()));
        super::team::run_blocks(planes, &|r| {
            for p in r {
                // SAFETY: plane p owns out[p*l..(p+1)*l] and ind[p*l..(p+1)*l], disjoint from
                // every other plane's; both stay mutably borrowed until every block has run.
                let (o, i) = unsafe { (std::slice::from_raw_parts_mut(po.get().add(p * l), l), std::slice::from_raw_parts_mut(pi.get().add(p * l), l)) };
                f(p, o, i);
            }
        });
    } else {
        for p in 0..planes {
            f(p, &mut out[p * l..(p + 1) * l], &mut ind[p * l..(p + 1) * l]);
        }
    }
}

/// Zeros of (planes, h·w) with `g[p, o]` added at `ind[p, o]` of plane `p`.
pub(crate) fn max_pool2d_backward<T: Elem + alloc::Cached>(g: &[T], ind: &[i64], planes: usize, hw: usize, l: usize) -> crate::Result<Vec<T>> {
    let mut out: Vec<T> = alloc::try_zeroed(planes * hw)?;
    let one = |p: usize, dst: &mut [T]| {
        for (gv, &k) in g[p * l..(p + 1) * l].iter().zip(&ind[p * l..(p + 1) * l]) {
            if let Some(d) = dst.get_mut(k as usize) {
                *d = T::from_f64(d.to_f64() + gv.to_f64());
            }
        }
    };
    if super::parallel(planes * hw) && planes > 1 {
        let po = super::team::SendPtr(out.as_mut_ptr());
        super::team::run_blocks(planes, &|r| {
            for p in r {
                // SAFETY: plane p owns out[p*hw..(p+1)*hw], disjoint from the others', and
                // `out` outlives the region.
                one(p, unsafe { std::slice::from_raw_parts_mut(po.get().add(p * hw), hw) });
            }
        });
    } else {
        for p in 0..planes {
            one(p, &mut out[p * hw..(p + 1) * hw]);
        }
    }
    Ok(out)
}

/// (values, in-plane indices) of every window of [`PoolWindows`] (3-d, fractional) over each
/// plane: the first maximum, a NaN winning (the last NaN, as ATen's `val > max || isnan(val)`
/// scan from -inf). A window with no tap (a zero kernel) is -inf at the window's start.
pub(crate) fn max_pool_windows<T: Elem + alloc::Cached>(x: &[T], planes: usize, w: &PoolWindows) -> crate::Result<(Vec<T>, Vec<i64>)> {
    let (n_in, l) = (w.plane(), w.positions());
    let mut vals = alloc::take::<T>(planes * l)?;
    let mut ind = alloc::take::<i64>(planes * l)?;
    let [_, h, wd] = w.size;
    let [dd, dh, dw] = w.dilation;
    let (kw, ow) = (w.kernel[2], w.out[2]);
    let one = |p: usize, vo: &mut [T], io: &mut [i64]| {
        let plane = &x[p * n_in..(p + 1) * n_in];
        let cols: Vec<(usize, usize)> = (0..ow).map(|c| w.taps(2, p, c)).collect();
        let interior = full_columns(&cols, kw);
        let mut rows = Vec::new();
        let mut o = 0;
        for a in 0..w.out[0] {
            let (t0, nt) = w.taps(0, p, a);
            for b in 0..w.out[1] {
                let (h0, nh) = w.taps(1, p, b);
                // the start of every (t, h) input row of the windows, in scan order
                rows.clear();
                for i in 0..nt {
                    for j in 0..nh {
                        rows.push(((t0 + i * dd) * h + h0 + j * dh) * wd);
                    }
                }
                let (vrow, irow) = (&mut vo[o..o + ow], &mut io[o..o + ow]);
                let mut done = 0;
                if !rows.is_empty() {
                    for c in lane_blocks(interior.clone()) {
                        max_lanes(plane, &rows, std::array::from_fn(|q| cols[c + q].0), kw, dw, &mut vrow[c..c + LANES], &mut irow[c..c + LANES]);
                    }
                    done = interior.len() / LANES * LANES;
                }
                for (c, &(w0, nw)) in cols.iter().enumerate() {
                    if done > 0 && interior.contains(&c) {
                        continue;
                    }
                    let (mut m, mut best) = (T::from_f64(f64::NEG_INFINITY), (t0 * h + h0) * wd + w0);
                    if rows.is_empty() || nw == 0 {
                        best = w.start_index(p, [a, b, c]);
                    } else {
                        m = plane[best];
                        for &r in &rows {
                            for k in 0..nw {
                                let at = r + w0 + k * dw;
                                let v = plane[at];
                                // selects, not branches (see max_pool2d)
                                #[allow(clippy::eq_op)]
                                let take = (v > m) | (v != v);
                                m = if take { v } else { m };
                                best = if take { at } else { best };
                            }
                        }
                    }
                    vrow[c] = m;
                    irow[c] = best as i64;
                }
                o += ow;
            }
        }
    };
    by_plane(planes, n_in, l, &mut vals, &mut ind, one);
    Ok((vals, ind))
}

/// Output columns handled `LANES` at a time, independently (their accumulators in registers).
const LANES: usize = 8;

/// The columns whose windows hold all `k` taps along the width (a contiguous run: window
/// starts rise with the column), or an empty range when fewer than `LANES` do.
fn full_columns(cols: &[(usize, usize)], k: usize) -> std::ops::Range<usize> {
    let lo = cols.iter().position(|&(_, n)| n == k).unwrap_or(cols.len());
    let hi = lo + cols[lo..].iter().take_while(|&&(_, n)| n == k).count();
    if hi - lo >= LANES { lo..hi } else { 0..0 }
}

/// The first column of each `LANES` block covering `r` (the last block overlaps the one
/// before it rather than leaving a remainder: recomputing a column gives the same value).
fn lane_blocks(r: std::ops::Range<usize>) -> impl Iterator<Item = usize> {
    let n = r.len();
    let blocks = n.div_ceil(LANES);
    (0..if n >= LANES { blocks } else { 0 }).map(move |b| r.start + (b * LANES).min(n - LANES))
}

/// `LANES` outputs of one output row over full-width windows: the first maximum over the
/// taps `rows[i] + start[q] + k * dw` in scan order, a NaN winning (the last one, as ATen).
#[inline(always)]
fn max_lanes<T: Elem>(plane: &[T], rows: &[usize], start: [usize; LANES], kw: usize, dw: usize, vo: &mut [T], io: &mut [i64]) {
    let mut m = [T::from_f64(f64::NEG_INFINITY); LANES];
    let mut best: [usize; LANES] = std::array::from_fn(|q| rows[0] + start[q]);
    for &r in rows {
        for k in 0..kw {
            // the loads first (bounds-checked), then the compares and selects on whole lane
            // arrays, which the compiler keeps in vector registers
            let at: [usize; LANES] = std::array::from_fn(|q| r + start[q] + k * dw);
            let v: [T; LANES] = std::array::from_fn(|q| plane[at[q]]);
            for q in 0..LANES {
                #[allow(clippy::eq_op)]
                let take = (v[q] > m[q]) | (v[q] != v[q]);
                m[q] = if take { v[q] } else { m[q] };
                best[q] = if take { at[q] } else { best[q] };
            }
        }
    }
    for q in 0..LANES {
        vo[q] = m[q];
        io[q] = best[q] as i64;
    }
}

/// Average pooling over the windows of [`PoolWindows`] (shared by every plane): each window's
/// sum, in `T` and in (d, h, w) order as ATen's `cpu_avg_pool3d`, divided by `divs[o]`.
pub(crate) fn avg_pool_windows<T>(x: &[T], planes: usize, w: &PoolWindows, divs: &[f64]) -> crate::Result<Vec<T>>
where T: Elem + alloc::Cached + std::ops::Add<Output = T> + std::ops::Div<Output = T> {
    let (n_in, l) = (w.plane(), w.positions());
    let mut out = alloc::take::<T>(planes * l)?;
    let spans = window_spans(w);
    let [_, h, wd] = w.size;
    let (kw, ow) = (w.kernel[2], w.out[2]);
    let cols: Vec<(usize, usize)> = (0..ow).map(|c| w.taps(2, 0, c)).collect();
    let interior = full_columns(&cols, kw);
    let one = |p: usize, dst: &mut [T], _: &mut [()]| {
        let plane = &x[p * n_in..(p + 1) * n_in];
        let mut rows = Vec::new();
        for (row_o, (drow, dv)) in dst.chunks_mut(ow).zip(divs.chunks(ow)).enumerate() {
            // the (t, h) extent is the same for the whole output row
            let ((t0, nt), (h0, nh), _) = spans[row_o * ow];
            rows.clear();
            for i in t0..t0 + nt {
                for j in h0..h0 + nh {
                    rows.push((i * h + j) * wd);
                }
            }
            for c in lane_blocks(interior.clone()) {
                let mut acc = [T::default(); LANES];
                for &r in &rows {
                    for k in 0..kw {
                        for q in 0..LANES {
                            acc[q] = acc[q] + plane[r + cols[c + q].0 + k];
                        }
                    }
                }
                for q in 0..LANES {
                    drow[c + q] = acc[q] / T::from_f64(dv[c + q]);
                }
            }
            for (c, &(w0, nw)) in cols.iter().enumerate() {
                if interior.contains(&c) {
                    continue;
                }
                let mut acc = T::default();
                for &r in &rows {
                    for &v in &plane[r + w0..r + w0 + nw] {
                        acc = acc + v;
                    }
                }
                drow[c] = acc / T::from_f64(dv[c]);
            }
        }
    };
    by_plane(planes, n_in, l, &mut out, &mut vec![(); planes * l], one);
    Ok(out)
}

/// The input gradient of [`avg_pool_windows`]: `g[o] / divs[o]` added over window `o`.
pub(crate) fn avg_pool_windows_backward<T>(g: &[T], planes: usize, w: &PoolWindows, divs: &[f64]) -> crate::Result<Vec<T>>
where T: Elem + alloc::Cached + std::ops::Add<Output = T> + std::ops::Div<Output = T> {
    let (n_in, l) = (w.plane(), w.positions());
    let mut out: Vec<T> = alloc::try_zeroed(planes * n_in)?;
    let spans = window_spans(w);
    let [_, h, wd] = w.size;
    let one = |p: usize, dst: &mut [T], _: &mut [()]| {
        for ((&((t0, nt), (h0, nh), (w0, nw)), &dv), &gv) in spans.iter().zip(divs).zip(&g[p * l..(p + 1) * l]) {
            let delta = gv / T::from_f64(dv);
            for i in t0..t0 + nt {
                for j in h0..h0 + nh {
                    let row = (i * h + j) * wd;
                    for d in &mut dst[row + w0..row + w0 + nw] {
                        *d = *d + delta;
                    }
                }
            }
        }
    };
    by_plane(planes, n_in, n_in, &mut out, &mut vec![(); planes * n_in], one);
    Ok(out)
}

/// Each output position's (first, count) taps along the three dims (undilated windows shared
/// by the planes).
/// (first, count) taps along depth, height and width.
type Spans = ((usize, usize), (usize, usize), (usize, usize));

fn window_spans(w: &PoolWindows) -> Vec<Spans> {
    debug_assert!(!w.per_plane && w.dilation == [1, 1, 1]);
    let mut v = Vec::with_capacity(w.positions());
    for a in 0..w.out[0] {
        for b in 0..w.out[1] {
            for c in 0..w.out[2] {
                v.push((w.taps(0, 0, a), w.taps(1, 0, b), w.taps(2, 0, c)));
            }
        }
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_2x2_path_matches_the_general_loop() {
        // 5x7 plane (the last row and column belong to no window), ties, NaNs, ±inf
        let vals = [3.0f32, 3.0, -1.0, f32::NAN, 2.0, f32::INFINITY, 0.5];
        let x: Vec<f32> = (0..2 * 35).map(|i| vals[(i * 7 + i / 3) % vals.len()]).collect();
        let pool = Pool2d { kernel: [2, 2], stride: [2, 2], pad: [0, 0], dilation: [1, 1] };
        let (v, i) = max_pool2d(&x, 2, [5, 7], &pool, [2, 3]).unwrap();
        // the reference: first maximum over each window, NaN winning
        let mut ev = Vec::new();
        let mut ei = Vec::new();
        for p in 0..2 {
            for oi in 0..2 {
                for oj in 0..3 {
                    let (mut m, mut b) = (f32::NEG_INFINITY, 0);
                    for r in 2 * oi..2 * oi + 2 {
                        for c in 2 * oj..2 * oj + 2 {
                            let e = x[p * 35 + r * 7 + c];
                            if e > m || e.is_nan() {
                                m = e;
                                b = r * 7 + c;
                            }
                        }
                    }
                    ev.push(m);
                    ei.push(b as i64);
                }
            }
        }
        assert_eq!(i, ei);
        assert_eq!(v.iter().map(|f| f.to_bits()).collect::<Vec<_>>(), ev.iter().map(|f| f.to_bits()).collect::<Vec<_>>());
    }

    #[test]
    fn first_maximum_nan_wins_and_padding_is_skipped() {
        let pool = Pool2d { kernel: [2, 2], stride: [2, 2], pad: [1, 1], dilation: [1, 1] };
        // 3x3 plane, padded windows: outputs 2x2
        let x = [1.0f32, 5.0, 5.0, 2.0, f32::NAN, 0.0, 7.0, 7.0, -1.0];
        let (v, i) = max_pool2d(&x, 1, [3, 3], &pool, [2, 2]).unwrap();
        // windows (rows, cols): {0}x{0}, {0}x{1,2}, {1,2}x{0}, {1,2}x{1,2}
        assert_eq!(i, vec![0, 1, 6, 4]);
        assert_eq!(v[0], 1.0);
        assert_eq!(v[1], 5.0, "the first of two equal maxima");
        assert_eq!(v[2], 7.0);
        assert!(v[3].is_nan(), "NaN wins");
        let g = max_pool2d_backward(&[1.0f32, 2.0, 3.0, 4.0], &i, 1, 9, 4).unwrap();
        assert_eq!(g, vec![1.0, 2.0, 0.0, 0.0, 4.0, 0.0, 3.0, 0.0, 0.0]);
    }

    /// The first maximum (last NaN) over every tap of a regular window, by brute force.
    fn scan_max(x: &[f64], size: [usize; 3], out: [usize; 3], k: [usize; 3], s: [usize; 3], p: [usize; 3], d: [usize; 3], planes: usize) -> (Vec<f64>, Vec<i64>) {
        let (mut vals, mut idx) = (Vec::new(), Vec::new());
        let n_in = size.iter().product::<usize>();
        for pl in 0..planes {
            for a in 0..out[0] {
                for b in 0..out[1] {
                    for c in 0..out[2] {
                        let (mut m, mut best) = (f64::NEG_INFINITY, -1i64);
                        for i in 0..k[0] {
                            for j in 0..k[1] {
                                for q in 0..k[2] {
                                    let t = (a * s[0] + i * d[0]) as i64 - p[0] as i64;
                                    let h = (b * s[1] + j * d[1]) as i64 - p[1] as i64;
                                    let w = (c * s[2] + q * d[2]) as i64 - p[2] as i64;
                                    if t < 0 || h < 0 || w < 0 || t >= size[0] as i64 || h >= size[1] as i64 || w >= size[2] as i64 {
                                        continue;
                                    }
                                    let at = (t * size[1] as i64 + h) * size[2] as i64 + w;
                                    let e = x[pl * n_in + at as usize];
                                    if best < 0 || e > m || e.is_nan() {
                                        m = e;
                                        best = at;
                                    }
                                }
                            }
                        }
                        vals.push(m);
                        idx.push(best);
                    }
                }
            }
        }
        (vals, idx)
    }

    #[test]
    fn window_max_matches_a_scan_of_every_tap() {
        // padded, dilated and plain 3-d windows over 2 planes (rows wide enough for the
        // lane blocks, and narrow ones), NaNs, ties and -inf
        let vals = [3.0f64, -1.0, f64::NAN, 2.0, 3.0, f64::NEG_INFINITY, 0.5, 7.0, 3.0, -2.0, 0.25];
        for (size, k, s, p, d) in [
            ([4, 5, 6], [2, 3, 2], [2, 2, 2], [1, 1, 1], [1, 1, 2]),
            ([3, 4, 37], [2, 2, 3], [1, 2, 2], [0, 1, 1], [1, 1, 1]),
            ([2, 3, 40], [1, 2, 2], [1, 1, 2], [0, 0, 0], [1, 1, 1]),
            ([2, 2, 29], [2, 1, 3], [1, 1, 1], [1, 0, 1], [1, 1, 2]),
        ] {
            let n_in: usize = size.iter().product();
            let x: Vec<f64> = (0..2 * n_in).map(|i| vals[(i * 5 + i / 7) % vals.len()]).collect();
            let out: [usize; 3] = std::array::from_fn(|a| (size[a] + 2 * p[a] - d[a] * (k[a] - 1) - 1) / s[a] + 1);
            let w = PoolWindows::regular(size, out, k, s, p, d);
            let (v, idx) = max_pool_windows(&x, 2, &w).unwrap();
            let (ev, ei) = scan_max(&x, size, out, k, s, p, d, 2);
            assert_eq!(idx, ei, "{size:?} {k:?}");
            assert_eq!(v.iter().map(|f| f.to_bits()).collect::<Vec<_>>(), ev.iter().map(|f| f.to_bits()).collect::<Vec<_>>());
        }
    }

    #[test]
    fn window_average_matches_the_window_sums() {
        let (size, k, s, p) = ([3, 4, 37], [2, 3, 3], [1, 2, 2], [1, 1, 1]);
        let out: [usize; 3] = std::array::from_fn(|a| (size[a] + 2 * p[a] - k[a]) / s[a] + 1);
        let w = PoolWindows::regular(size, out, k, s, p, [1, 1, 1]);
        let x: Vec<f32> = (0..3 * 444).map(|i| (0.37 * i as f32).sin()).collect();
        let l = w.positions();
        let divs: Vec<f64> = (0..l).map(|i| 1.0 + (i % 7) as f64).collect();
        let y = avg_pool_windows(&x, 3, &w, &divs).unwrap();
        let mut o = 0;
        for pl in 0..3 {
            for a in 0..out[0] {
                for b in 0..out[1] {
                    for c in 0..out[2] {
                        let (t, hh, ww) = (w.taps(0, 0, a), w.taps(1, 0, b), w.taps(2, 0, c));
                        let mut acc = 0f32;
                        for i in t.0..t.0 + t.1 {
                            for j in hh.0..hh.0 + hh.1 {
                                for q in ww.0..ww.0 + ww.1 {
                                    acc += x[pl * 444 + (i * 4 + j) * 37 + q];
                                }
                            }
                        }
                        assert_eq!(y[o].to_bits(), (acc / divs[o % l] as f32).to_bits(), "output {o}");
                        o += 1;
                    }
                }
            }
        }
    }

    #[test]
    fn window_average_backward_is_the_adjoint() {
        let w = PoolWindows::regular([4, 5, 6], [3, 3, 4], [2, 3, 3], [2, 2, 2], [1, 1, 1], [1, 1, 1]);
        let x: Vec<f64> = (0..2 * 120).map(|i| (0.37 * i as f64).sin()).collect();
        let g: Vec<f64> = (0..2 * 36).map(|i| (0.91 * i as f64).cos()).collect();
        let divs: Vec<f64> = (0..36).map(|i| 1.0 + (i % 5) as f64).collect();
        let y = avg_pool_windows(&x, 2, &w, &divs).unwrap();
        let gx = avg_pool_windows_backward(&g, 2, &w, &divs).unwrap();
        let lhs: f64 = y.iter().zip(&g).map(|(a, b)| a * b).sum();
        let rhs: f64 = x.iter().zip(&gx).map(|(a, b)| a * b).sum();
        assert!((lhs - rhs).abs() < 1e-12, "{lhs} vs {rhs}");
        // the first window: taps (0..1) x (0..2) x (0..2) of plane 0, over its divisor
        let first: f64 = (0..1).flat_map(|t| (0..2).flat_map(move |h| (0..2).map(move |c| (t * 5 + h) * 6 + c))).map(|k| x[k]).sum();
        assert!((y[0] - first / divs[0]).abs() < 1e-15);
    }

    #[test]
    #[ignore = "timing: cargo test --release --lib pool_speed -- --ignored --nocapture"]
    fn pool_speed() {
        crate::runtime::set_num_threads(1);
        let (planes, size) = (256, [16, 32, 32]);
        let x: Vec<f32> = (0..planes * 16 * 32 * 32).map(|i| ((i * 7919) % 1000) as f32 * 0.001 - 0.5).collect();
        for (k, st, p) in [([2, 2, 2], [2, 2, 2], [0, 0, 0]), ([3, 3, 3], [2, 2, 2], [1, 1, 1])] {
            let out: [usize; 3] = std::array::from_fn(|a| (size[a] + 2 * p[a] - k[a]) / st[a] + 1);
            let w = PoolWindows::regular(size, out, k, st, p, [1, 1, 1]);
            let divs = vec![8.0; w.positions()];
            let t = std::time::Instant::now();
            for _ in 0..10 {
                std::hint::black_box(max_pool_windows(&x, planes, &w).unwrap());
            }
            let tm = t.elapsed().as_secs_f64() / 10.0 * 1e3;
            let t = std::time::Instant::now();
            for _ in 0..10 {
                std::hint::black_box(avg_pool_windows(&x, planes, &w, &divs).unwrap());
            }
            println!("k{k:?}: max {tm:.2} ms, avg {:.2} ms", t.elapsed().as_secs_f64() / 10.0 * 1e3);
        }
    }
}

