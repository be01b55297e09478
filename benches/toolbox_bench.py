#!/usr/bin/env python3
"""Side-by-side benchmark of the nn toolbox layers (and of large buffers, torch.linalg, the random fills and the view ops):
ferrograd against PyTorch.

Each library runs in its own subprocess, interleaved round by round (the machines are shared
and noisy; only ratios taken in one run compare). Data come from a seeded numpy generator, so
both libraries see the same inputs; each case also reports a check value (a loss or an output
sum) to compare.

    python benches/toolbox_bench.py --lib torch,ferrograd --threads 1,2 --rounds 3
    python benches/toolbox_bench.py --lib ferrograd --threads 1 --only conv,cnn   # one library

Output: one JSON line per (library, threads, round, case) on stdout, then a summary table:
median time per call over rounds and the ratio PyTorch time / ferrograd time (> 1: ferrograd
faster). A case whose API is missing reports an error instead of stopping the run.
"""
import argparse
import importlib
import json
import statistics
import subprocess
import sys
import time

CASES = ["conv", "pool", "bn", "ln", "emb", "lstm", "cnn", "big", "linalg", "rng", "views", "attn", "grid", "half", "rows", "pool3d", "update", "copies", "unary", "pointwise"]


def measure(fn, budget=0.8, lo=3, hi=50):
    """Median and min seconds of `fn` over repeats filling about `budget` seconds."""
    fn()
    t0 = time.perf_counter()
    fn()
    first = time.perf_counter() - t0
    reps = int(min(hi, max(lo, budget / max(first, 1e-9))))
    ts = []
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        ts.append(time.perf_counter() - t0)
    return statistics.median(ts), min(ts), reps


def workloads(T, np):
    F = T.nn.functional
    g = np.random.default_rng(0)

    def t(shape, rg=False, scale=1.0):
        x = T.from_numpy((g.standard_normal(shape) * scale).astype(np.float32))
        return x.requires_grad_() if rg else x

    def fwd_bwd(f, params):
        def run():
            for p in params:
                p.grad = None
            out = f()
            out.sum().backward()
            return out
        return run

    def conv_cases():
        for cin in (3, 64):
            x = t((64, cin, 32, 32), rg=True)
            w = t((64, cin, 3, 3), rg=True, scale=0.1)
            b = t((64,), rg=True)
            flops = 2 * 64 * 64 * cin * 9 * 32 * 32
            yield f"conv2d {cin}->64 fwd", (lambda x=x, w=w, b=b: F.conv2d(x.detach(), w.detach(), b.detach(), padding=1)), flops
            yield f"conv2d {cin}->64 fwd+bwd", fwd_bwd(lambda x=x, w=w, b=b: F.conv2d(x, w, b, padding=1), [x, w, b]), 3 * flops

    def pool_cases():
        x = t((64, 64, 32, 32), rg=True)
        yield "max_pool2d 2x2 fwd", (lambda: F.max_pool2d(x.detach(), 2)), None
        yield "max_pool2d 2x2 fwd+bwd", fwd_bwd(lambda: F.max_pool2d(x, 2), [x]), None

    def bn_cases():
        x = t((64, 64, 32, 32), rg=True)
        w, b = t((64,), rg=True), t((64,), rg=True)
        rm, rv = T.zeros(64), T.ones(64)
        yield "batch_norm train fwd", (lambda: F.batch_norm(x.detach(), rm, rv, w.detach(), b.detach(), training=True)), None
        yield "batch_norm train fwd+bwd", fwd_bwd(lambda: F.batch_norm(x, rm, rv, w, b, training=True), [x, w, b]), None

    def ln_cases():
        x = t((64, 128, 512), rg=True)
        w, b = t((512,), rg=True), t((512,), rg=True)
        yield "layer_norm fwd", (lambda: F.layer_norm(x.detach(), (512,), w.detach(), b.detach())), None
        yield "layer_norm fwd+bwd", fwd_bwd(lambda: F.layer_norm(x, (512,), w, b), [x, w, b]), None

    def emb_cases():
        table = t((10000, 256), rg=True)
        idx = T.from_numpy(g.integers(0, 10000, (64, 128)).astype(np.int64))
        yield "embedding fwd", (lambda: F.embedding(idx, table.detach())), None
        yield "embedding fwd+bwd", fwd_bwd(lambda: F.embedding(idx, table), [table]), None

    def lstm_cases():
        T.manual_seed(0)
        lstm = T.nn.LSTM(256, 512, batch_first=True)
        x = t((32, 16, 256))
        params = list(lstm.parameters())

        def fwd():
            with T.no_grad():
                return lstm(x)[0]
        yield "LSTM 256->512, 32x16 fwd", fwd, None
        yield "LSTM 256->512, 32x16 fwd+bwd", fwd_bwd(lambda: lstm(x)[0], params), None

    def cnn_cases():
        nn = T.nn
        T.manual_seed(0)
        model = nn.Sequential(
            nn.Conv2d(1, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(32, 64, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Flatten(), nn.Linear(64 * 7 * 7, 128), nn.ReLU(), nn.Linear(128, 10))
        opt = T.optim.SGD(model.parameters(), lr=0.01)
        x = t((64, 1, 28, 28))
        y = T.from_numpy(g.integers(0, 10, 64).astype(np.int64))

        def step():
            opt.zero_grad()
            loss = F.cross_entropy(model(x), y)
            loss.backward()
            opt.step()
            return loss
        yield "small CNN train step, batch 64, 28x28", step, None

    def big_cases():
        # a 64 MiB tensor each library allocated itself (from_numpy would share NumPy's
        # buffer, which NumPy already backs with huge pages)
        a = t((1 << 24,)).clone()
        out = a.clone()
        yield "sum of a 16M tensor the library made", lambda: a.sum(), None
        yield "exp(a, out=) 16M, library buffers", lambda: T.exp(a, out=out), None

    def linalg_cases():
        la = T.linalg
        def spd(n):
            m = t((n, n))
            return m @ m.mT + n * T.eye(n)

        a64, a256, s256, s512 = t((64, 64)), t((256, 256)), spd(256), spd(512)
        rhs = t((256, 16))
        batch = t((512, 4, 4))
        pts1, pts2 = t((256, 32)), t((256, 32))
        yield "inv 64x64", lambda: la.inv(a64), None
        yield "solve 256x256, 16 rhs", lambda: la.solve(a256, rhs), None
        yield "det of 512 4x4", lambda: la.det(batch), None
        yield "cholesky 256x256", lambda: la.cholesky(s256), None
        yield "qr 256x256", lambda: la.qr(a256), None
        yield "eigh 64x64", lambda: la.eigh(spd(64)), None
        yield "svd 64x64", lambda: la.svd(a64), None
        a64r = t((64, 64), rg=True)
        yield "inv 64x64 fwd+bwd", fwd_bwd(lambda: la.inv(a64r), [a64r]), None
        yield "cdist 256x256, 32 dims (p=2, mm path)", lambda: T.cdist(pts1, pts2), None
        yield "cdist 256x256, 32 dims, p=1", lambda: T.cdist(pts1, pts2, p=1), None
        a512, rhs512 = t((512, 512)), t((512, 16))
        yield "solve 512x512, 16 rhs", lambda: la.solve(a512, rhs512), None
        yield "cholesky 512x512", lambda: la.cholesky(s512), None
        a128, w64 = t((128, 128)), t((64, 160))
        yield "svdvals 64x64", lambda: la.svdvals(a64), None
        yield "svd 128x128", lambda: la.svd(a128), None
        yield "svd 64x160, thin", lambda: la.svd(w64, full_matrices=False), None
        pts3 = t((512, 32))
        yield "pdist 512 points, 32 dims", lambda: T.pdist(pts3), None
        yield "pdist 512 points, p=1", lambda: T.pdist(pts3, p=1), None

    def rng_cases():
        # the generator's own streams (both libraries draw the same values from a seed)
        n = 1 << 22
        x, p = T.empty(n), T.full((n,), 0.5)
        T.manual_seed(0)
        yield "randn 4M", lambda: T.randn(n), None
        yield "rand 4M", lambda: T.rand(n), None
        yield "normal_ 4M", lambda: x.normal_(), None
        yield "uniform_ 4M", lambda: x.uniform_(-1, 1), None
        yield "randint 4M in [0, 10)", lambda: T.randint(0, 10, (n,)), None
        yield "randperm 1M", lambda: T.randperm(1 << 20), None
        yield "bernoulli of 4M probabilities", lambda: T.bernoulli(p), None
        yield "bernoulli_(0.5) 4M", lambda: x.bernoulli_(0.5), None
        yield "randn(64)", lambda: T.randn(64), None
        yield "nn.Linear(256, 256) init", lambda: T.nn.Linear(256, 256), None

    def view_cases():
        # the per-call cost of the view ops (1000 calls a repeat; ms per repeat = µs per call)
        for rg in (False, True):
            x = t((8, 16), rg=rg)
            tag = ", requires_grad" if rg else ""
            for name, f in (("x[1]", lambda x: x[1]), ("x[:, 2:5]", lambda x: x[:, 2:5]),
                            ("x.view(16, 8)", lambda x: x.view(16, 8)), ("x.transpose(0, 1)", lambda x: x.transpose(0, 1))):
                def run(f=f, x=x):
                    for _ in range(1000):
                        out = f(x)
                    return out
                yield f"{name} x1000{tag}", run, None

    def attn_cases():
        # scaled dot-product attention over (batch 8, 8 heads, 128 positions, 64 dims): PyTorch's
        # CPU flash kernel and ferrograd's (one node each)
        q, k, v = (t((8, 8, 128, 64), rg=True) for _ in range(3))
        yield "sdpa 8x8x128x64 fwd", lambda: F.scaled_dot_product_attention(q.detach(), k.detach(), v.detach()), None
        yield "sdpa 8x8x128x64 fwd+bwd", fwd_bwd(lambda: F.scaled_dot_product_attention(q, k, v), [q, k, v]), None
        yield "sdpa causal fwd+bwd", fwd_bwd(lambda: F.scaled_dot_product_attention(q, k, v, is_causal=True), [q, k, v]), None
        s = t((8, 8, 128, 128))
        yield "logsumexp 8x8x128x128", lambda: T.logsumexp(s, -1), None
        # a transformer encoder layer's training step (16 sequences of 128 tokens, width 256,
        # 8 heads, feed-forward 1024): self-attention on the flash path, four linear layers
        T.manual_seed(0)
        layer = T.nn.TransformerEncoderLayer(256, 8, dim_feedforward=1024, dropout=0.0, batch_first=True)
        xe = t((16, 128, 256))
        yield "encoder layer 16x128x256 fwd+bwd", fwd_bwd(lambda: layer(xe), list(layer.parameters())), None

    def grid_cases():
        # a spatial transformer's sampler: 64 MNIST-sized images, and 32 channels of 32x32
        rg = np.random.default_rng(1)
        for shape in [(64, 1, 28, 28), (16, 32, 32, 32)]:
            x = t(shape, rg=True)
            gr = T.from_numpy((rg.random((shape[0], shape[2], shape[3], 2)) * 2 - 1).astype(np.float32)).requires_grad_()
            name = "x".join(map(str, shape))
            for mode in ("bilinear", "bicubic"):
                yield f"grid_sample {mode} {name} fwd", lambda x=x, gr=gr, mode=mode: F.grid_sample(
                    x.detach(), gr.detach(), mode=mode, align_corners=False), None
                yield f"grid_sample {mode} {name} fwd+bwd", fwd_bwd(lambda x=x, gr=gr, mode=mode: F.grid_sample(
                    x, gr, mode=mode, align_corners=False), [x, gr]), None

    def half_cases():
        # bfloat16 activations and layers (computed in float32, rounded as ATen does) and
        # lerp with a number weight (the EMA update; ATen's fused multiply-add)
        a, b = t((1_000_000,)), t((1_000_000,))
        yield "lerp float32 1M w=0.3", lambda: T.lerp(a, b, 0.3), None
        h = t((256, 1024)).to(T.bfloat16)
        w = t((1024,)).to(T.bfloat16)
        yield "gelu bf16 256x1024", lambda: F.gelu(h), None
        yield "silu bf16 256x1024", lambda: F.silu(h), None
        yield "sigmoid bf16 256x1024", lambda: T.sigmoid(h), None
        yield "softmax bf16 256x1024", lambda: F.softmax(h, -1), None
        yield "log_softmax bf16 256x1024", lambda: F.log_softmax(h, -1), None
        yield "layer_norm bf16 256x1024", lambda: F.layer_norm(h, (1024,), w, w), None
        # the float32 activations with ATen's kernels (GELU's A&S erf, Sleef's exp)
        f = t((256, 1024))
        yield "gelu f32 256x1024", lambda: F.gelu(f), None
        yield "gelu tanh f32 256x1024", lambda: F.gelu(f, approximate="tanh"), None
        yield "silu f32 256x1024", lambda: F.silu(f), None
        yield "softmax f32 256x1024", lambda: F.softmax(f, -1), None
        fg = t((256, 1024), rg=True)
        yield "gelu f32 fwd+bwd 256x1024", fwd_bwd(lambda: F.gelu(fg), [fg]), None

    def row_cases():
        # sorts, extremes, reductions over leading / transposed dims, log, simple elementwise
        # loops, cat (a (256, 1024) float32 matrix)
        f = t((256, 1024))
        ft = t((1024, 256)).t()
        pos = f.abs() + 0.1
        yield "sort f32 256x1024 dim=-1", lambda: f.sort(-1), None
        yield "max(dim=-1) values+indices", lambda: f.max(-1), None
        yield "argmax(dim=-1)", lambda: f.argmax(-1), None
        yield "amax(dim=0)", lambda: f.amax(0), None
        yield "sum(dim=0)", lambda: f.sum(0), None
        yield "sum(-1) of a transpose", lambda: ft.sum(-1), None
        yield "log f32", lambda: T.log(pos), None
        yield "relu f32", lambda: T.relu(f), None
        yield "abs f32", lambda: f.abs(), None
        yield "x * 2 + 1 (two ops)", lambda: f * 2 + 1, None
        yield "cat two along dim 0", lambda: T.cat([f, f], 0), None

    def pool3d_cases():
        # volumetric pooling (video / medical models): max, average and fractional max over
        # (8, 32, 16, 32, 32) float32
        x = t((8, 32, 16, 32, 32), rg=True)
        yield "max_pool3d 2 fwd", lambda: F.max_pool3d(x.detach(), 2), None
        yield "max_pool3d 2 fwd+bwd", fwd_bwd(lambda: F.max_pool3d(x, 2), [x]), None
        yield "max_pool3d 3 s2 p1 fwd", lambda: F.max_pool3d(x.detach(), 3, 2, 1), None
        yield "avg_pool3d 2 fwd", lambda: F.avg_pool3d(x.detach(), 2), None
        yield "avg_pool3d 2 fwd+bwd", fwd_bwd(lambda: F.avg_pool3d(x, 2), [x]), None
        yield "avg_pool3d 3 s2 p1 fwd", lambda: F.avg_pool3d(x.detach(), 3, 2, 1), None
        samples = T.from_numpy(g.random((8, 32, 3)).astype(np.float32))
        yield "fractional_max_pool3d 2 out 8 fwd+bwd", fwd_bwd(lambda: F.fractional_max_pool3d(
            x, 2, output_size=(8, 16, 16), _random_samples=samples), [x]), None
        s2 = T.from_numpy(g.random((8, 32, 2)).astype(np.float32))
        x2 = t((8, 32, 64, 64), rg=True)
        yield "fractional_max_pool2d 2 out 32 fwd+bwd", fwd_bwd(lambda: F.fractional_max_pool2d(
            x2, 2, output_size=(32, 32), _random_samples=s2), [x2]), None

    def copy_cases():
        # what a multi-head attention layer does between its products: copy_ into a slice of
        # the last dim, the gradients of three slices of a packed projection, a bias add
        g, big = t((16, 128, 256)), T.zeros(16, 128, 768)
        part = big[..., 256:512]
        yield "copy_ into a last-dim slice 16x128x256", lambda: part.copy_(g), None
        src, dst = t((8, 128, 768)), T.zeros(8, 128, 768)
        yield "copy_ contiguous 8x128x768", lambda: dst.copy_(src), None
        p = t((16, 128, 768), rg=True)
        gs = (g, g, g)
        yield "3 slice gradients of 16x128x768", lambda: T.autograd.grad(
            (p.narrow(-1, 0, 256), p.narrow(-1, 256, 256), p.narrow(-1, 512, 256)), (p,), gs), None
        y, b = t((2048, 768)), t((768,))
        yield "bias add 2048x768 + 768", lambda: y + b, None

    def update_cases():
        # an optimizer-style update and the out= forms on a (784, 256) parameter, the empty
        # factory, and sums over the leading dim (a Linear layer's bias gradient)
        w, gw, o = t((784, 256)), t((784, 256)), t((784, 256))
        yield "mul(G, 0.01, out=O) 784x256", lambda: T.mul(gw, 0.01, out=o), None
        yield "W.add_(G, alpha=-0.01) 784x256", lambda: w.add_(gw, alpha=-0.01), None
        yield "0.01 * G 784x256", lambda: 0.01 * gw, None
        yield "empty(784, 256)", lambda: T.empty(784, 256), None
        for shape in ((128, 256), (256, 1024), (4096, 4096)):
            x = t(shape)
            yield f"sum(0) of {shape[0]}x{shape[1]}", lambda x=x: x.sum(0), None

    def unary_cases():
        # float32 transcendental functions over 1M elements (fresh output and out=), pow with a
        # scalar exponent, and the out= form of a cheap op
        g = np.random.default_rng(5)
        x = T.from_numpy((g.random(1 << 20, dtype=np.float32) * 1.8 - 0.9))
        pos = x.abs() + 0.1
        o = T.empty_like(x)
        for name in ("sin", "cos", "tan", "atan", "asin", "sinh", "tanh", "log1p", "expm1", "exp2", "atanh", "asinh"):
            f = getattr(T, name)
            yield f"{name} f32 1M", lambda f=f: f(x), None
        yield "sin(out=) f32 1M", lambda: T.sin(x, out=o), None
        yield "sqrt(out=) f32 1M", lambda: T.sqrt(pos, out=o), None
        yield "log f32 1M", lambda: T.log(pos), None
        yield "x ** 2.5 f32 1M", lambda: pos ** 2.5, None
        yield "x ** 0.5 f32 1M", lambda: pos ** 0.5, None

    def pointwise_cases():
        # the special functions, two-argument kernels and activations that had no vector kernel
        # or ran as composites (twenty-eighth session), over 1M float32
        g = np.random.default_rng(6)
        x = T.from_numpy((g.random(1 << 20, dtype=np.float32) * 6 - 3))
        y = T.from_numpy((g.random(1 << 20, dtype=np.float32) * 6 - 3))
        u = x / 3.1
        F = T.nn.functional
        for name in ("erf", "erfc", "round"):
            f = getattr(T, name)
            yield f"{name} f32 1M", lambda f=f: f(x), None
        yield "erfinv f32 1M", lambda: T.erfinv(u), None
        yield "atan2 f32 1M", lambda: T.atan2(x, y), None
        yield "fmod f32 1M", lambda: T.fmod(x, y), None
        yield "x % 0.7 f32 1M", lambda: x % 0.7, None
        for name in ("leaky_relu", "hardswish", "hardsigmoid", "elu", "selu", "softplus", "mish"):
            f = getattr(F, name)
            yield f"{name} f32 1M", lambda f=f: f(x), None

    return {"pointwise": pointwise_cases, "unary": unary_cases, "copies": copy_cases, "update": update_cases, "pool3d": pool3d_cases, "rows": row_cases, "half": half_cases, "grid": grid_cases, "attn": attn_cases, "views": view_cases, "conv": conv_cases, "pool": pool_cases, "bn": bn_cases, "ln": ln_cases,
            "emb": emb_cases, "lstm": lstm_cases, "cnn": cnn_cases, "big": big_cases, "linalg": linalg_cases, "rng": rng_cases}


def check_value(out):
    try:
        v = out.sum() if hasattr(out, "sum") else out
        return float(v.item() if hasattr(v, "item") else v)
    except Exception:  # noqa: BLE001
        return None


def run_single(args):
    import numpy as np
    T = importlib.import_module(args.lib)
    T.set_num_threads(int(args.threads))
    groups = workloads(T, np)
    for key in args.only:
        try:
            cases = list(groups[key]())
        except Exception as e:  # noqa: BLE001
            print(json.dumps({"lib": args.lib, "threads": int(args.threads), "round": args.round,
                              "group": key, "error": f"{type(e).__name__}: {e}"}), flush=True)
            continue
        for name, fn, flops in cases:
            rec = {"lib": args.lib, "threads": int(args.threads), "round": args.round, "case": name}
            try:
                med, best, reps = measure(fn)
                rec.update(median_s=med, min_s=best, reps=reps, ms=round(med * 1e3, 4),
                           check=check_value(fn()))
                if flops:
                    rec["gflops"] = round(flops / med / 1e9, 2)
            except Exception as e:  # noqa: BLE001
                rec["error"] = f"{type(e).__name__}: {e}"
            print(json.dumps(rec), flush=True)


def summarize(records, libs):
    by = {}
    for r in records:
        if "case" in r and "median_s" in r:
            by.setdefault((r["case"], r["threads"]), {}).setdefault(r["lib"], []).append(r["median_s"])
    print(f"\n{'case':40} {'thr':>3} " + " ".join(f"{lib + ' ms':>14}" for lib in libs) + "   torch/ferrograd")
    for (case, th), v in by.items():
        meds = {lib: statistics.median(v[lib]) for lib in v}
        ratio = meds["torch"] / meds["ferrograd"] if "torch" in meds and "ferrograd" in meds else None
        cols = " ".join(f"{meds[lib] * 1e3:14.3f}" if lib in meds else f"{'-':>14}" for lib in libs)
        print(f"{case:40} {th:>3} {cols}   {'' if ratio is None else f'{ratio:.2f}'}")
    for r in records:
        if "error" in r:
            print(f"error: {r['lib']} threads={r['threads']} {r.get('case', r.get('group'))}: {r['error']}")


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--lib", default="torch,ferrograd")
    p.add_argument("--threads", default="1")
    p.add_argument("--rounds", type=int, default=1)
    p.add_argument("--only", default=",".join(CASES))
    p.add_argument("--out", default=None, help="also write the JSON lines to this file")
    p.add_argument("--round", type=int, default=None, help=argparse.SUPPRESS)
    args = p.parse_args()
    args.only = [k for k in args.only.split(",") if k]
    for k in args.only:
        if k not in CASES:
            p.error(f"unknown case group {k!r} (choose from {','.join(CASES)})")
    libs = [x for x in args.lib.split(",") if x]
    if args.round is not None:
        return run_single(args)
    records = []
    out = open(args.out, "w") if args.out else None
    for r in range(args.rounds):
        for th in args.threads.split(","):
            for lib in libs:
                cmd = [sys.executable, __file__, "--lib", lib, "--threads", th, "--only", ",".join(args.only),
                       "--round", str(r)]
                res = subprocess.run(cmd, stdout=subprocess.PIPE, text=True)
                for line in res.stdout.splitlines():
                    print(line, flush=True)
                    if out:
                        out.write(line + "\n")
                    try:
                        records.append(json.loads(line))
                    except ValueError:
                        pass
    if out:
        out.close()
    summarize(records, libs)


if __name__ == "__main__":
    sys.exit(main())
