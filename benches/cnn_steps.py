"""Per-step times of the small CNN's training loop from its first step (warm-up included).

The toolbox benchmark's median over ~25 calls after one warm-up counts a library's slow
first steps; this prints every step, so a warm-up phase (allocator, thread start-up) shows.

    python benches/cnn_steps.py --lib ferrograd --threads 2 --steps 40
    python benches/cnn_steps.py --lib torch --threads 2 --steps 40
"""
import argparse
import importlib
import statistics
import time

import numpy as np


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--lib", default="ferrograd")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--steps", type=int, default=40)
    a = ap.parse_args()
    T = importlib.import_module(a.lib)
    T.set_num_threads(a.threads)
    nn, F = T.nn, T.nn.functional
    g = np.random.default_rng(0)
    T.manual_seed(0)
    model = nn.Sequential(
        nn.Conv2d(1, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(32, 64, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        nn.Flatten(), nn.Linear(64 * 7 * 7, 128), nn.ReLU(), nn.Linear(128, 10))
    opt = T.optim.SGD(model.parameters(), lr=0.01)
    x = T.from_numpy(g.standard_normal((64, 1, 28, 28)).astype(np.float32))
    y = T.from_numpy(g.integers(0, 10, 64).astype(np.int64))
    ts = []
    for _ in range(a.steps):
        t0 = time.perf_counter()
        opt.zero_grad()
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        ts.append((time.perf_counter() - t0) * 1e3)
    half = len(ts) // 2
    print(f"{a.lib} threads={a.threads} ms per step:", " ".join(f"{v:.1f}" for v in ts))
    print(f"median of the first {half}: {statistics.median(ts[:half]):.1f} ms, of the rest: {statistics.median(ts[half:]):.1f} ms, loss {float(loss):.4f}")


if __name__ == "__main__":
    main()
