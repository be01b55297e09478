//! Factories: zeros, ones, full, arange, linspace, eye, and the seeded random generator.

use super::{Scalar, Tensor};
use crate::device::Device;
use crate::dtype::DType;
use crate::storage::{CpuStorage, StorageElem};
use parking_lot::Mutex;

/// A CPU tensor of zeros (an error, never an abort, when the shape is too large).
pub fn zeros(shape: &[usize], dtype: DType) -> crate::Result<Tensor> {
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

/// A tensor filled with `v` on `device`.
pub fn full_on(shape: &[usize], v: Scalar, dtype: DType, device: Device) -> crate::Result<Tensor> {
    crate::backend::full(shape, v, dtype, device)
}

/// A CPU tensor filled with `v`.
pub fn full(shape: &[usize], v: Scalar, dtype: DType) -> crate::Result<Tensor> {
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
    let vals: Vec<f64> = crate::cpu::alloc::try_with(n, |i| start + i as f64 * step)?;
    from_f64s(&vals, &[n], dtype)
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
        let vals: Vec<f32> = crate::cpu::alloc::try_with(steps, |i| if i < half { step.mul_add(i as f32, s32) } else { (-step).mul_add((steps - 1 - i) as f32, e32) })?;
        return Ok(Tensor::from_storage(f32::wrap(vals), &[steps]));
    }
    let step = if steps > 1 { (end - start) / (steps - 1) as f64 } else { 0.0 };
    let half = steps / 2;
    let vals: Vec<f64> = crate::cpu::alloc::try_with(steps, |i| if i < half { start + step * i as f64 } else { end - step * (steps - 1 - i) as f64 })?;
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
    use crate::cpu::alloc::try_with;
    let n = v.len();
    let s = match dtype {
        DType::Bool => bool::wrap(try_with(n, |i| v[i] != 0.0)?),
        DType::Int32 => i32::wrap(try_with(n, |i| v[i] as i32)?),
        DType::Int64 => i64::wrap(try_with(n, |i| v[i] as i64)?),
        DType::Float16 => half::f16::wrap(try_with(n, |i| half::f16::from_f64(v[i]))?),
        DType::Float32 => f32::wrap(try_with(n, |i| v[i] as f32)?),
        DType::Float64 => f64::wrap(try_with(n, |i| v[i])?),
    };
    Ok(Tensor::from_storage(s, shape))
}

/// A tensor from i64 values converted to `dtype` (exact for integers).
pub fn from_i64s(v: &[i64], shape: &[usize], dtype: DType) -> crate::Result<Tensor> {
    use crate::cpu::alloc::try_with;
    let n = v.len();
    Ok(match dtype {
        DType::Int64 => Tensor::from_storage(i64::wrap(try_with(n, |i| v[i])?), shape),
        DType::Int32 => Tensor::from_storage(i32::wrap(try_with(n, |i| v[i] as i32)?), shape),
        DType::Bool => Tensor::from_storage(bool::wrap(try_with(n, |i| v[i] != 0)?), shape),
        _ => return from_f64s(&try_with(n, |i| v[i] as f64)?, shape, dtype),
    })
}

/// The process-wide generator: xoshiro256** seeded by `manual_seed`.
struct Rng {
    s: [u64; 4],
}

impl Rng {
    fn seeded(seed: u64) -> Rng {
        let mut z = seed;
        let mut s = [0u64; 4];
        for x in &mut s {
            // splitmix64
            z = z.wrapping_add(0x9E3779B97F4A7C15);
            let mut r = z;
            r = (r ^ (r >> 30)).wrapping_mul(0xBF58476D1CE4E5B9);
            r = (r ^ (r >> 27)).wrapping_mul(0x94D049BB133111EB);
            *x = r ^ (r >> 31);
        }
        Rng { s }
    }
    fn next(&mut self) -> u64 {
        let r = self.s[1].wrapping_mul(5).rotate_left(7).wrapping_mul(9);
        let t = self.s[1] << 17;
        self.s[2] ^= self.s[0];
        self.s[3] ^= self.s[1];
        self.s[1] ^= self.s[2];
        self.s[0] ^= self.s[3];
        self.s[2] ^= t;
        self.s[3] = self.s[3].rotate_left(45);
        r
    }
    /// Uniform in [0, 1).
    fn uniform(&mut self) -> f64 {
        (self.next() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }
    fn normal(&mut self) -> f64 {
        // Box-Muller
        let u1 = 1.0 - self.uniform();
        let u2 = self.uniform();
        (-2.0 * u1.ln()).sqrt() * (2.0 * std::f64::consts::PI * u2).cos()
    }
}

static RNG: Mutex<Option<Rng>> = Mutex::new(None);

/// Hold (`lock`) or release the generator's lock around a fork.
///
/// # Safety
/// Release only what a matching lock call took.
pub(crate) unsafe fn fork_lock_rng(lock: bool) {
    if lock {
        std::mem::forget(RNG.lock());
    } else {
        // SAFETY: forwarded from the caller: the lock was taken by the matching call and its
        // guard forgotten.
        unsafe { RNG.force_unlock() }
    }
}

fn with_rng<R>(f: impl FnOnce(&mut Rng) -> R) -> R {
    let mut g = RNG.lock();
    let rng = g.get_or_insert_with(|| Rng::seeded(0x5eed));
    f(rng)
}

/// Seed the generator (`torch.manual_seed`).
pub fn manual_seed(seed: u64) {
    *RNG.lock() = Some(Rng::seeded(seed));
}

/// Uniform [0, 1) samples.
pub fn rand(shape: &[usize], dtype: DType) -> crate::Result<Tensor> {
    let n = crate::shape::numel_checked(shape)?;
    // f32 rounding can turn 0.99999999 into 1.0: keep the half-open interval
    let v: Vec<f64> = with_rng(|r| crate::cpu::alloc::try_with(n, |_| { let x = r.uniform(); if dtype == DType::Float32 && x as f32 >= 1.0 { 0.0 } else { x } }))?;
    from_f64s(&v, shape, dtype)
}

/// Standard normal samples.
pub fn randn(shape: &[usize], dtype: DType) -> crate::Result<Tensor> {
    let n = crate::shape::numel_checked(shape)?;
    let v: Vec<f64> = with_rng(|r| crate::cpu::alloc::try_with(n, |_| r.normal()))?;
    from_f64s(&v, shape, dtype)
}

/// Integers uniform in [low, high).
pub fn randint(low: i64, high: i64, shape: &[usize], dtype: DType) -> crate::Result<Tensor> {
    let n = crate::shape::numel_checked(shape)?;
    let span = (high.wrapping_sub(low) as u64).max(1);
    let v: Vec<i64> = with_rng(|r| crate::cpu::alloc::try_with(n, |_| low.wrapping_add((r.next() % span) as i64)))?;
    from_i64s(&v, shape, dtype)
}

/// A random permutation of 0..n.
pub fn randperm(n: usize) -> crate::Result<Tensor> {
    crate::shape::numel_checked(&[n])?;
    let mut v: Vec<i64> = crate::cpu::alloc::try_with(n, |i| i as i64)?;
    with_rng(|r| {
        for i in (1..n).rev() {
            let j = (r.next() % (i as u64 + 1)) as usize;
            v.swap(i, j);
        }
    });
    Ok(Tensor::from_storage(i64::wrap(v), &[n]))
}
