//! The one error type of the crate. Each variant names the Python exception it becomes (the
//! bindings map them in one `match`); `Display` is PyTorch's own text, because user code
//! matches on it. Variants about a device, dtype or op carry those values, not only a text.

use crate::device::Device;
use crate::dtype::DType;

/// An error from a tensor operation or from the autograd engine.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// Becomes `RuntimeError` (shape mismatches, autograd misuse, dtype errors).
    #[error("{0}")]
    Runtime(String),
    /// Becomes `IndexError` (dimension or index out of range).
    #[error("{0}")]
    Index(String),
    /// Becomes `TypeError`.
    #[error("{0}")]
    Type(String),
    /// Becomes `ValueError`.
    #[error("{0}")]
    Value(String),
    /// Becomes `NotImplementedError`.
    #[error("{0}")]
    NotImplemented(String),
    /// Operands of one op on different devices (`RuntimeError`).
    #[error("Expected all tensors to be on the same device, but found at least two devices, {first} and {second}!")]
    DeviceMismatch { op: &'static str, first: Device, second: Device },
    /// Two shapes that do not broadcast (`RuntimeError`).
    #[error("The size of tensor a ({a}) must match the size of tensor b ({b}) at non-singleton dimension {dim}")]
    ShapeMismatch { a: usize, b: usize, dim: usize },
    /// A kernel the device's backend lacks for a dtype (`NotImplementedError`).
    #[error("\"{op}\" not implemented for '{}' on {device}", dtype.scalar_name())]
    Unsupported { op: &'static str, dtype: DType, device: Device },
    /// The crate was built without the `cuda` feature (`AssertionError` in Python, as torch).
    #[error("Torch not compiled with CUDA enabled")]
    CudaNotCompiled,
    /// No usable CUDA driver or device (`RuntimeError`).
    #[error("Found no NVIDIA driver on your system. Please check that you have an NVIDIA GPU and installed a driver from http://www.nvidia.com/Download/index.aspx")]
    NoCudaDriver,
    /// A CUDA device ordinal past the device count (`RuntimeError`).
    #[error("CUDA error: invalid device ordinal")]
    InvalidDevice { ordinal: usize, count: usize },
    /// A failed CUDA driver call (`RuntimeError`).
    #[error("CUDA error: {0}")]
    Cuda(String),
    /// The device allocator could not satisfy a request (`torch.cuda.OutOfMemoryError`).
    #[error("CUDA out of memory. Tried to allocate {}. GPU {device} has a total capacity of {} of which {} is free. Of the allocated memory {} is allocated by PyTorch, and {} is reserved by PyTorch but unallocated.", fmt_bytes(*.requested), fmt_bytes(*.total), fmt_bytes(*.free), fmt_bytes(*.allocated), fmt_bytes(.reserved.saturating_sub(*.allocated)))]
    OutOfMemory { device: usize, requested: usize, total: usize, free: usize, allocated: usize, reserved: usize },
    /// The host allocator could not satisfy a request (`RuntimeError`, torch's text).
    #[error("[enforce fail at alloc_cpu.cpp:127] err == 0. DefaultCPUAllocator: can't allocate memory: you tried to allocate {bytes} bytes. Error code 12 (Cannot allocate memory)")]
    HostOutOfMemory { bytes: usize },
    /// A shape whose element count or byte size does not fit in memory addresses.
    #[error("Storage size calculation overflowed with sizes={}", crate::shape::fmt_list(.sizes))]
    SizeOverflow { sizes: Vec<usize> },
    /// A matrix a decomposition or solver cannot handle: singular, not positive-definite, no
    /// convergence (`torch.linalg.LinAlgError`, a `RuntimeError` subclass).
    #[error("{0}")]
    LinAlg(String),
    /// A bug in ferrograd caught at the boundary (a Rust panic), as a `RuntimeError`.
    #[error("ferrograd internal error: {0}. This is a bug in ferrograd, not in your program; please report it to the ferrograd developers with the code that triggered it.")]
    Internal(String),
    /// An exception raised by user Python code (a hook, a custom Function); re-raised unchanged.
    #[cfg(feature = "python")]
    #[error("{0}")]
    Python(pyo3::PyErr),
}

/// PyTorch's byte formatting in memory messages (`2.00 GiB`, `20.00 MiB`).
pub fn fmt_bytes(n: usize) -> String {
    const UNITS: [&str; 4] = ["bytes", "KiB", "MiB", "GiB"];
    let mut v = n as f64;
    let mut u = 0;
    while v >= 1024.0 && u < UNITS.len() - 1 {
        v /= 1024.0;
        u += 1;
    }
    if u == 0 {
        format!("{n} bytes")
    } else {
        format!("{v:.2} {}", UNITS[u])
    }
}

/// The crate's result type.
pub type Result<T> = std::result::Result<T, Error>;

/// Return early with an error: `bail!(Runtime, "text {}", x)`.
#[macro_export]
macro_rules! bail {
    ($kind:ident, $($arg:tt)*) => {
        return Err($crate::error::Error::$kind(format!($($arg)*)))
    };
}

/// Return early with an error unless a condition holds.
#[macro_export]
macro_rules! ensure {
    ($cond:expr, $kind:ident, $($arg:tt)*) => {
        if !$cond { $crate::bail!($kind, $($arg)*); }
    };
}
