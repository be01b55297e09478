//! Bindings of the foreach optimizer steps (`cpu::optim`): translate, release the GIL, run.

use super::tensor::PyTensor;
use crate::cpu::optim::{adagrad_step, adam_step, rmsprop_step, sgd_step, AdagradStep, AdamStep, RmspropStep, SgdStep};
use crate::tensor::Tensor;
use pyo3::prelude::*;

fn tensors(v: &[PyRef<'_, PyTensor>]) -> Vec<Tensor> {
    v.iter().map(|t| t.t.clone()).collect()
}

/// One Adam/AdamW step over a parameter group in one call; False when it does not fit.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
#[pyo3(signature = (params, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs, state_steps, *, lr, beta1, beta2, eps, weight_decay, amsgrad, maximize, decoupled))]
fn _foreach_adam_step(
    py: Python<'_>,
    params: Vec<PyRef<'_, PyTensor>>,
    grads: Vec<PyRef<'_, PyTensor>>,
    exp_avgs: Vec<PyRef<'_, PyTensor>>,
    exp_avg_sqs: Vec<PyRef<'_, PyTensor>>,
    max_exp_avg_sqs: Vec<PyRef<'_, PyTensor>>,
    state_steps: Vec<PyRef<'_, PyTensor>>,
    lr: f64, beta1: f64, beta2: f64, eps: f64, weight_decay: f64, amsgrad: bool, maximize: bool, decoupled: bool,
) -> PyResult<bool> {
    let (p, g, m, v, vm, s) = (tensors(&params), tensors(&grads), tensors(&exp_avgs), tensors(&exp_avg_sqs), tensors(&max_exp_avg_sqs), tensors(&state_steps));
    for t in &p {
        crate::autograd::before_write(t)?;
    }
    let h = AdamStep { lr, beta1, beta2, eps, weight_decay, amsgrad, maximize, decoupled };
    Ok(py.detach(|| adam_step(&p, &g, &m, &v, &vm, &s, h))?)
}

/// One SGD step over a parameter group in one call; False when it does not fit.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
#[pyo3(signature = (params, grads, momentum_buffers, fresh, *, lr, momentum, dampening, weight_decay, nesterov, maximize))]
fn _foreach_sgd_step(
    py: Python<'_>,
    params: Vec<PyRef<'_, PyTensor>>,
    grads: Vec<PyRef<'_, PyTensor>>,
    momentum_buffers: Vec<PyRef<'_, PyTensor>>,
    fresh: Vec<bool>,
    lr: f64, momentum: f64, dampening: f64, weight_decay: f64, nesterov: bool, maximize: bool,
) -> PyResult<bool> {
    let (p, g, b) = (tensors(&params), tensors(&grads), tensors(&momentum_buffers));
    for t in &p {
        crate::autograd::before_write(t)?;
    }
    let h = SgdStep { lr, momentum, dampening, weight_decay, nesterov, maximize };
    Ok(py.detach(|| sgd_step(&p, &g, &b, &fresh, h))?)
}

/// One RMSprop step over a parameter group in one call; False when it does not fit.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
#[pyo3(signature = (params, grads, square_avgs, grad_avgs, momentum_buffers, state_steps, *, lr, alpha, eps, weight_decay, momentum, centered, maximize))]
fn _foreach_rmsprop_step(
    py: Python<'_>,
    params: Vec<PyRef<'_, PyTensor>>,
    grads: Vec<PyRef<'_, PyTensor>>,
    square_avgs: Vec<PyRef<'_, PyTensor>>,
    grad_avgs: Vec<PyRef<'_, PyTensor>>,
    momentum_buffers: Vec<PyRef<'_, PyTensor>>,
    state_steps: Vec<PyRef<'_, PyTensor>>,
    lr: f64, alpha: f64, eps: f64, weight_decay: f64, momentum: f64, centered: bool, maximize: bool,
) -> PyResult<bool> {
    let (p, g, sq, ga, b, s) = (tensors(&params), tensors(&grads), tensors(&square_avgs), tensors(&grad_avgs), tensors(&momentum_buffers), tensors(&state_steps));
    for t in &p {
        crate::autograd::before_write(t)?;
    }
    let h = RmspropStep { lr, alpha, eps, weight_decay, momentum, centered, maximize };
    Ok(py.detach(|| rmsprop_step(&p, &g, &sq, &ga, &b, &s, h))?)
}

/// One Adagrad step over a parameter group in one call; False when it does not fit.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
#[pyo3(signature = (params, grads, state_sums, state_steps, *, lr, lr_decay, weight_decay, eps, maximize))]
fn _foreach_adagrad_step(
    py: Python<'_>,
    params: Vec<PyRef<'_, PyTensor>>,
    grads: Vec<PyRef<'_, PyTensor>>,
    state_sums: Vec<PyRef<'_, PyTensor>>,
    state_steps: Vec<PyRef<'_, PyTensor>>,
    lr: f64, lr_decay: f64, weight_decay: f64, eps: f64, maximize: bool,
) -> PyResult<bool> {
    let (p, g, ss, s) = (tensors(&params), tensors(&grads), tensors(&state_sums), tensors(&state_steps));
    for t in &p {
        crate::autograd::before_write(t)?;
    }
    let h = AdagradStep { lr, lr_decay, weight_decay, eps, maximize };
    Ok(py.detach(|| adagrad_step(&p, &g, &ss, &s, h))?)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(_foreach_rmsprop_step, m)?)?;
    m.add_function(wrap_pyfunction!(_foreach_adagrad_step, m)?)?;
    m.add_function(wrap_pyfunction!(_foreach_adam_step, m)?)?;
    m.add_function(wrap_pyfunction!(_foreach_sgd_step, m)?)?;
    Ok(())
}
