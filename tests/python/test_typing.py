"""Type checking as a user of ferrograd would see it.

* A typical PyTorch training script (tests/typing/train_mlp_cnn.py, written as
  ``import ferrograd as torch``) type-checks with ``mypy --strict`` and with pyright, and runs.
* The five seed tutorials (examples/seeds/) and the main job (examples/train_digits.py)
  type-check with mypy and pyright.
* The stubs themselves are valid (mypy over every ``.pyi``) and agree with the built module
  (``mypy.stubtest``, with the deliberate differences listed in
  tests/typing/stubtest_allowlist.txt).

mypy and pyright come with the ``test`` extra (README's test command installs them).
"""

import ast
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys

import pytest

import ferrograd

ROOT = pathlib.Path(__file__).resolve().parents[2]
TYPING = ROOT / "tests" / "typing"
SCRIPT = TYPING / "train_mlp_cnn.py"
ALLOWLIST = TYPING / "stubtest_allowlist.txt"
PKG = pathlib.Path(ferrograd.__file__).parent  # the package as installed (stubs included)


@pytest.fixture(scope="module")
def mypy_cache(tmp_path_factory):
    return str(tmp_path_factory.mktemp("mypy_cache"))


def mypy(args, cache, cwd):
    r = subprocess.run([sys.executable, "-m", "mypy", "--cache-dir", cache, "--no-color-output",
                        "--python-executable", sys.executable, *map(str, args)],
                       capture_output=True, text=True, cwd=cwd)
    return r.returncode, r.stdout + r.stderr


def pyright(files, cwd, **rules):
    """pyright in its default ("standard") mode; ``rules`` override single diagnostics."""
    config = {"pythonVersion": f"{sys.version_info.major}.{sys.version_info.minor}", **rules}
    cfg = pathlib.Path(cwd) / "pyrightconfig.json"
    cfg.write_text(json.dumps(config))
    r = subprocess.run([sys.executable, "-m", "pyright", "--outputjson", "--pythonpath", sys.executable,
                        "--project", str(cfg), *map(str, files)],
                       capture_output=True, text=True, cwd=cwd)
    try:
        report = json.loads(r.stdout)
    except json.JSONDecodeError:
        raise AssertionError(f"pyright did not run:\n{r.stdout}\n{r.stderr}")
    errors = [d for d in report["generalDiagnostics"] if d["severity"] == "error"]
    return report, errors


def fmt(errors):
    return "\n".join(f"{d['file']}:{d['range']['start']['line'] + 1}: {d['message']}" for d in errors)


def seed_modules(dest):
    """Each seed tutorial as one module: its notebook cells in order."""
    paths = []
    for src in sorted((ROOT / "examples" / "seeds").glob("seed_*.py")):
        tree = ast.parse(src.read_text())
        cells = next(ast.literal_eval(n.value) for n in tree.body
                     if isinstance(n, ast.Assign) and getattr(n.targets[0], "id", None) == "CELLS")
        out = pathlib.Path(dest) / src.name
        out.write_text("\n\n".join(code for _, code in cells) + "\n")
        paths.append(out)
    assert len(paths) == 5, paths
    return paths


# ---- the typical training script --------------------------------------------------------------------

def test_training_script_runs(tmp_path):
    r = subprocess.run([sys.executable, str(SCRIPT)], capture_output=True, text=True, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "MLP accuracy" in r.stdout and "CNN accuracy" in r.stdout and "parameters: 178" in r.stdout


def test_training_script_mypy_strict(mypy_cache, tmp_path):
    rc, out = mypy(["--strict", SCRIPT], mypy_cache, tmp_path)
    assert rc == 0 and "Success: no issues found" in out, out


def test_training_script_pyright(tmp_path):
    report, errors = pyright([SCRIPT], tmp_path)
    assert report["summary"]["filesAnalyzed"] >= 1
    assert errors == [], fmt(errors)


def test_operators_and_protocols_are_typed(mypy_cache, tmp_path):
    """reveal_type: the dunders, indexing, iteration and conversions give real types (not Any)."""
    probe = tmp_path / "probe.py"
    probe.write_text(
        "import ferrograd as torch\n"
        "x = torch.ones(2, 3, requires_grad=True)\n"
        "reveal_type(x + 1)\nreveal_type(2 * x)\nreveal_type(x @ x.T)\nreveal_type(x ** 2)\nreveal_type(-x)\n"
        "reveal_type(x[0, 1:])\nreveal_type(x > 0)\nreveal_type(len(x))\nreveal_type(float(x[0, 0]))\n"
        "reveal_type(int(x[0, 0]))\nreveal_type(bool(x[0, 0]))\nreveal_type([r for r in x])\n"
        "reveal_type(x.shape)\nreveal_type(x.size(0))\nreveal_type(x.max(1))\nreveal_type(x.grad)\n"
        "reveal_type(torch.no_grad())\nreveal_type(torch.zeros((2, 3)))\nreveal_type(x.item())\n"
        "reveal_type(torch.nn.Linear(3, 4)(x))\nreveal_type(torch.autograd.grad(x.sum(), x))\n")
    rc, out = mypy([probe], mypy_cache, tmp_path)
    revealed = re.findall(r'Revealed type is "([^"]+)"', out)
    assert len(revealed) == 21, out
    assert not [t for t in revealed if t == "Any"], out
    tensor = "ferrograd._C.Tensor"
    assert revealed[:7] == [tensor] * 7, revealed
    assert revealed[7:14] == ["int", "float", "int", "bool", f"list[{tensor}]", "ferrograd._helpers.Size", "int"], revealed
    assert revealed[14].startswith(f"tuple[{tensor}, {tensor}, fallback=ferrograd._helpers._ValuesIndices"), revealed
    assert revealed[15] == f"{tensor} | None"
    assert revealed[16] == "ferrograd.autograd.grad_mode.no_grad"
    assert revealed[17] == tensor
    assert revealed[18] in ("int | float", "bool | int | float"), revealed
    assert revealed[19] == tensor
    assert revealed[20] == f"tuple[{tensor}, ...]"


# ---- the seed tutorials and the main job ----------------------------------------------------------------

def test_seed_examples_mypy(mypy_cache, tmp_path):
    """Zero errors. The tutorials read ``x.grad.data`` without a None check; PyTorch's own stubs
    type ``grad`` as ``Optional[Tensor]`` too and mypy reports those lines identically, so that
    one error code is off here and the next test pins that it is the only thing off."""
    seeds = seed_modules(tmp_path)
    rc, out = mypy(["--allow-redefinition", "--disable-error-code", "union-attr", *seeds], mypy_cache, tmp_path)
    assert rc == 0 and "Success: no issues found in 5 source files" in out, out


def test_seed_examples_only_optional_grad_errors(mypy_cache, tmp_path):
    seeds = seed_modules(tmp_path)
    rc, out = mypy(["--allow-redefinition", *seeds], mypy_cache, tmp_path)
    errors = [l for l in out.splitlines() if ": error:" in l]
    assert errors, out  # the tutorials do read .grad without a None check
    assert all('Item "None" of "Tensor | None" has no attribute' in l and "[union-attr]" in l for l in errors), out


def test_seed_examples_pyright(tmp_path):
    seeds = seed_modules(tmp_path)
    report, errors = pyright(seeds, tmp_path, reportOptionalMemberAccess=False)
    assert report["summary"]["filesAnalyzed"] == 5
    assert errors == [], fmt(errors)


def test_main_job_mypy(mypy_cache, tmp_path):
    """examples/train_digits.py; its PyTorch fallback import (``import torch`` when ferrograd is
    absent) and the optional tqdm/matplotlib are outside ferrograd's typing."""
    rc, out = mypy(["--ignore-missing-imports", "--disable-error-code", "no-redef", ROOT / "examples" / "train_digits.py"],
                   mypy_cache, tmp_path)
    assert rc == 0 and "Success" in out, out


# ---- the stubs themselves -----------------------------------------------------------------------------

def test_stubs_are_valid(mypy_cache, tmp_path):
    """mypy over every stub file, in a copy of the package (so that neither site-packages'
    other modules nor the implementation modules' own typing are in the way)."""
    copy = tmp_path / "ferrograd"
    shutil.copytree(PKG, copy, ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    stubs = sorted(copy.rglob("*.pyi"))
    assert len(stubs) >= 25, stubs
    rc, out = mypy(["--follow-imports=silent", *stubs], mypy_cache, tmp_path)
    assert rc == 0 and f"Success: no issues found in {len(stubs)} source files" in out, out


def test_stubs_match_runtime(tmp_path):
    """mypy.stubtest against the built module: every public name, class member and signature
    in the stubs exists at runtime and vice versa (a new Tensor method, layer or function
    needs its stub). The implementation modules without stubs are not type-checked here."""
    config = tmp_path / "stubtest.ini"
    config.write_text("[mypy]\n[mypy-ferrograd.*]\nignore_errors = True\n")
    r = subprocess.run([sys.executable, "-m", "mypy.stubtest", "ferrograd", "--concise",
                        "--mypy-config-file", str(config), "--allowlist", str(ALLOWLIST)],
                       capture_output=True, text=True, cwd=tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr


def test_pyright_sees_public_names_as_exported(tmp_path):
    """pyright's reportPrivateImportUsage: ``torch.Tensor``, ``torch.no_grad``, ``nn.Linear``,
    ``optim.SGD`` ... are explicit exports."""
    probe = tmp_path / "names.py"
    names = [n for n in ferrograd.__all__ if not n.startswith("_")] if hasattr(ferrograd, "__all__") else None
    stub_all = ast.literal_eval(next(n.value for n in ast.parse((PKG / "__init__.pyi").read_text()).body
                                     if isinstance(n, ast.Assign) and getattr(n.targets[0], "id", None) == "__all__"))
    names = names or stub_all
    lines = ["import ferrograd as torch", "import ferrograd.nn as nn", "import ferrograd.optim as optim",
             "from ferrograd.utils.data import DataLoader, TensorDataset"]
    lines += [f"_{i} = torch.{n}" for i, n in enumerate(names)]
    lines += [f"_n{i} = nn.{n}" for i, n in enumerate(["Linear", "Conv2d", "Module", "Parameter", "functional", "init"])]
    lines += [f"_o{i} = optim.{n}" for i, n in enumerate(["SGD", "Adam", "AdamW", "lr_scheduler", "Optimizer"])]
    lines += ["_a = torch.autograd.Function", "_b = torch.autograd.grad", "_c = torch.autograd.functional.jacobian"]
    probe.write_text("\n".join(lines) + "\n")
    report, errors = pyright([probe], tmp_path, reportPrivateImportUsage="error")
    assert errors == [], fmt(errors)
