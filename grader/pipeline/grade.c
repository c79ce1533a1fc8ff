/* grade.c - grade one submission, the pipeline end to end:
 *   dataset -> build -> run (isolated children) -> compare -> score -> grade_t
 * plus the checks, from the CPU emulator's findings on the same datasets
 * (on the gpu backend, from an extra run of a checked emulator build, and
 * compute-sanitizer: grade_checks.h).
 * It measures first (score/measured.h: rubric-independent facts, what
 * cugrade run --measurements stores) and then scores the measurement under
 * the rubric with score_measured, the same function a re-score uses.
 * A failure is charged to the student only once the grader has shown it
 * works: the toolchain check before the build, the canary (canary.h) when
 * the student's file does not build or passes no dataset; else no grade.
 * Besides the public datasets, the hidden ones (hidden_set.h), made at grade
 * time from a secret. Student code never runs in this process, and never
 * sees expected outputs. */
#include "pipeline/grade.h"
#include "pipeline/student_file.h"
#include "build/build.h"
#include "pipeline/canary.h"
#include "pipeline/check_jobs.h"
#include "pipeline/checked_build.h"
#include "score/score.h"
#include "util/cugrade.h"
#include "pipeline/grade_inputs.h"
#include "pipeline/grade_checks.h"
#include "pipeline/grade_perf.h"
#include "pipeline/vgpu_budget.h"
#include "course/lab.h"
#include "kinds/kind.h"
#include "build/ptxas.h"
#include "run/sandbox.h"
#include "course/rubric.h"
#include "run/runs.h"
#include "util/tmpdir.h"
#include "util/util.h"
#include "compare/verdict.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define COMPILE_TIMEOUT_S 180.0
#define NOT_COMPILED_MSG SCORE_NOT_COMPILED_MSG

/* The "compiles" test's facts: whether it built, and the message. */
static void measure_compile(grade_run_t *run, const build_result_t *br, const char *missing,
                            const char *took, int student_copy)
{
    strbuf_t msg = {0};
    if (took && !missing) /* what the search took, first */
        sb_append(&msg, took);
    if (missing) {
        sb_append(&msg, missing);
    } else if (br->ok) {
        sb_appendf(&msg, "compiled %s in %.1f s (%s backend)\n", run->student_file, br->seconds,
                   backend_name(run->backend));
        if (br->rule_broken[0])
            sb_appendf(&msg, "%s: performance scores 0; correctness is graded as usual\n",
                       br->rule_broken);
        strbuf_t messages = {0};
        ptxas_summarise(br->log ? br->log : "", &msg);
        ptxas_strip(br->log ? br->log : "", &messages);
        if (messages.len > 0)
            sb_appendf(&msg, "compiler messages:\n%s", sb_str(&messages));
        sb_free(&messages);
    } else {
        sb_appendf(&msg, "FAILED: %s does not compile; every other test is not run.\n",
                   run->student_file);
        if (br->rule_broken[0]) /* before the compiler's messages: <mma.h> is not on the emulator */
            sb_appendf(&msg, "%s\n", br->rule_broken);
        int forbidden = br->rule_broken[0] && run->backend == BACKEND_EMU && !br->refused[0];
        if (forbidden) /* the emulator's own headers clash with what the rule forbids */
            sb_append(&msg, "the CPU emulator cannot build what the rule forbids (its compiler "
                            "messages, about the emulator's headers, are left out); on a GPU it "
                            "would be graded for correctness, with 0 on performance\n");
        else
            sb_append(&msg, br->log ? br->log : "");
        const char *nl = msg.len && msg.buf[msg.len - 1] != '\n' ? "\n" : "";
        if (forbidden)
            ;
        else if (student_copy) /* no reference here to vouch for the toolchain: say so */
            sb_appendf(&msg, "%s(this student's copy of the lab has no reference, so cugrade could "
                             "not check that its toolchain works: if the messages above are not "
                             "about this file, ask the course staff)\n", nl);
        else
            sb_appendf(&msg, "%s(the lab's reference compiles with the same toolchain, so the "
                             "error is in this file)\n", nl);
    }
    run->measured.compiled = !missing && br->ok;
    measured_set(&run->measured.compile_message, sb_str(&msg));
    sb_free(&msg);
}

/* Each dataset's verdict and message (its test, once scored). */
static void measure_datasets(grade_run_t *run, const ds_run_t *runs, int n, const lab_t *lab)
{
    for (int i = 0; i < n; i++) {
        const ds_run_t *r = &runs[i];
        strbuf_t msg = {0};
        int passed = 0;
        char failure[128] = "not-graded";
        if (!r->started) {
            sb_appendf(&msg, "not graded: dataset error: %s\n", r->error);
            run->cannot_grade = 1;
            snprintf(run->error, sizeof run->error, "%s", r->error);
            measured_set(&run->measured.cannot_grade, r->error);
        } else {
            passed = verdict_dataset(r, lab, run->backend, &msg, failure, sizeof failure);
        }
        if (r->job->hidden_index > 0)
            run->hidden_passed += passed;
        else
            run->datasets_passed += passed;
        char name[128];
        job_test_name(r->job, name, sizeof name);
        error_map_t *map = r->started ? grade_take_error_map() : NULL; /* verdict_dataset's */
        measured_add_dataset(&run->measured, name, r->job->hidden_index > 0 ? "" : r->job->ref.name,
                             r->job->hidden_index, passed, sb_str(&msg), failure, map);
        sb_free(&msg);
    }
}

static void measure_unrun_datasets(grade_run_t *run, const ds_job_t *jobs, int n)
{
    for (int i = 0; i < n; i++) {
        char name[128];
        job_test_name(&jobs[i], name, sizeof name);
        measured_add_dataset(&run->measured, name, jobs[i].hidden_index > 0 ? "" : jobs[i].ref.name,
                             jobs[i].hidden_index, 0, NOT_COMPILED_MSG "\n", "", NULL);
    }
}

/* <TMPDIR>/cugrade-XXXXXX, removed by the next grading if this one is killed. */
static int make_scratch(grade_run_t *run)
{
    return tmp_dir_make("", run->scratch, sizeof run->scratch, run->error, sizeof run->error);
}

/* The facts results.json's extra_data and output keep, into the measurement. */
static void record_facts(grade_run_t *run, const char *lab, const lab_rubric_t *rub)
{
    measured_t *m = &run->measured;
    snprintf(m->cugrade_version, sizeof m->cugrade_version, "%s", CUGRADE_VERSION);
    snprintf(m->lab, sizeof m->lab, "%s", lab);
    m->backend = run->backend;
    snprintf(m->backend_why, sizeof m->backend_why, "%s", run->backend_why);
    snprintf(m->sandbox, sizeof m->sandbox, "%s", sandbox_description());
    snprintf(m->student_file, sizeof m->student_file, "%s", run->student_file);
    snprintf(m->rule_broken, sizeof m->rule_broken, "%s", run->rule_broken);
    char *fields = rubric_run_fields(rub);
    measured_set(&m->rubric_run_fields, fields);
    free(fields);
}

static int choose_backend(const grade_opts_t *o, grade_run_t *run, const grading_inputs_t *in)
{
    run->backend = backend_resolve(o->backend, run->backend_why, sizeof run->backend_why);
    if (o->backend == BACKEND_AUTO && run->backend == BACKEND_VGPU && !lab_is_program(&in->lab) &&
        !in->lab.kind->vgpu_main) { /* a kind with no program for the executor */
        int gpus = gpu_device_count();
        run->backend = gpus > 0 ? BACKEND_NATIVE : BACKEND_EMU;
        snprintf(run->backend_why, sizeof run->backend_why,
                 "auto: %s, and the kind %s has no program for the executor, so %s",
                 gpus > 0 ? "a CUDA device found" : "no CUDA device", in->lab.kind->name,
                 gpus > 0 ? "the program on the GPU" : "the CPU emulator");
    }
    if (run->backend == BACKEND_GPU) {
        if (backend_gpu_missing(o->root, run->error, sizeof run->error) == 0) /* raced: gone since */
            snprintf(run->error, sizeof run->error, "--backend gpu: no GPU with the executor and its "
                     "replay runner");
        return -1;
    }
    run->measured.backend = run->backend;
    if (o->backend == BACKEND_NATIVE && gpu_device_count() == 0) {
        snprintf(run->error, sizeof run->error,
                 "--backend native needs a CUDA device and none was found (no driver, or no "
                 "device); grade on the CPU emulator with --backend emu or auto");
        return -1;
    }
    return 0;
}

/* The vgpu backend runs libwb programs, and kernel labs of a kind with a
 * program for the executor (its vgpu_main.cu). */
static int backend_fits_lab(const grade_run_t *run, const grading_inputs_t *in, char *err,
                            size_t errlen)
{
    if (run->backend != BACKEND_VGPU || lab_is_program(&in->lab) || in->lab.kind->vgpu_main)
        return 0;
    snprintf(err, errlen, "--backend vgpu: %s is a lab of the kind %s, which has no program for "
             "the executor (lab_kind_t vgpu_main): grade it with --backend emu or native",
             in->lab.name, in->lab.kind->name);
    return -1;
}

/* The toolchains this grading uses are there, and the lab's files: the
 * backend's, and on a GPU the emulator's too when it runs the checks. */
static int check_toolchains(const grade_opts_t *o, grade_run_t *run, const grading_inputs_t *in)
{
    canary_ctx_t c = canary_of(o, in, run->backend, 0);
    if (toolchain_check(&c, run->error, sizeof run->error) != 0)
        return -1;
    c.backend = BACKEND_EMU;
    if (run->backend == BACKEND_NATIVE && o->checks && rubric_has_checks(&in->rub))
        return toolchain_check(&c, run->error, sizeof run->error);
    return 0;
}

/* The size of path in bytes, -1 if it cannot be read. */
static long long file_size(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? (long long)st.st_size : -1;
}

/* The grading's datasets, public and hidden, loaded (each with its
 * load_error when it cannot be read). */
static ds_job_t *load_jobs(grading_inputs_t *in)
{
    return jobs_append_hidden(jobs_load(in->refs, in->nds, &in->lab, &in->rub), in->nds,
                              in->hidden.refs, in->hidden.n, &in->lab, &in->rub);
}

/* 0 if every dataset of jobs[0..n) was read; else -1 with the first
 * that was not, a fault of the lab's datasets (never a score: no student
 * runs on a set with a hole in it). */
static int datasets_readable(const ds_job_t *jobs, int n, char *err, size_t errlen)
{
    for (int i = 0; i < n; i++)
        if (jobs[i].load_error[0]) {
            snprintf(err, errlen, "a dataset cannot be read: %s (the lab's datasets are broken, "
                     "not the student's fault; fix or regenerate it: cugrade dataset --check, "
                     "docs/datasets.md)", jobs[i].load_error);
            return -1;
        }
    return 0;
}

/* Finds and builds the student's file; fills the "compiles" test. Returns -1
 * when the build failed for a reason that is not the student's: a failure of
 * the lab's or the tools' own (internal_error), or a compile error while the
 * lab's reference does not build either (the canary). */
static int build_student(const grade_opts_t *o, grade_run_t *run, const grading_inputs_t *in,
                         build_result_t *br)
{
    memset(br, 0, sizeof *br);
    char missing[3 * PATH_MAX + 16] = "", note[3 * PATH_MAX];
    if (student_file_find(o->submission, o->lab, in->lab.student_file, run->student_file,
                          sizeof run->student_file, note, sizeof note) != 0) {
        snprintf(missing, sizeof missing, "FAILED: %s\n", note);
        run->student_file[0] = '\0';
    } else if (file_size(run->student_file) == 0) { /* nothing the compilers could say helps */
        snprintf(missing, sizeof missing,
                 "FAILED: %s is empty (0 bytes): there is nothing to compile\n", run->student_file);
    } else {
        build_ctx_t ctx = {.root = o->root, .backend = run->backend, .lab = &in->lab,
                           .scratch = run->scratch, .timeout_s = COMPILE_TIMEOUT_S,
                           .checks = o->checks && run->backend == BACKEND_EMU};
        /* vgpu: the executor checks what the kernels do; the build is the same */
        double t0 = now_seconds();
        build_submission(&ctx, run->student_file, br);
        run->phase_s[PHASE_BUILD] += now_seconds() - t0;
        snprintf(run->rule_broken, sizeof run->rule_broken, "%s", br->rule_broken);
        snprintf(run->measured.rule_broken, sizeof run->measured.rule_broken, "%s",
                 br->rule_broken);
        if (br->internal_error)
            return fault_of_build(br, "", run->error, sizeof run->error);
        if (!br->ok && grade_vouch(o, run, in, run->backend,
                                   o->checks && backend_checks_itself(run->backend)) != 0)
            return -1;
    }
    measure_compile(run, br, missing[0] ? missing : NULL, missing[0] ? NULL : note,
                    canary_student_copy(o->root));
    return 0;
}

/* vgpu: each dataset's instruction budget from the reference's count
 * (pipeline/vgpu_budget.h), once the submission built. -1 with run->error
 * when the reference cannot be counted (a grader fault). */
static int set_budgets(const grade_opts_t *o, grade_run_t *run, const grading_inputs_t *in,
                       ds_job_t *jobs, const build_result_t *br)
{
    if (run->backend != BACKEND_VGPU || !br->ok)
        return 0;
    double t0 = now_seconds();
    int rc = vgpu_budgets(o, &in->lab, jobs, in->njobs, run->scratch, &run->measured.perf.reference_traffic,
                          run->error, sizeof run->error);
    run->phase_s[PHASE_BUILD] += now_seconds() - t0; /* cached after a class's first */
    return rc;
}

/* Runs the student's program on every dataset and adds their tests; on a
 * GPU with pt ready, the timed driver, which times the submission once its
 * outputs pass (grade_perf.h). */
static ds_run_t *run_datasets(const grade_opts_t *o, grade_run_t *run, const grading_inputs_t *in,
                              const ds_job_t *jobs, const build_result_t *br, perf_tail_t *pt)
{
    run->datasets_total = in->nds;
    run->hidden_total = in->hidden.n;
    if (!br->ok) {
        measure_unrun_datasets(run, jobs, in->njobs);
        return NULL;
    }
    /* grouped: one process (one CUDA context) for every dataset; the emulator
     * keeps one process per dataset by default, which runs them in parallel */
    int grouped = o->dataset_runs == DATASET_RUNS_GROUPED ||
                  (o->dataset_runs == DATASET_RUNS_AUTO && run->backend == BACKEND_NATIVE);
    runs_how_t how = {.lab = &in->lab, .program = br->program, .scratch = run->scratch,
                      .prefix = "run",
                      .max_parallel = o->jobs > 0 ? o->jobs
                                      : run->backend == BACKEND_NATIVE ? 1 : cpu_count(),
                      .budget_s = run->budget_s, .grouped = grouped,
                      .timeouts_max = in->rub.timeouts_max,
                      .ptx = br->ptx[0] ? br->ptx : NULL, .checks = o->checks};
    if (run->backend == BACKEND_VGPU && br->cubin[0] &&
        backend_replay_runner(cugrade_root(), -1, run->replay_runner, sizeof run->replay_runner))
        how.replay_runner = run->replay_runner, how.replay_cubin = br->cubin,
        how.replay_queue = o->gpu_queue, how.gpu_index = o->gpu_index;
    if (how.timeouts_max == RUBRIC_TIMEOUTS_UNSET) /* a hung kernel stalls a GPU's timing */
        how.timeouts_max = run->backend == BACKEND_NATIVE ? RUBRIC_GPU_TIMEOUTS_MAX : 0;
    if (run->backend == BACKEND_NATIVE) { /* a hung kernel holds the GPU: the rubric's GPU limits */
        how.limit_cap = in->rub.gpu_time_limit_s;
        if (o->budget_s <= 0 && in->rub.gpu_budget_s > 0)
            how.budget_s = in->rub.gpu_budget_s;
    }
    /* correctness runs share the GPU, asking for it around each dataset's own work
     * (run/gpu_turn.h); a wait in the queue is not the student's, and the budget
     * covers the runs, whose waits are short */
    gpu_turn_stats_t st = {0};
    if (run->backend == BACKEND_NATIVE) {
        how.on_gpu = 1;
        how.gpu_queue = o->gpu_queue;
        how.gpu_index = o->gpu_index;
        how.gpu_stats = &st;
    }
    if (grouped && how.on_gpu)
        grade_perf_tail_offer(pt, in, &how);
    double t0 = now_seconds();
    how.not_after = runs_not_after(how.budget_s);
    ds_run_t *runs = runs_execute(jobs, in->njobs, &how);
    for (int i = 0; run->backend == BACKEND_NATIVE && i < in->njobs; i++)
        if (runs[i].started && runs[i].result.exited && !check_run_did_not_end(&runs[i]) &&
            runs[i].result.wall_s > run->phase_s[PHASE_GPU_SLOWEST])
            run->phase_s[PHASE_GPU_SLOWEST] = runs[i].result.wall_s;
    run->phase_s[PHASE_GPU_WAIT] += st.waited_s;
    run->phase_s[PHASE_GPU_START] += st.start_s;
    run->phase_s[PHASE_GPU_DATASETS_HELD] += st.shared_s + st.exclusive_s;
    run->phase_s[PHASE_DATASETS] += now_seconds() - t0 - pt->tail.turn.tail_s; /* the tail's:
                                                                  * grade_measure_performance's */
    measure_datasets(run, runs, in->njobs, &in->lab);
    return runs;
}

const char *grade_phase_name(grade_phase_t p)
{
    static const char *const names[PHASE_COUNT] = {
        "build", "datasets", "emu_build", "emu_checks", "sanitizer", "timing_build", "timing",
        "gpu_wait", "gpu_exclusive", "gpu_start", "gpu_slowest_dataset",
        "gpu_datasets_held"};
    return p < PHASE_COUNT ? names[p] : "?";
}

/* extra_data "phases": {"build": 2.1, ...}, the seconds of every phase. */
static void record_phases(grade_run_t *run)
{
    for (int p = 0; p < PHASE_COUNT; p++)
        measured_add_phase(&run->measured, grade_phase_name((grade_phase_t)p), run->phase_s[p]);
}

/* "build 3.1 s, datasets 6.0 s, checks 8.2 s, performance 9.4 s" */
static void record_phase_times(grade_run_t *run, const double *t)
{
    static const char *const names[] = {"build", "datasets", "checks", "performance"};
    strbuf_t sb = {0};
    for (int i = 0; i < 4; i++)
        sb_appendf(&sb, "%s%s %.1f s", i ? ", " : "", names[i], t[i + 1] - t[i]);
    measured_set(&run->measured.phase_times, sb_str(&sb));
    sb_free(&sb);
}

/* A sandbox that did not start for one of the submission's runs since
 * `before` (runner.h run_sandbox_failures) makes the grading a grader fault:
 * that run's verdict (a dataset failed, a check without evidence, no
 * timing) would be the machine's, not the student's. */
static int sandbox_fault_since(int before, grade_run_t *run)
{
    char why[512];
    int n = run_sandbox_failures(why, sizeof why) - before;
    if (n <= 0)
        return 0;
    snprintf(run->error, sizeof run->error,
             "the sandbox did not start for %d of the submission's runs (bwrap failed before "
             "the program ran; the first: %s): a fault of the grading machine, not the "
             "submission's", n, why);
    return 1;
}

/* The same for the executor (run/runs_vgpu.h): a run it could not serve. */
static int executor_fault_since(int before, grade_run_t *run)
{
    char why[512];
    int n = runs_executor_faults(why, sizeof why) - before;
    if (n <= 0)
        return 0;
    snprintf(run->error, sizeof run->error,
             "the executor (bin/cugrade-vgpu) or its replay on the GPU (bin/cugrade-replay) could "
             "not serve %d of the submission's runs (the "
             "first: %s): a fault of the grader, not the submission's", n, why);
    return 1;
}

int grade_submission(const grade_opts_t *o, grade_run_t *run)
{
    memset(run, 0, sizeof *run);
    int sandbox_failures_before = run_sandbox_failures(NULL, 0);
    int executor_faults_before = runs_executor_faults(NULL, 0);
    double t[5] = {now_seconds()};
    grading_inputs_t in;
    if (load_inputs(o, &in, run->error, sizeof run->error) != 0)
        return -1;
    build_result_t br = {0};
    ds_job_t *jobs = NULL;
    if (choose_backend(o, run, &in) != 0 ||
        backend_fits_lab(run, &in, run->error, sizeof run->error) != 0 ||
        check_toolchains(o, run, &in) != 0 ||
        make_scratch(run) != 0 ||
        load_hidden(o, &in, run->scratch, run->error, sizeof run->error) != 0 ||
        (jobs = load_jobs(&in)) == NULL ||
        datasets_readable(jobs, in.njobs, run->error, sizeof run->error) != 0 ||
        build_student(o, run, &in, &br) != 0 || set_budgets(o, run, &in, jobs, &br) != 0) {
        if (run->scratch[0])
            rm_rf(run->scratch);
        run->scratch[0] = '\0';
        build_result_free(&br);
        jobs_free(jobs, jobs ? in.njobs : 0);
        free_inputs(&in);
        return -1;
    }
    run->budget_s = o->budget_s > 0 ? o->budget_s : in.rub.budget_s;
    t[1] = now_seconds();
    grade_opts_t chosen;
    o = br.ok && run->backend == BACKEND_NATIVE ? grade_take_gpu(o, &chosen) : o;
    checked_build_t cb; /* on a GPU the checks' emulator build goes on beside the dataset runs */
    checked_build_init(&cb, o->root, &in.lab, run->scratch, run->student_file, COMPILE_TIMEOUT_S);
    if (run->backend == BACKEND_NATIVE && br.ok && o->checks && rubric_has_checks(&in.rub))
        checked_build_start(&cb);
    perf_tail_t tail;
    grade_perf_tail_prepare(o, run, &in, &tail);
    ds_run_t *runs = run_datasets(o, run, &in, jobs, &br, &tail);
    t[2] = now_seconds();
    /* every dataset failed: the student's, unless the reference fails too */
    int fault = br.ok && in.nds > 0 && run->datasets_passed == 0 &&
                grade_vouch(o, run, &in, run->backend,
                            o->checks && backend_checks_itself(run->backend)) != 0;
    fault = fault || grade_measure_checks(o, run, &in, jobs, runs, br.ok, &cb) != 0;
    checked_build_end(&cb);
    t[3] = now_seconds();
    fault = fault || grade_measure_performance(o, run, &in, &tail, &br) != 0;
    fault = fault || sandbox_fault_since(sandbox_failures_before, run);
    fault = fault || executor_fault_since(executor_faults_before, run);
    grade_perf_tail_free(&tail);
    t[4] = now_seconds();
    runs_free(runs, in.njobs);
    jobs_free(jobs, in.njobs);
    build_result_free(&br);
    if (!o->keep_scratch) {
        rm_rf(run->scratch);
        run->scratch[0] = '\0';
    } else {
        tmp_dir_keep(run->scratch);
    }
    if (!fault) { /* measured: now scored, as a re-score would score it */
        record_facts(run, o->lab, &in.rub);
        record_phase_times(run, t);
        record_phases(run);
        run->measured.execution_time = now_seconds() - t[0];
        grade_run_score(run, &in.rub, &in.lab);
    }
    free_inputs(&in);
    return fault ? -1 : 0;
}

int grade_preflight(const grade_opts_t *o, char *done, size_t donelen, char *err, size_t errlen)
{
    grading_inputs_t in;
    if (load_inputs(o, &in, err, errlen) != 0)
        return -1;
    ds_job_t *jobs = jobs_load(in.refs, in.nds, &in.lab, &in.rub); /* every public dataset */
    int broken = datasets_readable(jobs, in.nds, err, errlen);
    jobs_free(jobs, in.nds);
    if (broken) {
        free_inputs(&in);
        return -1;
    }
    grade_run_t *run = calloc(1, sizeof *run);
    canary_result_t res, emu;
    int rc = choose_backend(o, run, &in);
    canary_ctx_t c = canary_of(o, &in, run->backend, o->checks && backend_checks_itself(run->backend));
    if (rc == 0)
        rc = canary_vouch(&c, &res, run->error, sizeof run->error);
    c = canary_of(o, &in, BACKEND_EMU, 1); /* on a GPU the checks run on a checked emulator build */
    int also_emu = run->backend == BACKEND_NATIVE && o->checks && rubric_has_checks(&in.rub);
    if (rc == 0 && also_emu)
        rc = canary_vouch(&c, &emu, run->error, sizeof run->error);
    if (rc == 0)
        snprintf(done, donelen, "the lab's reference passed %s on the %s backend%s (%s %.1f s)",
                 res.dataset, backend_name(run->backend), also_emu ? " and the emulator" : "",
                 res.cached && (!also_emu || emu.cached) ? "cached," : "ran in",
                 res.seconds + (also_emu ? emu.seconds : 0));
    else
        snprintf(err, errlen, "%s", run->error);
    free(run);
    free_inputs(&in);
    return rc;
}

void grade_run_free(grade_run_t *run)
{
    grade_free(&run->grade);
    measured_free(&run->measured);
}
