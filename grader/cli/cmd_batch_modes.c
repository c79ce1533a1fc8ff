/* cmd_batch_modes.c - the command line of `cugrade batch --slurm`, --status
 * and --merge (batch_modes.h); the work is in batch/slurm_submit.c and
 * batch/slurm_status.c. */
#include "cli/batch_modes.h"
#include "util/cugrade.h"

#include <stdlib.h>
#include <string.h>

int batch_mode_option(int c, const char *arg, slurm_opts_t *s)
{
    char *end;
    switch (c) {
    case 'U': s->submit = 1; return 0;
    case 'T': s->status = 1; return 0;
    case 'M': s->merge = 1; return 0;
    case 'X':
        if (s->nsbatch == SLURM_MAX_OPTS)
            return fprintf(stderr, "cugrade batch: more than %d --sbatch options\n", SLURM_MAX_OPTS), -1;
        s->sbatch[s->nsbatch++] = arg;
        return 0;
    case 'n':
        s->shards = (int)strtol(arg, &end, 10);
        if (*arg == '\0' || *end != '\0' || s->shards < 1 || s->shards > BATCH_MAX_SHARDS)
            return fprintf(stderr, "cugrade batch: bad --shards '%s' (1 to %d)\n", arg, BATCH_MAX_SHARDS), -1;
        return 0;
    }
    return -1;
}

int batch_mode_check(const batch_opts_t *o, slurm_opts_t *s, int nargs)
{
    if (s->status && s->merge)
        return fprintf(stderr, "cugrade batch: --status or --merge, not both\n"), -1;
    if (s->status || s->merge)
        s->submit = 0; /* --slurm --status: the status */
    if ((s->shards || s->nsbatch) && !s->submit)
        return fprintf(stderr, "cugrade batch: --shards and --sbatch go with --slurm\n"), -1;
    if (s->submit && o->shard_count > 0)
        return fprintf(stderr, "cugrade batch: --slurm makes the shards itself (--shards N), "
                               "not --shard K/N\n"), -1;
    s->have_submissions = nargs == 1;
    return nargs == 1 || (nargs == 0 && (s->status || s->merge)) ? 0 : -1;
}

int batch_mode_wanted(const slurm_opts_t *s)
{
    return s->submit || s->status || s->merge;
}

int batch_mode_run(batch_opts_t *o, slurm_opts_t *s, FILE *out)
{
    if (s->status)
        return batch_status(o, s, out);
    if (s->merge)
        return batch_merge(o, s, out);
    return slurm_submit(o, s, out);
}

void batch_mode_usage(FILE *to)
{
    fputs("\n"
          "On a cluster with Slurm (docs/cluster.md):\n"
          "  cugrade batch --slurm [--sbatch OPT]... [--shards N] --lab LAB --out RESULTS_DIR\n"
          "                [batch options] SUBMISSIONS_DIR\n"
          "submits one job array, a task per shard of the class (default ceil(submissions/8),\n"
          "at most 256), each `cugrade batch --shard K/N --resume --no-class-files` with the\n"
          "options above into RESULTS_DIR (on a filesystem every node sees), then a job that\n"
          "runs `cugrade batch --merge` once the array has ended. --sbatch OPT goes verbatim to\n"
          "both sbatch calls (--sbatch=--partition=gpu --sbatch=--time=02:00:00); --backend gpu or native\n"
          "asks for --gres=gpu:1. Run again, it submits only the shards that still hold a\n"
          "submission without an up-to-date result (as --resume decides), or says none is left.\n"
          "What was submitted, and the tasks' logs: RESULTS_DIR/.slurm/.\n"
          "  cugrade batch --status --out RESULTS_DIR [--lab LAB SUBMISSIONS_DIR]\n"
          "how many submissions are done, missing or failed, and the Slurm jobs' states.\n"
          "  cugrade batch --merge --out RESULTS_DIR\n"
          "rebuilds gradebook.csv, summary.json, class.html and the reports from the results,\n"
          "without grading (exit 2 while a submission has no result).\n",
          to);
}
