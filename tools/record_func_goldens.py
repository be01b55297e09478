"""Record the goldens of tests/python/test_func_forward_ad_checkpoint.py with real PyTorch
(the tests never import torch):

    .venv-bench/bin/python tools/record_func_goldens.py

Runs every scenario of tests/python/func_scenarios.py (torch.func, forward-mode AD,
torch.utils.checkpoint) with PyTorch and writes tests/python/fixtures/func.json.
"""

import json
import os
import sys

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
TESTS = os.path.join(ROOT, "tests", "python")
sys.path.insert(0, TESTS)

import func_scenarios  # noqa: E402


def main():
    torch.manual_seed(0)
    goldens = {"torch_version": torch.__version__, "scenarios": {}}
    for scenario in func_scenarios.SCENARIOS:
        goldens["scenarios"][scenario.__name__] = scenario(torch)
    path = os.path.join(TESTS, "fixtures", "func.json")
    with open(path, "w") as fh:
        json.dump(goldens, fh, indent=1, sort_keys=True)
        fh.write("\n")
    print("wrote", path, len(goldens["scenarios"]), "scenarios")


if __name__ == "__main__":
    main()
