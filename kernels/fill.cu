// Fill, strided copy (make contiguous) and dtype casts.
#include "common.cuh"

typedef float f32;
typedef double f64;
typedef long long i64;
typedef int i32;
typedef unsigned char u8;

#define FILL(T)                                                                               \
    extern "C" __global__ void fill_##T(T* out, T v, long long n) { FG_GRID_LOOP(i, n) out[i] = v; } \
    extern "C" __global__ void copy_strided_##T(const T* x, Layout lx, T* out, long long n) { \
        FG_GRID_LOOP(i, n) out[i] = x[fg_offset(lx, i)];                                     \
    }
FILL(f32)
FILL(f64)
FILL(i64)
FILL(i32)
FILL(u8)

#define CAST(A, B)                                                                            \
    extern "C" __global__ void cast_##A##_##B(const A* x, B* out, long long n) {             \
        FG_GRID_LOOP(i, n) out[i] = (B)x[i];                                                  \
    }
#define CAST_FROM(A) CAST(A, f32) CAST(A, f64) CAST(A, i64) CAST(A, i32)
CAST_FROM(f32)
CAST_FROM(f64)
CAST_FROM(i64)
CAST_FROM(i32)
CAST_FROM(u8)
#define TO_BOOL(A)                                                                            \
    extern "C" __global__ void cast_##A##_u8(const A* x, u8* out, long long n) {             \
        FG_GRID_LOOP(i, n) out[i] = x[i] != (A)0;                                             \
    }
TO_BOOL(f32)
TO_BOOL(f64)
TO_BOOL(i64)
TO_BOOL(i32)
