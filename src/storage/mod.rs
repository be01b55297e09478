//! Storage: the elements behind a tensor, on one device. `Storage` is the per-device enum
//! the backend dispatches on; `StorageCell` is what a tensor and its views share (the
//! storage under a lock, and its device, readable without the lock).

mod cpu;
pub use cpu::{Buf, CpuStorage, StorageElem};
pub use crate::cuda::CudaStorage;

use crate::device::Device;
use crate::dtype::DType;
use crate::error::Result;
use parking_lot::RwLock;
use std::sync::Arc;

/// The elements of one storage, on its device.
pub enum Storage {
    Cpu(CpuStorage),
    Cuda(CudaStorage),
}

impl Storage {
    pub fn dtype(&self) -> DType {
        match self {
            Storage::Cpu(s) => s.dtype(),
            Storage::Cuda(s) => s.dtype(),
        }
    }
    /// Number of elements.
    pub fn len(&self) -> usize {
        match self {
            Storage::Cpu(s) => s.len(),
            Storage::Cuda(s) => s.len(),
        }
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    pub fn device(&self) -> Device {
        match self {
            Storage::Cpu(_) => Device::Cpu,
            Storage::Cuda(s) => s.device(),
        }
    }
    /// Address of the first element (host or device pointer), for `data_ptr`.
    pub fn as_ptr(&self) -> usize {
        match self {
            Storage::Cpu(s) => s.as_ptr(),
            Storage::Cuda(s) => s.as_ptr(),
        }
    }
    /// The CPU buffer, or `None` for a device storage.
    pub fn as_cpu(&self) -> Option<&CpuStorage> {
        match self {
            Storage::Cpu(s) => Some(s),
            Storage::Cuda(_) => None,
        }
    }
    pub fn as_cpu_mut(&mut self) -> Option<&mut CpuStorage> {
        match self {
            Storage::Cpu(s) => Some(s),
            Storage::Cuda(_) => None,
        }
    }
    /// A host copy of the whole buffer (the CPU storage itself is borrowed, not copied, by
    /// callers that match first).
    pub fn to_host(&self) -> Result<CpuStorage> {
        match self {
            Storage::Cpu(s) => Ok(s.clone_buffer()),
            Storage::Cuda(s) => crate::backend::BackendStorage::to_host(s),
        }
    }
}

/// Storage shared by a tensor and its views.
pub struct StorageCell {
    pub(crate) data: RwLock<Storage>,
    device: Device,
}

impl StorageCell {
    pub fn new(data: Storage) -> Arc<StorageCell> {
        let device = data.device();
        Arc::new(StorageCell { data: RwLock::new(data), device })
    }
    /// Shared storage over a CPU buffer.
    pub fn cpu(data: CpuStorage) -> Arc<StorageCell> {
        Arc::new(StorageCell { data: RwLock::new(Storage::Cpu(data)), device: Device::Cpu })
    }
    pub fn device(&self) -> Device {
        self.device
    }
}
