"""``torch.backends.mkldnn``: ferrograd does not use oneDNN."""

enabled = True
deterministic = False


def is_available():
    """Whether the library is available to ferrograd."""
    return False
