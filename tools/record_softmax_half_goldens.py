"""Record PyTorch's results for tests/python/softmax_half_scenarios.py into
tests/python/fixtures/softmax_half.json (run with the PyTorch wheel, outside the test venv):

    .venv-bench/bin/python tools/record_softmax_half_goldens.py
"""

import json
import pathlib
import sys

import torch

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "python"))
import softmax_half_scenarios  # noqa: E402

torch.set_num_threads(1)
out = softmax_half_scenarios.run(torch)
path = ROOT / "tests" / "python" / "fixtures" / "softmax_half.json"
path.write_text(json.dumps(out, sort_keys=True) + "\n")
print(f"{len(out)} cases -> {path} ({path.stat().st_size // 1024} KiB)")
