// Elementwise binary ops with broadcasting through strided layouts (stride 0 on broadcast
// dims): out[i] = f(a[ia], b[ib]). Comparisons write bool as unsigned char.
#include "common.cuh"

typedef float f32;
typedef double f64;
typedef unsigned char u8;

#define BINARY(name, T, OUT, expr)                                                            \
    extern "C" __global__ void name##_##T(const T* a, const T* b, OUT* out, long long n) {   \
        FG_UNROLLED_LOOP(base, n) {                                                           \
            T xs[FG_UNROLL], ys[FG_UNROLL];                                                   \
            _Pragma("unroll") for (int k = 0; k < FG_UNROLL; ++k) {                          \
                long long i = base + (long long)k * blockDim.x;                               \
                if (i < n) { xs[k] = a[i]; ys[k] = b[i]; }                                    \
            }                                                                                 \
            _Pragma("unroll") for (int k = 0; k < FG_UNROLL; ++k) {                          \
                long long i = base + (long long)k * blockDim.x;                               \
                if (i < n) { T x = xs[k]; T y = ys[k]; out[i] = (expr); }                     \
            }                                                                                 \
        }                                                                                     \
    }                                                                                         \
    extern "C" __global__ void name##_strided_##T(const T* a, Layout la, const T* b, Layout lb, OUT* out, long long n) { \
        FG_GRID_LOOP(i, n) { T x = a[fg_offset(la, i)]; T y = b[fg_offset(lb, i)]; out[i] = (expr); } \
    }

#define BINARY_ALL(T, POW)                                                                    \
    BINARY(add, T, T, x + y)                                                                  \
    BINARY(sub, T, T, x - y)                                                                  \
    BINARY(mul, T, T, x * y)                                                                  \
    BINARY(div, T, T, x / y)                                                                  \
    BINARY(pow, T, T, POW(x, y))                                                              \
    BINARY(maximum, T, T, (x >= y || x != x) ? x : y)                                         \
    BINARY(minimum, T, T, (x <= y || x != x) ? x : y)                                         \
    BINARY(eq, T, u8, x == y)                                                                 \
    BINARY(ne, T, u8, x != y)                                                                 \
    BINARY(lt, T, u8, x < y)                                                                  \
    BINARY(le, T, u8, x <= y)                                                                 \
    BINARY(gt, T, u8, x > y)                                                                  \
    BINARY(ge, T, u8, x >= y)

BINARY_ALL(f32, powf)
BINARY_ALL(f64, pow)

// where(cond, a, b) over contiguous, same-shape operands
#define WHERE(T)                                                                              \
    extern "C" __global__ void where_##T(const u8* c, const T* a, const T* b, T* out, long long n) { \
        FG_GRID_LOOP(i, n) { out[i] = c[i] ? a[i] : b[i]; }                                   \
    }
WHERE(f32)
WHERE(f64)
