"""``torch.nn.utils.weight_norm`` (deprecated in PyTorch in favour of
``torch.nn.utils.parametrizations.weight_norm``): weight normalization by a forward pre-hook
that recomputes ``weight`` from the parameters ``weight_g`` (magnitude) and ``weight_v``
(direction) before every forward (https://arxiv.org/abs/1602.07868)."""

import warnings

from ..parameter import Parameter
from . import _linalg

__all__ = ["WeightNorm", "weight_norm", "remove_weight_norm"]


def _is_uninitialized(p):
    from .. import parameter

    kind = getattr(parameter, "UninitializedParameter", None)
    return kind is not None and isinstance(p, kind)


class WeightNorm:
    """The forward pre-hook of :func:`weight_norm`: sets ``module.<name>`` to
    ``g * v / ||v||`` from the parameters ``<name>_g`` and ``<name>_v``."""

    def __init__(self, name, dim):
        if dim is None:
            dim = -1
        self.name = name
        self.dim = dim

    def compute_weight(self, module):
        """The normalized weight from ``module.<name>_g`` and ``module.<name>_v``."""
        g = getattr(module, self.name + "_g")
        v = getattr(module, self.name + "_v")
        return _linalg.weight_norm(v, g, self.dim)

    @staticmethod
    def apply(module, name, dim):
        """Replace the parameter ``name`` of ``module`` by ``<name>_g`` and ``<name>_v`` and
        register the hook (deprecated: emits a FutureWarning)."""
        warnings.warn("`torch.nn.utils.weight_norm` is deprecated in favor of "
                      "`torch.nn.utils.parametrizations.weight_norm`.", FutureWarning, stacklevel=3)
        for hook in module._forward_pre_hooks.values():
            if isinstance(hook, WeightNorm) and hook.name == name:
                raise RuntimeError(f"Cannot register two weight_norm hooks on the same parameter {name}")

        if dim is None:
            dim = -1

        fn = WeightNorm(name, dim)

        weight = getattr(module, name)
        if _is_uninitialized(weight):
            raise ValueError("The module passed to `WeightNorm` can't have uninitialized parameters. "
                             "Make sure to run the dummy forward before applying weight normalization")
        # remove w from parameter list
        del module._parameters[name]

        # add g and v as new parameters and express w as g/||v|| * v
        module.register_parameter(name + "_g", Parameter(_linalg.norm_except_dim(weight, 2, dim).data))
        module.register_parameter(name + "_v", Parameter(weight.data))
        setattr(module, name, fn.compute_weight(module))

        # recompute weight before every forward()
        module.register_forward_pre_hook(fn)
        return fn

    def remove(self, module):
        """Put back ``module.<name>`` as a Parameter holding the current normalized weight."""
        weight = self.compute_weight(module)
        delattr(module, self.name)
        del module._parameters[self.name + "_g"]
        del module._parameters[self.name + "_v"]
        setattr(module, self.name, Parameter(weight.data))

    def __call__(self, module, inputs):
        """The hook: recompute ``module.<name>``."""
        setattr(module, self.name, self.compute_weight(module))


def weight_norm(module, name="weight", dim=0):
    """Apply weight normalization to the parameter ``name`` of ``module``: it is replaced by
    the parameters ``<name>_g`` (magnitude, the norm over every dim but ``dim``; over the whole
    tensor for ``dim=None``) and ``<name>_v`` (direction), and a forward pre-hook recomputes
    ``module.<name> = g * v / ||v||`` before every forward.

    Deprecated (FutureWarning): use :func:`torch.nn.utils.parametrizations.weight_norm`.

    Returns:
        ``module``.
    """
    WeightNorm.apply(module, name, dim)
    return module


def remove_weight_norm(module, name="weight"):
    """Remove the weight normalization of ``name`` from ``module`` (the parameter ``name``
    comes back with the current normalized value).

    Raises:
        ValueError: if ``name`` is not weight-normalized.
    """
    for k, hook in module._forward_pre_hooks.items():
        if isinstance(hook, WeightNorm) and hook.name == name:
            hook.remove(module)
            del module._forward_pre_hooks[k]
            return module
    raise ValueError(f"weight_norm of '{name}' not found in {module}")
