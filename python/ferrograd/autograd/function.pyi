"""Custom autograd Functions: ``Function`` subclasses with static ``forward``/``backward``,
the ctx object (which is also the node, ``y.grad_fn``), and ``once_differentiable``."""

from typing import Any, Callable, Optional, TypeVar

from .. import _C
from .._C import Tensor

_F = TypeVar("_F", bound=Callable[..., Any])

class FunctionCtx:
    """The ``ctx`` object passed to a custom Function's ``forward``/``setup_context`` and
    ``backward`` (``torch.autograd.function.FunctionCtx``)."""
    def save_for_backward(self, *tensors: Optional[Tensor]) -> None:
        """Save tensors (inputs or outputs of ``forward``; ``None`` allowed) for ``backward``,
        where ``ctx.saved_tensors`` returns them, checked against in-place modification."""
    def save_for_forward(self, *tensors: Optional[Tensor]) -> None:
        """Save tensors for a ``jvp`` (forward-mode) rule."""
    def mark_dirty(self, *args: Tensor) -> None:
        """Mark the inputs that ``forward`` modified in place (they must be returned as outputs)."""
    def mark_non_differentiable(self, *args: Tensor) -> None:
        """Mark outputs as not differentiable (their gradients are always zero / ``None``)."""
    def set_materialize_grads(self, value: bool) -> None:
        """Whether ``None`` output gradients are replaced by zero tensors before ``backward``
        (default ``True``)."""
    @property
    def saved_tensors(self) -> tuple[Tensor, ...]:
        """The tensors given to ``save_for_backward`` (``None`` entries kept, typed as
        tensors as in PyTorch's stubs)."""
    @property
    def saved_variables(self) -> tuple[Tensor, ...]:
        """Deprecated alias of ``saved_tensors``."""

class BackwardCFunction(_C.Node, FunctionCtx):
    """Base of the generated ``<Name>Backward`` node classes of custom Functions."""
    def apply(self, *grads: Any) -> Any:
        """Call the Function's ``backward`` with this node as ``ctx``."""
    @property
    def metadata(self) -> dict[Any, Any]:
        """A dict for user data attached to this node."""

class FunctionMeta(type):
    """Metaclass of ``Function``: creates the subclass's backward node class."""
    def __init__(cls, name: str, bases: tuple[type, ...], attrs: dict[str, Any]) -> None: ...

class Function(metaclass=FunctionMeta):
    """Base class to create custom autograd operations (``torch.autograd.Function``).

    Subclass it with static ``forward(ctx, *args)`` (or ``forward(*args)`` plus
    ``setup_context(ctx, inputs, output)``) and ``backward(ctx, *grad_outputs)``, and call
    ``MyFunction.apply(*args)``. The ctx is the output's ``grad_fn``, named
    ``<MyFunction>Backward``, as in PyTorch.

    Example::

        class Exp(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                y = x.exp()
                ctx.save_for_backward(y)
                return y

            @staticmethod
            def backward(ctx, g):
                (y,) = ctx.saved_tensors
                return g * y
    """
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        """Instantiating a Function is deprecated (DeprecationWarning): its methods are static."""
    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        """Calling an instance raises RuntimeError (legacy non-static Functions are gone)."""
    @staticmethod
    def forward(*args: Any, **kwargs: Any) -> Any:
        """Define the forward of the custom operation (override it)."""
    @staticmethod
    def setup_context(*args: Any, **kwargs: Any) -> Any:
        """Optional: save what ``backward`` needs, when ``forward`` does not take ``ctx``."""
    @staticmethod
    def backward(*args: Any, **kwargs: Any) -> Any:
        """Define the gradient formula: one gradient (or ``None``) per ``forward`` input (override it)."""
    @staticmethod
    def vjp(*args: Any, **kwargs: Any) -> Any:
        """Alias of ``backward``."""
    @classmethod
    def apply(cls, *args: Any, **kwargs: Any) -> Any:
        """Run the operation: ``forward`` under no-grad, then record the node if any input
        requires grad. Returns ``forward``'s outputs."""

class _OnceDifferentiableError(Function):
    @staticmethod
    def forward(ctx: Any, *tensors: Tensor) -> Any: ...
    @staticmethod
    def backward(ctx: Any, *grads: Any) -> Any: ...

def once_differentiable(fn: _F) -> _F:
    """Decorate a custom Function's ``backward`` that is not itself differentiable: it runs
    under no-grad, and a double backward through it raises PyTorch's error."""

class InplaceFunction(Function):
    """Legacy PyTorch API; kept so that code naming it imports."""

class NestedIOFunction(Function, FunctionCtx):
    """Legacy Function with instance methods ``forward_extended``/``backward_extended`` over
    nested lists/tuples of tensors (kept by PyTorch for backward compatibility only; calling an
    instance or ``apply`` raises ``AttributeError``, as in PyTorch 2.13)."""
    to_save: tuple[Tensor, ...]
    dirty_tensors: tuple[Tensor, ...]
    non_differentiable: tuple[Tensor, ...]
    retain_variables: bool
    def __call__(self, *input: Any) -> Any: ...
    def backward(self, *gradients: Any) -> Any:  # type: ignore[override]
        """Shared backward utility: unflatten the gradients, call ``backward_extended``,
        flatten its result."""
    def forward(self, *args: Any) -> Any:  # type: ignore[override]
        """Shared forward utility: call ``forward_extended`` on the nested input, return its
        output flattened."""
    def save_for_backward(self, *args: Any) -> None:
        """Save (nested lists/tuples of) tensors for ``backward_extended``."""
    @property
    def saved_tensors(self) -> Any:  # type: ignore[override]
        """The saved tensors, in the nesting given to ``save_for_backward``."""
    def mark_dirty(self, *args: Any, **kwargs: Any) -> None:
        """Record the tensors modified in place in ``dirty_tensors``."""
    def mark_non_differentiable(self, *args: Any, **kwargs: Any) -> None:
        """Record the non-differentiable outputs in ``non_differentiable``."""
    def forward_extended(self, *input: Any) -> None:
        """User defined forward."""
    def backward_extended(self, *grad_output: Any) -> None:
        """User defined backward."""
