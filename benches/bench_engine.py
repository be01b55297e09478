"""Side-by-side backward-engine benchmarks (ferrograd at 1 and 2 threads, PyTorch if installed).

    python benches/bench_engine.py [--rounds 5]

1. wide graph: 8 independent branches of 4 x (matmul + tanh) on 256x256 float32, summed;
   backward time per thread count (the parallel engine should approach 2x on 2 cores).
2. chain: 10,000 tiny ops; backward microseconds per node at 1 and 2 threads (the parallel
   machinery must cost next to nothing where there is no parallelism).
3. Python-node interleaving: the wide graph with one branch passing through a custom
   Function whose backward sleeps 50 ms in Python; with 2 threads the native branches run
   meanwhile, so the total approaches max(50 ms, native work) instead of their sum.
"""

import argparse
import statistics
import time

import numpy as np


def build_wide(T, n=256, branches=8, steps=4, slow=None, seed=0):
    rng = np.random.default_rng(seed)
    x = T.from_numpy(rng.standard_normal((n, n)).astype(np.float32)).requires_grad_()
    ws = [[T.from_numpy((rng.standard_normal((n, n)) / np.sqrt(n)).astype(np.float32)).requires_grad_()
           for _ in range(steps)] for _ in range(branches)]
    total = None
    for b, br in enumerate(ws):
        h = x
        for w in br:
            h = (h @ w).tanh()
        if slow is not None and b == 0:
            h = slow.apply(h)
        total = h if total is None else total + h
    return total.sum()


def time_backward(T, rounds, **kw):
    ts = []
    for _ in range(rounds):
        loss = build_wide(T, **kw)
        t0 = time.perf_counter()
        loss.backward()
        ts.append(time.perf_counter() - t0)
    return statistics.median(ts)


def time_chain(T, rounds, n=10_000):
    ts = []
    for _ in range(rounds):
        x = T.ones(1, requires_grad=True)
        y = x
        for _ in range(n):
            y = y * 1.0001
        t0 = time.perf_counter()
        y.sum().backward()
        ts.append(time.perf_counter() - t0)
    return statistics.median(ts) / n * 1e6


def slow_function(T):
    class Slow(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 1.0

        @staticmethod
        def backward(ctx, g):
            time.sleep(0.05)  # slow Python work (releases the GIL like real I/O or numpy would)
            return g

    return Slow


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    import ferrograd

    libs = [("ferrograd", ferrograd)]
    try:
        import torch

        libs.append(("torch", torch))
    except ImportError:
        pass
    print(f"{'workload':44s} {'lib':10s} {'threads':>7s} {'value':>10s}")
    res = {}
    for name, T in libs:
        for threads in (1, 2):
            T.set_num_threads(threads)
            wide = time_backward(T, args.rounds)
            chain = time_chain(T, args.rounds)
            inter = time_backward(T, args.rounds, slow=slow_function(T))
            res[(name, threads)] = (wide, chain, inter)
            print(f"{'wide 8x4 256 backward (ms)':44s} {name:10s} {threads:7d} {wide * 1e3:10.2f}")
            print(f"{'chain 10k backward (us/node)':44s} {name:10s} {threads:7d} {chain:10.3f}")
            print(f"{'wide + 50 ms Python node backward (ms)':44s} {name:10s} {threads:7d} {inter * 1e3:10.2f}")
    f1, f2 = res[("ferrograd", 1)], res[("ferrograd", 2)]
    print()
    print(f"ferrograd wide graph speed-up 2 vs 1 thread: {f1[0] / f2[0]:.2f}x")
    print(f"ferrograd chain overhead 2 vs 1 thread: {f2[1] / f1[1]:.2f}x time per node")
    print(f"ferrograd Python-node overlap: 2 threads {f2[2] * 1e3:.1f} ms vs 1 thread {f1[2] * 1e3:.1f} ms "
          f"(native work alone {f2[0] * 1e3:.1f} ms + 50 ms sleep)")
    if ("torch", 1) in res:
        t1, t2 = res[("torch", 1)], res[("torch", 2)]
        print(f"torch wide graph 2 vs 1 thread: {t1[0] / t2[0]:.2f}x;  ferrograd(2) vs torch(2): {t2[0] / f2[0]:.2f}x faster")
        print(f"chain backward per node: ferrograd {f1[1]:.3f} us vs torch {t1[1]:.3f} us")


if __name__ == "__main__":
    main()
