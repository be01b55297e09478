"""The main job: train a small CNN on handwritten digits with ferrograd, end to end.

The UCI optical-digits set (1797 8x8 images, CC BY 4.0, see data/README.md) ships with the
project. A small convolutional network (Conv2d, BatchNorm2d, MaxPool2d, Dropout, Flatten,
Linear) is trained with AdamW and a one-cycle learning-rate schedule on mini-batches from a
DataLoader (shuffled by a seeded Generator); a progress display shows each epoch (tqdm when it is
installed and stdout is a terminal, plain lines with rate and ETA otherwise); a checkpoint is
written with ``torch.save`` after every epoch (``--resume`` continues from it); loss/accuracy
curves go to a PNG when matplotlib is installed. The script ends by printing test accuracy and
wall time.

    python examples/train_digits.py [--epochs N] [--seed S] [--device cuda] [--resume]
                                    [--compare-torch] [--backend torch]

The code is PyTorch code: ``import ferrograd as torch`` below is the only line that names
ferrograd, and ``--backend torch`` (or replacing that line by ``import torch``) runs it on
PyTorch; ``--compare-torch`` does that in a second process and prints both timings.
"""

import argparse
import gzip
import importlib
import importlib.util
import json
import math
import os
import subprocess
import sys
import tempfile
import time

import numpy as np

try:
    import ferrograd as torch  # the one line naming ferrograd: `import torch` runs all of this on PyTorch
except ImportError:  # an interpreter that has only PyTorch (e.g. --compare-torch's child process)
    import torch

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_DATA = os.path.join(HERE, "..", "data", "digits.csv.gz")


def load(path):
    with gzip.open(path, "rt") as fh:
        raw = np.loadtxt(fh, delimiter=",", dtype=np.float32)
    x, y = raw[:, :64] / 16.0, raw[:, 64].astype(np.int64)
    return x.reshape(-1, 1, 8, 8), y


def make_model():
    nn = torch.nn
    return nn.Sequential(
        nn.Conv2d(1, 16, kernel_size=3, padding=1),   # 16 x 8 x 8
        nn.BatchNorm2d(16),
        nn.ReLU(),
        nn.MaxPool2d(2),                              # 16 x 4 x 4
        nn.Conv2d(16, 32, kernel_size=3, padding=1),  # 32 x 4 x 4
        nn.BatchNorm2d(32),
        nn.ReLU(),
        nn.MaxPool2d(2),                              # 32 x 2 x 2
        nn.Flatten(),
        nn.Dropout(0.25),
        nn.Linear(128, 64),
        nn.ReLU(),
        nn.Dropout(0.25),
        nn.Linear(64, 10),
    )


# ----------------------------------------------------------------------------- progress display

class Progress:
    """One epoch's progress: a tqdm bar on a terminal when tqdm is installed, otherwise one
    plain line per epoch with the batch rate and the estimated time left for the run."""

    def __init__(self, epochs, batches, mode="auto"):
        self.epochs, self.batches = epochs, batches
        tqdm = None
        if mode in ("auto", "tqdm") and importlib.util.find_spec("tqdm") is not None:
            if mode == "tqdm" or sys.stdout.isatty():
                from tqdm import tqdm
        self.tqdm = tqdm
        self.bar = None
        self.epoch_times = []

    def start(self, epoch):
        self.epoch = epoch
        self.t0 = time.perf_counter()
        if self.tqdm is not None:
            self.bar = self.tqdm(total=self.batches, desc=f"epoch {epoch}/{self.epochs}", unit="batch",
                                 leave=True, dynamic_ncols=True, file=sys.stdout)

    def step(self, loss):
        if self.bar is not None:
            self.bar.update(1)
            self.bar.set_postfix(loss=f"{loss:.4f}", refresh=False)

    def end(self, train_loss, train_acc, test_acc, lr):
        dt = time.perf_counter() - self.t0
        self.epoch_times.append(dt)
        rate = self.batches / dt if dt > 0 else float("inf")
        left = (self.epochs - self.epoch) * (sum(self.epoch_times) / len(self.epoch_times))
        if self.bar is not None:
            self.bar.set_postfix(loss=f"{train_loss:.4f}", acc=f"{train_acc:.3f}", test=f"{test_acc:.3f}")
            self.bar.close()
        else:
            print(f"epoch {self.epoch:3d}/{self.epochs}  loss {train_loss:.4f}  train acc {train_acc:.3f}  "
                  f"test acc {test_acc:.3f}  lr {lr:.2e}  {rate:6.1f} batch/s  {dt:5.2f}s  eta {left:5.1f}s",
                  flush=True)


# ----------------------------------------------------------------------------- training

def evaluate(model, loader, dev):
    model.eval()
    correct = total = 0
    with torch.no_grad():
        for xb, yb in loader:
            xb, yb = xb.to(dev), yb.to(dev)
            correct += (model(xb).argmax(1) == yb).sum().item()
            total += len(yb)
    return correct / total


def save_plot(history, path):
    if importlib.util.find_spec("matplotlib") is None:
        return None
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    epochs = list(range(1, len(history["loss"]) + 1))
    fig, (a1, a2) = plt.subplots(1, 2, figsize=(9, 3.5))
    a1.plot(epochs, history["loss"], marker="o")
    a1.set_xlabel("epoch")
    a1.set_ylabel("train loss")
    a1.set_yscale("log")
    a2.plot(epochs, history["train_acc"], marker="o", label="train")
    a2.plot(epochs, history["test_acc"], marker="o", label="test")
    a2.set_xlabel("epoch")
    a2.set_ylabel("accuracy")
    a2.legend()
    from matplotlib.ticker import MaxNLocator

    for ax in (a1, a2):
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    fig.suptitle(f"digits CNN ({torch.__name__})")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path


def parse_args(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default=DEFAULT_DATA)
    ap.add_argument("--epochs", type=int, default=10)
    ap.add_argument("--batch", type=int, default=64)
    ap.add_argument("--lr", type=float, default=1e-2, help="peak learning rate of the one-cycle schedule")
    ap.add_argument("--weight-decay", type=float, default=1e-2)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--device", default="cpu", help="cpu, cuda or cuda:N")
    ap.add_argument("--checkpoint", default=None,
                    help="checkpoint file, written after every epoch (default: in the temp directory)")
    ap.add_argument("--resume", action="store_true",
                    help="continue the run saved in --checkpoint to the end of its schedule")
    ap.add_argument("--stop-after", type=int, default=None, metavar="N",
                    help="stop after epoch N, as an interrupted run would (then --resume)")
    ap.add_argument("--plot", default=None, help="PNG of the curves (needs matplotlib; default: beside the checkpoint)")
    ap.add_argument("--progress", choices=["auto", "tqdm", "plain"], default="auto")
    ap.add_argument("--backend", choices=["ferrograd", "torch"], default=None,
                    help="run on this library instead of the one imported above")
    ap.add_argument("--compare-torch", action="store_true",
                    help="afterwards run the same script on PyTorch (if importable) and print both timings")
    ap.add_argument("--torch-python", default=None,
                    help="interpreter that has PyTorch, for --compare-torch when this one does not")
    ap.add_argument("--result-json", default=None, help=argparse.SUPPRESS)
    return ap.parse_args(argv)


def main(argv=None):
    global torch
    args = parse_args(argv)
    if args.backend is not None and args.backend != torch.__name__:
        torch = importlib.import_module(args.backend)
    nn, F = torch.nn, torch.nn.functional
    from_numpy = torch.from_numpy
    DataLoader, TensorDataset = torch.utils.data.DataLoader, torch.utils.data.TensorDataset

    torch.manual_seed(args.seed)
    x, y = load(args.data)
    order = np.random.default_rng(args.seed).permutation(len(x))
    n_test = len(x) // 5
    test, train = order[:n_test], order[n_test:]
    dev = torch.device(args.device)
    train_ds = TensorDataset(from_numpy(x[train]), from_numpy(y[train]))
    test_ds = TensorDataset(from_numpy(x[test]), from_numpy(y[test]))
    gen = torch.Generator().manual_seed(args.seed)
    train_dl = DataLoader(train_ds, batch_size=args.batch, shuffle=True, generator=gen)
    test_dl = DataLoader(test_ds, batch_size=512)
    print(f"digits: {len(train)} train / {len(test)} test images, 1x8x8, 10 classes  [{torch.__name__}]")

    ckpt_path = args.checkpoint or os.path.join(tempfile.gettempdir(), "train_digits", torch.__name__, "last.pt")
    os.makedirs(os.path.dirname(os.path.abspath(ckpt_path)), exist_ok=True)
    state = None
    if args.resume:
        if not os.path.exists(ckpt_path):
            sys.exit(f"--resume: no checkpoint at {ckpt_path}")
        state = torch.load(ckpt_path)
        if state["epochs"] != args.epochs:
            print(f"resume: the checkpoint's schedule has {state['epochs']} epochs; continuing it")
            args.epochs = state["epochs"]

    model = make_model().to(dev)
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=args.weight_decay)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=args.lr, epochs=args.epochs,
                                                steps_per_epoch=len(train_dl))
    history = {"loss": [], "train_acc": [], "test_acc": []}
    first_epoch = 1
    if state is not None:
        model.load_state_dict(state["model"])
        opt.load_state_dict(state["optimizer"])
        sched.load_state_dict(state["scheduler"])
        gen.set_state(state["generator"])
        torch.set_rng_state(state["rng"])   # the dropout masks continue as in an uninterrupted run
        history = state["history"]
        first_epoch = state["epoch"] + 1
        print(f"resumed from {ckpt_path} after epoch {state['epoch']}")

    progress = Progress(args.epochs, len(train_dl), args.progress)
    start = time.perf_counter()
    for epoch in range(first_epoch, args.epochs + 1):
        model.train()
        progress.start(epoch)
        total, correct, seen = 0.0, 0, 0
        for xb, yb in train_dl:
            xb, yb = xb.to(dev), yb.to(dev)
            logits = model(xb)
            loss = F.cross_entropy(logits, yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            li = loss.item()
            total += li * len(yb)
            correct += (logits.argmax(1) == yb).sum().item()
            seen += len(yb)
            progress.step(li)
        test_acc = evaluate(model, test_dl, dev)
        history["loss"].append(total / seen)
        history["train_acc"].append(correct / seen)
        history["test_acc"].append(test_acc)
        progress.end(total / seen, correct / seen, test_acc, sched.get_last_lr()[0])
        torch.save({"epoch": epoch, "epochs": args.epochs, "model": model.state_dict(),
                    "optimizer": opt.state_dict(), "scheduler": sched.state_dict(),
                    "generator": gen.get_state(), "rng": torch.get_rng_state(), "history": history}, ckpt_path)
        if args.stop_after is not None and epoch >= args.stop_after:
            break
    elapsed = time.perf_counter() - start

    acc = evaluate(model, test_dl, dev)
    print(f"test accuracy: {acc * 100:.2f}%  ({len(test)} images)")
    print(f"training time: {elapsed:.2f} s for {len(history['loss']) - first_epoch + 1} epochs  "
          f"(checkpoint: {ckpt_path})")
    plot = args.plot or os.path.join(os.path.dirname(os.path.abspath(ckpt_path)), "curves.png")
    if history["loss"] and save_plot(history, plot):
        print(f"curves: {plot}")
    if args.result_json:
        with open(args.result_json, "w") as fh:
            json.dump({"accuracy": acc, "seconds": elapsed, "library": torch.__name__}, fh)
    if args.compare_torch and torch.__name__ != "torch":
        compare_with_torch(args, acc, elapsed)
    return acc


def compare_with_torch(args, acc, elapsed):
    """Runs this script again on PyTorch in a child process and prints both timings."""
    python = args.torch_python or sys.executable
    if args.torch_python is None and importlib.util.find_spec("torch") is None:
        print("compare: PyTorch is not importable here (pass --torch-python PATH to use another interpreter)")
        return
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "torch.json")
        cmd = [python, os.path.abspath(__file__), "--backend", "torch", "--epochs", str(args.epochs),
               "--batch", str(args.batch), "--lr", str(args.lr), "--weight-decay", str(args.weight_decay),
               "--seed", str(args.seed), "--data", args.data, "--progress", "plain",
               "--checkpoint", os.path.join(tmp, "torch.pt"), "--plot", os.path.join(tmp, "torch.png"),
               "--result-json", out]
        res = subprocess.run(cmd, capture_output=True, text=True)
        if res.returncode != 0 or not os.path.exists(out):
            print(f"compare: the PyTorch run failed:\n{res.stderr.strip()[-2000:]}")
            return
        with open(out) as fh:
            other = json.load(fh)
    print(f"compare: {torch.__name__:<9} {elapsed:7.2f} s  test accuracy {acc * 100:.2f}%")
    print(f"compare: {'torch':<9} {other['seconds']:7.2f} s  test accuracy {other['accuracy'] * 100:.2f}%")
    ratio = elapsed / other["seconds"] if other["seconds"] > 0 else math.inf
    print(f"compare: {torch.__name__} takes {ratio:.2f}x PyTorch's time")


if __name__ == "__main__":
    main()
