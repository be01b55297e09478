"""Results live on their inputs' device (factories, ops, autograd, transfers), and without a GPU
every CUDA request raises PyTorch's error instead of silently running on the CPU."""

import subprocess
import sys

import numpy as np
import pytest

import ferrograd as torch
from conftest import expected_device, to_np

R = np.random.RandomState(7)
X = R.uniform(-2.0, 2.0, size=(3, 4))
W = R.uniform(-1.0, 1.0, size=(4, 2))

FACTORIES = [
    ("tensor", lambda d: torch.tensor([1.0, 2.0], device=d)),
    ("as_tensor", lambda d: torch.as_tensor([1.0, 2.0], device=d)),
    ("zeros", lambda d: torch.zeros(2, 3, device=d)),
    ("ones", lambda d: torch.ones(2, 3, device=d)),
    ("empty", lambda d: torch.empty(2, 3, device=d)),
    ("full", lambda d: torch.full((2,), 1.5, device=d)),
    ("arange", lambda d: torch.arange(5, device=d)),
    ("linspace", lambda d: torch.linspace(0, 1, 4, device=d)),
    ("eye", lambda d: torch.eye(3, device=d)),
    ("randn", lambda d: torch.randn(4, device=d)),
    ("rand", lambda d: torch.rand(4, device=d)),
    ("randint", lambda d: torch.randint(0, 5, (3,), device=d)),
    # *_like follow their input's device, or the device= they are given
    ("zeros_like", lambda d: torch.zeros_like(torch.ones(2, device=d))),
    ("ones_like", lambda d: torch.ones_like(torch.ones(2, device=d))),
    ("full_like", lambda d: torch.full_like(torch.ones(2, device=d), 3.0)),
    ("empty_like", lambda d: torch.empty_like(torch.ones(2, device=d))),
    ("randn_like", lambda d: torch.randn_like(torch.ones(2, device=d))),
    ("rand_like", lambda d: torch.rand_like(torch.ones(2, device=d))),
    ("randint_like", lambda d: torch.randint_like(torch.ones(2, device=d), 5)),
    ("zeros_like_from_cpu", lambda d: torch.zeros_like(torch.ones(2), device=d)),
    ("randn_like_from_cpu", lambda d: torch.randn_like(torch.ones(2), device=d)),
    # new_* follow self's device, or the device= they are given
    ("new_zeros", lambda d: torch.ones(2, device=d).new_zeros(3)),
    ("new_ones", lambda d: torch.ones(2, device=d).new_ones(3)),
    ("new_full", lambda d: torch.ones(2, device=d).new_full((3,), 2.0)),
    ("new_empty", lambda d: torch.ones(2, device=d).new_empty(3)),
    ("new_tensor", lambda d: torch.ones(2, device=d).new_tensor([1.0, 2.0])),
    ("new_zeros_from_cpu", lambda d: torch.ones(2).new_zeros(3, device=d)),
    ("new_tensor_from_cpu", lambda d: torch.ones(2).new_tensor([1.0], device=d)),
    ("from_numpy_to", lambda d: torch.from_numpy(np.arange(3.0)).to(d)),
    ("to_device_object", lambda d: torch.ones(2).to(torch.device(d))),
]


@pytest.mark.parametrize("name,make", FACTORIES, ids=[f[0] for f in FACTORIES])
def test_factories_place_on_device(device, name, make):
    assert str(make(device).device) == expected_device(device)


OPS = [
    ("add", lambda x, w: x + x),
    ("mul_scalar", lambda x, w: x * 3),
    ("rsub_scalar", lambda x, w: 2 - x),
    ("exp", lambda x, w: x.exp()),
    ("relu", lambda x, w: torch.relu(x)),
    ("clamp", lambda x, w: x.clamp(-1.0, 1.0)),
    ("gt", lambda x, w: x > 0),
    ("where", lambda x, w: torch.where(x > 0, x, -x)),
    ("add_", lambda x, w: x.clone().add_(1)),
    ("to_float32", lambda x, w: x.float()),
    ("sum", lambda x, w: x.sum()),
    ("mean_dim", lambda x, w: x.mean(dim=1)),
    ("max_dim", lambda x, w: x.max(dim=1).values),
    ("argmax_dim", lambda x, w: x.argmax(dim=0)),
    ("var", lambda x, w: x.var()),
    ("cumsum", lambda x, w: x.cumsum(1)),
    ("mm", lambda x, w: x.mm(w)),
    ("matmul_batched", lambda x, w: torch.stack([x, x]) @ w),
    ("mv", lambda x, w: x.mv(w[:, 0])),
    ("slice", lambda x, w: x[1:, ::2]),
    ("select", lambda x, w: x[1]),
    ("index_tensor", lambda x, w: x[torch.tensor([2, 0], device=x.device)]),
    ("index_select", lambda x, w: x.index_select(1, torch.tensor([3, 1], device=x.device))),
    ("mask", lambda x, w: x[x > 0]),
    ("gather", lambda x, w: x.gather(1, torch.tensor([[0], [3], [1]], device=x.device))),
    ("softmax", lambda x, w: x.softmax(1)),
    ("log_softmax", lambda x, w: x.log_softmax(0)),
    ("cat", lambda x, w: torch.cat([x, x * 2], 0)),
    ("stack", lambda x, w: torch.stack([x, x], 1)),
    ("transpose_contiguous", lambda x, w: x.t().contiguous()),
    ("reshape", lambda x, w: x.reshape(-1)),
    ("clone", lambda x, w: x.clone()),
    ("detach", lambda x, w: x.detach()),
]


@pytest.mark.parametrize("name,f", OPS, ids=[o[0] for o in OPS])
def test_ops_keep_input_device(device, name, f):
    out = f(torch.tensor(X, device=device), torch.tensor(W, device=device))
    assert str(out.device) == expected_device(device)
    ref = f(torch.tensor(X), torch.tensor(W))
    assert out.dtype == ref.dtype and list(out.shape) == list(ref.shape)
    np.testing.assert_allclose(to_np(out).astype(np.float64), to_np(ref).astype(np.float64), rtol=1e-12, atol=1e-12)


def test_backward_grads_on_device(device):
    want = expected_device(device)
    x = torch.tensor(X, requires_grad=True, device=device)
    w = torch.tensor(W, requires_grad=True, device=device)
    h = (x @ w).tanh()
    h.retain_grad()
    loss = torch.cat([h, h * 2]).softmax(1)[:, 0].sum() + x[x > 0].sum()
    loss.backward()
    assert str(loss.device) == want
    for t in (x, w, h):
        assert str(t.grad.device) == want
    # the same graph on the host gives the same gradients
    xc, wc = torch.tensor(X, requires_grad=True), torch.tensor(W, requires_grad=True)
    hc = (xc @ wc).tanh()
    (torch.cat([hc, hc * 2]).softmax(1)[:, 0].sum() + xc[xc > 0].sum()).backward()
    np.testing.assert_allclose(to_np(x.grad), to_np(xc.grad), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(to_np(w.grad), to_np(wc.grad), rtol=1e-12, atol=1e-12)
    gx, = torch.autograd.grad((x * x).sum(), x, create_graph=True)
    assert str(gx.device) == want
    ggx, = torch.autograd.grad(gx.sum(), x)
    assert str(ggx.device) == want and to_np(ggx).tolist() == [[2.0] * 4] * 3


def test_transfers_between_host_and_device(device):
    want = expected_device(device)
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    b = a.to(device)
    assert str(b.device) == want
    (b * b).sum().backward()
    # the gradient flows back through the copy onto the host leaf
    assert str(a.grad.device) == "cpu" and to_np(a.grad).tolist() == [2.0, 4.0]
    c = torch.from_numpy(np.arange(3.0)).to(device)
    assert str(c.device) == want
    host = c.cpu()
    assert str(host.device) == "cpu" and host.numpy().tolist() == [0.0, 1.0, 2.0]


# Without a GPU every CUDA request raises one of PyTorch's two errors: a CPU-only build's
# AssertionError, or a CUDA build's RuntimeError when no driver is present.
NO_GPU_ERRORS = [(AssertionError, "Torch not compiled with CUDA enabled"),
                 (RuntimeError, "Found no NVIDIA driver on your system")]

CUDA_CALLS = [
    ("zeros_device", lambda: torch.zeros(2, device="cuda")),
    ("cuda_method", lambda: torch.ones(2).cuda()),
    ("to_cuda", lambda: torch.ones(2).to("cuda")),
    ("tensor_device", lambda: torch.tensor([1.0], device="cuda")),
    ("randn_cuda0", lambda: torch.randn(2, device="cuda:0")),
    ("empty_device_object", lambda: torch.empty(2, device=torch.device("cuda"))),
    ("zeros_like_device", lambda: torch.zeros_like(torch.ones(2), device="cuda")),
    ("to_device_kw", lambda: torch.ones(2).to(device="cuda")),
    ("to_device_object", lambda: torch.ones(2).to(torch.device("cuda", 0))),
    ("to_cuda_and_dtype", lambda: torch.ones(2).to("cuda", torch.float64)),
    ("cuda_method_requires_grad", lambda: torch.ones(2, requires_grad=True).cuda()),
    ("cuda_synchronize", lambda: torch.cuda.synchronize()),
    ("new_zeros_device", lambda: torch.ones(2).new_zeros(2, device="cuda")),
    ("new_ones_device", lambda: torch.ones(2).new_ones(2, device="cuda")),
    ("new_full_device", lambda: torch.ones(2).new_full((2,), 1.0, device="cuda")),
    ("new_empty_device", lambda: torch.ones(2).new_empty(2, device="cuda")),
    ("new_tensor_device", lambda: torch.ones(2).new_tensor([1.0], device="cuda")),
    ("randint_device", lambda: torch.randint(0, 5, (2,), device="cuda")),
    ("randint_like_device", lambda: torch.randint_like(torch.ones(2), 5, device="cuda")),
]


def _call_id(c):
    return c.values[0] if hasattr(c, "values") else c[0]


@pytest.mark.skipif(torch.cuda.is_available(), reason="checks the behaviour without a GPU")
def test_no_gpu_reports_none():
    assert torch.cuda.is_available() is False
    assert torch.cuda.device_count() == 0


@pytest.mark.skipif(torch.cuda.is_available(), reason="checks the behaviour without a GPU")
@pytest.mark.parametrize("name,call", CUDA_CALLS, ids=[_call_id(c) for c in CUDA_CALLS])
def test_cuda_call_without_gpu_raises(name, call):
    with pytest.raises((AssertionError, RuntimeError)) as info:
        call()
    text = str(info.value)
    assert any(type(info.value) is exc and text.startswith(msg) for exc, msg in NO_GPU_ERRORS), (type(info.value), text)


@pytest.mark.skipif(torch.cuda.is_available(), reason="checks the behaviour without a GPU")
def test_cuda_calls_without_gpu_do_not_crash_the_process():
    # in a child process, so that an abort or segfault fails this test rather than the run
    script = "\n".join([
        "import ferrograd as torch",
        "for call in ['torch.zeros(2, device=\"cuda\")', 'torch.ones(2).cuda()', 'torch.ones(2).to(\"cuda\")']:",
        "    try:",
        "        eval(call)",
        "        print('no error')",
        "    except (AssertionError, RuntimeError) as e:",
        "        print(type(e).__name__)",
        "print('done')",
    ])
    res = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    lines = res.stdout.split()
    assert lines[-1] == "done" and len(lines) == 4, res.stdout
    assert all(line in ("AssertionError", "RuntimeError") for line in lines[:3]), res.stdout
