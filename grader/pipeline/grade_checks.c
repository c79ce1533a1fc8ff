/* grade_checks.c - the evidence the rubric's checks are judged from
 * (grade_checks.h): the emulator's reports of the runs, the checked
 * emulator build beside a GPU grading, and compute-sanitizer on the GPU
 * (on the gpu backend's program, or on the replay of a dataset the
 * executor passed and the GPU did not). */
#include "pipeline/grade_checks.h"
#include "kinds/kind.h"
#include "pipeline/check_jobs.h"
#include "pipeline/grade_perf.h"
#include "run/emureport.h"
#include "run/gpuqueue.h"
#include "run/runs_replay.h"
#include "run/sanitizer.h"
#include "score/checks.h"
#include "util/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Why checked runs that left no statistics could check nothing, when some
 * did not end (a killed run leaves no report): else NULL, and the checks say
 * that no kernel was launched. */
static const char *unended_checked_runs(const check_evidence_t *e, const ds_run_t *runs, int n)
{
    if (e->instrumented_runs > 0)
        return NULL;
    for (int i = 0; i < n; i++)
        if (check_run_did_not_end(&runs[i]))
            return "no checked run ended: each passed its time limit or was not run once the "
                   "time budget was used up, and a run stopped that way leaves no report to "
                   "check";
    return NULL;
}

static void gather_evidence(check_evidence_t *e, const ds_run_t *runs, int n)
{
    for (int i = 0; i < n; i++) {
        if (!runs[i].started)
            continue;
        emu_report_t rep;
        emu_report_read(runs[i].diag_path, &rep);
        char label[128];
        job_test_name(runs[i].job, label, sizeof label);
        int completed = runs[i].result.exited && runs[i].result.exit_code == 0;
        evidence_add(e, label, &rep, completed ? runs[i].job->flop : 0);
        emu_report_free(&rep);
    }
}

/* On the gpu backend the checks come from a checked emulator build run on
 * the small datasets whose GPU run (gpu_runs) ended (check_jobs.h). Returns
 * NULL, or why the checks could not run; *unended: why its runs gave no
 * evidence, when none of them ended (unended_checked_runs). */
static const char *check_on_emulator(const grade_opts_t *o, grade_run_t *run,
                                     const grading_inputs_t *in, const ds_job_t *jobs,
                                     const ds_run_t *gpu_runs, checked_build_t *cb,
                                     check_evidence_t *e, strbuf_t *why, int *fault,
                                     const char **unended)
{
    const lab_t *lab = &in->lab;
    int n = in->njobs, nchecked, left_out;
    ds_job_t *checked = check_jobs_pick(jobs, gpu_runs, n, &nchecked, &left_out);
    if (nchecked == 0 && n > 0) {
        free(checked);
        sb_appendf(why, "none of the %d datasets ended on the GPU (each passed its time limit or "
                        "was not run once the time budget was used up), and a kernel that does "
                        "not end would only spin the CPU emulator, which runs the checks, to its "
                        "limit too", n);
        return sb_str(why);
    }
    if (left_out > 0) {
        char note[160];
        snprintf(note, sizeof note, "%d small dataset%s not run on the checked emulator: %s GPU "
                 "run did not end", left_out, left_out == 1 ? "" : "s", left_out == 1 ? "its" : "their");
        measured_add_note(&run->measured, "checks_left_out", note);
    }
    build_result_t br;
    double built_s;
    if (checked_build_take(cb, &br, &built_s) != 0) { /* built beside the GPU runs, or now */
        free(checked);
        return "cannot create a scratch folder for the emulator build";
    }
    run->phase_s[PHASE_EMU_BUILD] += built_s;
    if (!br.ok) { /* the emulator's fault, unless its reference build passes */
        if (br.internal_error)
            fault_of_build(&br, "", run->error, sizeof run->error);
        *fault = br.internal_error || grade_vouch(o, run, in, BACKEND_EMU, 1) != 0;
        sb_appendf(why, "the CPU emulator, which runs the checks, could not build this file:\n%s",
                   br.log ? br.log : "");
        build_result_free(&br);
        free(checked);
        return sb_str(why);
    }
    runs_how_t how = {.lab = lab, .program = br.program, .scratch = cb->scratch, .prefix = "check",
                      .max_parallel = o->jobs > 0 ? o->jobs : cpu_count(),
                      .budget_s = run->budget_s};
    how.not_after = runs_not_after(run->budget_s);
    double t0 = now_seconds();
    ds_run_t *runs = runs_execute(checked, nchecked, &how);
    run->phase_s[PHASE_EMU_CHECKS] += now_seconds() - t0;
    gather_evidence(e, runs, nchecked);
    *unended = unended_checked_runs(e, runs, nchecked);
    runs_free(runs, nchecked);
    free(checked);
    build_result_free(&br);
    return NULL;
}

/* On the gpu backend, compute-sanitizer adds its findings from the real GPU
 * on the smallest dataset of the best tier the lab kind gives (matmul: sides
 * not multiples of the tile, several tile phases if there is one) that ran
 * to its end (an endless loop would only hang the sanitizer too).
 * It runs only where the emulator's checked runs gave no evidence (the
 * caller sees to it): their
 * findings (out-of-bounds and uninitialized accesses, races, barriers) are
 * the same checks as memcheck's, initcheck's, racecheck's and synccheck's,
 * made on every small dataset; the sanitizer, the costliest part of a GPU
 * grading, holds the GPU's queue while it runs, for one dataset. */
static void sanitize_on_gpu(check_evidence_t *e, const ds_run_t *runs, int n, const lab_t *lab)
{
    int best = -1, best_tier = 0;
    for (int i = 0; i < n; i++) {
        if (!runs[i].started || !runs[i].result.exited || runs[i].job->load_failed)
            continue;
        int tier = lab->kind->sanitize_tier(&runs[i].job->data, lab->tile_width);
        if (tier > best_tier || (tier == best_tier && tier > 0 &&
                                 runs[i].job->flop < runs[best].job->flop)) {
            best = i;
            best_tier = tier;
        }
    }
    if (best < 0)
        return;
    const ds_run_t *r = &runs[best];
    unsigned tools = SANITIZER_ALL;
    emu_report_t rep;
    memset(&rep, 0, sizeof rep);
    /* the sanitizers slow a program down 10-100x; never past 20 time limits */
    double limit = r->job->rule.time_limit_s * 20, slowed = 60 + 100 * r->result.wall_s;
    if (sanitizer_check_run(r, slowed < limit ? slowed : limit, tools, &rep) != 0)
        return; /* no compute-sanitizer here: the emulator's findings stand alone */
    char label[256], named[96];
    job_test_name(r->job, label, sizeof label);
    sanitizer_tools_named(tools, named, sizeof named);
    snprintf(label + strlen(label), sizeof label - strlen(label), " under compute-sanitizer %s",
             named);
    evidence_add(e, label, &rep, 0);
    emu_report_free(&rep);
}

/* vgpu with a GPU: the first dataset whose output passed on the executor
 * and not on the GPU (computed otherwise there, or a kernel failed: its
 * failure "gpu-differs" or "gpu-failed", compare/verdict.c) is replayed
 * again under compute-sanitizer's four tools, by the same trusted runner
 * and with no student host code: what they find on the real GPU (a race,
 * an uninitialised read, a bad access) is evidence for the checks, and for
 * the cause the dataset's message could only guess at. One dataset at
 * most, holding the GPU shared: the sanitizers slow the kernels 10-100x. */
static void sanitize_gpu_disagreement(const grade_opts_t *o, grade_run_t *run, check_evidence_t *e,
                                      const ds_run_t *runs, int n, const lab_t *lab)
{
    int i = 0;
    while (i < n && i < run->measured.ndatasets &&
           !(runs[i].replay.ran && strncmp(run->measured.datasets[i].failure, "gpu-", 4) == 0))
        i++;
    if (i >= n || i >= run->measured.ndatasets)
        return;
    const ds_run_t *r = &runs[i];
    char out[PATH_MAX + 32];
    snprintf(out, sizeof out, "%.4000s.sanitized.%s", r->dir, lab_is_program(lab) ? "raw" : "bin");
    runs_replay_argv_t a;
    if (runs_replay_command(r, lab, r->replay.runner, r->replay.cubin, out, &a) != 0)
        return;
    emu_report_t rep;
    memset(&rep, 0, sizeof rep);
    double limit = r->job->rule.time_limit_s * 20;
    gpu_slot_t slot;
    gpu_queue_join(o->gpu_queue, o->gpu_index, GPU_SHARED, &slot);
    double t0 = now_seconds();
    int ran = sanitizer_check_command(a.argv, run->scratch, limit > 60 ? limit : 60, SANITIZER_ALL, &rep) == 0;
    run->phase_s[PHASE_SANITIZER] += now_seconds() - t0;
    gpu_queue_leave(&slot);
    if (!ran)
        return; /* no compute-sanitizer here: the executor's findings stand alone */
    char label[256], named[96];
    job_test_name(r->job, label, sizeof label);
    sanitizer_tools_named(SANITIZER_ALL, named, sizeof named);
    snprintf(label + strlen(label), sizeof label - strlen(label),
             " replayed on the GPU under compute-sanitizer %s", named);
    evidence_add(e, label, &rep, 0);
    emu_report_free(&rep);
}

/* What the checks are judged from: every report of their runs, kept in
 * run->measured (evidence_add records them), or why they did not run; -1
 * on a grader fault (run->error). */
int grade_measure_checks(const grade_opts_t *o, grade_run_t *run, const grading_inputs_t *in,
                         const ds_job_t *jobs, const ds_run_t *runs, int compiled,
                         checked_build_t *cb)
{
    if (!rubric_has_checks(&in->rub))
        return 0;
    int fault = 0;
    check_evidence_t e;
    memset(&e, 0, sizeof e);
    e.record = &run->measured.evidence;
    run->measured.checks_measured = 1;
    strbuf_t why = {0};
    const char *not_run = NULL, *unended = NULL;
    if (!o->checks)
        not_run = "the checks were switched off (--checks none)";
    else if (!compiled)
        not_run = "does not compile";
    else if (backend_checks_itself(run->backend)) { /* the emulator's or the executor's findings */
        gather_evidence(&e, runs, in->njobs);
        not_run = unended_checked_runs(&e, runs, in->njobs);
        if (run->backend == BACKEND_VGPU && run->replay_runner[0])
            sanitize_gpu_disagreement(o, run, &e, runs, in->njobs, &in->lab);
    } else if ((not_run = check_on_emulator(o, run, in, jobs, runs, cb, &e, &why, &fault,
                                            &unended)) == NULL &&
               e.instrumented_runs == 0 && !e.refused) {
        /* the emulator's runs gave no evidence (none refused either: a refused
         * report fails the checks whatever the sanitizer finds, checks.h) */
        gpu_slot_t slot;
        double t0 = now_seconds();
        gpu_queue_join(o->gpu_queue, o->gpu_index, GPU_SHARED, &slot);
        run->phase_s[PHASE_GPU_WAIT] += slot.waited_s;
        sanitize_on_gpu(&e, runs, in->njobs, &in->lab);
        gpu_queue_leave(&slot);
        run->phase_s[PHASE_SANITIZER] += now_seconds() - t0;
        if (e.instrumented_runs == 0)
            not_run = unended; /* NULL unless the emulator's runs did not end */
    }
    measured_set(&run->measured.checks_not_run, not_run);
    sb_free(&why);
    evidence_free(&e);
    return fault ? -1 : 0;
}
