"""``F.scaled_dot_product_attention`` on the CPU flash path (4-D float32/float64 inputs, no
dropout): outputs and the gradients of query, key and value for a random output gradient,
across the query block sizes (fewer than 192 queries, fewer than 768, more), causal masks with
more or fewer queries than keys, grouped-query attention, float and bool masks of every
broadcast shape (with fully masked rows), scales and float64. Inputs from a seeded NumPy
generator. Run with ``torch`` bound to PyTorch (tools/record_sdpa_goldens.py records
fixtures/sdpa.json) or to ferrograd (test_sdpa.py compares within a rounding tolerance)."""

import numpy as np

# name: (B, H, Hk, L, S, E, causal, mask, dtype, scale)
# (Not here: a float32 mask on float64 inputs. PyTorch 2.13's CPU flash kernel converts four
# of every eight mask values and leaves the other four scores unscaled and unmasked, so its
# results are wrong; test_sdpa.py checks ferrograd against the float64 mask instead.)
SCENARIOS = {
    "small": (2, 3, 3, 5, 7, 4, False, None, "float32", None),
    "small_causal": (2, 3, 3, 7, 7, 4, True, None, "float32", None),
    "bench_shape": (2, 4, 4, 128, 128, 64, False, None, "float32", None),
    "bench_shape_causal": (2, 4, 4, 128, 128, 64, True, None, "float32", None),
    "causal_more_queries": (1, 2, 2, 70, 33, 8, True, None, "float32", None),
    "causal_more_keys": (1, 2, 2, 33, 70, 8, True, None, "float32", None),
    "mid_blocks": (1, 2, 2, 300, 257, 16, False, None, "float32", None),
    "mid_blocks_causal": (1, 2, 2, 300, 300, 16, True, None, "float32", None),
    "long_causal": (1, 1, 1, 800, 800, 8, True, None, "float32", None),
    "gqa": (2, 6, 2, 40, 50, 8, False, None, "float32", None),
    "gqa_causal": (1, 4, 1, 65, 65, 8, True, None, "float32", None),
    "scale": (1, 2, 2, 20, 30, 8, False, None, "float32", 0.3),
    "negative_scale": (1, 2, 2, 20, 30, 8, True, None, "float32", -0.5),
    "mask_float_2d": (2, 2, 2, 24, 40, 8, False, "float_ls", "float32", None),
    "mask_float_4d_heads": (2, 3, 3, 24, 40, 8, False, "float_1hls", "float32", None),
    "mask_float_3d": (2, 3, 3, 24, 40, 8, False, "float_hls", "float32", None),
    "mask_bool_padding": (3, 2, 2, 24, 40, 8, False, "bool_b11s", "float32", None),
    "mask_bool_full_rows": (2, 2, 2, 24, 40, 8, False, "bool_b1ls_dead_rows", "float32", None),
    "mask_and_causal": (2, 2, 2, 40, 40, 8, True, "float_ls", "float32", None),
    "mask_bool_and_causal_gqa": (2, 4, 2, 40, 40, 8, True, "bool_b1ls_dead_rows", "float32", None),
    "float64": (2, 3, 3, 70, 50, 16, False, None, "float64", None),
    "float64_causal_mask": (1, 2, 2, 200, 200, 16, True, "float_b1ls", "float64", 0.7),
}

MAX_VALUES = 400


def _v(t):
    """The values of `t` (evenly spaced ones when there are many) and their sum."""
    flat = t.detach().double().flatten()
    step = max(1, flat.numel() // MAX_VALUES)
    return {"values": [float(f"{x:.9g}") for x in flat[::step].tolist()], "sum": float(flat.sum()), "shape": list(t.shape)}


def _mask(g, kind, B, H, L, S, np_dtype):
    if kind is None:
        return None
    if kind.startswith("float"):
        shape = {"float_ls": (L, S), "float_1hls": (1, H, L, S), "float_hls": (H, L, S), "float_b1ls": (B, 1, L, S)}[kind]
        m = g.standard_normal(shape).astype(np.float32)
        m[g.random(shape) < 0.2] = -np.inf
        m[..., 0] = 0.0  # every row keeps one key
        return m if kind != "float_b1ls" else m.astype(np_dtype)
    if kind == "bool_b11s":
        m = g.random((B, 1, 1, S)) < 0.8
        m[..., 0] = True
        return m
    m = g.random((B, 1, L, S)) < 0.6  # bool_b1ls_dead_rows
    m[:, :, ::5, :] = False  # every fifth query sees no key
    return m


def run(torch):
    F = torch.nn.functional
    out = {}
    for name, (B, H, Hk, L, S, E, causal, kind, dt, scale) in SCENARIOS.items():
        g = np.random.default_rng(sum(map(ord, name)))
        np_dtype = np.float32 if dt == "float32" else np.float64
        dtype = getattr(torch, dt)
        q = torch.from_numpy(g.standard_normal((B, H, L, E)).astype(np_dtype)).requires_grad_()
        k = torch.from_numpy(g.standard_normal((B, Hk, S, E)).astype(np_dtype)).requires_grad_()
        v = torch.from_numpy(g.standard_normal((B, Hk, S, E)).astype(np_dtype)).requires_grad_()
        m = _mask(g, kind, B, H, L, S, np_dtype)
        mask = None if m is None else torch.from_numpy(m)
        o = F.scaled_dot_product_attention(q, k, v, attn_mask=mask, is_causal=causal, scale=scale, enable_gqa=H != Hk)
        go = torch.from_numpy(g.standard_normal(tuple(o.shape)).astype(np_dtype))
        o.backward(go)
        out[name] = {"out": _v(o), "dq": _v(q.grad), "dk": _v(k.grad), "dv": _v(v.grad),
                     "grad_fn": type(o.grad_fn).__name__, "dtype": str(o.dtype).replace("ferrograd", "torch")}
        assert o.dtype == dtype
    return out
