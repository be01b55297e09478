"""Record PyTorch's results for the recurrent and attention layer cases into
``tests/python/fixtures/rnn_attention.json``.

Run with the PyTorch environment::

    .venv-bench/bin/python tools/record_rnn_attention_goldens.py

Every case is a function ``fn(torch)`` returning plain values (lists, numbers, strings);
``tests/python/test_nn_rnn_attention.py`` loads this module (it never imports torch: torch is
imported only by ``main``), runs each case with ``ferrograd`` and compares with the fixture.

The value cases overwrite every parameter with fixed values computed in Python, so they do not
depend on the random initialisation; the ``init_*`` cases check the initialisation streams
(``manual_seed`` then construction); ``*_train_dropout`` cases check the dropout streams.
"""

import itertools
import json
import math
import os
import sys
import warnings

FIXTURE = os.path.join(os.path.dirname(__file__), "..", "tests", "python", "fixtures", "rnn_attention.json")


# ----------------------------------------------------------------------------- helpers

def V(t):
    """Flat list of a tensor's values."""
    return [float(v) for v in t.detach().reshape(-1).tolist()]


def T(t):
    """Values, shape and grad_fn name of a tensor."""
    return {"v": V(t), "shape": list(t.shape), "grad_fn": type(t.grad_fn).__name__ if t.grad_fn is not None else None}


def raises(fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - the type is the result
        return {"type": type(e).__name__, "msg": str(e).split("\n")[0].replace("torch.", "T.").replace("ferrograd.", "T.")}
    return {"type": None}


def _vals(n, step, phase, scale=1.0):
    return [scale * math.sin(step * i + phase) for i in range(n)]


def fill(torch, module, scale=0.5, phase=0.0):
    """Overwrite every parameter with fixed values, in registration order."""
    with torch.no_grad():
        for i, p in enumerate(module.parameters()):
            p.copy_(torch.tensor(_vals(p.numel(), 0.9, phase + 0.5 * i, scale)).reshape(p.shape))
    return module


def inp(torch, *shape, scale=1.0, phase=0.1, grad=True):
    n = 1
    for s in shape:
        n *= s
    t = torch.tensor(_vals(n, 1.3, phase, scale)).reshape(shape)
    return t.requires_grad_() if grad else t


def weighted_sum(torch, *outs):
    """A scalar in which every output element has a different weight."""
    total = None
    for k, out in enumerate(outs):
        n = out.numel()
        w = torch.tensor([1.0 + 0.5 * math.cos(0.6 * i + k) for i in range(n)]).reshape(out.shape)
        term = (out * w).sum()
        total = term if total is None else total + term
    return total


def grads(module):
    return {n: (V(p.grad) if p.grad is not None else None) for n, p in module.named_parameters()}


CASES = {}


def case(name):
    def deco(fn):
        CASES[name] = fn
        return fn
    return deco


def run_case(torch, name):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return CASES[name](torch)


# ----------------------------------------------------------------------------- recurrent layers

I, H, T_, B = 3, 4, 3, 2


def _rnn_ctor(torch, mode, **kw):
    if mode == "rnn_tanh":
        return torch.nn.RNN(I, H, **kw)
    if mode == "rnn_relu":
        return torch.nn.RNN(I, H, nonlinearity="relu", **kw)
    if mode == "lstm":
        return torch.nn.LSTM(I, H, **kw)
    return torch.nn.GRU(I, H, **kw)


def _rnn_case(mode, num_layers, bias, batch_first, bidirectional, with_h0, proj_size=0, unbatched=False):
    def fn(torch):
        kw = dict(num_layers=num_layers, bias=bias, batch_first=batch_first, bidirectional=bidirectional)
        if proj_size:
            kw["proj_size"] = proj_size
        m = fill(torch, _rnn_ctor(torch, mode, **kw), 0.5, 0.3)
        D = 2 if bidirectional else 1
        Hout = proj_size or H
        if unbatched:
            x = inp(torch, T_, I)
            hshape, cshape = (num_layers * D, Hout), (num_layers * D, H)
        else:
            x = inp(torch, B, T_, I) if batch_first else inp(torch, T_, B, I)
            hshape, cshape = (num_layers * D, B, Hout), (num_layers * D, B, H)
        hx = None
        leaves = []
        if with_h0:
            h0 = inp(torch, *hshape, scale=0.4, phase=0.7)
            leaves.append(h0)
            if mode == "lstm":
                c0 = inp(torch, *cshape, scale=0.6, phase=1.9)
                leaves.append(c0)
                hx = (h0, c0)
            else:
                hx = h0
        out, hn = m(x, hx) if hx is not None else m(x)
        res = {"out": T(out)}
        if mode == "lstm":
            res["h"], res["c"] = T(hn[0]), T(hn[1])
            weighted_sum(torch, out, hn[0], hn[1]).backward()
        else:
            res["h"] = T(hn)
            weighted_sum(torch, out, hn).backward()
        res["x_grad"] = V(x.grad)
        res["hx_grads"] = [V(t.grad) for t in leaves]
        res["param_grads"] = grads(m)
        res["names"] = [[n, list(p.shape)] for n, p in m.named_parameters()]
        res["repr"] = repr(m)
        return res
    return fn


for _mode in ("rnn_tanh", "rnn_relu", "lstm", "gru"):
    for _k, (_nl, _bias, _bf, _bid) in enumerate(itertools.product((1, 2), (True, False), (False, True), (False, True))):
        _h0 = _k % 2 == 1 if _mode != "gru" else _k % 3 != 0
        CASES[f"{_mode}_l{_nl}_bias{int(_bias)}_bf{int(_bf)}_bi{int(_bid)}_h0{int(_h0)}"] = \
            _rnn_case(_mode, _nl, _bias, _bf, _bid, _h0)
    for _h0 in (False, True):
        for _bf in (False, True):
            CASES[f"{_mode}_unbatched_bf{int(_bf)}_h0{int(_h0)}"] = _rnn_case(_mode, 2, True, _bf, True, _h0,
                                                                              unbatched=True)
for _nl, _bid, _bias, _h0 in [(1, False, True, False), (2, True, True, True), (2, False, False, True),
                              (1, True, True, True)]:
    CASES[f"lstm_proj_l{_nl}_bi{int(_bid)}_bias{int(_bias)}_h0{int(_h0)}"] = \
        _rnn_case("lstm", _nl, _bias, False, _bid, _h0, proj_size=2)
CASES["lstm_proj_unbatched"] = _rnn_case("lstm", 2, True, True, True, True, proj_size=3, unbatched=True)


def _rnn_dropout_case(mode, train):
    def fn(torch):
        m = fill(torch, _rnn_ctor(torch, mode, num_layers=3, dropout=0.4, bidirectional=True), 0.5, 0.3)
        m.train(train)
        torch.manual_seed(7)
        x = inp(torch, T_, B, I)
        out, hn = m(x)
        h = hn[0] if mode == "lstm" else hn
        weighted_sum(torch, out, h).backward()
        return {"out": V(out), "h": V(h), "x_grad": V(x.grad), "w_ih_l1_grad": V(m.weight_ih_l1.grad),
                "training": m.training}
    return fn


for _mode in ("rnn_tanh", "lstm", "gru"):
    CASES[f"{_mode}_train_dropout"] = _rnn_dropout_case(_mode, True)
    CASES[f"{_mode}_eval_dropout"] = _rnn_dropout_case(_mode, False)


def _cell_case(kind, bias, batched, with_hx):
    def fn(torch):
        if kind == "rnn_tanh":
            m = torch.nn.RNNCell(I, H, bias=bias)
        elif kind == "rnn_relu":
            m = torch.nn.RNNCell(I, H, bias=bias, nonlinearity="relu")
        elif kind == "lstm":
            m = torch.nn.LSTMCell(I, H, bias=bias)
        else:
            m = torch.nn.GRUCell(I, H, bias=bias)
        fill(torch, m, 0.6, 1.1)
        x = inp(torch, B, I) if batched else inp(torch, I)
        hshape = (B, H) if batched else (H,)
        leaves = []
        hx = None
        if with_hx:
            h0 = inp(torch, *hshape, scale=0.4, phase=0.7)
            leaves.append(h0)
            if kind == "lstm":
                c0 = inp(torch, *hshape, scale=0.6, phase=1.9)
                leaves.append(c0)
                hx = (h0, c0)
            else:
                hx = h0
        r = m(x, hx) if hx is not None else m(x)
        outs = r if isinstance(r, tuple) else (r,)
        weighted_sum(torch, *outs).backward()
        return {"outs": [T(o) for o in outs], "x_grad": V(x.grad), "hx_grads": [V(t.grad) for t in leaves],
                "param_grads": grads(m), "repr": repr(m),
                "names": [[n, list(p.shape)] for n, p in m.named_parameters()]}
    return fn


for _kind in ("rnn_tanh", "rnn_relu", "lstm", "gru"):
    for _bias, _batched, _hx in [(True, True, True), (False, True, False), (True, False, True), (True, False, False)]:
        CASES[f"cell_{_kind}_bias{int(_bias)}_batched{int(_batched)}_hx{int(_hx)}"] = \
            _cell_case(_kind, _bias, _batched, _hx)


@case("rnn_errors")
def _rnn_errors(torch):
    nn = torch.nn
    lstm, gru, rnn = nn.LSTM(3, 4), nn.GRU(3, 4), nn.RNN(3, 4)
    x = torch.zeros(2, 3, 3)
    return {
        "mode": raises(lambda: nn.RNN(3, 4, nonlinearity="sigmoid")),
        "proj_gru": raises(lambda: nn.GRU(3, 4, proj_size=2)),
        "proj_big": raises(lambda: nn.LSTM(3, 4, proj_size=4)),
        "proj_neg": raises(lambda: nn.LSTM(3, 4, proj_size=-1)),
        "hidden0": raises(lambda: nn.LSTM(3, 0)),
        "layers0": raises(lambda: nn.LSTM(3, 4, num_layers=0)),
        "dropout_range": raises(lambda: nn.GRU(3, 4, dropout=1.5)),
        "dropout_bool": raises(lambda: nn.GRU(3, 4, dropout=True)),
        "bias_type": raises(lambda: nn.GRU(3, 4, bias=1)),
        "input_type": raises(lambda: nn.GRU(3.0, 4)),
        "input_dim": raises(lambda: lstm(torch.zeros(3))),
        "gru_dim": raises(lambda: gru(torch.zeros(1, 2, 3, 3))),
        "rnn_dim": raises(lambda: rnn(torch.zeros(3))),
        "input_size": raises(lambda: gru(torch.zeros(2, 3, 5))),
        "input_dtype": raises(lambda: rnn(x.double())),
        "hidden_size": raises(lambda: gru(x, torch.zeros(2, 3, 4))),
        "hidden_dim": raises(lambda: gru(x, torch.zeros(3, 4))),
        "unbatched_hidden_dim": raises(lambda: rnn(torch.zeros(2, 3), torch.zeros(1, 1, 4))),
        "lstm_hidden": raises(lambda: lstm(x, (torch.zeros(1, 3, 4), torch.zeros(1, 2, 4)))),
        "lstm_hidden_dims": raises(lambda: lstm(x, (torch.zeros(3, 4), torch.zeros(1, 3, 4)))),
        "lstm_unbatched_dims": raises(lambda: lstm(torch.zeros(2, 3), (torch.zeros(1, 3, 4), torch.zeros(1, 4)))),
        "cell_dim": raises(lambda: nn.GRUCell(3, 4)(torch.zeros(1, 2, 3))),
        "cell_hidden_dim": raises(lambda: nn.RNNCell(3, 4)(torch.zeros(2, 3), torch.zeros(1, 2, 4))),
        "cell_input_size": raises(lambda: nn.LSTMCell(3, 4)(torch.zeros(2, 5))),
        "cell_batch": raises(lambda: nn.LSTMCell(3, 4)(torch.zeros(2, 3), (torch.zeros(3, 4), torch.zeros(2, 4)))),
        "cell_hidden_size": raises(lambda: nn.GRUCell(3, 4)(torch.zeros(2, 3), torch.zeros(2, 5))),
        "cell_nonlinearity": raises(lambda: nn.RNNCell(3, 4, nonlinearity="gelu")(torch.zeros(2, 3))),
        "lstm_cell_hx_dim": raises(lambda: nn.LSTMCell(3, 4)(torch.zeros(2, 3), (torch.zeros(1, 2, 4), torch.zeros(2, 4)))),
    }


@case("rnn_warnings_and_attributes")
def _rnn_warn(torch):
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        m = torch.nn.GRU(3, 4, dropout=0.3)
    lstm = torch.nn.LSTM(3, 5, num_layers=2, bidirectional=True, proj_size=2)
    return {
        "warnings": [[x.category.__name__, str(x.message)] for x in w],
        "dropout": m.dropout, "mode": m.mode,
        "flat_names": lstm._flat_weights_names,
        "all_weights": [[list(p.shape) for p in ws] for ws in lstm.all_weights],
        "flatten": lstm.flatten_parameters(),
        "reprs": [repr(torch.nn.RNN(3, 4, 2, "relu", False, True, 0.5, True)), repr(torch.nn.LSTM(3, 5, proj_size=2)),
                  repr(torch.nn.RNNCell(3, 4, bias=False, nonlinearity="relu")), repr(torch.nn.GRUCell(3, 4)),
                  repr(torch.nn.LSTMCell(2, 3))],
        "nonlinearity": torch.nn.RNN(3, 4, 1, "relu").nonlinearity,
    }


@case("rnn_weight_reassignment")
def _rnn_reassign(torch):
    """Replacing a weight Parameter is seen by the next forward."""
    m = fill(torch, torch.nn.RNN(2, 3), 0.5, 0.2)
    x = inp(torch, 2, 1, 2, grad=False)
    before = V(m(x)[0])
    m.weight_hh_l0 = torch.nn.Parameter(torch.zeros(3, 3))
    after = m(x)[0]
    return {"before": before, "after": V(after), "flat_is_new": m._flat_weights[1] is m.weight_hh_l0}


def _init_case(build):
    def fn(torch):
        torch.manual_seed(1234)
        m = build(torch)
        return {n: V(p) for n, p in m.named_parameters()}
    return fn


CASES["init_rnn"] = _init_case(lambda torch: torch.nn.RNN(3, 4, 2, bidirectional=True))
CASES["init_lstm_proj"] = _init_case(lambda torch: torch.nn.LSTM(3, 5, proj_size=2))
CASES["init_gru"] = _init_case(lambda torch: torch.nn.GRU(3, 4, bias=False))
CASES["init_cells"] = _init_case(lambda torch: torch.nn.ModuleList(
    [torch.nn.RNNCell(3, 4), torch.nn.LSTMCell(3, 4), torch.nn.GRUCell(3, 2)]))
CASES["init_mha"] = _init_case(lambda torch: torch.nn.MultiheadAttention(6, 2, add_bias_kv=True))
CASES["init_mha_kdim"] = _init_case(lambda torch: torch.nn.MultiheadAttention(4, 2, kdim=3, vdim=5))
CASES["init_encoder_layer"] = _init_case(lambda torch: torch.nn.TransformerEncoderLayer(4, 2, 8))
CASES["init_transformer"] = _init_case(lambda torch: torch.nn.Transformer(4, 2, 1, 1, 6))


# ----------------------------------------------------------------------------- attention

E, NH, L, S = 6, 2, 3, 4


def _bool_mask(torch, rows, cols, pattern):
    return torch.tensor([[bool(pattern[(i * cols + j) % len(pattern)]) for j in range(cols)]
                         for i in range(rows)])


def _mha_case(batch_first=False, kdim=None, vdim=None, kpm=None, am=None, need_weights=True, average=True,
              bias=True, add_bias_kv=False, add_zero_attn=False, unbatched=False, self_attn=False, is_causal=False):
    def fn(torch):
        m = fill(torch, torch.nn.MultiheadAttention(E, NH, bias=bias, add_bias_kv=add_bias_kv,
                                                    add_zero_attn=add_zero_attn, kdim=kdim, vdim=vdim,
                                                    batch_first=batch_first), 0.4, 0.2)
        kd, vd = kdim or E, vdim or E
        Sx = L if self_attn else S
        if unbatched:
            q = inp(torch, L, E)
            k = q if self_attn else inp(torch, Sx, kd, phase=0.5)
            v = q if self_attn else inp(torch, Sx, vd, phase=0.9)
        elif batch_first:
            q = inp(torch, B, L, E)
            k = q if self_attn else inp(torch, B, Sx, kd, phase=0.5)
            v = q if self_attn else inp(torch, B, Sx, vd, phase=0.9)
        else:
            q = inp(torch, L, B, E)
            k = q if self_attn else inp(torch, Sx, B, kd, phase=0.5)
            v = q if self_attn else inp(torch, Sx, B, vd, phase=0.9)
        kw = {"need_weights": need_weights, "average_attn_weights": average}
        if kpm is not None:
            pad = torch.tensor([[False] * (Sx - 1) + [True], [False] * (Sx - 2) + [True, True]])
            if unbatched:
                pad = pad[0]
            kw["key_padding_mask"] = pad if kpm == "bool" else \
                torch.zeros(tuple(pad.shape)).masked_fill(pad, float("-inf"))
        if am is not None:
            if am == "causal":
                kw["attn_mask"] = torch.nn.Transformer.generate_square_subsequent_mask(L)
                kw["is_causal"] = is_causal
            else:
                kind, dims = am
                shape2 = (L, Sx)
                mask = _bool_mask(torch, *shape2, [0, 0, 1, 0, 1])
                if dims == 3:
                    n = NH * (1 if unbatched else B)
                    mask = torch.stack([mask if i % 2 == 0 else mask.flip(1) for i in range(n)])
                kw["attn_mask"] = mask if kind == "bool" else \
                    torch.zeros(tuple(mask.shape)).masked_fill(mask, -2.5)
        out, w = m(q, k, v, **kw)
        outs = [out] + ([w] if w is not None else [])
        weighted_sum(torch, *outs).backward()
        leaves = [q] if self_attn else [q, k, v]
        return {"out": T(out), "weights": T(w) if w is not None else None,
                "input_grads": [V(t.grad) for t in leaves], "param_grads": grads(m),
                "names": [[n, list(p.shape)] for n, p in m.named_parameters()], "repr": repr(m)}
    return fn


CASES["mha_basic"] = _mha_case()
CASES["mha_self_attention"] = _mha_case(self_attn=True)
CASES["mha_batch_first"] = _mha_case(batch_first=True)
CASES["mha_batch_first_self"] = _mha_case(batch_first=True, self_attn=True)
CASES["mha_kdim_vdim"] = _mha_case(kdim=4, vdim=5)
CASES["mha_kdim_vdim_batch_first"] = _mha_case(kdim=4, vdim=5, batch_first=True, kpm="bool")
CASES["mha_no_weights"] = _mha_case(need_weights=False)
CASES["mha_per_head_weights"] = _mha_case(average=False)
CASES["mha_no_bias"] = _mha_case(bias=False)
CASES["mha_bias_kv"] = _mha_case(add_bias_kv=True, kpm="bool", am=("bool", 2))
CASES["mha_zero_attn"] = _mha_case(add_zero_attn=True, kpm="float", am=("float", 2))
CASES["mha_bias_kv_zero_attn_no_weights"] = _mha_case(add_bias_kv=True, add_zero_attn=True, need_weights=False,
                                                      am=("float", 3))
CASES["mha_unbatched"] = _mha_case(unbatched=True)
CASES["mha_unbatched_masks"] = _mha_case(unbatched=True, kpm="bool", am=("bool", 3), average=False)
for _kpm in (None, "bool", "float"):
    for _am in (None, ("bool", 2), ("float", 2), ("bool", 3), ("float", 3)):
        for _nw in (True, False):
            if _kpm is None and _am is None:
                continue
            if _kpm is not None and _am is not None and _kpm != _am[0]:
                continue  # mixed mask dtypes are a deprecated combination (covered in mha_errors)
            _name = f"mha_kpm{_kpm}_am{_am[0] + str(_am[1]) if _am else None}_w{int(_nw)}"
            CASES[_name] = _mha_case(kpm=_kpm, am=_am, need_weights=_nw, batch_first=_nw)
CASES["mha_causal_hint"] = _mha_case(am="causal", is_causal=True, need_weights=False, self_attn=True)
CASES["mha_causal_hint_weights"] = _mha_case(am="causal", is_causal=True, need_weights=True, self_attn=True)
CASES["mha_causal_mask_no_hint"] = _mha_case(am="causal", need_weights=False, self_attn=True)


def _mha_dropout_case(need_weights):
    def fn(torch):
        m = fill(torch, torch.nn.MultiheadAttention(E, NH, dropout=0.3), 0.4, 0.2)
        q = inp(torch, L, B, E)
        torch.manual_seed(11)
        out, w = m(q, q, q, need_weights=need_weights)
        weighted_sum(torch, out).backward()
        m.eval()
        out_eval = m(q, q, q, need_weights=need_weights)[0]
        return {"out": V(out), "weights": V(w) if w is not None else None, "q_grad": V(q.grad),
                "eval": V(out_eval)}
    return fn


CASES["mha_train_dropout_weights"] = _mha_dropout_case(True)
CASES["mha_train_dropout_sdpa"] = _mha_dropout_case(False)


@case("mha_eval_no_grad")
def _mha_eval(torch):
    """torch's inference fast path (eval, batch_first, no autograd) gives the same values."""
    m = fill(torch, torch.nn.MultiheadAttention(E, NH, batch_first=True), 0.4, 0.2).eval()
    q = inp(torch, B, L, E, grad=False)
    pad = torch.tensor([[False, False, True], [False, True, True]])
    with torch.no_grad():
        a, wa = m(q, q, q)
        b, wb = m(q, q, q, key_padding_mask=pad, average_attn_weights=False)
        c, wc = m(q, q, q, need_weights=False)
    return {"a": V(a), "wa": V(wa), "b": V(b), "wb": V(wb), "c": V(c), "wc": wc is None}


@case("mha_errors")
def _mha_errors(torch):
    nn = torch.nn
    m = nn.MultiheadAttention(E, NH)
    q = torch.zeros(L, B, E)
    k = torch.zeros(S, B, E)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        m(q, k, k, key_padding_mask=torch.zeros(B, S, dtype=torch.bool), attn_mask=torch.zeros(L, S))
    return {
        "heads": raises(lambda: nn.MultiheadAttention(6, 4)),
        "zero": raises(lambda: nn.MultiheadAttention(0, 2)),
        "query_dim": raises(lambda: m(torch.zeros(1, L, B, E), k, k)),
        "kv_dims": raises(lambda: m(q, torch.zeros(S, E), k)),
        "unbatched_kv": raises(lambda: m(q[:, 0], k, k)),
        "kpm_dim": raises(lambda: m(q, k, k, key_padding_mask=torch.zeros(S, dtype=torch.bool))),
        "kpm_shape": raises(lambda: m(q, k, k, key_padding_mask=torch.zeros(B, S + 1, dtype=torch.bool))),
        "kpm_dtype": raises(lambda: m(q, k, k, key_padding_mask=torch.zeros(B, S, dtype=torch.int64))),
        "am_dim": raises(lambda: m(q, k, k, attn_mask=torch.zeros(1, 1, L, S))),
        "am_2d_shape": raises(lambda: m(q, k, k, attn_mask=torch.zeros(L, S + 1))),
        "am_3d_shape": raises(lambda: m(q, k, k, attn_mask=torch.zeros(3, L, S))),
        "embed": raises(lambda: m(torch.zeros(L, B, 4), torch.zeros(S, B, 4), torch.zeros(S, B, 4))),
        "kv_shape": raises(lambda: m(q, k, torch.zeros(S + 1, B, E))),
        "causal_no_mask": raises(lambda: m(q, q, q, is_causal=True)),
        "mixed_mask_warning": [[x.category.__name__, str(x.message)] for x in w],
    }


# ----------------------------------------------------------------------------- scaled_dot_product_attention

def _sdpa_case(dims=4, mask=None, is_causal=False, scale=None, Lq=3, Sk=4, gqa=False, masked_row=False):
    def fn(torch):
        F = torch.nn.functional
        lead = (2,) if dims == 3 else (2, 4 if gqa else 2)
        klead = (2,) if dims == 3 else (2, 2)
        q = inp(torch, *lead, Lq, 5)
        k = inp(torch, *klead, Sk, 5, phase=0.4)
        v = inp(torch, *klead, Sk, 3, phase=0.8)
        kw = {}
        if mask is not None:
            bm = _bool_mask(torch, Lq, Sk, [1, 1, 0, 1, 0, 1, 1])
            if masked_row:
                bm[1] = False
            kw["attn_mask"] = bm if mask == "bool" else torch.zeros(Lq, Sk).masked_fill(bm.logical_not(), -1.5)
        if is_causal:
            kw["is_causal"] = True
        if scale is not None:
            kw["scale"] = scale
        if gqa:
            kw["enable_gqa"] = True
        out = F.scaled_dot_product_attention(q, k, v, **kw)
        weighted_sum(torch, out).backward()
        return {"out": V(out), "shape": list(out.shape), "grads": [V(q.grad), V(k.grad), V(v.grad)]}
    return fn


CASES["sdpa_4d"] = _sdpa_case()
CASES["sdpa_3d"] = _sdpa_case(dims=3)
CASES["sdpa_bool_mask"] = _sdpa_case(mask="bool")
CASES["sdpa_float_mask"] = _sdpa_case(mask="float")
CASES["sdpa_masked_row"] = _sdpa_case(mask="bool", masked_row=True)
CASES["sdpa_3d_masked_row"] = _sdpa_case(dims=3, mask="bool", masked_row=True)
CASES["sdpa_causal"] = _sdpa_case(is_causal=True, Lq=4, Sk=4)
CASES["sdpa_causal_rect"] = _sdpa_case(is_causal=True, Lq=3, Sk=5)
CASES["sdpa_scale"] = _sdpa_case(scale=0.7, mask="float")
CASES["sdpa_negative_scale"] = _sdpa_case(scale=-0.3)
CASES["sdpa_gqa"] = _sdpa_case(gqa=True)


@case("sdpa_dropout")
def _sdpa_dropout(torch):
    F = torch.nn.functional
    q = inp(torch, 2, 2, 3, 5)
    k = inp(torch, 2, 2, 4, 5, phase=0.4)
    v = inp(torch, 2, 2, 4, 3, phase=0.8)
    torch.manual_seed(3)
    out = F.scaled_dot_product_attention(q, k, v, dropout_p=0.4)
    weighted_sum(torch, out).backward()
    return {"out": V(out), "q_grad": V(q.grad), "v_grad": V(v.grad)}


@case("sdpa_errors")
def _sdpa_errors(torch):
    F = torch.nn.functional
    q = torch.zeros(2, 3, 4)
    k = torch.zeros(2, 5, 4)
    return {
        "causal_and_mask": raises(lambda: F.scaled_dot_product_attention(q, k, k, attn_mask=torch.zeros(3, 5),
                                                                         is_causal=True)),
        "mask_dtype": raises(lambda: F.scaled_dot_product_attention(q, k, k, attn_mask=torch.zeros(3, 5, dtype=torch.int64))),
        "mask_f64": raises(lambda: F.scaled_dot_product_attention(q, k, k, attn_mask=torch.zeros(3, 5, dtype=torch.float64))),
        "mask_f32_query_f64": list(F.scaled_dot_product_attention(q.double(), k.double(), k.double(),
                                                                  attn_mask=torch.zeros(3, 5)).shape),
        "dims": raises(lambda: F.scaled_dot_product_attention(q[0, 0], k[0, 0], k[0, 0])),
        "dtypes": raises(lambda: F.scaled_dot_product_attention(q, k.double(), k)),
        "dropout": raises(lambda: F.scaled_dot_product_attention(q, k, k, dropout_p=1.5)),
    }


# ----------------------------------------------------------------------------- transformer

D_MODEL, FF = 4, 6


def _act(torch, name):
    if name == "relu_str":
        return "relu"
    if name == "gelu_str":
        return "gelu"
    if name == "tanh_fn":
        return torch.tanh
    if name == "relu_fn":
        return torch.nn.functional.relu
    return torch.nn.Sigmoid()


def _enc_layer_case(norm_first, act, batch_first, masks, bias=True):
    def fn(torch):
        layer = fill(torch, torch.nn.TransformerEncoderLayer(D_MODEL, 2, FF, dropout=0.0, activation=_act(torch, act),
                                                            batch_first=batch_first, norm_first=norm_first,
                                                            bias=bias), 0.5, 0.4)
        x = inp(torch, B, L, D_MODEL) if batch_first else inp(torch, L, B, D_MODEL)
        kw = {}
        if masks:
            kw["src_mask"] = torch.nn.Transformer.generate_square_subsequent_mask(L)
            kw["src_key_padding_mask"] = torch.tensor([[False, False, True], [False, False, False]])
            kw["src_key_padding_mask"] = torch.zeros(B, L).masked_fill(kw["src_key_padding_mask"], float("-inf"))
        out = layer(x, **kw)
        weighted_sum(torch, out).backward()
        return {"out": V(out), "shape": list(out.shape), "x_grad": V(x.grad), "param_grads": grads(layer),
                "relu_or_gelu": layer.activation_relu_or_gelu,
                "names": [n for n, _ in layer.named_parameters()]}
    return fn


for _nf in (False, True):
    for _act_name in ("relu_str", "gelu_str", "tanh_fn", "relu_fn", "module"):
        for _bf in (False, True):
            CASES[f"enc_layer_nf{int(_nf)}_{_act_name}_bf{int(_bf)}"] = _enc_layer_case(_nf, _act_name, _bf,
                                                                                         masks=_bf)
CASES["enc_layer_no_bias"] = _enc_layer_case(False, "relu_str", False, True, bias=False)


def _dec_layer_case(norm_first, batch_first, masks):
    def fn(torch):
        layer = fill(torch, torch.nn.TransformerDecoderLayer(D_MODEL, 2, FF, dropout=0.0, batch_first=batch_first,
                                                            norm_first=norm_first), 0.5, 0.4)
        tgt = inp(torch, B, L, D_MODEL) if batch_first else inp(torch, L, B, D_MODEL)
        mem = inp(torch, B, S, D_MODEL, phase=0.6) if batch_first else inp(torch, S, B, D_MODEL, phase=0.6)
        kw = {}
        if masks:
            kw["tgt_mask"] = torch.nn.Transformer.generate_square_subsequent_mask(L)
            kw["tgt_is_causal"] = True
            kw["memory_key_padding_mask"] = torch.tensor([[False, False, False, True], [False, False, True, True]])
            kw["tgt_key_padding_mask"] = torch.tensor([[False, False, True], [False, False, False]])
            kw["memory_mask"] = _bool_mask(torch, L, S, [0, 0, 0, 1])
        out = layer(tgt, mem, **kw)
        weighted_sum(torch, out).backward()
        return {"out": V(out), "tgt_grad": V(tgt.grad), "mem_grad": V(mem.grad), "param_grads": grads(layer)}
    return fn


for _nf in (False, True):
    for _bf in (False, True):
        for _m in (False, True):
            CASES[f"dec_layer_nf{int(_nf)}_bf{int(_bf)}_masks{int(_m)}"] = _dec_layer_case(_nf, _bf, _m)


@case("transformer_full")
def _transformer_full(torch):
    m = fill(torch, torch.nn.Transformer(D_MODEL, 2, 2, 2, FF, dropout=0.0), 0.5, 0.1)
    src = inp(torch, S, B, D_MODEL)
    tgt = inp(torch, L, B, D_MODEL, phase=0.3)
    tgt_mask = m.generate_square_subsequent_mask(L)
    out = m(src, tgt, tgt_mask=tgt_mask, src_key_padding_mask=torch.tensor([[False] * 3 + [True], [False] * 4]))
    weighted_sum(torch, out).backward()
    return {"out": V(out), "src_grad": V(src.grad), "tgt_grad": V(tgt.grad), "param_grads": grads(m),
            "names": [n for n, _ in m.named_parameters()]}


@case("transformer_norm_first_batch_first_gelu")
def _transformer_nf(torch):
    m = fill(torch, torch.nn.Transformer(D_MODEL, 2, 1, 2, FF, dropout=0.0, batch_first=True, norm_first=True,
                                         activation="gelu", layer_norm_eps=1e-3), 0.5, 0.1)
    src = inp(torch, B, S, D_MODEL)
    tgt = inp(torch, B, L, D_MODEL, phase=0.3)
    out = m(src, tgt, tgt_mask=m.generate_square_subsequent_mask(L), tgt_is_causal=True,
            memory_key_padding_mask=torch.tensor([[False] * 3 + [True], [False] * 4]))
    weighted_sum(torch, out).backward()
    return {"out": V(out), "src_grad": V(src.grad), "tgt_grad": V(tgt.grad), "param_grads": grads(m)}


@case("encoder_stack_with_norm")
def _encoder_stack(torch):
    layer = torch.nn.TransformerEncoderLayer(D_MODEL, 2, FF, dropout=0.0)
    enc = fill(torch, torch.nn.TransformerEncoder(layer, 3, norm=torch.nn.LayerNorm(D_MODEL),
                                                  enable_nested_tensor=False), 0.5, 0.7)
    x = inp(torch, L, B, D_MODEL)
    mask = torch.nn.Transformer.generate_square_subsequent_mask(L)
    out = enc(x, mask=mask)
    out2 = enc(x, mask=mask, is_causal=True)
    weighted_sum(torch, out).backward()
    return {"out": V(out), "same": V(out2), "x_grad": V(x.grad), "param_grads": grads(enc),
            "layers_distinct": enc.layers[0].linear1.weight is not enc.layers[1].linear1.weight}


@case("decoder_stack")
def _decoder_stack(torch):
    layer = torch.nn.TransformerDecoderLayer(D_MODEL, 2, FF, dropout=0.0, batch_first=True)
    dec = fill(torch, torch.nn.TransformerDecoder(layer, 2), 0.5, 0.7)
    tgt = inp(torch, B, L, D_MODEL)
    mem = inp(torch, B, S, D_MODEL, phase=0.2)
    out = dec(tgt, mem, tgt_mask=torch.nn.Transformer.generate_square_subsequent_mask(L))
    weighted_sum(torch, out).backward()
    return {"out": V(out), "tgt_grad": V(tgt.grad), "mem_grad": V(mem.grad), "param_grads": grads(dec)}


@case("encoder_eval_padding_fast_path")
def _encoder_eval(torch):
    """In eval mode without autograd torch runs nested tensors: padded positions come back as 0."""
    layer = torch.nn.TransformerEncoderLayer(D_MODEL, 2, FF, dropout=0.1, batch_first=True)
    enc = fill(torch, torch.nn.TransformerEncoder(layer, 2), 0.5, 0.7).eval()
    x = inp(torch, B, L, D_MODEL, grad=False)
    pad = torch.tensor([[False, False, True], [False, False, False]])
    with torch.no_grad():
        a = enc(x, src_key_padding_mask=pad)
        b = enc.layers[0](x, src_key_padding_mask=pad)
    return {"a": V(a), "b": V(b), "use_nested": enc.use_nested_tensor}


def _train_dropout_transformer(torch):
    m = fill(torch, torch.nn.TransformerEncoderLayer(D_MODEL, 2, FF, dropout=0.25), 0.5, 0.4)
    x = inp(torch, L, B, D_MODEL)
    torch.manual_seed(5)
    out = m(x)
    weighted_sum(torch, out).backward()
    return {"out": V(out), "x_grad": V(x.grad)}


CASES["enc_layer_train_dropout"] = _train_dropout_transformer


@case("transformer_misc")
def _transformer_misc(torch):
    nn = torch.nn
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        enc = nn.TransformerEncoder(nn.TransformerEncoderLayer(4, 2, 6), 2)
        enc2 = nn.TransformerEncoder(nn.TransformerEncoderLayer(4, 2, 6, batch_first=True, norm_first=True), 1)
        enc3 = nn.TransformerEncoder(nn.TransformerEncoderLayer(4, 2, 6, batch_first=True), 1)
        enc4 = nn.TransformerEncoder(nn.TransformerEncoderLayer(4, 1, 6, batch_first=True), 1)
    t = nn.Transformer(4, 2, 1, 1, 6)
    return {
        "mask": V(nn.Transformer.generate_square_subsequent_mask(4)),
        "mask_f64": str(nn.Transformer.generate_square_subsequent_mask(2, dtype=torch.float64).dtype).split(".")[-1],
        "warnings": [[x.category.__name__, str(x.message)] for x in w],
        "use_nested": [enc.use_nested_tensor, enc2.use_nested_tensor, enc3.use_nested_tensor, enc4.use_nested_tensor],
        "bad_activation": raises(lambda: nn.TransformerEncoderLayer(4, 2, activation="tanh")),
        "batch_mismatch": raises(lambda: t(torch.zeros(3, 2, 4), torch.zeros(3, 1, 4))),
        "feature_mismatch": raises(lambda: t(torch.zeros(3, 2, 4), torch.zeros(3, 2, 5))),
        "repr": repr(nn.TransformerEncoderLayer(4, 2, 6)),
        "dec_repr": repr(nn.TransformerDecoder(nn.TransformerDecoderLayer(4, 2, 6), 1)),
        "mha_repr": repr(nn.MultiheadAttention(4, 2)),
        "attrs": [t.d_model, t.nhead, t.batch_first, enc.num_layers, enc.mask_check, enc.enable_nested_tensor],
        "relu_or_gelu": [nn.TransformerEncoderLayer(4, 2, activation=a).activation_relu_or_gelu
                         for a in ("relu", "gelu")],
    }


# ----------------------------------------------------------------------------- main

def main():
    import torch

    torch.set_num_threads(1)
    out = {"torch_version": torch.__version__, "cases": {}}
    for name in CASES:
        out["cases"][name] = run_case(torch, name)
    with open(FIXTURE, "w") as f:
        json.dump(out, f, indent=None, separators=(",", ":"), allow_nan=True)
        f.write("\n")
    print(f"wrote {len(CASES)} cases to {os.path.normpath(FIXTURE)}", file=sys.stderr)


if __name__ == "__main__":
    main()
