"""Batch collation (``torch.utils.data._utils.collate``): ``default_collate`` stacks samples
into batched tensors following the structure of the first sample, ``default_convert`` turns
NumPy values into tensors without batching. Both mirror torch's rules exactly: Python floats
become float64 tensors, ints int64, bools bool; strings and bytes stay lists; mappings,
namedtuples and sequences are collated element-wise (tuples and non-reconstructible sequences
come back as lists)."""

import collections
import contextlib
import copy
import re

import ferrograd as torch

# NumPy dtype kinds that cannot become tensors: bytes, unicode, void and objects
np_str_obj_array_pattern = re.compile(r"[SaUO]")

default_collate_err_msg_format = (
    "default_collate: batch must contain tensors, numpy arrays, numbers, "
    "dicts or lists; found {}"
)


def _rebuild_mapping(template, items):
    """A mapping like ``template`` holding ``items`` (a copy when mutable, the type's
    constructor otherwise, a plain dict when neither works)."""
    try:
        if isinstance(template, collections.abc.MutableMapping):
            out = copy.copy(template)
            out.update(items)
            return out
        return type(template)(items)
    except TypeError:
        return dict(items)


def _rebuild_sequence(template, items):
    try:
        if isinstance(template, collections.abc.MutableSequence):
            out = copy.copy(template)
            for i, v in enumerate(items):
                out[i] = v
            return out
        return type(template)(items)
    except TypeError:
        return list(items)


def default_convert(data):
    """Convert NumPy arrays and scalars (also inside mappings, namedtuples and sequences) to
    tensors; tensors and everything else pass through. Tuples become lists, as in torch."""
    data_type = type(data)
    if isinstance(data, torch.Tensor):
        return data
    if data_type.__module__ == "numpy" and data_type.__name__ not in ("str_", "string_"):
        if data_type.__name__ == "ndarray" and np_str_obj_array_pattern.search(data.dtype.str) is not None:
            return data
        return torch.as_tensor(data)
    if isinstance(data, collections.abc.Mapping):
        return _rebuild_mapping(data, {k: default_convert(data[k]) for k in data})
    if isinstance(data, tuple) and hasattr(data, "_fields"):
        return data_type(*(default_convert(v) for v in data))
    if isinstance(data, tuple):
        return [default_convert(v) for v in data]
    if isinstance(data, collections.abc.Sequence) and not isinstance(data, (str, bytes)):
        return _rebuild_sequence(data, [default_convert(v) for v in data])
    return data


def collate(batch, *, collate_fn_map=None):
    """Collate ``batch`` (a list of samples) by the type of its first sample: an exact type or an
    isinstance match in ``collate_fn_map`` first, then mappings, namedtuples and sequences
    recursively; anything else is a TypeError."""
    first = batch[0]
    first_type = type(first)
    if collate_fn_map is not None:
        if first_type in collate_fn_map:
            return collate_fn_map[first_type](batch, collate_fn_map=collate_fn_map)
        for kind, fn in collate_fn_map.items():
            if isinstance(first, kind):
                return fn(batch, collate_fn_map=collate_fn_map)
    if isinstance(first, collections.abc.Mapping):
        return _rebuild_mapping(first, {k: collate([d[k] for d in batch], collate_fn_map=collate_fn_map)
                                        for k in first})
    if isinstance(first, tuple) and hasattr(first, "_fields"):
        return first_type(*(collate(field, collate_fn_map=collate_fn_map) for field in zip(*batch)))
    if isinstance(first, collections.abc.Sequence):
        size = len(first)
        if any(len(sample) != size for sample in batch):
            raise RuntimeError("each element in list of batch should be of equal size")
        # each column as zip gives it (a tuple: strings come back as one, as PyTorch's)
        columns = [collate(col, collate_fn_map=collate_fn_map) for col in zip(*batch)]
        if isinstance(first, tuple):
            return columns
        return _rebuild_sequence(first, columns)
    raise TypeError(default_collate_err_msg_format.format(first_type))


def collate_tensor_fn(batch, *, collate_fn_map=None):
    # torch stacks worker batches straight into shared memory; here worker results are
    # pickled back to the main process, so a plain stack is the whole job
    return torch.stack(batch, 0)


def collate_numpy_array_fn(batch, *, collate_fn_map=None):
    first = batch[0]
    if np_str_obj_array_pattern.search(first.dtype.str) is not None:
        raise TypeError(default_collate_err_msg_format.format(first.dtype))
    return collate([torch.as_tensor(b) for b in batch], collate_fn_map=collate_fn_map)


def collate_numpy_scalar_fn(batch, *, collate_fn_map=None):
    if all(type(b) is type(batch[0]) for b in batch):
        # one NumPy scalar type: its dtype is the batch's (what torch.as_tensor infers); going
        # through one array keeps it where the core's list conversion would widen it
        import numpy as np

        return torch.as_tensor(np.array(batch))
    return torch.as_tensor(batch)


def collate_float_fn(batch, *, collate_fn_map=None):
    return torch.tensor(batch, dtype=torch.float64)


def collate_int_fn(batch, *, collate_fn_map=None):
    return torch.tensor(batch)


def collate_str_fn(batch, *, collate_fn_map=None):
    return batch


default_collate_fn_map = {torch.Tensor: collate_tensor_fn}
with contextlib.suppress(ImportError):
    import numpy as np

    default_collate_fn_map[np.ndarray] = collate_numpy_array_fn
    default_collate_fn_map[(np.bool_, np.number, np.object_)] = collate_numpy_scalar_fn
default_collate_fn_map[float] = collate_float_fn
default_collate_fn_map[int] = collate_int_fn
default_collate_fn_map[str] = collate_str_fn
default_collate_fn_map[bytes] = collate_str_fn


def default_collate(batch):
    """Stack a list of samples into a batch: tensors along a new first dimension, NumPy arrays
    and scalars as tensors, floats as float64, ints (and bools) as int64 (bool) tensors, strings
    as lists; mappings, namedtuples and sequences keep their structure with each field collated.

    >>> default_collate([0, 1, 2])
    tensor([0, 1, 2])
    """
    return collate(batch, collate_fn_map=default_collate_fn_map)
