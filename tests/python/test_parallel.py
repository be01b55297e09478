"""The parallel engine: deterministic results across thread counts, concurrent backward from
Python threads, exceptions and panics, reentrant backward, and fork safety."""

import multiprocessing
import threading

import numpy as np
import pytest

import ferrograd as torch


@pytest.fixture(autouse=True)
def restore_threads():
    n = torch.get_num_threads()
    yield
    torch.set_num_threads(n)


def wide_graph_grads(seed=0, n=48, branches=8, steps=6):
    rng = np.random.default_rng(seed)
    x = torch.from_numpy(rng.standard_normal((n, n)).astype(np.float32)).requires_grad_()
    ws = [[torch.from_numpy((rng.standard_normal((n, n)) / np.sqrt(n)).astype(np.float32)).requires_grad_()
           for _ in range(steps)] for _ in range(branches)]
    total = None
    for br in ws:
        h = x
        for w in br:
            h = (h @ w).tanh()
        total = h if total is None else total + h
    total.sum().backward()
    return [x.grad.numpy().tobytes()] + [w.grad.numpy().tobytes() for br in ws for w in br]


def test_bitwise_deterministic_across_thread_counts():
    results = {}
    for threads in (1, 2, 4):
        torch.set_num_threads(threads)
        runs = [wide_graph_grads() for _ in range(20)]
        assert all(r == runs[0] for r in runs), f"not reproducible with {threads} threads"
        results[threads] = runs[0]
    assert results[1] == results[2] == results[4]


def test_concurrent_backward_from_python_threads():
    torch.set_num_threads(2)
    shared = torch.ones(16, requires_grad=True)  # Hogwild-style shared parameter
    errors = []

    def work(k):
        try:
            local = torch.full((16,), float(k), requires_grad=True)
            for _ in range(200):
                a = (shared * local).tanh()
                b = (shared + local).sigmoid()
                (a + b).sum().backward()
                local.grad = None
        except Exception as e:  # noqa: BLE001
            errors.append(e)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not any(t.is_alive() for t in threads), "a thread hung"
    assert not errors, errors
    assert shared.grad is not None and np.isfinite(shared.grad.numpy()).all()


@pytest.mark.parametrize("run", range(20))
def test_concurrent_accumulation_into_a_shared_leaf_is_exact(run):
    """Several threads backpropagating into one leaf: every contribution lands (the leaf's
    read-add-write is one step), as in PyTorch."""
    torch.set_num_threads(2)
    w = torch.zeros(4, requires_grad=True)
    n_threads, steps = 8, 50

    def work():
        for _ in range(steps):
            (w * 2.0 + 1.0).sum().backward()

    threads = [threading.Thread(target=work) for _ in range(n_threads)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not any(t.is_alive() for t in threads), "a thread hung"
    assert w.grad.tolist() == [2.0 * n_threads * steps] * 4


class Boom(Exception):
    pass


def test_hook_exception_mid_graph_in_parallel_mode():
    torch.set_num_threads(2)
    x = torch.randn(8, 8, requires_grad=True)
    branches = [(x @ torch.randn(8, 8)).tanh() for _ in range(4)]
    branches[2].register_hook(lambda g: (_ for _ in ()).throw(Boom("in hook")))
    with pytest.raises(Boom, match="in hook"):
        sum(branches).sum().backward()
    # the engine is still usable
    y = torch.randn(8, 8, requires_grad=True)
    sum((y @ torch.randn(8, 8)).tanh() for _ in range(4)).sum().backward()
    assert y.grad is not None


def test_function_exception_keeps_traceback():
    class Fails(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            raise Boom("in Function.backward")

    torch.set_num_threads(2)
    x = torch.randn(4, requires_grad=True)
    y = Fails.apply(x) + (x * 3).tanh() + (x * 4).sin()
    with pytest.raises(Boom) as info:
        y.sum().backward()
    assert "backward" in "".join(str(f.name) for f in info.traceback)


@pytest.mark.parametrize("threads", [1, 2])
def test_rust_panic_becomes_runtime_error(threads):
    torch.set_num_threads(threads)
    x = torch.randn(4, requires_grad=True)
    y = torch._C._panicking_identity(x)
    z = (y.tanh() + (x * 2).sin()).sum()
    with pytest.raises(RuntimeError, match="panic"):
        z.backward()
    (x * 2).sum().backward()
    assert x.grad.tolist() == [2.0] * 4


def test_reentrant_backward_depth_100():
    class Reenter(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x, depth):
            ctx.depth = depth
            ctx.save_for_backward(x)
            return x * 1.0

        @staticmethod
        def backward(ctx, g):
            x, = ctx.saved_tensors
            if ctx.depth > 0:
                with torch.enable_grad():
                    inner = x.detach().requires_grad_()
                    out = Reenter.apply(inner * 1.0, ctx.depth - 1)
                    gi, = torch.autograd.grad(out.sum(), inner)
                return g * gi, None
            return g, None

    torch.set_num_threads(2)
    x = torch.ones(3, requires_grad=True)
    Reenter.apply(x, 100).sum().backward()
    assert x.grad.tolist() == [1.0, 1.0, 1.0]


def _child(q):
    try:
        x = torch.ones(4, requires_grad=True)
        sum((x * k).tanh() for k in range(4)).sum().backward()
        q.put(x.grad.tolist())
    except Exception as e:  # noqa: BLE001
        q.put(repr(e))


def test_fork_child_runs_backward():
    torch.set_num_threads(2)
    wide_graph_grads()  # the parent's pool exists before the fork
    ctx = multiprocessing.get_context("fork")
    q = ctx.Queue()
    p = ctx.Process(target=_child, args=(q,))
    p.start()
    p.join(timeout=60)
    assert p.exitcode == 0
    grads = q.get(timeout=5)
    assert isinstance(grads, list) and len(grads) == 4



def _fork_child_backward(q):
    x = torch.ones(64, requires_grad=True)
    sum((x * k).tanh() for k in range(8)).sum().backward()
    q.put(x.grad.sum().item())


@pytest.mark.parametrize("run", range(20))
def test_fork_while_another_thread_runs_backward(run):
    """Forking while another Python thread is inside backward(): the child never inherits a
    held lock (at-fork handlers), so its own backward completes."""
    torch.set_num_threads(2)
    stop = threading.Event()

    def busy():
        w = torch.randn(128, 128, requires_grad=True)
        while not stop.is_set():
            ((w @ w).tanh() * 2).sum().backward()
            w.grad = None

    t = threading.Thread(target=busy)
    t.start()
    ctx = multiprocessing.get_context("fork")
    try:
        for _ in range(4):
            q = ctx.Queue()
            p = ctx.Process(target=_fork_child_backward, args=(q,))
            p.start()
            p.join(timeout=60)
            if p.exitcode is None:
                p.kill()
                pytest.fail("the forked child hung")
            assert p.exitcode == 0
            expected = sum((1 - __import__("math").tanh(k) ** 2) * k for k in range(8)) * 64
            assert abs(q.get(timeout=5) - expected) < 1e-3
    finally:
        stop.set()
        t.join(timeout=60)
