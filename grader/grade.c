/* grade.c - grade one submission: build it once, run the lab program on
 * every dataset in isolated children, compare, and score from the rubric.
 * Student code never runs in this process, and never sees expected outputs:
 * each child gets only its inputs (as matbin files in a scratch folder). */
#include "grade.h"
#include "build.h"
#include "commands.h"
#include "compare.h"
#include "dataset.h"
#include "lab.h"
#include "matbin.h"
#include "rubric.h"
#include "runner.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define COMPILE_TIMEOUT_S 180.0
#define NOT_COMPILED_MSG "not run: does not compile"

/* Everything known about one dataset's run. */
typedef struct {
    dataset_ref_t ref;
    dataset_t data;
    int load_failed;
    char load_error[2048];
    char shape[64];
    char dir[PATH_MAX - 64];   /* scratch folder of this run (room left for file names) */
    char out_path[PATH_MAX];
    char diag_path[PATH_MAX];
    char *argv[DATASET_MAX_INPUTS + 3];
    char *env[2];
    char env_diag[PATH_MAX + 32];
    dataset_rule_t rule;
} ds_job_t;

int find_student_file(const char *submission, const char *lab, const char *file, char *out,
                      size_t outlen)
{
    if (is_file(submission)) {
        snprintf(out, outlen, "%s", submission);
        return 0;
    }
    if (!is_dir(submission))
        return -1;
    size_t len = strlen(submission);
    const char *sep = (len && submission[len - 1] == '/') ? "" : "/";
    snprintf(out, outlen, "%s%s%s/%s", submission, sep, lab, file);
    if (is_file(out))
        return 0;
    snprintf(out, outlen, "%s%s%s", submission, sep, file);
    return is_file(out) ? 0 : -1;
}

static void job_test_name(const ds_job_t *j, char *buf, size_t len)
{
    if (j->shape[0])
        snprintf(buf, len, "dataset %.60s (%.40s)", j->ref.name, j->shape);
    else
        snprintf(buf, len, "dataset %s", j->ref.name);
}

/* Loads the dataset and writes the child's inputs into its scratch folder. */
static int prepare_job(ds_job_t *j, const lab_t *lab, const char *scratch, const char *program)
{
    if (dataset_load(&j->ref, lab->inputs, &j->data, j->load_error, sizeof j->load_error) != 0 ||
        (strcmp(lab->shape_rule, "matmul") == 0 &&
         dataset_check_matmul(&j->ref, &j->data, j->load_error, sizeof j->load_error) != 0)) {
        j->load_failed = 1;
        return -1;
    }
    dataset_shape(&j->data, j->shape, sizeof j->shape);
    snprintf(j->dir, sizeof j->dir, "%.3900s/run-%.60s", scratch, j->ref.name);
    if (mkdir_p(j->dir, j->load_error, sizeof j->load_error) != 0) {
        j->load_failed = 1;
        return -1;
    }
    j->argv[0] = strdup(program);
    for (int i = 0; i < j->data.ninputs; i++) {
        char path[PATH_MAX + 32];
        snprintf(path, sizeof path, "%s/input%d.bin", j->dir, i);
        const matrix_t *m = &j->data.inputs[i];
        if (matbin_write(path, m->data, (uint32_t)m->rows, (uint32_t)m->cols, -1.0) != 0) {
            snprintf(j->load_error, sizeof j->load_error, "%.2000s: cannot write", path);
            j->load_failed = 1;
            return -1;
        }
        j->argv[i + 1] = strdup(path);
    }
    snprintf(j->out_path, sizeof j->out_path, "%s/output.bin", j->dir);
    snprintf(j->diag_path, sizeof j->diag_path, "%s/emu-diagnostics.txt", j->dir);
    j->argv[j->data.ninputs + 1] = j->out_path;
    j->argv[j->data.ninputs + 2] = NULL;
    snprintf(j->env_diag, sizeof j->env_diag, "CUGRADE_EMU_DIAG=%s", j->diag_path);
    j->env[0] = j->env_diag;
    j->env[1] = NULL;
    return 0;
}

static void free_job(ds_job_t *j)
{
    if (j->argv[0]) {
        for (int i = 0; i <= j->data.ninputs; i++)
            free(j->argv[i]);
    }
    dataset_free(&j->data);
}

#define DIAG_SHOWN_PER_KIND 3

/* Appends the emulator's diagnostics, at most DIAG_SHOWN_PER_KIND of each
 * kind (the rest are counted); returns how many were errors. */
static int append_diagnostics(const char *path, strbuf_t *msg)
{
    char *text = read_file(path, NULL, NULL, 0);
    if (!text)
        return 0;
    int errors = 0, nkinds = 0, seen[16] = {0};
    char kinds[16][32];
    for (char *save = NULL, *line = strtok_r(text, "\n", &save); line;
         line = strtok_r(NULL, "\n", &save)) {
        char *sev = line, *kind = strchr(line, '\t'), *what = kind ? strchr(kind + 1, '\t') : NULL;
        if (!what)
            continue;
        *kind++ = '\0';
        *what++ = '\0';
        int is_error = strcmp(sev, "error") == 0, k = 0;
        errors += is_error;
        while (k < nkinds && strcmp(kinds[k], kind) != 0)
            k++;
        if (k == nkinds && nkinds < 16)
            snprintf(kinds[nkinds++], sizeof kinds[0], "%.31s", kind);
        if (k < 16 && seen[k]++ >= DIAG_SHOWN_PER_KIND)
            continue;
        sb_appendf(msg, "%s (%s): %s\n", is_error ? "emulator error" : "emulator warning", kind, what);
    }
    for (int k = 0; k < nkinds; k++)
        if (seen[k] > DIAG_SHOWN_PER_KIND)
            sb_appendf(msg, "(%d more %s diagnostics not shown)\n", seen[k] - DIAG_SHOWN_PER_KIND,
                       kinds[k]);
    free(text);
    return errors;
}

/* Lines the harness printed about CUDA errors ("cugrade: CUDA error ..."). */
static void append_harness_lines(const char *output, strbuf_t *msg)
{
    const char *p = output;
    while (p && *p) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        if (len > 9 && strncmp(p, "cugrade: ", 9) == 0) {
            sb_appendn(msg, p, len);
            sb_append(msg, "\n");
        }
        p = nl ? nl + 1 : NULL;
    }
}

static const char *cuda_error_hint(const char *output)
{
    if (strstr(output, "cudaErrorInvalidValue") || strstr(output, "cudaErrorInvalidConfiguration"))
        return "hint: a launch with an invalid configuration: a grid dimension of 0 (integer "
               "division of a size smaller than TILE_WIDTH?) or more than 1024 threads per block.\n";
    if (strstr(output, "cudaErrorIllegalAddress") || strstr(output, "cudaErrorLaunchFailure"))
        return "hint: the kernel accessed memory outside the matrices: check the boundary "
               "conditions of the loads and of the store.\n";
    return "";
}

static void append_mismatches(const compare_result_t *cr, strbuf_t *msg)
{
    if (cr->nshown == 0)
        return;
    sb_append(msg, "first mismatches (row, col): expected, got\n");
    for (int i = 0; i < cr->nshown; i++) {
        const mismatch_t *mm = &cr->shown[i];
        if (matbin_is_poison(mm->got))
            sb_appendf(msg, "  (%d, %d): %.9g, never written\n", mm->row, mm->col, (double)mm->expected);
        else
            sb_appendf(msg, "  (%d, %d): %.9g, %.9g\n", mm->row, mm->col, (double)mm->expected,
                       (double)mm->got);
    }
}

/* Lines of the harness ("cugrade: ") and the emulator ("cugrade-emu: ") are
 * already shown above the program output: skip them there. */
static int is_tool_line(const char *line, size_t len)
{
    return (len >= 9 && strncmp(line, "cugrade: ", 9) == 0) ||
           (len >= 13 && strncmp(line, "cugrade-emu: ", 13) == 0);
}

static void append_program_output(const run_result_t *rr, strbuf_t *msg)
{
    strbuf_t own = {0};
    for (const char *p = rr->output; p && *p;) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        if (!is_tool_line(p, len)) {
            sb_appendn(&own, p, len);
            sb_append(&own, "\n");
        }
        p = nl ? nl + 1 : NULL;
    }
    if (own.len > 0 || rr->output_truncated) {
        sb_append(msg, "program output:\n");
        sb_append(msg, sb_str(&own));
    }
    if (rr->output_truncated)
        sb_appendf(msg, "[output cut: showing the first %zu of %zu bytes]\n", rr->output_len,
                   rr->output_total);
    sb_free(&own);
}

/* Compares the child's output file with the expected matrix. */
static int judge_output(const ds_job_t *j, const lab_t *lab, backend_t backend, strbuf_t *msg)
{
    float *data = NULL;
    matbin_header_t hdr;
    int rc = matbin_read(j->out_path, &data, &hdr);
    if (rc != 0) {
        sb_appendf(msg, "FAILED: the program %s no output\n",
                   rc == -1 ? "produced" : "produced a truncated or malformed");
        return 0;
    }
    matrix_t got = {.rows = (int)hdr.rows, .cols = (int)hdr.cols, .data = data};
    compare_result_t cr;
    int inner = j->data.ninputs == 2 ? j->data.inputs[0].cols : 0;
    compare_matrices(&j->data.expected, &got, lab->tol, lab->tile_width, inner, &cr);
    char summary[512];
    compare_summary(&cr, summary, sizeof summary);
    sb_appendf(msg, "%s: %s\n", cr.passed ? "passed" : "FAILED", summary);
    if (!cr.passed && cr.hint_text[0])
        sb_appendf(msg, "hint: %s\n", cr.hint_text);
    append_mismatches(&cr, msg);
    if (hdr.elapsed_ms >= 0)
        sb_appendf(msg, "kernel time: %.3f ms%s\n", hdr.elapsed_ms,
                   backend == BACKEND_EMU ? " on the CPU emulator (not a GPU time; not scored)" : "");
    free(data);
    return cr.passed;
}

/* Turns one finished run into a test. */
static void score_job(grade_run_t *run, const ds_job_t *j, const run_spec_t *spec,
                      const run_result_t *rr, const lab_t *lab)
{
    strbuf_t msg = {0};
    int passed = 0;
    char why[256];
    if (rr->exited && rr->exit_code == 0) {
        passed = judge_output(j, lab, run->backend, &msg);
    } else {
        run_describe(rr, spec, why, sizeof why);
        if (rr->exited && rr->exit_code == 3) {
            sb_append(&msg, "FAILED: a CUDA error stopped the program\n");
            append_harness_lines(rr->output, &msg);
            sb_append(&msg, cuda_error_hint(rr->output ? rr->output : ""));
        } else if (rr->timed_out) {
            sb_appendf(&msg, "FAILED: the program %s (an endless loop in the kernel, or a "
                             "thread waiting for another forever?)\n", why);
        } else if (rr->signaled) {
            sb_appendf(&msg, "FAILED: the program %s\n", why);
        } else {
            sb_appendf(&msg, "FAILED: the program %s\n", why);
            append_harness_lines(rr->output, &msg);
        }
    }
    if (append_diagnostics(j->diag_path, &msg) > 0 && passed) {
        passed = 0;
        sb_append(&msg, "FAILED: the output is right, but the emulator found an error above\n");
    }
    if (passed)
        run->datasets_passed++;
    append_program_output(rr, &msg);
    char name[128];
    job_test_name(j, name, sizeof name);
    grade_add_test(&run->grade, name, passed ? j->rule.points : 0, j->rule.points, passed,
                   j->rule.visibility, sb_str(&msg));
    sb_free(&msg);
}

static void add_unrun_test(grade_run_t *run, const ds_job_t *j, const char *why)
{
    char name[128];
    job_test_name(j, name, sizeof name);
    grade_add_test(&run->grade, name, 0, j->rule.points, 0, j->rule.visibility, why);
}

static void add_compile_test(grade_run_t *run, const lab_rubric_t *rub, const build_result_t *br,
                             const char *missing)
{
    strbuf_t msg = {0};
    if (missing) {
        sb_append(&msg, missing);
    } else if (br->ok) {
        sb_appendf(&msg, "compiled %s in %.1f s (%s backend)\n", run->student_file, br->seconds,
                   backend_name(run->backend));
        if (br->log && *br->log)
            sb_appendf(&msg, "compiler messages:\n%s", br->log);
    } else {
        sb_appendf(&msg, "FAILED: %s does not compile; every other test is not run.\n%s",
                   run->student_file, br->log ? br->log : "");
    }
    grade_add_test(&run->grade, rub->compile_name, br->ok ? rub->compile_points : 0,
                   rub->compile_points, br->ok, rub->compile_visibility, sb_str(&msg));
    sb_free(&msg);
}

static void run_datasets(grade_run_t *run, ds_job_t *jobs, int n, const lab_t *lab, int max_jobs)
{
    run_spec_t *specs = calloc((size_t)n, sizeof *specs);
    run_result_t *results = calloc((size_t)n, sizeof *results);
    int *index = calloc((size_t)n, sizeof *index), nrun = 0;
    for (int i = 0; i < n; i++) {
        if (jobs[i].load_failed)
            continue;
        index[nrun] = i;
        specs[nrun].argv = jobs[i].argv;
        specs[nrun].cwd = jobs[i].dir;
        specs[nrun].extra_env = jobs[i].env;
        specs[nrun].timeout_s = jobs[i].rule.time_limit_s;
        nrun++;
    }
    run_many(specs, results, nrun, max_jobs);
    for (int r = 0, i = 0; i < n; i++) {
        if (jobs[i].load_failed) {
            char why[PATH_MAX + 300];
            snprintf(why, sizeof why, "not graded: dataset error: %s\n", jobs[i].load_error);
            add_unrun_test(run, &jobs[i], why);
            run->cannot_grade = 1;
            snprintf(run->error, sizeof run->error, "%s", jobs[i].load_error);
            continue;
        }
        score_job(run, &jobs[index[r]], &specs[r], &results[r], lab);
        run_result_free(&results[r]);
        r++;
    }
    free(specs);
    free(results);
    free(index);
}

static int make_scratch(grade_run_t *run)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(run->scratch, sizeof run->scratch, "%s/cugrade-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(run->scratch)) {
        snprintf(run->error, sizeof run->error, "cannot create a scratch folder under %s",
                 tmp && *tmp ? tmp : "/tmp");
        return -1;
    }
    return 0;
}

static void record_facts(grade_run_t *run, const char *lab)
{
    grade_t *g = &run->grade;
    grade_set_extra_text(g, "cugrade_version", CUGRADE_VERSION);
    grade_set_extra_text(g, "lab", lab);
    grade_set_extra_text(g, "backend", backend_name(run->backend));
    grade_set_extra_text(g, "submission_file", run->student_file);
    grade_set_extra_number(g, "datasets_passed", run->datasets_passed);
    grade_set_extra_number(g, "datasets_total", run->datasets_total);
}

static void summarise(grade_run_t *run)
{
    strbuf_t out = {0};
    sb_appendf(&out, "%s: %d of %d datasets passed on the %s backend (%s). Score %g / %g.\n",
               run->student_file[0] ? run->student_file : "submission", run->datasets_passed,
               run->datasets_total, backend_name(run->backend), run->backend_why,
               grade_score(&run->grade), grade_max_score(&run->grade));
    if (run->cannot_grade)
        sb_appendf(&out, "Some datasets could not be graded: %s\n", run->error);
    free(run->grade.output);
    run->grade.output = sb_detach(&out);
}

int grade_submission(const grade_opts_t *o, grade_run_t *run)
{
    memset(run, 0, sizeof *run);
    double t0 = now_seconds();
    lab_t lab;
    lab_rubric_t rub;
    char rubric_path[PATH_MAX], ds_dir[PATH_MAX];
    snprintf(rubric_path, sizeof rubric_path, "%s", o->rubric_path ? o->rubric_path : "");
    if (!o->rubric_path)
        snprintf(rubric_path, sizeof rubric_path, "%s/rubric.json", o->root);
    if (o->datasets_dir)
        snprintf(ds_dir, sizeof ds_dir, "%s", o->datasets_dir);
    else
        snprintf(ds_dir, sizeof ds_dir, "%s/datasets/%s", o->root, o->lab);

    if (lab_load(o->root, o->lab, &lab, run->error, sizeof run->error) != 0)
        return -1;
    if (rubric_load(rubric_path, o->lab, &rub, run->error, sizeof run->error) != 0)
        return -1;
    dataset_ref_t *refs = NULL;
    int nds = 0;
    if (dataset_list(ds_dir, &refs, &nds, run->error, sizeof run->error) != 0) {
        rubric_free(&rub);
        return -1;
    }
    run->backend = backend_resolve(o->backend, run->backend_why, sizeof run->backend_why);
    if (o->backend == BACKEND_GPU && gpu_device_count() == 0) {
        snprintf(run->error, sizeof run->error,
                 "--backend gpu needs a CUDA device and none was found (no driver, or no "
                 "device); grade on the CPU emulator with --backend emu or auto");
        free(refs);
        rubric_free(&rub);
        return -1;
    }
    if (make_scratch(run) != 0) {
        free(refs);
        rubric_free(&rub);
        return -1;
    }

    char missing[PATH_MAX + 256] = "";
    if (find_student_file(o->submission, o->lab, lab.student_file, run->student_file,
                          sizeof run->student_file) != 0) {
        snprintf(missing, sizeof missing,
                 "FAILED: no %s found in %s (looked for %s/%s/%s and %s/%s)\n", lab.student_file,
                 o->submission, o->submission, o->lab, lab.student_file, o->submission,
                 lab.student_file);
        run->student_file[0] = '\0';
    }
    build_result_t br = {0};
    if (!missing[0]) {
        build_ctx_t ctx = {.root = o->root, .backend = run->backend, .lab = &lab,
                           .scratch = run->scratch, .timeout_s = COMPILE_TIMEOUT_S};
        build_submission(&ctx, run->student_file, &br);
        if (br.internal_error) {
            snprintf(run->error, sizeof run->error, "%s", br.log);
            build_result_free(&br);
            free(refs);
            rubric_free(&rub);
            rm_rf(run->scratch);
            return -1;
        }
    }
    add_compile_test(run, &rub, &br, missing[0] ? missing : NULL);

    ds_job_t *jobs = calloc((size_t)nds, sizeof *jobs);
    run->datasets_total = nds;
    for (int i = 0; i < nds; i++) {
        jobs[i].ref = refs[i];
        jobs[i].rule = rubric_dataset_rule(&rub, refs[i].name, nds);
        if (!(jobs[i].rule.time_limit_s > 0))
            jobs[i].rule.time_limit_s = lab.time_limit_s;
        if (br.ok)
            prepare_job(&jobs[i], &lab, run->scratch, br.program);
    }
    if (br.ok) {
        int max_jobs = o->jobs > 0 ? o->jobs : (run->backend == BACKEND_GPU ? 1 : cpu_count());
        run_datasets(run, jobs, nds, &lab, max_jobs);
    } else {
        for (int i = 0; i < nds; i++)
            add_unrun_test(run, &jobs[i], NOT_COMPILED_MSG "\n");
    }
    for (int i = 0; i < nds; i++)
        free_job(&jobs[i]);
    free(jobs);
    free(refs);
    build_result_free(&br);
    rubric_free(&rub);
    if (!o->keep_scratch) {
        rm_rf(run->scratch);
        run->scratch[0] = '\0';
    }
    run->grade.execution_time = now_seconds() - t0;
    record_facts(run, o->lab);
    summarise(run);
    return 0;
}

void grade_run_free(grade_run_t *run) { grade_free(&run->grade); }
