/* runs_grouped.c - the datasets of one program in the driver's list mode
 * (runs_grouped.h): one process for all of them, split back into one result
 * per dataset at its markers; after a stop the rest in a new process, after
 * crashes one a process side by side (lanes). */
#include "run/runs_grouped.h"
#include "run/group_split.h"
#include "run/runs_ahead.h"
#include "run/runs_separate.h"
#include "util/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define TAIL_MARK "\ncugrade-timing-begin\n" /* before the timing tail (harness.h) */


/* ---- the timing tail: the datasets, then the timing, in one process ---- */

typedef struct {
    const group_t *g;
    const ds_run_t *runs;
    int n;
    const runs_how_t *how;
} tail_judge_t;

/* A "T" from the group process: every dataset ended with status 0 by the
 * report channel's markers (which the submission cannot write), and the
 * caller's judge finds their outputs right. */
static int judge_tail(void *ctx)
{
    const tail_judge_t *j = ctx;
    size_t len = 0;
    char *report = read_file(j->g->report, &len, NULL, 0);
    group_part_t *parts = calloc((size_t)j->n, sizeof *parts);
    int ok = report && parts && group_split(report, len, 0, parts, j->n) == j->n;
    for (int i = 0; ok && i < j->n; i++)
        ok = parts[i].state == GROUP_ENDED && parts[i].exit_code == 0 &&
             parts[i].term_signal == 0;
    if (parts)
        group_parts_free(parts, j->n);
    free(parts);
    free(report);
    return ok && j->how->tail_judge(j->how->tail_ctx, j->runs);
}

/* Where the marker's last copy begins in text (NULL: none). */
static char *last_mark(char *text, size_t len)
{
    char *last = NULL;
    for (char *p = text; p && (size_t)(p - text) < len;) {
        p = memmem(p, len - (size_t)(p - text), TAIL_MARK, strlen(TAIL_MARK));
        if (p)
            last = p++;
    }
    return last;
}

/* After a process with the tail: its ending for the tail, and once it timed,
 * the tail's part of the report channel (after its marker, which only the
 * harness writes) into how->tail_report, and of stdout (after the marker's
 * last copy) into the tail's output; the datasets keep what came before. */
static void take_tail(const group_t *g, run_result_t *proc, const runs_how_t *how)
{
    run_tail_t *tail = how->tail;
    tail->proc = *proc;
    tail->proc.output = NULL;
    tail->proc.output_len = 0;
    if (!tail->turn.granted)
        return;
    size_t len = 0;
    char *report = read_file(g->report, &len, NULL, 0);
    char *mark = report ? memmem(report, len, TAIL_MARK, strlen(TAIL_MARK)) : NULL;
    size_t at = mark ? (size_t)(mark - report) : len, from = mark ? at + strlen(TAIL_MARK) : len;
    write_file_atomic(how->tail_report, report ? report + from : "", len - from, NULL, 0);
    if (mark)
        write_file_atomic(g->report, report, at, NULL, 0);
    free(report);
    char *out = proc->output ? last_mark(proc->output, proc->output_len) : NULL;
    if (out) {
        tail->proc.output = strdup(out + strlen(TAIL_MARK));
        tail->proc.output_len = strlen(tail->proc.output);
        *out = '\0';
        proc->output_len = (size_t)(out - proc->output);
    }
}

/* One group process; with tail, the first that runs every dataset of a timed
 * driver, offered the timing tail. */
static void run_group(const group_t *g, const ds_run_t *runs, const int *index, int n,
                      const runs_how_t *how, int tail, run_result_t *proc, double *paused_s)
{
    *paused_s = 0;
    char *argv[GROUP_ARGV_MAX];
    const char *shown[2];
    run_spec_t spec = group_spec(g, runs, index, n, how, tail, argv, shown);
    gpu_turn_stats_t st;
    gpu_turns_t *turns =
        runs_on_a_gpu(how) ? gpu_turns_open(how->gpu_queue, how->gpu_index, &st) : NULL;
    if (!turns) { /* a timing tail never asked for is answered by nobody: no tail */
        run_one(&spec, proc);
        if (tail)
            take_tail(g, proc, how);
        return;
    }
    tail_judge_t judge = {g, runs, n, how};
    if (tail)
        gpu_turns_offer_tail(turns, judge_tail, &judge, &how->tail->turn);
    gpu_turns_give(turns, &spec);
    run_one(&spec, proc);
    gpu_turns_close(turns, &spec);
    /* its start and its waits for the GPU move its budget's end on */
    runs_add_stats(how, &st);
    *paused_s = st.paused_s;
    if (tail)
        take_tail(g, proc, how);
}

/* Its own output, kept to its own cap as a separate run's would be. */
static void give_output(run_result_t *rr, const group_part_t *p, size_t cap)
{
    size_t keep = p->output_len < cap ? p->output_len : cap;
    rr->output = malloc(keep + 1);
    memcpy(rr->output, p->output, keep);
    rr->output[keep] = '\0';
    rr->output_len = keep;
    rr->output_total = p->output_len;
    rr->output_truncated = keep < p->output_len;
}

/* A dataset that reached its end marker; one the student's crash ended
 * ("signal") reads as a separate run killed by that signal would. */
static void set_ended(ds_run_t *r, const group_part_t *p)
{
    r->result = (run_result_t){.started = 1, .exited = 1, .exit_code = p->exit_code,
                               .wall_s = p->wall_s};
    if (p->term_signal > 0) {
        r->result.exited = 0;
        r->result.exit_code = 0;
        r->result.signaled = 1;
        r->result.term_signal = p->term_signal;
    }
    give_output(&r->result, p, runs_output_cap(r));
}

/* The dataset the process ended in gets its ending (or the watchdog's). */
static void set_stopped(ds_run_t *r, const group_part_t *p, const run_result_t *proc,
                        double ended_s)
{
    run_result_t *rr = &r->result;
    *rr = (run_result_t){.started = 1};
    if (p->state == GROUP_TIMED_OUT) {
        rr->timed_out = 1;
        rr->wall_s = r->spec.timeout_s;
    } else {
        rr->exited = proc->exited;
        rr->exit_code = proc->exit_code;
        rr->signaled = proc->signaled;
        rr->term_signal = proc->term_signal;
        rr->timed_out = proc->timed_out;
        rr->budget_out = proc->budget_out;
        rr->wall_s = proc->wall_s > ended_s ? proc->wall_s - ended_s : 0;
    }
    give_output(rr, p, runs_output_cap(r));
}

typedef enum { NEXT_GROUP, NEXT_FIRST_ALONE, NEXT_ALL_SEPARATELY } next_step_t;

/* The group's report channel split at its markers: which datasets began,
 * ended (and in what time) or timed out, and each one's emulator lines,
 * written to its own report file. The text on stdout is split at the same
 * markers as printed there, for each dataset's output only: a submission
 * that prints markers moves text between datasets, never a verdict. A
 * dataset whose stdout was cut before its end is LOST (rerun alone for its
 * own output). */
static void split_group(const group_t *g, ds_run_t *runs, const int *index, int n,
                        const run_result_t *proc, group_part_t *parts)
{
    size_t len = 0;
    char *report = read_file(g->report, &len, NULL, 0);
    group_split(report ? report : "", report ? len : 0, 0, parts, n);
    free(report);
    group_part_t *text = calloc((size_t)n, sizeof *text);
    group_split(proc->output, proc->output_len, proc->output_truncated, text, n);
    for (int i = 0; i < n; i++) {
        const ds_run_t *r = &runs[index[i]];
        if (parts[i].state != GROUP_NOT_BEGUN)
            write_file_atomic(r->diag_path, parts[i].output, parts[i].output_len, NULL, 0);
        if (text[i].state == GROUP_LOST && parts[i].state == GROUP_ENDED)
            parts[i].state = GROUP_LOST;
        free(parts[i].output);
        parts[i].output = text[i].output;
        parts[i].output_len = text[i].output_len;
        text[i].output = NULL;
    }
    group_parts_free(text, n);
    free(text);
}

/* Gives the runs of one group process their results, from the first on, up
 * to the first that did not end; *settled: how many have one. */
static next_step_t settle_group(const group_t *g, ds_run_t *runs, const int *index, int n,
                                const run_result_t *proc, int *settled)
{
    *settled = 0;
    if (!proc->started && !proc->budget_out)
        return NEXT_ALL_SEPARATELY;
    if (!proc->started) { /* the budget was used up: none of them runs */
        for (int i = 0; i < n; i++)
            runs[index[i]].result = (run_result_t){.budget_out = 1, .output = strdup("")};
        *settled = n;
        return NEXT_GROUP;
    }
    group_part_t *parts = calloc((size_t)n, sizeof *parts);
    split_group(g, runs, index, n, proc, parts);
    double ended_s = 0;
    int i = 0;
    for (; i < n && parts[i].state == GROUP_ENDED; i++) {
        set_ended(&runs[index[i]], &parts[i]);
        ended_s += parts[i].wall_s;
    }
    next_step_t next = NEXT_GROUP;
    *settled = i;
    if (i < n) {
        group_state_t st = parts[i].state;
        if (st == GROUP_TIMED_OUT || (st == GROUP_STOPPED && (i == 0 || proc->timed_out))) {
            set_stopped(&runs[index[i]], &parts[i], proc, ended_s);
            *settled = i + 1;
        } else if (i == 0) {
            next = st == GROUP_LOST ? NEXT_FIRST_ALONE : NEXT_ALL_SEPARATELY;
        }
    }
    group_parts_free(parts, n);
    free(parts);
    return next;
}

/* ---- lanes: after crashes, the rest one dataset a process, side by side ---- */

#define LANES_AFTER_CRASHES 2 /* group processes that crashed before their list's end */
#define LANES_ON_A_GPU 4      /* lanes side by side on a GPU (its runs wait, not compute) */

typedef struct {
    group_t g;
    char *argv[GROUP_ARGV_MAX];
    const char *shown[2];
    gpu_turns_t *turns;
    gpu_turn_stats_t st;
} lane_t;

/* How many lanes side by side: 0 where lanes would not save time. */
static int lane_width(const runs_how_t *how)
{
    int width = runs_on_a_gpu(how) ? LANES_ON_A_GPU : how->max_parallel;
    return width >= 2 ? width : 0;
}

/* Lane k of group g: the same working folder, its own list and report. */
static int open_lane(lane_t *l, const group_t *g, int k, const ds_run_t *runs, const int *one)
{
    l->g = *g;
    snprintf(l->g.list, sizeof l->g.list, "%.4000s.lane%d", g->list, k);
    snprintf(l->g.report, sizeof l->g.report, "%.4000s.lane%d", g->report, k);
    return group_write_list(&l->g, runs, one, 1, NULL);
}

/* A program that crashed on dataset after dataset (a host segfault, a launch
 * error that ends it) would cost a process start, a CUDA context and a wait
 * for the GPU for each, one after another: seconds each on a busy GPU. Its
 * remaining datasets run each in its own process of the list mode, `width`
 * at a time; each keeps its own limit, budget and verdict. Not for time
 * outs: hung kernels side by side would hold the GPU longer, not shorter. */
static void run_in_lanes(ds_run_t *runs, const int *index, int n, const runs_how_t *how,
                         const group_t *g, int width)
{
    lane_t *lanes = calloc((size_t)n, sizeof *lanes);
    run_spec_t *specs = calloc((size_t)n, sizeof *specs);
    run_result_t *procs = calloc((size_t)n, sizeof *procs);
    int *alone = calloc((size_t)n, sizeof *alone), nalone = 0; /* run separately instead */
    int *in_lane = calloc((size_t)n, sizeof *in_lane), nlanes = 0;
    for (int i = 0; i < n; i++) {
        lane_t *l = &lanes[nlanes];
        if (open_lane(l, g, i, runs, &index[i]) != 0) {
            alone[nalone++] = index[i];
            continue;
        }
        runs_forget_attempt(&runs[index[i]]);
        specs[nlanes] = group_spec(&l->g, runs, &index[i], 1, how, 0, l->argv, l->shown);
        if (runs_on_a_gpu(how) &&
            (l->turns = gpu_turns_open(how->gpu_queue, how->gpu_index, &l->st)))
            gpu_turns_give(l->turns, &specs[nlanes]);
        in_lane[nlanes++] = index[i];
    }
    run_many(specs, procs, nlanes, width);
    for (int k = 0; k < nlanes; k++) {
        lane_t *l = &lanes[k];
        if (l->turns) {
            gpu_turns_close(l->turns, &specs[k]);
            runs_add_stats(how, &l->st);
        }
        int settled;
        next_step_t next = settle_group(&l->g, runs, &in_lane[k], 1, &procs[k], &settled);
        run_result_free(&procs[k]);
        if (next != NEXT_GROUP || settled == 0)
            alone[nalone++] = in_lane[k];
    }
    if (nalone > 0)
        runs_separately(runs, alone, nalone, how);
    free(in_lane);
    free(alone);
    free(procs);
    free(specs);
    free(lanes);
}

/* Whether the dataset a group process stopped at ended it by a crash (its
 * own ending, not a limit). */
static int stopped_by_a_crash(const ds_run_t *r)
{
    return r->result.started && !r->result.timed_out && !r->result.budget_out &&
           (r->result.signaled || (r->result.exited && r->result.exit_code != 0));
}

/* How many of runs index[0..n) ran past their own time limit. */
static int count_timeouts(const ds_run_t *runs, const int *index, int n)
{
    int k = 0;
    for (int i = 0; i < n; i++)
        k += runs_timed_out(&runs[index[i]].result);
    return k;
}

/* The runs index[0..n) grouped, again and again until each has a result.
 * After a time-out the next process may have begun already, beside the one
 * that timed out (runs_ahead.h): then it is the next. */
void runs_grouped(ds_run_t *runs, const int *index, int n, const runs_how_t *caller_how,
                        const group_t *g)
{
    runs_how_t moved = *caller_how, *how = &moved; /* its budget's end moves on by the waits */
    int crashes = 0, timeouts = 0, taken = 0; /* taken: proc and its group came from ahead */
    int tail = how->tail_args && how->tail && how->tail_judge && runs_on_a_gpu(how);
    run_result_t proc;
    group_t retry;
    double paused = 0;
    if (how->tail)
        memset(how->tail, 0, sizeof *how->tail);
    for (int from = 0; from < n;) {
        const int *pending = index + from;
        int np = n - from, settled;
        if (how->timeouts_max > 0 && timeouts >= how->timeouts_max) {
            for (int i = 0; i < np; i++) {
                runs_forget_attempt(&runs[pending[i]]);
                runs[pending[i]].result = runs_not_run_after(timeouts);
            }
            break;
        }
        if (crashes >= LANES_AFTER_CRASHES && np > 1 && lane_width(how) > 0) {
            run_in_lanes(runs, pending, np, how, g, lane_width(how));
            break;
        }
        /* one dataset left runs alone, but on a GPU still in the list mode,
         * which makes its CUDA context before the dataset's clock starts */
        if (!taken &&
            ((np == 1 && !runs_on_a_gpu(how)) || group_write_list(g, runs, pending, np, NULL) != 0)) {
            runs_separately(runs, pending, np, how);
            break;
        }
        const group_t *ran = taken ? &retry : g;
        ahead_t ahead = {.watching = 0};
        if (!taken) {
            for (int i = 0; i < np; i++)
                runs_forget_attempt(&runs[pending[i]]);
            int with_tail = tail && from == 0; /* the first process, which runs every dataset */
            if (with_tail)
                how->tail->offered = 1;
            ahead_watch(&ahead, g, runs, pending, np, how, timeouts);
            run_group(g, runs, pending, np, how, with_tail, &proc, &paused);
            ahead_stop(&ahead);
        }
        taken = 0;
        if (how->not_after > 0)
            how->not_after += paused;
        next_step_t next = settle_group(ran, runs, pending, np, &proc, &settled);
        run_result_free(&proc);
        if (ran == &retry)
            unlink(retry.report); /* split into the runs' own reports */
        int timed_out = next == NEXT_GROUP && settled > 0 &&
                        runs_timed_out(&runs[pending[settled - 1]].result);
        taken = ahead_take(&ahead, settled, timed_out, &proc, &retry, &paused);
        if (next == NEXT_ALL_SEPARATELY) {
            runs_separately(runs, pending, np, how);
            break;
        }
        if (next == NEXT_FIRST_ALONE) { /* it overflowed the group's output cap on its own */
            runs_separately(runs, pending, 1, how);
            settled = 1;
        }
        if (settled > 0 && settled < np && stopped_by_a_crash(&runs[pending[settled - 1]]))
            crashes++;
        timeouts += count_timeouts(runs, pending, settled);
        from += settled;
    }
    if (taken) /* not needed after all */
        run_result_free(&proc);
}

