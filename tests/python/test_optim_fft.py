"""Adafactor, SparseAdam, optim.swa_utils and torch.fft against PyTorch's results
(tools/record_optim_fft_goldens.py -> fixtures/optim_fft.json)."""

import json
import os

import pytest

import ferrograd
import ferrograd.fft  # noqa: F401  (torch.fft: a submodule attribute once imported)
import optim_fft_scenarios
from _golden import assert_matches_golden

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "fixtures", "optim_fft.json")) as fh:
    GOLDENS = json.load(fh)
GOT = optim_fft_scenarios.run(ferrograd)

# results that are dicts of independent cases: one test per case
SPLIT = ("adafactor_errors", "sparse_adam", "swa", "swalr", "fft_values", "fft_helpers", "fft_errors",
         "fft_grads")


def _cases(results):
    out = {}
    for name, value in results.items():
        if name in SPLIT and isinstance(value, dict):
            for k, v in value.items():
                out[f"{name}.{k}"] = v
        else:
            out[name] = value
    return out


EXPECTED = _cases(GOLDENS)
ACTUAL = _cases(GOT)


# float32 round-off: the gradient of |rfft(x)|.sum() for a length-263 signal (Bluestein's
# algorithm here, pocketfft in PyTorch) has entries up to ~78, each a sum of 132 unit phasors;
# both libraries are ~7e-5 (absolute) from the float64 gradient there.
TOL = {"fft_grads.bluestein": (1e-5, 2e-4)}


def _names(path, s):
    return s.replace("ferrograd", "torch")


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_matches_pytorch(name):
    assert name in ACTUAL, name
    assert_matches_golden(EXPECTED[name], ACTUAL[name], rtol=TOL.get(name, (1e-5, 1e-5))[0],
                          atol=TOL.get(name, (1e-5, 1e-5))[1], normalize_str=_names, label=name)


def test_every_result_has_a_golden():
    assert sorted(ACTUAL) == sorted(EXPECTED)


def test_sparse_adam_unsupported_path_is_explicit():
    """No ferrograd gradient is sparse: a step meets PyTorch's dense-gradient error."""
    w = ferrograd.ones(2, requires_grad=True)
    opt = ferrograd.optim.SparseAdam([w])
    w.sum().backward()
    with pytest.raises(RuntimeError, match="SparseAdam does not support dense gradients"):
        opt.step()


def test_fft_constants_made_under_inference_mode_serve_autograd():
    """The cached DFT matrices are normal tensors even when first built under inference_mode."""
    torch = ferrograd
    torch.fft._CACHE.clear()
    with torch.inference_mode():
        assert torch.fft.fft(torch.ones(3, 96)).is_inference()
        torch.fft.rfft(torch.ones(2, 293))
    x = torch.ones(3, 96, requires_grad=True)
    torch.fft.fft(x).abs().sum().backward()
    y = torch.ones(2, 293, requires_grad=True)
    torch.fft.rfft(y).real.sum().backward()
    assert x.grad.shape == x.shape and y.grad.shape == y.shape
