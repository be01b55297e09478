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

from toolbox_bench import workloads


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--lib", default="ferrograd")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--steps", type=int, default=40)
    a = ap.parse_args()
    T = importlib.import_module(a.lib)
    T.set_num_threads(a.threads)
    # the toolbox benchmark's model, data and step (benches/toolbox_bench.py, "cnn")
    (_, step, _), = list(workloads(T, np)["cnn"]())
    ts = []
    for _ in range(a.steps):
        t0 = time.perf_counter()
        loss = step()
        ts.append((time.perf_counter() - t0) * 1e3)
    half = len(ts) // 2
    print(f"{a.lib} threads={a.threads} ms per step:", " ".join(f"{v:.1f}" for v in ts))
    print(f"median of the first {half}: {statistics.median(ts[:half]):.1f} ms, of the rest: {statistics.median(ts[half:]):.1f} ms, loss {float(loss):.4f}")


if __name__ == "__main__":
    main()
