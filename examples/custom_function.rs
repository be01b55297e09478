//! A custom differentiable operation written in Rust: softplus(x) = ln(1 + eˣ) with its own
//! backward (sigmoid(x)), checked against the composite formula.
//!
//!     cargo run --example custom_function

use ferrograd::autograd::{apply_function, BackwardCtx, Function, FunctionCtx};
use ferrograd::{ops, Result, Tensor};

struct Softplus;

impl Function for Softplus {
    fn name(&self) -> String {
        "SoftplusBackward".into()
    }
    fn forward(&self, ctx: &mut FunctionCtx, inputs: &[Tensor]) -> Result<Vec<Tensor>> {
        let x = &inputs[0];
        ctx.save_for_backward(&[x]);
        // ln(1 + e^x)
        Ok(vec![x.exp()?.add_scalar(1.0)?.log()?])
    }
    fn backward(&self, ctx: &BackwardCtx<'_>, grads: &[Option<Tensor>]) -> Result<Vec<Option<Tensor>>> {
        let x = &ctx.saved_tensors()?[0];
        let g = grads[0].as_ref().expect("materialized by default");
        // d/dx ln(1 + e^x) = sigmoid(x)
        Ok(vec![Some((g * &x.sigmoid()?)?)])
    }
}

fn main() -> Result<()> {
    let x = Tensor::from_vec(vec![-2.0f32, 0.0, 3.0], &[3])?.requires_grad_(true)?;
    let y = apply_function(Softplus, &[x.clone()])?.remove(0);
    println!("y = {y}");
    ops::sum(&y, None)?.backward()?;
    let g = x.grad().expect("x requires grad");
    println!("dy/dx = {g}");
    let expected = x.detach().sigmoid()?;
    println!("sigmoid(x) = {expected}");
    let diff = ops::max_all(&ops::abs(&(&g - &expected)?)?, true)?.item()?.as_f64();
    assert!(diff < 1e-6, "custom backward matches sigmoid");
    Ok(())
}
