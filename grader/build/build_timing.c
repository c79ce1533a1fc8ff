/* build_timing.c - the GPU timing program of a lab (build.h,
 * build_timing_program): the lab's timing program (labs/kinds/<kind>/perf.cu),
 * its reference kernel and baseline under renamed symbols, each compiled once
 * and cached under build/gpu-<arch>/labs/<lab>/, linked with the student's
 * object and cuBLAS; and the timed driver (build_timed_driver): the same
 * with the lab's driver built for the list mode's timing tail. Every compile
 * gets the lab's harness flags (harness_flags.h), as the driver's does. */
#include "build/build.h"
#include "build/harness_flags.h"
#include "build/tool.h"
#include "util/util.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Whether the cached object obj is newer than everything it is made of. */
static int up_to_date(const build_ctx_t *ctx, const char *cc, const char *src, const char *obj)
{
    double obj_time = build_mtime(obj);
    return obj_time >= build_mtime(src) && obj_time >= build_mtime(cc) &&
           obj_time >= harness_common_mtime(ctx->root) && obj_time >= harness_lab_mtime(ctx->lab);
}

/* The compile itself: written under a private name and renamed. */
static int compile_gpu_object(const build_ctx_t *ctx, const char *cc, const char *src,
                              char *const *flags, int nflags, const char *obj, strbuf_t *log,
                              char *failed, size_t failedlen)
{
    char tmp[PATH_MAX + 32], arch[64], inc[PATH_MAX + 8];
    if (temp_path_for(tmp, sizeof tmp, obj, ".o") != 0) {
        sb_appendf(log, "cugrade: %s: path too long\n", obj);
        return -1;
    }
    snprintf(arch, sizeof arch, "-arch=%s", build_nvcc_arch());
    snprintf(inc, sizeof inc, "-I%s/labs/common", ctx->root);
    char *argv[32] = {(char *)cc, "-c", "-O3", "-lineinfo", arch, inc};
    int n = 6;
    for (int i = 0; i < nflags && n < 26; i++)
        argv[n++] = flags[i];
    argv[n++] = (char *)src;
    argv[n++] = "-o";
    argv[n++] = tmp;
    argv[n] = NULL;
    int rc = tool_run(argv, ctx->timeout_s, &tool_harness_limits, log, failed, failedlen);
    if (rc == 0 && rename(tmp, obj) != 0)
        rc = -1;
    unlink(tmp);
    return rc;
}

int build_gpu_object_cached(const build_ctx_t *ctx, const char *cc, const char *src,
                             char *const *flags, int nflags, const char *obj, strbuf_t *log,
                             char *failed, size_t failedlen)
{
    if (up_to_date(ctx, cc, src, obj))
        return 0;
    int lock = build_cache_lock(obj, "cugrade: ", log);
    if (lock == BUILD_CACHE_NO_DIR)
        return -1;
    int rc = up_to_date(ctx, cc, src, obj)
                 ? 0
                 : compile_gpu_object(ctx, cc, src, flags, nflags, obj, log, failed, failedlen);
    file_unlock(lock);
    return rc;
}

/* -D<sym>=cugrade_<prefix>_<sym> for every symbol the lab names. */
static int rename_flags(const lab_t *lab, const char *prefix, char flags[][192])
{
    for (int i = 0; i < lab->ntiming_symbols; i++)
        snprintf(flags[i], 192, "-D%s=cugrade_%s_%s", lab->timing_symbols[i], prefix,
                 lab->timing_symbols[i]);
    return lab->ntiming_symbols;
}

/* One cached object of a timing build: its source, flags and path. */
typedef struct {
    const char *src;
    char *flags[HARNESS_MAX_FLAGS + 2];
    int nflags;
    char obj[PATH_MAX];
} timing_object_t;

/* What a timing build is made of: the cached objects it needs, in link
 * order after the student's, and the flags they point into. */
typedef struct {
    char ref_flags[4][192], base_flags[4][192], flags[HARNESS_MAX_FLAGS][HARNESS_FLAG_LEN];
    timing_object_t objs[4]; /* timed driver: the driver first; perf.cu; reference; baseline */
    int nobjs;
} timing_plan_t;

static timing_object_t *plan_object(timing_plan_t *p, const char *src, const char *dir,
                                    const char *name)
{
    timing_object_t *o = &p->objs[p->nobjs++];
    o->src = src;
    o->nflags = 0;
    snprintf(o->obj, sizeof o->obj, "%s/%s", dir, name);
    return o;
}

/* The timing program (timed_driver 0: perf.cu's own main) or the timed
 * driver (1: the lab's driver with the list mode's timing tail, perf.cu's
 * entry renamed cugrade_timing_main): the objects either is linked from. */
static void plan_timing(const build_ctx_t *ctx, int timed_driver, timing_plan_t *p)
{
    const lab_t *lab = ctx->lab;
    int has_baseline = lab->timing_baseline[0] != '\0';
    char dir[PATH_MAX - 64], perf_name[64];
    snprintf(dir, sizeof dir, "%s/build/gpu-%s/labs/%s", ctx->root, build_nvcc_arch(), lab->name);
    int nref = rename_flags(lab, "reference", p->ref_flags);
    rename_flags(lab, "baseline", p->base_flags);
    int nharness = harness_flags(lab, p->flags); /* -DCUGRADE_LAUNCH=..., -DCUGRADE_LAUNCH_MNK */
    p->nobjs = 0;
    if (timed_driver) {
        timing_object_t *d = plan_object(p, lab->driver_path, dir, "driver-timed.o");
        for (int i = 0; i < nharness; i++)
            d->flags[d->nflags++] = p->flags[i];
        d->flags[d->nflags++] = "-DCUGRADE_TIMING_TAIL";
    }
    snprintf(perf_name, sizeof perf_name, "timing%s%s.o", timed_driver ? "-entry" : "",
             has_baseline ? "" : "-nobaseline");
    timing_object_t *perf = plan_object(p, lab->timing_program, dir, perf_name);
    for (int i = 0; i < nharness; i++)
        perf->flags[perf->nflags++] = p->flags[i];
    if (has_baseline)
        perf->flags[perf->nflags++] = "-DCUGRADE_HAS_BASELINE";
    if (timed_driver)
        perf->flags[perf->nflags++] = "-DCUGRADE_TIMING_ENTRY=cugrade_timing_main";
    timing_object_t *ref = plan_object(p, lab->timing_reference, dir, "timing-reference.o");
    for (int i = 0; i < nref; i++)
        ref->flags[ref->nflags++] = p->ref_flags[i];
    if (has_baseline) {
        timing_object_t *base = plan_object(p, lab->timing_baseline, dir, "timing-baseline.o");
        for (int i = 0; i < nref; i++)
            base->flags[base->nflags++] = p->base_flags[i];
    }
}

static int plan_compile(const build_ctx_t *ctx, const char *cc, const timing_object_t *o,
                        strbuf_t *log, char *failed, size_t failedlen)
{
    return build_gpu_object_cached(ctx, cc, o->src, (char *const *)o->flags, o->nflags, o->obj, log,
                             failed, failedlen);
}

/* The timing program (<scratch>/timing) or the timed driver
 * (<scratch>/program-timed): its cached objects made if need be, then
 * linked with the student's object and cuBLAS. */
static int link_timing(const build_ctx_t *ctx, int timed_driver, build_result_t *out)
{
    memset(out, 0, sizeof *out);
    double t0 = now_seconds();
    strbuf_t log = {0};
    timing_plan_t *p = calloc(1, sizeof *p);
    char cc[PATH_MAX], student_obj[PATH_MAX + 16], arch[64];
    char *cmd = out->command;
    size_t cmdlen = sizeof out->command;
    int fault = !p;
    if (!fault && build_compiler_path(ctx->root, ctx->backend, cc, sizeof cc) != 0) {
        sb_appendf(&log, "no compiler for the gpu backend (nvcc not found)\n");
        fault = 1;
    }
    if (!fault) {
        plan_timing(ctx, timed_driver, p);
        for (int i = 0; i < p->nobjs && !fault; i++)
            fault = plan_compile(ctx, cc, &p->objs[i], &log, cmd, cmdlen) != 0;
    }
    if (fault) {
        out->internal_error = 1; /* the lab's timing program or kernels: not the student's */
    } else {
        char dir[PATH_MAX];
        build_out_dir(ctx, dir, sizeof dir);
        snprintf(student_obj, sizeof student_obj, "%.4000s/student.o", dir);
        snprintf(out->program, sizeof out->program, "%s/%s", ctx->scratch,
                 timed_driver ? "program-timed" : "timing");
        snprintf(arch, sizeof arch, "-arch=%s", build_nvcc_arch());
        char *link[12] = {cc, arch};
        int nlink = 2;
        for (int i = 0; i < p->nobjs; i++) {
            link[nlink++] = p->objs[i].obj;
            if (i == timed_driver) /* after the driver (if any) and perf.cu: the student's */
                link[nlink++] = student_obj;
        }
        link[nlink++] = "-lcublas";
        link[nlink++] = "-o";
        link[nlink++] = out->program;
        link[nlink] = NULL;
        out->ok = tool_run(link, ctx->timeout_s, &tool_harness_limits, &log, cmd, cmdlen) == 0;
    }
    free(p);
    out->seconds = now_seconds() - t0;
    out->log = sb_detach(&log);
    return out->ok ? 0 : -1;
}

typedef struct {
    const build_ctx_t *ctx;
    const char *cc;
    const timing_object_t *o;
} warm_t;

static void *warm_one(void *arg)
{
    const warm_t *w = arg;
    strbuf_t log = {0};
    char failed[256];
    plan_compile(w->ctx, w->cc, w->o, &log, failed, sizeof failed);
    sb_free(&log);
    return NULL;
}

void build_timing_caches(const build_ctx_t *ctx)
{
    char cc[PATH_MAX];
    timing_plan_t *plans = calloc(2, sizeof *plans);
    if (!plans || build_compiler_path(ctx->root, ctx->backend, cc, sizeof cc) != 0) {
        free(plans);
        return;
    }
    enum { MAXW = 8 };
    pthread_t threads[MAXW];
    warm_t warm[MAXW];
    int nw = 0;
    for (int timed = 0; timed < 2; timed++) {
        plan_timing(ctx, timed, &plans[timed]);
        for (int i = 0; i < plans[timed].nobjs && nw < MAXW; i++) {
            const timing_object_t *o = &plans[timed].objs[i];
            int again = 0; /* the reference and baseline are the same object in both */
            for (int k = 0; k < nw; k++)
                again = again || strcmp(warm[k].o->obj, o->obj) == 0;
            if (again)
                continue;
            warm[nw] = (warm_t){ctx, cc, o};
            if (pthread_create(&threads[nw], NULL, warm_one, &warm[nw]) == 0)
                nw++;
        }
    }
    for (int k = 0; k < nw; k++)
        pthread_join(threads[k], NULL);
    free(plans);
}

int build_timing_program(const build_ctx_t *ctx, build_result_t *out)
{
    return link_timing(ctx, 0, out);
}

int build_timed_driver(const build_ctx_t *ctx, build_result_t *out)
{
    return link_timing(ctx, 1, out);
}
