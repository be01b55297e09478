//! Dense linear algebra on one small matrix at a time, in f64, row-major and contiguous:
//! LU with partial pivoting (LAPACK getrf's pivot choice: the first largest magnitude),
//! substitution with triangular factors, Cholesky, Householder QR (LAPACK geqrf's reflectors,
//! so R's diagonal signs are LAPACK's), Householder tridiagonalisation and implicit QL for
//! symmetric eigenproblems (EISPACK's tred2 and tql2) and Golub-Kahan-Reinsch for the SVD
//! (LINPACK's dsvdc). The op layer (`ops::linalg`) converts tensors to
//! these buffers, runs a kernel per batch element and records the derivatives.
//!
//! Every kernel works in f64 whatever the tensor's dtype (PyTorch calls LAPACK in the
//! tensor's own precision, so float32 results agree to float32 rounding, not bit for bit).

/// `$vis fn $name(args) -> ret` running `$body(args)` built for AVX-512 or AVX2+FMA where
/// the CPU has them (the crate targets baseline x86-64): these kernels are scalar f64 loops
/// that the compiler vectorises eight or four wide there. No multiply-add is fused that was
/// not (Rust does not contract), and the explicit lanes of `dot` fix the summation order:
/// the same results on every tier.
macro_rules! avx2_dispatch {
    ($(#[$m:meta])* $vis:vis fn $name:ident($($arg:ident: $ty:ty),*) -> $ret:ty => $body:ident) => {
        $(#[$m])*
        $vis fn $name($($arg: $ty),*) -> $ret {
            #[cfg(target_arch = "x86_64")]
            if crate::cpu::math::avx512() {
                /// # Safety
                /// Only call on a CPU with AVX-512F, AVX2 and FMA.
                #[target_feature(enable = "avx512f,avx2,fma")]
                unsafe fn wide512($($arg: $ty),*) -> $ret {
                    $body($($arg),*)
                }
                // SAFETY: `avx512` checked that the CPU has AVX-512F, AVX2 and FMA.
                return unsafe { wide512($($arg),*) };
            }
            #[cfg(target_arch = "x86_64")]
            if crate::cpu::math::has_avx2_fma() {
                /// # Safety
                /// Only call on a CPU with AVX2 and FMA.
                #[target_feature(enable = "avx2,fma")]
                unsafe fn wide($($arg: $ty),*) -> $ret {
                    $body($($arg),*)
                }
                // SAFETY: `has_avx2_fma` checked that the CPU has AVX2 and FMA.
                return unsafe { wide($($arg),*) };
            }
            $body($($arg),*)
        }
    };
}

/// The n×m transpose of the row-major m×n `a`.
pub fn transposed(a: &[f64], m: usize, n: usize) -> Vec<f64> {
    let mut t = vec![0.0; m * n];
    // the crate's blocked transpose (an element-by-element walk was 12% of QR at 256×256)
    super::transpose::transpose(a, n, m, n, &mut t, m);
    t
}

/// Σ xᵢyᵢ over eight independent lanes (so the compiler vectorises it; a single running sum
/// would wait on each add).
#[inline(always)]
fn dot(x: &[f64], y: &[f64]) -> f64 {
    let n = x.len().min(y.len());
    let (x, y) = (&x[..n], &y[..n]);
    let mut acc = [0.0f64; 8];
    let (xc, yc) = (x.chunks_exact(8), y.chunks_exact(8));
    let (xr, yr) = (xc.remainder(), yc.remainder());
    #[cfg(target_arch = "x86_64")]
    if crate::cpu::math::avx512() {
        // SAFETY: the CPU has AVX-512F (checked); the lanes are the same eight sums.
        acc = unsafe { lanes512(x, y) };
    } else {
        for (a, b) in xc.zip(yc) {
            for l in 0..8 {
                acc[l] += a[l] * b[l];
            }
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    for (a, b) in xc.zip(yc) {
        for l in 0..8 {
            acc[l] += a[l] * b[l];
        }
    }
    let mut s = ((acc[0] + acc[4]) + (acc[1] + acc[5])) + ((acc[2] + acc[6]) + (acc[3] + acc[7]));
    for (a, b) in xr.iter().zip(yr) {
        s += a * b;
    }
    s
}

/// `dot`'s eight lane sums over the whole 8-element chunks of `x`·`y`, in one AVX-512
/// register: lane l adds x[8c + l]·y[8c + l] for c = 0, 1, ... (a product, then a sum: the
/// portable loop's arithmetic). Written out because the compiler built the portable loop from
/// two-lane pieces and shuffles (the SVD's dot products, a third of its time).
///
/// # Safety
/// Only call on a CPU with AVX-512F.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
fn lanes512(x: &[f64], y: &[f64]) -> [f64; 8] {
    use std::arch::x86_64::{_mm512_add_pd, _mm512_loadu_pd, _mm512_mul_pd, _mm512_setzero_pd, _mm512_storeu_pd};
    let mut acc = _mm512_setzero_pd();
    for (a, b) in x.chunks_exact(8).zip(y.chunks_exact(8)) {
        // SAFETY: each chunk holds exactly eight f64 (chunks_exact), the unaligned loads'
        // whole extent.
        let (va, vb) = unsafe { (_mm512_loadu_pd(a.as_ptr()), _mm512_loadu_pd(b.as_ptr())) };
        acc = _mm512_add_pd(acc, _mm512_mul_pd(va, vb));
    }
    let mut out = [0.0f64; 8];
    // SAFETY: `out` has room for the eight lanes.
    unsafe { _mm512_storeu_pd(out.as_mut_ptr(), acc) };
    out
}

/// Columns per block of the blocked factorizations (`lu`, `cholesky`): a block's trailing
/// update is one matrix product on the `gemm` crate; smaller matrices run unblocked.
const NB: usize = 48;

/// `dst (m×n, row stride dst_rs) -= lhs (m×k) · rhs (k×n)`, all three inside one buffer at
/// disjoint places, through the `gemm` crate (the blocked factorizations' trailing updates).
///
/// # Safety
/// Every element addressed (`base + i*rs + j*cs` within the given sizes) lies in `buf`, and
/// the region written (dst) overlaps neither operand.
#[allow(clippy::too_many_arguments)]
unsafe fn sub_product(buf: &mut [f64], m: usize, n: usize, k: usize, dst: usize, dst_rs: usize, lhs: usize, lhs_rs: usize, lhs_cs: usize, rhs: usize, rhs_rs: usize, rhs_cs: usize) {
    // SAFETY: forwarded (lhs inside buf)
    unsafe { sub_product_from(buf, None, m, n, k, dst, dst_rs, lhs, lhs_rs, lhs_cs, rhs, rhs_rs, rhs_cs) }
}

/// `sub_product` with the left operand read from `lhs_buf` when given (else from `buf`).
///
/// # Safety
/// As `sub_product`, the left operand's elements lying in `lhs_buf` where it is given.
#[allow(clippy::too_many_arguments)]
unsafe fn sub_product_from(buf: &mut [f64], lhs_buf: Option<&[f64]>, m: usize, n: usize, k: usize, dst: usize, dst_rs: usize, lhs: usize, lhs_rs: usize, lhs_cs: usize, rhs: usize, rhs_rs: usize, rhs_cs: usize) {
    if m == 0 || n == 0 || k == 0 {
        return;
    }
    let threads = crate::runtime::num_threads();
    let par = if m * n * k >= 1 << 22 && threads > 1 { gemm::Parallelism::Rayon(threads) } else { gemm::Parallelism::None };
    let base = buf.as_mut_ptr();
    let p = crate::cpu::team::SendPtr(base);
    // (read only: handed to gemm as a const pointer)
    let l = crate::cpu::team::SendPtr(lhs_buf.map_or(base, |b| b.as_ptr().cast_mut()));
    let run = move || {
        let (p, l) = (p.get(), l.get());
        // SAFETY: the caller's contract (in bounds, dst disjoint from lhs and rhs); all three
        // pointers derive from the same `as_mut_ptr`; dst = 1·dst + (-1)·lhs·rhs.
        unsafe {
            gemm::gemm(
                m, n, k,
                p.add(dst), 1, dst_rs as isize, true,
                l.add(lhs) as *const f64, lhs_cs as isize, lhs_rs as isize,
                p.add(rhs) as *const f64, rhs_cs as isize, rhs_rs as isize,
                1.0, -1.0, false, false, false, par,
            )
        }
    };
    if matches!(par, gemm::Parallelism::None) { run() } else { crate::runtime::install(run) }
}

avx2_dispatch! {
/// LU of the n×n `a` in place: L (unit diagonal, not stored) below the diagonal, U on and
/// above; `piv[k]` is the row swapped with row k at step k. Returns LAPACK's `info`: 0, or
/// the 1-based index of the first exactly-zero pivot (the factorization still completes).
/// Right-looking and blocked as LAPACK's getrf (same pivots: each panel column is fully
/// updated before its pivot is chosen), with the trailing updates as matrix products.
    pub fn lu(a: &mut [f64], n: usize, piv: &mut [usize]) -> usize => lu_body
}

#[inline(always)]
fn lu_body(a: &mut [f64], n: usize, piv: &mut [usize]) -> usize {
    let mut info = 0;
    let mut k0 = 0;
    while k0 < n {
        // the panel: unblocked elimination on columns k0..k1
        let k1 = if n <= 2 * NB { n } else { (k0 + NB).min(n) };
        if n >= PANEL_BY_COLUMNS {
            lu_panel_by_columns(a, n, k0, k1, piv, &mut info);
        } else {
            for k in k0..k1 {
                let mut p = k;
                let mut best = a[k * n + k].abs();
                for i in k + 1..n {
                    let v = a[i * n + k].abs();
                    if v > best || (best.is_nan() && !v.is_nan()) {
                        best = v;
                        p = i;
                    }
                }
                piv[k] = p;
                if p != k {
                    for j in 0..n {
                        a.swap(k * n + j, p * n + j);
                    }
                }
                let d = a[k * n + k];
                if d == 0.0 {
                    if info == 0 {
                        info = k + 1;
                    }
                    continue;
                }
                // row k's panel part and each row below as two disjoint slices, so the
                // update vectorises
                let (top, bottom) = a.split_at_mut((k + 1) * n);
                let pivot_row = &top[k * n + k + 1..k * n + k1];
                for row in bottom.chunks_exact_mut(n) {
                    let f = row[k] / d;
                    row[k] = f;
                    if f != 0.0 {
                        for (x, &y) in row[k + 1..k1].iter_mut().zip(pivot_row) {
                            *x -= f * y;
                        }
                    }
                }
            }
        }
        if k1 < n {
            // U12 = L11⁻¹ A12 (unit lower triangle), then A22 -= L21 U12
            for i in k0 + 1..k1 {
                for p in k0..i {
                    let f = a[i * n + p];
                    if f != 0.0 {
                        let (top, bottom) = a.split_at_mut(i * n);
                        let src = &top[p * n + k1..p * n + n];
                        for (x, y) in bottom[k1..n].iter_mut().zip(src) {
                            *x -= f * y;
                        }
                    }
                }
            }
            // SAFETY: rows k1..n × columns k1..n (written) are disjoint from L21 (rows
            // k1..n × columns k0..k1) and U12 (rows k0..k1 × columns k1..n); all in a (n×n).
            unsafe { sub_product(a, n - k1, n - k1, k1 - k0, k1 * n + k1, n, k1 * n + k0, n, 1, k0 * n + k1, n, 1) };
        }
        k0 = k1;
    }
    info
}

/// From this order on, `lu` factors each panel on a column-major copy (`lu_panel_by_columns`).
const PANEL_BY_COLUMNS: usize = 64;

/// LU's panel, columns k0..k1 of the row-major n×n `a` (all rows from k0), factored as
/// LAPACK's getf2 on a column-major copy: each column's pivot search, division and the
/// updates of the later panel columns (LAPACK's dger, skipping a column whose pivot-row entry
/// is zero) run over contiguous memory. In `a` a column is strided by a row: at 512×512 that
/// stride is 4 KiB, every element of a column fell in the same cache set, and the panel took
/// half of the solve. The row swaps are applied to the panel copy as they are chosen and to
/// the columns outside the panel afterwards (LAPACK's laswp); `piv` and `info` as `lu`'s.
#[inline(always)]
fn lu_panel_by_columns(a: &mut [f64], n: usize, k0: usize, k1: usize, piv: &mut [usize], info: &mut usize) {
    let (kb, rows) = (k1 - k0, n - k0);
    let mut pc = vec![0.0; kb * rows];
    super::transpose::transpose(&a[k0 * n + k0..], kb, rows, n, &mut pc, rows);
    for c in 0..kb {
        let (left, right) = pc.split_at_mut((c + 1) * rows);
        let col = &mut left[c * rows..];
        let mut p = c;
        let mut best = col[c].abs();
        for (i, &v) in col.iter().enumerate().skip(c + 1) {
            let v = v.abs();
            if v > best || (best.is_nan() && !v.is_nan()) {
                best = v;
                p = i;
            }
        }
        piv[k0 + c] = k0 + p;
        if p != c {
            col.swap(c, p);
            for other in left[..c * rows].chunks_exact_mut(rows).chain(right.chunks_exact_mut(rows)) {
                other.swap(c, p);
            }
        }
        let col = &mut left[c * rows..];
        let d = col[c];
        if d == 0.0 {
            if *info == 0 {
                *info = k0 + c + 1;
            }
            continue;
        }
        col[c + 1..].iter_mut().for_each(|x| *x /= d);
        let col = &left[c * rows..];
        for later in right.chunks_exact_mut(rows) {
            let y = later[c];
            if y != 0.0 {
                for (x, &f) in later[c + 1..].iter_mut().zip(&col[c + 1..]) {
                    *x -= f * y;
                }
            }
        }
    }
    super::transpose::transpose(&pc, rows, kb, rows, &mut a[k0 * n + k0..], n);
    for k in k0..k1 {
        let p = piv[k];
        if p != k {
            let (top, bottom) = a.split_at_mut(p * n);
            let (rk, rp) = (&mut top[k * n..(k + 1) * n], &mut bottom[..n]);
            rk[..k0].swap_with_slice(&mut rp[..k0]);
            rk[k1..].swap_with_slice(&mut rp[k1..]);
        }
    }
}

/// The determinant from an LU factorization: the product of U's diagonal, negated per swap.
pub fn lu_det(lu: &[f64], n: usize, piv: &[usize]) -> f64 {
    let mut d = 1.0;
    for k in 0..n {
        d *= lu[k * n + k];
        if piv[k] != k {
            d = -d;
        }
    }
    d
}

/// Solve A X = B for the n×r `b` in place, given A's LU.
pub fn lu_solve(lu: &[f64], n: usize, piv: &[usize], b: &mut [f64], r: usize) {
    for k in 0..n {
        if piv[k] != k {
            for j in 0..r {
                b.swap(k * r + j, piv[k] * r + j);
            }
        }
    }
    tri_solve(lu, n, b, r, false, true);
    tri_solve(lu, n, b, r, true, false);
}

avx2_dispatch! {
/// Solve T X = B for the n×r `b` in place, T the upper or lower triangle of `t` (the other
/// triangle is not read), with ones on the diagonal where `unit` (the diagonal not read).
    pub fn tri_solve(t: &[f64], n: usize, b: &mut [f64], r: usize, upper: bool, unit: bool) -> () => tri_solve_body
}

#[inline(always)]
fn tri_solve_body(t: &[f64], n: usize, b: &mut [f64], r: usize, upper: bool, unit: bool) {
    if n > 2 * NB && r >= 16 {
        // blocks of NB rows: first what the solved rows contribute, as one matrix product,
        // then the block's own triangle row by row
        let blocks: Vec<usize> = (0..n).step_by(NB).collect();
        let order: Box<dyn Iterator<Item = &usize>> = if upper { Box::new(blocks.iter().rev()) } else { Box::new(blocks.iter()) };
        for &i0 in order {
            let i1 = (i0 + NB).min(n);
            let (k0, k1) = if upper { (i1, n) } else { (0, i0) };
            // SAFETY: rows i0..i1 of b (written) are disjoint from its rows k0..k1 (read);
            // T's block (rows i0..i1, columns k0..k1) lies in `t`, a separate buffer.
            unsafe { sub_product_from(b, Some(t), i1 - i0, r, k1 - k0, i0 * r, r, i0 * n + k0, n, 1, k0 * r, r, 1) };
            tri_solve_rows(t, n, b, r, unit, i0, i1, upper);
        }
        return;
    }
    tri_solve_rows(t, n, b, r, unit, 0, n, upper)
}

/// `tri_solve` on rows i0..i1 of `b`, given that the rows outside the block are solved and
/// already subtracted: only T's diagonal block is read.
#[inline(always)] // built into the AVX2 kernels that call it (avx2_dispatch)
#[allow(clippy::too_many_arguments)]
fn tri_solve_rows(t: &[f64], n: usize, b: &mut [f64], r: usize, unit: bool, i0: usize, i1: usize, upper: bool) {
    let row = |i: usize, b: &mut [f64], ks: &mut dyn Iterator<Item = usize>| {
        for k in ks {
            let f = t[i * n + k];
            if f != 0.0 {
                for j in 0..r {
                    b[i * r + j] -= f * b[k * r + j];
                }
            }
        }
        if !unit {
            let d = t[i * n + i];
            for j in 0..r {
                b[i * r + j] /= d;
            }
        }
    };
    if upper {
        for i in (i0..i1).rev() {
            row(i, b, &mut (i + 1..i1));
        }
    } else {
        for i in i0..i1 {
            row(i, b, &mut (i0..i));
        }
    }
}

avx2_dispatch! {
/// The lower Cholesky factor of the n×n `a` (only its lower triangle is read) in place, the
/// upper triangle zeroed. Returns LAPACK's `info`: 0, or the order of the first leading minor
/// that is not positive-definite. Blocked as LAPACK's potrf: a diagonal block, the panel below
/// it by substitution, then the trailing matrix less the panel's product with itself.
    pub fn cholesky(a: &mut [f64], n: usize) -> usize => cholesky_body
}

#[inline(always)]
fn cholesky_body(a: &mut [f64], n: usize) -> usize {
    let info = cholesky_blocks(a, n);
    for j in 0..n {
        a[j * n + j + 1..(j + 1) * n].fill(0.0);
    }
    info
}

#[inline(always)] // built into the AVX2 kernels that call it (avx2_dispatch)
fn cholesky_blocks(a: &mut [f64], n: usize) -> usize {
    let mut k0 = 0;
    while k0 < n {
        let k1 = (k0 + NB).min(n);
        // the diagonal block and the panel below it: left-looking within the block (the
        // earlier blocks' parts were taken off by the trailing updates)
        for j in k0..k1 {
            let rj = &a[j * n + k0..j * n + j];
            let s = a[j * n + j] - dot(rj, rj);
            if !(s > 0.0) {
                return j + 1;
            }
            let d = s.sqrt();
            a[j * n + j] = d;
            for i in j + 1..k1 {
                let v = a[i * n + j] - dot(&a[i * n + k0..i * n + j], &a[j * n + k0..j * n + j]);
                a[i * n + j] = v / d;
            }
        }
        if k1 < n {
            // the panel L21 = A21 L11⁻ᵀ as one matrix product: L11's inverse by substitution
            // (a column at a time, each entry a dot product with a row of L11), stored by
            // columns, which lays out L11⁻ᵀ row-major; then A21, copied out, times it. (The
            // substitution on the panel itself streamed every column through memory once per
            // earlier column: a third of the Cholesky of 512×512.)
            let rows = n - k1;
            let kb = k1 - k0;
            let mut inv_t = vec![0.0; kb * kb];
            for (j, x) in inv_t.chunks_exact_mut(kb).enumerate() {
                x[j] = 1.0 / a[(k0 + j) * n + k0 + j];
                for i in j + 1..kb {
                    let li = &a[(k0 + i) * n + k0..(k0 + i) * n + k0 + i];
                    x[i] = -dot(&li[j..i], &x[j..i]) / a[(k0 + i) * n + k0 + i];
                }
            }
            let mut pc = vec![0.0; rows * kb];
            for (r, dst) in pc.chunks_exact_mut(kb).enumerate() {
                dst.copy_from_slice(&a[(k1 + r) * n + k0..(k1 + r) * n + k1]);
            }
            // SAFETY: the product writes rows k1..n × columns k0..k1 of `a` (n×n, row stride
            // n) and reads only `pc` (rows×kb) and `inv_t` (kb×kb), both row-major and owned
            // here; read_dst is false, so the destination is only written.
            unsafe {
                gemm::gemm(
                    rows, kb, kb,
                    a.as_mut_ptr().add(k1 * n + k0), 1, n as isize, false,
                    pc.as_ptr(), 1, kb as isize,
                    inv_t.as_ptr(), 1, kb as isize,
                    0.0, 1.0, false, false, false, gemm::Parallelism::None,
                )
            };
            // A22 -= L21 L21ᵀ, its lower triangle only (the upper one is never read): a
            // product per block of NB columns, from the block's diagonal down
            let mut c0 = k1;
            while c0 < n {
                let w = NB.min(n - c0);
                // SAFETY: rows c0..n × columns c0..c0+w (written, c0 >= k1) are disjoint from
                // L21 (columns k0..k1), read as both operands; all in a (n×n).
                unsafe { sub_product(a, n - c0, w, kb, c0 * n + c0, n, c0 * n + k0, n, 1, c0 * n + k0, 1, n) };
                c0 += w;
            }
        }
        k0 = k1;
    }
    0
}

avx2_dispatch! {
/// Householder QR of the m×n `a`: (Q as m×qc, R as rr×n) with k = min(m, n), qc = k or m
/// (`complete`), rr = k or m. The reflectors are LAPACK's (dlarfg): H = I - τ v vᵀ with
/// v₀ = 1, β = -sign(α)·‖(α, x)‖, so R's diagonal carries LAPACK's signs. The work is done
/// on columns stored contiguously (every reflector reads and updates whole columns).
    pub fn qr(a: &[f64], m: usize, n: usize, complete: bool) -> (Vec<f64>, Vec<f64>) => qr_body
}

#[inline(always)]
fn qr_body(a: &[f64], m: usize, n: usize, complete: bool) -> (Vec<f64>, Vec<f64>) {
    let k = m.min(n);
    let mut w = transposed(a, m, n);
    let mut taus = vec![0.0; k];
    // blocks of reflectors (LAPACK's geqrf): each block is made on its own columns, then
    // applied to the columns right of it at once as I - V T Vᵀ (two matrix products); the
    // last block (or a small matrix, one block) applies its reflectors one by one
    let mut blocks: Vec<(usize, usize, Vec<f64>, Vec<f64>)> = Vec::new();
    let mut j0 = 0;
    while j0 < k {
        let j1 = if k - j0 <= 2 * NB { k } else { j0 + NB };
        let reach = if j1 == k { n } else { j1 };
        for j in j0..j1 {
            let (head, tail) = w.split_at_mut((j + 1) * m);
            let col = &mut head[j * m..];
            let tau = householder(&mut col[j..]);
            if tau == 0.0 {
                continue; // H = I
            }
            taus[j] = tau;
            let v = &col[j + 1..];
            for c in tail[..(reach - j - 1) * m].chunks_exact_mut(m) {
                reflect(v, tau, &mut c[j..]);
            }
        }
        if j0 == 0 && j1 == k {
            break; // one block: Q below by single reflectors
        }
        let (v, t) = block_reflector(&w, m, j0, j1, &taus);
        if j1 < k {
            // columns j1..n, rows j0..m: C ← (I - V T Vᵀ)ᵀ C = C - V Tᵀ (Vᵀ C)
            apply_block(&mut w, m, j0, j1, n, &v, &t, true);
        }
        blocks.push((j0, j1, v, t));
        j0 = j1;
    }
    let rr = if complete { m } else { k };
    // R: the first k rows of wᵀ (a blocked transpose; element by element, with strided
    // writes, it was a tenth of QR at 256×256), the reflectors below the diagonal zeroed
    let mut r = vec![0.0; rr * n];
    super::transpose::transpose(&w, k, n, m, &mut r, n);
    for (i, row) in r.chunks_exact_mut(n).take(k).enumerate() {
        row[..i].fill(0.0);
    }
    let qc = if complete { m } else { k };
    let qcols = if blocks.is_empty() {
        form_q(&w, m, k, &taus, qc)
    } else {
        let mut qcols = identity_columns(m, qc);
        // Q = H₀ H₁ ... H_{k-1} I: the last block first
        for (j0, j1, v, t) in blocks.iter().rev() {
            // only Q's columns j0.. are not yet e_c in rows j0..
            apply_block(&mut qcols, m, *j0, *j1, qc, v, t, false);
        }
        qcols
    };
    (transposed(&qcols, qc, m), r)
}

/// The first `qc` columns of the m×m identity, held by columns.
fn identity_columns(m: usize, qc: usize) -> Vec<f64> {
    let mut q = vec![0.0; qc * m];
    for c in 0..qc.min(m) {
        q[c * m + c] = 1.0;
    }
    q
}

/// LAPACK's larfg on x = (α, x₁...): the reflector H = I - τ (1, v)(1, v)ᵀ with H x = (β, 0...);
/// v is left in x[1..], β in x[0], τ returned (0, with x unchanged, where x[1..] is zero).
#[inline(always)]
fn householder(x: &mut [f64]) -> f64 {
    let alpha = x[0];
    let xnorm = dot(&x[1..], &x[1..]).sqrt();
    if xnorm == 0.0 {
        return 0.0;
    }
    let beta = if alpha > 0.0 { -alpha.hypot(xnorm) } else if alpha < 0.0 { alpha.abs().hypot(xnorm) } else { -xnorm };
    let scale = 1.0 / (alpha - beta);
    for xi in &mut x[1..] {
        *xi *= scale;
    }
    x[0] = beta;
    (beta - alpha) / beta
}

/// Reflector counts from which `form_q` applies them in blocks (two matrix products each).
const FORM_Q_BLOCKED: usize = 96;
/// Reflectors per block in `form_q`.
const FORM_Q_NB: usize = 32;

/// Q = H₀ H₁ ⋯ H_{k-1} on the first `qc` columns of the m×m identity (held by columns), the
/// reflectors below the diagonal of the column-major `w` (columns of length m, as `qr` and
/// the bidiagonalisation leave them) with their τ. From FORM_Q_BLOCKED reflectors, in blocks
/// of FORM_Q_NB (the compact WY form; the last block first), else one at a time.
#[inline(always)] // built into the AVX2 kernels that call it (avx2_dispatch)
fn form_q(w: &[f64], m: usize, k: usize, taus: &[f64], qc: usize) -> Vec<f64> {
    let mut q = identity_columns(m, qc);
    if k >= FORM_Q_BLOCKED {
        let mut j1 = k;
        while j1 > 0 {
            let j0 = j1.saturating_sub(FORM_Q_NB);
            let (v, t) = block_reflector(w, m, j0, j1, taus);
            apply_block(&mut q, m, j0, j1, qc, &v, &t, false);
            j1 = j0;
        }
        return q;
    }
    for j in (0..k).rev() {
        if taus[j] == 0.0 {
            continue;
        }
        let v = &w[j * m + j + 1..(j + 1) * m];
        // columns before j are still e_c, zero in rows j..
        for c in q.chunks_exact_mut(m).skip(j) {
            reflect(v, taus[j], &mut c[j..]);
        }
    }
    q
}

/// The compact WY form of reflectors j0..j1 of the column-major `w` (columns of length m):
/// V ((m - j0) × kb, column-major, unit diagonal, zeros above) and the kb × kb upper
/// triangular T (row-major) with H_{j0} ⋯ H_{j1-1} = I - V T Vᵀ (LAPACK's larft).
#[inline(always)] // built into the AVX2 kernels that call it (avx2_dispatch)
fn block_reflector(w: &[f64], m: usize, j0: usize, j1: usize, taus: &[f64]) -> (Vec<f64>, Vec<f64>) {
    let (mb, kb) = (m - j0, j1 - j0);
    let mut v = vec![0.0; mb * kb];
    for c in 0..kb {
        v[c * mb + c] = 1.0;
        v[c * mb + c + 1..(c + 1) * mb].copy_from_slice(&w[(j0 + c) * m + j0 + c + 1..(j0 + c + 1) * m]);
    }
    let mut t = vec![0.0; kb * kb];
    // T's columns also kept contiguous (tc[p * kb + r] = T[r][p]), for the products below
    let mut tc = vec![0.0; kb * kb];
    let mut z = vec![0.0; kb];
    let zero: f64 = std::iter::empty::<f64>().sum();
    let mut s = vec![zero; kb];
    for i in 0..kb {
        let tau = taus[j0 + i];
        if tau == 0.0 {
            continue;
        }
        // z = V[:, ..i]ᵀ v_i (v_i is zero above row i), then T[..i, i] = -τ T[..i, ..i] z:
        // each T[r][i] sums T[r][p] z[p] over p = r..i ascending from the float sum's
        // neutral element (as an iterator's `sum()`), all r at once along T's columns (the
        // strided scalar sums were a twelfth of QR at 256×256)
        let vi = &v[i * mb + i..(i + 1) * mb];
        for p in 0..i {
            z[p] = dot(&v[p * mb + i..(p + 1) * mb], vi);
        }
        s[..i].fill(zero);
        for p in 0..i {
            for (sr, &trp) in s[..=p].iter_mut().zip(&tc[p * kb..p * kb + p + 1]) {
                *sr += trp * z[p];
            }
        }
        for r in 0..i {
            t[r * kb + i] = -tau * s[r];
            tc[i * kb + r] = t[r * kb + i];
        }
        t[i * kb + i] = tau;
        tc[i * kb + i] = tau;
    }
    (v, t)
}

/// C ← (I - V T Vᵀ) C, or with Tᵀ (`transpose`), for C the rows j0..m of the columns j1..nc
/// (or j0..nc for Q) of the column-major `buf` (columns of length m); V, T from
/// `block_reflector`. Two matrix products on the `gemm` crate around a small triangular one.
#[allow(clippy::too_many_arguments)]
#[inline(always)] // built into the AVX2 kernels that call it (avx2_dispatch)
fn apply_block(buf: &mut [f64], m: usize, j0: usize, j1: usize, nc: usize, v: &[f64], t: &[f64], transpose: bool) {
    let (mb, kb) = (m - j0, j1 - j0);
    let c0 = if transpose { j1 } else { j0 };
    let ncols = nc - c0;
    if ncols == 0 {
        return;
    }
    let base = c0 * m + j0;
    // W = Vᵀ C (kb × ncols, row-major)
    let mut wk = vec![0.0; kb * ncols];
    // SAFETY: V is mb×kb (element (r, i) at i*mb + r), C is mb×ncols inside `buf` (element
    // (r, c) at base + c*m + r, within buf as c0 + ncols <= nc columns of length m), W is a
    // fresh kb×ncols buffer; gemm writes only W.
    unsafe {
        gemm::gemm(kb, ncols, mb, wk.as_mut_ptr(), 1, ncols as isize, false,
            v.as_ptr(), 1, mb as isize, buf.as_ptr().add(base), m as isize, 1,
            0.0, 1.0, false, false, false, gemm::Parallelism::None)
    }
    // W ← T W or Tᵀ W (T upper triangular), in place a row at a time: row i of the result
    // needs rows p ≤ i of W (Tᵀ, so i descends) or p ≥ i (T, i ascends), none yet
    // overwritten. Each element is the sum over p in ascending order from the float sum's
    // neutral element, as an iterator's `sum()` adds it, but whole rows at once (a vector
    // loop; one element at a time, strided, it took half of QR's time at 256×256).
    let zero: f64 = std::iter::empty::<f64>().sum();
    let mut row = vec![zero; ncols];
    for i in 0..kb {
        let i = if transpose { kb - 1 - i } else { i };
        let (lo, hi) = if transpose { (0, i + 1) } else { (i, kb) };
        row.fill(zero);
        for p in lo..hi {
            let tp = if transpose { t[p * kb + i] } else { t[i * kb + p] };
            for (r, &w) in row.iter_mut().zip(&wk[p * ncols..(p + 1) * ncols]) {
                *r += tp * w;
            }
        }
        wk[i * ncols..(i + 1) * ncols].copy_from_slice(&row);
    }
    // C -= V W
    // SAFETY: as above; C (inside buf) is the only region written, and it overlaps neither
    // V nor W (separate buffers).
    unsafe {
        gemm::gemm(mb, ncols, kb, buf.as_mut_ptr().add(base), m as isize, 1, true,
            v.as_ptr(), mb as isize, 1, wk.as_ptr(), 1, ncols as isize,
            1.0, -1.0, false, false, false, gemm::Parallelism::None)
    }
}

/// x ← (I - τ v vᵀ) x for v = (1, `v`...) over `x` (its first element pairs with the 1).
#[inline(always)]
fn reflect(v: &[f64], tau: f64, x: &mut [f64]) {
    let s = tau * (x[0] + dot(v, &x[1..]));
    x[0] -= s;
    for (xi, vi) in x[1..].iter_mut().zip(v) {
        *xi -= s * vi;
    }
}

avx2_dispatch! {
/// Eigenvalues (ascending) and eigenvectors (the columns of the n×n result) of the symmetric
/// matrix whose lower (or `upper`) triangle `a` holds: Householder reduction to tridiagonal
/// form, then the implicit QL iteration (EISPACK's tred2 / tql2, as in JAMA).
    pub fn eigh(a: &[f64], n: usize, upper: bool) -> (Vec<f64>, Vec<f64>) => eigh_body
}

#[inline(always)]
fn eigh_body(a: &[f64], n: usize, upper: bool) -> (Vec<f64>, Vec<f64>) {
    if n == 0 {
        return (Vec::new(), Vec::new());
    }
    let mut v = vec![0.0; n * n];
    for i in 0..n {
        for j in 0..n {
            let (r, c) = if (j <= i) != upper { (i, j) } else { (j, i) };
            v[i * n + j] = a[r * n + c];
        }
    }
    let mut d = vec![0.0; n];
    let mut e = vec![0.0; n];
    tred2(&mut v, &mut d, &mut e, n);
    tql2(&mut v, &mut d, &mut e, n);
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&x, &y| d[x].total_cmp(&d[y]));
    let w: Vec<f64> = order.iter().map(|&i| d[i]).collect();
    // `v` holds the eigenvectors as rows: in ascending order, then transposed
    let mut rows = vec![0.0; n * n];
    for (c, &o) in order.iter().enumerate() {
        rows[c * n..(c + 1) * n].copy_from_slice(&v[o * n..(o + 1) * n]);
    }
    (w, transposed(&rows, n, n))
}

/// Householder tridiagonalisation of the symmetric `v` (n×n) in place: `v` becomes the
/// accumulated orthogonal transform's transpose (row-major), `d` the diagonal, `e` the
/// subdiagonal.
#[inline(always)] // built into the AVX2 kernels that call it (avx2_dispatch)
fn tred2(v: &mut [f64], d: &mut [f64], e: &mut [f64], n: usize) {
    // EISPACK's loops run down columns (Fortran's contiguous direction), so the matrix is
    // held by columns: element (r, c) at c·n + r (the input is symmetric, so the buffer
    // reads the same either way; the transform comes out transposed, as `tql2` wants it).
    // Held by rows, every inner loop strode a row and stayed scalar.
    let at = |r: usize, c: usize| c * n + r;
    for j in 0..n {
        d[j] = v[at(n - 1, j)];
    }
    for i in (1..n).rev() {
        let mut scale = 0.0;
        let mut h = 0.0;
        for k in 0..i {
            scale += d[k].abs();
        }
        if scale == 0.0 {
            e[i] = d[i - 1];
            for j in 0..i {
                d[j] = v[at(i - 1, j)];
                v[at(i, j)] = 0.0;
                v[at(j, i)] = 0.0;
            }
        } else {
            for k in 0..i {
                d[k] /= scale;
                h += d[k] * d[k];
            }
            let mut f = d[i - 1];
            let mut g = h.sqrt();
            if f > 0.0 {
                g = -g;
            }
            e[i] = scale * g;
            h -= f * g;
            d[i - 1] = f - g;
            for j in 0..i {
                e[j] = 0.0;
            }
            for j in 0..i {
                f = d[j];
                v[at(j, i)] = f;
                // column j below the diagonal, contiguous: its dot product with d, and e
                // updated along it
                let col = &v[at(j + 1, j)..at(i, j)];
                g = e[j] + v[at(j, j)] * f + dot(col, &d[j + 1..i]);
                for (ek, &vk) in e[j + 1..i].iter_mut().zip(col) {
                    *ek += vk * f;
                }
                e[j] = g;
            }
            f = 0.0;
            for j in 0..i {
                e[j] /= h;
                f += e[j] * d[j];
            }
            let hh = f / (h + h);
            for j in 0..i {
                e[j] -= hh * d[j];
            }
            for j in 0..i {
                f = d[j];
                g = e[j];
                for ((vk, &ek), &dk) in v[at(j, j)..at(i, j)].iter_mut().zip(&e[j..i]).zip(&d[j..i]) {
                    *vk -= f * ek + g * dk;
                }
                d[j] = v[at(i - 1, j)];
                v[at(i, j)] = 0.0;
            }
        }
        d[i] = h;
    }
    for i in 0..n - 1 {
        v[at(n - 1, i)] = v[at(i, i)];
        v[at(i, i)] = 1.0;
        let h = d[i + 1];
        if h != 0.0 {
            // columns 0..=i (rows 0..=i) less their projections on column i + 1: whole
            // contiguous columns (the columns j ≤ i lie before column i + 1 in the buffer)
            let (left, right) = v.split_at_mut(at(0, i + 1));
            let u = &right[..=i];
            for (dk, &uk) in d[..=i].iter_mut().zip(u) {
                *dk = uk / h;
            }
            for col in left.chunks_exact_mut(n).take(i + 1) {
                let g = dot(u, &col[..=i]);
                for (ck, &dk) in col[..=i].iter_mut().zip(&d[..=i]) {
                    *ck -= g * dk;
                }
            }
        }
        for k in 0..=i {
            v[at(k, i + 1)] = 0.0;
        }
    }
    for j in 0..n {
        d[j] = v[at(n - 1, j)];
        v[at(n - 1, j)] = 0.0;
    }
    v[at(n - 1, n - 1)] = 1.0;
    e[0] = 0.0;
}

/// `√(a² + b²)` as the plain formula where the squares neither overflow nor underflow
/// (within an ulp or so), else libm's `hypot` (the QL iteration called libm's for every
/// rotation: a fifth of `eigh` at 64×64).
#[inline(always)]
fn hypot(a: f64, b: f64) -> f64 {
    let s = a * a + b * b;
    if s > 1e-290 && s < 1e290 {
        s.sqrt()
    } else {
        a.hypot(b)
    }
}

/// The implicit QL iteration on the tridiagonal (`d`, `e`), accumulating into the
/// transform's transpose `vt` (as `tred2` leaves it): the rotations act on pairs of the
/// transform's columns, here rows (contiguous, the loop vectorised).
#[inline(always)] // built into the AVX2 kernels that call it (avx2_dispatch)
fn tql2(vt: &mut [f64], d: &mut [f64], e: &mut [f64], n: usize) {
    for i in 1..n {
        e[i - 1] = e[i];
    }
    e[n - 1] = 0.0;
    let mut f = 0.0;
    let mut tst1: f64 = 0.0;
    let eps = f64::EPSILON;
    for l in 0..n {
        tst1 = tst1.max(d[l].abs() + e[l].abs());
        let mut m = l;
        while m < n - 1 && e[m].abs() > eps * tst1 {
            m += 1;
        }
        if m > l {
            for _iter in 0..60 {
                let mut g = d[l];
                let mut p = (d[l + 1] - g) / (2.0 * e[l]);
                let mut r = hypot(p, 1.0);
                if p < 0.0 {
                    r = -r;
                }
                d[l] = e[l] / (p + r);
                d[l + 1] = e[l] * (p + r);
                let dl1 = d[l + 1];
                let mut h = g - d[l];
                for di in d.iter_mut().take(n).skip(l + 2) {
                    *di -= h;
                }
                f += h;
                p = d[m];
                let (mut c, mut c2, mut c3) = (1.0, 1.0, 1.0);
                let el1 = e[l + 1];
                let (mut s, mut s2) = (0.0, 0.0);
                for i in (l..m).rev() {
                    c3 = c2;
                    c2 = c;
                    s2 = s;
                    g = c * e[i];
                    h = c * p;
                    r = hypot(p, e[i]);
                    e[i + 1] = s * r;
                    s = e[i] / r;
                    c = p / r;
                    p = c * d[i] - s * g;
                    d[i + 1] = h + s * (c * g + s * d[i]);
                    // column i ← c·col_i - s·col_{i+1}, column i+1 ← s·col_i + c·col_{i+1}
                    rotate_rows(vt, n, i, i + 1, c, s);
                }
                p = -s * s2 * c3 * el1 * e[l] / dl1;
                e[l] = s * p;
                d[l] = c * p;
                if e[l].abs() <= eps * tst1 {
                    break;
                }
            }
        }
        d[l] += f;
        e[l] = 0.0;
    }
}

/// What `svd` returns: U (m×uc, row-major), the singular values (descending) and Vᵀ (vr×n);
/// U and Vᵀ are empty where the vectors were not asked for. `Err(info)`: the QR iteration
/// did not converge within LAPACK's budget, `info` superdiagonals left (LAPACK's info).
pub type SvdResult = Result<(Vec<f64>, Vec<f64>, Vec<f64>), usize>;

avx2_dispatch! {
/// Singular values (descending) and, with `vectors`, the vectors of the m×n `a`: (U as m×uc,
/// S of length k, Vᵀ as vr×n) with k = min(m, n), uc = vr = k, or m and n (`full`).
/// Golub-Kahan-Reinsch (LINPACK's dsvdc, as JAMA ports it): Householder bidiagonalisation,
/// then implicit-shift QR sweeps on the bidiagonal, held by columns so that every
/// reflection and rotation runs along contiguous memory. Non-finite input gives NaN values
/// (the op layer raises on NaN first, as PyTorch does).
    pub fn svd(a: &[f64], m: usize, n: usize, full: bool, vectors: bool) -> SvdResult => svd_body
}

#[inline(always)]
fn svd_body(a: &[f64], m: usize, n: usize, full: bool, vectors: bool) -> SvdResult {
    if m < n {
        // Aᵀ = V S Uᵀ
        let (u2, s, vt2) = svd(&transposed(a, m, n), n, m, full, vectors)?;
        if !vectors {
            return Ok((u2, s, vt2));
        }
        // u2: n×uc2 (= V), vt2: vr2×m (= Uᵀ); U = vt2ᵀ (m×vr2), Vᵀ = u2ᵀ (uc2×n)
        let (uc2, vr2) = (u2.len() / n, vt2.len() / m);
        return Ok((transposed(&vt2, vr2, m), s, transposed(&u2, n, uc2)));
    }
    // m ≥ n from here. U is held by columns (column j at u[j·m..]), m×ncu; V likewise, n×n,
    // which makes the buffer V's transpose, row-major: Vᵀ as returned.
    let ncu = if full { m } else { n };
    let finish = |u: Vec<f64>, s: Vec<f64>, v: Vec<f64>| -> SvdResult {
        if !vectors {
            return Ok((Vec::new(), s, Vec::new()));
        }
        Ok((transposed(&u, ncu, m), s, v))
    };
    let anrm = a.iter().fold(0.0f64, |acc, x| acc.max(x.abs()));
    if n == 0 || anrm == 0.0 || !anrm.is_finite() {
        let fill = if anrm == 0.0 || n == 0 { 0.0 } else { f64::NAN };
        return finish(identity_columns(m, ncu), vec![fill; n], identity_columns(n, n));
    }
    // far from 1, scale by a power of two (exact) so that no square below over- or underflows
    let (f1, f2) = if !(2f64.powi(-500)..=2f64.powi(500)).contains(&anrm) {
        let e = -anrm.log2().floor() as i32;
        (2f64.powi(e - e / 2), 2f64.powi(e / 2))
    } else {
        (1.0, 1.0)
    };
    // A by columns: A[i][j] = c[j·m + i]
    let mut c = transposed(a, m, n);
    if f1 != 1.0 {
        c.iter_mut().for_each(|x| *x = *x * f1 * f2);
    }
    // Householder bidiagonalisation (LAPACK's gebd2): A = U B Vᵀ, B upper bidiagonal with
    // diagonal s and superdiagonal e. Column reflector k stays below c's diagonal (as geqrf
    // leaves them); row reflector k is kept in column k of `gw`, the (n-1)×(n-1) space of
    // V's coordinates 1.. where it starts at row k.
    let n1 = n - 1;
    let mut s = vec![0.0; n];
    let mut e = vec![0.0; n];
    let mut tau_u = vec![0.0; n];
    let mut tau_v = vec![0.0; n1];
    let mut gw = vec![0.0; n1 * n1];
    let mut g = vec![0.0; n];
    let mut w = vec![0.0; m];
    for k in 0..n {
        let (head, tail) = c.split_at_mut((k + 1) * m);
        let col = &mut head[k * m + k..];
        let tau = householder(col);
        s[k] = col[0];
        tau_u[k] = tau;
        if tau != 0.0 {
            for cj in tail[..(n - k - 1) * m].chunks_exact_mut(m) {
                reflect(&col[1..], tau, &mut cj[k..]);
            }
        }
        if k + 1 < n {
            // the row A[k][k+1..n] as a vector
            let len = n - k - 1;
            for (gi, j) in g[..len].iter_mut().zip(k + 1..n) {
                *gi = c[j * m + k];
            }
            let tau = householder(&mut g[..len]);
            e[k] = g[0];
            tau_v[k] = tau;
            g[0] = 1.0;
            if tau != 0.0 && k + 1 < m {
                // rows k+1..m of columns k+1..n: R ← R (I - τ g gᵀ), as w = R g, then
                // column j -= τ gⱼ w
                let wk = &mut w[k + 1..m];
                wk.fill(0.0);
                for (&gj, j) in g[..len].iter().zip(k + 1..n) {
                    wk.iter_mut().zip(&c[j * m + k + 1..(j + 1) * m]).for_each(|(y, x)| *y += gj * x);
                }
                for (&gj, j) in g[..len].iter().zip(k + 1..n) {
                    let t = -tau * gj;
                    c[j * m + k + 1..(j + 1) * m].iter_mut().zip(&*wk).for_each(|(y, x)| *y += t * x);
                }
            }
            gw[k * n1 + k + 1..(k + 1) * n1].copy_from_slice(&g[1..len]);
        }
    }
    let (mut u, mut v) = (Vec::new(), Vec::new());
    if vectors {
        u = form_q(&c, m, n, &tau_u, ncu);
        // V = 1 ⊕ (the row reflectors' product on coordinates 1..n)
        let vq = form_q(&gw, n1, n1, &tau_v, n1);
        v = vec![0.0; n * n];
        v[0] = 1.0;
        for (col, q) in v[n..].chunks_exact_mut(n).zip(vq.chunks_exact(n1.max(1))) {
            col[1..].copy_from_slice(q);
        }
    }
    bidiagonal_qr(&mut s, &mut e, &mut u, &mut v, m, n, vectors)?;
    if f1 != 1.0 {
        s.iter_mut().for_each(|x| *x = *x / f1 / f2);
    }
    finish(u, s, v)
}

/// dsvdc's iteration on the bidiagonal (diagonal `s`, superdiagonal `e`): deflation where an
/// entry is negligible, else an implicit QR sweep with the Wilkinson-like shift of the
/// trailing 2×2; the rotations act on the columns of U (m long) and V (n long), held as
/// rows. Ends with the values positive and descending. `Err(info)` after 6n² sweeps without
/// convergence (LAPACK's budget; non-finite entries never converge).
#[inline(always)] // built into the AVX2 kernels that call it (avx2_dispatch)
fn bidiagonal_qr(s: &mut [f64], e: &mut [f64], u: &mut [f64], v: &mut [f64], m: usize, n: usize, vectors: bool) -> Result<(), usize> {
    const EPS: f64 = f64::EPSILON;
    let tiny = 2f64.powi(-966);
    let mut p = n;
    let pp = n - 1;
    let mut sweeps = 0usize;
    while p > 0 {
        // k: the last negligible superdiagonal before p-1 (-1: none)
        let mut k = p as isize - 2;
        while k >= 0 {
            let ku = k as usize;
            if e[ku].abs() <= tiny + EPS * (s[ku].abs() + s[ku + 1].abs()) {
                e[ku] = 0.0;
                break;
            }
            k -= 1;
        }
        let kase;
        if k == p as isize - 2 {
            kase = 4; // s[p-1] has converged
        } else {
            let mut ks = p as isize - 1;
            while ks > k {
                let ksu = ks as usize;
                let t = e[ksu].abs() * (ksu < p - 1) as u8 as f64 + if ks != k + 1 { e[ksu - 1].abs() } else { 0.0 };
                if s[ksu].abs() <= tiny + EPS * t {
                    s[ksu] = 0.0;
                    break;
                }
                ks -= 1;
            }
            if ks == k {
                kase = 3; // a QR sweep on k+1..p
            } else if ks == p as isize - 1 {
                kase = 1; // s[p-1] negligible: chase e[p-2] out
            } else {
                kase = 2; // s[ks] negligible: split there
                k = ks;
            }
        }
        let k = (k + 1) as usize;
        match kase {
            1 => {
                let mut f = e[p - 2];
                e[p - 2] = 0.0;
                for j in (k..=p - 2).rev() {
                    let t = hypot(s[j], f);
                    let (cs, sn) = (s[j] / t, f / t);
                    s[j] = t;
                    if j != k {
                        f = -sn * e[j - 1];
                        e[j - 1] *= cs;
                    }
                    if vectors {
                        rotate_rows(v, n, j, p - 1, cs, -sn);
                    }
                }
            }
            2 => {
                let mut f = e[k - 1];
                e[k - 1] = 0.0;
                for j in k..p {
                    let t = hypot(s[j], f);
                    let (cs, sn) = (s[j] / t, f / t);
                    s[j] = t;
                    f = -sn * e[j];
                    e[j] *= cs;
                    if vectors {
                        rotate_rows(u, m, k - 1, j, cs, sn);
                    }
                }
            }
            3 => {
                sweeps += 1;
                if sweeps > 6 * n * n {
                    return Err(e[..p - 1].iter().filter(|x| **x != 0.0).count());
                }
                let scale = [s[p - 1], s[p - 2], e[p - 2], s[k], e[k]].iter().fold(0.0f64, |acc, x| acc.max(x.abs()));
                let (sp, spm1, epm1, sk, ek) = (s[p - 1] / scale, s[p - 2] / scale, e[p - 2] / scale, s[k] / scale, e[k] / scale);
                let b = ((spm1 + sp) * (spm1 - sp) + epm1 * epm1) / 2.0;
                let cc = (sp * epm1) * (sp * epm1);
                let mut shift = 0.0;
                if b != 0.0 || cc != 0.0 {
                    shift = (b * b + cc).sqrt();
                    if b < 0.0 {
                        shift = -shift;
                    }
                    shift = cc / (b + shift);
                }
                let mut f = (sk + sp) * (sk - sp) + shift;
                let mut g = sk * ek;
                for j in k..p - 1 {
                    // one division per rotation (its reciprocal), not two
                    let t = hypot(f, g);
                    let r = 1.0 / t;
                    let (cs, sn) = (f * r, g * r);
                    if j != k {
                        e[j - 1] = t;
                    }
                    f = cs * s[j] + sn * e[j];
                    e[j] = cs * e[j] - sn * s[j];
                    g = sn * s[j + 1];
                    s[j + 1] *= cs;
                    if vectors {
                        rotate_rows(v, n, j, j + 1, cs, -sn);
                    }
                    let t = hypot(f, g);
                    let r = 1.0 / t;
                    let (cs, sn) = (f * r, g * r);
                    s[j] = t;
                    f = cs * e[j] + sn * s[j + 1];
                    s[j + 1] = -sn * e[j] + cs * s[j + 1];
                    g = sn * e[j + 1];
                    e[j + 1] *= cs;
                    if vectors {
                        rotate_rows(u, m, j, j + 1, cs, -sn);
                    }
                }
                e[p - 2] = f;
            }
            _ => {
                // converged: make s[k] nonnegative, then move it down to its place
                if s[k] <= 0.0 {
                    s[k] = if s[k] < 0.0 { -s[k] } else { 0.0 };
                    if vectors {
                        v[k * n..(k + 1) * n].iter_mut().for_each(|x| *x = -*x);
                    }
                }
                let mut k = k;
                while k < pp && s[k] < s[k + 1] {
                    s.swap(k, k + 1);
                    if vectors {
                        swap_rows(v, n, k, k + 1);
                        if k < m - 1 {
                            swap_rows(u, m, k, k + 1);
                        }
                    }
                    k += 1;
                }
                p -= 1;
            }
        }
    }
    Ok(())
}

/// Swap rows p < q (of `len`) of the row-major `a`.
#[inline(always)]
fn swap_rows(a: &mut [f64], len: usize, p: usize, q: usize) {
    let (lo, hi) = a.split_at_mut(q * len);
    lo[p * len..(p + 1) * len].swap_with_slice(&mut hi[..len]);
}

/// Rows p < q of the row-major `a` (rows of `len`) ← (c·row_p - s·row_q, s·row_p + c·row_q):
/// the rows as two disjoint slices, so the loop vectorises (indexing both in `a` kept it
/// scalar, with bounds checks: the SVD of 64×64 spent most of its time there).
#[inline(always)]
fn rotate_rows(a: &mut [f64], len: usize, p: usize, q: usize, c: f64, s: f64) {
    let (lo, hi) = a.split_at_mut(q * len);
    for (x, y) in lo[p * len..(p + 1) * len].iter_mut().zip(&mut hi[..len]) {
        let (u, w) = (*x, *y);
        *x = c * u - s * w;
        *y = s * u + c * w;
    }
}

avx2_dispatch! {
/// The p-norm distances from the point `a` (c features) to each of the `row.len()` points
/// held as the columns of the row-major c×ld `bt` (rows `ld` apart: a sub-range of a
/// matrix's columns), into `row`: for p = 0 the count of nonzero differences, for p = ∞ the
/// largest, else `(Σ |a_e - b_e|^p)^(1/p)` (the square root for p = 2), each sum taken over
/// the features in order from +0. The points run in the vector lanes, 32 at a time in
/// registers (the loop over one pair's features was a serial chain of dependent additions).
    pub fn p_distance_row(a: &[f64], bt: &[f64], ld: usize, p: f64, row: &mut [f64]) -> () => p_distance_row_body
}

#[inline(always)]
fn p_distance_row_body(a: &[f64], bt: &[f64], ld: usize, p: f64, row: &mut [f64]) {
    if p == 0.0 {
        distance_sums(a, bt, ld, row, |s, d| s + if d != 0.0 { 1.0 } else { 0.0 });
    } else if p == 1.0 {
        distance_sums(a, bt, ld, row, |s, d| s + d);
    } else if p == 2.0 {
        distance_sums(a, bt, ld, row, |s, d| s + d * d);
        row.iter_mut().for_each(|v| *v = v.sqrt());
    } else if p.is_infinite() {
        distance_sums(a, bt, ld, row, f64::max);
    } else {
        distance_sums(a, bt, ld, row, |s, d| s + d.powf(p));
        row.iter_mut().for_each(|v| *v = v.powf(1.0 / p));
    }
}

/// `row[j] = fold(+0, |a_e - bt[e][j]|)` over the features e in order, 32 columns at a time
/// in a local block (registers). A last partial block runs the same way where `bt` holds
/// the whole block's columns (callers pad it: `DISTANCE_PAD`), reading columns past the
/// row's end whose results are dropped; else one column at a time.
#[inline(always)]
fn distance_sums(a: &[f64], bt: &[f64], ld: usize, row: &mut [f64], f: impl Fn(f64, f64) -> f64) {
    const B: usize = DISTANCE_PAD;
    let len = row.len();
    let c = a.len();
    let mut j0 = 0;
    while j0 < len && (j0 + B <= len || c == 0 || (c - 1) * ld + j0 + B <= bt.len()) {
        let mut acc = [0.0f64; B];
        for (e, &ae) in a.iter().enumerate() {
            let col = &bt[e * ld + j0..e * ld + j0 + B];
            for (s, &b) in acc.iter_mut().zip(col) {
                *s = f(*s, (ae - b).abs());
            }
        }
        let w = B.min(len - j0);
        row[j0..j0 + w].copy_from_slice(&acc[..w]);
        j0 += B;
    }
    for (j, o) in row.iter_mut().enumerate().skip(j0) {
        *o = a.iter().enumerate().fold(0.0, |s, (e, &ae)| f(s, (ae - bt[e * ld + j]).abs()));
    }
}

/// The columns `p_distance_row` reads at once: a transpose padded with this many elements
/// lets every partial block run as a whole one.
pub const DISTANCE_PAD: usize = 32;

/// `p_distance_row`'s operand: the c×m transpose of the m×c row-major points `x`, its rows
/// `ld` apart, padded by `DISTANCE_PAD` (no block of columns is partial). Where m is a
/// multiple of 64 (rows of 512 bytes, 4 KiB at 512 points) the features' rows of a block all
/// fall in a few L1 sets (8 ways each for 32 rows read together), so `ld` then steps one
/// cache line past m.
pub fn distance_operand(x: &[f64], m: usize, c: usize) -> (Vec<f64>, usize) {
    let ld = if m > 0 && m % 64 == 0 { m + 8 } else { m };
    let mut t = vec![0.0; c * ld + DISTANCE_PAD];
    super::transpose::transpose(x, c, m, c, &mut t, ld);
    (t, ld)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mm(a: &[f64], b: &[f64], m: usize, k: usize, n: usize) -> Vec<f64> {
        let mut c = vec![0.0; m * n];
        for i in 0..m {
            for j in 0..n {
                c[i * n + j] = (0..k).map(|p| a[i * k + p] * b[p * n + j]).sum();
            }
        }
        c
    }
    fn close(a: &[f64], b: &[f64], tol: f64) -> bool {
        a.len() == b.len() && a.iter().zip(b).all(|(x, y)| (x - y).abs() <= tol * (1.0 + y.abs()))
    }
    fn tr(a: &[f64], m: usize, n: usize) -> Vec<f64> {
        transposed(a, m, n)
    }
    const A: [f64; 9] = [2.0, -1.0, 0.5, 4.0, 3.0, -2.0, -1.0, 0.25, 5.0];

    /// A reproducible n×n matrix with entries in [-1, 1).
    fn noise(n: usize, seed: u64) -> Vec<f64> {
        let mut x = seed;
        (0..n * n).map(|_| {
            x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            (x >> 11) as f64 / (1u64 << 52) as f64 - 1.0
        }).collect()
    }

    #[test]
    fn lu_reports_the_first_zero_pivot_on_both_panel_layouts() {
        // a zero column (and the rows below it dependent) on either side of the column-major
        // panel threshold: LAPACK's info, the factorization completed
        for n in [20, 100] {
            let mut a = noise(n, 3);
            for i in 0..n {
                a[i * n + 7] = 0.0;
            }
            let mut piv = vec![0; n];
            assert_eq!(lu(&mut a, n, &mut piv), 8, "n={n}");
            assert!(a.iter().all(|v| v.is_finite()), "n={n}");
        }
    }
    #[test]
    fn blocked_factorizations_reconstruct() {
        // sizes on both sides of the blocking threshold (2 * NB) and not multiples of NB
        for n in [5, 96, 97, 150, 211] {
            let g = noise(n, n as u64);
            // SPD: G Gᵀ + n I
            let mut spd = mm(&g, &tr(&g, n, n), n, n, n);
            (0..n).for_each(|i| spd[i * n + i] += n as f64);
            let mut l = spd.clone();
            assert_eq!(cholesky(&mut l, n), 0);
            assert!((0..n).all(|i| l[i * n + i + 1..(i + 1) * n].iter().all(|&v| v == 0.0)));
            assert!(close(&mm(&l, &tr(&l, n, n), n, n, n), &spd, 1e-10), "cholesky n={n}");
            // LU with pivots: P A = L U
            let mut f = g.clone();
            let mut piv = vec![0; n];
            assert_eq!(lu(&mut f, n, &mut piv), 0);
            let mut pa = g.clone();
            for k in 0..n {
                for j in 0..n {
                    pa.swap(k * n + j, piv[k] * n + j);
                }
            }
            let lo: Vec<f64> = (0..n * n).map(|x| match (x / n, x % n) { (i, j) if i == j => 1.0, (i, j) if j < i => f[x], _ => 0.0 }).collect();
            let up: Vec<f64> = (0..n * n).map(|x| if x % n >= x / n { f[x] } else { 0.0 }).collect();
            assert!(close(&mm(&lo, &up, n, n, n), &pa, 1e-10), "lu n={n}");
            // solves through both triangles (blocked from 2 * NB rows with 16+ columns)
            for r in [3, 20] {
                let x = noise(n.max(r), 5)[..n * r].to_vec();
                let mut bx = mm(&g, &x, n, n, r);
                lu_solve(&f, n, &piv, &mut bx, r);
                assert!(close(&bx, &x, 1e-8), "lu_solve n={n} r={r}");
            }
        }
        // blocked QR (more than 2 * NB columns): Q R = A, Qᵀ Q = I, R upper, as the
        // one-reflector-at-a-time path gives
        for (m, n) in [(150, 120), (120, 150), (211, 211)] {
            let a = noise(m.max(n), 9)[..m * n].to_vec();
            for complete in [false, true] {
                let (q, r) = qr(&a, m, n, complete);
                let qc = if complete { m } else { m.min(n) };
                assert!(close(&mm(&q, &r, m, qc, n), &a, 1e-10), "qr {m}x{n}");
                let qtq = mm(&tr(&q, m, qc), &q, qc, m, qc);
                let eye: Vec<f64> = (0..qc * qc).map(|x| f64::from(u8::from(x / qc == x % qc))).collect();
                assert!(close(&qtq, &eye, 1e-12), "qr {m}x{n} orthogonal");
            }
        }
        // not positive-definite: the order of the first failing minor, past a block
        let n = 150;
        let mut spd = mm(&noise(n, 3), &tr(&noise(n, 3), n, n), n, n, n);
        (0..n).for_each(|i| spd[i * n + i] += n as f64);
        spd[120 * n + 120] = -1e6;
        assert_eq!(cholesky(&mut spd, n), 121);
    }

    #[test]
    fn lu_solves_and_determines() {
        let mut lu_ = A.to_vec();
        let mut piv = [0; 3];
        assert_eq!(lu(&mut lu_, 3, &mut piv), 0);
        assert_eq!(piv[0], 1); // the largest magnitude in column 0 is row 1
        let want_det = 2.0 * (3.0 * 5.0 - (-2.0) * 0.25) - (-1.0) * (4.0 * 5.0 - (-2.0) * -1.0) + 0.5 * (4.0 * 0.25 - 3.0 * -1.0);
        assert!((lu_det(&lu_, 3, &piv) - want_det).abs() < 1e-12);
        let mut b = vec![1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0];
        lu_solve(&lu_, 3, &piv, &mut b, 3);
        assert!(close(&mm(&A, &b, 3, 3, 3), &[1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0], 1e-12));
        let mut s = vec![1.0, 2.0, 2.0, 4.0];
        assert_eq!(lu(&mut s, 2, &mut piv[..2]), 2);
    }

    #[test]
    fn cholesky_and_triangular_solves() {
        let spd = mm(&A, &tr(&A, 3, 3), 3, 3, 3);
        let mut l = spd.clone();
        assert_eq!(cholesky(&mut l, 3), 0);
        assert!(close(&mm(&l, &tr(&l, 3, 3), 3, 3, 3), &spd, 1e-12));
        let mut b = vec![1.0, 2.0, 3.0];
        tri_solve(&l, 3, &mut b, 1, false, false);
        assert!(close(&mm(&l, &b, 3, 3, 1), &[1.0, 2.0, 3.0], 1e-12));
        let mut bad = vec![1.0, 2.0, 2.0, 1.0];
        assert_eq!(cholesky(&mut bad, 2), 2);
    }

    #[test]
    fn qr_matches_lapack_signs_and_reconstructs() {
        for (m, n) in [(3, 3), (4, 2), (2, 4)] {
            let a: Vec<f64> = (0..m * n).map(|i| ((i * 7 + 3) % 11) as f64 - 4.5).collect();
            for complete in [false, true] {
                let (q, r) = qr(&a, m, n, complete);
                let (qc, rr) = (q.len() / m, r.len() / n);
                assert!(close(&mm(&q, &r, m, qc, n), &a, 1e-12));
                assert!(close(&mm(&tr(&q, m, qc), &q, qc, m, qc), &(0..qc * qc).map(|i| (i % (qc + 1) == 0) as u8 as f64).collect::<Vec<_>>(), 1e-12));
                assert_eq!(rr, if complete { m } else { m.min(n) });
            }
        }
        // LAPACK: R₀₀ = -sign(a₀₀)·‖a₀‖
        let (_, r) = qr(&[3.0, 1.0, 4.0, 2.0], 2, 2, false);
        assert!((r[0] + 5.0).abs() < 1e-12);
    }

    #[test]
    fn eigh_and_svd() {
        let sym = mm(&A, &tr(&A, 3, 3), 3, 3, 3);
        let (w, v) = eigh(&sym, 3, false);
        assert!(w[0] <= w[1] && w[1] <= w[2]);
        let vd: Vec<f64> = (0..9).map(|i| v[i] * w[i % 3]).collect();
        assert!(close(&mm(&vd, &tr(&v, 3, 3), 3, 3, 3), &sym, 1e-12));
        // degenerate and trivial cases
        let (w, v) = eigh(&[2.0, 0.0, 0.0, 0.0, -1.0, 0.0, 0.0, 0.0, 2.0], 3, true);
        assert_eq!(w, vec![-1.0, 2.0, 2.0]);
        assert!(close(&mm(&tr(&v, 3, 3), &v, 3, 3, 3), &[1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0], 1e-14));
        assert_eq!(eigh(&[4.0], 1, false), (vec![4.0], vec![1.0]));
        let big: Vec<f64> = (0..40 * 40).map(|i| (((i * 37) % 101) as f64 - 50.0) / 7.0).collect();
        let sym = mm(&big, &tr(&big, 40, 40), 40, 40, 40);
        let (w, v) = eigh(&sym, 40, false);
        let vd: Vec<f64> = (0..1600).map(|i| v[i] * w[i % 40]).collect();
        assert!(close(&mm(&vd, &tr(&v, 40, 40), 40, 40, 40), &sym, 1e-11));
        let eye = |k: usize| (0..k * k).map(|i| (i % (k + 1) == 0) as u8 as f64).collect::<Vec<_>>();
        let big_tall: Vec<f64> = (0..40 * 25).map(|i| (((i * 53) % 97) as f64 - 48.0) / 9.0).collect();
        let shapes: [(usize, usize, &[f64]); 6] = [(3, 3, &[]), (4, 2, &[]), (2, 4, &[]), (3, 1, &[]), (40, 25, &big_tall), (25, 40, &big_tall)];
        for (m, n, given) in shapes {
            let a: Vec<f64> = if given.is_empty() { (0..m * n).map(|i| ((i * 5 + 1) % 7) as f64 - 3.0).collect() } else { given.to_vec() };
            let (u, s, vt) = svd(&a, m, n, false, true).unwrap();
            let k = m.min(n);
            assert!(s.windows(2).all(|p| p[0] >= p[1]) && s.iter().all(|&x| x >= 0.0));
            let us: Vec<f64> = (0..m * k).map(|i| u[i] * s[i % k]).collect();
            assert!(close(&mm(&us, &vt, m, k, n), &a, 1e-12), "{m}x{n}");
            assert!(close(&mm(&tr(&u, m, k), &u, k, m, k), &eye(k), 1e-12));
            assert!(close(&mm(&vt, &tr(&vt, k, n), k, n, k), &eye(k), 1e-12));
            // the values alone are the same values
            let (nu, s2, nv) = svd(&a, m, n, false, false).unwrap();
            assert!(nu.is_empty() && nv.is_empty() && close(&s, &s2, 1e-12));
            let (uf, sf, vtf) = svd(&a, m, n, true, true).unwrap();
            assert!(close(&mm(&tr(&uf, m, m), &uf, m, m, m), &eye(m), 1e-12));
            assert!(close(&mm(&vtf, &tr(&vtf, n, n), n, n, n), &eye(n), 1e-12));
            let mut usf = vec![0.0; m * n];
            (0..k).for_each(|i| (0..m).for_each(|r| usf[r * n + i] = uf[r * m + i] * sf[i]));
            assert!(close(&mm(&usf, &vtf, m, n, n), &a, 1e-12), "full {m}x{n}");
        }
        // rank deficient: U still orthonormal
        let (u, s, _) = svd(&[1.0, 2.0, 2.0, 4.0], 2, 2, false, true).unwrap();
        assert!(s[1].abs() < 1e-12);
        assert!(close(&mm(&tr(&u, 2, 2), &u, 2, 2, 2), &eye(2), 1e-12));
        // repeated values, zero, scaled far from 1 (exactly, by powers of two), non-finite
        let (u, s, vt) = svd(&eye(3), 3, 3, false, true).unwrap();
        assert!(close(&s, &[1.0; 3], 1e-15) && close(&mm(&u, &vt, 3, 3, 3), &eye(3), 1e-15));
        assert_eq!(svd(&[0.0; 6], 3, 2, false, true).unwrap().1, vec![0.0; 2]);
        for scale in [2f64.powi(900), 2f64.powi(-1000)] {
            let a: Vec<f64> = [3.0, 1.0, 4.0, 2.0].iter().map(|x| x * scale).collect();
            let (_, s, _) = svd(&a, 2, 2, false, false).unwrap();
            let (_, s1, _) = svd(&[3.0, 1.0, 4.0, 2.0], 2, 2, false, false).unwrap();
            assert!(s.iter().zip(&s1).all(|(x, y)| (x / scale - y).abs() < 1e-12 * y), "{s:?}");
        }
        let (_, s, _) = svd(&[1.0, f64::INFINITY, 2.0, 3.0], 2, 2, false, true).unwrap();
        assert!(s.iter().all(|x| x.is_nan()));
    }
}
