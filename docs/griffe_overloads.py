"""A griffe extension for the API reference: functions that a stub declares only through
``@overload`` (``zeros``, ``Tensor.size``, ``Tensor.max``, ...) have no implementation in the
stub, so griffe would drop them. This makes the first overload the documented member and
keeps all overloads attached (mkdocstrings shows them under the signature)."""

import griffe


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
