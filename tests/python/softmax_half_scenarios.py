"""float16 / bfloat16 softmax and log-softmax rows, run by tests/python/test_softmax_half.py
against PyTorch 2.13's results recorded by tools/record_softmax_half_goldens.py. Rows shorter
than, equal to and longer than a vector, and rows holding NaN and infinities; the last dim and
the first or a middle one (whose values depend on the thread count, as PyTorch's: recorded
at one and two threads). Results as the dtype's 16-bit patterns, base64."""

import base64

import numpy as np

SIZES = [1, 7, 16, 17, 33, 100, 1024]
DTYPES = ["bfloat16", "float16"]


def inputs(n):
    g = np.random.default_rng(n)
    x = (g.standard_normal((3, n)) * 4).astype(np.float32)
    x[1, n // 2] = np.nan
    x[2, 0] = np.inf
    return x


def bits(t):
    """The dtype's 16-bit patterns (from the float32 widening, which is exact), base64."""
    a = np.ascontiguousarray(t.float().numpy(), dtype=np.float32)
    u = (a.view(np.uint32) >> 16).astype(np.uint16) if "bfloat16" in str(t.dtype) else a.astype(np.float16).view(np.uint16)
    return base64.b64encode(u.tobytes()).decode()


def values(b, dtype):
    """`bits`' patterns back to float32."""
    u = np.frombuffer(base64.b64decode(b), dtype=np.uint16)
    return (u.astype(np.uint32) << 16).view(np.float32) if dtype == "bfloat16" else u.view(np.float16).astype(np.float32)


def run(lib):
    F = lib.nn.functional
    out = {}
    for name in DTYPES:
        dt = getattr(lib, name)
        for n in SIZES:
            x = lib.from_numpy(inputs(n)).to(dt)
            for op in ("softmax", "log_softmax"):
                out[f"{name} {op} {n}"] = bits(getattr(F, op)(x, -1))
                if n in (7, 1024):
                    out[f"{name} {op} {n} dim 0"] = bits(getattr(F, op)(x.t().contiguous(), 0))
            out[f"{name} all -inf row {n}"] = bits(F.softmax(lib.full((2, n), float("-inf")).to(dt), -1))
        # over the first of (7, 70) and (5, 4, 40): columns in ATen's vector runs and outside
        for shape in [(7, 70), (5, 4, 40)]:
            g = np.random.default_rng(len(shape))
            v = (g.standard_normal(shape) * 4).astype(np.float32)
            v.flat[3] = np.nan
            v.flat[100] = np.inf
            x = lib.from_numpy(v).to(dt)
            tag = "x".join(map(str, shape))
            for op in ("softmax", "log_softmax"):
                out[f"{name} {op} {tag} dim 0"] = bits(getattr(F, op)(x, 0))
                out[f"{name} {op} {tag} dim 1"] = bits(getattr(F, op)(x, 1))
    return out
