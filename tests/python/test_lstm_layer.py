"""nn.LSTM's fused layer node (MkldnnRnnLayerBackward0, as PyTorch's float32 CPU LSTM records):
the graph PyTorch 2.13 builds, gradients equal to the composite cell arithmetic's, exact
double backward, PyTorch's forward-AD error and projection warning."""

import warnings

import pytest

import ferrograd as torch
from ferrograd.nn.modules import rnn


def _grads(lstm, x, h0, c0, composite):
    old = rnn._uses_mkldnn_layer
    if composite:
        rnn._uses_mkldnn_layer = lambda *a: False
    try:
        out, (h, c) = lstm(x, (h0, c0))
        loss = out.sin().sum() + h.cos().sum() + (c * c).sum()
        return [loss] + list(torch.autograd.grad(loss, [x, h0, c0] + list(lstm.parameters())))
    finally:
        rnn._uses_mkldnn_layer = old


@pytest.mark.parametrize("kw", [{}, {"bias": False}, {"bidirectional": True, "num_layers": 2},
                                {"batch_first": True, "num_layers": 2}])
def test_fused_layer_gradients_equal_the_composite_ones(kw):
    torch.manual_seed(0)
    lstm = torch.nn.LSTM(4, 3, **kw)
    x = torch.randn(2, 5, 4) if kw.get("batch_first") else torch.randn(5, 2, 4)
    x.requires_grad_()
    n = kw.get("num_layers", 1) * (2 if kw.get("bidirectional") else 1)
    h0 = torch.randn(n, 2, 3, requires_grad=True)
    c0 = torch.randn(n, 2, 3, requires_grad=True)
    fused = _grads(lstm, x, h0, c0, composite=False)
    composite = _grads(lstm, x, h0, c0, composite=True)
    for a, b in zip(fused, composite):
        assert torch.allclose(a, b, rtol=1e-5, atol=1e-6)


def test_graph_is_pytorchs():
    torch.manual_seed(0)
    lstm = torch.nn.LSTM(4, 3)
    out, (h, c) = lstm(torch.randn(5, 2, 4))
    node = out.grad_fn
    assert type(node).__name__ == "MkldnnRnnLayerBackward0" and repr(node).startswith("<MkldnnRnnLayerBackward0 object")
    assert [type(f).__name__ if f else None for f, _ in node.next_functions] == \
        [None, "AccumulateGrad", "AccumulateGrad", "AccumulateGrad", "AccumulateGrad", None, None]
    assert h.grad_fn.next_functions[0] == (node, 1) and c.grad_fn.next_functions[0] == (node, 2)
    bi = torch.nn.LSTM(4, 3, bidirectional=True)(torch.randn(5, 2, 4))[0]
    assert [type(f).__name__ for f, _ in bi.grad_fn.next_functions] == ["MkldnnRnnLayerBackward0"] * 2
    # float64 runs the composite arithmetic, as PyTorch's non-oneDNN path
    assert type(torch.nn.LSTM(4, 3).double()(torch.randn(5, 2, 4).double())[0].grad_fn).__name__ == "StackBackward0"


def test_double_backward_is_exact():
    # PyTorch 2.13 gives 1.4781 for this program
    torch.manual_seed(0)
    lstm = torch.nn.LSTM(4, 3)
    x = torch.randn(5, 2, 4).requires_grad_()
    g, = torch.autograd.grad(lstm(x)[0].pow(2).sum(), x, create_graph=True)
    gg, = torch.autograd.grad(g.sum(), x)
    assert round(gg.sum().item(), 4) == 1.4781


def test_forward_ad_and_projection_messages():
    lstm = torch.nn.LSTM(4, 3)
    x = torch.randn(5, 2, 4)
    with pytest.raises(NotImplementedError, match="^Trying to use forward AD with mkldnn_rnn_layer that does not support it"):
        torch.func.jvp(lambda a: lstm(a)[0], (x,), (torch.ones_like(x),))
    import ferrograd.nn.modules.rnn as rnn_mod

    rnn_mod._proj_warned[0] = False  # once per process, as ATen's TORCH_WARN_ONCE: re-arm it
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        lstm = torch.nn.LSTM(4, 3, proj_size=2)
        out = lstm(x)[0]
        lstm(x)
    assert type(out.grad_fn).__name__ == "StackBackward0"
    assert [str(m.message) for m in w] == ["LSTM with projections is not supported with oneDNN. Using default implementation."]


def test_fused_cell_step_equals_the_tensor_ops():
    """The fused float32 cell step (`_C._nn_lstm_cell`) gives the bits of the tensor ops it
    replaces, and declines float64 and mismatched shapes (the layer then runs the ops)."""
    torch.manual_seed(0)
    ig, hw, c = torch.randn(5, 28), torch.randn(5, 28), torch.randn(5, 7)
    fused = torch._C._nn_lstm_cell(ig, hw, c)
    i, f, g, o = (ig + hw).chunk(4, 1)
    i, f, g, o = i.sigmoid(), f.sigmoid(), g.tanh(), o.sigmoid()
    c2 = f * c + i * g
    tc = c2.tanh()
    want = [o * tc, c2, i, f, g, o, tc]
    assert len(fused) == 7
    for got, exp in zip(fused, want):
        assert got.shape == exp.shape and got.dtype == exp.dtype
        assert bool((got == exp).all())
    assert torch._C._nn_lstm_cell(ig.double(), hw.double(), c.double()) is None
    assert torch._C._nn_lstm_cell(ig[:, :27], hw[:, :27], c) is None
    # a strided gate view (not contiguous) is declined, not misread
    assert torch._C._nn_lstm_cell(torch.randn(28, 5).t(), hw, c) is None
