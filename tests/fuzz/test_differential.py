"""Differential fuzzing against PyTorch's recorded behaviour (tests/fuzz/corpus, recorded by
tools/record_fuzz_corpus.py) plus a finite-difference property on float64 programs.

``FERROGRAD_FUZZ_EXAMPLES`` sets how many corpus programs replay (default 1500, spread over
every category; ``all`` replays the whole corpus). Programs listed in known_mismatches.txt are
expected to mismatch until the core is fixed: such a program that now matches fails with a note
to delete its line, so the list only shrinks.
"""

import math
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ferrograd

import program
import replay

PROGRAMS = replay.sample(replay.load_corpus(), replay.budget_from_env())
KNOWN = replay.load_known()


def test_corpus_is_there():
    assert len(replay.load_corpus()) >= 10000
    assert len(PROGRAMS) >= min(1000, replay.budget_from_env() or 1000)


@pytest.mark.parametrize("prog", PROGRAMS, ids=[p["id"] for p in PROGRAMS])
def test_matches_pytorch(prog):
    mismatches = replay.replay(prog, ferrograd)
    pid = prog["id"]
    if pid in KNOWN:
        assert mismatches, (f"{pid} now matches PyTorch: delete its line from "
                            f"tests/fuzz/known_mismatches.txt ({KNOWN[pid]})")
        return
    assert not mismatches, (
        f"{pid} differs from PyTorch:\n" + "\n".join(f"  [{k}] {t}" for k, t in mismatches)
        + "\nprogram:\n" + replay.describe(prog)
        + f"\nreproduce: python tests/fuzz/replay.py --id {pid}")


def test_known_ids_exist():
    ids = {p["id"] for p in replay.load_corpus()}
    stale = sorted(k for k in set(KNOWN) - ids if k != "nocrash")
    assert not stale, f"known_mismatches.txt names programs not in the corpus: {stale[:10]}"


# ---- finite differences --------------------------------------------------------------------
# Programs whose every step is smooth almost everywhere: a small random jitter of the recorded
# inputs keeps them away from kinks and ties, so central differences are meaningful.
NON_SMOOTH = {
    "floor", "ceil", "trunc", "round", "sign", "floor_divide", "floordiv", "remainder", "mod",
    "fmod", "div", "abs", "relu", "clamp", "clip", "clamp_min", "clamp_max", "clamp_", "relu_",
    "abs_", "max", "min", "amax", "maximum", "minimum", "sort", "topk", "argsort", "norm", "std",
    "sqrt", "sqrt_", "rsqrt", "log", "log2", "log10", "log1p", "pow", "pow_", "rpow", "reciprocal",
    "truediv", "itruediv", "div_", "true_divide", "asin", "acos", "tan", "median", "round_dec",
    "setitem", "masked_fill", "masked_fill_", "where", "to", "half", "float", "long", "int", "bool",
}


def _fd_candidate(p):
    rec = p["rec"]
    if rec["err"] or rec["gerr"] or not rec["grads"]:
        return False
    if not all(s["dtype"] == "float64" for s in p["inputs"] if s.get("rg")):
        return False
    if any(s["dtype"] == "float64" and not s.get("rg") for s in p["inputs"]):
        return False
    if sum(len(s["data"]) for s in p["inputs"]) > 40:
        return False
    for st in p["steps"]:
        if program.step_name(st) in NON_SMOOTH:
            return False
    for s in p["inputs"]:
        if not all(isinstance(v, float) and math.isfinite(v) and abs(v) < 50 for v in s["data"]):
            return False
    # every recorded value and gradient finite (no 0/0, var of one element, overflow ...)
    return _finite(rec["out"]) and _finite(rec["grads"])


def _finite(enc):
    if isinstance(enc, list):
        return all(_finite(x) for x in enc)
    if isinstance(enc, dict):
        if "T" in enc:
            if enc["T"]["dtype"] in ("float32", "float16"):
                return False  # central differences need float64 all the way
            return all(not isinstance(v, float) or math.isfinite(v) for v in enc["T"]["v"])
        if "L" in enc:
            return _finite(enc["L"])
        if "S" in enc:
            return not isinstance(enc["S"], float) or math.isfinite(enc["S"])
    return True


def _contig(p):
    """The program with every input stored contiguously (same logical values), so that
    perturbing data[j] perturbs exactly element j of the leaf."""
    specs = []
    for s in p["inputs"]:
        t = program.make_tensor(s, ferrograd)
        specs.append(dict(s, layout="contig", data=t.detach().reshape(-1).tolist()))
    return dict(p, inputs=specs)


FD_PROGRAMS = [p for p in replay.load_corpus() if _fd_candidate(p)]
FD_EXAMPLES = 60 if replay.budget_from_env() is not None else 600


def test_fd_pool_is_large():
    assert len(FD_PROGRAMS) >= 300


@settings(max_examples=FD_EXAMPLES, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(idx=st.integers(min_value=0, max_value=len(FD_PROGRAMS) - 1), seed=st.integers(0, 2**32 - 1))
def test_gradients_match_central_differences(idx, seed):
    prog = _contig(FD_PROGRAMS[idx])
    if prog["id"] in KNOWN:
        return  # a known forward/backward mismatch: the differential test tracks it
    rng = random.Random(seed)
    data = [[v + rng.uniform(-0.05, 0.05) for v in s["data"]] for s in prog["inputs"]]
    grads = program.grads_at(prog, ferrograd, data)
    eps = 1e-6
    for k, s in enumerate(prog["inputs"]):
        if not s.get("rg"):
            continue
        for j in range(len(data[k])):
            plus = [list(d) for d in data]
            minus = [list(d) for d in data]
            plus[k][j] += eps
            minus[k][j] -= eps
            fp = program.forward_loss(prog, ferrograd, plus)
            fm = program.forward_loss(prog, ferrograd, minus)
            num = (fp - fm) / (2 * eps)
            got = grads[k][j]
            assert abs(got - num) <= 1e-4 * max(1.0, abs(num)), (
                f"{prog['id']}: d loss / d input{k}[{j}] = {got} by autograd, {num} by central "
                f"differences\n{replay.describe(prog)}")
