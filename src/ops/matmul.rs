//! Matrix products: mm, mv, dot, bmm and matmul (with batch broadcasting), through gemm.

use super::{expand, mul, reshape, squeeze, t, transpose, unsqueeze};
use crate::autograd::{record, Save};
use crate::dtype::DType;
use crate::error::Result;
use crate::tensor::Tensor;
use crate::{bail, ensure};

fn same_dtype(a: &Tensor, b: &Tensor) -> Result<()> {
    if a.dtype() != b.dtype() {
        bail!(Runtime, "expected m1 and m2 to have the same dtype, but got: {} != {}", a.dtype().name(), b.dtype().name());
    }
    Ok(())
}

/// Raw `(batch, m, k) @ (batch, k, n)`; a and b are 3-D with any strides.
fn bmm_raw(a: &Tensor, b: &Tensor) -> Result<Tensor> {
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
        bail!(Runtime, "\"addmm_impl_cpu_\" not implemented for 'Bool'");
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
    record("MmBackward0", &[a, b], &[&out], &[Save::In(a), Save::In(b)], |s, g, n| {
        let ga = if n[0] { Some(mm(&g[0], &t(&s.get(1)?)?)?) } else { None };
        let gb = if n[1] { Some(mm(&t(&s.get(0)?)?, &g[0])?) } else { None };
        Ok(vec![ga, gb])
    })?;
    crate::autograd::Node::annotate(&out, &[], &[(1, "mat2")]);
    Ok(out)
}

/// `mv(m, v)`.
pub fn mv(m: &Tensor, v: &Tensor) -> Result<Tensor> {
    let (sm, sv) = (m.shape(), v.shape());
    ensure!(m.dim() == 2 && v.dim() == 1 && sm[1] == sv[0], Runtime, "size mismatch, got input ({}), mat ({}x{}), vec ({})", sm[0], sm[0], sm.get(1).copied().unwrap_or(0), sv.first().copied().unwrap_or(0));
    same_dtype(m, v)?;
    if m.dtype() == DType::Bool {
        bail!(NotImplemented, "\"addmv_impl_cpu\" not implemented for 'Bool'");
    }
    let out = mm_raw(m, &super::as_strided_view(v, &{ let mut l = v.layout(); l.shape.push(1); l.strides.push(1); l }))?;
    let out = super::as_strided_view(&out, &crate::shape::Layout::contiguous(&[sm[0]]));
    // d/dm = g vᵀ (outer), d/dv = mᵀ g
    record("MvBackward0", &[m, v], &[&out], &[Save::In(m), Save::In(v)], |s, g, n| {
        let gm = if n[0] { Some(mul(&unsqueeze(&g[0], 1)?, &unsqueeze(&s.get(1)?, 0)?)?) } else { None };
        let gv = if n[1] { Some(mv(&t(&s.get(0)?)?, &g[0])?) } else { None };
        Ok(vec![gm, gv])
    })?;
    Ok(out)
}

/// `dot(a, b)` for vectors.
pub fn dot(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    ensure!(a.dim() == 1 && b.dim() == 1, Runtime, "1D tensors expected, but got {}D and {}D tensors", a.dim(), b.dim());
    ensure!(a.numel() == b.numel(), Runtime, "inconsistent tensor size, expected tensor [{}] and src [{}] to have the same number of elements, but got {} and {} elements respectively", a.numel(), b.numel(), a.numel(), b.numel());
    same_dtype(a, b)?;
    let a2 = super::as_strided_view(a, &{ let mut l = a.layout(); l.shape.insert(0, 1); l.strides.insert(0, 0); l });
    let b2 = super::as_strided_view(b, &{ let mut l = b.layout(); l.shape.push(1); l.strides.push(1); l });
    let out = mm_raw(&a2, &b2)?;
    let out = super::as_strided_view(&out, &crate::shape::Layout::contiguous(&[]));
    // d/da = g b, d/db = g a
    record("DotBackward0", &[a, b], &[&out], &[Save::In(a), Save::In(b)], |s, g, n| {
        let ga = if n[0] { Some(mul(&g[0], &s.get(1)?)?) } else { None };
        let gb = if n[1] { Some(mul(&g[0], &s.get(0)?)?) } else { None };
        Ok(vec![ga, gb])
    })?;
    Ok(out)
}

/// `bmm(a, b)` for 3-D tensors.
pub fn bmm(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    ensure!(a.dim() == 3, Runtime, "batch1 must be a 3D tensor");
    ensure!(b.dim() == 3, Runtime, "batch2 must be a 3D tensor");
    let (sa, sb) = (a.shape(), b.shape());
    ensure!(sa[0] == sb[0] && sa[2] == sb[1], Runtime, "Expected size for first two dimensions of batch2 tensor to be: [{}, {}] but got: [{}, {}].", sa[0], sa[2], sb[0], sb[1]);
    same_dtype(a, b)?;
    let out = bmm_raw(a, b)?;
    // d/da = g bᵀ, d/db = aᵀ g (per batch)
    record("BmmBackward0", &[a, b], &[&out], &[Save::In(a), Save::In(b)], |s, g, n| {
        let ga = if n[0] { Some(bmm(&g[0], &transpose(&s.get(1)?, 1, 2)?)?) } else { None };
        let gb = if n[1] { Some(bmm(&transpose(&s.get(0)?, 1, 2)?, &g[0])?) } else { None };
        Ok(vec![ga, gb])
    })?;
    Ok(out)
}

/// `matmul(a, b)` with PyTorch's rank rules and batch broadcasting.
pub fn matmul(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    let (da, db) = (a.dim(), b.dim());
    ensure!(da > 0 && db > 0, Runtime, "both arguments to matmul need to be at least 1D, but they are {}D and {}D", da, db);
    match (da, db) {
        (1, 1) => dot(a, b),
        (2, 1) => mv(a, b),
        (1, 2) => squeeze(&mm(&unsqueeze(a, 0)?, b)?, Some(0)),
        (2, 2) => mm(a, b),
        (_, 1) | (_, 2) if da >= 3 => {
            // fold the batch into rows: (..., n, k) @ (k, m)
            let sa = a.shape();
            let k = sa[da - 1];
            let bb = if db == 1 { unsqueeze(b, 1)? } else { b.clone() };
            let sb = bb.shape();
            ensure!(sb[0] == k, Runtime, "mat1 and mat2 shapes cannot be multiplied ({}x{} and {}x{})", sa[..da - 1].iter().product::<usize>(), k, sb[0], sb[1]);
            let folded = reshape(a, &[-1, k as i64])?;
            let r = mm(&folded, &bb)?;
            let mut shape: Vec<i64> = sa[..da - 1].iter().map(|&d| d as i64).collect();
            if db == 2 {
                shape.push(sb[1] as i64);
            }
            reshape(&r, &shape)
        }
        _ => {
            let a3 = if da == 1 { unsqueeze(a, 0)? } else { a.clone() };
            let b3 = if db == 1 { unsqueeze(b, 1)? } else { b.clone() };
            let (sa, sb) = (a3.shape(), b3.shape());
            let (n, k) = (sa[sa.len() - 2], sa[sa.len() - 1]);
            let (k2, m) = (sb[sb.len() - 2], sb[sb.len() - 1]);
            ensure!(k == k2, Runtime, "Expected size for first two dimensions of batch2 tensor to be: [{}, {}] but got: [{}, {}].", sa[..sa.len() - 2].iter().product::<usize>(), k, sb[..sb.len() - 2].iter().product::<usize>(), k2);
            let batch = crate::shape::broadcast_shapes(&sa[..sa.len() - 2], &sb[..sb.len() - 2])?;
            let bn: usize = batch.iter().product();
            let mut ea: Vec<i64> = batch.iter().map(|&d| d as i64).collect();
            let mut eb = ea.clone();
            ea.extend([n as i64, k as i64]);
            eb.extend([k as i64, m as i64]);
            let a_e = reshape(&expand(&a3, &ea)?, &[bn as i64, n as i64, k as i64])?;
            let b_e = reshape(&expand(&b3, &eb)?, &[bn as i64, k as i64, m as i64])?;
            let r = bmm(&a_e, &b_e)?;
            let mut shape: Vec<i64> = batch.iter().map(|&d| d as i64).collect();
            if da > 1 { shape.push(n as i64); }
            if db > 1 { shape.push(m as i64); }
            reshape(&r, &shape)
        }
    }
}
