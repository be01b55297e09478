//! Matrix products: mm, mv, dot, bmm and matmul (with batch broadcasting), through gemm.

use super::{expand, mul, reshape, squeeze, t, transpose, unsqueeze};
use crate::autograd::{record_jvp, Node, Save, SavedValue};
use crate::dtype::DType;
use crate::error::Result;
use crate::tensor::{Scalar, Tensor};
use crate::{bail, ensure};

fn same_dtype(a: &Tensor, b: &Tensor) -> Result<()> {
    if a.dtype() != b.dtype() {
        bail!(Runtime, "expected m1 and m2 to have the same dtype, but got: {} != {}", a.dtype().cpp_type_name(), b.dtype().cpp_type_name());
    }
    Ok(())
}

/// Raw `(batch, m, k) @ (batch, k, n)`; a and b are 3-D with any strides.
fn bmm_raw(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    if a.dtype().is_complex() || b.dtype().is_complex() {
        return super::complex::matmul_raw(a, b);
    }
    crate::backend::matmul(a, b)
}

fn mm_raw(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    let a3 = super::as_strided_view(a, &{ let mut l = a.layout(); l.shape.insert(0, 1); l.strides.insert(0, 0); l });
    let b3 = super::as_strided_view(b, &{ let mut l = b.layout(); l.shape.insert(0, 1); l.strides.insert(0, 0); l });
    let out = bmm_raw(&a3, &b3)?;
    let s = out.shape();
    Ok(super::as_strided_view(&out, &crate::shape::Layout::contiguous(&s[1..])))
}

fn check_bool(a: &Tensor) -> Result<()> {
    if a.dtype() == DType::Bool {
        bail!(NotImplemented, "\"addmm_impl_cpu_\" not implemented for 'Bool'");
    }
    Ok(())
}

/// `mm(a, b)` for matrices.
pub fn mm(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    ensure!(a.dim() == 2, Runtime, "self must be a matrix");
    ensure!(b.dim() == 2, Runtime, "mat2 must be a matrix");
    let (sa, sb) = (a.shape(), b.shape());
    ensure!(sa[1] == sb[0], Runtime, "mat1 and mat2 shapes cannot be multiplied ({}x{} and {}x{})", sa[0], sa[1], sb[0], sb[1]);
    same_dtype(a, b)?;
    check_bool(a)?;
    let out = mm_raw(a, b)?;
    // d/da = g bᵀ, d/db = aᵀ g
    record_jvp("MmBackward0", &[a, b], &[&out], &[Save::In(a), Save::In(b)], |s, g, n| {
        let ga = if n[0] { Some(mm(&g[0], &t(&s.get(1)?)?)?) } else { None };
        let gb = if n[1] { Some(mm(&t(&s.get(0)?)?, &g[0])?) } else { None };
        Ok(vec![ga, gb])
    },
        // JVP: bilinear, t_a·b + a·t_b
        |t| crate::autograd::forward::linear(2, t, |i, t| if i == 0 { mm(t, b) } else { mm(a, t) }))?;
    if out.grad_fn().is_some() {
        let (la, lb) = (a.layout(), b.layout());
        let ints = |v: &[usize]| SavedValue::Ints(v.iter().map(|&d| d as i64).collect());
        crate::autograd::Node::annotate(&out, &[
            ("self_sym_sizes", ints(&la.shape)), ("self_sym_strides", ints(&la.strides)),
            ("mat2_sym_sizes", ints(&lb.shape)), ("mat2_sym_strides", ints(&lb.strides)),
        ], &[(1, "mat2")]);
    }
    Ok(out)
}

/// `mv(m, v)`.
pub fn mv(m: &Tensor, v: &Tensor) -> Result<Tensor> {
    let (sm, sv) = (m.shape(), v.shape());
    ensure!(m.dim() == 2 && v.dim() == 1, Runtime, "vector + matrix @ vector expected, got 1, {}, {}", m.dim(), v.dim());
    ensure!(sm[1] == sv[0], Runtime, "size mismatch, got input ({}), mat ({}x{}), vec ({})", sm[0], sm[0], sm[1], sv[0]);
    if m.dtype() != v.dtype() {
        bail!(Runtime, "addmv input tensors must have the same dtype, but got {}, {}, and {}", v.dtype().scalar_name(), m.dtype().scalar_name(), v.dtype().scalar_name());
    }
    if m.dtype() == DType::Bool {
        bail!(NotImplemented, "\"addmv_impl_cpu\" not implemented for 'Bool'");
    }
    let out = mm_raw(m, &super::as_strided_view(v, &{ let mut l = v.layout(); l.shape.push(1); l.strides.push(1); l }))?;
    let out = super::as_strided_view(&out, &crate::shape::Layout::contiguous(&[sm[0]]));
    // d/dm = g vᵀ (outer), d/dv = mᵀ g
    record_jvp("MvBackward0", &[m, v], &[&out], &[Save::In(m), Save::In(v)], |s, g, n| {
        let gm = if n[0] { Some(mul(&unsqueeze(&g[0], 1)?, &unsqueeze(&s.get(1)?, 0)?)?) } else { None };
        let gv = if n[1] { Some(mv(&t(&s.get(0)?)?, &g[0])?) } else { None };
        Ok(vec![gm, gv])
    },
        // JVP: bilinear, t_a·b + a·t_b
        |t| crate::autograd::forward::linear(2, t, |i, t| if i == 0 { mv(t, v) } else { mv(m, t) }))?;
    crate::autograd::Node::annotate(&out, &[], &[(1, "vec")]);
    Ok(out)
}

/// `vdot(a, b) = dot(conj(a), b)` for vectors (VdotBackward0: `conj(g) b` and `g a`, already
/// the conjugate-Wirtinger gradients).
pub fn vdot(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    let out = {
        let _g = crate::autograd::raw_mode();
        dot(&super::complex::conj(&a.detach())?, &b.detach())?
    };
    super::complex::as_written(|| record_jvp("VdotBackward0", &[a, b], &[&out], &[Save::In(a), Save::In(b)], |s, g, n| {
        let ga = if n[0] { Some(mul(&super::complex::conj(&g[0])?, &s.get(1)?)?) } else { None };
        let gb = if n[1] { Some(mul(&g[0], &s.get(0)?)?) } else { None };
        Ok(vec![ga, gb])
    },
        |t| crate::autograd::forward::linear(2, t, |i, t| if i == 0 { vdot(t, b) } else { vdot(a, t) })))?;
    Ok(out)
}

/// `dot(a, b)` for vectors.
pub fn dot(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    ensure!(a.dim() == 1 && b.dim() == 1, Runtime, "1D tensors expected, but got {}D and {}D tensors", a.dim(), b.dim());
    if a.dtype() != b.dtype() {
        bail!(Runtime, "dot : expected both vectors to have same dtype, but found {} and {}", a.dtype().scalar_name(), b.dtype().scalar_name());
    }
    ensure!(a.numel() == b.numel(), Runtime, "inconsistent tensor size, expected tensor [{}] and src [{}] to have the same number of elements, but got {} and {} elements respectively", a.numel(), b.numel(), a.numel(), b.numel());
    if a.dtype() == DType::Bool {
        bail!(NotImplemented, "\"dot\" not implemented for 'Bool'");
    }
    let a2 = super::as_strided_view(a, &{ let mut l = a.layout(); l.shape.insert(0, 1); l.strides.insert(0, 0); l });
    let b2 = super::as_strided_view(b, &{ let mut l = b.layout(); l.shape.push(1); l.strides.push(1); l });
    let out = mm_raw(&a2, &b2)?;
    let out = super::as_strided_view(&out, &crate::shape::Layout::contiguous(&[]));
    // d/da = g b, d/db = g a
    record_jvp("DotBackward0", &[a, b], &[&out], &[Save::In(a), Save::In(b)], |s, g, n| {
        let ga = if n[0] { Some(mul(&g[0], &s.get(1)?)?) } else { None };
        let gb = if n[1] { Some(mul(&g[0], &s.get(0)?)?) } else { None };
        Ok(vec![ga, gb])
    },
        // JVP: bilinear, t_a·b + a·t_b
        |t| crate::autograd::forward::linear(2, t, |i, t| if i == 0 { dot(t, b) } else { dot(a, t) }))?;
    crate::autograd::Node::annotate(&out, &[], &[(1, "tensor")]);
    Ok(out)
}

/// `bmm(a, b)` for 3-D tensors.
pub fn bmm(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    ensure!(a.dim() == 3, Runtime, "batch1 must be a 3D tensor");
    ensure!(b.dim() == 3, Runtime, "batch2 must be a 3D tensor");
    let (sa, sb) = (a.shape(), b.shape());
    ensure!(sa[0] == sb[0] && sa[2] == sb[1], Runtime, "Expected size for first two dimensions of batch2 tensor to be: [{}, {}] but got: [{}, {}].", sa[0], sa[2], sb[0], sb[1]);
    if a.dtype() == DType::Bool {
        bail!(NotImplemented, "\"bmm\" not implemented for 'Bool'");
    }
    if a.dtype() != b.dtype() {
        bail!(Runtime, "expected scalar type {} but found {}", a.dtype().scalar_name(), b.dtype().scalar_name());
    }
    let out = bmm_raw(a, b)?;
    // d/da = g bᵀ, d/db = aᵀ g (per batch)
    record_jvp("BmmBackward0", &[a, b], &[&out], &[Save::In(a), Save::In(b)], |s, g, n| {
        let ga = if n[0] { Some(bmm(&g[0], &transpose(&s.get(1)?, 1, 2)?)?) } else { None };
        let gb = if n[1] { Some(bmm(&transpose(&s.get(0)?, 1, 2)?, &g[0])?) } else { None };
        Ok(vec![ga, gb])
    },
        // JVP: bilinear, t_a·b + a·t_b
        |t| crate::autograd::forward::linear(2, t, |i, t| if i == 0 { bmm(t, b) } else { bmm(a, t) }))?;
    crate::autograd::Node::annotate_with(&out, &[(1, "mat2")], Vec::new);
    Ok(out)
}

/// Whether torch's matmul folds the batch of the larger operand (either order) into the rows of one mm/mv
/// (ATen's `should_fold`): when that costs no copy, or when the smaller operand requires grad
/// (its gradient then comes out of one mm instead of a batch summed afterwards).
fn should_fold(a: &Tensor, b: &Tensor) -> bool {
    let a_larger = a.dim() >= b.dim();
    let (dim_t1, dim_t2) = if a_larger { (a.dim(), b.dim()) } else { (b.dim(), a.dim()) };
    if !(dim_t1 >= 3 && dim_t2 <= 2) {
        return false;
    }
    if if a_larger { b.requires_grad() } else { a.requires_grad() } {
        return true;
    }
    if a.dim() == 2 {
        return false;
    }
    // t1 = the larger operand (transposed when it is b)
    let mut l = if a_larger { a.layout() } else { b.layout() };
    if !a_larger {
        l = super::layout_transpose(&l, dim_t1 - 2, dim_t1 - 1);
    }
    if l.numel() == 0 {
        return true;
    }
    (0..dim_t1 - 2).all(|i| l.strides[i] == l.strides[i + 1] * l.shape[i + 1])
}

/// `matmul(a, b)` with PyTorch's rank rules and batch broadcasting, composed as ATen's
/// `_matmul_impl` composes it (so results carry the same grad_fn: SqueezeBackward4 for
/// vector @ matrix, UnsafeViewBackward0 for folded and batched products).
pub fn matmul(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    let (da, db) = (a.dim(), b.dim());
    ensure!(da > 0 && db > 0, Runtime, "both arguments to matmul need to be at least 1D, but they are {}D and {}D", da, db);
    match (da, db) {
        (1, 1) => return dot(a, b),
        (2, 1) => return mv(a, b),
        (1, 2) => return super::squeeze_named(&mm(&unsqueeze(a, 0)?, b)?, 0, "SqueezeBackward4"),
        (2, 2) => return mm(a, b),
        _ => {}
    }
    if should_fold(a, b) {
        // fold the larger operand's batch into the rows of one mm (or mv)
        let transpose = db > da;
        let t1 = if transpose { transpose_last(b)? } else { a.clone() };
        let t2 = if !transpose { b.clone() } else if da == 2 { t(a)? } else { a.clone() };
        let s1 = t1.shape();
        let k = *s1.last().unwrap_or(&1);
        let mut out_shape: Vec<i64> = s1[..s1.len() - 1].iter().map(|&d| d as i64).collect();
        let rows: i64 = out_shape.iter().product();
        let folded = reshape(&t1, &[rows, k as i64])?;
        if t2.dim() == 2 {
            let s2 = t2.shape();
            ensure!(s2[0] == k, Runtime, "mat1 and mat2 shapes cannot be multiplied ({}x{} and {}x{})", rows, k, s2[0], s2[1]);
            out_shape.push(s2[1] as i64);
            let out = super::unsafe_view(&mm(&folded, &t2)?, &out_shape)?;
            return if transpose { super::contiguous(&transpose_last(&out)?) } else { Ok(out) };
        }
        return super::unsafe_view(&mv(&folded, &t2)?, &out_shape);
    }
    // batched: broadcast the batch dims, flatten them, one bmm
    let (sa, sb) = (a.shape(), b.shape());
    let n = if da > 1 { sa[da - 2] } else { 1 };
    let m1 = sa[da - 1];
    let m2 = if db > 1 { sb[db - 2] } else { sb[0] };
    let p = if db > 1 { sb[db - 1] } else { 1 };
    let batch = crate::shape::broadcast_shapes(&sa[..da.saturating_sub(2)], &sb[..db.saturating_sub(2)])?;
    let bn: usize = batch.iter().product();
    let batch_i: Vec<i64> = batch.iter().map(|&d| d as i64).collect();
    let mut ea = batch_i.clone();
    ea.extend([n as i64, m1 as i64]);
    let a_e = reshape(&expand(a, &ea)?, &[bn as i64, n as i64, m1 as i64])?;
    let vector_rhs = db == 1;
    let mut eb = batch_i.clone();
    if vector_rhs { eb.push(m2 as i64) } else { eb.extend([m2 as i64, p as i64]) }
    let mut b_e = expand(b, &eb)?;
    if vector_rhs {
        b_e = unsqueeze(&b_e, -1)?;
    }
    let b_e = reshape(&b_e, &[bn as i64, m2 as i64, p as i64])?;
    ensure!(m1 == m2, Runtime, "Expected size for first two dimensions of batch2 tensor to be: [{}, {}] but got: [{}, {}].", bn, m1, bn, m2);
    let mut out_shape = batch_i;
    if da > 1 { out_shape.push(n as i64); }
    if db > 1 { out_shape.push(p as i64); }
    let r = bmm(&a_e, &b_e)?;
    let r = if vector_rhs { squeeze(&r, Some(-1))? } else { r };
    super::unsafe_view(&r, &out_shape)
}

/// `x.mT`: the last two dims swapped.
fn transpose_last(x: &Tensor) -> Result<Tensor> {
    let nd = x.dim() as i64;
    transpose(x, nd - 2, nd - 1)
}

// ---------------------------------------------------------------------------------------
// addmm / addmv / baddbmm: beta * input + alpha * product
// ---------------------------------------------------------------------------------------

fn is_one(s: Scalar) -> bool {
    s.as_f64() == 1.0
}

/// torch's `maybe_multiply`: `t * s`, skipped when `s` is 1.
fn maybe_multiply(t: &Tensor, s: Scalar) -> Result<Tensor> {
    if is_one(s) { Ok(t.clone()) } else { mul(t, &Tensor::wrapped_scalar(s)) }
}

/// `beta * input + alpha * p` without history (`input` ignored when beta is 0, NaNs
/// included, as BLAS does); the scalars are read in the product's dtype.
fn beta_alpha_value(input: &Tensor, p: Tensor, beta: Scalar, alpha: Scalar, out_shape: &[usize]) -> Result<Tensor> {
    let _raw = crate::autograd::raw_mode();
    let dt = p.dtype();
    let (beta, alpha) = (super::scalar_as(beta, dt), super::scalar_as(alpha, dt));
    let p = maybe_multiply(&p, alpha)?;
    let out = if beta.as_f64() == 0.0 { p } else { super::add(&maybe_multiply(input, beta)?, &p)? };
    let out = if out.shape()[..] != out_shape[..] { expand(&out, &i64s(out_shape))? } else { out };
    // a fresh dense result is handed out as is; anything else (a broadcast input) is copied
    let dense = {
        let d = out.data();
        d.layout.offset == 0 && d.layout.is_contiguous() && d.storage.data.read().len() == d.layout.numel()
    };
    if dense && out.dtype() == dt && out.meta().view_base.is_none() {
        return Ok(out.detach());
    }
    Ok(super::cast_raw(&out, dt)?.detach())
}

fn i64s(s: &[usize]) -> Vec<i64> {
    s.iter().map(|&d| d as i64).collect()
}

/// `input` expanded to `shape` without history (torch's `expand_size` check and messages).
fn expand_check(input: &Tensor, shape: &[usize]) -> Result<()> {
    let _raw = crate::autograd::raw_mode();
    expand(input, &i64s(shape)).map(|_| ())
}

fn saved_num(s: Scalar) -> SavedValue {
    match s {
        Scalar::Float(f) => SavedValue::Float(f),
        Scalar::Int(i) => SavedValue::Int(i),
        Scalar::Bool(b) => SavedValue::Bool(b),
    }
}

/// `addmm(input, m1, m2, beta, alpha)` = beta * input + alpha * m1 @ m2 (AddmmBackward0);
/// `input` broadcasts to the product's shape.
pub fn addmm(input: &Tensor, m1: &Tensor, m2: &Tensor, beta: Scalar, alpha: Scalar) -> Result<Tensor> {
    ensure!(input.dtype() == m2.dtype(), Runtime, "self and mat2 must have the same dtype, but got {} and {}", input.dtype().scalar_name(), m2.dtype().scalar_name());
    ensure!(m1.dtype() == m2.dtype(), Runtime, "mat1 and mat2 must have the same dtype, but got {} and {}", m1.dtype().scalar_name(), m2.dtype().scalar_name());
    ensure!(m1.dim() == 2, Runtime, "mat1 must be a matrix, got {}-D tensor", m1.dim());
    ensure!(m2.dim() == 2, Runtime, "mat2 must be a matrix, got {}-D tensor", m2.dim());
    let (s1, s2) = (m1.shape(), m2.shape());
    ensure!(s1[1] == s2[0], Runtime, "mat1 and mat2 shapes cannot be multiplied ({}x{} and {}x{})", s1[0], s1[1], s2[0], s2[1]);
    let oshape = [s1[0], s2[1]];
    expand_check(input, &oshape)?;
    check_bool(m1)?;
    let out = if m1.dtype().is_half() {
        // the product and the sum in float32, rounded once (ATen's reduced-precision gemm
        // accumulates and adds the input in float)
        let w = |t: &Tensor| super::cast_raw(t, DType::Float32);
        let p = mm_raw(&w(m1)?, &w(m2)?)?;
        super::cast_raw(&beta_alpha_value(&w(input)?, p, beta, alpha, &oshape)?, m1.dtype())?.detach()
    } else {
        beta_alpha_value(input, mm_raw(m1, m2)?, beta, alpha, &oshape)?
    };
    let is = input.shape();
    // d input = beta g (summed to its shape), d m1 = alpha g m2ᵀ, d m2 = alpha m1ᵀ g
    let (beta0, alpha0) = (beta, alpha);
    let (beta, alpha) = (super::scalar_as(beta, out.dtype()), super::scalar_as(alpha, out.dtype()));
    record_jvp("AddmmBackward0", &[input, m1, m2], &[&out], &[Save::In(m1), Save::In(m2)], move |s, g, need| {
        let gi = if need[0] { Some(super::sum_to(&maybe_multiply(&g[0], beta)?, &is)?) } else { None };
        let g1 = if need[1] { Some(maybe_multiply(&mm(&g[0], &t(&s.get(1)?)?)?, alpha)?) } else { None };
        let g2 = if need[2] { Some(maybe_multiply(&mm(&t(&s.get(0)?)?, &g[0])?, alpha)?) } else { None };
        Ok(vec![gi, g1, g2])
    },
        // JVP: beta t_input + alpha (t_m1 m2 + m1 t_m2)
        |tg| crate::autograd::forward::linear(3, tg, |i, ti| match i {
            0 => maybe_multiply(ti, beta),
            1 => maybe_multiply(&mm(ti, m2)?, alpha),
            _ => maybe_multiply(&mm(m1, ti)?, alpha),
        }))?;
    // torch keeps mat2 only when mat1 needs a gradient (it is None otherwise)
    let ints = |v: &[usize]| SavedValue::Ints(v.iter().map(|&d| d as i64).collect());
    let (l1, l2) = (m1.layout(), m2.layout());
    let mut values = vec![("alpha", saved_num(alpha0)), ("beta", saved_num(beta0)),
        ("mat1_sym_sizes", ints(&l1.shape)), ("mat1_sym_strides", ints(&l1.strides)),
        ("mat2_sym_sizes", ints(&l2.shape)), ("mat2_sym_strides", ints(&l2.strides))];
    let tensors: &[(usize, &'static str)] = if m1.requires_grad() { &[(0, "mat1"), (1, "mat2")] } else { values.push(("mat2", SavedValue::None)); &[(0, "mat1")] };
    Node::annotate(&out, &values, tensors);
    Ok(out)
}

/// `addmv(input, mat, vec, beta, alpha)` = beta * input + alpha * mat @ vec (AddmvBackward0).
pub fn addmv(input: &Tensor, m: &Tensor, v: &Tensor, beta: Scalar, alpha: Scalar) -> Result<Tensor> {
    ensure!(m.dim() == 2 && v.dim() == 1 && input.dim() <= 1, Runtime, "vector + matrix @ vector expected, got {}, {}, {}", input.dim(), m.dim(), v.dim());
    let (sm, sv) = (m.shape(), v.shape());
    ensure!(sm[1] == sv[0] && (sm[0] == input.numel() || input.numel() == 1), Runtime, "size mismatch, got input ({}), mat ({}x{}), vec ({})",
        input.shape().first().copied().unwrap_or(1), sm[0], sm[1], sv[0]);
    if input.dtype() != m.dtype() || m.dtype() != v.dtype() {
        bail!(Runtime, "addmv input tensors must have the same dtype, but got {}, {}, and {}", input.dtype().scalar_name(), m.dtype().scalar_name(), v.dtype().scalar_name());
    }
    if m.dtype() == DType::Bool {
        bail!(NotImplemented, "\"addmv_impl_cpu\" not implemented for 'Bool'");
    }
    let p = { let _raw = crate::autograd::raw_mode(); mv(m, v)? };
    let out = beta_alpha_value(input, p, beta, alpha, &[sm[0]])?;
    let is = input.shape();
    // d input = beta g, d mat = alpha g vᵀ (outer), d vec = alpha matᵀ g
    let (beta0, alpha0) = (beta, alpha);
    let (beta, alpha) = (super::scalar_as(beta, out.dtype()), super::scalar_as(alpha, out.dtype()));
    record_jvp("AddmvBackward0", &[input, m, v], &[&out], &[Save::In(m), Save::In(v)], move |s, g, need| {
        let gi = if need[0] { Some(super::sum_to(&maybe_multiply(&g[0], beta)?, &is)?) } else { None };
        let gm = if need[1] { Some(maybe_multiply(&mul(&unsqueeze(&g[0], 1)?, &unsqueeze(&s.get(1)?, 0)?)?, alpha)?) } else { None };
        let gv = if need[2] { Some(maybe_multiply(&mv(&t(&s.get(0)?)?, &g[0])?, alpha)?) } else { None };
        Ok(vec![gi, gm, gv])
    },
        // JVP: beta t_input + alpha (t_mat vec + mat t_vec)
        |tg| crate::autograd::forward::linear(3, tg, |i, ti| match i {
            0 => maybe_multiply(ti, beta),
            1 => maybe_multiply(&mv(ti, v)?, alpha),
            _ => maybe_multiply(&mv(m, ti)?, alpha),
        }))?;
    Node::annotate(&out, &[("alpha", saved_num(alpha0)), ("beta", saved_num(beta0))], &[(0, "mat"), (1, "vec")]);
    Ok(out)
}

/// `size(i)` with torch's IndexError for a dim the tensor lacks.
fn size_at(x: &Tensor, i: usize) -> Result<usize> {
    let d = crate::shape::wrap_dim(i as i64, x.dim())?;
    Ok(x.shape().get(d).copied().unwrap_or(1))
}

/// `baddbmm(input, b1, b2, beta, alpha)` = beta * input + alpha * b1 @ b2 per batch
/// (BaddbmmBackward0); `input` broadcasts to `(b, n, p)`.
pub fn baddbmm(input: &Tensor, b1: &Tensor, b2: &Tensor, beta: Scalar, alpha: Scalar) -> Result<Tensor> {
    let oshape = [size_at(b1, 0)?, size_at(b1, 1)?, size_at(b2, 2)?];
    expand_check(input, &oshape)?;
    ensure!(b1.dim() == 3, Runtime, "batch1 must be a 3D tensor");
    ensure!(b2.dim() == 3, Runtime, "batch2 must be a 3D tensor");
    let (sa, sb) = (b1.shape(), b2.shape());
    ensure!(sb[0] == sa[0] && sb[1] == sa[2], Runtime, "Expected size for first two dimensions of batch2 tensor to be: [{}, {}] but got: [{}, {}].", sa[0], sa[2], sb[0], sb[1]);
    if input.dtype() != b1.dtype() {
        bail!(Runtime, "Input dtypes must be the same, got: input {}, batch1: {}, batch2: {}", input.dtype().cpp_type_name(), b1.dtype().cpp_type_name(), b2.dtype().cpp_type_name());
    }
    if b1.dtype() != b2.dtype() {
        bail!(Runtime, "expected scalar type {} but found {}", b1.dtype().scalar_name(), b2.dtype().scalar_name());
    }
    if b1.dtype() == DType::Bool {
        bail!(NotImplemented, "\"baddbmm\" not implemented for 'Bool'");
    }
    let out = beta_alpha_value(input, bmm_raw(b1, b2)?, beta, alpha, &oshape)?;
    let is = input.shape();
    // d input = beta g, d b1 = alpha g b2ᵀ, d b2 = alpha b1ᵀ g (per batch)
    let (beta0, alpha0) = (beta, alpha);
    let (beta, alpha) = (super::scalar_as(beta, out.dtype()), super::scalar_as(alpha, out.dtype()));
    record_jvp("BaddbmmBackward0", &[input, b1, b2], &[&out], &[Save::In(b1), Save::In(b2)], move |s, g, need| {
        let gi = if need[0] { Some(super::sum_to(&maybe_multiply(&g[0], beta)?, &is)?) } else { None };
        let g1 = if need[1] { Some(maybe_multiply(&bmm(&g[0], &transpose(&s.get(1)?, 1, 2)?)?, alpha)?) } else { None };
        let g2 = if need[2] { Some(maybe_multiply(&bmm(&transpose(&s.get(0)?, 1, 2)?, &g[0])?, alpha)?) } else { None };
        Ok(vec![gi, g1, g2])
    },
        // JVP: beta t_input + alpha (t_b1 b2 + b1 t_b2)
        |tg| crate::autograd::forward::linear(3, tg, |i, ti| match i {
            0 => maybe_multiply(ti, beta),
            1 => maybe_multiply(&bmm(ti, b2)?, alpha),
            _ => maybe_multiply(&bmm(b1, ti)?, alpha),
        }))?;
    Node::annotate(&out, &[("alpha", saved_num(alpha0)), ("beta", saved_num(beta0))], &[(0, "batch1"), (1, "batch2")]);
    Ok(out)
}
