"""``torch.nn.utils.rnn``: padding and packing variable-length sequences. A
:class:`PackedSequence` holds the time steps of a batch sorted by decreasing length, step by
step (``data``: the rows of step 0 for every sequence, then step 1 for the sequences that
long, ...), with ``batch_sizes`` the number of sequences at each step; the recurrent modules
(RNN, LSTM, GRU) take it as input and return one."""

from collections import namedtuple

__all__ = ["PackedSequence", "invert_permutation", "pack_padded_sequence", "pad_packed_sequence",
           "pad_sequence", "unpad_sequence", "pack_sequence", "unpack_sequence"]


def _torch():
    import ferrograd

    return ferrograd


_PackedSequenceBase = namedtuple("PackedSequence", ["data", "batch_sizes", "sorted_indices", "unsorted_indices"])


class PackedSequence(_PackedSequenceBase):
    """``(data, batch_sizes, sorted_indices, unsorted_indices)``; build one with
    :func:`pack_padded_sequence` or :func:`pack_sequence`."""

    def __new__(cls, data, batch_sizes=None, sorted_indices=None, unsorted_indices=None):
        if unsorted_indices is None and sorted_indices is not None:
            unsorted_indices = invert_permutation(sorted_indices)
        if batch_sizes is not None:
            if batch_sizes.device.type != "cpu":
                raise ValueError("batch_sizes should always be on CPU. Instances of PackedSequence should never "
                                 "be created manually. They should be instantiated by functions like "
                                 "pack_sequence and pack_padded_sequences in nn.utils.rnn. "
                                 "https://pytorch.org/docs/stable/nn.html#torch.nn.utils.rnn.pack_sequence")
            return super().__new__(cls, data, batch_sizes, sorted_indices, unsorted_indices)
        data, batch_sizes = data
        return super().__new__(cls, data, batch_sizes, sorted_indices, unsorted_indices)

    def _with(self, f):
        return type(self)(f(self.data), self.batch_sizes,
                          None if self.sorted_indices is None else self.sorted_indices.to(device=f(self.data).device),
                          None if self.unsorted_indices is None else self.unsorted_indices.to(device=f(self.data).device))

    def to(self, *args, **kwargs):
        """The sequence with ``data`` converted by ``Tensor.to`` (indices moved to its device)."""
        data = self.data.to(*args, **kwargs)
        if data is self.data:
            return self
        return self._with(lambda d: d.to(*args, **kwargs))

    def cuda(self, *args, **kwargs):
        """The sequence with ``data`` on a CUDA device."""
        return self.to(*(("cuda",) + args), **kwargs) if not args else self._with(lambda d: d.cuda(*args, **kwargs))

    def cpu(self, *args, **kwargs):
        """The sequence with ``data`` on the CPU."""
        return self.to("cpu")

    def double(self):
        """The sequence with ``data`` as float64."""
        return self.to(dtype=_torch().float64)

    def float(self):
        """The sequence with ``data`` as float32."""
        return self.to(dtype=_torch().float32)

    def half(self):
        """The sequence with ``data`` as float16."""
        return self.to(dtype=_torch().float16)

    def long(self):
        """The sequence with ``data`` as int64."""
        return self.to(dtype=_torch().int64)

    def int(self):
        """The sequence with ``data`` as int32."""
        return self.to(dtype=_torch().int32)

    @property
    def is_cuda(self):
        """Whether ``data`` is on a CUDA device."""
        return self.data.is_cuda

    def is_pinned(self):
        """Whether ``data`` is in page-locked memory (never)."""
        return False


def invert_permutation(permutation):
    """The inverse of the permutation ``permutation`` (None stays None)."""
    if permutation is None:
        return None
    t = _torch()
    output = t.empty_like(permutation)
    output.scatter_(0, permutation, t.arange(0, permutation.numel(), device=permutation.device))
    return output


def _lengths_tensor(lengths):
    t = _torch()
    if isinstance(lengths, t.Tensor):
        return lengths.to(dtype=t.int64, device="cpu")
    return t.as_tensor(lengths, dtype=t.int64, device="cpu")


def pack_padded_sequence(input, lengths, batch_first=False, enforce_sorted=True):
    """Pack a padded batch (``T x B x *``, or ``B x T x *`` with ``batch_first``) of sequences
    of ``lengths``; ``enforce_sorted=False`` sorts them by decreasing length first."""
    t = _torch()
    lengths = _lengths_tensor(lengths)
    if enforce_sorted:
        sorted_indices = None
    else:
        lengths, sorted_indices = t.sort(lengths, descending=True)
        sorted_indices = sorted_indices.to(input.device)
        input = input.index_select(0 if batch_first else 1, sorted_indices)
    lens = lengths.tolist()
    if lengths.dim() != 1:
        raise RuntimeError(f"lengths array must be 1D, but got {lengths.dim()}D")
    batch = input.size(0) if batch_first else input.size(1)
    if len(lens) != batch:
        raise RuntimeError(f"Expected `len(lengths)` to be equal to batch_size, but got {len(lens)} (batch_size={batch})")
    if lens and lens[-1] <= 0:
        raise RuntimeError("Length of all samples has to be greater than 0, but found an element in 'lengths' that is <= 0")
    if any(lens[i] < lens[i + 1] for i in range(len(lens) - 1)):
        raise RuntimeError("`lengths` array must be sorted in decreasing order when `enforce_sorted` is True. You can "
                           "pass `enforce_sorted=False` to pack_padded_sequence and/or pack_sequence to sidestep this "
                           "requirement if you do not need ONNX exportability.")
    if batch_first:
        input = input.transpose(0, 1)
    if lens and lens[0] > input.size(0):
        raise RuntimeError(f"Expected sequence length to be larger than or equal to the maximal length {lens[0]}, "
                           f"but got {input.size(0)}")
    steps, sizes = [], []
    for step in range(lens[0] if lens else 0):
        bs = sum(1 for n in lens if n > step)
        steps.append(input[step, :bs])
        sizes.append(bs)
    data = t.cat(steps, 0)
    batch_sizes = t.tensor(sizes, dtype=t.int64)
    return PackedSequence(data, batch_sizes, sorted_indices, None)


def _padded_sorted(sequence, batch_first, padding_value, total_length):
    """The packed steps as a padded ``T x B x *`` batch in sorted order, and the lengths."""
    t = _torch()
    sizes = sequence.batch_sizes.tolist()
    max_len = len(sizes) if total_length is None else total_length
    batch = sizes[0] if sizes else 0
    data = sequence.data
    trailing = tuple(data.shape[1:])
    out = t.full((max_len, batch) + trailing, padding_value, dtype=data.dtype, device=data.device)
    offset = 0
    for step, bs in enumerate(sizes):
        out[step, :bs] = data[offset:offset + bs]
        offset += bs
    lengths = [sum(1 for bs in sizes if bs > b) for b in range(batch)]
    if batch_first:
        out = out.transpose(0, 1)
    return out, t.tensor(lengths, dtype=t.int64)


def pad_packed_sequence(sequence, batch_first=False, padding_value=0.0, total_length=None):
    """Undo :func:`pack_padded_sequence`: the padded batch (``T x B x *``, or ``B x T x *``) in the
    original order, and the lengths (int64, on the CPU)."""
    max_seq_length = sequence.batch_sizes.size(0)
    if total_length is not None:
        if total_length < max_seq_length:
            raise ValueError("Expected total_length to be at least the length of the longest sequence in input, but "
                             f"got total_length={total_length} and max sequence length being {max_seq_length}")
    padded, lengths = _padded_sorted(sequence, batch_first, padding_value, total_length)
    if sequence.unsorted_indices is not None:
        batch_dim = 0 if batch_first else 1
        return padded.index_select(batch_dim, sequence.unsorted_indices), lengths[sequence.unsorted_indices.cpu()]
    return padded, lengths


def pad_sequence(sequences, batch_first=False, padding_value=0.0, padding_side="right"):
    """Stack ``sequences`` (each ``L_i x *``) into one padded batch ``T x B x *`` (``B x T x *``
    with ``batch_first``), padded with ``padding_value`` on ``padding_side``."""
    t = _torch()
    if padding_side not in ("left", "right"):
        raise ValueError(f"Expected padding_side to be one of left or right, but got {padding_side}.")
    if isinstance(sequences, t.Tensor):
        sequences = sequences.unbind(0)
    sequences = list(sequences)
    if not sequences:
        raise RuntimeError("received an empty list of sequences")
    max_len = max(s.size(0) for s in sequences)
    trailing = tuple(sequences[0].shape[1:])
    out = t.full((len(sequences), max_len) + trailing, padding_value, dtype=sequences[0].dtype,
                 device=sequences[0].device)
    for i, s in enumerate(sequences):
        n = s.size(0)
        if padding_side == "right":
            out[i, :n] = s
        else:
            out[i, max_len - n:] = s
    return out if batch_first else out.transpose(0, 1)


def unpad_sequence(padded_sequences, lengths, batch_first=False):
    """Split a padded batch back into its sequences (a list of ``L_i x *`` tensors)."""
    if not batch_first:
        padded_sequences = padded_sequences.transpose(0, 1)
    return [seq[:int(n)] for seq, n in zip(padded_sequences, lengths)]


def pack_sequence(sequences, enforce_sorted=True):
    """Pack a list of sequences (each ``L_i x *``)."""
    t = _torch()
    lengths = t.as_tensor([v.size(0) for v in sequences])
    return pack_padded_sequence(pad_sequence(sequences), lengths, enforce_sorted=enforce_sorted)


def unpack_sequence(packed_sequences):
    """Undo :func:`pack_sequence`: the list of sequences in their original order."""
    padded, lengths = pad_packed_sequence(packed_sequences, batch_first=True)
    return unpad_sequence(padded, lengths, batch_first=True)
