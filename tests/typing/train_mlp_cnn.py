"""A typical PyTorch training script, written against ``torch`` and run as ``ferrograd``.

tests/python/test_typing.py type-checks this file with mypy (and pyright) and expects zero
errors; it also runs it, so the script stays a real, working program.
"""

from __future__ import annotations

import math
import tempfile

import ferrograd as torch
import ferrograd.nn as nn
import ferrograd.nn.functional as F
from ferrograd import Tensor
from ferrograd.autograd.function import FunctionCtx
from ferrograd.optim.lr_scheduler import StepLR
from ferrograd.utils.data import DataLoader, Dataset, TensorDataset


class Blobs(Dataset[tuple[Tensor, Tensor]]):
    """Two Gaussian blobs of 8x8 'images', labelled 0 and 1."""

    def __init__(self, n: int, generator: torch.Generator) -> None:
        self.labels = torch.randint(0, 2, (n,), generator=generator)
        noise = torch.randn(n, 1, 8, 8, generator=generator)
        self.images = noise + self.labels.view(n, 1, 1, 1).float() * 2.0 - 1.0

    def __len__(self) -> int:
        return len(self.labels)

    def __getitem__(self, i: int) -> tuple[Tensor, Tensor]:
        return self.images[i], self.labels[i]


class MLP(nn.Module):
    def __init__(self, d_in: int, hidden: int, d_out: int) -> None:
        super().__init__()
        self.fc1 = nn.Linear(d_in, hidden)
        self.fc2 = nn.Linear(hidden, d_out)
        self.drop = nn.Dropout(0.1)

    def forward(self, x: Tensor) -> Tensor:
        h = F.relu(self.fc1(x.flatten(1)))
        return self.fc2(self.drop(h))


class CNN(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, 4, kernel_size=3, padding=1),
            nn.BatchNorm2d(4),
            nn.ReLU(),
            nn.MaxPool2d(2),
        )
        self.head = nn.Linear(4 * 4 * 4, 2)

    def forward(self, x: Tensor) -> Tensor:
        return self.head(torch.flatten(self.features(x), 1))


class Square(torch.autograd.Function):
    @staticmethod
    def forward(ctx: FunctionCtx, x: Tensor) -> Tensor:
        ctx.save_for_backward(x)
        return x * x

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> Tensor:
        (x,) = ctx.saved_tensors
        return 2 * x * grad


def accuracy(model: nn.Module, loader: DataLoader[tuple[Tensor, Tensor]]) -> float:
    model.eval()
    correct = 0
    total = 0
    with torch.no_grad():
        for x, y in loader:
            pred = model(x).argmax(dim=1)
            correct += int((pred == y).sum().item())
            total += y.numel()
    model.train()
    return correct / total


def train(model: nn.Module, epochs: int = 3) -> float:
    g = torch.Generator().manual_seed(0)
    train_set = Blobs(256, g)
    loader = DataLoader(train_set, batch_size=32, shuffle=True, generator=g)
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, weight_decay=1e-4)
    sched = StepLR(opt, step_size=2, gamma=0.5)
    for epoch in range(epochs):
        running = 0.0
        for x, y in loader:
            opt.zero_grad()
            logits = model(x)
            loss = F.cross_entropy(logits, y)
            loss.backward()
            nn.utils.clip_grad_norm_(model.parameters(), max_norm=5.0)
            opt.step()
            running += loss.item() * x.shape[0]
        sched.step()
        print(f"epoch {epoch}: loss {running / len(train_set):.4f} lr {sched.get_last_lr()[0]:.3f}")
    return accuracy(model, DataLoader(Blobs(128, torch.Generator().manual_seed(1)), batch_size=64))


def tensor_basics() -> None:
    x = torch.arange(12, dtype=torch.float32).reshape(3, 4).requires_grad_()
    y = (x @ x.T + 1) ** 2 / 3 - x.sum(dim=1, keepdim=True)
    z = y[0, 1:] * y[:, -1].mean() + torch.exp(-x[1]).sum()
    z.sum().backward()
    assert x.grad is not None
    print(x.grad.shape, len(x), float(z[0]), int(x[0, 1]), bool(x[0, 0] == 0))
    for row in x.detach():
        print(row.tolist())
    values, indices = x.max(dim=1)
    n: int = x.size(0)
    shape: torch.Size = x.size()
    print(values, indices, n, shape.numel(), x.dtype == torch.float32, x.device, math.prod(x.shape))
    w = torch.tensor([1.5, -2.0], requires_grad=True)
    sq = Square.apply(w)
    (g,) = torch.autograd.grad(sq.sum(), w)
    print(g, torch.zeros_like(w), torch.ones(2, 3).numpy().shape)
    h = w.register_hook(lambda grad: grad * 2)
    h.remove()
    with torch.enable_grad(), torch.set_grad_enabled(True):
        print(torch.is_grad_enabled())
    mask = torch.rand(2, 3) > 0.5
    print(torch.where(mask, torch.ones(2, 3), torch.zeros(2, 3)), torch.cat([w, w]), torch.stack([w, w], dim=0))


@torch.no_grad()
def evaluate(model: nn.Module, x: Tensor) -> Tensor:
    return F.softmax(model(x), dim=-1)


def main() -> None:
    torch.manual_seed(0)
    tensor_basics()
    mlp = MLP(64, 32, 2)
    cnn = CNN()
    print(f"MLP accuracy {train(mlp):.2f}")
    print(f"CNN accuracy {train(cnn):.2f}")
    probs = evaluate(cnn, torch.randn(4, 1, 8, 8))
    print(probs.sum(1))
    with tempfile.TemporaryDirectory() as d:
        torch.save(cnn.state_dict(), f"{d}/cnn.pt")
        cnn2 = CNN()
        cnn2.load_state_dict(torch.load(f"{d}/cnn.pt"))
        cnn2.to(torch.device("cpu"))
    params = sum(p.numel() for p in cnn.parameters() if p.requires_grad)
    print("parameters:", params)


if __name__ == "__main__":
    main()
