//! PyTorch's CPU random streams, value for value: ATen's `CPUGeneratorImpl` (a 32-bit
//! Mersenne Twister with cached normal samples) and the transformations its distributions apply
//! (`uniform_real`, Box-Muller in `normal_distribution` and the 16-wide `normal_fill`, modulo
//! ranges for integers). Same seed, same draws, same order as torch on CPU; CUDA tensors draw on
//! the host from these streams and are copied (torch's CUDA Philox streams differ).

use crate::dtype::DType;
use crate::error::Result;
use crate::ensure;
use crate::runtime::ForkLock;
use crate::storage::{CpuStorage, StorageElem};
use crate::tensor::Tensor;
use std::sync::Arc;

const N: usize = 624;
const M: usize = 397;
const MATRIX_A: u32 = 0x9908_b0df;
const UMASK: u32 = 0x8000_0000;
const LMASK: u32 = 0x7fff_ffff;

/// torch's default seed (`default_rng_seed_val`).
pub const DEFAULT_SEED: u64 = 67_280_421_310_721;

/// Size of the serialized state (`CPUGeneratorImplState`, as `get_rng_state()` returns it).
pub const STATE_BYTES: usize = 5056;

/// The generator: MT19937 state plus the normal samples Box-Muller produced in pairs.
#[derive(Clone)]
pub struct CpuGenerator {
    seed: u64,
    state: [u32; N],
    left: i32,
    next: u32,
    next_double_normal: Option<f64>,
    next_float_normal: Option<f32>,
}

impl CpuGenerator {
    pub fn new(seed: u64) -> CpuGenerator {
        let mut g = CpuGenerator { seed, state: [0; N], left: 1, next: 0, next_double_normal: None, next_float_normal: None };
        g.manual_seed(seed);
        g
    }

    /// Reseed (clears the cached normal samples, as torch's `set_current_seed`).
    pub fn manual_seed(&mut self, seed: u64) {
        self.seed = seed;
        self.state[0] = seed as u32;
        for j in 1..N {
            let p = self.state[j - 1];
            self.state[j] = 1_812_433_253u32.wrapping_mul(p ^ (p >> 30)).wrapping_add(j as u32);
        }
        self.left = 1;
        self.next = 0;
        self.next_double_normal = None;
        self.next_float_normal = None;
    }

    pub fn initial_seed(&self) -> u64 {
        self.seed
    }

    fn next_state(&mut self) {
        // branch-free (the low bit is a coin flip: a branch would mispredict half the time)
        let twist = |u: u32, v: u32| (((u & UMASK) | (v & LMASK)) >> 1) ^ (0u32.wrapping_sub(v & 1) & MATRIX_A);
        let s = &mut self.state;
        for i in 0..N - M {
            s[i] = s[i + M] ^ twist(s[i], s[i + 1]);
        }
        for i in N - M..N - 1 {
            s[i] = s[i + M - N] ^ twist(s[i], s[i + 1]);
        }
        s[N - 1] = s[M - 1] ^ twist(s[N - 1], s[0]);
        self.left = N as i32;
        self.next = 0;
    }

    /// One 32-bit draw (`random()`).
    pub fn random(&mut self) -> u32 {
        self.left -= 1;
        if self.left == 0 {
            self.next_state();
        }
        let y = self.state[self.next as usize];
        self.next += 1;
        temper(y)
    }

    /// `out.len()` draws of `random()` in order, a state block at a time (no per-draw branch;
    /// the tempering vectorises).
    pub fn fill_u32(&mut self, out: &mut [u32]) {
        let mut done = 0;
        while done < out.len() {
            // `random()` decrements `left` before it reads: `left - 1` draws remain in this
            // block; at none, it twists and the next N draws are the new block from index 0
            if self.left <= 1 {
                self.next_state();
                self.left = N as i32 + 1;
            }
            let take = ((self.left - 1) as usize).min(out.len() - done);
            let start = self.next as usize;
            for (o, &s) in out[done..done + take].iter_mut().zip(&self.state[start..start + take]) {
                *o = temper(s);
            }
            self.next += take as u32;
            self.left -= take as i32;
            done += take;
        }
    }

    /// One 64-bit draw: the first 32-bit draw is the high half (`random64()`).
    pub fn random64(&mut self) -> u64 {
        let hi = self.random() as u64;
        let lo = self.random() as u64;
        (hi << 32) | lo
    }

    /// U[0, 1) with float32's 24 bits (`uniform_real_distribution<float>`).
    pub fn uniform_f32(&mut self) -> f32 {
        (self.random() & ((1 << 24) - 1)) as f32 * (1.0 / (1u32 << 24) as f32)
    }

    /// U[0, 1) with float64's 53 bits.
    pub fn uniform_f64(&mut self) -> f64 {
        (self.random64() & ((1 << 53) - 1)) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// A standard normal sample of `normal_distribution<double>` (Box-Muller on two uniform
    /// doubles; the sine half is cached for the next call).
    pub fn normal_f64(&mut self) -> f64 {
        if let Some(v) = self.next_double_normal.take() {
            return v;
        }
        let u1 = self.uniform_f64();
        let u2 = self.uniform_f64();
        let r = (-2.0 * (-u2).ln_1p()).sqrt();
        let theta = 2.0 * std::f64::consts::PI * u1;
        self.next_double_normal = Some(r * theta.sin());
        r * theta.cos()
    }

    /// The state as torch serializes it (`CPUGeneratorImplState`, 5056 bytes, little-endian).
    pub fn get_state(&self) -> Vec<u8> {
        let mut b = Vec::with_capacity(STATE_BYTES);
        b.extend_from_slice(&(self.seed as i64).to_le_bytes()); // the_initial_seed
        b.extend_from_slice(&self.left.to_le_bytes()); // left
        b.extend_from_slice(&1i32.to_le_bytes()); // seeded
        b.extend_from_slice(&(self.next as u64).to_le_bytes()); // next
        for &s in &self.state {
            b.extend_from_slice(&(s as u64).to_le_bytes());
        }
        b.extend_from_slice(&0f64.to_le_bytes()); // normal_x (unused)
        b.extend_from_slice(&self.next_double_normal.unwrap_or(0.0).to_le_bytes()); // normal_y
        b.extend_from_slice(&0f64.to_le_bytes()); // normal_rho (unused)
        b.extend_from_slice(&i32::from(self.next_double_normal.is_some()).to_le_bytes());
        b.extend_from_slice(&[0u8; 4]); // padding to 8
        b.extend_from_slice(&self.next_float_normal.unwrap_or(0.0).to_le_bytes());
        b.push(u8::from(self.next_float_normal.is_some()));
        b.extend_from_slice(&[0u8; 3]);
        debug_assert_eq!(b.len(), STATE_BYTES);
        b
    }

    /// Restore a state from `get_state` (torch's checks and messages).
    pub fn set_state(&mut self, b: &[u8]) -> Result<()> {
        ensure!(b.len() == STATE_BYTES, Runtime, "Expected either a CPUGeneratorImplStateLegacy of size 5048 or a CPUGeneratorImplState of size 5056 but found the input RNG state size to be {}", b.len());
        let i64_at = |o: usize| i64::from_le_bytes(b[o..o + 8].try_into().expect("8 bytes"));
        let i32_at = |o: usize| i32::from_le_bytes(b[o..o + 4].try_into().expect("4 bytes"));
        let left = i32_at(8);
        let next = i64_at(16) as u64;
        ensure!((1..=N as i32).contains(&left) && next <= N as u64, Runtime, "The input RNG state must be a state of a CPUGeneratorImpl (left={left}, next={next})");
        self.seed = i64_at(0) as u64;
        self.left = left;
        self.next = next as u32;
        for (k, s) in self.state.iter_mut().enumerate() {
            *s = i64_at(24 + 8 * k) as u32;
        }
        let base = 24 + 8 * N;
        let normal_y = f64::from_le_bytes(b[base + 8..base + 16].try_into().expect("8 bytes"));
        self.next_double_normal = (i32_at(base + 24) != 0).then_some(normal_y);
        let f = f32::from_le_bytes(b[base + 32..base + 36].try_into().expect("4 bytes"));
        self.next_float_normal = (b[base + 36] != 0).then_some(f);
        Ok(())
    }
}

/// MT19937's output tempering.
#[inline(always)]
fn temper(mut y: u32) -> u32 {
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c_5680;
    y ^= (y << 15) & 0xefc6_0000;
    y ^ (y >> 18)
}

/// Draws taken from the stream at a time by the bulk fills (a buffer on the stack).
const CHUNK: usize = 2048;

/// U[0, 1) float32 samples into `out` (`uniform_f32` per element, in order).
fn uniform01_f32(g: &mut CpuGenerator, out: &mut [f32]) {
    let mut buf = [0u32; CHUNK];
    for c in out.chunks_mut(CHUNK) {
        let b = &mut buf[..c.len()];
        g.fill_u32(b);
        for (o, &u) in c.iter_mut().zip(b.iter()) {
            *o = (u & ((1 << 24) - 1)) as f32 * (1.0 / (1u32 << 24) as f32);
        }
    }
}

/// U[0, 1) float64 samples into `out` (`uniform_f64` per element: two draws each, the first
/// the high half).
fn uniform01_f64(g: &mut CpuGenerator, out: &mut [f64]) {
    let mut buf = [0u32; CHUNK];
    for c in out.chunks_mut(CHUNK / 2) {
        let b = &mut buf[..2 * c.len()];
        g.fill_u32(b);
        for (o, p) in c.iter_mut().zip(b.chunks_exact(2)) {
            let r = ((p[0] as u64) << 32) | p[1] as u64;
            *o = (r & ((1 << 53) - 1)) as f64 * (1.0 / (1u64 << 53) as f64);
        }
    }
}

/// A shareable generator handle (`torch.Generator`).
#[derive(Clone)]
pub struct Generator(Arc<ForkLock<CpuGenerator>>);

impl Generator {
    pub fn new(seed: u64) -> Generator {
        Generator(Arc::new(ForkLock::new(CpuGenerator::new(seed))))
    }
    /// Run `f` with the generator locked (draws of one op are never interleaved).
    pub fn with<R>(&self, f: impl FnOnce(&mut CpuGenerator) -> R) -> R {
        f(&mut self.0.lock())
    }
    pub fn same(&self, other: &Generator) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

static DEFAULT: std::sync::LazyLock<Generator> = std::sync::LazyLock::new(|| Generator::new(DEFAULT_SEED));

/// The process-wide default generator (`torch.default_generator`).
pub fn default_generator() -> &'static Generator {
    &DEFAULT
}

/// `gen` or the default generator.
pub fn or_default(gen: Option<&Generator>) -> &Generator {
    gen.unwrap_or(&DEFAULT)
}

/// Hold (`lock`) or release the default generator's lock around a fork.
///
/// # Safety
/// Release only what a matching lock call took.
pub(crate) unsafe fn fork_lock(lock: bool) {
    if lock {
        DEFAULT.0.fork_hold();
    } else {
        // SAFETY: forwarded from the caller: the lock was taken by the matching call.
        unsafe { DEFAULT.0.fork_release() }
    }
}

/// Samples of U[from, to) for `n` elements of `dtype` in fill order, as a buffer of `dtype`.
/// torch computes `x * (to - from) + from` in the dtype's accumulation type (float for
/// float16/bfloat16/float32, double for float64), compiled as one fused multiply-add (one
/// rounding); reduced-precision dtypes draw float's 24-bit uniforms and round; a float,
/// half or bfloat16 sample equal to `to` is replaced by `from`.
pub fn uniform(g: &mut CpuGenerator, dtype: DType, shape: &[usize], from: f64, to: f64) -> Result<Tensor> {
    uniform_buffer(g, dtype, crate::shape::numel_checked(shape)?, from, to).map(|s| Tensor::from_storage(s, shape))
}

fn uniform_buffer(g: &mut CpuGenerator, dtype: DType, n: usize, from: f64, to: f64) -> Result<CpuStorage> {
    if dtype == DType::Float64 {
        let mut v = crate::cpu::alloc::take::<f64>(n)?;
        uniform01_f64(g, &mut v);
        affine_fused(&mut v, to - from, from);
        return Ok(f64::wrap(v));
    }
    let (f, t) = match dtype {
        DType::Float32 => (from as f32, to as f32),
        DType::BFloat16 => (half::bf16::from_f32(from as f32).to_f32(), half::bf16::from_f32(to as f32).to_f32()),
        _ => (half::f16::from_f32(from as f32).to_f32(), half::f16::from_f32(to as f32).to_f32()),
    };
    let mut v = crate::cpu::alloc::take::<f32>(n)?;
    uniform01_f32(g, &mut v);
    affine_fused(&mut v, t - f, f);
    // torch keeps these dtypes' samples below `to`: one that rounds up to it is `from`
    // (measured against 2.13; float64 keeps it)
    Ok(match dtype {
        DType::Float32 => {
            v.iter_mut().for_each(|x| if *x == t { *x = f });
            f32::wrap(v)
        }
        DType::BFloat16 => {
            let (f, t) = (half::bf16::from_f32(f), half::bf16::from_f32(t));
            half::bf16::wrap(crate::cpu::alloc::cached_with(n, |i| match half::bf16::from_f32(v[i]) { x if x == t => f, x => x })?)
        }
        _ => {
            let (f, t) = (half::f16::from_f32(f), half::f16::from_f32(t));
            half::f16::wrap(crate::cpu::alloc::cached_with(n, |i| match half::f16::from_f32(v[i]) { x if x == t => f, x => x })?)
        }
    })
}

/// float32 values as a buffer of `dtype` (float32 itself, or rounded to float16/bfloat16).
fn round_f32(v: Vec<f32>, dtype: DType) -> Result<CpuStorage> {
    Ok(match dtype {
        DType::Float32 => f32::wrap(v),
        DType::BFloat16 => half::bf16::wrap(crate::cpu::alloc::cached_with(v.len(), |i| half::bf16::from_f32(v[i]))?),
        _ => half::f16::wrap(crate::cpu::alloc::cached_with(v.len(), |i| half::f16::from_f32(v[i]))?),
    })
}

/// Normal samples for `n` elements of `dtype` in fill order, as a buffer of `dtype`. A
/// contiguous tensor of at least 16 elements takes torch's `normal_fill` (uniforms for all,
/// then Box-Muller on blocks of 16, the tail block redrawn); anything else draws
/// `normal_distribution<double>` per element.
pub fn normal(g: &mut CpuGenerator, dtype: DType, shape: &[usize], contiguous: bool, mean: f64, std: f64) -> Result<Tensor> {
    normal_buffer(g, dtype, crate::shape::numel_checked(shape)?, contiguous, mean, std).map(|s| Tensor::from_storage(s, shape))
}

fn normal_buffer(g: &mut CpuGenerator, dtype: DType, n: usize, contiguous: bool, mean: f64, std: f64) -> Result<CpuStorage> {
    if !(n >= 16 && contiguous) {
        let v: Vec<f64> = crate::cpu::alloc::cached_with(n, |_| g.normal_f64() * std + mean)?;
        return Ok(match dtype {
            DType::Float64 => f64::wrap(v),
            DType::Float32 => f32::wrap(crate::cpu::alloc::cached_with(n, |i| v[i] as f32)?),
            DType::BFloat16 => half::bf16::wrap(crate::cpu::alloc::cached_with(n, |i| half::bf16::from_f32(v[i] as f32))?),
            _ => half::f16::wrap(crate::cpu::alloc::cached_with(n, |i| half::f16::from_f32(v[i] as f32))?),
        });
    }
    if dtype == DType::Float64 {
        let mut v = crate::cpu::alloc::take::<f64>(n)?;
        normal_fill(&mut v, true, |d| uniform01_f64(g, d), |data| {
            for block in data.chunks_exact_mut(16) {
                let (lo, hi) = block.split_at_mut(8);
                for (a, b) in lo.iter_mut().zip(hi.iter_mut()) {
                    let u1 = 1.0 - *a;
                    let u2 = *b;
                    let radius = (-2.0 * u1.ln()).sqrt();
                    let theta = 2.0 * std::f64::consts::PI * u2;
                    *a = radius * theta.cos() * std + mean;
                    *b = radius * theta.sin() * std + mean;
                }
            }
        });
        return Ok(f64::wrap(v));
    }
    // float32: torch's vectorised float path. float16/bfloat16 do the float32 math (rounded
    // when stored) but draw their uniforms block by block, so the leftover elements past the
    // last full block draw nothing before the tail block's 16 fresh ones.
    let (m, s) = (mean as f32, std as f32);
    let mut v = crate::cpu::alloc::take::<f32>(n)?;
    normal_fill(&mut v, dtype == DType::Float32, |d| uniform01_f32(g, d), |data| box_muller_blocks(data, m, s));
    round_f32(v, dtype)
}

/// `box_muller16_f32` on each whole 16-element block of `data`, built for AVX2+FMA where the
/// CPU has them (a closure handed to `simd` is not reliably inlined into the wide build: its
/// fused multiply-adds would become calls to a software `fmaf`).
fn box_muller_blocks(data: &mut [f32], m: f32, s: f32) {
    #[inline(always)]
    fn body(data: &mut [f32], m: f32, s: f32) {
        for block in data.chunks_exact_mut(16) {
            box_muller16_f32(block, m, s);
        }
    }
    #[cfg(target_arch = "x86_64")]
    if crate::cpu::math::has_avx2_fma() {
        /// # Safety
        /// Only call on a CPU with AVX2 and FMA.
        #[target_feature(enable = "avx2,fma")]
        unsafe fn wide(data: &mut [f32], m: f32, s: f32) {
            body(data, m, s)
        }
        // SAFETY: `has_avx2_fma` checked that the CPU has AVX2 and FMA.
        return unsafe { wide(data, m, s) };
    }
    body(data, m, s)
}

/// `x * scale + shift` with one rounding on each element (FMA instructions where the CPU has
/// them, see `box_muller_blocks`).
fn affine_fused<T: Fused>(v: &mut [T], scale: T, shift: T) {
    #[inline(always)]
    fn body<T: Fused>(v: &mut [T], scale: T, shift: T) {
        for x in v.iter_mut() {
            *x = x.fused(scale, shift);
        }
    }
    #[cfg(target_arch = "x86_64")]
    if crate::cpu::math::has_avx2_fma() {
        /// # Safety
        /// Only call on a CPU with AVX2 and FMA.
        #[target_feature(enable = "avx2,fma")]
        unsafe fn wide<T: Fused>(v: &mut [T], scale: T, shift: T) {
            body(v, scale, shift)
        }
        // SAFETY: `has_avx2_fma` checked that the CPU has AVX2 and FMA.
        return unsafe { wide(v, scale, shift) };
    }
    body(v, scale, shift)
}

/// `mul_add` for the two float widths.
trait Fused: Copy {
    fn fused(self, a: Self, b: Self) -> Self;
}
impl Fused for f32 {
    #[inline(always)]
    fn fused(self, a: f32, b: f32) -> f32 {
        self.mul_add(a, b)
    }
}
impl Fused for f64 {
    #[inline(always)]
    fn fused(self, a: f64, b: f64) -> f64 {
        self.mul_add(a, b)
    }
}

/// torch's `normal_fill` on `data` (at least 16 elements): `uniform` fills it, `transform`
/// turns whole 16-element blocks into normal samples, and a partial last block is redone from
/// 16 fresh uniforms on the last 16 elements. `draw_all`: the uniforms cover every element
/// (float32, float64), else only the whole blocks (torch's reduced-precision path).
fn normal_fill<T>(data: &mut [T], draw_all: bool, mut uniform: impl FnMut(&mut [T]), mut transform: impl FnMut(&mut [T])) {
    let n = data.len();
    let whole = n - n % 16;
    // uniforms and transforms a piece at a time (same draws, in the same order, as drawing
    // everything first: each block's transform reads only its own uniforms)
    for piece in data[..whole].chunks_mut(64 * 16) {
        uniform(piece);
        transform(piece);
    }
    if n % 16 != 0 {
        if draw_all {
            uniform(&mut data[whole..]);
        }
        let tail = &mut data[n - 16..];
        uniform(tail);
        transform(tail);
    }
}

/// Box-Muller on a block of 16 float32 uniforms, as torch's vectorised float path
/// (`normal_fill_16_AVX2`): the first 8 give the radii, the last 8 the angles, with the
/// logarithm and sine/cosine of `avx_mathfun` (Cephes polynomials, `cephes_logf` and
/// `cephes_sincosf` below) rather than libm's, so the values agree to the bit; results scaled
/// by `s` and shifted by `m` with FMA. Branch-free per lane, so the 8 lanes vectorise.
#[inline(always)]
fn box_muller16_f32(block: &mut [f32], m: f32, s: f32) {
    let two_pi = (2.0 * std::f64::consts::PI) as f32;
    let (lo, hi) = block.split_at_mut(8);
    for (a, b) in lo.iter_mut().zip(hi.iter_mut()) {
        let u1 = 1.0 - *a;
        let u2 = *b;
        let radius = (-2.0 * cephes_logf(u1)).sqrt();
        let (sin, cos) = cephes_sincosf(two_pi * u2);
        *a = (radius * cos).mul_add(s, m);
        *b = (radius * sin).mul_add(s, m);
    }
}

/// `log256_ps` of avx_mathfun, one lane: the exponent split off, the mantissa brought to
/// [sqrt(1/2), sqrt(2)) and a degree-9 Cephes polynomial; the multiply-adds fused where the
/// compiled kernel fuses them. Non-positive input gives NaN.
#[allow(clippy::excessive_precision)]
#[inline(always)]
fn cephes_logf(x: f32) -> f32 {
    let invalid = !(x > 0.0); // NaN or x <= 0
    let x = x.max(f32::MIN_POSITIVE);
    let bits = x.to_bits();
    let e = ((bits >> 23) as i32 - 0x7f) as f32 + 1.0;
    let x = f32::from_bits((bits & !0x7f80_0000) | 0.5f32.to_bits());
    // x < sqrt(1/2): e -= 1, x = 2x - 1; else x = x - 1
    let small = x < 0.707106781186547524_f32;
    let tmp = if small { x } else { 0.0 };
    let e = if small { e - 1.0 } else { e };
    let x = (x - 1.0) + tmp;
    let z = x * x;
    let mut y = 7.0376836292E-2_f32;
    for p in [-1.1514610310E-1_f32, 1.1676998740E-1, -1.2420140846E-1, 1.4249322787E-1, -1.6668057665E-1, 2.0000714765E-1, -2.4999993993E-1, 3.3333331174E-1] {
        y = y.mul_add(x, p);
    }
    y *= x;
    y = y.mul_add(z, e * -2.12194440e-4);
    y = (-z).mul_add(0.5, y);
    let r = e.mul_add(0.693359375, x + y);
    if invalid { f32::NAN } else { r }
}

/// `sincos256_ps` of avx_mathfun, one lane: reduction by multiples of pi/4 in three parts
/// (Cephes' DP1..DP3), then the sine or cosine polynomial of the octant. Returns (sin, cos).
#[allow(clippy::excessive_precision)]
#[inline(always)]
fn cephes_sincosf(x: f32) -> (f32, f32) {
    let sign_sin = x.is_sign_negative();
    let mut x = x.abs();
    let mut j = (x * 1.27323954473516_f32) as i32; // 4/pi
    j = (j + 1) & !1;
    let y = j as f32;
    let swap = j & 4 != 0;
    let sine_poly = j & 2 == 0;
    for dp in [-0.78515625_f32, -2.4187564849853515625e-4, -3.77489497744594108e-8] {
        x = y.mul_add(dp, x);
    }
    let cos_neg = (!(j - 2)) & 4 != 0;
    let z = x * x;
    let mut yc = 2.443315711809948E-005_f32.mul_add(z, -1.388731625493765E-003);
    yc = yc.mul_add(z, 4.166664568298827E-002);
    yc *= z;
    yc = yc.mul_add(z, -(z * 0.5)) + 1.0;
    let mut ys = (-1.9515295891E-4_f32).mul_add(z, 8.3321608736E-3);
    ys = ys.mul_add(z, -1.6666654611E-1);
    ys *= z;
    ys = ys.mul_add(x, x);
    let (s, c) = if sine_poly { (ys, yc) } else { (yc, ys) };
    (if sign_sin != swap { -s } else { s }, if cos_neg { -c } else { c })
}

/// `n` integers uniform in [low, low + range) (`random_from_to`), in order, taken from the
/// stream in bulk: a 64-bit draw each when the range needs it (for 64-bit and floating
/// dtypes), else a 32-bit one. `range` 0 stands for 2**64 (int64's whole range): the 64-bit
/// draws as they are.
pub fn ints_from_to(g: &mut CpuGenerator, dtype: DType, n: usize, range: u64, low: i64) -> Result<Vec<i64>> {
    let mut out = crate::cpu::alloc::take::<i64>(n)?;
    ints_from_to_into(g, dtype, range, low, &mut out, |v| v);
    Ok(out)
}

/// `ints_from_to` written into `out` through `conv` (the target dtype's cast).
pub fn ints_from_to_into<T>(g: &mut CpuGenerator, dtype: DType, range: u64, low: i64, out: &mut [T], conv: impl Fn(i64) -> T) {
    let mut buf = [0u32; CHUNK];
    let wide = range == 0 || (matches!(dtype, DType::Int64 | DType::Float64 | DType::Float32) && range >= 1 << 32);
    if wide {
        for c in out.chunks_mut(CHUNK / 2) {
            let b = &mut buf[..2 * c.len()];
            g.fill_u32(b);
            for (o, p) in c.iter_mut().zip(b.chunks_exact(2)) {
                let v = ((p[0] as u64) << 32) | p[1] as u64;
                *o = conv(if range == 0 { v as i64 } else { (v % range).wrapping_add(low as u64) as i64 });
            }
        }
    } else if let Ok(r) = u32::try_from(range) {
        // a 32-bit draw modulo a 32-bit range: the same value as in 64 bits, and computed
        // with Lemire's exact multiply-based remainder instead of a divide
        let m = (u64::MAX / r as u64).wrapping_add(1);
        for c in out.chunks_mut(CHUNK) {
            let b = &mut buf[..c.len()];
            g.fill_u32(b);
            for (o, &v) in c.iter_mut().zip(b.iter()) {
                *o = conv((fastmod_u32(v, m, r) as u64).wrapping_add(low as u64) as i64);
            }
        }
    } else {
        for c in out.chunks_mut(CHUNK) {
            let b = &mut buf[..c.len()];
            g.fill_u32(b);
            for (o, &v) in c.iter_mut().zip(b.iter()) {
                *o = conv((v as u64 % range).wrapping_add(low as u64) as i64);
            }
        }
    }
}

/// A new int64 or int32 tensor of `shape` holding `ints_from_to` draws (drawn into its buffer).
pub fn ints_tensor(g: &mut CpuGenerator, dtype: DType, shape: &[usize], range: u64, low: i64) -> Result<Tensor> {
    let n = crate::shape::numel_checked(shape)?;
    if dtype == DType::Int32 {
        let mut v = crate::cpu::alloc::take::<i32>(n)?;
        ints_from_to_into(g, dtype, range, low, &mut v, |x| x as i32);
        return Tensor::from_vec(v, shape);
    }
    ensure!(dtype == DType::Int64, Runtime, "ints_tensor: int32 or int64 expected, got {:?}", dtype);
    let mut v = crate::cpu::alloc::take::<i64>(n)?;
    ints_from_to_into(g, dtype, range, low, &mut v, |x| x);
    Tensor::from_vec(v, shape)
}

/// `a % d` for 32-bit operands, exactly, given `m = u64::MAX / d + 1` (wrapping; Lemire,
/// Kaser and Kurz, "Faster remainder by direct computation", 2019).
#[inline(always)]
fn fastmod_u32(a: u32, m: u64, d: u32) -> u32 {
    let low = m.wrapping_mul(a as u64);
    ((low as u128 * d as u128) >> 64) as u32
}

/// Bernoulli draws (1.0 or 0.0) for the probabilities `p` taken in `order` (float32
/// uniforms, one per element in fill order, as torch's `bernoulli_tensor_cpu_p_`).
pub fn bernoulli_f32(g: &mut CpuGenerator, p: &[f64], order: Option<&[usize]>) -> Result<Vec<f64>> {
    let u = uniforms_f32(g, p.len())?;
    Ok(match order {
        None => crate::cpu::alloc::cached_with(p.len(), |k| f64::from(u8::from(u[k] < p[k] as f32)))?,
        Some(o) => crate::cpu::alloc::cached_with(p.len(), |k| f64::from(u8::from(u[k] < p[o[k]] as f32)))?,
    })
}

/// `n` U[0, 1) float32 samples (`uniform_f32` each), drawn in bulk.
pub fn uniforms_f32(g: &mut CpuGenerator, n: usize) -> Result<Vec<f32>> {
    let mut v = crate::cpu::alloc::take::<f32>(n)?;
    uniform01_f32(g, &mut v);
    Ok(v)
}

/// `n` U[0, 1) float64 samples (`uniform_f64` each), drawn in bulk.
pub fn uniforms_f64(g: &mut CpuGenerator, n: usize) -> Result<Vec<f64>> {
    let mut v = crate::cpu::alloc::take::<f64>(n)?;
    uniform01_f64(g, &mut v);
    Ok(v)
}

/// `random_()` without bounds: uniform over [0, 2**mantissa] for floats, [0, max] for
/// integers.
pub fn int_full_range(g: &mut CpuGenerator, dtype: DType) -> i64 {
    match dtype {
        DType::Int64 => (g.random64() % (i64::MAX as u64 + 1)) as i64,
        DType::Float64 => (g.random64() % ((1u64 << 53) + 1)) as i64,
        DType::Float32 => (g.random() as u64 % ((1u64 << 24) + 1)) as i64,
        DType::Float16 => (g.random() as u64 % ((1u64 << 11) + 1)) as i64,
        DType::BFloat16 => (g.random() as u64 % ((1u64 << 8) + 1)) as i64,
        DType::Int32 => (g.random() as u64 % (i32::MAX as u64 + 1)) as i64,
        DType::Int16 => (g.random() as u64 % (i16::MAX as u64 + 1)) as i64,
        DType::Int8 => (g.random() as u64 % (i8::MAX as u64 + 1)) as i64,
        DType::UInt8 => (g.random() as u64 % (u8::MAX as u64 + 1)) as i64,
        DType::Bool => (g.random() & 1) as i64,
        // `random_` refuses complex tensors before drawing
        d @ (DType::Complex64 | DType::Complex128) => panic!("invariant: real dtype expected, got {d:?}"),
    }
}

/// A random permutation of 0..n (torch's CPU `randperm`: a forward Fisher-Yates with 32-bit
/// draws).
pub fn randperm(g: &mut CpuGenerator, n: usize) -> Result<Vec<i64>> {
    let mut v = crate::cpu::alloc::cached_with(n, |i| i as i64)?;
    if n < (u32::MAX / 20) as usize {
        // 32-bit draws taken in bulk; a 32-bit draw modulo a 32-bit span is the same value
        // as in 64 bits
        let mut buf = [0u32; CHUNK];
        let mut i = 0;
        while i + 1 < n {
            let take = CHUNK.min(n - 1 - i);
            g.fill_u32(&mut buf[..take]);
            for &r in &buf[..take] {
                let z = r % (n - i) as u32;
                v.swap(i, i + z as usize);
                i += 1;
            }
        }
    } else {
        for i in 0..n.saturating_sub(1) {
            let z = g.random64() % (n - i) as u64;
            v.swap(i, i + z as usize);
        }
    }
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_draws_match_torch() {
        // torch.manual_seed(0); torch.rand(3)
        let mut g = CpuGenerator::new(0);
        let v: Vec<f32> = (0..3).map(|_| g.uniform_f32()).collect();
        assert_eq!(v, vec![0.496_256_59, 0.768_221_8, 0.088_477_43]);
        // torch.manual_seed(1); torch.randn(2)
        let mut g = CpuGenerator::new(1);
        assert_eq!(g.normal_f64() as f32, 0.661_352_16);
        assert_eq!(g.normal_f64() as f32, 0.266_924_1);
    }

    #[test]
    fn bulk_draws_equal_single_draws() {
        // across the 624-word blocks, from every position in a block
        for skip in [0usize, 1, 5, 622, 623, 624, 1000] {
            let mut a = CpuGenerator::new(7);
            let mut b = a.clone();
            for _ in 0..skip {
                a.random();
                b.random();
            }
            let mut bulk = vec![0u32; 2000];
            a.fill_u32(&mut bulk[..3]);
            a.fill_u32(&mut bulk[3..]);
            let single: Vec<u32> = (0..2000).map(|_| b.random()).collect();
            assert_eq!(bulk, single, "skip {skip}");
            assert_eq!(a.random(), b.random());
            let mut f = vec![0f64; 700];
            uniform01_f64(&mut a, &mut f);
            assert!(f.iter().all(|&x| x == b.uniform_f64()));
            let mut f = vec![0f32; 700];
            uniform01_f32(&mut a, &mut f);
            assert!(f.iter().all(|&x| x == b.uniform_f32()));
            assert_eq!(a.get_state(), b.get_state());
        }
    }

    #[test]
    fn vectorised_box_muller_matches_the_lane_formula() {
        // torch.manual_seed(1); torch.randn(16)[:2] (the 16-wide float path)
        let mut g = CpuGenerator::new(1);
        match normal_buffer(&mut g, DType::Float32, 16, true, 0.0, 1.0).unwrap() {
            CpuStorage::F32(ref v) => assert_eq!(&v[..2], &[-1.525_595_9_f32, -0.750_231_8][..]),
            _ => panic!("float32 expected"),
        }
    }

    #[test]
    fn fastmod_is_the_remainder() {
        for d in [1u32, 2, 3, 7, 10, 255, 256, 1000, 65_537, 1 << 31, u32::MAX - 1, u32::MAX] {
            let m = (u64::MAX / d as u64).wrapping_add(1);
            for a in [0u32, 1, 2, 9, 255, 256, 65_535, 1 << 31, u32::MAX - 1, u32::MAX, 123_456_789] {
                assert_eq!(fastmod_u32(a, m, d), a % d, "{a} % {d}");
            }
        }
    }

    #[test]
    fn randperm_and_state_roundtrip() {
        let mut g = CpuGenerator::new(2);
        for _ in 0..25 {
            g.random();
        }
        assert_eq!(randperm(&mut g, 6).unwrap(), vec![0, 1, 4, 3, 5, 2]);
        let s = g.get_state();
        assert_eq!(s.len(), STATE_BYTES);
        let a: Vec<u32> = (0..700).map(|_| g.random()).collect();
        let mut h = CpuGenerator::new(99);
        h.set_state(&s).unwrap();
        let b: Vec<u32> = (0..700).map(|_| h.random()).collect();
        assert_eq!(a, b);
        assert_eq!(h.initial_seed(), 2);
        assert!(h.set_state(&s[..100]).is_err());
    }
}

/// ATen's `sample_gamma` (Marsaglia and Tsang, boosted by `U^(1/α)` below 1) on the
/// generator's `uniform_real_distribution<double>` / `normal_distribution<double>` draws,
/// element by element in order, as `_s_gamma_cpu` / `_s_dirichlet_cpu`. `single`: the steps
/// ATen takes in the element type run in float32 (`_standard_gamma` of a float tensor); the
/// float literals are float32 constants, as in ATen's source. NaN α gives NaN.
pub fn standard_gamma(g: &mut CpuGenerator, alpha: &[f64], single: bool) -> Vec<f64> {
    let rnd = |v: f64| if single { v as f32 as f64 } else { v };
    let third = (1.0f32 / 3.0f32) as f64;
    let c0331 = 0.0331f32 as f64;
    alpha.iter().map(|&a0| {
        let mut a = rnd(a0);
        if a.is_nan() {
            return f64::NAN;
        }
        let mut scale = 1.0f64;
        if a < 1.0 {
            if a == 0.0 {
                return 0.0;
            }
            let u = g.uniform_f64();
            scale *= (1.0 - u).powf(rnd(1.0 / a));
            a = rnd(a + 1.0);
        }
        let d = rnd(a - third);
        let c = 1.0 / (9.0 * d).sqrt();
        loop {
            let (mut x, mut y);
            loop {
                x = g.normal_f64();
                y = 1.0 + c * x;
                if y > 0.0 {
                    break;
                }
            }
            let v = y * y * y;
            let u = 1.0 - g.uniform_f64();
            let xx = x * x;
            if u < 1.0 - c0331 * xx * xx || u.ln() < 0.5 * xx + d * (1.0 - v + v.ln()) {
                return scale * d * v;
            }
        }
    }).collect()
}

/// ATen's `sample_poisson` per element, in order: Hörmann's transformed rejection (PTRS)
/// from λ = 10, multiplication of uniforms below.
/// ATen's `stirling_approx_tail`: the tail of Stirling's series for `log k!`.
fn stirling_tail(k: f64) -> f64 {
    const TAIL: [f64; 10] = [0.0810614667953272, 0.0413406959554092, 0.0276779256849983, 0.02079067210376509, 0.0166446911898211,
        0.0138761288230707, 0.0118967099458917, 0.0104112652619720, 0.00925546218271273, 0.00833056343336287];
    if k <= 9.0 {
        return TAIL[k as usize];
    }
    let kp1sq = (k + 1.0) * (k + 1.0);
    (1.0 / 12.0 - (1.0 / 360.0 - 1.0 / 1260.0 / kp1sq) / kp1sq) / (k + 1.0)
}

/// The element type's arithmetic of ATen's binomial kernel: float32 steps round (`single`)
/// where `scalar_t` is float, double ones do not.
#[inline]
fn st(v: f64, single: bool) -> f64 {
    if single { v as f32 as f64 } else { v }
}

/// ATen's `binomial_inversion`: count the geometric(prob) waiting times that fit in `count`.
fn binomial_inversion(g: &mut CpuGenerator, count: f64, prob: f64, single: bool) -> f64 {
    let logprob = st((-prob).ln_1p(), single);
    let (mut geom_sum, mut num_geom) = (0.0f64, 0.0f64);
    loop {
        let u = g.uniform_f64();
        geom_sum += (u.ln() / logprob).ceil();
        if geom_sum > count {
            return num_geom;
        }
        num_geom += 1.0;
    }
}

/// ATen's `btrs` (Hörmann's transformed rejection with squeeze, as ATen writes it).
fn binomial_btrs(g: &mut CpuGenerator, count: f64, prob: f64, single: bool) -> f64 {
    let stddev = st(st(st(count * prob, single) * st(1.0 - prob, single), single).sqrt(), single);
    let b = 1.15 + 2.53 * stddev;
    let a = -0.0873 + 0.0248 * b + 0.01 * prob;
    let c = st(count * prob, single) + 0.5;
    let v_r = 0.92 - 4.2 / b;
    let r = st(prob / st(1.0 - prob, single), single);
    let alpha = (2.83 + 5.1 / b) * stddev;
    let m = st(st(count + 1.0, single) * prob, single).floor();
    loop {
        let u = g.uniform_f64() - 0.5;
        let v = g.uniform_f64();
        let us = 0.5 - u.abs();
        let k = st(((2.0 * a / us + b) * u + c).floor(), single);
        if k < 0.0 || k > count {
            continue;
        }
        if us >= 0.07 && v <= v_r {
            return k;
        }
        let v = (v * alpha / (a / (us * us) + b)).ln();
        let upper = (m + 0.5) * ((m + 1.0) / (r * (count - m + 1.0))).ln()
            + st(count + 1.0, single) * ((count - m + 1.0) / st(count - k + 1.0, single)).ln()
            + (k + 0.5) * (r * st(count - k + 1.0, single) / st(k + 1.0, single)).ln()
            + stirling_tail(m) + stirling_tail(count - m) - stirling_tail(k) - stirling_tail(st(count - k, single));
        if v <= upper {
            return k;
        }
    }
}

/// Binomial(count, prob) samples as ATen's `_s_binomial_cpu` draws them (`sample_binomial`:
/// inversion below a mean of 10, BTRS above, by symmetry for prob > 1/2), one element after
/// another from uniform doubles; `single`: the float32 kernel's rounding of its own steps.
pub fn binomial(g: &mut CpuGenerator, count: &[f64], prob: &[f64], single: bool) -> Vec<f64> {
    count.iter().zip(prob).map(|(&n, &p)| {
        if n <= 0.0 || p <= 0.0 {
            0.0
        } else if p >= 1.0 {
            n
        } else if p <= 0.5 {
            if st(n * p, single) >= 10.0 { binomial_btrs(g, n, p, single) } else { binomial_inversion(g, n, p, single) }
        } else if p > 0.5 {
            let q = st(1.0 - p, single);
            let k = if st(n * q, single) >= 10.0 { binomial_btrs(g, n, q, single) } else { binomial_inversion(g, n, q, single) };
            st(n - k, single)
        } else {
            f64::NAN
        }
    }).collect()
}

pub fn poisson(g: &mut CpuGenerator, lambda: &[f64]) -> Vec<f64> {
    lambda.iter().map(|&lam| {
        if lam >= 10.0 {
            let slam = lam.sqrt();
            let loglam = lam.ln();
            let b = 0.931 + 2.53 * slam;
            let a = -0.059 + 0.02483 * b;
            let invalpha = 1.1239 + 1.1328 / (b - 3.4);
            let vr = 0.9277 - 3.6224 / (b - 2.0);
            loop {
                let u = g.uniform_f64() - 0.5;
                let v = g.uniform_f64();
                let us = 0.5 - u.abs();
                let k = ((2.0 * a / us + b) * u + lam + 0.43).floor() as i64;
                if us >= 0.07 && v <= vr {
                    return k as f64;
                }
                if k < 0 || (us < 0.013 && v > us) {
                    continue;
                }
                if v.ln() + invalpha.ln() - (a / (us * us) + b).ln() <= -lam + k as f64 * loglam - crate::cpu::elementwise::lgamma_f64(k as f64 + 1.0) {
                    return k as f64;
                }
            }
        } else if lam == 0.0 {
            0.0
        } else {
            let enlam = (-lam).exp();
            let (mut x, mut prod) = (0i64, 1.0f64);
            loop {
                prod *= g.uniform_f64();
                if prod > enlam {
                    x += 1;
                } else {
                    return x as f64;
                }
            }
        }
    }).collect()
}
