"""Build the release artefacts and check that the wheel installs where it promises to.

    python tools/release.py                 # build sdist + manylinux_2_28 abi3 wheel into dist/, then check
    python tools/release.py --check-only    # only check the wheel already in dist/
    python tools/release.py --pythons 3.11 3.12   # check with these interpreters only

Build: ``maturin build --release --sdist --compatibility manylinux_2_28 --zig``. ``--sdist``
makes maturin write the source distribution first and compile the wheel *from it*, so a
successful build also proves the sdist is complete. ``--zig`` links through zig (``ziglang``
from PyPI) against glibc 2.28 symbols, so the wheel is a real ``manylinux_2_28`` wheel built
on a newer host without a container. pyo3's ``abi3-py311`` feature makes one ``cp311-abi3``
wheel for CPython 3.11 and every later version.

Check, without trusting the tag alone:
  * the wheel's name carries ``cp311-abi3`` and ``manylinux_2_28``;
  * no symbol of the extension needs a glibc newer than 2.28 (``objdump -T``);
  * METADATA has the summary, the licence, the project URLs and the README as description;
  * for each of CPython 3.11, 3.12, 3.13 (pyenv's, or ``python3.X`` on PATH): a fresh venv,
    ``pip install`` of the wheel (numpy from the index), then an import and a tiny autograd
    check (``d/dx sum(x**2 + 3x) == 2x + 3``).

The compile honours ``CARGO_TARGET_DIR`` (set it to keep the release build apart from a
development target directory, and to reuse compiled dependencies between releases; the
ferrograd crate itself is always recompiled, see ``forget_crate_build``). Exit status 0 only
if every step passed.
"""

from __future__ import annotations

import argparse
import email.parser
import glob
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
MANYLINUX = "manylinux_2_28"
MAX_GLIBC = (2, 28)
PYTHONS = ("3.11", "3.12", "3.13")

SMOKE = r"""
import ferrograd as torch
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = (x ** 2 + 3 * x).sum()
y.backward()
assert x.grad.tolist() == [5.0, 7.0, 9.0], x.grad
assert type(y.grad_fn).__name__ == "SumBackward0", y.grad_fn
# the extension is the one the stubs describe (catches a stale extension in the wheel)
import ast, os, sys, importlib.metadata as md
stub = ast.parse(open(os.path.join(os.path.dirname(torch.__file__), "_C.pyi")).read())
cls = next(n for n in stub.body if isinstance(n, ast.ClassDef) and n.name == "Tensor")
names = {n.name for n in cls.body if isinstance(n, ast.FunctionDef) and not n.name.startswith("_")}
missing = sorted(n for n in names if not hasattr(torch.Tensor, n))
assert not missing, f"Tensor methods in _C.pyi but not in the extension: {missing}"
print(f"python {sys.version.split()[0]}: ferrograd {torch.__ferrograd_version__} (torch API {torch.__version__}) imports; "
      f"x.grad = {x.grad.tolist()}; grad_fn {type(y.grad_fn).__name__}; "
      f"installed as {md.version('ferrograd')}; {len(names)} stubbed Tensor methods present")
"""


def run(cmd, **kw):
    print("+", " ".join(map(str, cmd)), flush=True)
    return subprocess.run([str(c) for c in cmd], check=True, **kw)


def build(out: pathlib.Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    for old in out.glob("ferrograd-*"):
        old.unlink()
    env = dict(os.environ)
    # maturin finds zig through `python -m ziglang` of the interpreter running this script
    env["PATH"] = os.path.dirname(sys.executable) + os.pathsep + env.get("PATH", "")
    maturin = shutil.which("maturin", path=env["PATH"]) or sys.exit("maturin not found: pip install 'ferrograd[release]' (maturin, ziglang)")
    forget_crate_build(env.get("CARGO_TARGET_DIR"))
    run([maturin, "build", "--release", "--sdist", "--compatibility", MANYLINUX, "--zig", "--out", out],
        cwd=ROOT, env=env)


def forget_crate_build(target_dir):
    """Make cargo recompile ferrograd itself in a reused target directory.

    The wheel is compiled from the unpacked sdist, whose files carry the fixed timestamp
    maturin writes into the archive (2006), so cargo's mtime check would find an earlier
    build of the crate fresh and package a stale extension. Removing the crate's fingerprints
    forces its recompilation; the dependencies stay cached."""
    if not target_dir:
        return  # maturin builds in the fresh sdist directory: nothing is reused
    for fp in pathlib.Path(target_dir).glob("**/release/.fingerprint/ferrograd-*"):
        shutil.rmtree(fp)
        print(f"forgot {fp} (ferrograd is recompiled; dependencies are reused)")


def find_pythons(versions):
    found = {}
    pyenv_root = pathlib.Path(os.environ.get("PYENV_ROOT", pathlib.Path.home() / ".pyenv"))
    for v in versions:
        cands = sorted(glob.glob(str(pyenv_root / "versions" / f"{v}.*" / "bin" / f"python{v}")))
        exe = cands[-1] if cands else shutil.which(f"python{v}")
        if exe:
            found[v] = exe
    return found


def glibc_needed(so_path: str) -> tuple[int, int]:
    dump = subprocess.run(["objdump", "-T", so_path], check=True, capture_output=True, text=True).stdout
    versions = {tuple(int(p) for p in m.groups()) for m in re.finditer(r"GLIBC_(\d+)\.(\d+)", dump)}
    return max(versions) if versions else (0, 0)


def check_wheel(wheel: pathlib.Path) -> list[str]:
    problems = []
    name = wheel.name
    print(f"wheel: {name} ({wheel.stat().st_size / 1e6:.1f} MB)")
    if "cp311-abi3" not in name:
        problems.append(f"{name}: not a cp311-abi3 wheel")
    if MANYLINUX not in name:
        problems.append(f"{name}: not tagged {MANYLINUX}")
    with zipfile.ZipFile(wheel) as z, tempfile.TemporaryDirectory() as tmp:
        sos = [n for n in z.namelist() if n.endswith(".so")]
        meta_name = next(n for n in z.namelist() if n.endswith(".dist-info/METADATA"))
        meta = email.parser.Parser().parsestr(z.read(meta_name).decode())
        names = z.namelist()
        for so in sos:
            z.extract(so, tmp)
            need = glibc_needed(os.path.join(tmp, so))
            print(f"  {so}: needs glibc {need[0]}.{need[1]} (limit {MAX_GLIBC[0]}.{MAX_GLIBC[1]})")
            if need > MAX_GLIBC:
                problems.append(f"{so} needs GLIBC_{need[0]}.{need[1]} > {MAX_GLIBC}")
    for stub in ("ferrograd/__init__.pyi", "ferrograd/_C.pyi", "ferrograd/py.typed"):
        if stub not in names:
            problems.append(f"wheel lacks {stub}")
    print(f"  Summary: {meta['Summary']}")
    print(f"  License: {meta.get('License-Expression') or meta.get('License')}")
    for url in meta.get_all("Project-URL") or []:
        print(f"  Project-URL: {url}")
    print(f"  Description: {len(meta.get_payload() or '')} characters ({meta.get('Description-Content-Type')})")
    if not meta["Summary"]:
        problems.append("METADATA has no Summary")
    if (meta.get("License-Expression") or meta.get("License")) != "MIT":
        problems.append("METADATA licence is not MIT")
    if not meta.get_all("Project-URL"):
        problems.append("METADATA has no Project-URL")
    if "ferrograd" not in (meta.get_payload() or ""):
        problems.append("METADATA has no long description (README)")
    return problems


def check_sdist(sdist: pathlib.Path) -> list[str]:
    import tarfile

    with tarfile.open(sdist) as t:
        names = {n.split("/", 1)[1] for n in t.getnames() if "/" in n}
    print(f"sdist: {sdist.name} ({len(names)} files)")
    need = ["Cargo.toml", "Cargo.lock", "pyproject.toml", "LICENSE", "README.md", "src/lib.rs",
            "python/ferrograd/__init__.py", "python/ferrograd/__init__.pyi"]
    return [f"sdist lacks {n}" for n in need if n not in names]


def check_installs(wheel: pathlib.Path, versions) -> list[str]:
    problems = []
    pythons = find_pythons(versions)
    for v in versions:
        if v not in pythons:
            problems.append(f"no CPython {v} found (pyenv or python{v} on PATH)")
            continue
        with tempfile.TemporaryDirectory(prefix=f"ferrograd-py{v}-") as tmp:
            venv = pathlib.Path(tmp) / "venv"
            print(f"\n== CPython {v}: {pythons[v]}", flush=True)
            run([pythons[v], "-m", "venv", venv])
            py = venv / "bin" / "python"
            # a current pip, as a user installing today has (older pips do not show License-Expression)
            subprocess.run([py, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--upgrade", "pip"],
                           capture_output=True, text=True)
            r = subprocess.run([py, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", wheel],
                               capture_output=True, text=True)
            print(r.stdout + r.stderr, end="")
            if r.returncode:
                problems.append(f"pip install failed on {v}")
                continue
            show = subprocess.run([py, "-m", "pip", "show", "--verbose", "ferrograd"], capture_output=True, text=True).stdout
            keep = ("Name", "Version", "Summary", "License-Expression", "Home-page", "Location", "Project-URLs", "  ")
            print("\n".join(l for l in show.splitlines() if l.startswith(keep) and "," in l or l.split(":")[0] in keep))
            if "License-Expression: MIT" not in show or "Summary: PyTorch" not in show:
                problems.append(f"pip show on {v} lacks the summary or the licence")
            # run from the venv's directory so the source tree's python/ cannot shadow the wheel
            r = subprocess.run([py, "-c", SMOKE], capture_output=True, text=True, cwd=tmp)
            print(r.stdout + r.stderr, end="")
            if r.returncode:
                problems.append(f"import/autograd check failed on {v}")
    return problems


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default=str(ROOT / "dist"), help="output directory (default: dist/)")
    ap.add_argument("--check-only", action="store_true", help="skip the build; check what is in --out")
    ap.add_argument("--pythons", nargs="+", default=list(PYTHONS), help="CPython versions to install into")
    args = ap.parse_args()
    out = pathlib.Path(args.out)
    if not args.check_only:
        build(out)
    wheels = sorted(out.glob(f"ferrograd-*-cp311-abi3-*{MANYLINUX}*.whl")) or sorted(out.glob("ferrograd-*.whl"))
    sdists = sorted(out.glob("ferrograd-*.tar.gz"))
    if not wheels:
        print(f"no wheel in {out}", file=sys.stderr)
        return 1
    problems = check_wheel(wheels[-1])
    problems += check_sdist(sdists[-1]) if sdists else [f"no sdist in {out}"]
    problems += check_installs(wheels[-1], args.pythons)
    print()
    for p in problems:
        print("FAIL:", p)
    print("release check:", "FAILED" if problems else f"OK ({wheels[-1].name} installs on CPython {', '.join(args.pythons)})")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
