/* canary.c - is it the grader or the student? The toolchain check (a few
 * stat()s) and the canary: the lab's reference solution built like a
 * student's file and run on the grading's smallest dataset, its pass
 * stamped under build/canary/ (see canary.h). Concurrent graders share one
 * stamp: the first builds the canary under an flock, the others wait and
 * read its stamp. */
#include "pipeline/canary.h"
#include "build/build.h"
#include "util/cugrade.h"
#include "report/results.h"
#include "run/runs.h"
#include "util/tmpdir.h"
#include "util/util.h"
#include "compare/verdict.h"

#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#define CANARY_COMPILE_LIMIT_S 180.0
#define LOG_TAIL_LINES 20
#define LOG_TAIL_BYTES 2000

/* ---- the message of a grader fault ---------------------------------------- */

/* The last lines of log, each indented, into sb. */
static void append_log_tail(strbuf_t *sb, const char *log)
{
    size_t len = strlen(log);
    while (len > 0 && (log[len - 1] == '\n' || log[len - 1] == ' '))
        len--;
    size_t start = len, lines = 0;
    while (start > 0 && lines < LOG_TAIL_LINES && len - start < LOG_TAIL_BYTES)
        lines += log[--start] == '\n';
    if (start > 0 && log[start] == '\n')
        start++;
    if (start < len)
        sb_appendf(sb, "  %s:\n", start > 0 ? "end of its log" : "its log");
    for (const char *p = log + start; p < log + len;) {
        const char *nl = memchr(p, '\n', (size_t)(log + len - p));
        size_t n = nl ? (size_t)(nl - p) : (size_t)(log + len - p);
        sb_append(sb, "    ");
        sb_appendn(sb, p, n);
        sb_append(sb, "\n");
        p += n + (nl != NULL);
    }
}

int fault_describe(char *err, size_t errlen, const char *what, const char *command,
                   const char *log, const char *todo)
{
    strbuf_t sb = {0};
    sb_appendf(&sb, "%s\n", what);
    if (command && command[0])
        sb_appendf(&sb, "  command: %s\n", command);
    if (log && log[0])
        append_log_tail(&sb, log);
    sb_appendf(&sb, "  what to do: %s; nothing was recorded for the student, so grade "
                    "again once it is fixed", todo);
    snprintf(err, errlen, "%s", sb_str(&sb));
    sb_free(&sb);
    return -1;
}

int fault_of_build(const build_result_t *br, const char *what, char *err, size_t errlen)
{
    const char *log = br->log ? br->log : "";
    const char *nl = strchr(log, '\n');
    char first[1024];
    if (br->internal_error) { /* build.c's first line says what of the lab's or tools' failed */
        snprintf(first, sizeof first, "%.*s", (int)(nl ? nl - log : (long)strlen(log)), log);
        what = first;
        log = nl ? nl + 1 : "";
    }
    return fault_describe(err, errlen, what, br->command, log,
                          "check the toolchain (`make`, `bin/cugrade info`) and the lab's files");
}

/* ---- the toolchain check ---------------------------------------------------- */

static int emu_toolchain_check(const char *root, char *err, size_t errlen)
{
    char path[PATH_MAX + 64], what[2 * PATH_MAX], cxx[256], found[PATH_MAX];
    snprintf(path, sizeof path, "%s/bin/emucc", root);
    if (access(path, X_OK) != 0) {
        snprintf(what, sizeof what, "the emulator's compiler %s is missing or not executable "
                                    "(not the student's fault)", path);
        return fault_describe(err, errlen, what, NULL, NULL, "run `make` in the cugrade tree");
    }
    snprintf(path, sizeof path, "%s/build/libcugrade_emu.a", root);
    if (access(path, R_OK) != 0) {
        snprintf(what, sizeof what, "the emulator runtime %s is missing (not the student's "
                                    "fault): nothing can be linked for the emu backend", path);
        return fault_describe(err, errlen, what, NULL, NULL,
                     "run `make` in the cugrade tree (bin/ alone is not enough: the runtime "
                     "is build/libcugrade_emu.a)");
    }
    snprintf(path, sizeof path, "%s/emu/include/cuda_runtime.h", root);
    if (access(path, R_OK) != 0) {
        snprintf(what, sizeof what, "the emulator's CUDA headers (%s) are missing (not the "
                                    "student's fault)", path);
        return fault_describe(err, errlen, what, NULL, NULL,
                              "restore emu/include in the cugrade tree");
    }
    build_host_compiler(cxx, sizeof cxx);
    if (find_program(cxx, found, sizeof found) != 0) {
        snprintf(what, sizeof what, "the host C++ compiler '%s' that emucc runs ($CUGRADE_CXX, "
                                    "default g++) is not installed or not on PATH", cxx);
        return fault_describe(err, errlen, what, NULL, NULL,
                              "install g++ (tools/deps.sh) or set CUGRADE_CXX");
    }
    return 0;
}

int canary_student_copy(const char *root)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/" CANARY_STUDENT_COPY, root);
    return is_file(path);
}

static int student_copy(const canary_ctx_t *c) { return canary_student_copy(c->root); }

static int lab_files_check(const canary_ctx_t *c, char *err, size_t errlen)
{
    const lab_t *lab = c->lab;
    char path[PATH_MAX + 256], what[2 * PATH_MAX + 256];
    if (!lab_is_program(lab) && access(lab->driver_path, R_OK) != 0) {
        snprintf(what, sizeof what, "the lab driver %s is missing (not the student's fault)",
                 lab->driver_path);
        return fault_describe(err, errlen, what, NULL, NULL, "restore the lab's folder");
    }
    snprintf(path, sizeof path, "%s/labs/common/%s", c->root,
             lab_is_program(lab) ? "wb.h" : "harness.h");
    if (access(path, R_OK) != 0) {
        snprintf(what, sizeof what, "the lab harness %s is missing (not the student's fault)",
                 path);
        return fault_describe(err, errlen, what, NULL, NULL,
                              "restore labs/common in the cugrade tree");
    }
    snprintf(path, sizeof path, "%s/reference/%s/%s", c->root, lab->name, lab->student_file);
    if (access(path, R_OK) != 0 && !student_copy(c)) {
        snprintf(what, sizeof what, "the lab's reference %s is missing: cugrade needs it to tell "
                                    "a broken toolchain from a student's error", path);
        return fault_describe(err, errlen, what, NULL, NULL,
                              "restore reference/<lab>/ in the cugrade tree");
    }
    return 0;
}

/* The vgpu backend's own parts: the executor and the runtime its programs
 * link (nvcc is checked as the gpu backend's). */
static int vgpu_toolchain_check(const char *root, char *err, size_t errlen)
{
    static const char *const parts[][2] = {
        {"bin/cugrade-vgpu", "the executor"},
        {"build/libcugrade_vcudart.a", "the CUDA runtime a vgpu program links"},
    };
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
        char path[PATH_MAX + 64], what[2 * PATH_MAX];
        snprintf(path, sizeof path, "%s/%s", root, parts[i][0]);
        if (access(path, R_OK) != 0) {
            snprintf(what, sizeof what, "%s %s is missing (not the student's fault)", parts[i][1],
                     path);
            return fault_describe(err, errlen, what, NULL, NULL, "run `make` in the cugrade tree");
        }
    }
    return 0;
}

int toolchain_check(const canary_ctx_t *c, char *err, size_t errlen)
{
    char nvcc[PATH_MAX];
    if (c->backend == BACKEND_EMU) {
        if (emu_toolchain_check(c->root, err, errlen) != 0)
            return -1;
    } else if (c->backend == BACKEND_VGPU && vgpu_toolchain_check(c->root, err, errlen) != 0) {
        return -1;
    } else if (build_compiler_path(c->root, c->backend, nvcc, sizeof nvcc) != 0) {
        return fault_describe(err, errlen,
                              "nvcc, the gpu backend's compiler, was not found ($CUGRADE_NVCC, "
                              "PATH, /usr/local/cuda/bin; not the student's fault)",
                              NULL, NULL, "install the CUDA toolkit or set CUGRADE_NVCC");
    }
    return lab_files_check(c, err, errlen);
}

/* ---- the canary's key and stamp ------------------------------------------- */

/* The one whose inputs are smallest on disk among n datasets (the first of equals). */
static const dataset_ref_t *smallest_of(const dataset_ref_t *refs, int n, int ninputs)
{
    int best = 0;
    long long best_size = -1;
    for (int i = 0; i < n; i++) {
        long long size = 0;
        for (int k = 0; k < ninputs; k++) {
            char path[PATH_MAX + 32];
            struct stat st;
            snprintf(path, sizeof path, "%s/input%d.raw", refs[i].dir, k);
            size += stat(path, &st) == 0 ? (long long)st.st_size : 0;
        }
        if (best_size < 0 || size < best_size)
            best = i, best_size = size;
    }
    return &refs[best];
}

/* The canary's dataset: the smallest the lab ships (datasets/<lab>), the
 * same whatever --datasets a grading uses, so they share one stamp; the
 * grading's own smallest if the lab ships none. 0, or -1 if there is none. */
static int pick_dataset(const canary_ctx_t *c, dataset_ref_t *out)
{
    char dir[PATH_MAX];
    dataset_ref_t *own = NULL;
    int n = 0;
    snprintf(dir, sizeof dir, "%s/datasets/%s", c->root, c->lab->datasets);
    if (dataset_list(dir, &own, &n, NULL, 0) == 0 && n > 0)
        *out = *smallest_of(own, n, c->lab->inputs);
    else if (c->nds > 0)
        *out = *smallest_of(c->refs, c->nds, c->lab->inputs);
    free(own);
    return n > 0 || c->nds > 0 ? 0 : -1;
}

static void hash_compilers(sha256_t *s, const canary_ctx_t *c)
{
    char path[PATH_MAX + 64], cxx[256];
    if (c->backend == BACKEND_NATIVE || c->backend == BACKEND_VGPU) {
        const char *arch = getenv("CUGRADE_NVCC_ARCH");
        hash_str(s, arch ? arch : "");
        if (build_compiler_path(c->root, c->backend, path, sizeof path) == 0)
            hash_file_stat(s, path);
        static const char *const vgpu_parts[] = {"bin/cugrade-vgpu", "build/libcugrade_vcudart.a"};
        for (int i = 0; c->backend == BACKEND_VGPU && i < 2; i++) {
            snprintf(path, sizeof path, "%s/%s", c->root, vgpu_parts[i]);
            hash_file_stat(s, path);
        }
        return;
    }
    const char *env_cxx = getenv("CUGRADE_CXX");
    hash_str(s, env_cxx ? env_cxx : "");
    build_host_compiler(cxx, sizeof cxx);
    if (find_program(cxx, path, sizeof path) == 0)
        hash_file_stat(s, path);
    snprintf(path, sizeof path, "%s/bin/emucc", c->root);
    hash_file_stat(s, path);
    snprintf(path, sizeof path, "%s/build/libcugrade_emu.a", c->root);
    hash_file_stat(s, path);
    snprintf(path, sizeof path, "%s/emu/include", c->root);
    hash_tree(s, path, "", 0);
}

static void canary_key(const canary_ctx_t *c, const dataset_ref_t *ds, char hex[65])
{
    sha256_t s;
    char path[PATH_MAX + 256];
    sha256_init(&s);
    hash_str(&s, "cugrade canary 1 " CUGRADE_VERSION);
    hash_str(&s, backend_name(c->backend));
    hash_str(&s, c->checks ? "checks" : "no checks");
    hash_file_stat(&s, "/proc/self/exe"); /* cugrade itself: how it builds and runs */
    hash_compilers(&s, c);
    hash_tree(&s, c->lab->dir, "", 1);
    snprintf(path, sizeof path, "%s/labs/common", c->root);
    hash_tree(&s, path, "", 1);
    hash_file_contents(&s, c->lab->driver_path);
    if (c->lab->driver_path[0]) { /* what the driver includes beside it (launch.h) */
        path_dir(c->lab->driver_path, path, sizeof path);
        hash_tree(&s, path, "", 1);
    }
    snprintf(path, sizeof path, "%s/reference/%s/%s", c->root, c->lab->name, c->lab->student_file);
    hash_file_contents(&s, path);
    hash_str(&s, realpath(ds->dir, path) ? path : ds->dir);
    hash_tree(&s, ds->dir, "", 0);
    sha256_final_hex(&s, hex);
}

/* <root>/build/canary/<lab>-<backend>[-checks].ok; -1 if build/canary cannot be made. */
static int stamp_path(const canary_ctx_t *c, char *out, size_t outlen)
{
    char dir[PATH_MAX - 128];
    snprintf(dir, sizeof dir, "%s/build/canary", c->root);
    if (mkdir_p(dir, NULL, 0) != 0 || access(dir, W_OK) != 0)
        return -1;
    snprintf(out, outlen, "%s/%s-%s%s.ok", dir, c->lab->name, backend_name(c->backend),
             c->checks ? "-checks" : "");
    return 0;
}

/* The stamp: the key, the dataset's test name, and a line for people. */
static void write_stamp(const char *stamp, const char *key, const canary_result_t *res)
{
    char text[512];
    int n = snprintf(text, sizeof text, "%s\n%s\nthe lab's reference passed it in %.1f s\n", key,
                     res->dataset, res->seconds);
    write_file_atomic(stamp, text, (size_t)n, NULL, 0); /* no stamp: the next one runs again */
}

/* A current stamp vouches for the canary: 1 (res filled from it) or 0. */
static int from_stamp(const char *key, canary_result_t *res)
{
    char *text = res->stamp[0] ? read_file(res->stamp, NULL, NULL, 0) : NULL;
    int current = text && strncmp(text, key, 64) == 0 && text[64] == '\n';
    if (current) {
        res->cached = 1;
        snprintf(res->dataset, sizeof res->dataset, "%.*s", (int)strcspn(text + 65, "\n"),
                 text + 65);
    }
    free(text);
    return current;
}

/* ---- building and running the reference ------------------------------------- */

static int run_reference(const canary_ctx_t *c, const ds_job_t *job, const build_result_t *br,
                         const char *scratch, const char *ref, char *err, size_t errlen)
{
    runs_how_t how = {.lab = c->lab, .program = br->program, .scratch = scratch, .prefix = "canary",
                      .max_parallel = 1, .gpu_queue = c->gpu_queue, .gpu_index = c->gpu_index,
                      .ptx = br->ptx[0] ? br->ptx : NULL, .checks = c->checks};
    if (c->backend == BACKEND_NATIVE)
        how.limit_cap = c->rub->gpu_time_limit_s;
    ds_run_t *runs = runs_execute(job, 1, &how);
    strbuf_t msg = {0};
    char failure[128];
    int ok = runs[0].started &&
             verdict_dataset(&runs[0], c->lab, c->backend, &msg, failure, sizeof failure);
    grade_attach_error_map(NULL); /* no test follows: drop the map of a failed comparison */
    if (!ok) {
        char what[PATH_MAX + 768], label[160];
        job_test_name(job, label, sizeof label);
        snprintf(what, sizeof what, "the lab's reference %s fails %s on the %s backend, so the "
                                    "toolchain, the runtime or the lab is broken (not the "
                                    "student's fault)", ref, label, backend_name(c->backend));
        fault_describe(err, errlen, what, NULL, runs[0].started ? sb_str(&msg) : runs[0].error,
              "check the toolchain (`make`, `bin/cugrade info`) and the lab's datasets and "
              "reference");
    }
    sb_free(&msg);
    runs_free(runs, 1);
    return ok ? 0 : -1;
}

/* Builds the reference in scratch and runs it on the job's dataset. */
static int canary_in(const canary_ctx_t *c, const ds_job_t *job, const char *scratch, char *err,
                     size_t errlen)
{
    char ref[PATH_MAX + 256], what[PATH_MAX + 512];
    snprintf(ref, sizeof ref, "%s/reference/%s/%s", c->root, c->lab->name, c->lab->student_file);
    if (job->load_failed) {
        snprintf(what, sizeof what, "the dataset %s cannot be read (not the student's fault)",
                 job->ref.dir);
        return fault_describe(err, errlen, what, NULL, job->load_error,
                              "fix or regenerate the dataset");
    }
    build_ctx_t bctx = {.root = c->root, .backend = c->backend, .lab = c->lab, .scratch = scratch,
                        .timeout_s = CANARY_COMPILE_LIMIT_S, .checks = c->checks};
    build_result_t br;
    build_submission(&bctx, ref, &br);
    int rc = 0;
    if (!br.ok) {
        snprintf(what, sizeof what, "the lab's reference %s does not build on the %s backend, so "
                                    "the toolchain or the lab is broken (not the student's fault)",
                 ref, backend_name(c->backend));
        rc = fault_of_build(&br, what, err, errlen);
    } else {
        rc = run_reference(c, job, &br, scratch, ref, err, errlen);
    }
    build_result_free(&br);
    return rc;
}

/* The canary itself, in a fresh scratch folder. */
static int canary_build_and_run(const canary_ctx_t *c, const dataset_ref_t *ds,
                                canary_result_t *res, char *err, size_t errlen)
{
    char scratch[PATH_MAX];
    if (tmp_dir_make("canary-", scratch, sizeof scratch, NULL, 0) != 0)
        return fault_describe(err, errlen, "cannot create a scratch folder for the canary", NULL,
                              NULL, "check TMPDIR and free space");
    ds_job_t *job = jobs_load(ds, 1, c->lab, c->rub);
    job_test_name(job, res->dataset, sizeof res->dataset);
    int rc = canary_in(c, job, scratch, err, errlen);
    jobs_free(job, 1);
    rm_rf(scratch);
    return rc;
}

int canary_vouch(const canary_ctx_t *c, canary_result_t *res, char *err, size_t errlen)
{
    memset(res, 0, sizeof *res);
    double t0 = now_seconds();
    if (toolchain_check(c, err, errlen) != 0)
        return -1;
    dataset_ref_t ds;
    if (pick_dataset(c, &ds) != 0)
        return fault_describe(err, errlen, "the lab has no dataset to run its reference on", NULL,
                              NULL, "add datasets (make datasets)");
    if (student_copy(c)) { /* no reference to run: said in the report */
        snprintf(res->dataset, sizeof res->dataset,
                 "nothing (a student's copy of the lab has no reference: " CANARY_STUDENT_COPY ")");
        return 0;
    }
    const char *skip = getenv("CUGRADE_CANARY");
    if (skip && strcmp(skip, "skip") == 0) { /* tests with pretended GPUs; never for grading */
        snprintf(res->dataset, sizeof res->dataset, "nothing (CUGRADE_CANARY=skip)");
        return 0;
    }
    char key[65];
    canary_key(c, &ds, key);
    if (stamp_path(c, res->stamp, sizeof res->stamp) != 0)
        res->stamp[0] = '\0'; /* a read-only tree: the canary runs every time it is asked */
    if (from_stamp(key, res)) {
        res->seconds = now_seconds() - t0;
        return 0;
    }
    int lock = -1;
    if (res->stamp[0]) { /* another grader may be running this very canary: wait for it */
        char lock_path[sizeof res->stamp + 8];
        snprintf(lock_path, sizeof lock_path, "%s.lock", res->stamp);
        if ((lock = open(lock_path, O_RDWR | O_CREAT | O_CLOEXEC, 0644)) >= 0)
            flock(lock, LOCK_EX);
    }
    int rc = 0;
    if (!from_stamp(key, res) &&
        (rc = canary_build_and_run(c, &ds, res, err, errlen)) == 0 && res->stamp[0]) {
        res->seconds = now_seconds() - t0;
        write_stamp(res->stamp, key, res);
    }
    if (lock >= 0)
        close(lock); /* releases the flock */
    res->seconds = now_seconds() - t0;
    return rc;
}
