"""``torch.backends.mkl``: ferrograd does not use MKL."""


def is_available():
    """Whether the library is available to ferrograd."""
    return False
