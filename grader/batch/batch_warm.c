/* batch_warm.c - the lab's timing objects compiled into the build cache
 * while a batch starts. On a fresh tree (or after the lab's or the
 * harness's files change) the first children of a GPU batch each needed
 * them before their first dataset: 4.8-5.8 s of timing build apiece, the
 * batch's first result 18-22 s after its start against 7 s with them made
 * (1x H200, bench/batch.sh 300, docs/benchmarks.md). */
#include "batch/batch_warm.h"
#include "build/build.h"
#include "course/lab.h"

#include <stdlib.h>
#include <string.h>

#define WARM_COMPILE_LIMIT_S 180.0

static void *warm(void *arg)
{
    const batch_opts_t *o = arg;
    lab_t *lab = calloc(1, sizeof *lab);
    char err[512];
    if (lab && lab_load(o->root, o->lab, lab, err, sizeof err) == 0 && lab->has_timing &&
        !lab_is_program(lab)) {
        build_ctx_t ctx = {.root = o->root, .backend = BACKEND_NATIVE, .lab = lab,
                           .timeout_s = WARM_COMPILE_LIMIT_S};
        build_timing_caches(&ctx);
    }
    free(lab);
    return NULL;
}

void batch_warm_start(batch_warm_t *w, const batch_opts_t *o, int ngpu)
{
    memset(w, 0, sizeof *w);
    w->o = o;
    if (ngpu > 0 && batch_may_use_gpu(o))
        w->started = pthread_create(&w->thread, NULL, warm, (void *)o) == 0;
}

void batch_warm_join(batch_warm_t *w)
{
    if (w->started)
        pthread_join(w->thread, NULL);
    w->started = 0;
}
