//! Complex tensors (complex64, complex128) and their ops.
//!
//! A complex tensor's storage holds its real dtype: element `k` is the pair at real elements
//! `2k` (real part) and `2k + 1` (imaginary part); its layout counts complex elements. So
//! `view_as_real` is a view (shape + `[2]`, strides doubled plus a unit stride, offset
//! doubled) and kernels only ever see real tensors: each complex op here is computed from
//! real and imaginary parts with the real ops, on whichever backend holds them.
//!
//! Gradients follow PyTorch's convention (the conjugate Wirtinger derivative): for a real
//! loss `L` of `z = x + iy`, `z.grad = ∂L/∂x + i ∂L/∂y`. A backward formula written as the
//! complex chain rule `g · f'(z)` gives it as `conj(formula(conj g))`; `record` applies that
//! to every node with a complex output (see `autograd::node::record_with`), so the real ops'
//! formulas serve complex inputs unchanged. The few formulas below that are not complex-linear
//! in `g` (they take real or imaginary parts) are recorded as written (`as_written`).

use super::shape::make_view;
use super::{cast_raw, sum_to};
use crate::autograd::{self, raw_mode, record, record_jvp, Save};
use crate::backend::{self, BinaryOp, UnaryOp};
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::shape::Layout;
use crate::tensor::{Scalar, Tensor};
use crate::{bail, ensure};

/// The layout of the real view of a complex layout `l`.
pub fn real_layout(l: &Layout) -> Layout {
    let mut shape = l.shape.clone();
    shape.push(2);
    let mut strides: crate::shape::Dims = l.strides.iter().map(|&s| s * 2).collect();
    strides.push(1);
    Layout { shape, strides, offset: l.offset * 2 }
}

/// `l` (a real operand's layout, broadcast to a complex result's shape) with a trailing dim
/// of 2 that reads each element twice: the operand against both parts of the result.
pub fn pair_layout(l: &Layout) -> Layout {
    let mut shape = l.shape.clone();
    shape.push(2);
    let mut strides = l.strides.clone();
    strides.push(0);
    Layout { shape, strides, offset: l.offset }
}

/// A view of `x`'s storage with another layout and dtype (same version counter, same base).
fn retyped_view(x: &Tensor, layout: Layout, dtype: DType) -> Result<Tensor> {
    let v = make_view(x, layout);
    // a view across dtypes carries no tangent of its own (`view_as_real` gets its tangent
    // from its JVP formula; the raw views inside complex ops need none)
    if autograd::forward::is_active() && v.meta().fw_grad.is_some() {
        v.meta().fw_grad = None;
    }
    let mut d = v.data().clone();
    d.dtype = dtype;
    v.set_data(d);
    Ok(v)
}

/// The `NotImplementedError` of an op PyTorch does not define for complex inputs.
pub fn unsupported(op: &str, dtype: DType) -> Error {
    Error::NotImplemented(format!("\"{op}\" not implemented for '{}'", dtype.scalar_name()))
}

/// `view_as_real(z)` without history.
pub fn view_as_real_raw(z: &Tensor) -> Result<Tensor> {
    ensure!(z.dtype().is_complex(), Runtime, "view_as_real is only supported for complex tensors");
    retyped_view(z, real_layout(&z.layout()), z.dtype().to_real())
}

/// `view_as_complex(x)` without history.
pub fn view_as_complex_raw(x: &Tensor) -> Result<Tensor> {
    let dt = x.dtype();
    ensure!(matches!(dt, DType::Float32 | DType::Float64), Runtime,
        "view_as_complex is only supported for half, float and double tensors, but got a tensor of scalar type: {}", dt.scalar_name());
    let l = x.layout();
    let n = l.ndim();
    ensure!(n > 0, Runtime, "Input tensor must have one or more dimensions");
    ensure!(l.shape[n - 1] == 2, Runtime, "Tensor must have a last dimension of size 2");
    ensure!(l.strides[n - 1] == 1, Runtime, "Tensor must have a last dimension with stride 1");
    ensure!(l.strides[..n - 1].iter().all(|s| s % 2 == 0), Runtime, "Tensor must have a stride divisible by 2 for all but last dimension");
    ensure!(l.offset % 2 == 0, Runtime, "Tensor must have a storage_offset divisible by 2");
    let layout = Layout { shape: l.shape[..n - 1].into(), strides: l.strides[..n - 1].iter().map(|s| s / 2).collect(), offset: l.offset / 2 };
    retyped_view(x, layout, dt.to_complex().unwrap_or(DType::Complex64))
}

/// The complex tensor over the (re, im) pairs of a freshly computed real tensor `x` (last dim
/// 2): a tensor of its own, not a view (no view base, its own version counter), as an op's
/// result must be — in-place ops on it must not go through view bookkeeping across dtypes.
pub fn fresh_complex(x: &Tensor) -> Result<Tensor> {
    // a contiguous result may carry any stride on a size-1 dim: give it the row-major ones
    let x = if x.is_contiguous() {
        let mut l = Layout::contiguous(&x.shape());
        l.offset = x.layout().offset;
        super::as_strided_view(x, &l)
    } else {
        x.clone()
    };
    let v = view_as_complex_raw(&x)?;
    let d = v.data().clone();
    Ok(Tensor::from_parts(d.storage, d.layout, d.dtype))
}

/// The real and imaginary parts of `z` as real views, without history.
pub fn parts(z: &Tensor) -> Result<(Tensor, Tensor)> {
    let l = z.layout();
    let rt = z.dtype().to_real();
    let strides: crate::shape::Dims = l.strides.iter().map(|&s| s * 2).collect();
    let re = retyped_view(z, Layout { shape: l.shape.clone(), strides: strides.clone(), offset: 2 * l.offset }, rt)?;
    let im = retyped_view(z, Layout { shape: l.shape.clone(), strides, offset: 2 * l.offset + 1 }, rt)?;
    Ok((re, im))
}

/// The complex tensor `re + i im` (same real dtype and shape), without history.
pub fn join(re: &Tensor, im: &Tensor) -> Result<Tensor> {
    let _g = raw_mode();
    let pair = super::stack(&[re.clone(), im.clone()], -1)?;
    fresh_complex(&pair)
}

/// `x` converted to the complex dtype `ct` (a real `x` gets zero imaginary parts), without
/// history; `x` itself when it already is.
pub fn to_complex(x: &Tensor, ct: DType) -> Result<Tensor> {
    let dt = x.dtype();
    if dt == ct {
        return Ok(x.clone());
    }
    if dt.is_complex() {
        return backend::cast(x, ct);
    }
    let re = cast_raw(x, ct.to_real())?;
    let im = crate::tensor::zeros_on(&re.shape(), ct.to_real(), re.device())?;
    join(&re, &im)
}

/// Run `f` with complex-output nodes recorded as written (their formulas already give the
/// conjugate-Wirtinger gradient), not through `conj(formula(conj g))`.
pub fn as_written<R>(f: impl FnOnce() -> Result<R>) -> Result<R> {
    let _g = autograd::AsWrittenGuard::new();
    f()
}

// ---------------------------------------------------------------- views and constructors

/// `torch.view_as_real(z)` (ViewAsRealBackward0).
pub fn view_as_real(z: &Tensor) -> Result<Tensor> {
    let out = view_as_real_raw(z)?;
    record_jvp("ViewAsRealBackward0", &[z], &[&out], &[], |_, g, _| Ok(vec![Some(view_as_complex(&super::contiguous(&g[0])?)?)]),
        // JVP: the real view of the tangent
        |t| Ok(vec![Some(view_as_real_raw(t.one())?)]))?;
    Ok(out)
}

/// `torch.view_as_complex(x)` (ViewAsComplexBackward0).
pub fn view_as_complex(x: &Tensor) -> Result<Tensor> {
    let out = view_as_complex_raw(x)?;
    as_written(|| record_jvp("ViewAsComplexBackward0", &[x], &[&out], &[], |_, g, _| Ok(vec![Some(view_as_real(&g[0])?)]),
        // JVP: the complex view of the tangent's pairs
        |t| Ok(vec![Some(fresh_complex(&super::contiguous(t.one())?)?)])))?;
    Ok(out)
}

/// `z.real`: a view of the real parts (`z` itself for a real tensor).
pub fn real(z: &Tensor) -> Result<Tensor> {
    if !z.dtype().is_complex() {
        return Ok(z.clone());
    }
    super::select(&view_as_real(z)?, -1, 0)
}

/// `z.imag`: a view of the imaginary parts.
pub fn imag(z: &Tensor) -> Result<Tensor> {
    ensure!(z.dtype().is_complex(), Runtime, "imag is not implemented for tensors with non-complex dtypes.");
    super::select(&view_as_real(z)?, -1, 1)
}

fn check_parts_dtypes(a: &Tensor, b: &Tensor) -> Result<DType> {
    let (da, db) = (a.dtype(), b.dtype());
    ensure!(matches!(da, DType::Float16 | DType::Float32 | DType::Float64) && matches!(db, DType::Float16 | DType::Float32 | DType::Float64),
        Runtime, "Expected both inputs to be Half, Float or Double tensors but got {} and {}", da.scalar_name(), db.scalar_name());
    ensure!(da == db, Runtime, "Expected object of scalar type {} but got scalar type {} for second argument", da.scalar_name(), db.scalar_name());
    ensure!(da != DType::Float16, NotImplemented, "\"complex_cpu\" not implemented for 'ComplexHalf'");
    Ok(da)
}

/// Broadcast `a` and `b` to one shape (views, no history).
fn broadcast_pair(a: &Tensor, b: &Tensor) -> Result<(Tensor, Tensor)> {
    let shape = crate::shape::broadcast_shapes(&a.shape(), &b.shape())?;
    let va = super::as_strided_view(a, &a.layout().broadcast_to(&shape)?);
    let vb = super::as_strided_view(b, &b.layout().broadcast_to(&shape)?);
    Ok((va, vb))
}

/// `torch.complex(real, imag)` (ComplexBackward0).
pub fn complex(re: &Tensor, im: &Tensor) -> Result<Tensor> {
    check_parts_dtypes(re, im)?;
    let out = {
        let (r, i) = broadcast_pair(&re.detach(), &im.detach())?;
        join(&r, &i)?
    };
    let (sr, si) = (re.shape(), im.shape());
    as_written(|| record_jvp("ComplexBackward0", &[re, im], &[&out], &[], move |_, g, n| {
        Ok(vec![
            if n[0] { Some(sum_to(&real(&g[0])?, &sr)?) } else { None },
            if n[1] { Some(sum_to(&imag(&g[0])?, &si)?) } else { None },
        ])
    },
        // JVP: t_re + i t_im (a missing tangent is zero)
        |t| {
            let part = |i: usize, like: &Tensor| t.get(i).cloned().map_or_else(|| zeros_of(like), Ok);
            Ok(vec![Some(join_broadcast(&part(0, re)?, &part(1, im)?)?)])
        }))?;
    Ok(out)
}

/// `torch.polar(abs, angle) = abs · (cos angle + i sin angle)` (PolarBackward0).
pub fn polar(abs: &Tensor, angle: &Tensor) -> Result<Tensor> {
    check_parts_dtypes(abs, angle)?;
    let out = {
        let _g = raw_mode();
        let (r, t) = broadcast_pair(&abs.detach(), &angle.detach())?;
        join(&super::mul(&r, &super::cos(&t)?)?, &super::mul(&r, &super::sin(&t)?)?)?
    };
    let (sr, st) = (abs.shape(), angle.shape());
    // ∂out/∂abs = e^{iθ}, ∂out/∂θ = i·out: grad_abs = Re(g · e^{-iθ}), grad_θ = Re(g · conj(i·out))
    let (angle_in, out_in) = (angle.clone(), out.clone());
    as_written(|| record_jvp("PolarBackward0", &[abs, angle], &[&out], &[Save::In(angle), Save::Out(0)], move |s, g, n| {
        let (t, o) = (s.get(0)?, s.get(1)?);
        let (gr, gi) = (real(&g[0])?, imag(&g[0])?);
        Ok(vec![
            if n[0] { Some(sum_to(&super::add(&super::mul(&gr, &super::cos(&t)?)?, &super::mul(&gi, &super::sin(&t)?)?)?, &sr)?) } else { None },
            if n[1] { Some(sum_to(&super::sub(&super::mul(&gi, &real(&o)?)?, &super::mul(&gr, &imag(&o)?)?)?, &st)?) } else { None },
        ])
    },
        // JVP: t_abs e^{iθ} + i out t_θ
        |t| {
            let e = {
                let th = angle_in.detach();
                join_broadcast(&super::cos(&th)?, &super::sin(&th)?)?
            };
            let terms = [t.map(0, |ta| super::mul(ta, &e))?,
                         t.map(1, |tt| super::mul(&super::mul(tt, &Tensor::wrapped_complex(0.0, 1.0))?, &out_in.detach()))?];
            Ok(vec![autograd::forward::sum_terms(terms)?])
        }))?;
    Ok(out)
}

/// `z.conj()` (ConjBackward0). ferrograd materialises the conjugate (PyTorch returns a lazy
/// view with the conjugate bit set; the values, gradients and printing are the same). A real
/// tensor is returned as is, as in PyTorch.
pub fn conj(z: &Tensor) -> Result<Tensor> {
    if !z.dtype().is_complex() {
        return Ok(z.clone());
    }
    let out = conj_raw(z)?;
    record_jvp("ConjBackward0", &[z], &[&out], &[], |_, g, _| Ok(vec![Some(conj(&g[0])?)]),
        // JVP: the conjugate of the tangent
        |t| Ok(vec![Some(conj(t.one())?)]))?;
    Ok(out)
}

/// `conj(z)` without history.
pub fn conj_raw(z: &Tensor) -> Result<Tensor> {
    let _g = raw_mode();
    let (re, im) = parts(z)?;
    join(&re, &super::neg(&im)?)
}

// ---------------------------------------------------------------- forward kernels

/// `a op b` with at least one complex operand, without history (the caller records).
pub fn binary_raw(a: &Tensor, b: &Tensor, op: BinaryOp) -> Result<Tensor> {
    let ct = super::binary::compute_dtype(a, b, op);
    let _g = raw_mode();
    let rt = ct.to_real();
    match op {
        BinaryOp::Add | BinaryOp::Sub => {
            let (a, b) = broadcast_pair(&to_complex(a, ct)?, &to_complex(b, ct)?)?;
            let (ra, rb) = (view_as_real_raw(&a)?, view_as_real_raw(&b)?);
            fresh_complex(&backend::binary(&ra, &ra.layout(), &rb, &rb.layout(), op)?)
        }
        // a complex times (or over) a real: both parts scaled by the real operand
        BinaryOp::Mul | BinaryOp::Div if !b.dtype().is_complex() || (op == BinaryOp::Mul && !a.dtype().is_complex()) => {
            let (z, x) = if b.dtype().is_complex() { (b, a) } else { (a, b) };
            let (z, x) = broadcast_pair(&to_complex(z, ct)?, &cast_raw(x, rt)?)?;
            let rz = view_as_real_raw(&z)?;
            let lx = pair_layout(&x.layout());
            fresh_complex(&backend::binary(&rz, &rz.layout(), &x, &lx, op)?)
        }
        BinaryOp::Mul => {
            let ((ar, ai), (br, bi)) = (parts(&to_complex(a, ct)?)?, parts(&to_complex(b, ct)?)?);
            use super::{add, mul, sub};
            join_broadcast(&sub(&mul(&ar, &br)?, &mul(&ai, &bi)?)?, &add(&mul(&ar, &bi)?, &mul(&ai, &br)?)?)
        }
        // c10::complex's (NumPy's) scaled division: (a + bi) / (c + di) through the ratio of the
        // smaller to the larger of |c|, |d|, and a complex inf or nan for a zero divisor
        BinaryOp::Div => {
            let ((a, b), (c, d)) = (parts(&to_complex(a, ct)?)?, parts(&to_complex(b, ct)?)?);
            use super::{add, div, mul, sub, where_};
            let one = || Tensor::wrapped_scalar(Scalar::Int(1));
            let (ac, ad) = (super::abs(&c)?, super::abs(&d)?);
            let c_larger = super::binary_raw(&ac, &ad, BinaryOp::Ge)?;
            let zero = super::binary_raw(&super::binary_raw(&ac, &Tensor::wrapped_scalar(Scalar::Int(0)), BinaryOp::Eq)?,
                                         &super::binary_raw(&ad, &Tensor::wrapped_scalar(Scalar::Int(0)), BinaryOp::Eq)?, BinaryOp::And)?;
            // |c| >= |d|: rat = d / c, scl = 1 / (c + d rat)
            let rat1 = div(&d, &c)?;
            let scl1 = div(&one(), &add(&c, &mul(&d, &rat1)?)?)?;
            let re1 = mul(&add(&a, &mul(&b, &rat1)?)?, &scl1)?;
            let im1 = mul(&sub(&b, &mul(&a, &rat1)?)?, &scl1)?;
            // |c| < |d|: rat = c / d, scl = 1 / (d + c rat)
            let rat2 = div(&c, &d)?;
            let scl2 = div(&one(), &add(&d, &mul(&c, &rat2)?)?)?;
            let re2 = mul(&add(&mul(&a, &rat2)?, &b)?, &scl2)?;
            let im2 = mul(&sub(&mul(&b, &rat2)?, &a)?, &scl2)?;
            // 0 divisor: a / |c| + i b / |d|
            let (re0, im0) = (div(&a, &ac)?, div(&b, &ad)?);
            let re = where_(&c_larger, &where_(&zero, &re0, &re1)?, &re2)?;
            let im = where_(&c_larger, &where_(&zero, &im0, &im1)?, &im2)?;
            join_broadcast(&re, &im)
        }
        // exp(b log a), std::pow's complex definition
        BinaryOp::Pow => {
            let l = unary_raw(&to_complex(a, ct)?, UnaryOp::Log)?;
            unary_raw(&binary_raw(&l, &to_complex(b, ct)?, BinaryOp::Mul)?, UnaryOp::Exp)
        }
        BinaryOp::Eq | BinaryOp::Ne => {
            let ((ar, ai), (br, bi)) = (parts(&to_complex(a, ct)?)?, parts(&to_complex(b, ct)?)?);
            let (r, i) = (super::binary_raw(&ar, &br, op)?, super::binary_raw(&ai, &bi, op)?);
            super::binary_raw(&r, &i, if op == BinaryOp::Eq { BinaryOp::Mul } else { BinaryOp::Add })
                .and_then(|t| if op == BinaryOp::Eq { Ok(t) } else { super::binary_raw(&t, &Tensor::wrapped_scalar(Scalar::Int(0)), BinaryOp::Ne) })
                .and_then(|t| cast_raw(&t, DType::Bool))
        }
        _ => Err(unsupported(&format!("{}_cpu", op.name()), ct)),
    }
}

/// Zeros of `x`'s shape, dtype and device.
fn zeros_of(x: &Tensor) -> Result<Tensor> {
    crate::tensor::zeros_on(&x.shape(), x.dtype(), x.device())
}

/// `join` of parts that may differ in shape (broadcast first).
fn join_broadcast(re: &Tensor, im: &Tensor) -> Result<Tensor> {
    let (r, i) = broadcast_pair(re, im)?;
    join(&r, &i)
}

/// `|z|` as a real tensor, without history (`hypot` of the parts, as `std::abs`).
pub fn abs_raw(z: &Tensor) -> Result<Tensor> {
    let _g = raw_mode();
    let (re, im) = parts(z)?;
    let (ar, ai) = (super::abs(&re)?, super::abs(&im)?);
    // hypot without overflow: m · sqrt(1 + (n/m)²), m = max(|re|, |im|), n = min
    let m = backend::binary(&ar, &ar.layout(), &ai, &ai.layout(), BinaryOp::Maximum)?;
    let n = backend::binary(&ar, &ar.layout(), &ai, &ai.layout(), BinaryOp::Minimum)?;
    let q = super::div(&n, &m)?;
    let q = super::where_(&super::binary_raw(&m, &Tensor::wrapped_scalar(Scalar::Int(0)), BinaryOp::Eq)?, &Tensor::wrapped_scalar(Scalar::Int(0)), &q)?;
    super::mul(&m, &super::sqrt(&super::add(&super::mul(&q, &q)?, &Tensor::wrapped_scalar(Scalar::Int(1)))?)?)
}

/// Whether each element is negative, -0 included (`1/v < 0`).
fn signbit(v: &Tensor) -> Result<Tensor> {
    super::binary_raw(&super::reciprocal(v)?, &Tensor::wrapped_scalar(Scalar::Int(0)), BinaryOp::Lt)
}

/// An odd function that commutes with conjugation (asinh, atanh), evaluated as `f` on the
/// first quadrant `|x| + i|y|` (where `f`'s formula has no branch cut) with the signs of `x`
/// and `y`, signed zeros included, copied onto the result's parts — C99's way to put the
/// result on the side of the cut that the input's signed zero names.
fn odd_conj_symmetric(x: &Tensor, y: &Tensor, f: impl FnOnce(&Tensor) -> Result<Tensor>) -> Result<Tensor> {
    let r = f(&join_broadcast(&super::abs(x)?, &super::abs(y)?)?)?;
    let (rr, ri) = parts(&r)?;
    let flip = |v: &Tensor, s: &Tensor| -> Result<Tensor> { super::where_(&signbit(s)?, &super::neg(v)?, v) };
    join_broadcast(&flip(&rr, x)?, &flip(&ri, y)?)
}

/// `asinh(x + iy)`: `log(q + sqrt(q² + 1))` on the first quadrant.
fn asinh_signed(x: &Tensor, y: &Tensor) -> Result<Tensor> {
    odd_conj_symmetric(x, y, |q| {
        let r = unary_raw(&binary_raw(&binary_raw(q, q, BinaryOp::Mul)?, &Tensor::wrapped_scalar(Scalar::Int(1)), BinaryOp::Add)?, UnaryOp::Sqrt)?;
        unary_raw(&binary_raw(q, &r, BinaryOp::Add)?, UnaryOp::Log)
    })
}

/// `atanh(x + iy)` on the first quadrant: `log1p(4x / ((1-x)² + y²)) / 4 + i atan2(2y,
/// (1-x)(1+x) - y²) / 2` (the imaginary part is π/2, not -π/2, beyond 1 on the real axis).
fn atanh_signed(x: &Tensor, y: &Tensor) -> Result<Tensor> {
    odd_conj_symmetric(x, y, |q| {
        use super::{add, div, mul, sub};
        let (a, b) = parts(q)?;
        let one = || Tensor::wrapped_scalar(Scalar::Int(1));
        let om = sub(&one(), &a)?;
        let den = add(&mul(&om, &om)?, &mul(&b, &b)?)?;
        let re = mul(&super::unary_extra(&div(&mul(&a, &Tensor::wrapped_scalar(Scalar::Int(4)))?, &den)?, "log1p")?, &Tensor::wrapped_scalar(Scalar::Float(0.25)))?;
        let im = mul(&super::atan2(&mul(&b, &Tensor::wrapped_scalar(Scalar::Int(2)))?, &sub(&mul(&om, &add(&one(), &a)?)?, &mul(&b, &b)?)?)?,
                     &Tensor::wrapped_scalar(Scalar::Float(0.5)))?;
        join(&re, &im)
    })
}

/// `op(z)` for complex `z`, without history: the holomorphic functions PyTorch defines on
/// complex numbers, from the parts `x + iy`.
pub fn unary_raw(z: &Tensor, op: UnaryOp) -> Result<Tensor> {
    let _g = raw_mode();
    let (x, y) = parts(z)?;
    use super::{add, cos, div, exp, mul, neg, sin, sub};
    let unary_extra = super::unary_extra;
    let two = || Tensor::wrapped_scalar(Scalar::Int(2));
    match op {
        UnaryOp::Neg => join(&neg(&x)?, &neg(&y)?),
        // e^x (cos y + i sin y)
        UnaryOp::Exp => {
            let e = exp(&x)?;
            join(&mul(&e, &cos(&y)?)?, &mul(&e, &sin(&y)?)?)
        }
        // ln|z| + i atan2(y, x)
        UnaryOp::Log => join(&super::log(&abs_raw(z)?)?, &super::atan2(&y, &x)?),
        // principal root: sqrt((|z| + x)/2) + i sign(y) sqrt((|z| - x)/2)
        UnaryOp::Sqrt => {
            let r = abs_raw(z)?;
            let re = super::sqrt(&div(&add(&r, &x)?, &two())?)?;
            let im = super::sqrt(&super::clamp_min(&div(&sub(&r, &x)?, &two())?, Scalar::Int(0))?)?;
            // the sign of y, -0 included (sqrt(-4 - 0i) = -2i): 1/y < 0
            let neg_y = super::binary_raw(&super::reciprocal(&y)?, &Tensor::wrapped_scalar(Scalar::Int(0)), BinaryOp::Lt)?;
            join(&re, &super::where_(&neg_y, &neg(&im)?, &im)?)
        }
        // conj(z) / |z|²
        UnaryOp::Reciprocal => {
            let d = add(&mul(&x, &x)?, &mul(&y, &y)?)?;
            join(&div(&x, &d)?, &neg(&div(&y, &d)?)?)
        }
        // sin x cosh y + i cos x sinh y
        UnaryOp::Sin => join(&mul(&sin(&x)?, &unary_extra(&y, "cosh")?)?, &mul(&cos(&x)?, &unary_extra(&y, "sinh")?)?),
        // cos x cosh y - i sin x sinh y
        UnaryOp::Cos => join(&mul(&cos(&x)?, &unary_extra(&y, "cosh")?)?, &neg(&mul(&sin(&x)?, &unary_extra(&y, "sinh")?)?)?),
        // sinh x cos y + i cosh x sin y
        UnaryOp::Sinh => join(&mul(&unary_extra(&x, "sinh")?, &cos(&y)?)?, &mul(&unary_extra(&x, "cosh")?, &sin(&y)?)?),
        // cosh x cos y + i sinh x sin y
        UnaryOp::Cosh => join(&mul(&unary_extra(&x, "cosh")?, &cos(&y)?)?, &mul(&unary_extra(&x, "sinh")?, &sin(&y)?)?),
        // (tanh x (1 + tan² y) + i tan y (1 - tanh² x)) / (1 + tanh² x tan² y), stable for large |x|
        UnaryOp::Tanh => {
            let (t, u) = (super::tanh(&x)?, unary_extra(&y, "tan")?);
            let one = || Tensor::wrapped_scalar(Scalar::Int(1));
            let (t2, u2) = (mul(&t, &t)?, mul(&u, &u)?);
            let d = add(&one(), &mul(&t2, &u2)?)?;
            join(&div(&mul(&t, &add(&one(), &u2)?)?, &d)?, &div(&mul(&u, &sub(&one(), &t2)?)?, &d)?)
        }
        // 1 / (1 + e^{-z})
        UnaryOp::Sigmoid => {
            let e = unary_raw(&unary_raw(z, UnaryOp::Neg)?, UnaryOp::Exp)?;
            let (er, ei) = parts(&e)?;
            unary_raw(&join(&add(&er, &Tensor::wrapped_scalar(Scalar::Int(1)))?, &ei)?, UnaryOp::Reciprocal)
        }
        UnaryOp::Square => binary_raw(z, z, BinaryOp::Mul),
        UnaryOp::Log2 | UnaryOp::Log10 => {
            let ln = if op == UnaryOp::Log2 { std::f64::consts::LN_2 } else { std::f64::consts::LN_10 };
            binary_raw(&unary_raw(z, UnaryOp::Log)?, &Tensor::wrapped_scalar(Scalar::Float(ln)), BinaryOp::Div)
        }
        UnaryOp::Log1p => unary_raw(&binary_raw(z, &Tensor::wrapped_scalar(Scalar::Int(1)), BinaryOp::Add)?, UnaryOp::Log),
        UnaryOp::Expm1 => binary_raw(&unary_raw(z, UnaryOp::Exp)?, &Tensor::wrapped_scalar(Scalar::Int(1)), BinaryOp::Sub),
        UnaryOp::Tan => binary_raw(&unary_raw(z, UnaryOp::Sin)?, &unary_raw(z, UnaryOp::Cos)?, BinaryOp::Div),
        // atan z = (i/2) log((i + z) / (i - z))
        // atan z = -i atanh(iz), asin z = -i asinh(iz) (C99's casin/catan, with their branch
        // cuts and signed zeros): iz = -y + ix
        UnaryOp::Atan => {
            let a = atanh_signed(&neg(&y)?, &x)?;
            let (ar, ai) = parts(&a)?;
            join(&ai, &neg(&ar)?)
        }
        UnaryOp::Asin => {
            let a = asinh_signed(&neg(&y)?, &x)?;
            let (ar, ai) = parts(&a)?;
            join(&ai, &neg(&ar)?)
        }
        // acos z = pi/2 - asin z
        UnaryOp::Acos => binary_raw(&Tensor::wrapped_scalar(Scalar::Float(std::f64::consts::FRAC_PI_2)), &unary_raw(z, UnaryOp::Asin)?, BinaryOp::Sub),
        UnaryOp::Rsqrt => unary_raw(&unary_raw(z, UnaryOp::Sqrt)?, UnaryOp::Reciprocal),
        UnaryOp::PowScalar(p) => pow_scalar_raw(z, p),
        UnaryOp::PowInt(e) => pow_scalar_raw(z, e as f64),
        UnaryOp::Relu | UnaryOp::Clamp(..) | UnaryOp::ClampMask(..) => bail!(NotImplemented, "clamp is not supported for complex types"),
        UnaryOp::Floor | UnaryOp::Ceil | UnaryOp::Trunc | UnaryOp::Round => bail!(NotImplemented, "{} is not supported for complex inputs", op.name()),
        UnaryOp::Sign => bail!(NotImplemented, "Unlike NumPy, torch.sign is not intended to support complex numbers. Please use torch.sgn instead."),
        _ => Err(unsupported(&format!("{}_cpu", op.name()), z.dtype())),
    }
}

/// `z ** p` for a real scalar `p`: exp(p log z), with exact small integer powers by
/// repeated products (as PyTorch's complex pow gives `z ** 2 == z * z`).
pub fn pow_scalar_raw(z: &Tensor, p: f64) -> Result<Tensor> {
    let _g = raw_mode();
    if p == 0.0 {
        let (x, _) = parts(z)?;
        let one = crate::tensor::full_on(&x.shape(), Scalar::Int(1), x.dtype(), x.device())?;
        return join(&one, &zeros_of(&x)?);
    }
    if p.fract() == 0.0 && p.abs() <= 4.0 {
        let mut out = z.clone();
        for _ in 1..p.abs() as u32 {
            out = binary_raw(&out, z, BinaryOp::Mul)?;
        }
        if p < 0.0 {
            out = unary_raw(&out, UnaryOp::Reciprocal)?;
        }
        return if out.same(z) { super::contiguous(&z.detach()) } else { Ok(out) };
    }
    let l = unary_raw(z, UnaryOp::Log)?;
    unary_raw(&binary_raw(&l, &Tensor::wrapped_scalar(Scalar::Float(p)), BinaryOp::Mul)?, UnaryOp::Exp)
}

/// `angle(z) = atan2(imag, real)` of a complex `z`, without history.
pub fn angle_raw(z: &Tensor) -> Result<Tensor> {
    let _g = raw_mode();
    let (x, y) = parts(z)?;
    super::atan2(&y, &x)
}

/// `|z|` (AbsBackward0: the gradient is `g · sgn(z)`).
pub fn abs(z: &Tensor) -> Result<Tensor> {
    let out = abs_raw(z)?;
    let zi = z.detach();
    record_jvp("AbsBackward0", &[z], &[&out], &[Save::In(z)], |s, g, _| Ok(vec![Some(super::mul(&g[0], &sgn(&s.get(0)?)?)?)]),
        // JVP: Re(conj(sgn z) t) (0 at z = 0)
        |t| Ok(vec![Some(real(&super::mul(&conj(&sgn(&zi)?)?, t.one())?)?)]))?;
    Ok(out)
}

/// `angle(z)`: for complex `z` AngleBackward0 is `g · i z / |z|²` (zero at 0); for a real
/// `x` it is 0 where `x >= 0` and pi where `x < 0` (NaN kept), with a zero gradient.
pub fn angle(z: &Tensor) -> Result<Tensor> {
    if !z.dtype().is_complex() {
        ensure!(z.dtype() != DType::Bool, NotImplemented, "\"angle_cpu\" not implemented for 'Bool'");
        let out = {
            let _g = raw_mode();
            let x = super::float_input(z)?;
            let neg = super::binary_raw(&x, &Tensor::wrapped_scalar(Scalar::Int(0)), BinaryOp::Lt)?;
            let pi = super::where_(&neg, &Tensor::wrapped_scalar(Scalar::Float(std::f64::consts::PI)), &Tensor::wrapped_scalar(Scalar::Int(0)))?;
            let pi = cast_raw(&pi, x.dtype())?;
            // NaN stays NaN: x * 0 + angle
            super::add(&super::mul(&x, &Tensor::wrapped_scalar(Scalar::Int(0)))?, &pi)?
        };
        let meta = crate::autograd::InputMeta::of(z);
        record("AngleBackward0", &[z], &[&out], &[], move |_, _, _| Ok(vec![Some(meta.zeros()?)]))?;
        return Ok(out);
    }
    let out = angle_raw(z)?;
    let zi = z.detach();
    record_jvp("AngleBackward0", &[z], &[&out], &[Save::In(z)], |s, g, _| {
        let z = s.get(0)?;
        let i = Tensor::wrapped_complex(0.0, 1.0);
        let a = abs(&z)?;
        let v = super::div(&super::mul(&super::mul(&g[0], &z)?, &i)?, &super::mul(&a, &a)?)?;
        let zero = super::binary_raw(&a, &Tensor::wrapped_scalar(Scalar::Int(0)), BinaryOp::Eq)?;
        Ok(vec![Some(super::where_(&zero, &Tensor::wrapped_scalar(Scalar::Int(0)), &v)?)])
    },
        // JVP: d arg z = Im(conj(z) t) / |z|² (0 at z = 0)
        |t| {
            let a = abs_raw(&zi)?;
            let zero = super::binary_raw(&a, &Tensor::wrapped_scalar(Scalar::Int(0)), BinaryOp::Eq)?;
            let v = super::div(&imag(&super::mul(&conj(&zi)?, t.one())?)?, &super::mul(&a, &a)?)?;
            Ok(vec![Some(super::where_(&zero, &Tensor::wrapped_scalar(Scalar::Int(0)), &v)?)])
        })?;
    Ok(out)
}

/// `sgn(z) = z / |z|` (0 at 0); for a real tensor, `sign`.
pub fn sgn(z: &Tensor) -> Result<Tensor> {
    if !z.dtype().is_complex() {
        return super::sign(z);
    }
    let out = {
        let _g = raw_mode();
        let a = abs_raw(z)?;
        let zero = super::binary_raw(&a, &Tensor::wrapped_scalar(Scalar::Int(0)), BinaryOp::Eq)?;
        let safe = super::where_(&zero, &Tensor::wrapped_scalar(Scalar::Int(1)), &a)?;
        let q = binary_raw(z, &safe, BinaryOp::Div)?;
        let (qr, qi) = parts(&q)?;
        let (zr, zi) = (zeros_of(&qr)?, zeros_of(&qi)?);
        join(&super::where_(&zero, &zr, &qr)?, &super::where_(&zero, &zi, &qi)?)?
    };
    // PyTorch's sgn_backward: (g - Re(g · conj(sgn)) · sgn) / |z|, zero at 0... written for
    // the conjugate-Wirtinger gradient directly
    let (zi, si) = (z.detach(), out.clone());
    as_written(|| record_jvp("SgnBackward0", &[z], &[&out], &[Save::In(z), Save::Out(0)], |s, g, _| {
        let (z, sg) = (s.get(0)?, s.get(1)?);
        let a = abs(&z)?;
        let zero = super::binary_raw(&a, &Tensor::wrapped_scalar(Scalar::Int(0)), BinaryOp::Eq)?;
        let safe = super::where_(&zero, &Tensor::wrapped_scalar(Scalar::Int(1)), &a)?;
        let proj = super::mul(&real(&super::mul(&g[0], &conj(&sg)?)?)?, &sg)?;
        let v = super::div(&super::sub(&g[0], &proj)?, &safe)?;
        Ok(vec![Some(super::where_(&zero, &Tensor::wrapped_scalar(Scalar::Int(0)), &v)?)])
    },
        // JVP: d(z/|z|) = (t - Re(conj(sgn) t) sgn) / |z| (0 at z = 0)
        |t| {
            let sg = si.detach();
            let a = abs_raw(&zi)?;
            let zero = super::binary_raw(&a, &Tensor::wrapped_scalar(Scalar::Int(0)), BinaryOp::Eq)?;
            let safe = super::where_(&zero, &Tensor::wrapped_scalar(Scalar::Int(1)), &a)?;
            let proj = super::mul(&real(&super::mul(&conj(&sg)?, t.one())?)?, &sg)?;
            let v = super::div(&super::sub(t.one(), &proj)?, &safe)?;
            Ok(vec![Some(super::where_(&zero, &Tensor::wrapped_scalar(Scalar::Int(0)), &v)?)])
        }))?;
    Ok(out)
}

/// `sum`/`mean`-style reductions of a complex `z` over `dims` (of `z`), reducing the real
/// view (its pair dim is last, so the dims keep their numbers); without history.
pub fn reduce_raw(z: &Tensor, f: impl FnOnce(&Tensor) -> Result<Tensor>) -> Result<Tensor> {
    let _g = raw_mode();
    let r = view_as_real_raw(z)?;
    let out = super::contiguous(&f(&r)?)?;
    fresh_complex(&out)
}

/// `c` (contiguous complex, rows of `n`, possibly at an offset) as an `[m, n]` view.
fn as_rows(c: &Tensor, n: usize) -> Tensor {
    let m = if n == 0 { 0 } else { c.numel() / n };
    let mut l = Layout::contiguous(&[m, n]);
    l.offset = c.layout().offset;
    super::as_strided_view(c, &l)
}

fn ones_rows(m: usize, like: &Tensor) -> Result<Tensor> {
    crate::tensor::full_on(&[m, 1], Scalar::Int(1), like.dtype(), like.device())
}

/// Running products along the rows of `y` (`[m, n]`): Hillis and Steele's scan, log2(n)
/// complex products of shifted slices (no kernel needs a complex variant).
fn cumprod_rows(y: &Tensor) -> Result<Tensor> {
    let n = y.shape()[1];
    let mut y = y.clone();
    let mut s = 1usize;
    while s < n {
        let head = super::narrow(&y, 1, 0, s as i64)?;
        let tail = super::narrow(&y, 1, s as i64, (n - s) as i64)?;
        let prev = super::narrow(&y, 1, 0, (n - s) as i64)?;
        y = super::cat(&[head, binary_raw(&tail, &prev, BinaryOp::Mul)?], 1)?;
        s *= 2;
    }
    Ok(y)
}

/// The complex forms of the row kernels `prod`, `cumprod` and products-of-the-others:
/// `c` contiguous with rows of `n`, the result contiguous (one value per row for `prod`).
pub fn scan_rows(c: &Tensor, n: usize, op: crate::backend::ScanOp) -> Result<Tensor> {
    use crate::backend::ScanOp;
    let _g = raw_mode();
    let y = as_rows(c, n);
    let m = y.shape()[0];
    if n == 0 || m == 0 {
        return cast_raw(&y, y.dtype());
    }
    let out = match op {
        ScanOp::Cumprod => cumprod_rows(&y)?,
        ScanOp::ProdOthers => {
            // prod_{j<k} x_j times prod_{j>k} x_j: exclusive running products both ways
            if n == 1 {
                ones_rows(m, &y)?
            } else {
                let before = super::cat(&[ones_rows(m, &y)?, cumprod_rows(&super::narrow(&y, 1, 0, n as i64 - 1)?)?], 1)?;
                let rev = super::flip(&y, &[1])?;
                let after_rev = super::cat(&[ones_rows(m, &y)?, cumprod_rows(&super::narrow(&rev, 1, 0, n as i64 - 1)?)?], 1)?;
                binary_raw(&before, &super::flip(&after_rev, &[1])?, BinaryOp::Mul)?
            }
        }
        _ => return Err(unsupported(op.name(), c.dtype())),
    };
    // a fresh row-major tensor, as the backend's scan gives (callers view it from offset 0)
    cast_raw(&out, out.dtype())
}

/// The product of each row of `c` (contiguous complex, rows of `n`): pairwise products,
/// halving the row each round; an empty row gives 1.
pub fn prod_rows(c: &Tensor, n: usize) -> Result<Tensor> {
    let _g = raw_mode();
    let m = c.numel().checked_div(n).unwrap_or(0);
    if n == 0 {
        return crate::tensor::full_on(&[m], Scalar::Int(1), c.dtype(), c.device());
    }
    let mut y = as_rows(c, n);
    let mut len = n;
    while len > 1 {
        let h = len / 2;
        let mut p = binary_raw(&super::narrow(&y, 1, 0, h as i64)?, &super::narrow(&y, 1, h as i64, h as i64)?, BinaryOp::Mul)?;
        if len % 2 == 1 {
            p = super::cat(&[p, super::narrow(&y, 1, 2 * h as i64, 1)?], 1)?;
        }
        y = p;
        len = h + len % 2;
    }
    cast_raw(&super::select(&y, 1, 0)?, c.dtype())
}

/// Batched matmul of complex (or mixed) 3-d operands, without history:
/// (A + iB)(C + iD) = (AC - BD) + i(AD + BC).
pub fn matmul_raw(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    let ct = crate::dtype::DType::promote(a.dtype(), b.dtype());
    let _g = raw_mode();
    let ((ar, ai), (br, bi)) = (parts(&to_complex(a, ct)?)?, parts(&to_complex(b, ct)?)?);
    let mm = |x: &Tensor, y: &Tensor| backend::matmul(x, y);
    let re = super::sub(&mm(&ar, &br)?, &mm(&ai, &bi)?)?;
    let im = super::add(&mm(&ar, &bi)?, &mm(&ai, &br)?)?;
    join(&re, &im)
}

/// The values of a complex tensor as (re, im) pairs in row-major order.
pub fn to_pairs(z: &Tensor) -> Result<Vec<(f64, f64)>> {
    let (re, im) = parts(z)?;
    let (r, i) = (re.to_f64_vec()?, im.to_f64_vec()?);
    Ok(r.into_iter().zip(i).collect())
}

/// A complex tensor of `shape` from (re, im) pairs.
pub fn from_pairs(v: &[(f64, f64)], shape: &[usize], dtype: DType) -> Result<Tensor> {
    let flat: Vec<f64> = v.iter().flat_map(|&(r, i)| [r, i]).collect();
    let mut pshape = shape.to_vec();
    pshape.push(2);
    fresh_complex(&crate::tensor::from_f64s(&flat, &pshape, dtype.to_real())?)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(v: &[(f64, f64)]) -> Tensor {
        from_pairs(v, &[v.len()], DType::Complex128).unwrap()
    }

    #[test]
    fn products_and_views_of_pairs() {
        let a = c(&[(1.0, 2.0), (3.0, -1.0)]);
        let b = c(&[(2.0, -1.0), (0.0, 1.0)]);
        assert_eq!(to_pairs(&super::super::mul(&a, &b).unwrap()).unwrap(), vec![(4.0, 3.0), (1.0, 3.0)]);
        let r = view_as_real_raw(&a).unwrap();
        assert_eq!(r.shape().as_slice(), &[2, 2]);
        assert_eq!(r.to_f64_vec().unwrap(), vec![1.0, 2.0, 3.0, -1.0]);
        assert!(a.to_f64_vec().is_err(), "complex values are not read as reals");
        let err = super::super::relu(&a).unwrap_err().to_string();
        assert_eq!(err, "clamp is not supported for complex types");
    }

    #[test]
    fn gradient_is_the_conjugate_wirtinger_derivative() {
        // L = Re(sum(z * w)): dL/dRe z = Re w, dL/dIm z = -Im w, so z.grad = conj(w)
        let z = c(&[(1.0, 2.0), (-0.5, 0.25)]);
        z.set_requires_grad(true).unwrap();
        let w = c(&[(2.0, -1.0), (0.5, 3.0)]);
        let loss = super::super::sum(&real(&super::super::mul(&z, &w).unwrap()).unwrap(), None).unwrap();
        loss.backward().unwrap();
        assert_eq!(to_pairs(&z.grad().unwrap()).unwrap(), vec![(2.0, 1.0), (0.5, -3.0)]);
    }
}
