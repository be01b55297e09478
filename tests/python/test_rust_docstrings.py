"""The Rust bindings carry the stubs' docstrings, so ``help(torch.Tensor.exp)`` shows them.

``python/ferrograd/_C.pyi`` is where the docstrings of the native (pyo3) classes and functions
are written; ``tools/sync_rust_docstrings.py --macros`` copies them into ``src/python/*.rs`` as
``///`` comments / ``#[doc = ...]`` attributes, which pyo3 turns into ``__doc__``.

NOTE: these tests FAIL until ``tools/rust_docstrings.patch`` has been applied (or the script run
with ``--macros``) and the extension rebuilt (``pip install .`` / ``maturin develop --release``).
After editing a docstring in ``_C.pyi``, run ``python tools/sync_rust_docstrings.py --macros``.
"""

import ast
import importlib.util
import pathlib
import subprocess
import sys

import ferrograd
from ferrograd import _C

ROOT = pathlib.Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "tools" / "sync_rust_docstrings.py"


def _script():
    spec = importlib.util.spec_from_file_location("sync_rust_docstrings", SCRIPT)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod  # dataclasses look their module up
    spec.loader.exec_module(mod)
    return mod


def test_rust_doc_comments_are_in_sync_with_the_stubs():
    r = subprocess.run([sys.executable, str(SCRIPT), "--check", "--macros", "--quiet"],
                       capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 0, (
        "src/python/*.rs lack the docstrings of _C.pyi: apply tools/rust_docstrings.patch or run "
        "`python tools/sync_rust_docstrings.py --macros`, then rebuild\n" + r.stdout + r.stderr)


def test_most_tensor_methods_have_a_docstring_at_runtime():
    tree = ast.parse((ROOT / "python" / "ferrograd" / "_C.pyi").read_text())
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Tensor")
    names = sorted({n.name for n in cls.body if isinstance(n, ast.FunctionDef)
                    and not (n.name.startswith("_") and not n.name.startswith("__"))})
    assert len(names) > 200, len(names)
    missing = [n for n in names if not (getattr(getattr(ferrograd.Tensor, n, None), "__doc__", None) or "").strip()]
    covered = 1 - len(missing) / len(names)
    assert covered >= 0.9, (f"only {covered:.0%} of the {len(names)} Tensor methods of _C.pyi have a __doc__ "
                            f"(apply tools/rust_docstrings.patch and rebuild); without: {', '.join(missing)}")


def test_the_extension_shows_the_synced_text():
    """Every native method/property the script documents shows exactly that text (a stale
    extension, built before the sync, fails here)."""
    _, rep = _script().sync(ROOT, macros=True)
    assert len(rep.expected) > 150, len(rep.expected)
    wrong = []
    for (owner, name), lines in sorted(rep.expected.items()):
        holder = getattr(_C, owner, None) if owner else _C
        if holder is None:
            continue
        obj = vars(holder).get(name) if owner else getattr(holder, name, None)
        if obj is None:
            continue
        if (obj.__doc__ or "").strip() != "\n".join(lines).strip():
            wrong.append(f"{owner + '.' if owner else ''}{name}: {obj.__doc__!r}")
    assert wrong == [], f"{len(wrong)} native items without the stub's docstring:\n" + "\n".join(wrong[:40])
