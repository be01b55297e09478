"""``torch.nn.parameter``: Parameter (a tensor that a Module registers as a parameter) and
Buffer (a tensor that a Module registers as a buffer)."""

from .. import Tensor

__all__ = ["Parameter", "Buffer"]


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
        if requires_grad and not data.is_floating_point():
            # torch's Tensor._make_subclass message (Tensor.requires_grad_ words it differently)
            raise RuntimeError("Only Tensors of floating point and complex dtype can require gradients")
        t = Tensor.__new__(cls, _alias=data)
        t._register()
        if requires_grad:
            t.requires_grad_(True)
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
