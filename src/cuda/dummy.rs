//! Stand-ins for the CUDA backend: an uninhabited `CudaStorage` and device queries that
//! report no device.

use crate::backend::{BackendStorage, BinaryOp, ReduceOp, ScanOp, UnaryOp};
use crate::device::Device;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::shape::Layout;
use crate::storage::CpuStorage;
use crate::tensor::Scalar;

/// A buffer in GPU memory. Uninhabited here: no value of it can exist, so the methods
/// below are never called (the `match` on the empty field proves it to the compiler).
pub struct CudaStorage {
    never: std::convert::Infallible,
}

/// The error every CUDA entry point gives in this build.
pub fn unavailable() -> Error {
    Error::CudaNotCompiled
}

/// Whether libcuda could be loaded (never looked for in this build).
pub fn driver_present() -> bool {
    false
}

/// Allocator statistics (no device in this build).
pub fn memory_stats(_ordinal: usize) -> Result<super::alloc::MemoryStats> {
    Err(unavailable())
}

/// `torch.cuda.empty_cache()`.
pub fn empty_cache(_ordinal: usize) -> Result<()> {
    Err(unavailable())
}

/// `torch.cuda.reset_peak_memory_stats()`.
pub fn reset_peak_memory_stats(_ordinal: usize) -> Result<()> {
    Err(unavailable())
}

/// `torch.cuda.get_device_name()`.
pub fn device_name(_ordinal: usize) -> Result<String> {
    Err(unavailable())
}

/// `torch.cuda.synchronize()`.
/// Which GEMM matmul uses on CUDA tensors: none in a build without CUDA.
pub fn matmul_backend() -> String {
    "none".into()
}

pub fn synchronize(_ordinal: usize) -> Result<()> {
    Err(unavailable())
}

/// Whether a CUDA device can be used (never, in this build).
pub fn is_available() -> bool {
    false
}

/// Number of CUDA devices (0 in this build).
pub fn device_count() -> usize {
    0
}

/// Ok if `device` can hold tensors, else PyTorch's error.
pub fn check_device(device: Device) -> Result<()> {
    match device {
        Device::Cpu => Ok(()),
        Device::Cuda(_) => Err(unavailable()),
    }
}

impl CudaStorage {
    /// # Safety
    /// Never constructs anything in this build (the CUDA build's contract applies).
    pub unsafe fn foreign(_device: Device, _ptr: u64, _len: usize, _dtype: DType, _owner: Box<dyn std::any::Any + Send + Sync>) -> Result<CudaStorage> {
        Err(unavailable())
    }
    pub fn synchronize(&self) -> Result<()> {
        match self.never {}
    }
    pub fn dtype(&self) -> DType {
        match self.never {}
    }
    pub fn len(&self) -> usize {
        match self.never {}
    }
    pub fn is_empty(&self) -> bool {
        match self.never {}
    }
    pub fn device(&self) -> Device {
        match self.never {}
    }
    pub fn as_ptr(&self) -> usize {
        match self.never {}
    }
}

impl BackendStorage for CudaStorage {
    fn device(&self) -> Device {
        match self.never {}
    }
    fn dtype(&self) -> DType {
        match self.never {}
    }
    fn unary(&self, _: &Layout, _: UnaryOp) -> Result<Self> {
        match self.never {}
    }
    fn binary(&self, _: &Layout, _: &Self, _: &Layout, _: BinaryOp) -> Result<Self> {
        match self.never {}
    }
    fn where_cond(&self, _: &Layout, _: &Self, _: &Layout, _: &Self, _: &Layout) -> Result<Self> {
        match self.never {}
    }
    fn cast(&self, _: &Layout, _: DType) -> Result<Self> {
        match self.never {}
    }
    fn copy_strided(&mut self, _: &Layout, _: &Self, _: &Layout) -> Result<()> {
        match self.never {}
    }
    fn reduce(&self, _: &Layout, _: usize, _: ReduceOp, _: DType) -> Result<Self> {
        match self.never {}
    }
    fn arg_reduce(&self, _: &Layout, _: usize, _: bool) -> Result<(Self, Self)> {
        match self.never {}
    }
    fn scan(&self, _: &Layout, _: usize, _: ScanOp) -> Result<Self> {
        match self.never {}
    }
    fn argsort_rows(&self, _: &Layout, _: usize, _: bool) -> Result<Self> {
        match self.never {}
    }
    fn topk_rows(&self, _: &Layout, _: usize, _: usize, _: bool, _: bool) -> Result<Self> {
        match self.never {}
    }
    fn matmul(&self, _: &Layout, _: &Self, _: &Layout) -> Result<Self> {
        match self.never {}
    }
    fn take(&self, _: &Layout, _: &Self) -> Result<Self> {
        match self.never {}
    }
    fn put(&mut self, _: &Self, _: &Self, _: bool) -> Result<()> {
        match self.never {}
    }
    fn put_reduce(&mut self, _: &Self, _: &Self, _: crate::backend::PutReduce) -> Result<()> {
        match self.never {}
    }
    fn full(_: Device, _: DType, _: usize, _: Scalar) -> Result<Self> {
        Err(unavailable())
    }
    fn to_host(&self) -> Result<CpuStorage> {
        match self.never {}
    }
    fn from_host(_: Device, _: &CpuStorage) -> Result<Self> {
        Err(unavailable())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn every_entry_point_errors() {
        assert!(!is_available());
        assert_eq!(device_count(), 0);
        assert!(check_device(Device::Cpu).is_ok());
        let e = CudaStorage::full(Device::Cuda(0), DType::Float32, 4, Scalar::Int(0)).err().map(|e| e.to_string());
        assert_eq!(e.unwrap(), "Torch not compiled with CUDA enabled");
        assert!(CudaStorage::from_host(Device::Cuda(0), &CpuStorage::zeros(DType::Float32, 1).unwrap()).is_err());
    }
}
