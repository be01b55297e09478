"""Record the differential fuzz corpus (tests/fuzz/corpus/*.jsonl.gz) from PyTorch.

Run with the benchmark environment (PyTorch installed), from the repository root:

    .venv-bench/bin/python tools/record_fuzz_corpus.py            # all categories
    .venv-bench/bin/python tools/record_fuzz_corpus.py --only index --count 50

Every program is generated from its own seed (``"<category>-<index>"``), so the corpus is
reproducible: the same command writes the same files. The generator builds a program step by
step while executing it on PyTorch (so it knows the live shapes and dtypes and can aim at valid
calls, or deliberately at invalid ones), then records it with ``tests/fuzz/program.py`` -- the
same interpreter the replay test runs on ferrograd.
"""

import argparse
import gzip
import json
import os
import random
import sys
import warnings

import torch

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests", "fuzz"))
import program  # noqa: E402

warnings.filterwarnings("ignore")

DTYPES = ["float32", "float64", "int64", "int32", "bool", "float16"]
DTYPE_W = [40, 25, 12, 6, 6, 3]
FLOATS = ("float16", "float32", "float64")

UNARY = ("exp log sqrt rsqrt sin cos tan tanh sigmoid relu abs neg sign reciprocal floor ceil "
         "trunc round log1p expm1 log2 log10 atan asin acos sinh cosh square logical_not isnan "
         "isinf isfinite").split()
# ops whose float16 kernels ferrograd has (checked by hand); others run in float32/64 only
HALF_OK = set("exp log sqrt sin cos tanh sigmoid abs neg sum mean prod cumsum softmax sort add "
              "mul sub div matmul".split())
BINARY = ("add sub mul div true_divide floor_divide remainder fmod pow maximum minimum eq ne lt "
          "le gt ge logical_and logical_or logical_xor bitwise_and bitwise_or bitwise_xor").split()
OPERATORS = "add sub mul truediv floordiv mod pow eq ne lt le gt ge and_ or_ xor".split()
INPLACE = ("add_ sub_ mul_ div_ clamp_ zero_ fill_ masked_fill_ copy_ exp_ neg_ sqrt_ sigmoid_ "
           "tanh_ relu_ pow_ abs_ iadd imul isub itruediv setitem").split()


class Gen:
    """One program under construction, executed live on PyTorch."""

    def __init__(self, pid, rng):
        self.rng = rng
        self.prog = {"id": pid, "inputs": [], "steps": []}
        self.interp = None
        self.failed = False

    # ---- inputs ---------------------------------------------------------------------
    def shape(self, max_nd=4, max_numel=48, zero_p=0.06):
        r = self.rng
        nd = r.choices([0, 1, 2, 3, 4], [8, 25, 35, 22, 10])[0]
        nd = min(nd, max_nd)
        while True:
            s = [r.choice([1, 2, 2, 3, 3, 4, 5]) for _ in range(nd)]
            if nd and r.random() < zero_p:
                s[r.randrange(nd)] = 0
            n = 1
            for d in s:
                n *= d
            if n <= max_numel:
                return s

    def dtype(self, floats_only=False):
        if floats_only:
            return self.rng.choices(list(FLOATS), [3, 60, 37])[0]
        return self.rng.choices(DTYPES, DTYPE_W)[0]

    def data(self, dtype, n, special=False):
        r = self.rng
        out = []
        for _ in range(n):
            if dtype == "bool":
                out.append(r.random() < 0.5)
            elif dtype in ("int64", "int32"):
                out.append(r.randint(-9, 9) if r.random() > 0.03 else r.choice([2**31 - 1, -2**31]))
            else:
                if special and r.random() < 0.15:
                    out.append(r.choice([0.0, -0.0, float("inf"), float("-inf"), float("nan"), 1e30, -1e-30]))
                else:
                    out.append(round(r.gauss(0, 1.5), 2))
        return out

    def spec(self, shape, dtype, rg=None, layout=None, positive=False, special=None):
        r = self.rng
        if layout is None:
            opts = ["contig"] * 6
            if len(shape) >= 2:
                opts += ["t", "t"]
            if len(shape) >= 1:
                opts += ["step"]
                opts += ["expand:%d" % r.randrange(len(shape))]
            layout = r.choice(opts)
        if special is None:
            special = r.random() < 0.08
        if rg is None:
            rg = dtype in FLOATS and r.random() < 0.8
        n = 1
        for d in program.stored_shape(shape, layout):
            n *= d
        data = self.data(dtype, n, special)
        if positive and dtype in FLOATS:
            data = [abs(v) + 0.1 if v == v else v for v in data]
        return {"shape": list(shape), "dtype": dtype, "data": data, "rg": bool(rg), "layout": layout}

    def add_input(self, spec):
        assert not self.prog["steps"], "inputs come before steps"
        self.prog["inputs"].append(spec)
        return len(self.prog["inputs"]) - 1

    def const(self, shape, dtype, **kw):
        """An inline constant tensor argument."""
        s = self.spec(shape, dtype, rg=False, layout=kw.pop("layout", "contig"), **kw)
        return {"t": s}

    # ---- steps ----------------------------------------------------------------------
    def ensure(self):
        if self.interp is None:
            self.interp = program.Interp(torch, self.prog["inputs"])

    def val(self, i):
        self.ensure()
        return self.interp.regs[i]

    def run(self, st):
        """Append a step and execute it; False (and the program ends) when PyTorch raised."""
        self.ensure()
        self.prog["steps"].append(st)
        try:
            self.interp.step(st)
            return True
        except Exception:
            self.failed = True
            return False

    def tensors(self, pred=lambda t: True):
        self.ensure()
        return [i for i, v in enumerate(self.interp.regs) if isinstance(v, torch.Tensor) and pred(v)]

    def last_tensor(self):
        ts = self.tensors()
        return ts[-1] if ts else None

    # ---- argument helpers -------------------------------------------------------------
    def dim(self, t, bad_p=0.04):
        nd = max(t.dim(), 1)
        if self.rng.random() < bad_p:
            return self.rng.choice([nd, nd + 2, -nd - 1])
        return self.rng.randrange(-nd, nd)

    def bcast_shape(self, shape):
        """A shape that broadcasts with ``shape`` (sometimes one that does not)."""
        r = self.rng
        s = list(shape)
        if r.random() < 0.3 and s:
            s = s[r.randrange(len(s) + 1):]
        s = [1 if r.random() < 0.3 else d for d in s]
        if r.random() < 0.15 and len(s) < 4:
            s = [r.choice([1, 2])] + s
        if r.random() < 0.04 and s:
            k = r.randrange(len(s))
            s[k] = s[k] + 2
        return s

    def other(self, t, dtype=None, allow_scalar=True):
        """Second operand for a binary op on tensor ``t``: scalar, 0-dim, broadcast constant."""
        r = self.rng
        c = r.random()
        if allow_scalar and c < 0.25:
            return r.choice([2, -1, 0, 3, 1.5, -0.5, 0.0, True, False, 2.0])
        dt = dtype or (t_dtype(t) if r.random() < 0.6 else self.dtype())
        if c < 0.35:
            return self.const([], dt)
        return self.const(self.bcast_shape(list(t.shape)), dt)


def t_dtype(t):
    return program.dtype_name(t.dtype)


def R(i, k=None):
    return {"r": i} if k is None else {"r": i, "i": k}


def call(f, *a, **kw):
    return {"k": "call", "f": f, "a": list(a), "kw": kw}


def meth(s, m, *a, **kw):
    return {"k": "meth", "s": s, "m": m, "a": list(a), "kw": kw}


def op(f, *a):
    return {"k": "op", "f": f, "a": list(a)}


def fn_or_meth(g, name, x, *a, **kw):
    """``torch.name(x, ...)`` or ``x.name(...)``."""
    if g.rng.random() < 0.5:
        return call(name, R(x), *a, **kw)
    return meth(R(x), name, *a, **kw)


# ---- builders: each appends one step (or a few) operating on register x -------------------
def b_unary(g, x):
    r = g.rng
    t = g.val(x)
    name = r.choice(UNARY + ["pow", "rpow", "neg_op", "round_dec", "to", "float", "long", "bool", "double", "int", "half"])
    if name == "pow":
        return g.run(fn_or_meth(g, "pow", x, r.choice([2, 3, 0.5, -1, 0, 2.0, -2])))
    if name == "rpow":
        return g.run(op("pow", r.choice([2, 0.5, 3]), R(x)))
    if name == "neg_op":
        return g.run(op("neg", R(x)))
    if name == "round_dec":
        return g.run(fn_or_meth(g, "round", x, decimals=r.choice([0, 1, 2, -1])))
    if name == "to":
        return g.run(meth(R(x), "to", {"dt": g.dtype()}))
    if name in ("float", "long", "bool", "double", "int", "half"):
        return g.run(meth(R(x), name))
    if t_dtype(t) == "float16" and name not in HALF_OK:
        return g.run(meth(R(x), "float"))
    return g.run(fn_or_meth(g, name, x))


def b_binary(g, x, y=None):
    r = g.rng
    t = g.val(x)
    b = R(y) if y is not None else g.other(t)
    if isinstance(b, dict) and "t" in b and b["t"]["dtype"] == "float16" and t_dtype(t) != "float16":
        b["t"]["dtype"] = "float32"
    form = r.random()
    if form < 0.35:
        f = r.choice(OPERATORS)
        if r.random() < 0.2 and not isinstance(b, dict):
            return g.run(op(f, b, R(x)))  # scalar on the left: reflected operator
        return g.run(op(f, R(x), b))
    name = r.choice(BINARY)
    if name.startswith("bitwise") and t_dtype(t) in FLOATS and r.random() < 0.8:
        name = r.choice(["add", "mul", "sub"])
    kw = {}
    if name in ("add", "sub") and r.random() < 0.3:
        kw["alpha"] = r.choice([2, -1, 0.5])
    if name == "div" and r.random() < 0.5:
        kw["rounding_mode"] = r.choice(["floor", "trunc", None])
    if isinstance(b, dict) or r.random() < 0.5:
        return g.run(call(name, R(x), b, **kw))
    return g.run(meth(R(x), name, b, **kw))


def dims_arg(g, t, tuple_ok=True):
    r = g.rng
    nd = t.dim()
    c = r.random()
    if c < 0.2:
        return None
    if tuple_ok and c < 0.4 and nd >= 2:
        ds = r.sample(range(nd), r.randint(1, nd))
        ds = [d - nd if r.random() < 0.3 else d for d in ds]
        return {"tup": ds} if r.random() < 0.5 else ds
    return g.dim(t)


def b_reduce(g, x):
    r = g.rng
    t = g.val(x)
    name = r.choice("sum mean prod max min amax argmax argmin all any var std logsumexp norm".split())
    kw = {}
    if name in ("sum", "mean", "amax", "var", "std", "logsumexp", "norm"):
        d = dims_arg(g, t, tuple_ok=True)
        if name == "logsumexp" and d is None:
            d = g.dim(t)
        if name == "amax":
            d = [] if d is None else d
        if d is not None:
            kw["dim"] = d
            if r.random() < 0.5:
                kw["keepdim"] = r.random() < 0.5
        if name == "sum" and r.random() < 0.15:
            kw["dtype"] = {"dt": r.choice(["float64", "int64", "float32"])}
        if name in ("var", "std"):
            c = r.random()
            if c < 0.3:
                kw["correction"] = r.choice([0, 1, 2])
            elif c < 0.5:
                kw["unbiased"] = r.random() < 0.5
        if name == "norm" and r.random() < 0.6:
            kw["p"] = r.choice([1, 2, 3, float("inf"), "fro", 0.5])
        if name == "norm" and "dim" in kw and kw.get("p") == "fro":
            kw["p"] = 2
        return g.run(fn_or_meth(g, name, x, **kw))
    if name in ("max", "min", "argmax", "argmin", "prod", "all", "any"):
        if r.random() < 0.35:
            return g.run(fn_or_meth(g, name, x))
        kw["dim"] = g.dim(t)
        if r.random() < 0.5:
            kw["keepdim"] = r.random() < 0.5
        if name == "prod" and r.random() < 0.2:
            kw["dtype"] = {"dt": "float64"}
        if r.random() < 0.4:
            a = [kw.pop("dim")] + ([kw.pop("keepdim")] if "keepdim" in kw else [])
            return g.run(fn_or_meth(g, name, x, *a, **kw))
        return g.run(fn_or_meth(g, name, x, **kw))
    return g.run(fn_or_meth(g, name, x))


def factor_shape(g, n, nd):
    """A random shape with ``nd`` dims and ``n`` elements (one dim maybe -1)."""
    r = g.rng
    s = []
    rest = n
    for _ in range(nd - 1):
        divs = [d for d in range(1, 7) if rest % d == 0] if rest else [0, 1, 2]
        d = r.choice(divs)
        s.append(d)
        rest = rest // d if d else rest
    s.append(rest if n else r.choice([0, 1, 3]))
    if s and r.random() < 0.3 and n:
        s[r.randrange(len(s))] = -1
    return s


def basic_index(g, t, adv=False):
    """An index expression for ``t[...]``."""
    r = g.rng
    nd = t.dim()
    items = []
    k = r.randint(1, max(nd, 1))
    for i in range(min(k, nd) if nd else 0):
        size = t.shape[i]
        c = r.random()
        if c < 0.3 and size:
            v = r.randrange(-size, size)
            if r.random() < 0.04:
                v = size + 1
            items.append(v)
        elif c < 0.8:
            start = r.choice([None, 0, 1, -2])
            stop = r.choice([None, size, -1, 2, size + 3])
            step = r.choice([None, 1, 2, 3]) if r.random() > 0.03 else -1
            items.append({"sl": [start, stop, step]})
        elif c < 0.9:
            items.append(None)
        else:
            items.append({"E": 1})
    if adv and nd:
        c = r.random()
        if c < 0.4:
            mask = g.const(list(t.shape), "bool")
            return mask
        if c < 0.8:
            size = t.shape[0]
            n = r.randint(0, 4)
            hi = max(size, 1)
            vals = [r.randrange(-hi, hi) for _ in range(n)]
            if r.random() < 0.05:
                vals.append(hi + 2)
            idx = {"t": {"shape": [n if r.random() < 0.8 else len(vals)], "dtype": "int64",
                         "data": vals, "layout": "contig"}}
            idx["t"]["shape"] = [len(vals)]
            if r.random() < 0.5:
                return {"tup": [{"sl": [None, None, None]}] * 0 + [idx] + items[1:]}
            return idx
        return [r.randrange(-max(t.shape[0], 1), max(t.shape[0], 1)) for _ in range(r.randint(1, 3))]
    if len(items) == 1 and r.random() < 0.5:
        return items[0]
    return {"tup": items}


def b_shape(g, x):
    r = g.rng
    t = g.val(x)
    nd = t.dim()
    n = t.numel()
    name = r.choice("reshape view permute transpose t narrow getitem expand squeeze unsqueeze flatten "
                    "flip unbind split chunk contiguous select swapaxes repeat mT T cat stack view_as "
                    "expand_as".split())
    if name in ("reshape", "view"):
        s = factor_shape(g, n, r.randint(0, 4)) if n != 1 or r.random() < 0.5 else []
        if r.random() < 0.04:
            s = s + [7]
        if r.random() < 0.5:
            return g.run(meth(R(x), name, *s))
        return g.run(meth(R(x), name, {"tup": s}) if name == "view" else fn_or_meth(g, "reshape", x, {"tup": s}))
    if name == "permute":
        p = list(range(nd))
        r.shuffle(p)
        p = [d - nd if r.random() < 0.2 else d for d in p]
        if r.random() < 0.04 and p:
            p[0] = p[-1]
        return g.run(meth(R(x), "permute", *p) if r.random() < 0.5 else fn_or_meth(g, "permute", x, {"tup": p}))
    if name in ("transpose", "swapaxes"):
        return g.run(fn_or_meth(g, name, x, g.dim(t), g.dim(t)))
    if name == "t":
        return g.run(fn_or_meth(g, "t", x))
    if name == "narrow":
        d = g.dim(t)
        size = t.shape[d] if -nd <= d < nd and nd else 1
        start = r.randint(-size, size) if size else 0
        length = r.randint(0, max(size - (start % size if size else 0), 0) + (1 if r.random() < 0.05 else 0))
        return g.run(fn_or_meth(g, "narrow", x, d, start, length))
    if name == "getitem":
        return g.run(op("getitem", R(x), basic_index(g, t)))
    if name == "expand":
        s = list(t.shape)
        s = [r.choice([d, 3]) if d == 1 else (d if r.random() < 0.8 else -1) for d in s]
        if r.random() < 0.3:
            s = [r.choice([2, 1, 0])] + s
        if r.random() < 0.04 and s:
            s[-1] += 1
        return g.run(meth(R(x), "expand", *s) if r.random() < 0.6 else meth(R(x), "expand", {"tup": s}))
    if name == "squeeze":
        c = r.random()
        if c < 0.3:
            return g.run(fn_or_meth(g, "squeeze", x))
        if c < 0.8 or nd < 2:
            return g.run(fn_or_meth(g, "squeeze", x, g.dim(t)))
        return g.run(fn_or_meth(g, "squeeze", x, {"tup": r.sample(range(nd), 2)}))
    if name == "unsqueeze":
        d = r.randrange(-nd - 1, nd + 1) if r.random() > 0.04 else nd + 2
        return g.run(fn_or_meth(g, "unsqueeze", x, d))
    if name == "flatten":
        a = sorted([r.randrange(-nd, nd) if nd else 0 for _ in range(2)], key=lambda d: d % max(nd, 1))
        return g.run(fn_or_meth(g, "flatten", x, *a) if r.random() < 0.7 else fn_or_meth(g, "flatten", x))
    if name == "flip":
        ds = r.sample(range(nd), r.randint(0, nd)) if nd else []
        return g.run(fn_or_meth(g, "flip", x, ds) if r.random() < 0.5 else meth(R(x), "flip", *ds))
    if name == "unbind":
        return g.run(fn_or_meth(g, "unbind", x, g.dim(t)))
    if name == "split":
        d = g.dim(t)
        size = t.shape[d] if -nd <= d < nd and nd else 1
        if r.random() < 0.6:
            return g.run(fn_or_meth(g, "split", x, r.choice([1, 2, 3]), d))
        parts = []
        rest = size
        while rest > 0:
            p = r.randint(1, rest)
            parts.append(p)
            rest -= p
        if r.random() < 0.05:
            parts.append(1)
        return g.run(fn_or_meth(g, "split", x, parts, dim=d))
    if name == "chunk":
        return g.run(fn_or_meth(g, "chunk", x, r.choice([1, 2, 3, 4]), g.dim(t)))
    if name == "contiguous":
        return g.run(meth(R(x), "contiguous"))
    if name == "select":
        d = g.dim(t)
        size = t.shape[d] if -nd <= d < nd and nd else 1
        return g.run(fn_or_meth(g, "select", x, d, r.randrange(-size, size) if size else 0))
    if name == "repeat":
        reps = [r.choice([1, 2, 3]) for _ in range(nd + r.choice([0, 0, 1]))]
        if not reps:
            reps = [2]
        return g.run(meth(R(x), "repeat", *reps))
    if name in ("mT", "T"):
        return g.run({"k": "attr", "s": R(x), "m": name})
    if name in ("cat", "stack"):
        items = [R(x)]
        for _ in range(r.randint(0, 2)):
            s = list(t.shape)
            if name == "cat" and s and r.random() < 0.5:
                s[0] = r.choice([0, 1, 2])
            if r.random() < 0.04 and s:
                s[-1] += 1
            items.append(g.const(s, t_dtype(t) if r.random() < 0.8 else g.dtype()))
        r.shuffle(items)
        d = g.dim(t) if name == "cat" else r.randrange(-nd - 1, nd + 1)
        if name == "cat" and r.random() < 0.3:
            d = 0
        return g.run(call(name, items, d) if r.random() < 0.5 else call(name, {"tup": items}, dim=d))
    if name == "view_as":
        s = factor_shape(g, n, r.randint(0, 3))
        s = [d if d != -1 else 1 for d in s]
        return g.run(meth(R(x), "view_as", g.const(s, "float32")))
    if name == "expand_as":
        s = [r.choice([d, 3]) if d == 1 else d for d in t.shape]
        return g.run(meth(R(x), "expand_as", g.const(s, "float32")))
    return True


def b_index(g, x):
    r = g.rng
    t = g.val(x)
    nd = t.dim()
    name = r.choice(["getitem", "getitem", "getitem_adv", "getitem_adv", "index_select", "gather",
                     "masked_fill", "nonzero", "where1"])
    if name == "getitem":
        return g.run(op("getitem", R(x), basic_index(g, t)))
    if name == "getitem_adv":
        return g.run(op("getitem", R(x), basic_index(g, t, adv=True)))
    if name == "index_select":
        d = g.dim(t)
        size = t.shape[d] if -nd <= d < nd and nd else 1
        vals = [r.randrange(0, max(size, 1)) for _ in range(r.randint(0, 4))]
        if r.random() < 0.05:
            vals.append(size + 1)
        idx = {"t": {"shape": [len(vals)], "dtype": "int64" if r.random() > 0.05 else "float32",
                     "data": vals, "layout": "contig"}}
        return g.run(fn_or_meth(g, "index_select", x, d, idx))
    if name == "gather":
        d = g.dim(t)
        size = t.shape[d] if -nd <= d < nd and nd else 1
        s = [max(1, k - r.randint(0, 1)) if k else 0 for k in t.shape]
        if nd and -nd <= d < nd:
            s[d] = r.randint(0, 3)
        n = 1
        for k in s:
            n *= k
        vals = [r.randrange(0, max(size, 1)) for _ in range(n)]
        if r.random() < 0.04 and vals:
            vals[0] = size + 3
        idx = {"t": {"shape": s, "dtype": "int64", "data": vals, "layout": "contig"}}
        return g.run(fn_or_meth(g, "gather", x, d, idx))
    if name == "masked_fill":
        mask = g.const(g.bcast_shape(list(t.shape)), "bool")
        v = r.choice([0.0, -1, 2.5, float("-inf"), True])
        if r.random() < 0.2:
            v = g.const([], t_dtype(t))
        return g.run(fn_or_meth(g, "masked_fill", x, mask, v))
    if name == "nonzero":
        return g.run(fn_or_meth(g, "nonzero", x))
    return g.run(call("where", R(x)))


VIEW_MAKERS = ["getitem", "getitem", "transpose", "select", "narrow", "unsqueeze", "expand", "t", "view", "permute", "E"]


def make_view(g, y):
    """A view of register y: returns True if the step ran."""
    r = g.rng
    t = g.val(y)
    nd = t.dim()
    kind = r.choice(VIEW_MAKERS)
    if kind == "getitem" or nd == 0:
        return g.run(op("getitem", R(y), basic_index(g, t)))
    if kind == "transpose":
        return g.run(meth(R(y), "transpose", g.dim(t, 0), g.dim(t, 0)))
    if kind == "select":
        d = g.dim(t, 0)
        size = t.shape[d]
        return g.run(meth(R(y), "select", d, r.randrange(size) if size else 0))
    if kind == "narrow":
        d = g.dim(t, 0)
        size = t.shape[d]
        s = r.randint(0, size)
        return g.run(meth(R(y), "narrow", d, s, r.randint(0, size - s)))
    if kind == "unsqueeze":
        return g.run(meth(R(y), "unsqueeze", 0))
    if kind == "expand" and r.random() < 0.4:
        return g.run(meth(R(y), "expand", 2, *t.shape))
    if kind == "t" and nd <= 2:
        return g.run(meth(R(y), "t"))
    if kind == "permute":
        p = list(range(nd))
        r.shuffle(p)
        return g.run(meth(R(y), "permute", *p))
    if kind == "view":
        return g.run(meth(R(y), "view", -1))
    return g.run(op("getitem", R(y), {"E": 1}))


def b_inplace(g, x):
    r = g.rng
    t = g.val(x)
    # the tensor written to: a non-leaf copy (usually), or the input itself
    c = r.random()
    if c < 0.63:
        ok = g.run(meth(R(x), "clone") if r.random() < 0.6 else op("mul", R(x), 1))
    elif c < 0.88:
        f = r.choice(["exp", "sigmoid", "tanh", "sqrt", "pow"])
        ok = g.run(meth(R(x), f, *([2] if f == "pow" else [])) if t_dtype(t) in FLOATS else meth(R(x), "clone"))
    else:
        ok = True
    if not ok:
        return False
    y = len(g.interp.regs) - 1 if c < 0.88 else x
    target = y
    if r.random() < 0.75:
        if not make_view(g, y):
            return False
        target = len(g.interp.regs) - 1
    tv = g.val(target)
    name = r.choice(INPLACE)
    dt = t_dtype(tv)
    if name in ("add_", "sub_", "mul_", "div_", "pow_", "iadd", "imul", "isub", "itruediv"):
        b = g.other(tv, dtype=dt if r.random() < 0.8 else None)
        if name.startswith("i"):
            st = op(name, R(target), b)
        else:
            kw = {"alpha": 2} if name in ("add_", "sub_") and r.random() < 0.3 else {}
            st = meth(R(target), name, b, **kw)
    elif name == "clamp_":
        st = meth(R(target), "clamp_", min=-0.5, max=r.choice([0.5, 1.0, None]))
    elif name == "fill_":
        st = meth(R(target), "fill_", r.choice([1.5, 0, -2, True]))
    elif name == "zero_":
        st = meth(R(target), "zero_")
    elif name == "masked_fill_":
        st = meth(R(target), "masked_fill_", g.const(g.bcast_shape(list(tv.shape)), "bool"), r.choice([0.0, 7, -1.5]))
    elif name == "copy_":
        st = meth(R(target), "copy_", g.const(g.bcast_shape(list(tv.shape)), g.dtype()))
    elif name == "setitem":
        idx = basic_index(g, tv, adv=r.random() < 0.3) if tv.dim() else {"E": 1}
        st = op("setitem", R(target), idx, r.choice([0.0, 3, -1.25]) if r.random() < 0.6 else g.const([], dt))
    else:
        if dt == "float16":
            name = "neg_"
        st = meth(R(target), name)
    if not g.run(st):
        return False
    # snapshots after the write: the written view and its base
    if not g.run(meth(R(target), "clone")):
        return False
    if target != y:
        return g.run(op("mul", R(y), 1))
    return True


def b_matmul(g, x):
    """Matmul-family step: x is used as the left operand when its shape fits."""
    r = g.rng
    t = g.val(x)
    nd = t.dim()
    dt = t_dtype(t) if r.random() < 0.92 else g.dtype()
    if dt == "bool":
        dt = "float32"
    if nd == 0:
        return g.run(op("matmul", R(x), g.const([], dt)))
    k = t.shape[-1] if r.random() > 0.05 else t.shape[-1] + 1
    fits = {1: ["dot", "outer"], 2: ["mm", "mv"], 3: ["bmm"]}.get(nd, [])
    name = r.choice(["matmul", "matmul", "op"] + fits * 2 + ["mm", "bmm", "mv", "dot", "outer"] * (r.random() < 0.15))
    if name in ("matmul", "op"):
        shapes = [[k], [k, r.choice([1, 2, 3, 0])]]
        if nd >= 2:
            shapes.append([2, k, 3] if nd == 2 else list(t.shape[:-2]) + [k, 2])
            shapes.append([1] * (nd - 2) + [k, 2])
        s = r.choice(shapes)
        b = g.const(s, dt)
        if name == "op":
            return g.run(op("matmul", R(x), b) if r.random() < 0.7 else op("matmul", b if len(s) == 1 else g.const([2] + [s[0]] if len(s) == 1 else [3, t.shape[-2] if nd >= 2 else t.shape[-1]], dt), R(x)))
        return g.run(fn_or_meth(g, "matmul", x, b))
    if name == "mm":
        return g.run(fn_or_meth(g, "mm", x, g.const([k, r.choice([1, 2, 3])], dt)))
    if name == "bmm":
        b0 = t.shape[0] if nd == 3 else 2
        return g.run(fn_or_meth(g, "bmm", x, g.const([b0, k, 2], dt)))
    if name == "mv":
        return g.run(fn_or_meth(g, "mv", x, g.const([k], dt)))
    if name == "dot":
        return g.run(fn_or_meth(g, "dot", x, g.const([k], dt)))
    return g.run(call("outer", R(x), g.const([r.choice([0, 2, 3])], dt)))


def b_softmax(g, x):
    r = g.rng
    t = g.val(x)
    name = r.choice(["softmax", "log_softmax", "softmax", "log_softmax", "logsumexp"])
    d = g.dim(t)
    kw = {}
    if name != "logsumexp" and r.random() < 0.15:
        kw["dtype"] = {"dt": r.choice(["float64", "float32"])}
    c = r.random()
    if name == "logsumexp":
        return g.run(fn_or_meth(g, name, x, d, **({"keepdim": True} if c < 0.3 else {})))
    if c < 0.3:
        return g.run(call("nn.functional." + name, R(x), dim=d, **kw))
    if c < 0.6:
        return g.run(call(name, R(x), d, **kw))
    return g.run(meth(R(x), name, d, **kw) if r.random() < 0.5 else meth(R(x), name, dim=d, **kw))


def b_clamp_where(g, x):
    r = g.rng
    t = g.val(x)
    name = r.choice(["clamp", "clamp", "clamp_min", "clamp_max", "clip", "where", "where", "where_m"])
    if name in ("clamp", "clip"):
        c = r.random()
        lo = r.choice([-0.5, -1, 0, None, 1.0])
        hi = r.choice([0.5, 2, None, 0, -1.0])
        if c < 0.2:
            lo = g.const(g.bcast_shape(list(t.shape)), t_dtype(t))
            hi = None if r.random() < 0.5 else g.const(g.bcast_shape(list(t.shape)), t_dtype(t))
        if r.random() < 0.5:
            return g.run(fn_or_meth(g, name, x, lo, hi))
        kw = {}
        if lo is not None:
            kw["min"] = lo
        if hi is not None or r.random() < 0.2:
            kw["max"] = hi
        return g.run(fn_or_meth(g, name, x, **kw))
    if name in ("clamp_min", "clamp_max"):
        return g.run(fn_or_meth(g, name, x, r.choice([0, 0.5, -1])))
    cond = g.const(g.bcast_shape(list(t.shape)), "bool")
    other = g.other(t)
    if name == "where_m":
        return g.run(meth(R(x), "where", cond, other))
    if r.random() < 0.5:
        return g.run(call("where", cond, R(x), other))
    return g.run(call("where", cond, other, R(x)))


def b_cumsort(g, x):
    r = g.rng
    t = g.val(x)
    nd = t.dim()
    name = r.choice(["cumsum", "sort", "sort", "topk", "topk", "argsort", "flip"])
    d = g.dim(t)
    if name == "cumsum":
        kw = {"dtype": {"dt": r.choice(["float64", "int64", "float32"])}} if r.random() < 0.15 else {}
        return g.run(fn_or_meth(g, "cumsum", x, d, **kw) if r.random() < 0.7 else fn_or_meth(g, "cumsum", x, dim=d, **kw))
    if name == "sort":
        kw = {}
        if r.random() < 0.5:
            kw["descending"] = r.random() < 0.5
        if r.random() < 0.3:
            kw["stable"] = True
        if r.random() < 0.3:
            return g.run(fn_or_meth(g, "sort", x, **kw))
        return g.run(fn_or_meth(g, "sort", x, dim=d, **kw))
    if name == "topk":
        size = t.shape[d] if nd and -nd <= d < nd else 1
        k = r.randint(0, size) if r.random() > 0.05 else size + 1
        kw = {}
        if r.random() < 0.5:
            kw["largest"] = r.random() < 0.5
        if r.random() < 0.2:
            kw["sorted"] = True
        return g.run(fn_or_meth(g, "topk", x, k, dim=d, **kw) if r.random() < 0.5 else fn_or_meth(g, "topk", x, k, d, **kw))
    if name == "argsort":
        return g.run(fn_or_meth(g, "argsort", x, dim=d, descending=r.random() < 0.5))
    return g.run(fn_or_meth(g, "flip", x, [d]))


def b_compare(g, x):
    r = g.rng
    t = g.val(x)
    name = r.choice("eq ne lt le gt ge equal allclose isclose maximum minimum isnan isinf isfinite".split())
    if name in ("isnan", "isinf", "isfinite"):
        return g.run(fn_or_meth(g, name, x))
    if name in ("equal", "allclose", "isclose"):
        c = r.random()
        if c < 0.4:
            b = R(x)
        else:
            b = g.const(list(t.shape) if r.random() < 0.8 else g.bcast_shape(list(t.shape)), t_dtype(t))
        kw = {}
        if name != "equal" and r.random() < 0.5:
            kw = {"rtol": r.choice([0.0, 1e-3]), "atol": r.choice([0.0, 0.5]), "equal_nan": r.random() < 0.5}
        return g.run(fn_or_meth(g, name, x, b, **kw))
    b = g.other(t, allow_scalar=name not in ("maximum", "minimum"))
    return g.run(fn_or_meth(g, name, x, b))


BUILDERS = {
    "unary": b_unary, "binary": b_binary, "reduce": b_reduce, "shape": b_shape, "index": b_index,
    "inplace": b_inplace, "matmul": b_matmul, "softmax": b_softmax, "clamp_where": b_clamp_where,
    "cumsort": b_cumsort, "compare": b_compare,
}
# what a "tail" may append after the category's own op (keeps programs short chains)
TAIL = [b_unary, b_binary, b_reduce, b_shape, b_softmax, b_index, b_cumsort]


def gen_program(category, index):
    pid = f"{category}-{index:06d}"
    rng = random.Random(pid)
    g = Gen(pid, rng)
    floats_only = category in ("softmax", "matmul") and rng.random() < 0.85
    nin = 1
    if category in ("binary", "mixed") and rng.random() < 0.6:
        nin = 2
    shp = g.shape(max_nd=3 if category == "matmul" else 4)
    if category == "matmul" and len(shp) == 0 and rng.random() < 0.8:
        shp = [rng.choice([1, 2, 3]), rng.choice([2, 3, 4])]
    if category == "mixed":
        dt = g.dtype(floats_only=rng.random() < 0.7)
    else:
        dt = g.dtype(floats_only)
    positive = category == "unary" and rng.random() < 0.5
    g.add_input(g.spec(shp, dt, positive=positive))
    if nin == 2:
        dt2 = dt if rng.random() < 0.7 else g.dtype()
        g.add_input(g.spec(g.bcast_shape(shp), dt2))
    if category == "mixed":
        builders = list(BUILDERS.values())
        for _ in range(rng.randint(2, 5)):
            xs = g.tensors()
            x = xs[-1] if rng.random() < 0.7 else rng.choice(xs)
            b = rng.choice(builders)
            ok = b_binary(g, x, rng.choice(xs)) if b is b_binary and len(xs) > 1 and rng.random() < 0.5 else b(g, x)
            if not ok or g.last_tensor() is None:
                break
    else:
        b = BUILDERS.get(category, b_binary)
        ok = b_binary(g, 0, 1) if category == "binary" and nin == 2 else b(g, 0)
        for _ in range(rng.choice([0, 0, 1, 1, 2])):
            if not ok or g.failed:
                break
            x = g.last_tensor()
            if x is None:
                break
            ok = rng.choice(TAIL)(g, x)
    return g.prog


CATEGORIES = {
    "unary": 900, "binary": 1100, "reduce": 1000, "shape": 1100, "index": 1000, "inplace": 1000,
    "matmul": 700, "softmax": 600, "clamp_where": 700, "cumsort": 700, "compare": 600, "mixed": 1100,
}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--only", help="comma-separated categories")
    ap.add_argument("--count", type=int, help="programs per category (default: the built-in counts)")
    ap.add_argument("--out", default=os.path.join(ROOT, "tests", "fuzz", "corpus"))
    args = ap.parse_args()
    torch.set_num_threads(1)
    os.makedirs(args.out, exist_ok=True)
    cats = args.only.split(",") if args.only else list(CATEGORIES)
    total = 0
    for cat in cats:
        n = args.count or CATEGORIES[cat]
        path = os.path.join(args.out, f"{cat}.jsonl.gz")
        nerr = 0
        # mtime=0: the same corpus gives byte-identical files
        with open(path, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0, filename="") as f:
            for i in range(n):
                prog = gen_program(cat, i)
                torch.manual_seed(0)
                prog["rec"] = program.run(prog, torch)
                nerr += prog["rec"]["err"] is not None
                f.write((json.dumps(prog, separators=(",", ":")) + "\n").encode())
        total += n
        print(f"{cat}: {n} programs ({nerr} raise in PyTorch) -> {os.path.relpath(path, ROOT)} "
              f"({os.path.getsize(path) // 1024} KiB)")
    print(f"total {total}")


if __name__ == "__main__":
    main()
