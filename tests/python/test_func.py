"""torch.func's model-ensembling helpers (stack_module_state, replace_all_batch_norm_modules_),
checked against PyTorch 2.13's behaviour."""

import pytest

import ferrograd as torch


def test_stack_module_state_ensembles_models():
    import copy
    torch.manual_seed(0)
    models = [torch.nn.Linear(3, 2) for _ in range(4)]
    params, buffers = torch.func.stack_module_state(models)
    assert {k: tuple(v.shape) for k, v in params.items()} == {"weight": (4, 2, 3), "bias": (4, 2)}
    assert params["weight"].requires_grad and params["weight"].is_leaf
    base = copy.deepcopy(models[0])
    x = torch.randn(5, 3)
    out = torch.func.vmap(lambda p, b, x: torch.func.functional_call(base, (p, b), (x,)),
                          in_dims=(0, 0, None))(params, buffers, x)
    assert tuple(out.shape) == (4, 5, 2) and torch.allclose(out[2], models[2](x))
    with pytest.raises(RuntimeError, match="Expected at least one model, got 0."):
        torch.func.stack_module_state([])
    models[1].eval()
    with pytest.raises(RuntimeError, match="same training/eval mode"):
        torch.func.stack_module_state(models)


def test_replace_all_batch_norm_modules():
    net = torch.nn.Sequential(torch.nn.Linear(3, 3), torch.nn.BatchNorm1d(3))
    assert torch.func.replace_all_batch_norm_modules_(net) is net
    assert net[1].running_mean is None and net[1].track_running_stats is False


def test_functionalize_and_debug_unwrap():
    def f(x):
        y = x.clone()
        y.add_(1)
        x.mul_(2)
        return y.view(-1)

    x = torch.ones(2, 2)
    out = torch.func.functionalize(f)(x)
    assert out.tolist() == [2.0] * 4 and x.tolist() == [[2.0, 2.0], [2.0, 2.0]]
    with pytest.raises(RuntimeError, match="received invalid argument for remove=bad"):
        torch.func.functionalize(f, remove="bad")
    t = torch.ones(3)
    assert torch.func.debug_unwrap(t) is t


def test_checkpoint_device_states_and_variable_module():
    from ferrograd.utils.checkpoint import get_device_states, set_device_states
    assert get_device_states(torch.ones(2), 3) == ([], [])
    set_device_states([], [])
    from ferrograd.autograd import variable
    assert variable.Variable is torch.autograd.Variable
