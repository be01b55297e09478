//! Matrix products through the `gemm` crate (runtime CPU dispatch, any strides).


/// One (batched) product `C = A @ B` with explicit element strides.
#[derive(Clone, Copy)]
pub struct MatmulArgs {
    pub m: usize,
    pub k: usize,
    pub n: usize,
    /// Row and column strides of A, B (in elements), and A/B offsets.
    pub a_rs: isize,
    pub a_cs: isize,
    pub b_rs: isize,
    pub b_cs: isize,
}

/// Below this many multiply-adds a product on several threads is split by hand (one
/// single-threaded gemm per part) rather than by gemm's own threads, which scale worse on
/// two threads (Zen 4, µs at 2 threads, gemm's threads → split: 512×2048×256, an LSTM's
/// input projection, 4800 → 3100; 1024³ and 2048×512×2048 unchanged).
const SPLIT_MAX: usize = 1 << 33;

/// `c (m x n, row-major, fresh) = a @ b` for f32/f64 via gemm; other types by a plain loop.
pub fn gemm<T: crate::dtype::Elem + 'static>(args: &MatmulArgs, a: &[T], a_off: usize, b: &[T], b_off: usize, c: &mut [T]) {
    let MatmulArgs { m, k, n, a_rs, a_cs, b_rs, b_cs } = *args;
    if m == 0 || n == 0 {
        return;
    }
    let flops = m * n * k;
    let threads = crate::runtime::num_threads();
    // below ~4M multiply-adds (~35 µs on one core) waking a pool worker costs more than it saves
    let par = if flops >= 1 << 22 && threads > 1 { gemm::Parallelism::Rayon(threads) } else { gemm::Parallelism::None };
    use std::any::TypeId;
    let is_gemm_type = TypeId::of::<T>() == TypeId::of::<f32>() || TypeId::of::<T>() == TypeId::of::<f64>();
    // B column-major and wide enough (k <= n) to be worth transposing into a row-major copy
    // first, up to ~4 MiB of it (see below)
    let b_transposable = b_rs == 1 && b_cs != 1 && b_cs as usize >= k && m >= 32 && 16 <= k && k <= n && k * n <= (1 << 20);
    // ... and cheaper so than the swapped product below: that one's extra work grows with
    // m·(n + k) (Aᵀ's strided packing, C's transpose), the copy's with k·n (Zen 4, one
    // thread: 128×256×256, an MLP's input gradient, 178 → 162 µs by the copy; 128×256×784
    // 491 by the swap, 520 by the copy; 32×512×512 and 64×256×1024 stay swapped)
    let transpose_b_first = is_gemm_type && b_transposable && 4 * k * n < 5 * m * (n + k);
    if is_gemm_type && b_rs == 1 && b_cs != 1 && a_cs == 1 && m < n && k >= 16 && flops >= 1 << 16 && !transpose_b_first {
        // A row-major, B column-major (`x @ w.t()`: nn.Linear's forward and input gradient,
        // a convolution's weight gradient `g @ cols.t()`): gemm computes a row-major C as
        // Cᵀ = Bᵀ Aᵀ and repacks Bᵀ (n × k elements) with a strided gather; with m < n the
        // other orientation, C's transpose computed as its own row-major product (which
        // packs Aᵀ, m × k) and then transposed (m × n, no k), packs less. Measured on Zen 4,
        // µs at 1 / 2 threads, before → after: 64×12544×288 (a 32→64 convolution's weight
        // gradient) 7500 → 5000 / 3700 → 2800; 32×512×512 660 → 170 / 350 → 100;
        // 64×256×1024 500 → 330 / 300 → 210. (Below 64K multiply-adds the extra buffer
        // and transpose are not worth it.)
        let mut tmp = vec![T::default(); m * n];
        gemm(&MatmulArgs { m: n, n: m, k, a_rs: b_cs, a_cs: 1, b_rs: 1, b_cs: a_rs }, b, b_off, a, a_off, &mut tmp);
        super::transpose::transpose_par(&tmp, m, n, m, c, n);
        return;
    }
    if is_gemm_type && b_transposable {
        // B column-major otherwise (m >= n, or A not row-major): one register-block
        // transpose of B first is cheaper than gemm's packing where B is wide (k <= n), up
        // to ~4 MiB of B (before → after: 256×256×256 at 1 thread 440 → 330; with k > n
        // it loses: 64×3136×128 330 → 500 µs at 2 threads)
        let mut bt = vec![T::default(); k * n];
        super::transpose::transpose_par(&b[b_off..], k, n, b_cs as usize, &mut bt, n);
        return gemm(&MatmulArgs { b_rs: n as isize, b_cs: 1, ..*args }, a, a_off, &bt, 0, c);
    }
    if is_gemm_type && threads > 1 && flops < SPLIT_MAX && flops >= (1 << 22) && n > m && n >= 64 {
        // mid-size products wider than tall (a convolution's W @ columns): split the columns,
        // so that each thread packs only its own part of B (split rows, every part would
        // pack all of B, which dominates when m is small)
        let cols = n.div_ceil(threads).next_multiple_of(16).min(n);
        let parts = n.div_ceil(cols);
        let out = crate::cpu::team::SendPtr(c.as_mut_ptr());
        crate::cpu::team::run(parts, &|i| {
            let j0 = i * cols;
            let sub = MatmulArgs { n: cols.min(n - j0), ..*args };
            // SAFETY: part i writes only columns j0..j0+sub.n of the rows of c (row stride n),
            // disjoint between parts, and `c` outlives the region (`run` returns after every
            // part); B's columns from j0 are addressed through its column stride.
            unsafe { gemm_raw(&sub, a, a_off as isize, b, b_off as isize + j0 as isize * b_cs, out.get().add(j0), n as isize) };
        });
        return;
    }
    if is_gemm_type && threads > 1 && flops < SPLIT_MAX && flops >= (1 << 22) && m >= 32 {
        // mid-size products: split the rows over the threads, one single-threaded gemm each
        // (gemm's own threading only pays off on large products)
        let rows = m.div_ceil(threads);
        let parts = m.div_ceil(rows);
        let a_base = a_off as isize;
        let out = crate::cpu::team::SendPtr(c.as_mut_ptr());
        crate::cpu::team::run(parts, &|i| {
            let r0 = i * rows;
            let sub = MatmulArgs { m: rows.min(m - r0), ..*args };
            // SAFETY: part i writes only rows r0..r0+sub.m of c (disjoint between parts), `c`
            // outlives the region (`run` returns after every part), and T is f32/f64.
            unsafe { gemm_raw(&sub, a, a_base + r0 as isize * a_rs, b, b_off as isize, out.get().add(r0 * n), n as isize) };
        });
        return;
    }
    if is_gemm_type {
        let mut run = move || {
            // SAFETY: a/b hold every element addressed by (offset + i*rs + j*cs) for i<m/k,
            // j<k/n (checked by the caller's layouts); c is a fresh m*n row-major buffer; T is
            // exactly the gemm element type by the TypeId check; read_dst=false so c is only
            // written.
            unsafe { gemm::gemm(
                m, n, k,
                c.as_mut_ptr(), 1, n as isize, false,
                a.as_ptr().add(a_off), a_cs, a_rs,
                b.as_ptr().add(b_off), b_cs, b_rs,
                T::from_f64(0.0), T::from_f64(1.0),
                false, false, false, par,
            ) }
        };
        if matches!(par, gemm::Parallelism::None) { run() } else { crate::runtime::install(run) }
        return;
    }
    if T::DTYPE.category() == crate::dtype::Category::Integral {
        // integers multiply and add with two's-complement wraparound, as torch's
        for i in 0..m {
            for j in 0..n {
                let mut acc = 0i64;
                for p in 0..k {
                    let av = a[(a_off as isize + i as isize * a_rs + p as isize * a_cs) as usize].to_i64();
                    let bv = b[(b_off as isize + p as isize * b_rs + j as isize * b_cs) as usize].to_i64();
                    acc = acc.wrapping_add(av.wrapping_mul(bv));
                }
                c[i * n + j] = T::from_i64(acc);
            }
        }
        return;
    }
    for i in 0..m {
        for j in 0..n {
            let mut acc = 0f64;
            for p in 0..k {
                let av = a[(a_off as isize + i as isize * a_rs + p as isize * a_cs) as usize].to_f64();
                let bv = b[(b_off as isize + p as isize * b_rs + j as isize * b_cs) as usize].to_f64();
                acc += av * bv;
            }
            c[i * n + j] = T::from_f64(acc);
        }
    }
}

/// `C (+)= A @ B` for f32/f64 through gemm: C is `m × n` at row stride `c_rs` (unit column
/// stride), added to when `accumulate` (else only written); A and B are addressed through
/// their (row, column) strides.
///
/// # Safety
/// T is f32 or f64 (checked here: anything else panics); `a`/`b` are valid for reads of
/// every element their strides address for i < m/k, j < k/n; `c` is valid for reads and
/// writes of `m` rows of `n` elements at row stride `c_rs`, and nothing else accesses those
/// elements during the call.
#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn gemm_into<T: crate::dtype::Elem + 'static>([m, n, k]: [usize; 3], c: *mut T, c_rs: isize, accumulate: bool,
                                                                (a, a_rs, a_cs): (*const T, isize, isize), (b, b_rs, b_cs): (*const T, isize, isize),
                                                                par: gemm::Parallelism) {
    use std::any::TypeId;
    assert!(TypeId::of::<T>() == TypeId::of::<f32>() || TypeId::of::<T>() == TypeId::of::<f64>(), "gemm_into: f32/f64 only");
    let alpha = T::from_f64(if accumulate { 1.0 } else { 0.0 });
    // SAFETY: the caller's contract; T is a gemm element type (asserted above).
    unsafe { gemm::gemm(m, n, k, c, 1, c_rs, accumulate, a, a_cs, a_rs, b, b_cs, b_rs, alpha, T::from_f64(1.0), false, false, false, par) }
}

/// One single-threaded f32/f64 product into `c` (row stride `c_rs`, unit column stride).
///
/// # Safety
/// T is f32 or f64; a/b hold every element the strides address from their offsets; `c` is
/// valid for writes of `m` rows of `n` elements at row stride `c_rs`.
unsafe fn gemm_raw<T: crate::dtype::Elem + 'static>(args: &MatmulArgs, a: &[T], a_off: isize, b: &[T], b_off: isize, c: *mut T, c_rs: isize) {
    let MatmulArgs { m, k, n, a_rs, a_cs, b_rs, b_cs } = *args;
    // SAFETY: the caller's contract.
    unsafe {
        gemm::gemm(
            m, n, k,
            c, 1, c_rs, false,
            a.as_ptr().offset(a_off), a_cs, a_rs,
            b.as_ptr().offset(b_off), b_cs, b_rs,
            T::from_f64(0.0), T::from_f64(1.0),
            false, false, false, gemm::Parallelism::None,
        );
    }
}

/// A batch of products `c[i] = a[i] @ b[i]` (a's and b's batch strides in elements), split
/// over the threads by whole products when the batch is large and each product small enough
/// that splitting one would repeat its packing; else one product after another.
#[allow(clippy::too_many_arguments)]
pub fn gemm_batch<T: crate::dtype::Elem + 'static>(args: &MatmulArgs, bs: usize, a: &[T], a_off: usize, a_bs: usize, b: &[T], b_off: usize, b_bs: usize, c: &mut [T]) {
    let MatmulArgs { m, k, n, .. } = *args;
    let threads = crate::runtime::num_threads();
    let is_gemm_type = std::any::TypeId::of::<T>() == std::any::TypeId::of::<f32>() || std::any::TypeId::of::<T>() == std::any::TypeId::of::<f64>();
    if is_gemm_type && threads > 1 && bs >= 2 * threads && m * n * k < (1 << 28) && bs * m * n * k >= (1 << 22) {
        let out = crate::cpu::team::SendPtr(c.as_mut_ptr());
        crate::cpu::team::run_blocks(bs, &|r| {
            for i in r {
                // SAFETY: product i writes only c[i*m*n..(i+1)*m*n] (disjoint between
                // products), `c` outlives the region, and T is f32/f64 (checked above).
                unsafe { gemm_raw(args, a, (a_off + i * a_bs) as isize, b, (b_off + i * b_bs) as isize, out.get().add(i * m * n), n as isize) };
            }
        });
        return;
    }
    for i in 0..bs {
        gemm(args, a, a_off + i * a_bs, b, b_off + i * b_bs, &mut c[i * m * n..(i + 1) * m * n]);
    }
}


#[cfg(test)]
mod tests {
    use super::{gemm, MatmulArgs};

    /// Every operand orientation through every path (the swapped NT product, the
    /// transposed B, the row and column splits, plain gemm) against the plain loop.
    #[test]
    fn every_layout_matches_the_plain_product() {
        for &(m, k, n) in &[(3usize, 5usize, 4usize), (40, 20, 70), (70, 20, 40), (64, 300, 300), (300, 64, 64), (33, 17, 16)] {
            let a: Vec<f64> = (0..m * k).map(|i| ((i * 7) % 13) as f64 - 6.0).collect();
            let b: Vec<f64> = (0..k * n).map(|i| ((i * 5) % 11) as f64 - 5.0).collect();
            let mut want = vec![0f64; m * n];
            for i in 0..m {
                for j in 0..n {
                    want[i * n + j] = (0..k).map(|p| a[i * k + p] * b[p * n + j]).sum();
                }
            }
            // the same values stored transposed: a_t[p * m + i] = a[i * k + p]
            let a_t: Vec<f64> = (0..m * k).map(|x| a[(x % m) * k + x / m]).collect();
            let b_t: Vec<f64> = (0..k * n).map(|x| b[(x % k) * n + x / k]).collect();
            for (a_s, (ars, acs)) in [(&a, (k as isize, 1isize)), (&a_t, (1, m as isize))] {
                for (b_s, (brs, bcs)) in [(&b, (n as isize, 1isize)), (&b_t, (1, k as isize))] {
                    let args = MatmulArgs { m, k, n, a_rs: ars, a_cs: acs, b_rs: brs, b_cs: bcs };
                    let mut c = vec![f64::NAN; m * n];
                    gemm(&args, a_s, 0, b_s, 0, &mut c);
                    assert_eq!(c, want, "({m},{k},{n}) a strides ({ars},{acs}) b strides ({brs},{bcs})");
                    let (a32, b32): (Vec<f32>, Vec<f32>) = (a_s.iter().map(|&v| v as f32).collect(), b_s.iter().map(|&v| v as f32).collect());
                    let mut c32 = vec![f32::NAN; m * n];
                    gemm(&args, &a32, 0, &b32, 0, &mut c32);
                    assert!(c32.iter().zip(&want).all(|(&g, &w)| g as f64 == w), "f32 ({m},{k},{n})");
                }
            }
        }
    }
}
