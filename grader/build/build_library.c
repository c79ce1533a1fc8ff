/* build_library.c - an array lab's library timer (build.h,
 * build_library_timer): labs/kinds/array/library_timer.cu linked with the
 * lab's reference and its library baseline (lab.json array.baseline), each
 * launch function renamed and called through the lab's call header
 * (labs/kinds/array/library_call.cu, built once for each), every object
 * cached under build/gpu-<arch>/labs/<lab>/library/ as the timing
 * program's are (build_timing.c). The performance test quotes what the
 * library does on the timing shapes (pipeline/perf_library.c). */
#include "build/build.h"
#include "build/harness_flags.h"
#include "build/tool.h"
#include "util/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define LIBRARY_OBJECTS 5

/* The link, unless exe is newer than every object. */
static int link_timer(const build_ctx_t *ctx, const char *cc, char objs[][PATH_MAX], const char *exe, strbuf_t *log)
{
    double made = build_mtime(exe);
    int stale = made < 0;
    for (int i = 0; i < LIBRARY_OBJECTS; i++)
        stale |= build_mtime(objs[i]) > made;
    if (!stale)
        return 0;
    char tmp[PATH_MAX + 32], arch[64], links[sizeof ctx->lab->array.baseline_link], failed[512];
    if (temp_path_for(tmp, sizeof tmp, exe, "") != 0)
        return sb_appendf(log, "cugrade: %s: path too long\n", exe), -1;
    snprintf(arch, sizeof arch, "-arch=%s", build_nvcc_arch());
    snprintf(links, sizeof links, "%s", ctx->lab->array.baseline_link);
    char *argv[LIBRARY_OBJECTS + 16] = {(char *)cc, arch};
    int n = 2;
    for (int i = 0; i < LIBRARY_OBJECTS; i++)
        argv[n++] = objs[i];
    for (char *save = NULL, *l = strtok_r(links, " ", &save); l && n < LIBRARY_OBJECTS + 12;
         l = strtok_r(NULL, " ", &save))
        argv[n++] = l;
    argv[n++] = "-o", argv[n++] = tmp, argv[n] = NULL;
    int rc = tool_run(argv, ctx->timeout_s, &tool_harness_limits, log, failed, sizeof failed);
    if (rc == 0 && rename(tmp, exe) != 0)
        rc = -1;
    unlink(tmp);
    return rc;
}

int build_library_timer(const build_ctx_t *ctx, char *exe, size_t len, strbuf_t *log)
{
    const lab_t *lab = ctx->lab;
    const array_spec_t *s = &lab->array;
    char cc[PATH_MAX], dir[PATH_MAX - 64], header[PATH_MAX], inc[PATH_MAX + 8], err[256], failed[512];
    char ref_name[160], lib_name[160], src[4][PATH_MAX], objs[LIBRARY_OBJECTS][PATH_MAX];
    if (!s->baseline_source[0])
        return sb_appendf(log, "lab %s declares no library baseline\n", lab->name), -1;
    if (build_compiler_path(ctx->root, BACKEND_NATIVE, cc, sizeof cc) != 0)
        return sb_append(log, "nvcc not found\n"), -1;
    snprintf(dir, sizeof dir, "%s/build/gpu-%s/labs/%s/library", ctx->root, build_nvcc_arch(), lab->name);
    snprintf(header, sizeof header, "%s/call.h", dir);
    snprintf(inc, sizeof inc, "-I%s/labs/kinds/array", ctx->root);
    snprintf(ref_name, sizeof ref_name, "-D%s=bench_ref_%s", s->launch, s->launch);
    snprintf(lib_name, sizeof lib_name, "-D%s=bench_lib_%s", s->launch, s->launch);
    snprintf(src[0], PATH_MAX, "%s/reference/%s/%s", ctx->root, lab->name, lab->student_file);
    snprintf(src[1], PATH_MAX, "%s/labs/%s/%s", ctx->root, lab->name, s->baseline_source);
    snprintf(src[2], PATH_MAX, "%s/labs/kinds/array/library_call.cu", ctx->root);
    snprintf(src[3], PATH_MAX, "%s/labs/kinds/array/library_timer.cu", ctx->root);
    const char *names[] = {"reference.o", "library.o", "call-reference.o", "call-library.o", "timer.o"};
    for (int i = 0; i < LIBRARY_OBJECTS; i++)
        snprintf(objs[i], PATH_MAX, "%s/%s", dir, names[i]);
    char *flags[LIBRARY_OBJECTS][6] = {
        {inc, ref_name},
        {inc, lib_name},
        {inc, "-include", header, ref_name, "-DBENCH_CALL=bench_call_reference"},
        {inc, "-include", header, lib_name, "-DBENCH_CALL=bench_call_library"},
        {inc, "-include", header},
    };
    const int nflags[] = {2, 2, 5, 5, 3};
    const char *srcs[] = {src[0], src[1], src[2], src[2], src[3]};
    if (mkdir_p(dir, err, sizeof err) != 0)
        return sb_appendf(log, "cugrade: %s\n", err), -1;
    if (harness_array_header_write(lab, header, log) != 0)
        return -1;
    for (int i = 0; i < LIBRARY_OBJECTS; i++)
        if (build_gpu_object_cached(ctx, cc, srcs[i], flags[i], nflags[i], objs[i], log, failed, sizeof failed) != 0)
            return sb_appendf(log, "failed: %s\n", failed), -1;
    snprintf(exe, len, "%s/timer", dir);
    return link_timer(ctx, cc, objs, exe, log);
}
