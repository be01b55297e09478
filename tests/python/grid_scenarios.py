"""Scenarios for tests/python/test_grid_bits.py, run with PyTorch by
tools/record_grid_goldens.py (goldens in fixtures/grid_sampler.json) and with ferrograd by the
test: `grid_sample`'s output and both gradients for every 2-d mode, padding and alignment, in
float32 and float64, carried as the bits of their values (exact). The grid reaches past the
borders, lands on pixel centres and edges, and has one point far outside."""

import numpy as np

MODES = ["bilinear", "bicubic", "nearest"]
PADDINGS = ["zeros", "border", "reflection"]
DTYPES = ["float32", "float64"]


def data(dtype):
    rg = np.random.default_rng(7)
    x = rg.standard_normal((2, 3, 5, 6)).astype(dtype)
    g = (rg.random((2, 6, 7, 2)) * 2.6 - 1.3).astype(dtype)
    # pixel centres and edges (align_corners=False puts centres at (2i + 1) / size - 1)
    g[0, 0, :6, 0] = (2 * np.arange(6) + 1) / 6 - 1
    g[0, 1, :5, 1] = (2 * np.arange(5) + 1) / 5 - 1
    g[0, 2, :4] = [[-1, -1], [1, 1], [-1, 1], [0, 0]]
    g[1, 0, 0] = [1e4, -3e3]
    go = rg.standard_normal((2, 3, 6, 7)).astype(dtype)
    return x, g, go


def bits(a):
    a = np.ascontiguousarray(a)
    return a.view(np.int64 if a.dtype == np.float64 else np.int32).ravel().tolist()


def run(torch):
    F = torch.nn.functional
    out = {}
    for dtype in DTYPES:
        x, g, go = data(dtype)
        for mode in MODES:
            for pad in PADDINGS:
                for align in (False, True):
                    xi = torch.from_numpy(x.copy()).requires_grad_()
                    gi = torch.from_numpy(g.copy()).requires_grad_()
                    y = F.grid_sample(xi, gi, mode=mode, padding_mode=pad, align_corners=align)
                    y.backward(torch.from_numpy(go.copy()))
                    key = f"{dtype}/{mode}/{pad}/{align}"
                    out[key + "/out"] = bits(y.detach().numpy())
                    out[key + "/grad_input"] = bits(xi.grad.numpy())
                    out[key + "/grad_grid"] = bits(gi.grad.numpy())
    return out
