/* library_timer.cu - an array lab's reference against its library baseline
 * on one dataset (bench/gpu_labs.sh): the same arrays on the device, each
 * implementation called once untimed (its set-up: a handle, a buffer, an
 * algorithm found) and checked against the dataset's expected output, then
 * timed REPS times with CUDA events, L2 flushed before each, and checked
 * again. Built with the lab's call header (CUGRADE_ARRAY_ARGS, _OUT,
 * _IN_TYPES, _OUT_INT, as labs/kinds/array/driver.cu reads them).
 *
 *     library_timer DIR REPS RTOL ATOL [library]
 *
 * (with "library": the baseline alone, as the grader's performance test
 * quotes it, pipeline/perf_library.c)
 * One JSON line per implementation on stdout: its name, median and
 * fastest ms, GB/s of the compulsory traffic (every array once) at the
 * median, and its wrong elements. Exit 1 on any CUDA failure or wrong
 * element. */
#include <algorithm>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vector>

#include <cuda_runtime.h>

#include "call_args.h"
#include "library.h"

void bench_call_reference(const uint64_t *v);
void bench_call_library(const uint64_t *v);

#define MAX_ARRAYS ARRAY_CALL_MAX_INPUTS
#define FLUSH_BYTES ((size_t)256 << 20) /* past any L2 */

static array_sizes_t sizes; /* the inputs' */

long bench_input_elements(int k) { return k >= 0 && k < sizes.n ? sizes.rows[k] * sizes.cols[k] : -1; }

#define CHECK(call) BENCH_CHECK(call)

/* A libwb .raw file as the lab's generator writes it: "rows cols" or "n",
 * then the values. */
static std::vector<float> read_raw(const char *path, long *rows, long *cols)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "library_timer: cannot open %s\n", path);
        exit(1);
    }
    char line[256];
    if (!fgets(line, sizeof line, f) || sscanf(line, "%ld %ld", rows, cols) < 1) {
        fprintf(stderr, "library_timer: %s: no header\n", path);
        exit(1);
    }
    if (sscanf(line, "%ld %ld", rows, cols) == 1)
        *cols = 1;
    std::vector<float> v((size_t)(*rows * *cols));
    for (size_t i = 0; i < v.size(); i++)
        if (fscanf(f, "%f", &v[i]) != 1) {
            fprintf(stderr, "library_timer: %s: %zu values, %zu expected\n", path, i, v.size());
            exit(1);
        }
    fclose(f);
    return v;
}

/* Elements of got (device, n of them) not within atol + rtol |want| of want. */
static long wrong_elements(const float *dGot, const std::vector<float> &want, double rtol, double atol)
{
    std::vector<float> got(want.size());
    CHECK(cudaMemcpy(got.data(), dGot, got.size() * sizeof(float), cudaMemcpyDeviceToHost));
    long wrong = 0;
    for (size_t i = 0; i < got.size(); i++) {
        double g = got[i];
        if (CUGRADE_ARRAY_OUT_INT) {
            int32_t bits;
            memcpy(&bits, &got[i], sizeof bits);
            g = bits;
        }
        if (!(fabs(g - want[i]) <= atol + rtol * fabs(want[i])))
            wrong++;
    }
    return wrong;
}

int main(int argc, char **argv)
{
    if (argc != 5 && !(argc == 6 && strcmp(argv[5], "library") == 0)) {
        fprintf(stderr, "usage: library_timer DIR REPS RTOL ATOL [library]\n");
        return 2;
    }
    int reps = atoi(argv[2]);
    double rtol = atof(argv[3]), atol = atof(argv[4]);
    sizes.n = array_inputs_named();
    long out_rows, out_cols;
    void *dIn[MAX_ARRAYS];
    double bytes = 0;
    char path[4096];
    for (int k = 0; k < sizes.n; k++) {
        snprintf(path, sizeof path, "%s/input%d.raw", argv[1], k);
        std::vector<float> v = read_raw(path, &sizes.rows[k], &sizes.cols[k]);
        if (array_input_is_int(k))
            array_to_ints(v.data(), v.size());
        CHECK(cudaMalloc(&dIn[k], v.size() * sizeof(float)));
        CHECK(cudaMemcpy(dIn[k], v.data(), v.size() * sizeof(float), cudaMemcpyHostToDevice));
        bytes += 4.0 * v.size();
    }
    snprintf(path, sizeof path, "%s/output.raw", argv[1]);
    std::vector<float> want = read_raw(path, &out_rows, &out_cols);
    bytes += 4.0 * want.size();
    float *dOut;
    CHECK(cudaMalloc(&dOut, want.size() * sizeof(float)));
    uint64_t v[CUGRADE_ARRAY_NARGS];
    int a = 0;
    for (const char *p = CUGRADE_ARRAY_ARGS; *p && a < CUGRADE_ARRAY_NARGS; a++) {
        size_t len = strcspn(p, ",");
        if (strncmp(p, "out", 3) == 0 && len == 3)
            v[a] = (uint64_t)(uintptr_t)dOut;
        else if (strncmp(p, "in", 2) == 0)
            v[a] = (uint64_t)(uintptr_t)dIn[atoi(p + 2)];
        else
            v[a] = (uint64_t)array_size_of(p, len, &sizes);
        p += len + (p[len] == ',');
    }
    void *flush;
    CHECK(cudaMalloc(&flush, FLUSH_BYTES));
    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    const char *names[] = {"reference", "library"};
    void (*calls[])(const uint64_t *) = {bench_call_reference, bench_call_library};
    int failed = 0;
    for (int impl = argc == 6 ? 1 : 0; impl < 2; impl++) {
        CHECK(cudaMemset(dOut, 0xFF, want.size() * sizeof(float)));
        calls[impl](v); /* its set-up, untimed */
        CHECK(cudaGetLastError());
        CHECK(cudaDeviceSynchronize());
        long wrong = wrong_elements(dOut, want, rtol, atol);
        std::vector<float> ms(reps);
        for (int r = 0; r < reps; r++) {
            CHECK(cudaMemset(flush, r & 0xFF, FLUSH_BYTES));
            CHECK(cudaEventRecord(start));
            calls[impl](v);
            CHECK(cudaGetLastError());
            CHECK(cudaEventRecord(stop));
            CHECK(cudaEventSynchronize(stop));
            CHECK(cudaEventElapsedTime(&ms[r], start, stop));
        }
        wrong += wrong_elements(dOut, want, rtol, atol);
        std::sort(ms.begin(), ms.end());
        double median = ms[reps / 2];
        printf("{\"impl\": \"%s\", \"median_ms\": %.5f, \"min_ms\": %.5f, \"gbs\": %.1f, \"wrong\": %ld}\n",
               names[impl], median, ms[0], bytes / (median * 1e6), wrong);
        failed |= wrong > 0;
    }
    return failed;
}
