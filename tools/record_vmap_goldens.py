"""Record PyTorch's outputs for the vmap rule cases of tests/python/test_vmap_rules.py into
tests/python/fixtures/vmap_rules.json (run with the PyTorch wheel, outside the test venv):

    python tools/record_vmap_goldens.py

The cases are the test module's own CASES, executed with ``torch`` bound to PyTorch: the
inputs come from ``manual_seed(0)`` streams, which ferrograd reproduces value for value."""

import json
import pathlib
import re

import torch

ROOT = pathlib.Path(__file__).resolve().parents[1]
src = (ROOT / "tests" / "python" / "test_vmap_rules.py").read_text()
head = src[:src.index("@pytest.mark.parametrize")].replace("import pytest\n", "")
head = head.replace("import ferrograd as torch", "import torch").replace(
    "import ferrograd.nn.functional as F", "import torch.nn.functional as F").replace(
    "from ferrograd import func", "from torch import func")
head = re.sub(r"@contextlib.contextmanager\ndef _loop_mode\(\):.*?\n\n\n", "", head, flags=re.S)
ns = {}
exec(compile(head, "test_vmap_rules.py", "exec"), ns)


def plain(x):
    if isinstance(x, torch.Tensor):
        return {"shape": list(x.shape), "dtype": str(x.dtype).replace("torch.", ""),
                "data": x.detach().double().flatten().tolist()}
    if isinstance(x, (tuple, list)):
        return [plain(e) for e in x]
    return x


out = {}
for name in ns["CASES"]:
    f, args, in_dims, out_dims = ns["_case"](name)
    try:
        out[name] = {"value": plain(torch.func.vmap(f, in_dims=in_dims, out_dims=out_dims)(*args))}
    except Exception as e:  # recorded as PyTorch's error
        out[name] = {"error": [type(e).__name__, str(e)[:300]]}
path = ROOT / "tests" / "python" / "fixtures" / "vmap_rules.json"
path.write_text(json.dumps(out, indent=0, allow_nan=True))
print(f"{len(out)} cases, {sum('error' in v for v in out.values())} errors -> {path}")
