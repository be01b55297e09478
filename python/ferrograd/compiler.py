"""``torch.compiler``: the public face of ``torch.compile``'s machinery. ferrograd runs
eagerly; these answer as PyTorch does outside a compiled region."""

from ._dynamo import disable, reset

__all__ = ["allow_in_graph", "assume_constant_result", "cudagraph_mark_step_begin", "disable", "is_compiling",
           "is_dynamo_compiling", "is_exporting", "reset"]


def is_compiling():
    """False: no compiled region is being traced."""
    return False


def is_dynamo_compiling():
    """False: no compiled region is being traced."""
    return False


def is_exporting():
    """False: no export is being traced."""
    return False


def allow_in_graph(fn):
    """Let the compiler keep ``fn`` as one graph node: returns ``fn``."""
    return fn


def assume_constant_result(fn):
    """Let the compiler fold ``fn``'s result as a constant: returns ``fn``."""
    return fn


def cudagraph_mark_step_begin():
    """Mark the start of a CUDA-graph step (no CUDA graphs are captured: a no-op)."""
