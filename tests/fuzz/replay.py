"""Load the fuzz corpus, replay programs on ferrograd and compare with PyTorch's records.

Used by ``test_differential.py``; also a command-line report of every mismatch, grouped::

    python tests/fuzz/replay.py                 # all programs: counts per mismatch kind
    python tests/fuzz/replay.py --show 3        # plus 3 examples per group
    python tests/fuzz/replay.py --id binary-000042   # one program, in full
"""

import glob
import gzip
import json
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:
    sys.path.insert(0, HERE)
import program  # noqa: E402

CORPUS = os.path.join(HERE, "corpus")
KNOWN = os.path.join(HERE, "known_mismatches.txt")

# |got - want| <= ATOL * max(1, max|want|) + RTOL * |want|, per dtype; gradients get GRAD_SCALE x
RTOL = {"float16": 1e-2, "float32": 1e-4, "float64": 1e-9}
ATOL = {"float16": 1e-2, "float32": 1e-5, "float64": 1e-11}
GRAD_SCALE = 10.0


def load_corpus(path=CORPUS):
    """Every program of the corpus, in a fixed order (file name, then line)."""
    progs = []
    for f in sorted(glob.glob(os.path.join(path, "*.jsonl.gz"))):
        with gzip.open(f, "rt") as fh:
            for line in fh:
                progs.append(json.loads(line))
    return progs


def sample(progs, budget):
    """``budget`` programs spread evenly over the corpus (every category); all for None."""
    if budget is None or budget >= len(progs):
        return list(progs)
    stride = len(progs) / budget
    return [progs[int(i * stride)] for i in range(budget)]


def budget_from_env():
    v = os.environ.get("FERROGRAD_FUZZ_EXAMPLES", "1500").strip().lower()
    return None if v in ("all", "0", "") else int(v)


def load_known(path=KNOWN):
    """{program id: cause} of the mismatches waiting for a fix."""
    known = {}
    if not os.path.exists(path):
        return known
    with open(path) as fh:
        for line in fh:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            pid, _, cause = line.partition(" ")
            known[pid] = cause.strip()
    return known


def close(got, want, dtype, scale=1.0):
    """Element lists equal within the dtype's tolerance (NaN matches NaN)."""
    if len(got) != len(want):
        return False
    if dtype not in RTOL:
        return list(got) == list(want)
    finite = [abs(w) for w in want if isinstance(w, float) and math.isfinite(w)]
    mag = max([1.0] + finite)
    atol = ATOL[dtype] * scale * mag
    rtol = RTOL[dtype] * scale
    for a, b in zip(got, want):
        if isinstance(b, float) and math.isnan(b):
            if not (isinstance(a, float) and math.isnan(a)):
                return False
        elif isinstance(b, float) and math.isinf(b):
            if a != b:
                return False
        elif not (isinstance(a, (int, float)) and math.isfinite(a)) or abs(a - b) > atol + rtol * abs(b):
            return False
    return True


def short(vals, n=8):
    s = ", ".join(repr(v) for v in vals[:n])
    return "[" + s + (", ..." if len(vals) > n else "") + "]"


def cmp_value(got, want, where, view, out, scale=1.0, tol_dtype=None):
    """Append mismatch descriptions (kind, text) of one encoded result; ``tol_dtype`` (when
    looser) sets the tolerance instead of the result's own dtype."""
    if set(got) != set(want):
        out.append(("kind", f"{where}: result kind {list(got)} vs torch {list(want)}"))
        return
    if "T" in want:
        g, w = got["T"], want["T"]
        if g["dtype"] != w["dtype"]:
            out.append(("dtype", f"{where}: dtype {g['dtype']} vs torch {w['dtype']}"))
            return
        if g["shape"] != w["shape"]:
            out.append(("shape", f"{where}: shape {g['shape']} vs torch {w['shape']}"))
            return
        tol = w["dtype"]
        if tol_dtype in RTOL and tol in RTOL and RTOL[tol_dtype] > RTOL[tol]:
            tol = tol_dtype
        if not close(g["v"], w["v"], tol, scale):
            out.append(("values", f"{where}: values {short(g['v'])} vs torch {short(w['v'])}"))
        if g["gf"] != w["gf"]:
            out.append(("grad_fn", f"{where}: grad_fn {g['gf']} vs torch {w['gf']}"))
        if g["rg"] != w["rg"]:
            out.append(("requires_grad", f"{where}: requires_grad {g['rg']} vs torch {w['rg']}"))
        if view and w["v"]:
            gs = [s for s, n in zip(g["st"], w["shape"]) if n > 1]
            ws = [s for s, n in zip(w["st"], w["shape"]) if n > 1]
            if gs != ws:
                out.append(("stride", f"{where}: stride {g['st']} vs torch {w['st']}"))
    elif "L" in want:
        if len(got["L"]) != len(want["L"]):
            out.append(("kind", f"{where}: {len(got['L'])} results vs torch {len(want['L'])}"))
            return
        for i, (a, b) in enumerate(zip(got["L"], want["L"])):
            cmp_value(a, b, f"{where}[{i}]", view, out, scale, tol_dtype)
    elif "S" in want:
        if got["ty"] != want["ty"]:
            out.append(("kind", f"{where}: {got['ty']} {got['S']!r} vs torch {want['ty']} {want['S']!r}"))
        elif not close([got["S"]], [want["S"]], "float64" if want["ty"] == "float" else "int"):
            out.append(("values", f"{where}: {got['S']!r} vs torch {want['S']!r}"))
    elif got != want:
        out.append(("kind", f"{where}: {got} vs torch {want}"))


def cmp_exc(got, want, where, out):
    if got["base"] != want["base"] and got["type"] != want["type"]:
        out.append(("error-type", f"{where}: raised {got['type']}({got['msg'][:200]!r}) vs torch "
                                  f"{want['type']}({want['msg'][:200]!r})"))
    elif got["msg"] != want["msg"]:
        out.append(("error-msg", f"{where}: message {got['msg'][:200]!r} vs torch {want['msg'][:200]!r}"))


def _dtypes(v):
    if "T" in v:
        yield v["T"]["dtype"]
    elif "L" in v:
        for x in v["L"]:
            yield from _dtypes(x)


def lowest_precision(prog):
    """The float dtype with the loosest tolerance among the program's inputs and recorded
    results (None when there is none)."""
    seen = [s["dtype"] for s in prog["inputs"]]
    for v in prog["rec"]["out"]:
        seen.extend(_dtypes(v))
    return _loosest(seen)


def _loosest(dtypes):
    floats = [d for d in dtypes if d in RTOL]
    return max(floats, key=lambda d: RTOL[d]) if floats else None


def _refs(x):
    """What a step reads: register numbers (``{"r": k}``) and inline tensors' dtypes."""
    if isinstance(x, dict):
        if "r" in x:
            yield x["r"]
        elif "t" in x:
            yield x["t"]["dtype"]
        else:
            for v in x.values():
                yield from _refs(v)
    elif isinstance(x, (list, tuple)):
        for v in x:
            yield from _refs(v)


def step_precisions(prog):
    """For each step, the loosest float dtype among the values it was computed from (its
    ancestors and itself): a float64 result of float32 data is only float32-accurate."""
    reg = [{s["dtype"]} for s in prog["inputs"]]
    out = []
    for i, st in enumerate(prog["steps"]):
        anc = set()
        for k in _refs(st):
            if isinstance(k, str):
                anc.add(k)
            elif k < len(reg):
                anc |= reg[k]
        want = prog["rec"]["out"][i] if i < len(prog["rec"]["out"]) else None
        if want is not None:
            anc |= set(_dtypes(want))
        reg.append(anc)
        out.append(_loosest(anc))
    return out


def compare(prog, got):
    """Mismatches of ferrograd's record ``got`` against the recorded one: [(kind, text)]."""
    want = prog["rec"]
    out = []
    steps = prog["steps"]
    precision = step_precisions(prog)
    for i, (a, b) in enumerate(zip(got["out"], want["out"])):
        view = program.step_name(steps[i]) in program.VIEW_METHODS
        cmp_value(a, b, f"step {i} ({program.step_name(steps[i])})", view, out, tol_dtype=precision[i])
    we, ge = want["err"], got["err"]
    if we and not ge:
        if len(got["out"]) > we["step"]:
            out.append(("no-error", f"step {we['step']} ({program.step_name(steps[we['step']])}): "
                                    f"returned, torch raised {we['type']}({we['msg'][:200]!r})"))
    elif ge and not we:
        out.append(("unexpected-error", f"step {ge['step']} ({program.step_name(steps[ge['step']])}): "
                                        f"raised {ge['type']}({ge['msg'][:200]!r}), torch returned"))
    elif ge and we:
        if ge["step"] != we["step"]:
            out.append(("error-step", f"raised at step {ge['step']} {ge['type']}({ge['msg'][:200]!r}) "
                                      f"vs torch at step {we['step']} {we['type']}({we['msg'][:200]!r})"))
        else:
            cmp_exc(ge, we, f"step {we['step']} ({program.step_name(steps[we['step']])})", out)
    if we or ge:
        return out
    if want["gerr"] or got["gerr"]:
        if want["gerr"] and got["gerr"]:
            cmp_exc(got["gerr"], want["gerr"], "backward", out)
        elif want["gerr"]:
            out.append(("no-error", f"backward: returned, torch raised {want['gerr']['type']}"
                                    f"({want['gerr']['msg'][:200]!r})"))
        else:
            out.append(("unexpected-error", f"backward: raised {got['gerr']['type']}"
                                            f"({got['gerr']['msg'][:200]!r}), torch returned"))
        return out
    if (want["grads"] is None) != (got["grads"] is None):
        out.append(("grads", f"backward ran: {got['grads'] is not None} vs torch {want['grads'] is not None}"))
    elif want["grads"]:
        for i, (a, b) in enumerate(zip(got["grads"], want["grads"])):
            if b is None and a is None:
                continue
            if (a is None) != (b is None):
                out.append(("grads", f"input {i}: grad {a} vs torch {b}"))
                continue
            n = len(out)
            # a gradient is only as precise as the lowest precision it flowed through (a
            # float64 input softmaxed in float32 has a float32-accurate gradient)
            cmp_value(a, b, f"input {i} grad", False, out, GRAD_SCALE, lowest_precision(prog))
            for j in range(n, len(out)):
                out[j] = ("grads" if out[j][0] == "values" else "grads-" + out[j][0], out[j][1])
    return out


def replay(prog, lib):
    """Run ``prog`` on ``lib`` and compare; an exception escaping the interpreter (a bug in the
    harness itself) is reported as such."""
    try:
        got = program.run(prog, lib)
    except Exception as e:  # noqa: BLE001 -- reported, never swallowed
        return [("harness", f"{type(e).__name__}: {e}")]
    return compare(prog, got)


def describe(prog):
    """The program as Python-ish text (for reports)."""
    lines = []
    for i, s in enumerate(prog["inputs"]):
        lines.append(f"  r{i} = input {s['dtype']} {s['shape']} layout={s.get('layout')} rg={s.get('rg')}"
                     f" data={short(s['data'], 6)}")
    n = len(prog["inputs"])
    for i, st in enumerate(prog["steps"]):
        lines.append(f"  r{n + i} = {json.dumps({k: v for k, v in st.items()})}")
    return "\n".join(lines)


def main():
    import argparse
    import collections

    ap = argparse.ArgumentParser()
    ap.add_argument("--show", type=int, default=0)
    ap.add_argument("--id")
    ap.add_argument("--budget", type=int)
    ap.add_argument("--write-known", help="write every mismatching id to this file")
    args = ap.parse_args()
    import ferrograd

    progs = sample(load_corpus(), args.budget)
    if args.id:
        progs = [p for p in progs if p["id"] == args.id]
    groups = collections.defaultdict(list)
    bad = {}
    for p in progs:
        mm = replay(p, ferrograd)
        if mm:
            bad[p["id"]] = mm[0]
            groups[mm[0][0]].append((p, mm))
        if args.id:
            print(describe(p))
            print(json.dumps(p["rec"])[:3000])
            print(json.dumps(program.run(p, ferrograd))[:3000])
            print(mm)
    print(f"{len(bad)} of {len(progs)} programs mismatch")
    for kind, items in sorted(groups.items(), key=lambda kv: -len(kv[1])):
        print(f"== {kind}: {len(items)}")
        for p, mm in items[: args.show]:
            print(f" {p['id']}: {mm[0][1]}")
            print(describe(p))
    if args.write_known:
        with open(args.write_known, "w") as fh:
            for pid, (kind, text) in sorted(bad.items()):
                fh.write(f"{pid} {kind}: {text[:150]}\n")


if __name__ == "__main__":
    main()
