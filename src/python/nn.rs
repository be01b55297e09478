//! Bindings of the nn layer and loss ops (`ferrograd._C._nn_*`): argument translation only.

use super::tensor::{wrap, PyTensor};
use super::tensor_ops::run;
use crate::ops::{self, ConvOpts, Window2d};
use crate::tensor::Tensor;
use pyo3::prelude::*;

type T<'a> = PyRef<'a, PyTensor>;

fn opt(t: &Option<T<'_>>) -> Option<Tensor> {
    t.as_ref().map(|t| t.t.clone())
}

#[pyfunction]
#[pyo3(signature = (x, w, b, stride, padding, dilation, groups, transposed, output_padding))]
#[allow(clippy::too_many_arguments)]
fn _nn_convolution(py: Python<'_>, x: T<'_>, w: T<'_>, b: Option<T<'_>>, stride: Vec<usize>, padding: Vec<(i64, i64)>, dilation: Vec<usize>,
    groups: usize, transposed: bool, output_padding: Vec<usize>) -> PyResult<Py<PyAny>> {
    let (x, w, b) = (x.t.clone(), w.t.clone(), opt(&b));
    let (x, w, b) = if crate::autocast::active() {
        (crate::autocast::lower(&x)?, crate::autocast::lower(&w)?, b.as_ref().map(crate::autocast::lower).transpose()?)
    } else {
        (x, w, b)
    };
    let o = ConvOpts { stride, padding, dilation, groups, transposed, output_padding };
    run(py, x.numel() * w.numel(), || ops::convolution(&x, &w, b.as_ref(), &o))
}

/// One fused LSTM cell step (`[h, c, i, f, g, o, tanh(c)]`), or None where the backend has
/// no kernel for these operands (the caller then runs the tensor ops).
#[pyfunction]
fn _nn_lstm_cell(py: Python<'_>, igates: T<'_>, hw: T<'_>, c: T<'_>) -> PyResult<Option<Vec<Py<PyAny>>>> {
    let (ig, hw, c) = (igates.t.clone(), hw.t.clone(), c.t.clone());
    let out = py.detach(|| super::errors::guard(|| crate::backend::lstm_cell(&ig, &hw, &c)))?;
    out.map(|v| v.into_iter().map(|t| wrap(py, t)).collect()).transpose()
}

fn window(kernel: [usize; 2], dilation: [usize; 2], padding: [usize; 2], stride: [usize; 2]) -> Window2d {
    Window2d { kernel, stride, dilation, pad: [padding[0] as i64, padding[0] as i64, padding[1] as i64, padding[1] as i64] }
}

#[pyfunction]
fn _nn_im2col(py: Python<'_>, x: T<'_>, kernel: [usize; 2], dilation: [usize; 2], padding: [usize; 2], stride: [usize; 2]) -> PyResult<Py<PyAny>> {
    let x = x.t.clone();
    run(py, x.numel(), || ops::im2col(&x, window(kernel, dilation, padding, stride)))
}

#[pyfunction]
fn _nn_col2im(py: Python<'_>, x: T<'_>, output_size: [usize; 2], kernel: [usize; 2], dilation: [usize; 2], padding: [usize; 2], stride: [usize; 2]) -> PyResult<Py<PyAny>> {
    let x = x.t.clone();
    run(py, x.numel(), || ops::col2im(&x, output_size, window(kernel, dilation, padding, stride)))
}

/// A pooling stride: empty (the kernel size, as ATen's) or two numbers.
fn pool_stride(s: Vec<usize>) -> PyResult<Option<[usize; 2]>> {
    match s[..] {
        [] => Ok(None),
        [a, b] => Ok(Some([a, b])),
        _ => Err(pyo3::exceptions::PyRuntimeError::new_err("max_pool2d: stride must either be omitted, a single int, or a tuple of two ints")),
    }
}

#[pyfunction]
fn _nn_max_pool2d(py: Python<'_>, x: T<'_>, kernel: [usize; 2], stride: Vec<usize>, padding: [usize; 2], dilation: [usize; 2], ceil_mode: bool) -> PyResult<(Py<PyAny>, Py<PyAny>)> {
    let x = x.t.clone();
    let stride = pool_stride(stride)?;
    let (a, b) = py.detach(|| super::errors::guard(|| ops::max_pool2d(&x, kernel, stride, padding, dilation, ceil_mode)))?;
    Ok((wrap(py, a)?, wrap(py, b)?))
}

#[pyfunction]
#[pyo3(signature = (x, kernel, stride, padding, ceil_mode, count_include_pad, divisor_override=None))]
fn _nn_avg_pool2d(py: Python<'_>, x: T<'_>, kernel: [usize; 2], stride: Vec<usize>, padding: [usize; 2], ceil_mode: bool, count_include_pad: bool, divisor_override: Option<i64>) -> PyResult<Py<PyAny>> {
    let x = x.t.clone();
    let stride = pool_stride(stride)?;
    run(py, x.numel(), || ops::avg_pool2d(&x, kernel, stride, padding, ceil_mode, count_include_pad, divisor_override))
}

/// A 3-d pooling stride: empty (the kernel size) or three numbers.
fn pool_stride3(s: Vec<usize>) -> PyResult<Option<[usize; 3]>> {
    match s[..] {
        [] => Ok(None),
        [a, b, c] => Ok(Some([a, b, c])),
        _ => Err(pyo3::exceptions::PyRuntimeError::new_err("max_pool3d: stride must either be omitted, a single int, or a tuple of three ints")),
    }
}

#[pyfunction]
fn _nn_max_pool3d(py: Python<'_>, x: T<'_>, kernel: [usize; 3], stride: Vec<usize>, padding: [usize; 3], dilation: [usize; 3], ceil_mode: bool) -> PyResult<(Py<PyAny>, Py<PyAny>)> {
    let x = x.t.clone();
    let stride = pool_stride3(stride)?;
    let (a, b) = py.detach(|| super::errors::guard(|| ops::max_pool3d(&x, kernel, stride, padding, dilation, ceil_mode)))?;
    Ok((wrap(py, a)?, wrap(py, b)?))
}

#[pyfunction]
#[pyo3(signature = (x, kernel, stride, padding, ceil_mode, count_include_pad, divisor_override=None))]
fn _nn_avg_pool3d(py: Python<'_>, x: T<'_>, kernel: [usize; 3], stride: Vec<usize>, padding: [usize; 3], ceil_mode: bool, count_include_pad: bool, divisor_override: Option<i64>) -> PyResult<Py<PyAny>> {
    let x = x.t.clone();
    let stride = pool_stride3(stride)?;
    run(py, x.numel(), || ops::avg_pool3d(&x, kernel, stride, padding, ceil_mode, count_include_pad, divisor_override))
}

#[pyfunction]
fn _nn_fractional_max_pool(py: Python<'_>, x: T<'_>, kernel: Vec<usize>, output_size: Vec<usize>, samples: T<'_>) -> PyResult<(Py<PyAny>, Py<PyAny>)> {
    let (x, u) = (x.t.clone(), samples.t.clone());
    let (a, b) = py.detach(|| super::errors::guard(|| ops::fractional_max_pool(&x, &kernel, &output_size, &u)))?;
    Ok((wrap(py, a)?, wrap(py, b)?))
}

#[pyfunction]
fn _nn_adaptive_max_pool2d(py: Python<'_>, x: T<'_>, output_size: [usize; 2]) -> PyResult<(Py<PyAny>, Py<PyAny>)> {
    let x = x.t.clone();
    let (a, b) = py.detach(|| super::errors::guard(|| ops::adaptive_max_pool2d(&x, output_size)))?;
    Ok((wrap(py, a)?, wrap(py, b)?))
}

#[pyfunction]
fn _nn_adaptive_avg_pool2d(py: Python<'_>, x: T<'_>, output_size: [usize; 2]) -> PyResult<Py<PyAny>> {
    let x = x.t.clone();
    run(py, x.numel(), || ops::adaptive_avg_pool2d(&x, output_size))
}

#[pyfunction]
#[pyo3(signature = (x, weight, bias, running_mean, running_var, training, momentum, eps))]
#[allow(clippy::too_many_arguments)]
fn _nn_batch_norm(py: Python<'_>, x: T<'_>, weight: Option<T<'_>>, bias: Option<T<'_>>, running_mean: Option<T<'_>>, running_var: Option<T<'_>>,
    training: bool, momentum: f64, eps: f64) -> PyResult<Py<PyAny>> {
    let x = x.t.clone();
    let (w, b, rm, rv) = (opt(&weight), opt(&bias), opt(&running_mean), opt(&running_var));
    run(py, x.numel(), || ops::batch_norm(&x, w.as_ref(), b.as_ref(), rm.as_ref(), rv.as_ref(), training, momentum, eps))
}

#[pyfunction]
#[pyo3(signature = (x, normalized_shape, weight, bias, eps))]
fn _nn_layer_norm(py: Python<'_>, x: T<'_>, normalized_shape: Vec<usize>, weight: Option<T<'_>>, bias: Option<T<'_>>, eps: f64) -> PyResult<Py<PyAny>> {
    let x = x.t.clone();
    let (w, b) = (opt(&weight), opt(&bias));
    run(py, x.numel(), || ops::layer_norm(&x, &normalized_shape, w.as_ref(), b.as_ref(), eps))
}

#[pyfunction]
#[pyo3(signature = (x, num_groups, weight, bias, eps))]
fn _nn_group_norm(py: Python<'_>, x: T<'_>, num_groups: usize, weight: Option<T<'_>>, bias: Option<T<'_>>, eps: f64) -> PyResult<Py<PyAny>> {
    let x = x.t.clone();
    let (w, b) = (opt(&weight), opt(&bias));
    run(py, x.numel(), || ops::group_norm(&x, num_groups, w.as_ref(), b.as_ref(), eps))
}

#[pyfunction]
#[pyo3(signature = (weight, indices, padding_idx, scale_grad_by_freq))]
fn _nn_embedding(py: Python<'_>, weight: T<'_>, indices: T<'_>, padding_idx: Option<i64>, scale_grad_by_freq: bool) -> PyResult<Py<PyAny>> {
    let (w, i) = (weight.t.clone(), indices.t.clone());
    run(py, i.numel(), || ops::embedding(&w, &i, padding_idx, scale_grad_by_freq))
}

#[pyfunction]
fn _nn_activation(py: Python<'_>, x: T<'_>, kind: &str, a: f64, b: f64) -> PyResult<Py<PyAny>> {
    let x = x.t.clone();
    let kind = kind.to_string();
    run(py, x.numel(), || ops::activation(&x, &kind, a, b))
}

#[pyfunction]
fn _nn_activation_(py: Python<'_>, x: T<'_>, kind: &str, a: f64, b: f64) -> PyResult<()> {
    let x = x.t.clone();
    let kind = kind.to_string();
    py.detach(|| super::errors::guard(|| ops::activation_(&x, &kind, a, b)))?;
    Ok(())
}

#[pyfunction]
fn _nn_prelu(py: Python<'_>, x: T<'_>, weight: T<'_>) -> PyResult<Py<PyAny>> {
    let (x, w) = (x.t.clone(), weight.t.clone());
    run(py, x.numel(), || ops::prelu(&x, &w))
}

#[pyfunction]
fn _nn_glu(py: Python<'_>, x: T<'_>, dim: i64) -> PyResult<Py<PyAny>> {
    let x = x.t.clone();
    run(py, x.numel(), || ops::glu(&x, dim))
}

#[pyfunction]
fn _nn_erf(py: Python<'_>, x: T<'_>) -> PyResult<Py<PyAny>> {
    let x = x.t.clone();
    run(py, x.numel(), || ops::erf(&x))
}

/// A whole float as an int scalar (as Python passes `beta=1`).
fn num(v: f64) -> crate::tensor::Scalar {
    if v.fract() == 0.0 && v.abs() < 1e15 { crate::tensor::Scalar::Int(v as i64) } else { crate::tensor::Scalar::Float(v) }
}

#[pyfunction]
#[pyo3(signature = (input, mat1, mat2, beta=1.0, alpha=1.0))]
fn _nn_addmm(py: Python<'_>, input: T<'_>, mat1: T<'_>, mat2: T<'_>, beta: f64, alpha: f64) -> PyResult<Py<PyAny>> {
    let (i, a, b) = (input.t.clone(), mat1.t.clone(), mat2.t.clone());
    let (i, a, b) = if crate::autocast::active() {
        (crate::autocast::lower(&i)?, crate::autocast::lower(&a)?, crate::autocast::lower(&b)?)
    } else {
        (i, a, b)
    };
    run(py, a.numel() * b.shape().last().copied().unwrap_or(1), || ops::addmm(&i, &a, &b, num(beta), num(alpha)))
}

#[pyfunction]
fn _nn_pointwise_loss(py: Python<'_>, kind: &str, x: T<'_>, y: T<'_>, reduction: i64, a: f64) -> PyResult<Py<PyAny>> {
    let (x, y) = (x.t.clone(), y.t.clone());
    let kind = kind.to_string();
    run(py, x.numel(), || ops::pointwise_loss(&kind, &x, &y, reduction, a))
}

#[pyfunction]
#[pyo3(signature = (x, y, weight, reduction))]
fn _nn_binary_cross_entropy(py: Python<'_>, x: T<'_>, y: T<'_>, weight: Option<T<'_>>, reduction: i64) -> PyResult<Py<PyAny>> {
    let (x, y, w) = (x.t.clone(), y.t.clone(), opt(&weight));
    run(py, x.numel(), || ops::binary_cross_entropy(&x, &y, w.as_ref(), reduction))
}

#[pyfunction]
#[pyo3(signature = (x, y, weight, pos_weight, reduction))]
fn _nn_binary_cross_entropy_with_logits(py: Python<'_>, x: T<'_>, y: T<'_>, weight: Option<T<'_>>, pos_weight: Option<T<'_>>, reduction: i64) -> PyResult<Py<PyAny>> {
    let (x, y, w, pw) = (x.t.clone(), y.t.clone(), opt(&weight), opt(&pos_weight));
    run(py, x.numel(), || ops::binary_cross_entropy_with_logits(&x, &y, w.as_ref(), pw.as_ref(), reduction))
}

#[pyfunction]
#[pyo3(signature = (x, target, weight, reduction, ignore_index))]
fn _nn_nll_loss(py: Python<'_>, x: T<'_>, target: T<'_>, weight: Option<T<'_>>, reduction: i64, ignore_index: i64) -> PyResult<Py<PyAny>> {
    let (x, t, w) = (x.t.clone(), target.t.clone(), opt(&weight));
    run(py, x.numel(), || ops::nll_loss(&x, &t, w.as_ref(), reduction, ignore_index))
}

#[pyfunction]
fn _nn_div_scalar(py: Python<'_>, x: T<'_>, s: f64) -> PyResult<Py<PyAny>> {
    let x = x.t.clone();
    run(py, x.numel(), || ops::nn_div_scalar(&x, s))
}

#[pyfunction]
#[pyo3(signature = (q, k, v, mask, causal, scale=None))]
#[allow(clippy::too_many_arguments)]
fn _nn_sdpa_flash(py: Python<'_>, q: T<'_>, k: T<'_>, v: T<'_>, mask: Option<T<'_>>, causal: bool, scale: Option<f64>) -> PyResult<Py<PyAny>> {
    let (q, k, v, m) = (q.t.clone(), k.t.clone(), v.t.clone(), opt(&mask));
    run(py, q.numel(), || ops::sdpa_flash(&q, &k, &v, m.as_ref(), causal, scale))
}

/// `grid_sample` with ATen's integer modes (interpolation: bilinear, nearest, bicubic;
/// padding: zeros, border, reflection).
#[pyfunction]
fn _nn_grid_sample(py: Python<'_>, x: T<'_>, grid: T<'_>, mode: i64, padding: i64, align_corners: bool) -> PyResult<Py<PyAny>> {
    use crate::backend::{GridMode, GridPadding};
    let (x, g) = (x.t.clone(), grid.t.clone());
    let mode = match mode {
        0 => GridMode::Bilinear,
        1 => GridMode::Nearest,
        2 => GridMode::Bicubic,
        m => return Err(pyo3::exceptions::PyRuntimeError::new_err(format!("grid_sampler(): unknown interpolation mode {m}"))),
    };
    let padding = match padding {
        0 => GridPadding::Zeros,
        1 => GridPadding::Border,
        2 => GridPadding::Reflection,
        p => return Err(pyo3::exceptions::PyRuntimeError::new_err(format!("grid_sampler(): unknown padding mode {p}"))),
    };
    run(py, x.numel(), || ops::grid_sample(&x, &g, mode, padding, align_corners))
}

#[pyfunction]
fn _nn_pixel_shuffle(py: Python<'_>, x: T<'_>, factor: usize, down: bool) -> PyResult<Py<PyAny>> {
    let x = x.t.clone();
    run(py, x.numel(), || ops::pixel_shuffle(&x, factor, down))
}

#[pyfunction]
fn _nn_constant_pad(py: Python<'_>, x: T<'_>, pads: Vec<(i64, i64)>, value: f64) -> PyResult<Py<PyAny>> {
    let x = x.t.clone();
    run(py, x.numel(), || ops::constant_pad(&x, &pads, value))
}

#[pyfunction]
fn _nn_index_pad(py: Python<'_>, x: T<'_>, pads: Vec<(i64, i64)>, reflect: bool) -> PyResult<Py<PyAny>> {
    let x = x.t.clone();
    run(py, x.numel(), || ops::index_pad(&x, &pads, reflect))
}

#[pyfunction]
#[pyo3(signature = (x, mh, mw, name, output_size, scales, align_corners=None, md=None))]
#[allow(clippy::too_many_arguments)]
fn _nn_resample(py: Python<'_>, x: T<'_>, mh: Option<T<'_>>, mw: T<'_>, name: &str, output_size: Vec<usize>, scales: Vec<Option<f64>>, align_corners: Option<bool>,
                md: Option<T<'_>>) -> PyResult<Py<PyAny>> {
    let (x, mh, mw, md) = (x.t.clone(), opt(&mh), mw.t.clone(), opt(&md));
    let name = name.to_string();
    run(py, x.numel(), || ops::resample(&x, md.as_ref(), mh.as_ref(), &mw, &name, &output_size, &scales, align_corners))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(_nn_convolution, m)?)?;
    m.add_function(wrap_pyfunction!(_nn_im2col, m)?)?;
    m.add_function(wrap_pyfunction!(_nn_col2im, m)?)?;
    m.add_function(wrap_pyfunction!(_nn_lstm_cell, m)?)?;
    m.add_function(wrap_pyfunction!(_nn_max_pool2d, m)?)?;
    m.add_function(wrap_pyfunction!(_nn_avg_pool2d, m)?)?;
    m.add_function(wrap_pyfunction!(_nn_adaptive_avg_pool2d, m)?)?;
    m.add_function(wrap_pyfunction!(_nn_adaptive_max_pool2d, m)?)?;
    m.add_function(wrap_pyfunction!(_nn_max_pool3d, m)?)?;
    m.add_function(wrap_pyfunction!(_nn_avg_pool3d, m)?)?;
    m.add_function(wrap_pyfunction!(_nn_fractional_max_pool, m)?)?;
    m.add_function(wrap_pyfunction!(_nn_batch_norm, m)?)?;
    m.add_function(wrap_pyfunction!(_nn_layer_norm, m)?)?;
    m.add_function(wrap_pyfunction!(_nn_group_norm, m)?)?;
    m.add_function(wrap_pyfunction!(_nn_embedding, m)?)?;
    m.add_function(wrap_pyfunction!(_nn_activation, m)?)?;
    m.add_function(wrap_pyfunction!(_nn_activation_, m)?)?;
    m.add_function(wrap_pyfunction!(_nn_prelu, m)?)?;
    m.add_function(wrap_pyfunction!(_nn_glu, m)?)?;
    m.add_function(wrap_pyfunction!(_nn_erf, m)?)?;
    m.add_function(wrap_pyfunction!(_nn_addmm, m)?)?;
    m.add_function(wrap_pyfunction!(_nn_pointwise_loss, m)?)?;
    m.add_function(wrap_pyfunction!(_nn_binary_cross_entropy, m)?)?;
    m.add_function(wrap_pyfunction!(_nn_binary_cross_entropy_with_logits, m)?)?;
    m.add_function(wrap_pyfunction!(_nn_nll_loss, m)?)?;
    m.add_function(wrap_pyfunction!(_nn_div_scalar, m)?)?;
    m.add_function(wrap_pyfunction!(_nn_constant_pad, m)?)?;
    m.add_function(wrap_pyfunction!(_nn_pixel_shuffle, m)?)?;
    m.add_function(wrap_pyfunction!(_nn_grid_sample, m)?)?;
    m.add_function(wrap_pyfunction!(_nn_sdpa_flash, m)?)?;
    m.add_function(wrap_pyfunction!(_nn_index_pad, m)?)?;
    m.add_function(wrap_pyfunction!(_nn_resample, m)?)?;
    Ok(())
}
