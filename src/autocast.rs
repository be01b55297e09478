//! Automatic mixed precision (`torch.autocast`): while a device type's autocast is on (per
//! thread, as PyTorch's), the ops of PyTorch's lower-precision list (matrix products, linear,
//! convolutions, attention) run on their floating operands cast to the autocast dtype, and
//! those of its float32 list (losses, grid sampling) on half-precision operands cast up to
//! float32. Float64 operands are never cast. The casts are ordinary differentiable ops
//! (ToCopyBackward0), so gradients flow back in each leaf's own dtype. The op entry points
//! (`python/` bindings, `nn.functional`) apply the policy; ops called inside other ops do not.

use std::cell::Cell;

use crate::device::Device;
use crate::dtype::DType;
use crate::error::Result;
use crate::tensor::Tensor;

thread_local! {
    /// The autocast dtype of CPU and CUDA (None: off).
    static STATE: Cell<[Option<DType>; 2]> = const { Cell::new([None, None]) };
}

/// Which devices an autocast state is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeviceType {
    Cpu,
    Cuda,
}

impl DeviceType {
    fn slot(self) -> usize {
        match self {
            DeviceType::Cpu => 0,
            DeviceType::Cuda => 1,
        }
    }
    fn of(d: Device) -> Self {
        match d {
            Device::Cpu => DeviceType::Cpu,
            Device::Cuda(_) => DeviceType::Cuda,
        }
    }
}

/// This thread's autocast dtype for `device` (None when off).
pub fn get(device: DeviceType) -> Option<DType> {
    STATE.with(|s| s.get()[device.slot()])
}

/// Set this thread's autocast dtype for `device` (None turns it off); returns the previous.
pub fn set(device: DeviceType, dtype: Option<DType>) -> Option<DType> {
    STATE.with(|s| {
        let mut v = s.get();
        let prev = v[device.slot()];
        v[device.slot()] = dtype;
        s.set(v);
        prev
    })
}

/// Whether any autocast is on in this thread (the entry points' cheap first test).
#[inline]
pub fn active() -> bool {
    STATE.with(|s| s.get() != [None, None])
}

/// PyTorch's `is_eligible`: a floating tensor other than float64.
fn eligible(t: &Tensor) -> bool {
    t.dtype().is_float() && t.dtype() != DType::Float64
}

/// `t` as a lower-precision op's operand under autocast.
pub fn lower(t: &Tensor) -> Result<Tensor> {
    match get(DeviceType::of(t.device())) {
        Some(dt) if eligible(t) && t.dtype() != dt => crate::ops::to_dtype(t, dt),
        _ => Ok(t.clone()),
    }
}

/// `t` as a float32 op's operand under autocast.
pub fn full(t: &Tensor) -> Result<Tensor> {
    match get(DeviceType::of(t.device())) {
        Some(_) if eligible(t) && t.dtype() != DType::Float32 => crate::ops::to_dtype(t, DType::Float32),
        _ => Ok(t.clone()),
    }
}

/// `f(a, b)` with both operands lowered when autocast is on.
pub fn lower2(a: &Tensor, b: &Tensor, f: impl FnOnce(&Tensor, &Tensor) -> Result<Tensor>) -> Result<Tensor> {
    if !active() {
        return f(a, b);
    }
    f(&lower(a)?, &lower(b)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn casts_follow_the_state() {
        let x = crate::tensor::Tensor::from_vec(vec![1.5f32, 2.0], &[2]).unwrap();
        assert!(!active());
        assert_eq!(lower(&x).unwrap().dtype(), DType::Float32);
        let prev = set(DeviceType::Cpu, Some(DType::BFloat16));
        assert_eq!(prev, None);
        assert_eq!(lower(&x).unwrap().dtype(), DType::BFloat16);
        let h = crate::ops::to_dtype(&x, DType::Float16).unwrap();
        assert_eq!(full(&h).unwrap().dtype(), DType::Float32);
        let d = crate::ops::to_dtype(&x, DType::Float64).unwrap();
        assert_eq!(lower(&d).unwrap().dtype(), DType::Float64);
        set(DeviceType::Cpu, None);
        assert!(!active());
    }
}
