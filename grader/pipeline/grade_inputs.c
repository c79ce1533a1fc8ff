/* grade_inputs.c - what a grading reads before it builds anything: the lab
 * manifest, the rubric and the list of datasets (the hidden set once the
 * scratch folder is there); and the canary (canary.h) of those inputs. */
#include "pipeline/grade_inputs.h"
#include "pipeline/datasets_made.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int load_inputs(const grade_opts_t *o, grading_inputs_t *in, char *err, size_t errlen)
{
    char rubric_path[PATH_MAX], ds_dir[PATH_MAX];
    if (o->rubric_path)
        snprintf(rubric_path, sizeof rubric_path, "%s", o->rubric_path);
    else
        snprintf(rubric_path, sizeof rubric_path, "%s/rubric.json", o->root);
    if (o->datasets_dir)
        snprintf(ds_dir, sizeof ds_dir, "%s", o->datasets_dir);
    memset(in, 0, sizeof *in);
    if (lab_load(o->root, o->lab, &in->lab, err, errlen) != 0)
        return -1;
    if (!o->datasets_dir)
        snprintf(ds_dir, sizeof ds_dir, "%s/datasets/%s", o->root, in->lab.datasets);
    if (rubric_load(rubric_path, o->lab, &in->rub, err, errlen) != 0)
        return -1;
    if ((!o->datasets_dir && datasets_make_missing(ds_dir, &in->lab, err, errlen) != 0) ||
        dataset_list(ds_dir, &in->refs, &in->nds, err, errlen) != 0) {
        rubric_free(&in->rub);
        return -1;
    }
    in->njobs = in->nds;
    return 0;
}

int load_hidden(const grade_opts_t *o, grading_inputs_t *in, const char *scratch, char *err,
                size_t errlen)
{
    if (hidden_set_prepare(o, &in->lab, &in->rub, scratch, &in->hidden, err, errlen) != 0)
        return -1;
    in->njobs = in->nds + in->hidden.n;
    return 0;
}

void free_inputs(grading_inputs_t *in)
{
    free(in->refs);
    rubric_free(&in->rub);
    hidden_set_remove(&in->hidden);
}

canary_ctx_t canary_of(const grade_opts_t *o, const grading_inputs_t *in, backend_t b, int checks)
{
    return (canary_ctx_t){.root = o->root, .lab = &in->lab, .rub = &in->rub, .refs = in->refs,
                          .nds = in->nds, .backend = b, .checks = checks,
                          .gpu_queue = o->gpu_queue, .gpu_index = o->gpu_index};
}

/* A failure is charged to the student only once the lab's reference passes
 * with the same toolchain (b, checks): 0 if it does; -1, a grader fault in
 * run->error, if not. */
int grade_vouch(const grade_opts_t *o, grade_run_t *run, const grading_inputs_t *in, backend_t b,
                int checks)
{
    canary_ctx_t c = canary_of(o, in, b, checks);
    canary_result_t res;
    if (canary_vouch(&c, &res, run->error, sizeof run->error) != 0)
        return -1;
    char text[256];
    snprintf(text, sizeof text, "the lab's reference passed %s on the %s backend (%s %.1f s)",
             res.dataset, backend_name(b), res.cached ? "cached," : "ran in", res.seconds);
    measured_add_note(&run->measured, b == run->backend ? "canary" : "canary_emu", text);
    return 0;
}
