"""Worker of test_nocrash.py, run in a subprocess: hypothesis calls public ferrograd functions
and Tensor methods with hostile arguments; every call must return or raise an ``Exception``.

Before each call its description is written (and flushed) to the log file given as argv[1], so
that when the process dies (a segfault, an abort, a Rust panic that escapes as a
``BaseException``) the parent reports the exact call that killed it.

    python tests/fuzz/nocrash_worker.py LOG EXAMPLES
"""

import math
import os
import resource
import sys
import warnings

import hypothesis
import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

# a call that tries to allocate absurd sizes must fail inside the library, not thrash the host
try:
    resource.setrlimit(resource.RLIMIT_AS, (6 << 30, 6 << 30))
except (ValueError, OSError):
    pass

import ferrograd as torch  # noqa: E402
import ferrograd.nn.functional as F  # noqa: E402

warnings.filterwarnings("ignore")
# FERROGRAD_NOCRASH_COLLECT=FILE: survey mode, escaping BaseExceptions are listed, not fatal
COLLECT = os.environ.get("FERROGRAD_NOCRASH_COLLECT")

# Functions that change process-wide state in ways that are not about crashing (threads, seed,
# print options, default dtype) are called, then the state is restored after each example.
SKIP = {"compile", "set_num_threads", "get_num_threads", "seed", "manual_seed", "set_printoptions"}
TOP = sorted(n for n in dir(torch) if not n.startswith("_") and n not in SKIP
             and callable(getattr(torch, n)) and not isinstance(getattr(torch, n), type))
TOP = [n for n in TOP if n not in ("accelerator", "autograd", "cuda", "nn", "optim", "utils", "return_types")]
METHODS = sorted(n for n in dir(torch.Tensor) if not n.startswith("__") and n not in (
    "_register", "backward", "register_hook", "register_post_accumulate_grad_hook", "data_ptr")
    and callable(getattr(torch.Tensor, n, None)))
METHODS += ["backward", "__getitem__", "__setitem__", "__add__", "__mul__", "__matmul__",
            "__pow__", "__truediv__", "__floordiv__", "__mod__", "__and__", "__eq__", "__lt__",
            "__iadd__", "__rsub__", "__radd__", "__neg__", "__abs__", "__invert__", "__len__",
            "__bool__", "__float__", "__int__", "__index__", "__iter__", "__repr__", "__format__",
            "__array__", "__contains__", "__reversed__"]
FUNCS = [n for n in sorted(vars(F)) if not n.startswith("_") and callable(vars(F)[n])]
DTYPES = [torch.float32, torch.float64, torch.int64, torch.int32, torch.bool, torch.float16]
NAMES = ["float32", "float64", "int64", "int32", "bool", "float16"]


def self_ref_list():
    x = [1, 2]
    x.append(x)
    return x


def deep_list():
    x = [1.0]
    for _ in range(2000):
        x = [x]
    return x


# Sizes are small or astronomically large: a middling huge size (a few GiB) would be a real
# allocation, which is not what this test is about.
INTS = st.sampled_from([0, 1, 2, 3, -1, -2, -7, 5, 2**31, 2**31 - 1, -2**31, 2**62, 2**63 - 1,
                        -2**63, 2**63, 2**64, 10**30, -10**30])
FLOATS = st.sampled_from([0.0, -0.0, 1.5, -2.0, float("nan"), float("inf"), float("-inf"), 1e308,
                          -1e-320, 2.0**63, 1e20])
STRINGS = st.sampled_from(["cpu", "cuda", "cuda:0", "cuda:99", "cuda:-1", "cpu:0", "meta", "xla",
                           "", "garbage", "mean", "sum", "none", "fro", "floor", "trunc", "nuc",
                           "float32", "\x00", "é" * 3])


def make_tensor(spec):
    kind, shape_i, dt_i, rg, layout = spec
    shape = [(), (0,), (3,), (2, 3), (0, 4), (2, 0, 3), (1, 1, 1), (4, 2, 3)][shape_i]
    dt = DTYPES[dt_i]
    n = math.prod(shape)
    vals = {"zero": [0.0] * n, "nan": [float("nan")] * n, "big": [1e30, -1e30] * n,
            "range": [float(i) - 2 for i in range(n)]}[kind][:n]
    t = torch.tensor(vals, dtype=torch.float64).reshape(shape).to(dt)
    if layout == 1 and t.dim() >= 2:
        t = t.transpose(0, 1)
    elif layout == 2 and t.dim() >= 1:
        t = t.expand(2, *t.shape)
    if rg and dt.is_floating_point:
        t = t.detach().requires_grad_(True)
    return t


TENSOR_SPECS = st.tuples(st.sampled_from(["zero", "nan", "big", "range"]), st.integers(0, 7),
                         st.integers(0, 5), st.booleans(), st.integers(0, 2))


class Tagged:
    """A hostile argument and how to build it (so a crash log shows something readable)."""

    def __init__(self, desc, build):
        self.desc = desc
        self.build = build

    def __repr__(self):
        return self.desc


def leaf():
    return st.one_of(
        INTS.map(lambda v: Tagged(repr(v), lambda: v)),
        FLOATS.map(lambda v: Tagged(repr(v), lambda: v)),
        st.booleans().map(lambda v: Tagged(repr(v), lambda: v)),
        st.just(Tagged("None", lambda: None)),
        STRINGS.map(lambda v: Tagged(repr(v), lambda: v)),
        st.integers(0, 5).map(lambda i: Tagged(f"torch.{NAMES[i]}", lambda: DTYPES[i])),
        TENSOR_SPECS.map(lambda s: Tagged(f"tensor{s}", lambda: make_tensor(s))),
        st.sampled_from([
            Tagged("self_ref_list", self_ref_list), Tagged("deep_list", deep_list),
            Tagged("object()", object), Tagged("1j", lambda: 1j), Tagged("b'x'", lambda: b"x"),
            Tagged("Ellipsis", lambda: Ellipsis), Tagged("slice(None,None,-1)", lambda: slice(None, None, -1)),
            Tagged("slice(0,10**30,2)", lambda: slice(0, 10**30, 2)),
            Tagged("np.float64(nan)", lambda: np.float64("nan")), Tagged("np.int64(-1)", lambda: np.int64(-1)),
            Tagged("np.zeros((2,0))", lambda: np.zeros((2, 0))), Tagged("np.array([object()])", lambda: np.array([object()])),
            Tagged("np.ones(3,'>f8')", lambda: np.ones(3, ">f8")), Tagged("np.arange(6)[::-2]", lambda: np.arange(6)[::-2]),
            Tagged("torch.Size([2,3])", lambda: torch.Size([2, 3])), Tagged("torch.device('cpu')", lambda: torch.device("cpu")),
            Tagged("lambda", lambda: (lambda *a: None)), Tagged("[[1,2],[3]]", lambda: [[1, 2], [3]]),
            Tagged("[]", lambda: []), Tagged("[[]]", lambda: [[]]), Tagged("(2, -1)", lambda: (2, -1)),
            Tagged("[2**63]", lambda: [2**63]), Tagged("[1.5, 'a']", lambda: [1.5, "a"]),
            Tagged("{'a': 1}", lambda: {"a": 1}), Tagged("range(3)", lambda: range(3)),
        ]),
    )


def containers(children):
    return st.one_of(
        st.lists(children, max_size=4).map(lambda xs: Tagged("[" + ", ".join(map(repr, xs)) + "]",
                                                             lambda: [x.build() for x in xs])),
        st.lists(children, max_size=4).map(lambda xs: Tagged("(" + ", ".join(map(repr, xs)) + ",)",
                                                             lambda: tuple(x.build() for x in xs))),
    )


HOSTILE = st.recursive(leaf(), containers, max_leaves=6)
# plausible arguments (small dims/sizes, tensors, dtypes, flags) get calls past argument parsing
# into the kernels, where the shape arithmetic lives
PLAUSIBLE = st.one_of(
    st.integers(-3, 3).map(lambda v: Tagged(repr(v), lambda: v)),
    st.booleans().map(lambda v: Tagged(repr(v), lambda: v)),
    TENSOR_SPECS.map(lambda s: Tagged(f"tensor{s}", lambda: make_tensor(s))),
    st.lists(st.integers(-1, 3), max_size=3).map(lambda v: Tagged(repr(v), lambda: list(v))),
)
ARG = st.one_of(PLAUSIBLE, HOSTILE)
KWNAMES = st.sampled_from(["dim", "keepdim", "dtype", "device", "out", "requires_grad", "size",
                           "alpha", "min", "max", "p", "correction", "unbiased", "descending",
                           "k", "largest", "sorted", "stable", "rounding_mode", "decimals",
                           "memory_format", "non_blocking", "copy", "start_dim", "end_dim",
                           "weight", "reduction", "ignore_index", "label_smoothing", "inplace",
                           "retain_graph", "create_graph", "inputs", "gradient", "bogus"])
CALL = st.tuples(
    st.sampled_from(["top", "method", "functional"]),
    st.integers(0, 10**6),
    TENSOR_SPECS,
    st.lists(ARG, max_size=4),
    st.dictionaries(KWNAMES, ARG, max_size=2),
)


def describe(call):
    where, k, spec, args, kw = call
    a = ", ".join([repr(x) for x in args] + [f"{n}={v!r}" for n, v in kw.items()])
    if where == "top":
        return f"torch.{TOP[k % len(TOP)]}({a})"
    if where == "functional":
        return f"torch.nn.functional.{FUNCS[k % len(FUNCS)]}({a})"
    return f"tensor{spec}.{METHODS[k % len(METHODS)]}({a})"


def perform(call, log):
    where, k, spec, args, kw = call
    log.write(describe(call) + "\n")
    log.flush()
    os.fsync(log.fileno())
    default = torch.get_default_dtype()
    try:
        a = [x.build() for x in args]
        kws = {n: v.build() for n, v in kw.items()}
        if where == "top":
            fn = getattr(torch, TOP[k % len(TOP)])
        elif where == "functional":
            fn = getattr(F, FUNCS[k % len(FUNCS)])
        else:
            fn = getattr(make_tensor(spec), METHODS[k % len(METHODS)])
        out = fn(*a, **kws)
        if hasattr(out, "__next__"):
            for _ in zip(range(5), out):
                pass
        repr(out)
    except Exception:
        pass  # raising an Exception is allowed; anything else propagates and fails
    except BaseException as e:
        if not COLLECT or isinstance(e, (KeyboardInterrupt, SystemExit)):
            raise
        # survey mode: note the escaping BaseException and go on (finds every crash class)
        with open(COLLECT, "a") as fh:
            fh.write(f"{type(e).__name__}: {str(e)[:200]} <- {describe(call)}\n")
    finally:
        torch.set_default_dtype(default)


def main():
    log_path, examples = sys.argv[1], int(sys.argv[2])
    seed = int(sys.argv[3]) if len(sys.argv) > 3 else 0
    with open(log_path, "w") as log:

        @settings(max_examples=examples, deadline=None, database=None, derandomize=seed == 0,
                  suppress_health_check=list(HealthCheck), print_blob=True)
        @given(CALL)
        def hostile_call(call):
            perform(call, log)

        if seed:
            hostile_call = hypothesis.seed(seed)(hostile_call)
        hostile_call()
    print("OK", examples)


if __name__ == "__main__":
    main()
