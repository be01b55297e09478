//! Reductions: sum, mean, prod, max/min (whole and along a dim), argmax/argmin, norm,
//! all/any. Each reduces contiguous rows after moving the reduced dims last.

use super::{add, div, expand, mul, permute, reshape};
use crate::autograd::{SavedValue, record, record_jvp, Save};
use crate::backend::{self, ReduceOp, ScanOp};
use crate::dtype::DType;
use crate::error::Result;
use crate::shape::{wrap_dim, Layout};
use crate::tensor::{Scalar, Tensor};
use crate::{bail, ensure};

/// Normalised reduction dims (empty = all), sorted, checked.
pub fn reduce_dims(dims: &[i64], ndim: usize) -> Result<Vec<usize>> {
    if dims.is_empty() {
        return Ok((0..ndim).collect());
    }
    let mut out = Vec::with_capacity(dims.len());
    for &d in dims {
        let w = wrap_dim(d, ndim)?;
        if ndim == 0 {
            continue;
        }
        if out.contains(&w) {
            bail!(Runtime, "dim {} appears multiple times in the list of dims", w);
        }
        out.push(w);
    }
    out.sort();
    Ok(out)
}

/// Move `dims` last and make contiguous; returns (tensor, kept shape, row length).
fn rows_last(x: &Tensor, dims: &[usize]) -> Result<(Tensor, Vec<usize>, usize)> {
    let shape = x.shape();
    let kept: Vec<usize> = (0..shape.len()).filter(|d| !dims.contains(d)).collect();
    let mut order: Vec<i64> = kept.iter().map(|&d| d as i64).collect();
    order.extend(dims.iter().map(|&d| d as i64));
    let p = if order.iter().enumerate().all(|(i, &d)| i as i64 == d) {
        x.clone()
    } else {
        crate::ops::as_strided_view(x, &permute_layout(&x.layout(), &order))
    };
    let c = if p.is_contiguous() { p } else { super::cast_raw(&p, p.dtype())? };
    let row: usize = dims.iter().map(|&d| shape[d]).product();
    Ok((c, kept.iter().map(|&d| shape[d]).collect(), row))
}

fn permute_layout(l: &crate::shape::Layout, order: &[i64]) -> crate::shape::Layout {
    crate::shape::Layout {
        shape: order.iter().map(|&d| l.shape[d as usize]).collect(),
        strides: order.iter().map(|&d| l.strides[d as usize]).collect(),
        offset: l.offset,
    }
}

/// The shape of a reduction result.
fn out_shape(shape: &[usize], dims: &[usize], keepdim: bool) -> Vec<usize> {
    let mut out = Vec::new();
    for (i, &s) in shape.iter().enumerate() {
        if dims.contains(&i) {
            if keepdim {
                out.push(1);
            }
        } else {
            out.push(s);
        }
    }
    out
}

/// Broadcast a reduced gradient back over the input shape.
fn ints(v: &[usize]) -> SavedValue {
    SavedValue::Ints(v.iter().map(|&d| d as i64).collect())
}

/// `shape` without the reduced `dims`.
fn reduced_shape(shape: &[usize], dims: &[usize]) -> Vec<usize> {
    shape.iter().enumerate().filter(|(i, _)| !dims.contains(i)).map(|(_, &d)| d).collect()
}

fn expand_back(g: &Tensor, in_shape: &[usize], dims: &[usize], keepdim: bool) -> Result<Tensor> {
    let keep_shape: Vec<i64> = in_shape.iter().enumerate().map(|(i, &s)| if dims.contains(&i) { 1 } else { s as i64 }).collect();
    let g = if keepdim { g.clone() } else { reshape(g, &keep_shape)? };
    expand(&g, &in_shape.iter().map(|&d| d as i64).collect::<Vec<_>>())
}

/// `x`'s layout with the reduced `dims` first (largest stride first) and the kept dims after
/// in their order, and the kept dims' element count, where that layout is contiguous: the
/// reduced dims lead in memory and the result comes out in order. None where they do not, or
/// where nothing (or everything) is reduced or the tensor is empty.
fn leading_layout(x: &Tensor, dims: &[usize]) -> Option<(Layout, usize)> {
    let l = x.layout();
    let n = l.shape.len();
    if dims.is_empty() || dims.len() >= n || l.numel() == 0 {
        return None;
    }
    let mut order: Vec<usize> = dims.to_vec();
    order.sort_by_key(|&d| std::cmp::Reverse(l.strides[d]));
    order.extend((0..n).filter(|d| !dims.contains(d)));
    let p = Layout {
        shape: order.iter().map(|&d| l.shape[d]).collect(),
        strides: order.iter().map(|&d| l.strides[d]).collect(),
        offset: l.offset,
    };
    if !p.is_contiguous() {
        return None;
    }
    let inner: usize = p.shape[dims.len()..].iter().product();
    Some((p, inner))
}

/// Reduce the rows of `x` over `dims` with `op` into `out_dtype` (an empty row gives
/// `identity`).
fn reduce_raw(x: &Tensor, dims: &[usize], keepdim: bool, op: ReduceOp, out_dtype: DType, identity: Scalar) -> Result<Tensor> {
    let shape = x.shape();
    // a 0-dim tensor reduces over dim 0 (or -1) as over nothing, as in torch
    let dims: &[usize] = if shape.is_empty() { &[] } else { dims };
    if x.dtype().is_complex() {
        if op == ReduceOp::Prod {
            // pairwise complex products of each row (the reduced dims moved last)
            let (c, _, row) = rows_last(x, dims)?;
            let t = super::complex::prod_rows(&c, row)?;
            return Ok(super::as_strided_view(&t, &crate::shape::Layout::contiguous(&out_shape(&shape, dims, keepdim))));
        }
        // sums of the real view (its pair dim is last: the dims keep their numbers)
        if op != ReduceOp::Sum {
            return Err(super::complex::unsupported(&format!("{}_cpu", op.name()), x.dtype()));
        }
        let rt = out_dtype.to_real();
        return super::complex::reduce_raw(x, |r| reduce_raw(r, dims, keepdim, op, rt, identity));
    }
    // a reduction over the dims that lead in memory (a bias gradient, a column maximum, the
    // rows of a transposed matrix): one pass over the rows where the backend has it, instead
    // of transposing the reduced dims last
    if matches!(op, ReduceOp::Sum | ReduceOp::Max | ReduceOp::Min) && out_dtype == x.dtype() {
        // (one output column is a contiguous reduction of it all, which ATen sums as a row)
        if let Some((l, inner)) = leading_layout(x, dims).filter(|&(_, inner)| inner > 1 || op != ReduceOp::Sum) {
            if let Some(t) = backend::reduce_leading(x, &l, inner, op, &out_shape(&shape, dims, keepdim))? {
                return Ok(t);
            }
        }
    }
    let (c, _, row) = rows_last(x, dims)?;
    let oshape = out_shape(&shape, dims, keepdim);
    if row == 0 {
        return crate::tensor::full_on(&oshape, identity, out_dtype, x.device());
    }
    backend::reduce(&c, row, op, out_dtype, &oshape)
}

/// Raw typed sum of each row.
fn sum_raw(x: &Tensor, dims: &[usize], keepdim: bool, out_dtype: DType) -> Result<Tensor> {
    reduce_raw(x, dims, keepdim, ReduceOp::Sum, out_dtype, Scalar::Int(0))
}

fn sum_dtype(d: DType) -> DType {
    if d.is_float() || d.is_complex() { d } else { DType::Int64 }
}

/// `x.sum(dim=dims)` with the dims as the caller gave them (negative, any order): reduced
/// over `reduce_dims(dims)`, with `_saved_dim` as given, as PyTorch shows it.
pub fn sum_dim_list(x: &Tensor, dims: &[i64], keepdim: bool, dtype: Option<DType>) -> Result<Tensor> {
    let out = sum_dims(x, &reduce_dims(dims, x.dim())?, keepdim, dtype)?;
    crate::autograd::Node::annotate_with(&out, &[], || vec![("dim", SavedValue::Ints(dims.to_vec()))]);
    Ok(out)
}

/// `x.mean(dim=dims)` with the dims as given (see `sum_dim_list`).
pub fn mean_dim_list(x: &Tensor, dims: &[i64], keepdim: bool, dtype: Option<DType>) -> Result<Tensor> {
    let out = mean(x, Some(&reduce_dims(dims, x.dim())?), keepdim, dtype)?;
    crate::autograd::Node::annotate_with(&out, &[], || vec![("dim", SavedValue::Ints(dims.to_vec()))]);
    Ok(out)
}

/// `sum(x, dims, keepdim, dtype)`; no dims means every dim (SumBackward0), else SumBackward1.
pub fn sum_dims(x: &Tensor, dims: &[usize], keepdim: bool, dtype: Option<DType>) -> Result<Tensor> {
    check_grad_dtype(x, dtype)?;
    let shape = x.shape();
    let od = dtype.unwrap_or_else(|| sum_dtype(x.dtype()));
    let out = sum_raw(x, dims, keepdim, od)?;
    let dims_v = dims.to_vec();
    // d/dx sum = 1, broadcast back
    let fields = [
        ("dim", SavedValue::Ints(dims.iter().map(|&d| d as i64).collect())),
        ("keepdim", SavedValue::Bool(keepdim)),
        ("self_sym_sizes", SavedValue::Ints(shape.iter().map(|&d| d as i64).collect())),
    ];
    record_jvp("SumBackward1", &[x], &[&out], &[], move |_, g, _| Ok(vec![Some(expand_back(&g[0], &shape, &dims_v, keepdim)?)]),
        // JVP: linear, the same sum of the tangent
        |t| Ok(vec![Some(sum_dims(t.one(), dims, keepdim, Some(od))?)]))?;
    crate::autograd::Node::annotate(&out, &fields, &[]);
    Ok(out)
}

/// `nansum(x, dims, keepdim, dtype)`: the sum with NaNs counted as 0 (all dims when `dims` is
/// None). NansumBackward0: the gradient passes where `x` is not NaN, 0 where it is.
pub fn nansum(x: &Tensor, dims: Option<&[usize]>, keepdim: bool, dtype: Option<DType>) -> Result<Tensor> {
    if x.dtype().is_complex() {
        bail!(Runtime, "nansum does not support complex inputs");
    }
    check_grad_dtype(x, dtype)?;
    let shape = x.shape();
    let all: Vec<usize> = (0..shape.len()).collect();
    let dv = dims.map(|d| d.to_vec()).unwrap_or(all);
    let keep = keepdim && dims.is_some();
    let od = dtype.unwrap_or_else(|| sum_dtype(x.dtype()));
    let nan_mask = |t: &Tensor| backend::unary(t, crate::backend::UnaryOp::IsNan);
    let out = {
        let _g = crate::autograd::raw_mode();
        let clean = if x.dtype().is_float() { super::where_(&nan_mask(x)?, &Tensor::wrapped_scalar(Scalar::Int(0)), x)? } else { x.detach() };
        sum_raw(&clean, &dv, keep, od)?
    };
    let xd = x.dtype();
    record("NansumBackward0", &[x], &[&out], &[Save::In(x)], move |s, g, _| {
        let xt = s.get(0)?;
        let ge = expand_back(&super::to_dtype(&g[0], xd)?, &shape, &dv, keep)?;
        Ok(vec![Some(super::where_(&nan_mask(&xt)?, &Tensor::wrapped_scalar(Scalar::Int(0)), &ge)?)])
    })?;
    let fields = [
        ("dim", SavedValue::Ints(dims.map(|d| d.iter().map(|&d| d as i64).collect()).unwrap_or_default())),
        ("keepdim", SavedValue::Bool(keep)),
    ];
    crate::autograd::Node::annotate(&out, &fields, &[]);
    Ok(out)
}

/// `x.sum()` over everything (SumBackward0).
pub fn sum(x: &Tensor, dtype: Option<DType>) -> Result<Tensor> {
    check_grad_dtype(x, dtype)?;
    let shape = x.shape();
    let dims: Vec<usize> = (0..shape.len()).collect();
    let od = dtype.unwrap_or_else(|| sum_dtype(x.dtype()));
    let out = sum_raw(x, &dims, false, od)?;
    let sizes = SavedValue::Ints(shape.iter().map(|&d| d as i64).collect());
    record_jvp("SumBackward0", &[x], &[&out], &[], move |_, g, _| Ok(vec![Some(expand(&g[0], &shape.iter().map(|&d| d as i64).collect::<Vec<_>>())?)]),
        // JVP: linear, the sum of the tangent
        |t| Ok(vec![Some(sum(t.one(), Some(od))?)]))?;
    crate::autograd::Node::annotate(&out, &[("self_sym_sizes", sizes)], &[]);
    Ok(out)
}

/// `mean(x)` over `dims` (None = all: MeanBackward0).
pub fn mean(x: &Tensor, dims: Option<&[usize]>, keepdim: bool, dtype: Option<DType>) -> Result<Tensor> {
    let d = dtype.unwrap_or(x.dtype());
    if !d.is_float() && !d.is_complex() {
        bail!(Runtime, "mean(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. Got: {}", d.scalar_name());
    }
    let shape = x.shape();
    let all: Vec<usize> = (0..shape.len()).collect();
    let dv = dims.map(|d| d.to_vec()).unwrap_or(all);
    let n: usize = dv.iter().filter(|&&i| i < shape.len()).map(|&i| shape[i]).product();
    // float16 accumulates in float32, as torch (a half sum would overflow long before the mean)
    let acc = if matches!(d, DType::Float16 | DType::BFloat16) { DType::Float32 } else { d };
    let s = sum_raw(x, &dv, keepdim, acc)?;
    let out = super::binary_raw(&s, &Tensor::wrapped_scalar(Scalar::Float(n as f64)), super::BinOp::Div)?;
    let out = if out.dtype() != d { super::cast_raw(&out, d)? } else { out };
    let name = if dims.is_none() { "MeanBackward0" } else { "MeanBackward1" };
    let jdims = dv.clone();
    // d/dx mean = 1/n, broadcast back
    record_jvp(name, &[x], &[&out], &[], move |_, g, _| {
        let e = expand_back(&g[0], &shape, &dv, keepdim)?;
        Ok(vec![Some(div(&e, &Tensor::wrapped_scalar(Scalar::Int(n as i64)))?)])
    },
        // JVP: linear, the mean of the tangent
        |t| Ok(vec![Some(mean(t.one(), Some(&jdims), keepdim, Some(d))?)]))?;
    if out.grad_fn().is_some() {
        let numel = SavedValue::Int(x.numel() as i64);
        match dims {
            None => crate::autograd::Node::annotate(&out, &[("self_sym_numel", numel), ("self_sym_sizes", ints(&x.shape()))], &[]),
            Some(dl) => crate::autograd::Node::annotate(&out, &[("dim", ints(dl)), ("keepdim", SavedValue::Bool(keepdim)), ("self_sym_numel", numel), ("self_sym_sizes", ints(&x.shape()))], &[]),
        }
    }
    Ok(out)
}

/// `prod(x)` (all, ProdBackward0) or along `dim` (ProdBackward1).
pub fn prod(x: &Tensor, dim: Option<usize>, keepdim: bool) -> Result<Tensor> {
    let shape = x.shape();
    let dims: Vec<usize> = match dim { Some(d) => vec![d], None => (0..shape.len()).collect() };
    let od = if x.dtype().is_float() || x.dtype().is_complex() { x.dtype() } else { DType::Int64 };
    let out = reduce_raw(x, &dims, keepdim && dim.is_some(), ReduceOp::Prod, od, Scalar::Int(1))?;
    let name = if dim.is_some() { "ProdBackward1" } else { "ProdBackward0" };
    let kd = keepdim && dim.is_some();
    let (xj, jdims) = (x.detach(), dims.clone());
    record_jvp(name, &[x], &[&out], &[Save::In(x), Save::Out(0)], move |s, g, _| {
        let xt = s.get(0)?;
        // one device reduction and a single scalar read decide the formula
        let has_zero = all_any(&super::binary_raw(&xt, &Tensor::wrapped_scalar(Scalar::Int(0)), super::BinOp::Eq)?, None, false, false)?.item()?.as_f64() != 0.0;
        let ge = expand_back(&g[0], &shape, &dims, kd)?;
        if !has_zero {
            let r = expand_back(&s.get(1)?, &shape, &dims, kd)?;
            return Ok(vec![Some(div(&mul(&ge, &r)?, &xt)?)]);
        }
        // with zeros: product of the others, by prefix and suffix products (not differentiable again)
        let others = prod_of_others(&xt, &dims)?;
        Ok(vec![Some(mul(&ge, &others)?)])
    },
        // JVP: sum_k t_k prod_{j != k} x_j over the reduced dims (zeros included)
        |t| Ok(vec![Some(sum_dims(&mul(t.one(), &prod_of_others(&xj, &jdims)?)?, &jdims, kd, None)?)]))?;
    if let Some(d) = dim {
        crate::autograd::Node::annotate(&out, &[("dim", SavedValue::Int64(d as i64)), ("keepdim", SavedValue::Bool(keepdim))], &[]);
    }
    Ok(out)
}

fn prod_of_others(x: &Tensor, dims: &[usize]) -> Result<Tensor> {
    let shape = x.shape();
    let (c, _, row) = rows_last(x, dims)?;
    let t = scan_rows(&c, row, ScanOp::ProdOthers)?;
    // back from (kept..., reduced...) order to the input's dim order
    let kept_dims: Vec<usize> = (0..shape.len()).filter(|d| !dims.contains(d)).collect();
    let mut order = kept_dims.clone();
    order.extend(dims);
    let mut inv = vec![0i64; order.len()];
    for (i, &d) in order.iter().enumerate() { inv[d] = i as i64; }
    let mut pshape: Vec<usize> = kept_dims.iter().map(|&d| shape[d]).collect();
    pshape.extend(dims.iter().map(|&d| shape[d]));
    let t = super::as_strided_view(&t, &crate::shape::Layout::contiguous(&pshape));
    super::contiguous(&permute(&t, &inv)?)
}

/// A reduction asked for an integral `dtype` of an input that records history: torch refuses
/// (the result could not carry the gradient).
pub fn check_grad_dtype(x: &Tensor, dtype: Option<DType>) -> Result<()> {
    match dtype {
        Some(d) if !d.is_float() && crate::autograd::needs_record(&[x]) => bail!(Runtime, "Autograd not support dtype: {}", d.scalar_name()),
        _ => Ok(()),
    }
}

/// Whole-tensor max or min (MaxBackward1/MinBackward1): ties share the gradient evenly.
pub fn max_all(x: &Tensor, is_max: bool) -> Result<Tensor> {
    if x.dtype().is_complex() {
        return Err(super::complex::unsupported(if is_max { "max_all" } else { "min_all" }, x.dtype()));
    }
    if x.numel() == 0 {
        bail!(Runtime, "{}(): Expected reduction dim to be specified for input.numel() == 0. Specify the reduction dim with the 'dim' argument.", if is_max { "max" } else { "min" });
    }
    let all: Vec<usize> = (0..x.dim()).collect();
    let out = reduce_raw(x, &all, false, if is_max { ReduceOp::Max } else { ReduceOp::Min }, x.dtype(), Scalar::Int(0))?;
    let name = if is_max { "MaxBackward1" } else { "MinBackward1" };
    record(name, &[x], &[&out], &[Save::In(x), Save::Out(0)], |s, g, _| {
        Ok(vec![Some(evenly_distribute(&s.get(0)?, &s.get(1)?, &g[0])?)])
    })?;
    Ok(out)
}

/// torch's `evenly_distribute_backward`: the gradient `g` of a whole-tensor `r` picked from
/// `x` (max, min, median) split over the elements equal to it (the NaN ones when `r` is NaN),
/// written into zeros (not multiplied by a mask).
pub(crate) fn evenly_distribute(x: &Tensor, r: &Tensor, g: &Tensor) -> Result<Tensor> {
    let mut mask = super::binary_raw(x, r, super::BinOp::Eq)?;
    if x.dtype().is_float() {
        let both_nan = super::binary_raw(&super::float_test(x, "isnan")?, &super::float_test(r, "isnan")?, super::BinOp::And)?;
        mask = super::binary_raw(&mask, &both_nan, super::BinOp::Or)?;
    }
    let count = super::sum(&super::cast_raw(&mask, g.dtype())?, None)?;
    let share = div(g, &count)?;
    super::where_(&mask, &share, &Tensor::wrapped_scalar(Scalar::Int(0)))
}

/// `aminmax(x, dim, keepdim)` (AminmaxBackward0, one node for both results): the minimum and
/// maximum over `dim` (all when None); each gradient is shared by the elements equal to its
/// extreme in their slice.
pub fn aminmax(x: &Tensor, dim: Option<i64>, keepdim: bool) -> Result<(Tensor, Tensor)> {
    ensure!(!x.dtype().is_complex(), NotImplemented, "\"aminmax_cpu\" not implemented for '{}'", x.dtype().scalar_name());
    let shape = x.shape();
    let dims: Vec<usize> = match dim {
        Some(d) => {
            let d = wrap_dim(d, shape.len())?;
            ensure!(shape.is_empty() || shape[d] > 0, Index, "aminmax(): Expected reduction dim {} to have non-zero size.", d);
            if shape.is_empty() { vec![] } else { vec![d] }
        }
        None => {
            ensure!(x.numel() > 0, Runtime, "aminmax(): cannot compute aminmax over an empty dimension as the operation has no identity.");
            (0..shape.len()).collect()
        }
    };
    let kd = keepdim && dim.is_some();
    let (lo, hi) = {
        let _g = crate::autograd::raw_mode();
        let xd = x.detach();
        (reduce_raw(&xd, &dims, kd, ReduceOp::Min, x.dtype(), Scalar::Int(0))?, reduce_raw(&xd, &dims, kd, ReduceOp::Max, x.dtype(), Scalar::Int(0))?)
    };
    let (xs, dv) = (shape.clone(), dims.clone());
    record("AminmaxBackward0", &[x], &[&lo, &hi], &[Save::In(x), Save::Out(0), Save::Out(1)], move |s, g, _| {
        let xt = s.get(0)?;
        let part = |r: &Tensor, g: &Tensor| -> Result<Tensor> {
            let re = expand_back(r, &xs, &dv, kd)?;
            let mask = super::binary_raw(&xt, &re, super::BinOp::Eq)?;
            let m = super::cast_raw(&mask, g.dtype())?;
            let count = expand_back(&sum_dims(&m, &dv, kd, None)?, &xs, &dv, kd)?;
            mul(&div(&expand_back(g, &xs, &dv, kd)?, &count)?, &m)
        };
        Ok(vec![Some(super::add(&part(&s.get(1)?, &g[0])?, &part(&s.get(2)?, &g[1])?)?)])
    })?;
    Ok((lo, hi))
}

/// `logcumsumexp(x, dim)` (LogcumsumexpBackward0): `log(cumsum(exp(x)))` along `dim`,
/// computed as running `logaddexp` in f64 (no overflow).
pub fn logcumsumexp(x: &Tensor, dim: i64) -> Result<Tensor> {
    let d = wrap_dim(dim, x.dim())?;
    ensure!(x.dtype().is_float(), NotImplemented, "\"logcumsumexp_out_cpu\" not implemented for '{}'", x.dtype().scalar_name());
    let shape = x.shape();
    let out = if shape.is_empty() { x.detach_copy()? } else {
        let nd = shape.len() as i64;
        let moved = super::contiguous(&super::transpose(&x.detach(), d as i64, nd - 1)?)?;
        let ms = moved.shape();
        let n = *ms.last().expect("dim > 0");
        let mut v = moved.to_f64_vec()?;
        if n > 0 {
            for row in v.chunks_mut(n) {
                let mut acc = f64::NEG_INFINITY;
                for a in row.iter_mut() {
                    let (hi, lo) = if acc >= *a { (acc, *a) } else { (*a, acc) };
                    acc = if hi == f64::NEG_INFINITY || hi.is_nan() || lo.is_nan() { hi + lo } else { hi + (lo - hi).exp().ln_1p() };
                    if a.is_nan() { acc = f64::NAN; }
                    *a = acc;
                }
            }
        }
        let t = crate::tensor::from_f64s(&v, &ms, x.dtype())?;
        let t = if x.device().is_cpu() { t } else { backend::to_device(&t, x.device())? };
        super::contiguous(&super::transpose(&t, d as i64, nd - 1)?)?
    };
    record("LogcumsumexpBackward0", &[x], &[&out], &[Save::In(x), Save::Out(0)], move |s, g, _| {
        if shape.is_empty() {
            return Ok(vec![Some(g[0].clone())]);
        }
        // torch's logcumsumexp_backward: the positive and negative parts of g in log space
        // through a reversed logcumsumexp (no overflow)
        let (xt, r) = (s.get(0)?, s.get(1)?);
        let di = d as i64;
        let rev = |t: &Tensor| -> Result<Tensor> { super::flip(&logcumsumexp(&super::flip(t, &[di])?, di)?, &[di]) };
        let lowest = Tensor::wrapped_scalar(Scalar::Float(if g[0].dtype() == DType::Float64 { f64::MIN } else { f32::MIN as f64 }));
        let zero = || Tensor::wrapped_scalar(Scalar::Int(0));
        let log_abs = super::log(&super::abs(&g[0])?)?;
        let pos = super::where_(&super::binary_raw(&g[0], &zero(), super::BinOp::Gt)?, &log_abs, &lowest)?;
        let neg = super::where_(&super::binary_raw(&g[0], &zero(), super::BinOp::Lt)?, &log_abs, &lowest)?;
        let out_pos = super::exp(&super::add(&rev(&super::sub(&pos, &r)?)?, &xt)?)?;
        let out_neg = super::exp(&super::add(&rev(&super::sub(&neg, &r)?)?, &xt)?)?;
        Ok(vec![Some(super::sub(&out_pos, &out_neg)?)])
    })?;
    Ok(out)
}

/// max/min along `dim`: (values, indices); the gradient goes to the first extreme.
pub fn max_dim(x: &Tensor, dim: i64, keepdim: bool, is_max: bool) -> Result<(Tensor, Tensor)> {
    max_dim_as(x, dim, keepdim, is_max, if is_max { "max" } else { "min" })
}

/// `max_dim` that names `what` (max, min, argmax, argmin) in its errors.
fn max_dim_as(x: &Tensor, dim: i64, keepdim: bool, is_max: bool, what: &str) -> Result<(Tensor, Tensor)> {
    ensure!(!x.dtype().is_complex(), Runtime, "{}(): does not support complex input", what);
    let shape = x.shape();
    let d = wrap_dim(dim, shape.len())?;
    let dims = if shape.is_empty() { vec![] } else { vec![d] };
    let (c, _, row) = rows_last(x, &dims)?;
    if row == 0 {
        bail!(Index, "{}(): Expected reduction dim {} to have non-zero size.", what, d);
    }
    let oshape = out_shape(&shape, &dims, keepdim);
    let dt = x.dtype();
    let (values, indices) = backend::arg_reduce(&c, row, is_max, &oshape)?;
    let name = if is_max { "MaxBackward0" } else { "MinBackward0" };
    if dt.is_float() {
        let ind = indices.clone();
        let sizes = ints(&shape);
        record(name, &[x], &[&values], &[Save::In(&indices)], move |_, g, _| {
            Ok(vec![Some(super::index::scatter_along(&g[0], &ind, &shape, d)?)])
        })?;
        crate::autograd::Node::annotate(&values, &[("dim", SavedValue::Int64(dim)), ("keepdim", SavedValue::Bool(keepdim)), ("self_sym_sizes", sizes)], &[(0, "indices")]);
    }
    Ok((values, indices))
}


/// `amax`/`amin` over dims as the user gave them (negative allowed; all when empty), with
/// torch's errors: an empty input needs a dim, a reduced dim must not be empty (named as given).
pub fn amax_dims(x: &Tensor, dims: &[i64], keepdim: bool, is_max: bool) -> Result<Tensor> {
    let what = if is_max { "amax" } else { "amin" };
    let shape = x.shape();
    if dims.is_empty() && x.numel() == 0 {
        bail!(Runtime, "{}(): Expected reduction dim to be specified for input.numel() == 0. Specify the reduction dim with the 'dim' argument.", what);
    }
    let wrapped = super::reduce_dims(dims, x.dim())?;
    for &raw in dims {
        let d = wrap_dim(raw, shape.len().max(1))?;
        if !shape.is_empty() && shape[d] == 0 {
            bail!(Index, "{}(): Expected reduction dim {} to have non-zero size.", what, raw);
        }
    }
    amax(x, &wrapped, keepdim, is_max)
}

/// `amax`/`amin` over `dims` (all when empty) (AmaxBackward0/AminBackward0): the gradient is
/// split evenly over the extremes of each reduced slice.
pub fn amax(x: &Tensor, dims: &[usize], keepdim: bool, is_max: bool) -> Result<Tensor> {
    if x.dtype().is_complex() {
        return Err(super::complex::unsupported(if is_max { "max_values_cpu" } else { "min_values_cpu" }, x.dtype()));
    }
    let shape = x.shape();
    let what = if is_max { "amax" } else { "amin" };
    let dv: Vec<usize> = if dims.is_empty() { (0..shape.len()).collect() } else { dims.to_vec() };
    for &d in &dv {
        if !shape.is_empty() && shape[d] == 0 {
            bail!(Index, "{}(): Expected reduction dim {} to have non-zero size.", what, d);
        }
    }
    if shape.is_empty() && x.numel() == 0 {
        bail!(Index, "{}(): Expected reduction dim 0 to have non-zero size.", what);
    }
    let out = reduce_raw(x, &dv, keepdim, if is_max { ReduceOp::Max } else { ReduceOp::Min }, x.dtype(), Scalar::Int(0))?;
    if x.dtype().is_float() {
        let name = if is_max { "AmaxBackward0" } else { "AminBackward0" };
        record(name, &[x], &[&out], &[Save::In(x), Save::Out(0)], move |s, g, _| {
            let (xt, r) = (s.get(0)?, s.get(1)?);
            let re = expand_back(&r, &shape, &dv, keepdim)?;
            let mask = super::cast_raw(&super::binary_raw(&xt, &re, super::BinOp::Eq)?, g[0].dtype())?;
            let count = sum_raw(&mask, &dv, true, g[0].dtype())?;
            let ge = expand_back(&g[0], &shape, &dv, keepdim)?;
            // as torch's scale_grad_by_count: (grad / count) * mask
            Ok(vec![Some(mul(&div(&ge, &count)?, &mask)?)])
        })?;
        crate::autograd::Node::annotate(&out, &[("dim", ints(dims)), ("keepdim", SavedValue::Bool(keepdim))], &[]);
    }
    Ok(out)
}

/// argmax/argmin over everything (dim None) or along a dim.
pub fn argmax(x: &Tensor, dim: Option<i64>, keepdim: bool, is_max: bool) -> Result<Tensor> {
    let what = if is_max { "argmax" } else { "argmin" };
    if x.dtype() == DType::Bool {
        bail!(Runtime, "{}(): does not support bool input", what);
    }
    ensure!(!x.dtype().is_complex(), Runtime, "{}(): does not support complex input", what);
    match dim {
        Some(d) => Ok(max_dim_as(&x.detach(), d, keepdim, is_max, what)?.1),
        None => {
            if x.numel() == 0 {
                bail!(Index, "{}(): Expected reduction dim to be specified for input.numel() == 0.", what);
            }
            let flat = reshape(&x.detach(), &[-1])?;
            let (_, i) = max_dim_as(&flat, 0, false, is_max, what)?;
            Ok(i)
        }
    }
}

/// Vector p-norm over `dims` (all when empty). p=2 is LinalgVectorNormBackward0.
pub fn norm(x: &Tensor, p: f64, dims: &[usize], keepdim: bool) -> Result<Tensor> {
    let out = norm_impl(x, p, dims, keepdim)?;
    if out.grad_fn().is_some_and(|n| n.name == "LinalgVectorNormBackward0") {
        let ord = if p.fract() == 0.0 && p.is_finite() { SavedValue::Int(p as i64) } else { SavedValue::Float(p) };
        let dim = if dims.is_empty() { SavedValue::None } else { ints(dims) };
        crate::autograd::Node::annotate(&out, &[("dim", dim), ("keepdim", SavedValue::Bool(keepdim)), ("ord", ord)], &[]);
    }
    Ok(out)
}

fn norm_impl(x: &Tensor, p: f64, dims: &[usize], keepdim: bool) -> Result<Tensor> {
    check_norm_dtype(x)?;
    if x.dtype().is_complex() {
        // the norm of the moduli (AbsBackward0 then carries the gradient to the pairs)
        return norm_impl(&super::abs(x)?, p, dims, keepdim);
    }
    let shape = x.shape();
    let dv: Vec<usize> = if dims.is_empty() { (0..shape.len()).collect() } else { dims.to_vec() };
    if p == 2.0 {
        let trailing = dv.iter().enumerate().all(|(i, &d)| d == shape.len() - dv.len() + i) || dv.is_empty();
        let row: usize = dv.iter().map(|&d| shape[d]).product();
        let out = if x.device().is_cpu() && matches!(x.dtype(), DType::Float32 | DType::Float64) && x.is_contiguous() && trailing && row > 0 {
            // ATen's kernel for a contiguous last dim: one pass, its order of fused steps
            Some(backend::reduce(&x.detach(), row, ReduceOp::NormTwo, x.dtype(), &out_shape(&shape, &dv, keepdim))?)
        } else {
            None
        };
        // float16 squares and sums in float32, as torch (half squares overflow at 256)
        let src = if matches!(x.dtype(), DType::Float16 | DType::BFloat16) { super::cast_raw(x, DType::Float32)? } else { x.detach() };
        let out = match out {
            Some(out) => out,
            None => {
                let sq = super::binary_raw(&src, &src, super::BinOp::Mul)?;
                let out = super::unary::sqrt(&sum_raw(&sq, &dv, keepdim, src.dtype())?)?;
                if out.dtype() != x.dtype() { super::cast_raw(&out, x.dtype())? } else { out.detach() }
            }
        };
        // d/dx ||x|| = x / ||x|| (0 where the norm is 0)
        record("LinalgVectorNormBackward0", &[x], &[&out], &[Save::In(x), Save::Out(0)], move |s, g, _| {
            let (xt, n) = (s.get(0)?, s.get(1)?);
            let ne = expand_back(&n, &shape, &dv, keepdim)?;
            let ge = expand_back(&g[0], &shape, &dv, keepdim)?;
            let zero = super::binary_raw(&ne, &Tensor::wrapped_scalar(Scalar::Int(0)), super::BinOp::Eq)?;
            let safe = super::where_(&zero, &crate::tensor::ones(&[], ne.dtype())?, &ne)?;
            let r = div(&mul(&ge, &xt)?, &safe)?;
            Ok(vec![Some(super::where_(&zero, &crate::tensor::zeros(&[], r.dtype())?, &r)?)])
        })?;
        return Ok(out);
    }
    let out = {
        let _g = crate::autograd::raw_mode();
        let a = super::abs(&x.detach())?;
        if p.is_infinite() {
            if dims.is_empty() && !keepdim {
                max_all(&a, p > 0.0)?
            } else {
                let mut cur = a;
                for &d in dv.iter().rev() { cur = max_dim(&cur, d as i64, keepdim, p > 0.0)?.0; }
                cur
            }
        } else if p == 1.0 {
            sum_dims(&a, &dv, keepdim, None)?
        } else if p == 0.0 {
            let nz = super::cast_raw(&super::binary_raw(x, &Tensor::wrapped_scalar(Scalar::Int(0)), super::BinOp::Ne)?, x.dtype())?;
            sum_dims(&nz, &dv, keepdim, None)?
        } else {
            let s = sum_dims(&super::pow_scalar(&a, Scalar::Float(p))?, &dv, keepdim, None)?;
            super::pow_scalar(&s, Scalar::Float(1.0 / p))?
        }
    };
    // derivatives as torch's linalg_vector_norm_backward (g, norm expanded back to x's shape)
    record("LinalgVectorNormBackward0", &[x], &[&out], &[Save::In(x), Save::Out(0)], move |s, g, _| {
        let (xt, n) = (s.get(0)?, s.get(1)?);
        let ge = expand_back(&g[0], &shape, &dv, keepdim)?;
        let ne = expand_back(&n, &shape, &dv, keepdim)?;
        let sc = |v: f64| Tensor::wrapped_scalar(Scalar::Float(v));
        let zero_where = |cond: &Tensor, v: &Tensor| super::where_(cond, &sc(0.0), v);
        let r = if p == 0.0 {
            // the count of non-zeros has no gradient: torch's backward returns an undefined
            // tensor (`autograd.grad(..., allow_unused=True)` gives None)
            return Ok(vec![None]);
        } else if p == 1.0 {
            mul(&super::sign(&xt)?, &ge)?
        } else if p.is_infinite() {
            // the gradient goes to the extremes (NaN counts as one), split evenly between ties
            let xa = super::abs(&xt)?;
            let hit = super::compare(&super::compare(&xa, &ne, super::BinOp::Eq)?, &super::float_test(&xa, "isnan")?, super::BinOp::Or)?;
            let mask = super::cast_raw(&hit, xt.dtype())?;
            let count = expand_back(&sum_dims(&mask, &dv, true, None)?, &shape, &dv, true)?;
            mul(&super::sign(&xt)?, &mul(&div(&ge, &count)?, &mask)?)?
        } else if p < 1.0 {
            let xs = mul(&super::sign(&xt)?, &super::pow_scalar(&super::abs(&xt)?, Scalar::Float(p - 1.0))?)?;
            let xz = super::compare(&xt, &sc(0.0), super::BinOp::Eq)?;
            mul(&mul(&zero_where(&xz, &xs)?, &ge)?, &super::pow_scalar(&ne, Scalar::Float(1.0 - p))?)?
        } else {
            let xs = if p < 2.0 {
                mul(&super::sign(&xt)?, &super::pow_scalar(&super::abs(&xt)?, Scalar::Float(p - 1.0))?)?
            } else {
                mul(&xt, &super::pow_scalar(&super::abs(&xt)?, Scalar::Float(p - 2.0))?)?
            };
            let scale = div(&ge, &super::pow_scalar(&ne, Scalar::Float(p - 1.0))?)?;
            let nz = super::compare(&ne, &sc(0.0), super::BinOp::Eq)?;
            mul(&xs, &zero_where(&nz, &scale)?)?
        };
        Ok(vec![Some(r)])
    })?;
    Ok(out)
}

/// all/any over everything or along a dim (bool result).
pub fn all_any(x: &Tensor, dim: Option<i64>, keepdim: bool, is_all: bool) -> Result<Tensor> {
    let shape = x.shape();
    let dims = match dim { Some(d) => vec![wrap_dim(d, shape.len())?].into_iter().filter(|_| !shape.is_empty()).collect(), None => (0..shape.len()).collect::<Vec<_>>() };
    let b = if x.dtype() == DType::Bool { x.clone() } else { super::binary_raw(x, &Tensor::wrapped_scalar(Scalar::Int(0)), super::BinOp::Ne)? };
    let op = if is_all { ReduceOp::All } else { ReduceOp::Any };
    reduce_raw(&b, &dims, keepdim && dim.is_some(), op, DType::Bool, Scalar::Bool(is_all))
}

/// Variance over `dims` (all when None) with Bessel's `correction` (VarBackward0).
pub fn var(x: &Tensor, dims: Option<&[usize]>, correction: f64, keepdim: bool) -> Result<Tensor> {
    var_std(x, dims, correction, keepdim, false)
}

/// Standard deviation (StdBackward0).
pub fn std(x: &Tensor, dims: Option<&[usize]>, correction: f64, keepdim: bool) -> Result<Tensor> {
    var_std(x, dims, correction, keepdim, true)
}

/// std/var take floating tensors only (checked before anything else, as torch does).
pub fn check_var_dtype(x: &Tensor) -> Result<()> {
    if !x.dtype().is_float() && !x.dtype().is_complex() {
        bail!(Runtime, "std and var only support floating point and complex dtypes");
    }
    Ok(())
}

/// Vector norms take floating tensors only (checked before the dims).
pub fn check_norm_dtype(x: &Tensor) -> Result<()> {
    if !x.dtype().is_float() && !x.dtype().is_complex() {
        bail!(Runtime, "linalg.vector_norm: Expected a floating point or complex tensor as input. Got {}", x.dtype().scalar_name());
    }
    Ok(())
}

fn var_std(x: &Tensor, dims: Option<&[usize]>, correction: f64, keepdim: bool, take_sqrt: bool) -> Result<Tensor> {
    var_std_mean(x, dims, correction, keepdim, take_sqrt, false).map(|(v, _)| v)
}

/// `var_mean` / `std_mean`: the variance (or std) and the mean from one node
/// (VarMeanBackward0 / StdMeanBackward0: the two outputs' gradients add up).
pub fn var_or_std_mean(x: &Tensor, dims: Option<&[usize]>, correction: f64, keepdim: bool, take_sqrt: bool) -> Result<(Tensor, Tensor)> {
    let (v, m) = var_std_mean(x, dims, correction, keepdim, take_sqrt, true)?;
    Ok((v, m.expect("requested")))
}

fn var_std_mean(x: &Tensor, dims: Option<&[usize]>, correction: f64, keepdim: bool, take_sqrt: bool, with_mean: bool) -> Result<(Tensor, Option<Tensor>)> {
    check_var_dtype(x)?;
    let _ = take_sqrt;
    let shape = x.shape();
    let dv: Vec<usize> = dims.map(|d| d.to_vec()).unwrap_or_else(|| (0..shape.len()).collect());
    let n: usize = dv.iter().map(|&i| shape[i]).product();
    let (out, centered, mean_out) = {
        let _g = crate::autograd::raw_mode();
        // reduced (half) precision accumulates in float64, as torch's Welford accumulates in
        // a wider type: squares of 1e20 overflow float32 but their variance need not
        // (complex: in complex128, the squared moduli |x - mean|², a real result)
        let wide = if x.dtype().is_complex() { DType::Complex128 } else { DType::Float64 };
        let src = if x.dtype() == wide { x.detach() } else { super::cast_raw(x, wide)? };
        let m = mean(&src, Some(&dv), true, None)?;
        let c = super::sub(&src, &m)?;
        let sq = if wide.is_complex() { super::complex::real(&mul(&c, &super::complex::conj(&c)?)?)? } else { mul(&c, &c)? };
        let ss = sum_dims(&sq, &dv, keepdim, None)?;
        let v = div(&ss, &Tensor::wrapped_scalar(Scalar::Float((n as f64 - correction).max(0.0))))?;
        let r = if take_sqrt { super::sqrt(&v)? } else { v };
        let od = x.dtype().to_real();
        let mo = if with_mean {
            let mk = if keepdim { m.clone() } else { super::reshape(&m, &reduced_shape(&shape, &dv).iter().map(|&d| d as i64).collect::<Vec<_>>())? };
            Some(if mk.dtype() == x.dtype() { mk } else { super::cast_raw(&mk, x.dtype())? })
        } else {
            None
        };
        (if r.dtype() == od { r } else { super::cast_raw(&r, od)? }, c, mo)
    };
    let name = match (take_sqrt, with_mean) {
        (true, false) => "StdBackward0",
        (false, false) => "VarBackward0",
        (true, true) => "StdMeanBackward0",
        (false, true) => "VarMeanBackward0",
    };
    let mut outs = vec![&out];
    if let Some(m) = &mean_out {
        outs.push(m);
    }
    let all = dims.is_none() || x.dim() == 0;
    let dof = n as f64 - correction;
    // torch's var_backward: 2 (x - mean) / (N - c) * g; over all elements with N - c <= 0 it
    // is g * (x == mean ? NaN : inf). std_backward is var_backward of g / (2 std), 0 where
    // the std is 0.
    // std keeps its result (its backward divides by it); var keeps only the input
    let save: &[Save<'_>] = if take_sqrt { &[Save::In(x), Save::Out(0)] } else { &[Save::In(x)] };
    record(name, &[x], &outs, save, move |s, g, _| {
        let xt = s.get(0)?;
        let m = mean(&xt, Some(&dv), true, None)?;
        let ge = expand_back(&g[0], &shape, &dv, keepdim)?;
        let gv = if take_sqrt {
            let sd = expand_back(&s.get(1)?, &shape, &dv, keepdim)?;
            let h = div(&ge, &mul(&sd, &Tensor::wrapped_scalar(Scalar::Float(2.0)))?)?;
            let z = super::binary_raw(&sd, &Tensor::wrapped_scalar(Scalar::Int(0)), super::BinOp::Eq)?;
            super::where_(&z, &Tensor::wrapped_scalar(Scalar::Int(0)), &h)?
        } else {
            ge
        };
        let r = if all && dof <= 0.0 {
            let at_mean = super::binary_raw(&xt, &m, super::BinOp::Eq)?;
            let f = super::where_(&at_mean, &Tensor::wrapped_scalar(Scalar::Float(f64::NAN)), &Tensor::wrapped_scalar(Scalar::Float(f64::INFINITY)))?;
            mul(&gv, &f)?
        } else {
            mul(&mul(&gv, &Tensor::wrapped_scalar(Scalar::Float(2.0 / dof)))?, &super::sub(&xt, &m)?)?
        };
        // the mean's gradient: g / N spread over the reduced dims
        let r = if with_mean {
            let gm = expand_back(&g[1], &shape, &dv, keepdim)?;
            add(&r, &div(&gm, &Tensor::wrapped_scalar(Scalar::Int(n as i64)))?)?
        } else {
            r
        };
        Ok(vec![Some(r)])
    })?;
    drop(centered);
    if out.grad_fn().is_some() {
        // over all elements with the default correction PyTorch passes None
        let corr = if dims.is_none() && correction == 1.0 { SavedValue::None }
            else if correction.fract() == 0.0 { SavedValue::Int(correction as i64) } else { SavedValue::Float(correction) };
        let dim = dims.map_or(SavedValue::None, ints);
        crate::autograd::Node::annotate(&out, &[("correction", corr), ("dim", dim), ("keepdim", SavedValue::Bool(keepdim))], &[]);
    }
    Ok((out, mean_out))
}

/// `logsumexp(x, dims, keepdim)` (LogsumexpBackward0): stable, gradient `g * softmax`.
pub fn logsumexp(x: &Tensor, dims: &[usize], keepdim: bool) -> Result<Tensor> {
    let x = &super::float_input(x)?;
    let shape = x.shape();
    let dv = dims.to_vec();
    let row: usize = dv.iter().map(|&d| shape[d]).product();
    let out = if x.device().is_cpu() && matches!(x.dtype(), DType::Float32 | DType::Float64) && row > 0 {
        // one pass per row (the CPU kernel); other backends compose it from their kernels
        let (c, _, row) = rows_last(&x.detach(), &dv)?;
        backend::reduce(&c, row, ReduceOp::LogSumExp, x.dtype(), &out_shape(&shape, &dv, keepdim))?
    } else {
        let _g = crate::autograd::raw_mode();
        let mut m = x.detach();
        for &d in dv.iter().rev() {
            // an empty reduced dim: its sum of exponentials is 0, so the shift is 0 (-> -inf)
            m = if shape.get(d) == Some(&0) {
                let mut ks: Vec<usize> = m.shape().to_vec();
                ks[d] = 1;
                crate::tensor::zeros_on(&ks, m.dtype(), m.device())?
            } else {
                max_dim(&m, d as i64, true, true)?.0
            };
        }
        let m = super::where_(&super::float_test(&m, "isinf")?, &crate::tensor::zeros(&[], m.dtype())?, &m)?;
        let s = sum_dims(&super::exp(&super::sub(x, &m)?)?, &dv, true, None)?;
        let r = super::add(&super::log(&s)?, &m)?;
        if keepdim { r } else { sum_dims(&r, &dv, false, None)? }
    };
    record("LogsumexpBackward0", &[x], &[&out], &[Save::In(x), Save::Out(0)], move |s, g, _| {
        let (xt, r) = (s.get(0)?, s.get(1)?);
        let re = expand_back(&r, &shape, &dv, keepdim)?;
        let ge = expand_back(&g[0], &shape, &dv, keepdim)?;
        Ok(vec![Some(mul(&ge, &super::exp(&super::sub(&xt, &re)?)?)?)])
    })?;
    crate::autograd::Node::annotate(&out, &[("dim", ints(dims)), ("keepdim", SavedValue::Bool(keepdim))], &[]);
    Ok(out)
}

/// `cumsum(x, dim)` (CumsumBackward0: the reversed cumulative sum of the gradient).
pub fn cumsum(x: &Tensor, dim: i64) -> Result<Tensor> {
    let shape = x.shape();
    let d = wrap_dim(dim, shape.len())?;
    let od = if x.dtype().is_float() || x.dtype().is_complex() { x.dtype() } else { DType::Int64 };
    let dims = if shape.is_empty() { vec![] } else { vec![d] };
    let out = if x.dtype().is_complex() {
        // both parts' running sums: the real view's (its pair dim is last)
        super::complex::reduce_raw(x, |r| if shape.is_empty() { r.detach_copy() } else { cumsum(r, d as i64) })?
    } else {
        cumsum_raw(x, &shape, d, od, &dims)?
    };
    let scalar = shape.is_empty();
    record_jvp("CumsumBackward0", &[x], &[&out], &[], move |_, g, _| {
        if shape.is_empty() {
            return Ok(vec![Some(g[0].clone())]);
        }
        Ok(vec![Some(super::flip(&cumsum(&super::flip(&g[0], &[d as i64])?, d as i64)?, &[d as i64])?)])
    },
        // JVP: linear, the running sums of the tangent
        |t| Ok(vec![Some(if scalar { t.one().clone() } else { cumsum(t.one(), d as i64)? })]))?;
    crate::autograd::Node::annotate(&out, &[("dim", SavedValue::Int64(dim))], &[]);
    Ok(out)
}

/// `cumsum` of a real `x` without history.
fn cumsum_raw(x: &Tensor, shape: &[usize], d: usize, od: DType, dims: &[usize]) -> Result<Tensor> {
    let (c, kept, row) = rows_last(x, dims)?;
    let c = if c.dtype() == od { c } else { super::cast_raw(&c, od)? };
    let t = backend::scan(&c, row, ScanOp::Cumsum)?;
    let mut pshape = kept.clone();
    if !shape.is_empty() {
        pshape.push(shape[d]);
    }
    let t = super::as_strided_view(&t, &crate::shape::Layout::contiguous(&pshape));
    let out = if shape.is_empty() { t } else {
        let nd = shape.len();
        let mut inv: Vec<i64> = Vec::with_capacity(nd);
        for i in 0..nd {
            inv.push(if i < d { i as i64 } else if i == d { (nd - 1) as i64 } else { (i - 1) as i64 });
        }
        super::contiguous(&permute(&t, &inv)?)?.detach()
    };
    Ok(out)
}

/// A row-wise scan of `x` along dim `d` (moved last for the kernel, then back); integer and
/// bool inputs scan in int64.
fn scan_along(x: &Tensor, d: usize, op: ScanOp) -> Result<Tensor> {
    let shape = x.shape();
    let od = if x.dtype().is_float() || x.dtype().is_complex() { x.dtype() } else { DType::Int64 };
    let dims = if shape.is_empty() { vec![] } else { vec![d] };
    let (c, kept, row) = rows_last(x, &dims)?;
    let c = if c.dtype() == od { c } else { super::cast_raw(&c, od)? };
    let t = scan_rows(&c, row, op)?;
    let mut pshape = kept.clone();
    if !shape.is_empty() {
        pshape.push(shape[d]);
    }
    let t = super::as_strided_view(&t, &crate::shape::Layout::contiguous(&pshape));
    if shape.is_empty() {
        return Ok(t.detach());
    }
    Ok(super::contiguous(&permute(&t, &last_to(shape.len(), d))?)?.detach())
}

/// The backend's row scan; complex rows through `complex::scan_rows` (compositions of real
/// kernels).
fn scan_rows(c: &Tensor, row: usize, op: ScanOp) -> Result<Tensor> {
    if c.dtype().is_complex() {
        return super::complex::scan_rows(c, row, op);
    }
    backend::scan(c, row, op)
}

/// The permutation that moves the last of `nd` dims back to position `d`.
fn last_to(nd: usize, d: usize) -> Vec<i64> {
    (0..nd).map(|i| if i < d { i as i64 } else if i == d { (nd - 1) as i64 } else { (i - 1) as i64 }).collect()
}

/// `cumprod(x, dim)` (CumprodBackward0): the running product along `dim`; integer and bool
/// inputs give int64.
pub fn cumprod(x: &Tensor, dim: i64) -> Result<Tensor> {
    let d = wrap_dim(dim, x.dim())?;
    let out = scan_along(x, d, ScanOp::Cumprod)?;
    // d/dx_k sum_j g_j y_j = sum_{j>=k} g_j prod_{i<=j, i!=k} x_i (see cumprod_backward)
    record_jvp("CumprodBackward0", &[x], &[&out], &[Save::In(x), Save::Out(0)], move |s, g, _| {
        Ok(vec![Some(cumprod_backward(&g[0], &s.get(0)?, d, &s.get(1)?)?)])
    },
        // JVP: torch's cumprod_jvp, cumsum(t / x) y, with the zeros of x handled apart
        |t| Ok(vec![Some(cumprod_jvp(t.one(), x, &out, d)?)]))?;
    crate::autograd::Node::annotate(&out, &[("dim", SavedValue::Int(d as i64))], &[]);
    Ok(out)
}

fn zero_mask(x: &Tensor) -> Result<Tensor> {
    super::compare(x, &Tensor::wrapped_scalar(Scalar::Int(0)), super::BinOp::Eq)
}

/// torch's `cumprod_jvp`: `cumsum(t / x) * y` where x has no zero; from the first zero of a
/// row on, the cumulative product of x with that zero replaced by its tangent.
fn cumprod_jvp(t: &Tensor, x: &Tensor, y: &Tensor, d: usize) -> Result<Tensor> {
    let di = d as i64;
    let gen = mul(&cumsum(&div(t, x)?, di)?, y)?;
    let zeros = zero_mask(x)?;
    if x.dim() == 0 {
        return super::where_(&zeros, t, &gen);
    }
    let first = super::logical(&zeros, &super::compare(&cumsum(&zeros, di)?, &Tensor::wrapped_scalar(Scalar::Int(1)), super::BinOp::Eq)?, super::BinOp::And)?;
    let new_grad = cumprod(&super::where_(&first, t, x)?, di)?;
    let after = super::compare(&cumsum(&first, di)?, &Tensor::wrapped_scalar(Scalar::Int(0)), super::BinOp::Ne)?;
    super::where_(&after, &new_grad, &gen)
}

/// `flip(cumsum(flip(w)))` along `d`: the sums from each position to the end.
fn reversed_cumsum(w: &Tensor, d: usize) -> Result<Tensor> {
    let di = [d as i64];
    super::flip(&cumsum(&super::flip(w, &di)?, d as i64)?, &di)
}

/// torch's `cumprod_backward`: `reversed_cumsum(y g) / x` when x has no zero; with zeros, the
/// O(n) products-of-the-others recurrence (not differentiable), or under grad mode (a graph
/// being built for double backward) the O(n²) formula of differentiable ops.
fn cumprod_backward(g: &Tensor, x: &Tensor, d: usize, y: &Tensor) -> Result<Tensor> {
    if x.numel() <= 1 || x.dim() == 0 || x.shape()[d] == 1 {
        return Ok(g.clone());
    }
    let w = mul(y, g)?;
    let has_zero = all_any(&zero_mask(x)?, None, false, false)?.item()?.as_f64() != 0.0;
    if !has_zero {
        return div(&reversed_cumsum(&w, d)?, x);
    }
    if !crate::autograd::is_grad_enabled() && !x.dtype().is_complex() {
        return cumprod_backward_zeros(g, x, d);
    }
    // grad_k = sum_{j>=k} g_j prod_{i<=j, i!=k} x_i, one k at a time
    let n = x.shape()[d];
    let di = d as i64;
    let mut ones_shape = x.shape().to_vec();
    ones_shape[d] = 1;
    let ones = crate::tensor::full_on(&ones_shape, Scalar::Int(1), g.dtype(), g.device())?;
    let mut parts = Vec::with_capacity(n);
    for k in 0..n {
        let k = k as i64;
        let omitted = if k == 0 {
            super::cat(&[ones.clone(), cumprod(&super::slice(x, di, Some(1), None, 1)?, di)?], di)?
        } else {
            let until = prod(&super::slice(x, di, Some(0), Some(k), 1)?, Some(d), true)?;
            if k == n as i64 - 1 {
                until
            } else {
                let from = cumprod(&super::slice(x, di, Some(k + 1), None, 1)?, di)?;
                super::cat(&[until.clone(), mul(&until, &from)?], di)?
            }
        };
        parts.push(sum_dims(&mul(&super::slice(g, di, Some(k), None, 1)?, &omitted)?, &[d], false, None)?);
    }
    super::stack(&parts, di)
}

/// The gradient of cumprod with zeros in `x`, row by row on the host:
/// `grad_k = P_{k-1} S_k` with `P` the prefix products and `S_k = g_k + x_{k+1} S_{k+1}`.
fn cumprod_backward_zeros(g: &Tensor, x: &Tensor, d: usize) -> Result<Tensor> {
    let shape = x.shape();
    let (xc, kept, n) = rows_last(x, &[d])?;
    let (gc, _, _) = rows_last(g, &[d])?;
    let (xv, gv) = (xc.to_f64_vec()?, gc.to_f64_vec()?);
    let mut out = vec![0f64; xv.len()];
    for ((o, xr), gr) in out.chunks_mut(n).zip(xv.chunks(n)).zip(gv.chunks(n)) {
        let mut s = 0.0;
        for k in (0..n).rev() {
            s = if k + 1 < n { gr[k] + xr[k + 1] * s } else { gr[k] };
            o[k] = s;
        }
        let mut p = 1.0;
        for k in 0..n {
            o[k] *= p;
            p *= xr[k];
        }
    }
    let mut pshape = kept;
    pshape.push(n);
    let t = crate::tensor::from_f64s(&out, &pshape, g.dtype())?;
    let t = if g.device().is_cpu() { t } else { backend::to_device(&t, g.device())? };
    super::contiguous(&permute(&t, &last_to(shape.len(), d))?)
}
