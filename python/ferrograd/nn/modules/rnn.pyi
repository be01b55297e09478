"""Type stubs for ``ferrograd.nn.modules.rnn`` (docstrings: see the module itself)."""

from typing import Any, Callable, Optional, Sequence, Union

from ..._C import Tensor
from ..._C import dtype as _dtype
from ..._helpers import device as _device
from ..parameter import Parameter
from .module import Module

_DeviceLike = Union[_device, str, int]
_size_any = Union[int, Sequence[int]]

__all__ = ["RNNBase", "RNN", "LSTM", "GRU", "RNNCellBase", "RNNCell", "LSTMCell", "GRUCell"]

class RNNBase(Module):
    __constants__: list[str]
    __jit_unused_properties__: list[str]
    mode: str
    input_size: int
    hidden_size: int
    num_layers: int
    bias: bool
    batch_first: bool
    dropout: float
    bidirectional: bool
    proj_size: int
    @property
    def all_weights(self) -> list[list[Parameter]]:
        """The parameters of every layer and direction, as lists ``[w_ih, w_hh, b_ih, b_hh, (w_hr)]``."""
    def check_input(self, input: Tensor, batch_sizes: Optional[Tensor]) -> None:
        """Check the input's dtype and number of dimensions (PyTorch's errors)."""
    def get_expected_hidden_size(self, input: Tensor, batch_sizes: Optional[Tensor]) -> tuple[int, int, int]:
        """The hidden state shape this input needs: ``(num_layers * num_directions, batch, hidden)``."""
    def check_hidden_size(self, hx: Tensor, expected_hidden_size: tuple[int, int, int], msg: str = "Expected hidden size {}, got {}") -> None:
        """Raise PyTorch's error if ``hx`` does not have ``expected_hidden_size``."""
    def check_forward_args(self, input: Tensor, hidden: Tensor, batch_sizes: Optional[Tensor]) -> None:
        """Check the input and hidden state together before the forward pass."""
    def permute_hidden(self, hx: Tensor, permutation: Optional[Tensor]) -> Tensor:
        """Reorder the hidden state's batch by ``permutation`` (identity when ``None``)."""
    def __init__(self, mode: str, input_size: int, hidden_size: int, num_layers: int = 1, bias: bool = True, batch_first: bool = False, dropout: float = 0.0, bidirectional: bool = False, proj_size: int = 0, device: Optional[_DeviceLike] = None, dtype: Optional[_dtype] = None) -> None: ...
    def flatten_parameters(self) -> None: ...
    def reset_parameters(self) -> None:
        """Re-initialise all weights from ``U(-1/sqrt(hidden_size), 1/sqrt(hidden_size))``."""
    def extra_repr(self) -> str: ...

class _SingleHiddenRNN(RNNBase):
    def forward(self, input: Tensor, hx: Optional[Tensor] = None) -> tuple[Tensor, Tensor]: ...
    def __call__(self, input: Tensor, hx: Optional[Tensor] = None) -> tuple[Tensor, Tensor]: ...

class RNN(_SingleHiddenRNN):
    def __init__(self, input_size: int, hidden_size: int, num_layers: int = 1, nonlinearity: str = "tanh", bias: bool = True, batch_first: bool = False, dropout: float = 0.0, bidirectional: bool = False, device: Optional[_DeviceLike] = None, dtype: Optional[_dtype] = None) -> None: ...

class GRU(_SingleHiddenRNN):
    def __init__(self, input_size: int, hidden_size: int, num_layers: int = 1, bias: bool = True, batch_first: bool = False, dropout: float = 0.0, bidirectional: bool = False, device: Optional[_DeviceLike] = None, dtype: Optional[_dtype] = None) -> None: ...

class LSTM(RNNBase):
    def get_expected_cell_size(self, input: Tensor, batch_sizes: Optional[Tensor]) -> tuple[int, int, int]:
        """The cell state shape this input needs: ``(num_layers * num_directions, batch, hidden_size)``."""
    def check_forward_args(self, input: Tensor, hidden: tuple[Tensor, Tensor], batch_sizes: Optional[Tensor]) -> None:  # type: ignore[override]
        """Check the input and the ``(h_0, c_0)`` pair before the forward pass."""
    def permute_hidden(self, hx: tuple[Tensor, Tensor], permutation: Optional[Tensor]) -> tuple[Tensor, Tensor]:  # type: ignore[override]
        """Reorder both states' batch by ``permutation`` (identity when ``None``)."""
    def __init__(self, input_size: int, hidden_size: int, num_layers: int = 1, bias: bool = True, batch_first: bool = False, dropout: float = 0.0, bidirectional: bool = False, proj_size: int = 0, device: Optional[_DeviceLike] = None, dtype: Optional[_dtype] = None) -> None: ...
    def forward(self, input: Tensor, hx: Optional[tuple[Tensor, Tensor]] = None) -> tuple[Tensor, tuple[Tensor, Tensor]]: ...
    def __call__(self, input: Tensor, hx: Optional[tuple[Tensor, Tensor]] = None) -> tuple[Tensor, tuple[Tensor, Tensor]]: ...

class RNNCellBase(Module):
    __constants__: list[str]
    input_size: int
    hidden_size: int
    bias: bool
    def __init__(self, input_size: int, hidden_size: int, bias: bool, num_chunks: int, device: Optional[_DeviceLike] = None, dtype: Optional[_dtype] = None) -> None: ...
    def extra_repr(self) -> str: ...
    def reset_parameters(self) -> None:
        """Re-initialise all weights from ``U(-1/sqrt(hidden_size), 1/sqrt(hidden_size))``."""

class RNNCell(RNNCellBase):
    __constants__: list[str]
    def __init__(self, input_size: int, hidden_size: int, bias: bool = True, nonlinearity: str = "tanh", device: Optional[_DeviceLike] = None, dtype: Optional[_dtype] = None) -> None: ...
    def forward(self, input: Tensor, hx: Optional[Tensor] = None) -> Tensor: ...
    def __call__(self, input: Tensor, hx: Optional[Tensor] = None) -> Tensor: ...

class LSTMCell(RNNCellBase):
    def __init__(self, input_size: int, hidden_size: int, bias: bool = True, device: Optional[_DeviceLike] = None, dtype: Optional[_dtype] = None) -> None: ...
    def forward(self, input: Tensor, hx: Optional[tuple[Tensor, Tensor]] = None) -> tuple[Tensor, Tensor]: ...
    def __call__(self, input: Tensor, hx: Optional[tuple[Tensor, Tensor]] = None) -> tuple[Tensor, Tensor]: ...

class GRUCell(RNNCellBase):
    def __init__(self, input_size: int, hidden_size: int, bias: bool = True, device: Optional[_DeviceLike] = None, dtype: Optional[_dtype] = None) -> None: ...
    def forward(self, input: Tensor, hx: Optional[Tensor] = None) -> Tensor: ...
    def __call__(self, input: Tensor, hx: Optional[Tensor] = None) -> Tensor: ...
