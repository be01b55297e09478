//! The CUDA backend. Without the `cuda` cargo feature, and until the driver layer lands,
//! this is a stand-in (as candle's `dummy_cuda_backend.rs`): `CudaStorage` cannot be
//! constructed, so every CUDA path in the crate type-checks and none can run; the entry
//! points return a typed error ("Torch not compiled with CUDA enabled" without the
//! feature, "Found no NVIDIA driver…" with it).

mod dummy;
pub use dummy::*;
