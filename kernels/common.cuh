// Shared helpers for ferrograd's CUDA kernels (compiled to PTX by tools/build_ptx.py with
// NVRTC 12.4 for compute_80; no CUDA toolkit headers are needed).
#pragma once

#define FG_MAX_DIMS 8

// Shape and strides of an operand, passed by value to strided kernels.
struct Layout {
    int ndim;
    long long offset;
    long long shape[FG_MAX_DIMS];
    long long strides[FG_MAX_DIMS];
};

// Storage offset of the i-th element (row-major logical order) of a layout.
__device__ __forceinline__ long long fg_offset(const Layout& l, long long i) {
    long long off = l.offset;
    for (int d = l.ndim - 1; d >= 0; --d) {
        long long s = l.shape[d];
        off += (i % s) * l.strides[d];
        i /= s;
    }
    return off;
}

#define FG_GRID_LOOP(i, n) \
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < (n); i += (long long)blockDim.x * gridDim.x)

// Contiguous elementwise kernels: each thread handles FG_UNROLL elements a block apart, all
// loads issued before the stores (memory-level parallelism, as PyTorch's vectorized loops);
// launched with ceil(n / (256 * FG_UNROLL)) blocks (`grid_unrolled` on the host).
#define FG_UNROLL 4
#define FG_UNROLLED_LOOP(base, n)                                                             \
    for (long long base = (long long)blockIdx.x * blockDim.x * FG_UNROLL + threadIdx.x; base < (n); \
         base += (long long)blockDim.x * gridDim.x * FG_UNROLL)
