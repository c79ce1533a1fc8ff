/* harness.h - the host-side harness shared by every kernel-style lab driver.
 *
 * A driver owns the host side of a lab: it reads the inputs the grader wrote
 * (matbin form, see matbin.h), moves them to the device, calls the student's
 * launch function and writes the output back for the grader to compare. This
 * header gives it a few small verbs in the spirit of libwb:
 *
 *   HARNESS_CHECK(call)                     check one CUDA runtime call
 *   harness_check(err, what, file, line)    the function behind HARNESS_CHECK
 *   harness_check_launch(what)              check a launch, then wait for it
 *   harness_read_matrix(path, &rows, &cols) read an input matrix (malloc'd)
 *   harness_write_matrix(path, data, rows, cols, elapsed_ms)
 *                                           write the output matrix
 *   harness_poison(dptr, bytes)             fill a device output buffer with
 *                                           the never-written NaN pattern
 *   harness_malloc(bytes)                   malloc that never returns NULL
 *
 * None of them returns on failure: each prints one line starting with
 * "cugrade: " to stderr and exits. The exit status tells the grader whose
 * fault it was:
 *
 *   0  success
 *   2  harness I/O error: bad usage, an input missing, malformed or of
 *      inconsistent shape, the output not written, no host memory
 *   3  CUDA error: a runtime call failed, or a kernel failed to launch or
 *      faulted while running
 *
 * Any other status, a signal or the time limit comes from the student's code.
 *
 * CUDA C++ using only the CUDA runtime API: it is compiled by nvcc for a GPU
 * and by the emulator's g++ against emu/include/cuda_runtime.h. Include it
 * from the driver only; every function is static inline. */
#ifndef CUGRADE_HARNESS_H
#define CUGRADE_HARNESS_H

#include <stdio.h>
#include <stdlib.h>

#include <cuda_runtime.h>

#include "matbin.h"

#define HARNESS_EXIT_IO 2
#define HARNESS_EXIT_CUDA 3

/* Exits with status 3 unless err is cudaSuccess; `what` names the call. */
static inline void harness_check(cudaError_t err, const char *what, const char *file, int line)
{
    if (err == cudaSuccess)
        return;
    fprintf(stderr, "cugrade: CUDA error in %s at %s:%d: %s (%s)\n", what, file, line,
            cudaGetErrorName(err), cudaGetErrorString(err));
    exit(HARNESS_EXIT_CUDA);
}

/* HARNESS_CHECK(cudaMalloc(&p, n)) reports the call's own text and place. */
#define HARNESS_CHECK(call) harness_check((call), #call, __FILE__, __LINE__)

/* Call right after a launch (or a function that launches): reports a launch
 * that failed (bad configuration, too many resources), then waits for the
 * device and reports a kernel that faulted while running. */
static inline void harness_check_launch(const char *what)
{
    cudaError_t err = cudaGetLastError();
    if (err == cudaSuccess)
        err = cudaDeviceSynchronize();
    if (err == cudaSuccess)
        return;
    fprintf(stderr, "cugrade: CUDA error after %s: %s (%s)\n", what, cudaGetErrorName(err),
            cudaGetErrorString(err));
    exit(HARNESS_EXIT_CUDA);
}

/* Exits with status 2 when out of host memory; never returns NULL. */
static inline void *harness_malloc(size_t bytes)
{
    void *p = malloc(bytes ? bytes : 1);
    if (!p) {
        fprintf(stderr, "cugrade: out of host memory (%zu bytes)\n", bytes);
        exit(HARNESS_EXIT_IO);
    }
    return p;
}

/* Reads a matbin matrix; the caller frees the result. Exits with status 2
 * if the file is missing or malformed. */
static inline float *harness_read_matrix(const char *path, int *rows, int *cols)
{
    float *data = NULL;
    matbin_header_t hdr;
    int rc = matbin_read(path, &data, &hdr);
    if (rc != 0) {
        fprintf(stderr, "cugrade: cannot read input matrix %s: %s\n", path,
                rc == -1 ? "cannot open the file" : "truncated or not a matbin file");
        exit(HARNESS_EXIT_IO);
    }
    *rows = (int)hdr.rows;
    *cols = (int)hdr.cols;
    return data;
}

/* Writes the output matrix with the kernel time (ms, < 0 if unknown).
 * Exits with status 2 if the file cannot be written. */
static inline void harness_write_matrix(const char *path, const float *data, int rows, int cols,
                                        double elapsed_ms)
{
    if (matbin_write(path, data, (uint32_t)rows, (uint32_t)cols, elapsed_ms) != 0) {
        fprintf(stderr, "cugrade: cannot write output matrix %s\n", path);
        exit(HARNESS_EXIT_IO);
    }
}

/* Fills a device buffer with POISON_BYTE so that every float in it holds
 * POISON_BITS, a NaN no kernel computes: the grader reports elements still
 * holding it as "never written". Exits with status 3 on a CUDA error. */
static inline void harness_poison(void *dptr, size_t bytes)
{
    harness_check(cudaMemset(dptr, POISON_BYTE, bytes), "cudaMemset (poisoning the output)",
                  __FILE__, __LINE__);
}

#endif
