//! `grid_sample` as ATen's `grid_sampler_2d` / `grid_sampler_3d` (GridSampler2DBackward0 /
//! GridSampler3DBackward0): one node whose backward is the kernel's backward pass and, under
//! `create_graph`, an op of its own (GridSampler2DBackwardBackward0) whose gradients are the
//! kernel's double-backward pass, as PyTorch's. The kernels live with the backends
//! (`BackendStorage::grid_sampler`, `cpu::grid`); half-precision inputs are computed in
//! float32 and rounded back.

use crate::autograd::{record, Node, Save, SavedValue};
use crate::backend::{self, GridMode, GridPadding, GridPass, GridSampler};
use crate::dtype::DType;
use crate::error::Result;
use crate::tensor::Tensor;
use crate::{bail, ensure};

/// `F.grid_sample(input, grid, mode, padding_mode, align_corners)` after the Python-level
/// argument checks: ATen's shape and dtype checks, then the kernel.
pub fn grid_sample(input: &Tensor, grid: &Tensor, mode: GridMode, padding: GridPadding, align_corners: bool) -> Result<Tensor> {
    let (is, gs) = (input.shape(), grid.shape());
    ensure!(input.device() == grid.device(), Runtime,
        "grid_sampler(): expected input and grid to be on same device, but input is on {} and grid is on {}", input.device(), grid.device());
    ensure!(!is.is_empty() && !gs.is_empty() && is[0] == gs[0], Runtime,
        "grid_sampler(): expected grid and input to have same batch size, but got input with sizes {:?} and grid with sizes {:?}", is, gs);
    ensure!(is.len() >= 2 && gs[gs.len() - 1] as i64 == is.len() as i64 - 2, Runtime,
        "grid_sampler(): expected grid to have size {} in last dimension, but got grid with sizes {:?}", is.len() as i64 - 2, gs);
    for (i, &s) in is.iter().enumerate().skip(2) {
        ensure!(s > 0, Runtime,
            "grid_sampler(): expected input to have non-empty spatial dimensions, but input has sizes {:?} with dimension {} being empty", is, i);
    }
    let two = is.len() == 4;
    if !two {
        ensure!(is.len() == 5 && gs.len() == 5, Runtime,
            "grid_sampler(): expected 5D input and grid with same number of dimensions, but got input with sizes {:?} and grid with sizes {:?}", is, gs);
        ensure!(mode != GridMode::Bicubic, Runtime, "grid_sampler(): bicubic interpolation only supports 4D input");
    } else {
        ensure!(gs.len() == 4, Runtime,
            "grid_sampler(): expected 4D input and grid with same number of dimensions, but got input with sizes {:?} and grid with sizes {:?}", is, gs);
    }
    let dt = input.dtype();
    if !dt.is_float() {
        bail!(NotImplemented, "\"{}\" not implemented for '{}'", if two { "grid_sampler_2d_cpu_kernel_impl" } else { "grid_sampler3d_cpu" }, dt.scalar_name());
    }
    ensure!(grid.dtype() == dt, Runtime, "expected scalar type {} but found {}", dt.scalar_name(), grid.dtype().scalar_name());
    crate::autograd::forward::refuse(&[input, grid], if two { "grid_sampler_2d" } else { "grid_sampler_3d" })?;
    let nd = is.len() - 2;
    let spec = GridSampler { mode, padding, align_corners, input: is.to_vec(), out: gs[1..1 + nd].to_vec() };
    let mut oshape = vec![is[0], is[1]];
    oshape.extend_from_slice(&spec.out);
    let out = {
        let _g = crate::autograd::raw_mode();
        let r = backend::grid_sampler(&[Some(&prep(input)?), Some(&prep(grid)?)], GridPass::Forward, &spec, &[true], &[oshape.to_vec()])?;
        back(r.into_iter().next().flatten().expect("the forward's output"), dt)?
    };
    let name = if two { "GridSampler2DBackward0" } else { "GridSampler3DBackward0" };
    let again = if two { "GridSampler2DBackwardBackward0" } else { "GridSampler3DBackwardBackward0" };
    record(name, &[input, grid], &[&out], &[Save::In(input), Save::In(grid)], move |s, g, need| {
        let (x, gr) = (s.get(0)?, s.get(1)?);
        grid_sampler_backward(&g[0], &x, &gr, &spec, [need[0], need[1]], again)
    })?;
    if out.grad_fn().is_some() {
        Node::annotate(&out, &[
            ("align_corners", SavedValue::Bool(align_corners)),
            ("interpolation_mode", SavedValue::Int64(mode as i64)),
            ("padding_mode", SavedValue::Int64(padding as i64)),
        ], &[(0, "input"), (1, "grid")]);
    }
    Ok(out)
}

/// The kernel's operand: detached, contiguous, float32 for the half types.
fn prep(t: &Tensor) -> Result<Tensor> {
    let cd = compute_dtype(t.dtype());
    let t = t.detach();
    if t.dtype() == cd && t.is_contiguous() { Ok(t) } else { super::cast_raw(&t, cd) }
}

fn compute_dtype(d: DType) -> DType {
    if matches!(d, DType::Float16 | DType::BFloat16) { DType::Float32 } else { d }
}

fn back(t: Tensor, d: DType) -> Result<Tensor> {
    if t.dtype() == d { Ok(t) } else { super::cast_raw(&t, d) }
}

/// The backward pass (`need`: input, grid); under `create_graph` its results are the
/// outputs of `again`, whose gradients are the double-backward pass.
fn grid_sampler_backward(g: &Tensor, x: &Tensor, grid: &Tensor, spec: &GridSampler, need: [bool; 2], again: &'static str) -> Result<Vec<Option<Tensor>>> {
    let outs = {
        let _g = crate::autograd::raw_mode();
        let r = backend::grid_sampler(&[Some(&prep(g)?), Some(&prep(x)?), Some(&prep(grid)?)], GridPass::Backward, spec, &need,
            &[x.shape().to_vec(), grid.shape().to_vec()])?;
        let mut o = Vec::new();
        for (t, d) in r.into_iter().zip([x.dtype(), grid.dtype()]) {
            o.push(t.map(|t| back(t, d)).transpose()?);
        }
        o
    };
    let produced: Vec<&Tensor> = outs.iter().flatten().collect();
    if produced.is_empty() {
        return Ok(outs);
    }
    let has = [outs[0].is_some(), outs[1].is_some()];
    let spec = spec.clone();
    record(again, &[g, x, grid], &produced, &[Save::In(g), Save::In(x), Save::In(grid)], move |s, gg, n| {
        let (g, x, grid) = (s.get(0)?, s.get(1)?, s.get(2)?);
        // the incoming gradients of the outputs this backward produced
        let mut it = gg.iter();
        let ggi = if has[0] { it.next().cloned() } else { None };
        let ggg = if has[1] { it.next().cloned() } else { None };
        let r = {
            let _g = crate::autograd::raw_mode();
            let (ggi, ggg) = (ggi.as_ref().map(prep).transpose()?, ggg.as_ref().map(prep).transpose()?);
            backend::grid_sampler(&[Some(&prep(&g)?), Some(&prep(&x)?), Some(&prep(&grid)?), ggi.as_ref(), ggg.as_ref()],
                GridPass::DoubleBackward, &spec, n, &[g.shape().to_vec(), x.shape().to_vec(), grid.shape().to_vec()])?
        };
        let mut o = Vec::new();
        for (t, src) in r.into_iter().zip([&g, &x, &grid]) {
            o.push(match t {
                Some(t) => Some(crate::autograd::not_differentiable_again(back(t, src.dtype())?, &[&g, &x, &grid], "torch::autograd::NotImplemented", "grid_sampler_backward_backward")?),
                None => None,
            });
        }
        Ok(o)
    })?;
    Ok(outs)
}
