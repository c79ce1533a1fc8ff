/* batch_state.c - where a batch stands (batch_state.h): each submission of
 * the class done, missing or failed, decided with --resume's own test
 * (batch_up_to_date in batch.c), and printed for --status and --slurm. */
#include "batch/batch_state.h"
#include "batch/batch_job.h"
#include "util/util.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define LIST_AT_MOST 12 /* ids listed per state */

/* A result folder with a run.log and no results.json: a grader fault. */
static int not_graded(const batch_opts_t *o, const char *id)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/%s/results.json", o->out_dir, id);
    if (is_file(path))
        return 0;
    snprintf(path, sizeof path, "%s/%s/run.log", o->out_dir, id);
    return is_file(path);
}

/* A done submission whose results.json is the batch's stand-in. */
static int could_not_grade(const batch_opts_t *o, const char *id)
{
    char path[PATH_MAX], line[160];
    snprintf(path, sizeof path, "%s/%s/results.json", o->out_dir, id);
    return batch_row_line(path, line, sizeof line) == 0 && strncmp(line, "could not grade", 15) == 0;
}

static void classify(batch_opts_t *o, const char *common, class_state_t *cs, int i)
{
    cs->chosen[i] = (unsigned char)batch_selected(o, cs->ids[i]);
    if (batch_up_to_date(o, common, cs->names[i], cs->ids[i]))
        cs->state[i] = SUB_DONE;
    else
        cs->state[i] = not_graded(o, cs->ids[i]) ? SUB_FAILED : SUB_MISSING;
    if (!cs->chosen[i])
        return;
    cs->nchosen++;
    cs->done += cs->state[i] == SUB_DONE;
    cs->missing += cs->state[i] == SUB_MISSING;
    cs->failed += cs->state[i] == SUB_FAILED;
    cs->cannot += cs->state[i] == SUB_DONE && could_not_grade(o, cs->ids[i]);
}

int class_state_load(batch_opts_t *o, class_state_t *cs, FILE *out)
{
    memset(cs, 0, sizeof *cs);
    cs->n = batch_list(o->submissions_dir, &cs->names, &cs->ids);
    if (cs->n < 0) {
        fprintf(out, "cugrade batch: %s: %s\n", o->submissions_dir, strerror(errno));
        cs->n = 0;
        return -1;
    }
    char common[65];
    if (batch_resume_key(o, common, out) != 0) {
        class_state_free(cs);
        return -1;
    }
    cs->state = calloc((size_t)cs->n + 1, sizeof *cs->state);
    cs->chosen = calloc((size_t)cs->n + 1, 1);
    for (int i = 0; i < cs->n; i++)
        classify(o, common, cs, i);
    return 0;
}

void class_state_free(class_state_t *cs)
{
    for (int i = 0; i < cs->n; i++)
        free(cs->names[i]), free(cs->ids[i]);
    free(cs->names);
    free(cs->ids);
    free(cs->state);
    free(cs->chosen);
    memset(cs, 0, sizeof *cs);
}

int class_state_shards_to_do(const class_state_t *cs, int count, unsigned char *todo)
{
    int n = 0;
    memset(todo, 0, (size_t)count);
    for (int i = 0; i < cs->n; i++) {
        int s = batch_shard_of(i, count);
        if (cs->chosen[i] && cs->state[i] != SUB_DONE && !todo[s])
            todo[s] = 1, n++;
    }
    return n;
}

/* "missing: bob, frank" (the first LIST_AT_MOST, then "and N more"). */
static void list_ids(const class_state_t *cs, sub_state_t which, const char *what,
                     const char *indent, FILE *out)
{
    int shown = 0, total = 0;
    for (int i = 0; i < cs->n; i++) {
        if (!cs->chosen[i] || cs->state[i] != which)
            continue;
        total++;
        if (shown < LIST_AT_MOST) {
            fprintf(out, "%s%s", shown ? ", " : indent, shown ? "" : what);
            fputs(cs->ids[i], out);
            shown++;
        }
    }
    if (total > shown)
        fprintf(out, " and %d more", total - shown);
    if (shown)
        fprintf(out, "\n");
}

void class_state_print(const class_state_t *cs, const char *indent, FILE *out)
{
    fprintf(out, "%s%d submission(s): %d done, %d missing, %d failed", indent, cs->nchosen, cs->done,
            cs->missing, cs->failed);
    if (cs->cannot)
        fprintf(out, " (of the done, %d could not be graded: see their results.json)", cs->cannot);
    fprintf(out, "\n");
    char more[64];
    snprintf(more, sizeof more, "%s  ", indent);
    list_ids(cs, SUB_MISSING, "missing: ", more, out);
    list_ids(cs, SUB_FAILED, "failed (NOT GRADED, see run.log): ", more, out);
}
