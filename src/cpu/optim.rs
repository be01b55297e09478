//! The CPU backend's optimizer steps: updates over every parameter of a group in one call
//! (torch's "foreach" path; the Python optimizers call them and fall back to tensor ops):
//! the element loop of each parameter runs in Rust, parameters in parallel, no Python and no
//! temporary tensor per parameter. The arithmetic is torch's single-tensor update, op for op,
//! in the parameter's precision (ATen computes float32 in float, scalars cast to float), so
//! both paths agree to the last bit where the op order allows.
//!
//! Applies to CPU tensors of one float32/float64 dtype laid out densely with distinct
//! storages; `Ok(false)` asks the caller for its general path otherwise.

use crate::dtype::DType;
use crate::error::Result;
use crate::storage::{CpuStorage, Storage, StorageElem};
use crate::tensor::Tensor;
use rayon::prelude::*;

/// Hyper-parameters of one Adam/AdamW step.
#[derive(Clone, Copy, Debug)]
pub struct AdamStep {
    pub lr: f64,
    pub beta1: f64,
    pub beta2: f64,
    pub eps: f64,
    pub weight_decay: f64,
    pub amsgrad: bool,
    pub maximize: bool,
    /// AdamW: `p *= 1 - lr * weight_decay` instead of adding `weight_decay * p` to the grad.
    pub decoupled: bool,
}

/// Hyper-parameters of one SGD step.
#[derive(Clone, Copy, Debug)]
pub struct SgdStep {
    pub lr: f64,
    pub momentum: f64,
    pub dampening: f64,
    pub weight_decay: f64,
    pub nesterov: bool,
    pub maximize: bool,
}

/// Float element arithmetic in the element's own precision.
trait Num: StorageElem + Copy + Send + Sync + PartialOrd + std::ops::Add<Output = Self> + std::ops::Sub<Output = Self>
    + std::ops::Mul<Output = Self> + std::ops::Div<Output = Self> + std::ops::Neg<Output = Self> {
    fn of(v: f64) -> Self;
    fn sqrt(self) -> Self;
    fn abs(self) -> Self;
    fn is_nan(self) -> bool;
    /// `self * a + b` with one rounding (ATen's vectorised addcmul/lerp use FMA).
    fn fma(self, a: Self, b: Self) -> Self;
}
impl Num for f32 {
    fn of(v: f64) -> Self { v as f32 }
    fn sqrt(self) -> Self { f32::sqrt(self) }
    fn abs(self) -> Self { f32::abs(self) }
    fn is_nan(self) -> bool { f32::is_nan(self) }
    fn fma(self, a: Self, b: Self) -> Self { f32::mul_add(self, a, b) }
}
impl Num for f64 {
    fn of(v: f64) -> Self { v }
    fn sqrt(self) -> Self { f64::sqrt(self) }
    fn abs(self) -> Self { f64::abs(self) }
    fn is_nan(self) -> bool { f64::is_nan(self) }
    fn fma(self, a: Self, b: Self) -> Self { f64::mul_add(self, a, b) }
}

/// ATen's vectorised lerp: `fma(w, end - self, self)` for |w| < 0.5, else
/// `fma(w - 1, end - self, end)`.
#[inline(always)]
fn lerp<T: Num>(s: T, e: T, w: T) -> T {
    let d = e - s;
    if w.abs() < T::of(0.5) { d.fma(w, s) } else { d.fma(w - T::of(1.0), e) }
}

/// torch.maximum: NaN wins.
#[inline(always)]
fn maximum<T: Num>(a: T, b: T) -> T {
    if a.is_nan() || b.is_nan() { if a.is_nan() { a } else { b } } else if a >= b { a } else { b }
}

/// Whether every tensor is a dense CPU tensor of `dtype` with `n` elements (n = the first's).
fn dense_cpu(ts: &[&Tensor], dtype: DType) -> bool {
    let n = ts.first().map_or(0, |t| t.numel());
    ts.iter().all(|t| t.device().is_cpu() && t.dtype() == dtype && t.numel() == n && t.is_contiguous())
}

/// Distinct storages (a write lock and a read lock on one storage would deadlock).
fn distinct(ts: &[&Tensor]) -> bool {
    let mut ptrs: Vec<usize> = ts.iter().map(|t| std::sync::Arc::as_ptr(&t.data().storage) as usize).collect();
    ptrs.sort_unstable();
    ptrs.windows(2).all(|w| w[0] != w[1])
}

/// Run `f` on the element slices of `read` (read-locked) and `write` (write-locked) tensors.
fn with_slices<T: Num, R>(read: &[&Tensor], write: &[&Tensor], f: impl FnOnce(&[&[T]], &mut [&mut [T]]) -> R) -> R {
    let rd: Vec<_> = read.iter().map(|t| t.data().clone()).collect();
    let wd: Vec<_> = write.iter().map(|t| t.data().clone()).collect();
    let rguards: Vec<_> = rd.iter().map(|d| d.storage.data.read()).collect();
    let mut wguards: Vec<_> = wd.iter().map(|d| d.storage.data.write()).collect();
    let rs: Vec<&[T]> = rguards.iter().zip(&rd).map(|(g, d)| {
        let Storage::Cpu(c) = &**g else { unreachable!("invariant: checked CPU") };
        let o = d.layout.offset;
        &T::get(c)[o..o + d.layout.numel()]
    }).collect();
    let mut ws: Vec<&mut [T]> = wguards.iter_mut().zip(&wd).map(|(g, d)| {
        let Storage::Cpu(c) = &mut **g else { unreachable!("invariant: checked CPU") };
        let o = d.layout.offset;
        let c: &mut CpuStorage = c;
        &mut T::get_mut(c)[o..o + d.layout.numel()]
    }).collect();
    f(&rs, &mut ws)
}

/// One Adam/AdamW step over a group: `steps` are the step counters (0-dim float tensors,
/// incremented here), `max_exp_avg_sqs` empty unless amsgrad. `Ok(false)` when the group does
/// not fit the fast path (nothing has been changed then).
pub fn adam_step(params: &[Tensor], grads: &[Tensor], exp_avgs: &[Tensor], exp_avg_sqs: &[Tensor],
                 max_exp_avg_sqs: &[Tensor], steps: &[Tensor], h: AdamStep) -> Result<bool> {
    let k = params.len();
    if grads.len() != k || exp_avgs.len() != k || exp_avg_sqs.len() != k || steps.len() != k
        || (h.amsgrad && max_exp_avg_sqs.len() != k) || k == 0 {
        return Ok(false);
    }
    let dtype = params[0].dtype();
    if !matches!(dtype, DType::Float32 | DType::Float64) {
        return Ok(false);
    }
    for i in 0..k {
        let mut ts = vec![&params[i], &grads[i], &exp_avgs[i], &exp_avg_sqs[i]];
        if h.amsgrad {
            ts.push(&max_exp_avg_sqs[i]);
        }
        if !dense_cpu(&ts, dtype) || !distinct(&ts) || steps[i].numel() != 1 {
            return Ok(false);
        }
    }
    // the step counters first, as torch's loop (each parameter's bias corrections use its own)
    let mut step_vals = Vec::with_capacity(k);
    for s in steps {
        let v = s.item()?.as_f64() + 1.0;
        crate::ops::fill_(s, &Tensor::wrapped_scalar(crate::Scalar::Float(v)))?;
        step_vals.push(v);
    }
    let run = |i: usize| {
        let step = step_vals[i];
        let bc1 = 1.0 - h.beta1.powf(step);
        let bc2 = 1.0 - h.beta2.powf(step);
        let step_size = h.lr / bc1;
        let bc2_sqrt = bc2.sqrt();
        let mut write = vec![&params[i], &exp_avgs[i], &exp_avg_sqs[i]];
        if h.amsgrad {
            write.push(&max_exp_avg_sqs[i]);
        }
        match dtype {
            DType::Float32 => adam_elems::<f32>(&grads[i], &write, h, step_size, bc2_sqrt),
            _ => adam_elems::<f64>(&grads[i], &write, h, step_size, bc2_sqrt),
        }
    };
    for_params(params, run);
    for i in 0..k {
        params[i].bump_version();
        exp_avgs[i].bump_version();
        exp_avg_sqs[i].bump_version();
        if h.amsgrad {
            max_exp_avg_sqs[i].bump_version();
        }
    }
    Ok(true)
}

fn adam_elems<T: Num>(grad: &Tensor, write: &[&Tensor], h: AdamStep, step_size: f64, bc2_sqrt: f64) {
    let (wd, w1, b2, omb2, eps) = (T::of(h.weight_decay), T::of(1.0 - h.beta1), T::of(h.beta2), T::of(1.0 - h.beta2), T::of(h.eps));
    let decay = T::of(1.0 - h.lr * h.weight_decay);
    let (neg_step, bc2s) = (T::of(-step_size), T::of(bc2_sqrt));
    with_slices::<T, ()>(&[grad], write, |r, w| {
        let g = r[0];
        let (p, rest) = w.split_at_mut(1);
        let (m, rest) = rest.split_at_mut(1);
        let (v, vmax) = rest.split_at_mut(1);
        let (p, m, v) = (&mut *p[0], &mut *m[0], &mut *v[0]);
        let mut vmax = vmax.first_mut().map(|s| &mut **s);
        for j in 0..p.len() {
            let mut gj = if h.maximize { -g[j] } else { g[j] };
            if h.weight_decay != 0.0 {
                if h.decoupled {
                    p[j] = p[j] * decay;
                } else {
                    gj = gj + wd * p[j];
                }
            }
            m[j] = lerp(m[j], gj, w1);
            // mul_(beta2) then addcmul_(g, g, 1 - beta2): fma(value * g, g, self)
            v[j] = (omb2 * gj).fma(gj, v[j] * b2);
            let den = match vmax.as_deref_mut() {
                Some(vm) => {
                    vm[j] = maximum(vm[j], v[j]);
                    vm[j].sqrt() / bc2s + eps
                }
                None => v[j].sqrt() / bc2s + eps,
            };
            p[j] = p[j] + neg_step * m[j] / den;
        }
    })
}

/// One SGD step over a group. `bufs` are the momentum buffers (ignored without momentum);
/// `fresh[i]` marks a buffer created for this step, which takes the gradient as is (torch's
/// `torch.clone(grad)` on the first step). `Ok(false)` when the group does not fit.
pub fn sgd_step(params: &[Tensor], grads: &[Tensor], bufs: &[Tensor], fresh: &[bool], h: SgdStep) -> Result<bool> {
    let k = params.len();
    let mom = h.momentum != 0.0;
    if grads.len() != k || k == 0 || (mom && (bufs.len() != k || fresh.len() != k)) {
        return Ok(false);
    }
    let dtype = params[0].dtype();
    if !matches!(dtype, DType::Float32 | DType::Float64) {
        return Ok(false);
    }
    for i in 0..k {
        let mut ts = vec![&params[i], &grads[i]];
        if mom {
            ts.push(&bufs[i]);
        }
        if !dense_cpu(&ts, dtype) || !distinct(&ts) {
            return Ok(false);
        }
    }
    let run = |i: usize| {
        let mut write = vec![&params[i]];
        if mom {
            write.push(&bufs[i]);
        }
        let first = mom && fresh[i];
        match dtype {
            DType::Float32 => sgd_elems::<f32>(&grads[i], &write, h, first),
            _ => sgd_elems::<f64>(&grads[i], &write, h, first),
        }
    };
    for_params(params, run);
    for i in 0..k {
        params[i].bump_version();
        if mom {
            bufs[i].bump_version();
        }
    }
    Ok(true)
}

fn sgd_elems<T: Num>(grad: &Tensor, write: &[&Tensor], h: SgdStep, first: bool) {
    let (wd, m, omd, mlr) = (T::of(h.weight_decay), T::of(h.momentum), T::of(1.0 - h.dampening), T::of(-h.lr));
    with_slices::<T, ()>(&[grad], write, |r, w| {
        let g = r[0];
        let (p, rest) = w.split_at_mut(1);
        let p = &mut *p[0];
        let mut buf = rest.first_mut().map(|s| &mut **s);
        for j in 0..p.len() {
            let mut gj = if h.maximize { -g[j] } else { g[j] };
            if h.weight_decay != 0.0 {
                gj = gj + wd * p[j];
            }
            if let Some(b) = buf.as_deref_mut() {
                b[j] = if first { gj } else { b[j] * m + omd * gj };
                gj = if h.nesterov { gj + m * b[j] } else { b[j] };
            }
            p[j] = p[j] + mlr * gj;
        }
    })
}

/// Hyper-parameters of one RMSprop step.
#[derive(Clone, Copy, Debug)]
pub struct RmspropStep {
    pub lr: f64,
    pub alpha: f64,
    pub eps: f64,
    pub weight_decay: f64,
    pub momentum: f64,
    pub centered: bool,
    pub maximize: bool,
}

/// Hyper-parameters of one Adagrad step.
#[derive(Clone, Copy, Debug)]
pub struct AdagradStep {
    pub lr: f64,
    pub lr_decay: f64,
    pub weight_decay: f64,
    pub eps: f64,
    pub maximize: bool,
}

/// Check a group for the fast path: `per[i]` are the tensors of parameter i (all dense CPU of
/// the first's dtype, distinct storages), steps 1-element.
fn group_fits(per: &[Vec<&Tensor>], steps: &[Tensor]) -> Option<DType> {
    let dtype = per.first()?.first()?.dtype();
    if !matches!(dtype, DType::Float32 | DType::Float64) || steps.len() != per.len() {
        return None;
    }
    per.iter().zip(steps).all(|(ts, s)| dense_cpu(ts, dtype) && distinct(ts) && s.numel() == 1).then_some(dtype)
}

/// Increment the step counters; their new values.
fn bump_steps(steps: &[Tensor]) -> Result<Vec<f64>> {
    let mut vals = Vec::with_capacity(steps.len());
    for s in steps {
        let v = s.item()?.as_f64() + 1.0;
        crate::ops::fill_(s, &Tensor::wrapped_scalar(crate::Scalar::Float(v)))?;
        vals.push(v);
    }
    Ok(vals)
}

fn for_params(params: &[Tensor], run: impl Fn(usize) + Send + Sync) {
    let k = params.len();
    let total: usize = params.iter().map(|p| p.numel()).sum();
    if total >= 1 << 16 && k > 1 && crate::runtime::num_threads() > 1 {
        crate::runtime::install(|| (0..k).into_par_iter().for_each(run));
    } else {
        (0..k).for_each(run);
    }
}

/// One RMSprop step over a group (`grad_avgs` used when centered, `bufs` when momentum > 0).
pub fn rmsprop_step(params: &[Tensor], grads: &[Tensor], square_avgs: &[Tensor], grad_avgs: &[Tensor],
                    bufs: &[Tensor], steps: &[Tensor], h: RmspropStep) -> Result<bool> {
    let k = params.len();
    let mom = h.momentum > 0.0;
    if k == 0 || grads.len() != k || square_avgs.len() != k || (h.centered && grad_avgs.len() != k) || (mom && bufs.len() != k) {
        return Ok(false);
    }
    let per: Vec<Vec<&Tensor>> = (0..k).map(|i| {
        let mut ts = vec![&params[i], &grads[i], &square_avgs[i]];
        if h.centered { ts.push(&grad_avgs[i]); }
        if mom { ts.push(&bufs[i]); }
        ts
    }).collect();
    let Some(dtype) = group_fits(&per, steps) else { return Ok(false) };
    bump_steps(steps)?;
    for_params(params, |i| {
        let write: Vec<&Tensor> = per[i].iter().enumerate().filter(|(j, _)| *j != 1).map(|(_, t)| *t).collect();
        match dtype {
            DType::Float32 => rmsprop_elems::<f32>(&grads[i], &write, h),
            _ => rmsprop_elems::<f64>(&grads[i], &write, h),
        }
    });
    for ts in &per {
        for (j, t) in ts.iter().enumerate() {
            if j != 1 { t.bump_version(); }
        }
    }
    Ok(true)
}

fn rmsprop_elems<T: Num>(grad: &Tensor, write: &[&Tensor], h: RmspropStep) {
    let (wd, a, oma, eps, m, mlr) = (T::of(h.weight_decay), T::of(h.alpha), T::of(1.0 - h.alpha), T::of(h.eps), T::of(h.momentum), T::of(-h.lr));
    let mom = h.momentum > 0.0;
    with_slices::<T, ()>(&[grad], write, |r, w| {
        let g = r[0];
        let mut it = w.iter_mut();
        let p = it.next().expect("param");
        let sq = it.next().expect("square_avg");
        let mut ga = if h.centered { it.next() } else { None };
        let mut buf = if mom { it.next() } else { None };
        for j in 0..p.len() {
            let mut gj = if h.maximize { -g[j] } else { g[j] };
            if h.weight_decay != 0.0 {
                gj = gj + wd * p[j];
            }
            sq[j] = (oma * gj).fma(gj, sq[j] * a);
            let avg = match ga.as_deref_mut() {
                Some(gav) => {
                    gav[j] = lerp(gav[j], gj, oma);
                    (T::of(-1.0) * gav[j]).fma(gav[j], sq[j]).sqrt() + eps
                }
                None => sq[j].sqrt() + eps,
            };
            match buf.as_deref_mut() {
                Some(b) => {
                    b[j] = b[j] * m + gj / avg;
                    p[j] = p[j] + mlr * b[j];
                }
                None => p[j] = p[j] + mlr * gj / avg,
            }
        }
    })
}

/// One Adagrad step over a group (dense gradients).
pub fn adagrad_step(params: &[Tensor], grads: &[Tensor], state_sums: &[Tensor], steps: &[Tensor], h: AdagradStep) -> Result<bool> {
    let k = params.len();
    if k == 0 || grads.len() != k || state_sums.len() != k {
        return Ok(false);
    }
    let per: Vec<Vec<&Tensor>> = (0..k).map(|i| vec![&params[i], &grads[i], &state_sums[i]]).collect();
    let Some(dtype) = group_fits(&per, steps) else { return Ok(false) };
    let step_vals = bump_steps(steps)?;
    for_params(params, |i| {
        let clr = h.lr / (1.0 + (step_vals[i] - 1.0) * h.lr_decay);
        let write = [&params[i], &state_sums[i]];
        match dtype {
            DType::Float32 => adagrad_elems::<f32>(&grads[i], &write, h, clr),
            _ => adagrad_elems::<f64>(&grads[i], &write, h, clr),
        }
    });
    for i in 0..k {
        params[i].bump_version();
        state_sums[i].bump_version();
    }
    Ok(true)
}

fn adagrad_elems<T: Num>(grad: &Tensor, write: &[&Tensor], h: AdagradStep, clr: f64) {
    let (wd, eps, mclr, one) = (T::of(h.weight_decay), T::of(h.eps), T::of(-clr), T::of(1.0));
    with_slices::<T, ()>(&[grad], write, |r, w| {
        let g = r[0];
        let (p, s) = w.split_at_mut(1);
        let (p, s) = (&mut *p[0], &mut *s[0]);
        for j in 0..p.len() {
            let mut gj = if h.maximize { -g[j] } else { g[j] };
            if h.weight_decay != 0.0 {
                gj = gj + wd * p[j];
            }
            s[j] = (one * gj).fma(gj, s[j]);
            let std = s[j].sqrt() + eps;
            p[j] = p[j] + mclr * gj / std;
        }
    })
}
