"""Record the random-stream and small-integer goldens from PyTorch:
`.venv-bench/bin/python tools/record_random_goldens.py` (writes tests/python/fixtures/random.json)."""

import json
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "python"))


def main():
    import torch

    import random_scenarios

    out = {name: f(torch) for name, f in random_scenarios.SCENARIOS.items()}
    path = ROOT / "tests" / "python" / "fixtures" / "random.json"
    path.write_text(json.dumps(out, indent=1, sort_keys=True))
    print("wrote", path)


if __name__ == "__main__":
    main()
