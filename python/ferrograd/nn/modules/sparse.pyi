"""Type stubs for ``ferrograd.nn.modules.sparse`` (docstrings: see the module itself)."""

from typing import Any, Callable, Optional, Sequence, Union

from ..._C import Tensor
from ..._C import dtype as _dtype
from ..._helpers import device as _device
from ..parameter import Parameter
from .module import Module

_DeviceLike = Union[_device, str, int]
_size_any = Union[int, Sequence[int]]

__all__ = ["Embedding"]

class Embedding(Module):
    """A simple lookup table that stores embeddings of a fixed dictionary and size: indices in, rows of ``weight`` out (``padding_idx`` rows get no gradient)."""
    __constants__: list[str]
    num_embeddings: int
    embedding_dim: int
    padding_idx: Optional[int]
    weight: Parameter
    @classmethod
    def from_pretrained(cls, embeddings: Tensor, freeze: bool = True, padding_idx: Optional[int] = None,
                        max_norm: Optional[float] = None, norm_type: float = 2.0, scale_grad_by_freq: bool = False,
                        sparse: bool = False) -> Embedding:
        """Create an Embedding instance from the given 2-dimensional ``embeddings`` tensor (frozen unless ``freeze=False``)."""
    def __init__(self, num_embeddings: int, embedding_dim: int, padding_idx: Optional[int] = None, max_norm: Optional[float] = None, norm_type: float = 2.0, scale_grad_by_freq: bool = False, sparse: bool = False, _weight: Optional[Tensor] = None, _freeze: bool = False, device: Optional[_DeviceLike] = None, dtype: Optional[_dtype] = None) -> None: ...
    def reset_parameters(self) -> None:
        """Re-initialise ``weight`` from ``N(0, 1)`` (the ``padding_idx`` row zeroed)."""
    def forward(self, input: Tensor) -> Tensor: ...
    def __call__(self, input: Tensor) -> Tensor: ...
    def extra_repr(self) -> str: ...
