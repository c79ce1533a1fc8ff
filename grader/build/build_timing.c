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

/* Compiles src into the cached object obj (unless up to date) with the given
 * extra flags, one grader at a time: the others wait and find it made. */
static int cached_gpu_object(const build_ctx_t *ctx, const char *cc, const char *src,
                             char *const *flags, int nflags, const char *obj, strbuf_t *log,
                             char *failed, size_t failedlen)
{
    if (up_to_date(ctx, cc, src, obj))
        return 0;
    char dir[PATH_MAX], err[512];
    snprintf(dir, sizeof dir, "%s", obj);
    *strrchr(dir, '/') = '\0';
    if (mkdir_p(dir, err, sizeof err) != 0) {
        sb_appendf(log, "cugrade: %s\n", err);
        return -1;
    }
    int lock = file_lock(obj);
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

/* The timing program (timed_driver 0: perf.cu's own main, <scratch>/timing)
 * or the timed driver (1: the lab's driver with the list mode's timing tail,
 * perf.cu's entry renamed cugrade_timing_main, <scratch>/program-timed). */
static int link_timing(const build_ctx_t *ctx, int timed_driver, build_result_t *out)
{
    memset(out, 0, sizeof *out);
    double t0 = now_seconds();
    strbuf_t log = {0};
    const lab_t *lab = ctx->lab;
    int has_baseline = lab->timing_baseline[0] != '\0';
    char cc[PATH_MAX], dir[PATH_MAX - 64], perf_obj[PATH_MAX], ref_obj[PATH_MAX];
    char base_obj[PATH_MAX], driver_obj[PATH_MAX], student_obj[PATH_MAX + 16], arch[64];
    char ref_flags[4][192], base_flags[4][192], flags[HARNESS_MAX_FLAGS][HARNESS_FLAG_LEN];
    char *ref_ptrs[4], *base_ptrs[4], *perf_flags[HARNESS_MAX_FLAGS + 2];
    char *driver_flags[HARNESS_MAX_FLAGS + 1];
    int nref = rename_flags(lab, "reference", ref_flags);
    rename_flags(lab, "baseline", base_flags);
    for (int i = 0; i < nref; i++) {
        ref_ptrs[i] = ref_flags[i];
        base_ptrs[i] = base_flags[i];
    }
    int nperf = harness_flags(lab, flags); /* -DCUGRADE_LAUNCH=..., -DCUGRADE_LAUNCH_MNK */
    for (int i = 0; i < nperf; i++)
        perf_flags[i] = driver_flags[i] = flags[i];
    int ndriver = nperf;
    driver_flags[ndriver++] = "-DCUGRADE_TIMING_TAIL";
    if (has_baseline)
        perf_flags[nperf++] = "-DCUGRADE_HAS_BASELINE";
    if (timed_driver)
        perf_flags[nperf++] = "-DCUGRADE_TIMING_ENTRY=cugrade_timing_main";
    snprintf(dir, sizeof dir, "%s/build/gpu-%s/labs/%s", ctx->root, build_nvcc_arch(), lab->name);
    snprintf(perf_obj, sizeof perf_obj, "%s/timing%s%s.o", dir, timed_driver ? "-entry" : "",
             has_baseline ? "" : "-nobaseline");
    snprintf(ref_obj, sizeof ref_obj, "%s/timing-reference.o", dir);
    snprintf(base_obj, sizeof base_obj, "%s/timing-baseline.o", dir);
    snprintf(driver_obj, sizeof driver_obj, "%s/driver-timed.o", dir);
    snprintf(student_obj, sizeof student_obj, "%s/student.o", ctx->scratch);
    snprintf(out->program, sizeof out->program, "%s/%s", ctx->scratch,
             timed_driver ? "program-timed" : "timing");
    snprintf(arch, sizeof arch, "-arch=%s", build_nvcc_arch());
    char *link[12] = {cc, arch};
    int nlink = 2;
    if (timed_driver)
        link[nlink++] = driver_obj;
    link[nlink++] = perf_obj;
    link[nlink++] = student_obj;
    link[nlink++] = ref_obj;
    if (has_baseline)
        link[nlink++] = base_obj;
    link[nlink++] = "-lcublas";
    link[nlink++] = "-o";
    link[nlink++] = out->program;
    link[nlink] = NULL;
    char *cmd = out->command;
    size_t cmdlen = sizeof out->command;
    if (build_compiler_path(ctx->root, ctx->backend, cc, sizeof cc) != 0) {
        sb_appendf(&log, "no compiler for the gpu backend (nvcc not found)\n");
        out->internal_error = 1;
    } else if (cached_gpu_object(ctx, cc, lab->timing_program, perf_flags, nperf,
                                 perf_obj, &log, cmd, cmdlen) != 0 ||
               cached_gpu_object(ctx, cc, lab->timing_reference, ref_ptrs, nref, ref_obj, &log, cmd,
                                 cmdlen) != 0 ||
               (has_baseline && cached_gpu_object(ctx, cc, lab->timing_baseline, base_ptrs, nref,
                                                  base_obj, &log, cmd, cmdlen) != 0) ||
               (timed_driver && cached_gpu_object(ctx, cc, lab->driver_path, driver_flags,
                                                  ndriver, driver_obj, &log, cmd, cmdlen) != 0)) {
        out->internal_error = 1; /* the lab's timing program or kernels: not the student's */
    } else {
        out->ok = tool_run(link, ctx->timeout_s, &tool_harness_limits, &log, cmd, cmdlen) == 0;
    }
    out->seconds = now_seconds() - t0;
    out->log = sb_detach(&log);
    return out->ok ? 0 : -1;
}

int build_timing_program(const build_ctx_t *ctx, build_result_t *out)
{
    return link_timing(ctx, 0, out);
}

int build_timed_driver(const build_ctx_t *ctx, build_result_t *out)
{
    return link_timing(ctx, 1, out);
}
