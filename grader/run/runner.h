/* runner.h - run programs in child processes, never in the grader: each in
 * its own process group, with a wall-clock limit (the whole group is killed
 * when it runs out), stdin from /dev/null, stdout and stderr captured
 * together up to a cap (the rest is drained and counted, so a program that
 * prints a gigabyte neither blocks nor fills memory), no core dumps, and
 * death when the grader dies (PR_SET_PDEATHSIG). Several children may run at
 * once. */
#ifndef CUGRADE_RUNNER_H
#define CUGRADE_RUNNER_H

#include <stdatomic.h>
#include <stddef.h>

#define RUN_OUTPUT_CAP_DEFAULT (64 * 1024)

/* The report channel's descriptor in the child, and how the child learns of it. */
#define RUN_REPORT_FD 3
#define RUN_REPORT_ENV "CUGRADE_REPORT_FD=3"

typedef struct {
    char *const *argv;       /* argv[0] is the program path; NULL-terminated */
    const char *cwd;         /* NULL: inherit */
    char *const *extra_env;  /* "NAME=value" strings added to the environment; may be NULL */
    double timeout_s;        /* wall-clock limit, > 0 */
    size_t output_cap;       /* bytes of output kept; 0 means RUN_OUTPUT_CAP_DEFAULT */
    int sandboxed;           /* student code: run inside the sandbox (sandbox.h) with cwd
                              * as its only writable folder; cwd is then required */
    int tool;                /* sandboxed: a compiler or compute-sanitizer reading student
                              * code, under the jail's wider policy (processes, local
                              * sockets); 0: a lab program's */
    double not_after;        /* now_seconds() time at which the submission's time budget
                              * ends: not started after it, killed at it (0: no budget) */
    double budget_s;         /* that budget in seconds, for messages */
    const char *const *ro_paths; /* sandboxed: more paths the program may read (NULL-ended) */
    const char *copy_from, *copy_at; /* sandboxed: a copy (copy_from) shown at the place of the
                              * folder it copies (copy_at), read-only; NULL: none (sandbox.h) */
    int no_gpu;              /* sandboxed: no GPU device file shown (a program whose device is
                              * the executor's, which has no business with the GPU) */
    const char *write_dir;   /* sandboxed: the only writable folder when it is not cwd; cwd is
                              * then only where the program starts (inside, an empty folder
                              * but for the paths shown under it: relative paths keep working) */
    const char *report_path; /* the report channel: this file (created, emptied) is open in the
                              * child as descriptor RUN_REPORT_FD before the program starts,
                              * and RUN_REPORT_ENV tells the harness and the emulator so; it
                              * lies outside every folder the sandbox lets the program see, so
                              * only what writes to that descriptor reaches it (NULL: none) */
    /* Limits of the child and of every process it starts (setrlimit before
     * exec; 0: none): memory, as RLIMIT_DATA (its heap and private writable
     * mappings; not RLIMIT_AS: the CUDA driver reserves far more address
     * space than it uses, and under 4 GiB of it nvcc -arch=native finds no
     * GPU), CPU seconds (SIGXCPU at the limit, SIGKILL a second later) and
     * the size of any file it writes. */
    size_t memory_limit_bytes;
    double cpu_limit_s;
    size_t file_limit_bytes;
    size_t stop_after_bytes; /* kill the group once it has printed more than this (0: never;
                              * the output past the cap is drained and counted) */
    int nice;                /* added to the child's nice value (compilers: they yield the
                              * CPU to the programs that hold a GPU; 0: unchanged) */
    const int *pass_fds;     /* descriptors the child gets as RUN_PASS_FD, RUN_PASS_FD + 1, ...
                              * (the parent's stay open unless close_passed; NULL: none) */
    int npass_fds;
    int close_passed;        /* the parent's pass_fds are closed once the child holds them, or
                              * once it is known never to run: the end of a socket pair whose
                              * other end waits for this child's end of file */
    /* Seconds the budget's clock stood still so far (a program not yet
     * holding its GPU, or waiting in its queue: no time of the student's,
     * gpu_turn.h): not_after moves on by it; timeout_s does not, and bounds
     * a program that never asks. Called from the runner's thread, often;
     * NULL: the clock never stops. */
    double (*paused_s)(void *ctx);
    void *paused_ctx;
    /* Called on the runner's thread once the program is reaped (its group
     * killed), while the runner may still wait on the others: what the
     * program held ends then, not when the last of them ends. It must not
     * block. NULL: nothing to call. */
    void (*ended)(void *ctx);
    void *ended_ctx;
    /* Set non-zero by another thread: the program is stopped (killed, its
     * result worth nothing; runs_ahead.c's retry no longer wanted). NULL: never. */
    const atomic_int *cancel;
} run_spec_t;

/* Where the child finds run_spec_t's pass_fds. */
#define RUN_PASS_FD 4
#define RUN_MAX_PASS_FDS 4

typedef struct {
    int started;          /* 0 if fork/exec setup failed (see output) */
    int exited;           /* exited normally with exit_code */
    int exit_code;
    int signaled;         /* killed by term_signal (not by our time limit) */
    int term_signal;
    int timed_out;        /* killed because it ran past timeout_s (or not_after) */
    int budget_out;       /* not started, or killed, because not_after had come */
    int hung_before;      /* > 0, with budget_out and !started: not started because that
                           * many datasets before it ran past their time limit
                           * (runs_how_t timeouts_max) */
    double wall_s;
    char *output;         /* captured stdout+stderr, NUL-terminated, malloc'd */
    size_t output_len;    /* bytes kept */
    size_t output_total;  /* bytes the program wrote */
    int output_truncated; /* output_total > output_len */
    int output_stopped;   /* killed for printing more than stop_after_bytes */
    int sandbox_failed;   /* sandboxed, it ended by itself before its sandbox started
                           * (sandbox.h SANDBOX_STARTED_FD): not the program's doing;
                           * bwrap's reason is the output */
} run_result_t;

/* Runs n programs, at most max_parallel at a time, and waits for all.
 * Results are in the order of specs. Returns 0 (per-run failures are in the
 * results). */
int run_many(const run_spec_t *specs, run_result_t *results, int n, int max_parallel);
int run_one(const run_spec_t *spec, run_result_t *result);

/* A one-line description: "exited with status 3", "killed by signal 11
 * (Segmentation fault)", "timed out after 30 s", "ran past its CPU-time
 * limit of 60 s", "was stopped after printing more than 1048576 bytes". */
void run_describe(const run_result_t *r, const run_spec_t *spec, char *buf, size_t buflen);

void run_result_free(run_result_t *r);

/* How many sandboxed runs of this process ended before their sandbox
 * started (sandbox_failed), and the first one's program and bwrap's reason
 * in why: a grading that had one is not the submission's (grade.c). */
int run_sandbox_failures(char *why, size_t whylen);

/* Kill every child process group still running (for signal handlers). */
void run_kill_all(void);

#endif
