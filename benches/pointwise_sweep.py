#!/usr/bin/env python3
"""Every float32 pointwise op side by side at one thread: ferrograd against PyTorch in one
interpreter (a venv with both, e.g. .venv-bench), sorted by ratio. A quick survey for misses,
not a benchmark of record (benches/toolbox_bench.py is: its `pointwise` and `unary` groups).

    python benches/pointwise_sweep.py 65536      # elements (65536: the operands stay in L2)

Ratio = PyTorch time / ferrograd time (> 1: ferrograd faster), best of 5 x 20 calls.
"""
import sys
import time

import numpy as np
import torch

import ferrograd as fg

torch.set_num_threads(1)
fg.set_num_threads(1)
n = int(sys.argv[1]) if len(sys.argv) > 1 else 65536
g = np.random.default_rng(0)
x = g.uniform(-3, 3, n).astype(np.float32); xp = np.abs(x) + 0.1; xu = x / 3.1
y = g.uniform(-3, 3, n).astype(np.float32)
def tm(f, k=20):
    f(); best = 1e9
    for _ in range(5):
        t = time.perf_counter()
        for _ in range(k): f()
        best = min(best, (time.perf_counter() - t) / k)
    return best * 1e6
cases = {}
for nm in "exp tanh sigmoid sin cos tan atan sinh cosh asinh atanh expm1 log1p exp2 erf erfc erfinv lgamma digamma abs neg floor round sign reciprocal rsqrt square".split():
    dom = xu if nm in ("atanh", "erfinv") else x
    cases[nm] = (lambda L, nm=nm: getattr(L, nm), dom)
for nm in "log log2 log10 sqrt acosh".split():
    cases[nm] = (lambda L, nm=nm: getattr(L, nm), xp + (1 if nm == "acosh" else 0))
for nm in "asin acos".split():
    cases[nm] = (lambda L, nm=nm: getattr(L, nm), xu)
cases["relu"] = (lambda L: L.relu, x)
cases["gelu"] = (lambda L: L.nn.functional.gelu, x)
cases["silu"] = (lambda L: L.nn.functional.silu, x)
cases["softplus"] = (lambda L: L.nn.functional.softplus, x)
cases["elu"] = (lambda L: L.nn.functional.elu, x)
cases["leaky_relu"] = (lambda L: L.nn.functional.leaky_relu, x)
cases["hardswish"] = (lambda L: L.nn.functional.hardswish, x)
cases["mish"] = (lambda L: L.nn.functional.mish, x)
cases["logsigmoid"] = (lambda L: L.nn.functional.logsigmoid, x)
cases["pow2.5"] = (lambda L: (lambda t: t ** 2.5), xp)
bin_cases = {"atan2": "atan2", "pow": "pow", "hypot": "hypot", "fmod": "fmod", "remainder": "remainder", "maximum": "maximum", "mul": "mul", "div": "div", "xlogy": "xlogy"}
res = []
for nm, (get, dom) in cases.items():
    try:
        T = torch.from_numpy(dom); F = fg.tensor(dom)
        a = tm(lambda: get(torch)(T)); b = tm(lambda: get(fg)(F))
        res.append((a / b, nm, a, b))
    except Exception as e:
        print("ERR", nm, type(e).__name__, e)
for nm, op in bin_cases.items():
    try:
        A = xp if nm in ("pow", "xlogy") else x
        T1, T2 = torch.from_numpy(A), torch.from_numpy(y); F1, F2 = fg.tensor(A), fg.tensor(y)
        a = tm(lambda: getattr(torch, op)(T1, T2)); b = tm(lambda: getattr(fg, op)(F1, F2))
        res.append((a / b, nm, a, b))
    except Exception as e:
        print("ERR", nm, type(e).__name__, e)
for r, nm, a, b in sorted(res):
    print(f"{nm:11s} ratio {r:6.2f}  torch {a:8.1f}  fg {b:8.1f} us")
