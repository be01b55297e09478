"""Objects saved by both PyTorch (tools/record_data_goldens.py) and ferrograd
(test_serialization.py). Each builder takes the library as ``torch``, so the same code builds
the same object in either; nothing here imports a tensor library."""

import collections


def layout_object(torch):
    """A checkpoint-like object touching every pickled form: views sharing a storage, each
    dtype both libraries have, a Parameter, a tensor that requires grad, an empty tensor, a
    scalar, an expanded view, and plain Python values (with a dtype, a Size and a device)."""
    base = torch.arange(12, dtype=torch.float32).reshape(3, 4)
    return collections.OrderedDict([
        ("base", base),
        ("row", base[1]),
        ("column", base[:, 2]),
        ("t", base.t()),
        ("expanded", base[0:1].expand(3, 4)),
        ("int64", torch.tensor([[1, -2], [3, 4]])),
        ("int32", torch.tensor([7, 8, 9], dtype=torch.int32)),
        ("bool", torch.tensor([True, False, True])),
        ("float64", torch.tensor([1.0 / 3.0, -2.5], dtype=torch.float64)),
        ("float16", torch.tensor([0.5, 1.5, -2.0], dtype=torch.float16)),
        ("scalar", torch.tensor(3.25)),
        ("empty", torch.zeros(0, 3)),
        ("param", torch.nn.Parameter(torch.tensor([1.0, 2.0]))),
        ("frozen", torch.nn.Parameter(torch.tensor([4.0]), requires_grad=False)),
        ("leaf", torch.tensor([0.5, -0.5], requires_grad=True)),
        ("meta", {"epoch": 4, "name": "run-a", "lrs": [0.1, 0.01], "pair": (1, 2.5), "none": None,
                  "big": 2 ** 40, "neg": -7, "dtype": torch.float16, "size": torch.Size([2, 3]),
                  "device": torch.device("cpu")}),
    ])


def views_object(torch):
    """Views whose geometry has to be rebuilt on load: steps, narrowed columns, permuted 3-D
    blocks, a view of part of a larger storage, and an overlapping (as_strided-only) view."""
    cube = torch.arange(24, dtype=torch.float64).reshape(2, 3, 4)
    line = torch.arange(10, dtype=torch.int64)
    grid = torch.arange(20, dtype=torch.float32).reshape(4, 5)
    return {
        "cube": cube,
        "cube_perm": cube.permute(2, 0, 1),
        "cube_slice": cube[:, 1:3, ::2],
        "cube_col": cube[1, :, 3],
        "line_part": line[2:5],
        "line_step": line[1::3],
        "grid": grid,
        "grid_cols": grid[:, 1:3],
        "grid_row_t": grid[1:3].t(),
        "grid_corner": grid[3, 4],
    }


VIEW_GROUPS = [["cube", "cube_perm", "cube_slice", "cube_col"], ["line_part", "line_step"],
               ["grid", "grid_cols", "grid_row_t", "grid_corner"]]


def archive_without_id(raw):
    """The archive bytes with the serialization id (random per save) and its CRCs zeroed, so
    two archives of the same object compare equal byte for byte."""
    import io
    import zipfile

    raw = bytearray(raw)
    z = zipfile.ZipFile(io.BytesIO(bytes(raw)))
    info = [i for i in z.infolist() if i.filename.endswith(".data/serialization_id")][0]
    nlen = int.from_bytes(raw[info.header_offset + 26:info.header_offset + 28], "little")
    elen = int.from_bytes(raw[info.header_offset + 28:info.header_offset + 30], "little")
    start = info.header_offset + 30 + nlen + elen
    raw[start:start + info.file_size] = b"0" * info.file_size
    raw[start + info.file_size + 4:start + info.file_size + 8] = b"\0" * 4  # data descriptor CRC
    pos = int.from_bytes(raw[-6:-2], "little")  # central directory offset, from the end record
    while raw[pos:pos + 4] == b"PK\x01\x02":
        n, e, c = (int.from_bytes(raw[pos + k:pos + k + 2], "little") for k in (28, 30, 32))
        if raw[pos + 46:pos + 46 + n] == info.filename.encode():
            raw[pos + 16:pos + 20] = b"\0" * 4
        pos += 46 + n + e + c
    return bytes(raw)


def safetensors_object(torch):
    """Tensors of several dtypes and shapes (names chosen so the layout order matters)."""
    return {
        "b.half": torch.tensor([0.5, -2.0], dtype=torch.float16),
        "a.long": torch.arange(3, dtype=torch.int64),
        "c.mask": torch.tensor([True, False, True]),
        "z.weight": torch.arange(6, dtype=torch.float32).reshape(2, 3) / 4,
        "e.empty": torch.zeros(0, 2),
        "d.scalar": torch.tensor(1.5, dtype=torch.float64),
        "i.int": torch.tensor([[-1, 2]], dtype=torch.int32),
    }


SAFETENSORS_METADATA = {"format": "pt"}  # one key: safetensors orders several arbitrarily
