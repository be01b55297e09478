//! Factories: zeros, ones, full, arange, linspace, eye, and the seeded random generator.

use super::{Scalar, Tensor};
use crate::device::Device;
use crate::dtype::DType;
use crate::storage::{CpuStorage, StorageElem};

/// A CPU tensor of zeros (an error, never an abort, when the shape is too large).
pub fn zeros(shape: &[usize], dtype: DType) -> crate::Result<Tensor> {
    if dtype.is_complex() {
        return crate::backend::full(shape, Scalar::Int(0), dtype, Device::Cpu);
    }
    let n = crate::shape::numel_checked(shape)?;
    Ok(Tensor::from_storage(CpuStorage::zeros(dtype, n)?, shape))
}

/// A tensor of zeros on `device`.
pub fn zeros_on(shape: &[usize], dtype: DType, device: Device) -> crate::Result<Tensor> {
    match device {
        Device::Cpu => zeros(shape, dtype),
        _ => crate::backend::full(shape, Scalar::Int(0), dtype, device),
    }
}

/// A tensor on `device` whose every element the caller will write (`cat`): on the CPU a
/// recycled buffer, unzeroed; elsewhere zeros.
pub fn scratch_on(shape: &[usize], dtype: DType, device: Device) -> crate::Result<Tensor> {
    match device {
        Device::Cpu if !dtype.is_complex() => {
            let n = crate::shape::numel_checked(shape)?;
            Ok(Tensor::from_storage(CpuStorage::scratch(dtype, n)?, shape))
        }
        _ => zeros_on(shape, dtype, device),
    }
}

/// A tensor filled with `v` on `device`.
pub fn full_on(shape: &[usize], v: Scalar, dtype: DType, device: Device) -> crate::Result<Tensor> {
    check_fill(v, dtype)?;
    crate::backend::full(shape, v, dtype, device)
}

fn check_fill(v: Scalar, dtype: DType) -> crate::Result<()> {
    crate::ensure!(!dtype.overflows(v), Runtime, "value cannot be converted to type {} without overflow", dtype.c_name());
    Ok(())
}

/// A CPU tensor filled with `v`.
pub fn full(shape: &[usize], v: Scalar, dtype: DType) -> crate::Result<Tensor> {
    check_fill(v, dtype)?;
    if dtype.is_complex() {
        return crate::backend::full(shape, v, dtype, Device::Cpu);
    }
    let n = crate::shape::numel_checked(shape)?;
    Ok(Tensor::from_storage(CpuStorage::filled(dtype, n, v)?, shape))
}

/// A CPU tensor of ones.
pub fn ones(shape: &[usize], dtype: DType) -> crate::Result<Tensor> {
    full(shape, Scalar::Int(1), dtype)
}

/// `arange(start, end, step)` with PyTorch's length rule `ceil((end-start)/step)`.
pub fn arange(start: f64, end: f64, step: f64, dtype: DType) -> crate::Result<Tensor> {
    crate::ensure!(step != 0.0, Runtime, "step must be nonzero");
    crate::ensure!((step > 0.0 && end >= start) || (step < 0.0 && end <= start), Runtime,
        "upper bound and lower bound inconsistent with step sign");
    crate::ensure!(start.is_finite() && end.is_finite(), Runtime, "unsupported range: {} -> {}", start, end);
    let len = ((end - start) / step).ceil().max(0.0);
    crate::ensure!(len <= i64::MAX as f64, Runtime, "invalid size, possible overflow?");
    let n = len as usize;
    crate::shape::numel_checked(&[n])?;
    // the common dtypes straight into their buffer (one pass, no f64 staging): int64 in
    // integer arithmetic, float32 as ATen (in double, rounded once)
    match dtype {
        DType::Int64 if start.fract() == 0.0 && step.fract() == 0.0 => {
            let (s, st) = (start as i64, step as i64);
            let v: Vec<i64> = crate::cpu::alloc::cached_with(n, |i| s + i as i64 * st)?;
            return Ok(Tensor::from_storage(i64::wrap(v), &[n]));
        }
        DType::Float32 => {
            let v: Vec<f32> = crate::cpu::alloc::cached_with(n, |i| (start + i as f64 * step) as f32)?;
            return Ok(Tensor::from_storage(f32::wrap(v), &[n]));
        }
        _ => {}
    }
    let vals: Vec<f64> = crate::cpu::alloc::cached_with(n, |i| start + i as f64 * step)?;
    from_f64s(&vals, &[n], dtype)
}

/// `arange(start, end, step)` of integers into int64, exactly (ATen's int64 kernel: the
/// length `ceil((end - start) / step)` in integer arithmetic, the values `start + i step`),
/// where the f64 form rounds past 2^53.
pub fn arange_i64(start: i64, end: i64, step: i64) -> crate::Result<Tensor> {
    crate::ensure!(step != 0, Runtime, "step must be nonzero");
    crate::ensure!((step > 0 && end >= start) || (step < 0 && end <= start), Runtime,
        "upper bound and lower bound inconsistent with step sign");
    let span = end as i128 - start as i128;
    let len = (span + step as i128 - step.signum() as i128) / step as i128;
    crate::ensure!(len <= i64::MAX as i128, Runtime, "invalid size, possible overflow?");
    let n = len.max(0) as usize;
    crate::shape::numel_checked(&[n])?;
    let v: Vec<i64> = crate::cpu::alloc::cached_with(n, |i| start.wrapping_add((i as i64).wrapping_mul(step)))?;
    Ok(Tensor::from_storage(i64::wrap(v), &[n]))
}

/// `linspace(start, end, steps)`; PyTorch fills the second half from the end for symmetry.
pub fn linspace(start: f64, end: f64, steps: usize, dtype: DType) -> crate::Result<Tensor> {
    crate::shape::numel_checked(&[steps])?;
    if steps == 1 {
        return from_f64s(&[start], &[1], dtype);
    }
    if dtype == DType::Float32 {
        // matches torch: the arithmetic is done in the output precision
        let (s32, e32) = (start as f32, end as f32);
        let step = if steps > 1 { (e32 - s32) / (steps - 1) as f32 } else { 0.0 };
        let half = steps / 2;
        let vals: Vec<f32> = crate::cpu::alloc::cached_with(steps, |i| if i < half { step.mul_add(i as f32, s32) } else { (-step).mul_add((steps - 1 - i) as f32, e32) })?;
        return Ok(Tensor::from_storage(f32::wrap(vals), &[steps]));
    }
    let step = if steps > 1 { (end - start) / (steps - 1) as f64 } else { 0.0 };
    let half = steps / 2;
    let vals: Vec<f64> = crate::cpu::alloc::cached_with(steps, |i| if i < half { start + step * i as f64 } else { end - step * (steps - 1 - i) as f64 })?;
    from_f64s(&vals, &[steps], dtype)
}

/// An `n x m` identity matrix.
pub fn eye(n: usize, m: usize, dtype: DType) -> crate::Result<Tensor> {
    let mut v = crate::cpu::alloc::try_zeroed::<f64>(crate::shape::numel_checked(&[n, m])?)?;
    for i in 0..n.min(m) {
        v[i * m + i] = 1.0;
    }
    from_f64s(&v, &[n, m], dtype)
}

/// A tensor from f64 values converted to `dtype`.
pub fn from_f64s(v: &[f64], shape: &[usize], dtype: DType) -> crate::Result<Tensor> {
    use crate::cpu::alloc::cached_with;
    let n = v.len();
    if dtype.is_complex() {
        // real parts `v`, imaginary parts zero, interleaved
        let pairs: Vec<f64> = cached_with(2 * n, |i| if i % 2 == 0 { v[i / 2] } else { 0.0 })?;
        let mut pshape = shape.to_vec();
        pshape.push(2);
        return crate::ops::complex::fresh_complex(&from_f64s(&pairs, &pshape, dtype.to_real())?);
    }
    let s = match dtype {
        DType::Bool => bool::wrap(cached_with(n, |i| v[i] != 0.0)?),
        DType::UInt8 => u8::wrap(cached_with(n, |i| v[i] as i64 as u8)?),
        DType::Int8 => i8::wrap(cached_with(n, |i| v[i] as i64 as i8)?),
        DType::Int16 => i16::wrap(cached_with(n, |i| v[i] as i64 as i16)?),
        DType::Int32 => i32::wrap(cached_with(n, |i| v[i] as i64 as i32)?),
        DType::Int64 => i64::wrap(cached_with(n, |i| v[i] as i64)?),
        DType::Float16 => half::f16::wrap(cached_with(n, |i| half::f16::from_f32(v[i] as f32))?),
        DType::BFloat16 => half::bf16::wrap(cached_with(n, |i| half::bf16::from_f32(v[i] as f32))?),
        DType::Float32 => f32::wrap(cached_with(n, |i| v[i] as f32)?),
        DType::Float64 => f64::wrap(cached_with(n, |i| v[i])?),
        DType::Complex64 | DType::Complex128 => unreachable!("complex handled above"),
    };
    Ok(Tensor::from_storage(s, shape))
}

/// A tensor from i64 values converted to `dtype` (exact for integers).
pub fn from_i64s(v: &[i64], shape: &[usize], dtype: DType) -> crate::Result<Tensor> {
    use crate::cpu::alloc::cached_with as try_with;
    let n = v.len();
    if dtype.is_complex() {
        return from_f64s(&v.iter().map(|&i| i as f64).collect::<Vec<_>>(), shape, dtype);
    }
    Ok(match dtype {
        DType::Int64 => Tensor::from_storage(i64::wrap(try_with(n, |i| v[i])?), shape),
        DType::Int32 => Tensor::from_storage(i32::wrap(try_with(n, |i| v[i] as i32)?), shape),
        DType::Int16 => Tensor::from_storage(i16::wrap(try_with(n, |i| v[i] as i16)?), shape),
        DType::Int8 => Tensor::from_storage(i8::wrap(try_with(n, |i| v[i] as i8)?), shape),
        DType::UInt8 => Tensor::from_storage(u8::wrap(try_with(n, |i| v[i] as u8)?), shape),
        DType::Bool => Tensor::from_storage(bool::wrap(try_with(n, |i| v[i] != 0)?), shape),
        _ => return from_f64s(&try_with(n, |i| v[i] as f64)?, shape, dtype),
    })
}

/// Seed the default generator (`torch.manual_seed`).
pub fn manual_seed(seed: u64) {
    crate::random::default_generator().with(|g| g.manual_seed(seed));
}

/// Uniform [0, 1) samples from the default generator.
pub fn rand(shape: &[usize], dtype: DType) -> crate::Result<Tensor> {
    crate::ops::rand(shape, dtype, None)
}

/// Standard normal samples from the default generator.
pub fn randn(shape: &[usize], dtype: DType) -> crate::Result<Tensor> {
    crate::ops::randn(shape, dtype, None)
}

/// Integers uniform in [low, high) from the default generator.
pub fn randint(low: i64, high: i64, shape: &[usize], dtype: DType) -> crate::Result<Tensor> {
    crate::ops::randint(low, high, shape, dtype, None)
}

/// A random permutation of 0..n from the default generator.
pub fn randperm(n: usize) -> crate::Result<Tensor> {
    crate::ops::randperm(n, DType::Int64, None)
}
