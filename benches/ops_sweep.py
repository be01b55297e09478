#!/usr/bin/env python3
"""Everyday tensor ops side by side at one thread (or N): ferrograd against PyTorch in one
interpreter (a venv with both, e.g. .venv-bench), sorted by ratio. A survey for misses beyond
the pointwise math (benches/pointwise_sweep.py): casts, comparisons, selection, reductions along
a dim, indexing, joins, creation, integer and boolean arithmetic.

    python benches/ops_sweep.py [elements] [threads]   # default 1M elements, 1 thread

Ratio = PyTorch time / ferrograd time (> 1: ferrograd faster), best of 5 x 10 calls.
"""
import sys
import time

import numpy as np
import torch

import ferrograd as fg

n = int(sys.argv[1]) if len(sys.argv) > 1 else 1 << 20
nt = int(sys.argv[2]) if len(sys.argv) > 2 else 1
torch.set_num_threads(nt)
fg.set_num_threads(nt)
g = np.random.default_rng(0)
R, C = 1024, n // 1024
xf = g.standard_normal((R, C)).astype(np.float32)
yf = g.standard_normal((R, C)).astype(np.float32)
xi = g.integers(0, 1000, (R, C)).astype(np.int64)
yi = g.integers(1, 1000, (R, C)).astype(np.int64)
idx = g.integers(0, R, R).astype(np.int64)
gidx = g.integers(0, C, (R, C)).astype(np.int64)
labels = g.integers(0, 10, n // 10).astype(np.int64)


def tm(f, k=10):
    f()
    best = 1e9
    for _ in range(5):
        t = time.perf_counter()
        for _ in range(k):
            f()
        best = min(best, (time.perf_counter() - t) / k)
    return best * 1e6


def prep(L):
    return dict(x=L.from_numpy(xf.copy()), y=L.from_numpy(yf.copy()), i=L.from_numpy(xi.copy()),
                j=L.from_numpy(yi.copy()), idx=L.from_numpy(idx.copy()), gidx=L.from_numpy(gidx.copy()),
                lab=L.from_numpy(labels.copy()), m=L.from_numpy(xf > 0), m2=L.from_numpy(yf > 0))


CASES = {
    "gt": lambda L, d: d["x"] > 0,
    "gt_tensor": lambda L, d: d["x"] > d["y"],
    "eq_int": lambda L, d: d["i"] == d["j"],
    "isnan": lambda L, d: L.isnan(d["x"]),
    "where": lambda L, d: L.where(d["m"], d["x"], d["y"]),
    "masked_fill": lambda L, d: d["x"].masked_fill(d["m"], 0.0),
    "logical_and": lambda L, d: d["m"] & d["m2"],
    "bool_sum": lambda L, d: d["m"].sum(),
    "bool_float_mean": lambda L, d: d["m"].float().mean(),
    "any": lambda L, d: d["m"].any(),
    "int_add": lambda L, d: d["i"] + d["j"],
    "int_mul_scalar": lambda L, d: d["i"] * 3,
    "int_floordiv": lambda L, d: d["i"] // d["j"],
    "int_remainder": lambda L, d: d["i"] % 7,
    "int_sum": lambda L, d: d["i"].sum(),
    "clamp": lambda L, d: d["x"].clamp(-1, 1),
    "abs": lambda L, d: d["x"].abs(),
    "sum_dim1": lambda L, d: d["x"].sum(1),
    "sum_dim0": lambda L, d: d["x"].sum(0),
    "mean_dim1": lambda L, d: d["x"].mean(1),
    "max_dim1": lambda L, d: d["x"].max(1),
    "argmax_dim1": lambda L, d: d["x"].argmax(1),
    "argmax_all": lambda L, d: d["x"].argmax(),
    "amax_dim0": lambda L, d: d["x"].amax(0),
    "var_dim1": lambda L, d: d["x"].var(1),
    "norm": lambda L, d: d["x"].norm(),
    "cumsum_dim1": lambda L, d: d["x"].cumsum(1),
    "softmax_dim1": lambda L, d: d["x"].softmax(1),
    "log_softmax_dim0": lambda L, d: d["x"].log_softmax(0),
    "sort_dim1": lambda L, d: d["x"].sort(1),
    "topk_dim1": lambda L, d: d["x"].topk(5, 1),
    "index_select0": lambda L, d: d["x"].index_select(0, d["idx"]),
    "getitem_idx": lambda L, d: d["x"][d["idx"]],
    "getitem_mask": lambda L, d: d["x"][d["m"]],
    "gather1": lambda L, d: d["x"].gather(1, d["gidx"]),
    "nonzero": lambda L, d: d["m"].nonzero(),
    "cat0": lambda L, d: L.cat([d["x"], d["y"]], 0),
    "cat1": lambda L, d: L.cat([d["x"], d["y"]], 1),
    "stack": lambda L, d: L.stack([d["x"], d["y"]]),
    "t_contiguous": lambda L, d: d["x"].t().contiguous(),
    "clone": lambda L, d: d["x"].clone(),
    "slice_contig": lambda L, d: d["x"][:, 1::2].contiguous(),
    "flip1": lambda L, d: d["x"].flip(1),
    "repeat": lambda L, d: d["x"][:64].repeat(4, 1),
    "expand_contig": lambda L, d: d["x"][:1].expand(R, C).contiguous(),
    "zeros": lambda L, d: L.zeros(R, C),
    "full": lambda L, d: L.full((R, C), 2.5),
    "arange": lambda L, d: L.arange(n),
    "zeros_like": lambda L, d: L.zeros_like(d["x"]),
    "one_hot": lambda L, d: L.nn.functional.one_hot(d["lab"], 10),
    "bincount": lambda L, d: L.bincount(d["lab"]),
    "unique": lambda L, d: L.unique(d["lab"]),
    "sign": lambda L, d: d["x"].sign(),
    "float_to_long": lambda L, d: d["x"].long(),
    "mse": lambda L, d: L.nn.functional.mse_loss(d["x"], d["y"]),
    "cross_entropy": lambda L, d: L.nn.functional.cross_entropy(d["x"][:, :10].contiguous(), d["lab"][:R]),
    "addcmul_": lambda L, d: d["x"].clone().addcmul_(d["x"], d["y"], value=0.1),
    "lerp": lambda L, d: L.lerp(d["x"], d["y"], 0.3),
    "matmul_vec": lambda L, d: d["x"] @ d["y"][0],
}

only = set(sys.argv[3].split(",")) if len(sys.argv) > 3 else None
dt, df = prep(torch), prep(fg)
res = []
for nm, f in CASES.items():
    if only and nm not in only:
        continue
    try:
        a = tm(lambda: f(torch, dt))
        b = tm(lambda: f(fg, df))
        res.append((a / b, nm, a, b))
    except Exception as e:  # a missing op is a finding too
        print("ERR", nm, type(e).__name__, str(e)[:100])
for r, nm, a, b in sorted(res):
    print(f"{nm:18s} torch {a:9.1f} us  ferrograd {b:9.1f} us  ratio {r:5.2f}")
