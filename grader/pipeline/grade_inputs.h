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

typedef struct {
    lab_t lab;
    lab_rubric_t rub;
    dataset_ref_t *refs;
    int nds;
} grading_inputs_t;

/* Loads the lab, the rubric (o->rubric_path or <root>/rubric.json) and the
 * list of datasets (o->datasets_dir or the lab's). err says what failed. */
int load_inputs(const grade_opts_t *o, grading_inputs_t *in, char *err, size_t errlen);
void free_inputs(grading_inputs_t *in);

/* The rubric scores at least one check. */
int rubric_has_checks(const lab_rubric_t *rub);

/* The canary of these inputs' lab and datasets on backend b (emu: checks as
 * the student's file is built). */
canary_ctx_t canary_of(const grade_opts_t *o, const grading_inputs_t *in, backend_t b, int checks);

#endif
