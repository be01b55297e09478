"""Compile kernels/*.cu to PTX with NVRTC, no GPU and no CUDA toolkit needed.

NVRTC comes from the pinned PyPI package nvidia-cuda-nvrtc-cu12==12.4.* (PTX ISA 8.4, which
any driver since 550 can JIT); the target is the virtual architecture compute_80.

    pip install "nvidia-cuda-nvrtc-cu12==12.4.*"
    python tools/build_ptx.py            # (re)write kernels/ptx/*.ptx
    python tools/build_ptx.py --check    # regenerate in memory, fail on any difference
    python tools/build_ptx.py --ptxas    # also assemble each PTX for sm_80 and sm_90
                                         # (ptxas from nvidia-cuda-nvcc-cu12==12.4.*)
"""

import argparse
import ctypes
import glob
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KERNELS = os.path.join(ROOT, "kernels")
PTX_DIR = os.path.join(KERNELS, "ptx")
ARCH = "compute_80"
HEADER = (
    "// GENERATED FILE - do not edit. Source: kernels/{src}\n"
    "// Regenerate with: python tools/build_ptx.py (NVRTC from nvidia-cuda-nvrtc-cu12==12.4.*, -arch={arch})\n"
)


def _nvidia_dir(sub):
    import nvidia  # the namespace package the NVIDIA wheels install into

    for base in nvidia.__path__:
        path = os.path.join(base, sub)
        if os.path.isdir(path):
            return path
    raise FileNotFoundError(f"nvidia/{sub} not found: pip install the pinned NVIDIA wheel")


def load_nvrtc():
    libdir = os.path.join(_nvidia_dir("cuda_nvrtc"), "lib")
    cands = sorted(glob.glob(os.path.join(libdir, "libnvrtc.so*")))
    cands = [c for c in cands if "builtins" not in os.path.basename(c)]
    if not cands:
        raise FileNotFoundError(f"no libnvrtc.so in {libdir}")
    return ctypes.CDLL(cands[0])


def nvrtc_version(lib):
    major, minor = ctypes.c_int(), ctypes.c_int()
    lib.nvrtcVersion(ctypes.byref(major), ctypes.byref(minor))
    return major.value, minor.value


def compile_ptx(lib, path):
    with open(path, "rb") as fh:
        src = fh.read()
    prog = ctypes.c_void_p()
    name = os.path.basename(path).encode()
    rc = lib.nvrtcCreateProgram(ctypes.byref(prog), src, name, 0, None, None)
    if rc:
        raise RuntimeError(f"nvrtcCreateProgram failed ({rc})")
    opts = [f"--gpu-architecture={ARCH}".encode(), f"--include-path={KERNELS}".encode(), b"--std=c++17"]
    arr = (ctypes.c_char_p * len(opts))(*opts)
    rc = lib.nvrtcCompileProgram(prog, len(opts), arr)
    log_size = ctypes.c_size_t()
    lib.nvrtcGetProgramLogSize(prog, ctypes.byref(log_size))
    log = ctypes.create_string_buffer(log_size.value)
    lib.nvrtcGetProgramLog(prog, log)
    if rc:
        raise RuntimeError(f"NVRTC failed on {path}:\n{log.value.decode()}")
    size = ctypes.c_size_t()
    lib.nvrtcGetPTXSize(prog, ctypes.byref(size))
    buf = ctypes.create_string_buffer(size.value)
    lib.nvrtcGetPTX(prog, buf)
    lib.nvrtcDestroyProgram(ctypes.byref(prog))
    return HEADER.format(src=os.path.basename(path), arch=ARCH) + buf.value.decode()


def sources():
    return sorted(glob.glob(os.path.join(KERNELS, "*.cu")))


def ptx_name(src):
    return os.path.join(PTX_DIR, os.path.basename(src)[:-3] + ".ptx")


def run_ptxas(ptx_files, archs=("sm_80", "sm_90")):
    ptxas = os.path.join(_nvidia_dir("cuda_nvcc"), "bin", "ptxas")
    for f in ptx_files:
        for arch in archs:
            with tempfile.NamedTemporaryFile(suffix=".cubin") as out:
                res = subprocess.run([ptxas, f"-arch={arch}", f, "-o", out.name], capture_output=True, text=True)
                if res.returncode:
                    raise RuntimeError(f"ptxas -arch={arch} {f} failed:\n{res.stderr}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="fail if the committed PTX differs")
    ap.add_argument("--ptxas", action="store_true", help="assemble every PTX for sm_80 and sm_90")
    args = ap.parse_args()
    lib = load_nvrtc()
    if nvrtc_version(lib)[:2] != (12, 4):
        sys.exit(f"NVRTC {nvrtc_version(lib)} found; the pinned version is 12.4")
    os.makedirs(PTX_DIR, exist_ok=True)
    stale = []
    for src in sources():
        ptx = compile_ptx(lib, src)
        dst = ptx_name(src)
        if args.check:
            old = open(dst).read() if os.path.exists(dst) else None
            if old != ptx:
                stale.append(os.path.relpath(dst, ROOT))
        else:
            with open(dst, "w") as fh:
                fh.write(ptx)
    if stale:
        sys.exit("PTX out of date (run python tools/build_ptx.py): " + ", ".join(stale))
    if args.ptxas:
        run_ptxas([ptx_name(s) for s in sources()])
    print(f"{len(sources())} kernel files OK" + (" (checked)" if args.check else "") + (" (ptxas sm_80, sm_90)" if args.ptxas else ""))


if __name__ == "__main__":
    main()
