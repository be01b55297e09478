"""torch's random streams and the small integer dtypes, against goldens recorded from PyTorch
(tools/record_random_goldens.py)."""

import json
import math
import pathlib

import pytest

import ferrograd as torch
import random_scenarios

GOLD = json.loads((pathlib.Path(__file__).parent / "fixtures" / "random.json").read_text())


def close(a, b, path="", rel=2e-6):
    if isinstance(b, dict):
        assert isinstance(a, dict) and a.keys() == b.keys(), path
        for k in b:
            close(a[k], b[k], f"{path}.{k}", rel)
    elif isinstance(b, list):
        assert isinstance(a, list) and len(a) == len(b), f"{path}: {a} vs {b}"
        for i, (x, y) in enumerate(zip(a, b)):
            close(x, y, f"{path}[{i}]", rel)
    elif isinstance(b, float) and not isinstance(a, bool):
        assert isinstance(a, (int, float)), path
        assert math.isclose(a, b, rel_tol=rel, abs_tol=1e-6), f"{path}: {a} vs {b}"
    elif isinstance(b, str):
        # names are compared as if the library were called torch (ferrograd.uint8 ~ torch.uint8)
        assert a.replace("ferrograd.", "torch.") == b, f"{path}: {a!r} vs {b!r}"
    else:
        assert a == b, f"{path}: {a!r} vs {b!r}"


@pytest.mark.parametrize("name", sorted(random_scenarios.SCENARIOS))
def test_matches_torch(name):
    close(random_scenarios.SCENARIOS[name](torch), GOLD[name], name)


def test_fork_of_the_stream_is_independent_of_other_generators():
    torch.manual_seed(9)
    a = torch.rand(3).tolist()
    torch.manual_seed(9)
    torch.rand(2, generator=torch.Generator().manual_seed(1))
    assert torch.rand(3).tolist() == a


def test_bad_generator_arguments():
    with pytest.raises(TypeError):
        torch.rand(2, generator="nope")
    with pytest.raises(RuntimeError, match="Overflow"):
        torch.manual_seed(2**64)
    with pytest.raises(RuntimeError):
        torch.Generator().set_state(torch.zeros(10, dtype=torch.uint8))
    with pytest.raises(TypeError):
        torch.Generator().set_state(torch.zeros(5056))
    with pytest.raises(RuntimeError, match="without replacement"):
        torch.multinomial(torch.ones(3), 4)
    with pytest.raises(RuntimeError, match="probability tensor"):
        torch.multinomial(torch.tensor([1.0, float("nan")]), 1)


def test_fork_rng_restores_the_default_stream():
    torch.manual_seed(3)
    with torch.random.fork_rng():
        inside = torch.rand(4).tolist()
    assert torch.rand(4).tolist() == inside
    assert torch.random.initial_seed() == 3
    with torch.random.fork_rng(enabled=False):
        torch.rand(1)
    assert torch.rand(4).tolist() != inside
