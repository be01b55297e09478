//! Binary elementwise ops with broadcasting and type promotion: arithmetic (with backward),
//! comparisons and logical ops (no backward).

use super::{float_input, sum_to};
use crate::autograd::{record, record_with, recording_edges, Save};
use crate::cpu::map2;
use crate::dtype::{result_type, DType, Elem};
use crate::error::Result;
use crate::shape::broadcast_shapes;
use crate::storage::{CpuStorage, StorageElem};
use crate::tensor::{Scalar, Tensor};
use crate::{all_types, bail, float_types, num_types};
use num_traits::{Float, Zero};

/// Elementwise binary operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Pow,
    FloorDiv,
    Rem,
    Maximum,
    Minimum,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    And,
    Or,
    Xor,
}

impl BinOp {
    fn is_comparison(self) -> bool {
        matches!(self, BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge)
    }
}

/// The dtype `a op b` computes in (before comparisons turn it into bool).
pub fn compute_dtype(a: &Tensor, b: &Tensor, op: BinOp) -> DType {
    let rt = result_type(&[(a.dtype(), a.priority()), (b.dtype(), b.priority())]);
    match op {
        BinOp::Div if !rt.is_float() => crate::dtype::default_float(),
        _ => rt,
    }
}

fn int_div_check<T: StorageElem>(b: &CpuStorage, lb: &crate::shape::Layout) -> Result<()> {
    let x = T::get(b);
    let mut zero = false;
    crate::shape::walk1(lb, |o| zero |= x[o].to_i64() == 0);
    if zero {
        bail!(Runtime, "ZeroDivisionError");
    }
    Ok(())
}


/// Compute `a op b` without recording history.
pub fn binary_raw(a: &Tensor, b: &Tensor, op: BinOp) -> Result<Tensor> {
    let (shape, ct) = {
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
        (shape, ct)
    };
    let a = if a.dtype() != ct { super::cast_raw(a, ct) } else { a.clone() };
    let b = if b.dtype() != ct { super::cast_raw(b, ct) } else { b.clone() };
    let la = a.layout().broadcast_to(&shape)?;
    let lb = b.layout().broadcast_to(&shape)?;
    let (da, db) = (a.data(), b.data());
    let same = std::sync::Arc::ptr_eq(&da.storage, &db.storage);
    let sa = da.storage.data.read();
    let sb_guard;
    let sb: &CpuStorage = if same { &sa } else { sb_guard = db.storage.data.read(); &sb_guard };
    let (sa, sb): (&CpuStorage, &CpuStorage) = (&sa, sb);
    let out: CpuStorage = match op {
        BinOp::Eq => all_types!(ct, T => bool::wrap(map2::<T, bool>(sa, &la, sb, &lb, |x, y| x == y))),
        BinOp::Ne => all_types!(ct, T => bool::wrap(map2::<T, bool>(sa, &la, sb, &lb, |x, y| x != y))),
        BinOp::Lt => all_types!(ct, T => bool::wrap(map2::<T, bool>(sa, &la, sb, &lb, |x, y| x < y))),
        BinOp::Le => all_types!(ct, T => bool::wrap(map2::<T, bool>(sa, &la, sb, &lb, |x, y| x <= y))),
        BinOp::Gt => all_types!(ct, T => bool::wrap(map2::<T, bool>(sa, &la, sb, &lb, |x, y| x > y))),
        BinOp::Ge => all_types!(ct, T => bool::wrap(map2::<T, bool>(sa, &la, sb, &lb, |x, y| x >= y))),
        BinOp::And | BinOp::Or | BinOp::Xor => match ct {
            DType::Bool => bool::wrap(match op {
                BinOp::And => map2::<bool, bool>(sa, &la, sb, &lb, |x, y| x & y),
                BinOp::Or => map2::<bool, bool>(sa, &la, sb, &lb, |x, y| x | y),
                _ => map2::<bool, bool>(sa, &la, sb, &lb, |x, y| x ^ y),
            }),
            DType::Int64 | DType::Int32 => {
                let f = |x: i64, y: i64| match op { BinOp::And => x & y, BinOp::Or => x | y, _ => x ^ y };
                if ct == DType::Int64 { i64::wrap(map2::<i64, i64>(sa, &la, sb, &lb, f)) }
                else { i32::wrap(map2::<i32, i32>(sa, &la, sb, &lb, |x, y| f(x as i64, y as i64) as i32)) }
            }
            _ => bail!(Runtime, "\"bitwise_{}_cpu\" not implemented for '{}'", format!("{:?}", op).to_lowercase(), ct.scalar_name()),
        },
        _ if ct == DType::Bool => match op {
            BinOp::Add => bool::wrap(map2::<bool, bool>(sa, &la, sb, &lb, |x, y| x | y)),
            BinOp::Mul => bool::wrap(map2::<bool, bool>(sa, &la, sb, &lb, |x, y| x & y)),
            BinOp::Maximum => bool::wrap(map2::<bool, bool>(sa, &la, sb, &lb, |x, y| x | y)),
            BinOp::Minimum => bool::wrap(map2::<bool, bool>(sa, &la, sb, &lb, |x, y| x & y)),
            BinOp::Sub => bail!(Runtime, "Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or `logical_xor()` operator instead."),
            _ => bail!(Runtime, "\"{:?}\" not implemented for 'Bool'", op),
        },
        BinOp::Add => num_types!(ct, T => T::wrap(map2::<T, T>(sa, &la, sb, &lb, |x, y| x + y))),
        BinOp::Sub => num_types!(ct, T => T::wrap(map2::<T, T>(sa, &la, sb, &lb, |x, y| x - y))),
        BinOp::Mul => num_types!(ct, T => T::wrap(map2::<T, T>(sa, &la, sb, &lb, |x, y| x * y))),
        BinOp::Maximum => num_types!(ct, T => T::wrap(map2::<T, T>(sa, &la, sb, &lb, |x, y| if x >= y || x != x { x } else { y }))),
        BinOp::Minimum => num_types!(ct, T => T::wrap(map2::<T, T>(sa, &la, sb, &lb, |x, y| if x <= y || x != x { x } else { y }))),
        BinOp::Div => float_types!(ct, T => T::wrap(map2::<T, T>(sa, &la, sb, &lb, |x, y| x / y))),
        BinOp::Pow => match ct {
            DType::Int64 | DType::Int32 => {
                let mut neg = false;
                let f = |x: i64, y: i64| if y < 0 { 0 } else { x.wrapping_pow(y.min(u32::MAX as i64) as u32) };
                crate::shape::walk1(&lb, |o| neg |= i64_at(sb, o) < 0);
                if neg {
                    bail!(Runtime, "Integers to negative integer powers are not allowed.");
                }
                if ct == DType::Int64 { i64::wrap(map2::<i64, i64>(sa, &la, sb, &lb, f)) }
                else { i32::wrap(map2::<i32, i32>(sa, &la, sb, &lb, |x, y| f(x as i64, y as i64) as i32)) }
            }
            _ => float_types!(ct, T => T::wrap(map2::<T, T>(sa, &la, sb, &lb, |x, y| x.powf(y)))),
        },
        BinOp::FloorDiv | BinOp::Rem => match ct {
            DType::Int64 | DType::Int32 => {
                if ct == DType::Int64 { int_div_check::<i64>(sb, &lb)? } else { int_div_check::<i32>(sb, &lb)? }
                let f = move |x: i64, y: i64| {
                    let (q, r) = (x / y, x % y);
                    let adjust = r != 0 && ((r < 0) != (y < 0));
                    if op == BinOp::FloorDiv { if adjust { q - 1 } else { q } } else if adjust { r + y } else { r }
                };
                if ct == DType::Int64 { i64::wrap(map2::<i64, i64>(sa, &la, sb, &lb, f)) }
                else { i32::wrap(map2::<i32, i32>(sa, &la, sb, &lb, move |x, y| f(x as i64, y as i64) as i32)) }
            }
            _ => float_types!(ct, T => T::wrap(map2::<T, T>(sa, &la, sb, &lb, move |x, y| {
                if op == BinOp::FloorDiv { (x / y).floor() } else {
                    let r = x % y;
                    if r != T::zero() && ((r < T::zero()) != (y < T::zero())) { r + y } else { r }
                }
            }))),
        },
    };
    debug_assert!(!op.is_comparison() || out.dtype() == DType::Bool);
    Ok(Tensor::from_storage(out, &shape))
}

fn i64_at(s: &CpuStorage, o: usize) -> i64 {
    match s {
        CpuStorage::I64(b) => b[o],
        CpuStorage::I32(b) => b[o] as i64,
        _ => 0,
    }
}

fn grad_for(needs: &[bool], i: usize, f: impl FnOnce() -> Result<Tensor>) -> Result<Option<Tensor>> {
    if needs[i] { f().map(Some) } else { Ok(None) }
}

/// `a + b`.
pub fn add(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    let out = binary_raw(a, b, BinOp::Add)?;
    let Some(edges) = recording_edges(&[a, b]) else { return Ok(out) };
    let (sa, sb) = (a.shape(), b.shape());
    // d(a+b)/da = 1, d/db = 1 (summed back over broadcast dims)
    record_with(edges, "AddBackward0", &[&out], &[], move |_, g, n| {
        Ok(vec![grad_for(n, 0, || sum_to(&g[0], &sa))?, grad_for(n, 1, || sum_to(&g[0], &sb))?])
    })?;
    Ok(out)
}

/// `a + alpha * b`.
pub fn add_scaled(a: &Tensor, b: &Tensor, alpha: Scalar) -> Result<Tensor> {
    if alpha.as_f64() == 1.0 {
        return add(a, b);
    }
    add(a, &mul(b, &Tensor::wrapped_scalar(alpha))?)
}

/// `a - b`.
pub fn sub(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    let out = binary_raw(a, b, BinOp::Sub)?;
    let Some(edges) = recording_edges(&[a, b]) else { return Ok(out) };
    let (sa, sb) = (a.shape(), b.shape());
    // d/da = 1, d/db = -1
    record_with(edges, "SubBackward0", &[&out], &[], move |_, g, n| {
        Ok(vec![grad_for(n, 0, || sum_to(&g[0], &sa))?, grad_for(n, 1, || sum_to(&super::neg(&g[0])?, &sb))?])
    })?;
    Ok(out)
}

/// `other - a` for a Python scalar `other` (`2 - x`).
pub fn rsub(a: &Tensor, other: &Tensor) -> Result<Tensor> {
    let out = binary_raw(other, a, BinOp::Sub)?;
    let sa = a.shape();
    record("RsubBackward1", &[a], &[&out], &[], move |_, g, _| Ok(vec![Some(sum_to(&super::neg(&g[0])?, &sa)?)]))?;
    Ok(out)
}

/// `a * b`.
pub fn mul(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    let out = binary_raw(a, b, BinOp::Mul)?;
    let Some(edges) = recording_edges(&[a, b]) else { return Ok(out) };
    let (sa, sb) = (a.shape(), b.shape());
    // d/da = b, d/db = a; each is saved only when the other side needs it
    let (ra, rb) = (edges[0].is_some(), edges[1].is_some());
    let mut save = Vec::new();
    if ra { save.push(Save::In(b)); }
    if rb { save.push(Save::In(a)); }
    record_with(edges, "MulBackward0", &[&out], &save, move |s, g, n| {
        let ga = grad_for(n, 0, || sum_to(&mul(&g[0], &s.get(0)?)?, &sa))?;
        let gb = grad_for(n, 1, || sum_to(&mul(&g[0], &s.get(if ra { 1 } else { 0 })?)?, &sb))?;
        Ok(vec![ga, gb])
    })?;
    Ok(out)
}

/// `a / b` (true division).
pub fn div(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    let out = binary_raw(a, b, BinOp::Div)?;
    let Some(edges) = recording_edges(&[a, b]) else { return Ok(out) };
    let (sa, sb) = (a.shape(), b.shape());
    // d/da = 1/b, d/db = -a/b²
    let rb = edges[1].is_some();
    let save = if rb { vec![Save::In(a), Save::In(b)] } else { vec![Save::In(b)] };
    record_with(edges, "DivBackward0", &[&out], &save, move |s, g, n| {
        let bt = s.get(if rb { 1 } else { 0 })?;
        let ga = grad_for(n, 0, || sum_to(&div(&g[0], &bt)?, &sa))?;
        let gb = grad_for(n, 1, || {
            let at = s.get(0)?;
            sum_to(&super::neg(&div(&mul(&g[0], &at)?, &mul(&bt, &bt)?)?)?, &sb)
        })?;
        Ok(vec![ga, gb])
    })?;
    Ok(out)
}

/// `a ** b` for two tensors (PowBackward1) or a scalar base (PowBackward2).
pub fn pow(a: &Tensor, b: &Tensor) -> Result<Tensor> {
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
        record("PowBackward2", &[b], &[&out], &[Save::In(a), Save::Out(0)], move |s, g, _| {
            let (at, r) = (s.get(0)?, s.get(1)?);
            let lg = super::log(&float_input(&at))?;
            Ok(vec![Some(sum_to(&mul(&g[0], &mul(&r, &lg)?)?, &sb)?)])
        })?;
        return Ok(out);
    }
    // d/da = b * a^(b-1); d/db = a^b * ln(a)
    record("PowBackward1", &[a, b], &[&out], &[Save::In(a), Save::In(b), Save::Out(0)], move |s, g, n| {
        let (at, bt) = (s.get(0)?, s.get(1)?);
        let ga = grad_for(n, 0, || {
            let bm1 = sub(&bt, &Tensor::wrapped_scalar(Scalar::Int(1)))?;
            sum_to(&mul(&g[0], &mul(&bt, &pow(&at, &bm1)?)?)?, &sa)
        })?;
        let gb = grad_for(n, 1, || {
            let r = s.get(2)?;
            // matches torch: where a == 0 and b >= 0 the gradient is 0, not nan
            let lg = super::log(&float_input(&at))?;
            let lg = where_(&binary_raw(&at, &Tensor::wrapped_scalar(Scalar::Int(0)), BinOp::Eq)?, &zeros_like_raw(&lg), &lg)?;
            sum_to(&mul(&g[0], &mul(&r, &lg)?)?, &sb)
        })?;
        Ok(vec![ga, gb])
    })?;
    Ok(out)
}

fn zeros_like_raw(t: &Tensor) -> Tensor {
    crate::tensor::zeros(&t.shape(), t.dtype())
}

/// `where(cond, a, b)`, differentiable in a and b.
pub fn where_(cond: &Tensor, a: &Tensor, b: &Tensor) -> Result<Tensor> {
    let shape = broadcast_shapes(&broadcast_shapes(&cond.shape(), &a.shape())?, &b.shape())?;
    let ct = result_type(&[(a.dtype(), a.priority()), (b.dtype(), b.priority())]);
    let cond_b = if cond.dtype() == DType::Bool { cond.clone() } else { super::cast_raw(cond, DType::Bool) };
    let a2 = if a.dtype() != ct { super::cast_raw(a, ct) } else { a.clone() };
    let b2 = if b.dtype() != ct { super::cast_raw(b, ct) } else { b.clone() };
    let lc = cond_b.layout().broadcast_to(&shape)?;
    let la = a2.layout().broadcast_to(&shape)?;
    let lb = b2.layout().broadcast_to(&shape)?;
    let c = cond_b.to_vec_layout::<bool>(&lc);
    let out = all_types!(ct, T => {
        let av = a2.to_vec_layout::<T>(&la);
        let bv = b2.to_vec_layout::<T>(&lb);
        T::wrap(c.iter().zip(av).zip(bv).map(|((&c, x), y)| if c { x } else { y }).collect())
    });
    let out = Tensor::from_storage(out, &shape);
    let (sa, sb) = (a.shape(), b.shape());
    record("WhereBackward0", &[a, b], &[&out], &[Save::In(&cond_b)], move |s, g, n| {
        let c = s.get(0)?;
        let z = zeros_like_raw(&g[0]);
        let ga = grad_for(n, 0, || sum_to(&where_(&c, &g[0], &z)?, &sa))?;
        let gb = grad_for(n, 1, || sum_to(&where_(&c, &z, &g[0])?, &sb))?;
        Ok(vec![ga, gb])
    })?;
    Ok(out)
}

impl Tensor {
    /// Elements under a broadcast layout, row-major, as a typed Vec.
    pub fn to_vec_layout<T: StorageElem>(&self, l: &crate::shape::Layout) -> Vec<T> {
        self.with_storage(|s, _| {
            let b = T::get(s);
            let mut out = Vec::with_capacity(l.numel());
            crate::shape::walk1(l, |o| out.push(b[o]));
            out
        })
    }
}

/// `maximum(a, b)`: gradient to the larger (split evenly on ties).
pub fn maximum(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    minmax(a, b, BinOp::Maximum, "MaximumBackward0")
}

/// `minimum(a, b)`.
pub fn minimum(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    minmax(a, b, BinOp::Minimum, "MinimumBackward0")
}

fn minmax(a: &Tensor, b: &Tensor, op: BinOp, name: &'static str) -> Result<Tensor> {
    let out = binary_raw(a, b, op)?;
    let (sa, sb) = (a.shape(), b.shape());
    let cmp = if op == BinOp::Maximum { BinOp::Gt } else { BinOp::Lt };
    record(name, &[a, b], &[&out], &[Save::In(a), Save::In(b)], move |s, g, n| {
        let (at, bt) = (s.get(0)?, s.get(1)?);
        let wins = super::to_dtype(&binary_raw(&at, &bt, cmp)?, g[0].dtype())?;
        let ties = super::to_dtype(&binary_raw(&at, &bt, BinOp::Eq)?, g[0].dtype())?;
        let half = mul(&ties, &Tensor::wrapped_scalar(Scalar::Float(0.5)))?;
        let wa = add(&wins, &half)?;
        let ga = grad_for(n, 0, || sum_to(&mul(&g[0], &wa)?, &sa))?;
        let gb = grad_for(n, 1, || {
            let wb = rsub(&wa, &Tensor::wrapped_scalar(Scalar::Int(1)))?;
            sum_to(&mul(&g[0], &wb)?, &sb)
        })?;
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

/// `with_float_op!(op, T, f => body)`: bind `f` to the arithmetic closure of `op` on `T`.
macro_rules! with_float_op {
    ($op:expr, $T:ident, $f:ident => $body:expr) => {
        match $op {
            BinOp::Add => { let $f = |x: $T, y: $T| x + y; $body }
            BinOp::Sub => { let $f = |x: $T, y: $T| x - y; $body }
            BinOp::Mul => { let $f = |x: $T, y: $T| x * y; $body }
            _ => { let $f = |x: $T, y: $T| x / y; $body }
        }
    };
}

/// Write `a op b` (op one of + - * /) straight into `dst`'s buffer, without a temporary,
/// when nothing stands in the way: float dtype equal for all, `dst` contiguous with the
/// broadcast shape, and `dst` aliasing at most `a` with the same layout (the in-place case).
/// Records no history. Returns false to ask the caller for the general path.
pub fn binary_into_fast(dst: &Tensor, a: &Tensor, b: &Tensor, op: BinOp) -> Result<bool> {
    if !matches!(op, BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div) {
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
    let shape = broadcast_shapes(&a.shape(), &b.shape())?;
    if shape != dst.shape() {
        return Ok(false);
    }
    let (dd, da, db) = (dst.data(), a.data(), b.data());
    let Some(range) = dd.layout.contiguous_range() else { return Ok(false) };
    let a_alias = std::sync::Arc::ptr_eq(&dd.storage, &da.storage);
    let b_alias = b_scalar.is_none() && std::sync::Arc::ptr_eq(&dd.storage, &db.storage);
    if b_alias || (a_alias && da.layout != dd.layout) {
        return Ok(false);
    }
    let la = da.layout.broadcast_to(&shape)?;
    let scalar_layout = crate::shape::Layout { shape: shape.clone(), strides: smallvec::SmallVec::from_elem(0, shape.len()), offset: 0 };
    let lb = if b_scalar.is_some() { scalar_layout } else { db.layout.broadcast_to(&shape)? };
    float_types!(dt, T => {
        with_float_op!(op, T, f => {
            let cs = [T::from_f64(b_scalar.unwrap_or(0.0))];
            if a_alias {
                let mut st = dd.storage.data.write();
                let d = &mut T::get_mut(&mut st)[range];
                match b_scalar {
                    Some(_) => crate::cpu::zip_inplace(d, &cs, &lb, f),
                    None => {
                        let sb = db.storage.data.read();
                        crate::cpu::zip_inplace(d, T::get(&sb), &lb, f);
                    }
                }
            } else {
                let sa = da.storage.data.read();
                let sb_guard;
                let xb: &[T] = match b_scalar {
                    Some(_) => &cs,
                    None if std::sync::Arc::ptr_eq(&da.storage, &db.storage) => T::get(&sa),
                    None => { sb_guard = db.storage.data.read(); T::get(&sb_guard) }
                };
                let mut st = dd.storage.data.write();
                crate::cpu::map2_into(&mut T::get_mut(&mut st)[range], T::get(&sa), &la, xb, &lb, f);
            }
        })
    });
    Ok(true)
}

/// An in-place `target op= other`: written straight into the buffer when no history needs
/// recording, else through the general in-place path (snapshot, rebase, CopySlices).
pub fn inplace_binary(target: &Tensor, other: &Tensor, op: BinOp, general: fn(&Tensor, &Tensor) -> Result<Tensor>) -> Result<()> {
    super::check_inplace(target)?;
    let recording = crate::autograd::is_grad_enabled() && (target.requires_grad() || other.requires_grad());
    if !recording && binary_into_fast(target, target, other, op)? {
        target.bump_version();
        return Ok(());
    }
    super::inplace(target, |inp| general(inp, other))
}
