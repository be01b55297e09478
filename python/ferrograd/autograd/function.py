"""Custom autograd Functions: ``Function`` subclasses with static ``forward``/``backward``,
the ctx object (which is also the node, ``y.grad_fn``), and ``once_differentiable``."""

import functools

from .. import _C
from .grad_mode import no_grad


class FunctionCtx:
    """The ctx methods (mixed into each Function's backward class)."""

    def save_for_backward(self, *tensors):
        self._to_save = tensors
        # None entries are kept as None in saved_tensors (the core saves only tensors)
        self._none_pos = [i for i, t in enumerate(tensors) if t is None]

    def save_for_forward(self, *tensors):
        self._to_save_forward = tensors

    def mark_dirty(self, *args):
        self._dirty = args

    def mark_non_differentiable(self, *args):
        self._non_diff = args

    def set_materialize_grads(self, value):
        self._materialize = bool(value)

    @property
    def saved_tensors(self):
        if self.__dict__.get("_bound"):
            got = list(_C._saved_tensors(self))
            for i in self.__dict__.get("_none_pos", ()):
                got.insert(i, None)
            return tuple(got)
        return tuple(self.__dict__.get("_to_save", ()))

    saved_variables = saved_tensors


class BackwardCFunction(_C.Node, FunctionCtx):
    """Base of the generated ``<Name>Backward`` classes."""

    __module__ = "ferrograd.autograd.function"

    def apply(self, *grads):
        return self._forward_cls.backward(self, *grads)

    @property
    def metadata(self):
        return self.__dict__.setdefault("_metadata", {})


class FunctionMeta(type):
    """Creates ``<Name>Backward`` (the ctx/node class) for every Function subclass."""

    def __init__(cls, name, bases, attrs):
        cls._backward_cls = type(name + "Backward", (BackwardCFunction,),
                                 {"_forward_cls": cls, "__module__": "ferrograd.autograd.function"})
        super().__init__(name, bases, attrs)


class Function(metaclass=FunctionMeta):
    """Base class for custom autograd operations (``torch.autograd.Function``)."""

    def __init__(self, *args, **kwargs):
        """Instantiating a Function is deprecated (DeprecationWarning): its methods are static."""
        import warnings

        warnings.warn(f"{self.__class__} should not be instantiated. Methods on autograd functions are all static, so you "
                      "should invoke them on the class itself. Instantiating an autograd function will raise an error in a "
                      "future version of PyTorch.", DeprecationWarning, stacklevel=2)

    def __call__(self, *args, **kwargs):
        """Calling an instance raises RuntimeError (legacy non-static Functions are gone)."""
        raise RuntimeError("Legacy autograd function with non-static forward method is deprecated. Please use new-style "
                           "autograd function with static forward method. (Example: "
                           "https://pytorch.org/docs/stable/autograd.html#torch.autograd.Function)")

    @staticmethod
    def forward(*args, **kwargs):
        raise NotImplementedError("You must implement the forward function for custom autograd.Function.")

    @staticmethod
    def setup_context(ctx, inputs, output):
        raise NotImplementedError("setup_context is not implemented.")

    @staticmethod
    def backward(ctx, *grad_outputs):
        raise NotImplementedError("You must implement either the backward or vjp method for your custom autograd.Function to use it with backward mode AD.")

    vjp = backward

    @classmethod
    def apply(cls, *args, **kwargs):
        from .. import Tensor
        from . import forward_ad

        dual = forward_ad._has_tangent(args)
        ctx = cls._backward_cls()
        ctx._to_save = ()
        ctx._to_save_forward = ()
        ctx._dirty = ()
        ctx._non_diff = ()
        ctx._materialize = True
        ctx.needs_input_grad = tuple(isinstance(a, Tensor) and a.requires_grad for a in args)
        # the forward runs without tangents: the outputs' come from ``jvp``
        suspended = _C._fw_suspend(True) if dual else None
        try:
            with no_grad():
                if cls.setup_context is not Function.setup_context:
                    outputs = cls.forward(*args, **kwargs)
                    cls.setup_context(ctx, args, outputs)
                else:
                    outputs = cls.forward(ctx, *args, **kwargs)
        finally:
            if dual:
                _C._fw_suspend(suspended)
        result = _C._function_apply(ctx, cls._backward_cls.__name__, args, outputs, tuple(ctx._to_save),
                                    tuple(ctx._dirty), tuple(ctx._non_diff), ctx._materialize)
        ctx._bound = True
        if dual:
            result = forward_ad._apply_jvp(cls, ctx, args, result)
        return result


class _OnceDifferentiableError(Function):
    @staticmethod
    def forward(ctx, *tensors):
        out = tuple(t.clone() for t in tensors)
        return out if len(out) > 1 else out[0]

    @staticmethod
    def backward(ctx, *grads):
        raise RuntimeError("trying to differentiate twice a function that was marked with @once_differentiable")


def once_differentiable(fn):
    """Run ``backward`` without recording; differentiating its result again raises."""

    @functools.wraps(fn)
    def wrapper(ctx, *args):
        from .. import Tensor, is_grad_enabled

        with no_grad():
            outputs = fn(ctx, *args)
        if not is_grad_enabled():
            return outputs
        if not any(isinstance(a, Tensor) and a.requires_grad for a in args):
            return outputs
        single = not isinstance(outputs, tuple)
        outs = (outputs,) if single else outputs
        tensors = [o for o in outs if isinstance(o, Tensor)]
        if not tensors:
            return outputs
        for t in tensors:
            t.requires_grad_(True) if t.is_leaf and t.is_floating_point() else None
        wrapped = _OnceDifferentiableError.apply(*tensors)
        wrapped = wrapped if isinstance(wrapped, tuple) else (wrapped,)
        it = iter(wrapped)
        res = tuple(next(it) if isinstance(o, Tensor) else o for o in outs)
        return res[0] if single else res

    return wrapper


class InplaceFunction(Function):
    pass


from ._nested_io import NestedIOFunction  # noqa: E402,F401
