/* verdict.c - judge one dataset run and explain the verdict; a failing
 * comparison also hands its error map to the dataset's test (results.h). */
#include "compare/verdict.h"
#include "kinds/kind.h"
#include "compare/compare.h"
#include "compare/coverage.h"
#include "run/emureport.h"
#include "matbin.h"
#include "report/results.h"
#include "util/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FINDINGS_SHOWN_PER_KIND 3

/* Lines the harness printed about CUDA errors ("cugrade: CUDA error ...").
 * Not of a hidden dataset: the program shares the harness's stderr, so such
 * a line could carry the dataset's values out. */
static void append_harness_lines(const char *output, int hidden, strbuf_t *msg)
{
    const char *p = hidden ? NULL : output;
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

/* The kind of CUDA error the harness reported, for the failure key. */
static const char *cuda_error_kind(const char *output)
{
    if (strstr(output, "cudaErrorInvalidValue") || strstr(output, "cudaErrorInvalidConfiguration") ||
        strstr(output, "invalid configuration argument"))
        return "invalid-configuration";
    if (strstr(output, "cudaErrorIllegalAddress") || strstr(output, "cudaErrorLaunchFailure") ||
        strstr(output, "illegal memory access"))
        return "illegal-address";
    return "other";
}

static const char *cuda_error_hint(const char *output)
{
    const char *kind = cuda_error_kind(output);
    if (strcmp(kind, "invalid-configuration") == 0)
        return "hint: a launch with an invalid configuration: a grid dimension of 0 (a size "
               "smaller than the block divided by it and rounded down?) or more than 1024 "
               "threads per block.\n";
    if (strcmp(kind, "illegal-address") == 0)
        return "hint: the kernel accessed memory outside the arrays: check the boundary "
               "conditions of the loads and of the store.\n";
    return "";
}

/* A hidden dataset's: where they are and what the program wrote, never
 * what was expected. */
static void append_hidden_mismatches(const compare_result_t *cr, strbuf_t *msg)
{
    sb_append(msg, "first mismatches (row, col): got (a hidden dataset's expected values are "
                   "not shown)\n");
    for (int i = 0; i < cr->nshown; i++) {
        const mismatch_t *mm = &cr->shown[i];
        if (matbin_is_poison(mm->got))
            sb_appendf(msg, "  (%d, %d): never written\n", mm->row, mm->col);
        else
            sb_appendf(msg, "  (%d, %d): %.9g, differs from the expected value\n", mm->row,
                       mm->col, (double)mm->got);
    }
}

static void append_mismatches(const compare_result_t *cr, int hidden, strbuf_t *msg)
{
    if (cr->nshown == 0)
        return;
    if (hidden) {
        append_hidden_mismatches(cr, msg);
        return;
    }
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

/* The program's own output; of a hidden dataset only that there was some
 * (it could carry the dataset's values out to the student). */
static void append_program_output(const run_result_t *rr, int hidden, strbuf_t *msg)
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
    if (hidden && (own.len > 0 || rr->output_truncated)) {
        sb_append(msg, "program output: not shown for a hidden dataset\n");
    } else if (own.len > 0 || rr->output_truncated) {
        sb_append(msg, "program output:\n");
        sb_append(msg, sb_str(&own));
    }
    if (rr->output_truncated && !hidden)
        sb_appendf(msg, "[output cut: showing the first %zu of %zu bytes]\n", rr->output_len,
                   rr->output_total);
    sb_free(&own);
}

/* A bug the emulator found that explains wrong results. */
typedef struct {
    const char *kind;  /* the finding's kind, also the failure key's "wrong-with:" part */
    const char *text;  /* for the student */
    int order_dependent; /* the output's pattern means nothing: the results depend on thread order,
                          * or no kernel wrote them (a launch that never ran, a host output) */
} cause_t;

/* Kinds of finding that put values no arithmetic on the inputs makes into
 * an output (the red zones' NaN past an array, the poison of global memory
 * never written). A race only reorders the finite values a kernel computed:
 * where an output holds NaN or inf, one of these on the same dataset is its
 * cause. Not shared memory's: a tile read before a missing barrier, or one
 * that threads which returned early never filled, is read unwritten too,
 * and there the race or the barrier is the cause. */
static int reads_garbage(const char *kind)
{
    static const char *const kinds[] = {"global-oob", "invalid-address", "uninit-global"};
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if (strcmp(kind, kinds[i]) == 0)
            return 1;
    return 0;
}

/* When the emulator found a bug that explains wrong results, say so: the
 * output pattern alone (e.g. "K is not a multiple of TILE_WIDTH") can
 * mislead when the real cause is a missing barrier. With nonfinite (the
 * output holds NaN or inf the program computed), a finding that reads
 * garbage comes first (reads_garbage). NULL when none. */
static const cause_t *likely_cause(const emu_report_t *rep, int nonfinite)
{
    static const cause_t causes[] = {
        /* the executor's (vgpu): what it would not hand the grader, or stopped */
        {"broken-wire", "the program tampered with its CUDA runtime's requests (below)", 0},
        {"refused", "the kernel uses an instruction the executor refuses (below)", 0},
        {"host-copy-overflow", "a cudaMemcpy past the end of a host array (below)", 1},
        /* a launch that never ran: what the output then holds follows from it */
        {"block-too-big", "a launch with more than 1024 threads a block, which never ran (below)", 1},
        {"invalid-configuration", "a launch the device refused, which never ran (below)", 1},
        {"grid-too-small", "a grid of 0 blocks, which never ran: a size rounded down to 0 (below)", 1},
        {"host-output", "the output was not computed by a kernel (below)", 1},
        {"not-copied-back", "the output did not come back whole from the device (below)", 1},
        {"instruction-budget", "a kernel ran past its instruction budget (below)", 0},
        {"race", "a shared-memory race (below): the results depend on the order threads run in", 1},
        {"barrier-divergence", "a __syncthreads() that part of the block never reaches (below)", 1},
        {"global-oob", "an access outside an array (below)", 0},
        {"shared-oob", "an access outside a shared array (below)", 0},
        {"invalid-address", "an access through a pointer to no array (below)", 0},
        {"uninit-shared", "a read of shared memory no thread of the block wrote (below)", 0},
        {"uninit-global", "a read of global memory nothing wrote (below)", 0},
    };
    const cause_t *cause = NULL;
    for (int pass = nonfinite ? 0 : 1; pass < 2; pass++)
        for (size_t c = 0; c < sizeof causes / sizeof causes[0] && !cause; c++)
            for (int i = 0; i < rep->nfindings && !cause; i++)
                if (strcmp(rep->findings[i].kind, causes[c].kind) == 0 && (pass || reads_garbage(causes[c].kind)))
                    cause = &causes[c];
    return cause;
}

/* Reads what the program wrote: the driver's matbin file (with the kernel
 * time), or a program-style lab's wbSolution file (libwb .raw). 0, or -1
 * with the verdict in msg. */
static int read_output(const char *path, const lab_t *lab, matrix_t *got, double *elapsed_ms,
                       strbuf_t *msg)
{
    *elapsed_ms = -1;
    if (lab_is_program(lab)) {
        char err[1024];
        if (!is_file(path)) {
            sb_append(msg, "FAILED: the program wrote no solution (wbSolution was not called, or "
                           "the program stopped before it)\n");
            return -1;
        }
        if (raw_read_solution(path, got, err, sizeof err) != 0) {
            sb_appendf(msg, "FAILED: the solution wbSolution wrote is malformed: %s\n", err);
            return -1;
        }
        return 0;
    }
    float *data = NULL;
    matbin_header_t hdr;
    int rc = matbin_read(path, &data, &hdr);
    if (rc != 0) {
        sb_appendf(msg, "FAILED: the program %s no output\n",
                   rc == -1 ? "produced" : "produced a truncated or malformed");
        return -1;
    }
    *got = (matrix_t){.rows = (int)hdr.rows, .cols = (int)hdr.cols, .data = data};
    *elapsed_ms = hdr.elapsed_ms;
    return 0;
}

/* The failure key of a wrong output: the matched wrong program, else the
 * error pattern. */
static void compare_failure(const compare_result_t *cr, char *failure, size_t len)
{
    static const char *const names[] = {
        [HINT_NONE] = "wrong",           [HINT_SHAPE] = "wrong-shape",
        [HINT_NEVER_WRITTEN] = "never-written", [HINT_GRID_TOO_SMALL] = "grid-too-small",
        [HINT_BOUNDARY_WRONG] = "boundary-wrong", [HINT_HYPOTHESIS] = "hypothesis",
        [HINT_PARTLY_UNWRITTEN] = "partly-unwritten", [HINT_ALL_WRONG] = "all-wrong",
        [HINT_SOME_WRONG] = "some-wrong",
    };
    if (cr->hint == HINT_HYPOTHESIS) /* several: none named, the ones that fit */
        snprintf(failure, len, "%s:%s", cr->nhypotheses > 1 ? "consistent" : "hypothesis", cr->hypothesis);
    else if (cr->hint == HINT_FOREIGN_VALUES) /* its error pattern: with the others' */
        snprintf(failure, len, "%s", cr->wrong == cr->total ? "all-wrong" : "some-wrong");
    else
        snprintf(failure, len, "%s", names[cr->hint]);
}

/* A failure key with the likely cause said beside it: "KEY@CAUSE" (the
 * datasets of one pattern and one cause are one block; the hint benchmark
 * reads what was named). */
static void with_cause(const cause_t *cause, char *failure, size_t len)
{
    size_t used = strlen(failure);
    if (cause && used + 1 < len)
        snprintf(failure + used, len - used, "@%s", cause->kind);
}

/* Compares the child's output file with the expected matrix. */
/* The comparison in one line: a hidden dataset's never shows a value. */
static void summary_of(const compare_result_t *cr, int hidden, char *buf, size_t len)
{
    if (hidden)
        compare_summary_hidden(cr, buf, len);
    else
        compare_summary(cr, buf, len);
}

/* The cause said, and for a kernel stopped past its instruction budget the
 * stopped launch's grid against what the output needs (lab_kind_t
 * explain_grid), when the executor said its shape (one launch stopped). */
static void say_cause(const cause_t *cause, const emu_report_t *rep, const lab_t *lab, const dataset_t *d,
                      strbuf_t *msg)
{
    if (!cause)
        return;
    sb_appendf(msg, "likely cause: %s\n", cause->text);
    char why[600];
    if (strcmp(cause->kind, "instruction-budget") == 0 && lab->kind->explain_grid &&
        emu_report_stat(rep, "budget_stops") == 1 &&
        lab->kind->explain_grid(lab, d, emu_report_stat(rep, "budget_grid_blocks"),
                                (int)emu_report_stat(rep, "budget_block_x"),
                                (int)emu_report_stat(rep, "budget_block_y"), why, sizeof why))
        sb_appendf(msg, "%s\n", why);
}

static int judge_output(const ds_run_t *r, const lab_t *lab, backend_t backend, const emu_report_t *rep,
                        strbuf_t *msg, char *failure, size_t failure_len)
{
    const cause_t *cause = likely_cause(rep, 0);
    /* the hints' phases are the student's: the tile of the launch seen, not the lab's (a lab
     * of one thread an element of the tile: not the challenge's 128, computed by 256 threads) */
    int tile = lab->tile_width > 0 && lab->tile_width <= 32
                   ? emu_report_block_side(emu_report_stat(rep, "threads"), emu_report_stat(rep, "blocks"))
                   : 0;
    int untiled = emu_report_no_shared_memory(rep);
    lab_t *seen = tile > 0 || untiled ? malloc(sizeof *seen) : NULL;
    if (seen) {
        *seen = *lab;
        seen->tile_width = tile > 0 ? tile : lab->tile_width;
        seen->seen_tile = tile;
        seen->seen_untiled = untiled;
        lab = seen;
    }
    const ds_job_t *j = r->job;
    matrix_t got = {0};
    double elapsed_ms;
    if (read_output(r->out_path, lab, &got, &elapsed_ms, msg) != 0) {
        say_cause(cause, rep, lab, &j->data, msg);
        snprintf(failure, failure_len, cause ? "no-output:%s" : "no-output", cause ? cause->kind : "");
        free(seen);
        return 0;
    }
    compare_result_t cr;
    lab->kind->compare(lab, &j->data, &got, &cr);
    if (!cr.passed && lab->kind->explain_output) /* the lab's own name for its classic mistake */
        lab->kind->explain_output(lab, j->ref.dir, r->out_path, &cr);
    if (cr.nonfinite > 0) /* NaN or inf: a read of garbage, not a race's reordering, made it */
        cause = likely_cause(rep, 1);
    char coverage[32] = "";
    const array_decl_t *out = lab->array.noutputs ? &lab->array.outputs[0] : NULL;
    const char *size = out && out->ndims == 1 && out->dims[0].param >= 0 ? lab->array.params[out->dims[0].param] : NULL;
    if (!cause && explain_coverage(rep, &j->data, out ? out->name : "C", size, &cr, coverage, sizeof coverage))
        cr.hint_hidden[0] = '\0'; /* it quotes no value */
    char summary[512];
    int hidden = j->hidden_index > 0;
    summary_of(&cr, hidden, summary, sizeof summary);
    if (cr.passed && explain_unread(rep, &j->data, summary, msg)) { /* right only by the tolerance */
        snprintf(failure, failure_len, "input-not-read");
        free(got.data);
        free(seen);
        return 0;
    }
    sb_appendf(msg, "%s: %s\n", cr.passed ? "passed" : "FAILED", summary);
    /* a race or a divergent barrier makes the error pattern meaningless */
    int pattern_meaningful = !cause || !cause->order_dependent;
    const char *hint = hidden && cr.hint_hidden[0] ? cr.hint_hidden : cr.hint_text;
    /* a finding on this dataset beats the list of what was ruled out */
    int ruled_out_only = cause && cr.nonfinite == 0 && (cr.hint == HINT_ALL_WRONG || cr.hint == HINT_SOME_WRONG);
    if (!cr.passed && hint[0] && pattern_meaningful && !ruled_out_only && !strstr(summary, hint))
        sb_appendf(msg, "hint: %s\n", hint);
    if (!cr.passed && cause)
        sb_appendf(msg, "likely cause: %s\n", cause->text);
    if (!cr.passed && pattern_meaningful) {
        compare_failure(&cr, failure, failure_len);
        if (coverage[0])
            snprintf(failure, failure_len, "%s", coverage);
        with_cause(cause, failure, failure_len);
    }
    else if (!cr.passed) /* the race or barrier, not the pattern, is what these share */
        snprintf(failure, failure_len, "wrong-with:%s", cause->kind);
    append_mismatches(&cr, hidden, msg);
    if (!cr.passed)
        grade_attach_error_map(&cr.map); /* none on a shape mismatch */
    if (elapsed_ms >= 0)
        sb_appendf(msg, "kernel time: %.3f ms%s\n", elapsed_ms,
                   backend == BACKEND_EMU ? " on the CPU emulator (not a GPU time; not scored)" : "");
    free(got.data);
    free(seen);
    return cr.passed;
}

/* vgpu with a GPU: the launches the executor recorded, replayed on the GPU
 * from the same compile (run/runs_replay.h), must give a passing output
 * too. Said only when they do not: the GPU then computed something else
 * from the same launches and inputs, or a kernel failed there. */
static int judge_replay(const ds_run_t *r, const lab_t *lab, strbuf_t *msg, char *failure, size_t failure_len)
{
    static const char where[] = "The executor ran the kernels' PTX and its output passed; the GPU ran "
                                "the same compile's cubin, replaying the executor's launches with the "
                                "same inputs and no host code of yours.";
    if (r->replay.kernel_failed) {
        sb_appendf(msg, "FAILED on the GPU: %s\n%s\n", r->replay.error, where);
        snprintf(failure, failure_len, "gpu-failed");
        return 0;
    }
    matrix_t got = {0};
    double elapsed_ms;
    strbuf_t why = {0}; /* the runner wrote it (runs_replay.c): a kernel's poison at worst */
    if (read_output(r->replay.gpu_out_path, lab, &got, &elapsed_ms, &why) != 0) {
        sb_appendf(msg, "FAILED on the GPU: the replay's output is malformed\n");
        sb_free(&why);
        snprintf(failure, failure_len, "gpu-failed");
        return 0;
    }
    compare_result_t cr;
    lab->kind->compare(lab, &r->job->data, &got, &cr);
    free(got.data);
    if (cr.passed)
        return 1;
    char summary[512];
    summary_of(&cr, r->job->hidden_index > 0, summary, sizeof summary);
    sb_appendf(msg, "FAILED on the GPU: %s\n%s So what the kernels compute depends on where they "
                    "run: on the order their threads run in (a race between blocks, or one the "
                    "executor's checks did not see), on memory they read before writing it, or on "
                    "what they read of the clock or the SM they run on.\n", summary, where);
    snprintf(failure, failure_len, "gpu-differs");
    return 0;
}

/* A program-style lab's wbTime_start/stop timings (its report channel's
 * "wbtime<TAB>KIND<TAB>SECONDS<TAB>MESSAGE" lines), in libwb's kinds. */
static void append_wb_times(const ds_run_t *r, backend_t backend, strbuf_t *msg)
{
    enum { SHOWN = 12 };
    static const char tag[] = "wbtime\t";
    char *text = read_file(r->diag_path, NULL, NULL, 0);
    int n = 0;
    for (char *line = text, *next; line && *line; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        if (strncmp(line, tag, sizeof tag - 1) != 0)
            continue;
        line += sizeof tag - 1;
        char *t1 = strchr(line, '\t'), *t2 = t1 ? strchr(t1 + 1, '\t') : NULL;
        if (!t2 || n++ >= SHOWN)
            continue;
        *t1 = *t2 = '\0';
        if (n == 1)
            sb_appendf(msg, "wbTime timers%s:\n",
                       backend == BACKEND_EMU ? " (on the CPU emulator: not GPU times)" : "");
        sb_appendf(msg, "  %-13.20s %10.3f ms  %.200s\n", line, atof(t1 + 1) * 1e3, t2 + 1);
    }
    if (n > SHOWN)
        sb_appendf(msg, "  (%d more wbTime timers not shown)\n", n - SHOWN);
    free(text);
}

/* How many findings of each kind rep has (a program may make up kinds: one
 * count a kind, O(1) each). */
static void count_kinds(const emu_report_t *rep, strmap_t *total)
{
    for (int i = 0; i < rep->nfindings; i++) {
        long *n = strmap_put(total, rep->findings[i].kind, NULL);
        if (n)
            ++*n;
    }
}

/* The emulator's findings on this run, at most FINDINGS_SHOWN_PER_KIND of
 * each kind. They count against the checks (race-free, memory-safe, ...),
 * not against the dataset, whose verdict is the output's. */
static void append_findings(const emu_report_t *rep, backend_t backend, strbuf_t *msg)
{
    const char *who = backend == BACKEND_VGPU ? "executor" : "emulator";
    strmap_t total = {0}, before = {0};
    count_kinds(rep, &total);
    for (int i = 0; i < rep->nfindings; i++) {
        const emu_finding_t *f = &rep->findings[i];
        long *seen = strmap_put(&before, f->kind, NULL), *all = strmap_get(&total, f->kind);
        long same_before = seen ? (*seen)++ : 0, same_total = all ? *all : 0;
        if (strcmp(f->severity, "info") == 0 || same_before >= FINDINGS_SHOWN_PER_KIND)
            continue;
        sb_appendf(msg, "%s %s (%s): %s\n", who, f->severity, f->kind, f->message);
        if (same_before == FINDINGS_SHOWN_PER_KIND - 1 && same_total > FINDINGS_SHOWN_PER_KIND)
            sb_appendf(msg, "(%ld more %s findings not shown)\n",
                       same_total - FINDINGS_SHOWN_PER_KIND, f->kind);
    }
    strmap_free(&total);
    strmap_free(&before);
}

/* A run whose report was refused (emureport.h): the submission wrote to
 * the grader's report channel, so nothing the run reported is trusted. */
static void explain_refused(const emu_report_t *rep, strbuf_t *msg, char *failure, size_t len)
{
    sb_appendf(msg, "FAILED: %s: this run's results are not trusted\n", rep->refused_why);
    snprintf(failure, len, "report-refused");
}

static void explain_failed_run(const ds_run_t *r, strbuf_t *msg, char *failure, size_t len)
{
    int hidden = r->job->hidden_index > 0;
    const run_result_t *rr = &r->result;
    char why[256];
    run_describe(rr, &r->spec, why, sizeof why);
    const char *out = rr->output ? rr->output : "";
    if (rr->exited && rr->exit_code == 3)
        snprintf(failure, len, "cuda-error:%s", cuda_error_kind(out));
    else if (rr->budget_out)
        snprintf(failure, len, "budget");
    else if (rr->timed_out)
        snprintf(failure, len, "timeout");
    else if (rr->signaled)
        snprintf(failure, len, "signal:%d", rr->term_signal);
    else
        snprintf(failure, len, "exit:%d", rr->exited ? rr->exit_code : -1);
    if (rr->exited && rr->exit_code == 3) {
        sb_appendf(msg, "FAILED: a CUDA error stopped the program%s\n",
                   hidden ? " (its message is not shown for a hidden dataset)" : "");
        append_harness_lines(rr->output, hidden, msg);
        sb_append(msg, cuda_error_hint(rr->output ? rr->output : ""));
    } else if (rr->timed_out) {
        sb_appendf(msg, "FAILED: the program %s (an endless loop in the kernel, or a thread "
                        "waiting for another forever?)\n", why);
    } else {
        sb_appendf(msg, "FAILED: the program %s\n", why);
        if (!rr->signaled) {
            append_harness_lines(rr->output, hidden, msg);
            sb_append(msg, cuda_error_hint(rr->output ? rr->output : "")); /* wbCheck's */
        }
    }
}

/* A run killed at its time limit or the budget never reached its end: what
 * the executor says of its output's origin (host-output, not-copied-back)
 * and of its reads (input-not-read) describes a program cut short, not the
 * submission (on a loaded machine a run killed there named host-output).
 * Those findings are dropped from its report. */
static void drop_end_of_program_findings(emu_report_t *rep)
{
    static const char *const kinds[] = {"host-output", "not-copied-back", "input-not-read"};
    int kept = 0;
    for (int i = 0; i < rep->nfindings; i++) {
        int drop = 0;
        for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
            drop |= strcmp(rep->findings[i].kind, kinds[k]) == 0;
        if (drop)
            free(rep->findings[i].message);
        else
            rep->findings[kept++] = rep->findings[i];
    }
    rep->nfindings = kept;
}

int verdict_output_passes(const ds_run_t *r, const lab_t *lab)
{
    matrix_t got = {0};
    double elapsed_ms;
    strbuf_t msg = {0};
    compare_result_t cr = {0};
    if (read_output(r->out_path, lab, &got, &elapsed_ms, &msg) == 0)
        lab->kind->compare(lab, &r->job->data, &got, &cr);
    free(got.data);
    sb_free(&msg);
    return cr.passed;
}

int verdict_dataset(const ds_run_t *r, const lab_t *lab, backend_t backend, strbuf_t *msg,
                    char *failure, size_t failure_len)
{
    int passed = 0;
    failure[0] = '\0';
    grade_attach_error_map(NULL); /* only a failed comparison leaves a map */
    emu_report_t rep;
    emu_report_read(r->diag_path, &rep);
    if (rep.refused) {
        explain_refused(&rep, msg, failure, failure_len);
        append_program_output(&r->result, r->job->hidden_index > 0, msg);
        emu_report_free(&rep);
        return 0;
    }
    if (r->result.exited && r->result.exit_code == 0) {
        passed = judge_output(r, lab, backend, &rep, msg, failure, failure_len);
        if (passed && r->replay.ran)
            passed = judge_replay(r, lab, msg, failure, failure_len);
    } else {
        if (r->result.timed_out || r->result.budget_out)
            drop_end_of_program_findings(&rep);
        explain_failed_run(r, msg, failure, failure_len);
        const cause_t *cause = likely_cause(&rep, 0);
        say_cause(cause, &rep, lab, &r->job->data, msg);
        with_cause(cause, failure, failure_len);
    }
    append_wb_times(r, backend, msg);
    append_findings(&rep, backend, msg);
    append_program_output(&r->result, r->job->hidden_index > 0, msg);
    emu_report_free(&rep);
    return passed;
}
