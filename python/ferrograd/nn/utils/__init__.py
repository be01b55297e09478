"""``torch.nn.utils``: gradient clipping, parameter/vector conversion, and padding/packing of
variable-length sequences (``rnn``)."""

from .clip_grad import (  # noqa: F401
    _clip_grads_with_norm_ as clip_grads_with_norm_,
    _get_total_norm as get_total_norm,
    clip_grad_norm,
    clip_grad_norm_,
    clip_grad_value_,
)
from .convert_parameters import parameters_to_vector, vector_to_parameters  # noqa: F401
from . import rnn  # noqa: F401

__all__ = [
    "clip_grad_norm", "clip_grad_norm_", "clip_grads_with_norm_", "clip_grad_value_",
    "get_total_norm", "parameters_to_vector", "vector_to_parameters", "rnn",
]
