/* checked_build.h - the checked emulator build of a gpu grading (the
 * checks run on it: grade.c), started in a thread beside the GPU dataset
 * runs, which mostly wait for the GPU: the compiler's seconds overlap them
 * instead of adding to the grading's.
 *
 *   checked_build_init(&cb, ...)   where and what to build
 *   checked_build_start(&cb)       build in a thread now (else at the take)
 *   checked_build_take(&cb, &br)   its result, waiting for the thread
 *   checked_build_end(&cb)         joins a thread never taken (always call) */
#ifndef CUGRADE_CHECKED_BUILD_H
#define CUGRADE_CHECKED_BUILD_H

#include <limits.h>
#include <pthread.h>

#include "build/build.h"

typedef struct {
    build_ctx_t ctx;
    char scratch[PATH_MAX];      /* <grading scratch>/emu-checks: the build's and the runs' */
    char student_file[PATH_MAX];
    build_result_t br;
    double seconds;              /* the build's own wall time */
    int made;                    /* the scratch folder exists */
    int running;                 /* a thread builds; joined at the take or the end */
    int built;                   /* br holds a result not yet taken */
    pthread_t thread;
} checked_build_t;

void checked_build_init(checked_build_t *cb, const char *root, const lab_t *lab,
                        const char *grading_scratch, const char *student_file,
                        double timeout_s);
/* Starts the build in a thread; where no thread can be made it is built at
 * the take instead. */
void checked_build_start(checked_build_t *cb);
/* The build's result into *br (the caller frees it) and its seconds; built
 * now if it was not started. -1, with *br untouched, when its scratch folder
 * cannot be made. */
int checked_build_take(checked_build_t *cb, build_result_t *br, double *seconds);
void checked_build_end(checked_build_t *cb);

#endif
