"""Record PyTorch's results for tests/python/distributions_extra_scenarios.py into
tests/python/fixtures/distributions_extra.json (run with the PyTorch wheel, outside the test
venv):

    .venv-bench/bin/python tools/record_distributions_extra_goldens.py
"""

import json
import pathlib
import sys

import torch

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "python"))
import distributions_extra_scenarios  # noqa: E402

out = distributions_extra_scenarios.run(torch)
path = ROOT / "tests" / "python" / "fixtures" / "distributions_extra.json"
path.write_text(json.dumps(out, indent=0, sort_keys=True) + "\n")
print(f"{len(out)} results -> {path}")
