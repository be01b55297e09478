"""The digits classifier of train_digits.py, trained data-parallel across processes with
DistributedDataParallel on MPI.

    mpiexec -n 2 python examples/train_digits_ddp.py [--epochs N] [--model cnn|mlp] [--batch B]
    mpiexec -n 8 -f hostfile python examples/train_digits_ddp.py      # several machines (docs/distributed.md)

Every process loads the data set, takes its share of the training images each epoch through a
DistributedSampler, and trains a replica of the model wrapped in DistributedDataParallel: the
gradients are averaged across the processes during backward, so the replicas stay identical.
``--batch`` is the batch per process (default: 64 split over the processes, so that the
optimisation -- a global batch of 64 -- is the same for any number of processes). Rank 0 prints
the progress, the test accuracy and the throughput.

The code is PyTorch code: ``import ferrograd as torch`` is the only line naming ferrograd.
"""

import argparse
import os
import sys
import time

import numpy as np

try:
    import ferrograd as torch  # the one line naming ferrograd
except ImportError:
    import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from train_digits import DEFAULT_DATA, load, make_model  # noqa: E402  (the same data and CNN)


def make_mlp():
    nn = torch.nn
    return nn.Sequential(nn.Flatten(), nn.Linear(64, 128), nn.ReLU(), nn.Linear(128, 64), nn.ReLU(),
                         nn.Linear(64, 10))


def parse_args(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default=DEFAULT_DATA)
    ap.add_argument("--epochs", type=int, default=10)
    ap.add_argument("--batch", type=int, default=None, help="batch per process (default: 64 // processes)")
    ap.add_argument("--lr", type=float, default=1e-2, help="peak learning rate of the one-cycle schedule")
    ap.add_argument("--weight-decay", type=float, default=1e-2)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--model", choices=["cnn", "mlp"], default="cnn")
    ap.add_argument("--dist-backend", default="mpi")
    return ap.parse_args(argv)


def main(argv=None):
    args = parse_args(argv)
    dist = torch.distributed
    nn, F = torch.nn, torch.nn.functional
    DataLoader, TensorDataset = torch.utils.data.DataLoader, torch.utils.data.TensorDataset
    DistributedSampler = torch.utils.data.distributed.DistributedSampler
    DDP = torch.nn.parallel.DistributedDataParallel

    dist.init_process_group(backend=args.dist_backend)
    rank, world = dist.get_rank(), dist.get_world_size()
    batch = args.batch or max(1, 64 // world)

    torch.manual_seed(args.seed)
    x, y = load(args.data)
    order = np.random.default_rng(args.seed).permutation(len(x))
    n_test = len(x) // 5
    test, train = order[:n_test], order[n_test:]
    train_ds = TensorDataset(torch.from_numpy(x[train]), torch.from_numpy(y[train]))
    mine = test[rank::world]                                        # this rank's test images, no padding
    test_ds = TensorDataset(torch.from_numpy(x[mine]), torch.from_numpy(y[mine]))
    sampler = DistributedSampler(train_ds, seed=args.seed)          # this rank's share, reshuffled per epoch
    train_dl = DataLoader(train_ds, batch_size=batch, sampler=sampler)
    test_dl = DataLoader(test_ds, batch_size=512)

    model = DDP(make_model() if args.model == "cnn" else make_mlp())  # rank 0's initial weights everywhere
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=args.weight_decay)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=args.lr, epochs=args.epochs,
                                                steps_per_epoch=len(train_dl))
    if rank == 0:
        print(f"digits: {len(train)} train / {len(test)} test images; {world} process(es), batch {batch} per "
              f"process ({batch * world} per step), model {args.model}  [{torch.__name__}]", flush=True)

    dist.barrier()
    start = time.perf_counter()
    for epoch in range(1, args.epochs + 1):
        model.train()
        sampler.set_epoch(epoch)
        t0 = time.perf_counter()
        stats = torch.zeros(3, dtype=torch.float64)                 # loss sum, correct, seen (this rank)
        for xb, yb in train_dl:
            logits = model(xb)
            loss = F.cross_entropy(logits, yb)
            opt.zero_grad()
            loss.backward()                                         # gradients averaged across ranks here
            opt.step()
            sched.step()
            stats += torch.tensor([loss.item() * len(yb), (logits.argmax(1) == yb).sum().item(), len(yb)],
                                  dtype=torch.float64)
        dist.all_reduce(stats)                                      # every rank's share of the epoch
        acc = evaluate(model, test_dl, dist)
        if rank == 0:
            loss_sum, correct, seen = stats.tolist()
            dt = time.perf_counter() - t0
            print(f"epoch {epoch:3d}/{args.epochs}  loss {loss_sum / seen:.4f}  train acc {correct / seen:.3f}  "
                  f"test acc {acc:.3f}  {seen / dt:7.0f} img/s  {dt:5.2f}s", flush=True)
    elapsed = time.perf_counter() - start

    acc = evaluate(model, test_dl, dist)
    if rank == 0:
        images = args.epochs * len(sampler) * world
        print(f"test accuracy: {acc * 100:.2f}%  ({len(test)} images)")
        print(f"training time: {elapsed:.2f} s for {args.epochs} epochs on {world} process(es)  "
              f"({images / elapsed:.0f} training images/s)")
    dist.destroy_process_group()
    return acc


def evaluate(model, loader, dist):
    """Accuracy over the whole test set: each rank scores its share, the counts are summed."""
    model.eval()
    counts = torch.zeros(2, dtype=torch.int64)
    with torch.no_grad():
        for xb, yb in loader:
            counts += torch.tensor([(model(xb).argmax(1) == yb).sum().item(), len(yb)])
    dist.all_reduce(counts)
    correct, total = counts.tolist()
    return correct / total


if __name__ == "__main__":
    main()
