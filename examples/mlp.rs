//! A tiny MLP trained from Rust alone: 2-16-1 with tanh, fitting y = sin(2x0) * x1 by plain
//! SGD. Prints a falling loss.
//!
//!     cargo run --release --example mlp

use ferrograd::{autograd, tensor, DType, Result, Tensor};

fn param(shape: &[usize], scale: f64) -> Result<Tensor> {
    // N(0, scale²) from the seeded generator, as a leaf that requires grad
    tensor::randn(shape, DType::Float32)?.mul_scalar(scale)?.detach().requires_grad_(true)
}

fn main() -> Result<()> {
    tensor::manual_seed(0);
    let n = 256;
    let x = tensor::rand(&[n, 2], DType::Float32)?.mul_scalar(2.0)?.add_scalar(-1.0)?;
    let cols = x.to_vec::<f32>()?;
    let y: Vec<f32> = cols.chunks(2).map(|r| (2.0 * r[0]).sin() * r[1]).collect();
    let y = Tensor::from_vec(y, &[n, 1])?;

    let (w1, b1) = (param(&[2, 16], 0.5)?, param(&[16], 0.0)?);
    let (w2, b2) = (param(&[16, 1], 0.25)?, param(&[1], 0.0)?);
    let params = [&w1, &b1, &w2, &b2];
    let lr = 0.1;
    for step in 0..=300 {
        let h = (&x.matmul(&w1)? + &b1)?.tanh()?;
        let pred = (&h.matmul(&w2)? + &b2)?;
        let err = (&pred - &y)?;
        let loss = (&err * &err)?.mean(None)?;
        loss.backward()?;
        // SGD step outside the graph: p -= lr * p.grad
        let _no_grad = autograd::GradModeGuard::new(false);
        for p in params {
            let g = p.grad().expect("every parameter gets a gradient");
            ferrograd::ops::inplace(p, |v| v - &g.mul_scalar(lr)?)?;
            p.set_grad(None);
        }
        if step % 50 == 0 {
            println!("step {step:3}  loss {}", loss.item()?.as_f64());
        }
    }
    Ok(())
}
