"""Type stubs for ``ferrograd.serialization``: ``save``/``load`` in PyTorch's zip format
(docstrings: see the module itself)."""

import os
import pickle
from types import ModuleType, TracebackType
from typing import IO, Any, BinaryIO, Callable, Optional, Union

from ._C import Tensor, dtype
from ._helpers import device

__all__ = ["add_safe_globals", "clear_safe_globals", "default_restore_location", "get_safe_globals",
           "load", "safe_globals", "save", "StorageType"]

_FileLike = Union[str, os.PathLike[str], IO[bytes], BinaryIO]
_MapLocation = Union[Callable[[Any, str], Any], device, str, dict[str, str], None]

DEFAULT_PROTOCOL: int
STORAGE_ALIGNMENT: int
UNSAFE_MESSAGE: str
DOCS_MESSAGE: str

class StorageType:
    name: str
    def __init__(self, name: str) -> None: ...
    @property
    def dtype(self) -> dtype:
        """The dtype of the storage type named in a PyTorch checkpoint."""

class safe_globals:
    safe_globals: list[Any]
    def __init__(self, safe_globals: list[Any]) -> None: ...
    def __enter__(self) -> None: ...
    def __exit__(self, type: Optional[type[BaseException]], value: Optional[BaseException], tb: Optional[TracebackType]) -> None: ...

def add_safe_globals(safe_globals: list[Any]) -> None: ...
def get_safe_globals() -> list[Any]:
    """The globals allowed by ``add_safe_globals`` for ``weights_only`` loading."""
def clear_safe_globals() -> None:
    """Forget every global added by ``add_safe_globals``."""
def default_restore_location(storage: Any, location: str) -> Any: ...
def save(obj: object, f: _FileLike, pickle_module: ModuleType = ..., pickle_protocol: int = 2,
         _use_new_zipfile_serialization: bool = True, _disable_byteorder_record: bool = False) -> None: ...
def load(f: _FileLike, map_location: _MapLocation = None, pickle_module: Optional[ModuleType] = None, *,
         weights_only: Optional[bool] = None, mmap: Optional[bool] = None, **pickle_load_args: Any) -> Any: ...
def _copy_sharing_storage(t: Tensor, memo: dict[int, Any]) -> Tensor: ...
