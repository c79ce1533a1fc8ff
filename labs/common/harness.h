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
 *                                           them in one process (harness_list.h)
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


/* The watchdog thread (harness_list.h) runs no student code; should the
 * driver ever be built with the emulator's access hooks (-fsanitize=thread),
 * keep them out of it and of what it calls. */
#if defined(__SANITIZE_THREAD__)
#define HARNESS_NOT_INSTRUMENTED __attribute__((no_sanitize_thread))
#else
#define HARNESS_NOT_INSTRUMENTED
#endif

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

/* ---- list mode and the watchdog: harness_list.h ------------------------- */
#include "harness_list.h"

#endif
