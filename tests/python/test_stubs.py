"""The `_C.pyi` stub names exactly the native module's public functions and classes."""

import ast
import os

import ferrograd._C as C

STUB = os.path.join(os.path.dirname(C.__file__), "_C.pyi")


def test_stub_matches_module():
    if not os.path.exists(STUB):  # an editable install reads the stub from the source tree
        STUB_SRC = os.path.join(os.path.dirname(__file__), "..", "..", "python", "ferrograd", "_C.pyi")
        path = STUB_SRC
    else:
        path = STUB
    tree = ast.parse(open(path).read())
    stub_names = {n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
    module_names = {n for n in dir(C) if not n.startswith("__")}
    assert stub_names == module_names, (stub_names ^ module_names)
