//! Unary elementwise ops and their backward formulas (each written with differentiable ops,
//! so higher-order gradients work).

use super::binary::{binary_raw, BinOp};
use super::{add, div, float_input, mul, sub};
use crate::autograd::{record, Save};
use crate::cpu::map1;
use crate::dtype::{DType, Elem};
use crate::error::Result;
use crate::storage::StorageElem;
use crate::tensor::{Scalar, Tensor};
use crate::{bail, float_types, num_types};
use num_traits::{Float, One};

/// Map a float function over `x` (integers are promoted to the default float first).
macro_rules! map_float {
    ($x:expr, |$v:ident : $T:ident| $body:expr) => {{
        let x = float_input($x);
        let dt = x.dtype();
        let (st, shape) = x.with_storage(|s, l| {
            (float_types!(dt, $T => $T::wrap(map1::<$T, $T>(s, l, |$v: $T| $body))), l.shape.clone())
        });
        Tensor::from_storage(st, &shape)
    }};
}

/// Map a function over any numeric dtype, keeping it.
macro_rules! map_num {
    ($x:expr, |$v:ident : $T:ident| $body:expr) => {{
        let x = $x;
        let dt = x.dtype();
        if dt == DType::Bool {
            bail!(Runtime, "operation not supported for bool tensors");
        }
        let (st, shape) = x.with_storage(|s, l| {
            (num_types!(dt, $T => $T::wrap(map1::<$T, $T>(s, l, |$v: $T| $body))), l.shape.clone())
        });
        Tensor::from_storage(st, &shape)
    }};
}

/// Contiguous float32 through a vectorised kernel from `cpu::math`, if `x` qualifies.
fn f32_fast(x: &Tensor, k: fn(&[f32], &mut [f32])) -> Option<Tensor> {
    if x.dtype() != DType::Float32 {
        return None;
    }
    x.with_storage(|s, l| {
        let r = l.contiguous_range()?;
        let src = &f32::get(s)[r];
        let mut out = crate::cpu::alloc::take::<f32>(src.len());
        crate::cpu::par_zip1(&mut out, src, |o, x| k(x, o));
        Some(Tensor::from_vec(out, &l.shape))
    })
}

/// Elementwise `f(g, t)` over two tensors of one shape and float dtype, as one fused pass
/// (for backward formulas when no graph of the backward is being recorded).
fn fused2(g: &Tensor, t: &Tensor, f32f: fn(f32, f32) -> f32, f64f: fn(f64, f64) -> f64) -> Option<Tensor> {
    if crate::autograd::needs_record(&[g, t]) || g.dtype() != t.dtype() || g.shape() != t.shape() {
        return None;
    }
    let (lg, lt) = (g.layout(), t.layout());
    let out = match g.dtype() {
        DType::Float32 => g.with_storage(|sg, _| t.with_storage(|st, _| f32::wrap(crate::cpu::map2::<f32, f32>(sg, &lg, st, &lt, f32f)))),
        DType::Float64 => g.with_storage(|sg, _| t.with_storage(|st, _| f64::wrap(crate::cpu::map2::<f64, f64>(sg, &lg, st, &lt, f64f)))),
        _ => return None,
    };
    Some(Tensor::from_storage(out, &g.shape()))
}

/// `dst = kernel(x)` straight into a contiguous float32 `dst` (for `out=`), no history.
pub fn unary_into_fast(dst: &Tensor, x: &Tensor, kind: &str) -> Result<bool> {
    let k: fn(&[f32], &mut [f32]) = match kind {
        "exp" => crate::cpu::math::exp_slice,
        "tanh" => crate::cpu::math::tanh_slice,
        "sigmoid" => crate::cpu::math::sigmoid_slice,
        _ => return Ok(false),
    };
    if dst.dtype() != DType::Float32 || x.dtype() != DType::Float32 || dst.shape() != x.shape() || dst.shares_storage(x) {
        return Ok(false);
    }
    let (dd, dx) = (dst.data(), x.data());
    let (Some(rd), Some(rx)) = (dd.layout.contiguous_range(), dx.layout.contiguous_range()) else { return Ok(false) };
    let sx = dx.storage.data.read();
    let mut sd = dd.storage.data.write();
    crate::cpu::par_zip1(&mut f32::get_mut(&mut sd)[rd], &f32::get(&sx)[rx], |o, x| k(x, o));
    Ok(true)
}

fn sc(v: f64) -> Tensor {
    Tensor::wrapped_scalar(Scalar::Float(v))
}

/// `exp(x)`.
pub fn exp(x: &Tensor) -> Result<Tensor> {
    let out = f32_fast(x, crate::cpu::math::exp_slice).unwrap_or_else(|| map_float!(x, |v: T| v.exp()));
    // d/dx exp = exp
    record("ExpBackward0", &[x], &[&out], &[Save::Out(0)], |s, g, _| Ok(vec![Some(mul(&g[0], &s.get(0)?)?)]))?;
    Ok(out)
}

/// `log(x)`.
pub fn log(x: &Tensor) -> Result<Tensor> {
    let out = map_float!(x, |v: T| v.ln());
    // d/dx log = 1/x
    record("LogBackward0", &[x], &[&out], &[Save::In(x)], |s, g, _| Ok(vec![Some(div(&g[0], &s.get(0)?)?)]))?;
    Ok(out)
}

/// `sqrt(x)`.
pub fn sqrt(x: &Tensor) -> Result<Tensor> {
    let out = map_float!(x, |v: T| v.sqrt());
    // d/dx sqrt = 1 / (2 sqrt x)
    record("SqrtBackward0", &[x], &[&out], &[Save::Out(0)], |s, g, _| {
        Ok(vec![Some(div(&g[0], &mul(&s.get(0)?, &sc(2.0))?)?)])
    })?;
    Ok(out)
}

/// `rsqrt(x) = 1/sqrt(x)`.
pub fn rsqrt(x: &Tensor) -> Result<Tensor> {
    let out = map_float!(x, |v: T| v.sqrt().recip());
    // d/dx x^-1/2 = -1/2 x^-3/2 = -0.5 r³
    record("RsqrtBackward0", &[x], &[&out], &[Save::Out(0)], |s, g, _| {
        let r = s.get(0)?;
        Ok(vec![Some(mul(&g[0], &mul(&pow_scalar(&r, Scalar::Int(3))?, &sc(-0.5))?)?)])
    })?;
    Ok(out)
}

/// `sin(x)`.
pub fn sin(x: &Tensor) -> Result<Tensor> {
    let out = map_float!(x, |v: T| v.sin());
    // d/dx sin = cos
    record("SinBackward0", &[x], &[&out], &[Save::In(x)], |s, g, _| Ok(vec![Some(mul(&g[0], &cos(&s.get(0)?)?)?)]))?;
    Ok(out)
}

/// `cos(x)`.
pub fn cos(x: &Tensor) -> Result<Tensor> {
    let out = map_float!(x, |v: T| v.cos());
    // d/dx cos = -sin
    record("CosBackward0", &[x], &[&out], &[Save::In(x)], |s, g, _| {
        Ok(vec![Some(mul(&g[0], &neg(&sin(&s.get(0)?)?)?)?)])
    })?;
    Ok(out)
}

/// `tanh(x)`.
pub fn tanh(x: &Tensor) -> Result<Tensor> {
    let out = f32_fast(x, crate::cpu::math::tanh_slice).unwrap_or_else(|| map_float!(x, |v: T| v.tanh()));
    // d/dx tanh = 1 - tanh²
    record("TanhBackward0", &[x], &[&out], &[Save::Out(0)], |s, g, _| {
        let t = s.get(0)?;
        if let Some(r) = fused2(&g[0], &t, |g, t| g * (1.0 - t * t), |g, t| g * (1.0 - t * t)) {
            return Ok(vec![Some(r)]);
        }
        Ok(vec![Some(mul(&g[0], &super::rsub(&mul(&t, &t)?, &Tensor::wrapped_scalar(Scalar::Int(1)))?)?)])
    })?;
    Ok(out)
}

/// `sigmoid(x)`.
pub fn sigmoid(x: &Tensor) -> Result<Tensor> {
    let out = f32_fast(x, crate::cpu::math::sigmoid_slice).unwrap_or_else(|| map_float!(x, |v: T| T::one() / (T::one() + (-v).exp())));
    // d/dx σ = σ (1 - σ)
    record("SigmoidBackward0", &[x], &[&out], &[Save::Out(0)], |s, g, _| {
        let r = s.get(0)?;
        if let Some(d) = fused2(&g[0], &r, |g, r| g * r * (1.0 - r), |g, r| g * r * (1.0 - r)) {
            return Ok(vec![Some(d)]);
        }
        Ok(vec![Some(mul(&g[0], &mul(&r, &super::rsub(&r, &Tensor::wrapped_scalar(Scalar::Int(1)))?)?)?)])
    })?;
    Ok(out)
}

/// `relu(x)`.
pub fn relu(x: &Tensor) -> Result<Tensor> {
    let out = map_num!(x, |v: T| if v > T::default() { v } else { T::default() });
    // d/dx relu = [x > 0]
    record("ReluBackward0", &[x], &[&out], &[Save::Out(0)], |s, g, _| {
        let r = s.get(0)?;
        if let Some(d) = fused2(&g[0], &r, |g, r| if r > 0.0 { g } else { 0.0 }, |g, r| if r > 0.0 { g } else { 0.0 }) {
            return Ok(vec![Some(d)]);
        }
        let mask = super::cast_raw(&binary_raw(&r, &Tensor::wrapped_scalar(Scalar::Int(0)), BinOp::Gt)?, g[0].dtype());
        Ok(vec![Some(mul(&g[0], &mask)?)])
    })?;
    Ok(out)
}

/// `|x|`.
pub fn abs(x: &Tensor) -> Result<Tensor> {
    if x.dtype() == DType::Bool {
        return Ok(x.detach_copy()?);
    }
    let out = map_num!(x, |v: T| if v < T::default() { T::from_f64(-v.to_f64()) } else { v });
    // d/dx |x| = sign(x)
    record("AbsBackward0", &[x], &[&out], &[Save::In(x)], |s, g, _| Ok(vec![Some(mul(&g[0], &sign(&s.get(0)?)?)?)]))?;
    Ok(out)
}

/// `sign(x)` (no gradient flows: its derivative is zero).
pub fn sign(x: &Tensor) -> Result<Tensor> {
    let out = map_num!(x, |v: T| if v > T::default() { T::from_f64(1.0) } else if v < T::default() { T::from_f64(-1.0) } else { T::default() });
    let shape = x.shape();
    let dt = x.dtype();
    record("SignBackward0", &[x], &[&out], &[], move |_, _, _| Ok(vec![Some(crate::tensor::zeros(&shape, dt))]))?;
    Ok(out)
}

/// `-x`.
pub fn neg(x: &Tensor) -> Result<Tensor> {
    if x.dtype() == DType::Bool {
        bail!(Runtime, "Negation, the `-` operator, on a bool tensor is not supported. If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.");
    }
    let out = map_num!(x, |v: T| -v);
    record("NegBackward0", &[x], &[&out], &[], |_, g, _| Ok(vec![Some(neg(&g[0])?)]))?;
    Ok(out)
}

/// `1/x`.
pub fn reciprocal(x: &Tensor) -> Result<Tensor> {
    let out = map_float!(x, |v: T| v.recip());
    // d/dx 1/x = -1/x² = -r²
    record("ReciprocalBackward0", &[x], &[&out], &[Save::Out(0)], |s, g, _| {
        let r = s.get(0)?;
        Ok(vec![Some(mul(&g[0], &neg(&mul(&r, &r)?)?)?)])
    })?;
    Ok(out)
}

/// `x ** p` for a scalar exponent.
pub fn pow_scalar(x: &Tensor, p: Scalar) -> Result<Tensor> {
    let out = if !x.dtype().is_float() && !matches!(p, Scalar::Float(_)) {
        let e = p.as_i64();
        if e < 0 {
            bail!(Runtime, "Integers to negative integer powers are not allowed.");
        }
        if x.dtype() == DType::Bool {
            super::cast_raw(&map_num!(&super::cast_raw(x, DType::Int64), |v: T| T::from_i64(v.to_i64().pow(e as u32))), DType::Bool)
        } else {
            map_num!(x, |v: T| T::from_i64(v.to_i64().wrapping_pow(e as u32)))
        }
    } else {
        let pf = p.as_f64();
        if pf == 2.0 {
            map_float!(x, |v: T| v * v)
        } else {
            map_float!(x, |v: T| v.powf(T::from_f64(pf)))
        }
    };
    // d/dx x^p = p x^(p-1)
    record("PowBackward0", &[x], &[&out], &[Save::In(x)], move |s, g, _| {
        let pf = p.as_f64();
        if pf == 0.0 {
            return Ok(vec![Some(crate::tensor::zeros(&g[0].shape(), g[0].dtype()))]);
        }
        let xt = s.get(0)?;
        let d = if pf == 2.0 { mul(&xt, &sc(2.0))? } else {
            let pm1 = match p { Scalar::Int(i) => Scalar::Int(i - 1), _ => Scalar::Float(pf - 1.0) };
            mul(&pow_scalar(&xt, pm1)?, &Tensor::wrapped_scalar(p))?
        };
        Ok(vec![Some(mul(&g[0], &d)?)])
    })?;
    Ok(out)
}

/// `clamp(x, min, max)`: the gradient passes where min <= x <= max.
pub fn clamp(x: &Tensor, lo: Option<Scalar>, hi: Option<Scalar>) -> Result<Tensor> {
    if lo.is_none() && hi.is_none() {
        bail!(Runtime, "torch.clamp: At least one of 'min' or 'max' must not be None");
    }
    let promote = lo.iter().chain(hi.iter()).any(|s| matches!(s, Scalar::Float(_))) && !x.dtype().is_float();
    let xin = if promote { float_input(x) } else { x.clone() };
    let (l, h) = (lo.map(|s| s.as_f64()), hi.map(|s| s.as_f64()));
    // one specialised loop per bound combination (NaN passes through, like torch)
    let out = match (l, h) {
        (Some(l), Some(h)) => map_num!(&xin, |v: T| { let (lo, hi) = (T::from_f64(l), T::from_f64(h)); if v < lo { lo } else if v > hi { hi } else { v } }),
        (Some(l), None) => map_num!(&xin, |v: T| { let lo = T::from_f64(l); if v < lo { lo } else { v } }),
        (None, Some(h)) => map_num!(&xin, |v: T| { let hi = T::from_f64(h); if v > hi { hi } else { v } }),
        (None, None) => unreachable!("checked above"),
    };
    if crate::autograd::needs_record(&[x]) {
        // mask computed now, so an in-place clamp_ needs no copy of its input
        let mask = match (l, h) {
            (Some(l), Some(h)) => map_num!(&xin, |v: T| if v >= T::from_f64(l) && v <= T::from_f64(h) { T::from_f64(1.0) } else { T::default() }),
            (Some(l), None) => map_num!(&xin, |v: T| if v >= T::from_f64(l) { T::from_f64(1.0) } else { T::default() }),
            (None, Some(h)) => map_num!(&xin, |v: T| if v <= T::from_f64(h) { T::from_f64(1.0) } else { T::default() }),
            (None, None) => unreachable!("checked above"),
        };
        record("ClampBackward1", &[x], &[&out], &[Save::In(&mask)], |s, g, _| {
            let m = s.get(0)?;
            if let Some(d) = fused2(&g[0], &m, |g, m| g * m, |g, m| g * m) {
                return Ok(vec![Some(d)]);
            }
            Ok(vec![Some(mul(&g[0], &m)?)])
        })?;
    }
    Ok(out)
}

/// Rounding family: floor, ceil, round, trunc (zero gradient).
pub fn rounding(x: &Tensor, kind: &str) -> Result<Tensor> {
    if !x.dtype().is_float() {
        return x.detach_copy();
    }
    let out = match kind {
        "floor" => map_float!(x, |v: T| v.floor()),
        "ceil" => map_float!(x, |v: T| v.ceil()),
        "trunc" => map_float!(x, |v: T| v.trunc()),
        _ => map_float!(x, |v: T| {
            // round half to even, like torch
            let r = v.round();
            if (v - v.trunc()).abs() == T::from_f64(0.5) { (v / T::from_f64(2.0)).round() * T::from_f64(2.0) } else { r }
        }),
    };
    let shape = x.shape();
    let dt = x.dtype();
    let name: &'static str = match kind { "floor" => "FloorBackward0", "ceil" => "CeilBackward0", "trunc" => "TruncBackward0", _ => "RoundBackward0" };
    record(name, &[x], &[&out], &[], move |_, _, _| Ok(vec![Some(crate::tensor::zeros(&shape, dt))]))?;
    Ok(out)
}

/// `log1p`, `expm1`, `log2`, `log10`, `exp2`, `tan`, `asin`... (less common unary ops).
pub fn unary_extra(x: &Tensor, kind: &str) -> Result<Tensor> {
    match kind {
        "log1p" => { let out = map_float!(x, |v: T| v.ln_1p()); record("Log1PBackward0", &[x], &[&out], &[Save::In(x)], |s, g, _| Ok(vec![Some(div(&g[0], &add(&s.get(0)?, &sc(1.0))?)?)]))?; Ok(out) }
        "expm1" => { let out = map_float!(x, |v: T| v.exp_m1()); record("Expm1Backward0", &[x], &[&out], &[Save::Out(0)], |s, g, _| Ok(vec![Some(mul(&g[0], &add(&s.get(0)?, &sc(1.0))?)?)]))?; Ok(out) }
        "log2" => { let out = map_float!(x, |v: T| v.log2()); record("Log2Backward0", &[x], &[&out], &[Save::In(x)], |s, g, _| Ok(vec![Some(div(&g[0], &mul(&s.get(0)?, &sc(std::f64::consts::LN_2))?)?)]))?; Ok(out) }
        "log10" => { let out = map_float!(x, |v: T| v.log10()); record("Log10Backward0", &[x], &[&out], &[Save::In(x)], |s, g, _| Ok(vec![Some(div(&g[0], &mul(&s.get(0)?, &sc(std::f64::consts::LN_10))?)?)]))?; Ok(out) }
        "tan" => { let out = map_float!(x, |v: T| v.tan()); record("TanBackward0", &[x], &[&out], &[Save::Out(0)], |s, g, _| { let r = s.get(0)?; Ok(vec![Some(mul(&g[0], &add(&mul(&r, &r)?, &sc(1.0))?)?)]) })?; Ok(out) }
        "atan" => { let out = map_float!(x, |v: T| v.atan()); record("AtanBackward0", &[x], &[&out], &[Save::In(x)], |s, g, _| { let v = s.get(0)?; Ok(vec![Some(div(&g[0], &add(&mul(&v, &v)?, &sc(1.0))?)?)]) })?; Ok(out) }
        "asin" => { let out = map_float!(x, |v: T| v.asin()); record("AsinBackward0", &[x], &[&out], &[Save::In(x)], |s, g, _| { let v = s.get(0)?; Ok(vec![Some(mul(&g[0], &rsqrt(&super::rsub(&mul(&v, &v)?, &sc(1.0))?)?)?)]) })?; Ok(out) }
        "acos" => { let out = map_float!(x, |v: T| v.acos()); record("AcosBackward0", &[x], &[&out], &[Save::In(x)], |s, g, _| { let v = s.get(0)?; Ok(vec![Some(neg(&mul(&g[0], &rsqrt(&super::rsub(&mul(&v, &v)?, &sc(1.0))?)?)?)?)]) })?; Ok(out) }
        "sinh" => { let out = map_float!(x, |v: T| v.sinh()); record("SinhBackward0", &[x], &[&out], &[Save::In(x)], |s, g, _| Ok(vec![Some(mul(&g[0], &unary_extra(&s.get(0)?, "cosh")?)?)]))?; Ok(out) }
        "cosh" => { let out = map_float!(x, |v: T| v.cosh()); record("CoshBackward0", &[x], &[&out], &[Save::In(x)], |s, g, _| Ok(vec![Some(mul(&g[0], &unary_extra(&s.get(0)?, "sinh")?)?)]))?; Ok(out) }
        "square" => pow_scalar(x, Scalar::Int(2)),
        _ => bail!(NotImplemented, "unary op {} is not implemented", kind),
    }
}

/// `x.logical_not()` / `~mask`.
pub fn logical_not(x: &Tensor) -> Result<Tensor> {
    let b = if x.dtype() == DType::Bool { x.clone() } else { binary_raw(x, &Tensor::wrapped_scalar(Scalar::Int(0)), BinOp::Ne)? };
    let (st, shape) = b.with_storage(|s, l| (bool::wrap(map1::<bool, bool>(s, l, |v| !v)), l.shape.clone()));
    Ok(Tensor::from_storage(st, &shape))
}

/// `isnan`/`isinf`/`isfinite` masks.
pub fn float_test(x: &Tensor, kind: &str) -> Result<Tensor> {
    if !x.dtype().is_float() {
        let v = kind == "isfinite";
        return Ok(crate::tensor::full(&x.shape(), Scalar::Bool(v), DType::Bool));
    }
    let dt = x.dtype();
    let (st, shape) = x.with_storage(|s, l| {
        (float_types!(dt, T => bool::wrap(map1::<T, bool>(s, l, |v: T| match kind {
            "isnan" => v.is_nan(),
            "isinf" => v.is_infinite(),
            _ => v.is_finite(),
        }))), l.shape.clone())
    });
    Ok(Tensor::from_storage(st, &shape))
}

/// Shared with `sub` users that need `1 - x`.
pub fn one_minus(x: &Tensor) -> Result<Tensor> {
    sub(&Tensor::wrapped_scalar(Scalar::Int(1)), x)
}
