//! Dense linear algebra on one small matrix at a time, in f64, row-major and contiguous:
//! LU with partial pivoting (LAPACK getrf's pivot choice: the first largest magnitude),
//! substitution with triangular factors, Cholesky, Householder QR (LAPACK geqrf's reflectors,
//! so R's diagonal signs are LAPACK's), cyclic Jacobi for symmetric eigenproblems and
//! one-sided (Hestenes) Jacobi for the SVD. The op layer (`ops::linalg`) converts tensors to
//! these buffers, runs a kernel per batch element and records the derivatives.
//!
//! Every kernel works in f64 whatever the tensor's dtype (PyTorch calls LAPACK in the
//! tensor's own precision, so float32 results agree to float32 rounding, not bit for bit).

/// LU of the n×n `a` in place: L (unit diagonal, not stored) below the diagonal, U on and
/// above; `piv[k]` is the row swapped with row k at step k. Returns LAPACK's `info`: 0, or
/// the 1-based index of the first exactly-zero pivot (the factorization still completes).
pub fn lu(a: &mut [f64], n: usize, piv: &mut [usize]) -> usize {
    let mut info = 0;
    for k in 0..n {
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
        for i in k + 1..n {
            let f = a[i * n + k] / d;
            a[i * n + k] = f;
            if f != 0.0 {
                for j in k + 1..n {
                    a[i * n + j] -= f * a[k * n + j];
                }
            }
        }
    }
    info
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

/// Solve T X = B for the n×r `b` in place, T the upper or lower triangle of `t` (the other
/// triangle is not read), with ones on the diagonal where `unit` (the diagonal not read).
pub fn tri_solve(t: &[f64], n: usize, b: &mut [f64], r: usize, upper: bool, unit: bool) {
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
        for i in (0..n).rev() {
            row(i, b, &mut (i + 1..n));
        }
    } else {
        for i in 0..n {
            row(i, b, &mut (0..i));
        }
    }
}

/// The lower Cholesky factor of the n×n `a` (only its lower triangle is read) in place, the
/// upper triangle zeroed. Returns LAPACK's `info`: 0, or the order of the first leading minor
/// that is not positive-definite.
pub fn cholesky(a: &mut [f64], n: usize) -> usize {
    for j in 0..n {
        let mut s = a[j * n + j];
        for k in 0..j {
            s -= a[j * n + k] * a[j * n + k];
        }
        if !(s > 0.0) {
            return j + 1;
        }
        let d = s.sqrt();
        a[j * n + j] = d;
        for i in j + 1..n {
            let mut v = a[i * n + j];
            for k in 0..j {
                v -= a[i * n + k] * a[j * n + k];
            }
            a[i * n + j] = v / d;
        }
        for k in j + 1..n {
            a[j * n + k] = 0.0;
        }
    }
    0
}

/// Householder QR of the m×n `a`: (Q as m×qc, R as rr×n) with k = min(m, n), qc = k or m
/// (`complete`), rr = k or m. The reflectors are LAPACK's (dlarfg): H = I - τ v vᵀ with
/// v₀ = 1, β = -sign(α)·‖(α, x)‖, so R's diagonal carries LAPACK's signs.
pub fn qr(a: &[f64], m: usize, n: usize, complete: bool) -> (Vec<f64>, Vec<f64>) {
    let k = m.min(n);
    let mut w = a.to_vec();
    let mut taus = vec![0.0; k];
    for j in 0..k {
        let alpha = w[j * n + j];
        let xnorm = (j + 1..m).map(|i| w[i * n + j] * w[i * n + j]).sum::<f64>().sqrt();
        if xnorm == 0.0 {
            continue; // H = I (τ = 0)
        }
        let beta = -alpha.signum() * alpha.hypot(xnorm);
        let beta = if alpha == 0.0 { -alpha.hypot(xnorm) } else { beta };
        taus[j] = (beta - alpha) / beta;
        let scale = 1.0 / (alpha - beta);
        for i in j + 1..m {
            w[i * n + j] *= scale;
        }
        w[j * n + j] = beta;
        for c in j + 1..n {
            let mut s = w[j * n + c];
            for i in j + 1..m {
                s += w[i * n + j] * w[i * n + c];
            }
            s *= taus[j];
            w[j * n + c] -= s;
            for i in j + 1..m {
                w[i * n + c] -= s * w[i * n + j];
            }
        }
    }
    let rr = if complete { m } else { k };
    let mut r = vec![0.0; rr * n];
    for i in 0..k {
        for c in i..n {
            r[i * n + c] = w[i * n + c];
        }
    }
    let qc = if complete { m } else { k };
    let mut q = vec![0.0; m * qc];
    for i in 0..qc {
        q[i * qc + i] = 1.0;
    }
    // Q = H₀ H₁ ... H_{k-1} I: the last reflector first
    for j in (0..k).rev() {
        let tau = taus[j];
        if tau == 0.0 {
            continue;
        }
        for c in 0..qc {
            let mut s = q[j * qc + c];
            for i in j + 1..m {
                s += w[i * n + j] * q[i * qc + c];
            }
            s *= tau;
            q[j * qc + c] -= s;
            for i in j + 1..m {
                q[i * qc + c] -= s * w[i * n + j];
            }
        }
    }
    (q, r)
}

/// Eigenvalues (ascending) and eigenvectors (the columns of the n×n result) of the symmetric
/// matrix whose lower (or `upper`) triangle `a` holds, by cyclic Jacobi rotations.
pub fn eigh(a: &[f64], n: usize, upper: bool) -> (Vec<f64>, Vec<f64>) {
    let mut s = vec![0.0; n * n];
    for i in 0..n {
        for j in 0..n {
            let (r, c) = if (j <= i) != upper { (i, j) } else { (j, i) };
            s[i * n + j] = a[r * n + c];
        }
    }
    let mut v = vec![0.0; n * n];
    for i in 0..n {
        v[i * n + i] = 1.0;
    }
    let norm2: f64 = s.iter().map(|x| x * x).sum();
    for _sweep in 0..100 {
        let off: f64 = (0..n).flat_map(|i| (0..n).filter(move |&j| j != i).map(move |j| (i, j))).map(|(i, j)| s[i * n + j] * s[i * n + j]).sum();
        if off <= f64::EPSILON * f64::EPSILON * norm2 || !off.is_finite() {
            break;
        }
        for p in 0..n {
            for q in p + 1..n {
                let apq = s[p * n + q];
                if apq == 0.0 {
                    continue;
                }
                let theta = (s[q * n + q] - s[p * n + p]) / (2.0 * apq);
                let t = theta.signum() / (theta.abs() + (theta * theta + 1.0).sqrt());
                let t = if theta == 0.0 { 1.0 } else { t };
                let c = 1.0 / (t * t + 1.0).sqrt();
                let sn = t * c;
                for k in 0..n {
                    let (skp, skq) = (s[k * n + p], s[k * n + q]);
                    s[k * n + p] = c * skp - sn * skq;
                    s[k * n + q] = sn * skp + c * skq;
                }
                for k in 0..n {
                    let (spk, sqk) = (s[p * n + k], s[q * n + k]);
                    s[p * n + k] = c * spk - sn * sqk;
                    s[q * n + k] = sn * spk + c * sqk;
                }
                for k in 0..n {
                    let (vkp, vkq) = (v[k * n + p], v[k * n + q]);
                    v[k * n + p] = c * vkp - sn * vkq;
                    v[k * n + q] = sn * vkp + c * vkq;
                }
            }
        }
    }
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&x, &y| s[x * n + x].total_cmp(&s[y * n + y]));
    let w: Vec<f64> = order.iter().map(|&i| s[i * n + i]).collect();
    let mut vs = vec![0.0; n * n];
    for (c, &o) in order.iter().enumerate() {
        for r in 0..n {
            vs[r * n + c] = v[r * n + o];
        }
    }
    (w, vs)
}

/// Singular values (descending) and vectors of the m×n `a`: (U as m×uc, S of length k,
/// Vᵀ as vr×n) with k = min(m, n), uc = vr = k, or m and n (`full`). One-sided Jacobi on
/// the columns of A (or of Aᵀ when m < n); singular vectors of zero singular values and the
/// `full` completions are orthonormal completions (Gram-Schmidt on the unit vectors).
pub fn svd(a: &[f64], m: usize, n: usize, full: bool) -> (Vec<f64>, Vec<f64>, Vec<f64>) {
    if m < n {
        // Aᵀ = V S Uᵀ
        let mut t = vec![0.0; m * n];
        for i in 0..m {
            for j in 0..n {
                t[j * m + i] = a[i * n + j];
            }
        }
        let (u2, s, vt2) = svd(&t, n, m, full);
        // u2: n×uc2 (= V), vt2: vr2×m (= Uᵀ); U = vt2ᵀ (m×vr2), Vᵀ = u2ᵀ (uc2×n)
        let (uc2, vr2) = (u2.len() / n, vt2.len() / m);
        let mut u = vec![0.0; m * vr2];
        for i in 0..vr2 {
            for j in 0..m {
                u[j * vr2 + i] = vt2[i * m + j];
            }
        }
        let mut vt = vec![0.0; uc2 * n];
        for i in 0..n {
            for j in 0..uc2 {
                vt[j * n + i] = u2[i * uc2 + j];
            }
        }
        return (u, s, vt);
    }
    // m ≥ n: columns of A (stored as rows of `c`, contiguous), V accumulated likewise
    let mut c = vec![0.0; n * m];
    for i in 0..m {
        for j in 0..n {
            c[j * m + i] = a[i * n + j];
        }
    }
    let mut v = vec![0.0; n * n];
    for i in 0..n {
        v[i * n + i] = 1.0;
    }
    let dot = |x: &[f64], y: &[f64]| x.iter().zip(y).map(|(a, b)| a * b).sum::<f64>();
    for _sweep in 0..100 {
        let mut rotated = false;
        for p in 0..n {
            for q in p + 1..n {
                let (cp, cq) = (&c[p * m..(p + 1) * m], &c[q * m..(q + 1) * m]);
                let (alpha, beta, gamma) = (dot(cp, cp), dot(cq, cq), dot(cp, cq));
                if gamma == 0.0 || gamma.abs() <= f64::EPSILON * (alpha * beta).sqrt() || !gamma.is_finite() {
                    continue;
                }
                rotated = true;
                let zeta = (beta - alpha) / (2.0 * gamma);
                let t = zeta.signum() / (zeta.abs() + (1.0 + zeta * zeta).sqrt());
                let t = if zeta == 0.0 { 1.0 } else { t };
                let cs = 1.0 / (1.0 + t * t).sqrt();
                let sn = cs * t;
                for k in 0..m {
                    let (x, y) = (c[p * m + k], c[q * m + k]);
                    c[p * m + k] = cs * x - sn * y;
                    c[q * m + k] = sn * x + cs * y;
                }
                for k in 0..n {
                    let (x, y) = (v[p * n + k], v[q * n + k]);
                    v[p * n + k] = cs * x - sn * y;
                    v[q * n + k] = sn * x + cs * y;
                }
            }
        }
        if !rotated {
            break;
        }
    }
    let norms: Vec<f64> = (0..n).map(|j| dot(&c[j * m..(j + 1) * m], &c[j * m..(j + 1) * m]).sqrt()).collect();
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&x, &y| norms[y].total_cmp(&norms[x]));
    let s: Vec<f64> = order.iter().map(|&j| norms[j]).collect();
    // U's columns: the normalized columns, completed where a singular value is zero
    let uc = if full { m } else { n };
    let mut ucols: Vec<Vec<f64>> = Vec::with_capacity(uc);
    let tiny = s.first().copied().unwrap_or(0.0) * f64::EPSILON * m as f64;
    let mut missing = Vec::new();
    for (i, &j) in order.iter().enumerate() {
        if norms[j] > tiny && norms[j] > 0.0 {
            ucols.push(c[j * m..(j + 1) * m].iter().map(|x| x / norms[j]).collect());
        } else {
            missing.push(i);
            ucols.push(vec![0.0; m]);
        }
    }
    complete_basis(&mut ucols, &missing, m, uc);
    let mut u = vec![0.0; m * uc];
    for (j, col) in ucols.iter().enumerate() {
        for i in 0..m {
            u[i * uc + j] = col[i];
        }
    }
    let mut vt = vec![0.0; n * n];
    for (i, &j) in order.iter().enumerate() {
        vt[i * n..(i + 1) * n].copy_from_slice(&v[j * n..(j + 1) * n]);
    }
    (u, s, vt)
}

/// Fill the columns `missing` of `cols` and append columns up to `total`, each orthonormal to
/// all the others: Gram-Schmidt (twice) on the unit vectors in order, skipping dependent ones.
fn complete_basis(cols: &mut Vec<Vec<f64>>, missing: &[usize], m: usize, total: usize) {
    let need: Vec<usize> = missing.iter().copied().chain(cols.len()..total).collect();
    while cols.len() < total {
        cols.push(vec![0.0; m]);
    }
    let mut filled: Vec<bool> = vec![true; total];
    for &i in &need {
        filled[i] = false;
    }
    let mut e = 0;
    for &slot in &need {
        while e < m {
            let mut x = vec![0.0; m];
            x[e] = 1.0;
            e += 1;
            for _ in 0..2 {
                for (j, col) in cols.iter().enumerate() {
                    if filled[j] {
                        let d: f64 = col.iter().zip(&x).map(|(a, b)| a * b).sum();
                        for (xi, ci) in x.iter_mut().zip(col) {
                            *xi -= d * ci;
                        }
                    }
                }
            }
            let nrm = x.iter().map(|v| v * v).sum::<f64>().sqrt();
            if nrm > 1e-8 {
                cols[slot] = x.iter().map(|v| v / nrm).collect();
                filled[slot] = true;
                break;
            }
        }
    }
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
        let mut t = vec![0.0; m * n];
        for i in 0..m {
            for j in 0..n {
                t[j * m + i] = a[i * n + j];
            }
        }
        t
    }
    const A: [f64; 9] = [2.0, -1.0, 0.5, 4.0, 3.0, -2.0, -1.0, 0.25, 5.0];

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
    fn jacobi_eigh_and_svd() {
        let sym = mm(&A, &tr(&A, 3, 3), 3, 3, 3);
        let (w, v) = eigh(&sym, 3, false);
        assert!(w[0] <= w[1] && w[1] <= w[2]);
        let vd: Vec<f64> = (0..9).map(|i| v[i] * w[i % 3]).collect();
        assert!(close(&mm(&vd, &tr(&v, 3, 3), 3, 3, 3), &sym, 1e-12));
        for (m, n) in [(3, 3), (4, 2), (2, 4), (3, 1)] {
            let a: Vec<f64> = (0..m * n).map(|i| ((i * 5 + 1) % 7) as f64 - 3.0).collect();
            let (u, s, vt) = svd(&a, m, n, false);
            let k = m.min(n);
            assert!(s.windows(2).all(|p| p[0] >= p[1]));
            let us: Vec<f64> = (0..m * k).map(|i| u[i] * s[i % k]).collect();
            assert!(close(&mm(&us, &vt, m, k, n), &a, 1e-12), "{m}x{n}");
            let (uf, _, vtf) = svd(&a, m, n, true);
            assert!(close(&mm(&tr(&uf, m, m), &uf, m, m, m), &(0..m * m).map(|i| (i % (m + 1) == 0) as u8 as f64).collect::<Vec<_>>(), 1e-12));
            assert!(close(&mm(&vtf, &tr(&vtf, n, n), n, n, n), &(0..n * n).map(|i| (i % (n + 1) == 0) as u8 as f64).collect::<Vec<_>>(), 1e-12));
        }
        // rank deficient: U still orthonormal
        let (u, s, _) = svd(&[1.0, 2.0, 2.0, 4.0], 2, 2, false);
        assert!(s[1].abs() < 1e-12);
        assert!(close(&mm(&tr(&u, 2, 2), &u, 2, 2, 2), &[1.0, 0.0, 0.0, 1.0], 1e-12));
    }
}
