"""``torch.backends.cpu``."""


def get_cpu_capability():
    """The widest x86 vector extension of this CPU that ferrograd's kernels dispatch to
    ("AVX512", "AVX2" or "DEFAULT")."""
    try:
        with open("/proc/cpuinfo") as fh:
            flags = next((line.split(":", 1)[1].split() for line in fh if line.startswith("flags")), [])
    except OSError:
        return "DEFAULT"
    if "avx512f" in flags:
        return "AVX512"
    return "AVX2" if "avx2" in flags else "DEFAULT"
