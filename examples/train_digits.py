"""The main job: train a small classifier on handwritten digits with ferrograd, end to end.

The UCI optical-digits set (1797 8x8 images, CC BY 4.0, see data/README.md) ships with the
project. A 64-128-10 MLP is trained with Adam on mini-batches; a progress bar shows the
epochs; the script ends by printing test accuracy and wall time.

    python examples/train_digits.py [--epochs N] [--seed S] [--device cuda]
"""

import argparse
import gzip
import os
import sys
import time

import numpy as np

import ferrograd as torch
import ferrograd.nn as nn
import ferrograd.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_DATA = os.path.join(HERE, "..", "data", "digits.csv.gz")


def load(path):
    with gzip.open(path, "rt") as fh:
        raw = np.loadtxt(fh, delimiter=",", dtype=np.float32)
    x, y = raw[:, :64] / 16.0, raw[:, 64].astype(np.int64)
    return x, y


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(64, 128)
        self.fc2 = nn.Linear(128, 10)

    def forward(self, x):
        return self.fc2(F.relu(self.fc1(x)))


def progress(epoch, epochs, loss, acc, width=30):
    done = int(width * epoch / epochs)
    bar = "#" * done + "." * (width - done)
    sys.stdout.write(f"\r[{bar}] epoch {epoch:3d}/{epochs}  loss {loss:.4f}  train acc {acc:.3f}")
    sys.stdout.flush()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default=DEFAULT_DATA)
    ap.add_argument("--epochs", type=int, default=30)
    ap.add_argument("--batch", type=int, default=32)
    ap.add_argument("--lr", type=float, default=1e-2)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--device", default="cpu", help="cpu, cuda or cuda:N")
    args = ap.parse_args()

    torch.manual_seed(args.seed)
    x, y = load(args.data)
    rng = np.random.default_rng(args.seed)
    order = rng.permutation(len(x))
    n_test = len(x) // 5
    test, train = order[:n_test], order[n_test:]
    dev = torch.device(args.device)
    xtr, ytr = torch.from_numpy(x[train]).to(dev), torch.from_numpy(y[train]).to(dev)
    xte, yte = torch.from_numpy(x[test]).to(dev), torch.from_numpy(y[test]).to(dev)
    print(f"digits: {len(train)} train / {len(test)} test images, 64 features, 10 classes")

    model = MLP().to(dev)
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    start = time.perf_counter()
    for epoch in range(1, args.epochs + 1):
        perm = torch.from_numpy(rng.permutation(len(train))).to(dev)
        total, correct = 0.0, 0
        for i in range(0, len(train), args.batch):
            idx = perm[i:i + args.batch]
            xb, yb = xtr[idx], ytr[idx]
            logits = model(xb)
            loss = F.cross_entropy(logits, yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item() * len(idx)
            correct += (logits.argmax(1) == yb).sum().item()
        progress(epoch, args.epochs, total / len(train), correct / len(train))
    elapsed = time.perf_counter() - start
    print()
    with torch.no_grad():
        acc = (model(xte).argmax(1) == yte).float().mean().item()
    print(f"test accuracy: {acc * 100:.2f}%  ({len(test)} images)")
    print(f"training time: {elapsed:.2f} s for {args.epochs} epochs")
    return acc


if __name__ == "__main__":
    main()
