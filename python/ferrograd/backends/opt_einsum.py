"""``torch.backends.opt_einsum``: ferrograd's einsum contracts left to right."""

enabled = False
strategy = None


def is_available():
    """Whether the library is available to ferrograd."""
    return False
