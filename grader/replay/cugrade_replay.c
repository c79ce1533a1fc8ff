/* cugrade_replay.c - bin/cugrade-replay, the GPU's trusted runner (issue
 * 39, item 5): a launch record (replay/trace.h) that the executor made
 * while it judged a submission, done again on a real GPU with the
 * submission's cubin from the same nvcc compile, and no student host code
 * in the process:
 *
 *   cugrade-replay [--inputs DIR] [--device N]
 *                  [--repeat N --timing FILE [--reference CUBIN TRACE]
 *                   [--compare elements|sum] [--rtol R] [--atol A] [--cublas]]
 *                  CUBIN TRACE OUT
 *
 * The first replay writes the output to OUT (matbin for a .bin name, else
 * libwb .raw) for the grader to compare. With --repeat, the record's
 * launches are then timed N more times after one untimed warm-up
 * (replay.h replay_time), each time from fresh inputs and poisoned memory,
 * with the L2 cache flushed before the first launch, by CUDA events around
 * every launch (what the host does between launches is not counted); with
 * --reference, the reference's record of the same dataset (a timing
 * shape's, recorded by the executor with --dry) is timed the same way,
 * interleaved, and every output of the submission's is checked against
 * its (the lab's tolerance, --rtol and --atol; a reduction's partial
 * sums by their sum, --compare sum). With --cublas, cuBLAS's SGEMM (FP32
 * on the CUDA cores) on the dataset's two inputs is timed the same way
 * too, and its output checked against the reference's: the baseline of
 * a lab measured against cuBLAS. --timing FILE gets the
 * times as JSON: the device, and for "student" (and "reference") the
 * median, first quartile, mean, relative standard error, reps, and the
 * most wrong elements of a replay (and for "cublas"). The kernels run on the GPU, which
 * cannot reach this process's memory; what they take and give is measured
 * and written here.
 *
 * libcuda is opened at run time, so that a machine without a driver gets
 * a plain message. Exit 0; 1 when a kernel failed on the GPU (an illegal
 * address: the submission's doing; the message names the kernel and the
 * record's line); 2 when the runner cannot (no driver, no device, a cubin
 * that does not load, a record that does not read: the grader's). */
#include "replay/cugrade_replay_cublas.h"
#include "replay/replay.h"
#include "replay/replay_io.h"
#include "replay/trace.h"
#include "util/util.h"

#include <cuda.h>
#include <dlfcn.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define NAME_OF(f) NAME_OF_(f)
#define NAME_OF_(f) #f
#define DRIVER_FUNCTIONS(X)                                                                                  \
    X(cuInit) X(cuDeviceGet) X(cuDeviceGetName) X(cuDeviceGetAttribute) X(cuDevicePrimaryCtxRetain)          \
    X(cuCtxSetCurrent) X(cuModuleLoad) X(cuModuleGetFunction) X(cuFuncSetAttribute) X(cuMemAlloc)            \
    X(cuMemFree) X(cuMemcpyHtoD) X(cuMemcpyDtoH) X(cuMemsetD8) X(cuLaunchKernel) X(cuCtxSynchronize)         \
    X(cuEventCreate) X(cuEventRecord) X(cuEventSynchronize) X(cuEventElapsedTime) X(cuGetErrorName)     \
    X(cuDriverGetVersion) X(cuEventQuery) X(cuModuleGetGlobal)

/* The driver's functions, found by their versioned names (cuda.h's macros). */
static struct {
#define FIELD(f) __typeof__(f) *f;
    DRIVER_FUNCTIONS(FIELD)
#undef FIELD
} cu;

/* The device, as the timing file names it. */
typedef struct {
    char name[128];
    int clock_khz, sms, l2_bytes, driver_version;
    int cc_major, cc_minor, mem_clock_khz, bus_bits; /* the roofline's ceilings (score/roofline.h) */
} device_info_t;

typedef struct {
    CUmodule module;
    CUdeviceptr flush;     /* a buffer twice the L2 cache, written before a timed run */
    size_t flush_bytes;
    int timing;            /* events around each launch */
    int flushed;           /* this run's L2 flush was done */
    CUevent start, stop;
    double ms;             /* this run's kernel time */
    int launches;
    double time_cap_s;     /* a launch may take this long (--time-cap; 0: no cap) */
    CUevent done;          /* recorded after each launch, for the watchdog */
} gpu_t;

static const char *cu_error(CUresult r)
{
    const char *name = NULL;
    return cu.cuGetErrorName && cu.cuGetErrorName(r, &name) == CUDA_SUCCESS && name ? name : "an unknown error";
}

static int said(CUresult r, const char *what, char *err, size_t errlen)
{
    snprintf(err, errlen, "%s: %s", what, cu_error(r));
    return -1;
}

static int open_driver(char *err, size_t errlen)
{
    void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        snprintf(err, errlen, "no CUDA driver on this machine (libcuda.so.1: %s)", dlerror());
        return -1;
    }
#define LOAD(f)                                                                                              \
    if (!(*(void **)&cu.f = dlsym(lib, NAME_OF(f)))) {                                                       \
        snprintf(err, errlen, "the CUDA driver has no %s: older than this runner needs", NAME_OF(f));      \
        return -1;                                                                                           \
    }
    DRIVER_FUNCTIONS(LOAD)
#undef LOAD
    return 0;
}

static int gpu_alloc(void *self, uint64_t bytes, uint64_t *addr, char *err, size_t errlen)
{
    (void)self;
    CUdeviceptr p;
    CUresult r = cu.cuMemAlloc(&p, bytes);
    *addr = p;
    return r == CUDA_SUCCESS ? 0 : said(r, "cuMemAlloc", err, errlen);
}

static int gpu_release(void *self, uint64_t addr, char *err, size_t errlen)
{
    (void)self;
    CUresult r = cu.cuMemFree((CUdeviceptr)addr);
    return r == CUDA_SUCCESS ? 0 : said(r, "cuMemFree", err, errlen);
}

static int gpu_to_device(void *self, uint64_t addr, const void *src, uint64_t n, char *err, size_t errlen)
{
    (void)self;
    CUresult r = cu.cuMemcpyHtoD((CUdeviceptr)addr, src, n);
    return r == CUDA_SUCCESS ? 0 : said(r, "cuMemcpyHtoD", err, errlen);
}

static int gpu_from_device(void *self, void *dst, uint64_t addr, uint64_t n, char *err, size_t errlen)
{
    (void)self;
    CUresult r = cu.cuMemcpyDtoH(dst, (CUdeviceptr)addr, n);
    return r == CUDA_SUCCESS ? 0 : said(r, "cuMemcpyDtoH", err, errlen);
}

static int gpu_fill(void *self, uint64_t addr, int value, uint64_t n, char *err, size_t errlen)
{
    (void)self;
    CUresult r = cu.cuMemsetD8((CUdeviceptr)addr, (unsigned char)value, n);
    return r == CUDA_SUCCESS ? 0 : said(r, "cuMemsetD8", err, errlen);
}

/* A kernel's failure is the submission's (1); the runner's own, -1. */
/* A module variable's address (a record's "global" line: a __constant__ array). */
static int gpu_global(void *self, const char *name, uint64_t bytes, uint64_t *addr, char *err, size_t errlen)
{
    gpu_t *g = self;
    CUdeviceptr p;
    size_t size = 0;
    CUresult r = cu.cuModuleGetGlobal(&p, &size, g->module, name);
    if (r != CUDA_SUCCESS)
        return said(r, "the cubin has no such variable", err, errlen);
    if (size < bytes)
        return snprintf(err, errlen, "its %zu bytes are fewer than the record's %llu", size,
                        (unsigned long long)bytes), -1;
    *addr = (uint64_t)p;
    return 0;
}

/* Waits for the launch just made, at most the time cap. A launch still
 * running then is named and the runner ends at once (_exit: the driver's
 * exit handlers would wait for the kernel; the process's end stops it, as
 * an interrupt does). Else the event's result: CUDA_SUCCESS once it ran. */
static CUresult watch(gpu_t *g, const char *kernel)
{
    CUresult r = cu.cuEventRecord(g->done, NULL);
    double deadline = now_seconds() + g->time_cap_s;
    while (r == CUDA_SUCCESS) {
        if ((r = cu.cuEventQuery(g->done)) != CUDA_ERROR_NOT_READY)
            break;
        r = CUDA_SUCCESS;
        if (now_seconds() > deadline) {
            fprintf(stderr, "cugrade-replay: %s failed: a launch of it ran past the shape's time cap of %g s: "
                            "the kernel does not end at this size\n", kernel, g->time_cap_s);
            fflush(stderr);
            _exit(1);
        }
        struct timespec nap = {0, 100000}; /* 0.1 ms: the launch's time is the events', not this loop's */
        nanosleep(&nap, NULL);
    }
    return r;
}

static int gpu_launch(void *self, const trace_op_t *op, void **args, char *err, size_t errlen)
{
    gpu_t *g = self;
    CUfunction f;
    CUresult r = cu.cuModuleGetFunction(&f, g->module, op->kernel);
    if (r != CUDA_SUCCESS)
        return said(r, "the cubin has no such kernel", err, errlen);
    if (op->shared > 48 * 1024 &&
        (r = cu.cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, (int)op->shared)) != CUDA_SUCCESS)
        return said(r, "cuFuncSetAttribute", err, errlen);
    if (g->timing && !g->flushed) { /* the L2 cache holds nothing of the inputs */
        if ((r = cu.cuMemsetD8(g->flush, 0, g->flush_bytes)) != CUDA_SUCCESS)
            return said(r, "flushing L2", err, errlen);
        g->flushed = 1;
    }
    if (g->timing && (r = cu.cuEventRecord(g->start, NULL)) != CUDA_SUCCESS)
        return said(r, "cuEventRecord", err, errlen);
    r = cu.cuLaunchKernel(f, op->grid[0], op->grid[1], op->grid[2], op->block[0], op->block[1], op->block[2],
                          (unsigned)op->shared, NULL, args, NULL);
    if (r != CUDA_SUCCESS) /* refused at the launch: a configuration the GPU does not take */
        return snprintf(err, errlen, "the GPU refused the launch: %s", cu_error(r)), 1;
    if (g->timing && (r = cu.cuEventRecord(g->stop, NULL)) != CUDA_SUCCESS)
        return said(r, "cuEventRecord", err, errlen);
    if (g->time_cap_s > 0 && (r = watch(g, op->kernel)) != CUDA_SUCCESS)
        return snprintf(err, errlen, "%s on the GPU", cu_error(r)), 1; /* the kernel's own failure */
    if ((r = cu.cuCtxSynchronize()) != CUDA_SUCCESS)
        return snprintf(err, errlen, "%s on the GPU", cu_error(r)), 1;
    g->launches++;
    if (g->timing) {
        float ms = 0;
        if ((r = cu.cuEventElapsedTime(&ms, g->start, g->stop)) != CUDA_SUCCESS)
            return said(r, "cuEventElapsedTime", err, errlen);
        g->ms += ms;
    }
    return 0;
}

static int start_gpu(int ordinal, const char *cubin, gpu_t *g, device_info_t *info, char *err, size_t errlen)
{
    CUdevice dev;
    CUcontext ctx;
    CUresult r;
    int l2 = 0;
    if ((r = cu.cuInit(0)) != CUDA_SUCCESS || (r = cu.cuDeviceGet(&dev, ordinal)) != CUDA_SUCCESS)
        return said(r, "no CUDA device", err, errlen);
    if ((r = cu.cuDeviceGetName(info->name, sizeof info->name, dev)) != CUDA_SUCCESS ||
        (r = cu.cuDeviceGetAttribute(&l2, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, dev)) != CUDA_SUCCESS ||

        (r = cu.cuDevicePrimaryCtxRetain(&ctx, dev)) != CUDA_SUCCESS || (r = cu.cuCtxSetCurrent(ctx)) != CUDA_SUCCESS)
        return said(r, "the CUDA device", err, errlen);
    info->l2_bytes = l2;
    /* for the report only: a driver that no longer answers one leaves it 0 */
    if (cu.cuDeviceGetAttribute(&info->clock_khz, CU_DEVICE_ATTRIBUTE_CLOCK_RATE, dev) != CUDA_SUCCESS)
        info->clock_khz = 0;
    if (cu.cuDeviceGetAttribute(&info->sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev) != CUDA_SUCCESS)
        info->sms = 0;
    if (cu.cuDeviceGetAttribute(&info->cc_major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev) != CUDA_SUCCESS ||
        cu.cuDeviceGetAttribute(&info->cc_minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev) != CUDA_SUCCESS)
        info->cc_major = info->cc_minor = 0;
    if (cu.cuDeviceGetAttribute(&info->mem_clock_khz, CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE, dev) != CUDA_SUCCESS ||
        cu.cuDeviceGetAttribute(&info->bus_bits, CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH, dev) != CUDA_SUCCESS)
        info->mem_clock_khz = info->bus_bits = 0;
    if (cu.cuDriverGetVersion(&info->driver_version) != CUDA_SUCCESS)
        info->driver_version = 0;
    if ((r = cu.cuModuleLoad(&g->module, cubin)) != CUDA_SUCCESS)
        return said(r, "the cubin does not load", err, errlen);
    g->flush_bytes = 2 * (size_t)(l2 > 0 ? l2 : 64 << 20);
    if ((r = cu.cuEventCreate(&g->done, CU_EVENT_DISABLE_TIMING)) != CUDA_SUCCESS)
        return said(r, "cuEventCreate", err, errlen);
    if ((r = cu.cuMemAlloc(&g->flush, g->flush_bytes)) != CUDA_SUCCESS ||
        (r = cu.cuEventCreate(&g->start, CU_EVENT_DEFAULT)) != CUDA_SUCCESS ||
        (r = cu.cuEventCreate(&g->stop, CU_EVENT_DEFAULT)) != CUDA_SUCCESS)
        return said(r, "setting up the timing", err, errlen);
    return 0;
}

/* The kernels' time of the run that just ended; the next starts from 0 and flushes L2 again. */
static double gpu_run_ms(void *self)
{
    gpu_t *g = self;
    double ms = g->ms;
    g->ms = 0, g->flushed = 0, g->launches = 0;
    return ms;
}

/* cuBLAS's SGEMM on the dataset's two inputs (A m x k, B k x n), timed as
 * a record is: inputs copied afresh, the output poisoned, L2 flushed,
 * events around the call. */
typedef struct {
    gpu_t *g; /* the runner's GPU state: its events and L2 flush buffer */
    replay_cublas_t *lib;
    matrix_t in[2];
    CUdeviceptr a, b, c;
} sgemm_side_t;

/* The inputs read and the device's arrays made, on the first run. */
static int sgemm_setup(sgemm_side_t *s, const char *inputs_dir, char *err, size_t errlen)
{
    if (s->in[0].data)
        return 0;
    if (!inputs_dir)
        return snprintf(err, errlen, "cuBLAS needs the dataset's inputs (--inputs)"), -1;
    for (int i = 0; i < 2; i++)
        if (replay_read_input(inputs_dir, i, &s->in[i], err, errlen) != 0)
            return -1;
    if (s->in[0].cols != s->in[1].rows)
        return snprintf(err, errlen, "inputs of %dx%d and %dx%d: not a product", s->in[0].rows, s->in[0].cols,
                        s->in[1].rows, s->in[1].cols), -1;
    size_t m = (size_t)s->in[0].rows, k = (size_t)s->in[0].cols, n = (size_t)s->in[1].cols;
    CUresult r;
    if ((r = cu.cuMemAlloc(&s->a, 4 * m * k)) != CUDA_SUCCESS || (r = cu.cuMemAlloc(&s->b, 4 * k * n)) != CUDA_SUCCESS ||
        (r = cu.cuMemAlloc(&s->c, 4 * m * n)) != CUDA_SUCCESS)
        return said(r, "cuMemAlloc for cuBLAS", err, errlen);
    return 0;
}

static int sgemm_run(void *self, const char *inputs_dir, matrix_t *out, double *ms, char *err, size_t errlen)
{
    sgemm_side_t *s = self;
    if (sgemm_setup(s, inputs_dir, err, errlen) != 0)
        return 2;
    int m = s->in[0].rows, k = s->in[0].cols, n = s->in[1].cols;
    gpu_t *g = s->g;
    float elapsed = 0;
    CUresult r;
    if ((r = cu.cuMemcpyHtoD(s->a, s->in[0].data, 4 * (size_t)m * k)) != CUDA_SUCCESS ||
        (r = cu.cuMemcpyHtoD(s->b, s->in[1].data, 4 * (size_t)k * n)) != CUDA_SUCCESS ||
        (r = cu.cuMemsetD8(s->c, 0xFF, 4 * (size_t)m * n)) != CUDA_SUCCESS ||
        (r = cu.cuMemsetD8(g->flush, 0, g->flush_bytes)) != CUDA_SUCCESS ||
        (r = cu.cuEventRecord(g->start, NULL)) != CUDA_SUCCESS)
        return said(r, "cuBLAS's inputs", err, errlen), 2;
    if (replay_cublas_sgemm(s->lib, m, n, k, s->a, s->b, s->c, err, errlen) != 0)
        return 2;
    if ((r = cu.cuEventRecord(g->stop, NULL)) != CUDA_SUCCESS || (r = cu.cuCtxSynchronize()) != CUDA_SUCCESS ||
        (r = cu.cuEventElapsedTime(&elapsed, g->start, g->stop)) != CUDA_SUCCESS)
        return said(r, "cuBLAS's run", err, errlen), 2;
    *out = (matrix_t){m, n, malloc(4 * (size_t)m * n), 0};
    if (!out->data)
        return snprintf(err, errlen, "out of memory"), 2;
    if ((r = cu.cuMemcpyDtoH(out->data, s->c, 4 * (size_t)m * n)) != CUDA_SUCCESS)
        return said(r, "cuBLAS's output", err, errlen), 2;
    *ms = elapsed;
    return 0;
}

static void sgemm_free(sgemm_side_t *s)
{
    CUdeviceptr p[3] = {s->a, s->b, s->c};
    for (int i = 0; i < 3; i++)
        if (p[i])
            cu.cuMemFree(p[i]);
    matrix_free(&s->in[0]);
    matrix_free(&s->in[1]);
    replay_cublas_close(s->lib);
}

static json_object *times_json(const char *name, const replay_times_t *t)
{
    json_object *o = json_object_new_object();
    json_object_object_add(o, "name", json_object_new_string(name));
    json_object_object_add(o, "median_ms", json_object_new_double(t->median_ms));
    json_object_object_add(o, "q1_ms", json_object_new_double(t->q1_ms));
    json_object_object_add(o, "mean_ms", json_object_new_double(t->mean_ms));
    json_object_object_add(o, "rse", json_object_new_double(t->rse));
    json_object_object_add(o, "reps", json_object_new_int(t->reps));
    json_object_object_add(o, "wrong", json_object_new_int64(t->wrong));
    json_object_object_add(o, "wrong_reps", json_object_new_int(t->wrong_reps));
    return o;
}

/* The timing file: the device, then each side's times under its name. */
static int write_timing(const char *path, const device_info_t *dev, const char *const *names,
                        const replay_times_t *times, int n)
{
    json_object *o = json_object_new_object(), *impls = json_object_new_array();
    json_object_object_add(o, "device", json_object_new_string(dev->name));
    json_object_object_add(o, "sm_clock_mhz", json_object_new_double(dev->clock_khz / 1000.0));
    json_object_object_add(o, "sms", json_object_new_int(dev->sms));
    json_object_object_add(o, "l2_bytes", json_object_new_int(dev->l2_bytes));
    json_object_object_add(o, "driver_version", json_object_new_int(dev->driver_version));
    char cc[16];
    snprintf(cc, sizeof cc, "%d.%d", dev->cc_major, dev->cc_minor);
    json_object_object_add(o, "compute_capability", json_object_new_string(cc));
    /* the theoretical peak: memory clock x bus width x 2 (double data rate) / 8 bits */
    json_object_object_add(o, "bandwidth_gbs",
                           json_object_new_double((double)dev->mem_clock_khz * 1e3 * dev->bus_bits * 2.0 / 8.0 / 1e9));
    for (int k = 0; k < n; k++)
        json_object_array_add(impls, times_json(names[k], &times[k]));
    json_object_object_add(o, "impls", impls);
    const char *text = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY);
    int rc = write_file_atomic(path, text, strlen(text), NULL, 0);
    json_object_put(o);
    return rc;
}

static int usage(void)
{
    fprintf(stderr, "usage: cugrade-replay [--inputs DIR] [--repeat N --timing FILE [--reference CUBIN TRACE] "
                    "[--compare elements|sum] [--rtol R] [--atol A] [--cublas]] [--time-cap S] [--device N] "
                    "CUBIN TRACE OUT\n");
    return 2;
}

int main(int argc, char **argv)
{
    const char *inputs = NULL, *timing = NULL, *pos[3], *ref_cubin = NULL, *ref_trace = NULL;
    int repeat = 0, ordinal = 0, npos = 0, with_cublas = 0;
    double rtol = 1e-3, atol = 1e-3, time_cap_s = 0;
    replay_compare_t compare = REPLAY_COMPARE_ELEMENTS;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--inputs") == 0 && i + 1 < argc)
            inputs = argv[++i];
        else if (strcmp(argv[i], "--timing") == 0 && i + 1 < argc)
            timing = argv[++i];
        else if (strcmp(argv[i], "--repeat") == 0 && i + 1 < argc)
            repeat = atoi(argv[++i]);
        else if (strcmp(argv[i], "--device") == 0 && i + 1 < argc)
            ordinal = atoi(argv[++i]);
        else if (strcmp(argv[i], "--rtol") == 0 && i + 1 < argc)
            rtol = atof(argv[++i]);
        else if (strcmp(argv[i], "--atol") == 0 && i + 1 < argc)
            atol = atof(argv[++i]);
        else if (strcmp(argv[i], "--compare") == 0 && i + 1 < argc &&
                 (strcmp(argv[i + 1], "sum") == 0 || strcmp(argv[i + 1], "elements") == 0))
            compare = strcmp(argv[++i], "sum") == 0 ? REPLAY_COMPARE_SUM : REPLAY_COMPARE_ELEMENTS;
        else if (strcmp(argv[i], "--cublas") == 0)
            with_cublas = 1;
        else if (strcmp(argv[i], "--time-cap") == 0 && i + 1 < argc)
            time_cap_s = atof(argv[++i]);
        else if (strcmp(argv[i], "--reference") == 0 && i + 2 < argc)
            ref_cubin = argv[i + 1], ref_trace = argv[i + 2], i += 2;
        else if (argv[i][0] != '-' && npos < 3)
            pos[npos++] = argv[i];
        else
            return usage();
    }
    if (npos != 3 || repeat < 0 || repeat > 1000 || (timing != NULL) != (repeat > 0) || (ref_cubin && !timing) ||
        (with_cublas && !ref_cubin))
        return usage();
    char err[1024];
    device_info_t device = {0};
    char *blob = NULL, *ref_blob = NULL;
    trace_t t, rt;
    gpu_t g = {.time_cap_s = time_cap_s}, rg = {.time_cap_s = time_cap_s};
    if (trace_load(pos[1], &t, &blob, err, sizeof err) != 0 ||
        (ref_trace && trace_load(ref_trace, &rt, &ref_blob, err, sizeof err) != 0) ||
        open_driver(err, sizeof err) != 0 || start_gpu(ordinal, pos[0], &g, &device, err, sizeof err) != 0 ||
        (ref_cubin && start_gpu(ordinal, ref_cubin, &rg, &device, err, sizeof err) != 0)) {
        fprintf(stderr, "cugrade-replay: %s\n", err);
        return 2;
    }
    replay_device_t dev = {&g, gpu_alloc, gpu_release, gpu_to_device, gpu_from_device, gpu_fill, gpu_launch,
                           gpu_run_ms, gpu_global};
    replay_device_t ref_dev = dev;
    ref_dev.self = &rg;
    matrix_t out;
    int rc = replay_run(&t, (const uint8_t *)blob, inputs, &dev, &out, err, sizeof err);
    if (rc == 0 && replay_write_output(pos[2], &out, err, sizeof err) != 0)
        rc = 2;
    matrix_free(&out);
    sgemm_side_t sgemm = {.g = &rg};
    if (rc == 0 && with_cublas && !(sgemm.lib = replay_cublas_open(err, sizeof err)))
        rc = 2;
    if (rc == 0 && repeat > 0) {
        g.timing = rg.timing = 1;
        replay_side_t sides[3] = {{&t, (const uint8_t *)blob, inputs, &dev, .who = "the submission's record"},
                                  {&rt, (const uint8_t *)ref_blob, inputs, &ref_dev, .who = "the reference's record"},
                                  {.inputs_dir = inputs, .run = sgemm_run, .self = &sgemm, .who = "cuBLAS"}};
        static const char *const names[3] = {"student", "reference", "cublas"};
        int n = ref_trace ? 2 + with_cublas : 1;
        replay_times_t times[3];
        rc = replay_time(sides, n, repeat, compare, rtol, atol, times, err, sizeof err);
        if (rc == 0 && with_cublas && times[2].wrong > 0) {
            snprintf(err, sizeof err, "cuBLAS's output differs from the reference's in %ld elements", times[2].wrong);
            rc = 2;
        }
        if (rc == 0 && write_timing(timing, &device, names, times, n) != 0) {
            snprintf(err, sizeof err, "%s: cannot be written", timing);
            rc = 2;
        }
    }
    sgemm_free(&sgemm);
    if (rc == 1) /* the submission's: said for its report */
        fprintf(stderr, "cugrade-replay: %s\n", err);
    else if (rc != 0)
        fprintf(stderr, "cugrade-replay: %s: %s\n", pos[1], err);
    trace_free(&t);
    if (ref_trace)
        trace_free(&rt);
    free(blob);
    free(ref_blob);
    return rc;
}
