//! `CudaStorage`: a block of device memory from the caching allocator, and the CUDA side of
//! the backend contract. Operations with a kernel in `kernels/` (float32/float64) launch it;
//! the rest run through the host (copy, CPU kernel, copy back), which keeps every op correct
//! on the GPU while kernels are added family by family (docs/cuda.md lists which is which).

use super::alloc::Block;
use super::driver::{cuda_err, gpu, grid, grid_unrolled, rows_grid, Gpu, KLayout, Module};
use crate::backend::{BackendStorage, BinaryOp, ReduceOp, ScanOp, UnaryOp};
use crate::cuda_launch;
use crate::device::Device;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::shape::Layout;
use crate::storage::{CpuStorage, StorageElem};
use crate::tensor::Scalar;
use cudarc::driver::result;
use std::sync::Arc;

/// Elements of one dtype in GPU memory.
pub struct CudaStorage {
    gpu: Arc<Gpu>,
    block: Block,
    len: usize,
    dtype: DType,
    /// Memory another library owns (a DLPack import): what keeps it alive, dropped instead
    /// of returning the block to the caching allocator.
    foreign: Option<Box<dyn std::any::Any + Send + Sync>>,
}

impl Drop for CudaStorage {
    fn drop(&mut self) {
        if self.foreign.is_none() {
            self.gpu.release(self.block);
        }
    }
}

/// The kernel suffix of a dtype the float kernels cover.
fn float_sfx(dt: DType) -> Option<&'static str> {
    match dt {
        DType::Float32 => Some("f32"),
        DType::Float64 => Some("f64"),
        _ => None,
    }
}

/// The suffix of a dtype the fill/copy/cast kernels cover.
fn copy_sfx(dt: DType) -> Option<&'static str> {
    match dt {
        DType::Float16 | DType::Int8 | DType::Int16 => None,
        d => Some(d.short_name()),
    }
}

impl CudaStorage {
    pub fn dtype(&self) -> DType {
        self.dtype
    }
    pub fn len(&self) -> usize {
        self.len
    }
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    pub fn device(&self) -> Device {
        Device::Cuda(self.gpu.ordinal)
    }
    /// The device address of the first element.
    pub fn as_ptr(&self) -> usize {
        self.block.ptr as usize
    }
    /// The device address of element `i`.
    fn ptr_at(&self, i: usize) -> u64 {
        self.block.ptr + (i * self.dtype.itemsize()) as u64
    }

    fn alloc(gpu: &Arc<Gpu>, dtype: DType, len: usize) -> Result<CudaStorage> {
        let block = gpu.allocate(len * dtype.itemsize())?;
        Ok(CudaStorage { gpu: gpu.clone(), block, len, dtype, foreign: None })
    }

    /// Device memory owned by another library (DLPack import), zero-copy: `owner` keeps it
    /// alive and is dropped with this storage.
    ///
    /// # Safety
    /// `ptr` is a device address in `device`'s primary context, aligned for `dtype` and valid
    /// for `len` elements of it until `owner` is dropped.
    pub unsafe fn foreign(device: Device, ptr: u64, len: usize, dtype: DType, owner: Box<dyn std::any::Any + Send + Sync>) -> Result<CudaStorage> {
        let Device::Cuda(ordinal) = device else { return Err(Error::Runtime("invariant: CUDA storage on a CUDA device".into())) };
        let gpu = gpu(ordinal)?;
        let block = Block { ptr, size: len * dtype.itemsize(), stream: 0 };
        Ok(CudaStorage { gpu, block, len, dtype, foreign: Some(owner) })
    }

    /// Wait until the work queued on this storage's device is done (before another library
    /// reads the memory on a stream of its own).
    pub fn synchronize(&self) -> Result<()> {
        self.gpu.ctx.bind_to_thread().map_err(cuda_err)?;
        self.gpu.stream.synchronize().map_err(cuda_err)
    }

    /// A host buffer copied to `gpu`.
    fn upload(gpu: &Arc<Gpu>, src: &CpuStorage) -> Result<CudaStorage> {
        let out = Self::alloc(gpu, src.dtype(), src.len())?;
        if src.is_empty() {
            return Ok(out);
        }
        gpu.ctx.bind_to_thread().map_err(cuda_err)?;
        crate::with_buf!(src, b => {
            // SAFETY: the block holds `len * itemsize` bytes, exactly the bytes of `b`; the
            // copy is synchronous, so `b` outlives it. (bool is one byte, 0 or 1, as the
            // kernels' u8.)
            unsafe { result::memcpy_htod_sync(out.block.ptr, &b[..]) }.map_err(cuda_err)?
        });
        Ok(out)
    }

    /// Run `f` on a host copy and bring the result back (ops without a kernel).
    fn via_host(&self, f: impl FnOnce(&CpuStorage) -> Result<CpuStorage>) -> Result<CudaStorage> {
        let h = self.to_host()?;
        Self::upload(&self.gpu, &f(&h)?)
    }

    /// `out = self @ rhs` through cuBLAS when it is loaded and the operands are views it can
    /// take (`cublas::plan`); false to run the PTX kernel.
    fn matmul_cublas(&self, la: &Layout, rhs: &Self, lb: &Layout, out: &CudaStorage) -> Result<bool> {
        use super::cublas::{gemm, library, plan, BlasHandle};
        let Some(lib) = library() else { return Ok(false) };
        let Some(mut g) = plan(la, lb) else { return Ok(false) };
        // element offsets to device addresses (A is rhs's matrix, B ours: see `plan`)
        g.a = rhs.ptr_at(g.a as usize);
        g.b = self.ptr_at(g.b as usize);
        g.c = out.block.ptr;
        self.gpu.ctx.bind_to_thread().map_err(cuda_err)?;
        let mut handle = self.gpu.blas.lock();
        if handle.is_none() {
            *handle = Some(BlasHandle::new(lib, self.gpu.stream.cu_stream() as *mut std::ffi::c_void)?);
        }
        let h = handle.as_ref().expect("created above");
        // SAFETY: both operands are live blocks of this device, addressed through their
        // layouts (every offset the sizes, leading dimensions and batch strides reach is an
        // element of the view, as `plan`'s test checks); `out` is a fresh block of bs·m·n
        // elements; the handle is used under its lock and runs on the device's one stream.
        match self.dtype {
            DType::Float32 => unsafe { gemm::<f32>(lib, h, &g) }?,
            DType::Float64 => unsafe { gemm::<f64>(lib, h, &g) }?,
            _ => return Ok(false),
        }
        Ok(true)
    }

    fn same_gpu(&self, other: &CudaStorage) -> Result<()> {
        if self.gpu.ordinal != other.gpu.ordinal {
            return Err(Error::DeviceMismatch { op: "cuda", first: self.device(), second: other.device() });
        }
        Ok(())
    }

    /// A contiguous copy of the elements of `l` in this dtype (copy_strided kernel).
    fn contiguous(&self, l: &Layout) -> Result<CudaStorage> {
        let n = l.numel();
        let (Some(sfx), Some(kl)) = (copy_sfx(self.dtype), KLayout::of(l)) else {
            return self.via_host(|h| crate::cpu::contiguous_cast(h, l, h.dtype()));
        };
        let out = Self::alloc(&self.gpu, self.dtype, n)?;
        if n > 0 {
            let (x, o, nn) = (self.block.ptr, out.block.ptr, n as i64);
            cuda_launch!(self.gpu, Module::Fill, format!("copy_strided_{sfx}"), grid(n); x, kl, o, nn);
        }
        Ok(out)
    }
}

/// Int64 offsets all inside `0..n` (the index kernels do not check bounds).
fn check_offsets(offsets: &CpuStorage, n: usize) -> Result<()> {
    let CpuStorage::I64(o) = offsets else { return Err(Error::Runtime("invariant: int64 offsets".into())) };
    if let Some(&bad) = o.iter().find(|&&o| o < 0 || o as usize >= n) {
        return Err(Error::Index(format!("index {bad} is out of bounds for size {n}")));
    }
    Ok(())
}

/// How many spans each row of a reduction is split into: enough blocks to fill the GPU
/// (about 2048) when there are few rows, each span at least 4096 elements; 1 (no split)
/// when the rows alone give enough blocks.
fn reduce_chunks(rows: usize, row: usize) -> usize {
    if rows >= 1024 {
        return 1;
    }
    2048usize.div_ceil(rows).min(row / 4096).max(1)
}

/// The unary ops with a kernel in kernels/unary.cu (named by `UnaryOp::name`).
fn unary_kernel(op: UnaryOp) -> Option<&'static str> {
    use UnaryOp::*;
    matches!(op, Neg | Exp | Log | Sqrt | Rsqrt | Sin | Cos | Tanh | Sigmoid | Relu | Abs | Reciprocal | Sign).then(|| op.name())
}

/// The binary ops with a kernel (and a strided variant) in kernels/binary.cu.
fn binary_kernel(op: BinaryOp) -> Option<&'static str> {
    use BinaryOp::*;
    matches!(op, Add | Sub | Mul | Div | Pow | Maximum | Minimum | Eq | Ne | Lt | Le | Gt | Ge).then(|| op.name())
}

impl BackendStorage for CudaStorage {
    fn device(&self) -> Device {
        CudaStorage::device(self)
    }
    fn dtype(&self) -> DType {
        self.dtype
    }

    fn unary(&self, l: &Layout, op: UnaryOp) -> Result<Self> {
        let n = l.numel();
        let Some(sfx) = float_sfx(self.dtype) else { return self.via_host(|h| h.unary(l, op)) };
        let out = Self::alloc(&self.gpu, self.dtype, n)?;
        if n == 0 {
            return Ok(out);
        }
        let (o, nn) = (out.block.ptr, n as i64);
        if let Some(name) = unary_kernel(op) {
            match (l.contiguous_range(), KLayout::of(l)) {
                (Some(r), _) => {
                    let x = self.ptr_at(r.start);
                    cuda_launch!(self.gpu, Module::Unary, format!("{name}_{sfx}"), grid_unrolled(n); x, o, nn);
                }
                (None, Some(kl)) => {
                    let x = self.block.ptr;
                    cuda_launch!(self.gpu, Module::Unary, format!("{name}_strided_{sfx}"), grid(n); x, kl, o, nn);
                }
                (None, None) => return self.via_host(|h| h.unary(l, op)),
            }
            return Ok(out);
        }
        let Some(r) = l.contiguous_range() else { return self.via_host(|h| h.unary(l, op)) };
        let x = self.ptr_at(r.start);
        match (op, self.dtype) {
            (UnaryOp::Clamp(lo, hi), DType::Float32) => {
                let (a, b, ha, hb) = (lo.unwrap_or(0.0) as f32, hi.unwrap_or(0.0) as f32, lo.is_some() as i32, hi.is_some() as i32);
                cuda_launch!(self.gpu, Module::Unary, "clamp_f32", grid(n); x, o, a, b, ha, hb, nn);
            }
            (UnaryOp::Clamp(lo, hi), _) => {
                let (a, b, ha, hb) = (lo.unwrap_or(0.0), hi.unwrap_or(0.0), lo.is_some() as i32, hi.is_some() as i32);
                cuda_launch!(self.gpu, Module::Unary, "clamp_f64", grid(n); x, o, a, b, ha, hb, nn);
            }
            (UnaryOp::PowScalar(p), DType::Float32) => {
                let p = p as f32;
                cuda_launch!(self.gpu, Module::Unary, "pow_scalar_f32", grid(n); x, o, p, nn);
            }
            (UnaryOp::PowScalar(p), _) => {
                cuda_launch!(self.gpu, Module::Unary, "pow_scalar_f64", grid(n); x, o, p, nn);
            }
            _ => return self.via_host(|h| h.unary(l, op)),
        }
        Ok(out)
    }

    fn binary(&self, la: &Layout, rhs: &Self, lb: &Layout, op: BinaryOp) -> Result<Self> {
        self.same_gpu(rhs)?;
        let n = la.numel();
        let fallback = || -> Result<Self> {
            let (a, b) = (self.to_host()?, rhs.to_host()?);
            Self::upload(&self.gpu, &a.binary(la, &b, lb, op)?)
        };
        let Some(sfx) = float_sfx(self.dtype) else { return fallback() };
        let out = Self::alloc(&self.gpu, op.out_dtype(self.dtype), n)?;
        if n == 0 {
            return Ok(out);
        }
        let (o, nn) = (out.block.ptr, n as i64);
        let fused = match op {
            BinaryOp::ReluBackward => Some("relu_backward"),
            BinaryOp::TanhBackward => Some("tanh_backward"),
            BinaryOp::SigmoidBackward => Some("sigmoid_backward"),
            _ => None,
        };
        match (binary_kernel(op).or(fused), la.contiguous_range(), lb.contiguous_range()) {
            (Some(name), Some(ra), Some(rb)) => {
                let (a, b) = (self.ptr_at(ra.start), rhs.ptr_at(rb.start));
                let cfg = if fused.is_some() { grid(n) } else { grid_unrolled(n) };
                cuda_launch!(self.gpu, if fused.is_some() { Module::Unary } else { Module::Binary }, format!("{name}_{sfx}"), cfg; a, b, o, nn);
            }
            (Some(name), _, _) if fused.is_none() => {
                let (Some(ka), Some(kb)) = (KLayout::of(la), KLayout::of(lb)) else { return fallback() };
                let (a, b) = (self.block.ptr, rhs.block.ptr);
                cuda_launch!(self.gpu, Module::Binary, format!("{name}_strided_{sfx}"), grid(n); a, ka, b, kb, o, nn);
            }
            _ => return fallback(),
        }
        Ok(out)
    }

    fn where_cond(&self, lc: &Layout, a: &Self, la: &Layout, b: &Self, lb: &Layout) -> Result<Self> {
        self.same_gpu(a)?;
        self.same_gpu(b)?;
        let n = la.numel();
        let Some(sfx) = float_sfx(a.dtype) else {
            let (c, x, y) = (self.to_host()?, a.to_host()?, b.to_host()?);
            return Self::upload(&self.gpu, &c.where_cond(lc, &x, la, &y, lb)?);
        };
        let (c, x, y) = (self.contiguous(lc)?, a.contiguous(la)?, b.contiguous(lb)?);
        let out = Self::alloc(&self.gpu, a.dtype, n)?;
        if n > 0 {
            let (pc, px, py, o, nn) = (c.block.ptr, x.block.ptr, y.block.ptr, out.block.ptr, n as i64);
            cuda_launch!(self.gpu, Module::Binary, format!("where_{sfx}"), grid(n); pc, px, py, o, nn);
        }
        Ok(out)
    }

    fn cast(&self, l: &Layout, dtype: DType) -> Result<Self> {
        let c = self.contiguous(l)?;
        if dtype == self.dtype {
            return Ok(c);
        }
        let n = l.numel();
        let (Some(from), Some(to)) = (copy_sfx(self.dtype), copy_sfx(dtype)) else {
            return c.via_host(|h| crate::cpu::contiguous_cast(h, &Layout::contiguous(&[n]), dtype));
        };
        let out = Self::alloc(&self.gpu, dtype, n)?;
        if n > 0 {
            let (x, o, nn) = (c.block.ptr, out.block.ptr, n as i64);
            cuda_launch!(self.gpu, Module::Fill, format!("cast_{from}_{to}"), grid(n); x, o, nn);
        }
        Ok(out)
    }

    fn copy_strided(&mut self, dl: &Layout, src: &Self, sl: &Layout) -> Result<()> {
        self.same_gpu(src)?;
        let n = dl.numel();
        if n == 0 {
            return Ok(());
        }
        let c = src.contiguous(sl)?;
        let isz = self.dtype.itemsize();
        if let Some(r) = dl.contiguous_range() {
            self.gpu.ctx.bind_to_thread().map_err(cuda_err)?;
            // SAFETY: both ranges lie inside live blocks (n elements from `r.start` of this
            // storage; `c` is a fresh block of n elements); the blocks are distinct, and the
            // copy is ordered on the device's stream.
            unsafe { result::memcpy_dtod_async(self.ptr_at(r.start), c.block.ptr, n * isz, self.gpu.stream.cu_stream()) }.map_err(cuda_err)?;
            return Ok(());
        }
        // a strided destination: scatter through the put kernel, or through the host
        let offsets: Vec<i64> = crate::ops::index::storage_offsets(dl).into_iter().map(|o| o as i64).collect();
        let offsets = i64::wrap(offsets);
        if float_sfx(self.dtype).is_some() {
            let dev_offsets = Self::upload(&self.gpu, &offsets)?;
            return self.put(&dev_offsets, &c, false);
        }
        let (mut h, s) = (self.to_host()?, c.to_host()?);
        h.put(&offsets, &s, false)?;
        let fresh = Self::upload(&self.gpu, &h)?;
        *self = fresh;
        Ok(())
    }

    fn reduce(&self, l: &Layout, row: usize, op: ReduceOp, out_dtype: DType) -> Result<Self> {
        let name = match op {
            ReduceOp::Sum => "sum_rows",
            ReduceOp::Prod => "prod_rows",
            ReduceOp::Max => "max_rows",
            ReduceOp::Min => "min_rows",
            _ => "",
        };
        let (Some(sfx), Some(r)) = (float_sfx(self.dtype), l.contiguous_range()) else { return self.via_host(|h| h.reduce(l, row, op, out_dtype)) };
        if name.is_empty() || out_dtype != self.dtype || row == 0 {
            return self.via_host(|h| h.reduce(l, row, op, out_dtype));
        }
        let rows = l.numel() / row;
        let out = Self::alloc(&self.gpu, self.dtype, rows)?;
        if rows == 0 {
            return Ok(out);
        }
        let chunks = reduce_chunks(rows, row);
        if chunks > 1 {
            // few long rows: partials over `chunks` spans of each row, then a row reduction
            // of the (rows, chunks) partials (kernels/reduce.cu, CHUNK_REDUCE)
            let partial = Self::alloc(&self.gpu, self.dtype, rows * chunks)?;
            let (x, p, nr, rl, nc) = (self.ptr_at(r.start), partial.block.ptr, rows as i64, row as i64, chunks as i64);
            let stem = name.trim_end_matches("_rows");
            cuda_launch!(self.gpu, Module::Reduce, format!("{stem}_chunks_{sfx}"), rows_grid(rows * chunks); x, p, nr, rl, nc);
            let o = out.block.ptr;
            cuda_launch!(self.gpu, Module::Reduce, format!("{name}_{sfx}"), rows_grid(rows); p, o, nr, nc);
            return Ok(out);
        }
        let (x, o, nr, rl) = (self.ptr_at(r.start), out.block.ptr, rows as i64, row as i64);
        cuda_launch!(self.gpu, Module::Reduce, format!("{name}_{sfx}"), rows_grid(rows); x, o, nr, rl);
        Ok(out)
    }

    fn arg_reduce(&self, l: &Layout, row: usize, is_max: bool) -> Result<(Self, Self)> {
        let (Some(sfx), Some(r)) = (float_sfx(self.dtype), l.contiguous_range()) else {
            let (v, i) = self.to_host()?.arg_reduce(l, row, is_max)?;
            return Ok((Self::upload(&self.gpu, &v)?, Self::upload(&self.gpu, &i)?));
        };
        let rows = l.numel() / row.max(1);
        let vals = self.reduce(l, row, if is_max { ReduceOp::Max } else { ReduceOp::Min }, self.dtype)?;
        let idx = Self::alloc(&self.gpu, DType::Int64, rows)?;
        if rows > 0 {
            let (x, o, nr, rl) = (self.ptr_at(r.start), idx.block.ptr, rows as i64, row as i64);
            let name = if is_max { "argmax_rows" } else { "argmin_rows" };
            cuda_launch!(self.gpu, Module::Reduce, format!("{name}_{sfx}"), grid(rows); x, o, nr, rl);
        }
        Ok((vals, idx))
    }

    fn scan(&self, l: &Layout, row: usize, op: ScanOp) -> Result<Self> {
        let name = match op {
            ScanOp::Softmax => "softmax_rows",
            ScanOp::LogSoftmax => "log_softmax_rows",
            _ => return self.via_host(|h| h.scan(l, row, op)),
        };
        let (Some(sfx), Some(r)) = (float_sfx(self.dtype), l.contiguous_range()) else { return self.via_host(|h| h.scan(l, row, op)) };
        let n = l.numel();
        let row = row.max(1);
        let rows = n / row;
        let out = Self::alloc(&self.gpu, self.dtype, n)?;
        if rows > 0 {
            let (x, o, nr, rl) = (self.ptr_at(r.start), out.block.ptr, rows as i64, row as i64);
            cuda_launch!(self.gpu, Module::Softmax, format!("{name}_{sfx}"), rows_grid(rows); x, o, nr, rl);
        }
        Ok(out)
    }

    fn argsort_rows(&self, l: &Layout, row: usize, descending: bool) -> Result<Self> {
        // no sort kernel yet: through the host
        self.via_host(|h| h.argsort_rows(l, row, descending))
    }

    fn topk_rows(&self, l: &Layout, row: usize, k: usize, largest: bool, sorted: bool) -> Result<Self> {
        // no selection kernel yet: through the host (which also gives the CPU's tie order)
        self.via_host(|h| h.topk_rows(l, row, k, largest, sorted))
    }

    fn matmul(&self, la: &Layout, rhs: &Self, lb: &Layout) -> Result<Self> {
        self.same_gpu(rhs)?;
        let (bs, m, k, n) = (la.shape[0], la.shape[1], la.shape[2], lb.shape[2]);
        let Some(sfx) = float_sfx(self.dtype) else {
            let (a, b) = (self.to_host()?, rhs.to_host()?);
            return Self::upload(&self.gpu, &a.matmul(la, &b, lb)?);
        };
        let out = Self::alloc(&self.gpu, self.dtype, bs * m * n)?;
        if bs * m * n == 0 {
            return Ok(out);
        }
        if k == 0 {
            return Self::full(self.device(), self.dtype, bs * m * n, Scalar::Int(0));
        }
        if self.matmul_cublas(la, rhs, lb, &out)? {
            return Ok(out);
        }
        let (a, b, c) = (self.ptr_at(la.offset), rhs.ptr_at(lb.offset), out.block.ptr);
        let (mm, nn, kk) = (m as i64, n as i64, k as i64);
        let (a_bs, a_rs, a_cs) = (la.strides[0] as i64, la.strides[1] as i64, la.strides[2] as i64);
        let (b_bs, b_rs, b_cs) = (lb.strides[0] as i64, lb.strides[1] as i64, lb.strides[2] as i64);
        let cfg = cudarc::driver::LaunchConfig { grid_dim: (n.div_ceil(16) as u32, m.div_ceil(16) as u32, bs as u32), block_dim: (16, 16, 1), shared_mem_bytes: 0 };
        cuda_launch!(self.gpu, Module::Matmul, format!("matmul_{sfx}"), cfg; a, b, c, mm, nn, kk, a_bs, a_rs, a_cs, b_bs, b_rs, b_cs);
        Ok(out)
    }

    fn take(&self, l: &Layout, offsets: &Self) -> Result<Self> {
        self.same_gpu(offsets)?;
        // the kernels index without bounds checks: the offsets are checked here first
        let host_offsets = offsets.to_host()?;
        let (Some(sfx), Some(kl)) = (float_sfx(self.dtype), KLayout::of(l)) else { return self.via_host(|h| h.take(l, &host_offsets)) };
        check_offsets(&host_offsets, l.numel())?;
        let n = offsets.len;
        let out = Self::alloc(&self.gpu, self.dtype, n)?;
        if n > 0 {
            let (x, po, o, nn) = (self.block.ptr, offsets.block.ptr, out.block.ptr, n as i64);
            cuda_launch!(self.gpu, Module::Index, format!("take_{sfx}"), grid(n); x, kl, po, o, nn);
        }
        Ok(out)
    }

    fn put(&mut self, offsets: &Self, src: &Self, accumulate: bool) -> Result<()> {
        self.same_gpu(src)?;
        self.same_gpu(offsets)?;
        let host_offsets = offsets.to_host()?;
        check_offsets(&host_offsets, self.len)?;
        let n = offsets.len;
        if n == 0 {
            return Ok(());
        }
        let Some(sfx) = float_sfx(self.dtype) else {
            let (mut h, s) = (self.to_host()?, src.to_host()?);
            h.put(&host_offsets, &s, accumulate)?;
            *self = Self::upload(&self.gpu, &h)?;
            return Ok(());
        };
        let (v, po, o, nn) = (src.block.ptr, offsets.block.ptr, self.block.ptr, n as i64);
        // put_add accumulates duplicates with atomics; plain put lets one write win
        let name = if accumulate { format!("put_add_{sfx}") } else { format!("put_{sfx}") };
        cuda_launch!(self.gpu, Module::Index, name, grid(n); v, po, o, nn);
        Ok(())
    }

    fn put_reduce(&mut self, offsets: &Self, src: &Self, op: crate::backend::PutReduce) -> Result<()> {
        self.same_gpu(src)?;
        self.same_gpu(offsets)?;
        // no device kernel yet: the reduction runs on the host, in index order
        let (mut h, s, o) = (self.to_host()?, src.to_host()?, offsets.to_host()?);
        h.put_reduce(&o, &s, op)?;
        *self = Self::upload(&self.gpu, &h)?;
        Ok(())
    }

    fn full(device: Device, dtype: DType, n: usize, v: Scalar) -> Result<Self> {
        let Device::Cuda(ordinal) = device else { return Err(Error::Runtime("invariant: CUDA storage on a CUDA device".into())) };
        let g = gpu(ordinal)?;
        let Some(sfx) = copy_sfx(dtype) else { return Self::upload(&g, &CpuStorage::filled(dtype, n, v)?) };
        let out = Self::alloc(&g, dtype, n)?;
        if n == 0 {
            return Ok(out);
        }
        let (o, nn) = (out.block.ptr, n as i64);
        let name = format!("fill_{sfx}");
        match dtype {
            DType::Float32 => { let x = v.as_f64() as f32; cuda_launch!(g, Module::Fill, name, grid(n); o, x, nn); }
            DType::Float64 => { let x = v.as_f64(); cuda_launch!(g, Module::Fill, name, grid(n); o, x, nn); }
            DType::Int64 => { let x = v.as_i64(); cuda_launch!(g, Module::Fill, name, grid(n); o, x, nn); }
            DType::Int32 => { let x = v.as_i64() as i32; cuda_launch!(g, Module::Fill, name, grid(n); o, x, nn); }
            DType::Bool => { let x = u8::from(v.as_f64() != 0.0); cuda_launch!(g, Module::Fill, name, grid(n); o, x, nn); }
            DType::Float16 | DType::BFloat16 | DType::UInt8 | DType::Int8 | DType::Int16 => return Self::upload(&g, &CpuStorage::filled(dtype, n, v)?),
            DType::Complex64 | DType::Complex128 => return Err(crate::cpu::complex_storage(dtype)),
        }
        Ok(out)
    }

    fn to_host(&self) -> Result<CpuStorage> {
        self.gpu.ctx.bind_to_thread().map_err(cuda_err)?;
        // wait for the kernels that write this block before reading it
        self.gpu.stream.synchronize().map_err(cuda_err)?;
        let n = self.len;
        Ok(match self.dtype {
            DType::Bool => {
                let mut v = vec![0u8; n];
                if n > 0 {
                    // SAFETY: the block holds n bytes; the copy is synchronous.
                    unsafe { result::memcpy_dtoh_sync(&mut v[..], self.block.ptr) }.map_err(cuda_err)?;
                }
                bool::wrap(v.into_iter().map(|b| b != 0).collect())
            }
            dt => crate::num_types!(dt, T => {
                let mut v = vec![T::default(); n];
                if n > 0 {
                    // SAFETY: the block holds n elements of T; the copy is synchronous and
                    // every bit pattern is a valid T for these numeric types.
                    unsafe { result::memcpy_dtoh_sync(&mut v[..], self.block.ptr) }.map_err(cuda_err)?;
                }
                T::wrap(v)
            }),
        })
    }

    fn from_host(device: Device, src: &CpuStorage) -> Result<Self> {
        let Device::Cuda(ordinal) = device else { return Err(Error::Runtime("invariant: CUDA storage on a CUDA device".into())) };
        Self::upload(&gpu(ordinal)?, src)
    }
}
