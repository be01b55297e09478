"""Type stubs for ``ferrograd._helpers``: ``Size`` and ``device`` (re-exported as
``ferrograd.Size`` and ``ferrograd.device``) and the callbacks the native module uses."""

from typing import Any, Iterable, NamedTuple, Optional, SupportsIndex, Union, overload

from . import _C

class Size(tuple[int, ...]):
    """``torch.Size``: the result of ``Tensor.size()`` and ``Tensor.shape``, a tuple of ints
    that prints as ``torch.Size([2, 3])``. Slicing, ``+`` with a tuple and ``*`` keep the type."""

    def __new__(cls, sizes: Iterable[SupportsIndex] = ...) -> Size: ...
    def numel(self) -> int:
        """The number of elements a tensor of this size has (the product of the sizes)."""
    @overload  # type: ignore[override]
    def __getitem__(self, key: SupportsIndex) -> int: ...
    @overload
    def __getitem__(self, key: slice) -> Size: ...
    def __add__(self, other: tuple[int, ...]) -> Size: ...  # type: ignore[override]
    def __radd__(self, other: tuple[int, ...]) -> Size: ...
    def __mul__(self, n: SupportsIndex) -> Size: ...
    def __rmul__(self, n: SupportsIndex) -> Size: ...

class device:
    """``torch.device``: where a tensor's storage lives. ``device("cpu")``, ``device("cuda:0")``,
    ``device("cuda", 1)``, or a CUDA ordinal ``device(0)``; compares equal to its string form."""

    type: str
    """``"cpu"`` or ``"cuda"``."""
    index: Optional[int]
    """The device ordinal, or ``None``."""

    def __init__(self, type: Union[str, int, device], index: Optional[int] = None) -> None: ...
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...
    def __enter__(self) -> device: ...
    def __exit__(self, *exc: Any) -> bool: ...

class _ValuesIndices(NamedTuple):
    """The named tuple returned by ``max``/``min`` over a dimension, ``sort`` and ``topk``
    (printed as ``torch.return_types.max(values=..., indices=...)``)."""
    values: _C.Tensor
    indices: _C.Tensor

class _MinMax(NamedTuple):
    """The named tuple returned by ``aminmax`` (``torch.return_types.aminmax(min=..., max=...)``)."""
    min: _C.Tensor
    max: _C.Tensor

builtins_type = type
_cpu_device: device
_DEVICE_STACK: list[str]
_RETURN_FIELDS: dict[str, tuple[str, str]]
_NODE_CLASSES: dict[str, type[_C.Node]]
_RETURN_TYPES: dict[str, type]

def _tensor_repr(inp: _C.Tensor) -> str: ...
def _metadata(self: _C.Node) -> dict[Any, Any]: ...
def _node_class(name: str) -> type[_C.Node]: ...
def _return_type(kind: str, values: _C.Tensor, indices: _C.Tensor) -> _ValuesIndices: ...
def _named(kind: str, fields: tuple[str, ...], *parts: object) -> tuple[Any, ...]: ...

class layout:
    """``torch.layout``: how a tensor's elements are laid out in memory."""
    def __init__(self, name: str) -> None: ...

strided: layout
sparse_coo: layout
sparse_csr: layout
sparse_csc: layout
sparse_bsr: layout
sparse_bsc: layout
_mkldnn: layout
jagged: layout
