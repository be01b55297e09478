// Elementwise unary ops, contiguous and strided: out[i] = f(x[i]). Symbols: <op>_<dtype>
// and <op>_strided_<dtype>.
#include "common.cuh"

#define UNARY(name, T, expr)                                                                  \
    extern "C" __global__ void name##_##T(const T* x, T* out, long long n) {                 \
        FG_UNROLLED_LOOP(base, n) {                                                           \
            T in[FG_UNROLL];                                                                  \
            _Pragma("unroll") for (int k = 0; k < FG_UNROLL; ++k) {                          \
                long long i = base + (long long)k * blockDim.x;                               \
                if (i < n) in[k] = x[i];                                                      \
            }                                                                                 \
            _Pragma("unroll") for (int k = 0; k < FG_UNROLL; ++k) {                          \
                long long i = base + (long long)k * blockDim.x;                               \
                if (i < n) { T v = in[k]; out[i] = (expr); }                                  \
            }                                                                                 \
        }                                                                                     \
    }                                                                                         \
    extern "C" __global__ void name##_strided_##T(const T* x, Layout lx, T* out, long long n) { \
        FG_GRID_LOOP(i, n) { T v = x[fg_offset(lx, i)]; out[i] = (expr); }                   \
    }

#define UNARY_ALL(T, EXP, LOG, SQRT, SIN, COS, TANH, FABS)                                     \
    UNARY(neg, T, -v)                                                                         \
    UNARY(exp, T, EXP(v))                                                                     \
    UNARY(log, T, LOG(v))                                                                     \
    UNARY(sqrt, T, SQRT(v))                                                                   \
    UNARY(rsqrt, T, (T)1 / SQRT(v))                                                           \
    UNARY(sin, T, SIN(v))                                                                     \
    UNARY(cos, T, COS(v))                                                                     \
    UNARY(tanh, T, TANH(v))                                                                   \
    UNARY(sigmoid, T, (T)1 / ((T)1 + EXP(-v)))                                                \
    UNARY(relu, T, v > (T)0 ? v : (T)0)                                                       \
    UNARY(abs, T, FABS(v))                                                                    \
    UNARY(reciprocal, T, (T)1 / v)                                                            \
    UNARY(sign, T, (T)((v > (T)0) - (v < (T)0)))

typedef float f32;
typedef double f64;
UNARY_ALL(f32, expf, logf, sqrtf, sinf, cosf, tanhf, fabsf)
UNARY_ALL(f64, exp, log, sqrt, sin, cos, tanh, fabs)

// Backward helpers fused into one pass: grad * f'(saved).
#define UNARY_BWD(name, T, expr)                                                              \
    extern "C" __global__ void name##_##T(const T* g, const T* s, T* out, long long n) {     \
        FG_GRID_LOOP(i, n) { T gv = g[i]; T sv = s[i]; out[i] = (expr); }                    \
    }
UNARY_BWD(tanh_backward, f32, gv * (1.0f - sv * sv))
UNARY_BWD(tanh_backward, f64, gv * (1.0 - sv * sv))
UNARY_BWD(sigmoid_backward, f32, gv * sv * (1.0f - sv))
UNARY_BWD(sigmoid_backward, f64, gv * sv * (1.0 - sv))
UNARY_BWD(relu_backward, f32, sv <= 0.0f ? 0.0f : gv)
UNARY_BWD(relu_backward, f64, sv <= 0.0 ? 0.0 : gv)

// clamp with optional bounds (has_lo/has_hi), and its mask for backward
#define CLAMP(T)                                                                              \
    extern "C" __global__ void clamp_##T(const T* x, T* out, T lo, T hi, int has_lo, int has_hi, long long n) { \
        FG_GRID_LOOP(i, n) {                                                                  \
            T v = x[i];                                                                       \
            if (has_lo && v < lo) v = lo;                                                     \
            if (has_hi && v > hi) v = hi;                                                     \
            out[i] = v;                                                                       \
        }                                                                                     \
    }
CLAMP(f32)
CLAMP(f64)

#define POW_SCALAR(T, POW)                                                                    \
    extern "C" __global__ void pow_scalar_##T(const T* x, T* out, T p, long long n) {        \
        FG_GRID_LOOP(i, n) { out[i] = POW(x[i], p); }                                         \
    }
POW_SCALAR(f32, powf)
POW_SCALAR(f64, pow)
