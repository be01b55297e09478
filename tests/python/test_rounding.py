"""Fused kernels round as PyTorch's do, bit for bit (goldens recorded from PyTorch by
tools/record_rounding_goldens.py); flip and roll copy exactly what numpy's flip and roll do."""

import itertools
import json
import pathlib

import numpy as np
import pytest

import ferrograd as torch
import rounding_scenarios

GOLD = json.loads((pathlib.Path(__file__).parent / "fixtures" / "rounding.json").read_text())
MINE = rounding_scenarios.run(torch)


def test_every_scenario_recorded():
    assert sorted(MINE) == sorted(GOLD)


@pytest.mark.parametrize("key", sorted(GOLD))
def test_pytorchs_bits(key):
    # addcmul is fma(value * t1, t2, self) as ATen's builds contract it; addcdiv rounds the
    # quotient first; the 2-norm over a last dim adds 8 (float) / 4 (double) fused lanes
    assert MINE[key] == GOLD[key], (key, [(i, a, b) for i, (a, b) in enumerate(zip(MINE[key], GOLD[key])) if a != b][:4])


SHAPES = [(5,), (3, 4), (2, 3, 5), (4, 1, 3, 2), (0, 3), (17, 33)]
DTYPES = [np.float32, np.float64, np.int64, np.int32, np.bool_, np.uint8, np.float16]


@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_flip_and_roll_are_numpys(shape, dtype):
    g = np.random.default_rng(len(shape))
    x = (g.standard_normal(shape) * 10).astype(dtype)
    t = torch.tensor(x)
    for r in range(len(shape) + 1):
        for dims in itertools.combinations(range(len(shape)), r):
            np.testing.assert_array_equal(t.flip(dims).numpy(), np.flip(x, dims) if dims else x)
            if dims:
                shifts = [int(s) for s in g.integers(-7, 8, len(dims))]
                np.testing.assert_array_equal(t.roll(shifts, dims).numpy(), np.roll(x, shifts, dims))
    np.testing.assert_array_equal(t.roll(3).numpy(), np.roll(x, 3))
    if len(shape) >= 2:
        # strided input: the general path
        np.testing.assert_array_equal(t.transpose(0, 1).flip(0).numpy(), np.flip(x.swapaxes(0, 1), 0))
        np.testing.assert_array_equal(t.transpose(0, 1).roll(1, 0).numpy(), np.roll(x.swapaxes(0, 1), 1, 0))


def test_flip_and_roll_gradients():
    w = np.arange(12.0).reshape(3, 4)
    x = torch.zeros(3, 4, dtype=torch.float64, requires_grad=True)
    y = x.flip(1)
    assert y.grad_fn.name() == "FlipBackward0"
    (torch.tensor(w) * y).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), np.flip(w, 1))
    x.grad = None
    y = x.roll((1, -2), (0, 1))
    assert y.grad_fn.name() == "RollBackward0"
    (torch.tensor(w) * y).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), np.roll(w, (-1, 2), (0, 1)))


def test_addcmul_in_place_with_self_as_operand():
    # the operands may share self's buffer (read before any write)
    x = torch.tensor([1.0, 2.0, 3.0])
    x.addcmul_(x, x, value=2)
    assert x.tolist() == [3.0, 10.0, 21.0]
    x = torch.tensor([1.0, 2.0, 4.0])
    x.addcdiv_(x, torch.tensor([2.0, 2.0, 2.0]))
    assert x.tolist() == [1.5, 3.0, 6.0]
