//! Pointwise ops of three operands: `lerp` (scalar or tensor weight), `addcmul`, `addcdiv`.
//! Values are computed without history (in float32 for the half types, as ATen's opmath),
//! then one node is recorded with the backward formula and the JVP formula side by side.

use super::{abs, add, cast_raw, compare, div, mul, neg, rsub, sub, sum_to, where_, BinOp};
use crate::autograd::{forward, raw_mode, record_jvp, Node, Save, SavedValue};
use crate::backend;
use crate::dtype::{result_type, DType};
use crate::error::Result;
use crate::shape::broadcast_shapes;
use crate::tensor::{Scalar, Tensor};
use crate::{bail, ensure};

fn sc(s: Scalar) -> Tensor {
    Tensor::wrapped_scalar(s)
}

fn scf(v: f64) -> Tensor {
    Tensor::wrapped_scalar(Scalar::Float(v))
}

/// The dtype ATen computes a pointwise op of `dt` in (`opmath_type`).
fn opmath(dt: DType) -> DType {
    match dt {
        DType::Float16 | DType::BFloat16 => DType::Float32,
        d => d,
    }
}

/// `t` in dtype `dt` (a contiguous copy when it differs), without history.
fn as_dtype(t: &Tensor, dt: DType) -> Result<Tensor> {
    if t.dtype() == dt { Ok(t.detach()) } else { cast_raw(t, dt) }
}

/// A Python number as ATen reads it for a kernel over `dt` (`Scalar::to<scalar_t>()`):
/// truncated for integral dtypes, a bool for bool.
pub fn scalar_as(s: Scalar, dt: DType) -> Scalar {
    if dt.is_float() {
        Scalar::Float(s.as_f64())
    } else if dt == DType::Bool {
        Scalar::Bool(s.as_f64() != 0.0)
    } else {
        Scalar::Int(s.as_i64())
    }
}

/// `value` as a saved field (`_saved_value`, `_saved_weight`).
fn saved(s: Scalar) -> SavedValue {
    match s {
        Scalar::Float(f) => SavedValue::Float(f),
        Scalar::Int(i) => SavedValue::Int(i),
        Scalar::Bool(b) => SavedValue::Bool(b),
    }
}

/// The broadcast shape of the operands, in TensorIterator's order (its messages name the
/// accumulated shape `a` and the next operand `b`).
fn iter_shape(ts: &[&Tensor]) -> Result<Vec<usize>> {
    let mut s: Vec<usize> = ts[0].shape().to_vec();
    for t in &ts[1..] {
        s = broadcast_shapes(&s, &t.shape())?.to_vec();
    }
    Ok(s)
}

fn not_implemented(kernel: &str, dt: DType) -> crate::error::Error {
    crate::error::Error::NotImplemented(format!("\"{}\" not implemented for '{}'", kernel, dt.scalar_name()))
}

/// The raw value of `lerp`: `self + w (end - self)` for |w| < 0.5, else
/// `end + (w - 1)(end - self)` (ATen's two-sided form, exact at w = 0 and w = 1).
fn lerp_value(a: &Tensor, e: &Tensor, w: Option<&Tensor>, ws: f64) -> Result<Tensor> {
    let _raw = raw_mode();
    let dt = a.dtype();
    let om = opmath(dt);
    let (a, e) = (as_dtype(a, om)?, as_dtype(e, om)?);
    if w.is_none() && om == DType::Float32 && a.shape() == e.shape() {
        // the backend's fused kernel (one pass, one rounding per element)
        let (ac, ec) = (super::contiguous(&a)?, super::contiguous(&e)?);
        if let Some(out) = backend::lerp_scalar(&ac, &ec, round_to(dt, ws))? {
            return Ok(if dt == om { out } else { cast_raw(&out, dt)? }.detach());
        }
    }
    let diff = sub(&e, &a)?;
    // ATen's kernel: `fma(coeff, end - self, base)` with (coeff, base) = (w, self) where
    // |w| < 0.5, else (w - 1, end). A float32 fma is one rounding of the exact value: in
    // float64 the product is exact and the sum rounds once more (a double rounding only at
    // an exact float64 tie); float64 tensors take the unfused formula.
    let fused = om == DType::Float32;
    let fma = |coeff: &Tensor, base: &Tensor| -> Result<Tensor> {
        if fused {
            let (c, d, b) = (as_dtype(coeff, DType::Float64)?, as_dtype(&diff, DType::Float64)?, as_dtype(base, DType::Float64)?);
            cast_raw(&add(&b, &mul(&c, &d)?)?, DType::Float32)
        } else {
            add(base, &mul(coeff, &diff)?)
        }
    };
    let out = match w {
        None => {
            // the weight is read as a value of the tensors' dtype first
            let wv = round_to(dt, ws);
            let small = wv.abs() < 0.5;
            let coeff = scf(if small { wv } else { wv - 1.0 });
            let coeff = if fused { cast_raw(&coeff, DType::Float32)? } else { coeff };
            fma(&coeff, if small { &a } else { &e })?
        }
        Some(w) => {
            let w = as_dtype(&as_dtype(w, dt)?, om)?;
            let small = compare(&abs(&w)?, &scf(0.5), BinOp::Lt)?;
            let coeff = where_(&small, &w, &sub(&w, &scf(1.0))?)?;
            let base = where_(&small, &a, &e)?;
            fma(&coeff, &base)?
        }
    };
    let shape = out.shape();
    let out = if out.dtype() != dt || !out.is_contiguous() { cast_raw(&out, dt)? } else { out };
    debug_assert_eq!(out.shape(), shape);
    Ok(out.detach())
}

/// `v` as ATen's scalar-weight lerp kernel reads it: a float for float32 and the half types
/// (their opmath), a double for float64.
fn round_to(dt: DType, v: f64) -> f64 {
    match dt {
        DType::Float64 => v,
        _ => v as f32 as f64,
    }
}

fn lerp_dtypes(a: &Tensor, e: &Tensor) -> Result<()> {
    if a.dtype() != e.dtype() {
        bail!(Runtime, "expected dtype {} for `end` but got dtype {}", a.dtype().cpp_type_name(), e.dtype().cpp_type_name());
    }
    Ok(())
}

/// `lerp(self, end, weight)` for a number `weight` (LerpBackward0):
/// `self + weight * (end - self)`.
pub fn lerp_scalar(a: &Tensor, e: &Tensor, w: Scalar) -> Result<Tensor> {
    lerp_dtypes(a, e)?;
    iter_shape(&[a, e])?;
    if !a.dtype().is_float() {
        return Err(not_implemented("lerp_kernel_scalar", a.dtype()));
    }
    let wf = w.as_f64();
    let out = lerp_value(a, e, None, wf)?;
    let (sa, se) = (a.shape(), e.shape());
    // d/dself = g (1 - w), d/dend = g w
    record_jvp("LerpBackward0", &[a, e], &[&out], &[], move |_, g, n| {
        let ga = if n[0] { Some(sum_to(&mul(&g[0], &scf(1.0 - wf))?, &sa)?) } else { None };
        let ge = if n[1] { Some(sum_to(&mul(&g[0], &scf(wf))?, &se)?) } else { None };
        Ok(vec![ga, ge])
    },
        // JVP: lerp(t_self, t_end, w), linear in the tangents
        |t| forward::linear(2, t, |i, ti| mul(ti, &scf(if i == 0 { 1.0 - wf } else { wf }))))?;
    Node::annotate(&out, &[("weight", saved(w))], &[]);
    Ok(out)
}

/// `lerp(self, end, weight)` for a tensor `weight` (LerpBackward1).
pub fn lerp_tensor(a: &Tensor, e: &Tensor, w: &Tensor) -> Result<Tensor> {
    lerp_dtypes(a, e)?;
    // a 0-dim weight may have another dtype (it is read as a number of self's dtype)
    if a.dtype() != w.dtype() && w.dim() != 0 {
        bail!(Runtime, "expected dtype {} for `weight` but got dtype {}", a.dtype().cpp_type_name(), w.dtype().cpp_type_name());
    }
    iter_shape(&[a, e, w])?;
    if !a.dtype().is_float() {
        return Err(not_implemented("lerp_kernel_tensor", a.dtype()));
    }
    let out = lerp_value(a, e, Some(w), 0.0)?;
    let (sa, se, sw) = (a.shape(), e.shape(), w.shape());
    // d/dself = g (1 - w), d/dend = g w, d/dweight = g (end - self)
    record_jvp("LerpBackward1", &[a, e, w], &[&out], &[Save::In(a), Save::In(e), Save::In(w)], move |s, g, n| {
        let wt = s.get(2)?;
        let ga = if n[0] { Some(sum_to(&mul(&g[0], &rsub(&wt, &scf(1.0))?)?, &sa)?) } else { None };
        let ge = if n[1] { Some(sum_to(&mul(&g[0], &wt)?, &se)?) } else { None };
        let gw = if n[2] { Some(sum_to(&mul(&g[0], &sub(&s.get(1)?, &s.get(0)?)?)?, &sw)?) } else { None };
        Ok(vec![ga, ge, gw])
    },
        // JVP: lerp(t_self, t_end, w) + t_w (end - self)
        |t| forward::linear(3, t, |i, ti| match i {
            0 => mul(ti, &rsub(w, &scf(1.0))?),
            1 => mul(ti, w),
            _ => mul(ti, &sub(e, a)?),
        }))?;
    Node::annotate(&out, &[], &[(0, "self"), (1, "end"), (2, "weight")]);
    Ok(out)
}

/// The common dtype of three tensor operands (TensorIterator's, 0-dim tensors ranking below
/// dimensioned ones).
fn common3(a: &Tensor, b: &Tensor, c: &Tensor) -> DType {
    result_type(&[(a.dtype(), a.priority()), (b.dtype(), b.priority()), (c.dtype(), c.priority())])
}

/// `self + value * t1 (op) t2` computed without history in dtype `ct`.
fn addc_value(s: &Tensor, t1: &Tensor, t2: &Tensor, value: Scalar, ct: DType, op: BinOp) -> Result<Tensor> {
    let _raw = raw_mode();
    let om = opmath(ct);
    let (s, t1, t2) = (as_dtype(s, om)?, as_dtype(t1, om)?, as_dtype(t2, om)?);
    if om == ct && matches!(ct, DType::Float32 | DType::Float64) && s.device().is_cpu() {
        // one pass of ATen's rounding (addcmul's fused multiply-add), on operands broadcast
        // to the full shape (copies only where one is broadcast or strided)
        let shape = iter_shape(&[&s, &t1, &t2])?;
        let sizes: Vec<i64> = shape.iter().map(|&d| d as i64).collect();
        let full = |t: &Tensor| -> Result<Tensor> {
            if t.shape()[..] == shape[..] && t.is_contiguous() { Ok(t.clone()) } else { super::contiguous(&super::expand(t, &sizes)?) }
        };
        if let Some(out) = backend::addc(&full(&s)?, &full(&t1)?, &full(&t2)?, scalar_as(value, ct).as_f64(), op == BinOp::Div)? {
            return Ok(out);
        }
    }
    let v = sc(scalar_as(value, ct));
    let p = mul(&t1, &v)?;
    let p = if op == BinOp::Div { div(&p, &t2)? } else { mul(&p, &t2)? };
    let out = add(&s, &p)?;
    let out = if out.dtype() != ct || !out.is_contiguous() { cast_raw(&out, ct)? } else { out };
    Ok(out.detach())
}

/// `addcmul(self, tensor1, tensor2, value)` = `self + value * tensor1 * tensor2`
/// (AddcmulBackward0).
pub fn addcmul(s: &Tensor, t1: &Tensor, t2: &Tensor, value: Scalar) -> Result<Tensor> {
    iter_shape(&[s, t1, t2])?;
    let ct = common3(s, t1, t2);
    if ct == DType::Bool {
        return Err(not_implemented("addcmul_cpu_out", ct));
    }
    let out = addc_value(s, t1, t2, value, ct, BinOp::Mul)?;
    let v = scalar_as(value, ct);
    let (ss, s1, s2) = (s.shape(), t1.shape(), t2.shape());
    // d/dself = g, d/dt1 = g t2 value, d/dt2 = g t1 value
    record_jvp("AddcmulBackward0", &[s, t1, t2], &[&out], &[Save::In(t1), Save::In(t2)], move |sv, g, n| {
        let gs = if n[0] { Some(sum_to(&g[0], &ss)?) } else { None };
        let g1 = if n[1] { Some(sum_to(&mul(&g[0], &mul(&sv.get(1)?, &sc(v))?)?, &s1)?) } else { None };
        let g2 = if n[2] { Some(sum_to(&mul(&g[0], &mul(&sv.get(0)?, &sc(v))?)?, &s2)?) } else { None };
        Ok(vec![gs, g1, g2])
    },
        // JVP: t_self + value (t_t1 t2 + t_t2 t1)
        |t| forward::linear(3, t, |i, ti| match i {
            0 => Ok(ti.clone()),
            1 => mul(&mul(ti, t2)?, &sc(v)),
            _ => mul(&mul(ti, t1)?, &sc(v)),
        }))?;
    Node::annotate(&out, &[("value", saved(value))], &[(0, "tensor1"), (1, "tensor2")]);
    Ok(out)
}

/// `addcmul_` (`div`: `addcdiv_`): straight into `s` when nothing is recorded and the
/// backend can (three contiguous float tensors of one shape, a real number `value`), else
/// the out-of-place op on the in-place path. Same values either way.
pub fn addc_(s: &Tensor, t1: &Tensor, t2: &Tensor, value: Scalar, div: bool) -> Result<()> {
    if matches!(value, Scalar::Float(_) | Scalar::Int(_)) && !crate::autograd::needs_history(&[s, t1, t2]) {
        super::check_inplace(s)?;
        if backend::addc_in_place(s, t1, t2, value.as_f64(), div)? {
            s.bump_version();
            return Ok(());
        }
    }
    super::inplace(s, |inp| if div { addcdiv(inp, t1, t2, value) } else { addcmul(inp, t1, t2, value) })
}

/// `addcdiv(self, tensor1, tensor2, value)` = `self + value * tensor1 / tensor2`
/// (AddcdivBackward0).
pub fn addcdiv(s: &Tensor, t1: &Tensor, t2: &Tensor, value: Scalar) -> Result<Tensor> {
    let integral = |t: &Tensor| !t.dtype().is_float();
    if integral(t1) && integral(t2) {
        bail!(Runtime, "Integer division with addcdiv is no longer supported, and in a future  release addcdiv will perform a true division of tensor1 and tensor2. The historic addcdiv behavior can be implemented as (input + value * torch.trunc(tensor1 / tensor2)).to(input.dtype) for integer inputs and as (input + value * tensor1 / tensor2) for float inputs. The future addcdiv behavior is just the latter implementation: (input + value * tensor1 / tensor2), for all dtypes.");
    }
    iter_shape(&[s, t1, t2])?;
    let ct = common3(s, t1, t2);
    let out = addc_value(s, t1, t2, value, ct, BinOp::Div)?;
    let v = scalar_as(value, ct);
    let (ss, s1, s2) = (s.shape(), t1.shape(), t2.shape());
    // d/dself = g, d/dt1 = g value / t2, d/dt2 = -g value t1 / t2²
    record_jvp("AddcdivBackward0", &[s, t1, t2], &[&out], &[Save::In(t1), Save::In(t2)], move |sv, g, n| {
        let gs = if n[0] { Some(sum_to(&g[0], &ss)?) } else { None };
        let b = sv.get(1)?;
        let g1 = if n[1] { Some(sum_to(&mul(&g[0], &div(&sc(v), &b)?)?, &s1)?) } else { None };
        let g2 = if n[2] {
            let a = sv.get(0)?;
            Some(sum_to(&mul(&neg(&g[0])?, &div(&mul(&a, &sc(v))?, &mul(&b, &b)?)?)?, &s2)?)
        } else { None };
        Ok(vec![gs, g1, g2])
    },
        // JVP: t_self + value t_t1 / t2 - value t_t2 (t1 / t2) / t2
        |t| forward::linear(3, t, |i, ti| match i {
            0 => Ok(ti.clone()),
            1 => mul(&div(ti, t2)?, &sc(v)),
            _ => neg(&mul(&div(&mul(ti, &div(t1, t2)?)?, t2)?, &sc(v))?),
        }))?;
    Node::annotate(&out, &[("value", saved(value))], &[(0, "tensor1"), (1, "tensor2")]);
    Ok(out)
}

/// In-place `self.addmm_`-style check: an in-place write keeps `self`'s shape.
pub fn check_inplace_shape(target: &Tensor, out_shape: &[usize]) -> Result<()> {
    ensure!(target.shape()[..] == out_shape[..], Runtime, "Bad in-place call: input tensor size {} and output tensor size {} should match",
        crate::shape::fmt_list(&target.shape()), crate::shape::fmt_list(out_shape));
    Ok(())
}
