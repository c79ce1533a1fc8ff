/* vgpu_budget.c - the instruction budgets of the vgpu backend from the
 * reference's counts (vgpu_budget.h): the reference built once for the
 * executor, run on the datasets whose count is not cached, each count kept. */
#include "pipeline/vgpu_budget.h"
#include "build/build.h"
#include "build/harness_flags.h"
#include "kinds/kind.h"
#include "run/emureport.h"
#include "run/runs.h"
#include "util/sha256.h"
#include "util/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

unsigned long long vgpu_budget_of(unsigned long long reference_count, int factor)
{
    unsigned long long b = reference_count * (unsigned long long)(factor > 0 ? factor : LAB_BUDGET_FACTOR_DEFAULT);
    return b > VGPU_BUDGET_FLOOR ? b : VGPU_BUDGET_FLOOR;
}

/* <root>/build/vgpu-<arch>/labs/<lab>/<what> */
static void cache_path(const char *root, const lab_t *lab, const char *what, char *out, size_t len)
{
    snprintf(out, len, "%.3000s/build/vgpu-%s/labs/%.100s/%s", root, build_vgpu_arch(), lab->name, what);
}

/* src copied to dst (mode 0755 for a program, else 0644): 0, or -1. */
static int copy_out(const char *src, const char *dst, int program)
{
    size_t len = 0;
    char *data = read_file(src, &len, NULL, 0);
    int rc = data && write_file_atomic(dst, data, len, NULL, 0) == 0 &&
                     chmod(dst, program ? 0755 : 0644) == 0 ? 0 : -1;
    free(data);
    return rc;
}

int vgpu_reference_build(const grade_opts_t *o, const lab_t *lab, const char *scratch, build_result_t *br,
                         char *err, size_t errlen)
{
    char dir[PATH_MAX], src[PATH_MAX], main_src[PATH_MAX], vcudart[PATH_MAX], nvcc[PATH_MAX];
    char stamp[PATH_MAX + 16], program[PATH_MAX + 16], ptx[PATH_MAX + 16], tmp[PATH_MAX + 32];
    char cubin[PATH_MAX + 48];
    cache_path(o->root, lab, "reference", dir, sizeof dir);
    snprintf(stamp, sizeof stamp, "%s/built", dir);
    snprintf(program, sizeof program, "%s/program", dir);
    snprintf(ptx, sizeof ptx, "%s/reference.ptx", dir);
    snprintf(cubin, sizeof cubin, "%s/reference.%s.cubin", dir, build_vgpu_arch()); /* as nvcc --keep names it */
    snprintf(src, sizeof src, "%s/reference/%s/%s", o->root, lab->name, lab->student_file);
    snprintf(main_src, sizeof main_src, "%s/%s", o->root,
             lab_is_program(lab) ? "labs/common/wb_io.cu" : lab->kind->vgpu_main);
    snprintf(vcudart, sizeof vcudart, "%s/build/libcugrade_vcudart.a", o->root);
    double newest = build_mtime(src);
    const char *inputs[] = {main_src, vcudart,
                            build_compiler_path(o->root, BACKEND_VGPU, nvcc, sizeof nvcc) == 0 ? nvcc : NULL};
    for (int i = 0; i < 3; i++)
        if (inputs[i] && build_mtime(inputs[i]) > newest)
            newest = build_mtime(inputs[i]);
    memset(br, 0, sizeof *br);
    snprintf(br->program, sizeof br->program, "%.4000s", program);
    snprintf(br->ptx, sizeof br->ptx, "%.4000s", ptx);
    snprintf(br->cubin, sizeof br->cubin, "%.4000s", cubin);
    strbuf_t log = {0};
    int lock = build_cache_lock(stamp, "cannot cache the reference's vgpu build: ", &log);
    int rc = 0;
    if (build_mtime(stamp) >= newest && is_file(program) && is_file(ptx) && is_file(cubin)) {
        br->ok = 1;
    } else if (lock == BUILD_CACHE_NO_DIR) {
        snprintf(err, errlen, "%s", sb_str(&log));
        rc = -1;
    } else {
        snprintf(tmp, sizeof tmp, "%s/vgpu-reference", scratch);
        build_ctx_t ctx = {.root = o->root, .backend = BACKEND_VGPU, .lab = lab, .scratch = tmp,
                           .timeout_s = 180};
        build_result_t made;
        if (mkdir_p(tmp, NULL, 0) != 0)
            memset(&made, 0, sizeof made);
        else
            build_submission(&ctx, src, &made);
        if (!made.ok || copy_out(made.program, program, 1) != 0 || copy_out(made.ptx, ptx, 0) != 0 ||
            !made.cubin[0] || copy_out(made.cubin, cubin, 0) != 0 ||
            write_file_atomic(stamp, "built\n", 6, NULL, 0) != 0) {
            snprintf(err, errlen, "the lab's reference %s does not build for the executor (not the "
                     "student's fault):\n%.1500s", src, made.log ? made.log : "");
            rc = -1;
        } else {
            br->ok = 1;
        }
        build_result_free(&made);
    }
    if (lock >= 0)
        file_unlock(lock);
    sb_free(&log);
    return rc;
}

/* The PTX's bytes for a count's key, its .file lines left out (they name
 * the folder it was compiled in). */
static void hash_ptx(sha256_t *s, const char *text, size_t len)
{
    for (const char *p = text, *end = text + len; p < end;) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t n = nl ? (size_t)(nl - p) + 1 : (size_t)(end - p);
        const char *q = p;
        while (q < p + n && (*q == ' ' || *q == '\t'))
            q++;
        if (!(p + n - q >= 5 && strncmp(q, ".file", 5) == 0))
            sha256_update(s, p, n);
        p += n;
    }
}

/* The cached count's file of a dataset: keyed by the PTX's bytes and the
 * dataset's inputs. */
static void count_path(const char *root, const lab_t *lab, const char *ptx_text, size_t ptx_len,
                       const ds_job_t *j, char *out, size_t len)
{
    sha256_t s;
    sha256_init(&s);
    hash_ptx(&s, ptx_text, ptx_len);
    for (int i = 0; i < j->data.ninputs; i++) {
        const matrix_t *m = &j->data.inputs[i];
        int shape[2] = {m->rows, m->cols};
        sha256_update(&s, shape, sizeof shape);
        sha256_update(&s, m->data, (size_t)m->rows * (size_t)m->cols * sizeof(float));
    }
    char hex[65], name[96];
    sha256_final_hex(&s, hex);
    snprintf(name, sizeof name, "counts/%.32s", hex);
    cache_path(root, lab, name, out, len);
}

/* Runs the reference on todo[0..n) (copies of the jobs, no budget) and
 * writes each count to paths[i] ("INSTRUCTIONS GLOBAL_BYTES SHARED_LOAD_BYTES
 * FLOPS": what its kernels moved and the FLOP they did), what it moved to
 * traffic[i]. 0, or -1 with err. */
static int count_on_executor(const grade_opts_t *o, const lab_t *lab, const build_result_t *br,
                             ds_job_t *todo, char (*paths)[PATH_MAX], roofline_traffic_t *traffic, int n,
                             const char *scratch, char *err, size_t errlen)
{
    runs_how_t how = {.lab = lab, .program = br->program, .scratch = scratch, .prefix = "count",
                      .max_parallel = o->jobs > 0 ? o->jobs : cpu_count(), .ptx = br->ptx,
                      .traffic = 1};
    ds_run_t *runs = runs_execute(todo, n, &how);
    int rc = 0;
    for (int i = 0; i < n && rc == 0; i++) {
        emu_report_t rep;
        emu_report_read(runs[i].diag_path, &rep);
        double count = emu_report_stat(&rep, "instructions");
        double global = emu_report_stat(&rep, "global_load_bytes") + emu_report_stat(&rep, "global_store_bytes");
        double shared = emu_report_stat(&rep, "shared_load_bytes"), flops = emu_report_stat(&rep, "flops");
        emu_report_free(&rep);
        char label[160], text[96];
        job_test_name(&todo[i], label, sizeof label);
        if (!runs[i].started || !runs[i].result.exited || runs[i].result.exit_code != 0 || !(count > 0)) {
            snprintf(err, errlen, "the lab's reference does not run on %s on the executor (not the "
                     "student's fault): %.200s%.600s", label, runs[i].started ? "" : runs[i].error,
                     runs[i].result.output ? runs[i].result.output : "");
            rc = -1;
        } else {
            snprintf(text, sizeof text, "%.0f %.0f %.0f %.0f\n", count, global, shared, flops);
            write_file_atomic(paths[i], text, strlen(text), NULL, 0); /* a cache: a miss costs time */
            todo[i].instruction_budget = (unsigned long long)count; /* the count, for the caller */
            traffic[i] = (roofline_traffic_t){global, shared, flops};
        }
    }
    runs_free(runs, n);
    return rc;
}

/* A cached count: "INSTRUCTIONS GLOBAL_BYTES SHARED_LOAD_BYTES FLOPS" (a
 * file of the count alone, from before the roofline, or without traffic,
 * which every reference has, is a miss). 0: none. */
static unsigned long long cached_count(const char *path, roofline_traffic_t *t)
{
    char *text = read_file(path, NULL, NULL, 0);
    unsigned long long count = 0;
    double global = 0, shared = 0, flops = 0;
    if (text && (sscanf(text, "%llu %lf %lf %lf", &count, &global, &shared, &flops) != 4 || !(global > 0)))
        count = 0;
    free(text);
    *t = (roofline_traffic_t){global, shared, flops};
    return count;
}

int vgpu_budgets(const grade_opts_t *o, const lab_t *lab, ds_job_t *jobs, int n,
                 const char *scratch, roofline_traffic_t *traffic, char *err, size_t errlen)
{
    build_result_t br;
    if (vgpu_reference_build(o, lab, scratch, &br, err, errlen) != 0) {
        build_result_free(&br);
        return -1;
    }
    size_t ptx_len = 0;
    char *ptx = read_file(br.ptx, &ptx_len, err, errlen), dir[PATH_MAX];
    cache_path(o->root, lab, "counts", dir, sizeof dir);
    if (!ptx || mkdir_p(dir, err, errlen) != 0) {
        free(ptx);
        build_result_free(&br);
        return -1;
    }
    ds_job_t *todo = calloc((size_t)n + 1, sizeof *todo);
    char(*paths)[PATH_MAX] = calloc((size_t)n + 1, sizeof *paths);
    roofline_traffic_t *moved = calloc((size_t)n + 1, sizeof *moved), sum = {0};
    int *which = calloc((size_t)n + 1, sizeof *which), ntodo = 0;
    for (int i = 0; i < n; i++) {
        if (jobs[i].load_failed)
            continue;
        char path[PATH_MAX];
        count_path(o->root, lab, ptx, ptx_len, &jobs[i], path, sizeof path);
        roofline_traffic_t t;
        unsigned long long count = cached_count(path, &t);
        if (count > 0) {
            jobs[i].instruction_budget = vgpu_budget_of(count, lab->budget_factor);
            sum.global_bytes += t.global_bytes, sum.shared_load_bytes += t.shared_load_bytes;
            sum.flop += t.flop;
            continue;
        }
        todo[ntodo] = jobs[i]; /* a shallow copy: the data stay the job's */
        todo[ntodo].instruction_budget = 0;
        snprintf(paths[ntodo], PATH_MAX, "%s", path);
        which[ntodo++] = i;
    }
    int rc = ntodo ? count_on_executor(o, lab, &br, todo, paths, moved, ntodo, scratch, err, errlen) : 0;
    for (int k = 0; rc == 0 && k < ntodo; k++) {
        jobs[which[k]].instruction_budget = vgpu_budget_of(todo[k].instruction_budget, lab->budget_factor);
        sum.global_bytes += moved[k].global_bytes, sum.shared_load_bytes += moved[k].shared_load_bytes;
        sum.flop += moved[k].flop;
    }
    if (rc == 0 && traffic)
        *traffic = sum;
    free(moved);
    free(todo);
    free(paths);
    free(which);
    free(ptx);
    build_result_free(&br);
    return rc;
}
