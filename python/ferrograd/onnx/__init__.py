"""``torch.onnx``: importable, so programs that only export on request run; exporting needs
PyTorch's tracer and graph, which ferrograd does not have."""

__all__ = ["export", "is_in_onnx_export"]


def export(model, args=(), f=None, *posargs, **kwargs):
    """Not available: raises NotImplementedError."""
    raise NotImplementedError("ferrograd cannot export ONNX graphs: torch.onnx.export needs PyTorch's tracer")


def is_in_onnx_export():
    """Whether an ONNX export is running: never."""
    return False
