"""Record PyTorch's grad_fn ``_saved_*`` fields for tests/python/saved_fields_scenarios.py into
tests/python/fixtures/saved_fields.json (run with the PyTorch wheel, outside the test venv):

    .venv-bench/bin/python tools/record_saved_fields_goldens.py
"""

import json
import pathlib
import sys

import torch

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "python"))
import saved_fields_scenarios  # noqa: E402

out = saved_fields_scenarios.run(torch)
path = ROOT / "tests" / "python" / "fixtures" / "saved_fields.json"
path.write_text(json.dumps(out, indent=0, sort_keys=True) + "\n")
print(f"{len(out)} results -> {path}")
