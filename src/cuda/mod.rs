//! The CUDA backend.
//!
//! With the `cuda` feature: the driver layer (`driver.rs`: cudarc with dynamic loading, so it
//! builds without a CUDA toolkit and reports no device without a driver), `CudaStorage` and
//! its kernels (`storage.rs`), over the caching allocator (`alloc.rs`).
//!
//! Without it: stand-ins (as candle's `dummy_cuda_backend.rs`): `CudaStorage` cannot be
//! constructed, so every CUDA path type-checks and none can run, and the entry points return
//! "Torch not compiled with CUDA enabled".

pub mod alloc;

#[cfg(feature = "cuda")]
mod cublas;
#[cfg(feature = "cuda")]
mod driver;
#[cfg(feature = "cuda")]
mod storage;
#[cfg(feature = "cuda")]
pub use driver::{check_device, cuda_err, device_count, device_name, driver_present, empty_cache, is_available, memory_stats, reset_peak_memory_stats, synchronize, KLayout};
#[cfg(feature = "cuda")]
pub use storage::CudaStorage;
#[cfg(feature = "cuda")]
pub use cublas::backend_name as matmul_backend;

#[cfg(not(feature = "cuda"))]
mod dummy;
#[cfg(not(feature = "cuda"))]
pub use dummy::*;
