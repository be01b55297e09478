"""ferrograd.utils.data: datasets, samplers, collation and the DataLoader (single process and
worker processes). Random orders are compared with goldens PyTorch produced for the same seeds
(tools/record_data_goldens.py)."""

import collections
import json
import math
import os
import random
import warnings

import numpy as np
import pytest

import ferrograd as torch
from ferrograd.utils import data
from ferrograd.utils.data._utils.worker import _generate_state

with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures", "data.json")) as _fh:
    GOLD = json.load(_fh)


def _xy():
    return torch.arange(14.).reshape(7, 2), torch.tensor([0, 1, 0, 1, 1, 0, 2])


# ---- module-level datasets (worker processes started with spawn import them) ------------------

class Squares(data.Dataset):
    def __init__(self, n):
        self.n = n

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        return {"i": i, "sq": torch.tensor([float(i * i)])}


class WorkerReport(data.Dataset):
    """Each sample says which worker made it, with what seed, and draws from every generator."""

    def __len__(self):
        return 4

    def __getitem__(self, i):
        info = data.get_worker_info()
        return {"id": info.id, "num_workers": info.num_workers, "seed": info.seed, "i": i,
                "py": random.random(), "np": float(np.random.rand()), "init": getattr(info.dataset, "init", None)}


class Failing(data.Dataset):
    def __len__(self):
        return 4

    def __getitem__(self, i):
        if i == 2:
            raise ValueError("bad sample 2")
        return i


class Slow(data.Dataset):
    def __len__(self):
        return 2

    def __getitem__(self, i):
        import time

        time.sleep(3)
        return i


class Range(data.IterableDataset):
    def __init__(self, start, end):
        self.start, self.end = start, end

    def __iter__(self):
        info = data.get_worker_info()
        if info is None:
            return iter(range(self.start, self.end))
        per = int(math.ceil((self.end - self.start) / info.num_workers))
        lo = self.start + info.id * per
        return iter(range(lo, min(lo + per, self.end)))

    def __len__(self):
        return self.end - self.start


def _mark_init(worker_id):
    data.get_worker_info().dataset.init = worker_id * 10


# ---- datasets --------------------------------------------------------------------------------

def test_tensor_dataset_and_mismatch():
    x, y = _xy()
    ds = data.TensorDataset(x, y)
    assert len(ds) == 7 and isinstance(ds[2], tuple)
    assert ds[2][0].tolist() == [4.0, 5.0] and ds[-1][1].item() == 2
    assert [t.tolist() for t in ds[1:3]] == [[[2.0, 3.0], [4.0, 5.0]], [1, 0]]
    with pytest.raises(AssertionError, match="^Size mismatch between tensors$"):
        data.TensorDataset(x, y[:3])
    with pytest.raises(IndexError):
        ds[7]


def test_subset_concat_chain_stack_and_add():
    x, y = _xy()
    ds = data.TensorDataset(x, y)
    sub = data.Subset(ds, [5, 0, 3])
    assert [sub[i][1].item() for i in range(3)] == [0, 0, 1] and sub.dataset is ds
    assert [s[1].item() for s in sub.__getitems__([2, 0])] == [1, 0]
    cat = sub + data.TensorDataset(x[:2] * 10, y[:2])
    assert type(cat) is data.ConcatDataset and cat.cumulative_sizes == [3, 5] and len(cat) == 5
    assert cat[-1][0].tolist() == [20.0, 30.0] and cat[3][0].tolist() == [0.0, 10.0]
    with pytest.raises(ValueError, match="absolute value of index should not exceed dataset length"):
        cat[-6]
    with pytest.raises(AssertionError, match="datasets should not be an empty iterable"):
        data.ConcatDataset([])
    with pytest.raises(AssertionError, match="ConcatDataset does not support IterableDataset"):
        data.ConcatDataset([Range(0, 2)])
    chain = Range(0, 2) + Range(5, 7)
    assert type(chain) is data.ChainDataset and list(chain) == [0, 1, 5, 6] and len(chain) == 4
    stack = data.StackDataset(a=range(3), b=["x", "y", "z"])
    assert stack[1] == {"a": 1, "b": "y"} and len(stack) == 3
    assert data.StackDataset(range(2), range(10, 12))[1] == (1, 11)
    with pytest.raises(ValueError, match="Size mismatch between datasets"):
        data.StackDataset(range(2), range(3))
    with pytest.raises(NotImplementedError, match="Subclasses of Dataset should implement __getitem__."):
        data.Dataset()[0]


def test_random_split_lengths_fractions_and_errors():
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        parts = data.random_split(range(3), [0.5, 0.5, 0.0])
    assert [len(p) for p in parts] == [2, 1, 0]
    assert "Length of split at index 2 is 0" in str(w[0].message)
    assert [len(p) for p in data.random_split(range(10), [0.5, 0.3, 0.2])] == [5, 3, 2]
    assert [len(p) for p in data.random_split(range(7), [0.5, 0.5])] == [4, 3]
    parts = data.random_split(range(11), [0.3, 0.3, 0.4])
    assert [len(p) for p in parts] == [4, 3, 4]
    assert sorted(i for p in parts for i in p) == list(range(11))
    with pytest.raises(ValueError, match="Sum of input lengths does not equal the length of the input dataset!"):
        data.random_split(range(7), [3, 3])
    with pytest.raises(ValueError, match="Sum of input lengths"):
        data.random_split(range(7), [0.5, 0.4])
    with pytest.raises(ValueError, match="Fraction at index 1 is not between 0 and 1"):
        data.random_split(range(4), [0.5, 1.5, -1.0])


def test_random_split_matches_torch_for_seed():
    parts = data.random_split(range(10), [3, 7], generator=torch.Generator().manual_seed(42))
    assert [list(p.indices) for p in parts] == GOLD["random_split"]
    parts = data.random_split(range(11), [0.3, 0.3, 0.4], generator=torch.Generator().manual_seed(42))
    assert [list(p.indices) for p in parts] == GOLD["random_split_fractions"]


# ---- samplers --------------------------------------------------------------------------------

def test_generic_subscripting_as_in_torch():
    class Ints(data.Sampler[int]):
        def __iter__(self):
            return iter([2, 0])

    class Strs(data.Dataset[str]):
        def __getitem__(self, i):
            return "abc"[i]

        def __len__(self):
            return 3

    class Stream(data.IterableDataset[int]):
        def __iter__(self):
            return iter([5])

    assert list(data.DataLoader(Strs(), batch_size=2, sampler=Ints())) == [["c", "a"]]
    assert [b.tolist() for b in data.DataLoader(Stream())] == [[5]]


def test_sequential_and_batch_samplers():
    seq = data.SequentialSampler(range(5))
    assert list(seq) == [0, 1, 2, 3, 4] and len(seq) == 5
    bs = data.BatchSampler(seq, batch_size=2, drop_last=False)
    assert list(bs) == [[0, 1], [2, 3], [4]] and len(bs) == 3
    drop = data.BatchSampler(range(7), batch_size=3, drop_last=True)
    assert list(drop) == [[0, 1, 2], [3, 4, 5]] and len(drop) == 2
    for bad in (0, -1, True, 2.0):
        with pytest.raises(ValueError, match=f"batch_size should be a positive integer value, but got batch_size={bad}"):
            data.BatchSampler(seq, batch_size=bad, drop_last=False)
    with pytest.raises(ValueError, match="drop_last should be a boolean value, but got drop_last=1"):
        data.BatchSampler(seq, 2, 1)


def test_random_sampler_arguments():
    rs = data.RandomSampler(range(6))
    assert len(rs) == 6 and sorted(rs) == list(range(6))
    more = data.RandomSampler(range(4), num_samples=10)
    got = list(more)
    assert len(got) == 10 and sorted(got[:4]) == [0, 1, 2, 3] and sorted(got[4:8]) == [0, 1, 2, 3]
    rep = list(data.RandomSampler(range(3), replacement=True, num_samples=70))
    assert len(rep) == 70 and set(rep) <= {0, 1, 2}
    with pytest.raises(TypeError, match="replacement should be a boolean value, but got replacement=0"):
        data.RandomSampler(range(3), replacement=0)
    with pytest.raises(ValueError, match="num_samples should be a positive integer value, but got num_samples=0"):
        data.RandomSampler(range(3), num_samples=0)
    sub = data.SubsetRandomSampler([10, 20, 30])
    assert sorted(sub) == [10, 20, 30] and len(sub) == 3


def test_random_samplers_match_torch_for_seed():
    for seed, want in GOLD["random_sampler"].items():
        assert list(data.RandomSampler(range(10), generator=torch.Generator().manual_seed(int(seed)))) == want
    assert list(data.RandomSampler(range(7), replacement=True, num_samples=40,
                                   generator=torch.Generator().manual_seed(5))) == GOLD["random_sampler_replacement"]
    assert list(data.RandomSampler(range(4), num_samples=10,
                                   generator=torch.Generator().manual_seed(6))) == GOLD["random_sampler_more"]
    assert list(data.SubsetRandomSampler([10, 20, 30, 40, 50],
                                         generator=torch.Generator().manual_seed(1))) == GOLD["subset_random"]


def test_weighted_random_sampler():
    with pytest.raises(ValueError, match="num_samples should be a positive integer value, but got num_samples=0"):
        data.WeightedRandomSampler([1.0], 0)
    with pytest.raises(ValueError, match="replacement should be a boolean value, but got replacement=None"):
        data.WeightedRandomSampler([1.0], 1, replacement=None)
    with pytest.raises(ValueError, match=r"weights should be a 1d sequence but given weights have shape \(1, 2\)"):
        data.WeightedRandomSampler([[1.0, 2.0]], 1)
    ws = data.WeightedRandomSampler([0.1, 0.9, 0.4, 0.7, 3.0, 0.6], 12, generator=torch.Generator().manual_seed(2))
    assert ws.weights.dtype == torch.float64 and len(ws) == 12
    assert list(ws) == GOLD["weighted"]
    assert list(data.WeightedRandomSampler([0.9, 0.4, 0.05, 0.2, 0.3, 0.1], 5, replacement=False,
                                           generator=torch.Generator().manual_seed(2))) == GOLD["weighted_no_replacement"]


# ---- collation ---------------------------------------------------------------------------------

Point = collections.namedtuple("Point", "x y")


def test_default_collate_types():
    c = data.default_collate
    ints, floats, bools = c([1, 2, 3]), c([1.5, 2.5]), c([True, False])
    assert ints.dtype == torch.int64 and ints.tolist() == [1, 2, 3]
    assert floats.dtype == torch.float64 and bools.dtype == torch.bool
    assert c(["a", "b"]) == ["a", "b"] and c([b"a", b"b"]) == [b"a", b"b"]
    tup = c([(torch.ones(2), 1), (torch.zeros(2), 0)])
    assert type(tup) is list and tup[0].shape == (2, 2) and tup[1].tolist() == [1, 0]
    nested = c([{"a": [1, 2]}, {"a": [3, 4]}])
    assert [t.tolist() for t in nested["a"]] == [[1, 3], [2, 4]]
    pts = c([Point(1, 2.0), Point(3, 4.0)])
    assert type(pts) is Point and pts.x.tolist() == [1, 3] and pts.y.dtype == torch.float64
    od = c([collections.OrderedDict(b=1, a=2), collections.OrderedDict(b=3, a=4)])
    assert type(od) is collections.OrderedDict and list(od) == ["b", "a"]
    arr = c([np.array([1.0, 2.0], dtype=np.float32), np.array([3.0, 4.0], dtype=np.float32)])
    assert arr.dtype == torch.float32 and arr.tolist() == [[1.0, 2.0], [3.0, 4.0]]
    scal = c([np.int32(1), np.int32(2)])
    assert scal.dtype == torch.int32 and scal.tolist() == [1, 2]
    with pytest.raises(RuntimeError, match="stack expects each tensor to be equal size"):
        c([torch.ones(2), torch.ones(3)])
    with pytest.raises(RuntimeError, match="each element in list of batch should be of equal size"):
        c([[1, 2], [3]])
    with pytest.raises(TypeError, match="default_collate: batch must contain tensors, numpy arrays, numbers, "
                                        "dicts or lists; found <class 'object'>"):
        c([object(), object()])
    with pytest.raises(TypeError, match="found <U1"):
        c([np.array(["a"]), np.array(["b"])])


def test_default_convert():
    conv = data.default_convert
    t = torch.ones(1)
    assert conv(t) is t
    out = conv({"a": np.array([1, 2]), "b": (np.float64(1.5), "s"), "p": Point(np.int64(1), 2)})
    assert out["a"].tolist() == [1, 2] and type(out["b"]) is list and out["b"][0].dtype == torch.float64
    assert type(out["p"]) is Point and out["p"].x.item() == 1 and out["p"].y == 2
    s = np.array(["x"])
    assert conv(s) is s and conv("str") == "str" and conv(3) == 3


# ---- DataLoader (single process) ------------------------------------------------------------------

def test_loader_batches_len_and_reiteration():
    x, y = _xy()
    loader = data.DataLoader(data.TensorDataset(x, y), batch_size=3)
    assert len(loader) == 3
    first = [[bx.tolist(), by.tolist()] for bx, by in loader]
    assert first == [[x[:3].tolist(), [0, 1, 0]], [x[3:6].tolist(), [1, 1, 0]], [x[6:].tolist(), [2]]]
    assert [[bx.tolist(), by.tolist()] for bx, by in loader] == first
    assert type(next(iter(loader))) is list
    dropped = data.DataLoader(data.TensorDataset(x, y), batch_size=3, drop_last=True)
    assert len(dropped) == 2 and [list(bx.shape) for bx, _ in dropped] == [[3, 2], [3, 2]]
    unbatched = data.DataLoader(data.TensorDataset(x, y), batch_size=None)
    assert len(unbatched) == 7 and next(iter(unbatched))[0].tolist() == [0.0, 1.0]
    assert [b.tolist() for b in data.DataLoader(list(range(5)), batch_size=2)] == [[0, 1], [2, 3], [4]]


def test_loader_samplers_collate_fn_and_dicts():
    x, y = _xy()
    ds = data.TensorDataset(x, y)
    assert [by.tolist() for _, by in data.DataLoader(ds, batch_size=2, sampler=[6, 4, 2, 0])] == [[2, 1], [0, 0]]
    bsl = data.DataLoader(ds, batch_sampler=[[1, 2], [0], [5, 6, 3]])
    assert len(bsl) == 3 and [by.tolist() for _, by in bsl] == [[1, 0], [0], [0, 2, 1]]
    pad = data.DataLoader([[1, 2, 3], [4]], batch_size=2, collate_fn=lambda b: [len(s) for s in b])
    assert list(pad) == [[3, 1]]
    batches = list(data.DataLoader(Squares(5), batch_size=2))
    assert batches[0]["i"].tolist() == [0, 1] and batches[2]["sq"].tolist() == [[16.0]]


def test_loader_argument_errors():
    x, y = _xy()
    ds = data.TensorDataset(x, y)
    with pytest.raises(ValueError, match="^sampler option is mutually exclusive with shuffle$"):
        data.DataLoader(ds, sampler=[0], shuffle=True)
    with pytest.raises(ValueError, match="^batch_sampler option is mutually exclusive with batch_size, shuffle, "
                                         "sampler, and drop_last$"):
        data.DataLoader(ds, batch_size=2, batch_sampler=[[0]])
    with pytest.raises(ValueError, match="batch_size=None option disables auto-batching and is mutually exclusive with drop_last"):
        data.DataLoader(ds, batch_size=None, drop_last=True)
    with pytest.raises(ValueError, match="num_workers option should be non-negative; use num_workers=0 to disable multiprocessing."):
        data.DataLoader(ds, num_workers=-1)
    with pytest.raises(ValueError, match="^timeout option should be non-negative$"):
        data.DataLoader(ds, timeout=-1)
    with pytest.raises(ValueError, match="prefetch_factor option could only be specified in multiprocessing"):
        data.DataLoader(ds, prefetch_factor=2)
    with pytest.raises(ValueError, match="^persistent_workers option needs num_workers > 0$"):
        data.DataLoader(ds, persistent_workers=True)
    with pytest.raises(ValueError, match="multiprocessing_context can only be used with multi-process loading"):
        data.DataLoader(ds, multiprocessing_context="fork")
    with pytest.raises(ValueError, match="multiprocessing_context option should specify a valid start method"):
        data.DataLoader(ds, num_workers=1, multiprocessing_context="nope")
    with pytest.raises(TypeError, match="multiprocessing_context option should be a valid context object"):
        data.DataLoader(ds, num_workers=1, multiprocessing_context=3)
    loader = data.DataLoader(ds)
    with pytest.raises(ValueError, match="batch_size attribute should not be set after DataLoader is initialized"):
        loader.batch_size = 4
    with pytest.raises(ValueError, match="expected unspecified shuffle option, but got shuffle=True"):
        data.DataLoader(Range(0, 3), shuffle=True)
    with pytest.raises(ValueError, match="expected unspecified sampler option"):
        data.DataLoader(Range(0, 3), sampler=[0])


def test_loader_iterable_dataset():
    batches = list(data.DataLoader(Range(0, 5), batch_size=2))
    assert [b.tolist() for b in batches] == [[0, 1], [2, 3], [4]]
    assert len(list(data.DataLoader(Range(0, 5), batch_size=2, drop_last=True))) == 2
    assert len(data.DataLoader(Range(0, 5), batch_size=2)) == 3
    assert list(data.DataLoader(Range(0, 2), batch_size=None)) == [0, 1]  # default_convert keeps ints


def test_loader_shuffle_covers_and_matches_torch():
    loader = data.DataLoader(data.TensorDataset(torch.arange(10)), batch_size=4, shuffle=True)
    assert sorted(v for (b,) in loader for v in b.tolist()) == list(range(10))
    g = torch.Generator().manual_seed(0)
    loader = data.DataLoader(data.TensorDataset(torch.arange(10)), batch_size=4, shuffle=True, generator=g)
    assert [[b[0].tolist() for b in loader] for _ in range(2)] == GOLD["shuffled_epochs"]
    torch.manual_seed(123)
    got = [b[0].tolist() for b in data.DataLoader(data.TensorDataset(torch.arange(10)), batch_size=5, shuffle=True)]
    assert got == GOLD["shuffled_global_seed"]


def test_loader_base_seed_matches_torch():
    g = torch.Generator().manual_seed(7)
    ds = data.TensorDataset(torch.arange(3))
    assert [iter(data.DataLoader(ds, generator=g))._base_seed for _ in range(3)] == GOLD["base_seeds"]


def test_pin_memory_is_a_noop_on_cpu():
    ds = data.TensorDataset(torch.arange(4.))
    if torch.accelerator.is_available():
        batches = list(data.DataLoader(ds, batch_size=2, pin_memory=True))
    else:
        with pytest.warns(UserWarning, match="'pin_memory' argument is set as true but no accelerator is found, "
                                             "then device pinned memory won't be used."):
            batches = list(data.DataLoader(ds, batch_size=2, pin_memory=True))
    assert [b[0].tolist() for b in batches] == [[0.0, 1.0], [2.0, 3.0]]
    assert data._utils.pin_memory.pin_memory({"a": (torch.ones(1), "s")})["a"][1] == "s"


# ---- worker processes ------------------------------------------------------------------------

def test_numpy_worker_states_match_torch():
    for key, want in GOLD["numpy_states"].items():
        base, worker = (int(v) for v in key.split(":"))
        assert _generate_state(base, worker) == want


def test_workers_ordered_results_equal_single_process():
    single = [(b["i"].tolist(), b["sq"].tolist()) for b in data.DataLoader(Squares(9), batch_size=2)]
    multi = data.DataLoader(Squares(9), batch_size=2, num_workers=2, prefetch_factor=1)
    assert len(multi) == 5
    assert [(b["i"].tolist(), b["sq"].tolist()) for b in multi] == single
    assert [(b["i"].tolist(), b["sq"].tolist()) for b in multi] == single  # a second epoch


def test_worker_info_seeds_and_init_fn():
    loader = data.DataLoader(WorkerReport(), batch_size=None, num_workers=2, worker_init_fn=_mark_init)
    got = list(loader)
    assert data.get_worker_info() is None
    assert [s["i"] for s in got] == [0, 1, 2, 3] and [s["id"] for s in got] == [0, 1, 0, 1]
    assert all(s["num_workers"] == 2 for s in got) and [s["init"] for s in got] == [0, 10, 0, 10]
    base = got[0]["seed"]
    assert got[1]["seed"] == base + 1
    for s in got[:2]:
        # each worker seeded Python's random with its seed and NumPy with torch's SeedSequence mix
        random.seed(s["seed"])
        assert s["py"] == random.random()
        np.random.seed(_generate_state(base, s["id"]))
        assert s["np"] == float(np.random.rand())


def test_iterable_dataset_split_across_workers():
    loader = data.DataLoader(Range(3, 9), batch_size=None, num_workers=2)
    assert sorted(int(v) for v in loader) == [3, 4, 5, 6, 7, 8]
    batched = list(data.DataLoader(Range(0, 6), batch_size=2, num_workers=2))
    assert sorted(v for b in batched for v in b.tolist()) == list(range(6))


def test_worker_exception_is_reraised_with_torch_text():
    with pytest.raises(ValueError, match=r"Caught ValueError in DataLoader worker process 0\.\nOriginal Traceback"):
        list(data.DataLoader(Failing(), batch_size=None, num_workers=2))


def test_worker_timeout():
    with pytest.raises(RuntimeError, match=r"^DataLoader timed out after 1 seconds$"):
        list(data.DataLoader(Slow(), batch_size=None, num_workers=1, timeout=1))


def test_persistent_workers_reuse_processes():
    loader = data.DataLoader(Squares(6), batch_size=3, num_workers=2, persistent_workers=True)
    first = [b["i"].tolist() for b in loader]
    it = loader._iterator
    pids = [w.pid for w in it._workers]
    second = [b["i"].tolist() for b in loader]
    assert first == second == [[0, 1, 2], [3, 4, 5]]
    assert loader._iterator is it and [w.pid for w in it._workers] == pids
    it._shutdown_workers()


def test_spawn_context():
    loader = data.DataLoader(Squares(4), batch_size=2, num_workers=1, multiprocessing_context="spawn")
    assert [b["i"].tolist() for b in loader] == [[0, 1], [2, 3]]
