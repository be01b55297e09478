"""A map of the GPU surface, for the lent GPU machine: every case runs forward and backward on
CUDA and on the CPU and the two are compared; each case prints one PASS/FAIL line, so one run
shows everything that is missing or wrong (a failing case does not stop the others).

    python tools/gpu_smoke.py [--only SUBSTRING]

Also checks the device API (memory stats, out-of-memory, printing, errors) and DLPack with
PyTorch, CuPy and JAX where they are installed. The pytest suite's `cuda` parameter is the
gate; this is the survey that goes with it.
"""

import argparse
import sys
import traceback

import numpy as np

import ferrograd as torch
import ferrograd.nn as nn
import ferrograd.nn.functional as F

RESULTS = []
GPU = "cuda"  # --dry runs the cases with "cpu" on both sides, to check the survey itself


def report(name, ok, why=""):
    RESULTS.append((name, ok))
    print(("PASS " if ok else "FAIL ") + name + ("" if ok else ": " + why), flush=True)


def close(a, b, tol):
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    if a.shape != b.shape:
        return False, f"shape {a.shape} vs {b.shape}"
    if a.size == 0:
        return True, ""
    same_nan = np.isnan(a) == np.isnan(b)
    if not same_nan.all():
        return False, "nan pattern differs"
    err = np.nanmax(np.abs(a - b) / (np.abs(b) + 1.0)) if a.size else 0.0
    return (err <= tol), f"max rel err {err:.3g}"


def as_np(t):
    t = t.detach().cpu()
    if t.dtype in (torch.float16, torch.bfloat16):
        t = t.float()
    return t.numpy()


def check(name, fn, shapes, dtypes=("float32", "float64"), grad=True, tol=None, make=None, only=None):
    """Run fn on fresh inputs on both devices, compare outputs and input gradients."""
    if only and only not in name:
        return
    for dt in dtypes:
        label = f"{name}[{dt}]"
        try:
            rng = np.random.RandomState(0)
            arrays = [make(rng, s) if make else rng.randn(*s) for s in shapes]
            outs = {}
            for side, dev in (("cpu", "cpu"), ("cuda", GPU)):
                xs = [torch.tensor(a, dtype=getattr(torch, dt), device=dev) for a in arrays]
                if grad:
                    for x in xs:
                        x.requires_grad_(True)
                y = fn(*xs)
                ys = y if isinstance(y, (tuple, list)) else (y,)
                if dev == "cuda":
                    for t in ys:
                        if t.device.type != "cuda":
                            raise AssertionError(f"output on {t.device}")
                gs = []
                if grad:
                    w = [torch.tensor(np.random.RandomState(1).randn(*t.shape), dtype=t.dtype, device=dev) for t in ys if t.is_floating_point()]
                    s = sum((t * wi).sum() for t, wi in zip([t for t in ys if t.is_floating_point()], w))
                    s.backward()
                    for x in xs:
                        if x.grad is not None and dev == "cuda" and x.grad.device.type != "cuda":
                            raise AssertionError(f"grad on {x.grad.device}")
                        gs.append(None if x.grad is None else as_np(x.grad))
                outs[side] = ([as_np(t) for t in ys], gs)
            t = tol or (1e-4 if dt == "float32" else 1e-9) if dt in ("float32", "float64") else (tol or 2e-2)
            for a, b in zip(outs["cuda"][0], outs["cpu"][0]):
                ok, why = close(a, b, t)
                if not ok:
                    raise AssertionError("forward " + why)
            for k, (a, b) in enumerate(zip(outs["cuda"][1], outs["cpu"][1])):
                if (a is None) != (b is None):
                    raise AssertionError(f"grad {k} presence differs")
                if a is not None:
                    ok, why = close(a, b, max(t, 1e-6) * 10)
                    if not ok:
                        raise AssertionError(f"grad {k} " + why)
            report(label, True)
        except Exception as e:  # the survey goes on
            report(label, False, f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"[:300])


def pos(rng, s):
    return rng.rand(*s) + 0.5


def unit(rng, s):
    return rng.rand(*s) * 1.6 - 0.8


def cases(only):
    c = lambda *a, **k: check(*a, only=only, **k)  # noqa: E731
    # elementwise
    for name in ["exp", "sin", "cos", "tanh", "sigmoid", "relu", "neg", "abs", "erf", "sign", "floor", "expm1", "atan", "sinh", "cosh"]:
        c(name, lambda x, n=name: getattr(torch, n)(x), [(3, 5)])
    for name in ["log", "sqrt", "rsqrt", "log1p", "log2", "reciprocal", "lgamma", "digamma"]:
        c(name, lambda x, n=name: getattr(torch, n)(x), [(3, 5)], make=pos)
    for name in ["asin", "acos", "atanh"]:
        c(name, lambda x, n=name: getattr(torch, n)(x), [(4, 4)], make=unit)
    c("pow_scalar", lambda x: x ** 3, [(4, 5)])
    c("pow_tensor", lambda x, y: x ** y, [(4, 5), (4, 5)], make=pos)
    c("add", lambda x, y: x + y, [(4, 5), (4, 5)])
    c("add_broadcast", lambda x, y: x + y, [(4, 1), (1, 5)])
    c("sub_alpha", lambda x, y: torch.sub(x, y, alpha=2), [(4, 5), (5,)])
    c("mul_strided", lambda x, y: x.t() * y, [(5, 4), (4, 5)])
    c("div", lambda x, y: x / y, [(3, 4), (3, 4)], make=pos)
    c("maximum", torch.maximum, [(3, 4), (3, 4)])
    c("minimum", torch.minimum, [(3, 4), (3, 4)])
    c("atan2", torch.atan2, [(3, 4), (3, 4)])
    c("where", lambda x, y: torch.where(x > 0, x, y), [(3, 4), (3, 4)])
    c("clamp", lambda x: x.clamp(-0.5, 0.5), [(3, 4)])
    c("masked_fill", lambda x: x.masked_fill(x > 0, 0.0), [(3, 4)])
    c("lerp", lambda x, y: torch.lerp(x, y, 0.3), [(3, 4), (3, 4)])
    c("addcmul", lambda x, y, z: torch.addcmul(x, y, z, value=0.5), [(3, 4), (3, 4), (3, 4)])
    c("float16_add", lambda x, y: (x.half() + y.half()) * 2, [(8,), (8,)], dtypes=("float32",), grad=False)
    c("bfloat16_mul", lambda x, y: (x.bfloat16() * y.bfloat16()).float(), [(8,), (8,)], dtypes=("float32",), grad=False, tol=2e-2)
    c("half_matmul", lambda x, y: (x.half() @ y.half()).float(), [(16, 8), (8, 4)], dtypes=("float32",), grad=False, tol=2e-2)
    # activations and pointwise nn
    for name in ["gelu", "silu", "softplus", "elu", "leaky_relu", "hardtanh", "mish", "logsigmoid", "relu6", "selu"]:
        c("F." + name, lambda x, n=name: getattr(F, n)(x), [(4, 6)])
    # reductions
    c("sum", lambda x: x.sum(), [(64, 33)])
    c("sum_dim", lambda x: x.sum(dim=1, keepdim=True), [(5, 7, 3)])
    c("sum_dim0_big", lambda x: x.sum(0), [(1000, 17)])
    c("mean", lambda x: x.mean((0, 2)), [(5, 7, 3)])
    c("prod", lambda x: x.prod(1), [(4, 5)], make=pos)
    c("var", lambda x: x.var(1), [(4, 9)])
    c("std", lambda x: x.std(), [(4, 9)])
    c("norm", lambda x: x.norm(), [(4, 9)])
    c("max_dim", lambda x: x.max(1)[0], [(4, 9)])
    c("min_all", lambda x: x.min(), [(4, 9)])
    c("amax", lambda x: x.amax(0), [(4, 9)])
    c("argmax", lambda x: x.argmax(1), [(4, 9)], grad=False)
    c("logsumexp", lambda x: x.logsumexp(1), [(4, 9)])
    c("cumsum", lambda x: x.cumsum(1), [(4, 9)])
    c("cumprod", lambda x: x.cumprod(1), [(4, 9)], make=pos)
    c("sort", lambda x: x.sort(1)[0], [(4, 9)])
    c("topk", lambda x: x.topk(3, 1)[0], [(4, 9)])
    c("median", lambda x: x.median(1)[0], [(4, 9)])
    c("softmax", lambda x: x.softmax(1), [(6, 10)])
    c("log_softmax", lambda x: F.log_softmax(x, 0), [(6, 10)])
    c("softmax_wide", lambda x: x.softmax(-1), [(3, 5000)])
    # linear algebra
    c("mm", torch.mm, [(17, 33), (33, 9)])
    c("mm_big", torch.mm, [(256, 300), (300, 130)], tol=1e-3)
    c("mm_transposed", lambda x, y: x.t() @ y.t(), [(33, 17), (9, 33)])
    c("bmm", torch.bmm, [(3, 5, 7), (3, 7, 4)])
    c("matmul_broadcast", torch.matmul, [(2, 3, 5, 7), (7, 4)])
    c("matvec", torch.matmul, [(5, 7), (7,)])
    c("addmm", lambda b, x, y: torch.addmm(b, x, y), [(4,), (3, 5), (5, 4)])
    c("linear", F.linear, [(3, 5), (4, 5), (4,)])
    c("einsum", lambda x, y: torch.einsum("bij,bjk->bik", x, y), [(2, 3, 4), (2, 4, 5)])
    c("outer", torch.outer, [(4,), (5,)])
    # shape and copies
    c("cat", lambda x, y: torch.cat([x, y], 1), [(3, 4), (3, 2)])
    c("stack", lambda x, y: torch.stack([x, y]), [(3, 4), (3, 4)])
    c("split", lambda x: x.split(2, 1), [(3, 5)])
    c("permute_contig", lambda x: x.permute(2, 0, 1).contiguous() * 1, [(2, 3, 4)])
    c("expand", lambda x: x.expand(3, 4, 5) * 1, [(4, 1)])
    c("repeat", lambda x: x.repeat(2, 3), [(2, 3)])
    c("flip", lambda x: x.flip(0), [(3, 4)])
    c("roll", lambda x: x.roll(1, 1), [(3, 4)])
    c("tril", lambda x: x.tril(), [(4, 4)])
    c("pad", lambda x: F.pad(x, (1, 2)), [(3, 4)])
    c("to_double", lambda x: x.double() * 2, [(3, 4)], dtypes=("float32",))
    c("to_long", lambda x: (x * 10).long(), [(3, 4)], grad=False)
    # indexing
    idx = lambda dev: torch.tensor([2, 0, 2], device=dev)  # noqa: E731
    c("getitem_tensor", lambda x: x[idx(x.device)], [(4, 3)])
    c("getitem_mask", lambda x: x[x > 0], [(4, 3)])
    c("getitem_slice", lambda x: x[1:, ::2], [(4, 5)])
    c("index_select", lambda x: x.index_select(1, idx(x.device)), [(4, 3)])
    c("gather", lambda x: x.gather(1, torch.tensor([[0, 1], [2, 2], [1, 0]], device=x.device)), [(3, 3)])
    c("scatter_add", lambda x, s: x.scatter_add(0, torch.tensor([[0, 1, 2], [0, 1, 2]], device=x.device), s), [(3, 3), (2, 3)])
    c("index_add", lambda x, s: x.index_add(0, idx(x.device), s), [(4, 3), (3, 3)])
    c("index_put_accumulate", lambda x, v: x.index_put((idx(x.device),), v, accumulate=True), [(4, 3), (3, 3)])
    c("setitem", lambda x: _setitem(x), [(4, 3)])
    c("nonzero", lambda x: torch.nonzero(x > 0), [(4, 3)], grad=False)
    c("unique", lambda x: torch.unique((x * 2).round()), [(4, 3)], grad=False)
    c("embedding", lambda w: F.embedding(torch.tensor([[1, 3], [3, 0]], device=w.device), w), [(5, 4)])
    c("one_hot", lambda x: F.one_hot(torch.tensor([1, 3], device=x.device), 4).float() * x, [(2, 4)])
    # losses
    tgt = lambda dev: torch.tensor([1, 0, 3], device=dev)  # noqa: E731
    c("cross_entropy", lambda x: F.cross_entropy(x, tgt(x.device)), [(3, 5)])
    c("cross_entropy_none_smooth", lambda x: F.cross_entropy(x, tgt(x.device), reduction="none", label_smoothing=0.1), [(3, 5)])
    c("nll_loss", lambda x: F.nll_loss(F.log_softmax(x, 1), tgt(x.device)), [(3, 5)])
    c("mse_loss", F.mse_loss, [(3, 5), (3, 5)])
    c("l1_loss", F.l1_loss, [(3, 5), (3, 5)])
    c("smooth_l1", F.smooth_l1_loss, [(3, 5), (3, 5)])
    c("bce_logits", F.binary_cross_entropy_with_logits, [(3, 5), (3, 5)], make=lambda r, s: r.rand(*s))
    c("kl_div", lambda x, y: F.kl_div(F.log_softmax(x, 1), F.softmax(y, 1), reduction="batchmean"), [(3, 5), (3, 5)])
    # layers
    c("conv1d", lambda x, w, b: F.conv1d(x, w, b, padding=1), [(2, 3, 10), (4, 3, 3), (4,)])
    c("conv2d", lambda x, w, b: F.conv2d(x, w, b, stride=1, padding=1), [(2, 3, 8, 8), (4, 3, 3, 3), (4,)])
    c("conv2d_groups_stride", lambda x, w: F.conv2d(x, w, stride=2, groups=2, dilation=1), [(2, 4, 9, 9), (6, 2, 3, 3)])
    c("conv_transpose2d", lambda x, w: F.conv_transpose2d(x, w, stride=2), [(2, 3, 5, 5), (3, 2, 3, 3)])
    c("max_pool2d", lambda x: F.max_pool2d(x, 2), [(2, 3, 8, 8)])
    c("max_pool2d_3s1", lambda x: F.max_pool2d(x, 3, 1, 1), [(2, 3, 7, 7)])
    c("avg_pool2d", lambda x: F.avg_pool2d(x, 2), [(2, 3, 8, 8)])
    c("adaptive_avg_pool2d", lambda x: F.adaptive_avg_pool2d(x, (1, 1)), [(2, 3, 5, 5)])
    c("batch_norm_train", lambda x, w, b: F.batch_norm(x, None, None, w, b, training=True), [(4, 3, 5, 5), (3,), (3,)])
    c("layer_norm", lambda x, w, b: F.layer_norm(x, (6,), w, b), [(4, 6), (6,), (6,)])
    c("group_norm", lambda x: F.group_norm(x, 2), [(2, 4, 3, 3)])
    c("dropout_eval", lambda x: F.dropout(x, 0.5, training=False), [(4, 6)])
    c("sdpa", lambda q, k, v: F.scaled_dot_product_attention(q, k, v), [(2, 3, 5, 4), (2, 3, 6, 4), (2, 3, 6, 4)])
    c("interpolate_nearest", lambda x: F.interpolate(x, scale_factor=2), [(1, 2, 3, 3)])
    c("unfold", lambda x: F.unfold(x, 2), [(1, 2, 4, 4)])


def _setitem(x):
    y = x * 1
    y[1] = 0.5
    y[:, 0] = y[:, 1]
    return y


def modules(only):
    def mod_case(name, make_mod, shape, long_input=False):
        if only and only not in name:
            return
        try:
            torch.manual_seed(0)
            m_cpu = make_mod()
            m_gpu = make_mod()
            m_gpu.load_state_dict(m_cpu.state_dict())
            m_gpu = m_gpu.to(GPU)
            rng = np.random.RandomState(0)
            xin = rng.randint(0, 10, shape) if long_input else rng.randn(*shape)
            outs = []
            for m, dev in ((m_cpu, "cpu"), (m_gpu, GPU)):
                x = torch.tensor(xin, device=dev) if long_input else torch.tensor(xin, dtype=torch.float32, device=dev)
                y = m(x)
                y = y[0] if isinstance(y, tuple) else y
                y.pow(2).sum().backward()
                outs.append((as_np(y), [as_np(p.grad) for p in m.parameters() if p.grad is not None]))
                if dev == "cuda":
                    assert all(p.device.type == "cuda" for p in m.parameters())
            ok, why = close(outs[1][0], outs[0][0], 1e-4)
            assert ok, "forward " + why
            assert len(outs[0][1]) == len(outs[1][1]), "parameter grads differ in count"
            for k, (a, b) in enumerate(zip(outs[1][1], outs[0][1])):
                ok, why = close(a, b, 1e-3)
                assert ok, f"param grad {k} " + why
            report("module " + name, True)
        except Exception as e:
            report("module " + name, False, f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"[:300])

    mod_case("LSTM", lambda: nn.LSTM(4, 5, num_layers=2, batch_first=True), (2, 3, 4))
    mod_case("GRU", lambda: nn.GRU(4, 5), (3, 2, 4))
    mod_case("MultiheadAttention", lambda: _MHA(), (2, 5, 8))
    mod_case("TransformerEncoderLayer", lambda: nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0, batch_first=True), (2, 5, 8))
    mod_case("Embedding+Linear", lambda: nn.Sequential(nn.Embedding(10, 6), nn.Linear(6, 3)), (2, 4), long_input=True)
    mod_case("CNN", lambda: nn.Sequential(nn.Conv2d(1, 4, 3, padding=1), nn.BatchNorm2d(4), nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(), nn.Linear(4 * 4 * 4, 10)), (3, 1, 8, 8))


class _MHA(nn.Module):
    def __init__(self):
        super().__init__()
        self.att = nn.MultiheadAttention(8, 2, batch_first=True)

    def forward(self, x):
        return self.att(x, x, x)[0]


def api(only):
    def case(name, fn):
        if only and only not in name:
            return
        try:
            fn()
            report("api " + name, True)
        except Exception as e:
            report("api " + name, False, f"{type(e).__name__}: {e}"[:300] + "\n" + traceback.format_exc(limit=3)[-600:])

    def printing():
        t = torch.tensor([1.0, 2.0], device="cuda", requires_grad=True) * 2
        s = repr(t)
        assert s == "tensor([2., 4.], device='cuda:0', grad_fn=<MulBackward0>)", s
        assert str(torch.device("cuda")) == "cuda"

    def errors():
        t = torch.ones(2, device="cuda")
        try:
            t.numpy()
            raise AssertionError("numpy() of a cuda tensor did not raise")
        except TypeError as e:
            assert "can't convert cuda:0 device type tensor to numpy" in str(e), str(e)
        try:
            t + torch.ones(2)
            raise AssertionError("mixed devices did not raise")
        except RuntimeError as e:
            assert "Expected all tensors to be on the same device" in str(e), str(e)

    def memory():
        torch.cuda.empty_cache()
        base = torch.cuda.memory_allocated()
        x = torch.empty(1 << 20, device="cuda")
        assert torch.cuda.memory_allocated() - base >= 4 << 20, torch.cuda.memory_allocated()
        assert torch.cuda.max_memory_allocated() >= torch.cuda.memory_allocated()
        assert torch.cuda.memory_reserved() >= torch.cuda.memory_allocated()
        del x
        assert torch.cuda.memory_allocated() == base, (torch.cuda.memory_allocated(), base)
        torch.cuda.reset_peak_memory_stats()
        torch.cuda.empty_cache()

    def oom():
        try:
            torch.empty(1 << 45, device="cuda")
            raise AssertionError("no OutOfMemoryError")
        except torch.cuda.OutOfMemoryError as e:
            assert isinstance(e, RuntimeError)
            assert "CUDA out of memory. Tried to allocate" in str(e), str(e)
            print("    oom message:", str(e)[:240])
        y = torch.ones(10, device="cuda").sum().item()
        assert y == 10.0

    def random_streams():
        torch.manual_seed(3)
        a = torch.rand(1000, device="cuda")
        b = torch.randn(1000, device="cuda")
        torch.manual_seed(3)
        a2 = torch.rand(1000, device="cuda")
        assert torch.equal(a.cpu(), a2.cpu())
        assert 0.45 < a.mean().item() < 0.55 and abs(b.mean().item()) < 0.15 and 0.85 < b.std().item() < 1.15
        r = torch.randint(0, 7, (1000,), device="cuda")
        assert r.min().item() >= 0 and r.max().item() <= 6
        d = F.dropout(torch.ones(10000, device="cuda"), 0.3)
        assert 0.65 < (d > 0).float().mean().item() < 0.75
        m = torch.multinomial(torch.tensor([0.1, 0.9], device="cuda"), 100, replacement=True)
        assert m.device.type == "cuda"
        torch.cuda.manual_seed(1)
        torch.cuda.manual_seed_all(1)

    def factories_and_to():
        assert torch.zeros(2, 3, device="cuda").is_cuda
        assert torch.arange(5, device="cuda").tolist() == [0, 1, 2, 3, 4]
        assert torch.full((2,), 3.0, device="cuda:0").device == torch.device("cuda", 0)
        assert torch.eye(3, device="cuda").sum().item() == 3
        assert torch.linspace(0, 1, 5, device="cuda").cpu().tolist() == [0.0, 0.25, 0.5, 0.75, 1.0]
        x = torch.randn(3, 3)
        y = x.to("cuda", torch.float64, non_blocking=True)
        assert y.dtype == torch.float64 and y.is_cuda
        assert torch.equal(y.cpu().float(), x)
        assert torch.cuda.FloatTensor([1, 2]).is_cuda
        assert torch.cuda.LongTensor([1, 2]).dtype == torch.int64
        assert x.cuda().cpu().device.type == "cpu"
        big = torch.randn(1 << 22)
        assert torch.equal(big.cuda().cpu(), big)

    def device_api():
        assert torch.cuda.is_available() and torch.cuda.device_count() >= 1
        assert torch.cuda.current_device() == 0
        torch.cuda.set_device(0)
        assert "H100" in torch.cuda.get_device_name(0) or "H200" in torch.cuda.get_device_name(0) or torch.cuda.get_device_name(0)
        e0 = torch.cuda.Event(enable_timing=True)
        e1 = torch.cuda.Event(enable_timing=True)
        e0.record()
        torch.ones(1 << 20, device="cuda").sum()
        e1.record()
        torch.cuda.synchronize()
        assert e0.elapsed_time(e1) >= 0
        s = torch.cuda.current_stream()
        s.synchronize()
        assert torch.accelerator.is_available()
        assert str(torch.accelerator.current_accelerator()) == "cuda"
        assert torch.accelerator.device_count() >= 1
        torch.accelerator.synchronize()

    def autograd_features():
        x = torch.randn(4, device="cuda", requires_grad=True)
        seen = []
        x.register_hook(lambda g: seen.append(g.device.type))
        (x * x).sum().backward()
        assert seen == ["cuda"] and x.grad.is_cuda

        class Sq(torch.autograd.Function):
            @staticmethod
            def forward(ctx, a):
                ctx.save_for_backward(a)
                return a * a

            @staticmethod
            def backward(ctx, g):
                (a,) = ctx.saved_tensors
                return 2 * a * g

        y = torch.randn(5, device="cuda", requires_grad=True, dtype=torch.float64)
        assert torch.autograd.gradcheck(Sq.apply, (y,))
        z = torch.randn(3, device="cuda", dtype=torch.float64, requires_grad=True)
        assert torch.autograd.gradgradcheck(lambda t: (t.sin() * t).sum(), (z,))
        g, = torch.autograd.grad((z ** 3).sum(), z, create_graph=True)
        g.sum().backward()
        assert z.grad.is_cuda

    def training():
        torch.manual_seed(0)
        model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 2)).to("cuda")
        opt = torch.optim.Adam(model.parameters(), lr=1e-2)
        x = torch.randn(64, 10, device="cuda")
        y = (x[:, 0] > 0).long()
        for _ in range(100):
            opt.zero_grad()
            loss = F.cross_entropy(model(x), y)
            loss.backward()
            opt.step()
        assert loss.item() < 0.2, loss.item()

    def serialization():
        import io
        buf = io.BytesIO()
        t = torch.arange(4.0, device="cuda")
        torch.save({"t": t}, buf)
        buf.seek(0)
        back = torch.load(buf)
        assert back["t"].is_cuda and back["t"].cpu().tolist() == [0, 1, 2, 3]
        buf.seek(0)
        assert not torch.load(buf, map_location="cpu")["t"].is_cuda

    def dlpack_torch():
        import importlib
        import subprocess
        code = (
            "import ferrograd as fg, torch\n"
            "t = torch.arange(6., device='cuda').reshape(2,3)\n"
            "f = fg.from_dlpack(t)\n"
            "assert f.is_cuda and f.tolist() == t.tolist()\n"
            "f.add_(1); torch.cuda.synchronize(); assert t[0,0].item() == 1.0, 'not zero-copy'\n"
            "g = fg.ones(4, device='cuda') * 3\n"
            "u = torch.from_dlpack(g)\n"
            "assert u.is_cuda and u.tolist() == [3.,3.,3.,3.]\n"
            "u.add_(1); assert g.cpu().tolist() == [4.,4.,4.,4.], 'not zero-copy back'\n"
            "print('dlpack torch ok')\n"
        )
        p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
        assert p.returncode == 0, p.stderr[-800:]
        importlib.invalidate_caches()

    def dlpack_cupy():
        import cupy
        c = cupy.arange(5, dtype=cupy.float32)
        f = torch.from_dlpack(c)
        assert f.is_cuda and f.cpu().tolist() == [0, 1, 2, 3, 4]
        g = torch.ones(3, device="cuda") * 2
        c2 = cupy.from_dlpack(g)
        assert c2.tolist() == [2.0, 2.0, 2.0]

    def dlpack_jax():
        import jax
        import jax.numpy as jnp
        a = jnp.arange(4.0, dtype=jnp.float32)
        f = torch.from_dlpack(a)
        assert f.cpu().tolist() == [0, 1, 2, 3], f
        g = torch.ones(3, device="cuda") * 5
        j = jnp.from_dlpack(g)
        assert j.tolist() == [5.0, 5.0, 5.0], j
        assert "cuda" in str(j.devices()).lower() or "gpu" in str(j.devices()).lower()

    for name, fn in [("printing", printing), ("errors", errors), ("memory", memory), ("oom", oom),
                     ("random", random_streams), ("factories_to", factories_and_to), ("device_api", device_api),
                     ("autograd", autograd_features), ("training", training), ("serialization", serialization),
                     ("dlpack_torch", dlpack_torch), ("dlpack_cupy", dlpack_cupy), ("dlpack_jax", dlpack_jax)]:
        case(name, fn)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--only", default=None)
    ap.add_argument("--dry", action="store_true", help="cpu on both sides (checks the survey)")
    args = ap.parse_args()
    global GPU
    if args.dry:
        GPU = "cpu"
    elif not torch.cuda.is_available():
        print("no CUDA device")
        return 2
    if not args.dry:
        api(args.only)
    cases(args.only)
    modules(args.only)
    failed = [n for n, ok in RESULTS if not ok]
    print(f"{len(RESULTS) - len(failed)} passed, {len(failed)} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
