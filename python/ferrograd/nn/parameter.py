"""``torch.nn.parameter``: Parameter (a tensor that a Module registers as a parameter),
Buffer (a tensor that a Module registers as a buffer) and UninitializedParameter (the
not-yet-shaped parameter of a lazy module)."""

from .. import Tensor

__all__ = ["Parameter", "UninitializedParameter", "UninitializedBuffer", "is_lazy", "Buffer", "UninitializedTensorMixin"]


class Parameter(Tensor):
    """A tensor that is a module parameter: assigning one to a Module attribute registers it.

    Shares the data of ``data`` (a detached alias, as ``torch.Tensor._make_subclass``) and
    requires grad unless ``requires_grad=False``."""

    def __new__(cls, data=None, requires_grad=True):
        from .. import empty

        if data is None:
            data = empty(0)
        if not isinstance(data, Tensor):
            raise AttributeError(f"'{type(data).__name__}' object has no attribute 'detach'")
        if requires_grad and not (data.is_floating_point() or data.is_complex()):
            # torch's Tensor._make_subclass message (Tensor.requires_grad_ words it differently)
            raise RuntimeError("Only Tensors of floating point and complex dtype can require gradients")
        t = Tensor.__new__(cls, _alias=data)
        t._register()
        if requires_grad:
            Tensor.requires_grad_(t, True)
        return t

    def __init__(self, data=None, requires_grad=True):
        pass

    def __repr__(self):
        return "Parameter containing:\n" + Tensor.__repr__(self)

    # torch.Tensor has no __str__ of its own, so str(param) is the Parameter repr
    __str__ = __repr__

    def __reduce_ex__(self, proto):
        rebuild, args = Tensor.__reduce_ex__(self, proto)
        return (_rebuild_parameter, (rebuild(*args[:3], False), self.requires_grad))

    def __deepcopy__(self, memo):
        if id(self) in memo:
            return memo[id(self)]
        from .. import no_grad

        with no_grad():
            new = type(self)(self.data.clone(), self.requires_grad)
        memo[id(self)] = new
        return new


def _rebuild_parameter(data, requires_grad):
    return Parameter(data, requires_grad)


class _BufferMeta(type):
    # a Buffer is a plain tensor marked ``_is_buffer`` (as torch's _BufferMeta)
    def __instancecheck__(cls, instance):
        if cls is Buffer and isinstance(instance, Tensor) and getattr(instance, "_is_buffer", False):
            return True
        return super().__instancecheck__(instance)


class Buffer(metaclass=_BufferMeta):
    """``nn.Buffer(data, persistent=True)``: a tensor that, assigned to a Module attribute,
    is registered as a buffer (persistent or not). Returns a detached plain tensor."""

    def __new__(cls, data=None, *, persistent=True):
        from .. import empty

        if data is None:
            data = empty(0)
        t = data.detach().requires_grad_(data.requires_grad)
        t.persistent = persistent
        t._is_buffer = True
        return t


class UninitializedTensorMixin:
    """A tensor with no data yet (the parameters of lazy modules): ``materialize(shape)``
    gives it its data and turns it into ``cls_to_become``."""

    def materialize(self, shape, device=None, dtype=None):
        """Create a tensor of ``shape`` (on the same device and dtype unless given) as this
        object's data, and turn this object into a ``cls_to_become`` (e.g. a Parameter)."""
        from .. import empty

        if device is None:
            device = self.data.device
        if dtype is None:
            dtype = self.data.dtype
        self.data = empty(shape, device=device, dtype=dtype)
        self.__class__ = self.cls_to_become

    @property
    def shape(self):
        """Not available before ``materialize``: raises RuntimeError (torch's message)."""
        raise RuntimeError(
            "Can't access the shape of an uninitialized parameter or buffer. This error usually happens in "
            "`load_state_dict` when trying to load an uninitialized parameter into an initialized one. Call "
            "`forward` to initialize the parameters before accessing their attributes.")

    def share_memory_(self):
        """Not available before ``materialize`` (RuntimeError)."""
        raise RuntimeError(
            "Can't share memory on an uninitialized parameter or buffer. Call `forward` to initialize the "
            "parameters before calling `module.share_memory()`.")

    def __repr__(self):
        return f"<{self.__class__.__name__}>"

    __str__ = __repr__

    def __reduce_ex__(self, proto):
        return (self.__class__, (self.requires_grad,))


# the Tensor methods an uninitialized parameter or buffer answers (PyTorch's
# `UninitializedTensorMixin._allowed_methods`, plus what lazy modules and `Module`'s own
# bookkeeping call on it); every other method raises PyTorch's ValueError
_LAZY_ALLOWED = frozenset({
    "size", "copy_", "is_complex", "is_floating_point", "half", "float", "double", "char", "short", "int",
    "long", "cuda", "cpu", "to", "get_device", "materialize", "share_memory_", "detach_", "requires_grad_",
    "_register", "type", "is_shared", "data_ptr", "untyped_storage", "__hash__",
})


def _lazy_refuse(name):
    def refuse(self, *args, **kwargs):
        raise ValueError(
            f"Attempted to use an uninitialized parameter in <method '{name}' of 'torch._C.TensorBase' objects>. "
            "This error happens when you are using a `LazyModule` or explicitly manipulating "
            "`torch.nn.parameter.UninitializedParameter` objects. When using LazyModules Call `forward` with a "
            "dummy batch to initialize the parameters before calling torch functions")

    refuse.__name__ = name
    refuse.__doc__ = f"Not available before ``materialize`` (ValueError): ``Tensor.{name}``."
    return refuse


def _lazy_requires_grad_(self, requires_grad=True):
    """Not available before ``materialize`` (ValueError, as PyTorch's)."""
    _lazy_refuse("requires_grad_")(self)


for _name in dir(Tensor):
    if (not _name.startswith("_") and _name not in _LAZY_ALLOWED and _name not in UninitializedTensorMixin.__dict__
            and callable(getattr(Tensor, _name, None)) and not isinstance(getattr(Tensor, _name), type)):
        setattr(UninitializedTensorMixin, _name, _lazy_refuse(_name))
UninitializedTensorMixin.requires_grad_ = _lazy_requires_grad_
del _name


class UninitializedParameter(UninitializedTensorMixin, Parameter):
    """A parameter that is not initialized yet (of a lazy module such as ``LazyLinear``): it
    holds no data until ``materialize(shape)`` turns it into a regular :class:`Parameter`."""

    cls_to_become = Parameter

    def __new__(cls, requires_grad=True, device=None, dtype=None):
        from .. import empty

        return Parameter.__new__(cls, empty(0, device=device, dtype=dtype), requires_grad)

    def __init__(self, requires_grad=True, device=None, dtype=None):
        pass

    def __deepcopy__(self, memo):
        if id(self) in memo:
            return memo[id(self)]
        result = type(self)(self.requires_grad, self.data.device, self.data.dtype)
        memo[id(self)] = result
        return result


class _MaterializedBuffer(Tensor):
    """What an :class:`UninitializedBuffer` becomes once materialized (a plain tensor; lazy
    modules re-register a detached plain Tensor in its place)."""

    def __new__(cls, data=None):
        return Tensor.__new__(cls, _alias=data)


class UninitializedBuffer(UninitializedTensorMixin, Tensor):
    """A buffer that is not initialized yet (of a lazy module such as ``LazyBatchNorm1d``): it
    holds no data until ``materialize(shape)``."""

    cls_to_become = _MaterializedBuffer

    def __new__(cls, requires_grad=False, device=None, dtype=None, persistent=True):
        from .. import empty

        t = Tensor.__new__(cls, _alias=empty(0, device=device, dtype=dtype))
        t._register()
        if requires_grad:
            Tensor.requires_grad_(t, True)
        t.persistent = persistent
        t._is_buffer = True
        return t

    def __init__(self, requires_grad=False, device=None, dtype=None, persistent=True):
        pass

    def __reduce_ex__(self, proto):
        return (self.__class__, (self.requires_grad,))

    def __deepcopy__(self, memo):
        if id(self) in memo:
            return memo[id(self)]
        result = type(self)(self.requires_grad, self.data.device, self.data.dtype, getattr(self, "persistent", True))
        memo[id(self)] = result
        return result


def is_lazy(param):
    """Whether ``param`` is an uninitialized parameter (of a lazy module)."""
    return isinstance(param, UninitializedTensorMixin)
