"""``torch.nn.utils.stateless``: the deprecated ``functional_call`` (use
``torch.func.functional_call``)."""

import warnings

__all__ = ["functional_call"]


def functional_call(module, parameters_and_buffers, args=None, kwargs=None, *, tie_weights=True, strict=False):
    """Call ``module(*args, **kwargs)`` with its parameters and buffers replaced by the
    tensors of the dict ``parameters_and_buffers`` (keys: dotted names as in
    ``named_parameters``), for this one call; with ``tie_weights=True`` a value given for one
    of several tied names is used for all of them; ``strict=True`` requires exactly the
    module's names. ``args`` that is not a tuple is the single positional argument.

    Deprecated (FutureWarning) since PyTorch 2.0: ``torch.func.functional_call`` is the
    drop-in replacement (it runs the same code here)."""
    from ...func import _reparametrized_call

    warnings.warn(
        "`torch.nn.utils.stateless.functional_call` is deprecated as of PyTorch 2.0 "
        "and will be removed in a future version of PyTorch. "
        "Please use `torch.func.functional_call` instead which is a drop-in replacement.",
        FutureWarning, stacklevel=2)
    if kwargs is None:
        kwargs = {}
    if args is None:
        args = ()
    elif not isinstance(args, tuple):
        args = (args,)
    return _reparametrized_call(module, parameters_and_buffers, args, kwargs, tie_weights, strict)
