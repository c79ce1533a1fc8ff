/* check_kernels.h - the instrumented test kernels of the checking mode and
 * the functions that launch them. The kernels live in emu/tests/check_*.cpp,
 * which are compiled with -fsanitize=thread -O1 -g (as emucc --checks
 * compiles a student's file) and linked without libtsan; the Criterion
 * tests (test_emu_checks*.cpp) are compiled as usual and only call the
 * launchers. Launches are written in the rewritten form, and each kernel's
 * parameter names are registered as the rewriter would. */
#ifndef CUGRADE_CHECK_KERNELS_H
#define CUGRADE_CHECK_KERNELS_H

/* The lines (of the file holding the statement) where the tests expect a
 * finding; each kernel writes them as it runs. */
struct kernel_lines {
    int load_a, load_b, read_tiles, store_c;      /* check_tiled_kernel.h */
    int naive_store;                              /* matmul_naive */
    int uninit_shared_read, uninit_global_read;   /* check_kernels_memory.cpp */
    int shared_overrun, dynamic_overrun, wild_write, racy_write;
    int vector_access, ldg_read;                  /* check_kernels_async.cpp */
    int async_copy, async_read, async_write;
};
extern kernel_lines g_lines;

/* Bugs the tiled kernel can be given (bit flags). */
enum : unsigned {
    kMissingFirstBarrier = 1,  /* no __syncthreads() between loading and reading the tiles */
    kMissingSecondBarrier = 2, /* none between reading them and loading the next phase */
    kUnguardedLoads = 4,       /* tile loads without bounds checks */
    kUnguardedStore = 8,       /* the store to C without its bounds check */
};

/* ---- check_kernels_matmul.cpp ---------------------------------------------- */
/* C = A * B (A is MxK, B KxN), device pointers; tile is 8, 16 or 32. */
void launch_tiled(int tile, const float *A, const float *B, float *C, int M, int K, int N, unsigned bugs);
/* The same without shared memory (one thread per element of C, 16x16 blocks). */
void launch_naive(const float *A, const float *B, float *C, int M, int K, int N);
/* Threads outside C return before the barriers (barrier divergence). */
void launch_early_return(const float *A, const float *B, float *C, int M, int K, int N);

/* ---- check_kernels_memory.cpp ---------------------------------------------- */
/* Blocks of 64 threads; threads 0..31 of each read the half of a shared
 * array that no thread wrote, into out. */
void launch_uninit_shared(float *out, int blocks);
/* out[i] = in[i] for n elements (one block of 64 per 64 elements). */
void launch_copy(const float *in, float *out, int n);
/* Three 16x16 shared arrays; every thread reads middle[ty + shift][tx]
 * (shift -1 or +1: one row before its start or past its end) into out[0..255]
 * and its elements of the other two into out[256..511]. */
void launch_shared_neighbours(float *out, int shift);
/* Reads element `index` of a dynamic shared array of `floats` floats (the
 * launch asks for floats * 4 bytes; a 64-thread block writes the first 64). */
void launch_dynamic_read(float *out, int floats, int index);
/* Every thread of each 256-thread block atomicAdds 1 to one shared counter;
 * out[block] = the count. */
void launch_shared_count(int *out, int blocks);
/* Every thread atomicAdds 1 to *counter (device memory). */
void launch_global_count(int *counter, int blocks);
/* Thread 0 writes 1 at p (anything: a host pointer, a wild address). */
void launch_poke(int *p);
/* All 64 threads write one shared int in the same interval (a race), then
 * thread 0 stores it at p. */
void launch_race_then_store(int *p);

/* ---- check_kernels_async.cpp ------------------------------------------------ */
/* Whole-vector accesses (one thread): kind 0 reads a float4 at in + offset,
 * 1 a float2 there, 2 a float4 of shared memory at element offset, 3
 * writes a float4 at out + offset; out[0] gets the sum of what was read. */
enum : int { kReadFloat4, kReadFloat2, kReadSharedFloat4, kWriteFloat4 };
void launch_vector_access(const float *in, float *out, int offset, int kind);
/* One thread: out[0] = __ldg(in + index) (or of a float4 at that element
 * when vector is set: out[0] = its .x + .w). */
void launch_ldg(const float *in, float *out, int index, bool vector);
/* How the async copy kernel goes wrong (or not). */
enum : int {
    kAsyncCorrect,   /* copy, commit, wait, __syncthreads, read the neighbour's words */
    kAsyncNoWait,    /* no __pipeline_wait_prior before the barrier */
    kAsyncNoBarrier, /* waits for its own copy, but no __syncthreads before reading another's */
    kAsyncWriteEarly /* each thread writes its own destination while its copy is in flight */
};
/* 64 threads: thread t copies in[4t..4t+3 + shift] (16 bytes, or 4-byte
 * copies when shift is not a multiple of 4) to shared memory and stores the
 * words of thread t + 1 to out[4t..4t+3]. */
void launch_async_tile(const float *in, float *out, int mode, int shift);

#endif
