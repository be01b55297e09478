//! Elementwise CPU kernels: unary maps, binary maps over broadcast layouts, `where`, and
//! the in-place/`out=` fast paths. Each op of the contract is one `match` arm here.

use super::{map1, map1_into, map2, map2_into, par_zip1, zip_inplace};
use crate::backend::{BinaryOp, UnaryKind, UnaryOp};
use crate::device::Device;
use crate::dtype::{DType, Elem};
use crate::error::{Error, Result};
use crate::shape::{walk1, Layout};
use crate::storage::{CpuStorage, StorageElem};
use crate::{all_types, bail, float_types, int_types, num_types};
use num_traits::{Float, One, Zero};

/// Negation that wraps for integers (`-i64::MIN` is `i64::MIN`, as in torch), and the
/// magnitude (`abs(-0.0)` is `+0.0`).
pub trait Negate: Copy {
    fn negate(self) -> Self;
    fn magnitude(self) -> Self;
}
macro_rules! negate_int {
    ($($t:ty),*) => { $(impl Negate for $t {
        #[inline(always)] fn negate(self) -> Self { self.wrapping_neg() }
        #[inline(always)] fn magnitude(self) -> Self { self.wrapping_abs() }
    })* };
}
macro_rules! negate_float {
    ($($t:ty),*) => { $(impl Negate for $t {
        #[inline(always)] fn negate(self) -> Self { -self }
        #[inline(always)] fn magnitude(self) -> Self { self.abs() }
    })* };
}
negate_int!(i8, i16, i32, i64);
impl Negate for u8 {
    #[inline(always)]
    fn negate(self) -> Self {
        self.wrapping_neg()
    }
    #[inline(always)]
    fn magnitude(self) -> Self {
        self
    }
}
negate_float!(half::f16, f32, f64, half::bf16);

fn unsupported(op: &'static str, dtype: DType) -> Error {
    Error::Unsupported { op, dtype, device: Device::Cpu }
}

/// The vectorised float32 kernel of `op`, if there is one.
fn f32_kernel(op: UnaryOp) -> Option<fn(&[f32], &mut [f32])> {
    match op {
        UnaryOp::Exp => Some(super::math::exp_slice),
        UnaryOp::Tanh => Some(super::math::tanh_slice),
        UnaryOp::Log => Some(super::math::ln_slice),
        UnaryOp::Log2 => Some(super::math::log2_slice),
        UnaryOp::Log10 => Some(super::math::log10_slice),
        UnaryOp::Sigmoid => Some(super::math::sigmoid_slice),
        UnaryOp::Gelu => Some(super::math::gelu_slice),
        UnaryOp::GeluTanh => Some(super::math::gelu_tanh_slice),
        UnaryOp::Silu => Some(super::math::silu_slice),
        UnaryOp::Sin => Some(super::math::sin_slice),
        UnaryOp::Cos => Some(super::math::cos_slice),
        UnaryOp::Tan => Some(super::math::tan_slice),
        UnaryOp::Atan => Some(super::math::atan_slice),
        UnaryOp::Log1p => Some(super::math::log1p_slice),
        UnaryOp::Expm1 => Some(super::math::expm1_slice),
        UnaryOp::Asin => Some(super::math::asin_slice),
        UnaryOp::Acos => Some(super::math::acos_slice),
        UnaryOp::Sinh => Some(super::math::sinh_slice),
        UnaryOp::Cosh => Some(super::math::cosh_slice),
        UnaryOp::Exp2 => Some(super::math::exp2_slice),
        UnaryOp::Atanh => Some(super::math::atanh_slice),
        UnaryOp::Asinh => Some(super::math::asinh_slice),
        UnaryOp::Acosh => Some(super::math::acosh_slice),
        UnaryOp::Erf => Some(super::math::erf_slice),
        UnaryOp::Erfc => Some(super::math::erfc_slice),
        UnaryOp::Erfinv => Some(super::math::erfinv_slice),
        UnaryOp::Round => Some(super::math::round_slice),
        UnaryOp::Lgamma => Some(super::math::lgamma_slice),
        UnaryOp::Digamma => Some(super::math::digamma_slice),
        _ => None,
    }
}

/// The vectorised float32 kernel of `op`: `f32_kernel`'s, or one of the parametrised ops
/// (softplus, ELU) with its parameters in float32.
fn f32_vector(op: UnaryOp) -> Option<impl Fn(&[f32], &mut [f32]) + Sync> {
    let plain = f32_kernel(op);
    if plain.is_none() && !matches!(op, UnaryOp::Softplus(..) | UnaryOp::Elu(..)) {
        return None;
    }
    Some(move |x: &[f32], o: &mut [f32]| match (plain, op) {
        (Some(k), _) => k(x, o),
        (None, UnaryOp::Softplus(b, t)) => super::math::softplus_slice(x, o, b as f32, t as f32),
        (None, UnaryOp::Elu(n, p, s)) => super::math::elu_slice(x, o, n as f32, p as f32, s as f32),
        _ => unreachable!("invariant: checked above"),
    })
}

/// The exponent of a float32 `pow` that runs `math::pow_f32_slice` (2, 3 and -2 are ATen's
/// products, in `float_map`).
fn pow_exponent_f32(op: UnaryOp) -> Option<f64> {
    match op {
        UnaryOp::PowScalar(p) if p != 2.0 && p != 3.0 && p != -2.0 => Some(p),
        _ => None,
    }
}

extern "C" {
    fn erf(x: f64) -> f64;
    fn erfc(x: f64) -> f64;
    fn lgamma(x: f64) -> f64;
}

/// libm's `lgamma` (what torch's CPU kernel calls; ln |Γ(x)|, +inf at the poles).
pub(crate) fn lgamma_f64(x: f64) -> f64 {
    // SAFETY: a pure libm function of one double (it writes the global `signgam`, which
    // nothing here reads)
    unsafe { lgamma(x) }
}

/// ψ(x), as ATen's `calc_digamma`: ψ(0) = -inf with the sign of zero flipped as torch
/// (ψ(±0) = ∓inf), NaN at the negative integers, reflection below 0, the recurrence up to
/// 10 and the asymptotic series there.
pub fn digamma_f64(mut x: f64) -> f64 {
    const PSI_10: f64 = 2.251_752_589_066_721_1;
    if x == 0.0 {
        return if x.is_sign_negative() {
            f64::INFINITY
        } else {
            f64::NEG_INFINITY
        };
    }
    if x < 0.0 {
        if x == x.trunc() {
            return f64::NAN;
        }
        // ψ(1 - x) - ψ(x) = π / tan(π x), with x's fractional part (C's modf) in the tangent
        let r = x - x.trunc();
        return digamma_f64(1.0 - x) - std::f64::consts::PI / (std::f64::consts::PI * r).tan();
    }
    let mut result = 0.0;
    while x < 10.0 {
        result -= 1.0 / x;
        x += 1.0;
    }
    if x == 10.0 {
        return result + PSI_10;
    }
    // the asymptotic series (Bernoulli coefficients, as Cephes' psi)
    const A: [f64; 7] = [
        8.333_333_333_333_333e-2,
        -2.109_279_609_279_609_3e-2,
        7.575_757_575_757_576e-3,
        -4.166_666_666_666_667e-3,
        3.968_253_968_253_968_4e-3,
        -8.333_333_333_333_333e-3,
        8.333_333_333_333_333e-2,
    ];
    let y = if x < 1.0e17 {
        let z = 1.0 / (x * x);
        z * A.iter().fold(0.0, |acc, &c| acc * z + c)
    } else {
        0.0
    };
    result + x.ln() - 0.5 / x - y
}


/// ψ'(x), as ATen's `calc_trigamma`: reflection below 1/2, the recurrence up to 6, then the
/// asymptotic series.
pub fn trigamma_f64(mut x: f64) -> f64 {
    let mut sign = 1.0;
    let mut result = 0.0;
    if x < 0.5 {
        sign = -1.0;
        let s = (std::f64::consts::PI * x).sin();
        result -= std::f64::consts::PI * std::f64::consts::PI / (s * s);
        x = 1.0 - x;
    }
    for _ in 0..6 {
        result += 1.0 / (x * x);
        x += 1.0;
    }
    let ixx = 1.0 / (x * x);
    result +=
        (1.0 + 1.0 / (2.0 * x) + ixx * (1.0 / 6.0 - ixx * (1.0 / 30.0 - ixx * (1.0 / 42.0)))) / x;
    sign * result
}

/// libm's `erf` (what torch's CPU kernel calls per element).
fn erf_f64(x: f64) -> f64 {
    // SAFETY: a pure libm function of one double
    unsafe { erf(x) }
}

/// The inverse error function as PyTorch's `calc_erfinv`: a rational first guess (central
/// range and tails) refined by two Newton steps on `erf`.
fn erfinv_f64(y: f64) -> f64 {
    const A: [f64; 4] = [0.886226899, -1.645349621, 0.914624893, -0.140543331];
    const B: [f64; 4] = [-2.118377725, 1.442710462, -0.329097515, 0.012229801];
    const C: [f64; 4] = [-1.970840454, -1.624906493, 3.429567803, 1.641345311];
    const D: [f64; 2] = [3.543889200, 1.637067800];
    let ya = y.abs();
    if ya > 1.0 || y.is_nan() {
        return f64::NAN;
    }
    if ya == 1.0 {
        return f64::INFINITY.copysign(y);
    }
    let mut x = if ya <= 0.7 {
        let z = y * y;
        let num = ((A[3] * z + A[2]) * z + A[1]) * z + A[0];
        let dem = (((B[3] * z + B[2]) * z + B[1]) * z + B[0]) * z + 1.0;
        y * num / dem
    } else {
        let z = (-((1.0 - ya) / 2.0).ln()).sqrt();
        let num = ((C[3] * z + C[2]) * z + C[1]) * z + C[0];
        let dem = (D[1] * z + D[0]) * z + 1.0;
        num.copysign(y) / dem
    };
    for _ in 0..2 {
        x -= (erf_f64(x) - y) / (std::f64::consts::FRAC_2_SQRT_PI * (-x * x).exp());
    }
    x
}

fn float_map<T: StorageElem + Float>(s: &CpuStorage, l: &Layout, op: UnaryOp) -> Result<Vec<T>> {
    let mut out = super::alloc::take::<T>(l.numel())?;
    float_map_into(&mut out, s, l, op);
    Ok(out)
}

/// Where a float op's elementwise closure runs: into a contiguous destination from a
/// storage walk (`Walk`), or over a contiguous range in place (`InPlace`). `float_map_with`
/// names each op's closure once for both.
trait FloatMapper<T> {
    fn apply(self, f: impl Fn(T) -> T + Sync);
}

/// `dst[i] = f(x[i])` over the layout `l` of `s` (`float_map` and `out=`).
struct Walk<'a, T> {
    dst: &'a mut [T],
    s: &'a CpuStorage,
    l: &'a Layout,
}

impl<T: StorageElem> FloatMapper<T> for Walk<'_, T> {
    fn apply(self, f: impl Fn(T) -> T + Sync) {
        map1_into(self.dst, self.s, self.l, f)
    }
}

/// `x[i] = f(x[i])` where the elements lie (the in-place ops without history): one pass, in
/// chunks on the team when large.
struct InPlace<'a, T>(&'a mut [T]);

impl<T: Copy + Default + Send> FloatMapper<T> for InPlace<'_, T> {
    fn apply(self, f: impl Fn(T) -> T + Sync) {
        par_update(self.0, |c| super::math::update_tiered(c, None, T::default(), &|v, _| f(v)))
    }
}

/// `dst[i] = op(x[i])` over a layout into a contiguous destination (`float_map` and `out=`).
fn float_map_into<T: StorageElem + Float>(dst: &mut [T], s: &CpuStorage, l: &Layout, op: UnaryOp) {
    float_map_with(op, Walk { dst, s, l })
}

/// The float op `op`'s elementwise closure, applied by `m`.
fn float_map_with<T: StorageElem + Float>(op: UnaryOp, m: impl FloatMapper<T>) {
    use UnaryOp::*;
    let two = T::from_f64(2.0);
    let half = T::from_f64(0.5);
    match op {
        Exp => m.apply(|v: T| v.exp()),
        Log => m.apply(|v: T| v.ln()),
        Sqrt => m.apply(|v: T| v.sqrt()),
        Rsqrt => m.apply(|v: T| v.sqrt().recip()),
        Sin => m.apply(|v: T| v.sin()),
        Cos => m.apply(|v: T| v.cos()),
        Tan => m.apply(|v: T| v.tan()),
        Tanh => m.apply(|v: T| v.tanh()),
        Sigmoid => m.apply(|v: T| T::one() / (T::one() + (-v).exp())),
        Reciprocal => m.apply(|v: T| v.recip()),
        Floor => m.apply(|v: T| v.floor()),
        Ceil => m.apply(|v: T| v.ceil()),
        Trunc => m.apply(|v: T| v.trunc()),
        // round half to even, like torch
        Round => m.apply(move |v: T| if (v - v.trunc()).abs() == half { (v / two).round() * two } else { v.round() }),
        Log1p => m.apply(|v: T| v.ln_1p()),
        Expm1 => m.apply(|v: T| v.exp_m1()),
        Log2 => m.apply(|v: T| v.log2()),
        Log10 => m.apply(|v: T| v.log10()),
        Atan => m.apply(|v: T| v.atan()),
        Asin => m.apply(|v: T| v.asin()),
        Acos => m.apply(|v: T| v.acos()),
        Sinh => m.apply(|v: T| v.sinh()),
        Cosh => m.apply(|v: T| v.cosh()),
        Erf => m.apply(|v: T| T::from_f64(erf_f64(Elem::to_f64(v)))),
        Erfinv => m.apply(|v: T| T::from_f64(erfinv_f64(Elem::to_f64(v)))),
        // SAFETY: a pure libm function of one double
        Erfc => m.apply(|v: T| T::from_f64(unsafe { erfc(Elem::to_f64(v)) })),
        // float64 (and a strided float32 walk): the formulas in double with libm's erf / tanh
        Gelu => m.apply(|v: T| T::from_f64(gelu_f64(Elem::to_f64(v)))),
        GeluTanh => m.apply(|v: T| T::from_f64(gelu_tanh_f64(Elem::to_f64(v)))),
        Silu => m.apply(|v: T| { let x = Elem::to_f64(v); T::from_f64(x / (1.0 + (-x).exp())) }),
        // in the element type, as torch (sinc of an integer n is a rounding error, not 0)
        Sinc => m.apply(|v: T| if v == T::zero() { T::one() } else { let p = T::from_f64(std::f64::consts::PI) * v; p.sin() / p }),
        Exp2 => m.apply(|v: T| v.exp2()),
        Asinh => m.apply(|v: T| v.asinh()),
        Acosh => m.apply(|v: T| v.acosh()),
        Atanh => m.apply(|v: T| v.atanh()),
        Lgamma => m.apply(|v: T| T::from_f64(lgamma_f64(Elem::to_f64(v)))),
        // ATen's float kernel serves float32, float16 and bfloat16 (rounded from float)
        Digamma if T::DTYPE == DType::Float64 => m.apply(|v: T| T::from_f64(digamma_f64(Elem::to_f64(v)))),
        Digamma => m.apply(|v: T| T::from_f64(super::math::digamma_f32(Elem::to_f64(v) as f32) as f64)),
        Trigamma => m.apply(|v: T| T::from_f64(trigamma_f64(Elem::to_f64(v)))),
        Square => m.apply(|v: T| v * v),
        Softplus(beta, threshold) => {
            let (beta, threshold) = (T::from_f64(beta), T::from_f64(threshold));
            m.apply(move |v: T| {
                let xb = v * beta;
                if xb > threshold { v } else { xb.exp().ln_1p() / beta }
            })
        }
        Elu(neg, pos, is) => {
            let (neg, pos, is) = (T::from_f64(neg), T::from_f64(pos), T::from_f64(is));
            m.apply(move |v: T| if v > T::zero() { v * pos } else { (v * is).exp_m1() * neg })
        }
        LeakyRelu(a) => {
            let a = T::from_f64(a);
            m.apply(move |v: T| if v > T::zero() { v } else { v * a })
        }
        // the factor is built inside the closure (a choice between two captured values
        // compiles to a gather: see `Sign`)
        LeakyReluSlope(a) => m.apply(move |v: T| if v > T::zero() { T::one() } else { T::from_f64(a) }),
        // min(max(x + 3, 0), 6) with NaN kept (a NaN fails both comparisons), then ATen's order
        Hardswish => m.apply(|v: T| v * relu6_shifted(v) / T::from_f64(6.0)),
        Hardsigmoid => m.apply(|v: T| relu6_shifted(v) / T::from_f64(6.0)),
        PowScalar(p) if p == 2.0 => m.apply(|v: T| v * v),
        // ATen's float and double kernels multiply for 3 and -2 (two roundings, not pow's one)
        PowScalar(p) if p == 3.0 => m.apply(|v: T| v * v * v),
        PowScalar(p) if p == -2.0 => m.apply(|v: T| T::one() / (v * v)),
        PowScalar(p) => {
            let p = T::from_f64(p);
            m.apply(move |v: T| v.powf(p))
        }
        _ => unreachable!("invariant: float op"),
    }
}

/// `min(max(x + 3, 0), 6)`, NaN kept (hardswish and hardsigmoid's inner clamp).
#[inline(always)]
fn relu6_shifted<T: StorageElem + Float>(v: T) -> T {
    let t = v + T::from_f64(3.0);
    let t = if t < T::zero() { T::zero() } else { t };
    if t > T::from_f64(6.0) { T::from_f64(6.0) } else { t }
}

fn num_map<T: StorageElem + Negate>(s: &CpuStorage, l: &Layout, op: UnaryOp) -> Result<Vec<T>> {
    use UnaryOp::*;
    let zero = T::default();
    match op {
        Neg => map1(s, l, |v: T| v.negate()),
        // NaN passes through relu, as in torch (`v != v` only for NaN)
        #[allow(clippy::eq_op)]
        Relu => map1(s, l, move |v: T| if v > zero || v != v { v } else { zero }),
        Abs => map1(s, l, move |v: T| v.magnitude()),
        // the results are built inside the closure: a choice between two captured values is
        // compiled to a load indexed by the comparison, which vectorises into a gather (the
        // float32 clamp mask ran 4x slower than the clamp itself)
        Sign => map1(s, l, |v: T| {
            let (zero, one) = (T::default(), T::from_f64(1.0));
            if v > zero { one } else if v < zero { one.negate() } else { zero }
        }),
        PowInt(e) => map1(s, l, move |v: T| T::from_i64(v.to_i64().wrapping_pow(e))),
        // one specialised loop per bound combination (NaN passes through, like torch)
        Clamp(Some(lo), Some(hi)) => {
            // min(max(v, lo), hi), as torch: with lo > hi every element becomes hi
            let (lo, hi) = (T::from_f64(lo), T::from_f64(hi));
            map1(s, l, move |v: T| { let v = if v < lo { lo } else { v }; if v > hi { hi } else { v } })
        }
        Clamp(Some(lo), None) => {
            let lo = T::from_f64(lo);
            map1(s, l, move |v: T| if v < lo { lo } else { v })
        }
        Clamp(None, Some(hi)) => {
            let hi = T::from_f64(hi);
            map1(s, l, move |v: T| if v > hi { hi } else { v })
        }
        ClampMask(Some(lo), Some(hi)) => {
            let (lo, hi) = (T::from_f64(lo), T::from_f64(hi));
            map1(s, l, move |v: T| if v >= lo && v <= hi { T::from_f64(1.0) } else { T::default() })
        }
        ClampMask(Some(lo), None) => {
            let lo = T::from_f64(lo);
            map1(s, l, move |v: T| if v >= lo { T::from_f64(1.0) } else { T::default() })
        }
        ClampMask(None, Some(hi)) => {
            let hi = T::from_f64(hi);
            map1(s, l, move |v: T| if v <= hi { T::from_f64(1.0) } else { T::default() })
        }
        Clamp(None, None) | ClampMask(None, None) => map1(s, l, |v: T| v),
        _ => unreachable!("invariant: numeric op"),
    }
}

/// `gelu(x) = x/2 (1 + erf(x/√2))` in double (ATen's double kernel: Sleef's erf, to an ulp).
fn gelu_f64(x: f64) -> f64 {
    x * 0.5 * (1.0 + erf_f64(x * std::f64::consts::FRAC_1_SQRT_2))
}

/// The tanh approximation `x/2 (1 + tanh(√(2/π) (x + 0.044715 x³)))` in double.
fn gelu_tanh_f64(x: f64) -> f64 {
    let beta = std::f64::consts::SQRT_2 * std::f64::consts::FRAC_2_SQRT_PI * 0.5;
    0.5 * x * (1.0 + (beta * (x + 0.044715 * (x * x * x))).tanh())
}

/// gelu'(x) = Φ(x) + x φ(x).
fn gelu_grad_f64(x: f64) -> f64 {
    let beta = std::f64::consts::FRAC_2_SQRT_PI * std::f64::consts::FRAC_1_SQRT_2 * 0.5;
    0.5 * (1.0 + erf_f64(x * std::f64::consts::FRAC_1_SQRT_2)) + x * (beta * (x * x * -0.5).exp())
}

/// silu'(x) = σ (1 + x (1 - σ)).
fn silu_grad_f64(x: f64) -> f64 {
    let s = 1.0 / (1.0 + (-x).exp());
    s * (1.0 + x * (1.0 - s))
}

/// The tanh approximation's derivative: ½(1 + th) + ½x (1 - th²) √(2/π)(1 + 3κx²).
fn gelu_tanh_grad_f64(x: f64) -> f64 {
    let (beta, kappa) = (std::f64::consts::SQRT_2 * std::f64::consts::FRAC_2_SQRT_PI * 0.5, 0.044715);
    let th = (beta * (x + kappa * (x * x * x))).tanh();
    0.5 * (1.0 + th) + 0.5 * x * (1.0 - th * th) * (beta * (1.0 + 3.0 * kappa * x * x))
}

/// The float32 kernel `k` over a contiguous float16/bfloat16 slice: each 1024 elements
/// widened into a buffer that stays in L1, the kernel, rounded back once (ATen's order) -
/// one pass over memory where widening, computing and rounding as three whole-tensor passes
/// took 1.7x PyTorch's time.
fn half_via_f32<H: StorageElem>(src: &[H], k: fn(&[f32], &mut [f32])) -> Result<Vec<H>> {
    const CHUNK: usize = 1024;
    let mut out = super::alloc::take::<H>(src.len())?;
    par_zip1(&mut out, src, |o, x| {
        // the two buffers 4 KiB + 192 bytes apart: exactly 4 KiB apart, every load of the
        // kernel would wait on the store to the same offset of the other (4K aliasing)
        let mut buf = [0f32; 2 * CHUNK + 48];
        let (a, b) = buf.split_at_mut(CHUNK + 48);
        for (oc, xc) in o.chunks_mut(CHUNK).zip(x.chunks(CHUNK)) {
            let n = xc.len();
            let widened = super::half_cast(xc, &mut a[..n]);
            k(&a[..n], &mut b[..n]);
            let rounded = super::half_cast(&b[..n], oc);
            debug_assert!(widened && rounded, "half_via_f32: a float16/bfloat16 slice");
        }
    });
    Ok(out)
}

/// `op(x)` into a fresh contiguous buffer.
pub fn unary(s: &CpuStorage, l: &Layout, op: UnaryOp) -> Result<CpuStorage> {
    let dt = s.dtype();
    Ok(match op.kind() {
        UnaryKind::Float => {
            if !dt.is_float() {
                return Err(unsupported(op.name(), dt));
            }
            if let (DType::BFloat16, UnaryOp::PowScalar(p)) = (dt, op) {
                // ATen's bfloat16 `pow` rounds the exponent to bfloat16 first; with 3 or -2
                // (after that rounding) it multiplies in the element type (a rounding after
                // each step), else it calls pow in float
                let p = half::bf16::from_f64(p);
                let r = if p.to_f32() == 3.0 {
                    map1(s, l, |v: half::bf16| v * v * v)?
                } else if p.to_f32() == -2.0 {
                    map1(s, l, |v: half::bf16| half::bf16::ONE / (v * v))?
                } else {
                    let p = p.to_f32();
                    map1(s, l, move |v: half::bf16| half::bf16::from_f32(v.to_f32().powf(p)))?
                };
                return Ok(half::bf16::wrap(r));
            }
            if let (DType::Float16, UnaryOp::PowScalar(p)) = (dt, op) {
                // ATen's float16 pow rounds the exponent to float16 and calls pow in float for
                // every exponent (no products for 2, 3 or -2)
                let p = half::f16::from_f64(p).to_f32();
                return Ok(half::f16::wrap(map1(s, l, move |v: half::f16| half::f16::from_f32(v.to_f32().powf(p)))?));
            }
            if dt.is_half() {
                // ATen's kernels compute a half element in float and round once (a formula
                // in the element type would round after each step: 1-2 ulp apart)
                if let (Some(k), Some(r)) = (f32_kernel(op), l.contiguous_range()) {
                    return Ok(match dt {
                        DType::BFloat16 => half::bf16::wrap(half_via_f32(&half::bf16::get(s)[r], k)?),
                        _ => half::f16::wrap(half_via_f32(&half::f16::get(s)[r], k)?),
                    });
                }
                let wide = super::contiguous_cast(s, l, DType::Float32)?;
                let r = unary(&wide, &Layout::contiguous(&l.shape), op)?;
                return super::contiguous_cast(&r, &Layout::contiguous(&l.shape), dt);
            }
            if dt == DType::Float32 {
                if let Some(p) = pow_exponent_f32(op) {
                    let gathered;
                    let src = match l.contiguous_range() {
                        Some(r) => &f32::get(s)[r],
                        None => {
                            gathered = super::contiguous_cast(s, l, DType::Float32)?;
                            f32::get(&gathered)
                        }
                    };
                    let mut out = super::alloc::take::<f32>(src.len())?;
                    par_zip1(&mut out, src, |o, x| super::math::pow_f32_slice(x, p, o));
                    return Ok(f32::wrap(out));
                }
                if let Some(k) = f32_vector(op) {
                    if let Some(r) = l.contiguous_range() {
                        let src = &f32::get(s)[r];
                        let mut out = super::alloc::take::<f32>(src.len())?;
                        par_zip1(&mut out, src, |o, x| k(x, o));
                        return Ok(f32::wrap(out));
                    }
                    // a strided view (a gate chunk, a transpose): gathered into a contiguous
                    // buffer first, then the vector kernel (the scalar walk is ~20x slower)
                    let gathered = super::contiguous_cast(s, l, DType::Float32)?;
                    let src = f32::get(&gathered);
                    let mut out = super::alloc::take::<f32>(src.len())?;
                    par_zip1(&mut out, src, |o, x| k(x, o));
                    return Ok(f32::wrap(out));
                }
            }
            float_types!(dt, T => T::wrap(float_map::<T>(s, l, op)?))
        }
        UnaryKind::Numeric => {
            if dt == DType::Bool {
                return Err(unsupported(op.name(), dt));
            }
            num_types!(dt, T => T::wrap(num_map::<T>(s, l, op)?))
        }
        UnaryKind::Bool => {
            if dt != DType::Bool {
                return Err(unsupported(op.name(), dt));
            }
            bool::wrap(map1::<bool, bool>(s, l, |v| !v)?)
        }
        UnaryKind::FloatTest => {
            if !dt.is_float() {
                return Err(unsupported(op.name(), dt));
            }
            float_types!(dt, T => bool::wrap(match op {
                UnaryOp::IsNan => map1::<T, bool>(s, l, |v: T| v.is_nan())?,
                UnaryOp::IsInf => map1::<T, bool>(s, l, |v: T| v.is_infinite())?,
                _ => map1::<T, bool>(s, l, |v: T| v.is_finite())?,
            }))
        }
    })
}

/// C's `nextafter(x, y)` in f32 (`single`) or f64: the neighbour of `x` towards `y`.
fn next_after(x: f64, y: f64, single: bool) -> f64 {
    if x.is_nan() || y.is_nan() {
        return f64::NAN;
    }
    if x == y {
        return y;
    }
    if single {
        let xf = x as f32;
        let next = if xf == 0.0 { f32::from_bits(1).copysign(y as f32) } else {
            let up = (y > x) == (xf > 0.0);
            f32::from_bits(if up { xf.to_bits() + 1 } else { xf.to_bits() - 1 })
        };
        return next as f64;
    }
    if x == 0.0 {
        return f64::from_bits(1).copysign(y);
    }
    let up = (y > x) == (x > 0.0);
    f64::from_bits(if up { x.to_bits() + 1 } else { x.to_bits() - 1 })
}

/// `dst = op(x)` into a contiguous float32 range of `dst` (for `out=`): the vector kernel
/// where there is one, else the op's elementwise closure; false unless both are float32 and
/// the op is a float op.
pub fn unary_into_f32(dst: &mut CpuStorage, rd: std::ops::Range<usize>, x: &CpuStorage, rx: std::ops::Range<usize>, op: UnaryOp) -> bool {
    if dst.dtype() != DType::Float32 || x.dtype() != DType::Float32 || op.kind() != UnaryKind::Float {
        return false;
    }
    if let Some(p) = pow_exponent_f32(op) {
        par_zip1(&mut f32::get_mut(dst)[rd], &f32::get(x)[rx], |o, x| super::math::pow_f32_slice(x, p, o));
        return true;
    }
    let Some(k) = f32_vector(op) else {
        // the other float ops: their elementwise closure, written straight into `dst`
        let mut l = Layout::contiguous(&[rx.len()]);
        l.offset = rx.start;
        float_map_into::<f32>(&mut f32::get_mut(dst)[rd], x, &l, op);
        return true;
    };
    par_zip1(&mut f32::get_mut(dst)[rd], &f32::get(x)[rx], |o, x| k(x, o));
    true
}

/// `x = op(x)` in place over a contiguous float32 / float64 range of `s` (the in-place unary
/// ops when no history is recorded): one pass over memory instead of a new tensor and a copy
/// back. The cheap numeric ops (neg, relu, abs, clamp) update each element where it lies;
/// the others go a cache-sized block at a time through a buffer (the float32 vector kernels
/// read the buffer and write the block). False where the op changes the dtype.
pub fn unary_inplace(s: &mut CpuStorage, r: std::ops::Range<usize>, op: UnaryOp) -> Result<bool> {
    if !matches!(op.kind(), UnaryKind::Float | UnaryKind::Numeric) {
        return Ok(false);
    }
    match s.dtype() {
        DType::Float32 => {
            let x = &mut f32::get_mut(s)[r];
            // the vector kernels (as `unary`'s, so the same bits) read a copy of each block
            fn through_buffer(x: &mut [f32], k: &(dyn Fn(&[f32], &mut [f32]) + Sync)) {
                par_update(x, |c| {
                    let mut buf = [0f32; 1024];
                    for block in c.chunks_mut(buf.len()) {
                        let b = &mut buf[..block.len()];
                        b.copy_from_slice(block);
                        k(b, block);
                    }
                })
            }
            if let Some(p) = pow_exponent_f32(op) {
                through_buffer(x, &|b, o| super::math::pow_f32_slice(b, p, o));
                return Ok(true);
            }
            if let Some(k) = f32_vector(op) {
                through_buffer(x, &k);
                return Ok(true);
            }
            inplace_typed(x, op)
        }
        DType::Float64 => inplace_typed(&mut f64::get_mut(s)[r], op),
        _ => Ok(false),
    }
}

/// `f(chunk)` over `x`, in chunks on the team when `x` is large.
fn par_update<T: Send>(x: &mut [T], f: impl Fn(&mut [T]) + Sync) {
    if super::parallel(x.len()) {
        super::team_chunks(x, |_, c| f(c));
    } else {
        f(x);
    }
}

fn inplace_typed<T: StorageElem + Float + Negate + super::alloc::Cached + Send + Sync>(x: &mut [T], op: UnaryOp) -> Result<bool> {
    use UnaryOp::*;
    let zero = T::default();
    macro_rules! each {
        ($f:expr) => {{
            let f = $f;
            par_update(x, |c| super::math::update_tiered(c, None, zero, &|v, _| f(v)));
            return Ok(true);
        }};
    }
    match op {
        Neg => each!(|v: T| v.negate()),
        // NaN passes through relu (as `num_map`)
        #[allow(clippy::eq_op)]
        Relu => each!(move |v: T| if v > zero || v != v { v } else { zero }),
        Abs => each!(|v: T| v.magnitude()),
        Clamp(Some(lo), Some(hi)) => {
            let (lo, hi) = (<T as Elem>::from_f64(lo), <T as Elem>::from_f64(hi));
            each!(move |v: T| { let v = if v < lo { lo } else { v }; if v > hi { hi } else { v } })
        }
        Clamp(Some(lo), None) => {
            let lo = <T as Elem>::from_f64(lo);
            each!(move |v: T| if v < lo { lo } else { v })
        }
        Clamp(None, Some(hi)) => {
            let hi = <T as Elem>::from_f64(hi);
            each!(move |v: T| if v > hi { hi } else { v })
        }
        _ => {}
    }
    // the other float ops: their elementwise closure where the elements lie
    if op.kind() == UnaryKind::Float {
        float_map_with(op, InPlace(x));
        return Ok(true);
    }
    // any other op: a block at a time through a buffer and the out-of-place kernel
    let failed = parking_lot::Mutex::new(None);
    par_update(x, |c| {
        for block in c.chunks_mut(2048) {
            let mut run = || -> Result<()> {
                let mut tmp = super::alloc::take::<T>(block.len())?;
                tmp.copy_from_slice(block);
                let out = unary(&T::wrap(tmp), &Layout::contiguous(&[block.len()]), op)?;
                block.copy_from_slice(&T::get(&out)[..block.len()]);
                Ok(())
            };
            if let Err(e) = run() {
                *failed.lock() = Some(e);
                return;
            }
        }
    });
    match failed.into_inner() {
        Some(e) => Err(e),
        None => Ok(true),
    }
}

/// torch's `div_floor_floating`: the quotient of `a - fmod(a, b)` (exact where `floor(a / b)`
/// rounds across an integer), signed zero kept.
fn div_floor_float<T: Float>(a: T, b: T) -> T {
    if b == T::zero() {
        return a / b;
    }
    let m = a % b;
    let mut div = (a - m) / b;
    if m != T::zero() && (b < T::zero()) != (m < T::zero()) {
        div = div - T::one();
    }
    if div != T::zero() {
        let mut f = div.floor();
        if div - f > T::from(0.5).expect("0.5") {
            f = f + T::one();
        }
        f
    } else {
        T::zero().copysign(a / b)
    }
}

/// float32 `fmod` (or, with `rem`, `remainder`): the vector kernel where `a` is contiguous and
/// `b` is too or is one broadcast value, else the elementwise closure (libm's `fmodf`).
fn fmod_f32(sa: &CpuStorage, la: &Layout, sb: &CpuStorage, lb: &Layout, rem: bool) -> Result<Vec<f32>> {
    let (xa, xb) = (f32::get(sa), f32::get(sb));
    if let Some(ra) = la.contiguous_range() {
        let x = &xa[ra];
        let mut out = super::alloc::take::<f32>(x.len())?;
        if x.is_empty() {
            return Ok(out);
        }
        if let Some(rb) = lb.contiguous_range() {
            super::par_zip2(&mut out, x, &xb[rb], |o, x, y| super::math::fmod_f32_slice(x, y, o, rem));
            return Ok(out);
        }
        if lb.strides.iter().all(|&s| s == 0) {
            let y = xb[lb.offset];
            par_zip1(&mut out, x, |o, x| super::math::fmod_f32_scalar(x, y, o, rem));
            return Ok(out);
        }
    }
    map2::<f32, f32>(sa, la, sb, lb, move |x, y| if rem { super::math::remainder_from_fmod(x % y, y) } else { x % y })
}

fn int_div_check<T: StorageElem>(b: &CpuStorage, lb: &Layout) -> Result<()> {
    let x = T::get(b);
    let mut zero = false;
    walk1(lb, |o| zero |= x[o].to_i64() == 0);
    if zero {
        bail!(Runtime, "ZeroDivisionError");
    }
    Ok(())
}


/// clamp's backward `lo <= x && x <= hi ? g : 0` (a NaN input passes nothing), the bounds
/// read in the tensors' dtype as torch's `self >= min` compares them; g and x of one float
/// dtype over layouts of one shape.
pub fn clamp_backward(sg: &CpuStorage, lg: &Layout, sx: &CpuStorage, lx: &Layout, lo: f64, hi: f64) -> Result<CpuStorage> {
    let ct = sg.dtype();
    if sx.dtype() != ct || !ct.is_float() {
        bail!(Runtime, "invariant: clamp_backward of one float dtype");
    }
    Ok(float_types!(ct, T => {
        let (lo, hi) = (T::from_f64(lo), T::from_f64(hi));
        T::wrap(map2::<T, T>(sg, lg, sx, lx, move |g, x| if x >= lo && x <= hi { g } else { T::zero() })?)
    }))
}

/// `a op b` over two layouts of the result's shape; both operands of one dtype.
pub fn binary(sa: &CpuStorage, la: &Layout, sb: &CpuStorage, lb: &Layout, op: BinaryOp) -> Result<CpuStorage> {
    let ct = sa.dtype();
    if sb.dtype() != ct {
        bail!(Runtime, "invariant: binary operands of one dtype ({} vs {})", ct.name(), sb.dtype().name());
    }
    Ok(match op {
        BinaryOp::Eq => all_types!(ct, T => bool::wrap(map2::<T, bool>(sa, la, sb, lb, |x, y| x == y)?)),
        BinaryOp::Ne => all_types!(ct, T => bool::wrap(map2::<T, bool>(sa, la, sb, lb, |x, y| x != y)?)),
        BinaryOp::Lt => all_types!(ct, T => bool::wrap(map2::<T, bool>(sa, la, sb, lb, |x, y| x < y)?)),
        BinaryOp::Le => all_types!(ct, T => bool::wrap(map2::<T, bool>(sa, la, sb, lb, |x, y| x <= y)?)),
        BinaryOp::Gt => all_types!(ct, T => bool::wrap(map2::<T, bool>(sa, la, sb, lb, |x, y| x > y)?)),
        BinaryOp::Ge => all_types!(ct, T => bool::wrap(map2::<T, bool>(sa, la, sb, lb, |x, y| x >= y)?)),
        BinaryOp::And | BinaryOp::Or | BinaryOp::Xor => match ct {
            DType::Bool => bool::wrap(match op {
                BinaryOp::And => map2::<bool, bool>(sa, la, sb, lb, |x, y| x & y)?,
                BinaryOp::Or => map2::<bool, bool>(sa, la, sb, lb, |x, y| x | y)?,
                _ => map2::<bool, bool>(sa, la, sb, lb, |x, y| x ^ y)?,
            }),
            _ if ct.category() == crate::dtype::Category::Integral => {
                let f = |x: i64, y: i64| match op { BinaryOp::And => x & y, BinaryOp::Or => x | y, _ => x ^ y };
                int_types!(ct, T => T::wrap(map2::<T, T>(sa, la, sb, lb, |x, y| T::from_i64(f(x.to_i64(), y.to_i64())))?))
            }
            _ => bail!(NotImplemented, "\"{}_cpu\" not implemented for '{}'", op.name(), ct.scalar_name()),
        },
        // torch's threshold_backward: zero where r <= 0, so a NaN result passes its gradient
        BinaryOp::ReluBackward => float_types!(ct, T => T::wrap(map2::<T, T>(sa, la, sb, lb, |g, r| if r <= T::zero() { T::zero() } else { g })?)),
        BinaryOp::SquaredDiff => float_types!(ct, T => T::wrap(map2::<T, T>(sa, la, sb, lb, |a, b| (a - b) * (a - b))?)),
        BinaryOp::TanhBackward => float_types!(ct, T => T::wrap(map2::<T, T>(sa, la, sb, lb, |g, r| g * (T::one() - r * r))?)),
        BinaryOp::SigmoidBackward => float_types!(ct, T => T::wrap(map2::<T, T>(sa, la, sb, lb, |g, r| g * (T::one() - r) * r)?)),
        BinaryOp::GeluBackward | BinaryOp::GeluTanhBackward | BinaryOp::SiluBackward => {
            let tanh = op == BinaryOp::GeluTanhBackward;
            if ct == DType::Float32 {
                if let (Some(ra), Some(rb)) = (la.contiguous_range(), lb.contiguous_range()) {
                    let (g, x) = (&f32::get(sa)[ra], &f32::get(sb)[rb]);
                    let mut out = super::alloc::take::<f32>(g.len())?;
                    let k = |o: &mut [f32], g: &[f32], x: &[f32]| match op {
                        BinaryOp::SiluBackward => super::math::silu_backward_f32(g, x, o),
                        _ => super::math::gelu_backward_f32(g, x, o, tanh),
                    };
                    if super::parallel(out.len()) {
                        super::team_chunks(&mut out, |i, o| k(o, super::chunk_of(g, i, o.len()), super::chunk_of(x, i, o.len())));
                    } else {
                        k(&mut out, g, x);
                    }
                    return Ok(f32::wrap(out));
                }
                let (g, x) = (super::contiguous_cast(sa, la, ct)?, super::contiguous_cast(sb, lb, ct)?);
                let c = Layout::contiguous(&la.shape);
                return binary(&g, &c, &x, &c, op);
            }
            let d = match op {
                BinaryOp::SiluBackward => silu_grad_f64,
                _ if tanh => gelu_tanh_grad_f64,
                _ => gelu_grad_f64,
            };
            float_types!(ct, T => T::wrap(map2::<T, T>(sa, la, sb, lb, |g, x| T::from_f64(Elem::to_f64(g) * d(Elem::to_f64(x))))?))
        }
        _ if ct == DType::Bool => match op {
            BinaryOp::Add | BinaryOp::Maximum => bool::wrap(map2::<bool, bool>(sa, la, sb, lb, |x, y| x | y)?),
            BinaryOp::Mul | BinaryOp::Minimum => bool::wrap(map2::<bool, bool>(sa, la, sb, lb, |x, y| x & y)?),
            BinaryOp::Sub => bail!(Runtime, "Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or `logical_xor()` operator instead."),
            _ => bail!(NotImplemented, "\"{}\" not implemented for 'Bool'", match op {
                BinaryOp::Pow => "pow",
                BinaryOp::Rem => "remainder_cpu",
                BinaryOp::FloorDiv => "div_floor_cpu",
                BinaryOp::Fmod => "fmod_cpu",
                o => o.name(),
            }),
        },
        BinaryOp::Add => num_types!(ct, T => T::wrap(map2::<T, T>(sa, la, sb, lb, |x, y| x + y)?)),
        BinaryOp::Sub => num_types!(ct, T => T::wrap(map2::<T, T>(sa, la, sb, lb, |x, y| x - y)?)),
        BinaryOp::Mul => num_types!(ct, T => T::wrap(map2::<T, T>(sa, la, sb, lb, |x, y| x * y)?)),
        BinaryOp::Maximum => num_types!(ct, T => T::wrap(map2::<T, T>(sa, la, sb, lb, |x, y| if x >= y || x != x { x } else { y })?)),
        BinaryOp::Minimum => num_types!(ct, T => T::wrap(map2::<T, T>(sa, la, sb, lb, |x, y| if x <= y || x != x { x } else { y })?)),
        BinaryOp::Div => {
            if !ct.is_float() {
                return Err(unsupported("div", ct));
            }
            float_types!(ct, T => T::wrap(map2::<T, T>(sa, la, sb, lb, |x, y| x / y)?))
        }
        BinaryOp::Pow => match ct {
            _ if ct.category() == crate::dtype::Category::Integral => {
                // torch's integer pow: a negative exponent gives 0, except for bases 1 and -1
                let f = |x: i64, y: i64| {
                    if y < 0 {
                        match x { 1 => 1, -1 => if y % 2 == 0 { 1 } else { -1 }, _ => 0 }
                    } else {
                        x.wrapping_pow(y.min(u32::MAX as i64) as u32)
                    }
                };
                int_types!(ct, T => T::wrap(map2::<T, T>(sa, la, sb, lb, |x, y| T::from_i64(f(x.to_i64(), y.to_i64())))?))
            }
            _ => float_types!(ct, T => T::wrap(map2::<T, T>(sa, la, sb, lb, |x, y| x.powf(y))?)),
        },
        BinaryOp::Atan2 => {
            if !ct.is_float() {
                return Err(unsupported("atan2", ct));
            }
            if ct == DType::Float32 {
                // the vectorised kernel (libm's atan2f is one element at a time, ~20x slower)
                return Ok(f32::wrap(if super::math::has_avx2_fma() {
                    map2::<f32, f32>(sa, la, sb, lb, super::math::atan2_f32::<true>)?
                } else {
                    map2::<f32, f32>(sa, la, sb, lb, super::math::atan2_f32::<false>)?
                }));
            }
            float_types!(ct, T => T::wrap(map2::<T, T>(sa, la, sb, lb, |y, x| y.atan2(x))?))
        }
        BinaryOp::Hypot | BinaryOp::LogAddExp | BinaryOp::LogAddExp2 | BinaryOp::Copysign | BinaryOp::NextAfter => {
            if !ct.is_float() || (op == BinaryOp::NextAfter && !matches!(ct, DType::Float32 | DType::Float64)) {
                bail!(NotImplemented, "\"{}_cpu\" not implemented for '{}'", op.name(), ct.scalar_name());
            }
            match op {
                // float32: glibc's hypotf, `sqrt((double)x² + (double)y²)` with infinities
                // first, written so that it vectorises (libm's is one element at a time)
                BinaryOp::Hypot if ct == DType::Float32 => f32::wrap(map2::<f32, f32>(sa, la, sb, lb, |x, y| {
                    let (dx, dy) = (x as f64, y as f64);
                    let r = (dx * dx + dy * dy).sqrt() as f32;
                    if x.is_infinite() | y.is_infinite() { f32::INFINITY } else { r }
                })?),
                BinaryOp::Hypot => float_types!(ct, T => T::wrap(map2::<T, T>(sa, la, sb, lb, |x, y| x.hypot(y))?)),
                // torch's: equal infinities give themselves (inf - inf would be NaN)
                BinaryOp::LogAddExp => float_types!(ct, T => T::wrap(map2::<T, T>(sa, la, sb, lb, |x, y| {
                    if x.is_infinite() && x == y { x } else { x.max(y) + (-(x - y).abs()).exp().ln_1p() }
                })?)),
                BinaryOp::LogAddExp2 => float_types!(ct, T => T::wrap(map2::<T, T>(sa, la, sb, lb, |x, y| {
                    if x.is_infinite() && x == y { x } else { x.max(y) + (-(x - y).abs()).exp2().ln_1p() * T::from_f64(std::f64::consts::LOG2_E) }
                })?)),
                BinaryOp::Copysign => float_types!(ct, T => T::wrap(map2::<T, T>(sa, la, sb, lb, |x, y| x.copysign(y))?)),
                _ => match ct {
                    DType::Float32 => f32::wrap(map2::<f32, f32>(sa, la, sb, lb, |x, y| next_after(x as f64, y as f64, true) as f32)?),
                    _ => f64::wrap(map2::<f64, f64>(sa, la, sb, lb, |x, y| next_after(x, y, false))?),
                },
            }
        }
        // torch's: `b` where `a` is 0, else `a > 0` (so NaN gives 0)
        BinaryOp::Heaviside => all_types!(ct, T => T::wrap(map2::<T, T>(sa, la, sb, lb, |x, y| {
            if x == T::default() { y } else if x > T::default() { T::from_f64(1.0) } else { T::default() }
        })?)),
        BinaryOp::Fmod => match ct {
            DType::Bool => bail!(NotImplemented, "\"fmod_cpu\" not implemented for 'Bool'"),
            _ if ct.category() == crate::dtype::Category::Integral => {
                int_types!(ct, T => int_div_check::<T>(sb, lb)?);
                int_types!(ct, T => T::wrap(map2::<T, T>(sa, la, sb, lb, |x, y| T::from_i64(x.to_i64().wrapping_rem(y.to_i64())))?))
            }
            DType::Float32 => f32::wrap(fmod_f32(sa, la, sb, lb, false)?),
            _ => float_types!(ct, T => T::wrap(map2::<T, T>(sa, la, sb, lb, |x, y| x % y)?)),
        },
        BinaryOp::FloorDiv | BinaryOp::Rem => match ct {
            _ if ct.category() == crate::dtype::Category::Integral => {
                int_types!(ct, T => int_div_check::<T>(sb, lb)?);
                let f = move |x: i64, y: i64| {
                    let (q, r) = (x.wrapping_div(y), x.wrapping_rem(y));
                    let adjust = r != 0 && ((r < 0) != (y < 0));
                    if op == BinaryOp::FloorDiv { if adjust { q - 1 } else { q } } else if adjust { r + y } else { r }
                };
                int_types!(ct, T => T::wrap(map2::<T, T>(sa, la, sb, lb, move |x, y| T::from_i64(f(x.to_i64(), y.to_i64())))?))
            }
            DType::Float32 if op == BinaryOp::Rem => f32::wrap(fmod_f32(sa, la, sb, lb, true)?),
            _ => float_types!(ct, T => T::wrap(map2::<T, T>(sa, la, sb, lb, move |x, y| {
                if op == BinaryOp::FloorDiv { div_floor_float(x, y) } else {
                    let r = x % y;
                    if r != T::zero() && ((r < T::zero()) != (y < T::zero())) { r + y } else { r }
                }
            })?)),
        },
    })
}

/// `cond ? a : b` over layouts of the result's shape.
pub fn where_cond(sc: &CpuStorage, lc: &Layout, sa: &CpuStorage, la: &Layout, sb: &CpuStorage, lb: &Layout) -> Result<CpuStorage> {
    let c = gather::<bool>(sc, lc)?;
    // a broadcast scalar (every stride 0: relu's backward, masked_fill) is filled, not gathered
    // element by element
    Ok(all_types!(sa.dtype(), T => {
        let fetch = |s: &CpuStorage, l: &Layout| -> Result<Vec<T>> {
            if l.numel() > 0 && l.strides.iter().all(|&st| st == 0) {
                Ok(vec![T::get(s)[l.offset]; l.numel()])
            } else {
                gather::<T>(s, l)
            }
        };
        let av = fetch(sa, la)?;
        let bv = fetch(sb, lb)?;
        T::wrap(c.iter().zip(av).zip(bv).map(|((&c, x), y)| if c { x } else { y }).collect())
    }))
}

/// Elements under a layout, row-major, as a typed Vec (an error if the memory is not there).
pub fn gather<T: StorageElem>(s: &CpuStorage, l: &Layout) -> Result<Vec<T>> {
    let b = T::get(s);
    let mut out = Vec::new();
    crate::cpu::alloc::check_host_bytes::<T>(l.numel())?;
    out.try_reserve_exact(l.numel()).map_err(|_| Error::HostOutOfMemory { bytes: l.numel().saturating_mul(std::mem::size_of::<T>()) })?;
    match l.contiguous_range() {
        Some(r) => out.extend_from_slice(&b[r]),
        None => {
            // rows at a time (a broadcast scalar, a transposed or narrowed operand)
            let n = l.numel();
            if n > 0 {
                out.resize(n, b[l.offset]);
                super::copy_rows(b, l, &mut out);
            }
        }
    }
    Ok(out)
}

/// `with_float_op!(op, T, f => body)`: bind `f` to the arithmetic closure of `op` on `T`.
macro_rules! with_float_op {
    ($op:expr, $T:ident, $f:ident => $body:expr) => {
        match $op {
            BinaryOp::Add => { let $f = |x: $T, y: $T| x + y; $body }
            BinaryOp::Sub => { let $f = |x: $T, y: $T| x - y; $body }
            BinaryOp::Mul => { let $f = |x: $T, y: $T| x * y; $body }
            _ => { let $f = |x: $T, y: $T| x / y; $body }
        }
    };
}

/// The right operand of a fast binary write.
pub enum Rhs<'a> {
    Scalar(f64),
    Tensor(&'a CpuStorage, &'a Layout),
}

/// `dst[range] = a op rhs` (op one of + - * /, float32/float64), `a` read through `la`; with
/// `a` = `None` the destination itself is the left operand (the in-place `op=`). With
/// `alpha` (op `Add`), `a + alpha * rhs` in one fused multiply-add per element, as ATen's
/// add kernel (`fmadd(other, alpha, self)`, alpha read as the dtype).
pub fn binary_into(dst: &mut CpuStorage, range: std::ops::Range<usize>, a: Option<(&CpuStorage, &Layout)>, rhs: Rhs<'_>, op: BinaryOp, alpha: Option<f64>) {
    let dt = dst.dtype();
    if let Some(al) = alpha {
        debug_assert_eq!(op, BinaryOp::Add);
        match dt {
            DType::Float32 => add_scaled_into::<f32>(dst, range, a, rhs, al as f32),
            DType::Float64 => add_scaled_into::<f64>(dst, range, a, rhs, al),
            d => panic!("invariant: a fused add of float32/float64, got {d:?}"),
        }
        return;
    }
    float_types!(dt, T => {
        with_float_op!(op, T, f => binary_into_with::<T>(dst, range, a, rhs, f))
    })
}

/// `a + alpha * rhs` as ATen's add kernel computes it: its vector loop takes `2 *
/// Vec::size()` elements of an inner loop at a time with `fmadd(other, alpha, self)` (one
/// rounding), the remainder goes through its scalar loop. Where `other` is read along the
/// inner loop that loop is fused too (the compiler contracts it); where `other` is one value
/// along the inner loop (a number, a column broadcast along rows), the compiled scalar loop
/// takes the product `alpha * other` once and adds it. The same split here, with the vector
/// width of ATen's kernel (`math::ATEN_VECTOR_BYTES`).
fn add_scaled_into<T: StorageElem + Elem + Float + Sync + Send>(dst: &mut CpuStorage, range: std::ops::Range<usize>, a: Option<(&CpuStorage, &Layout)>,
                                                                rhs: Rhs<'_>, al: T) {
    let fused = move |x: T, y: T| y.mul_add(al, x);
    let once = move |x: T, y: T| x + al * y;
    let step = 2 * super::math::ATEN_VECTOR_BYTES / std::mem::size_of::<T>();
    let n = range.len();
    // the inner loop's operands: `a`'s row (None: the destination, in place) and one `other`
    let row = move |o: &mut [T], x: Option<&[T]>, y: T| {
        let body = o.len() - o.len() % step;
        super::math::simd(|| match x {
            Some(x) => {
                for (o, &x) in o[..body].iter_mut().zip(&x[..body]) {
                    *o = fused(x, y);
                }
                for (o, &x) in o[body..].iter_mut().zip(&x[body..]) {
                    *o = once(x, y);
                }
            }
            None => {
                o[..body].iter_mut().for_each(|o| *o = fused(*o, y));
                o[body..].iter_mut().for_each(|o| *o = once(*o, y));
            }
        })
    };
    match &rhs {
        Rhs::Scalar(c) => {
            let y = T::from_f64(*c);
            let d = &mut T::get_mut(dst)[range.clone()];
            match a {
                None => return row(d, None, y),
                Some((sa, la)) => {
                    if let Some(ra) = la.contiguous_range() {
                        return row(d, Some(&T::get(sa)[ra]), y);
                    }
                }
            }
        }
        Rhs::Tensor(sb, lb) => {
            let nd = lb.ndim();
            let inner_once = nd >= 1 && lb.shape[nd - 1] > 1 && lb.strides[nd - 1] == 0;
            if inner_once && a.is_none_or(|(_, la)| la.strides[nd - 1] == 1) {
                let l = lb.shape[nd - 1];
                let xb = T::get(sb);
                let d = &mut T::get_mut(dst)[range.clone()];
                let outer_b = Layout { shape: lb.shape[..nd - 1].into(), strides: lb.strides[..nd - 1].into(), offset: lb.offset };
                let outer_a = match a {
                    Some((_, la)) => Layout { shape: la.shape[..nd - 1].into(), strides: la.strides[..nd - 1].into(), offset: la.offset },
                    None => Layout::contiguous(&outer_b.shape[..]),
                };
                let xa = a.map(|(sa, _)| T::get(sa));
                let mut r = 0;
                crate::shape::walk2(&outer_a, &outer_b, |oa, ob| {
                    let o = &mut d[r * l..(r + 1) * l];
                    row(o, xa.map(|xa| &xa[oa..oa + l]), xb[ob]);
                    r += 1;
                });
                debug_assert_eq!(r * l, n);
                return;
            }
        }
    }
    binary_into_with::<T>(dst, range, a, rhs, fused);
}

fn binary_into_with<T: StorageElem + crate::dtype::Elem + Sync + Send>(dst: &mut CpuStorage, range: std::ops::Range<usize>, a: Option<(&CpuStorage, &Layout)>,
                                                                       rhs: Rhs<'_>, f: impl Fn(T, T) -> T + Sync) {
    let d = &mut T::get_mut(dst)[range];
    // a scalar is read through an all-zero-stride layout of the result's shape
    let shape = match a { Some((_, la)) => la.shape.clone(), None => crate::shape::Dims::from_elem(d.len(), 1) };
    let n = shape.len();
    let zero_strides = Layout { shape, strides: crate::shape::Dims::from_elem(0, n), offset: 0 };
    let c = [T::from_f64(match rhs { Rhs::Scalar(c) => c, Rhs::Tensor(..) => 0.0 })];
    let (xb, lb): (&[T], &Layout) = match &rhs {
        Rhs::Tensor(sb, lb) => (T::get(sb), lb),
        Rhs::Scalar(_) => (&c, &zero_strides),
    };
    match a {
        Some((sa, la)) => map2_into(d, T::get(sa), la, xb, lb, f),
        None => zip_inplace(d, xb, lb, f),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `a + alpha * b` as ATen computes it: fused where `b` runs along the inner loop; where
    /// `b` is one value per inner loop, fused over whole vector steps and with the product
    /// rounded first over the remainder (in place and into a fresh buffer alike).
    #[test]
    fn add_scaled_fuses_as_aten_does() {
        let (rows, cols) = (10, 50);
        let n = rows * cols;
        let a: Vec<f32> = (0..n).map(|i| ((i * 7919) % 1000) as f32 * 1e-3 - 0.5).collect();
        let b: Vec<f32> = (0..n).map(|i| ((i * 104_729) % 997) as f32 * 1.3e-3 - 0.6).collect();
        let al = 0.1f32;
        let (sa, sb) = (f32::wrap(a.clone()), f32::wrap(b.clone()));
        let l = Layout::contiguous(&[n]);
        let mut out = f32::wrap(vec![0.0; n]);
        binary_into(&mut out, 0..n, Some((&sa, &l)), Rhs::Tensor(&sb, &l), BinaryOp::Add, Some(0.1));
        for i in 0..n {
            assert_eq!(f32::get(&out)[i], b[i].mul_add(al, a[i]), "{i}");
        }
        let mut x = f32::wrap(a.clone());
        binary_into(&mut x, 0..n, None, Rhs::Tensor(&sb, &l), BinaryOp::Add, Some(0.1));
        assert_eq!(f32::get(&x), f32::get(&out));

        let step = 2 * super::super::math::ATEN_VECTOR_BYTES / 4;
        let split = |len: usize, i: usize, x: f32, y: f32| if i < len - len % step { y.mul_add(al, x) } else { x + al * y };
        // a number: one inner loop over the whole tensor
        binary_into(&mut out, 0..n, Some((&sa, &l)), Rhs::Scalar(1.7), BinaryOp::Add, Some(0.1));
        for i in 0..n {
            assert_eq!(f32::get(&out)[i], split(n, i, a[i], 1.7), "{i}");
        }
        // a column broadcast along rows: one inner loop per row
        let l2 = Layout::contiguous(&[rows, cols]);
        let col = Layout { shape: l2.shape.clone(), strides: [1, 0].as_slice().into(), offset: 0 };
        binary_into(&mut out, 0..n, Some((&sa, &l2)), Rhs::Tensor(&sb, &col), BinaryOp::Add, Some(0.1));
        let mut x = f32::wrap(a.clone());
        binary_into(&mut x, 0..n, None, Rhs::Tensor(&sb, &col), BinaryOp::Add, Some(0.1));
        for r in 0..rows {
            for c in 0..cols {
                let i = r * cols + c;
                assert_eq!(f32::get(&out)[i], split(cols, c, a[i], b[r]), "({r}, {c})");
                assert_eq!(f32::get(&x)[i], f32::get(&out)[i]);
            }
        }
    }
}
