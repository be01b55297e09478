"""Record PyTorch's results for tests/python/column_sum_scenarios.py into
tests/python/fixtures/column_sums.json (run with the PyTorch wheel, outside the test venv):

    .venv-bench/bin/python tools/record_column_sum_goldens.py
"""

import json
import pathlib
import sys

import torch

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "python"))
import column_sum_scenarios  # noqa: E402

torch.set_num_threads(1)
out = column_sum_scenarios.run(torch)
out["_cpu_capability"] = torch.backends.cpu.get_cpu_capability()
path = ROOT / "tests" / "python" / "fixtures" / "column_sums.json"
path.write_text(json.dumps(out, indent=0, sort_keys=True) + "\n")
print(f"{len(out)} results -> {path} ({out['_cpu_capability']})")
