/* grade_inputs.h - internal to grade.c: what a grading reads before it
 * builds anything (the lab manifest, the rubric, the list of datasets) and
 * the canary of those inputs (canary.h). */
#ifndef CUGRADE_GRADE_INPUTS_H
#define CUGRADE_GRADE_INPUTS_H

#include <stddef.h>

#include "pipeline/canary.h"
#include "dataset/dataset.h"
#include "pipeline/grade_opts.h"
#include "course/lab.h"
#include "course/rubric.h"
#include "pipeline/grade_run.h"
#include "pipeline/hidden_set.h"

typedef struct {
    lab_t lab;
    lab_rubric_t rub;
    dataset_ref_t *refs; /* the public datasets */
    int nds;
    hidden_set_t hidden; /* the hidden ones (load_hidden) */
    int njobs;           /* both: nds + hidden.n */
} grading_inputs_t;

/* Loads the lab, the rubric (o->rubric_path or <root>/rubric.json) and the
 * list of datasets (o->datasets_dir or the lab's). err says what failed. */
int load_inputs(const grade_opts_t *o, grading_inputs_t *in, char *err, size_t errlen);
/* Makes (or takes the batch's) hidden set next to the scratch folder and
 * counts it in njobs. */
int load_hidden(const grade_opts_t *o, grading_inputs_t *in, const char *scratch, char *err,
                size_t errlen);
/* Frees them, the hidden set's folder included. */
void free_inputs(grading_inputs_t *in);

/* The canary of these inputs' lab and datasets on backend b (emu: checks as
 * the student's file is built). */
canary_ctx_t canary_of(const grade_opts_t *o, const grading_inputs_t *in, backend_t b, int checks);

/* A failure is charged to the student only once the lab's reference passes
 * with the same toolchain (b, checks): 0 if it does, with the canary's note
 * in run->measured; -1, a grader fault in run->error, if not. */
int grade_vouch(const grade_opts_t *o, grade_run_t *run, const grading_inputs_t *in, backend_t b,
                int checks);

#endif
