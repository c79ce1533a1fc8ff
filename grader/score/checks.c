/* checks.c - turn the emulator's findings and statistics into graded checks. */
#include "score/checks.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct {
    const char *kind;
    check_id_t check;
} finding_checks[] = {
    {"race", CHECK_RACE_FREE},
    {"barrier-divergence", CHECK_BARRIERS_UNIFORM},
    {"barrier-mismatch", CHECK_BARRIERS_UNIFORM},
    {"shared-oob", CHECK_MEMORY_SAFE},
    {"global-oob", CHECK_MEMORY_SAFE},
    {"invalid-address", CHECK_MEMORY_SAFE},
    {"host-pointer", CHECK_MEMORY_SAFE},
    {"host-copy-overflow", CHECK_MEMORY_SAFE}, /* the host code's, as its runtime saw it */
    {"uninit-shared", CHECK_MEMORY_SAFE},
    {"uninit-global", CHECK_MEMORY_SAFE},
};

check_id_t check_for_finding(const char *kind)
{
    for (size_t i = 0; i < sizeof finding_checks / sizeof finding_checks[0]; i++)
        if (strcmp(finding_checks[i].kind, kind) == 0)
            return finding_checks[i].check;
    return CHECK_COUNT;
}

static void add_insight(check_evidence_t *e, const emu_report_t *r, double flop)
{
    if (flop < e->insight_flop)
        return;
    strbuf_t sb = {0};
    for (int i = 0; i < r->nfindings; i++) {
        const emu_finding_t *f = &r->findings[i];
        if (strcmp(f->severity, "info") == 0)
            sb_appendf(&sb, "%s: %s\n", f->kind, f->message);
    }
    if (sb.len == 0 && e->insight)
        return;
    free(e->insight);
    e->insight = sb_detach(&sb);
    e->insight_flop = flop;
}

/* The message without its trailing repeat count "(N times in this launch)",
 * so one bug found on several datasets reads as one finding. */
static char *normalised(const char *message)
{
    char *m = strdup(message);
    char *open = strrchr(m, '(');
    if (open && open > m && strstr(open, " times") && open[strlen(open) - 1] == ')') {
        while (open > m && open[-1] == ' ')
            open--;
        *open = '\0';
    }
    return m;
}

/* The same bug found by other threads, in other blocks or on other datasets
 * reads differently (thread, block, offset, element); what stays is the text
 * before the first " thread (" and the source lines ("matmul.cu:43") it
 * names. That is the key under which findings count as one. */
static char *bug_key(const char *message)
{
    strbuf_t key = {0};
    const char *thread = strstr(message, " thread (");
    sb_appendn(&key, message, thread ? (size_t)(thread - message) : strlen(message));
    for (const char *p = strstr(message, ".cu:"); p; p = strstr(p + 4, ".cu:")) {
        const char *start = p;
        while (start > message && (isalnum((unsigned char)start[-1]) || start[-1] == '_' ||
                                   start[-1] == '-' || start[-1] == '.'))
            start--;
        size_t len = (size_t)(p + 4 - start) + strspn(p + 4, "0123456789");
        sb_append(&key, " @");
        sb_appendn(&key, start, len);
    }
    return sb_detach(&key);
}

static void add_detail(check_evidence_t *e, check_id_t id, const char *dataset_label,
                       const char *message)
{
    char *m = normalised(message), *key = bug_key(m);
    for (int i = 0; i < e->ndetails[id]; i++) {
        if (strcmp(e->details[id][i].key, key) == 0) {
            check_detail_t *d = &e->details[id][i]; /* found again: on another dataset? */
            if (strcmp(d->last_dataset, dataset_label) != 0)
                d->datasets++;
            snprintf(d->last_dataset, sizeof d->last_dataset, "%s", dataset_label);
            free(m);
            free(key);
            return;
        }
    }
    e->distinct[id]++;
    if (e->ndetails[id] == CHECK_DETAILS_SHOWN) {
        free(m);
        free(key);
        return;
    }
    check_detail_t *d = &e->details[id][e->ndetails[id]++];
    d->message = m;
    d->key = key;
    snprintf(d->first_dataset, sizeof d->first_dataset, "%s", dataset_label);
    snprintf(d->last_dataset, sizeof d->last_dataset, "%s", dataset_label);
    d->datasets = 1;
}

static char *dup_or_die(const char *s)
{
    char *d = strdup(s ? s : "");
    if (!d) {
        fputs("cugrade: out of memory\n", stderr);
        abort();
    }
    return d;
}

void evidence_log_add(evidence_log_t *log, const char *label, const emu_report_t *r, double flop)
{
    if (log->n == log->cap) {
        int cap = log->cap ? 2 * log->cap : 16;
        evidence_run_t *runs = realloc(log->runs, (size_t)cap * sizeof *runs);
        if (!runs) {
            fputs("cugrade: out of memory\n", stderr);
            abort();
        }
        log->runs = runs;
        log->cap = cap;
    }
    evidence_run_t *run = &log->runs[log->n++];
    memset(run, 0, sizeof *run);
    run->label = dup_or_die(label);
    run->flop = flop;
    emu_report_copy(&run->report, r);
}

void evidence_replay(check_evidence_t *e, const evidence_log_t *log)
{
    evidence_log_t *record = e->record;
    e->record = record == log ? NULL : record; /* never into the log being read */
    for (int i = 0; i < log->n; i++)
        evidence_add(e, log->runs[i].label, &log->runs[i].report, log->runs[i].flop);
    e->record = record;
}

void evidence_log_free(evidence_log_t *log)
{
    for (int i = 0; i < log->n; i++) {
        free(log->runs[i].label);
        emu_report_free(&log->runs[i].report);
    }
    free(log->runs);
    memset(log, 0, sizeof *log);
}

/* A refused report (emureport.h): the first one's why and dataset, and how
 * many there were; the checks then fail on it (judge_refused). */
static void add_refusal(check_evidence_t *e, const char *dataset_label, const char *why)
{
    e->runs++;
    if (e->refused++ > 0)
        return;
    snprintf(e->refused_why, sizeof e->refused_why, "%s", why);
    snprintf(e->refused_dataset, sizeof e->refused_dataset, "%s", dataset_label);
}

void evidence_add(check_evidence_t *e, const char *dataset_label, const emu_report_t *r,
                  double flop)
{
    if (e->record)
        evidence_log_add(e->record, dataset_label, r, flop);
    if (r->refused) {
        add_refusal(e, dataset_label, r->refused_why);
        return;
    }
    int seen_here[CHECK_COUNT] = {0};
    for (int i = 0; i < r->nfindings; i++) {
        const emu_finding_t *f = &r->findings[i];
        check_id_t id = check_for_finding(f->kind);
        if (id == CHECK_COUNT || strcmp(f->severity, "info") == 0)
            continue;
        e->findings[id]++;
        if (!seen_here[id]++)
            e->datasets_with[id]++;
        add_detail(e, id, dataset_label, f->message);
    }
    e->runs++;
    if (emu_report_stat(r, "threads") <= 0)
        return; /* no kernel ran with the checking mode: no statistics to count */
    e->instrumented_runs++;
    e->flop += flop;
    if (flop > 0) { /* a run that ended: its traffic against its arithmetic (one that crashed has none) */
        e->global_bytes += emu_report_stat(r, "global_load_bytes") + emu_report_stat(r, "global_store_bytes");
        e->shared_load_bytes += emu_report_stat(r, "shared_load_bytes");
    }
    e->staged_loads += emu_report_stat(r, "shared_staged_loads");
    e->global_atomics += emu_report_stat(r, "global_atomics");
    e->shared_atomics += emu_report_stat(r, "shared_atomics");
    if (emu_report_has_stat(r, "const_loads"))
        e->const_counted++, e->const_loads += emu_report_stat(r, "const_loads");
    if (flop >= 1e6 && emu_report_stat(r, "flops") > 0) { /* the executor counts them (the emulator
        * not); a run big enough that a partial tile's padding is a small part of it */
        e->executed_flop += emu_report_stat(r, "flops");
        e->executed_base_flop += flop;
        e->executed_global_bytes += emu_report_stat(r, "global_load_bytes") + emu_report_stat(r, "global_store_bytes");
        e->executed_shared_bytes += emu_report_stat(r, "shared_load_bytes");
    }
    e->threads += emu_report_stat(r, "threads");
    e->blocks += emu_report_stat(r, "blocks");
    add_insight(e, r, flop);
}

static void describe_findings(check_id_t id, const check_evidence_t *e, strbuf_t *out)
{
    sb_appendf(out, "FAILED: %ld distinct finding%s, on %d of %d datasets:\n", e->distinct[id],
               e->distinct[id] == 1 ? "" : "s", e->datasets_with[id], e->runs);
    for (int i = 0; i < e->ndetails[id]; i++) {
        const check_detail_t *d = &e->details[id][i];
        if (d->datasets > 1)
            sb_appendf(out, "%s (on %s and %d more dataset%s)\n", d->message, d->first_dataset,
                       d->datasets - 1, d->datasets == 2 ? "" : "s");
        else
            sb_appendf(out, "%s (on %s)\n", d->message, d->first_dataset);
    }
    if (e->distinct[id] > e->ndetails[id])
        sb_appendf(out, "(%ld more distinct findings not shown)\n",
                   e->distinct[id] - e->ndetails[id]);
}

/* The smallest power-of-two tile whose 4/T bytes per FLOP is within max. */
static int min_tile(double max_bytes_per_flop)
{
    int t = 2;
    while (t < 32 && !(4.0 / t <= max_bytes_per_flop * 0.9))
        t *= 2;
    return t;
}

/* The verdict and text of one check. */
/* traffic-reduced, failed: why, from the launch and the arithmetic the runs showed; the cause
 * named into cause ("" when the evidence names none) */
static void explain_traffic(const check_rule_t *rule, const check_evidence_t *e, double ratio, strbuf_t *out,
                            char *cause, size_t len)
{
    int tile = emu_report_block_side(e->threads, e->blocks);
    double tiled = tile > 0 ? 4.0 / tile : 0; /* 2 loads of 4 bytes a thread for T multiply-adds */
    if (e->executed_base_flop > 0 && e->executed_flop > 2.5 * e->executed_base_flop) {
        snprintf(cause, len, "oversized-grid");
        sb_appendf(out, "the kernels did %.3g times the arithmetic C needs (%.3g FLOP for %.3g): blocks or "
                        "threads past C's edge still load tiles and multiply them, and each of those loads "
                        "counts; launch ceil(numCColumns / T) x ceil(numCRows / T) blocks\n",
                   e->executed_flop / e->executed_base_flop, e->executed_flop, e->executed_base_flop);
    } else if (tile > 0 && ratio <= 1.5 * tiled) {
        snprintf(cause, len, "tile-too-small");
        sb_appendf(out, "the launches were blocks of %dx%d threads: a tile of T makes each thread load "
                        "2 values for every T multiply-adds, about 4/T bytes per FLOP (here about %.2g), so "
                        "the tile is what is too small; a tile of %d or more does it\n",
                   tile, tile, tiled, min_tile(rule->max_bytes_per_flop));
    } else if (tile > 0 && e->staged_loads == 0) {
        snprintf(cause, len, "untiled");
        sb_appendf(out, "the launches were blocks of %dx%d threads, which sharing %d-wide tiles would bring "
                        "to about %.2g bytes per FLOP: at %.3g the threads do not reuse what their block "
                        "loads; stage tiles of A and B in shared memory and compute from those\n",
                   tile, tile, tile, tiled, ratio);
    } else if (tile > 0) {
        sb_appendf(out, "the launches were blocks of %dx%d threads and read values back from shared memory, "
                        "yet at %.3g bytes per FLOP they load more than %d-wide tiles need (about %.2g): look "
                        "for a load repeated inside the loop over k, or blocks past C's edge loading tiles\n",
                   tile, tile, ratio, tile, tiled);
    }
}

static int judge(check_id_t id, const check_rule_t *rule, const check_evidence_t *e, strbuf_t *out,
                 char *cause, size_t causelen)
{
    static const char *const clean[] = {
        [CHECK_RACE_FREE] = "no shared-memory race: every value a thread reads from shared memory "
                            "was written before the last __syncthreads(), and no thread overwrites "
                            "what another still reads",
        [CHECK_BARRIERS_UNIFORM] = "every __syncthreads() was reached by all the threads of the block",
        [CHECK_MEMORY_SAFE] = "no access outside an array, no host pointer, no read of memory "
                              "nothing had written",
    };
    static const char *const advice[] = {
        [CHECK_RACE_FREE] = "A __syncthreads() is missing between a write to shared memory and "
                            "a read of it by another thread: after the threads fill a shared "
                            "array and before they read each other's elements, and before "
                            "anything still being read is overwritten (the next tile, the next "
                            "step of a tree).",
        [CHECK_BARRIERS_UNIFORM] = "Every thread of a block must reach every __syncthreads(): "
                                   "never return early or put a barrier inside a condition that "
                                   "depends on the thread; keep out-of-range threads in the loop and "
                                   "skip only their store.",
        [CHECK_MEMORY_SAFE] = "Guard every load and store with the array bounds (in a tiled "
                              "kernel, load 0 into the tile outside them), and write every shared "
                              "element before it is read.",
    };
    switch (id) {
    case CHECK_RACE_FREE:
    case CHECK_BARRIERS_UNIFORM:
    case CHECK_MEMORY_SAFE:
        if (e->findings[id] == 0) {
            sb_appendf(out, "passed: %s (%d dataset runs checked)\n", clean[id],
                       e->runs);
            return 1;
        }
        describe_findings(id, e, out);
        sb_appendf(out, "%s\n", advice[id]);
        return 0;
    case CHECK_USES_SHARED_MEMORY:
        if (e->staged_loads > 0) {
            sb_appendf(out, "passed: the kernel read %.0f values it had staged in shared memory\n",
                       e->staged_loads);
            return 1;
        }
        if (e->global_atomics > 0 && e->shared_atomics == 0) { /* every update contends in global memory */
            snprintf(cause, causelen, "global-atomics");
            sb_appendf(out, "FAILED: the kernel never read back data it had stored in shared memory, and its "
                            "%.0f atomic operations all went to global memory, where the threads of every "
                            "block contend for the same few addresses (a histogram's bins, a sum) and wait on "
                            "each other. Privatize: each block accumulates into its own __shared__ copy first "
                            "(zeroed, then __syncthreads(); atomicAdd on shared memory, or a tree of sums), and "
                            "after a __syncthreads() adds it to global memory, one atomic an address and "
                            "block.\n",
                       e->global_atomics);
            return 0;
        }
        sb_append(out, "FAILED: the kernel never read back data it had stored in shared memory: "
                       "it works straight from global memory. Stage what the threads of a block "
                       "share in __shared__ arrays (the handout says what: tiles of A and B, or "
                       "the block's products for its tree) and compute from those.\n");
        return 0;
    case CHECK_USES_CONSTANT_MEMORY:
        if (e->const_loads > 0) {
            sb_appendf(out, "passed: the kernels read %.0f values from __constant__ memory\n", e->const_loads);
            return 1;
        }
        sb_append(out, "FAILED: the kernels never read a __constant__ variable: what every thread reads the "
                       "same (a convolution's mask) comes from global memory. Declare it __constant__ at file "
                       "scope, sized for the largest case (__constant__ float M_c[MAX_MASK * MAX_MASK];), copy "
                       "it there with cudaMemcpyToSymbol in the launch function, and read M_c in the kernel: "
                       "its reads are cached and broadcast to the warp.\n");
        return 0;
    case CHECK_TRAFFIC_REDUCED: {
        if (!(e->flop > 0)) { /* every run crashed or stopped: no traffic to weigh, no cause to name */
            sb_append(out, "FAILED: no dataset run ended normally (exit status 0), so there is no arithmetic to weigh "
                           "its global memory traffic against\n");
            return 0;
        }
        double ratio = e->global_bytes / e->flop;
        int ok = e->flop > 0 && ratio <= rule->max_bytes_per_flop;
        sb_appendf(out,
                   "%s: %.3g bytes of global memory traffic per FLOP over all datasets (at most "
                   "%g allowed; an untiled kernel needs about 4, TILE_WIDTH 16 about 0.25)\n",
                   ok ? "passed" : "FAILED", ratio, rule->max_bytes_per_flop);
        if (!ok)
            explain_traffic(rule, e, ratio, out, cause, causelen);
        if (e->insight && *e->insight)
            sb_appendf(out, "on the largest dataset:\n%s", e->insight);
        return ok;
    }
    default:
        return 0;
    }
}

/* A check whose evidence includes a refused report: the submission wrote
 * to the grader's report channel, so none of its checks is trusted. */
static void judge_refused(const check_evidence_t *e, strbuf_t *out)
{
    sb_appendf(out, "FAILED: on %s, %s: its checks are not trusted\n", e->refused_dataset,
               e->refused_why);
    if (e->refused > 1)
        sb_appendf(out, "(%d dataset runs' reports were refused)\n", e->refused);
}

void checks_score(const lab_rubric_t *rub, const check_evidence_t *e, const char *not_run,
                  const char *unearned, grade_t *g)
{
    for (int id = 0; id < CHECK_COUNT; id++) {
        const check_rule_t *rule = &rub->checks[id];
        if (!rule->present)
            continue;
        strbuf_t out = {0};
        int ok = 0;
        char cause[32] = ""; /* the cause the check names, for the hint benchmark (extra_data.failure) */
        if (!not_run && !e->refused && e->instrumented_runs == 0)
            not_run = "no kernel was launched, so there was nothing to check";
        double max = rule->points;
        const char *not_earned = unearned;
        if (e->refused)
            judge_refused(e, &out);
        else if (not_run)
            sb_appendf(&out, "not run: %s\n", not_run);
        else if (id == CHECK_USES_CONSTANT_MEMORY && e->const_counted == 0) { /* the CPU emulator's runs */
            sb_appendf(&out, "not scored on the CPU emulator (0 of 0; %g points on the executor, the vgpu and gpu "
                             "backends): it keeps __constant__ variables in host memory and cannot tell their "
                             "reads from others\n", rule->points);
            max = 0, ok = 1, not_earned = NULL;
        } else
            ok = judge((check_id_t)id, rule, e, &out, cause, sizeof cause);
        if (ok && not_earned) { /* "passed: <what>" becomes "not scored: <why>; found: <what>" */
            strbuf_t note = {0};
            sb_appendf(&note, "not scored: %s. Found: %s", not_earned, sb_str(&out) + strlen("passed: "));
            sb_free(&out);
            out = note;
            ok = 0;
        }
        test_result_t *t = grade_add_test(g, check_name((check_id_t)id), ok ? max : 0, max, ok, rule->visibility,
                                          sb_str(&out));
        if (t && cause[0])
            snprintf(t->failure, sizeof t->failure, "%s", cause);
        sb_free(&out);
    }
}

void evidence_free(check_evidence_t *e)
{
    for (int id = 0; id < CHECK_COUNT; id++)
        for (int i = 0; i < e->ndetails[id]; i++) {
            free(e->details[id][i].message);
            free(e->details[id][i].key);
        }
    free(e->insight);
    memset(e, 0, sizeof *e);
}
