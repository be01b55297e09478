"""GPU benchmarks side by side: the same workloads for torch and ferrograd on one CUDA device
(the table of docs/gpu-validation.md).

    python benches/gpu_bench.py --lib torch,ferrograd [--rounds 5] [--device cuda:0]

Workloads: `a + b` and `exp(a)` on 64M float32 (GB/s moved), sum of 64M float32 (GB/s read),
matmul 4096² float32 (TFLOP/s), one MLP training step 784-256-256-10 at batch 128 with SGD
(steps/s). Each library runs in its own process, interleaved round by round; the median over
rounds is printed as JSON lines, then one summary line per case with the ratio.
"""

import argparse
import importlib
import json
import os
import statistics
import subprocess
import sys
import time


def timeit(fn, sync, reps):
    fn()
    sync()
    best = []
    for _ in range(reps):
        t = time.perf_counter()
        fn()
        sync()
        best.append(time.perf_counter() - t)
    return statistics.median(best)


def run(lib, device, matmul_only=False):
    torch = importlib.import_module(lib)
    dev = torch.device(device)
    sync = torch.cuda.synchronize
    out = {}
    if matmul_only:
        return matmul(torch, dev, sync, out)
    n = 64 * 1024 * 1024
    a = torch.rand(n, device=dev)
    b = torch.rand(n, device=dev)
    t = timeit(lambda: a + b, sync, 20)
    out["add_64M_GBps"] = 3 * 4 * n / t / 1e9
    t = timeit(lambda: a.exp(), sync, 20)
    out["exp_64M_GBps"] = 2 * 4 * n / t / 1e9
    t = timeit(lambda: a.sum(), sync, 20)
    out["sum_64M_GBps"] = 4 * n / t / 1e9
    matmul(torch, dev, sync, out)
    nn = importlib.import_module(lib + ".nn")
    F = importlib.import_module(lib + ".nn.functional")
    model = nn.Sequential(nn.Linear(784, 256), nn.ReLU(), nn.Linear(256, 256), nn.ReLU(), nn.Linear(256, 10)).to(dev)
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    xb = torch.rand(128, 784, device=dev)
    yb = torch.randint(0, 10, (128,), device=dev)

    def step():
        opt.zero_grad()
        F.cross_entropy(model(xb), yb).backward()
        opt.step()

    t = timeit(lambda: [step() for _ in range(20)], sync, 10)
    out["mlp_step_per_s"] = 20 / t
    out["device_name"] = torch.cuda.get_device_name(0)
    return out


def matmul(torch, dev, sync, out):
    m = 4096
    x = torch.rand(m, m, device=dev)
    y = torch.rand(m, m, device=dev)
    t = timeit(lambda: x @ y, sync, 10)
    out["matmul_4096_TFLOPs"] = 2 * m ** 3 / t / 1e12
    if hasattr(torch.cuda, "_matmul_backend"):
        out["matmul_backend"] = torch.cuda._matmul_backend()
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lib", default="torch,ferrograd")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--device", default="cuda:0")
    ap.add_argument("--child", default=None)
    ap.add_argument("--matmul-only", action="store_true")
    args = ap.parse_args()
    if args.child:
        print(json.dumps(run(args.child, args.device, args.matmul_only)))
        return
    libs = args.lib.split(",")
    results = {lib: [] for lib in libs}
    for r in range(args.rounds):
        for lib in libs:
            p = subprocess.run([sys.executable, __file__, "--child", lib, "--device", args.device], capture_output=True, text=True)
            if p.returncode != 0:
                print(json.dumps({"lib": lib, "round": r, "error": p.stderr[-2000:]}))
                continue
            res = json.loads(p.stdout.strip().splitlines()[-1])
            print(json.dumps({"lib": lib, "round": r, **res}))
            results[lib].append(res)
    if "ferrograd" in libs:
        # the PTX kernel, with cuBLAS switched off (FERROGRAD_CUBLAS=0)
        env = dict(os.environ, FERROGRAD_CUBLAS="0")
        p = subprocess.run([sys.executable, __file__, "--child", "ferrograd", "--device", args.device, "--matmul-only"],
                           capture_output=True, text=True, env=env)
        print(json.dumps({"lib": "ferrograd", "path": "ptx", **(json.loads(p.stdout.strip().splitlines()[-1]) if p.returncode == 0 else {"error": p.stderr[-2000:]})}))
    keys = [k for k in (results[libs[0]][0] if results[libs[0]] else {}) if k not in ("device_name", "matmul_backend")]
    for k in keys:
        med = {lib: statistics.median(x[k] for x in results[lib]) for lib in libs if results[lib]}
        line = {"summary": True, "case": k, **med}
        if len(med) == 2:
            line["ratio_" + libs[1] + "_over_" + libs[0]] = med[libs[1]] / med[libs[0]]
        print(json.dumps(line))


if __name__ == "__main__":
    main()
