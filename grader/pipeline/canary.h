/* canary.h - tells a grader fault from a student's error. A failure is the
 * student's only once cugrade has shown it could grade at all:
 *   toolchain_check: the files every grading needs are there (the compiler,
 *     the emulator runtime and headers, the lab driver, the reference);
 *     a few stat()s, run before every grading;
 *   the canary: the lab's reference solution builds with the same backend,
 *     flags and driver as a student's file and passes the lab's smallest
 *     dataset. A pass is stamped in <root>/build/canary/, keyed by a hash of
 *     what it depends on, so it is paid once per toolchain and lab.
 * A failure of either is a grader fault: err says what failed (the command
 * and the end of its log where there is one) and what to do.
 * CUGRADE_CANARY=skip skips the canary (not the toolchain check): for tests
 * that pretend to have GPUs (CUGRADE_GPU_COUNT), where no reference can run. */
#ifndef CUGRADE_CANARY_H
#define CUGRADE_CANARY_H

#include <stddef.h>

#include "build/backend.h"
#include "build/build.h"
#include "dataset/dataset.h"
#include "course/lab.h"
#include "course/rubric.h"

typedef struct {
    const char *root;          /* the cugrade tree */
    const lab_t *lab;
    const lab_rubric_t *rub;   /* the dataset's time limit */
    const dataset_ref_t *refs; /* this grading's datasets: the canary runs the smallest of
                                * the lab's own (datasets/<lab>), else of these */
    int nds;
    backend_t backend;         /* resolved: EMU or GPU */
    int checks;                /* emu: build like `emucc --checks` (as the student's file is) */
    const char *gpu_queue;     /* on a GPU, the run takes its turn in this queue (gpuqueue.h) */
    int gpu_index;             /* of GPU gpu_index; NULL: none */
} canary_ctx_t;

typedef struct {
    int cached;                /* a stamp vouched for it: nothing was built or run */
    double seconds;            /* what this call cost */
    char dataset[160];         /* "dataset 17 (1x1x1)" */
    char stamp[4096];          /* the stamp file ("" if build/ is not writable) */
} canary_result_t;

/* 0 if the backend's toolchain and the lab's files are there; else -1 and
 * err names the missing piece and what to do. */
int toolchain_check(const canary_ctx_t *c, char *err, size_t errlen);

/* toolchain_check, then the canary (from its stamp when that is current).
 * 0: it passed; -1: a grader fault, described in err. */
int canary_vouch(const canary_ctx_t *c, canary_result_t *res, char *err, size_t errlen);

/* Writes a grader fault into err: "WHAT\n  command: COMMAND\n  end of its
 * log:\n    LOG...\n  what to do: TODO; nothing was recorded for the
 * student ..." (command and log may be NULL or ""). Returns -1. */
int fault_describe(char *err, size_t errlen, const char *what, const char *command,
                   const char *log, const char *todo);

/* A failed build as a grader fault: its internal error (what of the lab's
 * or the tools' failed: build.c's first log line), else WHAT; with the
 * failed command and the end of the log. Returns -1. */
int fault_of_build(const build_result_t *br, const char *what, char *err, size_t errlen);

/* A tree with this file at its root is a student's copy of a lab (cugrade
 * export classroom): it has no reference, so the canary cannot run; a
 * grading there says so instead of failing as a grader fault. */
#define CANARY_STUDENT_COPY ".cugrade-student-copy"
int canary_student_copy(const char *root);

#endif
