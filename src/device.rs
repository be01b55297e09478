//! Devices: where a tensor's storage lives. Parsed and printed as PyTorch does
//! (`"cpu"`, `"cuda"`, `"cuda:1"`).

use crate::error::{Error, Result};
use std::fmt;
use std::str::FromStr;

/// A device a storage lives on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Device {
    /// Host memory, CPU kernels.
    #[default]
    Cpu,
    /// A CUDA GPU by ordinal.
    Cuda(usize),
}

impl Device {
    /// `"cpu"` or `"cuda"` (PyTorch's `device.type`).
    pub fn type_name(self) -> &'static str {
        match self {
            Device::Cpu => "cpu",
            Device::Cuda(_) => "cuda",
        }
    }
    /// The ordinal (PyTorch's `device.index`); `None` for the CPU.
    pub fn index(self) -> Option<usize> {
        match self {
            Device::Cpu => None,
            Device::Cuda(i) => Some(i),
        }
    }
    pub fn is_cuda(self) -> bool {
        matches!(self, Device::Cuda(_))
    }
    pub fn is_cpu(self) -> bool {
        matches!(self, Device::Cpu)
    }
}

/// `torch.set_default_device`: where factories put tensors when no `device=` is given
/// (0 = cpu, i + 1 = cuda:i).
static DEFAULT_DEVICE: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// The device factories use when none is given.
pub fn default_device() -> Device {
    match DEFAULT_DEVICE.load(std::sync::atomic::Ordering::Relaxed) {
        0 => Device::Cpu,
        i => Device::Cuda(i - 1),
    }
}

/// Set the device factories use when none is given.
pub fn set_default_device(d: Device) {
    let code = match d { Device::Cpu => 0, Device::Cuda(i) => i + 1 };
    DEFAULT_DEVICE.store(code, std::sync::atomic::Ordering::Relaxed);
}

static CURRENT_CUDA: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// The CUDA device `"cuda"` means (`torch.cuda.current_device()`).
pub fn current_cuda_device() -> usize {
    CURRENT_CUDA.load(std::sync::atomic::Ordering::Relaxed)
}

/// `torch.cuda.set_device(i)`: checked against the devices present.
pub fn set_current_cuda_device(i: usize) -> Result<()> {
    crate::cuda::check_device(Device::Cuda(i))?;
    CURRENT_CUDA.store(i, std::sync::atomic::Ordering::Relaxed);
    Ok(())
}

impl fmt::Display for Device {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Device::Cpu => f.write_str("cpu"),
            Device::Cuda(i) => write!(f, "cuda:{i}"),
        }
    }
}

/// A parsed device string: the type and an optional index (`"cuda"` has none until it is
/// resolved against the current device).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DeviceSpec {
    pub cuda: bool,
    pub index: Option<usize>,
}

impl DeviceSpec {
    /// Resolve to a concrete device (`"cuda"` means `current`).
    pub fn resolve(self, current: usize) -> Device {
        if self.cuda {
            Device::Cuda(self.index.unwrap_or(current))
        } else {
            Device::Cpu
        }
    }
}

impl FromStr for DeviceSpec {
    type Err = Error;
    /// PyTorch's device-string grammar: `type[:index]`, type one of `cpu`, `cuda`.
    fn from_str(s: &str) -> Result<Self> {
        let bad_type = || Error::Runtime(format!("Expected one of cpu, cuda, ipu, xpu, mkldnn, opengl, opencl, ideep, hip, ve, fpga, maia, xla, lazy, vulkan, mps, meta, hpu, mtia, privateuseone device type at start of device string: {s}"));
        let (ty, idx) = match s.split_once(':') {
            Some((t, i)) => (t, Some(i)),
            None => (s, None),
        };
        let cuda = match ty {
            "cpu" => false,
            "cuda" => true,
            _ => return Err(bad_type()),
        };
        let index = match idx {
            None => None,
            Some(i) => {
                let ok = !i.is_empty() && i.bytes().all(|b| b.is_ascii_digit()) && !(i.len() > 1 && i.starts_with('0'));
                if !ok {
                    return Err(Error::Runtime(format!("Invalid device string: '{s}'")));
                }
                Some(i.parse::<usize>().map_err(|_| Error::Runtime(format!("Invalid device string: '{s}'")))?)
            }
        };
        Ok(DeviceSpec { cuda, index })
    }
}

impl FromStr for Device {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        Ok(s.parse::<DeviceSpec>()?.resolve(current_cuda_device()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn parse_and_print() {
        assert_eq!("cpu".parse::<Device>().unwrap(), Device::Cpu);
        assert_eq!("cuda".parse::<Device>().unwrap(), Device::Cuda(0));
        assert_eq!("cuda:1".parse::<Device>().unwrap(), Device::Cuda(1));
        assert_eq!(Device::Cuda(1).to_string(), "cuda:1");
        assert!("gpu".parse::<Device>().is_err());
        assert!("cuda:x".parse::<Device>().is_err());
        assert!("cuda:01".parse::<Device>().is_err());
    }
}
