/* batch_state.h - where a batch stands: which submissions of the class are
 * done (a results.json whose inputs hash matches: exactly the ones --resume
 * skips), missing (never graded, killed before the result was written, or
 * changed since), or failed (NOT GRADED: a grader fault left a run.log and no
 * results.json). For `cugrade batch --status`, --merge and --slurm, which
 * submits only the shards that still hold work. */
#ifndef CUGRADE_BATCH_STATE_H
#define CUGRADE_BATCH_STATE_H

#include "batch/batch.h"

#include <stdio.h>

typedef enum { SUB_MISSING = 0, SUB_DONE, SUB_FAILED } sub_state_t;

typedef struct {
    int n;                 /* the class, in batch_list's sorted order */
    char **names, **ids;
    sub_state_t *state;
    unsigned char *chosen; /* selected by --only (all when there is none) */
    int nchosen;
    int done, missing, failed; /* over the chosen */
    int cannot;            /* of the done: a stand-in results.json ("could not grade") */
} class_state_t;

/* Lists o's class and decides each submission's state with --resume's test
 * (batch_up_to_date). o->hidden_digest is set. -1 (said on out) when the
 * class or the secret cannot be read. */
int class_state_load(batch_opts_t *o, class_state_t *cs, FILE *out);
void class_state_free(class_state_t *cs);

/* Marks in todo[0 .. count-1] the shards holding a chosen submission that is
 * not done; returns how many shards that is. */
int class_state_shards_to_do(const class_state_t *cs, int count, unsigned char *todo);

/* "6 submission(s): 4 done, 2 missing, 0 failed" and, on more lines, the ids
 * of the missing and failed ones (the first few) and of the done ones that
 * could not be graded. */
void class_state_print(const class_state_t *cs, const char *indent, FILE *out);

#endif
