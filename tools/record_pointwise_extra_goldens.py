"""Record the goldens of tests/python/test_pointwise_extra.py with real PyTorch (the tests never
import torch):

    .venv-bench/bin/python tools/record_pointwise_extra_goldens.py

Runs every scenario of tests/python/pointwise_extra_scenarios.py (lerp, addcmul, addcdiv,
cumprod, addmm, addmv, baddbmm: values, gradients, double backward, grad_fn names, errors) and
writes the results to tests/python/fixtures/pointwise_extra.json.
"""

import json
import os
import sys

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
TESTS = os.path.join(os.path.dirname(HERE), "tests", "python")
sys.path.insert(0, TESTS)

import pointwise_extra_scenarios  # noqa: E402


def main():
    goldens = {"torch_version": torch.__version__, "scenarios": {}}
    for name, fn in pointwise_extra_scenarios.SCENARIOS:
        goldens["scenarios"][name] = fn(torch)
    path = os.path.join(TESTS, "fixtures", "pointwise_extra.json")
    with open(path, "w") as fh:
        json.dump(goldens, fh, sort_keys=True, indent=1)
        fh.write("\n")
    print("wrote", path, len(goldens["scenarios"]), "scenarios")


if __name__ == "__main__":
    main()
