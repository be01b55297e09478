"""Root causes of the mismatches found by the differential fuzzer (see FINDINGS.md).

``cause(prog, mismatches)`` names the first matching root cause of a mismatching program;
``python tests/fuzz/classify.py`` replays the whole corpus and prints the count and first
examples per cause; ``--write-known`` rewrites known_mismatches.txt from the current build
(only after the lead's fixes landed: review the diff -- it should only lose lines).
"""

import collections
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:
    sys.path.insert(0, HERE)
import replay  # noqa: E402

# (label, kinds, regex on the mismatch text) -- first match wins; ordered by importance.
RULES = [
    ("C01 Rust panic (PanicException, a BaseException) for a dim argument of a 0-dim tensor",
     None, r"panick|PanicException"),
    ("C02 view() of a non-viewable tensor returns instead of raising", {"no-error"}, r"\(view\).*view size is not compatible"),
    ("C03 softmax/log_softmax of an empty bool/integer tensor: torch keeps the input dtype", {"dtype"}, r"\((nn\.functional\.)?(log_)?softmax\)"),
    ("C04 fmod computes remainder (sign of divisor)", {"values"}, r"\(fmod\)"),
    ("C05 remainder/fmod/div(rounding_mode)/floor_divide: no or wrong grad_fn (not differentiable)",
     {"grad_fn"}, r"\((remainder|fmod|mod|div|floor_divide|floordiv)\).*grad_fn (None|TruncBackward0|DivBackward0) vs torch"),
    ("C06 backward propagates NaN/inf through masked branches (0*nan) or differs", {"grads", "grads-dtype", "grads-shape", "grads-kind"}, r""),
    ("C07 zero-size tensors with odd strides count as non-contiguous (in-place on views refused)", {"unexpected-error", "error-step"}, r"view of a non-contiguous base"),
    ("C08 fill_/zero_/masked_fill_/setitem on a stride-0 (expanded) tensor refused; torch allows", {"unexpected-error"}, r"more than one element of the written-to"),
    ("C09 clamp/clip with tensor min/max unsupported", {"unexpected-error", "error-step", "error-type"}, r"cannot be converted to Scalar"),
    ("C10 missing torch-level functions bitwise_and/or/xor", None, r"has no attribute 'bitwise_"),
    ("C11 round(decimals=) unsupported", None, r"unexpected keyword argument 'decimals'"),
    ("C12 split(list of sizes) / squeeze(tuple of dims) unsupported", None, r"'(list|tuple)' object cannot be interpreted as an integer"),
    ("C13 bool tensors refused by clamp/clip/sign/relu (torch accepts or words it differently)", None, r"operation not supported for bool tensors"),
    ("C14 integer pow with negative tensor exponents raises", None, r"Integers to negative integer powers"),
    ("C15 missing dtype checks: op returns where torch refuses the dtype", {"no-error"},
     r"not implemented for|does not support bool|Subtraction, the `-` operator|Autograd not support dtype|cannot be converted to type|alpha must not be a floating"),
    ("C16 missing argument checks: op returns where torch raises (TypeError / shape)", {"no-error"}, r""),
    ("C17 wrong values (other)", {"values"}, r""),
    ("C18 wrong result dtype", {"dtype"}, r""),
    ("C19 wrong result shape / arity (nonzero, one-argument where on 0-dim)", {"shape", "kind"}, r""),
    ("C20 grad_fn names differ", {"grad_fn", "requires_grad"}, r""),
    ("C21 exception type differs (RuntimeError vs NotImplementedError/IndexError/TypeError ...)", {"error-type", "error-step"}, r""),
    ("C22 op raises where torch returns (other)", {"unexpected-error"}, r""),
    ("C23 exception message differs", {"error-msg"}, r""),
    ("C24 strides of views differ", {"stride"}, r""),
    ("C99 harness", {"harness"}, r""),
]


def cause(mismatches):
    for kind, text in mismatches:
        for label, kinds, rx in RULES:
            if (kinds is None or kind in kinds) and re.search(rx, text):
                return label
    return "C98 unclassified: " + mismatches[0][0]


def main():
    import argparse

    import ferrograd

    ap = argparse.ArgumentParser()
    ap.add_argument("--show", type=int, default=2)
    ap.add_argument("--write-known", action="store_true")
    args = ap.parse_args()
    groups = collections.defaultdict(list)
    for p in replay.load_corpus():
        mm = replay.replay(p, ferrograd)
        if mm:
            groups[cause(mm)].append((p, mm))
    total = sum(len(v) for v in groups.values())
    print(f"{total} mismatching programs")
    for label in sorted(groups):
        items = groups[label]
        print(f"\n## {label}: {len(items)}")
        for p, mm in items[: args.show]:
            print(f"- {p['id']}: {mm[0][1][:400]}")
            print(replay.describe(p))
    if args.write_known:
        with open(replay.KNOWN) as fh:
            keep = [ln for ln in fh if ln.startswith("#") or ln.startswith("nocrash ")]
        with open(replay.KNOWN, "w") as fh:
            fh.writelines(keep)
            for label in sorted(groups):
                for p, _ in sorted(groups[label], key=lambda x: x[0]["id"]):
                    fh.write(f"{p['id']} {label.split(' ', 1)[0]} {label.split(' ', 1)[1][:80]}\n")


if __name__ == "__main__":
    main()
