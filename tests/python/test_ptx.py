"""The committed PTX matches the CUDA sources and assembles for sm_80 and sm_90.

Needs the pinned NVIDIA tool wheels (installed by the README's test command); no GPU."""

import importlib.util
import os
import subprocess
import sys

import pytest

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")


@pytest.mark.skipif(importlib.util.find_spec("nvidia") is None,
                    reason="nvidia-cuda-nvrtc-cu12/nvidia-cuda-nvcc-cu12 (12.4) not installed")
def test_ptx_is_current_and_assembles():
    res = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "build_ptx.py"), "--check", "--ptxas"],
                         capture_output=True, text=True, timeout=600)
    assert res.returncode == 0, res.stdout + res.stderr
    assert "7 kernel files OK (checked) (ptxas sm_80, sm_90)" in res.stdout


def test_every_kernel_source_has_ptx():
    srcs = sorted(f[:-3] for f in os.listdir(os.path.join(ROOT, "kernels")) if f.endswith(".cu"))
    ptx = sorted(f[:-4] for f in os.listdir(os.path.join(ROOT, "kernels", "ptx")) if f.endswith(".ptx"))
    assert srcs == ptx
    for name in ptx:
        with open(os.path.join(ROOT, "kernels", "ptx", name + ".ptx")) as fh:
            head = fh.read(300)
        assert head.startswith("// GENERATED FILE") and "tools/build_ptx.py" in head
        assert ".target sm_80" in open(os.path.join(ROOT, "kernels", "ptx", name + ".ptx")).read()
