"""ferrograd.distributed on MPI, DistributedDataParallel and DistributedSampler.

The multi-process cases start ``mpiexec -n 2 python tests/python/test_distributed.py SCENARIO...``
in a subprocess (this file is also the worker: see ``worker_main``); each rank writes what it
computed to a JSON file and the assertions run here, against NumPy and against a single-process
ferrograd run. They need mpi4py and an MPI (``pip install "ferrograd[mpi]"``, part of the README's
test command) and are skipped only where mpi4py is not importable."""

import contextlib
import gzip
import importlib.util
import json
import os
import pathlib
import shutil
import subprocess
import sys
import time
import traceback
import warnings

import numpy as np
import pytest

import ferrograd as torch

ROOT = pathlib.Path(__file__).resolve().parents[2]
HAVE_MPI = importlib.util.find_spec("mpi4py") is not None
needs_mpi = pytest.mark.skipif(not HAVE_MPI, reason='mpi4py is not importable (pip install "ferrograd[mpi]")')

DTYPES = ["float32", "float64", "float16", "int64", "int32", "int16", "int8", "uint8", "bool"]
FLOAT_OPS = ["SUM", "AVG", "PRODUCT", "MIN", "MAX"]
INT_OPS = FLOAT_OPS + ["BAND", "BOR", "BXOR"]
BOOL_OPS = ["SUM", "PRODUCT", "MIN", "MAX", "BAND", "BOR", "BXOR"]


def base_data(rank, dtype, n=7):
    """What rank ``rank`` contributes in the collective tests (exact in every dtype)."""
    if dtype == "bool":
        return (np.arange(n) % (rank + 2) == 0)
    vals = (np.arange(n) * (rank + 1) - 3 * rank + 2) % 11 - (0 if dtype == "uint8" else 4)
    return vals.astype(dtype)


def digits(n):
    with gzip.open(ROOT / "data" / "digits.csv.gz", "rt") as fh:
        raw = np.loadtxt(fh, delimiter=",", dtype=np.float32, max_rows=n)
    return raw[:, :64] / 16.0, raw[:, 64].astype(np.int64)


def mlp(seed):
    torch.manual_seed(seed)
    nn = torch.nn
    return nn.Sequential(nn.Linear(64, 32), nn.Tanh(), nn.Linear(32, 16), nn.Tanh(), nn.Linear(16, 10))


# ============================================================================= the worker (under mpiexec)

def w_collectives(dist, rank, size):
    out = {}
    for dtype in DTYPES:
        ops = BOOL_OPS if dtype == "bool" else FLOAT_OPS if dtype.startswith("float") else INT_OPS
        for op in ops:
            t = torch.from_numpy(base_data(rank, dtype).copy())
            ptr = t.data_ptr()
            assert dist.all_reduce(t, op=getattr(dist.ReduceOp, op)) is None
            assert t.data_ptr() == ptr
            out[f"all_reduce/{dtype}/{op}"] = t.numpy().tolist()
            t = torch.from_numpy(base_data(rank, dtype).copy())
            work = dist.all_reduce(t, op=getattr(dist.ReduceOp, op), async_op=True)
            assert work.wait() is True and work.is_completed() and work.is_success()
            assert work.result()[0] is t
            out[f"all_reduce_async/{dtype}/{op}"] = t.numpy().tolist()
    # a 2-D tensor and a 0-d one
    t = torch.arange(12, dtype=torch.float32).reshape(3, 4) * (rank + 1)
    dist.all_reduce(t, op=dist.ReduceOp.MAX)
    out["all_reduce/2d"] = t.numpy().tolist()
    s = torch.tensor(float(rank + 3))
    dist.all_reduce(s, op=dist.ReduceOp.PRODUCT)
    out["all_reduce/0d"] = s.item()
    # broadcast from each rank, blocking and async
    for src in range(size):
        b = torch.from_numpy(base_data(rank, "float64"))
        dist.broadcast(b, src=src)
        out[f"broadcast/{src}"] = b.numpy().tolist()
        b = torch.from_numpy(base_data(rank, "int32"))
        dist.broadcast(b, src=src, async_op=True).wait()
        out[f"broadcast_async/{src}"] = b.numpy().tolist()
    # all_gather into a list, and into one tensor (concatenated and stacked)
    mine = torch.from_numpy(base_data(rank, "float32")).reshape(7, 1)
    outs = [torch.zeros(7, 1) for _ in range(size)]
    dist.all_gather(outs, mine)
    out["all_gather"] = [o.numpy().tolist() for o in outs]
    outs = [torch.zeros(7, 1) for _ in range(size)]
    work = dist.all_gather(outs, mine, async_op=True)
    work.wait()
    out["all_gather_async"] = [o.numpy().tolist() for o in outs]
    cat = torch.zeros(7 * size, 1)
    dist.all_gather_into_tensor(cat, mine)
    out["all_gather_into_tensor/cat"] = cat.numpy().tolist()
    stacked = torch.zeros(size, 7, 1, dtype=torch.float32)
    dist.all_gather_into_tensor(stacked, mine, async_op=True).wait()
    out["all_gather_into_tensor/stack"] = stacked.numpy().tolist()
    # reduce_scatter_tensor
    for op in ("SUM", "AVG", "MAX"):
        inp = torch.from_numpy(np.arange(4 * size, dtype=np.float32) * (rank + 1) - rank)
        o = torch.zeros(4)
        dist.reduce_scatter_tensor(o, inp, op=getattr(dist.ReduceOp, op))
        out[f"reduce_scatter_tensor/{op}"] = o.numpy().tolist()
    inp = torch.from_numpy(np.arange(4 * size, dtype=np.int64) + 10 * rank)
    o = torch.zeros(4, dtype=torch.int64)
    dist.reduce_scatter_tensor(o, inp, async_op=True).wait()
    out["reduce_scatter_tensor/int_async"] = o.numpy().tolist()
    # point to point: a ring, blocking and non-blocking; recv from any source returns the sender
    nxt, prv = (rank + 1) % size, (rank - 1) % size
    got = torch.zeros(3, dtype=torch.int64)
    if rank % 2 == 0:
        dist.send(torch.tensor([rank, 2 * rank, 7]), dst=nxt)
        out["recv_from"] = dist.recv(got)
    else:
        out["recv_from"] = dist.recv(got)
        dist.send(torch.tensor([rank, 2 * rank, 7]), dst=nxt)
    out["recv"] = got.numpy().tolist()
    got = torch.zeros(3)
    rw = dist.irecv(got, src=prv, tag=5)
    sw = dist.isend(torch.full((3,), float(rank)), dst=nxt, tag=5)
    sw.wait()
    rw.wait()
    out["irecv"] = got.numpy().tolist()
    assert rw.is_completed() and rw.source_rank() == prv
    dist.barrier()
    dist.barrier(async_op=True).wait()
    # a group of rank 0 alone: rank 1 is not a member
    g = dist.new_group([0])
    out["group_rank"] = dist.get_rank(g)
    out["group_size"] = dist.get_world_size(g)
    t = torch.ones(2) * (rank + 5)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        res = dist.all_reduce(t, group=g)
    out["group_all_reduce"] = [res is None, t.numpy().tolist(), [str(w.message) for w in caught]]
    out["world"] = [dist.get_rank(), dist.get_world_size(), str(dist.get_backend()),
                    dist.group.WORLD is dist.GroupMember.WORLD, dist.get_process_group_ranks(dist.group.WORLD)]
    return out


def w_errors(dist, rank, size):
    """Each call below fails identically on every rank before any message is sent."""
    out = {}

    def err(name, fn):
        try:
            fn()
        except Exception as e:  # noqa: BLE001
            out[name] = [type(e).__name__, str(e)]
        else:
            out[name] = None

    err("non_contiguous", lambda: dist.all_reduce(torch.zeros(3, 4).t()))
    err("not_a_tensor", lambda: dist.all_reduce([1.0]))
    err("band_float", lambda: dist.all_reduce(torch.zeros(3), op=dist.ReduceOp.BAND))
    err("gather_list_len", lambda: dist.all_gather([torch.zeros(2)] * (size + 1), torch.zeros(2)))
    err("gather_size", lambda: dist.all_gather([torch.zeros(3) for _ in range(size)], torch.zeros(2)))
    err("gather_into_size", lambda: dist.all_gather_into_tensor(torch.zeros(3), torch.zeros(2)))
    err("gather_into_dtype", lambda: dist.all_gather_into_tensor(torch.zeros(2 * size, dtype=torch.int64),
                                                                 torch.zeros(2)))
    err("reduce_scatter_size", lambda: dist.reduce_scatter_tensor(torch.zeros(3), torch.zeros(3)))
    err("send_self", lambda: dist.send(torch.zeros(1), dst=rank))
    err("broadcast_root", lambda: dist.broadcast(torch.zeros(1), src=size + 1))
    err("init_twice", lambda: dist.init_process_group("mpi"))
    return out


def _ddp_steps(dist, rank, size, bucket_cap_mb, steps=4, per_rank=12):
    DDP = torch.nn.parallel.DistributedDataParallel
    x, y = digits(steps * per_rank * size)
    model = DDP(mlp(seed=100 + rank), bucket_cap_mb=bucket_cap_mb)     # rank 0's weights must win
    opt = torch.optim.SGD(model.parameters(), lr=0.5, momentum=0.9)
    logs = []
    for s in range(steps):
        lo = (s * size + rank) * per_rank
        xb, yb = torch.from_numpy(x[lo:lo + per_rank]), torch.from_numpy(y[lo:lo + per_rank])
        loss = torch.nn.functional.cross_entropy(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        logs.append(list(model.reducer.launch_log))
        opt.step()
    return model, logs


def w_ddp(dist, rank, size):
    out = {}
    for name, cap in (("default", None), ("small_buckets", 0.0005)):
        model, logs = _ddp_steps(dist, rank, size, cap)
        out[name] = {"params": [p.detach().numpy().tolist() for p in model.module.parameters()],
                     "buckets": [b.param_indices for b in model.reducer.buckets],
                     "launch_log": logs,
                     "keys": list(model.state_dict().keys())}
    return out


def w_no_sync(dist, rank, size):
    DDP = torch.nn.parallel.DistributedDataParallel
    x, y = digits(3 * 8 * size)
    model = DDP(mlp(seed=3), bucket_cap_mb=0.002)
    F = torch.nn.functional

    def batch(m):
        lo = (m * size + rank) * 8
        return torch.from_numpy(x[lo:lo + 8]), torch.from_numpy(y[lo:lo + 8])

    with model.no_sync():
        for m in range(2):
            xb, yb = batch(m)
            F.cross_entropy(model(xb), yb).backward()
    local = [p.grad.numpy().tolist() for p in model.parameters()]
    xb, yb = batch(2)
    F.cross_entropy(model(xb), yb).backward()
    return {"local": local, "synced": [p.grad.numpy().tolist() for p in model.parameters()]}


class _Branches(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.a = torch.nn.Linear(4, 3)
        self.b = torch.nn.Linear(4, 3)
        self.c = torch.nn.Linear(4, 3)   # used by nobody

    def forward(self, x, use_b):
        out = self.a(x)
        if use_b:
            out = out + self.b(x)
        return out


def w_find_unused(dist, rank, size):
    DDP = torch.nn.parallel.DistributedDataParallel
    torch.manual_seed(0)
    model = DDP(_Branches(), find_unused_parameters=True)
    x = torch.from_numpy(np.arange(8, dtype=np.float32).reshape(2, 4) / 8 + rank)
    grads = []
    for it in range(2):
        model.zero_grad()
        model(x, use_b=(rank == 0)).pow(2).sum().backward()
        grads.append({n: (None if p.grad is None else p.grad.numpy().tolist())
                      for n, p in model.module.named_parameters()})
    return {"grads": grads}


def w_unused_error(dist, rank, size):
    DDP = torch.nn.parallel.DistributedDataParallel
    torch.manual_seed(0)
    model = DDP(_Branches())                    # find_unused_parameters=False, one bucket
    x = torch.ones(2, 4)
    model(x, use_b=True).sum().backward()       # c gets no gradient: the reduction cannot finish
    try:
        model(x, use_b=True)
    except RuntimeError as e:
        return {"error": str(e)}
    return {"error": None}


def w_abort(dist, rank, size):
    t = torch.ones(4)
    if rank == 1:
        raise ValueError("boom on rank 1")
    dist.all_reduce(t)      # rank 0 waits here for a rank that is gone
    return {"unreachable": True}


WORKERS = {f.__name__[2:]: f for f in (w_collectives, w_errors, w_ddp, w_no_sync, w_find_unused,
                                        w_unused_error, w_abort)}


def worker_main(argv):
    outdir, names = argv[0], argv[1:]
    dist = torch.distributed
    dist.init_process_group(backend="mpi")
    rank, size = dist.get_rank(), dist.get_world_size()
    results = {}
    for name in names:
        if name == "abort":
            WORKERS[name](dist, rank, size)     # uncaught on rank 1: the job must abort
        try:
            results[name] = WORKERS[name](dist, rank, size)
        except Exception:  # noqa: BLE001  (reported to the test, which fails with it)
            results[name] = {"worker_error": traceback.format_exc()}
    with open(os.path.join(outdir, f"rank{rank}.json"), "w") as fh:
        json.dump(results, fh)
    dist.barrier()
    dist.destroy_process_group()


# ============================================================================= the tests

def mpiexec():
    bindir = os.path.dirname(sys.executable)
    path = shutil.which("mpiexec", path=bindir + os.pathsep + os.environ.get("PATH", ""))
    assert path, "mpi4py is importable but no mpiexec was found (pip install mpich)"
    return path


def launch(tmp_path, names, n=2, timeout=120):
    env = dict(os.environ)
    env.pop("WORLD_SIZE", None)
    env.pop("RANK", None)
    env["FERROGRAD_NUM_THREADS"] = "1"
    cmd = [mpiexec(), "-n", str(n), sys.executable, __file__, str(tmp_path)] + list(names)
    start = time.monotonic()
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env, cwd=ROOT)
    return proc, time.monotonic() - start


@pytest.fixture(scope="module")
def mpi_results(tmp_path_factory):
    """One ``mpiexec -n 2`` run of every scenario (one start-up for all of them)."""
    if not HAVE_MPI:
        pytest.skip('mpi4py is not importable (pip install "ferrograd[mpi]")')
    tmp = tmp_path_factory.mktemp("mpi")
    names = ["collectives", "errors", "ddp", "no_sync", "find_unused", "unused_error"]
    proc, _ = launch(tmp, names)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    ranks = [json.loads((tmp / f"rank{r}.json").read_text()) for r in range(2)]
    for r in ranks:
        for name, res in r.items():
            assert "worker_error" not in res, res.get("worker_error")
    return ranks


def expected_reduce(dtype, op, size=2):
    arrays = [base_data(r, dtype) for r in range(size)]
    if dtype == "bool":
        f = {"SUM": np.logical_or, "MAX": np.logical_or, "BOR": np.logical_or, "PRODUCT": np.logical_and,
             "MIN": np.logical_and, "BAND": np.logical_and, "BXOR": np.logical_xor}[op]
    else:
        f = {"SUM": np.add, "AVG": np.add, "PRODUCT": np.multiply, "MIN": np.minimum, "MAX": np.maximum,
             "BAND": np.bitwise_and, "BOR": np.bitwise_or, "BXOR": np.bitwise_xor}[op]
    acc = arrays[0]
    for a in arrays[1:]:
        acc = f(acc, a).astype(arrays[0].dtype)
    if op == "AVG":
        if dtype.startswith("float"):
            acc = (acc / np.array(size, dtype=dtype)).astype(dtype)
        else:
            acc = (np.sign(acc) * (np.abs(acc) // size)).astype(dtype)
    return acc


@needs_mpi
@pytest.mark.parametrize("kind", ["all_reduce", "all_reduce_async"])
@pytest.mark.parametrize("dtype", DTYPES)
def test_all_reduce_every_op_and_dtype(mpi_results, kind, dtype):
    ops = BOOL_OPS if dtype == "bool" else FLOAT_OPS if dtype.startswith("float") else INT_OPS
    for op in ops:
        want = expected_reduce(dtype, op).tolist()
        for r in range(2):
            got = mpi_results[r]["collectives"][f"{kind}/{dtype}/{op}"]
            assert got == want, (r, op, got, want)


@needs_mpi
def test_other_collectives_against_numpy(mpi_results):
    a = [base_data(r, "float32").reshape(7, 1) for r in range(2)]
    for r in range(2):
        res = mpi_results[r]["collectives"]
        assert res["all_reduce/2d"] == (np.arange(12, dtype=np.float32).reshape(3, 4) * 2).tolist()
        assert res["all_reduce/0d"] == 12.0
        for src in range(2):
            assert res[f"broadcast/{src}"] == base_data(src, "float64").tolist()
            assert res[f"broadcast_async/{src}"] == base_data(src, "int32").tolist()
        assert res["all_gather"] == [x.tolist() for x in a]
        assert res["all_gather_async"] == [x.tolist() for x in a]
        assert res["all_gather_into_tensor/cat"] == np.concatenate(a).tolist()
        assert res["all_gather_into_tensor/stack"] == np.stack(a).tolist()
        inputs = [np.arange(8, dtype=np.float32) * (k + 1) - k for k in range(2)]
        total = inputs[0] + inputs[1]
        assert res["reduce_scatter_tensor/SUM"] == total[4 * r:4 * r + 4].tolist()
        assert res["reduce_scatter_tensor/AVG"] == (total / 2)[4 * r:4 * r + 4].tolist()
        assert res["reduce_scatter_tensor/MAX"] == np.maximum(*inputs)[4 * r:4 * r + 4].tolist()
        ints = np.arange(8) * 2 + 10
        assert res["reduce_scatter_tensor/int_async"] == ints[4 * r:4 * r + 4].tolist()
        other = 1 - r
        assert res["recv"] == [other, 2 * other, 7] and res["recv_from"] == other
        assert res["irecv"] == [float(other)] * 3
        assert res["world"] == [r, 2, "mpi", True, [0, 1]]
    g0, g1 = mpi_results[0]["collectives"], mpi_results[1]["collectives"]
    assert (g0["group_rank"], g0["group_size"]) == (0, 1)
    assert (g1["group_rank"], g1["group_size"]) == (-1, -1)
    assert g0["group_all_reduce"] == [True, [5.0, 5.0], []]       # a group of one: its own value
    assert g1["group_all_reduce"] == [True, [6.0, 6.0],
                                      ["Running all_reduce on global rank 1 which does not belong to the given group."]]


@needs_mpi
def test_collective_errors_are_pytorchs(mpi_results):
    for r in range(2):
        e = mpi_results[r]["errors"]
        assert e["non_contiguous"] == ["RuntimeError", "input tensor has to be contiguous"]
        assert e["not_a_tensor"][0] == "TypeError" and "Expected parameter `tensor` of type torch.Tensor" in e["not_a_tensor"][1]
        assert e["band_float"] == ["RuntimeError", "Cannot use ReduceOp.BAND with non-integral dtype"]
        assert e["gather_list_len"] == ["RuntimeError", "All gather: number of output tensors should equal to the world size"]
        assert e["gather_size"] == ["RuntimeError", "Tensors are not equal in size or data type"]
        assert e["gather_into_size"] == ["ValueError", "output tensor size must be equal to world_size times input tensor size"]
        assert e["gather_into_dtype"] == ["TypeError", "output tensor must have the same type as input tensor"]
        assert e["reduce_scatter_size"] == ["ValueError", "input tensor must be the same size as output size times world size"]
        assert e["send_self"] == ["ValueError", "Invalid destination rank: destination rank should not be the same as the rank of the current process."]
        assert e["broadcast_root"] == ["RuntimeError", "invalid root rank: 3"]
        assert e["init_twice"] == ["ValueError", "trying to initialize the default process group twice!"]


def single_process_reference(steps=4, per_rank=12, size=2):
    """The same training as _ddp_steps, in one process on the concatenated batches."""
    x, y = digits(steps * per_rank * size)
    model = mlp(seed=100)
    opt = torch.optim.SGD(model.parameters(), lr=0.5, momentum=0.9)
    for s in range(steps):
        lo = s * size * per_rank
        xb, yb = torch.from_numpy(x[lo:lo + size * per_rank]), torch.from_numpy(y[lo:lo + size * per_rank])
        loss = torch.nn.functional.cross_entropy(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
    return [p.detach().numpy() for p in model.parameters()]


@needs_mpi
@pytest.mark.parametrize("buckets", ["default", "small_buckets"])
def test_ddp_matches_single_process_on_concatenated_batches(mpi_results, buckets):
    ref = single_process_reference()
    r0, r1 = (mpi_results[r]["ddp"][buckets] for r in range(2))
    assert r0["params"] == r1["params"]                      # replicas identical, bit for bit
    for got, want in zip(r0["params"], ref):
        np.testing.assert_allclose(np.array(got, dtype=np.float32), want, rtol=2e-5, atol=2e-6)
    assert r0["keys"] == ["module.0.weight", "module.0.bias", "module.2.weight", "module.2.bias",
                          "module.4.weight", "module.4.bias"]


@needs_mpi
def test_ddp_buckets_reverse_order_and_overlap(mpi_results):
    default = mpi_results[0]["ddp"]["default"]
    assert default["buckets"] == [[5, 4, 3, 2, 1, 0]]        # 6 small params: one bucket
    assert all(log == [[0, 6]] for log in default["launch_log"])
    small = mpi_results[0]["ddp"]["small_buckets"]
    # a 524-byte cap, filled in reverse registration order: (bias, weight) of each layer, last layer first
    assert small["buckets"] == [[5, 4], [3, 2], [1, 0]]
    for log in small["launch_log"]:
        assert [b for b, _ in log] == [0, 1, 2]
        # the first bucket's all-reduce started while gradients were still being computed
        assert log[0][1] < 6 and log[-1][1] == 6


@needs_mpi
def test_ddp_no_sync_accumulates_then_averages(mpi_results):
    x, y = digits(3 * 8 * 2)
    F = torch.nn.functional
    per_rank = []
    for r in range(2):
        model = mlp(seed=3)
        for m in range(3):
            lo = (m * 2 + r) * 8
            F.cross_entropy(model(torch.from_numpy(x[lo:lo + 8])), torch.from_numpy(y[lo:lo + 8])).backward()
            if m == 1:
                local = [p.grad.numpy().copy() for p in model.parameters()]
        per_rank.append(([p.grad.numpy().copy() for p in model.parameters()], local))
    for r in range(2):
        res = mpi_results[r]["no_sync"]
        for got, want in zip(res["local"], per_rank[r][1]):        # inside no_sync: this rank's own sum
            np.testing.assert_allclose(np.array(got, dtype=np.float32), want, rtol=1e-5, atol=1e-7)
        for got, a, b in zip(res["synced"], per_rank[0][0], per_rank[1][0]):
            np.testing.assert_allclose(np.array(got, dtype=np.float32), (a + b) / 2, rtol=1e-5, atol=1e-7)
    assert mpi_results[0]["no_sync"]["local"] != mpi_results[1]["no_sync"]["local"]


@needs_mpi
def test_ddp_find_unused_parameters(mpi_results):
    torch.manual_seed(0)
    ref = _Branches()
    per_rank = []
    for r in range(2):
        ref.zero_grad()
        x = torch.from_numpy(np.arange(8, dtype=np.float32).reshape(2, 4) / 8 + r)
        ref(x, use_b=(r == 0)).pow(2).sum().backward()
        per_rank.append({n: (None if p.grad is None else p.grad.numpy().copy()) for n, p in ref.named_parameters()})
    for r in range(2):
        for grads in mpi_results[r]["find_unused"]["grads"]:
            for name in ("a.weight", "a.bias"):
                np.testing.assert_allclose(grads[name], (per_rank[0][name] + per_rank[1][name]) / 2, rtol=1e-6)
            for name in ("b.weight", "b.bias"):      # used on rank 0 only: rank 1 contributes zeros
                np.testing.assert_allclose(grads[name], per_rank[0][name] / 2, rtol=1e-6)
            assert grads["c.weight"] is None and grads["c.bias"] is None    # unused everywhere: untouched


@needs_mpi
def test_ddp_unused_parameter_without_find_unused_raises_pytorchs_error(mpi_results):
    for r in range(2):
        msg = mpi_results[r]["unused_error"]["error"]
        assert msg is not None
        assert msg.startswith("Expected to have finished reduction in the prior iteration before starting a new one. "
                              "This error indicates that your module has parameters that were not used in producing "
                              "loss. You can enable unused parameter detection by passing the keyword argument "
                              "`find_unused_parameters=True`")
        assert msg.endswith(f"Parameter indices which did not receive grad for rank {r}: 4 5")


@needs_mpi
def test_exception_on_one_rank_aborts_the_job(tmp_path):
    proc, elapsed = launch(tmp_path, ["abort"], timeout=60)
    assert proc.returncode != 0
    assert elapsed < 30
    assert "ValueError: boom on rank 1" in proc.stderr
    assert "[rank 1] uncaught ValueError: aborting all 2 ranks (MPI_Abort)" in proc.stderr


@needs_mpi
def test_train_digits_ddp_example(tmp_path):
    env = dict(os.environ, FERROGRAD_NUM_THREADS="1")
    cmd = [mpiexec(), "-n", "2", sys.executable, str(ROOT / "examples" / "train_digits_ddp.py"),
           "--epochs", "3", "--model", "mlp"]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120, env=env, cwd=ROOT)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "2 process(es), batch 32 per process (64 per step)" in proc.stdout
    acc = float(proc.stdout.split("test accuracy: ")[1].split("%")[0])
    assert acc > 85.0, proc.stdout


def run_python(code, env_extra=None, timeout=60):
    env = dict(os.environ)
    env.pop("WORLD_SIZE", None)
    env.pop("RANK", None)
    env.update(env_extra or {})
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=timeout, env=env,
                          cwd=ROOT)


@needs_mpi
def test_single_process_without_mpiexec_and_gloo_maps_to_mpi():
    proc = run_python(
        "import warnings, ferrograd as torch\n"
        "dist = torch.distributed\n"
        "with warnings.catch_warnings(record=True) as w:\n"
        "    warnings.simplefilter('always')\n"
        "    dist.init_process_group('gloo')\n"
        "t = torch.arange(3.)\n"
        "dist.all_reduce(t, op=dist.ReduceOp.AVG)\n"
        "print(dist.get_rank(), dist.get_world_size(), dist.get_backend(), t.tolist(), dist.is_initialized())\n"
        "print(str(w[0].message))\n"
        "dist.destroy_process_group()\n"
        "print(dist.is_initialized())\n")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0] == "0 1 mpi [0.0, 1.0, 2.0] True"
    assert lines[1] == "ferrograd has no Gloo: backend='gloo' runs on MPI (mpi4py); launch the processes with mpiexec"
    assert lines[2] == "False"


@needs_mpi
def test_torchrun_style_environment_is_refused_with_a_clear_error():
    proc = run_python("import ferrograd as torch\ntorch.distributed.init_process_group('mpi')\n",
                      {"WORLD_SIZE": "2", "RANK": "1"})
    assert proc.returncode != 0
    assert ("RuntimeError: WORLD_SIZE=2 in the environment but MPI started 1 process(es): ferrograd's distributed "
            "backend is MPI, so the processes must be started by an MPI launcher (mpiexec -n 2 python ...)") in proc.stderr


def test_missing_mpi4py_names_the_extra():
    proc = run_python("import sys\nsys.modules['mpi4py'] = None\nimport ferrograd as torch\n"
                      "print(torch.distributed.is_available())\ntorch.distributed.init_process_group('mpi')\n")
    assert proc.returncode != 0
    assert proc.stdout.strip() == "True"
    assert ("RuntimeError: Distributed package doesn't have MPI built in. ferrograd runs torch.distributed on MPI "
            'through mpi4py: install the extra with pip install "ferrograd[mpi]"') in proc.stderr


# ============================================================================= in process, no MPI started

def test_before_init_pytorchs_errors():
    dist = torch.distributed
    assert dist.is_available() and not dist.is_initialized()
    msg = "Default process group has not been initialized, please make sure to call init_process_group."
    for fn in (dist.get_rank, dist.get_world_size, dist.barrier, lambda: dist.all_reduce(torch.ones(2)),
               lambda: torch.nn.parallel.DistributedDataParallel(torch.nn.Linear(2, 2)),
               lambda: torch.utils.data.DistributedSampler(range(4))):
        with pytest.raises(ValueError) as e:
            fn()
        assert str(e.value) == msg
    with pytest.raises(AssertionError, match="^Process group cannot be None$"):
        dist.destroy_process_group()
    assert dist.group.WORLD is None


def test_nccl_and_unknown_backends_raise():
    dist = torch.distributed
    with pytest.raises(RuntimeError) as e:
        dist.init_process_group(backend="nccl")
    assert str(e.value).startswith("Distributed package doesn't have NCCL built in: ferrograd has no NCCL backend yet")
    with pytest.raises(RuntimeError, match="^Invalid backend: 'foo'"):
        dist.init_process_group(backend="foo")
    with pytest.raises(TypeError, match="^Expected timeout argument to be of type datetime.timedelta, got 5$"):
        dist.init_process_group(backend="mpi", timeout=5)
    assert not dist.is_initialized()
    assert not dist.is_nccl_available() and not dist.is_gloo_available()


def test_reduce_op_and_backend_names():
    dist = torch.distributed
    assert repr(dist.ReduceOp.SUM) == "<RedOpType.SUM: 0>" and str(dist.ReduceOp.SUM) == "RedOpType.SUM"
    assert [int(getattr(dist.ReduceOp, n)) for n in ("SUM", "AVG", "PRODUCT", "MIN", "MAX", "BAND", "BOR", "BXOR")] \
        == list(range(8))
    assert dist.ReduceOp(dist.ReduceOp.MAX) == dist.ReduceOp.MAX
    assert dist.Backend("MPI") == "mpi" and dist.Backend.NCCL == "nccl"


def test_tensor_memory_goes_to_mpi_without_a_copy():
    from ferrograd.distributed.distributed_c10d import _buffer
    t = torch.arange(6, dtype=torch.float32).reshape(2, 3)
    buf = _buffer(t)
    buf[4] = 40.0
    assert t[1, 1].item() == 40.0 and buf.ctypes.data == t.data_ptr()
    p = torch.nn.Parameter(torch.zeros(3))
    _buffer(p)[0] = 1.0
    assert p[0].item() == 1.0
    for dtype in (torch.float16, torch.float64, torch.int64, torch.int8, torch.uint8, torch.bool):
        t = torch.zeros(5, dtype=dtype)
        buf = _buffer(t)
        if buf.dtype == np.uint16:  # an MPI without float16 moves its bits as uint16
            buf = buf.view(np.float16)
        buf[2] = 1
        assert buf.ctypes.data == t.data_ptr() and t[2].item() == 1, dtype
    view = torch.arange(10.)[2:6]           # a contiguous view with an offset
    assert _buffer(view).ctypes.data == view.data_ptr() and _buffer(view).tolist() == [2.0, 3.0, 4.0, 5.0]


def test_distributed_sampler_matches_pytorch_goldens():
    golden = json.loads((ROOT / "tests" / "python" / "fixtures" / "distributed_sampler.json").read_text())
    DistributedSampler = torch.utils.data.distributed.DistributedSampler
    assert DistributedSampler is torch.utils.data.DistributedSampler
    assert len(golden["cases"]) > 600
    for c in golden["cases"]:
        s = DistributedSampler(range(c["n"]), num_replicas=c["num_replicas"], rank=c["rank"], shuffle=c["shuffle"],
                               seed=c["seed"], drop_last=c["drop_last"])
        assert len(s) == c["len"]
        for epoch, order in zip(c["epochs"], c["orders"]):
            s.set_epoch(epoch)
            assert list(s) == order, c
    for key, msg in golden["errors"].items():
        reps, rank = map(int, key.split(","))
        with pytest.raises(ValueError) as e:
            DistributedSampler(range(4), num_replicas=reps, rank=rank)
        assert str(e.value) == msg


if __name__ == "__main__":
    with contextlib.suppress(BrokenPipeError):
        worker_main(sys.argv[1:])
