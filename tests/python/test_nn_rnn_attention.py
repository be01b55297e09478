"""Recurrent layers (RNN/LSTM/GRU and cells), MultiheadAttention, the Transformer family and
F.scaled_dot_product_attention against PyTorch's recorded results.

The cases live in ``tools/record_rnn_attention_goldens.py`` (functions of the library under
test); PyTorch's results are in ``fixtures/rnn_attention.json``. Each case runs here with
ferrograd: forward values, final states, input and parameter gradients, grad_fn names,
parameter names/shapes, reprs, errors and warnings, initialisation and dropout streams.
Floats agree within rel 1e-4 / abs 2e-5 (torch runs fused CPU kernels, ferrograd composes the
same formulas from tensor ops, so the last bits may differ), everything else exactly.
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
    "record_rnn_attention_goldens", os.path.join(ROOT, "tools", "record_rnn_attention_goldens.py")
)
cases = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(cases)

with open(os.path.join(HERE, "fixtures", "rnn_attention.json")) as f:
    GOLDEN = json.load(f)["cases"]

RTOL = 1e-4
ATOL = 2e-5

# torch's CPU LSTM runs on oneDNN when it can; ATen's reference implementation (which ferrograd
# follows, and which torch itself uses for LSTMs with projections) stacks the step outputs.
GRAD_FN_ALIASES = {"MkldnnRnnLayerBackward0": "StackBackward0"}


def _normalize_str(path, s):
    s = s.replace("ferrograd", "torch")
    return GRAD_FN_ALIASES.get(s, s) if path.endswith(".grad_fn") else s


def assert_same(got, want):
    assert_matches_golden(want, got, rtol=RTOL, atol=ATOL, normalize_str=_normalize_str)


def _group(prefixes):
    return sorted(n for n in cases.CASES if n.startswith(prefixes))


def test_every_case_has_a_golden():
    assert sorted(cases.CASES) == sorted(GOLDEN)


@pytest.mark.parametrize("name", _group(("rnn_", "lstm_", "gru_")))
def test_recurrent_layer(name):
    """Outputs, (h_n, c_n), gradients of the input, initial states and every parameter."""
    assert_same(cases.run_case(ferrograd, name), GOLDEN[name])


@pytest.mark.parametrize("name", _group(("cell_",)))
def test_recurrent_cell(name):
    assert_same(cases.run_case(ferrograd, name), GOLDEN[name])


@pytest.mark.parametrize("name", _group(("mha_",)))
def test_multihead_attention(name):
    assert_same(cases.run_case(ferrograd, name), GOLDEN[name])


@pytest.mark.parametrize("name", _group(("sdpa_",)))
def test_scaled_dot_product_attention(name):
    assert_same(cases.run_case(ferrograd, name), GOLDEN[name])


@pytest.mark.parametrize("name", _group(("enc_", "dec_", "transformer_", "encoder_", "decoder_")))
def test_transformer(name):
    assert_same(cases.run_case(ferrograd, name), GOLDEN[name])


@pytest.mark.parametrize("name", _group(("init_",)))
def test_initialisation_stream(name):
    """``manual_seed`` then construction draws the same parameters as torch."""
    assert_same(cases.run_case(ferrograd, name), GOLDEN[name])


def test_lstm_state_dict_round_trip_and_keys():
    torch = ferrograd
    m = torch.nn.LSTM(3, 4, num_layers=2, bidirectional=True, proj_size=2)
    keys = list(m.state_dict().keys())
    assert keys[:5] == ["weight_ih_l0", "weight_hh_l0", "bias_ih_l0", "bias_hh_l0", "weight_hr_l0"]
    assert keys[5] == "weight_ih_l0_reverse" and len(keys) == 20
    m2 = torch.nn.LSTM(3, 4, num_layers=2, bidirectional=True, proj_size=2)
    m2.load_state_dict(m.state_dict())
    x = torch.randn(5, 2, 3)
    a, (ha, ca) = m(x)
    b, (hb, cb) = m2(x)
    assert torch.equal(a, b) and torch.equal(ha, hb) and torch.equal(ca, cb)


def test_rnn_to_double_keeps_flat_weights_current():
    torch = ferrograd
    m = torch.nn.GRU(2, 3).double()
    assert all(w.dtype == torch.float64 for w in m._flat_weights)
    assert all(w is getattr(m, n) for w, n in zip(m._flat_weights, m._flat_weights_names))
    out, h = m(torch.zeros(4, 1, 2, dtype=torch.float64))
    assert out.dtype == torch.float64 and tuple(h.shape) == (1, 1, 3)


def test_transformer_layers_are_independent_copies():
    torch = ferrograd
    layer = torch.nn.TransformerEncoderLayer(4, 2, 6)
    enc = torch.nn.TransformerEncoder(layer, 2, enable_nested_tensor=False)
    with torch.no_grad():
        enc.layers[0].linear1.weight.fill_(1.0)
    assert not torch.equal(enc.layers[1].linear1.weight, enc.layers[0].linear1.weight)
    assert enc.layers[0] is not layer
