"""The safetensors format for ferrograd tensors, with the API of ``safetensors.torch``
(``save``, ``save_file``, ``load``, ``load_file``).

The format is small and public, so it is read and written here directly and needs no extra
package: an 8-byte little-endian header length, a JSON header (``__metadata__`` first, then
``name: {"dtype", "shape", "data_offsets"}`` for each tensor, padded with spaces to a multiple of
8 bytes), then the tensors' raw little-endian bytes. Tensors are laid out as the ``safetensors``
library lays them out (by dtype: int64, float64, float32, int32, bfloat16, float16, int16, int8,
uint8, bool; then by name), so a file written here is byte-identical to
``safetensors.torch.save_file`` of the same tensors (the library orders ``__metadata__`` keys
arbitrarily, so only files with at most one metadata key compare equal byte for byte), and
either library reads the other's files. With ``import ferrograd as torch``, code written against
``safetensors.torch`` can use ``ferrograd.utils.safetensors`` in its place.
"""

import json
import os
import struct

import numpy as np

import ferrograd as _fg

__all__ = ["load", "load_file", "save", "save_file"]

# safetensors dtype code <-> ferrograd dtype name, NumPy dtype
_CODES = {
    "float64": ("F64", "<f8"), "float32": ("F32", "<f4"), "float16": ("F16", "<f2"),
    "int64": ("I64", "<i8"), "int32": ("I32", "<i4"), "int16": ("I16", "<i2"), "int8": ("I8", "i1"),
    "uint8": ("U8", "u1"), "bool": ("BOOL", "?"),
}
_FROM_CODE = {code: name for name, (code, _) in _CODES.items()}
# the safetensors library writes tensors by dtype in this order, then by name
_LAYOUT_RANK = {"I64": 0, "F64": 1, "F32": 2, "I32": 3, "BF16": 4, "F16": 5, "I16": 6, "I8": 7, "U8": 8, "BOOL": 9}
_MAX_HEADER = 100_000_000


def _dtype_name(dtype):
    return str(dtype).split(".")[-1]


def _check_tensors(tensors):
    if not isinstance(tensors, dict):
        raise ValueError(f"Expected a dict of [str, torch.Tensor] but received {type(tensors)}")
    for k, v in tensors.items():
        if not isinstance(v, _fg.Tensor):
            raise ValueError(f"Key `{k}` is invalid, expected torch.Tensor but received {type(v)}")
    # tensors whose memory overlaps cannot be stored (safetensors.torch's rule)
    spans = []
    for k, v in tensors.items():
        if v.numel() == 0 or v.device.type != "cpu":
            continue
        start = v.data_ptr()
        end = start + (1 + sum((s - 1) * st for s, st in zip(v.shape, v.stride()))) * v.element_size()
        spans.append((start, end, k))
    spans.sort()
    groups, current, current_end = [], [], -1
    for start, end, k in spans:
        if current and start < current_end:
            current.append(k)
            current_end = max(current_end, end)
        else:
            if len(current) > 1:
                groups.append(set(current))
            current, current_end = [k], end
    if len(current) > 1:
        groups.append(set(current))
    if groups:
        raise RuntimeError(
            f"""
            Some tensors share memory, this will lead to duplicate memory on disk and potential differences when loading them again: {groups}.
            A potential way to correctly save your model is to use `save_model`.
            More information at https://huggingface.co/docs/safetensors/torch_shared_tensors
            """)
    for k, v in tensors.items():
        if not v.is_contiguous():
            raise ValueError(
                f"You are trying to save a non contiguous tensor: `{k}` which is not allowed. It either means you"
                " are trying to save tensors which are reference of each other in which case it's recommended to save"
                " only the full tensors, and reslice at load time, or simply call `.contiguous()` on your tensor to"
                " pack it before saving.")


def _serialize(tensors, metadata):
    _check_tensors(tensors)
    if metadata is not None:
        if not isinstance(metadata, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in metadata.items()):
            raise TypeError("metadata must be a dict of str to str")
    entries = []
    for name, t in tensors.items():
        if not isinstance(name, str):
            raise TypeError(f"tensor names must be str, got {type(name).__name__}")
        dname = _dtype_name(t.dtype)
        if dname not in _CODES:
            raise ValueError(f"ferrograd.utils.safetensors: dtype {t.dtype} has no safetensors code here")
        arr = np.array(t.detach().cpu().numpy(), dtype=np.dtype(_CODES[dname][1]), order="C", copy=True)
        entries.append((name, dname, arr))
    entries.sort(key=lambda e: (_LAYOUT_RANK[_CODES[e[1]][0]], e[0]))
    header = {}
    if metadata is not None:
        header["__metadata__"] = metadata
    offset = 0
    for name, dname, arr in entries:
        header[name] = {"dtype": _CODES[dname][0], "shape": list(arr.shape), "data_offsets": [offset, offset + arr.nbytes]}
        offset += arr.nbytes
    text = json.dumps(header, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    text += b" " * (-len(text) % 8)
    return [struct.pack("<Q", len(text)), text] + [arr.tobytes() for _, _, arr in entries]


def save(tensors, metadata=None):
    """The safetensors bytes of ``tensors`` (a dict of name -> contiguous tensor)."""
    return b"".join(_serialize(tensors, metadata))


def save_file(tensors, filename, metadata=None):
    """Write ``tensors`` (a dict of name -> contiguous tensor) to ``filename``."""
    parts = _serialize(tensors, metadata)
    with open(filename, "wb") as fh:
        for p in parts:
            fh.write(p)


def _parse(buf, device):
    if len(buf) < 8:
        raise ValueError("Error while deserializing header: HeaderTooSmall")
    n = struct.unpack("<Q", bytes(buf[:8]))[0]
    if n > _MAX_HEADER:
        raise ValueError("Error while deserializing header: HeaderTooLarge")
    if 8 + n > len(buf):
        raise ValueError("Error while deserializing header: InvalidHeaderLength")
    try:
        header = json.loads(bytes(buf[8:8 + n]).decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise ValueError(f"Error while deserializing header: InvalidHeaderDeserialization: {e}") from None
    header.pop("__metadata__", None)
    body = 8 + n
    out = {}
    for name, spec in header.items():
        code = spec["dtype"]
        if code not in _FROM_CODE:
            raise ValueError(f"ferrograd.utils.safetensors: dtype {code} of `{name}` is not supported")
        dname = _FROM_CODE[code]
        start, end = spec["data_offsets"]
        shape = tuple(spec["shape"])
        np_dtype = np.dtype(_CODES[dname][1])
        count = 1
        for s in shape:
            count *= s
        if end - start != count * np_dtype.itemsize or body + end > len(buf):
            raise ValueError(f"Error while deserializing header: TensorInvalidInfo for `{name}`")
        arr = np.frombuffer(buf, dtype=np_dtype, count=count, offset=body + start).reshape(shape).copy()
        # an empty tensor is made directly: it gets torch's contiguous strides (the core's
        # from_numpy gives empty arrays zero strides)
        t = _fg.zeros(shape, dtype=getattr(_fg, dname)) if count == 0 else _fg.from_numpy(arr)
        if _dtype_name(t.dtype) != dname:
            raise ValueError(f"ferrograd.utils.safetensors: ferrograd cannot hold `{name}` as {dname}")
        out[name] = t if str(device) == "cpu" else t.to(device)
    return out


def load(data):
    """Tensors from safetensors bytes (on the CPU)."""
    return _parse(memoryview(data), "cpu")


def load_file(filename, device="cpu"):
    """Tensors of a safetensors file, placed on ``device``."""
    with open(os.fspath(filename), "rb") as fh:
        buf = fh.read()
    return _parse(buf, device)
