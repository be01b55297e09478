"""Scenarios whose every bit is PyTorch's: the rounding order of fused kernels (addcmul's
fused multiply-add, addcdiv's quotient, the 2-norm's lanes). `run(lib)` computes them with
`lib` (torch or ferrograd) into plain data; tools/record_rounding_goldens.py records
PyTorch's into fixtures/rounding.json and test_rounding.py compares."""

import hashlib

import numpy as np

SHAPES = [(7,), (16,), (9, 21), (3, 1, 20), (50,)]
SOFTMAX = [((5, 7), 0), ((3, 33, 5), 1), ((2, 4, 20), 0), ((3, 20, 37), 1), ((6, 3), 0), ((9, 40), 0), ((2, 3, 4, 18), 1)]
NORM_SHAPES = [(1,), (7,), (8,), (13,), (100,), (3, 50), (7, 33), (2, 3, 40), (4, 67), ()]
# sums over a contiguous last dim (ATen's vectorized_inner_sum: a cascade of four vector
# partials, the tail, the lanes); rows from one vector to past the cascade's first level
SUM_SHAPES = [(8,), (9,), (31,), (100,), (3, 17), (5, 64), (2, 513), (4, 1000), (1, 300), (2, 3, 129), (3, 5000), (1, 20000)]


def data(shape, dtype, seed):
    g = np.random.default_rng(seed)
    return (g.standard_normal(shape) * 3).astype(dtype)


def bits(t):
    # NaN payloads are not compared (one quiet NaN stands for all)
    a = np.ascontiguousarray(t.detach().numpy()).reshape(-1).copy()
    a[np.isnan(a)] = np.nan
    return a.view(np.uint32 if a.dtype == np.float32 else np.uint64).tolist()


def digest(t):
    a = np.ascontiguousarray(t.detach().numpy()).reshape(-1).copy()
    a[np.isnan(a)] = np.nan
    return hashlib.sha1(a.tobytes()).hexdigest()


def run(lib):
    out = {}
    threads = lib.get_num_threads()
    lib.set_num_threads(1)
    for shape, d in SOFTMAX:
        x = data(shape, "float32", 200 + len(out))
        flat = x.reshape(-1)
        # a NaN in the first row of one column, a NaN further down another, infinities
        flat[0] = np.nan
        flat[min(len(flat) - 1, 3 * shape[-1] + 1)] = np.nan
        flat[len(flat) // 2] = np.inf
        flat[len(flat) // 3] = -np.inf
        out[f"softmax/{shape}/{d}"] = bits(lib.tensor(x).softmax(d))
        out[f"log_softmax/{shape}/{d}"] = bits(lib.tensor(x).log_softmax(d))
    # log-softmax's row sums go through Sleef's log: many rows, so that its bits and libm's
    # differ on some
    x = lib.tensor(data((3000, 12), "float32", 301))
    out["log_softmax-rows"] = digest(x.log_softmax(1))
    out["log_softmax-cols"] = digest(x.t().contiguous().log_softmax(0))
    # past ATen's grain its parts start mid-row: which columns run as vectors depends on the
    # thread count
    x = lib.tensor(data((1, 4, 9001), "float32", 300))
    for n in (1, 2):
        lib.set_num_threads(n)
        out[f"softmax-split/{n}"] = digest(x.softmax(1))
    lib.set_num_threads(threads)
    for dt in ("float32", "float64"):
        for i, shape in enumerate(SHAPES):
            s, a, b = (lib.tensor(data(shape, dt, 10 * i + k)) for k in range(3))
            for v in (1, 0.1, -2.5):
                out[f"addcmul/{dt}/{shape}/{v}"] = bits(s.addcmul(a, b, value=v))
                out[f"addcdiv/{dt}/{shape}/{v}"] = bits(s.addcdiv(a, b, value=v))
                c = s.clone()
                c.addcmul_(a, a, value=v)
                out[f"addcmul_/{dt}/{shape}/{v}"] = bits(c)
            # broadcast operands
            row = lib.tensor(data(shape[-1:], dt, 99))
            out[f"addcmul/bcast/{dt}/{shape}"] = bits(s.addcmul(a, row, value=0.5))
        for i, shape in enumerate(NORM_SHAPES):
            x = lib.tensor(data(shape, dt, 100 + i))
            out[f"norm/{dt}/{shape}"] = bits(x.norm())
            out[f"vector_norm/{dt}/{shape}"] = bits(lib.linalg.vector_norm(x))
            if len(shape) >= 1:
                out[f"norm-1/{dt}/{shape}"] = bits(x.norm(dim=-1))
            if len(shape) >= 2:
                out[f"norm-2-1/{dt}/{shape}"] = bits(x.norm(dim=(-2, -1), keepdim=True))
        threads = lib.get_num_threads()
        lib.set_num_threads(1)
        for i, shape in enumerate(SUM_SHAPES):
            x = data(shape, dt, 400 + i)
            x.reshape(-1)[::7] *= 1000  # magnitudes apart, so that the order shows
            x = lib.tensor(x)
            out[f"sum-1/{dt}/{shape}"] = bits(x.sum(-1))
            out[f"mean-1/{dt}/{shape}"] = bits(x.mean(-1))
            out[f"sum/{dt}/{shape}"] = bits(x.sum())
        # several rows on two threads: each row is still summed whole, by one thread
        lib.set_num_threads(2)
        x = lib.tensor(data((64, 3000), dt, 450))
        out[f"sum-1-threads/{dt}"] = bits(x.sum(-1))
        lib.set_num_threads(threads)
    return out
