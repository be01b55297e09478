//! Autograd from Rust alone: backward, graph teardown, saved-tensor rules.

mod common;
use common::*;
use ferrograd::{Device, autograd, backward, ops, Tensor};

fn mul_mean_backward(dev: Device) {
    let x = leaf_on(dev, &[1.0; 4], &[2, 2]);
    let y = ops::add(&x, &Tensor::wrapped_scalar(ferrograd::Scalar::Int(2))).unwrap();
    let z = ops::mul(&ops::mul(&y, &y).unwrap(), &Tensor::wrapped_scalar(ferrograd::Scalar::Int(3))).unwrap();
    let out = ops::mean(&z, None, false, None).unwrap();
    assert_eq!(out.grad_fn().unwrap().name, "MeanBackward0");
    backward(&out, None, false, false).unwrap();
    assert_eq!(x.grad().unwrap().device(), dev, "the gradient lives on the leaf's device");
    assert!(close(&x.grad().unwrap().to_vec::<f32>().unwrap(), &[4.5; 4]));
}
test_device!(mul_mean_backward);

fn second_backward_fails(dev: Device) {
    let x = leaf_on(dev, &[1.0, 2.0], &[2]);
    let y = ops::sum(&ops::mul(&ops::exp(&x).unwrap(), &x).unwrap(), None).unwrap();
    backward(&y, None, true, false).unwrap();
    backward(&y, None, false, false).unwrap();
    let err = backward(&y, None, false, false).unwrap_err();
    assert!(err.to_string().starts_with("Trying to backward through the graph a second time"));
}
test_device!(second_backward_fails);

fn inplace_version_check(dev: Device) {
    let a = leaf_on(dev, &[0.5, 1.5], &[2]);
    let b = ops::exp(&a).unwrap();
    let c = ops::mul(&b, &b).unwrap();
    ops::inplace(&b, |inp| ops::add(inp, &Tensor::wrapped_scalar(ferrograd::Scalar::Int(1)))).unwrap();
    let err = backward(&ops::sum(&c, None).unwrap(), None, false, false).unwrap_err();
    assert!(err.to_string().contains("modified by an inplace operation"), "{}", err);
}
test_device!(inplace_version_check);

fn leaf_inplace_is_an_error(dev: Device) {
    let w = leaf_on(dev, &[1.0, 2.0], &[2]);
    let err = ops::inplace(&w, |inp| ops::mul(inp, inp)).unwrap_err();
    assert_eq!(err.to_string(), "a leaf Variable that requires grad is being used in an in-place operation.");
}
test_device!(leaf_inplace_is_an_error);

/// A million-node chain is built, differentiated and freed without recursion.
#[test]
fn million_node_chain() {
    let x = leaf(&[1.0], &[1]);
    let mut y = x.clone();
    let half = Tensor::wrapped_scalar(ferrograd::Scalar::Float(1.0));
    for _ in 0..1_000_000 {
        y = ops::mul(&y, &half).unwrap();
    }
    backward(&ops::sum(&y, None).unwrap(), None, false, false).unwrap();
    assert_eq!(x.grad().unwrap().to_vec::<f32>().unwrap(), vec![1.0]);
    drop(y);
}

#[test]
fn graph_report_counts_saved_bytes() {
    let x = leaf(&[1.0; 256], &[256]);
    let e = ops::exp(&x).unwrap(); // saves its output: 1 KiB
    let y = ops::mul(&e, &e).unwrap(); // saves e (same storage, counted once)
    let r = autograd::graph_report(&y);
    assert_eq!(r.nodes, 3); // Mul, Exp, AccumulateGrad
    assert_eq!(r.total_bytes, 1024);
}

#[test]
fn grad_returns_without_accumulating() {
    let x = leaf(&[3.0], &[1]);
    let y = ops::mul(&x, &x).unwrap();
    let g = autograd::grad(autograd::BackwardRequest {
        outputs: vec![y.clone()],
        grad_outputs: vec![ferrograd::tensor::ones(&[1], ferrograd::DType::Float32).unwrap()],
        keep_graph: false,
        create_graph: false,
        inputs: Some(vec![x.clone()]),
        accumulate: false,
    })
    .unwrap();
    assert_eq!(g[0].as_ref().unwrap().to_vec::<f32>().unwrap(), vec![6.0]);
    assert!(x.grad().is_none());
}
