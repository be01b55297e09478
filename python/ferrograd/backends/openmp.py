"""``torch.backends.openmp``: ferrograd's threads are its own team, not OpenMP."""


def is_available():
    """Whether the library is available to ferrograd."""
    return False
