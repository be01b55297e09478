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
    let moved = if nd == 0 || dim == last { x.clone() } else { super::as_strided_view(&x, &super::layout_transpose(&x.layout(), dim, last)) };
    let c = super::cast_raw(&moved, moved.dtype())?;
    let row = c.shape().last().copied().unwrap_or(1).max(1);
    let dt = c.dtype();
    let out = backend::scan(&c, row, if log { ScanOp::LogSoftmax } else { ScanOp::Softmax })?;
    Ok(if nd == 0 || dim == last { out } else { super::cast_raw(&super::as_strided_view(&out, &super::layout_transpose(&out.layout(), dim, last)), dt)? })
}

/// `softmax(x, dim)`.
pub fn softmax(x: &Tensor, dim: i64) -> Result<Tensor> {
    let d = wrap_dim(dim, x.dim())?;
    let out = rowwise(x, d, false)?;
    // d/dx softmax: y (g - sum(g y))
    record("SoftmaxBackward0", &[x], &[&out], &[Save::Out(0)], move |s, g, _| {
        let y = s.get(0)?;
        let gy = mul(&g[0], &y)?;
        let dot = sum_dims(&gy, &[d], true, None)?;
        Ok(vec![Some(sub(&gy, &mul(&y, &dot)?)?)])
    })?;
    Ok(out)
}

/// `log_softmax(x, dim)`.
pub fn log_softmax(x: &Tensor, dim: i64) -> Result<Tensor> {
    let d = wrap_dim(dim, x.dim())?;
    let out = rowwise(x, d, true)?;
    // d/dx log_softmax: g - exp(y) sum(g)
    record("LogSoftmaxBackward0", &[x], &[&out], &[Save::Out(0)], move |s, g, _| {
        let y = s.get(0)?;
        let sg = sum_dims(&g[0], &[d], true, None)?;
        Ok(vec![Some(sub(&g[0], &mul(&exp(&y)?, &sg)?)?)])
    })?;
    Ok(out)
}
