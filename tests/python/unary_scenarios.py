"""Scenarios for tests/python/test_unary_kernels.py, run with PyTorch by
tools/record_unary_goldens.py (goldens in fixtures/unary_kernels.json) and with ferrograd by the
test. Values travel as the bits of their float32/float64 (exact); half types are widened to float32.
"""

import math

import numpy as np

SPECIALS = [-0.0, 0.0, float("-inf"), float("inf"), float("nan"), 1.1, -1.3, 0.7, 3.3, 1e-30, -2.0, 65000.0,
            0.5, 4.0, -4.0, 1e-5, 123.456, -7.25]
EXPONENTS = [0.5, -0.5, -1.0, 2.0, 3.0, -2.0, 2.5, 1.5, 0.0, 1.0, -3.0, 0.1]
POW_DTYPES = ["float32", "float64", "bfloat16", "float16"]
KERNELS = ["sin", "cos", "tan", "atan", "log1p", "expm1", "asin", "acos", "sinh", "cosh", "exp2", "atanh", "asinh", "acosh",
           "erf", "erfc"]
HALF_KERNELS = ["sin", "cos", "atan", "log1p", "expm1"]
# PyTorch's own algorithms ported step for step: the same bits (lgamma: Sleef's lgammaf_u1;
# digamma: ATen's calc_digamma, float and double)
EXACT_KERNELS = ["lgamma", "digamma"]


def tiled(n=64):
    """The specials repeated to `n` elements (long enough for any vector body)."""
    return [SPECIALS[i % len(SPECIALS)] for i in range(n)]


def sweep():
    """float32 arguments for the transcendental kernels: specials, a wide log-spaced range of
    both signs, the neighbourhoods of multiples of pi/2, arguments near -1 for log1p and large
    trig arguments (past the vector reduction's range)."""
    xs = list(SPECIALS)
    mags = np.logspace(-40, 38, 700).astype(np.float32)
    xs += [float(v) for v in mags] + [-float(v) for v in mags]
    xs += [float(v) for v in np.linspace(-20, 20, 801).astype(np.float32)]
    for k in range(1, 200, 7):
        c = np.float32(k * math.pi / 2)
        xs += [float(np.nextafter(c, np.float32(0))), float(c), float(np.nextafter(c, np.float32(1e9)))]
    xs += [-1.0, float(np.nextafter(np.float32(-1), np.float32(0))), -0.999, -1.5, 88.0, 88.7, 89.0, -87.0, -104.0,
           823549.0, 823550.0, 1e6, -3.0e7, 1.0e30]
    return xs


def gamma_sweep():
    """float32 arguments for lgamma/digamma: `sweep()` plus the poles' neighbourhoods (the
    negative integers and half-integers, and between them), small and large arguments."""
    xs = sweep()
    xs += [float(v) for v in np.linspace(-12, 12, 2401).astype(np.float32)]
    for k in range(0, 40):
        c = np.float32(-k)
        xs += [float(np.nextafter(c, np.float32(-1e9))), float(np.nextafter(c, np.float32(1e9))), -k - 0.5]
    xs += [1e-38, 1e-45, 2.3, 7.0, 1.2, 0.5, 4e36, 1e37, 3.4e38, -8388607.5, -16777216.0, 1e17, 9.99, 10.0, 10.01]
    return xs


CAST_DTYPES = ["float32", "float64", "int64", "int32", "int16", "int8", "uint8", "bool"]


def cast_sources():
    """Values per source dtype for the casts: floats with the specials, halves, the integer
    types' edges and values past them (x86's truncations: NaN and out-of-range to the minimum)."""
    g = np.random.default_rng(11)
    fl = [0.0, -0.0, 0.5, -0.5, 0.99, -0.99, 1.5, -1.5, 127.9, 128.0, -128.5, 255.9, 256.0, 300.7, -129.2,
          32767.5, 32768.0, -32769.0, 2.0 ** 31, -2.0 ** 31, 2.0 ** 31 - 128, 2.0 ** 32 + 5, 2.0 ** 62, 2.0 ** 63,
          -2.0 ** 63, 2.0 ** 64, 1e30, -1e30, float("nan"), float("inf"), float("-inf"), 1e-40, 16777217.0]
    fl += [float(v) for v in g.standard_normal(40) * 1e3]
    src = {"float32": fl, "float64": fl + [2.0 ** 53 + 1, 9007199254740993.0, 1e300]}
    for dt, (lo, hi) in {"int64": (-2 ** 63, 2 ** 63 - 1), "int32": (-2 ** 31, 2 ** 31 - 1), "int16": (-2 ** 15, 2 ** 15 - 1),
                         "int8": (-128, 127), "uint8": (0, 255)}.items():
        vals = [lo, hi, 0, 1, lo + 1, hi - 1] + [int(v) for v in g.integers(lo, hi, 40, endpoint=True)]
        if dt == "int64":
            vals += [2 ** 53 + 1, 2 ** 60 + 2 ** 36 + 1, -(2 ** 62) - 3, 2 ** 24 + 1, 16777217 * 3]
        src[dt] = vals
    src["bool"] = [True, False, True, True, False]
    return src


def cast_values(t, dtype):
    return bits(t, dtype) if dtype in ("float32", "float64") else [int(v) for v in t.tolist()]


def bits(t, dtype):
    v = np.asarray(t.detach().float().tolist() if dtype in ("bfloat16", "float16") else t.detach().tolist(),
                   dtype=np.float64 if dtype == "float64" else np.float32)
    return v.view(np.int64 if dtype == "float64" else np.int32).tolist()


def run(torch):
    out = {}
    for dt in POW_DTYPES:
        x = torch.tensor(tiled(), dtype=getattr(torch, dt))
        for p in EXPONENTS:
            out[f"pow/{dt}/{p}"] = bits(x ** p, dt)
    x = torch.tensor(sweep(), dtype=torch.float32)
    for name in KERNELS:
        out[f"f32/{name}"] = bits(getattr(torch, name)(x), "float32")
    for src, vals in cast_sources().items():
        xc = torch.tensor(vals, dtype=getattr(torch, src))
        for dst in CAST_DTYPES:
            out[f"cast/{src}/{dst}"] = cast_values(xc.to(getattr(torch, dst)), dst)
    xg = torch.tensor(gamma_sweep(), dtype=torch.float32)
    for name in EXACT_KERNELS:
        out[f"exact/float32/{name}"] = bits(getattr(torch, name)(xg), "float32")
    out["exact/float64/digamma"] = bits(torch.digamma(xg.double() * 1.0000001), "float64")
    for dt in ("bfloat16", "float16"):
        for name in EXACT_KERNELS:
            out[f"exact/{dt}/{name}"] = bits(getattr(torch, name)(xg.to(getattr(torch, dt))), dt)
    for dt in ("bfloat16", "float16"):
        xh = x.to(getattr(torch, dt))
        for name in HALF_KERNELS:
            out[f"{dt}/{name}"] = bits(getattr(torch, name)(xh), dt)
    return out
