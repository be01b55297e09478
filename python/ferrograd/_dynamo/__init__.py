"""``torch._dynamo``: PyTorch's graph capture. ferrograd runs every program eagerly, so
this holds the names programs reach for around ``torch.compile`` (``reset``, ``disable``,
``is_compiling``, ``OptimizedModule``, ``config``) with their eager meaning."""

import types

from . import eval_frame
from .eval_frame import OptimizedModule

__all__ = ["OptimizedModule", "config", "disable", "eval_frame", "is_compiling", "mark_dynamic", "mark_static", "reset"]

# knobs programs set before compiling (no compiler reads them here)
config = types.SimpleNamespace(suppress_errors=False, cache_size_limit=8, accumulated_cache_size_limit=256,
                               verbose=False, capture_scalar_outputs=False, optimize_ddp=True)


def reset():
    """Clear compiled code caches (there are none: a no-op)."""


def is_compiling():
    """False: nothing is being traced (every call runs eagerly)."""
    return False


def disable(fn=None, recursive=True):
    """Exclude ``fn`` from compilation: it is returned as it is (usable as a decorator)."""
    if fn is None:
        return lambda f: f
    return fn


def mark_dynamic(t, index, *, min=None, max=None):
    """Mark dimension ``index`` of ``t`` as dynamic for the compiler (no compiler: no effect
    on values)."""
    t._dynamo_dynamic_indices = getattr(t, "_dynamo_dynamic_indices", set()) | {index}


def mark_static(t, index=None):
    """Mark ``t`` (or one of its dimensions) as static for the compiler (no effect on values)."""
