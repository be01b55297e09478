"""Record PyTorch's results for the complex-tensor scenarios of
tests/python/complex_scenarios.py into tests/python/fixtures/complex_goldens.json (run with
the PyTorch wheel, outside the test venv):

    python tools/record_complex_goldens.py
"""

import json
import pathlib
import sys
import warnings

import torch

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "python"))
import complex_scenarios as S  # noqa: E402

warnings.simplefilter("ignore")
out = {name: S.plain(torch, S.run(torch, name)) for name in S.SCENARIOS}
path = ROOT / "tests" / "python" / "fixtures" / "complex_goldens.json"
path.write_text(json.dumps(out, indent=0, allow_nan=True))
print(f"{len(out)} scenarios -> {path}")
