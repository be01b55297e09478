//! Vectorisable f32 transcendental kernels (exp, tanh, sigmoid) with runtime CPU dispatch:
//! the same branch-free code is compiled once for the baseline target and once with
//! AVX2+FMA, and the best one the CPU supports is picked at run time, so one portable wheel
//! gets wide SIMD. Accuracy is within a few ulp of libm (Cephes polynomials).

#[inline(always)]
fn exp_f32(x: f32) -> f32 {
    const LOG2E: f32 = std::f32::consts::LOG2_E;
    const C1: f32 = 0.693_359_4;
    const C2: f32 = -2.121_944_4e-4;
    const ROUND: f32 = 12_582_912.0; // 1.5 * 2^23: adding and subtracting rounds to integer
    let xc = x.clamp(-87.3, 88.72);
    let t = xc * LOG2E + ROUND;
    let fx = t - ROUND;
    // the integer sits in the low mantissa bits of t: no float->int conversion needed
    let e = (t.to_bits() as i32).wrapping_sub(ROUND.to_bits() as i32);
    let r = xc - fx * C1 - fx * C2;
    let mut p = 1.987_569_1e-4f32;
    p = p * r + 1.398_199_9e-3;
    p = p * r + 8.333_452e-3;
    p = p * r + 4.166_579_6e-2;
    p = p * r + 1.666_666_5e-1;
    p = p * r + 5.000_000_1e-1;
    let y = p * r * r + r + 1.0;
    // 2^fx in two halves, so fx = 128 (x near 88.7) and fx = -126 stay representable
    let h = e >> 1;
    let p1 = f32::from_bits(((h + 127) as u32) << 23);
    let p2 = f32::from_bits(((e - h + 127) as u32) << 23);
    let v = y * p1 * p2;
    if x != x {
        x
    } else if x > 88.72 {
        f32::INFINITY
    } else if x < -87.3 {
        // the denormal range is flushed to zero (absolute error below 1.2e-38)
        0.0
    } else {
        v
    }
}

#[inline(always)]
fn tanh_f32(x: f32) -> f32 {
    let a = x.abs();
    // small |x|: odd polynomial (Cephes tanhf); large: 1 - 2/(e^{2|x|} + 1)
    let z = x * x;
    let small = ((((-5.704_988_7e-3 * z + 2.063_908_9e-2) * z - 5.373_971_6e-2) * z + 1.333_144_2e-1) * z - 3.333_328_2e-1) * z * x + x;
    let e = exp_f32(2.0 * a.min(9.0));
    let big = 1.0 - 2.0 / (e + 1.0);
    let big = if x < 0.0 { -big } else { big };
    let r = if a < 0.625 { small } else { big };
    // NaN in, NaN out (the clamp above would turn it into tanh(9)); ±0 keeps its sign
    if x != x || x == 0.0 { x } else { r }
}

#[inline(always)]
fn sigmoid_f32(x: f32) -> f32 {
    1.0 / (1.0 + exp_f32(-x))
}

macro_rules! dispatched {
    ($name:ident, $scalar:ident) => {
        /// Apply the kernel elementwise: `out[i] = f(x[i])`.
        pub fn $name(x: &[f32], out: &mut [f32]) {
            #[cfg(target_arch = "x86_64")]
            {
                if std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("fma") {
                    /// # Safety
                    /// Only call on a CPU with AVX2 and FMA.
                    #[target_feature(enable = "avx2,fma")]
                    unsafe fn wide(x: &[f32], out: &mut [f32]) {
                        for (o, &v) in out.iter_mut().zip(x) {
                            *o = $scalar(v);
                        }
                    }
                    // SAFETY: the CPU supports AVX2 and FMA (checked just above).
                    unsafe { wide(x, out) };
                    return;
                }
            }
            for (o, &v) in out.iter_mut().zip(x) {
                *o = $scalar(v);
            }
        }
    };
}

dispatched!(exp_slice, exp_f32);
dispatched!(tanh_slice, tanh_f32);
dispatched!(sigmoid_slice, sigmoid_f32);

/// Sum of f32s: 16 f32 lanes per block (vectorises), blocks accumulated in f64.
pub fn sum_f32(x: &[f32]) -> f64 {
    #[cfg(target_arch = "x86_64")]
    {
        if std::is_x86_feature_detected!("avx2") {
            /// # Safety
            /// Only call on a CPU with AVX2.
            #[target_feature(enable = "avx2")]
            unsafe fn wide(x: &[f32]) -> f64 {
                sum_blocks(x)
            }
            // SAFETY: the CPU supports AVX2 (checked just above).
            return unsafe { wide(x) };
        }
    }
    sum_blocks(x)
}

#[inline(always)]
fn sum_blocks(x: &[f32]) -> f64 {
    let mut total = 0f64;
    for block in x.chunks(4096) {
        // 64 lanes: eight independent vector accumulators hide the add latency
        let mut lanes = [0f32; 64];
        let mut it = block.chunks_exact(64);
        for c in &mut it {
            for i in 0..64 {
                lanes[i] += c[i];
            }
        }
        let mut s: f64 = lanes.iter().map(|&v| v as f64).sum();
        for &v in it.remainder() {
            s += v as f64;
        }
        total += s;
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn exp_tanh_match_libm() {
        let xs: Vec<f32> = (-2000..2000).map(|i| i as f32 * 0.05).chain([0.0, -0.0, 1e-6, -1e-6, 88.0, -88.0, -100.0, 200.0]).collect();
        let mut out = vec![0.0; xs.len()];
        exp_slice(&xs, &mut out);
        for (&x, &e) in xs.iter().zip(&out) {
            let r = x.exp();
            assert!(e == r || (e - r).abs() <= 4.0 * f32::EPSILON * r.abs() + 1.2e-38, "exp({x}) = {e} vs {r}");
        }
        tanh_slice(&xs, &mut out);
        for (&x, &t) in xs.iter().zip(&out) {
            let r = x.tanh();
            assert!((t - r).abs() <= 4.0 * f32::EPSILON * r.abs().max(1e-30), "tanh({x}) = {t} vs {r}");
        }
        exp_slice(&[f32::NAN, f32::INFINITY, f32::NEG_INFINITY], &mut out[..3]);
        assert!(out[0].is_nan() && out[1] == f32::INFINITY && out[2] == 0.0);
    }
    #[test]
    fn sum_is_accurate() {
        let x: Vec<f32> = (0..100_003).map(|i| (i % 7) as f32 * 0.1).collect();
        let want: f64 = x.iter().map(|&v| v as f64).sum();
        assert!((sum_f32(&x) - want).abs() < 1e-6 * want);
    }
}
