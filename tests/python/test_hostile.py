"""Hostile sizes: allocation failures and size overflows are PyTorch's RuntimeError, never an
abort. Each case runs in a child process, so a regression shows as a failed test instead of
taking the test run down."""

import subprocess
import sys
import textwrap

import pytest

OOM = "DefaultCPUAllocator: can't allocate memory: you tried to allocate"

CASES = [
    ("zeros_2_50", "torch.zeros(2**50)", OOM + " 4503599627370496 bytes"),
    ("full_2_40", "torch.full((2**40,), 1.)", OOM + " 4398046511104 bytes"),
    ("arange_2_50", "torch.arange(0, 2**50)", OOM + " 9007199254740992 bytes"),
    ("zeros_wrapping_numel", "torch.zeros(2**31, 2**31, 2**10)", "Storage size calculation overflowed with sizes=[2147483648, 2147483648, 1024]"),
    ("arange_inf", "torch.arange(float('inf'))", "unsupported range: 0 -> inf"),
    ("randn_huge", "torch.randn(2**45)", OOM),
    ("broadcast_add_huge", "torch.ones(2**20, 1) + torch.ones(1, 2**20)", OOM),
    ("expand_contiguous_huge", "torch.ones(3).expand(2**40, 3).contiguous()", OOM),
    ("matmul_outer_huge", "torch.ones(2**20, 1) @ torch.ones(1, 2**20)", OOM),
    ("where_broadcast_huge", "torch.where(torch.ones(2**20, 1) > 0, torch.ones(1, 2**20), 0.)", OOM),
]


@pytest.mark.parametrize("name,expr,message", CASES, ids=[c[0] for c in CASES])
def test_huge_request_is_a_runtime_error(name, expr, message):
    code = textwrap.dedent(f"""
        import ferrograd as torch
        try:
            {expr}
        except RuntimeError as e:
            print("RAISED", str(e))
        else:
            print("NO ERROR")
    """)
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, f"the process died ({p.returncode}): {p.stderr[-500:]}"
    assert p.stdout.startswith("RAISED"), p.stdout
    assert message in p.stdout, p.stdout
