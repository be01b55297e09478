"""``torch.backends.mps``: no Metal backend in ferrograd."""


def is_available():
    """Whether the library is available to ferrograd."""
    return False


def is_built():
    """Whether this build has the backend."""
    return False
