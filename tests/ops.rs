//! Ops from Rust: broadcasting, promotion, views, matmul, reductions.

mod common;
use common::*;
use ferrograd::{Device, ops, DType, Tensor};

fn broadcast_add(dev: Device) {
    let a = td(dev, &[1.0, 2.0], &[2, 1]);
    let b = td(dev, &[10.0, 20.0, 30.0], &[3]);
    let c = ops::add(&a, &b).unwrap();
    assert_eq!(&c.shape()[..], &[2, 3]);
    assert_eq!(c.device(), dev, "the result lives on the inputs' device");
    assert_eq!(c.to_vec::<f32>().unwrap(), vec![11.0, 21.0, 31.0, 12.0, 22.0, 32.0]);
}
test_device!(broadcast_add);

fn promotion(dev: Device) {
    let i = Tensor::from_vec(vec![1i64, 2], &[2]).unwrap();
    let f = td(dev, &[0.5, 0.5], &[2]);
    assert_eq!(ops::add(&i, &f).unwrap().dtype(), DType::Float32);
    assert_eq!(ops::div(&i, &i).unwrap().dtype(), DType::Float32);
}
test_device!(promotion);

fn views_share_storage(dev: Device) {
    let base = td(dev, &[0.0; 6], &[2, 3]);
    let row = ops::select(&base, 0, 1).unwrap();
    ops::inplace(&row, |inp| ops::add(inp, &Tensor::wrapped_scalar(ferrograd::Scalar::Int(1)))).unwrap();
    assert_eq!(base.to_vec::<f32>().unwrap(), vec![0.0, 0.0, 0.0, 1.0, 1.0, 1.0]);
    assert_eq!(base.version(), 1);
    let tr = ops::t(&base).unwrap();
    assert!(!tr.is_contiguous());
    assert!(ops::view(&tr, &[6]).is_err());
}
test_device!(views_share_storage);

fn matmul_matches_naive(dev: Device) {
    let (m, k, n) = (17, 33, 9);
    let a: Vec<f32> = (0..m * k).map(|i| (i % 7) as f32 - 3.0).collect();
    let b: Vec<f32> = (0..k * n).map(|i| (i % 5) as f32 - 2.0).collect();
    let c = ops::mm(&td(dev, &a, &[m, k]), &td(dev, &b, &[k, n])).unwrap().to_vec::<f32>().unwrap();
    for i in 0..m {
        for j in 0..n {
            let want: f32 = (0..k).map(|p| a[i * k + p] * b[p * n + j]).sum();
            assert!((c[i * n + j] - want).abs() < 1e-3);
        }
    }
}
test_device!(matmul_matches_naive);

fn reductions(dev: Device) {
    let x = td(dev, &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0], &[2, 3]);
    assert_eq!(ops::sum_dims(&x, &[1], false, None).unwrap().to_vec::<f32>().unwrap(), vec![6.0, 15.0]);
    assert_eq!(ops::sum_dims(&x, &[0], true, None).unwrap().to_vec::<f32>().unwrap(), vec![5.0, 7.0, 9.0]);
    let (v, i) = ops::max_dim(&x, 1, false, true).unwrap();
    assert_eq!(v.to_vec::<f32>().unwrap(), vec![3.0, 6.0]);
    assert_eq!(i.to_vec::<i64>().unwrap(), vec![2, 2]);
    assert!(close(&ops::norm(&x, 2.0, &[], false).unwrap().to_vec::<f32>().unwrap(), &[91f32.sqrt()]));
}
test_device!(reductions);
