"""Record the goldens of tests/python/test_nn_layers.py with real PyTorch.

Run from the repository root with the benchmark environment (the one that has torch):

    .venv-bench/bin/python tools/record_nn_layer_goldens.py

It runs every scenario of tests/python/nn_layer_scenarios.py against torch and writes
tests/python/fixtures/nn_layers.json (the scenarios' plain results plus the torch version).
"""

import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests", "python"))

import torch  # noqa: E402

import nn_layer_scenarios  # noqa: E402


def main():
    results = nn_layer_scenarios.run_all(torch)
    crashed = {k: v for k, v in results.items() if isinstance(v, list) and v and v[0] == "crashed"}
    if crashed:
        raise SystemExit(f"scenarios crashed under torch: {crashed}")
    out = {"torch_version": torch.__version__, "scenarios": results}
    path = os.path.join(ROOT, "tests", "python", "fixtures", "nn_layers.json")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        json.dump(out, f, indent=1, sort_keys=True, allow_nan=True)
        f.write("\n")
    print(f"wrote {len(results)} scenarios to {os.path.relpath(path, ROOT)}")


if __name__ == "__main__":
    main()
