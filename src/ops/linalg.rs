//! `torch.linalg`'s decompositions and solvers with PyTorch's checks, messages and backward
//! nodes: inverse, determinant (and its sign/log), LU solves, triangular solves, Cholesky,
//! QR, the symmetric eigenproblem, the SVD, and `cdist`.
//!
//! The numbers come from the f64 kernels behind `backend::host_linalg`, one matrix at a time (the tensors go
//! through the host: the CUDA backend has no solver of its own yet). Each op records one node
//! whose backward formula (FunctionsManual.cpp's) is written with differentiable ops, so
//! double backward works; forward-mode tangents come from the same formulas.

use super::{add, diag_embed, diagonal, div, expand, matmul, mul, neg, sub, sum_dims, sum_to, transpose, tril, unsqueeze, where_};
use crate::autograd::{record, record_jvp, Node, Save, SavedValue};
use crate::backend::host_linalg as k;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::tensor::{Scalar, Tensor};
use crate::{bail, ensure};

/// A batch of matrices on the host: row-major f64, `count` matrices of m×n after `batch` dims.
struct Mats {
    data: Vec<f64>,
    batch: Vec<usize>,
    count: usize,
    m: usize,
    n: usize,
}

impl Mats {
    fn of(a: &Tensor) -> Result<Mats> {
        let s = a.shape();
        let (m, n) = (s[s.len() - 2], s[s.len() - 1]);
        let batch = s[..s.len() - 2].to_vec();
        Ok(Mats { data: a.to_f64_vec()?, count: batch.iter().product(), batch, m, n })
    }
    fn get(&self, b: usize) -> &[f64] {
        &self.data[b * self.m * self.n..(b + 1) * self.m * self.n]
    }
}

/// A tensor of `like`'s dtype and device from f64 values.
fn build(data: &[f64], shape: &[usize], like: &Tensor) -> Result<Tensor> {
    build_as(data, shape, like.dtype(), like)
}
fn build_as(data: &[f64], shape: &[usize], dtype: DType, like: &Tensor) -> Result<Tensor> {
    let t = crate::tensor::from_f64s(data, shape, dtype)?;
    t.to_device(like.device())
}
fn dims(batch: &[usize], tail: &[usize]) -> Vec<usize> {
    batch.iter().chain(tail).copied().collect()
}
fn sc(v: f64) -> Tensor {
    Tensor::wrapped_scalar(Scalar::Float(v))
}
/// The identity matching the last dim of the batch of vectors `v` (added to fill a
/// difference matrix's zero diagonal with ones).
fn eye_like(v: &Tensor) -> Result<Tensor> {
    let n = v.shape()[v.dim() - 1];
    crate::tensor::eye(n, n, v.dtype())?.to_device(v.device())
}
/// diag_embed of each value repeated n times: a batch of scaled identities.
fn diag_of(v: &Tensor, n: usize) -> Result<Tensor> {
    let mut shape: Vec<i64> = v.shape().iter().map(|&d| d as i64).collect();
    shape.push(n as i64);
    diag_embed(&expand(&unsqueeze(v, -1)?, &shape)?, 0, -2, -1)
}
/// The matrix transpose (`mT`).
fn mt(x: &Tensor) -> Result<Tensor> {
    transpose(x, -2, -1)
}
fn no_grad<T>(f: impl FnOnce() -> Result<T>) -> Result<T> {
    let _g = crate::autograd::raw_mode();
    f()
}
/// PyTorch's type names in dtype messages (`Long`, `Int`, `Half`...).
fn type_name(d: DType) -> &'static str {
    d.scalar_name()
}

/// squareCheckInputs (checkIsMatrix, then square) and checkFloatingOrComplex (no low
/// precision), in PyTorch's order.
fn check_square(a: &Tensor, f: &str, arg: &str) -> Result<()> {
    square_only(a, f, arg)?;
    check_float(a, f)
}
fn square_only(a: &Tensor, f: &str, arg: &str) -> Result<()> {
    ensure!(a.dim() >= 2, Runtime, "{f}: The input tensor {arg} must have at least 2 dimensions.");
    let s = a.shape();
    ensure!(s[s.len() - 1] == s[s.len() - 2], Runtime, "{f}: {arg} must be batches of square matrices, but they are {} by {} matrices", s[s.len() - 2], s[s.len() - 1]);
    Ok(())
}
fn check_matrix(a: &Tensor, f: &str, arg: &str) -> Result<()> {
    ensure!(a.dim() >= 2, Runtime, "{f}: The input tensor {arg} must have at least 2 dimensions.");
    check_float(a, f)
}
fn check_float(a: &Tensor, f: &str) -> Result<()> {
    let d = a.dtype();
    ensure!(d.is_float() || d.is_complex(), Runtime, "{f}: Expected a floating point or complex tensor as input. Got {}", type_name(d));
    ensure!(!matches!(d, DType::Float16 | DType::BFloat16), Runtime, "{f}: Low precision dtypes not supported. Got {}", type_name(d));
    ensure!(!d.is_complex(), NotImplemented, "{f}: complex inputs are not supported by ferrograd yet");
    Ok(())
}
/// "(Batch element 3): " where the input has batch dims, as LAPACK error messages start.
fn batch_prefix(batch: &[usize], b: usize) -> String {
    if !batch.is_empty() { format!("(Batch element {b}): ") } else { String::new() }
}
fn info_tensor(info: &[f64], batch: &[usize], like: &Tensor) -> Result<Tensor> {
    build_as(info, batch, DType::Int32, like)
}

// ------------------------------------------------------------------ inverse, determinant

/// `linalg.inv_ex(A)` (LinalgInvExBackward0): the inverse and LAPACK's info per matrix; with
/// `check_errors` a singular matrix raises LinAlgError. d A = -A⁻ᵀ g A⁻ᵀ.
pub fn inv_ex(a: &Tensor, check_errors: bool, f: &str) -> Result<(Tensor, Tensor)> {
    check_square(a, "linalg.inv", "A")?;
    let m = Mats::of(a)?;
    let n = m.n;
    let mut out = vec![0.0; m.data.len()];
    let mut info = vec![0.0; m.count];
    let mut piv = vec![0; n];
    for b in 0..m.count {
        let mut lu = m.get(b).to_vec();
        let i = k::lu(&mut lu, n, &mut piv);
        info[b] = i as f64;
        if i != 0 && check_errors {
            return Err(Error::LinAlg(format!("{f}: {}The diagonal element {i} is zero, the inversion could not be completed because the input matrix is singular.", batch_prefix(&m.batch, b))));
        }
        let o = &mut out[b * n * n..(b + 1) * n * n];
        for r in 0..n {
            o[r * n + r] = 1.0;
        }
        k::lu_solve(&lu, n, &piv, o, n);
    }
    let inv = build(&out, &a.shape(), a)?;
    let info = info_tensor(&info, &m.batch, a)?;
    record("LinalgInvExBackward0", &[a], &[&inv], &[Save::Out(0)], |s, g, _| {
        let inv_t = mt(&s.get(0)?)?;
        Ok(vec![Some(neg(&matmul(&matmul(&inv_t, &g[0])?, &inv_t)?)?)])
    })?;
    Node::annotate_with(&inv, &[(0, "inverse")], Vec::new);
    Ok((inv, info))
}

/// `linalg.inv(A)`.
pub fn inv(a: &Tensor) -> Result<Tensor> {
    Ok(inv_ex(a, true, "linalg.inv")?.0)
}

/// The determinant of each matrix (LU with partial pivoting).
/// The determinant of each matrix of `m` from its LU, and with `keep` the LU factors
/// themselves (packed, as LAPACK's getrf) and their 1-based pivots.
#[allow(clippy::type_complexity)]
fn factor_all(m: &Mats, keep: bool) -> (Vec<f64>, Option<(Vec<f64>, Vec<f64>)>) {
    let n = m.n;
    let mut piv = vec![0; n];
    let mut kept = keep.then(|| (Vec::with_capacity(m.data.len()), Vec::with_capacity(m.count * n)));
    let dets = (0..m.count)
        .map(|b| {
            let mut lu = m.get(b).to_vec();
            k::lu(&mut lu, n, &mut piv);
            let d = k::lu_det(&lu, n, &piv);
            if let Some((lus, pivs)) = kept.as_mut() {
                lus.extend_from_slice(&lu);
                pivs.extend(piv.iter().map(|&p| (p + 1) as f64));
            }
            d
        })
        .collect();
    (dets, kept)
}

/// LAPACK getrf's (LU, pivots) as tensors: LU packed (L's unit diagonal implied) in `like`'s
/// dtype, 1-based int32 pivots (the `_saved_LU` and `_saved_pivots` of det, slogdet, solve).
fn lu_tensors((lus, pivs): (Vec<f64>, Vec<f64>), batch: &[usize], n: usize, like: &Tensor) -> Result<(Tensor, Tensor)> {
    Ok((build(&lus, &dims(batch, &[n, n]), like)?, build_as(&pivs, &dims(batch, &[n]), DType::Int32, like)?))
}

/// scale·A⁻ᵀ for the n×n `a`, from its LU with exactly-zero pivots replaced by `bump`
/// where given (FunctionsManual's eps trick: finite results at a singular matrix).
fn scaled_inv_t(a: &[f64], n: usize, scale: f64, bump: Option<f64>) -> Vec<f64> {
    let mut lu = a.to_vec();
    let mut piv = vec![0; n];
    k::lu(&mut lu, n, &mut piv);
    if let Some(eps) = bump {
        for i in 0..n {
            if lu[i * n + i] == 0.0 {
                lu[i * n + i] = eps;
            }
        }
    }
    let mut o = vec![0.0; n * n];
    for r in 0..n {
        o[r * n + r] = scale;
    }
    k::lu_solve(&lu, n, &piv, &mut o, n);
    transpose_in_place(&mut o, n);
    o
}

/// The cofactor matrix of the n×n `a` from its SVD A = U S Vᵀ:
/// det(U)det(V)·U diag(∏_{j≠i} s_j) Vᵀ (defined at singular matrices too).
fn cofactors_svd(a: &[f64], n: usize) -> Vec<f64> {
    // finite: only reached from det's backward where the determinant is small, not NaN
    let Ok((u, s, vt)) = k::svd(a, n, n, false, true) else { return vec![f64::NAN; n * n] };
    let det_of = |x: &[f64]| {
        let mut lu = x.to_vec();
        let mut p = vec![0; n];
        k::lu(&mut lu, n, &mut p);
        k::lu_det(&lu, n, &p)
    };
    let sign = det_of(&u).signum() * det_of(&vt).signum();
    let prods: Vec<f64> = (0..n).map(|i| (0..n).filter(|&j| j != i).map(|j| s[j]).product::<f64>()).collect();
    let mut o = vec![0.0; n * n];
    for r in 0..n {
        for c in 0..n {
            o[r * n + c] = sign * (0..n).map(|i| u[r * n + i] * prods[i] * vt[i * n + c]).sum::<f64>();
        }
    }
    o
}

/// `linalg.det(A)` (LinalgDetBackward0): d A = g·det·A⁻ᵀ, the cofactor matrix. As
/// FunctionsManual's linalg_det_backward: a plain backward solves with LU pivots of exactly
/// zero replaced by eps (so an exactly singular matrix gets zeros); under create_graph the
/// matrices with |det| < 100·eps take the SVD formula (the cofactors), the others a
/// differentiable solve.
pub fn det(a: &Tensor, f: &str) -> Result<Tensor> {
    check_square(a, f, "A")?;
    let m = Mats::of(a)?;
    // A, LU and pivots saved as derivatives.yaml does (the formula refactors A)
    let (d, kept) = factor_all(&m, crate::autograd::needs_record(&[a]));
    let out = build(&d, &m.batch, a)?;
    let eps = if a.dtype() == DType::Float64 { f64::EPSILON } else { f32::EPSILON as f64 };
    let lu = kept.map(|f| lu_tensors(f, &m.batch, m.n, a)).transpose()?;
    let mut save = vec![Save::In(a), Save::Out(0)];
    if let Some((l, p)) = &lu { save.push(Save::In(l)); save.push(Save::In(p)); }
    record("LinalgDetBackward0", &[a], &[&out], &save, move |s, g, _| {
        let (a, det) = (s.get(0)?, s.get(1)?);
        let dets = det.to_f64_vec()?;
        let gd = unsqueeze(&unsqueeze(&mul(&g[0], &det)?, -1)?, -1)?;
        if !crate::autograd::is_grad_enabled() {
            // det·A⁻ᵀ, zero where det is exactly zero
            let adj = no_grad(|| {
                let m = Mats::of(&a)?;
                let out: Vec<f64> = (0..m.count).flat_map(|b| scaled_inv_t(m.get(b), m.n, 1.0, Some(eps))).collect();
                build(&out, &a.shape(), &a)
            })?;
            return Ok(vec![Some(mul(&gd, &adj)?)]);
        }
        if dets.iter().all(|v| v.abs() >= 100.0 * eps) {
            // A⁻ᵀ (g·det) as a differentiable solve: solve(Aᵀ, diag(g·det))
            return Ok(vec![Some(solve(&mt(&a)?, &diag_of(&mul(&g[0], &det)?, a.shape()[a.dim() - 1])?, true)?)]);
        }
        // some (or all) matrices are near singular: their cofactors from the SVD
        let cof = no_grad(|| {
            let m = Mats::of(&a)?;
            let c: Vec<f64> = dets.iter().enumerate()
                .flat_map(|(b, &dv)| if dv.abs() >= 100.0 * eps { scaled_inv_t(m.get(b), m.n, dv, None) } else { cofactors_svd(m.get(b), m.n) })
                .collect();
            build(&c, &a.shape(), &a)
        })?;
        Ok(vec![Some(mul(&unsqueeze(&unsqueeze(&g[0], -1)?, -1)?, &cof)?)])
    })?;
    Node::annotate_with(&out, &[(0, "A"), (2, "LU"), (3, "pivots")], Vec::new);
    Ok(out)
}

/// `linalg.slogdet(A)` (LinalgSlogdetBackward0 on both outputs): the sign and log|det|;
/// d A = g_logabsdet·A⁻ᵀ (the sign is locally constant).
pub fn slogdet(a: &Tensor, f: &str) -> Result<(Tensor, Tensor)> {
    check_square(a, f, "A")?;
    // ATen's slogdet factors Aᵀ (LAPACK reads the row-major A as its transpose): the same
    // determinant, and the factors it saves
    let m = Mats::of(&mt(a)?)?;
    let (d, kept) = factor_all(&m, crate::autograd::needs_record(&[a]));
    let sign: Vec<f64> = d.iter().map(|&v| if v == 0.0 { 0.0 } else { v.signum() }).collect();
    let logabs: Vec<f64> = d.iter().map(|v| v.abs().ln()).collect();
    let sign = build(&sign, &m.batch, a)?;
    let logabs = build(&logabs, &m.batch, a)?;
    let lu = kept.map(|f| lu_tensors(f, &m.batch, m.n, a)).transpose()?;
    let mut save = vec![Save::In(a), Save::Out(0)];
    if let Some((l, p)) = &lu { save.push(Save::In(l)); save.push(Save::In(p)); }
    record("LinalgSlogdetBackward0", &[a], &[&sign, &logabs], &save, |s, g, _| {
        let a = s.get(0)?;
        if !crate::autograd::is_grad_enabled() {
            let gl = unsqueeze(&unsqueeze(&g[1], -1)?, -1)?;
            return Ok(vec![Some(mul(&gl, &mt(&inv(&a)?)?)?)]);
        }
        Ok(vec![Some(solve(&mt(&a)?, &diag_of(&g[1], a.shape()[a.dim() - 1])?, true)?)])
    })?;
    Node::annotate_with(&sign, &[(0, "A"), (1, "sign"), (2, "LU"), (3, "pivots")], Vec::new);
    Ok((sign, logabs))
}

/// `torch.logdet(A)`: log det where det > 0, NaN where det < 0 (ATen's composition: a
/// WhereBackward0 over slogdet).
pub fn logdet(a: &Tensor) -> Result<Tensor> {
    check_square(a, "logdet", "A")?;
    let (sign, logabs) = slogdet(a, "linalg.slogdet")?;
    let neg1 = super::compare(&sign, &sc(-1.0), super::BinOp::Eq)?;
    where_(&neg1, &sc(f64::NAN), &logabs)
}

// ------------------------------------------------------------------ solves

/// `B` is a batch of vectors for `linalg.solve`: 1-D, or A's shape without its last dim.
fn solve_is_vector_rhs(a: &Tensor, b: &Tensor) -> bool {
    let (sa, sb) = (a.shape(), b.shape());
    b.dim() == 1 || (a.dim() >= 1 && a.dim() - 1 == b.dim() && sb[..] == sa[..sa.len() - 1])
}

/// A and B expanded to their common batch shape (a mismatch reported with B as PyTorch's
/// "tensor a" where `b_first`).
fn broadcast_pair(a: &Tensor, b: &Tensor, b_first: bool) -> Result<(Mats, Mats, Vec<usize>)> {
    let (sa, sb) = (a.shape(), b.shape());
    let (ba, bb) = (&sa[..sa.len() - 2], &sb[..sb.len() - 2]);
    let batch = if b_first { crate::shape::broadcast_shapes(bb, ba)? } else { crate::shape::broadcast_shapes(ba, bb)? }.to_vec();
    let ea = expand(a, &dims(&batch, &sa[sa.len() - 2..]).iter().map(|&d| d as i64).collect::<Vec<_>>())?;
    let eb = expand(b, &dims(&batch, &sb[sb.len() - 2..]).iter().map(|&d| d as i64).collect::<Vec<_>>())?;
    Ok((Mats::of(&ea)?, Mats::of(&eb)?, batch))
}

/// `linalg.solve(A, B, left)` (LinalgSolveExBackward0): X with A X = B (X A = B where not
/// `left`); B may be a (batch of) vector(s). d B = solve(Aᵀ, g), d A = -d B Xᵀ (left).
pub fn solve(a: &Tensor, b: &Tensor, left: bool) -> Result<Tensor> {
    const F: &str = "linalg.solve";
    check_float(a, F)?;
    ensure!(a.dtype() == b.dtype(), Runtime, "{F}: Expected A and B to have the same dtype, but found A of type {} and B of type {} instead", type_name(a.dtype()), type_name(b.dtype()));
    let vector = a.dim() >= 1 && solve_is_vector_rhs(a, b);
    let b2 = if vector { unsqueeze(b, -1)? } else { b.clone() };
    square_only(a, F, "A")?;
    ensure!(b2.dim() >= 2, Runtime, "{F}: The input tensor B must have at least 2 dimensions.");
    let n = a.shape()[a.dim() - 1];
    let sb = b2.shape();
    let rows = if left { sb[sb.len() - 2] } else { sb[sb.len() - 1] };
    ensure!(rows == n, Runtime, "{F}: Incompatible shapes of A and B for the equation {} ({}x{} and {}x{})",
        if left { "AX = B" } else { "XA = B" }, n, n, sb[sb.len() - 2], sb[sb.len() - 1]);
    ensure!(left || !vector, Runtime, "{F}: Vector broadcasting of the left hand side is not supported for left=False. In this case linalg.solve is equivalent to B / A.squeeze(-1)");
    let (ma, mb, batch) = no_grad(|| broadcast_pair(a, &b2, true))?;
    let (r, c) = (mb.m, mb.n);
    let mut out = vec![0.0; mb.count * r * c];
    let mut piv = vec![0; n];
    // the LU of A is saved for backward (`_saved_LU`): kept from this loop where it factors
    // A itself (left, A not broadcast), else factored once more below
    let recording = crate::autograd::needs_record(&[a, b]);
    let reuse = recording && left && batch[..] == a.shape()[..a.dim() - 2];
    let mut kept = reuse.then(|| (Vec::with_capacity(mb.count * n * n), Vec::with_capacity(mb.count * n)));
    for i in 0..mb.count {
        let mut lu = ma.get(i).to_vec();
        if !left {
            transpose_in_place(&mut lu, n);
        }
        if k::lu(&mut lu, n, &mut piv) != 0 {
            return Err(Error::LinAlg(format!("torch.linalg.solve: {}The solver failed because the input matrix is singular.", batch_prefix(&batch, i))));
        }
        if let Some((lus, pivs)) = kept.as_mut() {
            lus.extend_from_slice(&lu);
            pivs.extend(piv.iter().map(|&p| (p + 1) as f64));
        }
        let o = &mut out[i * r * c..(i + 1) * r * c];
        if left {
            o.copy_from_slice(mb.get(i));
            k::lu_solve(&lu, n, &piv, o, c);
        } else {
            // X A = B ⇔ Aᵀ Xᵀ = Bᵀ
            let mut t = k::transposed(mb.get(i), r, c);
            k::lu_solve(&lu, n, &piv, &mut t, r);
            o.copy_from_slice(&k::transposed(&t, c, r));
        }
    }
    let mut shape = dims(&batch, &[r, c]);
    if vector {
        shape.pop();
    }
    let x = build(&out, &shape, a)?;
    let (sa, sb) = (a.shape(), b.shape());
    // A, LU and pivots saved as derivatives.yaml does (the LU of A itself)
    let lu = match kept {
        Some(f) => Some(lu_tensors(f, &batch, n, a)?),
        None if recording => {
            let ma = Mats::of(a)?;
            Some(lu_tensors(factor_all(&ma, true).1.expect("kept"), &ma.batch, ma.n, a)?)
        }
        None => None,
    };
    let mut save = vec![Save::In(a), Save::Out(0)];
    if let Some((l, p)) = &lu { save.push(Save::In(l)); save.push(Save::In(p)); }
    record("LinalgSolveExBackward0", &[a, b], &[&x], &save, move |s, g, need| {
        let (a, x) = (s.get(0)?, s.get(1)?);
        let gb = solve(&mt(&a)?, &g[0], left)?;
        let ga = if need[0] {
            let ga = if vector {
                mul(&unsqueeze(&gb, -1)?, &unsqueeze(&x, -2)?)?
            } else if left {
                matmul(&gb, &mt(&x)?)?
            } else {
                matmul(&mt(&x)?, &gb)?
            };
            Some(sum_to(&neg(&ga)?, &sa)?)
        } else {
            None
        };
        let gb = if need.len() > 1 && need[1] { Some(sum_to(&gb, &sb)?) } else { None };
        Ok(vec![ga, gb])
    })?;
    Node::annotate_with(&x, &[(0, "A"), (2, "LU"), (3, "pivots")], || vec![("left", SavedValue::Bool(left))]);
    Ok(x)
}

fn transpose_in_place(a: &mut [f64], n: usize) {
    for i in 0..n {
        for j in i + 1..n {
            a.swap(i * n + j, j * n + i);
        }
    }
}

/// Solve with the triangle of each matrix of `a` (no checks, no history): T X = B, or X T = B.
fn tri_solve_batch(ma: &Mats, mb: &Mats, upper: bool, left: bool, unit: bool) -> Vec<f64> {
    let n = ma.n;
    let (r, c) = (mb.m, mb.n);
    let mut out = vec![0.0; mb.count * r * c];
    for i in 0..mb.count {
        let o = &mut out[i * r * c..(i + 1) * r * c];
        if left {
            o.copy_from_slice(mb.get(i));
            k::tri_solve(ma.get(i), n, o, c, upper, unit);
        } else {
            // X T = B ⇔ Tᵀ Xᵀ = Bᵀ (Tᵀ has the other triangle)
            let mut tt = ma.get(i).to_vec();
            transpose_in_place(&mut tt, n);
            let mut t = k::transposed(mb.get(i), r, c);
            k::tri_solve(&tt, n, &mut t, r, !upper, unit);
            o.copy_from_slice(&k::transposed(&t, c, r));
        }
    }
    out
}

/// `linalg.solve_triangular(A, B, upper, left, unitriangular)`
/// (LinalgSolveTriangularBackward0): only A's triangle is read. d B = solve_triangular(Aᵀ,
/// g), d A = -d B Xᵀ (left) or -Xᵀ d B, restricted to the triangle.
pub fn solve_triangular(a: &Tensor, b: &Tensor, upper: bool, left: bool, unit: bool) -> Result<Tensor> {
    const F: &str = "linalg.solve_triangular";
    check_square(a, F, "A")?;
    check_matrix(b, F, "B")?;
    ensure!(a.dtype() == b.dtype(), Runtime, "{F}: Expected A and B to have the same dtype, but found A of type {} and B of type {} instead", type_name(a.dtype()), type_name(b.dtype()));
    let n = a.shape()[a.dim() - 1];
    let sb = b.shape();
    let rows = if left { sb[sb.len() - 2] } else { sb[sb.len() - 1] };
    ensure!(rows == n, Runtime, "{F}: Incompatible shapes of A and B for the equation {} ({}x{} and {}x{})",
        if left { "AX = B" } else { "XA = B" }, n, n, sb[sb.len() - 2], sb[sb.len() - 1]);
    let (ma, mb, batch) = no_grad(|| broadcast_pair(a, b, true))?;
    let out = tri_solve_batch(&ma, &mb, upper, left, unit);
    let x = build(&out, &dims(&batch, &[mb.m, mb.n]), a)?;
    let (sa, sbb) = (a.shape(), b.shape());
    record("LinalgSolveTriangularBackward0", &[a, b], &[&x], &[Save::In(a), Save::Out(0)], move |s, g, need| {
        let (a, x) = (s.get(0)?, s.get(1)?);
        let gb = solve_triangular(&mt(&a)?, &g[0], !upper, left, unit)?;
        let ga = if need[0] {
            let ga = neg(&if left { matmul(&gb, &mt(&x)?)? } else { matmul(&mt(&x)?, &gb)? })?;
            let ga = if upper { tril(&ga, unit as i64, true)? } else { tril(&ga, -(unit as i64), false)? };
            Some(sum_to(&ga, &sa)?)
        } else {
            None
        };
        let gb = if need.len() > 1 && need[1] { Some(sum_to(&gb, &sbb)?) } else { None };
        Ok(vec![ga, gb])
    })?;
    Ok(x)
}

// ------------------------------------------------------------------ Cholesky

/// `linalg.cholesky_ex(A, upper)` (LinalgCholeskyExBackward0, or `node` for the deprecated
/// `torch.cholesky`): L with A = L Lᵀ from A's lower triangle (Lᵀ where `upper`), and
/// LAPACK's info; with `check_errors` a matrix that is not positive-definite raises.
pub fn cholesky_ex(a: &Tensor, upper: bool, check_errors: bool, f: &str, node: &'static str) -> Result<(Tensor, Tensor)> {
    check_square(a, f, "A")?;
    let mut m = Mats::of(a)?;
    let n = m.n;
    // the lower triangle (of Aᵀ where `upper`: LAPACK reads the upper one, i.e. the same
    // values for a symmetric A), factored in place (the kernel zeroes the upper triangle)
    let mut out = std::mem::take(&mut m.data);
    let mut info = vec![0.0; m.count];
    for b in 0..m.count {
        let l = &mut out[b * n * n..(b + 1) * n * n];
        if upper {
            transpose_in_place(l, n);
        }
        let i = k::cholesky(l, n);
        info[b] = i as f64;
        if i != 0 && check_errors {
            return Err(Error::LinAlg(format!("{f}: {}The factorization could not be completed because the input is not positive-definite (the leading minor of order {i} is not positive-definite).", batch_prefix(&m.batch, b))));
        }
        if upper {
            transpose_in_place(l, n);
        }
    }
    let l = build(&out, &a.shape(), a)?;
    let info = info_tensor(&info, &m.batch, a)?;
    let lo = l.detach();
    record_jvp(node, &[a], &[&l], &[Save::Out(0)], move |s, g, _| {
        let l = s.get(0)?;
        let (l, gl) = if upper { (mt(&l)?, mt(&g[0])?) } else { (l, g[0].clone()) };
        Ok(vec![Some(cholesky_backward(&l, &gl)?)])
    },
        // dL = L Φ(L⁻¹ dA L⁻ᵀ), Φ: the lower triangle with the diagonal halved
        |t| {
            let Some(da) = t.get(0) else { return Ok(vec![None]) };
            let l_ = if upper { mt(&lo)? } else { lo.clone() };
            let x = solve_triangular(&l_, da, false, true, false)?;
            let x = solve_triangular(&mt(&l_)?, &x, true, false, false)?;
            let x = sub(&tril(&x, 0, false)?, &diag_embed(&diagonal(&x, 0, -2, -1)?.mul_scalar(0.5)?, 0, -2, -1)?)?;
            let dl = matmul(&l_, &x)?;
            Ok(vec![Some(if upper { mt(&dl)? } else { dl })])
        })?;
    // LinalgCholeskyExBackward0 names its saved factor L; CholeskyBackward0 `result`
    let named: &[(usize, &'static str)] = if node == "LinalgCholeskyExBackward0" { &[(0, "L")] } else { &[] };
    Node::annotate_with(&l, named, || vec![("upper", SavedValue::Bool(upper))]);
    Ok((l, info))
}

/// d A for A = L Lᵀ (Murray 2016): Φ = tril(Lᵀ g), symmetrized as ½(Φ + tril(Φ, -1)ᵀ),
/// then d A = L⁻ᵀ Φ L⁻¹.
fn cholesky_backward(l: &Tensor, gl: &Tensor) -> Result<Tensor> {
    let phi = tril(&matmul(&mt(l)?, gl)?, 0, false)?;
    let phi = add(&phi, &mt(&tril(&phi, -1, false)?)?)?.mul_scalar(0.5)?;
    let x = solve_triangular(&mt(l)?, &phi, true, true, false)?;
    solve_triangular(l, &x, false, false, false)
}

/// `torch.cholesky_solve(B, L, upper)` (CholeskySolveBackward0): X = (L Lᵀ)⁻¹ B.
/// d B = cholesky_solve(g, L); with C = d B Xᵀ + X d Bᵀ, d L = -C L (-L C where `upper`).
pub fn cholesky_solve(b: &Tensor, l: &Tensor, upper: bool) -> Result<Tensor> {
    const F: &str = "cholesky_solve";
    ensure!(b.dim() >= 2, Runtime, "b should have at least 2 dimensions, but has {} dimensions instead", b.dim());
    ensure!(l.dim() >= 2, Runtime, "u should have at least 2 dimensions, but has {} dimensions instead", l.dim());
    ensure!(b.dtype() == l.dtype(), Runtime, "Expected b and A to have the same dtype, but found b of type {} and A of type {} instead.", type_name(b.dtype()), type_name(l.dtype()));
    let (sb, sl) = (b.shape(), l.shape());
    ensure!(sl[sl.len() - 1] == sl[sl.len() - 2], Runtime, "A must be batches of square matrices, but they are {} by {} matrices", sl[sl.len() - 2], sl[sl.len() - 1]);
    ensure!(sl[sl.len() - 1] == sb[sb.len() - 2], Runtime, "Incompatible matrix sizes for cholesky_solve: each A matrix is {} by {} but each b matrix is {} by {}", sl[sl.len() - 1], sl[sl.len() - 1], sb[sb.len() - 2], sb[sb.len() - 1]);
    check_float(b, F)?;
    let (ml, mb, batch) = no_grad(|| broadcast_pair(l, b, true))?;
    let out = chol_solve_raw(&ml, &mb, upper);
    let x = build(&out, &dims(&batch, &[mb.m, mb.n]), b)?;
    let (sb2, sl2) = (sb.clone(), sl.clone());
    record("CholeskySolveBackward0", &[b, l], &[&x], &[Save::In(l), Save::Out(0)], move |s, g, need| {
        let (l, x) = (s.get(0)?, s.get(1)?);
        let gb = cholesky_solve(&g[0], &l, upper)?;
        let gl = if need.len() > 1 && need[1] {
            let c = matmul(&gb, &mt(&x)?)?;
            let c = add(&c, &mt(&c)?)?;
            let gl = if upper { matmul(&l, &c)? } else { matmul(&c, &l)? };
            Some(sum_to(&neg(&gl)?, &sl2)?)
        } else {
            None
        };
        let gb = if need[0] { Some(sum_to(&gb, &sb2)?) } else { None };
        Ok(vec![gb, gl])
    })?;
    Ok(x)
}

/// X with (L Lᵀ) X = B for each pair of matrices (only L's triangle read; L = Uᵀ where
/// `upper`): L Y = B, then Lᵀ X = Y.
fn chol_solve_raw(ml: &Mats, mb: &Mats, upper: bool) -> Vec<f64> {
    let mut lt = Mats { data: ml.data.clone(), batch: ml.batch.clone(), count: ml.count, m: ml.m, n: ml.n };
    for i in 0..lt.count {
        transpose_in_place(&mut lt.data[i * ml.n * ml.n..(i + 1) * ml.n * ml.n], ml.n);
    }
    let (lower, upper_f) = if upper { (&lt, ml) } else { (ml, &lt) };
    let y = tri_solve_batch(lower, mb, false, true, false);
    let my = Mats { data: y, batch: mb.batch.clone(), count: mb.count, m: mb.m, n: mb.n };
    tri_solve_batch(upper_f, &my, true, true, false)
}

/// `torch.cholesky_inverse(L, upper)` (CholeskyInverseBackward0): (L Lᵀ)⁻¹ (Uᵀ U)⁻¹ from
/// the factor's triangle. With C = X (g + gᵀ) X: d L = -C L (-L C where `upper`).
pub fn cholesky_inverse(l: &Tensor, upper: bool) -> Result<Tensor> {
    const F: &str = "cholesky_inverse";
    square_only(l, F, "A")?;
    let d = l.dtype();
    ensure!(d.is_float() || d.is_complex(), NotImplemented, "\"cholesky_inverse_out_cpu\" not implemented for '{}'", type_name(d));
    check_float(l, F)?;
    let ml = Mats::of(l)?;
    let n = ml.n;
    let mut eye = vec![0.0; ml.data.len()];
    for b in 0..ml.count {
        for i in 0..n {
            eye[b * n * n + i * n + i] = 1.0;
        }
    }
    let mb = Mats { data: eye, batch: ml.batch.clone(), count: ml.count, m: n, n };
    let x = build(&chol_solve_raw(&ml, &mb, upper), &l.shape(), l)?;
    record("CholeskyInverseBackward0", &[l], &[&x], &[Save::In(l), Save::Out(0)], move |s, g, _| {
        let (l, x) = (s.get(0)?, s.get(1)?);
        let c = matmul(&x, &matmul(&add(&g[0], &mt(&g[0])?)?, &x)?)?;
        Ok(vec![Some(neg(&if upper { matmul(&l, &c)? } else { matmul(&c, &l)? })?)])
    })?;
    Ok(x)
}

// ------------------------------------------------------------------ QR, eigh, SVD

/// `linalg.qr(A, mode)` (LinalgQrBackward0): Householder QR with LAPACK's signs; `mode` is
/// "reduced", "complete" or "r" (Q empty).
pub fn qr(a: &Tensor, mode: &str) -> Result<(Tensor, Tensor)> {
    const F: &str = "linalg.qr";
    let (compute_q, complete) = match mode {
        "reduced" => (true, false),
        "complete" => (true, true),
        "r" => (false, false),
        _ => bail!(Runtime, "qr received unrecognized mode '{mode}' but expected one of 'reduced' (default), 'r', or 'complete'"),
    };
    check_matrix(a, F, "A")?;
    let m = Mats::of(a)?;
    let (rows, cols) = (m.m, m.n);
    let kk = rows.min(cols);
    let qc = if complete { rows } else { kk };
    let rr = if complete { rows } else { kk };
    let mut qs = Vec::with_capacity(m.count * rows * qc);
    let mut rs = Vec::with_capacity(m.count * rr * cols);
    for b in 0..m.count {
        let (q, r) = k::qr(m.get(b), rows, cols, complete);
        qs.extend(q);
        rs.extend(r);
    }
    let q = if compute_q { build(&qs, &dims(&m.batch, &[rows, qc]), a)? } else { build(&[], &[0], a)? };
    let r = build(&rs, &dims(&m.batch, &[rr, cols]), a)?;
    record("LinalgQrBackward0", &[a], &[&q, &r], &[Save::Out(0), Save::Out(1)], move |s, g, _| {
        ensure!(compute_q, Runtime, "The derivative of linalg.qr depends on Q, which is not computed when mode='r'. Please use linalg.qr(A, mode='reduced') if you are going to differentiate through linalg.qr.");
        Ok(vec![Some(qr_backward(&g[0], &g[1], &s.get(0)?, &s.get(1)?, complete)?)])
    })?;
    let mode: &'static str = if complete { "complete" } else if compute_q { "reduced" } else { "r" };
    Node::annotate_with(&r, &[(0, "Q"), (1, "R")], || vec![("mode", SavedValue::Str(mode))]);
    Ok((q, r))
}

/// FunctionsManual's linalg_qr_backward (real case).
fn qr_backward(gq: &Tensor, gr: &Tensor, q: &Tensor, r: &Tensor, complete: bool) -> Result<Tensor> {
    let (m, n) = (q.shape()[q.dim() - 2], r.shape()[r.dim() - 1]);
    ensure!(!complete || m <= n, Runtime, "The QR decomposition is not differentiable when mode='complete' and nrows > ncols.");
    let ga = sub(&matmul(gr, &mt(r)?)?, &matmul(&mt(q)?, gq)?)?;
    if m >= n {
        // gA = [gQ + Q syminvadj(triu(gR Rᵀ - Qᵀ gQ))] R⁻ᵀ, syminvadj(X) = X + Xᵀ, diagonal halved
        let x = tril(&ga, 0, true)?;
        let x = add(&x, &mt(&x)?)?;
        let x = sub(&x, &diag_embed(&diagonal(&x, 0, -2, -1)?.mul_scalar(0.5)?, 0, -2, -1)?)?;
        let ga = add(&matmul(q, &x)?, gq)?;
        solve_triangular(&mt(r)?, &ga, false, false, false)
    } else {
        // gA = [Q tril(X - Xᵀ) R₁⁻ᵀ, 0] + Q gR with X = -(gR Rᵀ - Qᵀ gQ)
        let x = neg(&ga)?;
        let ga = matmul(q, &tril(&sub(&x, &mt(&x)?)?, 0, false)?)?;
        let r1 = super::narrow(r, -1, 0, m as i64)?;
        let ga = solve_triangular(&mt(&r1)?, &ga, false, false, false)?;
        let mut zshape = r.shape().to_vec();
        *zshape.last_mut().unwrap() = n - m;
        let z = crate::tensor::zeros_on(&zshape, ga.dtype(), ga.device())?;
        add(&super::cat(&[ga, z], -1)?, &matmul(q, gr)?)
    }
}

/// `linalg.matrix_exp(A)` (LinalgMatrixExpBackward0, saving `self`): scaling and squaring,
/// a degree-18 Taylor polynomial of A / 2^s with ‖A / 2^s‖₁ ≤ 1/2 (remainder below 1e-22),
/// then s squarings. d A = the upper-right block of exp([[Aᵀ, G], [0, Aᵀ]]) (Mathias 1996,
/// as ATen's `linalg_matrix_exp_differential`), itself differentiable.
pub fn matrix_exp(a: &Tensor) -> Result<Tensor> {
    const F: &str = "linalg.matrix_exp";
    square_only(a, F, "A")?;
    check_float(a, F)?;
    let out = no_grad(|| matrix_exp_raw(a))?;
    record("LinalgMatrixExpBackward0", &[a], &[&out], &[Save::In(a)], |s, g, _| {
        let a = s.get(0)?;
        let n = a.shape()[a.dim() - 1] as i64;
        let at = mt(&a)?;
        let z = crate::tensor::zeros_on(&at.shape(), at.dtype(), at.device())?;
        let top = super::cat(&[at.clone(), g[0].clone()], -1)?;
        let big = matrix_exp(&super::cat(&[top, super::cat(&[z, at], -1)?], -2)?)?;
        Ok(vec![Some(super::narrow(&super::narrow(&big, -2, 0, n)?, -1, n, n)?)])
    })?;
    Ok(out)
}

fn matrix_exp_raw(a: &Tensor) -> Result<Tensor> {
    if a.numel() == 0 {
        return super::contiguous(&a.detach()).and_then(|t| super::cast_raw(&t, t.dtype()));
    }
    // the largest column-sum norm in the batch sets the scaling
    let cols = sum_dims(&super::abs(a)?, &[a.dim() - 2], false, None)?;
    let norm1 = cols.to_f64_vec()?.into_iter().fold(0.0f64, f64::max);
    let s = if norm1 > 0.5 && norm1.is_finite() { (norm1 / 0.5).log2().ceil().max(0.0) as i32 } else { 0 };
    let x = if s > 0 { a.mul_scalar(0.5f64.powi(s))? } else { a.clone() };
    let eye = eye_like(a)?;
    // Horner: E = I + X E / j for j = 18 … 1
    let mut e = add(&eye, &matmul(&x, &eye)?.mul_scalar(1.0 / 18.0)?)?;
    for j in (1..18).rev() {
        e = add(&eye, &matmul(&x, &e)?.mul_scalar(1.0 / j as f64)?)?;
    }
    for _ in 0..s {
        e = matmul(&e, &e)?;
    }
    Ok(e)
}

/// `linalg.eigh(A, UPLO)` / `eigvalsh` (LinalgEighBackward0): ascending eigenvalues and the
/// eigenvectors (columns) of the symmetric matrix in A's lower (or `upper`) triangle.
pub fn eigh(a: &Tensor, upper: bool, vectors: bool, f: &str) -> Result<(Tensor, Tensor)> {
    square_only(a, f, "A")?;
    let d = a.dtype();
    ensure!(d.is_float() && !matches!(d, DType::Float16 | DType::BFloat16), NotImplemented, "\"linalg_eigh_cpu\" not implemented for '{}'", type_name(d));
    check_float(a, f)?;
    let m = Mats::of(a)?;
    let n = m.n;
    let (mut ws, mut vs) = (Vec::with_capacity(m.count * n), Vec::with_capacity(m.data.len()));
    for b in 0..m.count {
        let (w, v) = k::eigh(m.get(b), n, upper);
        ws.extend(w);
        vs.extend(v);
    }
    let w = build(&ws, &dims(&m.batch, &[n]), a)?;
    let v = build(&vs, &a.shape(), a)?;
    let outs: Vec<&Tensor> = if vectors { vec![&w, &v] } else { vec![&w] };
    let vsave = v.clone();
    record("LinalgEighBackward0", &[a], &outs, &[Save::Out(0), Save::In(&vsave)], move |s, g, _| {
        let (l, v) = (s.get(0)?, s.get(1)?);
        let gl = &g[0];
        if !vectors {
            return Ok(vec![Some(matmul(&mul(&v, &unsqueeze(gl, -2)?)?, &mt(&v)?)?)]);
        }
        let gv = &g[1];
        let vhgv = matmul(&mt(&v)?, gv)?;
        let vhgv = sub(&vhgv, &mt(&vhgv)?)?.mul_scalar(0.5)?;
        // E_ij = λ_j - λ_i, 1 on the diagonal
        let e = sub(&unsqueeze(&l, -2)?, &unsqueeze(&l, -1)?)?;
        let e = add(&e, &eye_like(&l)?)?;
        let x = div(&vhgv, &e)?;
        let x = add(&sub(&x, &diag_embed(&diagonal(&x, 0, -2, -1)?, 0, -2, -1)?)?, &diag_embed(gl, 0, -2, -1)?)?;
        Ok(vec![Some(matmul(&v, &matmul(&x, &mt(&v)?)?)?)])
    })?;
    Node::annotate_with(&w, &[(0, "eigenvalues"), (1, "eigenvectors")], Vec::new);
    Ok((w, v))
}

/// `linalg.svd(A, full_matrices)` / `svdvals` (LinalgSvdBackward0): U, the singular values
/// (descending) and Vᵀ.
pub fn svd(a: &Tensor, full: bool, vectors: bool, f: &str) -> Result<(Tensor, Tensor, Tensor)> {
    check_matrix(a, f, "A")?;
    let m = Mats::of(a)?;
    let (rows, cols) = (m.m, m.n);
    let kk = rows.min(cols);
    let (uc, vr) = if full { (rows, cols) } else { (kk, kk) };
    // the vectors only where they are returned or the derivative needs them (svdvals)
    let uv = vectors || crate::autograd::needs_history(&[a]);
    let (mut us, mut ss, mut vts) = (Vec::new(), Vec::new(), Vec::new());
    for b in 0..m.count {
        let (u, s, vt) = svd_of(&m, b, full, uv, f)?;
        us.extend(u);
        ss.extend(s);
        vts.extend(vt);
    }
    let (ushape, vshape) = if uv { (dims(&m.batch, &[rows, uc]), dims(&m.batch, &[vr, cols])) } else { (vec![0], vec![0]) };
    let u = build(&us, &ushape, a)?;
    let s = build(&ss, &dims(&m.batch, &[kk]), a)?;
    let vt = build(&vts, &vshape, a)?;
    let outs: Vec<&Tensor> = if vectors { vec![&u, &s, &vt] } else { vec![&s] };
    let (usave, vsave) = (u.clone(), vt.clone());
    record("LinalgSvdBackward0", &[a], &outs, &[Save::In(&usave), Save::In(&vsave), if vectors { Save::Out(1) } else { Save::Out(0) }], move |sv, g, _| {
        let (mut u, mut vt, s) = (sv.get(0)?, sv.get(1)?, sv.get(2)?);
        if full {
            u = super::narrow(&u, -1, 0, kk as i64)?;
            vt = super::narrow(&vt, -2, 0, kk as i64)?;
        }
        if !vectors {
            return Ok(vec![Some(svdvals_backward(&g[0], &u, &vt, rows >= cols)?)]);
        }
        let (mut gu, gs, mut gvt) = (g[0].clone(), &g[1], g[2].clone());
        if full {
            gu = super::narrow(&gu, -1, 0, kk as i64)?;
            gvt = super::narrow(&gvt, -2, 0, kk as i64)?;
        }
        Ok(vec![Some(svd_backward(&gu, gs, &gvt, &u, &s, &vt)?)])
    })?;
    Node::annotate_with(&s, &[(0, "U"), (1, "Vh"), (2, "S")], || vec![("full_matrices", SavedValue::Bool(full)), ("S_sym_argsize_minus_1", SavedValue::Int(kk as i64))]);
    Ok((u, s, vt))
}

/// The SVD of batch element `b` (`k::svd`), with LAPACK's errors as PyTorch words them: NaN
/// input, or no convergence.
fn svd_of(m: &Mats, b: usize, full: bool, vectors: bool, f: &str) -> Result<(Vec<f64>, Vec<f64>, Vec<f64>)> {
    let x = m.get(b);
    if x.iter().any(|v| v.is_nan()) {
        return Err(Error::LinAlg(format!("{f}: {}The algorithm failed to converge because the input matrix contained non-finite values.", batch_prefix(&m.batch, b))));
    }
    k::svd(x, m.m, m.n, full, vectors).map_err(|info| {
        Error::LinAlg(format!("{f}: {}The algorithm failed to converge because the input matrix is ill-conditioned or has too many repeated singular values (error code: {info}).", batch_prefix(&m.batch, b)))
    })
}

/// d A = U diag(g) Vᵀ.
fn svdvals_backward(gs: &Tensor, u: &Tensor, vt: &Tensor, tall: bool) -> Result<Tensor> {
    if tall {
        matmul(u, &mul(&unsqueeze(gs, -1)?, vt)?)
    } else {
        matmul(&mul(u, &unsqueeze(gs, -2)?)?, vt)
    }
}

/// FunctionsManual's svd_backward (real case, reduced factors).
fn svd_backward(gu: &Tensor, gs: &Tensor, gvt: &Tensor, u: &Tensor, s: &Tensor, vt: &Tensor) -> Result<Tensor> {
    let (m, n) = (u.shape()[u.dim() - 2], vt.shape()[vt.dim() - 1]);
    let skew = |x: &Tensor| -> Result<Tensor> { sub(x, &mt(x)?) };
    let uhgu = skew(&matmul(&mt(u)?, gu)?)?;
    let vhgv = skew(&matmul(vt, &mt(gvt)?)?)?;
    let s2 = mul(s, s)?;
    let e = sub(&unsqueeze(&s2, -2)?, &unsqueeze(&s2, -1)?)?;
    let e = add(&e, &eye_like(s)?)?;
    let ga = div(&add(&mul(&uhgu, &unsqueeze(s, -2)?)?, &mul(&unsqueeze(s, -1)?, &vhgv)?)?, &e)?;
    let ga = add(&ga, &diag_embed(gs, 0, -2, -1)?)?;
    if m > n {
        let ga = matmul(u, &ga)?;
        let gusinv = div(gu, &unsqueeze(s, -2)?)?;
        let ga = sub(&add(&ga, &gusinv)?, &matmul(u, &matmul(&mt(u)?, &gusinv)?)?)?;
        matmul(&ga, vt)
    } else if m < n {
        let ga = matmul(&ga, vt)?;
        let sinvgvt = div(gvt, &unsqueeze(s, -1)?)?;
        let ga = sub(&add(&ga, &sinvgvt)?, &matmul(&matmul(&sinvgvt, &mt(vt)?)?, vt)?)?;
        matmul(u, &ga)
    } else {
        matmul(u, &matmul(&ga, vt)?)
    }
}

/// `linalg.pinv(A, atol, rtol, hermitian)` (LinalgPinvBackward0): V diag(1/s) Uᵀ over the
/// singular values above max(atol, rtol·s_max) (the eigen-decomposition's |λ| where
/// `hermitian`); `rtol` defaults to eps·max(m, n) unless a positive `atol` is given.
pub fn pinv(a: &Tensor, atol: Option<f64>, rtol: Option<f64>, hermitian: bool) -> Result<Tensor> {
    let d = a.dtype();
    ensure!(a.dim() >= 2 && (d.is_float() || d.is_complex()) && !matches!(d, DType::Float16 | DType::BFloat16), Runtime,
        "linalg.pinv({}{{{}}}): expected a tensor with 2 or more dimensions of float, double, cfloat or cdouble types", d.scalar_name(), crate::shape::fmt_list(&a.shape()));
    check_float(a, "linalg.pinv")?;
    let m = Mats::of(a)?;
    let (rows, cols) = (m.m, m.n);
    let eps = if d == DType::Float64 { f64::EPSILON } else { f32::EPSILON as f64 };
    let atol_v = atol.unwrap_or(0.0);
    let rtol_v = rtol.unwrap_or(if atol.is_some_and(|v| v > 0.0) { 0.0 } else { eps * rows.max(cols) as f64 });
    let mut out = vec![0.0; m.count * cols * rows];
    for b in 0..m.count {
        let o = &mut out[b * cols * rows..(b + 1) * cols * rows];
        if hermitian {
            ensure!(rows == cols, Runtime, "linalg.eigh: A must be batches of square matrices, but they are {rows} by {cols} matrices");
            let (w, v) = k::eigh(m.get(b), rows, false);
            let smax = w.iter().fold(0.0f64, |acc, x| acc.max(x.abs()));
            let tol = atol_v.max(rtol_v * smax);
            for r in 0..rows {
                for c in 0..rows {
                    o[r * rows + c] = (0..rows).filter(|&i| w[i].abs() > tol).map(|i| v[r * rows + i] * v[c * rows + i] / w[i]).sum();
                }
            }
        } else {
            let (u, s, vt) = svd_of(&m, b, false, true, "linalg.svd")?;
            let kk = s.len();
            let tol = atol_v.max(rtol_v * s.first().copied().unwrap_or(0.0));
            for r in 0..cols {
                for c in 0..rows {
                    o[r * rows + c] = (0..kk).filter(|&i| s[i] > tol).map(|i| vt[i * cols + r] * u[c * kk + i] / s[i]).sum();
                }
            }
        }
    }
    let p = build(&out, &dims(&m.batch, &[cols, rows]), a)?;
    record("LinalgPinvBackward0", &[a], &[&p], &[Save::In(a), Save::Out(0)], move |s, g, _| {
        let (a, p) = (s.get(0)?, s.get(1)?);
        let (ph, gh) = (mt(&p)?, mt(&g[0])?);
        let ga = if rows <= cols {
            let kk = matmul(&gh, &p)?;
            let kph = matmul(&kk, &ph)?;
            let t = sub(&kph, &mt(&matmul(&p, &kk)?)?)?;
            let t = sub(&t, &matmul(&matmul(&a, &p)?, &kph)?)?;
            add(&t, &matmul(&matmul(&ph, &p)?, &sub(&gh, &matmul(&kk, &a)?)?)?)?
        } else {
            let kk = matmul(&p, &gh)?;
            let phk = matmul(&ph, &kk)?;
            let t = neg(&mt(&matmul(&kk, &p)?)?)?;
            let t = add(&t, &matmul(&matmul(&sub(&gh, &matmul(&a, &kk)?)?, &p)?, &ph)?)?;
            sub(&add(&t, &phk)?, &matmul(&matmul(&phk, &p)?, &a)?)?
        };
        Ok(vec![Some(ga)])
    })?;
    Ok(p)
}

// ------------------------------------------------------------------ cdist

/// ∂‖diff‖_p / ∂diff_k for one entry `diff` of a difference whose norm is `dist` (ATen's
/// pdist backward kernels: 0 at a zero distance, and for p < 1 at a zero entry).
fn p_distance_grad(diff: f64, dist: f64, p: f64) -> f64 {
    let sign = if diff > 0.0 { 1.0 } else if diff < 0.0 { -1.0 } else { 0.0 };
    if p == 0.0 {
        0.0
    } else if p == 1.0 {
        sign
    } else if p.is_infinite() {
        if diff.abs() == dist { sign } else { 0.0 }
    } else if dist == 0.0 || (p < 1.0 && diff == 0.0) {
        0.0
    } else if p == 2.0 {
        diff / dist
    } else {
        sign * diff.abs().powf(p - 1.0) / dist.powf(p - 1.0)
    }
}

/// `pdist(x, p)` (PdistBackward0, saving self, p and result): the p-norm distance of every
/// pair of rows i < j of the (n, m) `x`, in row-major order.
pub fn pdist(x: &Tensor, p: f64) -> Result<Tensor> {
    ensure!(x.dim() == 2, Runtime, "pdist only supports 2D tensors, got: {}D", x.dim());
    ensure!(x.dtype().is_float(), Runtime, "pdist only supports floating-point dtypes");
    ensure!(p >= 0.0, Runtime, "pdist only supports non-negative p values");
    crate::autograd::forward::refuse(&[x], "_pdist_forward")?;
    let (n, c) = (x.shape()[0], x.shape()[1]);
    let pairs = move || (0..n).flat_map(move |i| (i + 1..n).map(move |j| (i, j)));
    let xv = x.to_f64_vec()?;
    let mut out = vec![0.0; n * n.saturating_sub(1) / 2];
    if c > 0 {
        // row i against the transpose's columns i+1.. (padded: no block of them is partial)
        let (xt, ld) = k::distance_operand(&xv, n, c);
        let mut at = 0;
        for i in 0..n.saturating_sub(1) {
            let len = n - i - 1;
            k::p_distance_row(&xv[i * c..(i + 1) * c], &xt[i + 1..], ld, p, &mut out[at..at + len]);
            at += len;
        }
    }
    let out = build(&out, &[out.len()], x)?;
    record("PdistBackward0", &[x], &[&out], &[Save::In(x), Save::Out(0)], move |s, g, _| {
        let (x, d) = (s.get(0)?, s.get(1)?);
        let (xv, dv, gv) = (x.to_f64_vec()?, d.to_f64_vec()?, g[0].to_f64_vec()?);
        // differences in the input's precision (the ∞-norm compares them with the distance)
        let narrow = x.dtype() != DType::Float64;
        let mut gx = vec![0.0; n * c];
        for (k, (i, j)) in pairs().enumerate() {
            for e in 0..c {
                let diff = xv[i * c + e] - xv[j * c + e];
                let diff = if narrow { diff as f32 as f64 } else { diff };
                let w = gv[k] * p_distance_grad(diff, dv[k], p);
                gx[i * c + e] += w;
                gx[j * c + e] -= w;
            }
        }
        let gx = build(&gx, &[n, c], &x)?;
        // ATen's _pdist_backward has no derivative: under create_graph its result gets a node
        // that refuses a second backward
        Ok(vec![Some(crate::autograd::not_differentiable_again(gx, &[&g[0], &x, &d], "PdistBackwardBackward0", "_pdist_backward")?)])
    })?;
    Node::annotate_with(&out, &[], || vec![("p", SavedValue::Float(p))]);
    Ok(out)
}

/// `torch.cdist(x1, x2, p)` (CdistBackward0): the p-norm distance between each row of x1 and
/// each row of x2, batch dims broadcast.
pub fn cdist(x1: &Tensor, x2: &Tensor, p: f64) -> Result<Tensor> {
    ensure!(x1.dim() >= 2, Runtime, "cdist only supports at least 2D tensors, X1 got: {}D", x1.dim());
    ensure!(x2.dim() >= 2, Runtime, "cdist only supports at least 2D tensors, X2 got: {}D", x2.dim());
    let (s1, s2) = (x1.shape(), x2.shape());
    let (c1, c2) = (s1[s1.len() - 1], s2[s2.len() - 1]);
    ensure!(c1 == c2, Runtime, "X1 and X2 must have the same number of columns. X1: {c1} X2: {c2}");
    ensure!(x1.dtype().is_float(), Runtime, "cdist only supports floating-point dtypes, X1 got: {}", type_name(x1.dtype()));
    ensure!(x2.dtype().is_float(), Runtime, "cdist only supports floating-point dtypes, X2 got: {}", type_name(x2.dtype()));
    ensure!(x1.dtype() == x2.dtype(), Runtime, "expected scalar type {} but found {}", x1.dtype().scalar_name(), x2.dtype().scalar_name());
    ensure!(p >= 0.0, Runtime, "cdist only supports non-negative p values");
    let (ma, mb, batch) = no_grad(|| broadcast_pair(x1, x2, false))?;
    let (r1, r2, c) = (ma.m, mb.m, ma.n);
    let mut out = vec![0.0; ma.count * r1 * r2];
    for b in 0..ma.count {
        // x2's points as columns, so one row's distances run in the vector lanes (padded: no
        // block of them is partial)
        let xa = ma.get(b);
        let (xbt, ld) = k::distance_operand(mb.get(b), r2, c);
        for (i, row) in out[b * r1 * r2..(b + 1) * r1 * r2].chunks_exact_mut(r2.max(1)).enumerate() {
            k::p_distance_row(&xa[i * c..(i + 1) * c], &xbt, ld, p, row);
        }
    }
    let dist = build(&out, &dims(&batch, &[r1, r2]), x1)?;
    let (sa, sb) = (s1.clone(), s2.clone());
    record("CdistBackward0", &[x1, x2], &[&dist], &[Save::In(x1), Save::In(x2), Save::Out(0)], move |s, g, need| {
        let (x1, x2, d) = (s.get(0)?, s.get(1)?, s.get(2)?);
        // diff[..., i, j, :] = x1_i - x2_j; ∂d_ij/∂diff = the p-norm's gradient
        let diff = sub(&unsqueeze(&x1, -2)?, &unsqueeze(&x2, -3)?)?;
        let dd = unsqueeze(&d, -1)?;
        let w = if p == 0.0 {
            crate::tensor::zeros_on(&diff.shape(), diff.dtype(), diff.device())?
        } else if p == 1.0 {
            super::sign(&diff)?
        } else if p == 2.0 {
            let q = div(&diff, &dd)?;
            where_(&super::compare(&dd, &sc(0.0), super::BinOp::Eq)?, &sc(0.0), &q)?
        } else if p.is_infinite() {
            let ad = super::abs(&diff)?;
            let hit = super::compare(&ad, &dd, super::BinOp::Eq)?;
            where_(&hit, &super::sign(&diff)?, &sc(0.0))?
        } else {
            let ad = super::abs(&diff)?;
            let q = mul(&super::sign(&diff)?, &div(&super::pow_scalar(&ad, Scalar::Float(p - 1.0))?, &super::pow_scalar(&dd, Scalar::Float(p - 1.0))?)?)?;
            let q = if p < 1.0 { where_(&super::compare(&diff, &sc(0.0), super::BinOp::Eq)?, &sc(0.0), &q)? } else { q };
            where_(&super::compare(&dd, &sc(0.0), super::BinOp::Eq)?, &sc(0.0), &q)?
        };
        let gw = mul(&unsqueeze(&g[0], -1)?, &w)?;
        let n = gw.dim() as i64;
        let g1 = if need[0] { Some(sum_to(&sum_dims(&gw, &[(n - 2) as usize], false, None)?, &sa)?) } else { None };
        let g2 = if need.len() > 1 && need[1] { Some(sum_to(&neg(&sum_dims(&gw, &[(n - 3) as usize], false, None)?)?, &sb)?) } else { None };
        Ok(vec![g1, g2])
    })?;
    Node::annotate_with(&dist, &[(0, "x1"), (1, "x2")], || vec![("p", SavedValue::Float(p))]);
    Ok(dist)
}
