"""What hooks can ask of the backward pass they run in: register_multi_grad_hook (all/any),
Variable._execution_engine.queue_callback, get_gradient_edge, increment_version. Expectations
checked against PyTorch 2.13."""

import pytest

import ferrograd as torch
from ferrograd.autograd.graph import (GradientEdge, get_gradient_edge, increment_version,
                                      register_multi_grad_hook)


def test_multi_grad_hook_all_waits_for_every_reached_tensor():
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    b = torch.tensor([3.0, 5.0], requires_grad=True)
    c = torch.tensor(2.0, requires_grad=True)
    seen = []

    def hook(grads):
        seen.append([None if g is None else g.tolist() for g in grads])

    h = register_multi_grad_hook((a, b, c), hook)
    (a * b).sum().backward()
    (a.sum() * c).backward()
    h.remove()
    (a * b).sum().backward()
    assert seen == [[[3.0, 5.0], [1.0, 2.0], None], [[2.0, 2.0], None, 3.0]]


def test_multi_grad_hook_any_fires_once_per_pass():
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    b = torch.tensor([3.0, 5.0], requires_grad=True)
    seen = []
    register_multi_grad_hook((a, b), lambda g: seen.append(g.tolist()), mode="any")
    (a * b).sum().backward()
    (b ** 2).sum().backward()
    assert len(seen) == 2 and seen[1] == [6.0, 10.0]
    with pytest.raises(ValueError, match="Expects mode to be one of"):
        register_multi_grad_hook((a,), lambda g: None, mode="some")


def test_multi_grad_hook_under_autograd_grad_refuses_leaves_as_torch():
    a = torch.tensor(1.0, requires_grad=True)
    b = torch.tensor(2.0, requires_grad=True)
    register_multi_grad_hook((a, b), lambda gs: None)
    with pytest.raises(RuntimeError, match="A leaf node was passed to _will_engine_execute_node but we are currently running autograd.grad"):
        torch.autograd.grad(a * b, (a,))


def test_multi_grad_hook_counts_only_the_tensors_a_pass_reaches():
    a = torch.tensor(1.0, requires_grad=True)
    x = a * 2
    y = a * 3
    seen = []
    register_multi_grad_hook((x, y), lambda gs: seen.append([None if g is None else g.item() for g in gs]))
    (x * 5).backward(retain_graph=True)
    (x * 5 + y * 7).backward()
    assert seen == [[5.0, None], [5.0, 7.0]]


def test_graph_task_id_outside_backward():
    assert torch._C._current_graph_task_id() == -1
    with pytest.raises(RuntimeError, match="only be called during the backward pass"):
        torch._C._will_engine_execute_node(torch.ones(1, requires_grad=True).exp().grad_fn)


def test_queue_callback_runs_after_all_nodes():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    order = []

    def hook(g):
        order.append("hook")
        torch.autograd.Variable._execution_engine.queue_callback(lambda: order.append(("cb", x.grad is not None)))
        return g

    y = (x * 2).exp()
    y.register_hook(hook)
    y.sum().backward()
    # the callback ran after the whole pass: the leaf's gradient was already accumulated
    assert order == ["hook", ("cb", True)]
    with pytest.raises(RuntimeError, match="Final callbacks can only be installed during backward pass."):
        torch.autograd.Variable._execution_engine.queue_callback(lambda: None)


def test_queue_callback_errors_surface():
    x = torch.tensor(1.0, requires_grad=True)

    def bad():
        raise ValueError("from a callback")

    y = x * 3
    y.register_hook(lambda g: torch.autograd.Variable._execution_engine.queue_callback(bad))
    with pytest.raises(ValueError, match="from a callback"):
        y.backward()


def test_gradient_edge():
    a = torch.ones(2, requires_grad=True)
    e = get_gradient_edge(a)
    assert isinstance(e, GradientEdge) and type(e.node).__name__ == "AccumulateGrad" and e.output_nr == 0
    y = a.exp()
    e = get_gradient_edge(y)
    assert e.node is y.grad_fn or type(e.node).__name__ == "ExpBackward0"
    with pytest.raises(RuntimeError, match="not possible to get the gradient edge for a Tensor that does not require gradients"):
        get_gradient_edge(torch.ones(2))


def test_increment_version_marks_saved_tensors_stale():
    a = torch.ones(2, requires_grad=True)
    b = a * 1
    y = b.exp()            # saves its result
    v = y._version
    increment_version(y)
    assert y._version == v + 1
    with pytest.raises(RuntimeError, match="one of the variables needed for gradient computation has been modified by an inplace operation"):
        y.sum().backward()


def test_is_grads_batched_computes_one_vjp_per_row():
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x ** 2
    eye = torch.eye(3)
    (jac,) = torch.autograd.grad(y, x, eye, is_grads_batched=True)
    assert jac.tolist() == [[2.0, 0.0, 0.0], [0.0, 4.0, 0.0], [0.0, 0.0, 6.0]]
    # the graph is freed after the last row unless retained
    with pytest.raises(RuntimeError, match="backward through the graph a second time"):
        torch.autograd.grad(y, x, eye[0])
    with pytest.raises(RuntimeError, match="we interpret the first dimension of each grad_output as the batch dimension"):
        z = x * 2
        torch.autograd.grad(z, x, torch.ones(3), is_grads_batched=True)


@pytest.mark.parametrize("fn,name", [
    (torch.tanh, "TanhBackwardBackward0"),
    (torch.sigmoid, "SigmoidBackwardBackward0"),
    (torch.relu, "ThresholdBackwardBackward0"),
])
def test_backward_of_backward_nodes_are_named_as_torch(fn, name):
    x = torch.tensor([-0.5, 0.25, 1.5], requires_grad=True)
    (g,) = torch.autograd.grad(fn(x).sum(), x, create_graph=True)
    assert type(g.grad_fn).__name__ == name
    # and differentiate correctly (second derivative against finite differences)
    (gg,) = torch.autograd.grad(g.sum(), x)
    eps = 1e-3
    for i in range(3):
        xp = x.detach().clone(); xp[i] += eps
        xm = x.detach().clone(); xm[i] -= eps
        xp.requires_grad_(); xm.requires_grad_()
        (gp,) = torch.autograd.grad(fn(xp).sum(), xp)
        (gm,) = torch.autograd.grad(fn(xm).sum(), xm)
        assert abs(gg[i].item() - (gp[i].item() - gm[i].item()) / (2 * eps)) < 1e-2


def test_summed_contributions_leave_every_other_holder_of_a_gradient_alone():
    # the engine adds an input's contributions into the first one's buffer only when nothing
    # else holds it: not the caller's grad_outputs (passed through by views and adds), not a
    # gradient a hook kept
    p = torch.arange(12.0).reshape(3, 4).requires_grad_()
    g1, g2, g3 = torch.ones(3, 4), torch.full((3, 4), 2.0), torch.full((3, 2), 5.0)
    seen = []
    a = p.view(3, 4)
    a.register_hook(lambda g: seen.append(g))
    (gp,) = torch.autograd.grad((a, p + 0, p.narrow(1, 1, 2)), (p,), (g1, g2, g3))
    want = torch.full((3, 4), 3.0)
    want[:, 1:3] += 5.0
    assert torch.equal(gp, want)
    assert torch.equal(g1, torch.ones(3, 4)) and torch.equal(g2, torch.full((3, 4), 2.0))
    assert torch.equal(g3, torch.full((3, 2), 5.0))
    assert len(seen) == 1 and torch.equal(seen[0], torch.ones(3, 4))
    # three slices' gradients (each a fresh buffer) summed: the values a new tensor gets
    x = torch.randn(2, 5, 6, requires_grad=True)
    gs = [torch.randn(2, 5, 2) for _ in range(3)]
    (gx,) = torch.autograd.grad([x.narrow(-1, 2 * i, 2) for i in range(3)], (x,), gs)
    assert torch.equal(gx, torch.cat(gs, -1))
    # a leaf's .grad from several uses, twice (the second pass accumulates into .grad)
    w = torch.ones(4, requires_grad=True)
    for _ in range(2):
        (w * 2 + w.narrow(0, 0, 4) + w[:4]).sum().backward()
    assert torch.equal(w.grad, torch.full((4,), 8.0))
