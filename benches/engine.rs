//! Backward-engine benchmarks: a wide graph (8 independent matmul+tanh branches) with 1 and
//! 2 threads, and the per-node overhead of a chain of tiny ops.

use criterion::{criterion_group, criterion_main, Criterion};
use ferrograd::{backward, ops, runtime, Scalar, Tensor};

fn randn(shape: &[usize], seed: u64) -> Tensor {
    ferrograd::tensor::manual_seed(seed);
    ferrograd::tensor::randn(shape, ferrograd::DType::Float32).expect("a small tensor")
}

/// 8 branches x `steps` of h = tanh(h @ W) from one input, summed; returns the loss.
fn wide_graph(x: &Tensor, ws: &[Vec<Tensor>]) -> Tensor {
    let mut total: Option<Tensor> = None;
    for br in ws {
        let mut h = x.clone();
        for w in br {
            h = ops::tanh(&ops::mm(&h, w).unwrap()).unwrap();
        }
        total = Some(match total {
            None => h,
            Some(t) => ops::add(&t, &h).unwrap(),
        });
    }
    ops::sum(&total.unwrap(), None).unwrap()
}

fn bench_wide(c: &mut Criterion) {
    let n = 256;
    let x = randn(&[n, n], 1);
    x.set_requires_grad(true).unwrap();
    let ws: Vec<Vec<Tensor>> = (0..8)
        .map(|b| (0..4).map(|s| {
            let w = ops::mul(&randn(&[n, n], 100 + b * 10 + s), &Tensor::wrapped_scalar(Scalar::Float(1.0 / 16.0))).unwrap();
            w.set_requires_grad(true).unwrap();
            w
        }).collect())
        .collect();
    let mut g = c.benchmark_group("wide_graph_backward_8x4_256");
    g.sample_size(10);
    for threads in [1usize, 2] {
        g.bench_function(format!("threads={threads}"), |b| {
            runtime::set_num_threads(threads);
            b.iter_batched(
                || wide_graph(&x, &ws),
                |loss| backward(&loss, None, false, false).unwrap(),
                criterion::BatchSize::PerIteration,
            )
        });
    }
    g.finish();
}

fn bench_chain(c: &mut Criterion) {
    let mut g = c.benchmark_group("chain_backward_10000_nodes");
    g.sample_size(10);
    for threads in [1usize, 2] {
        g.bench_function(format!("threads={threads}"), |b| {
            runtime::set_num_threads(threads);
            let x = Tensor::from_vec(vec![1.0f32], &[1]).unwrap();
            x.set_requires_grad(true).unwrap();
            let k = Tensor::wrapped_scalar(Scalar::Float(1.0001));
            b.iter_batched(
                || {
                    let mut y = x.clone();
                    for _ in 0..10_000 {
                        y = ops::mul(&y, &k).unwrap();
                    }
                    y
                },
                |y| backward(&ops::sum(&y, None).unwrap(), None, false, false).unwrap(),
                criterion::BatchSize::PerIteration,
            )
        });
    }
    g.finish();
}

criterion_group!(benches, bench_wide, bench_chain);
criterion_main!(benches);
