"""Every public callable has a docstring a user can read.

* Python objects (functions, classes, methods, properties of every public module):
  ``inspect.getdoc`` at runtime, as ``help()`` shows it (``ferrograd._docs`` attaches the
  docstrings of wrappers and of objects documented in the stubs).
* Native objects (pyo3 methods of ``Tensor``, ``Node``, ``Generator`` and the native
  functions): Python cannot set their ``__doc__``, so the stubs must carry it (IDEs and the
  API reference read it from there).
* ``_docs._FROM_STUBS`` is what the stubs say (regenerate it after editing a stub docstring:
  ``python -c "from ferrograd import _docs; _docs._write()"``).
"""

import importlib
import pathlib
import inspect
import pkgutil
import pydoc
import types

import ferrograd
from ferrograd import _docs

NATIVE = (types.BuiltinFunctionType, types.MethodDescriptorType, types.GetSetDescriptorType,
          types.WrapperDescriptorType, types.ClassMethodDescriptorType)


def public_modules():
    names = ["ferrograd"]
    for m in pkgutil.walk_packages(ferrograd.__path__, "ferrograd."):
        if any(p.startswith("_") for p in m.name.split(".")[1:]):
            continue
        names.append(m.name)
    mods = []
    for n in names:
        try:
            mods.append(importlib.import_module(n))
        except ImportError:  # optional dependency of that module missing (mpi4py, ...)
            continue
    return mods


def public_callables():
    """(qualified name, object, owner) for each public callable: module-level functions and
    classes (defined in ferrograd or native), and the public methods/properties of classes."""
    seen = set()
    for mod in public_modules():
        names = getattr(mod, "__all__", None) or [n for n in vars(mod) if not n.startswith("_")]
        for n in names:
            obj = getattr(mod, n, None)
            if obj is None or isinstance(obj, types.ModuleType) or not callable(obj):
                continue
            home = getattr(obj, "__module__", None) or ""
            if not (home.startswith("ferrograd") or isinstance(obj, types.BuiltinFunctionType)):
                continue  # re-exported from the standard library or numpy
            if id(obj) in seen:
                continue
            seen.add(id(obj))
            yield f"{mod.__name__}.{n}", obj, None
            if isinstance(obj, type):
                for an, av in vars(obj).items():
                    if an.startswith("_") and an not in ("__call__",):
                        continue
                    raw = av.__func__ if isinstance(av, (staticmethod, classmethod)) else av
                    if callable(raw) or isinstance(raw, property) or isinstance(raw, types.GetSetDescriptorType):
                        yield f"{mod.__name__}.{n}.{an}", raw, obj


def doc_of(obj):
    if isinstance(obj, (property, types.GetSetDescriptorType)):
        return (obj.__doc__ or "").strip()
    return (inspect.getdoc(obj) or "").strip()


def test_every_public_python_callable_has_a_docstring():
    items = [(q, o) for q, o, _ in public_callables() if not isinstance(o, NATIVE)]
    assert len(items) > 800, len(items)
    missing = [q for q, o in items if not doc_of(o)]
    assert missing == [], f"{len(missing)} public Python callables without a docstring:\n" + "\n".join(missing)
    # a class documents itself: Module's "Base class for all neural network modules" is no doc for Conv2d
    classes = [q for q, o in items if isinstance(o, type) and not (vars(o).get("__doc__") or "").strip()]
    assert classes == [], f"{len(classes)} public classes without a docstring of their own:\n" + "\n".join(classes)


def test_every_native_callable_is_documented_in_the_stubs():
    stub = _docs._stub_docs()
    natives = [(q, o, owner) for q, o, owner in public_callables() if isinstance(o, NATIVE)]
    assert len(natives) > 150, len(natives)  # the Tensor methods, at least
    missing = []
    for q, o, owner in natives:
        if doc_of(o):
            continue  # documented at runtime (a `///` comment synced from the stubs)
        # a native is documented under the name it has in the stubs: _C.Tensor.exp, ferrograd.zeros, ...
        candidates = {q}
        if owner is not None:
            candidates.add(f"ferrograd._C.{owner.__name__}.{q.rsplit('.', 1)[1]}")
        else:
            candidates.add(f"ferrograd._C.{q.rsplit('.', 1)[1]}")
        if not any(stub.get(c) for c in candidates):
            missing.append(q)
    assert missing == [], f"{len(missing)} native callables without a docstring in the stubs:\n" + "\n".join(missing)


def test_every_tensor_method_has_a_docstring():
    stub = _docs._stub_docs()
    public = [n for n in dir(ferrograd.Tensor) if not n.startswith("_")]
    assert len(public) > 200
    missing = [n for n in public if not (doc_of(getattr(ferrograd.Tensor, n)) if not isinstance(
        inspect.getattr_static(ferrograd.Tensor, n), NATIVE) else stub.get(f"ferrograd._C.Tensor.{n}"))
        and not isinstance(inspect.getattr_static(ferrograd.Tensor, n), (bool, str, int))]
    assert missing == [], missing


def test_generated_table_matches_the_stubs():
    """Every object that needs a stub docstring has it in ``_FROM_STUBS``, with the stub's
    current text. (An entry whose object has since got a docstring of its own, e.g. from the
    Rust bindings, is harmless: it is not applied.)"""
    regen = "python/ferrograd/_docs.py is stale: run  python -c \"from ferrograd import _docs; _docs._write()\""
    needed = _docs._generated_table()
    stub = _docs._stub_docs()
    assert {k: _docs._FROM_STUBS.get(k) for k in needed} == needed, regen
    assert {k: v for k, v in _docs._FROM_STUBS.items() if stub.get(k) != v} == {}, regen


def test_help_shows_the_docstrings():
    text = pydoc.render_doc(ferrograd.Tensor.backward, renderer=pydoc.plaintext)
    assert "Compute the gradient of this tensor" in text and "create_graph" in text
    assert "float32" in pydoc.render_doc(ferrograd.Tensor.float, renderer=pydoc.plaintext)
    assert inspect.getdoc(ferrograd.exp) == "The exponential of the elements."
    assert "rectified linear unit" in inspect.getdoc(ferrograd.nn.functional.relu)
    assert "FloatTensor" in inspect.getdoc(ferrograd.FloatTensor)
    # a docstring of the source is never replaced
    assert inspect.getdoc(ferrograd.nn.Linear).startswith(ferrograd.nn.Linear.__doc__.strip()[:20])


def test_docstrings_say_where_ferrograd_differs():
    stub = _docs._stub_docs()
    assert "Differences from PyTorch" in stub["ferrograd._C.Tensor"]
    assert "ferrograd" in stub["ferrograd._C.Tensor.backward"]  # parallel branches, no recursion
    assert "eager" in inspect.getdoc(ferrograd.compile)
    assert "never lazy" in stub["ferrograd._C.Tensor.conj_physical"]
    assert "no lazy conjugate bit" in stub["ferrograd._C.Tensor"]


def test_the_two_commands_agree_in_readme_ci_and_guide():
    """README's commands, .ci/run and the install guide stay one text (the guide is rendered
    into the docs site; CI runs the README's second command)."""
    root = pathlib.Path(__file__).resolve().parents[2]
    readme = [l for l in (root / "README.md").read_text().splitlines() if l.startswith("python3 -m venv")]
    assert len(readme) == 2, readme
    ci = [l for l in (root / ".ci" / "run").read_text().splitlines() if l.startswith("python3 -m venv")]
    assert ci == [readme[1]]
    guide = (root / "docs" / "guide" / "install.md").read_text()
    assert readme[0] in guide and readme[1] in guide
    assert "mkdocs build --strict" in readme[1] and "mypy" in readme[1] and "pyright" in readme[1]
    for name in ("LICENSE", "CHANGELOG.md", "mkdocs.yml"):
        assert (root / name).exists(), name
