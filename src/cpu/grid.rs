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
    let grad = if (x > T::zero()) & (x < max) { T::one() } else { T::zero() };
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

/// The element types grid sampling runs in (f32, f64; halves are computed in f32): a float
/// with the lane operations the block kernels need in forms that vectorise.
pub trait GridElem: Float + Send + Sync + super::alloc::Cached {
    /// The value as an i32 without the saturating checks (a single vector conversion).
    ///
    /// # Safety
    /// `self` must be finite and within i32's range.
    unsafe fn lane_index(self) -> i32;
    /// Rounded half to even (C's nearbyint; one instruction where SSE4.1 is enabled).
    fn ties_even(self) -> Self;
    /// `self` where `keep`, else +0 (a bit mask: no branch, so the compiler keeps the read
    /// unconditional and the loop straight).
    fn keep(self, keep: bool) -> Self;
    /// A block of taps: `plane[off[j]]` where `inb[j]`, else +0; with `hw`, the hardware
    /// gather where the CPU has AVX2 (on Zen 4 it measured faster for bilinear's four
    /// scattered corners, slower for bicubic's sixteen taps in runs of four, which the
    /// compiler's vectorised loads serve better).
    ///
    /// # Safety
    /// Every `off[j]` must lie in `plane` (masked lanes included).
    unsafe fn gather(plane: &[Self], off: &[i32; BLOCK], inb: &[bool; BLOCK], hw: bool) -> [Self; BLOCK];
}

/// A block of taps read one lane at a time (the compiler vectorises the arithmetic around
/// the reads).
///
/// # Safety
/// Every `off[j]` must lie in `plane`.
#[inline(always)]
unsafe fn gather_plain<T: GridElem>(plane: &[T], off: &[i32; BLOCK], inb: &[bool; BLOCK]) -> [T; BLOCK] {
    let mut out = [T::zero(); BLOCK];
    for j in 0..BLOCK {
        // SAFETY: the caller's bound.
        out[j] = unsafe { tap(plane, off[j], inb[j]) };
    }
    out
}
macro_rules! grid_elem {
    ($t:ty, $bits:ty, $hw:ident) => {
        impl GridElem for $t {
            #[inline(always)]
            unsafe fn lane_index(self) -> i32 {
                // SAFETY: the caller's bound.
                unsafe { self.to_int_unchecked() }
            }
            #[inline(always)]
            fn keep(self, keep: bool) -> Self {
                <$t>::from_bits(self.to_bits() & (<$bits>::from(keep)).wrapping_neg())
            }
            #[inline(always)]
            unsafe fn gather(plane: &[Self], off: &[i32; BLOCK], inb: &[bool; BLOCK], hw: bool) -> [Self; BLOCK] {
                #[cfg(target_arch = "x86_64")]
                if hw && std::arch::is_x86_feature_detected!("avx2") {
                    let mut out = [0.0; BLOCK];
                    // SAFETY: AVX2 is present; the caller's bound on the offsets.
                    unsafe { gather_x86::$hw(plane.as_ptr(), off, inb, &mut out) };
                    return out;
                }
                // SAFETY: the caller's bound.
                unsafe { gather_plain(plane, off, inb) }
            }
            #[inline(always)]
            fn ties_even(self) -> Self {
                self.round_ties_even()
            }
        }
    };
}
grid_elem!(f32, u32, f32s);
grid_elem!(f64, u64, f64s);

/// The hardware gathers of a block's taps (ATen's `mask_gather`): eight f32 or four f64 lanes
/// per instruction, then the outside lanes cleared by mask (a plain read of a valid offset, so
/// no masked load is needed).
#[cfg(target_arch = "x86_64")]
mod gather_x86 {
    use super::BLOCK;
    use std::arch::x86_64::*;

    /// # Safety
    /// AVX2 is available; `plane + off[j]` is a valid f32 for every lane.
    #[target_feature(enable = "avx2")]
    #[inline]
    pub(super) unsafe fn f32s(plane: *const f32, off: &[i32; BLOCK], inb: &[bool; BLOCK], out: &mut [f32; BLOCK]) {
        // SAFETY: `k + 8 <= BLOCK` bounds the unaligned loads and stores of the arrays; the
        // gather reads `plane + off` (the caller's bound); bools are 0 or 1.
        unsafe {
            for k in (0..BLOCK).step_by(8) {
                let idx = _mm256_loadu_si256(off.as_ptr().add(k) as *const __m256i);
                let v = _mm256_i32gather_ps::<4>(plane, idx);
                let m = _mm256_cvtepu8_epi32(_mm_loadl_epi64(inb.as_ptr().add(k) as *const __m128i));
                let m = _mm256_sub_epi32(_mm256_setzero_si256(), m);
                _mm256_storeu_ps(out.as_mut_ptr().add(k), _mm256_and_ps(v, _mm256_castsi256_ps(m)));
            }
        }
    }

    /// # Safety
    /// AVX2 is available; `plane + off[j]` is a valid f64 for every lane.
    #[target_feature(enable = "avx2")]
    #[inline]
    pub(super) unsafe fn f64s(plane: *const f64, off: &[i32; BLOCK], inb: &[bool; BLOCK], out: &mut [f64; BLOCK]) {
        // SAFETY: as in `f32s`, four lanes at a time.
        unsafe {
            for k in (0..BLOCK).step_by(4) {
                let idx = _mm_loadu_si128(off.as_ptr().add(k) as *const __m128i);
                let v = _mm256_i32gather_pd::<8>(plane, idx);
                let m = _mm256_cvtepu8_epi64(_mm_cvtsi32_si128((inb.as_ptr().add(k) as *const i32).read_unaligned()));
                let m = _mm256_sub_epi64(_mm256_setzero_si256(), m);
                _mm256_storeu_pd(out.as_mut_ptr().add(k), _mm256_and_pd(v, _mm256_castsi256_pd(m)));
            }
        }
    }
}

/// Locations per block of the 2-d kernels: a block's geometry is computed once, lane by lane
/// in loops the compiler vectorises, then each channel walks it (ATen's kernels do the same
/// a vector at a time).
const BLOCK: usize = 64;

/// The locations ATen's vectorised kernel takes at a time: the input's gradient is scattered
/// a vector of locations per tap, so the same grouping adds each element's terms in ATen's
/// order. 256-bit vectors: measured against PyTorch's wheel on an AVX-512 machine, whose
/// gradients match this grouping bit for bit and not the 512-bit one.
#[inline(always)]
fn vector_lanes<T>() -> usize {
    32 / std::mem::size_of::<T>()
}

/// An integral coordinate as a lane: whether it lies in `[0, size)` (NaN does not) and its
/// index, 0 where it does not (so a masked lane still reads a valid element).
#[inline(always)]
fn lane<T: GridElem>(ax: &Axis<T>, x: T) -> (bool, i32) {
    // `&`, not `&&`: no branch in the block loops
    let inb = (x >= T::zero()) & (x < ax.size_t);
    // SAFETY: clamped into [0, size - 1] (NaN to 0), which i32 holds (checked by the caller
    // of the block kernels); an inside coordinate is its own clamp
    let idx = unsafe { x.max(T::zero()).min(ax.max).lane_index() };
    (inb, if inb { idx } else { 0 })
}

/// `plane[off]` where `inb`, else 0 (the read itself is always in bounds).
///
/// # Safety
/// `off` must be below `plane.len()`.
#[inline(always)]
unsafe fn tap<T: GridElem>(plane: &[T], off: i32, inb: bool) -> T {
    // SAFETY: the caller's bound.
    unsafe { *plane.get_unchecked(off as usize) }.keep(inb)
}

/// The padding mode as a constant (the block loops are built once per mode, so the mode's
/// branch is not inside the vectorised loop).
#[inline(always)]
fn padding_of<const P: u8>() -> GridPadding {
    match P {
        0 => GridPadding::Zeros,
        1 => GridPadding::Border,
        _ => GridPadding::Reflection,
    }
}

/// ATen's vectorised padding (`ComputeLocation`, 2-d kernels) of a pixel coordinate: the
/// coordinate and its derivative's factor (0 where clipped, ±1 from a reflection). The
/// reflection is ATen's vectorised form (about `low`, over twice the span, the flip count
/// truncated), with its multiply-subtract fused as GCC builds it.
#[inline(always)]
fn pad_vec<T: GridElem, const P: u8>(ax: &Axis<T>, x: T) -> (T, T) {
    let one = T::one();
    let clipped = |x: T, g: T| {
        let (c, inside) = clip(x, ax.max);
        (c, if inside > T::zero() { g } else { T::zero() })
    };
    match padding_of::<P>() {
        GridPadding::Zeros => (x, one),
        GridPadding::Border => clipped(x, one),
        GridPadding::Reflection => match ax.refl {
            None => (T::zero(), T::zero()),
            Some((low, span)) => {
                let twice = span + span;
                let v = x - low;
                let a = v.abs();
                let extra = (-(a / twice).trunc()).mul_add(twice, a);
                let back = twice - extra;
                let flip = extra > back;
                let r = if flip { back } else { extra } + low;
                clipped(r, if flip != (v < T::zero()) { -one } else { one })
            }
        },
    }
}

/// ATen's vectorised unnormalize, `(g + 1) · s - ½`, with the multiply-subtract fused (as
/// GCC contracts it in ATen's CPU kernels; `align_corners` has no shift).
#[inline(always)]
fn unnormalize_fused<T: GridElem>(ax: &Axis<T>, g: T) -> T {
    (g + T::one()).mul_add(ax.scale, -ax.shift)
}

/// A block's grid points split into x and y, zero past the block's length: the block loops
/// then run all `BLOCK` lanes (a fixed trip count, so they vectorise without bounds checks;
/// the extra lanes' results are dropped, and every offset they make is still in the plane).
#[inline(always)]
fn deinterleave<T: GridElem>(grid: &[T]) -> ([T; BLOCK], [T; BLOCK], usize) {
    let len = (grid.len() / 2).min(BLOCK);
    let (mut gx, mut gy) = ([T::zero(); BLOCK], [T::zero(); BLOCK]);
    if let Ok(pts) = <&[T; 2 * BLOCK]>::try_from(grid) {
        // a whole block: fixed bounds, so the split vectorises
        for j in 0..BLOCK {
            gx[j] = pts[2 * j];
            gy[j] = pts[2 * j + 1];
        }
    } else {
        for (j, p) in grid.chunks_exact(2).take(len).enumerate() {
            gx[j] = p[0];
            gy[j] = p[1];
        }
    }
    (gx, gy, len)
}

/// `g` (one block of one channel's output gradient) zero-padded to `BLOCK` lanes.
#[inline(always)]
fn padded<T: GridElem>(g: &[T]) -> [T; BLOCK] {
    let mut a = [T::zero(); BLOCK];
    let n = g.len().min(BLOCK);
    a[..n].copy_from_slice(&g[..n]);
    a
}

/// Write the first `out.len()` lanes of a block's results.
#[inline(always)]
fn emit<T: GridElem>(o: &[T; BLOCK], out: &mut [T]) {
    let n = out.len().min(BLOCK);
    out[..n].copy_from_slice(&o[..n]);
}

/// A block of 2-d bilinear locations, structure of arrays: per corner (nw, ne, sw, se) its
/// plane offset (0 where outside), whether it is inside and its weight; the fractions and
/// d(pixel coordinate)/d(grid) for the grid's gradient.
struct Bilinear<T> {
    len: usize,
    off: [[i32; BLOCK]; 4],
    inb: [[bool; BLOCK]; 4],
    w: [[T; BLOCK]; 4],
    tx: [T; BLOCK],
    ty: [T; BLOCK],
    mx: [T; BLOCK],
    my: [T; BLOCK],
}

impl<T: GridElem> Bilinear<T> {
    fn new() -> Self {
        let z = T::zero();
        Bilinear { len: 0, off: [[0; BLOCK]; 4], inb: [[false; BLOCK]; 4], w: [[z; BLOCK]; 4], tx: [z; BLOCK], ty: [z; BLOCK], mx: [z; BLOCK], my: [z; BLOCK] }
    }

    /// The four corners of every lane in one channel's plane (0 outside).
    #[inline(always)]
    fn corners(&self, plane: &[T]) -> [[T; BLOCK]; 4] {
        // SAFETY: `fill_as` leaves every offset inside the plane (0 where outside).
        unsafe { [T::gather(plane, &self.off[0], &self.inb[0], true), T::gather(plane, &self.off[1], &self.inb[1], true), T::gather(plane, &self.off[2], &self.inb[2], true), T::gather(plane, &self.off[3], &self.inb[3], true)] }
    }
}

/// A block of 2-d bicubic locations: per axis the four taps' indices (0 where outside; rows
/// pre-multiplied by the row stride) and whether each is inside, the four cubic weights
/// and (for the backward) ATen's weight gradients.
struct Bicubic<T> {
    len: usize,
    /// [axis (y, x)][tap][lane]
    off: [[[i32; BLOCK]; 4]; 2],
    inb: [[[bool; BLOCK]; 4]; 2],
    co: [[[T; BLOCK]; 4]; 2],
    cg: [[[T; BLOCK]; 4]; 2],
    /// the 16 taps (row-major: `4·r + q`): plane offset (0 where outside) and whether inside
    tap_off: [[i32; BLOCK]; 16],
    tap_inb: [[bool; BLOCK]; 16],
}

impl<T: GridElem> Bicubic<T> {
    fn new() -> Self {
        let z = T::zero();
        Bicubic {
            len: 0,
            off: [[[0; BLOCK]; 4]; 2],
            inb: [[[false; BLOCK]; 4]; 2],
            co: [[[z; BLOCK]; 4]; 2],
            cg: [[[z; BLOCK]; 4]; 2],
            tap_off: [[0; BLOCK]; 16],
            tap_inb: [[false; BLOCK]; 16],
        }
    }

    /// The 16 taps of every lane in one channel's plane (0 outside).
    #[inline(always)]
    fn taps(&self, plane: &[T]) -> [[T; BLOCK]; 16] {
        let mut v = [[T::zero(); BLOCK]; 16];
        for (t, v) in v.iter_mut().enumerate() {
            // SAFETY: `fill_as` keeps each row and column index inside its axis (0 where
            // outside), so every tap's offset lies in the plane.
            *v = unsafe { T::gather(plane, &self.tap_off[t], &self.tap_inb[t], false) };
        }
        v
    }
}

/// What the 2-d block kernels share: fill a block's geometry, run a channel forward or
/// backward, and the grid's gradient multipliers.
trait Block2d<T>: Sized {
    fn make() -> Self;
    /// The geometry of the locations whose grid points (x, y interleaved) are `grid`, for
    /// padding `P` (0 zeros, 1 border, 2 reflection); `grads`: the backward's weights too.
    fn fill_as<const P: u8>(&mut self, geo: &Geometry<T>, grid: &[T], grads: bool);
    /// `fill_as` for the geometry's padding (the loops are built once per mode, so the mode's
    /// branch is not inside them).
    #[inline(always)]
    fn fill_block(&mut self, geo: &Geometry<T>, grid: &[T], grads: bool) {
        match geo.padding {
            GridPadding::Zeros => self.fill_as::<0>(geo, grid, grads),
            GridPadding::Border => self.fill_as::<1>(geo, grid, grads),
            GridPadding::Reflection => self.fill_as::<2>(geo, grid, grads),
        }
    }
    fn forward_plane(&self, plane: &[T], out: &mut [T]);
    fn backward_plane(&self, plane: &[T], g: &[T], gi: Option<&mut [T]>, acc: Option<(&mut [T; BLOCK], &mut [T; BLOCK])>);
    /// d(pixel coordinate)/d(grid) of lane `j`: (x, y)
    fn mult(&self, geo: &Geometry<T>, j: usize) -> (T, T);
}

impl<T: GridElem> Block2d<T> for Bilinear<T> {
    fn make() -> Self {
        Self::new()
    }

    #[inline(always)]
    fn fill_as<const P: u8>(&mut self, geo: &Geometry<T>, grid: &[T], _grads: bool) {
        let (ay, ax) = (&geo.axes[0], &geo.axes[1]);
        let wd = geo.strides[0] as i32;
        let one = T::one();
        let (gx, gy, len) = deinterleave(grid);
        self.len = len;
        for j in 0..BLOCK {
            let (x, px) = pad_vec::<T, P>(ax, unnormalize_fused(ax, gx[j]));
            let (y, py) = pad_vec::<T, P>(ay, unnormalize_fused(ay, gy[j]));
            let (x0, y0) = (x.floor(), y.floor());
            let (tx, ty) = (x - x0, y - y0);
            let (sx, sy) = (one - tx, one - ty);
            let ((ix0, cx0), (ix1, cx1)) = (lane(ax, x0), lane(ax, x0 + one));
            let ((iy0, cy0), (iy1, cy1)) = (lane(ay, y0), lane(ay, y0 + one));
            let corners = [(iy0 & ix0, cy0 * wd + cx0), (iy0 & ix1, cy0 * wd + cx1), (iy1 & ix0, cy1 * wd + cx0), (iy1 & ix1, cy1 * wd + cx1)];
            for (q, (inb, off)) in corners.into_iter().enumerate() {
                self.inb[q][j] = inb;
                self.off[q][j] = if inb { off } else { 0 };
            }
            self.w[0][j] = sy * sx;
            self.w[1][j] = sy * tx;
            self.w[2][j] = ty * sx;
            self.w[3][j] = ty * tx;
            self.tx[j] = tx;
            self.ty[j] = ty;
            self.mx[j] = px * ax.scale;
            self.my[j] = py * ay.scale;
        }
    }

    /// `out[j]`: the block's locations interpolated in one channel's plane (ATen's order,
    /// nw, ne, sw, se, each later product fused into the running sum as GCC builds it).
    #[inline(always)]
    fn forward_plane(&self, plane: &[T], out: &mut [T]) {
        let v = self.corners(plane);
        let mut o = [T::zero(); BLOCK];
        for (j, o) in o.iter_mut().enumerate() {
            *o = v[3][j].mul_add(self.w[3][j], v[2][j].mul_add(self.w[2][j], v[1][j].mul_add(self.w[1][j], v[0][j] * self.w[0][j])));
        }
        emit(&o, out);
    }

    /// One channel's backward: the weights times `g` added into the input's gradient plane
    /// (ATen's order: a vector of locations per corner, corners in order), and the grid's
    /// gradient accumulated in `(gx, gy)` (pixel units).
    #[inline(always)]
    fn backward_plane(&self, plane: &[T], g: &[T], gi: Option<&mut [T]>, acc: Option<(&mut [T; BLOCK], &mut [T; BLOCK])>) {
        if let Some(gi) = gi {
            for lanes in (0..self.len.min(BLOCK)).step_by(vector_lanes::<T>()) {
                for q in 0..4 {
                    for j in lanes..self.len.min(BLOCK).min(lanes + vector_lanes::<T>()) {
                        if self.inb[q][j] {
                            // SAFETY: an inside corner's offset lies in the plane.
                            let slot = unsafe { gi.get_unchecked_mut(self.off[q][j] as usize) };
                            *slot = *slot + self.w[q][j] * g[j];
                        }
                    }
                }
            }
        }
        if let Some((gx, gy)) = acc {
            let one = T::one();
            let g = padded(g);
            let v = self.corners(plane);
            for j in 0..BLOCK {
                let (nw, ne, sw, se) = (v[0][j], v[1][j], v[2][j], v[3][j]);
                let (tx, ty) = (self.tx[j], self.ty[j]);
                // ATen's `gx + ((ne - nw)·s + (se - sw)·n)·g` with GCC's contractions
                gx[j] = (se - sw).mul_add(ty, (ne - nw) * (one - ty)).mul_add(g[j], gx[j]);
                gy[j] = (se - ne).mul_add(tx, (sw - nw) * (one - tx)).mul_add(g[j], gy[j]);
            }
        }
    }

    #[inline(always)]
    fn mult(&self, _geo: &Geometry<T>, j: usize) -> (T, T) {
        (self.mx[j], self.my[j])
    }
}

impl<T: GridElem> Block2d<T> for Bicubic<T> {
    fn make() -> Self {
        Self::new()
    }

    /// ATen's `get_cubic_coefficients` (A = -0.75) and `get_cubic_coefficients_grad`, the
    /// padding applied to each tap's coordinate.
    #[inline(always)]
    fn fill_as<const P: u8>(&mut self, geo: &Geometry<T>, grid: &[T], grads: bool) {
        let a = k::<T>(-0.75);
        let (one, two, three) = (T::one(), k::<T>(2.0), k::<T>(3.0));
        let (four, five, eight, ten) = (k::<T>(4.0), k::<T>(5.0), k::<T>(8.0), k::<T>(10.0));
        let (gx, gy, len) = deinterleave(grid);
        self.len = len;
        for i in 0..2 {
            let ax = &geo.axes[i];
            let stride = geo.strides[i] as i32;
            let pts = if i == 0 { &gy } else { &gx };
            for j in 0..BLOCK {
                let u = unnormalize_fused(ax, pts[j]);
                let base = u.floor();
                let t = u - base;
                // the near taps' multiply-subtract and last multiply-add fused (GCC's
                // contraction of ATen's expression; the far taps' constants are products)
                let far = |x: T| ((a * x - five * a) * x + eight * a) * x - four * a;
                let near = |x: T| ((a + two).mul_add(x, -(a + three)) * x).mul_add(x, one);
                self.co[i][0][j] = far(t + one);
                self.co[i][1][j] = near(t);
                self.co[i][2][j] = near(one - t);
                self.co[i][3][j] = far(two - t);
                if grads {
                    let x0 = -one - t;
                    self.cg[i][0][j] = (-three * a * x0 - ten * a) * x0 - eight * a;
                    let x1 = T::zero() - t;
                    self.cg[i][1][j] = (-three * (a + two) * x1 - two * (a + three)) * x1;
                    let x2 = one - t;
                    self.cg[i][2][j] = (three * (a + two) * x2 - two * (a + three)) * x2;
                    let x3 = two - t;
                    self.cg[i][3][j] = (three * a * x3 - ten * a) * x3 + eight * a;
                }
                for q in 0..4 {
                    let c = base + k::<T>(q as f64 - 1.0);
                    let (inb, idx) = lane(ax, pad_vec::<T, P>(ax, c).0);
                    self.inb[i][q][j] = inb;
                    self.off[i][q][j] = idx * stride;
                }
            }
        }
        for r in 0..4 {
            for q in 0..4 {
                for j in 0..BLOCK {
                    self.tap_off[4 * r + q][j] = self.off[0][r][j] + self.off[1][q][j];
                    self.tap_inb[4 * r + q][j] = self.inb[0][r][j] & self.inb[1][q][j];
                }
            }
        }
    }

    /// ATen's order: each row of four taps weighted along x, then the rows along y, with the
    /// contractions PyTorch's wheel has (found by matching its results bit for bit): in each
    /// row only the first two products share one fused step; along y every later product is
    /// fused into the running sum, as in the bilinear kernel.
    #[inline(always)]
    fn forward_plane(&self, plane: &[T], out: &mut [T]) {
        let (cy, cx) = (&self.co[0], &self.co[1]);
        let v = self.taps(plane);
        let mut o = [T::zero(); BLOCK];
        for (j, o) in o.iter_mut().enumerate() {
            let row = |r: usize| cx[0][j].mul_add(v[4 * r][j], cx[1][j] * v[4 * r + 1][j]) + cx[2][j] * v[4 * r + 2][j] + cx[3][j] * v[4 * r + 3][j];
            let rows = [row(0), row(1), row(2), row(3)];
            *o = cy[3][j].mul_add(rows[3], cy[2][j].mul_add(rows[2], cy[1][j].mul_add(rows[1], cy[0][j] * rows[0])));
        }
        emit(&o, out);
    }

    /// One channel's backward, ATen's loop (per vector of locations, x taps outer, y taps
    /// inner): `g · wx · wy` into the input's gradient, and `gx -= v · g · wx' · wy`,
    /// `gy -= v · g · wy' · wx`.
    #[inline(always)]
    fn backward_plane(&self, plane: &[T], g: &[T], mut gi: Option<&mut [T]>, acc: Option<(&mut [T; BLOCK], &mut [T; BLOCK])>) {
        let (cy, cx, gyc, gxc) = (&self.co[0], &self.co[1], &self.cg[0], &self.cg[1]);
        if let Some(gi) = gi.as_deref_mut() {
            for lanes in (0..self.len.min(BLOCK)).step_by(vector_lanes::<T>()) {
                for q in 0..4 {
                    for r in 0..4 {
                        for j in lanes..self.len.min(BLOCK).min(lanes + vector_lanes::<T>()) {
                            if self.inb[0][r][j] && self.inb[1][q][j] {
                                let o = (self.off[0][r][j] + self.off[1][q][j]) as usize;
                                // SAFETY: an inside tap's offset lies in the plane.
                                let slot = unsafe { gi.get_unchecked_mut(o) };
                                *slot = *slot + g[j] * cx[q][j] * cy[r][j];
                            }
                        }
                    }
                }
            }
        }
        if let Some((gx, gy)) = acc {
            let g = padded(g);
            let v = self.taps(plane);
            for j in 0..BLOCK {
                let (mut ax, mut ay) = (gx[j], gy[j]);
                for q in 0..4 {
                    for r in 0..4 {
                        let vg = v[4 * r + q][j] * g[j];
                        ax = (-(vg * gxc[q][j])).mul_add(cy[r][j], ax);
                        ay = (-(vg * gyc[r][j])).mul_add(cx[q][j], ay);
                    }
                }
                gx[j] = ax;
                gy[j] = ay;
            }
        }
    }

    /// bicubic pads each tap, not the point: the multiplier is the unnormalize scale alone
    #[inline(always)]
    fn mult(&self, geo: &Geometry<T>, _j: usize) -> (T, T) {
        (geo.axes[1].scale, geo.axes[0].scale)
    }
}

/// A block of 2-d nearest locations: the nearest pixel's offset (0 where outside) and
/// whether it is inside (ATen: the padded coordinate rounded half to even).
struct Nearest<T> {
    len: usize,
    off: [i32; BLOCK],
    inb: [bool; BLOCK],
    _t: std::marker::PhantomData<T>,
}

impl<T: GridElem> Block2d<T> for Nearest<T> {
    fn make() -> Self {
        Nearest { len: 0, off: [0; BLOCK], inb: [false; BLOCK], _t: std::marker::PhantomData }
    }
    #[inline(always)]
    fn fill_as<const P: u8>(&mut self, geo: &Geometry<T>, grid: &[T], _grads: bool) {
        let (ay, ax) = (&geo.axes[0], &geo.axes[1]);
        let wd = geo.strides[0] as i32;
        let (gx, gy, len) = deinterleave(grid);
        self.len = len;
        for j in 0..BLOCK {
            let x = pad_vec::<T, P>(ax, unnormalize_fused(ax, gx[j])).0.ties_even();
            let y = pad_vec::<T, P>(ay, unnormalize_fused(ay, gy[j])).0.ties_even();
            let ((inx, cx), (iny, cy)) = (lane(ax, x), lane(ay, y));
            self.inb[j] = inx & iny;
            self.off[j] = if inx & iny { cy * wd + cx } else { 0 };
        }
    }
    #[inline(always)]
    fn forward_plane(&self, plane: &[T], out: &mut [T]) {
        let mut o = [T::zero(); BLOCK];
        for (j, o) in o.iter_mut().enumerate() {
            // SAFETY: `fill_as` leaves every offset inside the plane (0 where outside).
            *o = unsafe { tap(plane, self.off[j], self.inb[j]) };
        }
        emit(&o, out);
    }
    /// The gradient goes to the nearest pixel, lane by lane; the grid's is zero.
    #[inline(always)]
    fn backward_plane(&self, _plane: &[T], g: &[T], gi: Option<&mut [T]>, _acc: Option<(&mut [T; BLOCK], &mut [T; BLOCK])>) {
        if let Some(gi) = gi {
            for j in 0..self.len.min(BLOCK) {
                if self.inb[j] {
                    // SAFETY: an inside pixel's offset lies in the plane.
                    let slot = unsafe { gi.get_unchecked_mut(self.off[j] as usize) };
                    *slot = *slot + g[j];
                }
            }
        }
    }
    #[inline(always)]
    fn mult(&self, _geo: &Geometry<T>, _j: usize) -> (T, T) {
        (T::zero(), T::zero())
    }
}

/// Blocks per group: a group's geometry is filled once, then each channel walks all of its
/// blocks, so one channel's plane stays in the L1 cache while its locations pass (block by
/// block, every channel's plane would be visited once per block). The group's geometry is
/// kept to about 24 KiB so that it stays in L1 too; one channel needs no group.
fn group_of<B>(c: usize) -> usize {
    if c == 1 {
        1
    } else {
        (24 * 1024 / std::mem::size_of::<B>()).clamp(1, 16)
    }
}

/// Batch `b`'s `blocks` filled into `blks` (grown as needed). Each is filled in `scratch`, a
/// local, then swapped in: filled in place behind the Vec's pointer, the fill loop measured
/// several times slower (not vectorised).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn fill_group<T: GridElem, B: Block2d<T>>(blks: &mut Vec<B>, scratch: &mut B, geo: &Geometry<T>, grid: &[T], b: usize, l: usize, blocks: std::ops::Range<usize>, grads: bool) {
    for (i, k) in blocks.enumerate() {
        if blks.len() <= i {
            blks.push(B::make());
        }
        let (p0, len) = (k * BLOCK, BLOCK.min(l - k * BLOCK));
        scratch.fill_block(geo, &grid[2 * (b * l + p0)..2 * (b * l + p0 + len)], grads);
        std::mem::swap(scratch, &mut blks[i]);
    }
}

/// Forward over `units` (batch × group of blocks), each writing its own outputs.
#[inline(always)]
fn block_forward<T: GridElem, B: Block2d<T>>(geo: &Geometry<T>, inp: &[T], grid: &[T], out: SendPtr<T>, [_, c, s, l]: [usize; 4], units: std::ops::Range<usize>) {
    let (nblk, group) = (l.div_ceil(BLOCK), group_of::<B>(c));
    let ngrp = nblk.div_ceil(group);
    let (mut blks, mut scratch): (Vec<B>, B) = (Vec::new(), B::make());
    for u in units {
        let (b, g0) = (u / ngrp, (u % ngrp) * group);
        let blocks = g0..(g0 + group).min(nblk);
        if group == 1 {
            // one block (one channel): filled and walked in place
            let (p0, len) = (g0 * BLOCK, BLOCK.min(l - g0 * BLOCK));
            scratch.fill_block(geo, &grid[2 * (b * l + p0)..2 * (b * l + p0 + len)], false);
            for ch in 0..c {
                // SAFETY: as below.
                let o = unsafe { std::slice::from_raw_parts_mut(out.get().add((b * c + ch) * l + p0), len) };
                scratch.forward_plane(&inp[(b * c + ch) * s..(b * c + ch + 1) * s], o);
            }
            continue;
        }
        fill_group(&mut blks, &mut scratch, geo, grid, b, l, blocks.clone(), false);
        for ch in 0..c {
            let plane = &inp[(b * c + ch) * s..(b * c + ch + 1) * s];
            for (blk, k) in blks.iter().zip(blocks.clone()) {
                let (p0, len) = (k * BLOCK, BLOCK.min(l - k * BLOCK));
                // SAFETY: unit (b, group) alone writes these `len` outputs of channel `ch`;
                // the buffer holds n·c·l elements and outlives the region.
                let o = unsafe { std::slice::from_raw_parts_mut(out.get().add((b * c + ch) * l + p0), len) };
                blk.forward_plane(plane, o);
            }
        }
    }
}

/// Backward over whole batches (the input's gradient is scattered within a batch), a group
/// of blocks at a time, channel by channel within the group (each input-gradient element
/// still gets its terms in ATen's order: a channel's blocks in order).
#[inline(always)]
fn block_backward<T: GridElem, B: Block2d<T>>(geo: &Geometry<T>, [go, inp, grid]: [&[T]; 3], gi: Option<SendPtr<T>>, gg: Option<SendPtr<T>>, [_, c, s, l]: [usize; 4], batches: std::ops::Range<usize>) {
    let z = T::zero();
    let (nblk, group) = (l.div_ceil(BLOCK), group_of::<B>(c));
    let (mut blks, mut scratch): (Vec<B>, B) = (Vec::new(), B::make());
    let mut acc = vec![([z; BLOCK], [z; BLOCK]); group.min(nblk)];
    for b in batches {
        for g0 in (0..nblk).step_by(group) {
            let blocks = g0..(g0 + group).min(nblk);
            fill_group(&mut blks, &mut scratch, geo, grid, b, l, blocks.clone(), gg.is_some());
            for a in acc.iter_mut() {
                *a = ([z; BLOCK], [z; BLOCK]);
            }
            for ch in 0..c {
                let plane = &inp[(b * c + ch) * s..(b * c + ch + 1) * s];
                for ((blk, k), (gx, gy)) in blks.iter().zip(blocks.clone()).zip(acc.iter_mut()) {
                    let (p0, len) = (k * BLOCK, BLOCK.min(l - k * BLOCK));
                    let g = &go[(b * c + ch) * l + p0..(b * c + ch) * l + p0 + len];
                    // SAFETY: batch `b`'s gradient planes are written by this part only; the
                    // buffer holds n·c·s elements and outlives the region.
                    let gip = gi.map(|p| unsafe { std::slice::from_raw_parts_mut(p.get().add((b * c + ch) * s), s) });
                    blk.backward_plane(plane, g, gip, gg.map(|_| (gx, gy)));
                }
            }
            if let Some(p) = gg {
                for ((blk, k), (gx, gy)) in blks.iter().zip(blocks.clone()).zip(acc.iter()) {
                    let (p0, len) = (k * BLOCK, BLOCK.min(l - k * BLOCK));
                    for j in 0..len {
                        let (mx, my) = blk.mult(geo, j);
                        // SAFETY: batch `b`'s grid rows are written by this part only.
                        unsafe {
                            *p.get().add(2 * (b * l + p0 + j)) = mx * gx[j];
                            *p.get().add(2 * (b * l + p0 + j) + 1) = my * gy[j];
                        }
                    }
                }
            }
        }
    }
}

/// Whether the CPU has AVX2 and FMA (std caches the detection).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn wide_cpu() -> bool {
    std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma")
}

/// The block loops built for AVX2 and FMA: floor, the lane conversions, the fused
/// multiply-adds and the gathers become single vector instructions. Functions of their own
/// with the features on: handed to `math::simd` as a closure, the loops were sometimes kept
/// out of line and built for the baseline (measured 7x slower, through libm's `fmaf`).
///
/// # Safety
/// Only call on a CPU with AVX2 and FMA.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
unsafe fn forward_wide<T: GridElem, B: Block2d<T>>(geo: &Geometry<T>, inp: &[T], grid: &[T], out: SendPtr<T>, dims: [usize; 4], units: std::ops::Range<usize>) {
    block_forward::<T, B>(geo, inp, grid, out, dims, units)
}

/// As `forward_wide`, for the backward.
///
/// # Safety
/// Only call on a CPU with AVX2 and FMA.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
unsafe fn backward_wide<T: GridElem, B: Block2d<T>>(geo: &Geometry<T>, ops: [&[T]; 3], gi: Option<SendPtr<T>>, gg: Option<SendPtr<T>>, dims: [usize; 4], batches: std::ops::Range<usize>) {
    block_backward::<T, B>(geo, ops, gi, gg, dims, batches)
}

/// 2-d forward and backward (every mode), a block of locations at a time: ATen's vectorised
/// kernels' arithmetic and order (the common case: a spatial transformer's sampler).
fn blocks2d<T: GridElem, B: Block2d<T>>(pass: GridPass, geo: &Geometry<T>, dims: [usize; 4], ops: &[Option<&[T]>], want: &[bool]) -> Result<Vec<Option<Vec<T>>>> {
    let [n, c, s, l] = dims;
    let z = T::zero();
    let need = |i: usize| ops.get(i).copied().flatten().expect("an operand");
    // a location costs about ten elementwise operations (its geometry, then per channel the
    // taps): the team's threshold in elementwise terms, counted as eight per output
    let par = super::parallel(8 * n * c * l);
    if pass == GridPass::Forward {
        let (inp, grid) = (need(0), need(1));
        // every element is written below
        let mut out = super::alloc::take(n * c * l)?;
        let p = SendPtr(out.as_mut_ptr());
        let units = n * l.div_ceil(BLOCK).div_ceil(group_of::<B>(c));
        // built for AVX2 where the CPU has it (floor, the lane conversions and the
        // arithmetic vectorise across a block)
        let run = |r: std::ops::Range<usize>| {
            #[cfg(target_arch = "x86_64")]
            if wide_cpu() {
                // SAFETY: the CPU has AVX2 and FMA.
                return unsafe { forward_wide::<T, B>(geo, inp, grid, p, dims, r) };
            }
            block_forward::<T, B>(geo, inp, grid, p, dims, r)
        };
        if par && units > 1 {
            team::run_blocks(units, &run);
        } else {
            run(0..units);
        }
        return Ok(vec![Some(out)]);
    }
    let (go, inp, grid) = (need(0), need(1), need(2));
    let mut gi = if want[0] { Some(super::alloc::try_filled(n * c * s, z)?) } else { None };
    let mut gg = if want[1] { Some(super::alloc::try_filled(n * l * 2, z)?) } else { None };
    let pgi = gi.as_mut().map(|v| SendPtr(v.as_mut_ptr()));
    let pgg = gg.as_mut().map(|v| SendPtr(v.as_mut_ptr()));
    let run = |r: std::ops::Range<usize>| {
        #[cfg(target_arch = "x86_64")]
        if wide_cpu() {
            // SAFETY: the CPU has AVX2 and FMA.
            return unsafe { backward_wide::<T, B>(geo, [go, inp, grid], pgi, pgg, dims, r) };
        }
        block_backward::<T, B>(geo, [go, inp, grid], pgi, pgg, dims, r)
    };
    if par && n > 1 {
        team::run_blocks(n, &run);
    } else {
        run(0..n);
    }
    Ok(vec![gi, gg])
}
/// Run one pass. Operands (contiguous, input `(N, C, *S)`, grid `(N, *So, D)`, the rest as
/// named): forward `[input, grid]` → `[out (N, C, *So)]`; backward `[grad, input, grid]` →
/// `[grad_input, grad_grid]` (as `want`); double backward `[grad, input, grid, gg_input?,
/// gg_grid?]` → `[grad_grad, grad_input, grad_grid]` (as `want`).
pub fn grid_sampler<T: GridElem>(pass: GridPass, spec: &GridSampler, ops: &[Option<&[T]>], want: &[bool]) -> Result<Vec<Option<Vec<T>>>> {
    let (n, c) = (spec.input[0], spec.input[1]);
    let s: usize = spec.input[2..].iter().product();
    let l: usize = spec.out.iter().product();
    let nd = spec.input.len() - 2;
    let z = T::zero();
    let geo = Geometry::<T>::of(spec);
    // the block kernels keep offsets in i32 lanes: planes (with a row and column to spare)
    // below 2^31 elements
    let lanes_fit = nd == 2 && (spec.input[2] + 1).checked_mul(spec.input[3] + 1).is_some_and(|e| e < i32::MAX as usize);
    if lanes_fit && pass != GridPass::DoubleBackward {
        match spec.mode {
            GridMode::Bilinear => return blocks2d::<T, Bilinear<T>>(pass, &geo, [n, c, s, l], ops, want),
            GridMode::Bicubic => return blocks2d::<T, Bicubic<T>>(pass, &geo, [n, c, s, l], ops, want),
            GridMode::Nearest => return blocks2d::<T, Nearest<T>>(pass, &geo, [n, c, s, l], ops, want),
        }
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
