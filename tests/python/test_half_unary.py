"""float16/bfloat16 elementwise kernels computed in float32 and rounded once (ATen's order):
the fused path (widen, kernel and round per 1024 elements) gives exactly what widening the
whole tensor, applying the float32 op and rounding give, for every op with a float32 kernel,
on both sides of the chunk and thread-split sizes and on strided views."""

import numpy as np
import pytest

import ferrograd as torch

F = torch.nn.functional
OPS = {
    "exp": torch.exp, "tanh": torch.tanh, "sigmoid": torch.sigmoid, "log": torch.log, "log2": torch.log2,
    "log10": torch.log10, "gelu": F.gelu, "gelu_tanh": lambda x: F.gelu(x, approximate="tanh"), "silu": F.silu,
}


@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16])
@pytest.mark.parametrize("name", sorted(OPS))
@pytest.mark.parametrize("n", [1, 1023, 1025, 70_001])
def test_rounds_once_from_float32(name, dtype, n):
    f = OPS[name]
    g = np.random.default_rng(n)
    x32 = torch.from_numpy((g.standard_normal(n) * 4).astype(np.float32))
    if name.startswith("log"):
        x32 = x32.abs()
    x = x32.to(dtype)
    want = f(x.float()).to(dtype)
    got = f(x)
    assert got.dtype == dtype
    assert torch.equal(got.isnan(), want.isnan())
    assert torch.equal(torch.nan_to_num(got), torch.nan_to_num(want))


@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16])
def test_strided_views_and_threads(dtype):
    x = torch.randn(300, 257).to(dtype)
    old = torch.get_num_threads()
    try:
        for threads in (1, 2):
            torch.set_num_threads(threads)
            assert torch.equal(torch.sigmoid(x.t()), torch.sigmoid(x.float().t()).to(dtype))
            assert torch.equal(F.silu(x), F.silu(x.float()).to(dtype))
    finally:
        torch.set_num_threads(old)
