//! The CUDA driver layer (feature `cuda`): cudarc with dynamic loading, so nothing of CUDA
//! is needed to build, and a machine without a driver simply reports no device.
//!
//! One primary context and its default stream per device, created on first use; the PTX
//! modules of `kernels/ptx/` embedded in the binary and loaded once per device, lazily; the
//! caching allocator of `alloc.rs` over the driver's `cuMemAlloc`/`cuMemFree`; typed launch
//! helpers. Every `unsafe` block of the CUDA backend is in this file or `storage.rs`.

use super::alloc::{Block, CachingAllocator, DeviceMemory, MemoryStats};
use crate::device::Device;
use crate::error::{Error, Result};
use cudarc::driver::{result, sys, CudaContext, CudaFunction, CudaModule, CudaStream, DeviceRepr, LaunchConfig};
use parking_lot::Mutex;
use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

/// Whether libcuda can be loaded at all. cudarc panics on the first driver call when it
/// cannot (ECOSYSTEM.md pitfall 14), so every entry point asks this first.
pub fn driver_present() -> bool {
    static PRESENT: OnceLock<bool> = OnceLock::new();
    // SAFETY: `is_culib_present` only tries `dlopen` on the candidate library names.
    *PRESENT.get_or_init(|| unsafe { sys::is_culib_present() })
}

/// Number of CUDA devices (0 without a driver or when `cuInit` fails).
pub fn device_count() -> usize {
    static COUNT: OnceLock<usize> = OnceLock::new();
    *COUNT.get_or_init(|| {
        if !driver_present() {
            return 0;
        }
        result::init().ok().and_then(|_| result::device::get_count().ok()).map_or(0, |c| c.max(0) as usize)
    })
}

/// Whether a CUDA device can be used.
pub fn is_available() -> bool {
    device_count() > 0
}

/// Ok if `device` can hold tensors, else PyTorch's error.
pub fn check_device(device: Device) -> Result<()> {
    match device {
        Device::Cpu => Ok(()),
        Device::Cuda(i) => {
            if !driver_present() {
                return Err(Error::NoCudaDriver);
            }
            let count = device_count();
            if count == 0 {
                return Err(Error::Cuda("no CUDA-capable device is detected".into()));
            }
            if i >= count {
                return Err(Error::InvalidDevice { ordinal: i, count });
            }
            Ok(())
        }
    }
}

/// A driver error as the crate's error.
pub fn cuda_err(e: result::DriverError) -> Error {
    if e.0 == sys::CUresult::CUDA_ERROR_OUT_OF_MEMORY {
        return Error::Cuda("out of memory".into());
    }
    Error::Cuda(format!("{e:?}"))
}

/// The embedded PTX of each kernel family (`kernels/*.cu`, built by `tools/build_ptx.py`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Module {
    Unary,
    Binary,
    Reduce,
    Softmax,
    Fill,
    Index,
    Matmul,
}

impl Module {
    fn ptx(self) -> &'static str {
        match self {
            Module::Unary => include_str!("../../kernels/ptx/unary.ptx"),
            Module::Binary => include_str!("../../kernels/ptx/binary.ptx"),
            Module::Reduce => include_str!("../../kernels/ptx/reduce.ptx"),
            Module::Softmax => include_str!("../../kernels/ptx/softmax.ptx"),
            Module::Fill => include_str!("../../kernels/ptx/fill.ptx"),
            Module::Index => include_str!("../../kernels/ptx/index.ptx"),
            Module::Matmul => include_str!("../../kernels/ptx/matmul.ptx"),
        }
    }
}

/// The driver's memory calls for one context, under the caching allocator.
pub struct DriverMemory {
    ctx: Arc<CudaContext>,
}

impl DeviceMemory for DriverMemory {
    fn malloc(&mut self, bytes: usize) -> Result<Option<u64>> {
        self.ctx.bind_to_thread().map_err(cuda_err)?;
        // SAFETY: the context is bound to this thread; the allocation is owned by the
        // allocator, which frees it exactly once (`free` below) when its segment is released.
        match unsafe { result::malloc_sync(bytes) } {
            Ok(p) => Ok(Some(p)),
            Err(e) if e.0 == sys::CUresult::CUDA_ERROR_OUT_OF_MEMORY => Ok(None),
            Err(e) => Err(cuda_err(e)),
        }
    }
    fn free(&mut self, ptr: u64, _bytes: usize) -> Result<()> {
        self.ctx.bind_to_thread().map_err(cuda_err)?;
        // The device must be done with the memory: work is ordered on the one stream, so
        // wait for it before handing memory back to the driver.
        self.ctx.synchronize().map_err(cuda_err)?;
        // SAFETY: `ptr` came from `malloc_sync` above and the allocator frees each segment
        // once, after no block of it is in use (and after the stream has drained).
        unsafe { result::free_sync(ptr) }.map_err(cuda_err)
    }
    fn mem_info(&self) -> Result<(usize, usize)> {
        self.ctx.bind_to_thread().map_err(cuda_err)?;
        result::mem_get_info().map_err(cuda_err)
    }
}

/// One device: its context, stream, loaded kernels and allocator.
pub struct Gpu {
    pub ordinal: usize,
    pub ctx: Arc<CudaContext>,
    pub stream: Arc<CudaStream>,
    modules: Mutex<HashMap<Module, Arc<CudaModule>>>,
    functions: Mutex<HashMap<String, CudaFunction>>,
    alloc: Mutex<CachingAllocator<DriverMemory>>,
    /// The device's cuBLAS handle, created on the first GEMM (None until then).
    pub blas: Mutex<Option<super::cublas::BlasHandle>>,
}

/// The device `ordinal`, initialised on first use.
pub fn gpu(ordinal: usize) -> Result<Arc<Gpu>> {
    check_device(Device::Cuda(ordinal))?;
    static GPUS: OnceLock<Mutex<HashMap<usize, Arc<Gpu>>>> = OnceLock::new();
    let mut g = GPUS.get_or_init(Default::default).lock();
    if let Some(d) = g.get(&ordinal) {
        return Ok(d.clone());
    }
    let ctx = CudaContext::new(ordinal).map_err(cuda_err)?;
    let stream = ctx.default_stream();
    let alloc = Mutex::new(CachingAllocator::new(DriverMemory { ctx: ctx.clone() }, ordinal));
    let d = Arc::new(Gpu { ordinal, ctx, stream, modules: Mutex::default(), functions: Mutex::default(), alloc, blas: Mutex::default() });
    g.insert(ordinal, d.clone());
    Ok(d)
}

/// The allocator statistics of a device that has been used (zeros otherwise).
pub fn memory_stats(ordinal: usize) -> Result<MemoryStats> {
    Ok(gpu(ordinal)?.alloc.lock().stats())
}

/// `torch.cuda.empty_cache()`.
pub fn empty_cache(ordinal: usize) -> Result<()> {
    gpu(ordinal)?.alloc.lock().empty_cache()
}

/// `torch.cuda.reset_peak_memory_stats()`.
pub fn reset_peak_memory_stats(ordinal: usize) -> Result<()> {
    gpu(ordinal)?.alloc.lock().reset_peak();
    Ok(())
}

/// `torch.cuda.get_device_name()`.
pub fn device_name(ordinal: usize) -> Result<String> {
    let g = gpu(ordinal)?;
    g.ctx.name().map_err(cuda_err)
}

/// `torch.cuda.synchronize()`: wait for the device's stream.
pub fn synchronize(ordinal: usize) -> Result<()> {
    gpu(ordinal)?.stream.synchronize().map_err(cuda_err)
}

/// Kernel launch geometry: a grid-stride loop over `n` elements.
pub fn grid(n: usize) -> LaunchConfig {
    let blocks = n.div_ceil(256).clamp(1, 65535 * 8) as u32;
    LaunchConfig { grid_dim: (blocks, 1, 1), block_dim: (256, 1, 1), shared_mem_bytes: 0 }
}

/// Launch geometry of the unrolled contiguous elementwise kernels (`FG_UNROLLED_LOOP` in
/// kernels/common.cuh: 4 elements per thread).
pub fn grid_unrolled(n: usize) -> LaunchConfig {
    let blocks = n.div_ceil(256 * 4).clamp(1, 65535 * 8) as u32;
    LaunchConfig { grid_dim: (blocks, 1, 1), block_dim: (256, 1, 1), shared_mem_bytes: 0 }
}

/// Row kernels: one block of 256 threads per row (grid-stride over rows).
pub fn rows_grid(rows: usize) -> LaunchConfig {
    LaunchConfig { grid_dim: (rows.clamp(1, 65535) as u32, 1, 1), block_dim: (256, 1, 1), shared_mem_bytes: 0 }
}

impl Gpu {
    /// A kernel by symbol name, its module loaded on first use.
    pub fn function(&self, module: Module, name: &str) -> Result<CudaFunction> {
        if let Some(f) = self.functions.lock().get(name) {
            return Ok(f.clone());
        }
        let m = {
            let mut mods = self.modules.lock();
            match mods.get(&module) {
                Some(m) => m.clone(),
                None => {
                    // `from_src` NUL-terminates the text, as cuModuleLoadData needs (pitfall 18)
                    let m = self.ctx.load_module(cudarc::nvrtc::Ptx::from_src(module.ptx())).map_err(cuda_err)?;
                    mods.insert(module, m.clone());
                    m
                }
            }
        };
        let f = m.load_function(name).map_err(|_| Error::Cuda(format!("kernel {name} is missing from the {module:?} PTX")))?;
        self.functions.lock().insert(name.to_string(), f.clone());
        Ok(f)
    }

    /// A block of at least `bytes` from the caching allocator.
    pub fn allocate(&self, bytes: usize) -> Result<Block> {
        self.ctx.bind_to_thread().map_err(cuda_err)?;
        self.alloc.lock().allocate(bytes, 0)
    }

    /// A block back into the cache.
    pub fn release(&self, b: Block) {
        self.alloc.lock().release(b);
    }
}

/// Launch `$name` from `$module` on `$gpu`'s stream with the kernel arguments given as
/// local variables (the builder holds references to them until the launch).
#[macro_export]
#[doc(hidden)]
macro_rules! cuda_launch {
    ($gpu:expr, $module:expr, $name:expr, $cfg:expr; $($arg:ident),+ $(,)?) => {{
        use cudarc::driver::PushKernelArg;
        let f = $gpu.function($module, &$name)?;
        $gpu.ctx.bind_to_thread().map_err($crate::cuda::cuda_err)?;
        let mut b = $gpu.stream.launch_builder(&f);
        $( b.arg(&$arg); )+
        // SAFETY: the kernel's parameter list (kernels/*.cu) matches the arguments pushed
        // here in number, order and type; every device pointer refers to a live block of the
        // caching allocator large enough for the elements the kernel addresses (the caller
        // sizes outputs from the same layouts it passes), and all work is ordered on the one
        // stream of this device.
        unsafe { b.launch($cfg) }.map_err($crate::cuda::cuda_err)?;
    }};
}

/// The layout of an operand as the kernels take it (`struct Layout` in kernels/common.cuh).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct KLayout {
    pub ndim: i32,
    pub offset: i64,
    pub shape: [i64; 8],
    pub strides: [i64; 8],
}

// SAFETY: `KLayout` is `repr(C)` plain data with the field order, types and padding of the
// C struct `Layout` (int, then 8-aligned long longs), so passing it by value is sound.
unsafe impl DeviceRepr for KLayout {}

impl KLayout {
    /// The kernel form of `l` (at most 8 dims; `None` beyond).
    pub fn of(l: &crate::shape::Layout) -> Option<KLayout> {
        if l.ndim() > 8 {
            return None;
        }
        let mut k = KLayout { ndim: l.ndim() as i32, offset: l.offset as i64, shape: [1; 8], strides: [0; 8] };
        for d in 0..l.ndim() {
            k.shape[d] = l.shape[d] as i64;
            k.strides[d] = l.strides[d] as i64;
        }
        Some(k)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::BackendStorage;

    #[test]
    fn without_a_driver_cuda_is_data_not_a_panic() {
        if driver_present() {
            // a GPU machine: the device is usable and reports a name
            if is_available() {
                assert!(!device_name(0).unwrap().is_empty());
            }
            return;
        }
        assert!(!is_available());
        assert_eq!(device_count(), 0);
        assert!(matches!(check_device(Device::Cuda(0)), Err(Error::NoCudaDriver)));
        assert!(check_device(Device::Cpu).is_ok());
        let e = super::super::CudaStorage::full(Device::Cuda(0), crate::DType::Float32, 4, crate::Scalar::Int(0)).err().unwrap();
        assert!(e.to_string().starts_with("Found no NVIDIA driver on your system"), "{e}");
        assert!(memory_stats(0).is_err());
    }
}
