"""complex64/complex128 tensors against PyTorch's goldens: values, dtypes, printing, grad_fn
names, conjugate-Wirtinger gradients and error messages (recorded by
tools/record_complex_goldens.py from complex_scenarios.py); gradients also against central
differences on the real and imaginary parts."""

import json
import os
import warnings

import pytest

import ferrograd as torch
from _golden import assert_matches_golden
import complex_scenarios as S

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "fixtures", "complex_goldens.json")) as fh:
    GOLDENS = json.load(fh)


def _normalize(path, s):
    return s.replace("ferrograd.", "torch.")


@pytest.mark.parametrize("name", sorted(S.SCENARIOS))
def test_matches_pytorch(name):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = json.loads(json.dumps(S.plain(torch, S.run(torch, name))))
    assert_matches_golden(GOLDENS[name], got, rtol=2e-5, atol=2e-6, normalize_str=_normalize, label=name)


def test_every_scenario_has_a_golden():
    assert sorted(GOLDENS) == sorted(S.SCENARIOS)


def _loss(f, z, c):
    # a real loss of a complex output: Re(sum(f(z) * c))
    return (f(z) * c).real.sum()


@pytest.mark.parametrize("name", ["exp", "log", "sqrt", "reciprocal", "sin", "cos", "tanh", "sigmoid", "sgn",
                                  "conj", "pow_half", "mul_complex_scalar", "rdiv_complex"])
def test_gradient_is_dL_dre_plus_i_dL_dim(name):
    """PyTorch's convention: z.grad = dL/dRe(z) + i dL/dIm(z) for a real loss L."""
    f = S.UNARY[name]
    base = [0.7 + 0.4j, -1.2 + 0.9j, 0.3 - 1.1j]
    c = torch.tensor([1.0 - 0.5j, 0.25 + 2.0j, -1.5 + 0.5j], dtype=torch.cdouble)
    z = torch.tensor(base, dtype=torch.cdouble, requires_grad=True)
    _loss(f, z, c).backward()
    eps = 1e-6
    for k in range(3):
        for step, part in ((eps, "re"), (eps * 1j, "im")):
            p = list(base)
            m = list(base)
            p[k] += step
            m[k] -= step
            num = (_loss(f, torch.tensor(p, dtype=torch.cdouble), c).item() - _loss(f, torch.tensor(m, dtype=torch.cdouble), c).item()) / (2 * eps)
            got = z.grad[k].item()
            assert abs((got.real if part == "re" else got.imag) - num) < 1e-6, (name, k, part)


def test_double_backward_of_a_complex_product():
    z = torch.tensor([0.5 + 1j, -1 + 0.25j], dtype=torch.cdouble, requires_grad=True)
    loss = (z * z * z).abs().sum()
    (g,) = torch.autograd.grad(loss, z, create_graph=True)
    g.abs().sum().backward()
    assert z.grad is not None and z.grad.dtype == torch.cdouble


def test_complex_kernel_entry_points_refuse_instead_of_reading_pairs():
    z = torch.tensor([1 + 1j, 2 - 1j])
    for f in (lambda: z.max(), lambda: z.argmax(), lambda: z.sort(), lambda: z.topk(1),
              lambda: torch.nn.functional.relu(z)):
        with pytest.raises((NotImplementedError, RuntimeError)):
            f()


def test_numpy_sharing_both_ways():
    import numpy as np
    a = np.array([1 + 2j, 3 - 4j], dtype=np.complex64)
    t = torch.from_numpy(a)
    a[0] = 5j
    assert t[0].item() == 5j
    n = t.numpy()
    t.real.mul_(2)
    assert n[1] == 6 - 4j


def test_dlpack_round_trip():
    z = torch.tensor([[1 + 2j, 3j], [4, -1 - 1j]], dtype=torch.cdouble)
    back = torch.from_dlpack(z)
    assert back.dtype == torch.cdouble and back.tolist() == z.tolist()
