//! Neural-network ops: softmax and log_softmax (and the losses built on them).

use super::{exp, mul, sub, sum_dims};
use crate::autograd::{record, Save};
use crate::backend::{self, ScanOp};
use crate::error::Result;
use crate::shape::wrap_dim;
use crate::tensor::Tensor;

/// Move `dim` last, make contiguous, run the row scan (softmax or log_softmax), move it back.
fn rowwise(x: &Tensor, dim: usize, log: bool) -> Result<Tensor> {
    if !x.dtype().is_float() {
        if x.numel() == 0 {
            // no kernel runs on an empty tensor, so torch returns it in its own dtype
            return x.detach_copy();
        }
        let last = dim + 1 >= x.dim();
        crate::bail!(NotImplemented, "\"{}softmax{}_kernel_impl\" not implemented for '{}'", if log { "log_" } else { "" }, if last { "_lastdim" } else { "" }, x.dtype().scalar_name());
    }
    let x = x.clone();
    let nd = x.dim();
    let last = nd.saturating_sub(1);
    if nd > 0 && dim != last && x.is_contiguous() {
        // ATen's kernels for a dim other than the last, in place of moving the dim last
        if let Some(out) = backend::softmax_mid(&x.detach(), dim, log)? {
            return Ok(out);
        }
    }
    let moved = if nd == 0 || dim == last { x.clone() } else { super::as_strided_view(&x, &super::layout_transpose(&x.layout(), dim, last)) };
    let dt = moved.dtype();
    if dt.is_half() && nd > 0 && dim == last && moved.is_contiguous() && moved.device().is_cpu() {
        // the CPU's reduced-precision row kernel: a block of rows widened to float32 at a
        // time, ATen's steps (the log-sum rounded twice for log_softmax), rounded back once
        let row = moved.shape().last().copied().unwrap_or(1).max(1);
        return backend::scan(&moved.detach(), row, if log { ScanOp::LogSoftmax } else { ScanOp::Softmax });
    }
    // a half row runs in float32 and is rounded once (ATen's reduced-precision kernels)
    let c = if !dt.is_half() && moved.is_contiguous() { moved.detach() } else { super::cast_raw(&moved, if dt.is_half() { crate::dtype::DType::Float32 } else { dt })? };
    let row = c.shape().last().copied().unwrap_or(1).max(1);
    let out = if dt.is_half() && log && nd > 0 && dim == last {
        // ATen's last-dim log_softmax keeps each row's sum, then its log, in the element type
        // (two roundings) and subtracts in float: x - max - half(log(half(sum)))
        let _raw = crate::autograd::raw_mode();
        let m = super::amax(&c, &[last], true, true)?;
        let xm = sub(&c, &m)?;
        let total = super::cast_raw(&sum_dims(&exp(&xm)?, &[last], true, None)?, dt)?;
        let lse = super::cast_raw(&super::cast_raw(&super::log(&super::cast_raw(&total, crate::dtype::DType::Float32)?)?, dt)?, crate::dtype::DType::Float32)?;
        super::cast_raw(&sub(&xm, &lse)?, dt)?
    } else {
        let out = backend::scan(&c, row, if log { ScanOp::LogSoftmax } else { ScanOp::Softmax })?;
        if dt.is_half() { super::cast_raw(&out, dt)? } else { out }
    };
    Ok(if nd == 0 || dim == last { out } else { super::cast_raw(&super::as_strided_view(&out, &super::layout_transpose(&out.layout(), dim, last)), dt)? })
}

/// `f(g, y)` in float32 rounded once to `g`'s dtype when both are float16/bfloat16 (ATen's
/// backward kernels for the reduced types); None for other dtypes.
fn in_float(g: &Tensor, y: &Tensor, f: impl Fn(&Tensor, &Tensor) -> Result<Tensor>) -> Option<Result<Tensor>> {
    use crate::dtype::DType;
    if !(g.dtype().is_half() && y.dtype().is_half()) {
        return None;
    }
    let r = (|| super::to_dtype(&f(&super::to_dtype(g, DType::Float32)?, &super::to_dtype(y, DType::Float32)?)?, g.dtype()))();
    Some(r)
}

/// `softmax(x, dim)`.
pub fn softmax(x: &Tensor, dim: i64) -> Result<Tensor> {
    let d = wrap_dim(dim, x.dim())?;
    let out = rowwise(x, d, false)?;
    // d/dx softmax: y (g - sum(g y))
    record("SoftmaxBackward0", &[x], &[&out], &[Save::Out(0)], move |s, g, _| Ok(vec![Some(softmax_backward_data(&g[0], &s.get(0)?, d)?)]))?;
    crate::autograd::Node::annotate(&out, &[("dim", crate::autograd::SavedValue::Int64(dim))], &[]);
    Ok(out)
}

/// `y (g - sum(g y))`, the value of torch's `_softmax_backward_data(g, y, dim)`.
fn softmax_backward_value(g: &Tensor, y: &Tensor, d: usize) -> Result<Tensor> {
    if let Some(r) = in_float(g, y, |g, y| softmax_backward_value(g, y, d)) {
        return r;
    }
    let gy = mul(g, y)?;
    let dot = sum_dims(&gy, &[d], true, None)?;
    sub(&gy, &mul(y, &dot)?)
}

/// softmax's backward as an op of its own (SoftmaxBackwardDataBackward0, as torch records it
/// under `create_graph`): d/dg = the same map of the incoming gradient `gg`,
/// d/dy = g gg - sum(y g) gg - g sum(y gg) (torch's `softmax_double_backward`).
pub fn softmax_backward_data(g: &Tensor, y: &Tensor, d: usize) -> Result<Tensor> {
    if !crate::autograd::needs_history(&[g, y]) {
        return softmax_backward_value(g, y, d);
    }
    let out = {
        let _r = crate::autograd::raw_mode();
        softmax_backward_value(&g.detach(), &y.detach(), d)?
    };
    record("SoftmaxBackwardDataBackward0", &[g, y], &[&out], &[Save::In(g), Save::In(y)], move |s, gg, n| {
        let (gt, yt) = (s.get(0)?, s.get(1)?);
        let dg = if n[0] { Some(softmax_backward_data(&gg[0], &yt, d)?) } else { None };
        let dy = if n[1] {
            let a = mul(&gg[0], &sub(&gt, &sum_dims(&mul(&yt, &gt)?, &[d], true, None)?)?)?;
            Some(sub(&a, &mul(&gt, &sum_dims(&mul(&yt, &gg[0])?, &[d], true, None)?)?)?)
        } else { None };
        Ok(vec![dg, dy])
    })?;
    crate::autograd::Node::annotate(&out, &[("dim", crate::autograd::SavedValue::Int(d as i64))], &[(0, "grad_output"), (1, "output")]);
    Ok(out)
}

/// `log_softmax(x, dim)`.
pub fn log_softmax(x: &Tensor, dim: i64) -> Result<Tensor> {
    let d = wrap_dim(dim, x.dim())?;
    let out = rowwise(x, d, true)?;
    // d/dx log_softmax: g - exp(y) sum(g)
    record("LogSoftmaxBackward0", &[x], &[&out], &[Save::Out(0)], move |s, g, _| Ok(vec![Some(log_softmax_backward_data(&g[0], &s.get(0)?, d)?)]))?;
    crate::autograd::Node::annotate(&out, &[("dim", crate::autograd::SavedValue::Int64(dim))], &[]);
    Ok(out)
}

/// `g - exp(y) sum(g)`, the value of torch's `_log_softmax_backward_data(g, y, dim)`.
fn log_softmax_backward_value(g: &Tensor, y: &Tensor, d: usize) -> Result<Tensor> {
    if let Some(r) = in_float(g, y, |g, y| log_softmax_backward_value(g, y, d)) {
        return r;
    }
    let sg = sum_dims(g, &[d], true, None)?;
    sub(g, &mul(&exp(y)?, &sg)?)
}

/// log_softmax's backward as an op of its own (LogSoftmaxBackwardDataBackward0):
/// d/dg = gg - sum(gg exp(y)), d/dy = -sum(g) exp(y) gg (torch's derivatives.yaml).
pub fn log_softmax_backward_data(g: &Tensor, y: &Tensor, d: usize) -> Result<Tensor> {
    if !crate::autograd::needs_history(&[g, y]) {
        return log_softmax_backward_value(g, y, d);
    }
    let out = {
        let _r = crate::autograd::raw_mode();
        log_softmax_backward_value(&g.detach(), &y.detach(), d)?
    };
    record("LogSoftmaxBackwardDataBackward0", &[g, y], &[&out], &[Save::In(g), Save::In(y)], move |s, gg, n| {
        let (gt, yt) = (s.get(0)?, s.get(1)?);
        let ey = exp(&yt)?;
        let dg = if n[0] { Some(sub(&gg[0], &sum_dims(&mul(&gg[0], &ey)?, &[d], true, None)?)?) } else { None };
        let dy = if n[1] { Some(super::neg(&mul(&mul(&sum_dims(&gt, &[d], true, None)?, &ey)?, &gg[0])?)?) } else { None };
        Ok(vec![dg, dy])
    })?;
    crate::autograd::Node::annotate(&out, &[("dim", crate::autograd::SavedValue::Int(d as i64))], &[(0, "grad_output"), (1, "output")]);
    Ok(out)
}
