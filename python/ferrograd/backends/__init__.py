"""``torch.backends``: the switches programs set or query for the libraries under PyTorch
(cuDNN, cuBLAS, MPS, oneDNN, OpenMP, MKL). ferrograd has its own kernels, so the flags are
plain settings that programs can read back; the ``is_available`` answers say what ferrograd
has (no cuDNN, no MPS, no oneDNN)."""

from . import cpu, cuda, cudnn, mkl, mkldnn, mps, openmp, opt_einsum  # noqa: F401

__all__ = ["cpu", "cuda", "cudnn", "mkl", "mkldnn", "mps", "openmp", "opt_einsum"]
