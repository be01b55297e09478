//! Random fills and sampling on tensors: `uniform_`, `normal_`, `random_`, `bernoulli_`,
//! `exponential_`, `multinomial`, `normal(mean, std)` and the random factories. Values come from
//! `crate::random` (torch's CPU streams) and are written in the order torch's TensorIterator
//! visits a single output: memory order, so a transposed tensor gets the same draws at the
//! same addresses as in torch.

use crate::dtype::DType;
use crate::error::Result;
use crate::random::{self, CpuGenerator, Generator};
use crate::tensor::{from_f64s, from_i64s, Tensor};
use crate::{bail, ensure};

/// Write `values` (one per element, in memory order) into `x`. When `x` requires grad the
/// fill is an in-place op of autograd (`node`, e.g. UniformBackward0): its old value gets no
/// gradient, and a leaf that requires grad is refused as for every in-place op.
fn fill_in_memory_order(x: &Tensor, values: Values, node: &'static str) -> Result<()> {
    let shape = x.shape();
    let layout = x.layout();
    let n = layout.numel();
    let t = if x.is_contiguous() {
        // memory order is logical order: the values as they are
        match values {
            Values::F(v) => from_f64s(&v, &shape, x.dtype())?,
            Values::I(v) => from_i64s(&v, &shape, x.dtype())?,
            Values::T(t) => t,
        }
    } else {
        let values = match values {
            Values::T(t) => Values::F(t.to_f64_vec()?),
            v => v,
        };
        permuted_to_logical(&layout, n, &shape, x.dtype(), values)?
    };
    let t = if x.device() == crate::Device::Cpu { t } else { crate::backend::to_device(&t, x.device())? };
    // (sampled values carry no tangent: the in-place update makes the target's zero, as
    // torch's `self_t.zero_()`)
    super::inplace(x, |inp| {
        let meta = crate::autograd::InputMeta::of(inp);
        crate::autograd::record(node, &[inp], &[&t], &[], move |_, _, _| Ok(vec![Some(meta.zeros()?)]))?;
        Ok(t)
    })
}

/// The values of a fill in memory order, rearranged into the logical order of a strided
/// `layout`: position k of the fill is the element with the k-th smallest storage offset.
fn permuted_to_logical(layout: &crate::shape::Layout, n: usize, shape: &[usize], dtype: DType, values: Values) -> Result<Tensor> {
    let offsets = super::index::storage_offsets(layout);
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by_key(|&i| offsets[i]);
    Ok(match values {
        Values::F(v) => {
            let mut logical = vec![0.0; n];
            for (k, &i) in order.iter().enumerate() {
                logical[i] = v[k];
            }
            from_f64s(&logical, shape, dtype)?
        }
        Values::I(v) => {
            let mut logical = vec![0i64; n];
            for (k, &i) in order.iter().enumerate() {
                logical[i] = v[k];
            }
            from_i64s(&logical, shape, dtype)?
        }
        Values::T(_) => unreachable!("typed values are converted by the caller"),
    })
}

enum Values {
    F(Vec<f64>),
    I(Vec<i64>),
    /// A contiguous tensor of the target's dtype and shape.
    T(Tensor),
}

fn float_only(x: &Tensor, kernel: &str) -> Result<()> {
    ensure!(x.dtype().is_float(), NotImplemented, "\"{}\" not implemented for '{}'", kernel, x.dtype().scalar_name());
    Ok(())
}

/// `x.uniform_(from, to)`.
pub fn uniform_(x: &Tensor, from: f64, to: f64, gen: Option<&Generator>) -> Result<()> {
    if x.dtype().is_complex() {
        // PyTorch draws both parts from the stream, in the real view's order
        return uniform_(&super::complex::view_as_real_raw(x)?, from, to, gen);
    }
    float_only(x, "check_uniform_bounds")?;
    ensure!(from <= to, Runtime, "uniform_ expects to return a [from, to) range, but found from={} > to={}", from, to);
    let v = random::or_default(gen).with(|g| random::uniform(g, x.dtype(), &x.shape(), from, to))?;
    fill_in_memory_order(x, Values::T(v), "UniformBackward0")
}

/// `x.normal_(mean, std)`.
pub fn normal_(x: &Tensor, mean: f64, std: f64, gen: Option<&Generator>) -> Result<()> {
    if x.dtype().is_complex() {
        // PyTorch's complex normal: both parts with std / sqrt(2) (a unit total variance)
        return normal_(&super::complex::view_as_real_raw(x)?, mean, std / std::f64::consts::SQRT_2, gen);
    }
    float_only(x, "normal_kernel_cpu")?;
    ensure!(std >= 0.0, Runtime, "normal expects std >= 0.0, but found std {}", std);
    let contiguous = x.is_contiguous();
    let v = random::or_default(gen).with(|g| random::normal(g, x.dtype(), &x.shape(), contiguous, mean, std))?;
    fill_in_memory_order(x, Values::T(v), "NormalBackward0")
}

/// `x.random_(from, to)`; `to = None` means up to the dtype's largest exactly representable
/// integer; no bounds at all is `random_()`.
pub fn random_(x: &Tensor, bounds: Option<(i64, Option<i64>)>, gen: Option<&Generator>) -> Result<()> {
    let v = random_values(x.dtype(), x.numel(), bounds, gen)?;
    fill_in_memory_order(x, Values::I(v), if bounds.is_some() { "RandomBackward0" } else { "RandomBackward2" })
}

/// `x.random_(to)`: integers in `[0, to)` (torch's `random_.to`, RandomBackward1).
pub fn random_to_(x: &Tensor, to: i64, gen: Option<&Generator>) -> Result<()> {
    let v = random_values(x.dtype(), x.numel(), Some((0, Some(to))), gen)?;
    fill_in_memory_order(x, Values::I(v), "RandomBackward1")
}

/// The draws of `random_` for `n` elements of `dt`, in fill order.
fn random_values(dt: DType, n: usize, bounds: Option<(i64, Option<i64>)>, gen: Option<&Generator>) -> Result<Vec<i64>> {
    if dt.is_complex() {
        return Err(super::complex::unsupported(if bounds.is_some() { "random_from_to" } else { "random_" }, dt));
    }
    let Some((from, to)) = bounds else {
        return Ok(random::or_default(gen).with(|g| (0..n).map(|_| random::int_full_range(g, dt)).collect()));
    };
    let to = match to {
        Some(t) => t,
        None => match dt {
            DType::Float64 => (1i64 << 53) + 1,
            DType::Float32 => (1i64 << 24) + 1,
            DType::Float16 => (1i64 << 11) + 1,
            DType::BFloat16 => (1i64 << 8) + 1,
            DType::Bool => 2,
            DType::Int64 => {
                // [from, 2**63): the range is 2**63 - from, as torch computes it (0: all 2**64)
                let range = (i64::MAX as u64 + 1).wrapping_sub(from as u64);
                return random::or_default(gen).with(|g| random::ints_from_to(g, dt, n, range, from));
            }
            d => int_max(d) + 1,
        },
    };
    ensure!(from < to, Runtime, "random_ expects 'from' to be less than 'to', but got from={} >= to={}", from, to);
    let range = (to as u64).wrapping_sub(from as u64);
    random::or_default(gen).with(|g| random::ints_from_to(g, dt, n, range, from))
}

fn int_max(d: DType) -> i64 {
    match d {
        DType::UInt8 => u8::MAX as i64,
        DType::Int8 => i8::MAX as i64,
        DType::Int16 => i16::MAX as i64,
        DType::Int32 => i32::MAX as i64,
        _ => i64::MAX,
    }
}

/// `x.bernoulli_(p)` with a scalar probability (draws a double per element).
pub fn bernoulli_scalar_(x: &Tensor, p: f64, gen: Option<&Generator>) -> Result<()> {
    ensure!(!x.dtype().is_complex(), NotImplemented, "\"bernoulli_scalar_cpu_\" not implemented for '{}'", x.dtype().scalar_name());
    ensure!((0.0..=1.0).contains(&p), Runtime, "bernoulli_ expects p to be in [0, 1], but got p={}", p);
    let n = x.numel();
    let mut v = random::or_default(gen).with(|g| random::uniforms_f64(g, n))?;
    v.iter_mut().for_each(|u| *u = f64::from(u8::from(*u < p)));
    fill_in_memory_order(x, Values::F(v), "BernoulliBackward2")
}

/// `x.bernoulli_(p)` with a probability tensor broadcast to `x` (draws a float per element).
pub fn bernoulli_tensor_(x: &Tensor, p: &Tensor, gen: Option<&Generator>) -> Result<()> {
    ensure!(!x.dtype().is_complex(), NotImplemented, "\"bernoulli_tensor_cpu_self_\" not implemented for '{}'", x.dtype().scalar_name());
    let p = super::expand(&p.detach(), &x.shape().iter().map(|&s| s as i64).collect::<Vec<_>>())?;
    let probs = p.to_f64_vec()?;
    ensure!(probs.iter().all(|v| (0.0..=1.0).contains(v)), Runtime, "Expected p_in >= 0 && p_in <= 1 to be true, but got false.  (Could this error message be improved?  If so, please report an enhancement request to PyTorch.)");
    let v = if x.is_contiguous() {
        random::or_default(gen).with(|g| random::bernoulli_f32(g, &probs, None))?
    } else {
        // probabilities are read in x's memory order too
        let offsets = super::index::storage_offsets(&x.layout());
        let mut order: Vec<usize> = (0..probs.len()).collect();
        order.sort_by_key(|&i| offsets[i]);
        random::or_default(gen).with(|g| random::bernoulli_f32(g, &probs, Some(&order)))?
    };
    fill_in_memory_order(x, Values::F(v), "BernoulliBackward1")
}

/// `torch.bernoulli(p)`: a new tensor of 0/1 with `p`'s shape and dtype.
pub fn bernoulli(p: &Tensor, gen: Option<&Generator>) -> Result<Tensor> {
    // (a complex p: the output, of p's dtype, is refused first, as in PyTorch)
    float_only(p, if p.dtype().is_complex() { "bernoulli_tensor_cpu_self_" } else { "bernoulli_tensor_cpu_p_" })?;
    let out = crate::tensor::zeros_on(&p.shape(), p.dtype(), p.device())?;
    bernoulli_tensor_(&out, p, gen)?;
    Ok(out)
}

/// A continuous distribution's dtype check (ATen's `check_floating_point` text for `dist`,
/// naming the dtype as `name` does).
fn continuous_only(x: &Tensor, dist: &str, name: fn(DType) -> &'static str) -> Result<()> {
    ensure!(x.dtype().is_float(), Runtime, "{} distribution is a continuous probability distribution. dtype must be a floating point but you specified {}", dist, name(x.dtype()));
    Ok(())
}

/// `x.exponential_(lambd)`.
pub fn exponential_(x: &Tensor, lambd: f64, gen: Option<&Generator>) -> Result<()> {
    continuous_only(x, "Exponential", DType::scalar_name)?;
    ensure!(lambd > 0.0 && lambd.is_finite(), Runtime, "exponential_ expects lambda > 0.0, but found lambda={}", lambd);
    let mut v = random::or_default(gen).with(|g| random::uniforms_f64(g, x.numel()))?;
    // `exponential_distribution<double>`: -1/lambda * log1p(-u)
    v.iter_mut().for_each(|u| *u = -1.0 / lambd * (-*u).ln_1p());
    fill_in_memory_order(x, Values::F(v), "ExponentialBackward0")
}

/// `x.cauchy_(median, sigma)`: `cauchy_distribution<double>`, one uniform double per element
/// through `median + sigma · tan(π (u - ½))`.
pub fn cauchy_(x: &Tensor, median: f64, sigma: f64, gen: Option<&Generator>) -> Result<()> {
    continuous_only(x, "Cauchy", DType::cpp_type_name)?;
    ensure!(sigma > 0.0, Runtime, "cauchy_ expects sigma > 0.0, but found sigma={}", sigma);
    let mut v = random::or_default(gen).with(|g| random::uniforms_f64(g, x.numel()))?;
    v.iter_mut().for_each(|u| *u = median + sigma * (std::f64::consts::PI * (*u - 0.5)).tan());
    fill_in_memory_order(x, Values::F(v), "CauchyBackward0")
}

/// `x.log_normal_(mean, std)`: `lognormal_distribution<double>`, the exponential of a
/// `normal_distribution<double>` sample (element by element, with the generator's cached
/// second sample: not `normal_`'s 16-wide fill).
pub fn log_normal_(x: &Tensor, mean: f64, std: f64, gen: Option<&Generator>) -> Result<()> {
    float_only(x, "log_normal_cpu")?;
    ensure!(std > 0.0, Runtime, "log_normal_ expects std > 0.0, but found std={}", std);
    let n = x.numel();
    let v = random::or_default(gen).with(|g: &mut CpuGenerator| (0..n).map(|_| (g.normal_f64() * std + mean).exp()).collect::<Vec<_>>());
    fill_in_memory_order(x, Values::F(v), "LogNormalBackward0")
}

/// `x.geometric_(p)`: `geometric_distribution<double>`, `ceil(log(u) / log1p(-p))` per
/// element (integer dtypes too).
pub fn geometric_(x: &Tensor, p: f64, gen: Option<&Generator>) -> Result<()> {
    let dt = x.dtype();
    ensure!(dt != DType::Bool && !dt.is_complex(), NotImplemented, "\"geometric_cpu\" not implemented for '{}'", dt.scalar_name());
    ensure!(p > 0.0 && p < 1.0, Runtime, "geometric_ expects p to be in (0, 1), but got p={}", p);
    let mut v = random::or_default(gen).with(|g| random::uniforms_f64(g, x.numel()))?;
    let lq = (-p).ln_1p();
    v.iter_mut().for_each(|u| *u = (u.ln() / lq).ceil());
    if dt.is_float() {
        fill_in_memory_order(x, Values::F(v), "GeometricBackward0")
    } else {
        // (a double cast to the integer type, wrapping as C++'s conversion does on x86)
        fill_in_memory_order(x, Values::I(v.iter().map(|&f| f as i64).collect()), "GeometricBackward0")
    }
}


/// `torch.multinomial(probs, n, replacement)`: int64 category indices per row.
pub fn multinomial(probs: &Tensor, num_samples: i64, replacement: bool, gen: Option<&Generator>) -> Result<Tensor> {
    let dim = probs.dim();
    ensure!(dim == 1 || dim == 2, Runtime, "prob_dist must be 1 or 2 dim");
    ensure!(probs.dtype().is_float(), Runtime, "multinomial only supports floating-point dtypes for input, got: {}", probs.dtype().scalar_name());
    ensure!(num_samples > 0, Runtime, "cannot sample n_sample <= 0 samples");
    let shape = probs.shape();
    let cats = shape[dim - 1];
    let rows = if dim == 2 { shape[0] } else { 1 };
    let n = num_samples as usize;
    ensure!(replacement || n <= cats, Runtime, "cannot sample n_sample > prob_dist.size(-1) samples without replacement");
    ensure!(cats <= 1 << 24, Runtime, "number of categories cannot exceed 2^24");
    let p = probs.detach().to_f64_vec()?;
    for r in 0..rows {
        let row = &p[r * cats..(r + 1) * cats];
        ensure!(row.iter().all(|v| v.is_finite() && *v >= 0.0), Runtime, "probability tensor contains either `inf`, `nan` or element < 0");
        ensure!(row.iter().sum::<f64>() > 0.0, Runtime, "invalid multinomial distribution (sum of probabilities <= 0)");
    }
    let out_shape: Vec<usize> = if dim == 2 { vec![rows, n] } else { vec![n] };
    if !replacement || n == 1 {
        // torch's fast path: argmax/topk of p / q with q ~ Exp(1), q drawn in p's dtype
        let q = crate::tensor::zeros_on(&shape, probs.dtype(), crate::Device::Cpu)?;
        exponential_(&q, 1.0, gen)?;
        let ratio = super::div(&probs.detach().to_device(crate::Device::Cpu)?, &q)?;
        let (_, idx) = super::topk(&ratio, n, -1, true, true)?;
        return if probs.device() == crate::Device::Cpu { Ok(idx) } else { crate::backend::to_device(&idx, probs.device()) };
    }
    let single = probs.dtype() != DType::Float64;
    let mut out = Vec::with_capacity(rows * n);
    random::or_default(gen).with(|g: &mut CpuGenerator| {
        for r in 0..rows {
            let row = &p[r * cats..(r + 1) * cats];
            // the cumulative distribution in the input's precision (float for float32)
            let mut cum = vec![0f64; cats];
            if single {
                let mut s = 0f32;
                for (c, &v) in cum.iter_mut().zip(row) {
                    s += v as f32;
                    *c = s as f64;
                }
                cum.iter_mut().for_each(|c| *c = (*c as f32 / s) as f64);
            } else {
                let mut s = 0f64;
                for (c, &v) in cum.iter_mut().zip(row) {
                    s += v;
                    *c = s;
                }
                cum.iter_mut().for_each(|c| *c /= s);
            }
            cum[cats - 1] = 1.0;
            for _ in 0..n {
                let u = g.uniform_f64();
                out.push(cum.partition_point(|&c| c < u) as i64);
            }
        }
    });
    let t = from_i64s(&out, &out_shape, DType::Int64)?;
    if probs.device() == crate::Device::Cpu { Ok(t) } else { crate::backend::to_device(&t, probs.device()) }
}

/// `torch.normal(mean, std)` with tensor arguments: `normal_(0, 1)` on the broadcast shape,
/// then `* std + mean`.
pub fn normal_tensors(mean: &Tensor, std: &Tensor, gen: Option<&Generator>) -> Result<Tensor> {
    ensure!(std.to_f64_vec()?.iter().all(|&s| s >= 0.0), Runtime, "normal expects all elements of std >= 0.0");
    let shape = crate::shape::broadcast_shapes(&mean.shape(), &std.shape())?;
    let dt = crate::dtype::DType::promote(mean.dtype(), std.dtype());
    ensure!(dt.is_float(), NotImplemented, "\"normal_kernel_cpu\" not implemented for '{}'", dt.scalar_name());
    let out = crate::tensor::zeros_on(&shape, dt, mean.device())?;
    normal_(&out, 0.0, 1.0, gen)?;
    let _g = crate::autograd::raw_mode();
    super::add(&super::mul(&out, &std.detach())?, &mean.detach())
}

/// Uniform [0, 1) samples of a new tensor.
pub fn rand(shape: &[usize], dtype: DType, gen: Option<&Generator>) -> Result<Tensor> {
    ensure!(dtype.is_float() || dtype.is_complex(), NotImplemented, "\"check_uniform_bounds\" not implemented for '{}'", dtype.scalar_name());
    if dtype.is_float() {
        // drawn straight into the new tensor's buffer
        return random::or_default(gen).with(|g| random::uniform(g, dtype, shape, 0.0, 1.0));
    }
    let out = crate::tensor::zeros(shape, dtype)?;
    uniform_(&out, 0.0, 1.0, gen)?;
    Ok(out)
}

/// Standard normal samples of a new tensor.
pub fn randn(shape: &[usize], dtype: DType, gen: Option<&Generator>) -> Result<Tensor> {
    if !dtype.is_float() && !dtype.is_complex() {
        bail!(NotImplemented, "\"normal_kernel_cpu\" not implemented for '{}'", dtype.scalar_name());
    }
    if dtype.is_float() {
        return random::or_default(gen).with(|g| random::normal(g, dtype, shape, true, 0.0, 1.0));
    }
    let out = crate::tensor::zeros(shape, dtype)?;
    normal_(&out, 0.0, 1.0, gen)?;
    Ok(out)
}

/// Integers uniform in [low, high).
pub fn randint(low: i64, high: i64, shape: &[usize], dtype: DType, gen: Option<&Generator>) -> Result<Tensor> {
    let n = crate::shape::numel_checked(shape)?;
    if matches!(dtype, DType::Int64 | DType::Int32) && low < high {
        // drawn straight into the new tensor's buffer
        let range = (high as u64).wrapping_sub(low as u64);
        return random::or_default(gen).with(|g| random::ints_tensor(g, dtype, shape, range, low));
    }
    from_i64s(&random_values(dtype, n, Some((low, Some(high))), gen)?, shape, dtype)
}

/// A random permutation of 0..n.
pub fn randperm(n: usize, dtype: DType, gen: Option<&Generator>) -> Result<Tensor> {
    crate::shape::numel_checked(&[n])?;
    let v = random::or_default(gen).with(|g| random::randperm(g, n))?;
    from_i64s(&v, &[n], dtype)
}
