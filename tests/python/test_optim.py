"""torch.optim and torch.optim.lr_scheduler against PyTorch's recorded results.

The cases live in ``tools/record_optim_goldens.py`` (functions of the library under test);
PyTorch's results for them are in ``fixtures/optim.json``. Each case runs here with ferrograd
and must give the same values: floats within rel 1e-5 / abs 1e-6, everything else exactly.
"""

import importlib.util
import json
import os

import pytest

import ferrograd
from _golden import assert_matches_golden

HERE = os.path.dirname(__file__)
ROOT = os.path.join(HERE, "..", "..")

_spec = importlib.util.spec_from_file_location(
    "record_optim_goldens", os.path.join(ROOT, "tools", "record_optim_goldens.py")
)
cases = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(cases)

with open(os.path.join(HERE, "fixtures", "optim.json")) as f:
    GOLDEN = json.load(f)["cases"]

RTOL = 1e-5
ATOL = 1e-6


def _normalize_str(path, s):
    return s.replace("ferrograd", "torch")


def assert_same(got, want):
    assert_matches_golden(want, got, rtol=RTOL, atol=ATOL, normalize_str=_normalize_str)


def test_every_case_has_a_golden():
    assert sorted(cases.CASES) == sorted(GOLDEN)


@pytest.mark.parametrize("name", sorted(n for n in cases.CASES if n.startswith("optim_")))
def test_optimizer_trajectory(name):
    """20 steps on a fixed problem: parameters after each step, losses, final state, groups."""
    got = cases.run_case(ferrograd, name)
    assert len(got["params"]) == cases.STEPS
    assert_same(got, GOLDEN[name])


@pytest.mark.parametrize("name", sorted(n for n in cases.CASES if n.startswith("sched_")))
def test_scheduler_sequence(name):
    """25 epochs of learning rates (and momenta / betas where the scheduler cycles them)."""
    got = cases.run_case(ferrograd, name)
    assert len(got["lrs"]) == 26
    assert_same(got, GOLDEN[name])


@pytest.mark.parametrize(
    "name", sorted(n for n in cases.CASES if not n.startswith(("optim_", "sched_")))
)
def test_behaviour(name):
    """State dicts, parameter groups, hooks, closures, errors and warnings."""
    assert_same(cases.run_case(ferrograd, name), GOLDEN[name])


def test_state_is_keyed_by_parameter_and_steps_are_tensors():
    torch = ferrograd
    params, loss_fn = cases._problem(torch)
    opt = torch.optim.Adam(params, lr=0.1, amsgrad=True)
    assert isinstance(opt.state, dict) and opt.state[params[0]] == {}
    loss_fn().backward()
    opt.step()
    st = opt.state[params[0]]
    assert sorted(st) == ["exp_avg", "exp_avg_sq", "max_exp_avg_sq", "step"]
    assert isinstance(st["step"], torch.Tensor) and st["step"].dim() == 0
    assert st["step"].item() == 1.0 and st["step"].device.type == "cpu"
    assert not st["exp_avg"].requires_grad and st["exp_avg"].shape == params[0].shape


def test_step_does_not_record_graph():
    torch = ferrograd
    params, loss_fn = cases._problem(torch)
    opt = torch.optim.RMSprop(params, lr=0.01, momentum=0.5, centered=True)
    loss_fn().backward()
    opt.step()
    assert params[0].is_leaf and params[0].grad_fn is None
    assert opt.state[params[0]]["momentum_buffer"].grad_fn is None


def test_adagrad_state_exists_before_first_step():
    torch = ferrograd
    params, _ = cases._problem(torch)
    opt = torch.optim.Adagrad(params, initial_accumulator_value=0.25)
    st = opt.state[params[1]]
    assert sorted(st) == ["step", "sum"] and st["step"].item() == 0.0
    assert st["sum"].tolist() == [0.25, 0.25]
