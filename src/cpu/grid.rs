//! Grid sampling (`grid_sample`, ATen's `grid_sampler_2d` / `grid_sampler_3d`): each output
//! location reads the input at a point of the `[-1, 1]` grid through a few taps (2^D corners
//! for bilinear, the nearest pixel, 4×4 for bicubic), each a weight that depends on the
//! point. The forward pass, the backward pass (input: the taps scattered back; grid: the
//! weights' derivatives) and the double backward (the second derivatives of the weights)
//! share the taps, so one routine builds them per location and each pass walks them.
//!
//! Coordinates follow ATen's CPU kernels: `x = (g + 1) · s - ½` (`s = size / 2`, or
//! `(size - 1) / 2` and no shift with `align_corners`), then border clipping or reflection;
//! clipping sends NaN to 0 (as the vectorised kernel's max does); a tap outside the input
//! reads 0 (its weight still multiplies it, so a NaN weight gives NaN).

use crate::backend::{GridMode, GridPadding, GridPass, GridSampler};
use crate::error::Result;
use num_traits::Float;

use super::team::{self, SendPtr};

const MAX_TAPS: usize = 16;

fn k<T: Float>(v: f64) -> T {
    T::from(v).expect("a small constant fits every float type")
}

/// `floor` without a libm call (the crate's baseline target has no rounding instruction):
/// truncation through an integer, one step down for negatives; NaN, infinities and values
/// beyond 2^52 (already integral) pass through.
#[inline(always)]
fn floor<T: Float>(x: T) -> T {
    let v = x.to_f64().unwrap_or(f64::NAN);
    if v.abs() < 4.5e15 {
        let t = v as i64 as f64;
        k(if t > v { t - 1.0 } else { t })
    } else {
        x
    }
}

/// One spatial dim's constants (in the element type, computed once per call).
#[derive(Clone, Copy)]
struct Axis<T> {
    size_t: T,
    /// `size - 1`, the last index
    max: T,
    /// unnormalize: `x = (g + 1) · scale - shift`
    scale: T,
    shift: T,
    /// reflection: about `min` and `min + span` (None for a degenerate single point)
    refl: Option<(T, T)>,
}

impl<T: Float> Axis<T> {
    fn new(size: usize, align: bool) -> Self {
        let (scale, shift) = if align { ((size as f64 - 1.0) / 2.0, 0.0) } else { (size as f64 / 2.0, 0.5) };
        let (lo, hi) = if align { (0, 2 * (size as i64 - 1)) } else { (-1, 2 * size as i64 - 1) };
        let refl = (lo != hi).then(|| (k(lo as f64 / 2.0), k((hi - lo) as f64 / 2.0)));
        Axis { size_t: k(size as f64), max: k(size as f64 - 1.0), scale: k(scale), shift: k(shift), refl }
    }

    /// `(x, dx/dg)`: the grid value `g` in pixel units.
    #[inline(always)]
    fn unnormalize(&self, g: T) -> (T, T) {
        ((g + T::one()) * self.scale - self.shift, self.scale)
    }

    /// The padding mode applied to a pixel coordinate: `(x', dx'/dx)`.
    #[inline(always)]
    fn pad(&self, x: T, padding: GridPadding) -> (T, T) {
        match padding {
            GridPadding::Zeros => (x, T::one()),
            GridPadding::Border => clip(x, self.max),
            GridPadding::Reflection => {
                let (r, gr) = match self.refl {
                    Some((min, span)) => reflect(x, min, span),
                    None => (T::zero(), T::zero()),
                };
                let (c, gc) = clip(r, self.max);
                (c, gr * gc)
            }
        }
    }

    /// The index of an integral coordinate, None outside `[0, size)` (or NaN).
    #[inline(always)]
    fn index(&self, x: T) -> Option<usize> {
        if x >= T::zero() && x < self.size_t {
            // in range and integral: the conversion is exact
            Some(x.to_f64().unwrap_or(0.0) as usize)
        } else {
            None
        }
    }
}

/// Clipped into `[0, max]` (NaN to 0) and the derivative (0 at and beyond the ends).
#[inline(always)]
fn clip<T: Float>(x: T, max: T) -> (T, T) {
    let grad = if x > T::zero() && x < max { T::one() } else { T::zero() };
    (x.max(T::zero()).min(max), grad)
}

/// `x` reflected into `[min, min + span]` and the derivative (±1).
#[inline(always)]
fn reflect<T: Float>(x: T, min: T, span: T) -> (T, T) {
    let mut v = x - min;
    let mut sign = T::one();
    if v < T::zero() {
        sign = -sign;
        v = -v;
    }
    let flips = floor(v / span);
    let extra = v - flips * span;
    if flips - k::<T>(2.0) * floor(flips / k(2.0)) == T::zero() {
        (extra + min, sign)
    } else {
        (span - extra + min, -sign)
    }
}

/// Keys' cubic convolution weights (A = -0.75, as ATen's) of the four taps at `t` ∈ [0, 1)
/// past the second, and their first and second derivatives in `t`.
fn cubic<T: Float>(t: T) -> [[T; 4]; 3] {
    let a = k::<T>(-0.75);
    let (two, three, five, six, eight, ten) = (k::<T>(2.0), k::<T>(3.0), k::<T>(5.0), k::<T>(6.0), k::<T>(8.0), k::<T>(10.0));
    // near taps: ((A + 2) x - (A + 3)) x² + 1; far taps (1 < x < 2): ((A x - 5A) x + 8A) x - 4A
    let c1 = |x: T| ((a + two) * x - (a + three)) * x * x + T::one();
    let d1 = |x: T| three * (a + two) * x * x - two * (a + three) * x;
    let e1 = |x: T| six * (a + two) * x - two * (a + three);
    let c2 = |x: T| ((a * x - five * a) * x + eight * a) * x - k::<T>(4.0) * a;
    let d2 = |x: T| three * a * x * x - ten * a * x + eight * a;
    let e2 = |x: T| six * a * x - ten * a;
    let (u, v) = (T::one() - t, two - t);
    [
        [c2(t + T::one()), c1(t), c1(u), c2(v)],
        [d2(t + T::one()), d1(t), -d1(u), -d2(v)],
        [e2(t + T::one()), e1(t), e1(u), e2(v)],
    ]
}

/// The taps of one output location: the input offset of each (None outside the input),
/// its weight, the weight's derivatives in each pixel coordinate (input dim order) and,
/// for the double backward, its second derivatives; `mult` is d(pixel coordinate)/d(grid).
struct Taps<T> {
    n: usize,
    off: [Option<usize>; MAX_TAPS],
    w: [T; MAX_TAPS],
    dw: [[T; 3]; MAX_TAPS],
    d2w: [[[T; 3]; 3]; MAX_TAPS],
    mult: [T; 3],
}

impl<T: Float> Taps<T> {
    fn new() -> Self {
        let z = T::zero();
        Taps { n: 0, off: [None; MAX_TAPS], w: [z; MAX_TAPS], dw: [[z; 3]; MAX_TAPS], d2w: [[[z; 3]; 3]; MAX_TAPS], mult: [z; 3] }
    }

    /// Fill for the grid point `g` (grid order: x, y[, z], i.e. the input's last dim first);
    /// `level` 0: weights only, 1: and their derivatives, 2: and the second derivatives.
    fn build(&mut self, geo: &Geometry<T>, g: &[T], level: u8) {
        let (nd, ax, strides) = (geo.nd, &geo.axes, &geo.strides);
        let padding = geo.padding;
        let z = T::zero();
        match geo.mode {
            GridMode::Bilinear | GridMode::Nearest => {
                let mut x = [z; 3];
                for i in 0..nd {
                    let (u, m) = ax[i].unnormalize(g[nd - 1 - i]);
                    let (p, gp) = ax[i].pad(u, padding);
                    x[i] = p;
                    self.mult[i] = m * gp;
                }
                if geo.mode == GridMode::Nearest {
                    self.n = 1;
                    let mut off = Some(0);
                    for i in 0..nd {
                        off = off.zip(ax[i].index(round_half_even(x[i]))).map(|(o, j)| o + j * strides[i]);
                    }
                    self.off[0] = off;
                    self.w[0] = T::one();
                    self.dw[0] = [z; 3];
                    self.d2w[0] = [[z; 3]; 3];
                    return;
                }
                // per dim: the two corners' index, weight factor and its derivative's sign
                let mut idx = [[None; 2]; 3];
                let mut fac = [[z; 2]; 3];
                for i in 0..nd {
                    let f = floor(x[i]);
                    let t = x[i] - f;
                    fac[i] = [T::one() - t, t];
                    idx[i] = [ax[i].index(f), ax[i].index(f + T::one())];
                }
                self.n = 1 << nd;
                for b in 0..self.n {
                    let mut bits = [0usize; 3];
                    for (i, bit) in bits.iter_mut().enumerate().take(nd) {
                        *bit = (b >> (nd - 1 - i)) & 1;
                    }
                    let mut off = Some(0);
                    let mut w = T::one();
                    for i in 0..nd {
                        off = off.zip(idx[i][bits[i]]).map(|(o, j)| o + j * strides[i]);
                        w = w * fac[i][bits[i]];
                    }
                    self.off[b] = off;
                    self.w[b] = w;
                    if level == 0 {
                        continue;
                    }
                    let sgn = |i: usize| if bits[i] == 1 { T::one() } else { -T::one() };
                    for d in 0..nd {
                        let mut q = sgn(d);
                        for i in (0..nd).filter(|&i| i != d) {
                            q = q * fac[i][bits[i]];
                        }
                        self.dw[b][d] = q;
                        if level == 2 {
                            for e in 0..nd {
                                let mut r = if d == e { z } else { sgn(d) * sgn(e) };
                                for i in (0..nd).filter(|&i| i != d && i != e) {
                                    r = r * fac[i][bits[i]];
                                }
                                self.d2w[b][d][e] = r;
                            }
                        }
                    }
                }
            }
            GridMode::Bicubic => {
                // two dims (checked by the op): the padding applies to each tap's coordinate
                let mut co = [[[z; 4]; 3]; 2];
                let mut idx = [[None; 4]; 2];
                for i in 0..2 {
                    let (u, m) = ax[i].unnormalize(g[1 - i]);
                    let base = floor(u);
                    co[i] = cubic(u - base);
                    self.mult[i] = m;
                    for (kk, slot) in idx[i].iter_mut().enumerate() {
                        let c = base + k::<T>(kk as f64 - 1.0);
                        *slot = ax[i].index(ax[i].pad(c, padding).0);
                    }
                }
                self.n = 16;
                let (cy, cx) = (co[0], co[1]);
                for j in 0..4 {
                    for i in 0..4 {
                        let b = j * 4 + i;
                        self.off[b] = idx[0][j].zip(idx[1][i]).map(|(y, x)| y * strides[0] + x);
                        self.w[b] = cy[0][j] * cx[0][i];
                        if level > 0 {
                            self.dw[b] = [cy[1][j] * cx[0][i], cy[0][j] * cx[1][i], z];
                        }
                        if level == 2 {
                            self.d2w[b] = [[cy[2][j] * cx[0][i], cy[1][j] * cx[1][i], z], [cy[1][j] * cx[1][i], cy[0][j] * cx[2][i], z], [z; 3]];
                        }
                    }
                }
            }
        }
    }
}

/// What every location shares: the axes and strides (input dim order), the mode.
struct Geometry<T> {
    nd: usize,
    axes: [Axis<T>; 3],
    strides: [usize; 3],
    mode: GridMode,
    padding: GridPadding,
}

impl<T: Float> Geometry<T> {
    fn of(spec: &GridSampler) -> Self {
        let sp = &spec.input[2..];
        let mut axes = [Axis::new(1, spec.align_corners); 3];
        let mut strides = [1; 3];
        for i in 0..sp.len() {
            axes[i] = Axis::new(sp[i], spec.align_corners);
            strides[i] = sp[i + 1..].iter().product();
        }
        Geometry { nd: sp.len(), axes, strides, mode: spec.mode, padding: spec.padding }
    }
}

/// C's nearbyint in the default rounding mode: halves go to the even neighbour.
#[inline(always)]
fn round_half_even<T: Float>(x: T) -> T {
    let r = floor(x + k(0.5));
    if r - x == k(0.5) && floor(r / k(2.0)) * k(2.0) != r {
        r - T::one()
    } else {
        r
    }
}

/// One 2-d bilinear location: the four corners' offsets (None outside), weights (nw, ne,
/// sw, se) and, for the grid's gradient, d(pixel coordinate)/d(grid) of x and y.
struct Corners<T> {
    off: [Option<usize>; 4],
    w: [T; 4],
    tx: T,
    ty: T,
    mult: [T; 2],
}

#[inline(always)]
fn corners<T: Float>(geo: &Geometry<T>, gx: T, gy: T) -> Corners<T> {
    let (ay, ax) = (&geo.axes[0], &geo.axes[1]);
    let (ux, mx) = ax.unnormalize(gx);
    let (uy, my) = ay.unnormalize(gy);
    let (x, px) = ax.pad(ux, geo.padding);
    let (y, py) = ay.pad(uy, geo.padding);
    let (x0, y0) = (floor(x), floor(y));
    let (tx, ty) = (x - x0, y - y0);
    let (sx, sy) = (T::one() - tx, T::one() - ty);
    let w = geo.strides[0];
    let (ix0, ix1, iy0, iy1) = (ax.index(x0), ax.index(x0 + T::one()), ay.index(y0), ay.index(y0 + T::one()));
    let at = |iy: Option<usize>, ix: Option<usize>| iy.zip(ix).map(|(r, c)| r * w + c);
    Corners {
        off: [at(iy0, ix0), at(iy0, ix1), at(iy1, ix0), at(iy1, ix1)],
        w: [sy * sx, sy * tx, ty * sx, ty * tx],
        tx,
        ty,
        mult: [mx * px, my * py],
    }
}

/// The bilinear 2-d forward and backward without the general taps (the common case of a
/// spatial transformer): per location the four corners, then the channels.
fn bilinear2d<T: Float + Send + Sync>(pass: GridPass, geo: &Geometry<T>, dims: [usize; 4], ops: &[Option<&[T]>], want: &[bool]) -> Result<Vec<Option<Vec<T>>>> {
    let [n, c, s, l] = dims;
    let z = T::zero();
    let need = |i: usize| ops.get(i).copied().flatten().expect("an operand");
    if pass == GridPass::Forward {
        let (inp, grid) = (need(0), need(1));
        let mut out = super::alloc::try_filled(n * c * l, z)?;
        let p = SendPtr(out.as_mut_ptr());
        let body = |r: std::ops::Range<usize>| {
            for b in r {
                for loc in 0..l {
                    let pos = b * l + loc;
                    let k = corners(geo, grid[2 * pos], grid[2 * pos + 1]);
                    for ch in 0..c {
                        let plane = &inp[(b * c + ch) * s..(b * c + ch + 1) * s];
                        let v = |i: usize| k.off[i].map_or(z, |o| plane[o]);
                        let acc = k.w[0] * v(0) + k.w[1] * v(1) + k.w[2] * v(2) + k.w[3] * v(3);
                        // SAFETY: batch `b`'s slots are written by this part only; `out`
                        // outlives the region.
                        unsafe { *p.get().add((b * c + ch) * l + loc) = acc };
                    }
                }
            }
        };
        if super::parallel(n * c * l) && n > 1 {
            team::run_blocks(n, &|r| super::math::simd(|| body(r)));
        } else {
            super::math::simd(|| body(0..n));
        }
        return Ok(vec![Some(out)]);
    }
    let (go, inp, grid) = (need(0), need(1), need(2));
    let mut gi = if want[0] { Some(super::alloc::try_filled(n * c * s, z)?) } else { None };
    let mut gg = if want[1] { Some(super::alloc::try_filled(n * l * 2, z)?) } else { None };
    let pgi = gi.as_mut().map(|v| SendPtr(v.as_mut_ptr()));
    let pgg = gg.as_mut().map(|v| SendPtr(v.as_mut_ptr()));
    let body = |r: std::ops::Range<usize>| {
        for b in r {
            for loc in 0..l {
                let pos = b * l + loc;
                let k = corners(geo, grid[2 * pos], grid[2 * pos + 1]);
                let (mut gx, mut gy) = (z, z);
                for ch in 0..c {
                    let plane = (b * c + ch) * s;
                    let g = go[(b * c + ch) * l + loc];
                    if let Some(p) = pgi {
                        for i in 0..4 {
                            if let Some(o) = k.off[i] {
                                // SAFETY: batch `b`'s input plane is written by this part only.
                                unsafe { *p.get().add(plane + o) = *p.get().add(plane + o) + k.w[i] * g };
                            }
                        }
                    }
                    if pgg.is_some() {
                        let v = |i: usize| k.off[i].map_or(z, |o| inp[plane + o]);
                        let (nw, ne, sw, se) = (v(0), v(1), v(2), v(3));
                        let (sx, sy) = (T::one() - k.tx, T::one() - k.ty);
                        gx = gx + ((ne - nw) * sy + (se - sw) * k.ty) * g;
                        gy = gy + ((sw - nw) * sx + (se - ne) * k.tx) * g;
                    }
                }
                if let Some(p) = pgg {
                    // SAFETY: batch `b`'s grid rows are written by this part only.
                    unsafe {
                        *p.get().add(2 * pos) = k.mult[0] * gx;
                        *p.get().add(2 * pos + 1) = k.mult[1] * gy;
                    }
                }
            }
        }
    };
    if super::parallel(n * c * l) && n > 1 {
        team::run_blocks(n, &|r| super::math::simd(|| body(r)));
    } else {
        super::math::simd(|| body(0..n));
    }
    Ok(vec![gi, gg])
}

/// Run one pass. Operands (contiguous, input `(N, C, *S)`, grid `(N, *So, D)`, the rest as
/// named): forward `[input, grid]` → `[out (N, C, *So)]`; backward `[grad, input, grid]` →
/// `[grad_input, grad_grid]` (as `want`); double backward `[grad, input, grid, gg_input?,
/// gg_grid?]` → `[grad_grad, grad_input, grad_grid]` (as `want`).
pub fn grid_sampler<T: Float + Send + Sync>(pass: GridPass, spec: &GridSampler, ops: &[Option<&[T]>], want: &[bool]) -> Result<Vec<Option<Vec<T>>>> {
    let (n, c) = (spec.input[0], spec.input[1]);
    let s: usize = spec.input[2..].iter().product();
    let l: usize = spec.out.iter().product();
    let nd = spec.input.len() - 2;
    let z = T::zero();
    let geo = Geometry::<T>::of(spec);
    if spec.mode == GridMode::Bilinear && nd == 2 && pass != GridPass::DoubleBackward {
        return bilinear2d(pass, &geo, [n, c, s, l], ops, want);
    }
    let alloc = |len: usize, on: bool| -> Result<Option<Vec<T>>> { if on { Ok(Some(super::alloc::try_filled(len, z)?)) } else { Ok(None) } };
    let need = |i: usize| ops.get(i).copied().flatten();
    match pass {
        GridPass::Forward => {
            let (inp, grid) = (need(0).expect("input"), need(1).expect("grid"));
            let mut out = super::alloc::try_filled(n * c * l, z)?;
            let p = SendPtr(out.as_mut_ptr());
            let body = |r: std::ops::Range<usize>| {
                let mut taps = Taps::new();
                for pos in r {
                    let (b, loc) = (pos / l.max(1), pos % l.max(1));
                    taps.build(&geo, &grid[pos * nd..pos * nd + nd], 0);
                    for ch in 0..c {
                        let plane = &inp[(b * c + ch) * s..(b * c + ch + 1) * s];
                        let mut acc = z;
                        for t in 0..taps.n {
                            acc = acc + taps.w[t] * taps.off[t].map_or(z, |o| plane[o]);
                        }
                        // SAFETY: position `pos` of channel `ch` is written by this part only;
                        // `out` outlives the region.
                        unsafe { *p.get().add((b * c + ch) * l + loc) = acc };
                    }
                }
            };
            // built for AVX2 where the CPU has it: floor / round become single instructions
            if super::parallel(n * c * l) {
                team::run_blocks(n * l, &|r| super::math::simd(|| body(r)));
            } else {
                super::math::simd(|| body(0..n * l));
            }
            Ok(vec![Some(out)])
        }
        GridPass::Backward | GridPass::DoubleBackward => {
            let double = pass == GridPass::DoubleBackward;
            let (go, inp, grid) = (need(0).expect("grad"), need(1).expect("input"), need(2).expect("grid"));
            let (ggi, ggg) = if double { (need(3), need(4)) } else { (None, None) };
            // outputs: backward [grad_input, grad_grid]; double [grad_grad, grad_input, grad_grid]
            let (w_gg, w_gi, w_gg2) = if double { (want[0], want[1], want[2]) } else { (false, want[0], want[1]) };
            let mut ggo = alloc(n * c * l, w_gg)?;
            let mut gi = alloc(n * c * s, w_gi)?;
            let mut gg = alloc(n * l * nd, w_gg2)?;
            let ptr = |v: &mut Option<Vec<T>>| v.as_mut().map(|v| SendPtr(v.as_mut_ptr()));
            let (pgo, pgi, pgg) = (ptr(&mut ggo), ptr(&mut gi), ptr(&mut gg));
            let nearest = spec.mode == GridMode::Nearest;
            let body = |r: std::ops::Range<usize>| {
                let mut taps = Taps::new();
                for b in r {
                    for loc in 0..l {
                        let pos = b * l + loc;
                        taps.build(&geo, &grid[pos * nd..pos * nd + nd], if double { 2 } else { 1 });
                        // a_d: the grid's incoming second gradient in pixel units
                        let mut a = [z; 3];
                        if let Some(ggg) = ggg {
                            for d in 0..nd {
                                a[d] = taps.mult[d] * ggg[pos * nd + nd - 1 - d];
                            }
                        }
                        let mut acc = [z; 3];
                        for ch in 0..c {
                            let plane = (b * c + ch) * s;
                            let g = go[(b * c + ch) * l + loc];
                            let v = |t: usize| taps.off[t].map_or(z, |o| inp[plane + o]);
                            let dir = |t: usize| (0..nd).fold(z, |q, d| q + a[d] * taps.dw[t][d]);
                            if let Some(p) = pgo {
                                let mut o = z;
                                for t in 0..taps.n {
                                    if let Some(ggi) = ggi {
                                        o = o + taps.w[t] * taps.off[t].map_or(z, |q| ggi[plane + q]);
                                    }
                                    o = o + v(t) * dir(t);
                                }
                                // SAFETY: this part alone writes batch `b`'s slots; the
                                // buffer outlives the region.
                                unsafe { *p.get().add((b * c + ch) * l + loc) = o };
                            }
                            if let Some(p) = pgi {
                                for t in 0..taps.n {
                                    if let Some(o) = taps.off[t] {
                                        let add = if double { g * dir(t) } else { taps.w[t] * g };
                                        // SAFETY: as above (batch `b`'s input plane).
                                        unsafe { *p.get().add(plane + o) = *p.get().add(plane + o) + add };
                                    }
                                }
                            }
                            if pgg.is_some() && !(nearest && !double) {
                                for t in 0..taps.n {
                                    let vt = v(t);
                                    for d in 0..nd {
                                        let mut q = vt * taps.dw[t][d];
                                        if double {
                                            q = taps.off[t].zip(ggi).map_or(z, |(o, ggi)| ggi[plane + o]) * taps.dw[t][d];
                                            q = q + vt * (0..nd).fold(z, |r, e| r + a[e] * taps.d2w[t][d][e]);
                                        }
                                        acc[d] = acc[d] + g * q;
                                    }
                                }
                            }
                        }
                        if let Some(p) = pgg {
                            for d in 0..nd {
                                // SAFETY: as above (batch `b`'s grid rows).
                                unsafe { *p.get().add(pos * nd + nd - 1 - d) = taps.mult[d] * acc[d] };
                            }
                        }
                    }
                }
            };
            if super::parallel(n * c * l) && n > 1 {
                team::run_blocks(n, &|r| super::math::simd(|| body(r)));
            } else {
                super::math::simd(|| body(0..n));
            }
            Ok(if double { vec![ggo, gi, gg] } else { vec![gi, gg] })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coordinates_as_aten() {
        assert_eq!(round_half_even(2.5f64), 2.0);
        assert_eq!(round_half_even(3.5f64), 4.0);
        assert_eq!(round_half_even(-2.5f64), -2.0);
        assert_eq!(round_half_even(-0.4f64), -0.0);
        assert_eq!(clip(f64::NAN, 4.0), (0.0, 0.0));
        assert_eq!(clip(7.0f64, 4.0), (4.0, 0.0));
        // reflection without align_corners: about -0.5 and size - 0.5
        let ax = Axis::<f64>::new(5, false);
        assert_eq!(reflect(-1.0, -0.5, 5.0), (0.0, -1.0));
        assert_eq!(reflect(5.0, -0.5, 5.0), (4.0, -1.0));
        assert_eq!(ax.pad(5.0, GridPadding::Reflection), (4.0, 0.0));
        assert_eq!(ax.pad(2.0, GridPadding::Reflection), (2.0, 1.0));
        assert_eq!(ax.unnormalize(1.0), (4.5, 2.5));
        // the cubic weights add to one and their derivatives to zero
        for t in [0.0f64, 0.3, 0.75] {
            let c = cubic(t);
            assert!((c[0].iter().sum::<f64>() - 1.0).abs() < 1e-12);
            assert!(c[1].iter().sum::<f64>().abs() < 1e-12);
            assert!(c[2].iter().sum::<f64>().abs() < 1e-12);
        }
    }

    #[test]
    fn bilinear_gradients_match_finite_differences() {
        let spec = GridSampler { mode: GridMode::Bilinear, padding: GridPadding::Reflection, align_corners: false, input: vec![1, 1, 3, 4], out: vec![1, 1] };
        let inp: Vec<f64> = (0..12).map(|i| ((i * 7 % 5) as f64) - 1.3).collect();
        let f = |g: &[f64]| grid_sampler(GridPass::Forward, &spec, &[Some(&inp), Some(g)], &[true]).unwrap()[0].clone().unwrap()[0];
        let g = [0.31, -0.42];
        let r = grid_sampler(GridPass::Backward, &spec, &[Some(&[1.0]), Some(&inp), Some(&g)], &[true, true]).unwrap();
        let gg = r[1].clone().unwrap();
        for d in 0..2 {
            let (mut a, mut b) = (g, g);
            a[d] += 1e-6;
            b[d] -= 1e-6;
            assert!(((f(&a) - f(&b)) / 2e-6 - gg[d]).abs() < 1e-6);
        }
        // the input's gradient is the weights
        let gi = r[0].clone().unwrap();
        assert!((gi.iter().sum::<f64>() - 1.0).abs() < 1e-12);
    }
}
