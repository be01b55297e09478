"""griffe extensions for the API reference.

``PromoteOverloads``: functions that a stub declares only through ``@overload``
(``zeros``, ``Tensor.size``, ``Tensor.max``, ...) have no implementation in the stub, so griffe
would drop them. The first overload becomes the documented member, with all overloads
attached (mkdocstrings shows them under the signature).

``PlainBuiltinNames``: the stubs spell ``bool``/``int``/``float``/``dtype`` as ``_bool``,
``_int``, ... where a ``Tensor`` method of that name (``Tensor.float``) would shadow the
builtin; the reference shows the plain names.
"""

import griffe

_PLAIN = {"_bool": "bool", "_int": "int", "_float": "float", "_dtype": "dtype", "_Number": "Number",
          "_device": "device"}


class PromoteOverloads(griffe.Extension):
    def _promote(self, obj):
        for name, overloads in list(obj.overloads.items()):
            if overloads and name not in obj.members:
                main = overloads[0]
                main.overloads = list(overloads)
                obj.set_member(name, main)

    def on_module_members(self, *, mod, **kwargs):
        self._promote(mod)

    def on_class_members(self, *, cls, **kwargs):
        self._promote(cls)


def _rename(expr):
    if expr is None or isinstance(expr, str):
        return
    nodes = [expr] + [e for e in expr.iterate(flat=True) if not isinstance(e, str)] if hasattr(expr, "iterate") else [expr]
    for node in nodes:
        if isinstance(node, griffe.ExprName) and node.name in _PLAIN:
            node.name = _PLAIN[node.name]


def _rename_function(fn):
    for p in fn.parameters:
        _rename(p.annotation)
    _rename(fn.returns)


class PlainBuiltinNames(griffe.Extension):
    def on_function_instance(self, *, func, **kwargs):
        _rename_function(func)
        for ov in getattr(func, "overloads", None) or []:
            _rename_function(ov)

    def on_attribute_instance(self, *, attr, **kwargs):
        _rename(attr.annotation)
