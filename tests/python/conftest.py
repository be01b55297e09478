"""Shared fixtures: the device parameter (CUDA cases skip without a GPU) and helpers that
compare ferrograd with NumPy and with finite differences."""

import numpy as np
import pytest

import ferrograd as torch


@pytest.fixture(params=["cpu", "cuda"])
def device(request):
    if request.param == "cuda" and not torch.cuda.is_available():
        pytest.skip("no CUDA device on this machine")
    return request.param


def expected_device(device):
    """The string ``str(t.device)`` gives for a tensor made with ``device=device``."""
    return "cuda:0" if device == "cuda" else device


def to_np(t):
    return t.detach().cpu().numpy()


def fd_grads(fn, arrays, eps=1e-6, device="cpu"):
    """Numerical gradients of sum(fn(*arrays) * w) for a fixed random w, by central
    differences in float64 on `device`; returns (w, [grad per array])."""
    base = to_np(fn(*[torch.tensor(a, device=device) for a in arrays]))
    w = np.random.RandomState(0).randn(*np.shape(base))
    grads = []
    for k, a in enumerate(arrays):
        g = np.zeros_like(a)
        for idx in np.ndindex(a.shape):
            plus = [x.copy() for x in arrays]
            minus = [x.copy() for x in arrays]
            plus[k][idx] += eps
            minus[k][idx] -= eps
            fp = to_np(fn(*[torch.tensor(x, device=device) for x in plus]))
            fm = to_np(fn(*[torch.tensor(x, device=device) for x in minus]))
            g[idx] = ((fp - fm) * w).sum() / (2 * eps)
        grads.append(g)
    return w, grads


def check_grads(fn, arrays, atol=1e-5, rtol=1e-4, device="cpu"):
    """Assert autograd's gradients of fn on `device` match finite differences, and that the
    output and every gradient live on `device`."""
    arrays = [np.asarray(a, dtype=np.float64) for a in arrays]
    w, numeric = fd_grads(fn, arrays, device=device)
    ts = [torch.tensor(a, requires_grad=True, device=device) for a in arrays]
    out = fn(*ts)
    assert str(out.device) == expected_device(device)
    (out * torch.tensor(w, device=device)).sum().backward()
    for t, n in zip(ts, numeric):
        assert t.grad is not None
        assert str(t.grad.device) == expected_device(device)
        np.testing.assert_allclose(to_np(t.grad), n, atol=atol, rtol=rtol)


def raises(exc, msg, fn):
    """Assert fn raises exactly `exc` whose message starts with `msg`."""
    with pytest.raises(exc) as info:
        fn()
    assert type(info.value) is exc
    text = str(info.value).replace("ferrograd.", "torch.")
    assert text.startswith(msg), text
