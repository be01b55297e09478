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
    "adaptive_avg_pool2d": {"differ": ['_saved_dim']},
    "avg_pool2d": {"missing": ['_saved_ceil_mode', '_saved_count_include_pad', '_saved_divisor_override', '_saved_kernel_size', '_saved_padding', '_saved_self', '_saved_stride']},
    "batch_norm": {"missing": ['_saved_eps', '_saved_input', '_saved_result1', '_saved_result2', '_saved_running_mean', '_saved_running_var', '_saved_training', '_saved_weight'], "extra": ['_saved_self']},
    "bce_logits": {"missing": ['_saved_pos_weight', '_saved_reduction', '_saved_target', '_saved_weight'], "extra": ['_saved_other']},
    "cholesky": {"missing": ['_saved_L', '_saved_upper'], "extra": ['_saved_result']},
    "clamp": {"missing": ['_saved_self']},
    "clamp_min": {"missing": ['_saved_self']},
    "conv2d": {"differ": ['_saved_bias_sym_sizes_opt']},
    "conv2d_pad": {"differ": ['_saved_bias_sym_sizes_opt']},
    "cosine_similarity": {"missing": ['_saved_dim', '_saved_keepdim', '_saved_self_sym_sizes'], "extra": ['_saved_other', '_saved_self']},
    "det": {"missing": ['_saved_A', '_saved_LU', '_saved_pivots'], "extra": ['_saved_self']},
    "embedding": {"missing": ['_saved_indices', '_saved_padding_idx', '_saved_scale_grad_by_freq', '_saved_sparse', '_saved_weight_sym_argsize_0']},
    "gather": {"missing": ['_saved_self']},
    "group_norm": {"missing": ['_saved_C', '_saved_HxW', '_saved_N', '_saved_eps', '_saved_group', '_saved_input', '_saved_result1', '_saved_result2', '_saved_weight'], "extra": ['_saved_self']},
    "index": {"missing": ['_saved_indices']},
    "index_bool": {"missing": ['_saved_indices']},
    "index_copy": {"missing": ['_saved_source']},
    "interpolate": {"missing": ['_saved_output_size', '_saved_scales_h', '_saved_scales_w', '_saved_self_sym_sizes']},
    "inverse": {"missing": ['_saved_inverse'], "extra": ['_saved_result']},
    "kthvalue": {"missing": ['_saved_dim', '_saved_indices', '_saved_keepdim', '_saved_self_sym_sizes']},
    "layer_norm": {"missing": ['_saved_result1', '_saved_result2']},
    "layer_norm_wb": {"missing": ['_saved_result1', '_saved_result2']},
    "logsigmoid": {"missing": ['_saved_buffer']},
    "max_pool2d": {"missing": ['_saved_ceil_mode', '_saved_dilation', '_saved_kernel_size', '_saved_padding', '_saved_result1', '_saved_self', '_saved_stride']},
    "pad": {"missing": ['_saved_pad']},
    "put": {"missing": ['_saved_source']},
    "unfold": {"missing": ['_saved_dilation', '_saved_kernel_size', '_saved_padding', '_saved_self_sym_argsize_minus_1', '_saved_self_sym_argsize_minus_2', '_saved_stride']},
}

# composed in ferrograd where PyTorch has a fused node: the last op's node and fields
NODE_NAMES = {"cosine_similarity": "DivBackward0"}


def _same(e, g):
    if isinstance(e, float) and isinstance(g, float):
        return (math.isnan(e) and math.isnan(g)) or abs(e - g) <= 1e-6 + 1e-5 * abs(e)
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
