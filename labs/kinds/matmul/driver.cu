/* driver.cu - the host harness of matmul labs (lab 2, lab 3, challenge): C =
 * A * B with the student's kernel, called through the lab's launch function
 * (lab.json "launch", given as -DCUGRADE_LAUNCH=name; lab 3:
 * launchMatrixMultiplyShared) with the parameters lab.json "launch_args"
 * says (launch.h; -DCUGRADE_LAUNCH_MNK for the challenge's (A, B, C, M, N, K)).
 *
 * The grader runs it in a child process, under the dataset's time limit:
 *
 *     driver A.bin B.bin C.bin
 *
 * or, on the gpu backend, every dataset of a submission in one process (one
 * CUDA context instead of one per dataset), each under its own limit:
 *
 *     driver --each LIST        (list mode: labs/common/harness.h)
 *
 * A (M x K) and B (K x N) are the dataset's inputs, converted by the grader
 * from libwb .raw files to matbin (labs/common/matbin.h). The driver copies
 * them to the device, poisons C's device buffer (every float becomes the
 * never-written NaN pattern; each array lies between guards, so that a read
 * past one finds the same in every run: harness_device.h), times the
 * student's launch function with CUDA events, copies C back and writes it
 * with the elapsed milliseconds to C.bin. The grader compares C.bin with the expected output, which never
 * reaches this process: a submission cannot read the answer.
 *
 * Exit status (see harness.h): 0 ok, 2 harness I/O error, 3 CUDA error;
 * anything else (another status, a signal, the time limit) is the student's.
 *
 * The same file is built by nvcc for a GPU and by bin/emucc for the CPU
 * emulator, each time together with the student's file. */
#include <stdio.h>
#include <stdlib.h>

#include <cuda_runtime.h>

#include "harness_device.h"
#include "launch.h"

#ifndef CUGRADE_LAUNCH
#error "compile with -DCUGRADE_LAUNCH=<the lab's launch function> (lab.json \"launch\")"
#endif

/* The student's launch function. The pointers are device pointers; A is
 * M x K, B K x N and C M x N, all row-major; launch.h has its parameters. */
void CUGRADE_LAUNCH(MATMUL_LAUNCH_PARAMS);

static size_t matrix_bytes(int rows, int cols)
{
    return (size_t)rows * (size_t)cols * sizeof(float);
}

/* Calls the student's launch function on dC and returns the kernel time in
 * milliseconds, measured with events around the call. */
static float timed_launch(const float *dA, const float *dB, float *dC, int M, int K, int N)
{
    cudaEvent_t start, stop;
    HARNESS_CHECK(cudaEventCreate(&start));
    HARNESS_CHECK(cudaEventCreate(&stop));

    HARNESS_CHECK(cudaEventRecord(start));
    MATMUL_LAUNCH_CALL(CUGRADE_LAUNCH, dA, dB, dC, M, K, N);
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

/* A, B and C on the device, kept from one dataset to the next (harness_device.h). */
static harness_array_t device_arrays[3];

/* C = A * B on the device with the student's kernel; returns C (malloc'd)
 * and the kernel time. */
static float *multiply(const float *A, const float *B, int M, int K, int N, float *elapsed_ms)
{
    float *dA = (float *)harness_to_device(&device_arrays[0], A, matrix_bytes(M, K));
    float *dB = (float *)harness_to_device(&device_arrays[1], B, matrix_bytes(K, N));
    float *dC = (float *)harness_output(&device_arrays[2], matrix_bytes(M, N));

    *elapsed_ms = timed_launch(dA, dB, dC, M, K, N);

    float *C = (float *)harness_malloc(matrix_bytes(M, N));
    HARNESS_CHECK(cudaMemcpy(C, dC, matrix_bytes(M, N), cudaMemcpyDeviceToHost));
    for (int i = 0; i < 3; i++)
        harness_array_done(&device_arrays[i]);
    return C;
}

/* One dataset: driver A.bin B.bin C.bin. Returns the exit status. */
static int run_dataset(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: %s A.bin B.bin C.bin, or %s --each LIST\n",
                argc > 0 ? argv[0] : "driver", argc > 0 ? argv[0] : "driver");
        return HARNESS_EXIT_IO;
    }

    int M, K, BK, N;
    float *A = harness_read_matrix(argv[1], &M, &K);
    float *B = harness_read_matrix(argv[2], &BK, &N);
    if (BK != K) {
        fprintf(stderr, "cugrade: cannot multiply A (%dx%d) by B (%dx%d): "
                        "A's columns must equal B's rows\n", M, K, BK, N);
        return HARNESS_EXIT_IO;
    }

    float elapsed_ms;
    float *C = multiply(A, B, M, K, N, &elapsed_ms);
    harness_write_matrix(argv[3], C, M, N, elapsed_ms);

    free(A);
    free(B);
    free(C);
    return 0;
}

int main(int argc, char **argv) { return harness_main(argc, argv, run_dataset); }
