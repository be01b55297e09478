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
use crate::backend::ConvWindow;

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
        let (xs, x0) = columns(win, kj, w);
        for (oy, row) in dst.chunks_exact_mut(ow).enumerate() {
            let y = (oy * win.stride[0] + ki * win.dilation[0]) as i64 - win.pad[0];
            if y < 0 || y >= h as i64 {
                row.fill(fill);
                continue;
            }
            let src = &plane[y as usize * w..(y as usize + 1) * w];
            row[..xs.start].fill(fill);
            row[xs.end..].fill(fill);
            let first = (xs.start * win.stride[1]) as i64 + x0;
            if xs.is_empty() {
                continue;
            }
            let first = first as usize;
            if win.stride[1] == 1 {
                row[xs.clone()].copy_from_slice(&src[first..first + xs.len()]);
            } else {
                for (d, &v) in row[xs.clone()].iter_mut().zip(src[first..].iter().step_by(win.stride[1])) {
                    *d = v;
                }
            }
        }
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
                let seg = &cols[s * l..(s + 1) * l];
                let (xs, x0) = columns(win, kj, w);
                if xs.is_empty() {
                    continue;
                }
                for (oy, row) in seg.chunks_exact(ow).enumerate() {
                    let y = (oy * win.stride[0] + ki * win.dilation[0]) as i64 - win.pad[0];
                    if y < 0 || y >= h as i64 {
                        continue;
                    }
                    let first = ((xs.start * win.stride[1]) as i64 + x0) as usize;
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
        }
    };
    if super::parallel(n * k * l) {
        team::run_blocks(n * c, &|range| range.for_each(plane_of));
    } else {
        (0..n * c).for_each(plane_of);
    }
    Ok(out)
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
    use super::{col2im, im2col};
    use crate::backend::ConvWindow;

    /// The column element at (segment s, position q) by the definition, and im2col/col2im
    /// against it for paddings (also negative), strides, dilations, both column layouts.
    #[test]
    fn columns_match_the_definition() {
        let cases = [
            ([2usize, 3, 5, 6], [3usize, 3], [1usize, 1], [1usize, 1], [1i64, 1, 1, 1]),
            ([1, 2, 7, 7], [3, 2], [2, 3], [1, 2], [0, 2, 3, 1]),
            ([2, 1, 6, 9], [2, 3], [1, 2], [2, 1], [-1, 0, 2, -1]),
            ([3, 2, 4, 4], [1, 1], [1, 1], [1, 1], [0, 0, 0, 0]),
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
}
