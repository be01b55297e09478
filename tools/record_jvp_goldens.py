"""Record the goldens of tests/python/test_jvp.py with real PyTorch (the tests never import
torch):

    .venv-bench/bin/python tools/record_jvp_goldens.py

Runs every case of tests/python/jvp_cases.py under ``torch.autograd.forward_ad`` and writes
the primal outputs and their tangents to tests/python/fixtures/jvp.json.
"""

import json
import os
import sys

import torch
import torch.autograd.forward_ad as fwAD

HERE = os.path.dirname(os.path.abspath(__file__))
TESTS = os.path.join(os.path.dirname(HERE), "tests", "python")
sys.path.insert(0, TESTS)

import jvp_cases  # noqa: E402


def run_case(fn, specs, seed):
    inputs, tangents = jvp_cases.make_values(specs, seed)
    with fwAD.dual_level():
        args = []
        for spec, tan in zip(inputs, tangents):
            x = jvp_cases.build(torch, spec)
            if tan is not None:
                x = fwAD.make_dual(x, torch.tensor(tan, dtype=torch.float64).reshape(x.shape))
            args.append(x)
        out = fn(torch, *args)
        outs = out if isinstance(out, tuple) else (out,)
        res = []
        for o in outs:
            p, t = fwAD.unpack_dual(o)
            res.append({"primal": p.tolist(), "tangent": None if t is None else t.tolist()})
    return res


def main():
    goldens = {"torch_version": torch.__version__, "cases": {}}
    for name, fn, specs in jvp_cases.CASES:
        goldens["cases"][name] = run_case(fn, specs, seed=jvp_cases.seed_of(name))
    path = os.path.join(TESTS, "fixtures", "jvp.json")
    with open(path, "w") as fh:
        json.dump(goldens, fh, sort_keys=True)
        fh.write("\n")
    print("wrote", path, len(goldens["cases"]), "cases")


if __name__ == "__main__":
    main()
