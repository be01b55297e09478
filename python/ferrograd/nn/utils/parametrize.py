"""``torch.nn.utils.parametrize``: replace a parameter or buffer of a module by a function of
unconstrained tensors (``module.weight`` becomes ``parametrization(original)``, recomputed on
every access or once per :func:`cached` block).

As in PyTorch, the first parametrization of a module swaps its class for a subclass
``Parametrized<Name>`` that holds one property per parametrized tensor, and the originals
live in ``module.parametrizations[name]`` (a :class:`ParametrizationList`) under
``original`` (or ``original0``, ``original1``, ... when ``right_inverse`` returns several
tensors): state_dict keys ``parametrizations.weight.original``.

Differences from PyTorch: ferrograd has no ``Tensor.set_``; the original tensor takes its new
value with ``original.data = value`` (the same storage sharing, the Parameter keeps its
identity, so optimizers need no update). There is no TorchScript, tracing or opaque objects,
so those branches do not exist here."""

import collections.abc
import copyreg
from contextlib import contextmanager
from copy import deepcopy

from ... import Tensor
from ...autograd.grad_mode import no_grad
from ..modules.container import ModuleDict, ModuleList
from ..modules.module import Module
from ..parameter import Parameter

__all__ = [
    "cached",
    "ParametrizationList",
    "register_parametrization",
    "is_parametrized",
    "remove_parametrizations",
    "type_before_parametrizations",
    "transfer_parametrizations_and_params",
]

_cache_enabled = 0
_cache = {}


@contextmanager
def cached():
    """Context manager: inside it, each parametrized tensor is computed once (on first access)
    and the value is reused until the outermost ``cached()`` block exits.

    Useful when a parametrized weight is read several times in one forward pass (an RNN's
    recurrent kernel, shared weights)."""
    global _cache
    global _cache_enabled
    _cache_enabled += 1
    try:
        yield
    finally:
        _cache_enabled -= 1
        if not _cache_enabled:
            _cache = {}


def _register_parameter_or_buffer(module, name, X):
    if isinstance(X, Parameter):
        module.register_parameter(name, X)
    else:
        module.register_buffer(name, X)


def _maybe_set(dest, src):
    """Give ``dest`` the value (storage, shape) of ``src`` keeping the object (PyTorch's
    ``dest.set_(src)``)."""
    dest.data = src


class ParametrizationList(ModuleList):
    """The sequential container ``module.parametrizations[tensor_name]``: the parametrizations
    registered on one tensor (applied in registration order) and the unconstrained tensor(s)
    they act on, ``original`` (or ``original0``, ``original1``, ... when the first
    parametrization's ``right_inverse`` returns a sequence of tensors).

    Built by :func:`register_parametrization`; not meant to be created directly.

    Args:
        modules (sequence): the parametrizations (at least one).
        original (Parameter or Tensor): the parameter or buffer being parametrized.
        unsafe (bool): allow the parametrization to change the dtype and shape of the tensor
            (no consistency check is done). Default: ``False``.
    """

    def __init__(self, modules, original, unsafe=False):
        if len(modules) == 0:
            raise ValueError("ParametrizationList requires one or more modules.")

        super().__init__(modules)
        self.unsafe = unsafe

        original_shape = original.shape
        original_dtype = original.dtype

        # the unconstrained value: right_inverse of every parametrization, last first
        with no_grad():
            new = original
            for module in reversed(list(self)):
                if hasattr(module, "right_inverse"):
                    try:
                        new = module.right_inverse(new)
                    except NotImplementedError:
                        pass

        if not isinstance(new, Tensor) and not isinstance(new, collections.abc.Sequence):
            raise ValueError(
                "'right_inverse' must return a Tensor or a Sequence of tensors (list, tuple...). "
                f"Got {type(new).__name__}")

        self.is_tensor = isinstance(new, Tensor)
        self.ntensors = 1 if self.is_tensor else len(new)

        if self.is_tensor:
            if original.dtype != new.dtype:
                raise ValueError(
                    "When `right_inverse` outputs one tensor, it may not change the dtype.\n"
                    f"original.dtype: {original.dtype}\n"
                    f"right_inverse(original).dtype: {new.dtype}")
            if original.device != new.device:
                raise ValueError(
                    "When `right_inverse` outputs one tensor, it may not change the device.\n"
                    f"original.device: {original.device}\n"
                    f"right_inverse(original).device: {new.device}")
            # the original object keeps its identity (optimizers already hold it)
            with no_grad():
                _maybe_set(original, new)
            _register_parameter_or_buffer(self, "original", original)
        else:
            for i, originali in enumerate(new):
                if not isinstance(originali, Tensor):
                    raise ValueError(
                        "'right_inverse' must return a Tensor or a Sequence of tensors "
                        "(list, tuple...). "
                        f"Got element {i} of the sequence with type {type(originali).__name__}.")
                if isinstance(original, Parameter):
                    originali = Parameter(originali, original.requires_grad)
                originali.requires_grad_(original.requires_grad)
                _register_parameter_or_buffer(self, f"original{i}", originali)

        if not self.unsafe:
            # forward(right_inverse(original)) must live where original lives
            Z = self()
            if not isinstance(Z, Tensor):
                raise ValueError(f"A parametrization must return a tensor. Got {type(Z).__name__}.")
            if Z.dtype != original_dtype:
                raise ValueError(
                    "Registering a parametrization may not change the dtype of the tensor, unless "
                    "`unsafe` flag is enabled.\n"
                    f"unparametrized dtype: {original_dtype}\n"
                    f"parametrized dtype: {Z.dtype}")
            if Z.shape != original_shape:
                raise ValueError(
                    "Registering a parametrization may not change the shape of the tensor, unless "
                    "`unsafe` flag is enabled.\n"
                    f"unparametrized shape: {original_shape}\n"
                    f"parametrized shape: {Z.shape}")

    def right_inverse(self, value):
        """Set the original tensor(s) so that the parametrized tensor becomes ``value``: the
        ``right_inverse`` of each parametrization is applied, last registered first, and the
        result is stored in ``original`` (or ``original0``, ``original1``, ...)."""
        with no_grad():
            for module in reversed(list(self)):
                if hasattr(module, "right_inverse"):
                    value = module.right_inverse(value)
                else:
                    raise RuntimeError(f"parametrization {type(module).__name__} does not implement "
                                       "right_inverse.")
            if self.is_tensor:
                if not isinstance(value, Tensor):
                    raise ValueError(f"`right_inverse` should return a tensor. Got {type(value).__name__}")
                if value.dtype != self.original.dtype:
                    raise ValueError(f"The tensor returned by `right_inverse` has dtype {value.dtype} "
                                     f"while `original` has dtype {self.original.dtype}")
                _maybe_set(self.original, value)
            else:
                if not isinstance(value, collections.abc.Sequence):
                    raise ValueError("'right_inverse' must return a sequence of tensors. "
                                     f"Got {type(value).__name__}.")
                if len(value) != self.ntensors:
                    raise ValueError("'right_inverse' must return a sequence of tensors of length "
                                     f"{self.ntensors}. Got a sequence of length {len(value)}.")
                for i, tensor in enumerate(value):
                    original_i = getattr(self, f"original{i}")
                    if not isinstance(tensor, Tensor):
                        raise ValueError("'right_inverse' must return a sequence of tensors "
                                         "or reference-type opaques. Got element "
                                         f"{i} of type {type(tensor).__name__}.")
                    if original_i.dtype != tensor.dtype:
                        raise ValueError(f"Tensor {i} returned by `right_inverse` has dtype {tensor.dtype} "
                                         f"while `original{i}` has dtype {original_i.dtype}")
                    _maybe_set(original_i, tensor)

    def forward(self):
        """The parametrized tensor: the first parametrization applied to the original(s), then
        each further one to the previous result."""
        if self.is_tensor:
            x = self[0](self.original)
        else:
            originals = (getattr(self, f"original{i}") for i in range(self.ntensors))
            x = self[0](*originals)
        curr_idx = 1
        while hasattr(self, str(curr_idx)):
            x = self[curr_idx](x)
            curr_idx += 1
        return x


def _default_deepcopy(self, memo):
    obj = memo.get(id(self), None)
    if obj is not None:
        return obj
    replica = self.__new__(self.__class__)
    memo[id(self)] = replica
    replica.__dict__ = deepcopy(self.__dict__, memo)
    for slot in copyreg._slotnames(self.__class__):
        if hasattr(self, slot):
            setattr(replica, slot, deepcopy(getattr(self, slot), memo))
    return replica


def _parametrized_getstate(self):
    raise RuntimeError(
        "Serialization of parametrized modules is only "
        "supported through state_dict(). See:\n"
        "https://pytorch.org/tutorials/beginner/saving_loading_models.html"
        "#saving-loading-a-general-checkpoint-for-inference-and-or-resuming-training")


def _inject_new_class(module):
    """Swap the class of ``module`` for a subclass ``Parametrized<Name>`` (where the
    properties of the parametrized tensors go). It cannot be pickled (only its state_dict can
    be saved) but it can be deep-copied."""
    cls = module.__class__
    dct = {"__getstate__": _parametrized_getstate}
    if not hasattr(cls, "__deepcopy__"):
        dct["__deepcopy__"] = _default_deepcopy
    module.__class__ = type(f"Parametrized{cls.__name__}", (cls,), dct)


def _inject_property(module, tensor_name):
    """Add to the (already swapped) class of ``module`` a property ``tensor_name`` that
    computes the parametrization on read and calls its ``right_inverse`` on assignment."""
    if hasattr(module, tensor_name):
        raise AssertionError(f"Module already has an attribute named '{tensor_name}'")

    def get_cached_parametrization(parametrization):
        key = (id(module), tensor_name)
        tensor = _cache.get(key)
        if tensor is None:
            tensor = parametrization()
            _cache[key] = tensor
        return tensor

    def get_parametrized(self):
        parametrization = self.parametrizations[tensor_name]
        if _cache_enabled:
            return get_cached_parametrization(parametrization)
        return parametrization()

    def set_original(self, value):
        self.parametrizations[tensor_name].right_inverse(value)

    setattr(module.__class__, tensor_name, property(get_parametrized, set_original))


def register_parametrization(module, tensor_name, parametrization, *, unsafe=False):
    """Register ``parametrization`` on the parameter or buffer ``tensor_name`` of ``module``:
    reading ``module.<tensor_name>`` then returns ``parametrization(original)`` (and the
    backward pass differentiates through it).

    The first parametrization of a module adds ``module.parametrizations`` (a ``ModuleDict``)
    and swaps the module's class for ``Parametrized<Name>``; the unconstrained tensor lives in
    ``module.parametrizations.<tensor_name>.original``. Several parametrizations may be stacked
    on one tensor (applied in registration order). If the first parametrization has a
    ``right_inverse``, it maps the current value to the original(s); when it returns a
    sequence, the originals are ``original0``, ``original1``, ... Assigning to the
    parametrized attribute calls the ``right_inverse`` of every parametrization.

    The training mode of ``parametrization`` is set to the module's.

    Args:
        module (nn.Module): module on which to register the parametrization.
        tensor_name (str): name of the parameter or buffer to parametrize.
        parametrization (nn.Module): the parametrization.

    Keyword args:
        unsafe (bool): allow the parametrization to change the dtype and shape of the tensor
            (no consistency check is done). Default: ``False``.

    Returns:
        ``module``.

    Raises:
        ValueError: if ``module`` has no parameter, buffer or parametrized tensor
            ``tensor_name``, or a consistency check fails.
    """
    parametrization.train(module.training)
    if is_parametrized(module, tensor_name):
        # forward and right_inverse must map the space of module.<tensor_name> to itself
        if not unsafe:
            Y = getattr(module, tensor_name)
            X = parametrization(Y)
            if not isinstance(X, Tensor):
                raise ValueError(f"A parametrization must return a tensor. Got {type(X).__name__}.")
            if X.dtype != Y.dtype:
                raise ValueError(
                    "Registering a parametrization may not change the dtype of the tensor, unless the "
                    "`unsafe` flag is enabled.\n"
                    f"module.{tensor_name}.dtype: {Y.dtype}\n"
                    f"parametrization(module.{tensor_name}).dtype: {X.dtype}")
            if X.shape != Y.shape:
                raise ValueError(
                    "Registering a parametrization may not change the shape of the tensor, unless the "
                    "`unsafe` flag is enabled.\n"
                    f"module.{tensor_name}.shape: {Y.shape}\n"
                    f"parametrization(module.{tensor_name}).shape: {X.shape}")
            if hasattr(parametrization, "right_inverse"):
                try:
                    Z = parametrization.right_inverse(X)
                except NotImplementedError:
                    pass
                else:
                    if not isinstance(Z, Tensor):
                        raise ValueError(
                            f"parametrization.right_inverse must return a tensor. Got: {type(Z).__name__}")
                    if Z.dtype != Y.dtype:
                        raise ValueError(
                            "The tensor returned by parametrization.right_inverse must have the same dtype "
                            f"as module.{tensor_name}, unless the `unsafe` flag is enabled.\n"
                            f"module.{tensor_name}.dtype: {Y.dtype}\n"
                            f"returned dtype: {Z.dtype}")
                    if Z.shape != Y.shape:
                        raise ValueError(
                            "The tensor returned by parametrization.right_inverse must have the same shape "
                            f"as module.{tensor_name}, unless the `unsafe` flag is enabled.\n"
                            f"module.{tensor_name}.shape: {Y.shape}\n"
                            f"returned shape: {Z.shape}")
        if not isinstance(module.parametrizations, ModuleDict):
            raise AssertionError("Expected module.parametrizations to be a ModuleDict, "
                                 f"got {type(module.parametrizations).__name__}")
        module.parametrizations[tensor_name].append(parametrization)
        # once unsafe, always unsafe
        module.parametrizations[tensor_name].unsafe |= unsafe
    elif tensor_name in module._buffers or tensor_name in module._parameters:
        original = getattr(module, tensor_name)
        # built first: it raises before the module is touched
        parametrizations = ParametrizationList([parametrization], original, unsafe=unsafe)
        delattr(module, tensor_name)
        if not is_parametrized(module):
            _inject_new_class(module)
            module.parametrizations = ModuleDict()
        _inject_property(module, tensor_name)
        if not isinstance(module.parametrizations, ModuleDict):
            raise AssertionError("Expected module.parametrizations to be a ModuleDict, "
                                 f"got {type(module.parametrizations).__name__}")
        module.parametrizations[tensor_name] = parametrizations
    else:
        raise ValueError(f"Module '{module}' does not have a parameter, a buffer, or a "
                         f"parametrized element with name '{tensor_name}'")
    return module


def is_parametrized(module, tensor_name=None):
    """Whether ``module`` has a parametrization on ``tensor_name`` (or, with
    ``tensor_name=None``, on any tensor)."""
    parametrizations = getattr(module, "parametrizations", None)
    if parametrizations is None or not isinstance(parametrizations, ModuleDict):
        return False
    if tensor_name is None:
        return len(parametrizations) > 0
    return tensor_name in parametrizations


def remove_parametrizations(module, tensor_name, leave_parametrized=True):
    """Remove the parametrizations on ``module.<tensor_name>``.

    With ``leave_parametrized=True`` the tensor keeps its current (parametrized) value; with
    ``False`` it goes back to the unparametrized ``original`` (only possible when the
    parametrization depends on one tensor). When no tensor of the module stays parametrized,
    ``module.parametrizations`` is deleted and the module gets its original class back.

    Returns:
        ``module``.

    Raises:
        ValueError: if ``module.<tensor_name>`` is not parametrized, or if
            ``leave_parametrized=False`` and the parametrization depends on several tensors.
    """
    if not is_parametrized(module, tensor_name):
        raise ValueError(f"Module {module} does not have a parametrization on {tensor_name}")

    if not isinstance(module.parametrizations, ModuleDict):
        raise AssertionError("Expected module.parametrizations to be a ModuleDict, "
                             f"got {type(module.parametrizations).__name__}")
    parametrizations = module.parametrizations[tensor_name]

    if parametrizations.is_tensor:
        original = parametrizations.original
        if leave_parametrized:
            with no_grad():
                t = getattr(module, tensor_name)
            # same dtype (checked at registration): the original keeps its identity
            with no_grad():
                _maybe_set(original, t)
    else:
        if leave_parametrized:
            # not under no_grad: whether the originals require grad decides Parameter or not
            t = getattr(module, tensor_name)
            original = Parameter(t) if t.requires_grad else t
        else:
            raise ValueError("Cannot leave unparametrized (`leave_parametrized=False`) a tensor "
                             "that is parametrized in terms of a sequence of tensors.")

    delattr(module.__class__, tensor_name)
    del module.parametrizations[tensor_name]
    _register_parameter_or_buffer(module, tensor_name, original)

    if not is_parametrized(module):
        delattr(module, "parametrizations")
        module.__class__ = module.__class__.__bases__[0]
    return module


def type_before_parametrizations(module):
    """The class of ``module`` before parametrizations were registered (its class if it has
    none)."""
    if is_parametrized(module):
        return module.__class__.__bases__[0]
    return type(module)


def transfer_parametrizations_and_params(from_module, to_module, tensor_name=None):
    """Register on ``to_module`` the parametrizations of ``from_module`` (all of them, or those
    of ``tensor_name``) and give it the same original tensors; a parametrized tensor that
    ``to_module`` lacks is created first. Does nothing if ``from_module`` is not parametrized.

    Returns:
        ``to_module``.
    """
    if is_parametrized(from_module):
        if not isinstance(from_module.parametrizations, ModuleDict):
            raise AssertionError("Expected from_module.parametrizations to be a ModuleDict, "
                                 f"got {type(from_module.parametrizations).__name__}")
        parameters_to_transfer = from_module.parametrizations if tensor_name is None else [tensor_name]
        for parameter_name in parameters_to_transfer:
            if not hasattr(to_module, parameter_name):
                setattr(to_module, parameter_name, Parameter(getattr(from_module, parameter_name)))
            for param_func in from_module.parametrizations[parameter_name]:
                register_parametrization(to_module, parameter_name, param_func)
            if not isinstance(to_module.parametrizations, ModuleDict):
                raise AssertionError("Expected to_module.parametrizations to be a ModuleDict, "
                                     f"got {type(to_module.parametrizations).__name__}")
            # the originals are "original" or "original0", "original1", ...
            if hasattr(from_module.parametrizations[parameter_name], "original"):
                to_module.parametrizations[parameter_name].original = \
                    from_module.parametrizations[parameter_name].original
            else:
                num = 0
                orig_num = "original" + str(num)
                while hasattr(from_module.parametrizations[parameter_name], orig_num):
                    setattr(to_module.parametrizations[parameter_name], orig_num,
                            getattr(from_module.parametrizations[parameter_name], orig_num))
                    num = num + 1
                    orig_num = "original" + str(num)
    return to_module
