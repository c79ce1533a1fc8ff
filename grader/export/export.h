/* export.h - `cugrade export KIND`: a lab packaged for where courses grade,
 * one file per target:
 *   gradescope.c    autograder.zip (setup.sh, run_autograder, the lab's files)
 *   prairielearn.c  a question folder (info.json, question.html, the grader)
 *   classroom.c     a student starter repository with its grading workflow
 * Each returns 0, or -1 with err naming what failed (the file, and the line
 * where there is one); what it writes goes to a temporary name first and is
 * renamed into place, so a failed export leaves nothing half-written. */
#ifndef CUGRADE_EXPORT_H
#define CUGRADE_EXPORT_H

#include <stddef.h>

typedef struct {
    const char *root; /* the cugrade tree */
    const char *lab;  /* e.g. "lab3" */
    const char *out;  /* the zip (gradescope) or the folder (prairielearn, classroom) */
    const char *backend; /* what the package grades on: "vgpu" (the executor; its setup
                          * installs nvcc where the image has none, tools/cuda_pip.sh)
                          * or "emu" (the emulator: no nvcc); NULL: "vgpu" */
} export_opts_t;

int export_gradescope(const export_opts_t *o, char *err, size_t errlen);
int export_prairielearn(const export_opts_t *o, char *err, size_t errlen);
int export_classroom(const export_opts_t *o, char *err, size_t errlen);

#endif
