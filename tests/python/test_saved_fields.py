"""``grad_fn._saved_*`` of common ops against PyTorch's (tools/record_saved_fields_goldens.py ->
fixtures/saved_fields.json): the node's name, the fields ``dir(grad_fn)`` lists, and each
field's value (numbers, tuples, None, tensors by shape, dtype and values).

``GAPS`` names, per op, the fields ferrograd does not have yet (``missing``), the fields it
names where PyTorch does not (``extra``: a saved input that PyTorch names otherwise, e.g.
layer_norm's ``input``/``weight``) and the fields whose value differs (``differ``: dims that
PyTorch keeps negative). Every other op must match exactly, and a fixed gap fails the test
until it is removed from the list."""

import json
import math
import os

import pytest

import ferrograd
import saved_fields_scenarios

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "fixtures", "saved_fields.json")) as fh:
    GOLDENS = json.load(fh)
GOT = saved_fields_scenarios.run(ferrograd)

GAPS = {
    "index": {"missing": ['_saved_indices']},
    "index_bool": {"missing": ['_saved_indices']},
    "logsigmoid": {"missing": ['_saved_buffer']},
}

# composed in ferrograd where PyTorch has a fused node: the last op's node and fields
NODE_NAMES: dict = {}


def _same(e, g):
    if isinstance(e, float) and isinstance(g, float):
        return e == g or (math.isnan(e) and math.isnan(g)) or abs(e - g) <= 1e-6 + 1e-5 * abs(e)
    if isinstance(e, dict) and isinstance(g, dict):
        return e.keys() == g.keys() and all(_same(e[k], g[k]) for k in e)
    if isinstance(e, list) and isinstance(g, list):
        return len(e) == len(g) and all(_same(x, y) for x, y in zip(e, g))
    return type(e) is type(g) and e == g


@pytest.mark.parametrize("op", sorted(GOLDENS))
def test_saved_fields_match_pytorch(op):
    exp, got = GOLDENS[op], GOT[op]
    assert "error" not in got, got
    assert got["fn"] == NODE_NAMES.get(op, exp["fn"])
    gap = GAPS.get(op, {})
    missing = sorted(set(exp["saved"]) - set(got["saved"]))
    extra = sorted(set(got["saved"]) - set(exp["saved"]))
    differ = sorted(n for n in set(exp["saved"]) & set(got["saved"]) if not _same(exp["saved"][n], got["saved"][n]))
    assert missing == gap.get("missing", []), f"missing {missing}"
    assert extra == gap.get("extra", []), f"extra {extra}"
    assert differ == gap.get("differ", []), [(n, exp["saved"][n], got["saved"][n]) for n in differ]


def test_every_op_has_a_golden():
    assert sorted(GOT) == sorted(GOLDENS)
