"""Record PyTorch's results for tests/python/add_alpha_scenarios.py into
tests/python/fixtures/add_alpha.json (run with the PyTorch wheel, outside the test venv):

    .venv-bench/bin/python tools/record_add_alpha_goldens.py
"""

import json
import pathlib
import sys

import torch

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "python"))
import add_alpha_scenarios  # noqa: E402

torch.set_num_threads(1)
out = add_alpha_scenarios.run(torch)
path = ROOT / "tests" / "python" / "fixtures" / "add_alpha.json"
path.write_text(json.dumps(out, indent=0, sort_keys=True) + "\n")
print(f"{len(out)} results -> {path}")
