//! ferrograd: a PyTorch-compatible automatic-differentiation engine.
//!
//! Tensors ([`Tensor`]) with shared storage and strided views, CPU kernels, an autograd
//! graph of [`autograd::Node`]s and a backward engine. The Python bindings live behind the
//! `python` feature; everything else is usable from Rust alone.
//!
//! ```
//! use ferrograd::{ops, Tensor};
//! let x = Tensor::from_vec(vec![1.0f32, 2.0, 3.0], &[3]).unwrap();
//! x.set_requires_grad(true).unwrap();
//! let y = ops::sum(&ops::mul(&x, &x).unwrap(), None).unwrap();
//! ferrograd::backward(&y, None, false, false).unwrap();
//! assert_eq!(x.grad().unwrap().to_vec::<f32>().unwrap(), vec![2.0, 4.0, 6.0]);
//! ```

pub mod autocast;
pub mod autograd;
pub mod backend;
pub mod cpu;
pub mod cuda;
pub mod device;
pub mod dtype;
pub mod error;
pub mod ops;
pub mod profiler;
pub mod random;
pub mod runtime;
pub mod shape;
pub mod storage;
pub mod tensor;
#[cfg(feature = "python")]
mod python;

/// The extension module's allocator (Only the Python build sets one: a Rust program using the
/// crate keeps its own): see `cpu::split_alloc`.
#[cfg(feature = "python")]
#[global_allocator]
static GLOBAL: cpu::split_alloc::SplitAlloc = cpu::split_alloc::SplitAlloc;

pub use device::Device;
pub use dtype::DType;
pub use error::{Error, Result};
pub use tensor::{BackwardOptions, Scalar, Tensor};

/// `y.backward(gradient)`: accumulate gradients of `y` into the leaves' `.grad`.
pub fn backward(y: &Tensor, gradient: Option<Tensor>, retain_graph: bool, create_graph: bool) -> Result<()> {
    let g = match gradient {
        Some(g) => g,
        None => {
            ensure!(y.numel() == 1, Runtime, "grad can be implicitly created only for scalar outputs");
            ensure!(!y.dtype().is_complex(), Runtime, "grad can be implicitly created only for real scalar outputs but got torch.{}", y.dtype().name());
            tensor::ones(&y.shape(), y.dtype())?
        }
    };
    autograd::backward(autograd::BackwardRequest {
        outputs: vec![y.clone()],
        grad_outputs: vec![g],
        keep_graph: retain_graph || create_graph,
        create_graph,
        inputs: None,
        accumulate: true,
    })
}
