"""Names of torch.autograd / torch.profiler / torch.random that old and new programs import:
present, with PyTorch's values (recorded from PyTorch 2.13 by hand: enum members and values,
the deprecated Jacobian helpers' layouts on a worked example)."""

import importlib
import warnings

import pytest

import ferrograd as torch
from ferrograd.optim.optimizer import register_optimizer_step_post_hook

gc = importlib.import_module("ferrograd.autograd.gradcheck")  # the attribute is the gradcheck function


def test_profiler_enums_and_configs():
    from ferrograd.autograd import ProfilerActivity, ProfilerConfig, ProfilerState, kineto_available
    from ferrograd.autograd.profiler import MEMORY_EVENT_NAME, OUT_OF_MEMORY_EVENT_NAME

    assert [m for m in ProfilerState.__members__] == [
        "Disabled", "CPU", "CUDA", "NVTX", "ITT", "PRIVATEUSE1", "KINETO", "KINETO_GPU_FALLBACK",
        "KINETO_PRIVATEUSE1_FALLBACK", "KINETO_PRIVATEUSE1"]
    assert int(ProfilerState.KINETO) == 6
    cfg = ProfilerConfig(ProfilerState.CPU, True, False, False, False, False)
    assert cfg.state is ProfilerState.CPU and cfg.report_input_shapes
    with pytest.raises(TypeError):
        ProfilerConfig("CPU", True, False, False, False, False)
    assert ProfilerActivity.CPU in torch.profiler.supported_activities()
    assert kineto_available() is False
    assert (MEMORY_EVENT_NAME, OUT_OF_MEMORY_EVENT_NAME) == ("[memory]", "[OutOfMemory]")
    assert [m for m in torch.profiler.RecordScope.__members__][:2] == ["FUNCTION", "BACKWARD_FUNCTION"]
    assert int(torch.profiler.RecordScope.USER_SCOPE) == 7
    assert torch.profiler.register_optimizer_step_post_hook is register_optimizer_step_post_hook


def test_saved_tensor_view_replay_grad_mode_and_random_names():
    x = torch.ones(2, requires_grad=True)
    assert isinstance(x.exp().grad_fn._raw_saved_result, torch.autograd.SavedTensor)
    assert torch.autograd.is_view_replay_enabled() is False
    assert torch.autograd.grad_mode.set_multithreading_enabled is torch.autograd.set_multithreading_enabled
    assert torch.autograd.grad_mode.enforce_grad_layout_policy is torch.autograd.enforce_grad_layout_policy
    assert torch.random.thread_safe_generator() is None


def _inputs():
    x = torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64, requires_grad=True)
    y = torch.tensor([0.5, 1.5], dtype=torch.float64, requires_grad=True)
    return x, y


def test_deprecated_jacobian_helpers_match_pytorch():
    x, y = _inputs()
    expected_x = [[1.0, 3.0], [2.0, 6.0], [3.0, 9.0]]  # PyTorch's: [input.numel(), output.numel()]
    expected_y = [[14.0, 0.0], [0.0, 14.0]]
    with pytest.warns(FutureWarning, match="`get_numerical_jacobian` was part of PyTorch's private API"):
        jx, jy = gc.get_numerical_jacobian(lambda inp: (inp[0] ** 2).sum() * inp[1], (x, y))
    assert torch.allclose(jx, torch.tensor(expected_x, dtype=torch.float64))
    assert torch.allclose(jy, torch.tensor(expected_y, dtype=torch.float64))
    out = (x ** 2).sum() * y
    with pytest.warns(FutureWarning, match="`get_analytical_jacobian`"):
        (ax, ay), reentrant, sizes_ok, types_ok = gc.get_analytical_jacobian((x, y), out)
    assert ax.tolist() == expected_x and ay.tolist() == expected_y
    assert reentrant and sizes_ok and types_ok
    (sx,) = gc.get_numerical_jacobian_wrt_specific_input(lambda a, b: (a ** 2).sum() * b, 0, (x, y), (out,), 1e-6)
    assert torch.allclose(sx, torch.tensor(expected_x, dtype=torch.float64))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(ValueError, match="Expected grad_out to be 1.0"):
            gc.get_numerical_jacobian(lambda inp: inp[0], (x,), grad_out=2.0)
