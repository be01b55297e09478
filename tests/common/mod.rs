//! Shared helpers for the Rust integration tests.
#![allow(dead_code)]

use ferrograd::{Device, Tensor};

/// Expand a test written as `fn(Device)` into one test per device: `cpu` always, `cuda` that
/// runs on device 0 when a GPU is usable and otherwise reports itself skipped.
#[macro_export]
macro_rules! test_device {
    ($name:ident) => {
        mod $name {
            #[test]
            fn cpu() {
                super::$name(ferrograd::Device::Cpu);
            }
            #[test]
            fn cuda() {
                if !ferrograd::cuda::is_available() {
                    eprintln!("skipped: no CUDA device");
                    return;
                }
                super::$name(ferrograd::Device::Cuda(0));
            }
        }
    };
}

pub fn t(v: &[f32], shape: &[usize]) -> Tensor {
    Tensor::from_vec(v.to_vec(), shape).unwrap()
}

/// A float32 tensor on `dev`.
pub fn td(dev: Device, v: &[f32], shape: &[usize]) -> Tensor {
    let x = t(v, shape);
    let x = if dev.is_cpu() { x } else { ferrograd::backend::to_device(&x, dev).unwrap() };
    assert_eq!(x.device(), dev);
    x
}

/// A float32 leaf that requires grad, on `dev`.
pub fn leaf_on(dev: Device, v: &[f32], shape: &[usize]) -> Tensor {
    let x = td(dev, v, shape);
    x.set_requires_grad(true).unwrap();
    x
}

pub fn leaf(v: &[f32], shape: &[usize]) -> Tensor {
    let x = t(v, shape);
    x.set_requires_grad(true).unwrap();
    x
}

pub fn close(a: &[f32], b: &[f32]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| (x - y).abs() <= 1e-5 * (1.0 + y.abs()))
}
