//! Out-of-place transposes: `dst[i * ld + j] = src[i + j * cs]` for an `r × c` output whose
//! source has unit stride along the output's rows (`.t().contiguous()`, a transposed operand
//! materialised for a product, a reduction moving dim 0 last).
//!
//! Walking the output in order reads one element per source cache line; the kernels here
//! move 8×8 (4-byte) or 4×4 (8-byte) blocks through registers with AVX (unpack / shuffle /
//! lane permutes, which move bits and never touch their values), in bands that read the
//! source sequentially and write whole output lines. Other element sizes, machines without AVX and the edges take
//! the scalar tiled loop. 256×256 float32: 93 µs → ~8 µs.

/// The tile (in elements, both ways) of the scalar loop.
const TILE: usize = 32;

/// `dst[i * ld + j] = src[i + j * cs]` for `i < r`, `j < c`.
///
/// # Panics
/// If `src` is shorter than `(r - 1) + (c - 1) * cs + 1` or `dst` than `(r - 1) * ld + c`
/// (for a non-empty output), or `ld < c`.
pub(crate) fn transpose<T: Copy>(src: &[T], r: usize, c: usize, cs: usize, dst: &mut [T], ld: usize) {
    if r == 0 || c == 0 {
        return;
    }
    assert!(ld >= c && cs >= 1, "transpose: bad strides");
    assert!(src.len() > (r - 1) + (c - 1) * cs, "transpose: source too short");
    assert!(dst.len() >= (r - 1) * ld + c, "transpose: destination too short");
    let Some((b, k)) = block_kernel::<T>() else {
        for i0 in (0..r).step_by(TILE) {
            for j0 in (0..c).step_by(TILE) {
                scalar(src, i0, (i0 + TILE).min(r), j0, (j0 + TILE).min(c), cs, dst, ld);
            }
        }
        return;
    };
    // Measured on Zen 4 (ns per float32 element, `timing` below): a small transpose whose
    // source rows are under a page apart is fastest in 16×16 tiles walked row of blocks by
    // row of blocks (256×256: 0.13; 128×32 tiles column-first: 0.32); source rows a page or
    // more apart (4 KiB strides put every row's line in one L1 set) or a copy larger than
    // L2 want tall tiles walked column of blocks first, whose source rows are read in
    // sequential runs (1024×288 source: 0.35 → 0.18; 288×12544: 0.70 → 0.56; 4096²: 1.05 → 0.71)
    let size = std::mem::size_of::<T>();
    let (ti, tj, j_outer) = if cs * size >= 4096 || r * c * size > (1 << 20) { (128, 32, true) } else { (16, 16, false) };
    blocked(src, r, c, cs, dst, ld, (b, k), ti, tj, j_outer);
}

/// Tiles of `ti × tj` output elements, each walked in b×b register blocks (rows of blocks
/// first, or columns first with `j_outer`), scalar at the edges.
#[allow(clippy::too_many_arguments)]
fn blocked<T: Copy>(src: &[T], r: usize, c: usize, cs: usize, dst: &mut [T], ld: usize, (b, k): BlockKernel, ti: usize, tj: usize, j_outer: bool) {
    let block = |i: usize, j: usize, dst: &mut [T]| {
        // SAFETY: the block reads src[i + l + (j + m) * cs] and writes dst[(i + l) * ld + j +
        // m] for l, m < b; the callers keep i + b <= r and j + b <= c, inside both slices by
        // `transpose`'s asserts; `k` was picked for size_of::<T>() on a machine with AVX.
        unsafe { k(src.as_ptr().add(i + j * cs) as *const u8, cs, dst.as_mut_ptr().add(i * ld + j) as *mut u8, ld) }
    };
    for i0 in (0..r).step_by(ti) {
        let i1 = (i0 + ti).min(r);
        let ib = i0 + (i1 - i0) / b * b;
        for j0 in (0..c).step_by(tj) {
            let j1 = (j0 + tj).min(c);
            let jb = j0 + (j1 - j0) / b * b;
            if j_outer {
                for j in (j0..jb).step_by(b) {
                    for i in (i0..ib).step_by(b) {
                        block(i, j, dst);
                    }
                }
            } else {
                for i in (i0..ib).step_by(b) {
                    for j in (j0..jb).step_by(b) {
                        block(i, j, dst);
                    }
                }
            }
            scalar(src, i0, ib, jb, j1, cs, dst, ld);
            scalar(src, ib, i1, j0, j1, cs, dst, ld);
        }
    }
}

/// `transpose` with the output's rows split over the team when the copy is large.
pub(crate) fn transpose_par<T: Copy + Send + Sync>(src: &[T], r: usize, c: usize, cs: usize, dst: &mut [T], ld: usize) {
    if !super::parallel(r * c) || r < 2 * TILE {
        return transpose(src, r, c, cs, dst, ld);
    }
    if c == 0 {
        return;
    }
    assert!(dst.len() >= (r - 1) * ld + c, "transpose: destination too short");
    let p = super::team::SendPtr(dst.as_mut_ptr());
    super::team::run_blocks(r.div_ceil(TILE), &|blocks| {
        let (i0, i1) = (blocks.start * TILE, (blocks.end * TILE).min(r));
        // SAFETY: this part writes only output rows i0..i1, i.e. dst[i0 * ld..(i1 - 1) * ld
        // + c], disjoint from every other part, inside `dst` (asserted above), which stays
        // mutably borrowed until every part has run.
        let d = unsafe { std::slice::from_raw_parts_mut(p.get().add(i0 * ld), (i1 - i0 - 1) * ld + c) };
        transpose(&src[i0..], i1 - i0, c, cs, d, ld);
    });
}

/// The plain loop over rows `i0..i1`, columns `j0..j1`.
#[allow(clippy::too_many_arguments)]
fn scalar<T: Copy>(src: &[T], i0: usize, i1: usize, j0: usize, j1: usize, cs: usize, dst: &mut [T], ld: usize) {
    for i in i0..i1 {
        for j in j0..j1 {
            dst[i * ld + j] = src[i + j * cs];
        }
    }
}

/// A register-block kernel: (block size, fn(src, source stride, dst, destination stride))
/// with the strides in elements.
type BlockKernel = (usize, unsafe fn(*const u8, usize, *mut u8, usize));

/// The block kernel for `T`'s size on this machine, if there is one.
fn block_kernel<T>() -> Option<BlockKernel> {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx") {
            return match std::mem::size_of::<T>() {
                4 => Some((8, x86::block8x4 as unsafe fn(*const u8, usize, *mut u8, usize))),
                8 => Some((4, x86::block4x8 as unsafe fn(*const u8, usize, *mut u8, usize))),
                _ => None,
            };
        }
    }
    None
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use std::arch::x86_64::*;

    /// An 8×8 block of 4-byte elements: reads 8 source rows of 8 (stride `cs`), writes 8
    /// destination rows of 8 (stride `ld`).
    ///
    /// # Safety
    /// AVX is available; `s` is valid for reads of `s + (7 * cs + 8) * 4` bytes and `d` for
    /// writes of `d + (7 * ld + 8) * 4` bytes.
    #[target_feature(enable = "avx")]
    pub(super) unsafe fn block8x4(s: *const u8, cs: usize, d: *mut u8, ld: usize) {
        let s = s as *const f32;
        let d = d as *mut f32;
        // SAFETY: the caller's bounds; unaligned loads and stores; the shuffles only move
        // 32-bit lanes, so any 4-byte type (ints, NaN payloads) comes through bit for bit.
        unsafe {
            let r: [__m256; 8] = std::array::from_fn(|k| _mm256_loadu_ps(s.add(k * cs)));
            let t0 = _mm256_unpacklo_ps(r[0], r[1]);
            let t1 = _mm256_unpackhi_ps(r[0], r[1]);
            let t2 = _mm256_unpacklo_ps(r[2], r[3]);
            let t3 = _mm256_unpackhi_ps(r[2], r[3]);
            let t4 = _mm256_unpacklo_ps(r[4], r[5]);
            let t5 = _mm256_unpackhi_ps(r[4], r[5]);
            let t6 = _mm256_unpacklo_ps(r[6], r[7]);
            let t7 = _mm256_unpackhi_ps(r[6], r[7]);
            let u0 = _mm256_shuffle_ps::<0x44>(t0, t2);
            let u1 = _mm256_shuffle_ps::<0xEE>(t0, t2);
            let u2 = _mm256_shuffle_ps::<0x44>(t1, t3);
            let u3 = _mm256_shuffle_ps::<0xEE>(t1, t3);
            let u4 = _mm256_shuffle_ps::<0x44>(t4, t6);
            let u5 = _mm256_shuffle_ps::<0xEE>(t4, t6);
            let u6 = _mm256_shuffle_ps::<0x44>(t5, t7);
            let u7 = _mm256_shuffle_ps::<0xEE>(t5, t7);
            let w = [
                _mm256_permute2f128_ps::<0x20>(u0, u4),
                _mm256_permute2f128_ps::<0x20>(u1, u5),
                _mm256_permute2f128_ps::<0x20>(u2, u6),
                _mm256_permute2f128_ps::<0x20>(u3, u7),
                _mm256_permute2f128_ps::<0x31>(u0, u4),
                _mm256_permute2f128_ps::<0x31>(u1, u5),
                _mm256_permute2f128_ps::<0x31>(u2, u6),
                _mm256_permute2f128_ps::<0x31>(u3, u7),
            ];
            for (l, v) in w.into_iter().enumerate() {
                _mm256_storeu_ps(d.add(l * ld), v);
            }
        }
    }

    /// A 4×4 block of 8-byte elements (see `block8x4`).
    ///
    /// # Safety
    /// AVX is available; `s` is valid for reads of `s + (3 * cs + 4) * 8` bytes and `d` for
    /// writes of `d + (3 * ld + 4) * 8` bytes.
    #[target_feature(enable = "avx")]
    pub(super) unsafe fn block4x8(s: *const u8, cs: usize, d: *mut u8, ld: usize) {
        let s = s as *const f64;
        let d = d as *mut f64;
        // SAFETY: as in block8x4, with 64-bit lanes.
        unsafe {
            let r: [__m256d; 4] = std::array::from_fn(|k| _mm256_loadu_pd(s.add(k * cs)));
            let t0 = _mm256_unpacklo_pd(r[0], r[1]);
            let t1 = _mm256_unpackhi_pd(r[0], r[1]);
            let t2 = _mm256_unpacklo_pd(r[2], r[3]);
            let t3 = _mm256_unpackhi_pd(r[2], r[3]);
            let w = [
                _mm256_permute2f128_pd::<0x20>(t0, t2),
                _mm256_permute2f128_pd::<0x20>(t1, t3),
                _mm256_permute2f128_pd::<0x31>(t0, t2),
                _mm256_permute2f128_pd::<0x31>(t1, t3),
            ];
            for (l, v) in w.into_iter().enumerate() {
                _mm256_storeu_pd(d.add(l * ld), v);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::transpose;

    /// Per-element times of the tilings `transpose` picks between (run by hand:
    /// `cargo test --release --lib transpose -- --ignored --nocapture`).
    #[test]
    #[ignore]
    fn timing() {
        let k = super::block_kernel::<f32>().unwrap();
        for &(r, c) in &[(12544usize, 288usize), (288, 12544), (1024, 288), (256, 256), (1024, 1024), (4096, 4096)] {
            let src: Vec<f32> = (0..r * c).map(|i| i as f32).collect();
            let mut dst = vec![0f32; r * c];
            let mut line = format!("{r}x{c}:");
            for &(ti, tj, jo) in &[(16, 16, false), (64, 64, false), (128, 32, true)] {
                let reps = (20_000_000 / (r * c)).max(3);
                let mut best = f64::MAX;
                for _ in 0..3 {
                    let t = std::time::Instant::now();
                    for _ in 0..reps {
                        super::blocked(&src, r, c, r, &mut dst, c, k, ti, tj, jo);
                    }
                    best = best.min(t.elapsed().as_secs_f64() / reps as f64);
                }
                line += &format!(" [{ti}x{tj}{}] {:.3} ns", if jo { " cols first" } else { "" }, best * 1e9 / (r * c) as f64);
            }
            println!("{line}");
        }
    }

    fn check<T: Copy + PartialEq + std::fmt::Debug>(mk: impl Fn(usize) -> T) {
        for &(r, c, extra) in &[(1, 1, 0), (8, 8, 0), (37, 40, 3), (64, 130, 1), (129, 65, 0), (3, 200, 5)] {
            let cs = r + extra;
            let src: Vec<T> = (0..(r - 1) + (c - 1) * cs + 1).map(&mk).collect();
            let ld = c + 2;
            let mut dst = vec![mk(usize::MAX); r * ld];
            transpose(&src, r, c, cs, &mut dst, ld);
            for i in 0..r {
                for j in 0..c {
                    assert_eq!(dst[i * ld + j], src[i + j * cs], "({r},{c}) at ({i},{j})");
                }
                for j in c..ld {
                    assert_eq!(dst[i * ld + j], mk(usize::MAX), "padding written at ({i},{j})");
                }
            }
        }
    }

    #[test]
    fn every_element_size_matches_the_index_formula() {
        check(|i| i as u32);
        check(|i| i as f32);
        check(|i| i as u64);
        check(|i| i as u16);
        check(|i| i as u8);
    }
}
