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
    crate::autograd::Node::annotate(&values, &[("dim", crate::autograd::SavedValue::Int64(dim)),
        ("self_sym_sizes", crate::autograd::SavedValue::Ints(x.shape().iter().map(|&v| v as i64).collect()))], &[]);
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
    let values = gather_named(x, d as i64, &i, "TopkBackward0")?;
    crate::autograd::Node::annotate(&values, &[("dim", crate::autograd::SavedValue::Int64(dim)),
        ("self_sym_sizes", crate::autograd::SavedValue::Ints(x.shape().iter().map(|&v| v as i64).collect()))], &[]);
    Ok((values, i))
}

/// `isclose(a, b, rtol, atol, equal_nan)`: `|a - b| <= atol + rtol * |b|` elementwise.
pub fn isclose(a: &Tensor, b: &Tensor, rtol: f64, atol: f64, equal_nan: bool) -> Result<Tensor> {
    if a.dtype() != b.dtype() {
        bail!(Runtime, "{} did not match {}", a.dtype().scalar_name(), b.dtype().scalar_name());
    }
    let _g = crate::autograd::raw_mode();
    let (a, b) = (a.detach(), b.detach());
    let exact = super::compare(&a, &b, BinaryOp::Eq)?;
    // integers compare in float64; complex values by the modulus of the difference
    if !a.dtype().is_float() && !a.dtype().is_complex() {
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


// ---------------------------------------------------------------- value-selecting reductions

/// The value of `x` at `idx` (int64, `d` kept with size 1) along `d` (dropped unless
/// `keepdim`), recorded as `name`: (values, indices). Its gradient goes to the chosen element.
/// The node saves the indices and shows `dim` (as the caller gave it), `keepdim` and
/// `self_sym_sizes`, as derivatives.yaml's value-selecting reductions do.
fn select_along(x: &Tensor, d: usize, dim: i64, idx: &Tensor, keepdim: bool, name: &'static str) -> Result<(Tensor, Tensor)> {
    let shape = x.shape();
    let mut oshape: Vec<usize> = shape.to_vec();
    if !shape.is_empty() {
        if keepdim { oshape[d] = 1 } else { oshape.remove(d); }
    }
    let offsets = super::index::along_offsets(idx, &shape, d)?;
    let sizes: Vec<i64> = oshape.iter().map(|&s| s as i64).collect();
    let indices = super::contiguous(&super::reshape(&idx.detach(), &sizes)?)?;
    let values = super::index::take_keeping(x, &offsets, &oshape, name, &[&indices])?;
    crate::autograd::Node::annotate_with(&values, &[(0, "indices")], || vec![
        ("dim", crate::autograd::SavedValue::Int64(dim)),
        ("keepdim", crate::autograd::SavedValue::Bool(keepdim)),
        ("self_sym_sizes", crate::autograd::SavedValue::Ints(shape.iter().map(|&v| v as i64).collect())),
    ]);
    Ok((values, indices))
}

/// The sort position of each row's pick along `d`: `pick(n, nan_count)` per row (int64, `d`
/// kept), from the count of NaNs in the row (sorted last).
fn row_positions(x: &Tensor, d: usize, pick: impl Fn(&Tensor, &Tensor) -> Result<Tensor>) -> Result<Tensor> {
    let _g = crate::autograd::raw_mode();
    let n = if x.dim() == 0 { 1 } else { x.shape()[d] } as i64;
    let nan = if x.dtype().is_float() {
        let m = super::to_dtype(&super::float_test(&x.detach(), "isnan")?, crate::DType::Int64)?;
        if x.dim() == 0 { m } else { super::sum_dims(&m, &[d], true, None)? }
    } else {
        let mut s = x.shape();
        if !s.is_empty() { s[d] = 1; }
        crate::tensor::zeros_on(&s, crate::DType::Int64, x.device())?
    };
    pick(&Tensor::wrapped_scalar(Scalar::Int(n)), &nan)
}

fn check_select_dim(x: &Tensor, d: usize, what: &str) -> Result<()> {
    ensure!(x.dim() == 0 || x.shape()[d] > 0, Index, "{}(): Expected reduction dim {} to have non-zero size.", what, d);
    Ok(())
}

/// `kthvalue(x, k, dim, keepdim)`: the k-th smallest along `dim` (KthvalueBackward0).
pub fn kthvalue(x: &Tensor, k: i64, dim: i64, keepdim: bool) -> Result<(Tensor, Tensor)> {
    let d = wrap_dim(dim, x.dim())?;
    let size = if x.dim() == 0 { 1 } else { x.shape()[d] as i64 };
    ensure!(k >= 1 && k <= size, Runtime, "kthvalue(): selected number k out of range for dimension {}", d);
    ensure!(!x.dtype().is_complex(), NotImplemented, "\"kthvalue_cpu\" not implemented for '{}'", x.dtype().scalar_name());
    if x.dim() == 0 {
        let i = crate::tensor::zeros_on(&[], crate::DType::Int64, x.device())?;
        return select_along(x, 0, dim, &i, keepdim, "KthvalueBackward0");
    }
    // each row through ATen's quickselect (SortingUtils.h), so ties resolve to its index
    let nd = x.dim() as i64;
    let moved = super::contiguous(&transpose(&x.detach(), d as i64, nd - 1)?)?;
    let ms = moved.shape();
    let n = *ms.last().expect("dim > 0");
    let v = moved.to_f64_vec()?;
    let picks: Vec<f64> = v.chunks(n).map(|row| quickselect_index(row, (k - 1) as usize) as f64).collect();
    let mut kshape = ms.to_vec();
    *kshape.last_mut().expect("dim > 0") = 1;
    let it = crate::tensor::from_f64s(&picks, &kshape, crate::DType::Int64)?;
    let it = if x.device().is_cpu() { it } else { crate::backend::to_device(&it, x.device())? };
    let idx = super::contiguous(&transpose(&it, d as i64, nd - 1)?)?;
    select_along(x, d, dim, &idx, keepdim, "KthvalueBackward0")
}

/// The index in `row` of its `k`-th smallest element (0-based) as ATen's `quick_select_template`
/// finds it: median-of-three pivots, NaN greater than everything; equal elements end up where
/// its partitioning leaves them.
fn quickselect_index(row: &[f64], k: usize) -> usize {
    let gt = |a: f64, b: f64| (a.is_nan() && !b.is_nan()) || a > b;
    let mut v = row.to_vec();
    let mut ix: Vec<usize> = (0..row.len()).collect();
    let swap = |v: &mut Vec<f64>, ix: &mut Vec<usize>, i: usize, j: usize| {
        v.swap(i, j);
        ix.swap(i, j);
    };
    let (mut l, mut r) = (0i64, row.len() as i64 - 1);
    let k = k as i64;
    loop {
        if r <= l {
            break;
        }
        if r == l + 1 {
            if gt(v[l as usize], v[r as usize]) {
                swap(&mut v, &mut ix, l as usize, r as usize);
            }
            break;
        }
        let p = l + (r - l) / 2;
        swap(&mut v, &mut ix, p as usize, (l + 1) as usize);
        if gt(v[(l + 1) as usize], v[r as usize]) {
            swap(&mut v, &mut ix, (l + 1) as usize, r as usize);
        }
        if gt(v[l as usize], v[r as usize]) {
            swap(&mut v, &mut ix, l as usize, r as usize);
        }
        if gt(v[(l + 1) as usize], v[l as usize]) {
            swap(&mut v, &mut ix, (l + 1) as usize, l as usize);
        }
        let (mut i, mut j) = (l + 1, r);
        let piv = v[l as usize];
        loop {
            loop {
                i += 1;
                if !gt(piv, v[i as usize]) {
                    break;
                }
            }
            loop {
                j -= 1;
                if !gt(v[j as usize], piv) {
                    break;
                }
            }
            if j < i {
                break;
            }
            swap(&mut v, &mut ix, i as usize, j as usize);
        }
        swap(&mut v, &mut ix, l as usize, j as usize);
        if j <= k {
            l = i;
        }
        if j >= k {
            r = j - 1;
        }
    }
    ix[k as usize]
}

/// `median(x, dim, keepdim)` / `nanmedian` (`ignore_nan`): the lower median of each row along
/// `dim` (MedianBackward1 / NanmedianBackward1). A row with a NaN has median NaN (its first
/// NaN); nanmedian skips NaNs (an all-NaN row gives NaN).
pub fn median_dim(x: &Tensor, dim: i64, keepdim: bool, ignore_nan: bool) -> Result<(Tensor, Tensor)> {
    let d = wrap_dim(dim, x.dim())?;
    let what = if ignore_nan { "nanmedian" } else { "median" };
    check_select_dim(x, d, what)?;
    ensure!(!x.dtype().is_complex(), NotImplemented, "\"{}_cpu\" not implemented for '{}'", what, x.dtype().scalar_name());
    let pos = row_positions(x, d, |n, nan| {
        use super::{binary_raw, where_, BinOp};
        let one = || Tensor::wrapped_scalar(Scalar::Int(1));
        let two = Tensor::wrapped_scalar(Scalar::Int(2));
        let valid = binary_raw(n, nan, BinOp::Sub)?;
        let mid = |m: &Tensor| binary_raw(&binary_raw(m, &one(), BinOp::Sub)?, &two, BinOp::FloorDiv);
        if ignore_nan {
            let any = binary_raw(&valid, &Tensor::wrapped_scalar(Scalar::Int(0)), BinOp::Gt)?;
            where_(&any, &mid(&valid)?, &Tensor::wrapped_scalar(Scalar::Int(0)))
        } else {
            let has_nan = binary_raw(nan, &Tensor::wrapped_scalar(Scalar::Int(0)), BinOp::Gt)?;
            where_(&has_nan, &valid, &mid(&binary_raw(&valid, nan, BinOp::Add)?)?)
        }
    })?;
    let pos = super::to_dtype(&pos, crate::DType::Int64)?;
    let sidx = sort_indices(&x.detach(), d, false)?;
    let idx = if x.dim() == 0 { sidx } else { super::contiguous(&super::index::gather(&sidx, d as i64, &pos)?)? };
    select_along(x, d, dim, &idx, keepdim, if ignore_nan { "NanmedianBackward1" } else { "MedianBackward1" })
}

/// `median(x)` / `nanmedian(x)` of all elements (MedianBackward0 / NanmedianBackward0): the
/// lower median; NaN if any element is NaN (nanmedian: if all are) or there is none. The
/// gradient is shared by the elements equal to it.
pub fn median_all(x: &Tensor, ignore_nan: bool) -> Result<Tensor> {
    let what = if ignore_nan { "nanmedian" } else { "median" };
    ensure!(!x.dtype().is_complex(), NotImplemented, "\"{}_cpu\" not implemented for '{}'", what, x.dtype().scalar_name());
    let mut v = x.detach().to_f64_vec()?;
    let has_nan = v.iter().any(|a| a.is_nan());
    v.retain(|a| !a.is_nan());
    v.sort_by(|a, b| a.partial_cmp(b).expect("NaNs removed"));
    let m = if v.is_empty() || (has_nan && !ignore_nan) { f64::NAN } else { v[(v.len() - 1) / 2] };
    ensure!(!m.is_nan() || x.dtype().is_float() || x.numel() > 0, Index, "{}(): Expected reduction dim to be specified for input.numel() == 0.", what);
    let out = crate::tensor::from_f64s(&[m], &[], x.dtype())?;
    let out = if x.device().is_cpu() { out } else { crate::backend::to_device(&out, x.device())? };
    let name = if ignore_nan { "NanmedianBackward0" } else { "MedianBackward0" };
    crate::autograd::record(name, &[x], &[&out], &[crate::autograd::Save::In(x), crate::autograd::Save::Out(0)], |s, g, _| {
        Ok(vec![Some(super::reduce::evenly_distribute(&s.get(0)?, &s.get(1)?, &g[0])?)])
    })?;
    Ok(out)
}

/// `cummax(x, dim)` / `cummin` (CummaxBackward0 / CumminBackward0): the running extreme and
/// where it was last reached (ties and NaNs move the index on, as torch's CPU kernel).
pub fn cummax(x: &Tensor, dim: i64, is_max: bool) -> Result<(Tensor, Tensor)> {
    let d = wrap_dim(dim, x.dim())?;
    let what = if is_max { "cummax" } else { "cummin" };
    ensure!(!x.dtype().is_complex(), NotImplemented, "\"{}_cpu\" not implemented for '{}'", what, x.dtype().scalar_name());
    let name = if is_max { "CummaxBackward0" } else { "CumminBackward0" };
    if x.dim() == 0 {
        let i = crate::tensor::zeros_on(&[], crate::DType::Int64, x.device())?;
        return Ok((gather_named(x, 0, &i, name)?, i));
    }
    let nd = x.dim() as i64;
    let moved = super::contiguous(&transpose(&x.detach(), d as i64, nd - 1)?)?;
    let ms = moved.shape();
    let n = *ms.last().expect("dim > 0");
    let v = moved.to_f64_vec()?;
    let mut idx = vec![0f64; v.len()];
    if n > 0 {
        for (row, out) in v.chunks(n).zip(idx.chunks_mut(n)) {
            let (mut best, mut at) = (row[0], 0usize);
            for (k, &a) in row.iter().enumerate() {
                let take = a.is_nan() || (!best.is_nan() && if is_max { a >= best } else { a <= best });
                if take {
                    best = a;
                    at = k;
                }
                out[k] = at as f64;
            }
        }
    }
    let it = crate::tensor::from_f64s(&idx, &ms, crate::DType::Int64)?;
    let it = if x.device().is_cpu() { it } else { crate::backend::to_device(&it, x.device())? };
    let it = super::contiguous(&transpose(&it, d as i64, nd - 1)?)?;
    Ok((gather_named(x, d as i64, &it, name)?, it))
}
