"""``torch._dynamo.eval_frame``: what ``torch.compile`` returns for a module. There is no
graph compiler here (every call runs eagerly); the wrapper keeps PyTorch's observable
shape: an ``OptimizedModule`` holding the model as ``_orig_mod`` (so its ``state_dict``
keys carry the ``_orig_mod.`` prefix, as checkpoints of compiled models do), forwarding
calls and unknown attributes to it."""

import functools

from ..nn.modules.module import Module

__all__ = ["OptimizedModule"]


class OptimizedModule(Module):
    """A module as ``torch.compile`` returns it: calls run ``_orig_mod``; attributes the
    wrapper does not have are looked up on ``_orig_mod``."""

    _torchdynamo_orig_callable = None

    def __init__(self, mod, dynamo_ctx=None):
        super().__init__()
        self._orig_mod = mod
        self.dynamo_ctx = dynamo_ctx
        self._torchdynamo_orig_callable = mod.forward

    def forward(self, *args, **kwargs):
        """``_orig_mod(*args, **kwargs)`` (its hooks run as on a direct call)."""
        return self._orig_mod(*args, **kwargs)

    def __getattr__(self, name):
        try:
            return super().__getattr__(name)
        except AttributeError:
            if name == "_orig_mod":
                raise
            return getattr(self._modules["_orig_mod"], name)

    def __reduce__(self):
        return (self.__class__, (self._orig_mod, self.dynamo_ctx))

    def __setstate__(self, state):
        self.__dict__.update(state)

    def __dir__(self):
        return sorted(set(super().__dir__()) | set(dir(self._orig_mod)))


def _optimize_function(fn):
    """A function as ``torch.compile`` returns it: the same function, called eagerly."""

    @functools.wraps(fn)
    def compiled(*args, **kwargs):
        return fn(*args, **kwargs)

    compiled._torchdynamo_orig_callable = fn
    return compiled
