/* tool.h - how the build runs a compiler (nvcc, emucc, and what they run:
 * cicc, ptxas, g++, cc1plus, as, ld): a child (run/runner.h) with a
 * wall-clock limit, and for each of its processes a memory limit
 * (RLIMIT_DATA), a CPU-time limit and a file-size limit; its messages kept
 * up to a cap, and the compiler stopped once it prints far past it. When
 * a limit stopped it, the log's first line says which, for the student.
 *
 * The limits: 4 GiB of memory (nvcc compiles a lab's kernel in 256 MiB,
 * g++ in 128 MiB; a macro or template that expands without end stops
 * here; runner.h says why not RLIMIT_AS), 60 s of CPU (a lab's file takes
 * under 5 s; a constexpr loop stops here, before the build's wall clock,
 * whatever the load), files of at most 1 GiB (an object, a temporary),
 * 256 KiB of messages kept and the compiler stopped past 1 MiB.
 * $CUGRADE_COMPILE_MEMORY_MB and $CUGRADE_COMPILE_CPU_S change a
 * submission's (tests; a course whose labs need more). */
#ifndef CUGRADE_TOOL_H
#define CUGRADE_TOOL_H

#include <stddef.h>

#include "util/util.h"

#define TOOL_MEMORY_LIMIT ((size_t)4 << 30)
#define TOOL_CPU_LIMIT_S 60.0
#define TOOL_FILE_LIMIT ((size_t)1 << 30)
#define TOOL_OUTPUT_CAP ((size_t)256 << 10)
#define TOOL_OUTPUT_STOP ((size_t)1 << 20)
/* Compilers run at a lower priority: in a batch they yield the CPU to the
 * programs that hold a GPU (a timed run must not wait for a core). */
#define TOOL_NICE 5

typedef struct {
    size_t memory, file; /* bytes */
    double cpu_s;
} tool_limits_t;

/* For the harness's own files (the lab's driver, timing programs, tools). */
extern const tool_limits_t tool_harness_limits;

/* For a submission's: the harness's, or the environment's, with file as
 * the file-size limit. */
tool_limits_t tool_submission_limits(size_t file);

/* Runs a compiler command within lim and timeout_s; appends its output to
 * log (first, when a limit stopped it or it did not exit, a line saying
 * so). Returns 0 if it exited 0; else the command goes into failed (if not
 * NULL). */
int tool_run(char *const *argv, double timeout_s, const tool_limits_t *lim, strbuf_t *log,
             char *failed, size_t failedlen);

/* The compile jail: a compiler that reads a submission runs in the sandbox
 * (run/sandbox.h), starting in cwd, writing only write_dir, reading only
 * the system, the CUDA toolkit, ro_paths (NULL-ended) and copy_from at
 * copy_at's place (NULL: none; readable_copy.h). */
typedef struct {
    const char *cwd, *write_dir;
    const char *const *ro_paths;
    const char *copy_from, *copy_at;
} tool_jail_t;

/* tool_run, in jail (NULL: outside the sandbox, for the harness's files).
 * -2 when the jail's sandbox did not start (bwrap's own "bwrap: ..." as the
 * first thing the run wrote, and its exit status 1): a grader fault, never
 * the submission's compile error. A compiler's first line names a file, so a
 * submission cannot make it begin so. */
int tool_run_in(const tool_jail_t *jail, char *const *argv, double timeout_s,
                const tool_limits_t *lim, strbuf_t *log, char *failed, size_t failedlen);

#endif
