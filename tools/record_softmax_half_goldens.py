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

# rows over the last dim do not depend on the thread count; over another dim they do (which
# columns take ATen's vector path), so those are recorded at two threads as well
out = {}
for threads in (1, 2):
    torch.set_num_threads(threads)
    cases = softmax_half_scenarios.run(torch)
    out[str(threads)] = {k: v for k, v in cases.items() if threads == 1 or " dim " in k}
path = ROOT / "tests" / "python" / "fixtures" / "softmax_half.json"
path.write_text(json.dumps(out, sort_keys=True) + "\n")
print(f"{len(out['1'])} cases at one thread, {len(out['2'])} at two -> {path} ({path.stat().st_size // 1024} KiB)")
