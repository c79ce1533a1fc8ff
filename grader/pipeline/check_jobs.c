/* check_jobs.c - which datasets the checked emulator build runs on the gpu
 * backend (check_jobs.h). The small ones, every one of at most
 * CHECK_FLOP_CAP FLOP (small, uneven, one tile or several: the kind's shape
 * families at their smallest): a race, a barrier or an index past an edge
 * shows on the smallest shape that has the edge, the big ones cost the
 * emulator seconds each and show nothing more, and the GPU's own runs judge
 * every dataset's output. A dataset whose GPU run did not end is left out:
 * the emulator would spin to its own limit (30 s a dataset for lab 3,
 * against milliseconds for a run that ends) and show nothing. */
#include "pipeline/check_jobs.h"

#include <stdlib.h>

int check_run_did_not_end(const ds_run_t *run)
{
    return run && run->started && (run->result.timed_out || run->result.budget_out);
}

ds_job_t *check_jobs_pick(const ds_job_t *jobs, const ds_run_t *runs, int n, int *count,
                          int *left_out)
{
    ds_job_t *picked = calloc((size_t)n + 1, sizeof *picked);
    int k = 0, smallest = -1;
    *left_out = 0;
    for (int i = 0; i < n; i++) {
        if (runs && check_run_did_not_end(&runs[i])) {
            *left_out += jobs[i].flop <= CHECK_FLOP_CAP;
            continue;
        }
        if (jobs[i].flop <= CHECK_FLOP_CAP)
            picked[k++] = jobs[i];
        if (smallest < 0 || jobs[i].flop < jobs[smallest].flop)
            smallest = i;
    }
    if (k == 0 && smallest >= 0)
        picked[k++] = jobs[smallest];
    *count = k;
    return picked;
}
