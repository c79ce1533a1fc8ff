/* timing.h - what the timing programs of every lab kind share
 * (labs/kinds/matmul/perf.cu, labs/kinds/reduction/perf.cu; the protocol is
 * docs/gpu.md's):
 *
 *   timing_usage_error(why, arg)         bad usage: one "cugrade: perf: " line
 *                                        and the program's TIMING_USAGE, exit 2
 *   timing_parse_long / _double / _gate  an option's value, or a usage error
 *   timing_options, timing_option,       the options every kind takes (seed,
 *   timing_options_end                   reps, RSE, time cap, tolerance, gate)
 *   timing_parse_impls(list, ...)        --impl's list of implementations
 *   timing_check_launched(what)          a launch that failed, without waiting
 *   timing_attr, timing_sms              device attributes
 *   timing_print_device()                the device lines of the output
 *   timing_print_protocol(...)           the protocol's lines of the output
 *   timing_flush_init / _l2 / _free      the L2 flush before every timed rep
 *   timing_summarize(ms, n)              median, mean, extremes and the
 *                                        median's RSE (timing_stats.h)
 *   timing_share_gpu / _wait_turn / _turn_done   the GPU shared for the setup,
 *                                        alone for the timed part only
 *   timing_gate_init / _hold / _release / _gave_up / _free   a timed rep's
 *                                        clock started only once its launch
 *                                        is queued (below)
 *   timing_warm_gate_hold / _done        a warm-up launch that finds whether
 *                                        an implementation can be gated
 *   timing_random64, timing_stream,      fresh inputs every round, what is
 *   timing_mix64                         re-checked drawn once the round ended
 *                                        (below)
 *   timing_watch_arm / _disarm           no launch (or round) of an
 *                                        implementation may outlast the
 *                                        shape's time cap (below)
 *
 * The program defines TIMING_USAGE, its usage text (lines ending in "\n"),
 * before including this file. Like harness.h, which it builds on: CUDA C++
 * using only the CUDA runtime API, compiled by nvcc for a GPU and by bin/emucc
 * for the emulator; every function is static inline. */
#ifndef CUGRADE_TIMING_H
#define CUGRADE_TIMING_H

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include <cuda_runtime.h>

#include "harness.h"
#include "timing_stats.h"

#ifndef TIMING_USAGE
#error "define TIMING_USAGE (the timing program's usage text) before including timing.h"
#endif

/* ---- the GPU's turn -----------------------------------------------------------
 * A timing program starts without the GPU (its CUDA context and cuBLAS made
 * while others use it), then: timing_share_gpu() before its setup (inputs,
 * expected outputs: beside other programs' correctness runs, never beside a
 * timed part), timing_wait_turn() before its timed part (the GPU alone), and
 * timing_turn_done() before its teardown (harness.h, grader/run/gpu_turn.h). */
static inline void timing_share_gpu(void) { harness_gpu_share(); }
static inline void timing_wait_turn(void) { harness_gpu_alone(); }
static inline void timing_turn_done(void) { harness_gpu_done(); }

/* ---- errors and options ---------------------------------------------------- */

static inline void timing_usage_error(const char *why, const char *arg)
{
    fprintf(stderr, "cugrade: perf: %s%s%s\n", why, arg ? ": " : "", arg ? arg : "");
    fprintf(stderr, "%s", TIMING_USAGE);
    exit(HARNESS_EXIT_IO);
}

/* The value of option `opt`, an integer in lo..hi. */
static inline long timing_parse_long(const char *s, long lo, long hi, const char *opt)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (end == s || *end || v < lo || v > hi)
        timing_usage_error("bad value for", opt);
    return v;
}

/* The value of option `opt`, a finite number >= lo. */
static inline double timing_parse_double(const char *s, double lo, const char *opt)
{
    char *end;
    double v = strtod(s, &end);
    if (end == s || *end || !(v >= lo) || isinf(v))
        timing_usage_error("bad value for", opt);
    return v;
}

/* The value of --gate: 1 for "on", 0 for "off". */
static inline int timing_parse_gate(const char *s)
{
    if (strcmp(s, "on") != 0 && strcmp(s, "off") != 0)
        timing_usage_error("bad value for --gate (want on or off)", s);
    return strcmp(s, "on") == 0;
}

/* The options of every kind's timing program, besides its shapes and --impl. */
typedef struct {
    unsigned long long seed; /* --seed: random unless given (fresh inputs, below) */
    long min_reps, max_reps;
    double target_rse, time_cap_s;
    double rtol, atol;       /* the lab's tolerance (the grader passes lab.json's) */
    int gate;                /* --gate: 1 on (the default), 0 off */
} timing_options_t;

/* 64 bits from the kernel's random source (the time and the process if it
 * has none). */
static inline uint64_t timing_random64(void)
{
    uint64_t v = 0;
    if (getrandom(&v, sizeof v, 0) == (ssize_t)sizeof v)
        return v;
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ((uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec) ^
           ((uint64_t)getpid() << 40);
}

/* The defaults, with the kind's own tolerance. */
static inline timing_options_t timing_options(double rtol, double atol)
{
    timing_options_t t = {timing_random64() & LONG_MAX, 10, 200, 0.01, 30.0, rtol, atol, 1};
    return t;
}

/* Takes opt's value val into t when opt is one of its options: 1; else 0. */
static inline int timing_option(timing_options_t *t, const char *opt, const char *val)
{
    if (strcmp(opt, "--seed") == 0)
        t->seed = (unsigned long long)timing_parse_long(val, 0, LONG_MAX, opt);
    else if (strcmp(opt, "--min-reps") == 0)
        t->min_reps = timing_parse_long(val, 1, 100000, opt);
    else if (strcmp(opt, "--max-reps") == 0)
        t->max_reps = timing_parse_long(val, 1, 100000, opt);
    else if (strcmp(opt, "--target-rse") == 0)
        t->target_rse = timing_parse_double(val, 0.0, opt);
    else if (strcmp(opt, "--time-cap-s") == 0)
        t->time_cap_s = timing_parse_double(val, 0.0, opt);
    else if (strcmp(opt, "--rtol") == 0)
        t->rtol = timing_parse_double(val, 0.0, opt);
    else if (strcmp(opt, "--atol") == 0)
        t->atol = timing_parse_double(val, 0.0, opt);
    else if (strcmp(opt, "--gate") == 0)
        t->gate = timing_parse_gate(val);
    else
        return 0;
    return 1;
}

/* Once the command line is read: --min-reps no more than --max-reps. */
static inline void timing_options_end(timing_options_t *t)
{
    if (t->min_reps > t->max_reps)
        t->min_reps = t->max_reps;
}

/* --impl LIST ("student,reference"): use[i] = 1 for each of names[0..n) in
 * it, the others 0; a usage error for a name not there, or none. */
static inline void timing_parse_impls(const char *list, const char *const *names, int n,
                                      int *use)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s", list);
    memset(use, 0, (size_t)n * sizeof use[0]);
    int any = 0;
    for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        int i = 0;
        while (i < n && strcmp(t, names[i]) != 0)
            i++;
        if (i == n)
            timing_usage_error("unknown implementation", t);
        use[i] = any = 1;
    }
    if (!any)
        timing_usage_error("--impl names no implementation", list);
}

/* Right after a launch, without waiting: a launch that failed. */
static inline void timing_check_launched(const char *what)
{
    cudaError_t err = cudaGetLastError();
    if (err == cudaSuccess)
        return;
    fprintf(stderr, "cugrade: CUDA error after %s: %s (%s)\n", what, cudaGetErrorName(err),
            cudaGetErrorString(err));
    exit(HARNESS_EXIT_CUDA);
}

/* ---- device information ------------------------------------------------------ */

static inline int timing_attr(cudaDeviceAttr a, int dev)
{
    int v = 0;
    HARNESS_CHECK(cudaDeviceGetAttribute(&v, a, dev));
    return v;
}

/* The current device's number of SMs. */
static inline int timing_sms(void)
{
    int dev;
    HARNESS_CHECK(cudaGetDevice(&dev));
    return timing_attr(cudaDevAttrMultiProcessorCount, dev);
}

/* Prints the device lines (device ... runtime_version); returns the L2 size
 * in bytes (64 MiB when the device does not say). */
static inline size_t timing_print_device(void)
{
    int dev, drv, rt;
    cudaDeviceProp p;
    HARNESS_CHECK(cudaGetDevice(&dev));
    HARNESS_CHECK(cudaGetDeviceProperties(&p, dev));
    HARNESS_CHECK(cudaDriverGetVersion(&drv));
    HARNESS_CHECK(cudaRuntimeGetVersion(&rt));
    int sm_khz = timing_attr(cudaDevAttrClockRate, dev);        /* the peak (boost) clock */
    int mem_khz = timing_attr(cudaDevAttrMemoryClockRate, dev); /* the peak memory clock */
    int bus_bits = timing_attr(cudaDevAttrGlobalMemoryBusWidth, dev);
    int l2 = timing_attr(cudaDevAttrL2CacheSize, dev);
    /* Theoretical peak bandwidth: clock x bus width x 2 (double data rate) /
     * 8 bits; measured copies reach less. */
    double gbs = (double)mem_khz * 1e3 * bus_bits * 2.0 / 8.0 / 1e9;
    harness_result("device %s\n", p.name);
    harness_result("compute_capability %d.%d\n", p.major, p.minor);
    harness_result("sm_clock_mhz %d\n", sm_khz / 1000);
    harness_result("mem_clock_mhz %d\n", mem_khz / 1000);
    harness_result("mem_bus_bits %d\n", bus_bits);
    harness_result("bandwidth_gbs %.1f\n", gbs);
    harness_result("l2_bytes %d\n", l2);
    harness_result("sms %d\n", timing_attr(cudaDevAttrMultiProcessorCount, dev));
    harness_result("driver_version %d\n", drv);
    harness_result("runtime_version %d\n", rt);
    return l2 > 0 ? (size_t)l2 : (size_t)64 << 20;
}

/* ---- the L2 flush ------------------------------------------------------------ */

/* A device buffer of twice the L2 size, written over before every timed rep
 * (docs/gpu.md says why twice, and why a different byte each time). */
typedef struct {
    void *buf;
    size_t bytes;
    unsigned int fills;
} timing_flush_t;

static inline timing_flush_t *timing_flush_state(void)
{
    static timing_flush_t f;
    return &f;
}

static inline void timing_flush_init(size_t l2_bytes)
{
    timing_flush_t *f = timing_flush_state();
    f->bytes = 2 * l2_bytes;
    HARNESS_CHECK(cudaMalloc(&f->buf, f->bytes));
}

static inline size_t timing_flush_bytes(void)
{
    return timing_flush_state()->bytes;
}

/* Enqueues the flush on the legacy default stream. */
static inline void timing_flush_l2(void)
{
    timing_flush_t *f = timing_flush_state();
    HARNESS_CHECK(cudaMemsetAsync(f->buf, (int)(f->fills++ % 255u), f->bytes, 0));
}

static inline void timing_flush_free(void)
{
    HARNESS_CHECK(cudaFree(timing_flush_state()->buf));
}

/* The protocol's lines, after the device's. */
static inline void timing_print_protocol(int warmup, long min_reps, long max_reps,
                                         double target_rse, double time_cap_s,
                                         unsigned long long seed)
{
    harness_result("flush_bytes %zu\n", timing_flush_bytes());
    harness_result("warmup %d\n", warmup);
    harness_result("min_reps %ld\n", min_reps);
    harness_result("max_reps %ld\n", max_reps);
    harness_result("target_rse %g\n", target_rse);
    harness_result("time_cap_s %g\n", time_cap_s);
    harness_result("seed %llu\n", seed);
}

/* ---- the launch gate -----------------------------------------------------------
 * Events around a launch time the GPU from the start event to the stop event,
 * and so also any wait of the GPU for the host in between: on a busy host the
 * launching thread may lose its core between recording the start event and
 * the launch, and the rep is timed that much slower. The gate leaves such
 * delays out. timing_gate_hold() queues a one-thread kernel that waits for a
 * flag in mapped host memory; the rep then queues its start event, launch and
 * stop event, and timing_gate_release() sets the flag. The start event runs
 * only once the whole rep is queued.
 *
 * A launch function that waits for the GPU itself (a cudaDeviceSynchronize or
 * cudaMemcpy in it, as many students write) would wait for the gate, which
 * waits for it: the gate gives up after TIMING_GATE_LIMIT_NS and says so
 * (timing_gate_gave_up, after the rep has been waited for); the timing
 * program then times that implementation without it. On the emulator, or
 * where mapped host memory cannot be had, there is no gate (every call here
 * does nothing and timing_gate_gave_up says 1). */
#define TIMING_GATE_LIMIT_NS 20000000ull

typedef struct {
    volatile unsigned int *flag; /* host-mapped: the ticket the host let through */
    unsigned int *gave_up;       /* host-mapped: the ticket the GPU stopped waiting for */
    unsigned int *dev_flag, *dev_gave_up; /* the same two as the device sees them */
    unsigned int ticket;         /* the last hold's */
    int on;
} timing_gate_t;

static inline timing_gate_t *timing_gate_state(void)
{
    static timing_gate_t g;
    return &g;
}

#ifndef __CUGRADE_EMU__
static __global__ void timing_gate_wait(const volatile unsigned int *flag, unsigned int ticket,
                                        unsigned int *gave_up)
{
    unsigned long long t0, t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
    while (*flag != ticket) {
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
        if (t - t0 > TIMING_GATE_LIMIT_NS) {
            *(volatile unsigned int *)gave_up = ticket;
            return;
        }
    }
}
#endif

/* Sets the gate up; without mapped host memory there is none. */
static inline void timing_gate_init(void)
{
#ifndef __CUGRADE_EMU__
    timing_gate_t *g = timing_gate_state();
    unsigned int *host = NULL;
    if (cudaHostAlloc((void **)&host, 2 * sizeof *host, cudaHostAllocMapped) != cudaSuccess) {
        (void)cudaGetLastError(); /* not sticky: clear it */
        return;
    }
    if (cudaHostGetDevicePointer((void **)&g->dev_flag, host, 0) != cudaSuccess) {
        (void)cudaGetLastError();
        HARNESS_CHECK(cudaFreeHost(host));
        return;
    }
    g->dev_gave_up = g->dev_flag + 1;
    host[0] = host[1] = 0;
    g->flag = host;
    g->gave_up = host + 1;
    g->ticket = 0;
    g->on = 1;
#endif
}

/* Queues the wait for the next timing_gate_release(). */
static inline void timing_gate_hold(void)
{
#ifndef __CUGRADE_EMU__
    timing_gate_t *g = timing_gate_state();
    if (!g->on)
        return;
    g->ticket++;
    timing_gate_wait<<<1, 1>>>(g->dev_flag, g->ticket, g->dev_gave_up);
    timing_check_launched("the launch gate");
#endif
}

/* Lets the held GPU go on: everything since timing_gate_hold() is queued. */
static inline void timing_gate_release(void)
{
    timing_gate_t *g = timing_gate_state();
    if (g->on)
        __atomic_store_n((unsigned int *)g->flag, g->ticket, __ATOMIC_SEQ_CST);
}

/* After the held rep has been waited for: whether the gate stopped waiting
 * before the release (so the rep's launch waited for the GPU), or there is
 * no gate. */
static inline int timing_gate_gave_up(void)
{
    timing_gate_t *g = timing_gate_state();
    return !g->on || __atomic_load_n(g->gave_up, __ATOMIC_SEQ_CST) == g->ticket;
}

/* A warm-up launch of an implementation timed through the gate while
 * *gated: timing_warm_gate_hold(w, *gated) before the w-th, then
 * timing_warm_gate_done(held, gated, what) after it, which waits for it (a
 * fault names `what`). The first (w == 0) loads the kernels, which may wait
 * for the GPU, and is never gated; a later one whose launch made the gate
 * give up ends *gated. */
static inline int timing_warm_gate_hold(int w, int gated)
{
    if (w == 0 || !gated)
        return 0;
    timing_gate_hold();
    return 1;
}

static inline void timing_warm_gate_done(int held, int *gated, const char *what)
{
    if (held)
        timing_gate_release();
    harness_check_launch(what);
    if (held && timing_gate_gave_up())
        *gated = 0;
}

static inline void timing_gate_free(void)
{
    timing_gate_t *g = timing_gate_state();
    if (g->on)
        HARNESS_CHECK(cudaFreeHost((void *)g->flag));
    g->on = 0;
}

/* ---- fresh inputs ------------------------------------------------------------
 * A launch function may keep what it computed and hand it back when it is
 * called again with the same inputs (a copy, not a product: it would time
 * hundreds of times faster with a right output; tests/attacks/memoizes_*.cu).
 * So the inputs are made anew before every round, from a stream of a random
 * seed (timing_stream), and the warm-up launches get inputs of their own:
 * no timed launch sees inputs any launch saw before. Where a round's outputs
 * are re-checked in part, the part is drawn with timing_random64 once the
 * round's launches have ended, when no code of the submission runs. */

/* The stream of input `which` (0, 1: A, B) of round `round` (-1: the
 * warm-up) from the seed; timing_mix64 makes a stream's values. */
static inline uint64_t timing_stream(unsigned long long seed, long round, int which)
{
    return (uint64_t)seed * 0x9e3779b97f4a7c15ull + 4u * (uint64_t)(round + 1) + (uint64_t)which;
}

/* splitmix64's finalizer: an input's value is a hash of (stream, index). */
__device__ static inline uint64_t timing_mix64(uint64_t x)
{
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

/* ---- the watchdog ------------------------------------------------------------
 * The timing has the GPU alone, and a kernel that never ends at the timing's
 * shapes (it passed the smaller datasets) would hold it until the grader's
 * limit for the whole timing, minutes in which every other program's timed
 * part waits. So each waited-for launch and each round is armed with the
 * shape's time cap (--time-cap-s: a launch longer than that cannot be timed
 * anyway): past it a thread of the timing program says what ran too long and
 * ends the program with HARNESS_EXIT_TIMEOUT, and the grader's vouch
 * (grader/pipeline/grade_perf.c) finds the failure the submission's. */

/* Arms harness.h's watchdog: limit_s from now (none if it is not > 0), what
 * (printf-style) names what runs. */
static inline void timing_watch_arm(double limit_s, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static inline void timing_watch_arm(double limit_s, const char *fmt, ...)
{
    if (!(limit_s > 0))
        return;
    char what[160];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    if (harness_watch_arm(harness_now() + limit_s, 0,
                          "cugrade: perf: %s ran past %g s, the shape's time cap (--time-cap-s):"
                          " the timing stops here\n", what, limit_s) != 0) {
        fprintf(stderr, "cugrade: perf: cannot start the watchdog thread\n");
        exit(HARNESS_EXIT_CUDA);
    }
}

static inline void timing_watch_disarm(void) { harness_watch_disarm(); }

/* ---- statistics: timing_stats.h ------------------------------------------- */

/* A device buffer of n floats; exits with status 3 on a CUDA error. */
static inline float *timing_device_floats(size_t n)
{
    float *p = NULL;
    HARNESS_CHECK(cudaMalloc((void **)&p, n * sizeof(float)));
    return p;
}

/* The stopping rule after a round: "rse" once every implementation in use
 * (use[i]) has min_reps times in ms[i] and its median known to target_rse
 * (timing_stats.h); else "max_reps" or "time_cap"; NULL to go on. */
static inline const char *timing_stop_reason(float *const *ms, const int *use, int nimpl, int reps,
                                             long min_reps, long max_reps, double target_rse,
                                             double elapsed_s, double time_cap_s)
{
    if (timing_converged(ms, use, nimpl, reps, min_reps, target_rse))
        return "rse";
    if (reps >= max_reps)
        return "max_reps";
    return elapsed_s >= time_cap_s ? "time_cap" : NULL;
}

#endif
