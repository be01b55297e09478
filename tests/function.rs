//! The Rust custom-Function API: ctx semantics as in PyTorch.

mod common;
use common::*;
use ferrograd::autograd::{apply_function, BackwardCtx, Function, FunctionCtx};
use ferrograd::{backward, ops, Result, Scalar, Tensor};

/// out = a * b, saving both and recording which inputs need gradients.
struct MulFn;

impl Function for MulFn {
    fn name(&self) -> String {
        "MulFnBackward".into()
    }
    fn forward(&self, ctx: &mut FunctionCtx, inputs: &[Tensor]) -> Result<Vec<Tensor>> {
        ctx.save_for_backward(&[&inputs[0], &inputs[1]]);
        ctx.set("needs", (ctx.needs_input_grad(0), ctx.needs_input_grad(1)));
        Ok(vec![ops::mul(&inputs[0], &inputs[1])?])
    }
    fn backward(&self, ctx: &BackwardCtx<'_>, grads: &[Option<Tensor>]) -> Result<Vec<Option<Tensor>>> {
        let s = ctx.saved_tensors()?;
        let g = grads[0].as_ref().unwrap();
        Ok(vec![
            if ctx.needs_input_grad(0) { Some(ops::mul(g, &s[1])?) } else { None },
            if ctx.needs_input_grad(1) { Some(ops::mul(g, &s[0])?) } else { None },
        ])
    }
}

#[test]
fn save_for_backward_and_needs_input_grad() {
    let a = leaf(&[2.0, 3.0], &[2]);
    let b = t(&[4.0, 5.0], &[2]);
    let y = apply_function(MulFn, &[a.clone(), b.clone()]).unwrap().remove(0);
    assert_eq!(y.grad_fn().unwrap().name, "MulFnBackward");
    backward(&ops::sum(&y, None).unwrap(), None, false, false).unwrap();
    assert_eq!(a.grad().unwrap().to_vec::<f32>().unwrap(), vec![4.0, 5.0]);
    assert!(b.grad().is_none());
}

#[test]
fn saved_input_modified_in_place_is_detected() {
    let a = leaf(&[2.0, 3.0], &[2]);
    let h = ops::mul(&a, &Tensor::wrapped_scalar(Scalar::Int(1))).unwrap();
    let b = leaf(&[4.0, 5.0], &[2]);
    let y = apply_function(MulFn, &[h.clone(), b.clone()]).unwrap().remove(0);
    ops::inplace(&h, |x| ops::add(x, &Tensor::wrapped_scalar(Scalar::Int(1)))).unwrap();
    let err = backward(&ops::sum(&y, None).unwrap(), None, false, false).unwrap_err();
    assert!(err.to_string().contains("modified by an inplace operation"));
}

/// Adds one in place and marks its input dirty; returns (x, a non-differentiable mask).
struct AddOneInPlace;

impl Function for AddOneInPlace {
    fn name(&self) -> String {
        "AddOneInPlaceBackward".into()
    }
    fn forward(&self, ctx: &mut FunctionCtx, inputs: &[Tensor]) -> Result<Vec<Tensor>> {
        let x = &inputs[0];
        ops::inplace(x, |v| ops::add(v, &Tensor::wrapped_scalar(Scalar::Int(1))))?;
        ctx.mark_dirty(x);
        let mask = ops::compare(x, &Tensor::wrapped_scalar(Scalar::Int(3)), ops::BinOp::Gt)?;
        let maskf = ops::to_dtype(&mask, ferrograd::DType::Float32)?;
        ctx.mark_non_differentiable(&maskf);
        ctx.set_materialize_grads(false);
        Ok(vec![x.clone(), maskf])
    }
    fn backward(&self, _ctx: &BackwardCtx<'_>, grads: &[Option<Tensor>]) -> Result<Vec<Option<Tensor>>> {
        assert!(grads[1].is_none(), "not materialized");
        Ok(vec![grads[0].clone()])
    }
}

#[test]
fn mark_dirty_non_differentiable_and_materialize() {
    let a = leaf(&[1.0, 5.0], &[2]);
    let b = ops::mul(&a, &Tensor::wrapped_scalar(Scalar::Int(3))).unwrap();
    let out = apply_function(AddOneInPlace, &[b.clone()]).unwrap();
    assert!(out[0].same(&b), "dirty input returned as the same tensor");
    assert_eq!(b.grad_fn().unwrap().name, "AddOneInPlaceBackward");
    assert!(!out[1].requires_grad());
    backward(&ops::sum(&ops::mul(&out[0], &out[0]).unwrap(), None).unwrap(), None, false, false).unwrap();
    // c = 3a + 1 = [4, 16]; d(c²)/da = 2c * 3
    assert_eq!(a.grad().unwrap().to_vec::<f32>().unwrap(), vec![24.0, 96.0]);
}
