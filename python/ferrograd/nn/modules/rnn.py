"""Recurrent layers: RNN (tanh/relu), LSTM (optional projections), GRU and their cells.

Parameters, names, shapes, initialisation order and argument checks follow
``torch.nn.modules.rnn``. The forward pass is composed of tensor ops exactly as ATen's CPU
reference implementation (``aten/src/ATen/native/RNN.cpp``) composes it: the input-to-hidden
projection of a whole layer is computed at once, then each time step adds the hidden-to-hidden
projection; a layer's outputs are stacked (and concatenated over directions), dropout is applied
between layers in training mode, and the final states are stacked over layers and directions.
"""

import math
import numbers
import warnings
import weakref

from ... import _C
from .. import functional as F
from .. import init
from ..parameter import Parameter
from .module import Module

__all__ = ["RNNBase", "RNN", "LSTM", "GRU", "RNNCellBase", "RNNCell", "LSTMCell", "GRUCell"]


def _apply_permutation(tensor, permutation, dim=1):
    return tensor.index_select(dim, permutation)


# ------------------------------------------------------------------------------- the cells
# Each takes the input-to-hidden gates already computed (``igates``), as ATen's CPU layers do.

def _tanh_cell(igates, hx, w_hh, b_hh):
    return (F.linear(hx, w_hh, b_hh) + igates).tanh()


def _relu_cell(igates, hx, w_hh, b_hh):
    return (F.linear(hx, w_hh, b_hh) + igates).relu()


def _lstm_cell(igates, hx, cx, w_hh, b_hh, w_hr=None):
    gates = F.linear(hx, w_hh, b_hh) + igates
    ingate, forgetgate, cellgate, outgate = gates.chunk(4, 1)
    ingate = ingate.sigmoid()
    forgetgate = forgetgate.sigmoid()
    cellgate = cellgate.tanh()
    outgate = outgate.sigmoid()
    cy = forgetgate * cx + ingate * cellgate
    hy = outgate * cy.tanh()
    if w_hr is not None:
        hy = hy.matmul(w_hr.t())
    return hy, cy


def _gru_cell(igates, hx, w_hh, b_hh):
    i_r, i_z, i_n = igates.chunk(3, 1)
    h_r, h_z, h_n = F.linear(hx, w_hh, b_hh).chunk(3, 1)
    resetgate = (h_r + i_r).sigmoid()
    inputgate = (h_z + i_z).sigmoid()
    newgate = (i_n + h_n * resetgate).tanh()
    return (hx - newgate) * inputgate + newgate


# ------------------------------------------------------------------------- the fused LSTM layer
# PyTorch runs a float32 LSTM on the CPU (without projections) through oneDNN: one
# MkldnnRnnLayerBackward0 node per layer and direction, whose inputs are (input, w_ih, w_hh,
# b_ih, b_hh, hx, cx) and outputs (output, hy, cy). ferrograd records the same node over the same
# cell arithmetic; its backward runs the recurrence once in reverse and computes the weight and
# input gradients of the whole sequence as single matrix products (K = T*B, not B per step).

_MKLDNN_FWAD = ("Trying to use forward AD with mkldnn_rnn_layer that does not support it because it has not "
                "been implemented yet.\nPlease file an issue to PyTorch at "
                "https://github.com/pytorch/pytorch/issues/new?template=feature-request.yml so that we can "
                "prioritize its implementation or submit a PR adding the implementation to derivatives.yaml")


def _lstm_layer_function():
    from ...autograd.function import Function

    class _MkldnnRnnLayer(Function):
        @staticmethod
        def forward(ctx, input, w_ih, w_hh, b_ih, b_hh, hx, cx, reverse):
            from ... import stack

            steps, batch = input.shape[0], input.shape[1]
            # one bias, b_ih + b_hh, added with the input projection (oneDNN's LSTM takes the
            # two summed, as PyTorch's mkldnn_rnn_layer passes them; one pass over the gates
            # fewer)
            bias = b_hh if b_ih is None else (b_ih if b_hh is None else b_ih + b_hh)
            igates = F.linear(input.reshape(steps * batch, input.shape[2]), w_ih, bias)
            igates = igates.reshape(steps, batch, -1).unbind(0)
            order = range(steps - 1, -1, -1) if reverse else range(steps)
            h, c = hx, cx
            outs = [None] * steps
            saved = []  # per step, in time order of the loop: (h_prev, c_prev, i, f, g, o, tanh c)
            for t in order:
                # one fused step where the backend has it (float32 on the CPU): the same
                # arithmetic as the tensor ops below, in one pass over the gates
                hw = h.matmul(w_hh.t())
                fused = _C._nn_lstm_cell(igates[t], hw, c)
                if fused is not None:
                    h_new, c_new, i, f, g, o, tc = fused
                    saved.append((h, c, i, f, g, o, tc))
                    h, c = h_new, c_new
                    outs[t] = h
                    continue
                gates = igates[t] + hw
                i, f, g, o = gates.chunk(4, 1)
                i, f, g, o = i.sigmoid(), f.sigmoid(), g.tanh(), o.sigmoid()
                c_new = f * c + i * g
                tc = c_new.tanh()
                saved.append((h, c, i, f, g, o, tc))
                h, c = o * tc, c_new
                outs[t] = h
            ctx.saved = saved
            ctx.reverse = reverse
            ctx.save_for_backward(input, w_ih, w_hh, b_ih, b_hh, hx, cx)
            ctx.has_bias = (b_ih is not None, b_hh is not None)
            return stack(outs, 0), h, c

        @staticmethod
        def backward(ctx, dout, dhy, dcy):
            from ... import cat, is_grad_enabled, stack, zeros_like

            input, w_ih, w_hh, b_ih, b_hh, hx, cx = ctx.saved_tensors
            if is_grad_enabled():
                # create_graph: the saved activations carry no history, so differentiate the
                # cell arithmetic recomputed from the inputs (higher-order gradients exact)
                return _lstm_layer_composite_grads(ctx, (input, w_ih, w_hh, b_ih, b_hh, hx, cx),
                                                   (dout, dhy, dcy))
            saved = ctx.saved
            steps = input.shape[0]
            h0, c0 = saved[0][0], saved[0][1]
            dh = zeros_like(h0) if dhy is None else dhy
            dc = zeros_like(c0) if dcy is None else dcy
            order = list(range(steps - 1, -1, -1) if ctx.reverse else range(steps))
            dgates = [None] * steps
            # the recurrence in reverse: the loop's last step first
            for k in range(steps - 1, -1, -1):
                t = order[k]
                h_prev, c_prev, i, f, g, o, tc = saved[k]
                if dout is not None:
                    dh = dh + dout[t]
                do = dh * tc
                dc = dc + dh * o * (1 - tc * tc)
                di, df, dg = dc * g, dc * c_prev, dc * i
                dgates[k] = cat([di * i * (1 - i), df * f * (1 - f), dg * (1 - g * g), do * o * (1 - o)], 1)
                dh = dgates[k].mm(w_hh)
                dc = dc * f
            # the whole sequence's weight and input gradients at once (rows in the loop's order)
            dg_all = stack(dgates, 0)
            rows = dg_all.reshape(-1, dg_all.shape[-1])
            h_prev = stack([s[0] for s in saved], 0).reshape(rows.shape[0], -1)
            x_rows = stack([input[t] for t in order], 0).reshape(rows.shape[0], -1)
            need = ctx.needs_input_grad
            d_input = None
            if need[0]:
                d_in = rows.mm(w_ih).reshape(steps, input.shape[1], -1).unbind(0)
                per_t = [None] * steps
                for k, t in enumerate(order):
                    per_t[t] = d_in[k]
                d_input = stack(per_t, 0)
            d_w_ih = rows.t().mm(x_rows) if need[1] else None
            d_w_hh = rows.t().mm(h_prev) if need[2] else None
            d_b = rows.sum(0) if (need[3] or need[4]) else None
            return (d_input, d_w_ih, d_w_hh, d_b if ctx.has_bias[0] and need[3] else None,
                    d_b if ctx.has_bias[1] and need[4] else None, dh if need[5] else None,
                    dc if need[6] else None, None)

        @staticmethod
        def jvp(ctx, *tangents):
            raise NotImplementedError(_MKLDNN_FWAD)

    # named and printed as PyTorch's built-in node
    node = _MkldnnRnnLayer._backward_cls
    node.__name__ = node.__qualname__ = "MkldnnRnnLayerBackward0"
    node.__module__ = "builtins"
    return _MkldnnRnnLayer


def _lstm_layer_composite_grads(ctx, inputs, grads):
    """The layer's gradients through the composite cell arithmetic (differentiable again)."""
    from ... import autograd, enable_grad, zeros_like

    input, w_ih, w_hh, b_ih, b_hh, hx, cx = inputs
    with enable_grad():
        out, h, c = _run_direction("LSTM_COMPOSITE", input, hx, cx, [w_ih, w_hh, b_ih, b_hh], b_ih is not None,
                                   False, ctx.reverse)
        outs = [(o, g) for o, g in zip((out, h, c), grads) if g is not None]
        wrt = [(k, t) for k, t in enumerate(inputs) if t is not None and ctx.needs_input_grad[k]]
        res = [None] * 8
        if outs and wrt:
            gs = autograd.grad([o for o, _ in outs], [t for _, t in wrt], [g for _, g in outs],
                               create_graph=True, allow_unused=True)
            for (k, t), g in zip(wrt, gs):
                res[k] = zeros_like(t) if g is None else g
    return tuple(res)


_MKLDNN_LAYER = []


def _fused_lstm_layer(inputs, h0, c0, w_ih, w_hh, b_ih, b_hh, reverse):
    if not _MKLDNN_LAYER:
        _MKLDNN_LAYER.append(_lstm_layer_function())
    return _MKLDNN_LAYER[0].apply(inputs, w_ih, w_hh, b_ih, b_hh, h0, c0, reverse)


_proj_warned = [False]


def _uses_mkldnn_layer(inputs, params):
    """PyTorch's ``use_mkldnn``: a float32 CPU LSTM (projections excluded) with elements."""
    from ... import float32

    return (inputs.dtype == float32 and not inputs.is_cuda and inputs.numel() != 0
            and all(not p.is_cuda for p in params))


def _run_direction(mode, inputs, h0, c0, params, has_bias, has_proj, reverse):
    """One layer, one direction over a (T, B, *) sequence: (stacked outputs, h_T, c_T)."""
    from ... import stack

    w_ih, w_hh = params[0], params[1]
    b_ih, b_hh = (params[2], params[3]) if has_bias else (None, None)
    w_hr = params[-1] if has_proj else None
    if mode == "LSTM" and not has_proj and _uses_mkldnn_layer(inputs, params):
        return _fused_lstm_layer(inputs, h0, c0, w_ih, w_hh, b_ih, b_hh, reverse)
    if mode == "LSTM_COMPOSITE":
        mode = "LSTM"
    igates = F.linear(inputs, w_ih, b_ih).unbind(0)
    steps = range(len(igates) - 1, -1, -1) if reverse else range(len(igates))
    h, c = h0, c0
    outputs = []
    for t in steps:
        if mode == "LSTM":
            h, c = _lstm_cell(igates[t], h, c, w_hh, b_hh, w_hr)
        elif mode == "GRU":
            h = _gru_cell(igates[t], h, w_hh, b_hh)
        elif mode == "RNN_TANH":
            h = _tanh_cell(igates[t], h, w_hh, b_hh)
        else:
            h = _relu_cell(igates[t], h, w_hh, b_hh)
        outputs.append(h)
    if reverse:
        outputs.reverse()
    return stack(outputs, 0), h, c


def _rnn_impl(mode, input, hx, flat_weights, has_bias, num_layers, dropout, train, bidirectional,
              batch_first, has_proj):
    """The multi-layer recurrence; ``hx`` is a tensor, or ``(h0, c0)`` for LSTM."""
    from ... import cat, stack

    if batch_first:
        input = input.transpose(0, 1)
    num_directions = 2 if bidirectional else 1
    per_layer = len(flat_weights) // (num_layers * num_directions)
    if mode == "LSTM":
        h0, c0 = hx
        if has_proj and not _proj_warned[0] and _uses_mkldnn_layer(input, flat_weights):
            # ATen's TORCH_WARN_ONCE: once per process
            _proj_warned[0] = True
            warnings.warn("LSTM with projections is not supported with oneDNN. Using default implementation.",
                          UserWarning, stacklevel=4)
    else:
        h0, c0 = hx, None
    layer_input = input
    final_h, final_c = [], []
    for layer in range(num_layers):
        outs = []
        for direction in range(num_directions):
            idx = layer * num_directions + direction
            params = flat_weights[idx * per_layer:(idx + 1) * per_layer]
            out, h, c = _run_direction(mode, layer_input, h0[idx], None if c0 is None else c0[idx], params,
                                       has_bias, has_proj, reverse=direction == 1)
            outs.append(out)
            final_h.append(h)
            final_c.append(c)
        layer_output = outs[0] if num_directions == 1 else cat(outs, outs[0].dim() - 1)
        if dropout != 0 and train and layer < num_layers - 1:
            layer_output = F.dropout(layer_output, dropout, True)
        layer_input = layer_output
    output = layer_input
    if batch_first:
        # ATen transposes LSTM's output out of place and RNN/GRU's in place (TransposeBackward1)
        output = output.transpose(0, 1) if mode == "LSTM" else output.transpose_(0, 1)
    if mode == "LSTM":
        return output, stack(final_h, 0), stack(final_c, 0)
    return output, stack(final_h, 0)


class RNNBase(Module):
    """Base class for RNN, LSTM and GRU: registers ``weight_ih_l{k}{suffix}``,
    ``weight_hh_l{k}{suffix}``, ``bias_ih_l{k}{suffix}``, ``bias_hh_l{k}{suffix}`` (and
    ``weight_hr_l{k}{suffix}`` with projections) per layer and direction, all initialised from
    U(-1/sqrt(hidden_size), 1/sqrt(hidden_size)) in registration order."""

    __constants__ = ["mode", "input_size", "hidden_size", "num_layers", "bias", "batch_first", "dropout",
                     "bidirectional", "proj_size"]
    __jit_unused_properties__ = ["all_weights"]

    def __init__(self, mode, input_size, hidden_size, num_layers=1, bias=True, batch_first=False, dropout=0.0,
                 bidirectional=False, proj_size=0, device=None, dtype=None):
        from ... import empty

        factory_kwargs = {"device": device, "dtype": dtype}
        super().__init__()
        self.mode = mode
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.num_layers = num_layers
        self.bias = bias
        self.batch_first = batch_first
        self.dropout = float(dropout)
        self.bidirectional = bidirectional
        self.proj_size = proj_size
        self._flat_weight_refs = []
        num_directions = 2 if bidirectional else 1

        if not isinstance(dropout, numbers.Number) or not 0 <= dropout <= 1 or isinstance(dropout, bool):
            raise ValueError("dropout should be a number in range [0, 1] representing the probability of an "
                             "element being zeroed")
        if dropout > 0 and num_layers == 1:
            warnings.warn("dropout option adds dropout after all but last recurrent layer, so non-zero dropout "
                          f"expects num_layers greater than 1, but got dropout={dropout} and "
                          f"num_layers={num_layers}", stacklevel=2)
        if not isinstance(bias, bool):
            raise TypeError(f"bias should be of type bool, got: {type(bias).__name__}")
        if not isinstance(batch_first, bool):
            raise TypeError(f"batch_first should be of type bool, got: {type(batch_first).__name__}")
        if not isinstance(input_size, int):
            raise TypeError(f"input_size should be of type int, got: {type(input_size).__name__}")
        if input_size <= 0:
            raise ValueError("input_size must be greater than zero")
        if not isinstance(hidden_size, int):
            raise TypeError(f"hidden_size should be of type int, got: {type(hidden_size).__name__}")
        if hidden_size <= 0:
            raise ValueError("hidden_size must be greater than zero")
        if num_layers <= 0:
            raise ValueError("num_layers must be greater than zero")
        if proj_size < 0:
            raise ValueError("proj_size should be a positive integer or zero to disable projections")
        if proj_size >= hidden_size:
            raise ValueError("proj_size has to be smaller than hidden_size")

        if mode == "LSTM":
            gate_size = 4 * hidden_size
        elif mode == "GRU":
            gate_size = 3 * hidden_size
        elif mode in ("RNN_TANH", "RNN_RELU"):
            gate_size = hidden_size
        else:
            raise ValueError("Unrecognized RNN mode: " + mode)

        self._flat_weights_names = []
        self._all_weights = []
        for layer in range(num_layers):
            for direction in range(num_directions):
                real_hidden_size = proj_size if proj_size > 0 else hidden_size
                layer_input_size = input_size if layer == 0 else real_hidden_size * num_directions
                w_ih = Parameter(empty((gate_size, layer_input_size), **factory_kwargs))
                w_hh = Parameter(empty((gate_size, real_hidden_size), **factory_kwargs))
                b_ih = Parameter(empty(gate_size, **factory_kwargs))
                b_hh = Parameter(empty(gate_size, **factory_kwargs))
                if self.proj_size == 0:
                    layer_params = (w_ih, w_hh, b_ih, b_hh) if bias else (w_ih, w_hh)
                else:
                    w_hr = Parameter(empty((proj_size, hidden_size), **factory_kwargs))
                    layer_params = (w_ih, w_hh, b_ih, b_hh, w_hr) if bias else (w_ih, w_hh, w_hr)
                suffix = "_reverse" if direction == 1 else ""
                param_names = ["weight_ih_l{}{}", "weight_hh_l{}{}"]
                if bias:
                    param_names += ["bias_ih_l{}{}", "bias_hh_l{}{}"]
                if self.proj_size > 0:
                    param_names += ["weight_hr_l{}{}"]
                param_names = [x.format(layer, suffix) for x in param_names]
                for name, param in zip(param_names, layer_params):
                    setattr(self, name, param)
                self._flat_weights_names.extend(param_names)
                self._all_weights.append(param_names)
        self._init_flat_weights()
        self.reset_parameters()

    def _init_flat_weights(self):
        self._flat_weights = [getattr(self, wn) if hasattr(self, wn) else None for wn in self._flat_weights_names]
        self._flat_weight_refs = [weakref.ref(w) if w is not None else None for w in self._flat_weights]
        self.flatten_parameters()

    def __setattr__(self, attr, value):
        if hasattr(self, "_flat_weights_names") and attr in self._flat_weights_names:
            idx = self._flat_weights_names.index(attr)
            self._flat_weights[idx] = value
        super().__setattr__(attr, value)

    def flatten_parameters(self):
        """Compacts the weights into one buffer for cuDNN; the CPU implementation (and so this
        one) uses the parameters as they are, so there is nothing to do, as in torch on CPU."""
        return None

    def _apply(self, fn, recurse=True):
        self._flat_weight_refs = []
        ret = super()._apply(fn, recurse)
        self._init_flat_weights()
        return ret

    def reset_parameters(self):
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -stdv, stdv)

    def check_input(self, input, batch_sizes):
        if input.dtype != self._flat_weights[0].dtype:
            wd = self._flat_weights[0].dtype
            raise ValueError(f"RNN input dtype ({input.dtype}) does not match weight dtype ({wd}). Convert input: "
                             f"input.to({wd}), or convert model: model.to({input.dtype})")
        expected_input_dim = 2 if batch_sizes is not None else 3
        if input.dim() != expected_input_dim:
            raise RuntimeError(f"input must have {expected_input_dim} dimensions, got {input.dim()}")
        if self.input_size != input.size(-1):
            raise RuntimeError(f"input.size(-1) must be equal to input_size. Expected {self.input_size}, "
                               f"got {input.size(-1)}")

    def get_expected_hidden_size(self, input, batch_sizes):
        if batch_sizes is not None:
            mini_batch = int(batch_sizes[0])
        else:
            mini_batch = input.size(0) if self.batch_first else input.size(1)
        num_directions = 2 if self.bidirectional else 1
        if self.proj_size > 0:
            return (self.num_layers * num_directions, mini_batch, self.proj_size)
        return (self.num_layers * num_directions, mini_batch, self.hidden_size)

    def check_hidden_size(self, hx, expected_hidden_size, msg="Expected hidden size {}, got {}"):
        if tuple(hx.size()) != tuple(expected_hidden_size):
            raise RuntimeError(msg.format(expected_hidden_size, list(hx.size())))

    def _weights_have_changed(self):
        for ref, name in zip(self._flat_weight_refs, self._flat_weights_names):
            weight = getattr(self, name) if hasattr(self, name) else None
            if weight is not None and ref is not None and ref() is not weight:
                return True
        return False

    def check_forward_args(self, input, hidden, batch_sizes):
        self.check_input(input, batch_sizes)
        expected_hidden_size = self.get_expected_hidden_size(input, batch_sizes)
        self.check_hidden_size(hidden, expected_hidden_size)

    def permute_hidden(self, hx, permutation):
        if permutation is None:
            return hx
        return _apply_permutation(hx, permutation)

    def extra_repr(self):
        s = "{input_size}, {hidden_size}"
        if self.proj_size != 0:
            s += ", proj_size={proj_size}"
        if self.num_layers != 1:
            s += ", num_layers={num_layers}"
        if self.bias is not True:
            s += ", bias={bias}"
        if self.batch_first is not False:
            s += ", batch_first={batch_first}"
        if self.dropout != 0:
            s += ", dropout={dropout}"
        if self.bidirectional is not False:
            s += ", bidirectional={bidirectional}"
        return s.format(**self.__dict__)

    def _update_flat_weights(self):
        if self._weights_have_changed():
            self._init_flat_weights()

    def __getstate__(self):
        self._update_flat_weights()
        state = super().__getstate__() if hasattr(super(), "__getstate__") else self.__dict__.copy()
        state = dict(state)
        state.pop("_flat_weight_refs", None)
        return state

    def __setstate__(self, d):
        super().__setstate__(d)
        if "all_weights" in d:
            self._all_weights = d["all_weights"]
        if "proj_size" not in d:
            self.proj_size = 0
        if not isinstance(self._all_weights[0][0], str):
            num_directions = 2 if self.bidirectional else 1
            self._flat_weights_names = []
            self._all_weights = []
            for layer in range(self.num_layers):
                for direction in range(num_directions):
                    suffix = "_reverse" if direction == 1 else ""
                    weights = ["weight_ih_l{}{}", "weight_hh_l{}{}", "bias_ih_l{}{}", "bias_hh_l{}{}",
                               "weight_hr_l{}{}"]
                    weights = [x.format(layer, suffix) for x in weights]
                    if self.bias:
                        names = weights if self.proj_size > 0 else weights[:4]
                    else:
                        names = weights[:2] + weights[-1:] if self.proj_size > 0 else weights[:2]
                    self._all_weights.append(names)
                    self._flat_weights_names.extend(names)
            self._flat_weights = [getattr(self, wn) if hasattr(self, wn) else None
                                  for wn in self._flat_weights_names]
        self._flat_weight_refs = [weakref.ref(w) if w is not None else None for w in self._flat_weights]

    @property
    def all_weights(self):
        return [[getattr(self, weight) for weight in weights] for weights in self._all_weights]

    def _replicate_for_data_parallel(self):
        replica = super()._replicate_for_data_parallel()
        replica._flat_weights = replica._flat_weights[:]
        replica._flat_weights_names = replica._flat_weights_names[:]
        return replica

    def _zeros_hidden(self, input, max_batch_size, size):
        from ... import zeros

        num_directions = 2 if self.bidirectional else 1
        return zeros(self.num_layers * num_directions, max_batch_size, size, dtype=input.dtype, device=input.device)

    def _run(self, input, hx):
        return _rnn_impl(self.mode, input, hx, self._flat_weights, self.bias, self.num_layers, self.dropout,
                         self.training, self.bidirectional, self.batch_first, self.proj_size > 0)


def _is_packed(input):
    from ..utils.rnn import PackedSequence

    return isinstance(input, PackedSequence)


def _packed_forward(module, input, hx, real_hidden_size):
    """The recurrence over a PackedSequence: in sorted order, the sequences of equal length run
    together as one batch (so each stops at its own length), and the outputs are packed again;
    the final states come back in the caller's order."""
    from ... import cat
    from ..utils.rnn import PackedSequence, _padded_sorted

    lstm = module.mode == "LSTM"
    batch_sizes = input.batch_sizes
    max_batch_size = int(batch_sizes[0])
    sorted_indices, unsorted_indices = input.sorted_indices, input.unsorted_indices
    if hx is None:
        hx = module._zeros_hidden(input.data, max_batch_size, real_hidden_size)
        if lstm:
            hx = (hx, module._zeros_hidden(input.data, max_batch_size, module.hidden_size))
    else:
        hx = module.permute_hidden(hx, sorted_indices)
    module.check_forward_args(input.data, hx, batch_sizes)
    padded, lengths = _padded_sorted(input, False, 0.0, None)
    lens = lengths.tolist()
    groups, b = [], 0
    while b < len(lens):
        e = b
        while e < len(lens) and lens[e] == lens[b]:
            e += 1
        groups.append((b, e, lens[b]))
        b = e
    # layer by layer, as ATen's packed recurrence: each layer's output is packed again, and
    # the dropout between layers draws one mask over the packed data (the same draws as PyTorch)
    steps_at = [0]
    for n in batch_sizes.tolist():
        steps_at.append(steps_at[-1] + n)
    nd = 2 if module.bidirectional else 1
    fw = module._flat_weights
    per_layer = len(fw) // (module.num_layers * nd)
    layer_in = [padded[:n, b:e] for b, e, n in groups]
    final_h, final_c = [], []
    data = None
    for layer in range(module.num_layers):
        w = fw[layer * nd * per_layer:(layer + 1) * nd * per_layer]
        outs, hs, cs = [], [], []
        for (b, e, n), x in zip(groups, layer_in):
            rows = slice(layer * nd, (layer + 1) * nd)
            h = (hx[0][rows, b:e], hx[1][rows, b:e]) if lstm else hx[rows, b:e]
            r = _rnn_impl(module.mode, x, h, w, module.bias, 1, 0.0, False, module.bidirectional, False, module.proj_size > 0)
            outs.append(r[0])
            hs.append(r[1])
            if lstm:
                cs.append(r[2])
        final_h.append(cat(hs, 1))
        if lstm:
            final_c.append(cat(cs, 1))
        data = cat([cat([o[step] for (_, _, n), o in zip(groups, outs) if n > step], 0) for step in range(len(batch_sizes))], 0)
        if module.dropout != 0 and module.training and layer < module.num_layers - 1:
            data = F.dropout(data, module.dropout, True)
        if layer < module.num_layers - 1:
            from ... import stack

            layer_in = [stack([data[steps_at[t] + b:steps_at[t] + e] for t in range(n)], 0) for b, e, n in groups]
    hidden = (cat(final_h, 0), cat(final_c, 0)) if lstm else cat(final_h, 0)
    return PackedSequence(data, batch_sizes, sorted_indices, unsorted_indices), module.permute_hidden(hidden, unsorted_indices)


class _SingleHiddenRNN(RNNBase):
    """Shared forward of RNN and GRU (one hidden-state tensor)."""

    _label = "RNN"

    def forward(self, input, hx=None):
        self._update_flat_weights()
        if _is_packed(input):
            return _packed_forward(self, input, hx, self.hidden_size)
        batch_sizes = None
        if input.dim() not in (2, 3):
            raise ValueError(self._dim_message(input))
        is_batched = input.dim() == 3
        batch_dim = 0 if self.batch_first else 1
        if not is_batched:
            input = input.unsqueeze(batch_dim)
            if hx is not None:
                if hx.dim() != 2:
                    raise RuntimeError(f"For unbatched 2-D input, hx should also be 2-D but got {hx.dim()}-D tensor")
                hx = hx.unsqueeze(1)
        elif hx is not None and hx.dim() != 3:
            raise RuntimeError(f"For batched 3-D input, hx should also be 3-D but got {hx.dim()}-D tensor")
        max_batch_size = input.size(0) if self.batch_first else input.size(1)
        if hx is None:
            hx = self._zeros_hidden(input, max_batch_size, self.hidden_size)
        self.check_forward_args(input, hx, batch_sizes)
        output, hidden = self._run(input, hx)
        if not is_batched:
            output = output.squeeze(batch_dim)
            hidden = hidden.squeeze(1)
        return output, hidden


class RNN(_SingleHiddenRNN):
    """Elman RNN: ``h_t = tanh(x_t W_ihᵀ + b_ih + h_{t-1} W_hhᵀ + b_hh)`` (or relu).

    ``RNN(input_size, hidden_size, num_layers=1, nonlinearity='tanh', bias=True,
    batch_first=False, dropout=0.0, bidirectional=False, device=None, dtype=None)``."""

    def __init__(self, *args, **kwargs):
        if "proj_size" in kwargs:
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        if len(args) > 3:
            self.nonlinearity = args[3]
            args = args[:3] + args[4:]
        else:
            self.nonlinearity = kwargs.pop("nonlinearity", "tanh")
        if self.nonlinearity == "tanh":
            mode = "RNN_TANH"
        elif self.nonlinearity == "relu":
            mode = "RNN_RELU"
        else:
            raise ValueError(f"Unknown nonlinearity '{self.nonlinearity}'. Select from 'tanh' or 'relu'.")
        super().__init__(mode, *args, **kwargs)

    def _dim_message(self, input):
        return f"RNN: Expected input to be 2D or 3D, got {input.dim()}D tensor instead"


class GRU(_SingleHiddenRNN):
    """Gated recurrent unit: reset gate r, update gate z, new gate n;
    ``h_t = (1 - z) * n + z * h_{t-1}``.

    ``GRU(input_size, hidden_size, num_layers=1, bias=True, batch_first=False, dropout=0.0,
    bidirectional=False, device=None, dtype=None)``."""

    def __init__(self, *args, **kwargs):
        if "proj_size" in kwargs:
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        super().__init__("GRU", *args, **kwargs)

    def _dim_message(self, input):
        return f"GRU: Expected input to be 2D or 3D, got {input.dim()}D instead"


class LSTM(RNNBase):
    """Long short-term memory with input, forget, cell and output gates; with ``proj_size > 0``
    the hidden state is projected by ``weight_hr_l{k}``.

    ``LSTM(input_size, hidden_size, num_layers=1, bias=True, batch_first=False, dropout=0.0,
    bidirectional=False, proj_size=0, device=None, dtype=None)``; ``forward(input, (h_0, c_0))``
    returns ``output, (h_n, c_n)``."""

    def __init__(self, *args, **kwargs):
        super().__init__("LSTM", *args, **kwargs)

    def get_expected_cell_size(self, input, batch_sizes):
        if batch_sizes is not None:
            mini_batch = int(batch_sizes[0])
        else:
            mini_batch = input.size(0) if self.batch_first else input.size(1)
        num_directions = 2 if self.bidirectional else 1
        return (self.num_layers * num_directions, mini_batch, self.hidden_size)

    def check_forward_args(self, input, hidden, batch_sizes):
        self.check_input(input, batch_sizes)
        self.check_hidden_size(hidden[0], self.get_expected_hidden_size(input, batch_sizes),
                               "Expected hidden[0] size {}, got {}")
        self.check_hidden_size(hidden[1], self.get_expected_cell_size(input, batch_sizes),
                               "Expected hidden[1] size {}, got {}")

    def permute_hidden(self, hx, permutation):
        if permutation is None:
            return hx
        return _apply_permutation(hx[0], permutation), _apply_permutation(hx[1], permutation)

    def forward(self, input, hx=None):
        self._update_flat_weights()
        real_hidden_size = self.proj_size if self.proj_size > 0 else self.hidden_size
        if _is_packed(input):
            return _packed_forward(self, input, hx, real_hidden_size)
        batch_sizes = None
        if input.dim() not in (2, 3):
            raise ValueError(f"LSTM: Expected input to be 2D or 3D, got {input.dim()}D instead")
        is_batched = input.dim() == 3
        batch_dim = 0 if self.batch_first else 1
        if not is_batched:
            input = input.unsqueeze(batch_dim)
        max_batch_size = input.size(0) if self.batch_first else input.size(1)
        if hx is None:
            hx = (self._zeros_hidden(input, max_batch_size, real_hidden_size),
                  self._zeros_hidden(input, max_batch_size, self.hidden_size))
            self.check_forward_args(input, hx, batch_sizes)
        else:
            if is_batched:
                if hx[0].dim() != 3 or hx[1].dim() != 3:
                    raise RuntimeError("For batched 3-D input, hx and cx should also be 3-D but got "
                                       f"({hx[0].dim()}-D, {hx[1].dim()}-D) tensors")
            else:
                if hx[0].dim() != 2 or hx[1].dim() != 2:
                    raise RuntimeError("For unbatched 2-D input, hx and cx should also be 2-D but got "
                                       f"({hx[0].dim()}-D, {hx[1].dim()}-D) tensors")
                hx = (hx[0].unsqueeze(1), hx[1].unsqueeze(1))
            self.check_forward_args(input, hx, batch_sizes)
        output, h_n, c_n = self._run(input, hx)
        if not is_batched:
            output = output.squeeze(batch_dim)
            h_n, c_n = h_n.squeeze(1), c_n.squeeze(1)
        return output, (h_n, c_n)


class RNNCellBase(Module):
    """Base of the cells: ``weight_ih`` (num_chunks*hidden, input), ``weight_hh``
    (num_chunks*hidden, hidden), ``bias_ih``/``bias_hh``; U(-1/sqrt(hidden), 1/sqrt(hidden))."""

    __constants__ = ["input_size", "hidden_size", "bias"]

    def __init__(self, input_size, hidden_size, bias, num_chunks, device=None, dtype=None):
        from ... import empty

        factory_kwargs = {"device": device, "dtype": dtype}
        super().__init__()
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.bias = bias
        self.weight_ih = Parameter(empty((num_chunks * hidden_size, input_size), **factory_kwargs))
        self.weight_hh = Parameter(empty((num_chunks * hidden_size, hidden_size), **factory_kwargs))
        if bias:
            self.bias_ih = Parameter(empty(num_chunks * hidden_size, **factory_kwargs))
            self.bias_hh = Parameter(empty(num_chunks * hidden_size, **factory_kwargs))
        else:
            self.register_parameter("bias_ih", None)
            self.register_parameter("bias_hh", None)
        self.reset_parameters()

    def extra_repr(self):
        s = "{input_size}, {hidden_size}"
        if "bias" in self.__dict__ and self.bias is not True:
            s += ", bias={bias}"
        if "nonlinearity" in self.__dict__ and self.nonlinearity != "tanh":
            s += ", nonlinearity={nonlinearity}"
        return s.format(**self.__dict__)

    def reset_parameters(self):
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -stdv, stdv)

    def _zeros(self, input):
        from ... import zeros

        return zeros(input.size(0), self.hidden_size, dtype=input.dtype, device=input.device)

    def _check_cell(self, input, hx, hidden_label):
        # at::_rnn_cell checks (aten/src/ATen/native/RNN.cpp: check_rnn_cell_forward_*)
        if input.size(1) != self.input_size:
            raise RuntimeError(f"input has inconsistent input_size: got {input.size(1)} expected {self.input_size}")
        if input.size(0) != hx.size(0):
            raise RuntimeError(f"Input batch size {input.size(0)} doesn't match hidden{hidden_label} batch size "
                               f"{hx.size(0)}")
        if hx.size(1) != self.hidden_size:
            raise RuntimeError(f"hidden{hidden_label} has inconsistent hidden_size: got {hx.size(1)}, expected "
                               f"{self.hidden_size}")


class RNNCell(RNNCellBase):
    """One Elman step: ``h' = tanh(x W_ihᵀ + b_ih + h W_hhᵀ + b_hh)`` (or relu)."""

    __constants__ = ["input_size", "hidden_size", "bias", "nonlinearity"]

    def __init__(self, input_size, hidden_size, bias=True, nonlinearity="tanh", device=None, dtype=None):
        super().__init__(input_size, hidden_size, bias, num_chunks=1, device=device, dtype=dtype)
        self.nonlinearity = nonlinearity

    def forward(self, input, hx=None):
        if input.dim() not in (1, 2):
            raise ValueError(f"RNNCell: Expected input to be 1D or 2D, got {input.dim()}D instead")
        if hx is not None and hx.dim() not in (1, 2):
            raise ValueError(f"RNNCell: Expected hidden to be 1D or 2D, got {hx.dim()}D instead")
        is_batched = input.dim() == 2
        if not is_batched:
            input = input.unsqueeze(0)
        if hx is None:
            hx = self._zeros(input)
        else:
            hx = hx.unsqueeze(0) if not is_batched else hx
        if self.nonlinearity not in ("tanh", "relu"):
            raise RuntimeError(f"Unknown nonlinearity: {self.nonlinearity}")
        self._check_cell(input, hx, "0")
        igates = F.linear(input, self.weight_ih, self.bias_ih)
        cell = _tanh_cell if self.nonlinearity == "tanh" else _relu_cell
        ret = cell(igates, hx, self.weight_hh, self.bias_hh)
        if not is_batched:
            ret = ret.squeeze(0)
        return ret


class LSTMCell(RNNCellBase):
    """One LSTM step: returns ``(h', c')``."""

    def __init__(self, input_size, hidden_size, bias=True, device=None, dtype=None):
        super().__init__(input_size, hidden_size, bias, num_chunks=4, device=device, dtype=dtype)

    def forward(self, input, hx=None):
        if input.dim() not in (1, 2):
            raise ValueError(f"LSTMCell: Expected input to be 1D or 2D, got {input.dim()}D instead")
        if hx is not None:
            for idx, value in enumerate(hx):
                if value.dim() not in (1, 2):
                    raise ValueError(f"LSTMCell: Expected hx[{idx}] to be 1D or 2D, got {value.dim()}D instead")
        is_batched = input.dim() == 2
        if not is_batched:
            input = input.unsqueeze(0)
        if hx is None:
            zeros = self._zeros(input)
            hx = (zeros, zeros)
        else:
            hx = (hx[0].unsqueeze(0), hx[1].unsqueeze(0)) if not is_batched else hx
        self._check_cell(input, hx[0], "0")
        self._check_cell(input, hx[1], "1")
        igates = F.linear(input, self.weight_ih, self.bias_ih)
        ret = _lstm_cell(igates, hx[0], hx[1], self.weight_hh, self.bias_hh)
        if not is_batched:
            ret = (ret[0].squeeze(0), ret[1].squeeze(0))
        return ret


class GRUCell(RNNCellBase):
    """One GRU step."""

    def __init__(self, input_size, hidden_size, bias=True, device=None, dtype=None):
        super().__init__(input_size, hidden_size, bias, num_chunks=3, device=device, dtype=dtype)

    def forward(self, input, hx=None):
        if input.dim() not in (1, 2):
            raise ValueError(f"GRUCell: Expected input to be 1D or 2D, got {input.dim()}D instead")
        if hx is not None and hx.dim() not in (1, 2):
            raise ValueError(f"GRUCell: Expected hidden to be 1D or 2D, got {hx.dim()}D instead")
        is_batched = input.dim() == 2
        if not is_batched:
            input = input.unsqueeze(0)
        if hx is None:
            hx = self._zeros(input)
        else:
            hx = hx.unsqueeze(0) if not is_batched else hx
        self._check_cell(input, hx, "0")
        igates = F.linear(input, self.weight_ih, self.bias_ih)
        ret = _gru_cell(igates, hx, self.weight_hh, self.bias_hh)
        if not is_batched:
            ret = ret.squeeze(0)
        return ret
