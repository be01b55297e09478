//! Binary elementwise ops with broadcasting and type promotion: arithmetic (with backward),
//! comparisons and logical ops (no backward).

use super::{float_input, sum_to, SumTo};
use crate::autograd::{forward, record, record_with, recording_edges, Save};
use crate::backend;
pub use crate::backend::BinaryOp as BinOp;
use crate::{bail, ensure};
use crate::dtype::{result_type, DType};
use crate::error::Result;
use crate::shape::broadcast_shapes;
use crate::tensor::{Scalar, Tensor};

/// The dtype `a op b` computes in (before comparisons turn it into bool).
pub fn compute_dtype(a: &Tensor, b: &Tensor, op: BinOp) -> DType {
    let rt = result_type(&[(a.dtype(), a.priority()), (b.dtype(), b.priority())]);
    match op {
        BinOp::Div if !rt.is_float() && !rt.is_complex() => crate::dtype::default_float(),
        _ => rt,
    }
}

/// A CPU 0-dim operand (a Python scalar) joins a device op on the device.
fn same_device(a: Tensor, b: Tensor) -> Result<(Tensor, Tensor)> {
    let (da, db) = (a.device(), b.device());
    if da == db {
        return Ok((a, b));
    }
    if db.is_cpu() && b.dim() == 0 {
        return Ok((a, backend::to_device(&b, da)?));
    }
    if da.is_cpu() && a.dim() == 0 {
        return Ok((backend::to_device(&a, db)?, b));
    }
    let (first, second) = if da.is_cpu() { (db, da) } else { (da, db) };
    Err(crate::error::Error::DeviceMismatch { op: "binary", first, second })
}

/// Compute `a op b` without recording history.
pub fn binary_raw(a: &Tensor, b: &Tensor, op: BinOp) -> Result<Tensor> {
    // the commonest case: same dtype, shape and device (no promotion, no broadcast), where
    // the backend reads both layouts in place
    {
        let (da, db) = (a.data(), b.data());
        if da.dtype.is_complex() || db.dtype.is_complex() {
            drop((da, db));
            return super::complex::binary_raw(a, b, op);
        }
        if da.dtype == db.dtype && da.layout.shape == db.layout.shape && da.storage.device() == db.storage.device()
            && (da.dtype.is_float() || op != BinOp::Div) {
            // the layouts are read under the locks just taken
            return backend::binary_same(&da, &db, op);
        }
    }
    // a half-precision tensor times (or divided by) a number or a 0-dim tensor of another
    // dtype: ATen's mul and div kernels read such a second-operand CPU scalar in float32 (the
    // op's math type) and round the result once, so the scalar must not be rounded to half
    // first (`h * 1.1`); add and sub do round it (their kernels take it as an input)
    if matches!(op, BinOp::Mul | BinOp::Div) && b.dim() == 0 && a.dim() > 0 {
        let half = a.dtype();
        if matches!(half, DType::Float16 | DType::BFloat16) && b.dtype() != half && !b.dtype().is_complex() && b.device().is_cpu()
            && compute_dtype(a, b, op) == half {
            let _g = crate::autograd::raw_mode();
            let af = super::cast_raw(a, DType::Float32)?;
            let bf = super::cast_raw(&Tensor::wrapped_scalar(Scalar::Float(b.item()?.as_f64() as f32 as f64)), DType::Float32)?;
            return super::cast_raw(&binary_raw(&af, &bf, op)?, half);
        }
    }
    // a float tensor with a Python number (`y * 1.0001`): the number keeps the tensor's dtype
    if b.0.is_wrapped_number && matches!(op, BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div) && a.dtype().is_float() {
        if let Some(out) = backend::binary_scalar(a, b.item()?.as_f64(), op)? {
            return Ok(out);
        }
    }
    // one look at both operands decides shape, dtype and device; in the common case (same
    // dtype and device) their layouts are used from here without locking again
    let (shape, ct, fast, same_dev, cast_a, cast_b) = {
        let (da, db) = (a.data(), b.data());
        let shape = if da.layout.shape == db.layout.shape { da.layout.shape.clone() } else { broadcast_shapes(&da.layout.shape, &db.layout.shape)? };
        let prio = |t: &Tensor, d: &crate::tensor::TensorData| {
            if t.0.is_wrapped_number { crate::dtype::Priority::Scalar } else if d.layout.ndim() == 0 { crate::dtype::Priority::ZeroDim } else { crate::dtype::Priority::Dimensioned }
        };
        let rt = if da.dtype == db.dtype { da.dtype } else { result_type(&[(da.dtype, prio(a, &da)), (db.dtype, prio(b, &db))]) };
        let ct = match op {
            BinOp::Div if !rt.is_float() => crate::dtype::default_float(),
            _ => rt,
        };
        let same_dev = da.storage.device() == db.storage.device();
        let fast = if da.dtype == ct && db.dtype == ct && same_dev {
            let la = if da.layout.shape == shape { da.layout.clone() } else { da.layout.broadcast_to(&shape)? };
            let lb = if db.layout.shape == shape { db.layout.clone() } else { db.layout.broadcast_to(&shape)? };
            Some((la, lb))
        } else {
            None
        };
        (shape, ct, fast, same_dev, da.dtype != ct, db.dtype != ct)
    };
    if let Some((la, lb)) = fast {
        return backend::binary(a, &la, b, &lb, op);
    }
    // operands converted in their own layout, so the result's layout is decided on the
    // operands' strides (as TensorIterator's common-dtype casts)
    let a = if cast_a { backend::cast_preserving(a, ct)? } else { a.clone() };
    let b = if cast_b { backend::cast_preserving(b, ct)? } else { b.clone() };
    let (a, b) = if same_dev { (a, b) } else { same_device(a, b)? };
    let la = a.layout().broadcast_to(&shape)?;
    let lb = b.layout().broadcast_to(&shape)?;
    backend::binary(&a, &la, &b, &lb, op)
}

fn grad_for(needs: &[bool], i: usize, f: impl FnOnce() -> Result<Tensor>) -> Result<Option<Tensor>> {
    if needs[i] { f().map(Some) } else { Ok(None) }
}

/// `a op c` for a float32/float64 tensor and a Python number (`y * 1.0001`, `x + 1`), op
/// one of add, sub, mul and div: the value, node and saved slots of `op(a, c)` with `c` a
/// wrapped number, without building that number's tensor unless a node saves it (add and
/// sub save nothing; it was most of such an op's cost besides the kernel). `None` where the
/// general path applies (other dtypes, devices or layouts, an integer beyond 2^53, forward-
/// mode tangents).
pub fn number_op(a: &Tensor, c: Scalar, op: BinOp) -> Result<Option<Tensor>> {
    if !matches!(op, BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div) || forward::is_active() {
        return Ok(None);
    }
    let cf = match c {
        Scalar::Float(f) => f,
        Scalar::Int(i) if i.unsigned_abs() <= 1 << 53 => i as f64,
        _ => return Ok(None),
    };
    let Some(out) = backend::binary_scalar(a, cf, op)? else { return Ok(None) };
    if !crate::autograd::is_grad_enabled() {
        return Ok(Some(out));
    }
    let Some(ea) = a.gradient_edge() else { return Ok(Some(out)) };
    // the number's edge is empty, as a wrapped number's (it never requires grad), and `a` has
    // the output's shape (a number broadcasts to it), so its gradient is the incoming one
    let edges: crate::autograd::Edges = [Some(ea), None].into_iter().collect();
    Ok(Some(match op {
        BinOp::Add => {
            record_with(edges, "AddBackward0", &[&out], &[], |_, g, n| Ok(vec![grad_for(n, 0, || Ok(g[0].clone()))?, None]))?;
            out
        }
        BinOp::Sub => {
            record_with(edges, "SubBackward0", &[&out], &[], |_, g, n| Ok(vec![grad_for(n, 0, || Ok(g[0].clone()))?, None]))?;
            out
        }
        BinOp::Mul => record_mul(a, &Tensor::wrapped_scalar(c), out, edges)?,
        _ => record_div(a, &Tensor::wrapped_scalar(c), out, edges, "DivBackward0")?,
    }))
}

/// `a + b`.
pub fn add(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    let out = binary_raw(a, b, BinOp::Add)?;
    if let Some(edges) = recording_edges(&[a, b]) {
        let (sa, sb) = SumTo::pair(a, b);
        // d(a+b)/da = 1, d/db = 1 (summed back over broadcast dims)
        record_with(edges, "AddBackward0", &[&out], &[], move |_, g, n| {
            Ok(vec![grad_for(n, 0, || sa.apply(&g[0]))?, grad_for(n, 1, || sb.apply(&g[0]))?])
        })?;
    }
    // JVP: t_a + t_b
    forward::jvp_linear(&[a, b], &out, |_, t| Ok(t.clone()))?;
    Ok(out)
}

/// `a + alpha * b` (AddBackward0 with `_saved_alpha`).
pub fn add_scaled(a: &Tensor, b: &Tensor, alpha: Scalar) -> Result<Tensor> {
    alpha_check(a, b, alpha)?;
    if alpha.as_f64() == 1.0 {
        return add(a, b);
    }
    // bool operands add as bools: alpha is read as a bool too (torch's common dtype)
    if compute_dtype(a, b, BinOp::Add) == DType::Bool {
        return if alpha.as_f64() != 0.0 { add(a, b) } else { add(a, &mul(b, &Tensor::wrapped_scalar(Scalar::Bool(false)))?) };
    }
    scaled_node(a, b, alpha, false)
}

/// `a ± alpha * b` as one node (AddBackward0 / SubBackward0 with `_saved_alpha`, edges to
/// both operands, as torch's), its value from `scaled_raw`.
fn scaled_node(a: &Tensor, b: &Tensor, alpha: Scalar, subtract: bool) -> Result<Tensor> {
    let out = scaled_raw(a, b, alpha, subtract)?;
    if let Some(edges) = recording_edges(&[a, b]) {
        let (sa, sb) = SumTo::pair(a, b);
        // d/da = 1, d/db = ±alpha (summed back over broadcast dims)
        let factor = match (alpha, subtract) {
            (Scalar::Float(f), true) => Scalar::Float(-f),
            (Scalar::Int(i), true) => Scalar::Int(i.wrapping_neg()),
            (s, _) => s,
        };
        let name = if subtract { "SubBackward0" } else { "AddBackward0" };
        record_with(edges, name, &[&out], &[], move |_, g, n| {
            Ok(vec![grad_for(n, 0, || sa.apply(&g[0]))?, grad_for(n, 1, || sb.apply(&mul(&g[0], &Tensor::wrapped_scalar(factor))?))?])
        })?;
        crate::autograd::Node::annotate(&out, &[("alpha", saved_scalar(alpha))], &[]);
    }
    // JVP: t_a ± alpha t_b
    forward::jvp_linear(&[a, b], &out, |i, t| match (i, subtract) {
        (0, _) => Ok(t.clone()),
        (_, false) => mul(t, &Tensor::wrapped_scalar(alpha)),
        (_, true) => super::neg(&mul(t, &Tensor::wrapped_scalar(alpha))?),
    })?;
    Ok(out)
}

/// The value of `a ± alpha * b` without history. Floating results are computed as ATen's
/// add kernel does: operands in the common dtype (float32 for the half types, ATen's
/// opmath, with alpha rounded to the half type), then one fused multiply-add per element,
/// `fma(b, ±alpha, a)`, so float32 and float64 elements match PyTorch's bit for bit (a
/// product then a sum rounds twice: ~8% of float32 elements differed by an ulp); see
/// `cpu::elementwise::binary_into` for an `other` broadcast along the innermost dimension.
/// Integers (wrapping), complex numbers and devices without the kernel compose a product and
/// a sum.
fn scaled_raw(a: &Tensor, b: &Tensor, alpha: Scalar, subtract: bool) -> Result<Tensor> {
    let ct = compute_dtype(a, b, BinOp::Add);
    if ct.is_float() {
        let _raw = crate::autograd::raw_mode();
        let om = if ct.is_half() { DType::Float32 } else { ct };
        let conv = |t: &Tensor| -> Result<Tensor> {
            let t = if t.dtype() != ct { super::cast_raw(t, ct)? } else { t.clone() };
            if t.dtype() != om { super::cast_raw(&t, om) } else { Ok(t) }
        };
        let (af, bf) = (conv(a)?, conv(b)?);
        if af.device() == bf.device() {
            let shape = broadcast_shapes(&af.shape(), &bf.shape())?;
            let (la, lb) = (af.layout().broadcast_to(&shape)?, bf.layout().broadcast_to(&shape)?);
            // alpha is read as the dtype first (a half type's alpha is rounded to it)
            let al = match ct {
                DType::Float16 => half::f16::from_f64(alpha.as_f64()).to_f64(),
                DType::BFloat16 => half::bf16::from_f64(alpha.as_f64()).to_f64(),
                _ => alpha.as_f64(),
            };
            let al = if subtract { -al } else { al };
            if let Some(out) = backend::add_scaled(&af, &la, &bf, &lb, al)? {
                return if om != ct { super::cast_raw(&out, ct) } else { Ok(out) };
            }
        }
    }
    let _raw = crate::autograd::raw_mode();
    binary_raw(a, &scaled(b, alpha)?, if subtract { BinOp::Sub } else { BinOp::Add })
}

/// `alpha * b`; a Python number `b` stays a number (so `bool_t + 1.5 * alpha` is float32,
/// as in torch, not the float64 of a 0-dim product).
fn scaled(b: &Tensor, alpha: Scalar) -> Result<Tensor> {
    if b.0.is_wrapped_number {
        let v = b.item()?;
        return Ok(Tensor::wrapped_scalar(match (v, alpha) {
            (Scalar::Float(_), _) | (_, Scalar::Float(_)) => Scalar::Float(v.as_f64() * alpha.as_f64()),
            _ => Scalar::Int(v.as_i64().wrapping_mul(alpha.as_i64())),
        }));
    }
    mul(b, &Tensor::wrapped_scalar(alpha))
}

/// `a - b`.
pub fn sub(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    sub_check(a, b)?;
    let out = binary_raw(a, b, BinOp::Sub)?;
    if let Some(edges) = recording_edges(&[a, b]) {
        let (sa, sb) = SumTo::pair(a, b);
        // d/da = 1, d/db = -1
        record_with(edges, "SubBackward0", &[&out], &[], move |_, g, n| {
            Ok(vec![grad_for(n, 0, || sa.apply(&g[0]))?, grad_for(n, 1, || sb.apply(&super::neg(&g[0])?))?])
        })?;
    }
    // JVP: t_a - t_b
    forward::jvp_linear(&[a, b], &out, |i, t| if i == 0 { Ok(t.clone()) } else { super::neg(t) })?;
    Ok(out)
}

/// `a - alpha * b` (SubBackward0 with `_saved_alpha`).
pub fn sub_scaled(a: &Tensor, b: &Tensor, alpha: Scalar) -> Result<Tensor> {
    sub_check(a, b)?;
    alpha_check(a, b, alpha)?;
    if alpha.as_f64() == 1.0 {
        return sub(a, b);
    }
    scaled_node(a, b, alpha, true)
}

fn saved_scalar(s: Scalar) -> crate::autograd::SavedValue {
    match s {
        Scalar::Float(f) => crate::autograd::SavedValue::Float(f),
        Scalar::Int(i) => crate::autograd::SavedValue::Int(i),
        Scalar::Bool(b) => crate::autograd::SavedValue::Bool(b),
    }
}

/// torch's `alpha_check`: the scalar kind of `alpha` must fit the result dtype.
pub fn alpha_check(a: &Tensor, b: &Tensor, alpha: Scalar) -> Result<()> {
    let rt = compute_dtype(a, b, BinOp::Add);
    if matches!(alpha, Scalar::Bool(_)) && rt != DType::Bool {
        bail!(Runtime, "Boolean alpha only supported for Boolean results.");
    }
    if matches!(alpha, Scalar::Float(_)) && !rt.is_float() && !rt.is_complex() {
        bail!(Runtime, "For integral input tensors, argument alpha must not be a floating point number.");
    }
    Ok(())
}

/// torch's `sub_check`: no bool operand (tensor or scalar) in a subtraction.
pub fn sub_check(a: &Tensor, b: &Tensor) -> Result<()> {
    let (ab, bb) = (a.dtype() == DType::Bool, b.dtype() == DType::Bool);
    if ab && bb {
        bail!(Runtime, "Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or `logical_xor()` operator instead.");
    }
    if ab || bb {
        bail!(Runtime, "Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.");
    }
    Ok(())
}

/// `other - a` for a Python scalar `other` (`2 - x`).
pub fn rsub(a: &Tensor, other: &Tensor) -> Result<Tensor> {
    sub_check(other, a)?;
    let out = binary_raw(other, a, BinOp::Sub)?;
    let sa = a.shape();
    record("RsubBackward1", &[a], &[&out], &[], move |_, g, _| Ok(vec![Some(sum_to(&super::neg(&g[0])?, &sa)?)]))?;
    Ok(out)
}

/// `a * b`.
pub fn mul(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    let out = binary_raw(a, b, BinOp::Mul)?;
    // JVP: t_a b + a t_b
    forward::jvp_linear(&[a, b], &out, |i, t| if i == 0 { mul(t, b) } else { mul(a, t) })?;
    let Some(edges) = recording_edges(&[a, b]) else { return Ok(out) };
    record_mul(a, b, out, edges)
}

/// MulBackward0 for `out = a * b` with the inputs' `edges`.
fn record_mul(a: &Tensor, b: &Tensor, out: Tensor, edges: crate::autograd::Edges) -> Result<Tensor> {
    let (sa, sb) = SumTo::pair(a, b);
    // d/da = b, d/db = a; each is saved only when the other side needs it
    let (ra, rb) = (edges[0].is_some(), edges[1].is_some());
    let mut save = Vec::new();
    if ra { save.push(Save::In(b)); }
    if rb { save.push(Save::In(a)); }
    record_with(edges, "MulBackward0", &[&out], &save, move |s, g, n| {
        let ga = grad_for(n, 0, || sa.apply(&mul(&g[0], &s.get(0)?)?))?;
        let gb = grad_for(n, 1, || sb.apply(&mul(&g[0], &s.get(if ra { 1 } else { 0 })?)?))?;
        Ok(vec![ga, gb])
    })?;
    // saved slots: `other` (when a needs it), then `self`
    let code = match (ra, rb) { (true, true) => 2 | 1 << 2, (true, false) => 2, _ => 1 };
    crate::autograd::Node::set_default_saved_names(&out, code);
    Ok(out)
}

/// `a / b` (true division).
pub fn div(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    div_named(a, b, "DivBackward0")
}

/// `div` recorded as `name` (torch's `div(..., rounding_mode=None)` is DivBackward2).
pub fn div_named(a: &Tensor, b: &Tensor, name: &'static str) -> Result<Tensor> {
    let out = binary_raw(a, b, BinOp::Div)?;
    // JVP: t_a / b - a t_b / b²
    forward::jvp_linear(&[a, b], &out, |i, t| if i == 0 { div(t, b) } else { super::neg(&div(&mul(a, t)?, &mul(b, b)?)?) })?;
    let Some(edges) = recording_edges(&[a, b]) else { return Ok(out) };
    record_div(a, b, out, edges, name)
}

/// `name` (DivBackward0, ...) for `out = a / b` with the inputs' `edges`.
fn record_div(a: &Tensor, b: &Tensor, out: Tensor, edges: crate::autograd::Edges, name: &'static str) -> Result<Tensor> {
    let (sa, sb) = SumTo::pair(a, b);
    // d/da = 1/b, d/db = -a/b²
    let rb = edges[1].is_some();
    let save = if rb { vec![Save::In(a), Save::In(b)] } else { vec![Save::In(b)] };
    record_with(edges, name, &[&out], &save, move |s, g, n| {
        let bt = s.get(if rb { 1 } else { 0 })?;
        let ga = grad_for(n, 0, || sa.apply(&div(&g[0], &bt)?))?;
        let gb = grad_for(n, 1, || {
            let at = s.get(0)?;
            sb.apply(&super::neg(&div(&mul(&g[0], &at)?, &mul(&bt, &bt)?)?)?)
        })?;
        Ok(vec![ga, gb])
    })?;
    // saved slots: `self` and `other`, or only `other`
    crate::autograd::Node::set_default_saved_names(&out, if rb { 1 | 2 << 2 } else { 2 });
    Ok(out)
}

/// `remainder(a, b)` / `a % b` (sign of the divisor). d/da = 1, d/db = -floor(a / b)
/// (RemainderBackward0 for a scalar divisor, RemainderBackward1 for a tensor).
pub fn remainder(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    mod_op(a, b, BinOp::Rem)
}

/// `fmod(a, b)` (sign of the dividend). d/da = 1, d/db = -trunc(a / b)
/// (FmodBackward0 / FmodBackward1).
pub fn fmod(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    mod_op(a, b, BinOp::Fmod)
}

fn mod_op(a: &Tensor, b: &Tensor, op: BinOp) -> Result<Tensor> {
    let out = binary_raw(a, b, op)?;
    if !out.dtype().is_float() {
        return Ok(out);
    }
    let rem = op == BinOp::Rem;
    if a.0.is_wrapped_number {
        // matches torch: a scalar dividend has no derivative formula
        let what = if rem { "remainder" } else { "fmod" };
        record("NotImplemented", &[b], &[&out], &[], move |_, _, _| bail!(Runtime, "derivative for aten::{} is not implemented", what))?;
        return Ok(out);
    }
    let sa = a.shape();
    if b.0.is_wrapped_number {
        record(if rem { "RemainderBackward0" } else { "FmodBackward0" }, &[a], &[&out], &[], move |_, g, _| Ok(vec![Some(sum_to(&g[0], &sa)?)]))?;
        return Ok(out);
    }
    let sb = b.shape();
    record(if rem { "RemainderBackward1" } else { "FmodBackward1" }, &[a, b], &[&out], &[Save::In(a), Save::In(b)], move |s, g, n| {
        let ga = grad_for(n, 0, || sum_to(&g[0], &sa))?;
        let gb = grad_for(n, 1, || {
            let q = div(&s.get(0)?, &s.get(1)?)?;
            let q = super::rounding(&q, if rem { "floor" } else { "trunc" })?;
            sum_to(&super::neg(&mul(&g[0], &q)?)?, &sb)
        })?;
        Ok(vec![ga, gb])
    })?;
    Ok(out)
}

/// `atan2(a, b)` (Atan2Backward0): integer inputs compute in the default float.
/// d/da = b / (a² + b²), d/db = -a / (a² + b²).
pub fn atan2(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    let ct = compute_dtype(a, b, BinOp::Add);
    let (a2, b2) = if ct.is_float() { (a.clone(), b.clone()) } else { (float_input(a)?, float_input(b)?) };
    let out = binary_raw(&a2, &b2, BinOp::Atan2)?;
    let (sa, sb) = (a.shape(), b.shape());
    record("Atan2Backward0", &[a, b], &[&out], &[Save::In(a), Save::In(b)], move |s, g, n| {
        let (at, bt) = (s.get(0)?, s.get(1)?);
        let den = add(&mul(&at, &at)?, &mul(&bt, &bt)?)?;
        let ga = grad_for(n, 0, || sum_to(&div(&mul(&g[0], &bt)?, &den)?, &sa))?;
        let gb = grad_for(n, 1, || sum_to(&super::neg(&div(&mul(&g[0], &at)?, &den)?)?, &sb))?;
        Ok(vec![ga, gb])
    })?;
    Ok(out)
}

fn no_complex(name: &str, a: &Tensor, b: &Tensor) -> Result<()> {
    if a.dtype().is_complex() || b.dtype().is_complex() {
        let ct = if a.dtype().is_complex() { a.dtype() } else { b.dtype() };
        bail!(NotImplemented, "\"{}_cpu\" not implemented for '{}'", name, ct.scalar_name());
    }
    Ok(())
}

/// `hypot(a, b) = sqrt(a² + b²)` (HypotBackward0; floats only, as torch):
/// d/da = g · a / result, d/db = g · b / result.
pub fn hypot(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    no_complex("hypot", a, b)?;
    let out = binary_raw(a, b, BinOp::Hypot)?;
    let (sa, sb) = (a.shape(), b.shape());
    record("HypotBackward0", &[a, b], &[&out], &[Save::In(a), Save::In(b), Save::Out(0)], move |s, g, n| {
        let r = s.get(2)?;
        let ga = grad_for(n, 0, || sum_to(&mul(&g[0], &div(&s.get(0)?, &r)?)?, &sa))?;
        let gb = grad_for(n, 1, || sum_to(&mul(&g[0], &div(&s.get(1)?, &r)?)?, &sb))?;
        Ok(vec![ga, gb])
    })?;
    Ok(out)
}

/// `logaddexp(a, b) = log(exp(a) + exp(b))` and `logaddexp2` (base 2): LogaddexpBackward0 /
/// Logaddexp2Backward0, d/da = g / (1 + e^(b - a)) (2^(b - a) for base 2), d/db likewise.
pub fn logaddexp(a: &Tensor, b: &Tensor, base2: bool) -> Result<Tensor> {
    no_complex(if base2 { "logaddexp2" } else { "logaddexp" }, a, b)?;
    let out = binary_raw(a, b, if base2 { BinOp::LogAddExp2 } else { BinOp::LogAddExp })?;
    let (sa, sb) = (a.shape(), b.shape());
    let name = if base2 { "Logaddexp2Backward0" } else { "LogaddexpBackward0" };
    record(name, &[a, b], &[&out], &[Save::In(a), Save::In(b)], move |s, g, n| {
        let (at, bt) = (s.get(0)?, s.get(1)?);
        let weight = |x: &Tensor, y: &Tensor| -> Result<Tensor> {
            let d = sub(y, x)?;
            let e = if base2 { pow(&Tensor::wrapped_scalar(Scalar::Float(2.0)), &d)? } else { super::exp(&d)? };
            div(&g[0], &add(&e, &Tensor::wrapped_scalar(Scalar::Float(1.0)))?)
        };
        let ga = grad_for(n, 0, || sum_to(&weight(&at, &bt)?, &sa))?;
        let gb = grad_for(n, 1, || sum_to(&weight(&bt, &at)?, &sb))?;
        Ok(vec![ga, gb])
    })?;
    Ok(out)
}

/// `copysign(a, b)`: `|a|` with `b`'s sign, integers computed in the default float.
/// CopysignBackward0 (CopysignBackward1 for a number `b`): d/da = g · result / a (0 where
/// a is 0), d/db = 0.
pub fn copysign(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    no_complex("copysign", a, b)?;
    let ct = compute_dtype(a, b, BinOp::Add);
    let (a2, b2) = if ct.is_float() { (a.clone(), b.clone()) } else { (float_input(a)?, float_input(b)?) };
    let out = binary_raw(&a2, &b2, BinOp::Copysign)?;
    let (sa, sb) = (a.shape(), b.shape());
    let number = b.0.is_wrapped_number;
    let name = if number { "CopysignBackward1" } else { "CopysignBackward0" };
    record(name, &[a, b], &[&out], &[Save::In(a), Save::Out(0)], move |s, g, n| {
        let ga = grad_for(n, 0, || {
            let at = s.get(0)?;
            let ratio = div(&s.get(1)?, &at)?;
            let zero = compare(&at, &Tensor::wrapped_scalar(Scalar::Int(0)), BinOp::Eq)?;
            let ratio = masked_fill(&ratio, &zero, &Tensor::wrapped_scalar(Scalar::Float(0.0)))?;
            sum_to(&mul(&g[0], &ratio)?, &sa)
        })?;
        let gb = if number { None } else { grad_for(n, 1, || crate::tensor::zeros_on(&sb, g[0].dtype(), g[0].device()))? };
        Ok(vec![ga, gb])
    })?;
    Ok(out)
}

/// `nextafter(a, b)`: the next float after `a` towards `b` (float32/float64, as torch).
/// NextafterBackward0 as torch: d/da = g where a != b (0 where they are equal, the result
/// being b there), d/db = 0.
pub fn nextafter(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    no_complex("nextafter", a, b)?;
    let out = binary_raw(a, b, BinOp::NextAfter)?;
    let (sa, sb) = (a.shape(), b.shape());
    record("NextafterBackward0", &[a, b], &[&out], &[Save::In(a), Save::In(b)], move |s, g, n| {
        let ga = grad_for(n, 0, || {
            let same = compare(&s.get(0)?, &s.get(1)?, BinOp::Eq)?;
            sum_to(&masked_fill(&g[0], &same, &Tensor::wrapped_scalar(Scalar::Float(0.0)))?, &sa)
        })?;
        let gb = grad_for(n, 1, || crate::tensor::zeros_on(&sb, g[0].dtype(), g[0].device()))?;
        Ok(vec![ga, gb])
    })?;
    Ok(out)
}

/// `heaviside(a, values)`: 0 below 0, 1 above, `values` at 0; operands of one dtype (torch
/// promotes nothing here); no derivative (a node named NotImplemented, as torch).
pub fn heaviside(a: &Tensor, values: &Tensor) -> Result<Tensor> {
    if a.dtype().is_complex() || values.dtype().is_complex() {
        bail!(Runtime, "heaviside is not yet implemented for complex tensors.");
    }
    ensure!(a.dtype() == values.dtype(), Runtime, "heaviside is not yet implemented for tensors with different dtypes.");
    let out = binary_raw(a, values, BinOp::Heaviside)?;
    if out.dtype().is_float() {
        record("NotImplemented", &[a, values], &[&out], &[], |_, _, _| bail!(Runtime, "derivative for aten::heaviside is not implemented"))?;
    }
    Ok(out)
}

/// `floor_divide(a, b)` / `a // b`: torch records a node whose backward is not implemented.
pub fn floor_divide(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    let out = binary_raw(a, b, BinOp::FloorDiv)?;
    if out.dtype().is_float() {
        record("NotImplemented", &[a, b], &[&out], &[], |_, _, _| bail!(Runtime, "derivative for aten::floor_divide is not implemented"))?;
    }
    Ok(out)
}

/// `div(a, b, rounding_mode=...)` ('floor' or 'trunc'): piecewise constant, so the gradient is
/// zero for both operands (DivBackward2).
pub fn div_rounding(a: &Tensor, b: &Tensor, mode: &str) -> Result<Tensor> {
    let out = match mode {
        "floor" => binary_raw(a, b, BinOp::FloorDiv)?,
        "trunc" => div_trunc(a, b)?,
        m => bail!(Runtime, "div expected rounding_mode to be one of None, 'trunc', or 'floor' but found '{}'", m),
    };
    let out = out.detach();
    if out.dtype().is_float() {
        let (sa, sb) = (a.shape(), b.shape());
        let (da, db) = (a.dtype(), b.dtype());
        let dev = out.device();
        record("DivBackward2", &[a, b], &[&out], &[], move |_, _, n| {
            let z = |s: &[usize], d: DType| crate::tensor::zeros_on(s, d, dev);
            Ok(vec![grad_for(n, 0, || z(&sa, da))?, grad_for(n, 1, || z(&sb, db))?])
        })?;
    }
    Ok(out)
}

/// `div(a, b, rounding_mode='trunc')`: integers stay integers (the quotient rounded towards
/// zero), floats are `trunc(a / b)`.
pub fn div_trunc(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    let ct = compute_dtype(a, b, BinOp::Add);
    if ct.is_float() {
        return super::rounding(&div(a, b)?, "trunc");
    }
    if ct == DType::Bool {
        bail!(NotImplemented, "\"div_trunc_cpu\" not implemented for 'Bool'");
    }
    // floor division, plus one where the exact quotient was negative and not whole
    let q = binary_raw(a, b, BinOp::FloorDiv)?;
    let r = binary_raw(a, b, BinOp::Rem)?;
    let inexact = binary_raw(&r, &Tensor::wrapped_scalar(Scalar::Int(0)), BinOp::Ne)?;
    let neg = binary_raw(&binary_raw(a, &Tensor::wrapped_scalar(Scalar::Int(0)), BinOp::Lt)?, &binary_raw(b, &Tensor::wrapped_scalar(Scalar::Int(0)), BinOp::Lt)?, BinOp::Xor)?;
    let fix = super::cast_raw(&binary_raw(&inexact, &neg, BinOp::And)?, q.dtype())?;
    binary_raw(&q, &fix, BinOp::Add)
}

/// `a ** b` for two tensors (PowBackward1) or a scalar base (PowBackward2).
pub fn pow(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    if a.dtype().is_complex() || b.dtype().is_complex() {
        return complex_pow(a, b);
    }
    if b.0.is_wrapped_number {
        return super::pow_scalar(a, b.item()?);
    }
    let out = binary_raw(a, b, BinOp::Pow)?;
    if !out.dtype().is_float() {
        return Ok(out);
    }
    let (sa, sb) = (a.shape(), b.shape());
    if a.0.is_wrapped_number {
        // matches torch: `s ** x` (PowBackward2) has one edge, to the exponent
        // d/db s^b = s^b ln(s)
        // ln(s) in double precision (as torch's Scalar), not in the result's dtype
        let ln_base = a.item()?.as_f64().ln();
        record("PowBackward2", &[b], &[&out], &[Save::In(a), Save::In(b), Save::Out(0)], move |s, g, _| {
            let (bt, r) = (s.get(1)?, s.get(2)?);
            let d = mul(&g[0], &mul(&r, &Tensor::wrapped_scalar(Scalar::Float(ln_base)))?)?;
            // matches torch: a zero base gives 0 (not nan) where the exponent is >= 0
            let d = if ln_base == f64::NEG_INFINITY {
                let nonneg = binary_raw(&bt, &Tensor::wrapped_scalar(Scalar::Int(0)), BinOp::Ge)?;
                where_(&nonneg, &Tensor::wrapped_scalar(Scalar::Int(0)), &d)?
            } else { d };
            Ok(vec![Some(sum_to(&d, &sb)?)])
        })?;
        // derivatives.yaml: the base is a Scalar `self`, the tensor `exponent`
        let base = saved_scalar(a.item()?);
        crate::autograd::Node::annotate(&out, &[("self", base)], &[(1, "exponent"), (2, "result")]);
        return Ok(out);
    }
    // d/da = b * a^(b-1); d/db = a^b * ln(a)
    let named = |out: &Tensor| crate::autograd::Node::annotate(out, &[], &[(1, "exponent")]);
    record("PowBackward1", &[a, b], &[&out], &[Save::In(a), Save::In(b), Save::Out(0)], move |s, g, n| {
        let (at, bt) = (s.get(0)?, s.get(1)?);
        let ga = grad_for(n, 0, || {
            // matches torch: where the exponent is 0 the gradient is 0 (even at a = 0)
            let bm1 = sub(&bt, &Tensor::wrapped_scalar(Scalar::Int(1)))?;
            let d = mul(&g[0], &mul(&bt, &pow(&at, &bm1)?)?)?;
            let e0 = binary_raw(&bt, &Tensor::wrapped_scalar(Scalar::Int(0)), BinOp::Eq)?;
            sum_to(&where_(&e0, &Tensor::wrapped_scalar(Scalar::Int(0)), &d)?, &sa)
        })?;
        let gb = grad_for(n, 1, || {
            let r = s.get(2)?;
            // matches torch: where a == 0 and b >= 0 the gradient is 0, not nan
            let lg = super::log(&float_input(&at)?)?;
            let zero = Tensor::wrapped_scalar(Scalar::Int(0));
            let cond = binary_raw(&binary_raw(&at, &zero, BinOp::Eq)?, &binary_raw(&bt, &zero, BinOp::Ge)?, BinOp::And)?;
            sum_to(&where_(&cond, &zero, &mul(&g[0], &mul(&r, &lg)?)?)?, &sb)
        })?;
        Ok(vec![ga, gb])
    })?;
    named(&out);
    Ok(out)
}

/// `a ** b` with a complex operand: `exp(b log a)` (a real exponent given as a Python number
/// keeps `pow_scalar`'s exact small powers). Holomorphic in both: PowBackward1 (PowBackward2
/// for a Python-number base, PowBackward0 for a real Python-number exponent).
fn complex_pow(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    if b.0.is_wrapped_number && !b.dtype().is_complex() {
        return super::pow_scalar(a, b.item()?);
    }
    let out = binary_raw(a, b, BinOp::Pow)?;
    let ct = out.dtype();
    let (sa, sb) = (a.shape(), b.shape());
    if a.0.is_wrapped_number {
        // d/db a^b = a^b ln a
        record("PowBackward2", &[b], &[&out], &[Save::In(a), Save::Out(0)], move |s, g, _| {
            let la = super::log(&super::to_dtype(&s.get(0)?, ct)?)?;
            Ok(vec![Some(sum_to(&mul(&g[0], &mul(&s.get(1)?, &la)?)?, &sb)?)])
        })?;
        return Ok(out);
    }
    if b.0.is_wrapped_number {
        // a complex Python-number exponent: one edge, to the base
        record("PowBackward0", &[a], &[&out], &[Save::In(a), Save::In(b)], move |s, g, _| {
            let (at, bt) = (s.get(0)?, s.get(1)?);
            Ok(vec![Some(sum_to(&mul(&g[0], &mul(&bt, &pow(&at, &sub(&bt, &Tensor::wrapped_scalar(Scalar::Int(1)))?)?)?)?, &sa)?)])
        })?;
        return Ok(out);
    }
    // d/da = b a^(b-1), d/db = a^b ln a
    record("PowBackward1", &[a, b], &[&out], &[Save::In(a), Save::In(b), Save::Out(0)], move |s, g, n| {
        let (at, bt) = (s.get(0)?, s.get(1)?);
        let ga = grad_for(n, 0, || sum_to(&mul(&g[0], &mul(&bt, &pow(&at, &sub(&bt, &Tensor::wrapped_scalar(Scalar::Int(1)))?)?)?)?, &sa))?;
        let gb = grad_for(n, 1, || {
            let la = super::log(&super::to_dtype(&at, ct)?)?;
            sum_to(&mul(&g[0], &mul(&s.get(2)?, &la)?)?, &sb)
        })?;
        Ok(vec![ga, gb])
    })?;
    Ok(out)
}

fn zeros_like_raw(t: &Tensor) -> Result<Tensor> {
    crate::tensor::zeros_on(&t.shape(), t.dtype(), t.device())
}

/// `where(cond, a, b)`, differentiable in a and b.
pub fn where_(cond: &Tensor, a: &Tensor, b: &Tensor) -> Result<Tensor> {
    let shape = broadcast_shapes(&broadcast_shapes(&cond.shape(), &a.shape())?, &b.shape())?;
    let ct = result_type(&[(a.dtype(), a.priority()), (b.dtype(), b.priority())]);
    let cond_b = if cond.dtype() == DType::Bool { cond.clone() } else { super::cast_raw(cond, DType::Bool)? };
    let a2 = if a.dtype() != ct { super::cast_raw(a, ct)? } else { a.clone() };
    let b2 = if b.dtype() != ct { super::cast_raw(b, ct)? } else { b.clone() };
    let lc = cond_b.layout().broadcast_to(&shape)?;
    let la = a2.layout().broadcast_to(&shape)?;
    let lb = b2.layout().broadcast_to(&shape)?;
    let out = backend::where_cond(&cond_b, &lc, &a2, &la, &b2, &lb)?;
    let (sa, sb) = (a.shape(), b.shape());
    record("WhereBackward0", &[a, b], &[&out], &[Save::In(&cond_b)], move |s, g, n| {
        let c = s.get(0)?;
        let z = zeros_like_raw(&g[0])?;
        let ga = grad_for(n, 0, || sum_to(&where_(&c, &g[0], &z)?, &sa))?;
        let gb = grad_for(n, 1, || sum_to(&where_(&c, &z, &g[0])?, &sb))?;
        Ok(vec![ga, gb])
    })?;
    crate::autograd::Node::annotate(&out, &[], &[(0, "condition")]);
    Ok(out)
}

/// `masked_fill(x, mask, value)`: `value` (a scalar or 0-dim tensor) where `mask`, else `x`
/// (MaskedFillBackward0 for a number; MaskedFillBackward1 for a tensor value).
pub fn masked_fill(x: &Tensor, mask: &Tensor, value: &Tensor) -> Result<Tensor> {
    if mask.dtype() != DType::Bool {
        bail!(Runtime, "masked_fill_ only supports boolean masks, but got mask with dtype {}", mask.dtype().cpp_type_name());
    }
    broadcast_shapes(&mask.shape(), &x.shape())?;
    if value.0.is_wrapped_number {
        let v = value.item()?;
        if x.dtype().overflows(v) {
            bail!(Runtime, "value cannot be converted to type {} without overflow", x.dtype().c_name());
        }
    } else if value.dim() != 0 {
        bail!(Runtime, "masked_fill_ only supports a 0-dimensional value tensor, but got tensor with {} dimension(s).", value.dim());
    }
    let out = {
        let _g = crate::autograd::raw_mode();
        let v = if value.dtype() != x.dtype() { super::cast_raw(value, x.dtype())? } else { value.detach() };
        where_(mask, &v, &x.detach())?
    };
    let sx = x.shape();
    let m = mask.clone();
    let zero = || Tensor::wrapped_scalar(Scalar::Int(0));
    if !value.0.is_wrapped_number {
        record("MaskedFillBackward1", &[x, value], &[&out], &[Save::In(mask)], move |_, g, n| {
            let gx = grad_for(n, 0, || sum_to(&where_(&m, &zero(), &g[0])?, &sx))?;
            let gv = grad_for(n, 1, || super::sum(&where_(&m, &g[0], &zero())?, None))?;
            Ok(vec![gx, gv])
        })?;
    } else {
        record("MaskedFillBackward0", &[x], &[&out], &[Save::In(mask)], move |_, g, _| Ok(vec![Some(sum_to(&where_(&m, &zero(), &g[0])?, &sx)?)]))?;
    }
    crate::autograd::Node::annotate(&out, &[], &[(0, "mask")]);
    Ok(out)
}

/// `x.masked_fill_(mask, value)`. Where `x`'s elements share memory (an expanded tensor),
/// torch's kernel writes only the masked elements: a location takes `value` when any of its
/// aliases is masked, and keeps its value otherwise.
pub fn masked_fill_(x: &Tensor, mask: &Tensor, value: &Tensor) -> Result<()> {
    let l = x.layout();
    let alias: Vec<usize> = (0..l.ndim()).filter(|&d| l.shape[d] > 1 && l.strides[d] == 0).collect();
    let fits = broadcast_shapes(&mask.shape(), &l.shape).map(|s| s == l.shape).unwrap_or(false);
    if alias.is_empty() || !fits || mask.dtype() != DType::Bool {
        return super::inplace_overlapping(x, |inp| masked_fill(inp, mask, value));
    }
    let mut any = super::expand(mask, &l.shape.iter().map(|&d| d as i64).collect::<Vec<_>>())?;
    for &d in alias.iter().rev() {
        any = super::all_any(&any, Some(d as i64), true, false)?;
    }
    let mut nl = l.clone();
    for &d in &alias {
        nl.shape[d] = 1;
    }
    let base = super::make_view(x, nl);
    super::inplace_overlapping(&base, |inp| masked_fill(inp, &any, value))
}

/// `logical_and/or/xor(a, b)`: both read as bool (non-zero is true), a bool result.
pub fn logical(a: &Tensor, b: &Tensor, op: BinOp) -> Result<Tensor> {
    let as_bool = |t: &Tensor| if t.dtype() == DType::Bool { Ok(t.clone()) } else { backend::cast_preserving(t, DType::Bool) };
    compare(&as_bool(a)?, &as_bool(b)?, op)
}

/// `maximum(a, b)`: gradient to the larger (split evenly on ties).
pub fn maximum(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    ensure!(!a.dtype().is_complex() && !b.dtype().is_complex(), Runtime, "maximum not implemented for complex tensors.");
    minmax(a, b, BinOp::Maximum, "MaximumBackward0")
}

/// `minimum(a, b)`.
pub fn minimum(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    ensure!(!a.dtype().is_complex() && !b.dtype().is_complex(), Runtime, "minimum not implemented for complex tensors.");
    minmax(a, b, BinOp::Minimum, "MinimumBackward0")
}

fn minmax(a: &Tensor, b: &Tensor, op: BinOp, name: &'static str) -> Result<Tensor> {
    let out = binary_raw(a, b, op)?;
    let (sa, sb) = (a.shape(), b.shape());
    let cmp = if op == BinOp::Maximum { BinOp::Gt } else { BinOp::Lt };
    record(name, &[a, b], &[&out], &[Save::In(a), Save::In(b)], move |s, g, n| {
        let (at, bt) = (s.get(0)?, s.get(1)?);
        // selects, as torch: where(a == b, g / 2, g) masked to 0 where the other operand wins
        // (an infinite gradient for the losing operand stays 0, not nan)
        let zero = Tensor::wrapped_scalar(Scalar::Int(0));
        let half = mul(&g[0], &Tensor::wrapped_scalar(Scalar::Float(0.5)))?;
        let ties = binary_raw(&at, &bt, BinOp::Eq)?;
        // torch's formula: where(a == b, g / 2, g), zeroed where the other operand strictly
        // wins (so with a NaN both operands receive the gradient)
        let split = |loses: Tensor| -> Result<Tensor> { where_(&ties, &half, &where_(&loses, &zero, &g[0])?) };
        let ga = grad_for(n, 0, || sum_to(&split(binary_raw(&bt, &at, cmp)?)?, &sa))?;
        let gb = grad_for(n, 1, || sum_to(&split(binary_raw(&at, &bt, cmp)?)?, &sb))?;
        Ok(vec![ga, gb])
    })?;
    Ok(out)
}

/// A comparison or logical op (no gradient): `eq ne lt le gt ge`, `& | ^`, `//`, `%`.
pub fn compare(a: &Tensor, b: &Tensor, op: BinOp) -> Result<Tensor> {
    binary_raw(a, b, op)
}

/// `a += b` on raw data (no history, version bumped): leaf-gradient accumulation.
pub fn add_inplace_raw(a: &Tensor, b: &Tensor) -> Result<()> {
    let r = binary_raw(a, b, BinOp::Add)?;
    super::write_into(a, &r)?;
    a.bump_version();
    Ok(())
}

/// Write `a op b` (op one of + - * /) straight into `dst`'s buffer, without a temporary,
/// when nothing stands in the way: float dtype equal for all, `dst` contiguous with the
/// broadcast shape, and `dst` aliasing at most `a` with the same layout (the in-place case).
/// With `alpha` (op `Add`): `a + alpha * b`, fused as `scaled_raw`'s. Records no history.
/// Returns false to ask the caller for the general path.
pub fn binary_into_fast(dst: &Tensor, a: &Tensor, b: &Tensor, op: BinOp, alpha: Option<f64>) -> Result<bool> {
    if !matches!(op, BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div) || (alpha.is_some() && op != BinOp::Add) {
        return Ok(false);
    }
    let dt = dst.dtype();
    if !matches!(dt, DType::Float32 | DType::Float64) || a.dtype() != dt || compute_dtype(a, b, op) != dt {
        return Ok(false);
    }
    let b_scalar = if b.0.is_wrapped_number {
        Some(b.item()?.as_f64())
    } else if b.dtype() != dt {
        return Ok(false);
    } else {
        None
    };
    backend::binary_into(dst, a, b, b_scalar, op, alpha)
}

/// In-place `target += alpha * other` (`subtract`: `-=`), `alpha` ≠ 1: fused straight into
/// the buffer when no history needs recording, else through the general in-place path.
pub fn inplace_add_scaled(target: &Tensor, other: &Tensor, alpha: Scalar, subtract: bool) -> Result<()> {
    super::check_inplace(target)?;
    super::assert_no_partial_overlap(target, other)?;
    let recording = crate::autograd::needs_history(&[target, other]);
    if !recording && !matches!(alpha, Scalar::Bool(_)) {
        alpha_check(target, other, alpha)?;
        let al = if subtract { -alpha.as_f64() } else { alpha.as_f64() };
        if binary_into_fast(target, target, other, BinOp::Add, Some(al))? {
            target.bump_version();
            return Ok(());
        }
    }
    super::inplace(target, |inp| if subtract { sub_scaled(inp, other, alpha) } else { add_scaled(inp, other, alpha) })
}

/// An in-place `target op= other`: written straight into the buffer when no history needs
/// recording, else through the general in-place path (snapshot, rebase, CopySlices).
pub fn inplace_binary(target: &Tensor, other: &Tensor, op: BinOp, general: fn(&Tensor, &Tensor) -> Result<Tensor>) -> Result<()> {
    super::check_inplace(target)?;
    super::assert_no_partial_overlap(target, other)?;
    let recording = crate::autograd::needs_history(&[target, other]);
    if !recording && binary_into_fast(target, target, other, op, None)? {
        target.bump_version();
        return Ok(());
    }
    super::inplace(target, |inp| general(inp, other))
}
