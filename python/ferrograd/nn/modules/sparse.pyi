"""Type stubs for ``ferrograd.nn.modules.sparse`` (docstrings: see the module itself)."""

from typing import Any, Callable, Optional, Sequence, Union

from ..._C import Tensor
from ..._C import dtype as _dtype
from ..._helpers import device as _device
from ..parameter import Parameter
from .module import Module

_DeviceLike = Union[_device, str, int]
_size_any = Union[int, Sequence[int]]

__all__ = ["Embedding", "EmbeddingBag"]

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

class EmbeddingBag(Module):
    """Sums, means or maxes of bags of embeddings, without instantiating the intermediate embeddings."""
    __constants__: list[str]
    num_embeddings: int
    embedding_dim: int
    max_norm: Optional[float]
    norm_type: float
    scale_grad_by_freq: bool
    mode: str
    sparse: bool
    include_last_offset: bool
    padding_idx: Optional[int]
    weight: Parameter
    def __init__(self, num_embeddings: int, embedding_dim: int, max_norm: Optional[float] = None, norm_type: float = 2.0, scale_grad_by_freq: bool = False, mode: str = "mean", sparse: bool = False, _weight: Optional[Tensor] = None, include_last_offset: bool = False, padding_idx: Optional[int] = None, device: Optional[_DeviceLike] = None, dtype: Optional[_dtype] = None) -> None: ...
    def reset_parameters(self) -> None:
        """Re-initialise ``weight`` from ``N(0, 1)`` (the ``padding_idx`` row zeroed)."""
    def forward(self, input: Tensor, offsets: Optional[Tensor] = None, per_sample_weights: Optional[Tensor] = None) -> Tensor: ...
    def __call__(self, input: Tensor, offsets: Optional[Tensor] = None, per_sample_weights: Optional[Tensor] = None) -> Tensor: ...
    def extra_repr(self) -> str: ...
    @classmethod
    def from_pretrained(cls, embeddings: Tensor, freeze: bool = True, max_norm: Optional[float] = None, norm_type: float = 2.0, scale_grad_by_freq: bool = False, mode: str = "mean", sparse: bool = False, include_last_offset: bool = False, padding_idx: Optional[int] = None) -> EmbeddingBag:
        """Create an EmbeddingBag from the given 2-dimensional ``embeddings`` tensor."""
