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
 *   harness_to_device, harness_output,      the device arrays: inputs, and the
 *   harness_array_done                      output filled with the never-written
 *                                           NaN pattern, between guards
 *                                           (harness_device.h)
 *   harness_malloc(bytes)                   malloc that never returns NULL
 *   harness_main(argc, argv, run_dataset)   main(): one dataset, or a list of
 *                                           them in one process (below)
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
 *   4  the student's launch function broke the lab's contract (e.g. a dot
 *      product's launch returned a count of partial sums outside 1..n); the
 *      "cugrade: " line says which rule
 *
 * Any other status, a signal or the time limit comes from the student's code.
 *
 * List mode. A driver whose main is `return harness_main(argc, argv, run)`
 * (run: what main did for one dataset, same arguments, returns the exit
 * status) also runs as
 *
 *     driver --each LIST
 *
 * LIST has one line per dataset: its time limit in seconds, optionally
 * NAME=VALUE environment settings and "--", then the dataset's usual
 * arguments. Fields are separated by tabs when the line has one, else by
 * spaces:  "2<TAB>--<TAB>A.bin<TAB>B.bin<TAB>C.bin" or "2 A.bin B.bin C.bin".
 * For dataset K (0-based line index) the driver sets the environment,
 * writes "\ncugrade-dataset-begin K\n" to stdout and the report channel (after
 * flushing stdout and stderr, in one write, so the marker is a line of its
 * own whatever the program printed before), runs the dataset exactly as the
 * single mode does, and writes "\ncugrade-dataset-end K WALL_S\n". A
 * watchdog thread ends the process with "\ncugrade-dataset-timeout K\n" and
 * _exit(124) when dataset K runs past its limit, whatever the main thread is
 * stuck in. An error ends the process as in single mode (status 2 or 3, or
 * the signal), so the dataset that began and did not end is the one that
 * failed; the grader (grader/run/runs.c) reruns the datasets after it. One
 * exception: a CUDA error that leaves the context usable (a launch with a
 * bad configuration, an allocation too big: after cudaGetLastError,
 * cudaDeviceSynchronize succeeds) ends only its dataset, with the same
 * "cugrade: " line and "\ncugrade-dataset-failed K WALL_S 3\n" (the status a
 * single run would have exited with); the next dataset runs in the same
 * process, with no new process and CUDA context to pay. So does a crash of
 * the student's own host code (harness_crash.h: "\ncugrade-dataset-signal K
 * WALL_S SIGNO\n", the signal a single run would have died of). A malformed LIST
 * exits with status 2 before any dataset begins. A driver built with
 * -DCUGRADE_TIMING_TAIL also takes `--each LIST --time ARG...`: after the
 * list, the timing program's run in the same process when the grader says
 * so (harness_run_list).
 *
 * CUDA C++ using only the CUDA runtime API and POSIX (pthreads): it is
 * compiled by nvcc for a GPU and by the emulator's g++ against
 * emu/include/cuda_runtime.h. Include it from the driver (or a libwb
 * program's harness object, wb_io.cu) only; every function is static inline. */
#ifndef CUGRADE_HARNESS_H
#define CUGRADE_HARNESS_H

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cuda_runtime.h>

#include "harness_crash.h"
#include "matbin.h"

#define HARNESS_EXIT_IO 2
#define HARNESS_EXIT_CUDA 3
#define HARNESS_EXIT_CONTRACT 4

/* The lab's launch function is named by lab.json "launch" and reaches the
 * driver and the timing program as -DCUGRADE_LAUNCH=name. The grader builds
 * the lab's reference and baseline for timing with their symbols renamed to
 * cugrade_reference_<name> and cugrade_baseline_<name>. */
#define HARNESS_PASTE_(a, b) a##b
#define HARNESS_PASTE(a, b) HARNESS_PASTE_(a, b)
#define HARNESS_STR_(x) #x
#define HARNESS_STR(x) HARNESS_STR_(x)
#define HARNESS_REFERENCE(name) HARNESS_PASTE(cugrade_reference_, name)
#define HARNESS_BASELINE(name) HARNESS_PASTE(cugrade_baseline_, name)

/* After a CUDA error has been reported: status 3, for the process or, in
 * the list mode when the context is still usable, for the dataset only. */
static inline void harness_cuda_failed(void)
{
    jmp_buf *escape = *harness_dataset_escape();
    if (escape && (cudaGetLastError(), cudaDeviceSynchronize() == cudaSuccess) &&
        cudaGetLastError() == cudaSuccess)
        longjmp(*escape, HARNESS_EXIT_CUDA);
    exit(HARNESS_EXIT_CUDA);
}

/* Status 3 unless err is cudaSuccess; `what` names the call. */
static inline void harness_check(cudaError_t err, const char *what, const char *file, int line)
{
    if (err == cudaSuccess)
        return;
    fprintf(stderr, "cugrade: CUDA error in %s at %s:%d: %s (%s)\n", what, file, line,
            cudaGetErrorName(err), cudaGetErrorString(err));
    harness_cuda_failed();
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
    harness_cuda_failed();
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


/* ---- list mode: several datasets in one process (see the top of this file) */

#define HARNESS_EXIT_TIMEOUT 124   /* the watchdog's status, as timeout(1)'s */
#define HARNESS_LIST_MAX_FIELDS 32 /* per LIST line */

/* The driver's work for one dataset: main's, same arguments; returns the
 * exit status (0 when the output is written). */
typedef int (*harness_dataset_fn)(int argc, char **argv);

/* One LIST line. */
typedef struct {
    double limit_s;
    int nenv, argc;
    char *env[HARNESS_LIST_MAX_FIELDS];      /* "NAME=VALUE", set before it runs */
    char *argv[HARNESS_LIST_MAX_FIELDS + 2]; /* argv[0] is the driver's own */
} harness_dataset_t;

/* What the watchdog watches: a deadline (CLOCK_MONOTONIC seconds; 0 while
 * disarmed) and the line it writes once that has passed, before it ends the
 * process: a list's dataset time-out marker (to stdout and the report
 * channel) or the timing's time cap (timing.h, to stderr). */
typedef struct {
    pthread_mutex_t lock;
    int started;
    double deadline;
    int marker; /* the line is a marker: stdout and the report channel */
    char line[256];
} harness_watch_t;

/* The watchdog thread runs no student code; should the driver ever be built
 * with the emulator's access hooks (-fsanitize=thread), keep them out of it. */
#if defined(__SANITIZE_THREAD__)
#define HARNESS_NOT_INSTRUMENTED __attribute__((no_sanitize_thread))
#else
#define HARNESS_NOT_INSTRUMENTED
#endif

static inline harness_watch_t *harness_watch(void)
{
    static harness_watch_t w = {PTHREAD_MUTEX_INITIALIZER, 0, 0.0, 0, ""};
    return &w;
}

static inline HARNESS_NOT_INSTRUMENTED double harness_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* write(2) only: no stdio lock, which a stuck main thread may hold. */
static inline HARNESS_NOT_INSTRUMENTED void harness_write_all(int fd, const char *buf, size_t len)
{
    while (len > 0) {
        ssize_t n = write(fd, buf, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return;
        buf += n;
        len -= (size_t)n;
    }
}

/* ---- the report channel -------------------------------------------------
 * The grader opens a file as a descriptor before the program starts and
 * names it in CUGRADE_REPORT_FD (grader/run/runner.h). The markers and
 * results written there are the ones the grader reads; the same lines on
 * stdout are for people. The submission's code can print to stdout but not
 * write to that descriptor (the grader's object check refuses write, open,
 * getenv and the like), so what it prints cannot pass for them. */
static inline HARNESS_NOT_INSTRUMENTED int harness_report_fd(void)
{
    static int fd = -2;
    if (fd == -2) {
        const char *v = getenv("CUGRADE_REPORT_FD");
        char *end = NULL;
        long n = v && *v ? strtol(v, &end, 10) : -1;
        fd = (end && !*end && n >= 0 && n <= 1024 && fcntl((int)n, F_GETFD) >= 0) ? (int)n : -1;
    }
    return fd;
}

/* ---- the GPU's turns -----------------------------------------------------
 * The grader lets a program use its GPU only when the program asks
 * (grader/run/gpu_turn.h): "S" before using it beside others, "R" before a
 * timed part that must have it alone, "D" when done for now. The first two
 * wait for the grader's "G". $CUGRADE_TURN_FDS="GO,READY" names the pipes;
 * without it (a program run by hand, a run the grader holds the GPU for)
 * these do nothing. */
static inline HARNESS_NOT_INSTRUMENTED int harness_turn_fd(int which)
{
    static int fds[2] = {-2, -2};
    if (fds[0] == -2) {
        const char *v = getenv("CUGRADE_TURN_FDS");
        if (!v || sscanf(v, "%d,%d", &fds[0], &fds[1]) != 2 || fds[0] < 0 || fds[1] < 0 ||
            fcntl(fds[0], F_GETFD) < 0 || fcntl(fds[1], F_GETFD) < 0)
            fds[0] = fds[1] = -1;
    }
    return fds[which];
}

/* Sends the request what (a byte) and returns the grader's answer: its
 * byte, 0 when none came, or 'G' without turns (a run by hand: nothing to ask). */
static inline HARNESS_NOT_INSTRUMENTED char harness_gpu_request(const char *what)
{
    int go = harness_turn_fd(0), ready = harness_turn_fd(1);
    if (go < 0 || ready < 0)
        return 'G';
    fflush(stdout);
    harness_write_all(ready, what, 1);
    char c = 0;
    ssize_t n;
    while ((n = read(go, &c, 1)) < 0 && errno == EINTR)
        ;
    return n == 1 ? c : 0;
}

/* Asks (a byte) and waits for the grader's "G"; exits when none comes. */
static inline HARNESS_NOT_INSTRUMENTED void harness_gpu_ask(const char *what)
{
    if (harness_gpu_request(what) != 'G') {
        fprintf(stderr, "cugrade: the grader never gave the GPU\n");
        exit(HARNESS_EXIT_IO);
    }
}

/* The list's timing tail (below): "T", answered "G" (time now) or "N" (do
 * not: the grader's verdict is that the datasets' outputs do not all pass, or
 * it has no use for a timing). 0 without turns (a run by hand). */
static inline HARNESS_NOT_INSTRUMENTED int harness_gpu_may_time(void)
{
    return harness_turn_fd(0) >= 0 && harness_gpu_request("T") == 'G';
}

static inline void harness_gpu_share(void) { harness_gpu_ask("S"); }
static inline void harness_gpu_alone(void) { harness_gpu_ask("R"); }

static inline HARNESS_NOT_INSTRUMENTED void harness_gpu_done(void)
{
    int ready = harness_turn_fd(1);
    if (ready >= 0)
        harness_write_all(ready, "D", 1);
}

/* One line (or several) to the report channel, in one write. */
static inline HARNESS_NOT_INSTRUMENTED void harness_report(const char *text, size_t len)
{
    int fd = harness_report_fd();
    if (fd >= 0)
        harness_write_all(fd, text, len);
}

/* A result line ("impl ... median_ms ...", "device ..."): on stdout for
 * people and on the report channel for the grader. */
static inline void harness_result(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static inline void harness_result(const char *fmt, ...)
{
    char line[2048];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    size_t len = (size_t)n < sizeof line ? (size_t)n : sizeof line - 1;
    fputs(line, stdout);
    fflush(stdout);
    harness_report(line, len);
}

/* A marker line, after everything the program printed so far: on stdout
 * (where it splits the text between datasets) and on the report channel
 * (where it says which datasets began, ended or timed out). */
static inline void harness_marker(const char *line)
{
    fflush(stdout);
    fflush(stderr);
    harness_write_all(STDOUT_FILENO, line, strlen(line));
    harness_report(line, strlen(line));
}

/* Ends the process when the deadline passes, writing the armed line with
 * write(2) alone (a stuck main thread may hold stdio's lock). It decides and
 * exits holding the lock, so what it watches either ends or times out. */
static inline HARNESS_NOT_INSTRUMENTED void *harness_watchdog(void *unused)
{
    (void)unused;
    harness_watch_t *w = harness_watch();
    for (;;) {
        struct timespec nap = {0, 10 * 1000 * 1000};
        nanosleep(&nap, NULL);
        pthread_mutex_lock(&w->lock);
        if (w->deadline > 0 && harness_now() >= w->deadline) {
            size_t n = strlen(w->line);
            harness_write_all(w->marker ? STDOUT_FILENO : STDERR_FILENO, w->line, n);
            if (w->marker)
                harness_report(w->line, n);
            _exit(HARNESS_EXIT_TIMEOUT);
        }
        pthread_mutex_unlock(&w->lock);
    }
    return NULL;
}

/* Starts the watchdog's thread once; -1 if it cannot be. Call with the
 * watch's lock held. */
static inline int harness_watch_start_locked(harness_watch_t *w)
{
    if (w->started)
        return 0;
    pthread_t t;
    if (pthread_create(&t, NULL, harness_watchdog, NULL) != 0)
        return -1;
    pthread_detach(t);
    w->started = 1;
    return 0;
}

/* Arms the watchdog: past deadline it writes the line (printf-style; a
 * marker goes to stdout and the report channel, else to stderr) and ends the
 * process with HARNESS_EXIT_TIMEOUT. -1 if its thread cannot start. */
static inline int harness_watch_arm(double deadline, int marker, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static inline int harness_watch_arm(double deadline, int marker, const char *fmt, ...)
{
    harness_watch_t *w = harness_watch();
    pthread_mutex_lock(&w->lock);
    int rc = harness_watch_start_locked(w);
    if (rc == 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(w->line, sizeof w->line, fmt, ap);
        va_end(ap);
        w->marker = marker;
        w->deadline = deadline;
    }
    pthread_mutex_unlock(&w->lock);
    return rc;
}

static inline void harness_watch_disarm(void)
{
    harness_watch_t *w = harness_watch();
    pthread_mutex_lock(&w->lock);
    w->deadline = 0;
    pthread_mutex_unlock(&w->lock);
}

/* Fills d from one LIST line (split in place); -1 if it is malformed. */
static inline int harness_parse_line(char *line, char *prog, harness_dataset_t *d)
{
    char *f[HARNESS_LIST_MAX_FIELDS], *save = NULL, *end;
    const char *seps = strchr(line, '\t') ? "\t" : " ";
    int n = 0, dashes = 0;
    for (char *t = strtok_r(line, seps, &save); t; t = strtok_r(NULL, seps, &save)) {
        if (n == HARNESS_LIST_MAX_FIELDS)
            return -1;
        f[n++] = t;
    }
    if (n < 2)
        return -1;
    d->limit_s = strtod(f[0], &end);
    if (*end || !(d->limit_s > 0) || d->limit_s > 1e9)
        return -1;
    for (int i = 1; i < n && !dashes; i++)
        if (strcmp(f[i], "--") == 0)
            dashes = i;
    d->nenv = 0;
    for (int i = 1; i < dashes; i++) {
        if (f[i][0] == '=' || !strchr(f[i], '='))
            return -1;
        d->env[d->nenv++] = f[i];
    }
    d->argc = 0;
    d->argv[d->argc++] = prog;
    for (int i = dashes + 1; i < n; i++)
        d->argv[d->argc++] = f[i];
    d->argv[d->argc] = NULL;
    return 0;
}

/* Reads LIST (its lines stay allocated: the fields point into them). Exits
 * with status 2 when it cannot be read, is empty or has a malformed line. */
static inline harness_dataset_t *harness_read_list(const char *path, char *prog, int *count)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "cugrade: cannot read the dataset list %s\n", path);
        exit(HARNESS_EXIT_IO);
    }
    harness_dataset_t *list = NULL;
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    int n = 0;
    while ((len = getline(&line, &cap, f)) >= 0) {
        while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
            line[--len] = '\0';
        list = (harness_dataset_t *)realloc(list, (size_t)(n + 1) * sizeof *list);
        char *own = strdup(line);
        if (!list || !own || harness_parse_line(own, prog, &list[n]) != 0) {
            fprintf(stderr, "cugrade: %s:%d: not a dataset line (LIMIT_S [NAME=VALUE... --] ARG...)\n",
                    path, n + 1);
            exit(HARNESS_EXIT_IO);
        }
        n++;
    }
    free(line);
    fclose(f);
    if (n == 0) {
        fprintf(stderr, "cugrade: the dataset list %s is empty\n", path);
        exit(HARNESS_EXIT_IO);
    }
    *count = n;
    return list;
}

/* The timing program's entry, linked into a driver built with
 * -DCUGRADE_TIMING_TAIL (grader/build/build_timing.c, the "timed driver"):
 * the lab's perf.cu compiled with -DCUGRADE_TIMING_ENTRY=cugrade_timing_main. */
#ifdef CUGRADE_TIMING_TAIL
int cugrade_timing_main(int argc, char **argv);
#define HARNESS_TIMING_ENTRY cugrade_timing_main
#else
#define HARNESS_TIMING_ENTRY NULL
#endif

/* driver --each LIST [--time ARG...]: every dataset in turn, between markers,
 * watched. With --time (a timed driver only), the list's timing tail: once
 * every dataset has ended, the driver asks the grader whether to time (a
 * "T" turn); if the grader, having compared the outputs, says so, it writes
 * "\ncugrade-timing-begin\n" and runs the timing program's entry with ARG...
 * in this process and its CUDA context, whose exit status becomes the
 * process's. So a submission whose outputs pass is timed without a second
 * process and context: a CUDA context is made one at a time for the whole
 * host (bench/gpu_context.sh), which bounds a batch on several GPUs. */
static inline int harness_run_list(char *prog, const char *path, harness_dataset_fn run,
                                   int tail_argc, char **tail_argv)
{
    int n;
    harness_dataset_t *list = harness_read_list(path, prog, &n);
    harness_watch_t *watch = harness_watch();
    pthread_mutex_lock(&watch->lock);
    int watched = harness_watch_start_locked(watch);
    pthread_mutex_unlock(&watch->lock);
    if (watched != 0) {
        fprintf(stderr, "cugrade: cannot start the watchdog thread\n");
        return HARNESS_EXIT_IO;
    }
    /* Create the CUDA context before the first dataset's clock starts: on a
     * busy GPU that alone can take seconds, which a separate run pays outside
     * its kernel too. (An error here shows again in the first dataset.) */
    (void)cudaFree(0);
    /* The GPU held beside others from here (one turn for the whole list: a
     * turn per dataset would wait behind every timed run as often); the
     * datasets' clocks start once it is held. */
    harness_gpu_share();
    harness_crash_arm(); /* a crash of the student's code ends its dataset only */
    for (int k = 0; k < n; k++) {
        harness_dataset_t *d = &list[k];
        for (int e = 0; e < d->nenv; e++)
            putenv(d->env[e]);
        char line[96];
        snprintf(line, sizeof line, "\ncugrade-dataset-begin %d\n", k);
        harness_marker(line);
        double start = harness_now();
        harness_watch_arm(start + d->limit_s, 1, "\ncugrade-dataset-timeout %d\n", k);
        jmp_buf escape;
        /* 3: a CUDA error that left the context usable; HARNESS_CRASH_BASE +
         * a signal: the student's code crashed (harness_crash.h) */
        int status = setjmp(escape);
        if (status == 0) {
            *harness_dataset_escape() = &escape;
            status = run(d->argc, d->argv);
            *harness_dataset_escape() = NULL;
            if (status != 0)
                return status; /* watched until the process is gone, like a failed single run */
        }
        *harness_dataset_escape() = NULL;
        if (status > HARNESS_CRASH_BASE)
            harness_crash_settle(status - HARNESS_CRASH_BASE); /* under the watchdog still */
        double wall = harness_now() - start;
        harness_watch_disarm();
        if (status > HARNESS_CRASH_BASE)
            snprintf(line, sizeof line, "\ncugrade-dataset-signal %d %.6f %d\n", k, wall,
                     status - HARNESS_CRASH_BASE);
        else if (status != 0)
            snprintf(line, sizeof line, "\ncugrade-dataset-failed %d %.6f %d\n", k, wall, status);
        else
            snprintf(line, sizeof line, "\ncugrade-dataset-end %d %.6f\n", k, wall);
        harness_marker(line);
    }
    harness_gpu_done();
    free(list);
    int (*timing)(int, char **) = HARNESS_TIMING_ENTRY;
    if (tail_argc > 0 && timing && harness_gpu_may_time()) {
        harness_marker("\ncugrade-timing-begin\n");
        return timing(tail_argc, tail_argv);
    }
    return 0;
}

/* A driver's main: `driver ARGS...` runs one dataset (run(argc, argv)),
 * `driver --each LIST` every dataset of LIST in this process. */
static inline int harness_main(int argc, char **argv, harness_dataset_fn run)
{
    harness_report_fd(); /* looked up before any of the submission's code runs */
    if (argc >= 2 && strcmp(argv[1], "--each") == 0) {
        int timed = argc >= 4 && strcmp(argv[3], "--time") == 0 && HARNESS_TIMING_ENTRY;
        if (argc != 3 && !timed) {
            fprintf(stderr, "usage: %s --each LIST%s\n", argv[0],
                    HARNESS_TIMING_ENTRY ? " [--time TIMING-ARG...]" : "");
            return HARNESS_EXIT_IO;
        }
        if (timed)
            argv[3] = argv[0]; /* the timing entry's argv: the program, then its arguments */
        return harness_run_list(argv[0], argv[2], run, timed ? argc - 3 : 0,
                                timed ? argv + 3 : NULL);
    }
    return run(argc, argv);
}

#endif
