//! Shared helpers for the Rust integration tests.
#![allow(dead_code)]

use ferrograd::Tensor;

/// Expand a test written as `fn(&str)` (the device name) for every device compiled in.
#[macro_export]
macro_rules! test_device {
    ($name:ident) => {
        paste_cpu!($name);
    };
}

#[macro_export]
macro_rules! paste_cpu {
    ($name:ident) => {
        mod $name {
            #[test]
            fn cpu() {
                super::$name("cpu");
            }
        }
    };
}

pub fn t(v: &[f32], shape: &[usize]) -> Tensor {
    Tensor::from_vec(v.to_vec(), shape)
}

pub fn leaf(v: &[f32], shape: &[usize]) -> Tensor {
    let x = t(v, shape);
    x.set_requires_grad(true).unwrap();
    x
}

pub fn close(a: &[f32], b: &[f32]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| (x - y).abs() <= 1e-5 * (1.0 + y.abs()))
}
