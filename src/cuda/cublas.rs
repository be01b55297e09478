//! cuBLAS, loaded at run time when it is present (feature `cuda`): the GEMM path of matmul.
//!
//! Nothing of cuBLAS is needed to build or to run: the library is opened with `dlopen` on
//! first use, from `$FERROGRAD_CUBLAS` (a file), then from the directories in
//! `$FERROGRAD_CUBLAS_DIRS` (the Python package fills it with the `nvidia` wheels' library
//! folders, where PyTorch's own cuBLAS lives), then by soname (CUDA 13, then 12). When none
//! loads, or `FERROGRAD_CUBLAS=0`, matmul runs the tiled PTX kernel (kernels/matmul.cu).
//! `backend_name()` says which one runs.
//!
//! Only three entry points are used: `cublasCreate_v2`, `cublasSetStream_v2` and the strided
//! batched GEMMs; each device gets one handle, bound to its stream, used under a lock.

use crate::error::{Error, Result};
use crate::shape::Layout;
use libloading::Library;
use std::ffi::{c_int, c_void};
use std::sync::OnceLock;

type Handle = *mut c_void;
type CreateFn = unsafe extern "C" fn(*mut Handle) -> c_int;
type SetStreamFn = unsafe extern "C" fn(Handle, *mut c_void) -> c_int;
/// `cublas{S,D}gemmStridedBatched(handle, transa, transb, m, n, k, alpha, A, lda, strideA,
/// B, ldb, strideB, beta, C, ldc, strideC, batchCount)`.
type GemmFn<T> = unsafe extern "C" fn(Handle, c_int, c_int, c_int, c_int, c_int, *const T, u64, c_int, i64, u64, c_int, i64, *const T, u64, c_int, i64, c_int) -> c_int;

/// `CUBLAS_OP_N` / `CUBLAS_OP_T`.
pub const OP_N: c_int = 0;
pub const OP_T: c_int = 1;

/// The loaded library and its entry points.
pub struct Cublas {
    _lib: Library,
    _lt: Option<Library>,
    create: CreateFn,
    set_stream: SetStreamFn,
    sgemm: GemmFn<f32>,
    dgemm: GemmFn<f64>,
    pub path: String,
}

fn candidates() -> Vec<String> {
    let mut out = Vec::new();
    if let Ok(p) = std::env::var("FERROGRAD_CUBLAS") {
        if p == "0" {
            return out;
        }
        out.push(p);
    }
    let sonames = ["libcublas.so.13", "libcublas.so.12"];
    if let Ok(dirs) = std::env::var("FERROGRAD_CUBLAS_DIRS") {
        for d in std::env::split_paths(&dirs) {
            for s in sonames {
                let p = d.join(s);
                if p.is_file() {
                    out.push(p.to_string_lossy().into_owned());
                }
            }
        }
    }
    out.extend(sonames.iter().map(|s| s.to_string()));
    out.push("libcublas.so".into());
    out
}

/// Open `path`, its cublasLt first from the same folder (so that a wheel's library, whose
/// folder is not on the loader's path, finds it by soname).
fn open(path: &str) -> Option<Cublas> {
    let lt = std::path::Path::new(path).parent().filter(|d| !d.as_os_str().is_empty()).and_then(|d| {
        let name = std::path::Path::new(path).file_name()?.to_string_lossy().replace("libcublas.", "libcublasLt.");
        // SAFETY: loading a shared library runs its initialisers; cuBLAS Lt's only set up
        // its own state. A failure is an error value, not a crash.
        unsafe { Library::new(d.join(name)) }.ok()
    });
    // SAFETY: as above, for cuBLAS itself.
    let lib = unsafe { Library::new(path) }.ok()?;
    // SAFETY: each symbol is looked up with the signature of cublas_api.h (CUDA 12 and 13
    // keep these entry points and their ABI); the function pointers are copied out and stay
    // valid while `lib` (kept in the struct) is loaded.
    unsafe {
        let create = *lib.get::<CreateFn>(b"cublasCreate_v2\0").ok()?;
        let set_stream = *lib.get::<SetStreamFn>(b"cublasSetStream_v2\0").ok()?;
        let sgemm = *lib.get::<GemmFn<f32>>(b"cublasSgemmStridedBatched\0").ok()?;
        let dgemm = *lib.get::<GemmFn<f64>>(b"cublasDgemmStridedBatched\0").ok()?;
        Some(Cublas { _lib: lib, _lt: lt, create, set_stream, sgemm, dgemm, path: path.to_string() })
    }
}

/// The process's cuBLAS, if one loads.
pub fn library() -> Option<&'static Cublas> {
    static LIB: OnceLock<Option<Cublas>> = OnceLock::new();
    LIB.get_or_init(|| candidates().iter().find_map(|p| open(p))).as_ref()
}

/// "cublas (<path>)" or "ptx": which GEMM matmul uses on CUDA tensors.
pub fn backend_name() -> String {
    match library() {
        Some(l) => format!("cublas ({})", l.path),
        None => "ptx".into(),
    }
}

/// One cuBLAS handle, created with its device's context current and bound to its stream.
pub struct BlasHandle(Handle);

// SAFETY: a cuBLAS handle may be used from any host thread; the device keeps it behind a
// mutex, so it is never used by two threads at once.
unsafe impl Send for BlasHandle {}

impl BlasHandle {
    /// A handle for the current context, on `stream` (a `CUstream`).
    pub fn new(lib: &Cublas, stream: *mut c_void) -> Result<BlasHandle> {
        let mut h: Handle = std::ptr::null_mut();
        // SAFETY: `h` is a valid out-pointer; the caller made the device's context current.
        let st = unsafe { (lib.create)(&mut h) };
        if st != 0 || h.is_null() {
            return Err(Error::Cuda(format!("cublasCreate failed with status {st}")));
        }
        // SAFETY: `h` was just created; `stream` belongs to the same context.
        let st = unsafe { (lib.set_stream)(h, stream) };
        if st != 0 {
            return Err(Error::Cuda(format!("cublasSetStream failed with status {st}")));
        }
        Ok(BlasHandle(h))
    }
}

/// One strided batched GEMM in column-major terms (see `CudaStorage::matmul` for how a
/// row-major product maps onto it). Pointers are device addresses.
#[derive(Clone, Copy, Debug)]
pub struct Gemm {
    pub op_a: c_int,
    pub op_b: c_int,
    pub m: c_int,
    pub n: c_int,
    pub k: c_int,
    pub a: u64,
    pub lda: c_int,
    pub stride_a: i64,
    pub b: u64,
    pub ldb: c_int,
    pub stride_b: i64,
    pub c: u64,
    pub ldc: c_int,
    pub stride_c: i64,
    pub batch: c_int,
}

/// The element types cuBLAS multiplies here.
pub trait BlasFloat: Copy {
    const ONE: Self;
    const ZERO: Self;
    fn gemm(lib: &Cublas) -> GemmFn<Self>;
}
impl BlasFloat for f32 {
    const ONE: f32 = 1.0;
    const ZERO: f32 = 0.0;
    fn gemm(lib: &Cublas) -> GemmFn<f32> {
        lib.sgemm
    }
}
impl BlasFloat for f64 {
    const ONE: f64 = 1.0;
    const ZERO: f64 = 0.0;
    fn gemm(lib: &Cublas) -> GemmFn<f64> {
        lib.dgemm
    }
}

/// The GEMM for row-major `C = X @ Y` (X: `lx` = (bs, m, k), Y: `ly` = (bs, k, n), C a fresh
/// contiguous (bs, m, n)), or None when an operand has no unit stride (or a size overflows
/// cuBLAS's ints). The addresses come back as element offsets: `a` into Y's storage, `b`
/// into X's, `c` = 0; the caller turns them into device addresses.
///
/// Row-major C (m×n) is column-major Cᵀ (n×m, ld n) = Yᵀ Xᵀ, so cuBLAS multiplies Y's matrix
/// by X's with the sizes swapped. A row-major view (rows×cols, strides rs, cs) is, read
/// column-major, its own transpose with ld = rs when cs = 1 (op N), or itself with ld = cs
/// when rs = 1 (op T gives the transpose).
pub fn plan(lx: &Layout, ly: &Layout) -> Option<Gemm> {
    let (bs, m, k, n) = (lx.shape[0], lx.shape[1], lx.shape[2], ly.shape[2]);
    fn operand(rows: usize, cols: usize, rs: usize, cs: usize) -> Option<(c_int, usize)> {
        if cols <= 1 || cs == 1 {
            let ld = if rows <= 1 { cols.max(1) } else { rs };
            if ld >= cols.max(1) {
                return Some((OP_N, ld));
            }
        }
        if rows <= 1 || rs == 1 {
            let ld = if cols <= 1 { rows.max(1) } else { cs };
            if ld >= rows.max(1) {
                return Some((OP_T, ld));
            }
        }
        None
    }
    let (op_x, ldx) = operand(m, k, lx.strides[1], lx.strides[2])?;
    let (op_y, ldy) = operand(k, n, ly.strides[1], ly.strides[2])?;
    let fits = |v: usize| v <= c_int::MAX as usize;
    if ![bs, m, n, k, ldx, ldy, n].into_iter().all(fits) {
        return None;
    }
    let batch_stride = |l: &Layout| if bs <= 1 { 0 } else { l.strides[0] as i64 };
    Some(Gemm {
        op_a: op_y,
        op_b: op_x,
        m: n as c_int,
        n: m as c_int,
        k: k as c_int,
        a: ly.offset as u64,
        lda: ldy as c_int,
        stride_a: batch_stride(ly),
        b: lx.offset as u64,
        ldb: ldx as c_int,
        stride_b: batch_stride(lx),
        c: 0,
        ldc: n.max(1) as c_int,
        stride_c: (m * n) as i64,
        batch: bs as c_int,
    })
}

/// C = op(A) op(B), enqueued on the handle's stream.
///
/// # Safety
/// `a`, `b` and `c` must be device addresses of live allocations of the handle's context,
/// large enough for the matrices that the sizes, leading dimensions and strides describe,
/// with `c` not overlapping `a` or `b`; the handle must not be used by another thread.
pub unsafe fn gemm<T: BlasFloat>(lib: &Cublas, h: &BlasHandle, g: &Gemm) -> Result<()> {
    let (one, zero) = (T::ONE, T::ZERO);
    // SAFETY: the caller's contract; alpha and beta are host scalars (the default pointer
    // mode) that live across the call.
    let st = unsafe {
        (T::gemm(lib))(h.0, g.op_a, g.op_b, g.m, g.n, g.k, &one, g.a, g.lda, g.stride_a, g.b, g.ldb, g.stride_b, &zero, g.c, g.ldc, g.stride_c, g.batch)
    };
    if st != 0 {
        return Err(Error::Cuda(format!("cuBLAS GEMM failed with status {st}")));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::contiguous_strides;

    /// What cuBLAS computes for `g`, on host slices (column-major, element offsets).
    fn reference(g: &Gemm, a: &[f64], b: &[f64]) -> Vec<f64> {
        let (m, n, k) = (g.m as usize, g.n as usize, g.k as usize);
        let mut c = vec![0.0; g.batch as usize * m * n];
        for bt in 0..g.batch as usize {
            let (ao, bo, co) = (g.a as usize + bt * g.stride_a as usize, g.b as usize + bt * g.stride_b as usize, bt * g.stride_c as usize);
            let at = |i: usize, p: usize| if g.op_a == OP_N { a[ao + i + p * g.lda as usize] } else { a[ao + p + i * g.lda as usize] };
            let bt_ = |p: usize, j: usize| if g.op_b == OP_N { b[bo + p + j * g.ldb as usize] } else { b[bo + j + p * g.ldb as usize] };
            for i in 0..m {
                for j in 0..n {
                    c[co + i + j * g.ldc as usize] = (0..k).map(|p| at(i, p) * bt_(p, j)).sum();
                }
            }
        }
        c
    }

    /// A (bs, r, c) view of `buf` with the given strides and offset, read row-major.
    fn read(buf: &[f64], l: &Layout, b: usize, i: usize, j: usize) -> f64 {
        buf[l.offset + b * l.strides[0] + i * l.strides[1] + j * l.strides[2]]
    }

    fn layout(shape: [usize; 3], strides: [usize; 3], offset: usize) -> Layout {
        Layout { shape: shape.to_vec().into(), strides: strides.to_vec().into(), offset }
    }

    #[test]
    fn plan_matches_row_major_products_for_every_view() {
        let buf_x: Vec<f64> = (0..4000).map(|i| ((i * 7919) % 211) as f64 - 105.0).collect();
        let buf_y: Vec<f64> = (0..4000).map(|i| ((i * 104729) % 197) as f64 - 98.0).collect();
        let mut checked = 0;
        for &(bs, m, k, n) in &[(1, 1, 1, 1), (1, 1, 7, 5), (1, 6, 1, 4), (1, 5, 7, 1), (2, 3, 4, 5), (3, 6, 5, 2)] {
            // X views: contiguous, transposed, a column slice of a wider matrix, broadcast batch
            let xs = [
                layout([bs, m, k], { let s = contiguous_strides(&[bs, m, k]); [s[0], s[1], s[2]] }, 3),
                layout([bs, m, k], [m * k, 1, m], 1),
                layout([bs, m, k], [m * (k + 3), k + 3, 1], 2),
                layout([bs, m, k], [0, k, 1], 0),
            ];
            let ys = [
                layout([bs, k, n], { let s = contiguous_strides(&[bs, k, n]); [s[0], s[1], s[2]] }, 0),
                layout([bs, k, n], [k * n, 1, k], 5),
                layout([bs, k, n], [0, n + 2, 1], 4),
            ];
            for lx in &xs {
                for ly in &ys {
                    let g = plan(lx, ly).expect("unit-stride views are planned");
                    let c = reference(&g, &buf_y, &buf_x);
                    for b in 0..bs {
                        for i in 0..m {
                            for j in 0..n {
                                let want: f64 = (0..k).map(|p| read(&buf_x, lx, b, i, p) * read(&buf_y, ly, b, p, j)).sum();
                                assert_eq!(c[b * m * n + i * n + j], want, "bs={bs} m={m} k={k} n={n} x={lx:?} y={ly:?}");
                            }
                        }
                    }
                    checked += 1;
                }
            }
        }
        assert_eq!(checked, 6 * 12);
        // no unit stride on either side: the PTX kernel's job
        assert!(plan(&layout([1, 3, 4], [12, 8, 2], 0), &layout([1, 4, 2], [8, 2, 1], 0)).is_none());
    }
}
