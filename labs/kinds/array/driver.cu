/* driver.cu - the host harness of array labs (issue 41; docs/array-labs.md):
 * the lab's launch function called on a dataset's arrays, as lab.json's
 * signature declares it. The grader builds it with the header it makes
 * from the signature (-include; grader/build/harness_flags.c): the
 * prototype, CUGRADE_ARRAY_CALL(v), CUGRADE_ARRAY_NARGS, and the executor's
 * CUGRADE_ARRAY_ARGS and CUGRADE_ARRAY_OUT ("in0,in1,out,n0", "1,n0"),
 * which this driver reads to make the same call, and the arrays' element
 * types (CUGRADE_ARRAY_IN_TYPES "f,i", CUGRADE_ARRAY_OUT_INT): an int
 * array's values go to the device as 32-bit ints, and come back as their
 * values (the poison's bits stay: never written).
 *
 *     driver IN0.bin IN1.bin ... OUT.bin      (or --each LIST: harness.h)
 *
 * Each input is copied to the device between guards, the output's buffer
 * is poisoned (never written reads as such), the launch function is timed
 * with CUDA events and checked, and the output is written with the elapsed
 * milliseconds. Exit status as harness.h says. Built by nvcc for a GPU and
 * by bin/emucc for the CPU emulator, each time with the student's file. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime.h>

#include "harness_device.h"

#if !defined(CUGRADE_ARRAY_CALL) || !defined(CUGRADE_ARRAY_ARGS) || !defined(CUGRADE_ARRAY_OUT)
#error "built by the grader with the lab's call (grader/build/harness_flags.c)"
#endif

#include "call_args.h"

#define MAX_ARRAYS ARRAY_CALL_MAX_INPUTS

typedef struct {
    float *host[MAX_ARRAYS];
    array_sizes_t sizes;
} inputs_t;

static harness_array_t device_arrays[MAX_ARRAYS + 1];

static int run_dataset(int argc, char **argv)
{
    inputs_t in;
    memset(&in, 0, sizeof in);
    int n = in.sizes.n = array_inputs_named();
    if (argc != n + 2 || n > MAX_ARRAYS) {
        fprintf(stderr, "usage: %s IN0.bin .. IN%d.bin OUT.bin, or %s --each LIST\n", argv[0], n - 1, argv[0]);
        return HARNESS_EXIT_IO;
    }
    for (int k = 0; k < n; k++) {
        int rows, cols;
        in.host[k] = harness_read_matrix(argv[1 + k], &rows, &cols);
        in.sizes.rows[k] = rows, in.sizes.cols[k] = cols;
        if (array_input_is_int(k))
            array_to_ints(in.host[k], (size_t)rows * cols);
    }
    const char *shape = CUGRADE_ARRAY_OUT, *comma = strchr(shape, ',');
    long out_rows = array_size_of(shape, (size_t)(comma - shape), &in.sizes),
         out_cols = array_size_of(comma + 1, strlen(comma + 1), &in.sizes);
    size_t out_bytes = (size_t)out_rows * (size_t)out_cols * sizeof(float);
    float *dOut = (float *)harness_output(&device_arrays[MAX_ARRAYS], out_bytes ? out_bytes : 4);
    uint64_t v[CUGRADE_ARRAY_NARGS];
    int a = 0;
    for (const char *p = CUGRADE_ARRAY_ARGS; *p && a < CUGRADE_ARRAY_NARGS; a++) {
        size_t len = strcspn(p, ",");
        if (strncmp(p, "out", 3) == 0 && len == 3)
            v[a] = (uint64_t)(uintptr_t)dOut;
        else if (strncmp(p, "in", 2) == 0) {
            int k = atoi(p + 2);
            size_t bytes = (size_t)(in.sizes.rows[k] * in.sizes.cols[k]) * sizeof(float);
            v[a] = (uint64_t)(uintptr_t)harness_to_device(&device_arrays[k], in.host[k], bytes);
        } else
            v[a] = (uint64_t)array_size_of(p, len, &in.sizes);
        p += len + (p[len] == ',');
    }
    cudaEvent_t start, stop;
    HARNESS_CHECK(cudaEventCreate(&start));
    HARNESS_CHECK(cudaEventCreate(&stop));
    HARNESS_CHECK(cudaEventRecord(start));
    CUGRADE_ARRAY_CALL(v);
    cudaError_t recorded = cudaEventRecord(stop);
    harness_check_launch("the launch function");
    harness_check(recorded, "cudaEventRecord(stop)", __FILE__, __LINE__);
    float elapsed_ms = 0;
    HARNESS_CHECK(cudaEventElapsedTime(&elapsed_ms, start, stop));
    float *out = (float *)harness_malloc(out_bytes ? out_bytes : 4);
    HARNESS_CHECK(cudaMemcpy(out, dOut, out_bytes, cudaMemcpyDeviceToHost));
    for (size_t k = 0; CUGRADE_ARRAY_OUT_INT && k < out_bytes / sizeof(float); k++) { /* ints as values */
        uint32_t bits;
        memcpy(&bits, &out[k], sizeof bits);
        if (bits != 0xFFFFFFFFu) /* the poison stays: never written */
            out[k] = (float)(int32_t)bits;
    }
    for (int k = 0; k <= MAX_ARRAYS; k++)
        if (k < n || k == MAX_ARRAYS)
            harness_array_done(&device_arrays[k]);
    harness_write_matrix(argv[n + 1], out, (int)out_rows, (int)out_cols, elapsed_ms);
    for (int k = 0; k < n; k++)
        free(in.host[k]);
    free(out);
    return 0;
}

int main(int argc, char **argv) { return harness_main(argc, argv, run_dataset); }
