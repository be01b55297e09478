//! Graph-recording benchmarks: what creating (and freeing) autograd nodes costs.
//!
//! - `record_node`: `record` of a one-input node on a 1-element tensor and its teardown
//!   (the node, its edge to the leaf's `AccumulateGrad`, one saved input).
//! - `add_requires_grad`: `a + b` with `a` requiring grad (op, node, teardown), 1 element.
//! - `chain_build_drop_1000`: 1000 `y * k` nodes recorded, then the chain freed.
//! - `chain_build_drop_1000_threads=2`: the same on two threads at once (per-thread slabs).

use criterion::{criterion_group, criterion_main, Criterion};
use ferrograd::autograd::{record, Save};
use ferrograd::{ops, Scalar, Tensor};

fn leaf() -> Tensor {
    let x = Tensor::from_vec(vec![1.0f32], &[1]).unwrap();
    x.set_requires_grad(true).unwrap();
    x
}

fn chain(x: &Tensor, k: &Tensor, n: usize) -> Tensor {
    let mut y = x.clone();
    for _ in 0..n {
        y = ops::mul(&y, k).unwrap();
    }
    y
}

fn bench_nodes(c: &mut Criterion) {
    let mut g = c.benchmark_group("graph");
    let x = leaf();
    let out = Tensor::from_vec(vec![2.0f32], &[1]).unwrap();
    g.bench_function("record_node", |b| {
        b.iter(|| {
            let o = out.detach();
            record("TestBackward", &[&x], &[&o], &[Save::In(&x)], |_, g, _| Ok(vec![Some(g[0].clone())])).unwrap();
            o
        })
    });
    let other = Tensor::from_vec(vec![3.0f32], &[1]).unwrap();
    g.bench_function("add_requires_grad", |b| b.iter(|| ops::add(&x, &other).unwrap()));
    let k = Tensor::wrapped_scalar(Scalar::Float(1.0001));
    g.bench_function("chain_build_drop_1000", |b| b.iter(|| drop(chain(&x, &k, 1000))));
    g.bench_function("chain_build_drop_1000_threads=2", |b| {
        b.iter(|| {
            std::thread::scope(|s| {
                for _ in 0..2 {
                    s.spawn(|| {
                        let x = leaf();
                        let k = Tensor::wrapped_scalar(Scalar::Float(1.0001));
                        for _ in 0..10 {
                            drop(chain(&x, &k, 1000));
                        }
                    });
                }
            })
        })
    });
    g.finish();
}

criterion_group!(benches, bench_nodes);
criterion_main!(benches);
