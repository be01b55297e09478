"""Record the goldens of tests/python/test_data.py and tests/python/test_serialization.py with
real PyTorch (never imported by the tests):

    .venv-bench/bin/python tools/record_data_goldens.py            # write fixtures
    .venv-bench/bin/python tools/record_data_goldens.py --check-ferrograd .venv/bin/python

Writes into tests/python/fixtures/:
  torch_layout.pt, torch_views.pt, torch_state_dict.pt, torch_unsafe.pt  files PyTorch wrote
  torch.safetensors   written by safetensors.torch (pip install safetensors into the bench venv)
  serialization.json  what PyTorch sees in them (values, strides, offsets, aliasing, messages)
  data.json           sampler / split / loader orders and worker seeds for fixed seeds

--check-ferrograd PYTHON runs PYTHON (an interpreter with ferrograd installed) to save the same
objects with ferrograd, then loads those files with PyTorch (weights_only=True) and checks every
value, stride, storage offset, aliasing, Parameter and requires_grad flag; it also checks that
ferrograd's protocol-2 archive equals PyTorch's byte for byte apart from the serialization id,
and that ferrograd's safetensors file loads in safetensors.torch and equals its bytes.
"""

import argparse
import collections
import io
import json
import os
import subprocess
import sys
import tempfile
import zipfile

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
TESTS = os.path.join(ROOT, "tests", "python")
FIXTURES = os.path.join(TESTS, "fixtures")
sys.path.insert(0, TESTS)

import serialization_objects as objs  # noqa: E402


def describe(t):
    return {"values": t.detach().tolist(), "dtype": str(t.dtype), "shape": list(t.shape),
            "stride": list(t.stride()), "offset": t.storage_offset(), "requires_grad": t.requires_grad,
            "type": type(t).__name__}


def plain(v):
    if isinstance(v, torch.Tensor):
        return describe(v)
    if isinstance(v, dict):
        return {k: plain(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [plain(x) for x in v]
    if isinstance(v, (torch.dtype, torch.device, torch.Size)):
        return str(v)
    return v


def record_serialization():
    out = {}
    layout = objs.layout_object(torch)
    torch.save(layout, os.path.join(FIXTURES, "torch_layout.pt"))
    buf = io.BytesIO()
    torch.save(layout, buf)
    out["layout"] = plain(layout)
    out["layout_entries"] = zipfile.ZipFile(io.BytesIO(buf.getvalue())).namelist()

    views = objs.views_object(torch)
    torch.save(views, os.path.join(FIXTURES, "torch_views.pt"))
    out["views"] = plain(views)

    torch.manual_seed(0)
    net = torch.nn.Sequential(torch.nn.Linear(3, 2), torch.nn.ReLU(), torch.nn.Linear(2, 1))
    torch.save(net.state_dict(), os.path.join(FIXTURES, "torch_state_dict.pt"))
    x = torch.tensor([[1.0, -2.0, 0.5], [0.0, 3.0, -1.0]])
    out["state_dict"] = {"keys": list(net.state_dict().keys()), "x": x.tolist(), "y": net(x).tolist()}

    import datetime

    torch.save({"when": datetime.timedelta(days=2), "w": torch.ones(2)}, os.path.join(FIXTURES, "torch_unsafe.pt"))
    try:
        torch.load(os.path.join(FIXTURES, "torch_unsafe.pt"), weights_only=True)
    except Exception as e:  # noqa: BLE001
        out["unsafe_error"] = {"type": type(e).__name__, "message": str(e)}
    loaded = torch.load(os.path.join(FIXTURES, "torch_unsafe.pt"), weights_only=False)
    out["unsafe_full"] = {"when_days": loaded["when"].days, "w": loaded["w"].tolist()}
    import safetensors.torch

    safetensors.torch.save_file(objs.safetensors_object(torch), os.path.join(FIXTURES, "torch.safetensors"),
                                metadata=objs.SAFETENSORS_METADATA)
    out["safetensors"] = plain(objs.safetensors_object(torch))
    with open(os.path.join(FIXTURES, "serialization.json"), "w") as fh:
        json.dump(out, fh, indent=1, sort_keys=True)


def record_data():
    data = torch.utils.data
    out = {}
    out["random_sampler"] = {str(s): list(data.RandomSampler(range(10), generator=torch.Generator().manual_seed(s)))
                             for s in (0, 3, 42)}
    out["random_sampler_replacement"] = list(data.RandomSampler(
        range(7), replacement=True, num_samples=40, generator=torch.Generator().manual_seed(5)))
    out["random_sampler_more"] = list(data.RandomSampler(
        range(4), num_samples=10, generator=torch.Generator().manual_seed(6)))
    out["subset_random"] = list(data.SubsetRandomSampler([10, 20, 30, 40, 50],
                                                         generator=torch.Generator().manual_seed(1)))
    out["weighted"] = list(data.WeightedRandomSampler([0.1, 0.9, 0.4, 0.7, 3.0, 0.6], 12,
                                                      generator=torch.Generator().manual_seed(2)))
    out["weighted_no_replacement"] = list(data.WeightedRandomSampler(
        [0.9, 0.4, 0.05, 0.2, 0.3, 0.1], 5, replacement=False, generator=torch.Generator().manual_seed(2)))
    out["random_split"] = [list(s.indices) for s in data.random_split(
        range(10), [3, 7], generator=torch.Generator().manual_seed(42))]
    out["random_split_fractions"] = [list(s.indices) for s in data.random_split(
        range(11), [0.3, 0.3, 0.4], generator=torch.Generator().manual_seed(42))]
    ds = data.TensorDataset(torch.arange(10))
    g = torch.Generator().manual_seed(0)
    loader = data.DataLoader(ds, batch_size=4, shuffle=True, generator=g)
    out["shuffled_epochs"] = [[b[0].tolist() for b in loader] for _ in range(2)]
    # the default generator path: seeded globally
    torch.manual_seed(123)
    out["shuffled_global_seed"] = [b[0].tolist() for b in data.DataLoader(ds, batch_size=5, shuffle=True)]
    # base seeds drawn by loaders from a generator
    g = torch.Generator().manual_seed(7)
    out["base_seeds"] = [iter(data.DataLoader(ds, generator=g))._base_seed for _ in range(3)]
    from torch.utils.data._utils.worker import _generate_state

    out["numpy_states"] = {f"{b}:{w}": _generate_state(b, w) for b in (0, 1, 2 ** 40 + 3, 2 ** 63 - 5)
                           for w in (0, 1, 3)}
    with open(os.path.join(FIXTURES, "data.json"), "w") as fh:
        json.dump(out, fh, indent=1, sort_keys=True)


FERROGRAD_WRITER = r"""
import sys
sys.path.insert(0, sys.argv[2])
import ferrograd
import serialization_objects as objs
ferrograd.save(objs.layout_object(ferrograd), sys.argv[1] + "/archive.pt")
ferrograd.save(objs.views_object(ferrograd), sys.argv[1] + "/views.pt")
import ferrograd.utils.safetensors as fst
fst.save_file(objs.safetensors_object(ferrograd), sys.argv[1] + "/tensors.safetensors", metadata=objs.SAFETENSORS_METADATA)
import io
buf = io.BytesIO()
ferrograd.save(objs.layout_object(ferrograd), buf)
open(sys.argv[1] + "/layout_buffer.bin", "wb").write(buf.getvalue())
"""


def check_ferrograd(python):
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run([python, "-c", FERROGRAD_WRITER, tmp, TESTS], check=True)
        got = torch.load(os.path.join(tmp, "archive.pt"), weights_only=True)
        want = objs.layout_object(torch)
        assert list(got) == list(want), (list(got), list(want))
        assert plain(got) == plain(want), "values differ"
        assert type(got["param"]) is torch.nn.Parameter and type(got["frozen"]) is torch.nn.Parameter
        assert got["leaf"].requires_grad and got["leaf"].is_leaf
        got["base"][1, 2] = -100.0
        assert got["row"][2].item() == -100.0 and got["column"][1].item() == -100.0 and got["t"][2, 1].item() == -100.0
        views = torch.load(os.path.join(tmp, "views.pt"), weights_only=True)
        assert plain(views) == plain(objs.views_object(torch)), "views differ"
        for group in objs.VIEW_GROUPS:
            ptrs = {views[k].untyped_storage().data_ptr() for k in group}
            assert len(ptrs) == 1, group
        buf = io.BytesIO()
        torch.save(objs.layout_object(torch), buf)
        with open(os.path.join(tmp, "layout_buffer.bin"), "rb") as fh:
            mine = fh.read()
        assert objs.archive_without_id(mine) == objs.archive_without_id(buf.getvalue()), "archive bytes differ"
        import safetensors.torch

        st = safetensors.torch.load_file(os.path.join(tmp, "tensors.safetensors"))
        assert plain(st) == plain(objs.safetensors_object(torch)), "safetensors values differ"
        with open(os.path.join(tmp, "tensors.safetensors"), "rb") as fh:
            assert fh.read() == safetensors.torch.save(objs.safetensors_object(torch), metadata=objs.SAFETENSORS_METADATA)
    print("ferrograd-written archives load in PyTorch unchanged (values, views, Parameters, bytes): OK")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--check-ferrograd", metavar="PYTHON")
    args = ap.parse_args()
    if args.check_ferrograd:
        check_ferrograd(args.check_ferrograd)
        return
    os.makedirs(FIXTURES, exist_ok=True)
    record_serialization()
    record_data()
    print("wrote", FIXTURES)


if __name__ == "__main__":
    main()
