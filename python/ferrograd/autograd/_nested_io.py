"""``torch.autograd.function.NestedIOFunction``: the legacy Function whose instance methods
``forward_extended``/``backward_extended`` take and return nested lists/tuples of tensors.

PyTorch keeps it "only for backward compatibility"; its entry points reach the pre-0.4 engine
(``Function._do_forward``), which no longer exists, so calling an instance or ``apply`` raises
there as in PyTorch 2.13. What still works, and is reproduced here, are the nesting helpers
(``forward``/``backward`` flatten and unflatten around the ``*_extended`` methods) and the ctx
methods (``save_for_backward``, ``saved_tensors``, ``mark_dirty``, ``mark_non_differentiable``).
"""

from .function import Function, FunctionCtx


from .._helpers import _typename  # noqa: E402,F401


def _nesting_error(obj, condition_msg):
    return ValueError("Auto nesting doesn't know how to process an input object of type " + _typename(obj)
                      + (". Accepted types: " + condition_msg + ", or lists/tuples of them" if condition_msg else ""))


def _nested_map(condition, fn, condition_msg=None):
    def _map(obj):
        if condition(obj):
            return fn(obj)
        if obj is None:
            return None
        if isinstance(obj, (list, tuple)):
            mapped = (_map(x) for x in obj)
            if hasattr(obj, "_fields"):  # a namedtuple
                return type(obj)(*mapped)
            return type(obj)(mapped)
        if isinstance(obj, dict):
            return {x: _map(obj[x]) for x in obj}
        raise _nesting_error(obj, condition_msg)

    return _map


def _iter_filter(condition, condition_msg=None):
    def _iter(obj):
        if condition(obj):
            yield obj
        elif obj is None:
            return
        elif isinstance(obj, (list, tuple)):
            for o in obj:
                yield from _iter(o)
        elif isinstance(obj, dict):
            for o in obj.values():
                yield from _iter(o)
        else:
            raise _nesting_error(obj, condition_msg)

    return _iter


def _unflatten(input, proto):
    """Unflatten the flat sequence ``input`` into the nested list/tuple structure of ``proto``
    (``None`` entries of ``proto`` stay ``None``)."""

    def unflatten_helper(input, proto):
        res = []
        if not isinstance(proto, (list, tuple)):
            return input[0], input[1:]
        for e in proto:
            if e is None:
                res.append(e)
            else:
                res_e, input = unflatten_helper(input, e)
                res.append(res_e)
        return type(proto)(res), input

    return unflatten_helper(input, proto)[0]


def _is_tensor(x):
    from .. import Tensor

    return isinstance(x, Tensor)


_iter_tensors = _iter_filter(_is_tensor, condition_msg="Tensors")
_iter_None_tensors = _iter_filter(lambda o: o is None or _is_tensor(o), condition_msg="Tensors or None")
_map_tensor_data = _nested_map(_is_tensor, lambda o: o.data, condition_msg="Tensors")


class NestedIOFunction(Function, FunctionCtx):
    """This class is here only for backward compatibility reasons.
    Use :class:`Function` instead of this for any new use case.

    A subclass defines instance methods ``forward_extended(*input)`` and
    ``backward_extended(*grad_output)`` whose arguments and results may be nested lists and
    tuples of tensors. As in PyTorch 2.13, calling an instance (``f(x)``) raises
    ``AttributeError`` (it reaches the removed legacy engine), and so does ``apply``.
    """

    __module__ = "ferrograd.autograd.function"

    def _do_forward(self, *input):
        """Calling an instance: the legacy engine's entry point. It flattens the input and hands
        it to ``Function._do_forward``, which PyTorch removed: ``AttributeError``, as in
        PyTorch 2.13."""
        self._nested_input = input
        flat_input = tuple(_iter_tensors(input))
        flat_output = super()._do_forward(*flat_input)  # the legacy engine: gone, as in PyTorch
        return _unflatten(flat_output, self._nested_output)

    def _do_backward(self, gradients, retain_variables):
        self.retain_variables = retain_variables
        result = super()._do_backward(gradients, retain_variables)  # the legacy engine: gone
        if not retain_variables:
            del self._nested_output
            del self._to_save_nested
        return result

    def backward(self, *gradients):
        """Shared backward utility: unflatten ``gradients`` like the forward's output, call
        ``backward_extended`` and flatten its result (``None`` entries kept)."""
        nested_gradients = _unflatten(gradients, self._nested_output)
        result = self.backward_extended(*nested_gradients)
        return tuple(_iter_None_tensors(result))

    __call__ = _do_forward

    def forward(self, *args):
        """Shared forward utility: call ``forward_extended`` on the nested input (tensors
        replaced by their ``.data``), remember the nested output, return it flattened."""
        nested_tensors = _map_tensor_data(self._nested_input)
        result = self.forward_extended(*nested_tensors)
        del self._nested_input
        self._nested_output = result
        return tuple(_iter_tensors(result))

    def save_for_backward(self, *args):
        """See :meth:`Function.save_for_backward` (nested lists/tuples of tensors allowed)."""
        self.to_save = tuple(_iter_tensors(args))
        self._to_save_nested = args

    @property
    def saved_tensors(self):
        """See :meth:`Function.saved_tensors`: the saved tensors in the nesting given to
        ``save_for_backward`` (empty until the node is bound by the engine)."""
        flat_tensors = FunctionCtx.saved_tensors.fget(self)
        return _unflatten(flat_tensors, self._to_save_nested)

    def mark_dirty(self, *args, **kwargs):
        """See :meth:`Function.mark_dirty`; records the tensors in ``dirty_tensors``."""
        self.dirty_tensors = tuple(_iter_tensors((args, kwargs)))

    def mark_non_differentiable(self, *args, **kwargs):
        """See :meth:`Function.mark_non_differentiable`; records them in ``non_differentiable``."""
        self.non_differentiable = tuple(_iter_tensors((args, kwargs)))

    def forward_extended(self, *input):
        """User defined forward."""
        raise NotImplementedError

    def backward_extended(self, *grad_output):
        """User defined backward."""
        raise NotImplementedError
