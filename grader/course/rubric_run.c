/* rubric_run.c - the run-affecting fields of a lab's rubric as one
 * canonical text (rubric.h rubric_run_fields): what cugrade batch --resume
 * hashes into a submission's run key, and what a measurement records, so a
 * rubric change that only touches points, visibility, names or thresholds
 * re-scores stored measurements instead of grading again. */
#include "course/rubric.h"
#include "util/util.h"

#include <stdlib.h>
#include <string.h>

static int cmp_override(const void *a, const void *b)
{
    return strcmp(((const dataset_override_t *)a)->name, ((const dataset_override_t *)b)->name);
}

/* Every override's time limit, by dataset name. */
static void overrides(const lab_rubric_t *r, strbuf_t *sb)
{
    dataset_override_t *sorted = calloc((size_t)r->noverrides + 1, sizeof *sorted);
    if (!sorted)
        return;
    memcpy(sorted, r->overrides, (size_t)r->noverrides * sizeof *sorted);
    qsort(sorted, (size_t)r->noverrides, sizeof *sorted, cmp_override);
    for (int i = 0; i < r->noverrides; i++)
        sb_appendf(sb, "datasets.overrides.%s.time_limit_s %.17g\n", sorted[i].name,
                   sorted[i].rule.time_limit_s);
    free(sorted);
}

char *rubric_run_fields(const lab_rubric_t *r)
{
    strbuf_t sb = {0};
    sb_appendf(&sb, "datasets.time_limit_s %.17g\n", r->datasets.time_limit_s);
    sb_appendf(&sb, "datasets.budget_s %.17g\n", r->budget_s);
    sb_appendf(&sb, "datasets.gpu_time_limit_s %.17g\n", r->gpu_time_limit_s);
    sb_appendf(&sb, "datasets.gpu_budget_s %.17g\n", r->gpu_budget_s);
    if (r->timeouts_max != RUBRIC_TIMEOUTS_UNSET) /* as before the key, when not given */
        sb_appendf(&sb, "datasets.timeouts_max %d\n", r->timeouts_max);
    overrides(r, &sb);
    sb_appendf(&sb, "hidden.count %d\n", r->hidden.count);
    sb_append(&sb, "checks");
    for (int id = 0; id < CHECK_COUNT; id++)
        if (r->checks[id].present)
            sb_appendf(&sb, " %s", check_name((check_id_t)id));
    sb_append(&sb, "\n");
    const perf_rule_t *p = &r->performance;
    if (!p->present) {
        sb_append(&sb, "performance none\n");
        return sb_detach(&sb);
    }
    sb_append(&sb, "performance.shapes");
    for (int i = 0; i < p->nshapes; i++)
        sb_appendf(&sb, " %s", p->shapes[i]);
    sb_appendf(&sb, "\nperformance.time_cap_s %.17g\n", p->time_cap_s);
    return sb_detach(&sb);
}
