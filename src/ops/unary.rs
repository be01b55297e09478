//! Unary elementwise ops and their backward formulas (each written with differentiable ops,
//! so higher-order gradients work).

use super::binary::{binary_raw, BinOp};
use super::{add, div, float_input, mul};
use crate::autograd::{record, record_ew, Save};
use crate::backend::{self, UnaryOp};
use crate::dtype::DType;
use crate::error::Result;
use crate::tensor::{Scalar, Tensor};
use crate::{bail, ensure};

/// `op(x)` for a floating op (integers and bools are promoted to the default float first).
fn float_op(x: &Tensor, op: UnaryOp) -> Result<Tensor> {
    if x.dtype().is_complex() {
        return super::complex::unary_raw(x, op);
    }
    backend::unary(&float_input(x)?, op)
}

/// `op(x)` for an op on any numeric dtype, keeping it.
fn num_op(x: &Tensor, op: UnaryOp) -> Result<Tensor> {
    if x.dtype() == DType::Bool {
        bail!(Runtime, "operation not supported for bool tensors");
    }
    if x.dtype().is_complex() {
        return super::complex::unary_raw(x, op);
    }
    backend::unary(x, op)
}

/// `g * f'(saved)` as one fused pass (`op`), when no graph of the backward is recorded and
/// the operands agree; `None` asks for the differentiable formula.
fn fused2(g: &Tensor, t: &Tensor, op: BinOp) -> Result<Option<Tensor>> {
    if crate::autograd::needs_record(&[g, t]) || g.dtype() != t.dtype() || g.shape() != t.shape() || !g.dtype().is_float() {
        return Ok(None);
    }
    let (lg, lt) = (g.layout(), t.layout());
    backend::binary(g, &lg, t, &lt, op).map(Some)
}

/// `dst = op(x)` straight into a contiguous float32 `dst` (for `out=`), no history.
pub fn unary_into_fast(dst: &Tensor, x: &Tensor, op: UnaryOp) -> Result<bool> {
    backend::unary_into(dst, x, op)
}

fn sc(v: f64) -> Tensor {
    Tensor::wrapped_scalar(Scalar::Float(v))
}

/// `exp(x)`.
pub fn exp(x: &Tensor) -> Result<Tensor> {
    let out = float_op(x, UnaryOp::Exp)?;
    // d/dx exp = exp
    record_ew("ExpBackward0", x, &out, &[Save::Out(0)], |s, g, _| Ok(vec![Some(mul(&g[0], &s.get(0)?)?)]))?;
    Ok(out)
}

/// `log(x)`.
pub fn log(x: &Tensor) -> Result<Tensor> {
    let out = float_op(x, UnaryOp::Log)?;
    // d/dx log = 1/x
    record_ew("LogBackward0", x, &out, &[Save::In(x)], |s, g, _| Ok(vec![Some(div(&g[0], &s.get(0)?)?)]))?;
    Ok(out)
}

/// `sqrt(x)`.
pub fn sqrt(x: &Tensor) -> Result<Tensor> {
    let out = float_op(x, UnaryOp::Sqrt)?;
    // d/dx sqrt = 1 / (2 sqrt x)
    record_ew("SqrtBackward0", x, &out, &[Save::Out(0)], |s, g, _| {
        Ok(vec![Some(div(&g[0], &mul(&s.get(0)?, &sc(2.0))?)?)])
    })?;
    Ok(out)
}

/// `rsqrt(x) = 1/sqrt(x)`.
pub fn rsqrt(x: &Tensor) -> Result<Tensor> {
    let out = float_op(x, UnaryOp::Rsqrt)?;
    // d/dx x^-1/2 = -1/2 x^-3/2 = -0.5 r³
    record_ew("RsqrtBackward0", x, &out, &[Save::Out(0)], |s, g, _| {
        let r = s.get(0)?;
        Ok(vec![Some(mul(&g[0], &mul(&pow_scalar(&r, Scalar::Int(3))?, &sc(-0.5))?)?)])
    })?;
    Ok(out)
}

/// `sin(x)`.
pub fn sin(x: &Tensor) -> Result<Tensor> {
    let out = float_op(x, UnaryOp::Sin)?;
    // d/dx sin = cos
    record_ew("SinBackward0", x, &out, &[Save::In(x)], |s, g, _| Ok(vec![Some(mul(&g[0], &cos(&s.get(0)?)?)?)]))?;
    Ok(out)
}

/// `cos(x)`.
pub fn cos(x: &Tensor) -> Result<Tensor> {
    let out = float_op(x, UnaryOp::Cos)?;
    // d/dx cos = -sin
    record_ew("CosBackward0", x, &out, &[Save::In(x)], |s, g, _| {
        Ok(vec![Some(mul(&g[0], &neg(&sin(&s.get(0)?)?)?)?)])
    })?;
    Ok(out)
}

/// `tanh(x)`.
pub fn tanh(x: &Tensor) -> Result<Tensor> {
    let out = float_op(x, UnaryOp::Tanh)?;
    // d/dx tanh = 1 - tanh²
    record_ew("TanhBackward0", x, &out, &[Save::Out(0)], |s, g, _| {
        let t = s.get(0)?;
        Ok(vec![Some(tanh_backward(&g[0], &t)?)])
    })?;
    Ok(out)
}

/// `sigmoid(x)`.
pub fn sigmoid(x: &Tensor) -> Result<Tensor> {
    let out = float_op(x, UnaryOp::Sigmoid)?;
    // d/dx σ = σ (1 - σ)
    record_ew("SigmoidBackward0", x, &out, &[Save::Out(0)], |s, g, _| {
        let r = s.get(0)?;
        Ok(vec![Some(sigmoid_backward(&g[0], &r)?)])
    })?;
    Ok(out)
}

/// `relu(x)`.
pub fn relu(x: &Tensor) -> Result<Tensor> {
    check_relu_dtype(x)?;
    let out = num_op(x, UnaryOp::Relu)?;
    // d/dx relu = [x > 0]
    record_ew("ReluBackward0", x, &out, &[Save::Out(0)], |s, g, _| {
        let r = s.get(0)?;
        Ok(vec![Some(threshold_backward(&g[0], &r)?)])
    })?;
    Ok(out)
}

/// `tanh_backward(g, y) = g (1 - y²)` as an op of its own (TanhBackwardBackward0, as torch
/// records it under `create_graph`): d/dg = 1 - y², d/dy = -2 y g.
pub fn tanh_backward(g: &Tensor, y: &Tensor) -> Result<Tensor> {
    if let Some(r) = fused2(g, y, BinOp::TanhBackward)? {
        return Ok(r);
    }
    let one = || Tensor::wrapped_scalar(Scalar::Int(1));
    let out = {
        let _n = crate::autograd::raw_mode();
        mul(&g.detach(), &super::rsub(&mul(&y.detach(), &y.detach())?, &one())?)?
    };
    record("TanhBackwardBackward0", &[g, y], &[&out], &[Save::In(g), Save::In(y)], move |s, gg, n| {
        let (gt, yt) = (s.get(0)?, s.get(1)?);
        let dg = if n[0] { Some(tanh_backward(&gg[0], &yt)?) } else { None };
        let dy = if n[1] { Some(mul(&mul(&gg[0], &gt)?, &mul(&yt, &Tensor::wrapped_scalar(Scalar::Int(-2)))?)?) } else { None };
        Ok(vec![dg, dy])
    })?;
    crate::autograd::Node::annotate(&out, &[], &[(0, "grad_output"), (1, "output")]);
    Ok(out)
}

/// `sigmoid_backward(g, y) = g y (1 - y)` (SigmoidBackwardBackward0): d/dg = y (1 - y),
/// d/dy = g (1 - 2y).
pub fn sigmoid_backward(g: &Tensor, y: &Tensor) -> Result<Tensor> {
    if let Some(r) = fused2(g, y, BinOp::SigmoidBackward)? {
        return Ok(r);
    }
    let one = || Tensor::wrapped_scalar(Scalar::Int(1));
    let out = {
        let _n = crate::autograd::raw_mode();
        mul(&g.detach(), &mul(&y.detach(), &super::rsub(&y.detach(), &one())?)?)?
    };
    record("SigmoidBackwardBackward0", &[g, y], &[&out], &[Save::In(g), Save::In(y)], move |s, gg, n| {
        let (gt, yt) = (s.get(0)?, s.get(1)?);
        let dg = if n[0] { Some(sigmoid_backward(&gg[0], &yt)?) } else { None };
        let dy = if n[1] {
            let one_m2y = super::rsub(&mul(&yt, &Tensor::wrapped_scalar(Scalar::Int(2)))?, &one())?;
            Some(mul(&mul(&gg[0], &gt)?, &one_m2y)?)
        } else { None };
        Ok(vec![dg, dy])
    })?;
    crate::autograd::Node::annotate(&out, &[], &[(0, "grad_output"), (1, "output")]);
    Ok(out)
}

/// relu's backward, torch's `threshold_backward(g, y, 0)`: g where y > 0, else 0 (a select,
/// not a product, so an infinite gradient where relu is flat stays 0 and a NaN result passes
/// its gradient). ThresholdBackwardBackward0: d/dg = the same select, d/dy = 0.
pub fn threshold_backward(g: &Tensor, y: &Tensor) -> Result<Tensor> {
    if let Some(r) = fused2(g, y, BinOp::ReluBackward)? {
        return Ok(r);
    }
    let zero = || Tensor::wrapped_scalar(Scalar::Int(0));
    let out = {
        let _n = crate::autograd::raw_mode();
        let flat = binary_raw(&y.detach(), &zero(), BinOp::Le)?;
        super::where_(&flat, &zero(), &g.detach())?
    };
    let ymeta = crate::autograd::InputMeta::of(y);
    record("ThresholdBackwardBackward0", &[g, y], &[&out], &[Save::In(y)], move |s, gg, n| {
        let yt = s.get(0)?;
        let dg = if n[0] { Some(threshold_backward(&gg[0], &yt)?) } else { None };
        let dy = if n[1] { Some(ymeta.zeros()?) } else { None };
        Ok(vec![dg, dy])
    })?;
    crate::autograd::Node::annotate(&out, &[], &[(0, "self")]);
    Ok(out)
}

/// `|x|`.
pub fn abs(x: &Tensor) -> Result<Tensor> {
    if x.dtype() == DType::Bool {
        bail!(NotImplemented, "\"abs_cpu\" not implemented for 'Bool'");
    }
    if x.dtype().is_complex() {
        return super::complex::abs(x);
    }
    let out = num_op(x, UnaryOp::Abs)?;
    // d/dx |x| = sign(x)
    record_ew("AbsBackward0", x, &out, &[Save::In(x)], |s, g, _| Ok(vec![Some(mul(&g[0], &sign(&s.get(0)?)?)?)]))?;
    Ok(out)
}

/// `abs` for `abs_`: a complex tensor cannot hold its (real) moduli in place (PyTorch's error).
pub fn abs_for_inplace(x: &Tensor) -> Result<Tensor> {
    ensure!(!x.dtype().is_complex(), Runtime, "In-place abs is not supported for complex tensors.");
    abs(x)
}

/// `sign(x)` (no gradient flows: its derivative is zero).
pub fn sign(x: &Tensor) -> Result<Tensor> {
    if x.dtype() == DType::Bool {
        // the sign of a bool is itself
        return x.detach_copy();
    }
    let out = num_op(x, UnaryOp::Sign)?;
    let meta = crate::autograd::InputMeta::of(x);
    record_ew("SignBackward0", x, &out, &[], move |_, _, _| Ok(vec![Some(meta.zeros()?)]))?;
    Ok(out)
}

/// `-x`.
pub fn neg(x: &Tensor) -> Result<Tensor> {
    if x.dtype() == DType::Bool {
        bail!(Runtime, "Negation, the `-` operator, on a bool tensor is not supported. If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.");
    }
    let out = num_op(x, UnaryOp::Neg)?;
    record_ew("NegBackward0", x, &out, &[], |_, g, _| Ok(vec![Some(neg(&g[0])?)]))?;
    Ok(out)
}

/// `1/x`.
pub fn reciprocal(x: &Tensor) -> Result<Tensor> {
    let out = float_op(x, UnaryOp::Reciprocal)?;
    // d/dx 1/x = -1/x² = -r²
    record_ew("ReciprocalBackward0", x, &out, &[Save::Out(0)], |s, g, _| {
        let r = s.get(0)?;
        Ok(vec![Some(mul(&g[0], &neg(&mul(&r, &r)?)?)?)])
    })?;
    Ok(out)
}

/// `x ** p` for a scalar exponent.
pub fn pow_scalar(x: &Tensor, p: Scalar) -> Result<Tensor> {
    let out = if !x.dtype().is_float() && !x.dtype().is_complex() && !matches!(p, Scalar::Float(_)) {
        let e = p.as_i64();
        if e < 0 {
            bail!(Runtime, "Integers to negative integer powers are not allowed.");
        }
        let e = u32::try_from(e).unwrap_or(u32::MAX);
        if x.dtype() == DType::Bool {
            // matches torch: bool ** int is int64
            num_op(&super::cast_raw(x, DType::Int64)?, UnaryOp::PowInt(e))?
        } else {
            num_op(x, UnaryOp::PowInt(e))?
        }
    } else {
        let pf = p.as_f64();
        // ATen's pow with a scalar exponent runs its sqrt, rsqrt and reciprocal kernels for
        // ½, -½ and -1 on float, double and bfloat16 (so `(-0.0) ** 0.5` is -0.0 and
        // `(-inf) ** 0.5` NaN, as `sqrt` gives; float16 keeps `pow`)
        let op = match pf {
            0.5 if matches!(x.dtype(), DType::Float32 | DType::Float64 | DType::BFloat16) => UnaryOp::Sqrt,
            -0.5 if matches!(x.dtype(), DType::Float32 | DType::Float64 | DType::BFloat16) => UnaryOp::Rsqrt,
            -1.0 if matches!(x.dtype(), DType::Float32 | DType::Float64 | DType::BFloat16) => UnaryOp::Reciprocal,
            _ => UnaryOp::PowScalar(pf),
        };
        float_op(x, op)?
    };
    // d/dx x^p = p x^(p-1)
    record_ew("PowBackward0", x, &out, &[Save::In(x)], move |s, g, _| {
        let pf = p.as_f64();
        if pf == 0.0 {
            return Ok(vec![Some(crate::tensor::zeros_on(&g[0].shape(), g[0].dtype(), g[0].device())?)]);
        }
        let xt = s.get(0)?;
        let d = if pf == 2.0 { mul(&xt, &sc(2.0))? } else {
            let pm1 = match p { Scalar::Int(i) => Scalar::Int(i - 1), _ => Scalar::Float(pf - 1.0) };
            mul(&pow_scalar(&xt, pm1)?, &Tensor::wrapped_scalar(p))?
        };
        Ok(vec![Some(mul(&g[0], &d)?)])
    })?;
    let e = match p { Scalar::Float(f) => crate::autograd::SavedValue::Float(f), Scalar::Int(i) => crate::autograd::SavedValue::Int(i), Scalar::Bool(b) => crate::autograd::SavedValue::Bool(b) };
    crate::autograd::Node::annotate(&out, &[("exponent", e)], &[]);
    Ok(out)
}

/// `clamp(x, min, max)`: the gradient passes where min <= x <= max (ClampBackward1).
pub fn clamp(x: &Tensor, lo: Option<Scalar>, hi: Option<Scalar>) -> Result<Tensor> {
    clamp_named(x, lo, hi, "ClampBackward1")
}

/// relu refuses bool tensors (before any in-place check, as torch).
pub fn check_relu_dtype(x: &Tensor) -> Result<()> {
    if x.dtype() == DType::Bool {
        bail!(Runtime, "Boolean inputs not supported for relu");
    }
    Ok(())
}

/// `x.clamp_(min, max)` in place: the bounds may not promote `x` past its dtype (torch's
/// message names the element type as C++ does: `long int`).
pub fn clamp_(x: &Tensor, lo: Option<Scalar>, hi: Option<Scalar>) -> Result<()> {
    clamp_with_(x, lo, hi, |inp| clamp(inp, lo, hi))
}

/// `clamp_min_(x, min)` with a scalar bound: in place where no history is recorded, else
/// ClampMinBackward0.
pub fn clamp_min_(x: &Tensor, lo: Scalar) -> Result<()> {
    clamp_with_(x, Some(lo), None, |inp| clamp_min(inp, lo))
}

/// `clamp_max_(x, max)` with a scalar bound (ClampMaxBackward0 when recorded).
pub fn clamp_max_(x: &Tensor, hi: Scalar) -> Result<()> {
    clamp_with_(x, None, Some(hi), |inp| clamp_max(inp, hi))
}

/// The in-place clamps: the bounds' result type checked against `x`'s as ATen's in-place ops
/// do, then straight through the buffer, or `general` where history is recorded.
fn clamp_with_(x: &Tensor, lo: Option<Scalar>, hi: Option<Scalar>, general: impl FnOnce(&Tensor) -> Result<Tensor>) -> Result<()> {
    use crate::dtype::{result_type, Priority};
    let mut parts = vec![(x.dtype(), Priority::Dimensioned)];
    parts.extend(lo.iter().chain(hi.iter()).map(|s| (Tensor::wrapped_scalar(*s).dtype(), Priority::Scalar)));
    let rt = result_type(&parts);
    if rt.category() > x.dtype().category() {
        bail!(Runtime, "result type {} can't be cast to the desired output type {}", rt.scalar_name(), x.dtype().cpp_type_name());
    }
    if lo.is_none() && hi.is_none() {
        return super::inplace(x, general);
    }
    let op = UnaryOp::Clamp(lo.map(|s| s.as_f64()), hi.map(|s| s.as_f64()));
    super::inplace_unary(x, op, general)
}

/// `clamp_min(x, min)` (ClampMinBackward0).
pub fn clamp_min(x: &Tensor, lo: Scalar) -> Result<Tensor> {
    clamp_named(x, Some(lo), None, "ClampMinBackward0")
}

/// `clamp_max(x, max)` (ClampMaxBackward0).
pub fn clamp_max(x: &Tensor, hi: Scalar) -> Result<Tensor> {
    clamp_named(x, None, Some(hi), "ClampMaxBackward0")
}

fn scalar_dtype(s: Scalar) -> DType {
    match s {
        Scalar::Bool(_) => DType::Bool,
        Scalar::Int(_) => DType::Int64,
        Scalar::Float(_) => DType::Float64,
    }
}

fn clamp_named(x: &Tensor, lo: Option<Scalar>, hi: Option<Scalar>, name: &'static str) -> Result<Tensor> {
    if lo.is_none() && hi.is_none() {
        bail!(Runtime, "torch.clamp: At least one of 'min' or 'max' must not be None");
    }
    // the bounds take part in type promotion as Python scalars (a bool tensor clamped by ints
    // is int64, an int tensor clamped by floats is the default float)
    let mut parts = vec![(x.dtype(), x.priority())];
    parts.extend(lo.iter().chain(hi.iter()).map(|&s| (scalar_dtype(s), crate::dtype::Priority::Scalar)));
    let rt = crate::dtype::result_type(&parts);
    let xin = if rt != x.dtype() { backend::cast_preserving(x, rt)? } else { x.clone() };
    let (l, h) = (lo.map(|s| s.as_f64()), hi.map(|s| s.as_f64()));
    let out = num_op(&xin, UnaryOp::Clamp(l, h))?;
    if crate::autograd::needs_history(&[x]) && rt == x.dtype() && x.dtype().is_float() && x.device().is_cpu() {
        // the backward selects by the saved input itself (derivatives.yaml's
        // `where((self >= min) & (self <= max), grad, 0)`, one fused pass): no mask pass here
        let (lb, hb) = (l.unwrap_or(f64::NEG_INFINITY), h.unwrap_or(f64::INFINITY));
        record_ew(name, x, &out, &[Save::In(x)], move |s, g, _| {
            let xs = s.get(0)?;
            if !crate::autograd::needs_record(&[&g[0], &xs]) {
                if let Some(d) = backend::clamp_backward(&g[0], &xs, lb, hb)? {
                    return Ok(vec![Some(d)]);
                }
            }
            let zero = || Tensor::wrapped_scalar(Scalar::Int(0));
            let side = |b: Option<f64>, op: BinOp| b.map(|v| binary_raw(&xs, &Tensor::wrapped_scalar(Scalar::Float(v)), op)).transpose();
            let keep = match (side(l, BinOp::Ge)?, side(h, BinOp::Le)?) {
                (Some(a), Some(b)) => binary_raw(&a, &b, BinOp::And)?,
                (Some(a), None) | (None, Some(a)) => a,
                (None, None) => unreachable!("invariant: clamp has a bound"),
            };
            Ok(vec![Some(super::where_(&keep, &g[0], &zero())?)])
        })?;
        annotate_clamp(name, &out, lo, hi);
        return Ok(out);
    }
    if crate::autograd::needs_history(&[x]) {
        // mask computed now, so an in-place clamp_ needs no copy of its input; the backward
        // selects (never multiplies), so an infinite gradient outside the range stays 0
        let mask = num_op(&xin, UnaryOp::ClampMask(l, h))?;
        // `self` is saved as derivatives.yaml does (`_saved_self`; the formula reads the mask)
        record_ew(name, x, &out, &[Save::In(&mask), Save::In(x)], |s, g, _| {
            let m = s.get(0)?;
            if let Some(d) = fused2(&g[0], &m, BinOp::ReluBackward)? {
                return Ok(vec![Some(d)]);
            }
            let keep = binary_raw(&m, &Tensor::wrapped_scalar(Scalar::Int(0)), BinOp::Ne)?;
            Ok(vec![Some(super::where_(&keep, &g[0], &Tensor::wrapped_scalar(Scalar::Int(0)))?)])
        })?;
        annotate_clamp(name, &out, lo, hi);
    }
    Ok(out)
}

/// ClampBackward1's `_saved_min` / `_saved_max`.
fn annotate_clamp(name: &str, out: &Tensor, lo: Option<Scalar>, hi: Option<Scalar>) {
    let bound = |s: Option<Scalar>| match s {
        Some(Scalar::Float(f)) => crate::autograd::SavedValue::Float(f),
        Some(Scalar::Int(i)) => crate::autograd::SavedValue::Int(i),
        Some(Scalar::Bool(b)) => crate::autograd::SavedValue::Bool(b),
        None => crate::autograd::SavedValue::None,
    };
    if name == "ClampBackward1" {
        crate::autograd::Node::annotate(out, &[("min", bound(lo)), ("max", bound(hi))], &[]);
    }
}

/// `clamp(x, min, max)` with tensor bounds (ClampBackward0), broadcast together, NaN in `x`
/// propagating: `min(max(x, lo), hi)`.
pub fn clamp_tensor(x: &Tensor, lo: Option<&Tensor>, hi: Option<&Tensor>) -> Result<Tensor> {
    if lo.is_none() && hi.is_none() {
        bail!(Runtime, "torch.clamp: At least one of 'min' or 'max' must not be None");
    }
    let out = {
        let _g = crate::autograd::raw_mode();
        let mut r = x.detach();
        // x where x >= lo (or x is NaN), else lo; a NaN bound gives NaN, as torch's
        // min(max(x, lo), hi) propagating NaN from every operand
        let nan_bound = |b: &Tensor| -> Result<Option<Tensor>> {
            if b.dtype().is_float() { Ok(Some(super::float_test(&b.detach(), "isnan")?)) } else { Ok(None) }
        };
        if let Some(l) = lo {
            let mut take_lo = binary_raw(&r, &l.detach(), BinOp::Lt)?;
            if let Some(n) = nan_bound(l)? { take_lo = binary_raw(&take_lo, &n, BinOp::Or)?; }
            r = super::where_(&take_lo, &l.detach(), &r)?;
        }
        if let Some(h) = hi {
            let mut take_hi = binary_raw(&r, &h.detach(), BinOp::Gt)?;
            if let Some(n) = nan_bound(h)? { take_hi = binary_raw(&take_hi, &n, BinOp::Or)?; }
            r = super::where_(&take_hi, &h.detach(), &r)?;
        }
        r
    };
    let mut ins: Vec<&Tensor> = vec![x];
    ins.extend(lo);
    ins.extend(hi);
    let shapes: Vec<Vec<usize>> = ins.iter().map(|t| t.shape().to_vec()).collect();
    let mut saves = vec![Save::In(x)];
    saves.extend(lo.map(Save::In));
    saves.extend(hi.map(Save::In));
    let (has_lo, has_hi) = (lo.is_some(), hi.is_some());
    record("ClampBackward0", &ins, &[&out], &saves, move |s, g, n| {
        let xt = s.get(0)?;
        let lt = if has_lo { Some(s.get(1)?) } else { None };
        let ht = if has_hi { Some(s.get(if has_lo { 2 } else { 1 })?) } else { None };
        let zero = Tensor::wrapped_scalar(Scalar::Int(0));
        let and = |a: Tensor, b: Tensor| binary_raw(&a, &b, BinOp::And);
        let mut out = Vec::new();
        // self: inside [lo, hi]
        let inside = match (&lt, &ht) {
            (Some(l), Some(h)) => and(binary_raw(&xt, l, BinOp::Ge)?, binary_raw(&xt, h, BinOp::Le)?)?,
            (Some(l), None) => binary_raw(&xt, l, BinOp::Ge)?,
            (None, Some(h)) => binary_raw(&xt, h, BinOp::Le)?,
            (None, None) => unreachable!("invariant: a bound"),
        };
        out.push(if n[0] { Some(super::sum_to(&super::where_(&inside, &g[0], &zero)?, &shapes[0])?) } else { None });
        let mut k = 1;
        if let Some(l) = &lt {
            let mut m = binary_raw(&xt, l, BinOp::Lt)?;
            if let Some(h) = &ht {
                m = and(m, binary_raw(l, h, BinOp::Lt)?)?;
            }
            out.push(if n[k] { Some(super::sum_to(&super::where_(&m, &g[0], &zero)?, &shapes[k])?) } else { None });
            k += 1;
        }
        if let Some(h) = &ht {
            let mut m = binary_raw(&xt, h, BinOp::Gt)?;
            if let Some(l) = &lt {
                m = binary_raw(&m, &binary_raw(h, l, BinOp::Lt)?, BinOp::Or)?;
            }
            out.push(if n[k] { Some(super::sum_to(&super::where_(&m, &g[0], &zero)?, &shapes[k])?) } else { None });
        }
        Ok(out)
    })?;
    Ok(out)
}

/// `round(x, decimals=d)` (RoundBackward1, zero gradient): `round(x * 10^d) / 10^d` as torch
/// computes it (dividing by `10^-d` for negative `d`).
pub fn round_decimals(x: &Tensor, decimals: i64) -> Result<Tensor> {
    if !x.dtype().is_float() {
        bail!(NotImplemented, "\"{}\" not implemented for '{}'", if decimals == 0 { "round_vml_cpu" } else { "round_cpu" }, x.dtype().scalar_name());
    }
    if decimals == 0 {
        // torch records RoundBackward1 whenever decimals is given, 0 included
        let out = {
            let _g = crate::autograd::raw_mode();
            rounding(&x.detach(), "round")?
        };
        if x.dtype().is_float() {
            let meta = crate::autograd::InputMeta::of(x);
            record_ew("RoundBackward1", x, &out, &[], move |_, _, _| Ok(vec![Some(meta.zeros()?)]))?;
        }
        return Ok(out);
    }
    ensure!(x.dtype().is_float(), NotImplemented, "\"round_cpu\" not implemented for '{}'", x.dtype().scalar_name());
    let p = Tensor::wrapped_scalar(Scalar::Float(10f64.powi(decimals.unsigned_abs().min(400) as i32)));
    let out = {
        let _g = crate::autograd::raw_mode();
        if decimals > 0 {
            div(&float_op(&mul(x, &p)?, UnaryOp::Round)?, &p)?
        } else {
            mul(&float_op(&div(x, &p)?, UnaryOp::Round)?, &p)?
        }
    };
    let meta = crate::autograd::InputMeta::of(x);
    record_ew("RoundBackward1", x, &out, &[], move |_, _, _| Ok(vec![Some(meta.zeros()?)]))?;
    Ok(out)
}

/// Rounding family: floor, ceil, round, trunc (zero gradient).
pub fn rounding(x: &Tensor, kind: &str) -> Result<Tensor> {
    if x.dtype() == DType::Bool {
        bail!(NotImplemented, "\"{}_vml_cpu\" not implemented for 'Bool'", kind);
    }
    if x.dtype().is_complex() {
        bail!(NotImplemented, "{} is not supported for complex inputs", kind);
    }
    if !x.dtype().is_float() {
        return x.detach_copy();
    }
    let out = match kind {
        "floor" => float_op(x, UnaryOp::Floor)?,
        "ceil" => float_op(x, UnaryOp::Ceil)?,
        "trunc" => float_op(x, UnaryOp::Trunc)?,
        _ => float_op(x, UnaryOp::Round)?,
    };
    let meta = crate::autograd::InputMeta::of(x);
    let name: &'static str = match kind { "floor" => "FloorBackward0", "ceil" => "CeilBackward0", "trunc" => "TruncBackward0", _ => "RoundBackward0" };
    record_ew(name, x, &out, &[], move |_, _, _| Ok(vec![Some(meta.zeros()?)]))?;
    Ok(out)
}

/// `log1p`, `expm1`, `log2`, `log10`, `exp2`, `tan`, `asin`... (less common unary ops).
pub fn unary_extra(x: &Tensor, kind: &str) -> Result<Tensor> {
    match kind {
        "log1p" => { let out = float_op(x, UnaryOp::Log1p)?; record_ew("Log1PBackward0", x, &out, &[Save::In(x)], |s, g, _| Ok(vec![Some(div(&g[0], &add(&s.get(0)?, &sc(1.0))?)?)]))?; Ok(out) }
        "expm1" => { let out = float_op(x, UnaryOp::Expm1)?; record_ew("Expm1Backward0", x, &out, &[Save::Out(0)], |s, g, _| Ok(vec![Some(mul(&g[0], &add(&s.get(0)?, &sc(1.0))?)?)]))?; Ok(out) }
        // d 2^x = g · 2^x · ln 2
        "exp2" => { let out = float_op(x, UnaryOp::Exp2)?; record_ew("Exp2Backward0", x, &out, &[Save::Out(0)], |s, g, _| Ok(vec![Some(mul(&g[0], &mul(&s.get(0)?, &sc(std::f64::consts::LN_2))?)?)]))?; Ok(out) }
        "log2" => { let out = float_op(x, UnaryOp::Log2)?; record_ew("Log2Backward0", x, &out, &[Save::In(x)], |s, g, _| Ok(vec![Some(div(&g[0], &mul(&s.get(0)?, &sc(std::f64::consts::LN_2))?)?)]))?; Ok(out) }
        "log10" => { let out = float_op(x, UnaryOp::Log10)?; record_ew("Log10Backward0", x, &out, &[Save::In(x)], |s, g, _| Ok(vec![Some(div(&g[0], &mul(&s.get(0)?, &sc(std::f64::consts::LN_10))?)?)]))?; Ok(out) }
        "tan" => { let out = float_op(x, UnaryOp::Tan)?; record_ew("TanBackward0", x, &out, &[Save::Out(0)], |s, g, _| { let r = s.get(0)?; Ok(vec![Some(mul(&g[0], &add(&mul(&r, &r)?, &sc(1.0))?)?)]) })?; Ok(out) }
        "atan" => { let out = float_op(x, UnaryOp::Atan)?; record_ew("AtanBackward0", x, &out, &[Save::In(x)], |s, g, _| { let v = s.get(0)?; Ok(vec![Some(div(&g[0], &add(&mul(&v, &v)?, &sc(1.0))?)?)]) })?; Ok(out) }
        "asin" => { let out = float_op(x, UnaryOp::Asin)?; record_ew("AsinBackward0", x, &out, &[Save::In(x)], |s, g, _| { let v = s.get(0)?; Ok(vec![Some(mul(&g[0], &rsqrt(&super::rsub(&mul(&v, &v)?, &sc(1.0))?)?)?)]) })?; Ok(out) }
        "acos" => { let out = float_op(x, UnaryOp::Acos)?; record_ew("AcosBackward0", x, &out, &[Save::In(x)], |s, g, _| { let v = s.get(0)?; Ok(vec![Some(neg(&mul(&g[0], &rsqrt(&super::rsub(&mul(&v, &v)?, &sc(1.0))?)?)?)?)]) })?; Ok(out) }
        "sinh" => { let out = float_op(x, UnaryOp::Sinh)?; record_ew("SinhBackward0", x, &out, &[Save::In(x)], |s, g, _| Ok(vec![Some(mul(&g[0], &unary_extra(&s.get(0)?, "cosh")?)?)]))?; Ok(out) }
        "cosh" => { let out = float_op(x, UnaryOp::Cosh)?; record_ew("CoshBackward0", x, &out, &[Save::In(x)], |s, g, _| Ok(vec![Some(mul(&g[0], &unary_extra(&s.get(0)?, "sinh")?)?)]))?; Ok(out) }
        // d asinh = g / sqrt(x² + 1); d acosh = g / sqrt(x² - 1) (as torch: (x-1)·(x+1));
        // d atanh = g / (1 - x²)
        "asinh" => { let out = float_op(x, UnaryOp::Asinh)?; record_ew("AsinhBackward0", x, &out, &[Save::In(x)], |s, g, _| { let v = s.get(0)?; Ok(vec![Some(mul(&g[0], &rsqrt(&add(&mul(&v, &v)?, &sc(1.0))?)?)?)]) })?; Ok(out) }
        "acosh" => { let out = float_op(x, UnaryOp::Acosh)?; record_ew("AcoshBackward0", x, &out, &[Save::In(x)], |s, g, _| { let v = s.get(0)?; Ok(vec![Some(mul(&g[0], &rsqrt(&mul(&add(&v, &sc(-1.0))?, &add(&v, &sc(1.0))?)?)?)?)]) })?; Ok(out) }
        "atanh" => { let out = float_op(x, UnaryOp::Atanh)?; record_ew("AtanhBackward0", x, &out, &[Save::In(x)], |s, g, _| { let v = s.get(0)?; Ok(vec![Some(div(&g[0], &super::rsub(&mul(&v, &v)?, &sc(1.0))?)?)]) })?; Ok(out) }
        // d lgamma = g · ψ(x); d ψ = g · ψ'(x); ψ' is not differentiated further here
        "lgamma" => { let out = float_op(x, UnaryOp::Lgamma)?; record_ew("LgammaBackward0", x, &out, &[Save::In(x)], |s, g, _| Ok(vec![Some(mul(&g[0], &unary_extra(&s.get(0)?, "digamma")?)?)]))?; Ok(out) }
        "digamma" => { let out = float_op(x, UnaryOp::Digamma)?; record_ew("DigammaBackward0", x, &out, &[Save::In(x)], |s, g, _| Ok(vec![Some(mul(&g[0], &unary_extra(&s.get(0)?, "trigamma")?)?)]))?; Ok(out) }
        "trigamma" => { let out = float_op(x, UnaryOp::Trigamma)?; record_ew("PolygammaBackward0", x, &out, &[], |_, _, _| bail!(NotImplemented, "the derivative of polygamma(1, x) is not implemented"))?; Ok(out) }
        // d erfc = -2/√π · e^(-x²) · g
        "erfc" => {
            real_only(x, "erfc_vml_cpu")?;
            let out = float_op(x, UnaryOp::Erfc)?;
            record_ew("ErfcBackward0", x, &out, &[Save::In(x)], |s, g, _| {
                let v = s.get(0)?;
                let e = super::exp(&neg(&mul(&v, &v)?)?)?;
                Ok(vec![Some(mul(&g[0], &mul(&e, &sc(-std::f64::consts::FRAC_2_SQRT_PI))?)?)])
            })?;
            Ok(out)
        }
        // d sinc = g · (πx cos πx - sin πx) / (πx²), 0 at 0
        "sinc" => {
            real_only(x, "sinc")?;
            let out = float_op(x, UnaryOp::Sinc)?;
            record_ew("SincBackward0", x, &out, &[Save::In(x)], |s, g, _| {
                let v = s.get(0)?;
                let p = mul(&v, &sc(std::f64::consts::PI))?;
                let num = super::sub(&mul(&p, &super::cos(&p)?)?, &super::sin(&p)?)?;
                let d = div(&num, &mul(&p, &v)?)?;
                let zero = binary_raw(&v, &Tensor::wrapped_scalar(Scalar::Int(0)), BinOp::Eq)?;
                let d = super::masked_fill(&d, &zero, &sc(0.0))?;
                Ok(vec![Some(mul(&g[0], &d)?)])
            })?;
            Ok(out)
        }
        // frac(x) = x - trunc(x); d frac = g
        "frac" => {
            let dt = x.dtype();
            if !dt.is_float() {
                bail!(NotImplemented, "\"frac_cpu\" not implemented for '{}'", dt.scalar_name());
            }
            let out = binary_raw(x, &backend::unary(x, UnaryOp::Trunc)?, BinOp::Sub)?;
            record_ew("FracBackward0", x, &out, &[], |_, g, _| Ok(vec![Some(g[0].clone())]))?;
            Ok(out)
        }
        // x · π/180 and x · 180/π (integers in the default float); the derivative is the factor
        "deg2rad" | "rad2deg" => {
            real_only(x, kind)?;
            let (f, name) = if kind == "deg2rad" {
                (std::f64::consts::PI / 180.0, "Deg2RadBackward0")
            } else {
                (57.295779513082320876798154814105170332405472466564, "Rad2DegBackward0")
            };
            let out = binary_raw(&float_input(x)?, &sc(f), BinOp::Mul)?;
            record_ew(name, x, &out, &[], move |_, g, _| Ok(vec![Some(mul(&g[0], &sc(f))?)]))?;
            Ok(out)
        }
        "square" => pow_scalar(x, Scalar::Int(2)),
        _ => bail!(NotImplemented, "unary op {} is not implemented", kind),
    }
}

/// torch's error for a complex input to a real-only kernel.
fn real_only(x: &Tensor, kernel: &str) -> Result<()> {
    if x.dtype().is_complex() {
        bail!(NotImplemented, "\"{}\" not implemented for '{}'", kernel, x.dtype().scalar_name());
    }
    Ok(())
}

/// `x.logical_not()` / `~mask`.
pub fn logical_not(x: &Tensor) -> Result<Tensor> {
    let b = if x.dtype() == DType::Bool { x.clone() } else { binary_raw(x, &Tensor::wrapped_scalar(Scalar::Int(0)), BinOp::Ne)? };
    backend::unary(&b, UnaryOp::LogicalNot)
}

/// `~x` / `bitwise_not(x)`: logical not of a bool tensor, the complement of every bit of an
/// integer one (x XOR all ones); floating and complex tensors are refused.
pub fn bitwise_not(x: &Tensor) -> Result<Tensor> {
    let dt = x.dtype();
    if dt == DType::Bool {
        return logical_not(x);
    }
    ensure!(!dt.is_float() && !dt.is_complex(), NotImplemented, "\"bitwise_not_cpu\" not implemented for '{}'", dt.scalar_name());
    let ones = if dt == DType::UInt8 { 255 } else { -1 };
    binary_raw(x, &Tensor::wrapped_scalar(Scalar::Int(ones)), BinOp::Xor)
}

/// `isnan`/`isinf`/`isfinite` masks.
pub fn float_test(x: &Tensor, kind: &str) -> Result<Tensor> {
    if x.dtype().is_complex() {
        // NaN / infinite when either part is; finite when both are
        let (re, im) = super::complex::parts(x)?;
        let (a, b) = (float_test(&re, kind)?, float_test(&im, kind)?);
        let op = if kind == "isfinite" { BinOp::Mul } else { BinOp::Add };
        let both = binary_raw(&a, &b, op)?;
        return binary_raw(&both, &Tensor::wrapped_scalar(Scalar::Bool(false)), BinOp::Ne);
    }
    if !x.dtype().is_float() {
        let v = kind == "isfinite";
        return crate::tensor::full_on(&x.shape(), Scalar::Bool(v), DType::Bool, x.device());
    }
    let op = match kind {
        "isnan" => UnaryOp::IsNan,
        "isinf" => UnaryOp::IsInf,
        _ => UnaryOp::IsFinite,
    };
    backend::unary(x, op)
}

/// `nan_to_num(x, nan, posinf, neginf)` of a real floating `x` (NanToNumBackward0: the
/// gradient passes where `x` is finite): NaN, +inf and -inf replaced, the infinities by the
/// dtype's largest and lowest finite values unless given.
pub fn nan_to_num(x: &Tensor, nan: f64, posinf: Option<f64>, neginf: Option<f64>) -> Result<Tensor> {
    crate::ensure!(x.dtype().is_float(), Runtime, "nan_to_num: expected a real floating tensor, got {}", x.dtype().scalar_name());
    let max = match x.dtype() {
        DType::Float16 => 65504.0,
        DType::BFloat16 => 3.3895313892515355e38,
        DType::Float32 => f32::MAX as f64,
        _ => f64::MAX,
    };
    let (hi, lo) = (posinf.unwrap_or(max), neginf.unwrap_or(-max));
    let out = {
        let _g = crate::autograd::raw_mode();
        let typed = |v: f64| super::cast_raw(&Tensor::wrapped_scalar(Scalar::Float(v)), x.dtype());
        let xd = x.detach();
        let y = super::where_(&float_test(&xd, "isnan")?, &typed(nan)?, &xd)?;
        let pos = binary_raw(&xd, &sc(f64::INFINITY), BinOp::Eq)?;
        let y = super::where_(&pos, &typed(hi)?, &y)?;
        let neg = binary_raw(&xd, &sc(f64::NEG_INFINITY), BinOp::Eq)?;
        super::where_(&neg, &typed(lo)?, &y)?
    };
    // d/dx = 1 where x is finite, 0 where it was replaced
    record_ew("NanToNumBackward0", x, &out, &[Save::In(x)], |s, g, _| {
        let finite = float_test(&s.get(0)?, "isfinite")?;
        Ok(vec![Some(mul(&g[0], &super::cast_raw(&finite, g[0].dtype())?)?)])
    })?;
    if out.grad_fn().is_some() {
        crate::autograd::Node::annotate(&out, &[], &[(0, "self")]);
    }
    Ok(out)
}
