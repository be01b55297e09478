"""DistributedDataParallel benchmark: steps/s and all-reduce/backward overlap on the digits MLP.

    mpiexec -n 1 python benches/ddp_bench.py [--steps 200] [--batch 64]
    mpiexec -n 2 python benches/ddp_bench.py [--steps 200] [--batch 64]

The model is an MLP 64-256-256-10 (``--hidden``) on the 8x8 digits of examples/train_digits.py;
``--batch`` is the batch per process (so 2 processes train on twice the images per step). The
batches are cut from the training images once, before timing: a step is forward, cross-entropy,
``zero_grad``, ``backward`` (where DDP averages the gradients) and an SGD step -- no DataLoader.
Each process runs with one kernel thread (``FERROGRAD_NUM_THREADS=1`` unless set otherwise), so
two processes do not fight over two cores.

Three configurations are measured in one run:

* ``local``: the bare model, no DDP, no communication (what a step costs each process alone);
* ``ddp``: DDP with the default bucket cap (the MLP's 332 KiB of gradients make one bucket);
* ``ddp cap=0.005``: ``bucket_cap_mb=0.005``, which closes a bucket at every layer: 3 buckets,
  the last layer's all-reduce started while backward still computes the first two layers.

**Steps/s**: after ``--warmup`` steps, ``--repeats`` timings of ``--steps`` steps each (all ranks
start after a barrier; a repeat's time is the slowest rank's); the median is reported.

**Overlap**, measured in one more, instrumented repeat. DDP is not modified: the benchmark wraps
three methods of this DDP instance's reducer (instance attributes shadowing the class's, removed
afterwards) and only reads timestamps and request states around the reducer's own calls:

* a bucket's all-reduce **starts** when its ``MPI_Iallreduce`` has been posted;
* it is **seen complete** at the first of the reducer's own ``MPI_Testall`` progress calls (made in
  the gradient hooks) after which its request is ``MPI_REQUEST_NULL``, else when the final
  ``Waitall`` returns -- an upper bound, at the granularity of the gradient hooks;
* the **wait** is the ``Waitall`` with which the reducer begins its finalisation in the last
  gradient hook, i.e. the time backward is blocked on all-reduces after the last gradient (the
  benchmark calls ``Waitall`` on the same requests just before the reducer's, whose own
  ``Waitall`` then finds them complete).

The all-reduce wall time of a step is the union of the buckets' in-flight intervals [start,
seen complete]; the part of it before the final wait began was spent while backward was still
computing (hidden), the rest is the wait (exposed). **overlap = 1 - wait / all-reduce wall time**
= hidden / all-reduce wall time, summed over the steps. The time spent inside the reducer's
``Testall`` calls (``progress``) is reported too: MPICH moves data only inside MPI calls (no
progress thread unless ``MPICH_ASYNC_PROGRESS=1``), so that is communication work done on the
backward thread; ``finalize`` is the reducer's work after the wait (divide by the world size,
copy back into ``.grad``). ``alone`` is the time of the same buckets' all-reduces with nothing else running
(Iallreduce of every bucket + Waitall, back to back after a barrier): what the communication costs
when not overlapped. ``wait50`` is the median per-step wait (the other columns are means).
A wait longer than ``alone`` means the rank waited for a slower peer.
"""

import argparse
import os
import statistics
import sys
import time

os.environ.setdefault("FERROGRAD_NUM_THREADS", "1")   # one kernel thread per process, before the import

import numpy as np  # noqa: E402

import ferrograd as torch  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "examples"))
from train_digits import DEFAULT_DATA, load  # noqa: E402  (the digits data set)


def make_mlp(hidden):
    nn = torch.nn
    return nn.Sequential(nn.Linear(64, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU(),
                         nn.Linear(hidden, 10))


class OverlapProbe:
    """Timestamps around one DDP reducer's bucket launches, progress calls and final wait."""

    WRAPPED = ("_launch_ready_buckets", "_progress", "_finalize")

    def __init__(self, reducer, MPI):
        self.r, self.MPI = reducer, MPI
        self.steps = []
        self.cur = None
        self._orig = {name: getattr(reducer, name) for name in self.WRAPPED}
        reducer._launch_ready_buckets = self._launch
        reducer._progress = self._progress
        reducer._finalize = self._finalize

    def detach(self):
        for name in self.WRAPPED:
            del self.r.__dict__[name]

    def new_step(self):
        n = len(self.r.buckets)
        self.cur = {"start": [None] * n, "done": [None] * n, "progress": 0.0, "progress_calls": 0}
        self.steps.append(self.cur)

    def _note_launches(self, now):
        start = self.cur["start"]
        for b in range(self.r.next_bucket):
            if start[b] is None:
                start[b] = now

    def _launch(self):
        self._orig["_launch_ready_buckets"]()       # may end in _finalize (the wrapper below)
        self._note_launches(time.perf_counter())

    def _progress(self):
        t0 = time.perf_counter()
        self._orig["_progress"]()
        t1 = time.perf_counter()
        self.cur["progress"] += t1 - t0
        self.cur["progress_calls"] += 1
        done = self.cur["done"]
        for b, bucket in enumerate(self.r.buckets):
            if done[b] is None and bucket.request is not None and not bucket.request:   # REQUEST_NULL
                done[b] = t1

    def _finalize(self):
        t_ws = time.perf_counter()
        self._note_launches(t_ws)
        self.MPI.Request.Waitall([b.request for b in self.r.buckets])   # the reducer's own first call
        t_we = time.perf_counter()
        self._orig["_finalize"]()                                       # its Waitall now returns at once
        t_end = time.perf_counter()
        c = self.cur
        c["done"] = [t_we if d is None else d for d in c["done"]]
        c["wait_start"], c["wait_end"], c["finalize_rest"] = t_ws, t_we, t_end - t_we

    @staticmethod
    def summarize_step(c):
        """(all-reduce wall time, hidden part, wait) of one step, from the buckets' intervals."""
        spans = sorted(zip(c["start"], c["done"]))
        union, hidden, cur_a, cur_b = 0.0, 0.0, None, None
        for a, b in spans + [(None, None)]:
            if a is not None and cur_b is not None and a <= cur_b:
                cur_b = max(cur_b, b)
                continue
            if cur_a is not None:
                union += cur_b - cur_a
                hidden += max(0.0, min(cur_b, c["wait_start"]) - cur_a)
            cur_a, cur_b = a, b
        return union, hidden, c["wait_end"] - c["wait_start"]


def rank_batches(x, y, batch, rank, world):
    """This rank's share of consecutive global batches of the (fixed) shuffled training set."""
    n = len(x) // (batch * world)
    out = []
    for i in range(n):
        lo = (i * world + rank) * batch
        out.append((torch.from_numpy(x[lo:lo + batch].copy()), torch.from_numpy(y[lo:lo + batch].copy())))
    return out


def run_config(name, cap, args, batches, comm, MPI):
    F = torch.nn.functional
    torch.manual_seed(0)
    model = make_mlp(args.hidden)
    if cap != "local":
        DDP = torch.nn.parallel.DistributedDataParallel
        model = DDP(model) if cap is None else DDP(model, bucket_cap_mb=cap)
    opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    state = {"i": 0}

    def step(probe=None):
        xb, yb = batches[state["i"] % len(batches)]
        state["i"] += 1
        if probe is not None:
            probe.new_step()
        loss = F.cross_entropy(model(xb), yb)
        opt.zero_grad()
        t0 = time.perf_counter()
        loss.backward()
        t1 = time.perf_counter()
        opt.step()
        return t1 - t0

    for _ in range(args.warmup):
        step()
    rates = []
    for _ in range(args.repeats):
        comm.Barrier()
        t0 = time.perf_counter()
        for _ in range(args.steps):
            step()
        dt = comm.allreduce(time.perf_counter() - t0, op=MPI.MAX)
        rates.append(args.steps / dt)
    result = {"name": name, "steps_s": statistics.median(rates), "rates": rates, "buckets": 0}
    if cap == "local":
        comm.Barrier()
        backward = [step() for _ in range(args.steps)]
        result["per_rank"] = comm.gather({"backward_ms": 1e3 * statistics.mean(backward)}, root=0)
        return result

    reducer = model.reducer
    buckets = reducer.buckets
    result["buckets"] = len(buckets)
    result["bucket_bytes"] = [b.buffer.nbytes for b in buckets]
    probe = OverlapProbe(reducer, MPI)
    comm.Barrier()
    backward = [step(probe) for _ in range(args.steps)]
    probe.detach()
    per = [OverlapProbe.summarize_step(c) for c in probe.steps]
    union = sum(u for u, _, _ in per)
    hidden = sum(h for _, h, _ in per)
    wait = sum(w for _, _, w in per)
    n = len(per)
    nb = len(buckets)
    mine = {
        "backward_ms": 1e3 * statistics.mean(backward),
        "allreduce_ms": 1e3 * union / n,
        "hidden_ms": 1e3 * hidden / n,
        "wait_ms": 1e3 * wait / n,
        "wait_p50_ms": 1e3 * statistics.median(w for _, _, w in per),
        "progress_ms": 1e3 * sum(c["progress"] for c in probe.steps) / n,
        "finalize_rest_ms": 1e3 * sum(c["finalize_rest"] for c in probe.steps) / n,
        "overlap": (1.0 - wait / union) if union > 0 else float("nan"),
        # per bucket: mean in-flight time and its fraction before the final wait began
        "bucket_inflight_ms": [1e3 * statistics.mean(c["done"][b] - c["start"][b] for c in probe.steps)
                               for b in range(nb)],
        "bucket_hidden": [sum(max(0.0, min(c["done"][b], c["wait_start"]) - c["start"][b]) for c in probe.steps)
                          / max(1e-12, sum(c["done"][b] - c["start"][b] for c in probe.steps))
                          for b in range(nb)],
    }

    # The same all-reduces with nothing else running: Iallreduce of every bucket, Waitall.
    bufs = [b.buffer.copy() for b in buckets]
    for _ in range(10):
        MPI.Request.Waitall([comm.Iallreduce(MPI.IN_PLACE, buf, op=MPI.SUM) for buf in bufs])
    comm.Barrier()
    reps = 200
    t0 = time.perf_counter()
    for _ in range(reps):
        MPI.Request.Waitall([comm.Iallreduce(MPI.IN_PLACE, buf, op=MPI.SUM) for buf in bufs])
    mine["alone_ms"] = 1e3 * (time.perf_counter() - t0) / reps
    result["per_rank"] = comm.gather(mine, root=0)
    return result


def parse_args(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=200, help="steps per timed repeat")
    ap.add_argument("--batch", type=int, default=64, help="batch per process")
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--warmup", type=int, default=30)
    ap.add_argument("--hidden", type=int, default=256)
    ap.add_argument("--caps", default="default,0.005",
                    help="comma-separated DDP bucket_cap_mb values to measure ('default' = DDP's own)")
    ap.add_argument("--data", default=DEFAULT_DATA)
    return ap.parse_args(argv)


def main(argv=None):
    args = parse_args(argv)
    dist = torch.distributed
    dist.init_process_group(backend="mpi")
    from mpi4py import MPI
    comm = MPI.COMM_WORLD
    rank, world = comm.Get_rank(), comm.Get_size()

    x, y = load(args.data)
    order = np.random.default_rng(0).permutation(len(x))
    train = order[len(x) // 5:]                          # the training split of the examples
    x, y = x[train].reshape(len(train), 64), y[train]
    batches = rank_batches(x, y, args.batch, rank, world)
    if not batches:
        raise SystemExit(f"--batch {args.batch} x {world} processes exceeds the {len(x)} training images")

    configs = [("local (no DDP)", "local")]
    for cap in args.caps.split(","):
        cap = cap.strip()
        configs.append(("ddp" if cap == "default" else f"ddp cap={cap}", None if cap == "default" else float(cap)))
    results = [run_config(name, cap, args, batches, comm, MPI) for name, cap in configs]

    if rank == 0:
        nparams = sum(p.numel() for p in make_mlp(args.hidden).parameters())
        lib = MPI.Get_library_version().splitlines()[0].strip()
        print(f"DDP benchmark: MLP 64-{args.hidden}-{args.hidden}-10 ({nparams} parameters, "
              f"{nparams * 4 / 1024:.0f} KiB of float32 gradients), {world} process(es) x "
              f"{torch.get_num_threads()} thread(s), batch {args.batch} per process ({args.batch * world} per "
              f"step), {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f}; {lib}")
        print(f"steps/s: median of {args.repeats} x {args.steps} steps after {args.warmup} warm-up steps "
              f"(slowest rank per repeat)\n")
        print(f"{'config':<18} {'buckets':>7} {'steps/s':>8} {'images/s':>9}   repeats (steps/s)")
        for r in results:
            print(f"{r['name']:<18} {r['buckets'] or '-':>7} {r['steps_s']:8.0f} "
                  f"{r['steps_s'] * args.batch * world:9.0f}   " + " ".join(f"{v:.0f}" for v in r["rates"]))
        print("\nOverlap (ms per step, mean over one instrumented repeat; overlap = 1 - wait / all-reduce):")
        print(f"{'config':<18} {'rank':>4} {'backward':>8} {'all-red.':>8} {'hidden':>7} {'wait':>7} {'wait50':>7} "
              f"{'progress':>8} {'finalize':>8} {'alone':>7} {'overlap':>7}   per bucket: [KiB, in flight ms, hidden]")
        for r in results:
            for rk, m in enumerate(r.get("per_rank") or []):
                if "wait_ms" not in m:
                    print(f"{r['name']:<18} {rk:>4} {m['backward_ms']:8.3f}")
                    continue
                per_bucket = "  ".join(
                    f"[{nbytes / 1024:.0f} {ms:.3f} {100 * h:.0f}%]"
                    for nbytes, ms, h in zip(r["bucket_bytes"], m["bucket_inflight_ms"], m["bucket_hidden"]))
                print(f"{r['name']:<18} {rk:>4} {m['backward_ms']:8.3f} {m['allreduce_ms']:8.3f} "
                      f"{m['hidden_ms']:7.3f} {m['wait_ms']:7.3f} {m['wait_p50_ms']:7.3f} "
                      f"{m['progress_ms']:8.3f} "
                      f"{m['finalize_rest_ms']:8.3f} "
                      f"{m['alone_ms']:7.3f} "
                      f"{100 * m['overlap']:6.1f}%   {per_bucket}")
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
