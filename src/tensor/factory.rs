//! Factories: zeros, ones, full, arange, linspace, eye, and the seeded random generator.

use super::{Scalar, Tensor};
use crate::device::Device;
use crate::dtype::DType;
use crate::storage::{CpuStorage, StorageElem};
use parking_lot::Mutex;

/// A CPU tensor of zeros.
pub fn zeros(shape: &[usize], dtype: DType) -> Tensor {
    Tensor::from_storage(CpuStorage::zeros(dtype, shape.iter().product()), shape)
}

/// A tensor of zeros on `device`.
pub fn zeros_on(shape: &[usize], dtype: DType, device: Device) -> crate::Result<Tensor> {
    match device {
        Device::Cpu => Ok(zeros(shape, dtype)),
        _ => crate::backend::full(shape, Scalar::Int(0), dtype, device),
    }
}

/// A tensor filled with `v` on `device`.
pub fn full_on(shape: &[usize], v: Scalar, dtype: DType, device: Device) -> crate::Result<Tensor> {
    crate::backend::full(shape, v, dtype, device)
}

/// A tensor filled with `v`.
pub fn full(shape: &[usize], v: Scalar, dtype: DType) -> Tensor {
    Tensor::from_storage(CpuStorage::filled(dtype, shape.iter().product(), v), shape)
}

/// A tensor of ones.
pub fn ones(shape: &[usize], dtype: DType) -> Tensor {
    full(shape, Scalar::Int(1), dtype)
}

/// `arange(start, end, step)` with PyTorch's length rule `ceil((end-start)/step)`.
pub fn arange(start: f64, end: f64, step: f64, dtype: DType) -> crate::Result<Tensor> {
    crate::ensure!(step != 0.0, Runtime, "step must be nonzero");
    crate::ensure!((step > 0.0 && end >= start) || (step < 0.0 && end <= start), Runtime,
        "upper bound and lower bound inconsistent with step sign");
    let n = ((end - start) / step).ceil().max(0.0) as usize;
    let vals: Vec<f64> = (0..n).map(|i| start + i as f64 * step).collect();
    Ok(from_f64s(&vals, &[n], dtype))
}

/// `linspace(start, end, steps)`; PyTorch fills the second half from the end for symmetry.
pub fn linspace(start: f64, end: f64, steps: usize, dtype: DType) -> Tensor {
    if steps == 1 {
        return from_f64s(&[start], &[1], dtype);
    }
    if dtype == DType::Float32 {
        // matches torch: the arithmetic is done in the output precision
        let (s32, e32) = (start as f32, end as f32);
        let step = if steps > 1 { (e32 - s32) / (steps - 1) as f32 } else { 0.0 };
        let half = steps / 2;
        let vals: Vec<f32> = (0..steps)
            .map(|i| if i < half { step.mul_add(i as f32, s32) } else { (-step).mul_add((steps - 1 - i) as f32, e32) })
            .collect();
        return Tensor::from_storage(f32::wrap(vals), &[steps]);
    }
    let step = if steps > 1 { (end - start) / (steps - 1) as f64 } else { 0.0 };
    let half = steps / 2;
    let vals: Vec<f64> = (0..steps)
        .map(|i| if i < half { start + step * i as f64 } else { end - step * (steps - 1 - i) as f64 })
        .collect();
    from_f64s(&vals, &[steps], dtype)
}

/// An `n x m` identity matrix.
pub fn eye(n: usize, m: usize, dtype: DType) -> Tensor {
    let mut v = vec![0.0; n * m];
    for i in 0..n.min(m) {
        v[i * m + i] = 1.0;
    }
    from_f64s(&v, &[n, m], dtype)
}

/// A tensor from f64 values converted to `dtype`.
pub fn from_f64s(v: &[f64], shape: &[usize], dtype: DType) -> Tensor {
    let s = match dtype {
        DType::Bool => bool::wrap(v.iter().map(|&x| x != 0.0).collect()),
        DType::Int32 => i32::wrap(v.iter().map(|&x| x as i32).collect()),
        DType::Int64 => i64::wrap(v.iter().map(|&x| x as i64).collect()),
        DType::Float16 => half::f16::wrap(v.iter().map(|&x| half::f16::from_f64(x)).collect()),
        DType::Float32 => f32::wrap(v.iter().map(|&x| x as f32).collect()),
        DType::Float64 => f64::wrap(v.to_vec()),
    };
    Tensor::from_storage(s, shape)
}

/// A tensor from i64 values converted to `dtype` (exact for integers).
pub fn from_i64s(v: &[i64], shape: &[usize], dtype: DType) -> Tensor {
    match dtype {
        DType::Int64 => Tensor::from_storage(i64::wrap(v.to_vec()), shape),
        DType::Int32 => Tensor::from_storage(i32::wrap(v.iter().map(|&x| x as i32).collect()), shape),
        DType::Bool => Tensor::from_storage(bool::wrap(v.iter().map(|&x| x != 0).collect()), shape),
        _ => from_f64s(&v.iter().map(|&x| x as f64).collect::<Vec<_>>(), shape, dtype),
    }
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
pub fn rand(shape: &[usize], dtype: DType) -> Tensor {
    let n = shape.iter().product();
    let v: Vec<f64> = with_rng(|r| (0..n).map(|_| r.uniform()).collect());
    // f32 rounding can turn 0.99999999 into 1.0: keep the half-open interval
    let v: Vec<f64> = v.into_iter().map(|x| if dtype == DType::Float32 && x as f32 >= 1.0 { 0.0 } else { x }).collect();
    from_f64s(&v, shape, dtype)
}

/// Standard normal samples.
pub fn randn(shape: &[usize], dtype: DType) -> Tensor {
    let n = shape.iter().product();
    let v: Vec<f64> = with_rng(|r| (0..n).map(|_| r.normal()).collect());
    from_f64s(&v, shape, dtype)
}

/// Integers uniform in [low, high).
pub fn randint(low: i64, high: i64, shape: &[usize], dtype: DType) -> Tensor {
    let n = shape.iter().product();
    let span = (high - low).max(1) as u64;
    let v: Vec<i64> = with_rng(|r| (0..n).map(|_| low + (r.next() % span) as i64).collect());
    from_i64s(&v, shape, dtype)
}

/// A random permutation of 0..n.
pub fn randperm(n: usize) -> Tensor {
    let mut v: Vec<i64> = (0..n as i64).collect();
    with_rng(|r| {
        for i in (1..n).rev() {
            let j = (r.next() % (i as u64 + 1)) as usize;
            v.swap(i, j);
        }
    });
    Tensor::from_storage(i64::wrap(v), &[n])
}
