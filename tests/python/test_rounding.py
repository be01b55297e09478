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


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("dt", [np.float32, np.float64])
@pytest.mark.parametrize("n", [7, 1000, 300_001])
def test_addc_in_place_matches_out_of_place(threads, dt, n):
    # addcmul_ / addcdiv_ with nothing recorded write straight into self: the same bits as
    # the out-of-place op (whose bits are PyTorch's, above), on one thread or two
    old = torch.get_num_threads()
    torch.set_num_threads(threads)
    try:
        g = np.random.default_rng(n)
        s, a, b = (torch.tensor(g.standard_normal(n).astype(dt)) for _ in range(3))
        for div, f, f_ in ((False, "addcmul", "addcmul_"), (True, "addcdiv", "addcdiv_")):
            want = getattr(s, f)(a, b, value=0.3).numpy()
            got = s.clone()
            v0 = got._version
            assert getattr(got, f_)(a, b, value=0.3) is got
            assert got._version == v0 + 1
            np.testing.assert_array_equal(got.numpy().view(np.uint8), want.view(np.uint8))
    finally:
        torch.set_num_threads(old)


def test_addc_in_place_through_views_and_shared_operands():
    # a contiguous view as self writes through to its base
    base = torch.zeros(2, 4)
    row = base[1]
    row.addcmul_(torch.ones(4), torch.full((4,), 2.0), value=0.5)
    assert base.tolist() == [[0.0] * 4, [1.0] * 4]
    assert base._version == row._version == 1
    # operands in self's storage take the general path: read before any write
    x = torch.arange(6.0)
    x[:3].addcmul_(x[3:], x[3:])
    assert x.tolist() == [9.0, 17.0, 27.0, 3.0, 4.0, 5.0]
    # broadcast operands and a recorded op take the general path too
    y = torch.ones(2, 3)
    y.addcdiv_(torch.tensor([2.0, 4.0, 8.0]), torch.tensor(2.0))
    assert y.tolist() == [[2.0, 3.0, 5.0]] * 2
    w = torch.ones(3, requires_grad=True)
    z = torch.zeros(3)
    z.addcmul_(w, torch.full((3,), 3.0))
    assert z.grad_fn.name() == "AddcmulBackward0"
    z.sum().backward()
    assert w.grad.tolist() == [3.0, 3.0, 3.0]
