// Indexing: gather by flat offsets (take) and its adjoint, scatter-add (put_add), used by
// advanced indexing, index backward and CopySlices.
#include "common.cuh"

typedef float f32;
typedef double f64;

#define TAKE(T)                                                                               \
    extern "C" __global__ void take_##T(const T* x, Layout lx, const long long* offsets, T* out, long long n) { \
        FG_GRID_LOOP(i, n) { out[i] = x[fg_offset(lx, offsets[i])]; }                        \
    }                                                                                         \
    extern "C" __global__ void put_add_##T(const T* g, const long long* offsets, T* out, long long n) { \
        FG_GRID_LOOP(i, n) { atomicAdd(out + offsets[i], g[i]); }                            \
    }                                                                                         \
    extern "C" __global__ void put_##T(const T* v, const long long* offsets, T* out, long long n) { \
        FG_GRID_LOOP(i, n) { out[offsets[i]] = v[i]; }                                       \
    }
TAKE(f32)
TAKE(f64)
