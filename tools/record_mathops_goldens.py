"""Record PyTorch's results for tests/python/mathops_scenarios.py into
tests/python/fixtures/mathops.json (run with the PyTorch wheel, outside the test venv):

    .venv-bench/bin/python tools/record_mathops_goldens.py
"""

import json
import pathlib
import sys
import warnings

import torch

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "python"))
import mathops_scenarios  # noqa: E402

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    out = mathops_scenarios.run(torch)
path = ROOT / "tests" / "python" / "fixtures" / "mathops.json"
path.write_text(json.dumps(out, indent=0, sort_keys=True) + "\n")
print(f"{len(out)} results -> {path}")
