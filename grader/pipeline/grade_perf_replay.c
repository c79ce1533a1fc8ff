/* grade_perf_replay.c - the vgpu backend's performance on a machine with a
 * GPU (grade_perf_replay.h; issue 39, item 5): each timing shape's launches
 * recorded by the executor without running them (cugrade-vgpu --dry), the
 * submission's and the reference's, on the same fresh inputs; then the GPU's
 * trusted runner times the two records against each other, interleaved,
 * and checks every output of the submission's against the reference's;
 * a lab measured against cuBLAS has the runner time cuBLAS's SGEMM on the
 * same inputs too.
 * The student's host code only talks to the executor: what is timed is the
 * kernels, on the GPU, from the grader's process. */
#include "pipeline/grade_perf_replay.h"
#include "kinds/kind.h"
#include "pipeline/perf_library.h"
#include "pipeline/vgpu_budget.h"
#include "run/gpuqueue.h"
#include "run/runs.h"
#include "util/util.h"

#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#define REPLAY_REPS 15

int grade_perf_replay_fits(const grading_inputs_t *in)
{
    const lab_t *lab = &in->lab;
    return !lab_is_program(lab) && lab->kind->timing_inputs &&
           (!lab->kind->vgpu_out_returned || lab->kind->timing_compare) &&
           (in->rub.performance.relative_to != PERF_VS_CUBLAS || lab->kind->cublas_baseline);
}

/* The shape's dataset: its inputs, fresh from a seed nobody knows before. */
static int timing_job(const lab_t *lab, const char *shape, int i, const char *scratch, double limit,
                      ds_job_t *j, char *err, size_t errlen)
{
    uint64_t seed = 0;
    if (getrandom(&seed, sizeof seed, 0) != (ssize_t)sizeof seed)
        seed = (uint64_t)(now_seconds() * 1e6);
    memset(j, 0, sizeof *j);
    if (lab->kind->timing_inputs(lab, shape, seed, &j->data, err, errlen) != 0)
        return -1;
    snprintf(j->ref.name, sizeof j->ref.name, "timing-%d", i);
    snprintf(j->ref.dir, sizeof j->ref.dir, "%.3000s/timing-shapes/%d", scratch, i);
    snprintf(j->shape, sizeof j->shape, "%.60s", shape);
    j->flop = lab->kind->flop(lab, &j->data);
    j->rule.time_limit_s = limit;
    return mkdir_p(j->ref.dir, err, errlen);
}

/* The records of program (PTX ptx) on the shapes' jobs: runs[i]'s
 * <out_path>.trace. The runs, or NULL (err: why). */
static ds_run_t *record(const lab_t *lab, const char *program, const char *ptx, const char *scratch,
                        const char *prefix, const ds_job_t *jobs, int n)
{
    runs_how_t how = {.lab = lab, .program = program, .scratch = scratch, .prefix = prefix,
                      .max_parallel = 1, .ptx = ptx, .dry = 1};
    return runs_execute(jobs, n, &how);
}

/* What the runner's timing file says of one implementation, as the timing
 * program's (perf_result.h); its rate from the shape's work. */
static int read_impl(json_object *o, const lab_t *lab, const ds_job_t *j, const char *unit, perf_impl_t *im)
{
    json_object *v;
    memset(im, 0, sizeof *im);
    if (!json_object_object_get_ex(o, "name", &v))
        return -1;
    snprintf(im->name, sizeof im->name, "%s", json_object_get_string(v));
    const char *keys[] = {"median_ms", "q1_ms", "mean_ms", "rse"};
    double *vals[] = {&im->median_ms, &im->q1_ms, &im->mean_ms, &im->rse};
    for (int k = 0; k < 4; k++) {
        if (!json_object_object_get_ex(o, keys[k], &v))
            return -1;
        *vals[k] = json_object_get_double(v);
    }
    if (!json_object_object_get_ex(o, "reps", &v))
        return -1;
    im->reps = json_object_get_int(v);
    if (json_object_object_get_ex(o, "wrong", &v))
        im->wrong = json_object_get_int64(v);
    if (json_object_object_get_ex(o, "wrong_reps", &v))
        im->wrong_reps = json_object_get_int(v), im->has_wrong_reps = 1;
    im->gate = PERF_UNGATED; /* no host code is timed: there is no launch to gate */
    double work = j->flop, flop, bytes;
    if (strcmp(unit, "GB/s") == 0 && lab->kind->shape_work && lab->kind->shape_work(lab, j->shape, &flop, &bytes) == 0)
        work = bytes; /* the compulsory traffic: every array read or written once */
    else if (strcmp(unit, "GB/s") == 0) { /* the bytes of the inputs, read once */
        work = 0;
        for (int i = 0; i < j->data.ninputs; i++)
            work += 4.0 * j->data.inputs[i].rows * j->data.inputs[i].cols;
    }
    im->rate = im->q1_ms > 0 ? work / (im->q1_ms * 1e6) : 0;
    return im->q1_ms > 0 && im->reps > 0 ? 0 : -1;
}

static int read_shape(const char *path, const lab_t *lab, const ds_job_t *j, const char *unit, perf_result_t *pr,
                      char *err, size_t errlen)
{
    json_object *root = json_object_from_file(path), *impls, *dev;
    perf_shape_t *s = &pr->shapes[pr->nshapes];
    memset(s, 0, sizeof *s);
    snprintf(s->shape, sizeof s->shape, "%s", j->shape);
    int rc = root && json_object_object_get_ex(root, "impls", &impls) ? 0 : -1;
    for (size_t i = 0; rc == 0 && i < json_object_array_length(impls) && s->nimpls < PERF_MAX_IMPLS; i++)
        rc = read_impl(json_object_array_get_idx(impls, i), lab, j, unit, &s->impls[s->nimpls++]);
    if (rc == 0 && json_object_object_get_ex(root, "device", &dev))
        snprintf(pr->device, sizeof pr->device, "%s", json_object_get_string(dev));
    json_object *v;
    if (rc == 0 && json_object_object_get_ex(root, "sm_clock_mhz", &v))
        pr->sm_clock_mhz = json_object_get_double(v);
    if (rc == 0 && json_object_object_get_ex(root, "sms", &v))
        pr->sms = json_object_get_int(v);
    if (rc == 0 && json_object_object_get_ex(root, "l2_bytes", &v))
        pr->l2_bytes = json_object_get_int(v);
    if (rc == 0 && json_object_object_get_ex(root, "driver_version", &v))
        pr->driver_version = json_object_get_int(v);
    if (rc == 0 && json_object_object_get_ex(root, "bandwidth_gbs", &v))
        pr->bandwidth_gbs = json_object_get_double(v);
    if (rc == 0 && json_object_object_get_ex(root, "compute_capability", &v))
        perf_set_compute_capability(pr, json_object_get_string(v));
    json_object_put(root);
    if (rc != 0)
        snprintf(err, errlen, "%s: not the runner's timing file", path);
    else
        pr->nshapes++;
    return rc;
}

/* The runner on one shape: 1 timed, 0 a kernel of the submission's failed
 * there or ran past the time (msg says so), -1 the runner's fault (err). */
static int time_shape(const grade_opts_t *o, const char *runner, const char *cubin, const char *ref_cubin, const lab_t *lab,
                      const ds_run_t *st, const ds_run_t *ref, const perf_rule_t *rule, const char *timing,
                      strbuf_t *msg, char *err, size_t errlen)
{
    char trace[PATH_MAX + 8], ref_trace[PATH_MAX + 8], inputs[PATH_MAX + 8], out[PATH_MAX + 16];
    char reps[16], rtol[32], atol[32], cap[32];
    snprintf(trace, sizeof trace, "%.4000s.trace", st->out_path);
    snprintf(ref_trace, sizeof ref_trace, "%.4000s.trace", ref->out_path);
    if (!is_file(ref_trace)) {
        snprintf(err, errlen, "the reference's launches at %s were not recorded:\n%.1500s", st->job->shape,
                 ref->result.output ? ref->result.output : ref->error);
        return -1;
    }
    if (!is_file(trace)) {
        sb_appendf(msg, "not timed: at %s your program's launches were not recorded (%s)\n", st->job->shape,
                   st->started ? "it failed before its kernels ran" : st->error);
        return 0;
    }
    snprintf(inputs, sizeof inputs, "%.4000s.in", st->dir);
    snprintf(out, sizeof out, "%.4000s.gpu.bin", st->dir);
    snprintf(reps, sizeof reps, "%d", REPLAY_REPS);
    int sum = 0;
    double rt = lab->tol.rtol, at = lab->tol.atol;
    if (lab->kind->timing_compare)
        lab->kind->timing_compare(lab, &st->job->data, &sum, &rt, &at);
    snprintf(rtol, sizeof rtol, "%.17g", rt);
    snprintf(atol, sizeof atol, "%.17g", at);
    char *argv[24] = {(char *)runner, "--inputs", inputs, "--repeat", reps, "--timing", (char *)timing,
                      "--reference", (char *)ref_cubin, ref_trace, "--compare", sum ? "sum" : "elements",
                      "--rtol", rtol, "--atol", atol};
    snprintf(cap, sizeof cap, "%g", rule->time_cap_s);
    int n = 16;
    argv[n++] = "--time-cap", argv[n++] = cap; /* a launch past it: the runner says which, and ends */
    if (rule->relative_to == PERF_VS_CUBLAS) /* cuBLAS's SGEMM timed beside the two records */
        argv[n++] = "--cublas";
    argv[n++] = (char *)cubin, argv[n++] = trace, argv[n++] = out, argv[n] = NULL;
    run_spec_t spec = {.argv = argv, .timeout_s = rule->time_cap_s + 60, .file_limit_bytes = (size_t)4 << 30};
    run_result_t rr;
    gpu_slot_t slot; /* alone on the GPU, in its queue when the grading has one */
    gpu_queue_join(o->gpu_queue, o->gpu_index, GPU_EXCLUSIVE, &slot);
    run_one(&spec, &rr);
    gpu_queue_leave(&slot);
    int rc = rr.exited && rr.exit_code == 0 ? 1 : -1;
    if (rr.timed_out || (rr.exited && rr.exit_code == 1)) {
        sb_appendf(msg, "not timed: at %s, replayed on the GPU, %s\n", st->job->shape,
                   rr.timed_out ? "your kernels ran past the time limit" : rr.output ? rr.output : "");
        rc = 0;
    } else if (rc < 0) {
        snprintf(err, errlen, "bin/cugrade-replay could not time %s:\n%.1500s", st->job->shape,
                 rr.output ? rr.output : "");
    }
    run_result_free(&rr);
    return rc;
}

int grade_perf_replay(const grade_opts_t *o, const grading_inputs_t *in, const char *scratch,
                      const char *program, const char *ptx, const char *cubin, const char *runner,
                      strbuf_t *msg, perf_result_t *pr, char *err, size_t errlen)
{
    const perf_rule_t *rule = &in->rub.performance;
    const lab_t *lab = &in->lab;
    memset(pr, 0, sizeof *pr);
    build_result_t ref;
    if (vgpu_reference_build(o, lab, scratch, &ref, err, errlen) != 0)
        return -1;
    if (!ref.cubin[0]) {
        snprintf(err, errlen, "the reference's executor build kept no cubin for the GPU");
        return -1;
    }
    ds_job_t *jobs = calloc((size_t)rule->nshapes + 1, sizeof *jobs);
    int rc = 1;
    for (int i = 0; rc == 1 && i < rule->nshapes; i++)
        if (timing_job(lab, rule->shapes[i], i, scratch, rule->time_cap_s + 30, &jobs[i], err, errlen) != 0)
            rc = -1;
    ds_run_t *mine = rc == 1 ? record(lab, program, ptx, scratch, "timed", jobs, rule->nshapes) : NULL;
    ds_run_t *theirs = rc == 1 ? record(lab, ref.program, ref.ptx, scratch, "timed-ref", jobs, rule->nshapes) : NULL;
    for (int i = 0; rc == 1 && i < rule->nshapes; i++) {
        char timing[PATH_MAX + 16];
        snprintf(timing, sizeof timing, "%.4000s.timing.json", mine[i].dir);
        rc = time_shape(o, runner, cubin, ref.cubin, lab, &mine[i], &theirs[i], rule, timing, msg, err, errlen);
        if (rc == 1 && read_shape(timing, lab, &jobs[i], lab->kind->rate_unit, pr, err, errlen) != 0)
            rc = -1;
    }
    if (rc == 1) {
        pr->speed_ratio = perf_speed_ratio(pr, rule->relative_to);
        sb_appendf(msg, "timed on the GPU (%s) by replaying the launches the executor recorded, "
                        "against the reference's%s, %d times each: no host code of yours ran there\n",
                   pr->device, rule->relative_to == PERF_VS_CUBLAS ? " and cuBLAS's SGEMM" : "", REPLAY_REPS);
        perf_library_time(o, lab, scratch, pr, msg); /* an array lab's library, quoted beside */
    }
    runs_free(mine, mine ? rule->nshapes : 0);
    runs_free(theirs, theirs ? rule->nshapes : 0);
    jobs_free(jobs, rule->nshapes);
    build_result_free(&ref);
    return rc;
}
