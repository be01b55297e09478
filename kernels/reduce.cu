// Row reductions: the host moves the reduced dims last and makes them contiguous, then one
// block reduces each row of `row` elements in shared memory (a fixed tree, so results are
// deterministic).
#include "common.cuh"

typedef float f32;
typedef double f64;

#define BLOCK 256

#define ROW_REDUCE(name, T, INIT, COMBINE, FINISH)                                           \
    extern "C" __global__ void name##_##T(const T* x, T* out, long long rows, long long row) { \
        __shared__ T buf[BLOCK];                                                              \
        for (long long r = blockIdx.x; r < rows; r += gridDim.x) {                            \
            const T* p = x + r * row;                                                         \
            T acc = INIT;                                                                     \
            for (long long j = threadIdx.x; j < row; j += BLOCK) { T v = p[j]; acc = COMBINE(acc, v); } \
            buf[threadIdx.x] = acc;                                                           \
            __syncthreads();                                                                  \
            for (int s = BLOCK / 2; s > 0; s >>= 1) {                                         \
                if (threadIdx.x < s) { T o = buf[threadIdx.x + s]; buf[threadIdx.x] = COMBINE(buf[threadIdx.x], o); } \
                __syncthreads();                                                              \
            }                                                                                 \
            if (threadIdx.x == 0) { T v = buf[0]; out[r] = FINISH; }                          \
            __syncthreads();                                                                  \
        }                                                                                     \
    }

#define ADD(a, b) ((a) + (b))
#define MUL(a, b) ((a) * (b))
#define MAXNAN(a, b) (((a) != (a) || (a) >= (b)) ? (a) : (b))
#define MINNAN(a, b) (((a) != (a) || (a) <= (b)) ? (a) : (b))

ROW_REDUCE(sum_rows, f32, 0.0f, ADD, v)
ROW_REDUCE(sum_rows, f64, 0.0, ADD, v)
ROW_REDUCE(mean_rows, f32, 0.0f, ADD, v / (f32)row)
ROW_REDUCE(mean_rows, f64, 0.0, ADD, v / (f64)row)
ROW_REDUCE(prod_rows, f32, 1.0f, MUL, v)
ROW_REDUCE(prod_rows, f64, 1.0, MUL, v)
ROW_REDUCE(max_rows, f32, -__int_as_float(0x7f800000), MAXNAN, v)
ROW_REDUCE(max_rows, f64, -__longlong_as_double(0x7ff0000000000000LL), MAXNAN, v)
ROW_REDUCE(min_rows, f32, __int_as_float(0x7f800000), MINNAN, v)
ROW_REDUCE(min_rows, f64, __longlong_as_double(0x7ff0000000000000LL), MINNAN, v)

// Few long rows (a whole-tensor sum, say): one block per row would leave the GPU idle, so
// the host splits each row into `chunks` equal spans; block b reduces span b % chunks of row
// b / chunks into out[b], and the row kernel above then reduces the (rows, chunks) partials.
// The split depends only on the shape, so results stay deterministic.
#define CHUNK_REDUCE(name, T, INIT, COMBINE, FINISH)                                         \
    extern "C" __global__ void name##_##T(const T* x, T* out, long long rows, long long row, long long chunks) { \
        __shared__ T buf[BLOCK];                                                              \
        long long span = (row + chunks - 1) / chunks;                                         \
        for (long long b = blockIdx.x; b < rows * chunks; b += gridDim.x) {                   \
            long long r = b / chunks, c = b % chunks;                                         \
            long long lo = c * span, hi = lo + span < row ? lo + span : row;                  \
            const T* p = x + r * row;                                                         \
            T acc = INIT;                                                                     \
            for (long long j = lo + threadIdx.x; j < hi; j += BLOCK) { T v = p[j]; acc = COMBINE(acc, v); } \
            buf[threadIdx.x] = acc;                                                           \
            __syncthreads();                                                                  \
            for (int s = BLOCK / 2; s > 0; s >>= 1) {                                         \
                if (threadIdx.x < s) { T o = buf[threadIdx.x + s]; buf[threadIdx.x] = COMBINE(buf[threadIdx.x], o); } \
                __syncthreads();                                                              \
            }                                                                                 \
            if (threadIdx.x == 0) { T v = buf[0]; out[b] = FINISH; }                          \
            __syncthreads();                                                                  \
        }                                                                                     \
    }
CHUNK_REDUCE(sum_chunks, f32, 0.0f, ADD, v)
CHUNK_REDUCE(sum_chunks, f64, 0.0, ADD, v)
CHUNK_REDUCE(prod_chunks, f32, 1.0f, MUL, v)
CHUNK_REDUCE(prod_chunks, f64, 1.0, MUL, v)
CHUNK_REDUCE(max_chunks, f32, -__int_as_float(0x7f800000), MAXNAN, v)
CHUNK_REDUCE(max_chunks, f64, -__longlong_as_double(0x7ff0000000000000LL), MAXNAN, v)
CHUNK_REDUCE(min_chunks, f32, __int_as_float(0x7f800000), MINNAN, v)
CHUNK_REDUCE(min_chunks, f64, __longlong_as_double(0x7ff0000000000000LL), MINNAN, v)

// argmax/argmin of each row (first extreme wins, NaN propagates), one thread per row
#define ARG_ROWS(name, T, BETTER)                                                             \
    extern "C" __global__ void name##_##T(const T* x, long long* out, long long rows, long long row) { \
        FG_GRID_LOOP(r, rows) {                                                               \
            const T* p = x + r * row;                                                         \
            long long best = 0;                                                               \
            for (long long j = 1; j < row; ++j) {                                             \
                T c = p[best]; T v = p[j];                                                    \
                if (c != c) break;                                                            \
                if (v != v || BETTER(v, c)) best = j;                                         \
            }                                                                                 \
            out[r] = best;                                                                    \
        }                                                                                     \
    }
#define GT(a, b) ((a) > (b))
#define LT(a, b) ((a) < (b))
ARG_ROWS(argmax_rows, f32, GT)
ARG_ROWS(argmax_rows, f64, GT)
ARG_ROWS(argmin_rows, f32, LT)
ARG_ROWS(argmin_rows, f64, LT)
