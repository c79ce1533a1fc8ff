/* batch_fault.c - grader faults in `cugrade batch`: a grader fault is never a
 * student's zero. Before anyone is graded the batch runs the canary once
 * (grade_preflight: the toolchain, the emulator runtime, the lab's files
 * and its reference on the smallest dataset) and stops if it fails. A child
 * `cugrade run` that exits 2 later (the toolchain vanished mid-batch, a
 * malformed dataset) leaves its submission "not graded": run.log keeps the
 * reason, no results.json and no inputs hash are written, so the gradebook
 * has no row for it and --resume grades it again. */
#include "batch/batch_job.h"
#include "util/cugrade.h"
#include "pipeline/grade.h"
#include "util/util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int batch_preflight(const batch_opts_t *o, const char *gpu_queue, int rescored, FILE *out)
{
    grade_opts_t g = {.root = o->root, .lab = o->lab, .datasets_dir = o->datasets_dir,
                      .rubric_path = o->rubric_path, .checks = o->checks,
                      .gpu_queue = gpu_queue, .gpu_index = 0};
    char done[512], err[4096];
    if (backend_parse(o->backend, &g.backend) != 0)
        g.backend = BACKEND_AUTO;
    if (grade_preflight(&g, done, sizeof done, err, sizeof err) != 0) {
        fprintf(out, "cugrade batch: cannot grade: %s\n", err);
        if (rescored > 0)
            fprintf(out, "cugrade batch: stopped before grading anyone: only the %d re-scored "
                         "submission(s) got new results\n", rescored);
        else
            fprintf(out, "cugrade batch: stopped before grading anyone: no student's results "
                         "were written or changed\n");
        return -1;
    }
    fprintf(out, "cugrade batch: canary: %s\n", done);
    fflush(out);
    return 0;
}

/* The line after the last "cugrade: cannot grade: " in a child's output (its
 * own, which comes after anything of the submission's it shows), else how it
 * ended. */
static void fault_cause(const job_t *j, char *buf, size_t len)
{
    static const char tag[] = "cugrade: cannot grade: ";
    const char *out = j->result.output ? j->result.output : "";
    const char *p = NULL;
    for (const char *q = strstr(out, tag); q; q = strstr(q + 1, tag))
        p = q;
    if (p) {
        p += sizeof tag - 1;
        snprintf(buf, len, "%.*s", (int)strcspn(p, "\n"), p);
    } else if (j->result.signaled) {
        snprintf(buf, len, "cugrade run was killed by signal %d (%s; see run.log)",
                 j->result.term_signal, strsignal(j->result.term_signal));
    } else {
        snprintf(buf, len, "cugrade run exited with status 2 (see run.log)");
    }
}

int batch_not_graded(job_t *j, const job_t *cause, char *err, size_t errlen)
{
    char path[PATH_MAX + 32];
    j->not_graded = 1;
    if (cause)
        snprintf(j->fault, sizeof j->fault, "%s", cause->fault);
    else
        fault_cause(j, j->fault, sizeof j->fault);
    unlink(j->partial);
    unlink(j->measured_partial);
    /* an older grade, not for these inputs: gone, so the gradebook has no row */
    snprintf(path, sizeof path, "%s/results.json", j->res_dir);
    if (unlink(path) != 0 && errno != ENOENT)
        return fail(err, errlen, "%s: cannot remove: %s", path, strerror(errno));
    if (!cause)
        return 0; /* run.log holds the child's message */
    snprintf(path, sizeof path, "%s/run.log", j->res_dir);
    strbuf_t log = {0};
    sb_appendf(&log, "%sbatch: identical to %s, which was not graded: %s\n", j->note, cause->id,
               cause->fault);
    int rc = write_file_atomic(path, sb_str(&log), log.len, err, errlen);
    sb_free(&log);
    return rc;
}

void batch_fault_summary(int not_graded, const char *first_cause, FILE *out)
{
    if (not_graded == 0)
        return;
    fprintf(out, "batch: %d submission(s) NOT GRADED because of a grader fault (no score recorded, "
                 "not in the gradebook): %s\n"
                 "batch: fix it and run the batch again with --resume: those are graded again\n",
            not_graded, first_cause);
}
