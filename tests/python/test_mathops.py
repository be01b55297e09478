"""Elementwise, reduction, write and composed ops against PyTorch's results
(tools/record_mathops_goldens.py -> fixtures/mathops.json)."""

import json
import os
import warnings

import numpy as np
import pytest

import ferrograd
import ferrograd as torch
import mathops_scenarios
from _golden import assert_matches_golden

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "fixtures", "mathops.json")) as fh:
    GOLDENS = json.load(fh)
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    GOT = mathops_scenarios.run(ferrograd)


# Functions ferrograd composes in Python where PyTorch has a native kernel (or composes in C++
# with other overloads): the values and gradients match, the last node differs. Case -> (the
# path of the node name, ferrograd's node name, PyTorch's).
COMPOSED = {
    "addr": ("$.fn", "AddBackward0", "AddrBackward0"),
    "block_diag": ("$.fn", "CatBackward0", "BlockDiagBackward0"),
    "combinations_r3": ("$.fn", "ViewBackward0", "StackBackward0"),
    "dist": ("$.fn", "LinalgVectorNormBackward0", "DistBackward0"),
    "dist_p1": ("$.fn", "LinalgVectorNormBackward0", "DistBackward0"),
    "narrow_copy": ("$.fn", "CloneBackward0", "NarrowCopyBackward0"),
    "renorm": ("$.fn", "MulBackward0", "RenormBackward0"),
    "trapezoid": ("$.fn", "MulBackward0", "MulBackward1"),
    "trapezoid_dx": ("$.fn", "MulBackward0", "MulBackward1"),
    "trapz": ("$.fn", "MulBackward0", "MulBackward1"),
    "trapezoid_x": ("$.fn", "DivBackward0", "DivBackward1"),
    "torch_cosine_similarity": ("$.fn", "DivBackward0", "SumBackward1"),
    "torch_pairwise_distance": ("$.fn", "LinalgVectorNormBackward0", "NormBackward1"),
    "torch_pdist": ("$.fn", "LinalgVectorNormBackward0", "PdistBackward0"),
    "torch_pixel_shuffle": ("$.fn", "UnsafeViewBackward0", "PixelShuffleBackward0"),
    "ldexp": ("$.fn", "MulBackward0", "LdexpBackward0"),
}
# quantile: PyTorch ends with SqueezeBackward4 (a squeeze over several dims); ferrograd's
# sort-and-interpolate ends with a select, squeeze or view.
for _q in ("quantile", "quantile_higher", "quantile_keep", "quantile_lower", "quantile_mid", "quantile_nan",
           "quantile_nearest", "nanquantile"):
    COMPOSED[_q] = ("$.fn", "SelectBackward0", "SqueezeBackward4")
COMPOSED["quantile_dim"] = ("$.fn", "SqueezeBackward1", "SqueezeBackward4")
COMPOSED["quantile_keep_all"] = ("$.fn", "ViewBackward0", "SqueezeBackward4")


def _names_for(case):
    def names(path, s):
        c = COMPOSED.get(case)
        if c and path == c[0] and s == c[1]:
            return c[2]
        return s.replace("ferrograd", "torch")
    return names


@pytest.mark.parametrize("name", sorted(GOLDENS))
def test_matches_pytorch(name):
    assert_matches_golden(GOLDENS[name], GOT[name], rtol=1e-5, atol=1e-6, normalize_str=_names_for(name), label=name)


def test_every_result_has_a_golden():
    assert sorted(GOT) == sorted(GOLDENS)


def test_scalar_of_a_tensor_that_requires_grad_warns_once():
    """``float(t)`` of a tensor that requires grad, with grad mode on: PyTorch's UserWarning,
    once per process (a fresh interpreter, since an earlier test may have spent the one
    warning); ``int(t)``, ``.item()`` and ``float(t)`` under ``no_grad`` do not warn."""
    import subprocess
    import sys

    code = (
        "import warnings, ferrograd as torch\n"
        "t = torch.ones(1, requires_grad=True).sum()\n"
        "with warnings.catch_warnings(record=True) as w:\n"
        "    warnings.simplefilter('always')\n"
        "    int(t); t.item()\n"
        "    with torch.no_grad(): float(t)\n"
        "    print(len(w))\n"
        "    float(t); int(t); '%.3f' % t; float(t.detach())\n"
        "print(len(w)); print(w[0].category.__name__); print(str(w[0].message))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split("\n")
    assert out[:2] == ["0", "1"]
    assert out[2] == "UserWarning"
    assert out[3] == "Converting a tensor with requires_grad=True to a scalar may lead to unexpected behavior."
    assert out[4] == ("Consider using tensor.detach() first. (Triggered internally at "
                      "/__w/pytorch/pytorch/torch/csrc/autograd/generated/python_variable_methods.cpp:822.)")


def test_float32_hypot_is_glibcs_double_formula():
    # glibc's hypotf (and so PyTorch's scalar tail) is sqrt((double)x*x + (double)y*y) with
    # the infinities first; the vectorised kernel keeps those bits, subnormals and the float
    # range's ends included
    rg = np.random.default_rng(3)
    x = (rg.standard_normal(4099) * np.exp(rg.uniform(-40, 40, 4099))).astype(np.float32)
    y = (rg.standard_normal(4099) * np.exp(rg.uniform(-40, 40, 4099))).astype(np.float32)
    sp = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1e-45, 3.4e38, -3.4e38, 1.0], dtype=np.float32)
    x = np.concatenate([x, np.repeat(sp, sp.size)])
    y = np.concatenate([y, np.tile(sp, sp.size)])
    with np.errstate(all="ignore"):
        want = np.sqrt(x.astype(np.float64) ** 2 + y.astype(np.float64) ** 2).astype(np.float32)
    want[np.isinf(x) | np.isinf(y)] = np.inf
    got = torch.hypot(torch.from_numpy(x), torch.from_numpy(y)).numpy()
    np.testing.assert_array_equal(got.view(np.int32)[~np.isnan(want)], want.view(np.int32)[~np.isnan(want)])
    assert np.isnan(got[np.isnan(want)]).all()
