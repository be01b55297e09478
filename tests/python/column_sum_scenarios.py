"""Sums over the leading dimensions (``x.sum(0)``, a Linear layer's bias gradient, ``mean(0)``)
of float32 / float64 tensors: ATen's ``cascade_sum`` adds each column in the element type in
a fixed four-level cascade, so its results are reproducible bit for bit (the column groups
are those of its AVX2 kernel, which AVX-512 CPUs run too). Inputs from a seeded NumPy
generator. Run with
``torch`` bound to PyTorch (tools/record_column_sum_goldens.py records
fixtures/column_sums.json) or to ferrograd (test_column_sums.py compares, exactly)."""

import numpy as np

SHAPES = [(256, 1024), (1000, 1030), (300, 7), (17, 3), (5000, 20), (70000, 3), (129, 16), (64, 70),
          (1, 1024), (3, 1030), (100000, 2), (128, 33), (96, 40), (300, 1000), (40, 12)]


def _v(t):
    return t.detach().double().flatten().tolist()


def run(torch):
    g = np.random.default_rng(23)
    out = {}
    for r, c in SHAPES:
        a = g.standard_normal((r, c)).astype(np.float32) * g.uniform(0.1, 100.0, size=(1, c)).astype(np.float32)
        x = torch.from_numpy(a)
        out[f"sum0_f32_{r}x{c}"] = _v(x.sum(0))
        out[f"sum0_f64_{r}x{c}"] = _v(x.double().sum(0))
        out[f"mean0_f32_{r}x{c}"] = _v(x.mean(0))
    a = torch.from_numpy(g.standard_normal((8, 16, 33)).astype(np.float32))
    out["sum0_3d"] = _v(a.sum(0))
    out["sum01_3d"] = _v(a.sum((0, 1)))
    out["sum0_keepdim"] = _v(a.sum(0, keepdim=True))
    # a Linear layer's bias gradient is the column sum of the output gradient
    lin = torch.nn.Linear(64, 256)
    xin = torch.from_numpy(g.standard_normal((128, 64)).astype(np.float32))
    gout = torch.from_numpy(g.standard_normal((128, 256)).astype(np.float32))
    lin(xin).backward(gout)
    out["linear_bias_grad"] = _v(lin.bias.grad)
    z = torch.zeros(4, 40)
    out["negative_zero_columns"] = [str(v) for v in (-z).sum(0).tolist()[:3]]
    return out
