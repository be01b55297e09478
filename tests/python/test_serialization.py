"""torch.save / torch.load: files PyTorch wrote load unchanged, files ferrograd writes have
PyTorch's exact layout (goldens recorded by tools/record_data_goldens.py; PyTorch-side
loadability is checked by its --check-ferrograd mode)."""

import collections
import datetime
import io
import json
import os
import pickle
import zipfile

import numpy as np
import pytest

import ferrograd as torch
from serialization_objects import VIEW_GROUPS, archive_without_id, layout_object, views_object

FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures")
with open(os.path.join(FIXTURES, "serialization.json")) as _fh:
    GOLD = json.load(_fh)


def _fx(name):
    return os.path.join(FIXTURES, name)


def describe(t):
    return {"values": t.detach().tolist(), "dtype": str(t.dtype).replace("ferrograd.", "torch."),
            "shape": list(t.shape), "stride": list(t.stride()), "offset": t.storage_offset(),
            "requires_grad": t.requires_grad, "type": type(t).__name__}


def plain(v):
    if isinstance(v, torch.Tensor):
        return describe(v)
    if isinstance(v, dict):
        return {k: plain(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [plain(x) for x in v]
    if isinstance(v, (torch.dtype, torch.Size)):
        return str(v).replace("ferrograd.", "torch.")
    if isinstance(v, torch.device):
        return str(v)
    return v


def roundtrip(obj, **load_kw):
    buf = io.BytesIO()
    torch.save(obj, buf)
    buf.seek(0)
    return torch.load(buf, **load_kw)


def _storage_start(t):
    return t.data_ptr() - t.storage_offset() * t.element_size()


# ---- files written by PyTorch ----------------------------------------------------------------

def test_load_torch_layout_file_values_and_types():
    got = torch.load(_fx("torch_layout.pt"))
    assert type(got) is collections.OrderedDict
    assert plain(got) == GOLD["layout"]
    assert type(got["param"]) is torch.nn.Parameter and got["param"].requires_grad
    assert type(got["frozen"]) is torch.nn.Parameter and not got["frozen"].requires_grad
    assert got["leaf"].is_leaf and got["leaf"].grad_fn is None
    assert got["meta"]["dtype"] is torch.float16
    assert type(got["meta"]["pair"]) is tuple


def test_load_torch_layout_file_views_alias():
    got = torch.load(_fx("torch_layout.pt"), map_location="cpu")
    got["base"][1, 2] = -100.0
    assert got["row"].tolist() == [4.0, 5.0, -100.0, 7.0]
    assert got["column"].tolist() == [2.0, -100.0, 10.0]
    assert got["t"][2, 1].item() == -100.0
    got["base"][0, 3] = 9.5
    assert got["expanded"][:, 3].tolist() == [9.5, 9.5, 9.5]
    starts = {_storage_start(got[k]) for k in ("base", "row", "column", "t", "expanded")}
    assert len(starts) == 1


def test_load_torch_views_file_geometry():
    got = torch.load(_fx("torch_views.pt"), weights_only=True)
    assert plain(got) == GOLD["views"]
    for group in VIEW_GROUPS:
        assert len({_storage_start(got[k]) for k in group}) == 1, group
    got["cube"][1, 2, 3] = -1.0
    assert got["cube_col"][2].item() == -1.0
    assert got["cube_perm"][3, 1, 2].item() == -1.0


def test_load_torch_state_dict_into_module():
    sd = torch.load(_fx("torch_state_dict.pt"))
    assert list(sd.keys()) == GOLD["state_dict"]["keys"]
    net = torch.nn.Sequential(torch.nn.Linear(3, 2), torch.nn.ReLU(), torch.nn.Linear(2, 1))
    net.load_state_dict(sd)
    y = net(torch.tensor(GOLD["state_dict"]["x"]))
    np.testing.assert_allclose(y.detach().numpy(), np.array(GOLD["state_dict"]["y"]), rtol=1e-6)


def test_weights_only_rejects_unknown_global_with_torch_message():
    with pytest.raises(pickle.UnpicklingError) as exc:
        torch.load(_fx("torch_unsafe.pt"))
    assert GOLD["unsafe_error"]["type"] == "UnpicklingError"
    assert str(exc.value) == GOLD["unsafe_error"]["message"]


def test_weights_only_false_and_safe_globals_load_objects():
    got = torch.load(_fx("torch_unsafe.pt"), weights_only=False)
    assert got["when"].days == GOLD["unsafe_full"]["when_days"]
    assert got["w"].tolist() == GOLD["unsafe_full"]["w"]
    with torch.serialization.safe_globals([datetime.timedelta]):
        assert torch.serialization.get_safe_globals() == [datetime.timedelta]
        assert torch.load(_fx("torch_unsafe.pt"))["when"] == datetime.timedelta(days=2)
    assert torch.serialization.get_safe_globals() == []
    with pytest.raises(pickle.UnpicklingError):
        torch.load(_fx("torch_unsafe.pt"))


def test_mmap_load_is_copy_on_write():
    got = torch.load(_fx("torch_layout.pt"), mmap=True)
    assert plain(got) == GOLD["layout"]
    got["base"][0, 0] = 42.0
    assert got["row"].tolist() == [4.0, 5.0, 6.0, 7.0]
    assert torch.load(_fx("torch_layout.pt"))["base"][0, 0].item() == 0.0  # the file is untouched
    with pytest.raises(ValueError, match="f must be a file path in order to use the mmap argument"):
        torch.load(io.BytesIO(b""), mmap=True)


# ---- files written by ferrograd ----------------------------------------------------------------

def test_save_layout_equals_pytorch_bytes():
    """Same object, same archive: every record, offset, padding byte and directory entry
    matches the PyTorch-written fixture (the random serialization id aside)."""
    buf = io.BytesIO()
    torch.save(layout_object(torch), buf)
    mine = buf.getvalue()
    # the fixture was written to a path, so its records live under "torch_layout/"
    zm, zt = zipfile.ZipFile(io.BytesIO(mine)), zipfile.ZipFile(_fx("torch_layout.pt"))
    assert [n.split("/", 1)[1] for n in zm.namelist()] == [n.split("/", 1)[1] for n in zt.namelist()]
    assert zm.namelist()[0] == "archive/data.pkl"
    for a, b in zip(zm.infolist(), zt.infolist()):
        if not a.filename.endswith("serialization_id"):
            assert zm.read(a) == zt.read(b), a.filename
    for info in zm.infolist():
        start = info.header_offset + 30 + len(info.filename) + int.from_bytes(
            mine[info.header_offset + 28:info.header_offset + 30], "little")
        assert start % 64 == 0, info.filename
        assert mine[info.header_offset + 30 + len(info.filename):][:2] == b"FB"


def test_save_to_path_uses_file_stem_and_matches_pytorch(tmp_path):
    path = tmp_path / "torch_layout.pt"
    torch.save(layout_object(torch), path)
    with open(_fx("torch_layout.pt"), "rb") as fh:
        theirs = fh.read()
    assert archive_without_id(path.read_bytes()) == archive_without_id(theirs)
    sid = zipfile.ZipFile(path).read("torch_layout/.data/serialization_id")
    assert len(sid) == 40 and sid.isdigit()


def test_save_records_and_small_files():
    buf = io.BytesIO()
    torch.save({"w": torch.ones(2), "b": torch.zeros(3)}, buf)
    raw = buf.getvalue()
    z = zipfile.ZipFile(io.BytesIO(raw))
    assert raw[:4] == b"PK\x03\x04"
    assert z.namelist() == ["archive/data.pkl", "archive/.format_version", "archive/.storage_alignment",
                            "archive/byteorder", "archive/data/0", "archive/data/1", "archive/version",
                            "archive/.data/serialization_id"]
    assert z.read("archive/version") == b"3\n" and z.read("archive/byteorder") == b"little"
    assert z.read("archive/.format_version") == b"1" and z.read("archive/.storage_alignment") == b"64"
    assert z.read("archive/data/0") == np.ones(2, np.float32).tobytes()
    assert all(i.compress_type == zipfile.ZIP_STORED for i in z.infolist())
    buf2 = io.BytesIO()
    torch.save({"w": torch.ones(2)}, buf2, _disable_byteorder_record=True)
    assert "archive/byteorder" not in zipfile.ZipFile(buf2).namelist()


def test_pickle_names_are_pytorchs():
    buf = io.BytesIO()
    torch.save({"t": torch.ones(1, dtype=torch.int32), "p": torch.nn.Parameter(torch.ones(1)),
                "dt": torch.float64, "s": torch.Size([1]), "d": torch.device("cpu")}, buf)
    pkl = zipfile.ZipFile(buf).read("archive/data.pkl")
    for name in (b"ctorch._utils\n_rebuild_tensor_v2\n", b"ctorch\nIntStorage\n", b"ctorch._utils\n_rebuild_parameter\n",
                 b"ctorch\nFloatStorage\n", b"ctorch\nfloat64\n", b"ctorch\nSize\n", b"ctorch\ndevice\n"):
        assert name in pkl, name
    assert b"ferrograd" not in pkl


def test_roundtrip_values_views_and_flags():
    obj = layout_object(torch)
    back = roundtrip(obj)
    assert plain(back) == plain(obj)
    back["base"][2, 2] = 77.0
    assert back["column"][2].item() == 77.0 and back["t"][2, 2].item() == 77.0
    assert back["base"].is_contiguous() and back["row"].storage_offset() == 4
    alone = roundtrip(obj["row"])
    assert alone.storage_offset() == 4 and alone.tolist() == [4.0, 5.0, 6.0, 7.0]


def test_roundtrip_shared_object_identity_and_containers():
    t = torch.tensor([1.0, 2.0])
    obj = [t, t, (1, "a", None), {"k": [t]}, 2.5, True, -(2 ** 70)]
    back = roundtrip(obj)
    assert back[0] is back[1] and back[3]["k"][0] is back[0]
    assert back[2:] == [(1, "a", None), {"k": [back[0]]}, 2.5, True, -(2 ** 70)]


def test_roundtrip_protocols_and_file_objects(tmp_path):
    obj = {"x": torch.arange(6.).reshape(2, 3)[:, 1:]}
    for proto in (2, 3, 4, 5):
        buf = io.BytesIO()
        torch.save(obj, buf, pickle_protocol=proto)
        buf.seek(0)
        back = torch.load(buf, weights_only=False)
        assert back["x"].tolist() == [[1.0, 2.0], [4.0, 5.0]]
    with open(tmp_path / "f.bin", "wb") as fh:
        torch.save(obj, fh)
    with open(tmp_path / "f.bin", "rb") as fh:
        assert torch.load(fh)["x"].tolist() == [[1.0, 2.0], [4.0, 5.0]]
    assert zipfile.ZipFile(tmp_path / "f.bin").namelist()[0] == "archive/data.pkl"


def test_map_location_forms():
    obj = {"a": torch.ones(2), "b": torch.arange(3)}
    for loc in ("cpu", torch.device("cpu"), {"cpu": "cpu"}, lambda storage, location: storage,
                lambda storage, location: None):
        back = roundtrip(obj, map_location=loc)
        assert back["a"].tolist() == [1.0, 1.0] and str(back["b"].device) == "cpu"
    seen = []
    roundtrip(obj, map_location=lambda storage, location: seen.append(location))
    assert seen == ["cpu", "cpu"]


@pytest.mark.skipif(torch.cuda.is_available(), reason="checks the message of a CPU-only machine")
def test_map_location_cuda_without_cuda_raises_torch_message():
    with pytest.raises(RuntimeError, match=r"Attempting to deserialize object on a CUDA device but "
                                           r"torch.cuda.is_available\(\) is False"):
        roundtrip({"a": torch.ones(1)}, map_location="cuda")


def test_weights_only_argument_rules():
    buf = io.BytesIO()
    torch.save({"a": torch.ones(1)}, buf)
    buf.seek(0)
    with pytest.raises(RuntimeError, match="Can not safely load weights when explicit pickle_module is specified"):
        torch.load(buf, pickle_module=pickle, weights_only=True)
    buf.seek(0)
    assert torch.load(buf, pickle_module=pickle)["a"].tolist() == [1.0]  # weights_only defaults to False then


def test_weights_only_blocks_os_and_arbitrary_reduce():
    class Evil:
        def __reduce__(self):
            return (os.getcwd, ())

    buf = io.BytesIO()
    torch.save([Evil()], buf)
    buf.seek(0)
    with pytest.raises(pickle.UnpicklingError, match="GLOBAL posix.getcwd whose module posix is blocked"):
        torch.load(buf)


def test_save_rejects_unknown_options():
    with pytest.raises(RuntimeError, match="legacy"):
        torch.save(torch.ones(1), io.BytesIO(), _use_new_zipfile_serialization=False)


def test_not_a_zip_raises():
    with pytest.raises(RuntimeError, match="not a zip archive"):
        torch.load(io.BytesIO(b"definitely not an archive"))


# ---- safetensors ---------------------------------------------------------------------------------

def test_safetensors_reads_file_written_by_safetensors_torch():
    from ferrograd.utils import safetensors as st
    from serialization_objects import safetensors_object

    got = st.load_file(_fx("torch.safetensors"))
    assert plain(got) == GOLD["safetensors"]
    assert sorted(got) == sorted(safetensors_object(torch))


def test_safetensors_writes_safetensors_torch_bytes(tmp_path):
    from ferrograd.utils import safetensors as st
    from serialization_objects import SAFETENSORS_METADATA, safetensors_object

    with open(_fx("torch.safetensors"), "rb") as fh:
        theirs = fh.read()
    assert st.save(safetensors_object(torch), metadata=SAFETENSORS_METADATA) == theirs
    st.save_file(safetensors_object(torch), tmp_path / "x.safetensors", metadata=SAFETENSORS_METADATA)
    assert (tmp_path / "x.safetensors").read_bytes() == theirs
    back = st.load(theirs)
    assert plain(back) == GOLD["safetensors"]


def test_safetensors_save_checks():
    from ferrograd.utils import safetensors as st

    base = torch.arange(6.).reshape(2, 3)
    with pytest.raises(ValueError, match="You are trying to save a non contiguous tensor: `t`"):
        st.save({"t": base.t()})
    with pytest.raises(RuntimeError, match="Some tensors share memory"):
        st.save({"a": base, "b": base[1]})
    with pytest.raises(ValueError, match="Key `a` is invalid, expected torch.Tensor but received <class 'int'>"):
        st.save({"a": 1})
    with pytest.raises(ValueError, match=r"Expected a dict of \[str, torch.Tensor\]"):
        st.save([base])
    assert st.load(st.save({"a": base[0], "b": base[1]}))["b"].tolist() == [3.0, 4.0, 5.0]  # disjoint views
    with pytest.raises(ValueError, match="HeaderTooSmall"):
        st.load(b"\x01")


def test_deepcopy_keeps_views_of_one_storage_together():
    import copy

    base = torch.arange(6.).reshape(2, 3)
    cp = copy.deepcopy({"base": base, "row": base[1], "col": base[:, 2], "t": base.t()})
    cp["base"][1, 2] = -1.0
    assert cp["row"].tolist() == [3.0, 4.0, -1.0] and cp["col"].tolist() == [2.0, -1.0]
    assert cp["t"][2, 1].item() == -1.0 and base[1, 2].item() == 5.0
    assert cp["row"].storage_offset() == 3 and cp["col"].stride() == (3,)
    leaf = torch.tensor([1.0, 2.0], requires_grad=True)
    c = copy.deepcopy(leaf)
    assert c.requires_grad and c.is_leaf and c.tolist() == [1.0, 2.0]
