//! Neural-network ops: softmax and log_softmax (and the losses built on them).

use super::{exp, mul, sub, sum_dims};
use crate::autograd::{record, Save};
use crate::dtype::Elem;
use crate::error::Result;
use crate::shape::wrap_dim;
use crate::storage::StorageElem;
use crate::tensor::Tensor;
use crate::float_types;
use num_traits::{Float, Zero};

/// Move `dim` last, make contiguous, and apply `f` to every row; then move it back.
fn rowwise(x: &Tensor, dim: usize, log: bool) -> Result<Tensor> {
    let x = super::float_input(x);
    let nd = x.dim();
    let last = nd.saturating_sub(1);
    let moved = if nd == 0 || dim == last { x.clone() } else { super::as_strided_view(&x, &super::layout_transpose(&x.layout(), dim, last)) };
    let c = super::cast_raw(&moved, moved.dtype());
    let shape = c.shape();
    let row = shape.last().copied().unwrap_or(1).max(1);
    let dt = c.dtype();
    let st = c.with_storage(|s, _| float_types!(dt, T => {
        let v = T::get(s);
        let mut out = vec![T::default(); v.len()];
        for (o, r) in out.chunks_mut(row).zip(v.chunks(row)) {
            let m = r.iter().fold(T::neg_infinity(), |a, &b| a.max(b));
            let m = if m.is_infinite() { T::zero() } else { m };
            let sum: f64 = r.iter().map(|&x| (x - m).exp().to_f64()).sum();
            if log {
                let ls = T::from_f64(sum.ln());
                for (o, &x) in o.iter_mut().zip(r) { *o = x - m - ls; }
            } else {
                let inv = T::from_f64(1.0 / sum);
                for (o, &x) in o.iter_mut().zip(r) { *o = (x - m).exp() * inv; }
            }
        }
        T::wrap(out)
    }));
    let out = Tensor::from_storage(st, &shape);
    Ok(if nd == 0 || dim == last { out } else { super::cast_raw(&super::as_strided_view(&out, &super::layout_transpose(&out.layout(), dim, last)), dt) })
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
