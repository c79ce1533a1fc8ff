/* runs_replay.c - the executor's launch records replayed on the GPU
 * (runs_replay.h): one runner at a time, outside the sandbox (it is the
 * grader's, and holds no student host code), bounded all the same: what
 * it runs on the GPU is the submission's. */
#include "run/runs_replay.h"
#include "run/gpuqueue.h"
#include "kinds/kind.h"
#include "util/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REPLAY_LIMIT_MIN_S 20.0 /* the driver's start, the cubin's load */

/* The runner's last line of output: what it said went wrong. */
static void last_line(const char *text, char *out, size_t len)
{
    out[0] = '\0';
    if (!text)
        return;
    size_t n = strlen(text);
    while (n > 0 && (text[n - 1] == '\n' || text[n - 1] == ' '))
        n--;
    size_t start = n;
    while (start > 0 && text[start - 1] != '\n')
        start--;
    static const char who[] = "cugrade-replay: ";
    if (n - start >= sizeof who - 1 && strncmp(text + start, who, sizeof who - 1) == 0)
        start += sizeof who - 1;
    snprintf(out, len, "%.*s", (int)(n - start), text + start);
}

int runs_replay_command(const ds_run_t *r, const lab_t *lab, const char *runner, const char *cubin,
                        const char *out, runs_replay_argv_t *a)
{
    int n = 0;
    snprintf(a->trace, sizeof a->trace, "%.4000s.trace", r->out_path);
    if (!is_file(a->trace))
        return -1; /* no record: the executor kept none (the output was not the kernels') */
    a->argv[n++] = (char *)runner;
    if (!lab_is_program(lab)) {
        snprintf(a->inputs, sizeof a->inputs, "%.4000s.in", r->dir);
        a->argv[n++] = "--inputs", a->argv[n++] = a->inputs;
    }
    a->argv[n++] = (char *)cubin;
    a->argv[n++] = a->trace;
    a->argv[n++] = (char *)out;
    a->argv[n] = NULL;
    return 0;
}

/* The runner's ending into r->replay: 1 a kernel failed there or ran past
 * the time (the submission's), 0 replayed; a fault of the runner's own is
 * counted. */
static void judge_ending(ds_run_t *r, const run_result_t *res, tally_t *faults)
{
    if (res->exited && res->exit_code == 0 && is_file(r->replay.gpu_out_path)) {
        r->replay.ran = 1;
        return;
    }
    if (res->timed_out) {
        r->replay.ran = r->replay.kernel_failed = 1;
        snprintf(r->replay.error, sizeof r->replay.error,
                 "the kernels ran past the time limit on the GPU; on the executor they ended");
        return;
    }
    if (res->exited && res->exit_code == 1) {
        r->replay.ran = r->replay.kernel_failed = 1;
        last_line(res->output, r->replay.error, sizeof r->replay.error);
        return;
    }
    r->replay.gpu_out_path[0] = '\0';
    tally_add(faults, "the GPU's replay runner", res->output, "(bin/cugrade-replay said nothing)");
}

void runs_replay(ds_run_t *runs, const int *index, int n, const runs_how_t *how, tally_t *faults)
{
    gpu_slot_t slot;
    int held = 0; /* the GPU, shared, from the first replay on */
    for (int i = 0; i < n; i++) {
        ds_run_t *r = &runs[index[i]];
        memset(&r->replay, 0, sizeof r->replay);
        if (!r->result.exited || r->result.exit_code != 0)
            continue; /* the run failed on the executor: its verdict needs no GPU */
        runs_replay_argv_t a;
        snprintf(r->replay.gpu_out_path, sizeof r->replay.gpu_out_path, "%.4000s.gpu.%s", r->dir,
                 lab_is_program(how->lab) ? "raw" : "bin");
        if (runs_replay_command(r, how->lab, how->replay_runner, how->replay_cubin, r->replay.gpu_out_path,
                                &a) != 0) {
            r->replay.gpu_out_path[0] = '\0';
            continue;
        }
        r->replay.runner = how->replay_runner, r->replay.cubin = how->replay_cubin;
        double limit = r->job->rule.time_limit_s;
        run_spec_t spec = {.argv = a.argv, .timeout_s = limit > REPLAY_LIMIT_MIN_S ? limit : REPLAY_LIMIT_MIN_S,
                           .file_limit_bytes = (size_t)1 << 30};
        run_result_t res;
        if (!held++)
            gpu_queue_join(how->replay_queue, how->gpu_index, GPU_SHARED, &slot);
        run_one(&spec, &res);
        judge_ending(r, &res, faults);
        run_result_free(&res);
    }
    if (held)
        gpu_queue_leave(&slot);
}
