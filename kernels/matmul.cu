// Batched matmul C[b] = A[b] @ B[b] with arbitrary strides: 16x16 tiles staged in shared
// memory, one output element per thread. Correct for every shape and layout; the fast path
// is cuBLAS when it is present.
#include "common.cuh"

typedef float f32;
typedef double f64;

#define TILE 16

#define MATMUL(T)                                                                             \
    extern "C" __global__ void matmul_##T(const T* a, const T* b, T* c,                      \
                                          long long m, long long n, long long k,              \
                                          long long a_bs, long long a_rs, long long a_cs,     \
                                          long long b_bs, long long b_rs, long long b_cs) {   \
        __shared__ T ta[TILE][TILE];                                                          \
        __shared__ T tb[TILE][TILE];                                                          \
        long long batch = blockIdx.z;                                                         \
        long long row = (long long)blockIdx.y * TILE + threadIdx.y;                           \
        long long col = (long long)blockIdx.x * TILE + threadIdx.x;                           \
        const T* ab = a + batch * a_bs;                                                       \
        const T* bb = b + batch * b_bs;                                                       \
        T acc = 0;                                                                            \
        for (long long t0 = 0; t0 < k; t0 += TILE) {                                          \
            long long ka = t0 + threadIdx.x, kb = t0 + threadIdx.y;                           \
            ta[threadIdx.y][threadIdx.x] = (row < m && ka < k) ? ab[row * a_rs + ka * a_cs] : (T)0; \
            tb[threadIdx.y][threadIdx.x] = (kb < k && col < n) ? bb[kb * b_rs + col * b_cs] : (T)0; \
            __syncthreads();                                                                  \
            for (int j = 0; j < TILE; ++j) acc += ta[threadIdx.y][j] * tb[j][threadIdx.x];    \
            __syncthreads();                                                                  \
        }                                                                                     \
        if (row < m && col < n) c[batch * m * n + row * n + col] = acc;                       \
    }

MATMUL(f32)
MATMUL(f64)
