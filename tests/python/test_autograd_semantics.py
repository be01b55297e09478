"""More of PyTorch's autograd semantics: inference mode, .data vs detach, custom Function
ctx switches, functional transforms, once_differentiable, saved-tensor access errors."""

import pytest

import ferrograd as torch
from conftest import raises, to_np


def test_inference_mode_errors():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    with torch.inference_mode():
        y = x * 3
    raises(RuntimeError, "Inference tensors cannot be saved for backward.", lambda: x * y)
    raises(RuntimeError, "Inplace update to inference tensor outside InferenceMode is not allowed.", lambda: y.add_(1))


def test_data_and_detach_versions():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    x.data.mul_(2)
    assert x._version == 0 and x.tolist() == [2.0, 4.0]
    d = x.detach()
    d.add_(1)
    assert x._version == 1 and x.tolist() == [3.0, 5.0]
    z = x * 2
    z.detach_()
    assert z.grad_fn is None and not z.requires_grad
    raises(RuntimeError, "you can only change requires_grad flags of leaf variables.", lambda: (x * 2).requires_grad_(False))


def test_function_ctx_switches():
    class Sort(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            v, i = torch.sort(x)
            ctx.mark_non_differentiable(i)
            ctx.save_for_backward(i)
            return v, i

        @staticmethod
        def backward(ctx, gv, gi):
            i, = ctx.saved_tensors
            out = torch.zeros_like(gv)
            out[i] = gv
            return out

    class Pair(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.set_materialize_grads(False)
            return x * 2, x * 3

        @staticmethod
        def backward(ctx, g1, g2):
            assert g2 is None
            return 2 * g1

    x = torch.tensor([3.0, 1.0, 2.0], requires_grad=True)
    v, i = Sort.apply(x)
    assert not i.requires_grad and v.grad_fn is not None
    (v * torch.tensor([1.0, 10.0, 100.0])).sum().backward()
    assert to_np(x.grad).tolist() == [100.0, 1.0, 10.0]
    y = torch.tensor([1.0], requires_grad=True)
    p, q = Pair.apply(y)
    p.sum().backward()
    assert y.grad.item() == 2.0


def test_setup_context_style_and_wrong_count():
    class Scale(torch.autograd.Function):
        @staticmethod
        def forward(x, k):
            return x * k

        @staticmethod
        def setup_context(ctx, inputs, output):
            ctx.k = inputs[1]

        @staticmethod
        def backward(ctx, g):
            return g * ctx.k, None

    class TooFew(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x, k):
            return x * k

        @staticmethod
        def backward(ctx, g):
            return g

    x = torch.tensor([1.0, 2.0], requires_grad=True)
    Scale.apply(x, 3.0).sum().backward()
    assert x.grad.tolist() == [3.0, 3.0]
    raises(RuntimeError, "function TooFewBackward returned an incorrect number of gradients (expected 2, got 1)",
           lambda: TooFew.apply(x, 2.0).sum().backward())


def test_once_differentiable():
    class Cube(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x ** 3

        @staticmethod
        @torch.autograd.function.once_differentiable
        def backward(ctx, g):
            x, = ctx.saved_tensors
            return 3 * x ** 2 * g

    x = torch.tensor([2.0], requires_grad=True)
    y = Cube.apply(x)
    h, = torch.autograd.grad((y * y).sum(), x, create_graph=True)
    assert h.item() == 192.0
    raises(RuntimeError, "trying to differentiate twice a function that was marked with @once_differentiable",
           lambda: h.sum().backward())


def test_saved_tensors_freed_after_backward():
    class Keep(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g * 2

    x = torch.tensor([1.0], requires_grad=True)
    y = Keep.apply(x)
    y.sum().backward()
    raises(RuntimeError, "Trying to backward through the graph a second time", lambda: y.grad_fn.saved_tensors)


def test_functional_vjp_jvp_hvp_vhp():
    F = torch.autograd.functional
    x = torch.tensor([1.0, 2.0])
    v = torch.tensor([1.0, -1.0])
    out, vjp = F.vjp(lambda t: t ** 2 * 3, x, v)
    assert out.tolist() == [3.0, 12.0] and vjp.tolist() == [6.0, -12.0]
    _, jvp = F.jvp(lambda t: t ** 2 * 3, x, v)
    assert jvp.tolist() == [6.0, -12.0]
    val, hvp = F.hvp(lambda t: (t ** 3).sum(), x, v)
    assert val.item() == 9.0 and hvp.tolist() == [6.0, -12.0]
    _, vhp = F.vhp(lambda t: (t ** 3).sum(), x, v)
    assert vhp.tolist() == [6.0, -12.0]
    ja, jb = F.jacobian(lambda a, b: a * b + b, (x, v))
    assert ja.tolist() == [[1.0, 0.0], [0.0, -1.0]] and jb.tolist() == [[2.0, 0.0], [0.0, 3.0]]


def test_gradcheck_catches_a_wrong_gradient():
    class Wrong(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g * 3

    x = torch.tensor([0.5, -0.3], dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(lambda t: (t * t).sin(), (x,))
    with pytest.raises(RuntimeError, match="Jacobian mismatch"):
        torch.autograd.gradcheck(Wrong.apply, (x,))
    assert torch.autograd.gradcheck(Wrong.apply, (x,), raise_exception=False) is False


def test_backward_inputs_and_non_leaf_retain():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    w = torch.tensor([3.0, 4.0], requires_grad=True)
    (x * w).sum().backward(inputs=[x])
    assert x.grad.tolist() == [3.0, 4.0] and w.grad is None
    raises(RuntimeError, "'inputs' argument to backward() cannot be empty.", lambda: (x * w).sum().backward(inputs=[]))


def test_grad_mode_thread_local():
    import threading

    seen = {}

    def other():
        seen["enabled"] = torch.is_grad_enabled()

    with torch.no_grad():
        t = threading.Thread(target=other)
        t.start()
        t.join()
    assert seen["enabled"] is True


def test_inplace_constant_on_view_cuts_history():
    x = torch.ones(2, 3, requires_grad=True)
    y = x * 1
    y.t()[0].zero_()
    y.sum().backward()
    assert type(y.grad_fn).__name__ == "CopySlices"
    assert x.grad.tolist() == [[0.0, 1.0, 1.0], [0.0, 1.0, 1.0]]


def test_inplace_shape_ops_and_overlap_error():
    x = torch.ones(2, 3, requires_grad=True)
    y = x + 1
    y.transpose_(0, 1)
    assert list(y.shape) == [3, 2] and type(y.grad_fn).__name__ == "TransposeBackward1"
    z = torch.ones(2, 1)
    assert list(z.squeeze_().shape) == [2] and list(z.unsqueeze_(0).shape) == [1, 2]
    raises(RuntimeError, "unsupported operation: more than one element of the written-to tensor refers to a single memory location.",
           lambda: torch.ones(3).expand(2, 3).add_(1))
    v = torch.ones(2, 2)[0]
    assert v._base is not None and torch.ones(2)._base is None

