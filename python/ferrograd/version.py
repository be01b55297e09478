"""``torch.version``: the version of PyTorch's API that ferrograd follows, and its build facts."""

__all__ = ["__version__", "debug", "cuda", "git_version", "hip", "xpu"]

from .torch_version import __version__  # noqa: E402
debug = False
cuda = None
git_version = "unknown"
hip = None
xpu = None
