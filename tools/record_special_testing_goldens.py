"""Record PyTorch's results for tests/python/special_testing_scenarios.py into
tests/python/fixtures/special_testing.json (run with the PyTorch wheel, outside the test venv):

    .venv-bench/bin/python tools/record_special_testing_goldens.py
"""

import json
import pathlib
import sys

import torch

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "python"))
import special_testing_scenarios  # noqa: E402

out = special_testing_scenarios.run(torch)
path = ROOT / "tests" / "python" / "fixtures" / "special_testing.json"
path.write_text(json.dumps(out, indent=0, sort_keys=True) + "\n")
print(f"{len(out)} results -> {path}")
