/* driver.cu - the host harness of reduction labs (lab dotprod): the dot
 * product of two vectors with the student's kernel, called through the lab's
 * launch function (lab.json "launch", given as -DCUGRADE_LAUNCH=name; lab
 * dotprod: launchDotProduct), which returns how many partial sums it wrote.
 *
 * The grader runs it in a child process, under the dataset's time limit:
 *
 *     driver A.bin B.bin P.bin
 *
 * or, on the gpu backend, every dataset of a submission in one process, each
 * under its own limit:
 *
 *     driver --each LIST        (list mode: labs/common/harness.h)
 *
 * A and B are the dataset's inputs, converted by the grader from libwb .raw
 * files to matbin (labs/common/matbin.h). Each holds a vector of n = rows *
 * cols floats (any shape: a matbin side is at most 2^20, so a long vector
 * comes as a matrix), the same n for both. The driver copies them to the
 * device, poisons the n floats of the partial sums' device buffer (every
 * float becomes the never-written NaN pattern; each array lies between
 * guards: harness_device.h), times the student's launch function with CUDA
 * events, checks the count it returned (1..n), copies back
 * that many partial sums and writes them with the elapsed milliseconds to
 * P.bin, a 1 x count matrix. The grader sums them in double and compares the
 * sum with the expected dot product, which never reaches this process.
 *
 * Exit status (see harness.h): 0 ok, 2 harness I/O error, 3 CUDA error,
 * 4 the count returned is outside 1..n; anything else (another status, a
 * signal, the time limit) is the student's.
 *
 * The same file is built by nvcc for a GPU and by bin/emucc for the CPU
 * emulator, each time together with the student's file. */
#include <stdio.h>
#include <stdlib.h>

#include <cuda_runtime.h>

#include "harness_device.h"

#ifndef CUGRADE_LAUNCH
#error "compile with -DCUGRADE_LAUNCH=<the lab's launch function> (lab.json \"launch\")"
#endif

/* The student's launch function. The pointers are device pointers: A and B
 * hold n floats each, devicePartial has room for n. It returns how many
 * partial sums it wrote to devicePartial[0..]. */
int CUGRADE_LAUNCH(const float *deviceA, const float *deviceB, float *devicePartial, int n);

static size_t vector_bytes(size_t n)
{
    return n * sizeof(float);
}

/* Calls the student's launch function and returns the kernel time in
 * milliseconds, measured with events around the call; *count gets what the
 * function returned. */
static float timed_launch(const float *dA, const float *dB, float *dPartial, int n, int *count)
{
    cudaEvent_t start, stop;
    HARNESS_CHECK(cudaEventCreate(&start));
    HARNESS_CHECK(cudaEventCreate(&stop));

    HARNESS_CHECK(cudaEventRecord(start));
    *count = CUGRADE_LAUNCH(dA, dB, dPartial, n);
    /* A kernel that faulted may also fail this record: report the kernel
     * first, since that is the error the student has to fix. */
    cudaError_t recorded = cudaEventRecord(stop);
    harness_check_launch(HARNESS_STR(CUGRADE_LAUNCH));
    harness_check(recorded, "cudaEventRecord(stop)", __FILE__, __LINE__);

    float elapsed_ms = 0.0f;
    HARNESS_CHECK(cudaEventElapsedTime(&elapsed_ms, start, stop));
    HARNESS_CHECK(cudaEventDestroy(start));
    HARNESS_CHECK(cudaEventDestroy(stop));
    return elapsed_ms;
}

/* Exits with status 4 unless 1 <= count <= n. */
static void check_count(int count, int n)
{
    if (count >= 1 && count <= n)
        return;
    fprintf(stderr, "cugrade: %s returned %d partial sums; it must return how many it wrote to "
                    "devicePartial, from 1 to n = %d\n", HARNESS_STR(CUGRADE_LAUNCH), count, n);
    exit(HARNESS_EXIT_CONTRACT);
}

/* A, B and the partial sums on the device, kept from one dataset to the next
 * (harness_device.h). */
static harness_array_t device_arrays[3];

/* The partial sums of A . B on the device with the student's kernel; returns
 * them (malloc'd), their count and the kernel time. */
static float *dot_product(const float *A, const float *B, int n, int *count, float *elapsed_ms)
{
    float *dA = (float *)harness_to_device(&device_arrays[0], A, vector_bytes((size_t)n));
    float *dB = (float *)harness_to_device(&device_arrays[1], B, vector_bytes((size_t)n));
    float *dPartial = (float *)harness_output(&device_arrays[2], vector_bytes((size_t)n));

    *elapsed_ms = timed_launch(dA, dB, dPartial, n, count);
    check_count(*count, n);

    float *P = (float *)harness_malloc(vector_bytes((size_t)*count));
    HARNESS_CHECK(cudaMemcpy(P, dPartial, vector_bytes((size_t)*count), cudaMemcpyDeviceToHost));
    for (int i = 0; i < 3; i++)
        harness_array_done(&device_arrays[i]);
    return P;
}

/* One dataset: driver A.bin B.bin P.bin. Returns the exit status. */
static int run_dataset(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: %s A.bin B.bin P.bin, or %s --each LIST\n",
                argc > 0 ? argv[0] : "driver", argc > 0 ? argv[0] : "driver");
        return HARNESS_EXIT_IO;
    }

    int ar, ac, br, bc;
    float *A = harness_read_matrix(argv[1], &ar, &ac);
    float *B = harness_read_matrix(argv[2], &br, &bc);
    /* matbin.h keeps rows * cols <= 2^28: n fits an int. */
    int n = ar * ac;
    if (br * bc != n || n < 1) {
        fprintf(stderr, "cugrade: cannot take the dot product of A (%dx%d, %d elements) and B "
                        "(%dx%d, %d elements): both vectors must have the same length n >= 1\n",
                ar, ac, n, br, bc, br * bc);
        return HARNESS_EXIT_IO;
    }

    int count;
    float elapsed_ms;
    float *P = dot_product(A, B, n, &count, &elapsed_ms);
    harness_write_matrix(argv[3], P, 1, count, elapsed_ms);

    free(A);
    free(B);
    free(P);
    return 0;
}

int main(int argc, char **argv) { return harness_main(argc, argv, run_dataset); }
