"""``torch.version``: the version of PyTorch's API that ferrograd follows, and its build facts."""

__all__ = ["__version__", "debug", "cuda", "git_version", "hip", "xpu"]

__version__ = "2.13.0+ferrograd"
debug = False
cuda = None
git_version = "unknown"
hip = None
xpu = None
