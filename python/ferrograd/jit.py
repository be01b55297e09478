"""``torch.jit``: ferrograd runs everything eagerly, so scripting and tracing return the
function or module unchanged (it computes what the scripted version computes); the decorators
that only steer the TorchScript compiler are accepted as no-ops. Saving and loading
TorchScript archives is not supported (``save``/``load`` raise)."""

__all__ = ["script", "trace", "ignore", "unused", "export", "is_scripting", "is_tracing", "annotate", "Final",
           "interface", "save", "load", "ScriptModule", "ScriptFunction", "fork", "wait", "freeze", "optimize_for_inference"]

from typing import Final  # noqa: F401  (torch.jit.Final is typing's Final)


class ScriptModule:
    """Placeholder base class: ferrograd never produces TorchScript modules."""


class ScriptFunction:
    """Placeholder class: ferrograd never produces TorchScript functions."""


def script(obj=None, optimize=None, _frames_up=0, _rcb=None, example_inputs=None):
    """``obj`` itself: ferrograd executes eagerly, which is what the scripted code computes."""
    return obj


def trace(func, example_inputs=None, *args, **kwargs):
    """``func`` itself (an eager module or function computes what its trace computes for the
    example's shapes and control flow)."""
    return func


def ignore(drop=False, **kwargs):
    """Leave a function to Python (always the case in ferrograd); usable bare or called."""
    if callable(drop):
        return drop
    return lambda fn: fn


def unused(fn):
    """Mark a method as unused by the compiler: returned unchanged."""
    return fn


def export(fn):
    """Mark a method for compilation: returned unchanged."""
    return fn


def interface(obj):
    """Declare a TorchScript interface: returned unchanged."""
    return obj


def is_scripting():
    """False: ferrograd code never runs under TorchScript."""
    return False


def is_tracing():
    """False: ferrograd code never runs under the tracer."""
    return False


def annotate(the_type, the_value):
    """``the_value`` (the type is a hint for the TorchScript compiler)."""
    return the_value


class _Future:
    def __init__(self, value):
        self._value = value

    def wait(self):
        """The value computed when the future was created."""
        return self._value


def fork(func, *args, **kwargs):
    """Run ``func`` now (ferrograd has no TorchScript task parallelism) and return a future."""
    return _Future(func(*args, **kwargs))


def wait(future):
    """The value of a future from ``fork``."""
    return future.wait()


def freeze(mod, preserved_attrs=None, optimize_numerics=True):
    """``mod`` unchanged (there is no TorchScript module to freeze)."""
    return mod


def optimize_for_inference(mod, other_methods=None):
    """``mod`` unchanged."""
    return mod


def save(m, f, _extra_files=None):
    """Not supported: ferrograd cannot write TorchScript archives (use ``torch.save``)."""
    raise NotImplementedError("torch.jit.save: ferrograd does not produce TorchScript archives; use torch.save(module.state_dict(), f)")


def load(f, map_location=None, _extra_files=None, _restore_shapes=False):
    """Not supported: ferrograd cannot read TorchScript archives (use ``torch.load``)."""
    raise NotImplementedError("torch.jit.load: ferrograd cannot read TorchScript archives; use torch.load on a saved state_dict")
