/* batch_shard.c - `cugrade batch --shard K/N`: grade only one shard of the
 * class, so N batches (the tasks of a Slurm job array, slurm_submit.c)
 * share one class and one results folder. The assignment is by index in the
 * sorted class list, round robin: stable from run to run while the class is. */
#include "batch/batch.h"

#include <errno.h>
#include <stdlib.h>

int batch_shard_of(int index, int count)
{
    return count > 0 ? index % count : 0;
}

/* A whole number in [lo, hi] that ends where *end says. */
static int parse_int(const char *s, char **end, long lo, long hi, int *out)
{
    if (*s < '0' || *s > '9')
        return -1;
    errno = 0;
    long v = strtol(s, end, 10);
    if (errno != 0 || v < lo || v > hi)
        return -1;
    *out = (int)v;
    return 0;
}

int batch_parse_shard(const char *text, int *k, int *n)
{
    char *end;
    int kk, nn;
    if (parse_int(text, &end, 0, BATCH_MAX_SHARDS - 1, &kk) != 0 || *end != '/')
        return -1;
    if (parse_int(end + 1, &end, 1, BATCH_MAX_SHARDS, &nn) != 0 || *end != '\0' || kk >= nn)
        return -1;
    *k = kk, *n = nn;
    return 0;
}

int batch_keep_shard(const batch_opts_t *o, char **names, char **ids, int n, FILE *out)
{
    if (o->shard_count <= 0)
        return n;
    int kept = 0;
    for (int i = 0; i < n; i++) {
        if (batch_shard_of(i, o->shard_count) == o->shard_index) {
            names[kept] = names[i], ids[kept] = ids[i];
            kept++;
        } else {
            free(names[i]), free(ids[i]);
        }
    }
    for (int i = kept; i < n; i++)
        names[i] = ids[i] = NULL;
    fprintf(out, "cugrade batch: shard %d of %d (numbered from 0): %d of the class's %d submission(s)\n",
            o->shard_index, o->shard_count, kept, n);
    return kept;
}
