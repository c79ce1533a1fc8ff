/* vgpu_budget.h - each dataset's instruction budget on the vgpu backend
 * (issue 39, item 4). The lab's reference, built for the executor, runs on
 * the dataset there with no budget; the instructions its kernels execute,
 * times lab.json's "instruction_budget_factor" (16 unless it says), at
 * least VGPU_BUDGET_FLOOR, are the budget of a submission's kernels on that
 * dataset: the same on an idle and a loaded machine, and in proportion to
 * the work the dataset asks for whatever its shape.
 *
 * The reference's build and each dataset's count are cached under
 * build/vgpu-<arch>/labs/<lab>/ (the count keyed by the reference's PTX and
 * the dataset's inputs), so a class pays for each once, and a batch's
 * graders that start together wait for the first. */
#ifndef CUGRADE_VGPU_BUDGET_H
#define CUGRADE_VGPU_BUDGET_H

#include <stddef.h>

#include "build/build.h"
#include "pipeline/grade_opts.h"
#include "run/ds_run.h"
#include "score/roofline.h"

/* A tiny dataset's budget: a kernel whose threads all loop over K even
 * where C has a few elements (lab 2's no_boundary_check.cu on 2x1000x3:
 * 256 threads, 2 million instructions, 42 times the reference's) runs in
 * no time on a GPU, and is judged by memory-safe, not by the budget. */
#define VGPU_BUDGET_FLOOR 16000000ULL

/* Sets jobs[0..n)'s instruction_budget from the reference's counts, and
 * *traffic (if not NULL) to what the reference's kernels moved on those
 * datasets, kept with each count (the roofline's point). 0, or
 * -1 with err: the reference does not build or run on the executor (a
 * grader fault: no submission is run under a budget nobody measured).
 * scratch: a folder of the grading's for the reference's runs. */
int vgpu_budgets(const grade_opts_t *o, const lab_t *lab, ds_job_t *jobs, int n,
                 const char *scratch, roofline_traffic_t *traffic, char *err, size_t errlen);

/* The lab's reference built for the executor, unless a build newer than
 * every input is cached (the reference's source, the kind's program, the
 * runtime, the compiler): its program, PTX and cubin into br. It is built
 * in the grading's scratch folder (the compile jail's uid is the grading's
 * own) and copied into the cache. 0, or -1 with err. */
int vgpu_reference_build(const grade_opts_t *o, const lab_t *lab, const char *scratch, build_result_t *br,
                         char *err, size_t errlen);

/* The budget from a count: factor times it, at least VGPU_BUDGET_FLOOR
 * (factor 0: LAB_BUDGET_FACTOR_DEFAULT). */
unsigned long long vgpu_budget_of(unsigned long long reference_count, int factor);

#endif
