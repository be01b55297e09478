"""tril/triu, roll, scatter/index_add, asinh/acosh/atanh/lgamma/digamma, einsum, movedim,
the *stack family, meshgrid, tensor_split, repeat_interleave, masked_select, nan_to_num,
unique, finfo/iinfo against PyTorch's results (tools/record_extra_ops_goldens.py ->
fixtures/extra_ops.json), on every device."""

import functools
import json
import os

import pytest

import ferrograd
import extra_ops_scenarios
from _golden import assert_matches_golden

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "fixtures", "extra_ops.json")) as fh:
    GOLDENS = json.load(fh)


@functools.lru_cache(maxsize=None)
def got(device):
    return extra_ops_scenarios.run(ferrograd, device)


@pytest.mark.parametrize("name", sorted(GOLDENS))
def test_matches_pytorch(name, device):
    assert_matches_golden(GOLDENS[name], got(device)[name], rtol=1e-5, atol=1e-6, label=name,
                          normalize_str=lambda _, s: s.replace("ferrograd", "torch"))


def test_every_result_has_a_golden():
    assert sorted(got("cpu")) == sorted(GOLDENS)


def test_cross_records_pytorch_node_and_warns_without_dim():
    """torch.cross / linalg.cross record LinalgCrossBackward0 with its saved operands and
    dim; torch.cross without dim warns once with PyTorch's text and takes the first dim
    of length 3."""
    import warnings

    a = ferrograd.tensor([[1.0, 2, 3], [4, 5, 6]], requires_grad=True)
    b = ferrograd.tensor([[0.5, -1, 2], [3, 0, 1]], requires_grad=True)
    c = ferrograd.linalg.cross(a, b)
    assert type(c.grad_fn).__name__ == "LinalgCrossBackward0"
    assert c.grad_fn._saved_dim == -1
    assert bool((c.grad_fn._saved_self == a).all()) and bool((c.grad_fn._saved_other == b).all())
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        d = ferrograd.cross(a, b)
        ferrograd.cross(a, b)
    msgs = [str(x.message) for x in w]
    assert len(msgs) <= 1  # once per process (PyTorch's TORCH_WARN_ONCE)
    assert all(m.startswith("Using torch.cross without specifying the dim arg is deprecated.") for m in msgs)
    assert bool((d == c).all())
    # double backward through the node
    (ga,) = ferrograd.autograd.grad(c.pow(2).sum(), a, create_graph=True)
    (gb,) = ferrograd.autograd.grad(ga.sum(), b)
    assert gb.shape == b.shape


def test_linalg_norms_record_pytorch_nodes():
    """linalg.norm / matrix_norm compose as ATen does (LinalgVectorNormBackward0, then
    Amax/AminBackward0 for ord ±1 / ±inf, over the singular values for 2 / -2 / nuc)."""
    a = ferrograd.tensor([[1.0, -2, 3], [4, 5, -6]], requires_grad=True)
    names = {
        "fro": ferrograd.linalg.norm(a), "ord1": ferrograd.linalg.norm(a, 1),
        "m_neg1": ferrograd.linalg.matrix_norm(a, -1), "vec": ferrograd.linalg.vector_norm(a, 3, dim=0),
    }
    assert {k: type(v.grad_fn).__name__ for k, v in names.items()} == {
        "fro": "LinalgVectorNormBackward0", "ord1": "AmaxBackward0", "m_neg1": "AminBackward0", "vec": "LinalgVectorNormBackward0"}
    # the singular-value orders compose as ATen's: svdvals, then amax / amin / sum
    got = {o: type(ferrograd.linalg.matrix_norm(a, o).grad_fn).__name__ for o in ("nuc", 2, -2)}
    assert got == {"nuc": "SumBackward1", 2: "AmaxBackward0", -2: "AminBackward0"}
