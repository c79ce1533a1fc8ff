/* hidden_set.h - the hidden datasets of a grading. Besides the public
 * datasets (which ship with their outputs, so a submission could recognise
 * one by its shape and print the stored answer), every grading runs the
 * rubric's hidden.count datasets made at grade time by the lab kind's own
 * generator: shapes from the kind's families in turn (kind.h
 * hidden_shape), values from seeds drawn from the secret
 * (dataset/hidden.h), and the generator's expected output (computed in
 * double precision, as for the public datasets). They are written into a
 * folder no student program sees: <scratch>-hidden (mode 0700, hidden by
 * the sandbox, removed after grading), or one folder made once for a whole
 * batch and handed to each `cugrade run --hidden-set DIR`. */
#ifndef CUGRADE_HIDDEN_SET_H
#define CUGRADE_HIDDEN_SET_H

#include <limits.h>
#include <stddef.h>

#include "course/lab.h"
#include "course/rubric.h"
#include "dataset/dataset.h"
#include "dataset/hidden.h"
#include "pipeline/grade_opts.h"

#define HIDDEN_REF_PREFIX "hidden-" /* dataset_ref_t names: "hidden-1", "hidden-2", ... */

typedef struct {
    char dir[PATH_MAX];
    int owned;           /* made here: hidden_set_remove deletes it */
    dataset_ref_t *refs; /* dir/1 .. dir/n, named "hidden-1" .. "hidden-n" */
    int n;
} hidden_set_t;

/* Writes count datasets of the lab into dir/1 .. dir/count (dir exists):
 * dataset i (0-based) of family i mod the kind's families, drawn from
 * hidden_seed(s, lab_name, i) with the lab's tile. */
int hidden_set_generate(const hidden_secret_t *s, const char *lab_name, const lab_t *lab,
                        int count, const char *dir, char *err, size_t errlen);

/* The hidden set of one grading: the batch's folder o->hidden_set_dir when
 * given (it must hold the rubric's count), else made from the secret
 * (o->hidden_seed, $CUGRADE_HIDDEN_SEED_FILE or the checkout's) into
 * <scratch>-hidden. Either folder is hidden from student runs. No folder
 * and no datasets when the count is 0. -1 with err on failure. */
int hidden_set_prepare(const grade_opts_t *o, const lab_t *lab, const lab_rubric_t *rub,
                       const char *scratch, hidden_set_t *hs, char *err, size_t errlen);

/* For `cugrade batch`: loads the lab and the rubric as a grading does and
 * makes the set once in a fresh folder under $TMPDIR (mode 0700); hs->n is
 * the count (no refs are listed), hs->dir "" when it is 0. */
int hidden_set_for_batch(const grade_opts_t *o, hidden_set_t *hs, char *err, size_t errlen);

/* Frees the list, and deletes the folder if it was made here. */
void hidden_set_remove(hidden_set_t *hs);

#endif
