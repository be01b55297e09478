"""What PyTorch's autograd lacks or gets wrong, each with a test PyTorch would fail."""

import gc
import os
import time

import pytest

import ferrograd as torch


def rss_mb():
    with open("/proc/self/statm") as fh:
        return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def penalty_step():
    # A fresh parameter each step, trained with a gradient penalty via backward(create_graph=True).
    # PyTorch leaks each step here: param -> .grad -> grad's graph -> AccumulateGrad -> param.
    w = torch.randn(4096, requires_grad=True)
    x = torch.randn(4096)
    y = ((w * x).tanh() ** 2).sum()
    y.backward(create_graph=True)
    penalty = (w.grad ** 2).sum()
    penalty.backward()
    return penalty.item()


@pytest.mark.skipif(not os.path.exists("/proc/self/statm"), reason="needs /proc to read resident memory")
def test_create_graph_does_not_leak_over_10k_steps():
    for _ in range(500):
        penalty_step()
    gc.collect()
    before = rss_mb()
    for _ in range(10_000):
        penalty_step()
    gc.collect()
    grown = rss_mb() - before
    # a leak of the ~100 KiB each step holds would be ~1 GiB; allow generous noise
    assert grown < 64, f"resident memory grew by {grown:.1f} MiB over 10k steps"


def chain(n):
    x = torch.tensor([1.0], requires_grad=True)
    y = x
    t0 = time.perf_counter()
    for _ in range(n):
        y = y * 1.0
    y.sum().backward()
    del y
    return x, time.perf_counter() - t0


def test_million_node_chain_no_recursion_linear_time():
    x, t_small = chain(100_000)
    assert x.grad.item() == 1.0
    x, t_big = chain(1_000_000)
    assert x.grad.item() == 1.0
    # linear would be 10x; allow noise but reject quadratic behaviour
    assert t_big < 25 * t_small + 1.0


def test_saved_tensors_report_matches_hand_count():
    x = torch.ones(1000, requires_grad=True)  # 4000 bytes
    e = x.exp()  # ExpBackward0 saves its output: 4000 bytes
    y = e * x  # MulBackward0 saves e (already counted) and x: 4000 more
    r = torch.autograd.graph.saved_tensors_report(y)
    assert r["nodes"] == 3
    assert r["total_bytes"] == 8000
    per = {name: b for name, _, b in r["per_node"]}
    assert per == {"MulBackward0": 8000, "ExpBackward0": 4000, "AccumulateGrad": 0}
    y.sum().backward()
    assert torch.autograd.graph.saved_tensors_report(y)["total_bytes"] == 0  # freed by backward


def test_anomaly_mode_names_first_nan_node():
    x = torch.tensor([-1.0, 4.0], requires_grad=True)
    y = (x.sqrt() * 2).sum()  # sqrt(-1) is nan; its backward is the first to produce nan
    with pytest.warns(UserWarning):
        ctx = torch.autograd.detect_anomaly()
    with ctx:
        with pytest.raises(RuntimeError) as info:
            y.backward()
    # PyTorch's message, one line
    assert str(info.value) == "Function 'SqrtBackward0' returned nan values in its 0th output."
    # off again: no check
    x.grad = None
    (x.sqrt() * 2).sum().backward()


def test_saved_tensors_hooks_pack_unpack():
    packed = []

    def pack(t):
        packed.append(tuple(t.shape))
        return t * 1  # a copy stands in for offloading

    def unpack(t):
        return t

    x = torch.tensor([1.0, 2.0], requires_grad=True)
    with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
        y = x * x
    assert packed == [(2,), (2,)]
    y.sum().backward()
    assert x.grad.tolist() == [2.0, 4.0]


@pytest.mark.skipif(not os.path.exists("/proc/self/statm"), reason="needs /proc to read resident memory")
def test_training_loop_memory_is_flat():
    import ferrograd.nn as nn
    import ferrograd.nn.functional as F

    model = nn.Sequential(nn.Linear(64, 128), nn.ReLU(), nn.Linear(128, 10))
    opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    x, y = torch.randn(32, 64), torch.randint(0, 10, (32,))

    def steps(n):
        for _ in range(n):
            loss = F.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()

    steps(500)
    before = rss_mb()
    steps(5000)
    assert rss_mb() - before < 8, "resident memory grew over 5000 training steps"


def test_anomaly_mode_shows_forward_trace():
    import warnings

    x = torch.tensor([-1.0, 4.0], requires_grad=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with torch.autograd.detect_anomaly():
            y = (x.sqrt() * 2).sum()  # the forward call the warning must point at
            with pytest.raises(RuntimeError):
                y.backward()
    texts = [str(w.message) for w in caught]
    hit = [t for t in texts if t.startswith("Error detected in SqrtBackward0. Traceback of forward call that caused the error:")]
    assert hit and "x.sqrt() * 2" in hit[0]
