"""Record PyTorch's results for tests/python/sdpa_scenarios.py into tests/python/fixtures/sdpa.json
(run with the PyTorch wheel, outside the test venv):

    .venv-bench/bin/python tools/record_sdpa_goldens.py
"""

import json
import pathlib
import sys

import torch

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "python"))
import sdpa_scenarios  # noqa: E402

torch.set_num_threads(1)
out = sdpa_scenarios.run(torch)
path = ROOT / "tests" / "python" / "fixtures" / "sdpa.json"
path.write_text(json.dumps(out, sort_keys=True) + "\n")
print(f"{len(out)} scenarios -> {path} ({path.stat().st_size // 1024} KiB)")
