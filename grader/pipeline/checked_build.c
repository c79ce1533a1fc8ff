/* checked_build.c - the checked emulator build of a gpu grading, made in
 * a thread while the GPU dataset runs go on (checked_build.h). */
#include "pipeline/checked_build.h"
#include "util/util.h"

#include <stdio.h>
#include <string.h>

void checked_build_init(checked_build_t *cb, const char *root, const lab_t *lab,
                        const char *grading_scratch, const char *student_file,
                        double timeout_s)
{
    memset(cb, 0, sizeof *cb);
    snprintf(cb->scratch, sizeof cb->scratch, "%.4000s/emu-checks", grading_scratch);
    snprintf(cb->student_file, sizeof cb->student_file, "%s", student_file);
    cb->ctx = (build_ctx_t){.root = root, .backend = BACKEND_EMU, .lab = lab,
                            .scratch = cb->scratch, .timeout_s = timeout_s, .checks = 1};
}

static void build_now(checked_build_t *cb)
{
    double t0 = now_seconds();
    build_submission(&cb->ctx, cb->student_file, &cb->br);
    cb->seconds = now_seconds() - t0;
    cb->built = 1;
}

static void *build_in_thread(void *arg)
{
    build_now(arg);
    return NULL;
}

static int make_scratch(checked_build_t *cb)
{
    if (!cb->made)
        cb->made = mkdir_p(cb->scratch, NULL, 0) == 0;
    return cb->made ? 0 : -1;
}

void checked_build_start(checked_build_t *cb)
{
    if (cb->running || cb->built || make_scratch(cb) != 0)
        return;
    cb->running = pthread_create(&cb->thread, NULL, build_in_thread, cb) == 0;
}

static void join(checked_build_t *cb)
{
    if (cb->running)
        pthread_join(cb->thread, NULL);
    cb->running = 0;
}

int checked_build_take(checked_build_t *cb, build_result_t *br, double *seconds)
{
    join(cb);
    if (!cb->built) {
        if (make_scratch(cb) != 0)
            return -1;
        build_now(cb);
    }
    *br = cb->br;
    *seconds = cb->seconds;
    memset(&cb->br, 0, sizeof cb->br);
    cb->built = 0;
    return 0;
}

void checked_build_end(checked_build_t *cb)
{
    join(cb);
    if (cb->built)
        build_result_free(&cb->br);
    cb->built = 0;
}
