"""Record PyTorch's results for tests/python/programs2_scenarios.py into
tests/python/fixtures/programs2.json (run with the PyTorch wheel, outside the test venv):

    .venv-bench/bin/python tools/record_programs2_goldens.py
"""

import json
import pathlib
import sys

import torch

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "python"))
import programs2_scenarios  # noqa: E402

out = programs2_scenarios.run(torch)
path = ROOT / "tests" / "python" / "fixtures" / "programs2.json"
path.write_text(json.dumps(out, indent=0, sort_keys=True) + "\n")
print(f"{len(out)} results -> {path}")
