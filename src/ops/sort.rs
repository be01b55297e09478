//! Sorting and closeness: `sort`, `topk`, `isclose`, `allclose`.

use super::{gather_named, transpose};
use crate::backend::BinaryOp;
use crate::error::Result;
use crate::shape::wrap_dim;
use crate::tensor::{Scalar, Tensor};
use crate::{bail, ensure};

/// `sort(x, dim, descending)`: (values, int64 indices). NaN sorts as the largest value, as in
/// torch; equal elements keep their order (the sort is stable).
pub fn sort(x: &Tensor, dim: i64, descending: bool) -> Result<(Tensor, Tensor)> {
    sort_as(x, dim, descending, "SortBackward0")
}

/// `sort` recorded as `name` (torch's `sort.stable` overload records SortBackward1).
pub fn sort_as(x: &Tensor, dim: i64, descending: bool, name: &'static str) -> Result<(Tensor, Tensor)> {
    let d = wrap_dim(dim, x.dim())?;
    ensure!(!x.dtype().is_complex(), Runtime, " Sort does not support complex dtypes on CPU");
    if x.dim() == 0 {
        // one element: itself, at index 0
        let _ = descending;
        let i = crate::tensor::zeros_on(&[], crate::DType::Int64, x.device())?;
        return Ok((gather_named(x, 0, &i, name)?, i));
    }
    // results laid out like x (torch allocates them with x's strides)
    let it = crate::backend::relayout_like(&sort_indices(x, d, descending)?, &x.layout())?;
    let values = gather_named(x, d as i64, &it, name)?;
    Ok((values, it))
}

/// Indices that sort `x` along `d` (int64, no history).
fn sort_indices(x: &Tensor, d: usize, descending: bool) -> Result<Tensor> {
    let nd = x.dim().max(1) as i64;
    let moved = super::contiguous(&transpose(&x.detach(), d as i64, nd - 1)?)?;
    let row = moved.shape().last().copied().unwrap_or(1);
    let it = crate::backend::argsort_rows(&moved, row, descending)?;
    super::contiguous(&transpose(&it, d as i64, nd - 1)?)
}

/// `topk(x, k, dim, largest, sorted)`: the k largest (or smallest) along `dim`
/// (TopkBackward0), in the order torch's CPU kernel gives them, ties included.
pub fn topk(x: &Tensor, k: usize, dim: i64, largest: bool, sorted: bool) -> Result<(Tensor, Tensor)> {
    let d = wrap_dim(dim, x.dim())?;
    let size = if x.dim() == 0 { 1 } else { x.shape()[d] };
    ensure!(k <= size, Runtime, "selected index k out of range");
    ensure!(x.dtype() != crate::DType::Bool, Runtime, "topk does not support bool dtypes on CPU");
    ensure!(!x.dtype().is_complex(), Runtime, " topk does not support complex dtypes on CPU");
    if x.dim() == 0 {
        // matches torch: a 0-dim input gives 0-dim results (k = 0 included)
        let i = crate::tensor::zeros_on(&[], crate::DType::Int64, x.device())?;
        return Ok((gather_named(x, 0, &i, "TopkBackward0")?, i));
    }
    let nd = x.dim() as i64;
    let moved = super::contiguous(&transpose(&x.detach(), d as i64, nd - 1)?)?;
    let ms = moved.shape();
    let rows = crate::backend::topk_rows(&moved, size, k, largest, sorted)?;
    let mut kshape: Vec<i64> = ms.iter().map(|&s| s as i64).collect();
    *kshape.last_mut().expect("dim > 0") = k as i64;
    let i = super::reshape(&rows, &kshape)?;
    let i = super::contiguous(&transpose(&i, d as i64, nd - 1)?)?;
    Ok((gather_named(x, d as i64, &i, "TopkBackward0")?, i))
}

/// `isclose(a, b, rtol, atol, equal_nan)`: `|a - b| <= atol + rtol * |b|` elementwise.
pub fn isclose(a: &Tensor, b: &Tensor, rtol: f64, atol: f64, equal_nan: bool) -> Result<Tensor> {
    if a.dtype() != b.dtype() {
        bail!(Runtime, "{} did not match {}", a.dtype().scalar_name(), b.dtype().scalar_name());
    }
    let _g = crate::autograd::raw_mode();
    let (a, b) = (a.detach(), b.detach());
    let exact = super::compare(&a, &b, BinaryOp::Eq)?;
    if !a.dtype().is_float() {
        let diff = super::abs(&super::sub(&super::to_dtype(&a, crate::DType::Float64)?, &super::to_dtype(&b, crate::DType::Float64)?)?)?;
        let tol = super::add(&super::mul(&super::abs(&super::to_dtype(&b, crate::DType::Float64)?)?, &Tensor::wrapped_scalar(Scalar::Float(rtol)))?, &Tensor::wrapped_scalar(Scalar::Float(atol)))?;
        return super::compare(&super::compare(&diff, &tol, BinaryOp::Le)?, &exact, BinaryOp::Or);
    }
    let diff = super::abs(&super::sub(&a, &b)?)?;
    let tol = super::add(&super::mul(&super::abs(&b)?, &Tensor::wrapped_scalar(Scalar::Float(rtol)))?, &Tensor::wrapped_scalar(Scalar::Float(atol)))?;
    let close = super::compare(&super::compare(&diff, &tol, BinaryOp::Le)?, &exact, BinaryOp::Or)?;
    // infinities are close only to themselves (diff is NaN or inf there)
    let finite = super::compare(&super::float_test(&a, "isfinite")?, &super::float_test(&b, "isfinite")?, BinaryOp::And)?;
    let close = super::compare(&super::compare(&close, &finite, BinaryOp::And)?, &exact, BinaryOp::Or)?;
    if !equal_nan {
        return Ok(close);
    }
    let both_nan = super::compare(&super::float_test(&a, "isnan")?, &super::float_test(&b, "isnan")?, BinaryOp::And)?;
    super::compare(&close, &both_nan, BinaryOp::Or)
}

/// `allclose(a, b, rtol, atol, equal_nan)`: every element of `isclose`.
pub fn allclose(a: &Tensor, b: &Tensor, rtol: f64, atol: f64, equal_nan: bool) -> Result<bool> {
    let c = isclose(a, b, rtol, atol, equal_nan)?;
    Ok(super::all_any(&c, None, false, true)?.item()?.as_f64() != 0.0)
}

