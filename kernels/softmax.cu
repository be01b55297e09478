// Row softmax and log_softmax (rows contiguous, one block per row, max-subtracted).
#include "common.cuh"

typedef float f32;
typedef double f64;

#define SBLOCK 256

#define SOFTMAX(name, T, EXP, LOG, IS_LOG)                                                   \
    extern "C" __global__ void name##_##T(const T* x, T* out, long long rows, long long row) { \
        __shared__ T buf[SBLOCK];                                                             \
        for (long long r = blockIdx.x; r < rows; r += gridDim.x) {                            \
            const T* p = x + r * row;                                                         \
            T* o = out + r * row;                                                             \
            T m = -__int_as_float(0x7f800000);                                                \
            for (long long j = threadIdx.x; j < row; j += SBLOCK) m = p[j] > m ? p[j] : m;    \
            buf[threadIdx.x] = m;                                                             \
            __syncthreads();                                                                  \
            for (int s = SBLOCK / 2; s > 0; s >>= 1) {                                        \
                if (threadIdx.x < s && buf[threadIdx.x + s] > buf[threadIdx.x]) buf[threadIdx.x] = buf[threadIdx.x + s]; \
                __syncthreads();                                                              \
            }                                                                                 \
            m = buf[0];                                                                       \
            __syncthreads();                                                                  \
            T sum = 0;                                                                        \
            for (long long j = threadIdx.x; j < row; j += SBLOCK) sum += EXP(p[j] - m);       \
            buf[threadIdx.x] = sum;                                                           \
            __syncthreads();                                                                  \
            for (int s = SBLOCK / 2; s > 0; s >>= 1) {                                        \
                if (threadIdx.x < s) buf[threadIdx.x] += buf[threadIdx.x + s];                \
                __syncthreads();                                                              \
            }                                                                                 \
            sum = buf[0];                                                                     \
            for (long long j = threadIdx.x; j < row; j += SBLOCK)                             \
                o[j] = IS_LOG ? (p[j] - m - LOG(sum)) : EXP(p[j] - m) / sum;                  \
            __syncthreads();                                                                  \
        }                                                                                     \
    }
SOFTMAX(softmax_rows, f32, expf, logf, 0)
SOFTMAX(softmax_rows, f64, exp, log, 0)
SOFTMAX(log_softmax_rows, f32, expf, logf, 1)
SOFTMAX(log_softmax_rows, f64, exp, log, 1)
