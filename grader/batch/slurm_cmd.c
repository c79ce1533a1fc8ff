/* slurm_cmd.c - the command lines of `cugrade batch --slurm`: the shell line
 * each array task runs (absolute paths only, so it runs from any node's
 * working folder), the merge job's line, --array's list of shards, and the
 * default number of shards. */
#include "batch/slurm.h"

#include <string.h>

void shell_quote(strbuf_t *sb, const char *arg)
{
    if (*arg && strspn(arg, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
                            "_@%+=:,./-") == strlen(arg)) {
        sb_append(sb, arg);
        return;
    }
    sb_append(sb, "'");
    for (const char *p = arg; *p; p++)
        sb_append(sb, *p == '\'' ? "'\\''" : (char[]){*p, '\0'});
    sb_append(sb, "'");
}

/* " --name value", the value quoted. */
static void opt(strbuf_t *sb, const char *name, const char *value)
{
    sb_appendf(sb, " %s ", name);
    shell_quote(sb, value);
}

/* "export CUGRADE_ROOT=...; exec .../bin/cugrade batch" */
static void start(strbuf_t *sb, const batch_opts_t *o)
{
    sb_append(sb, "export CUGRADE_ROOT=");
    shell_quote(sb, o->root);
    sb_append(sb, "; exec ");
    shell_quote(sb, o->self_exe);
    sb_append(sb, " batch");
}

/* The options that change what a task grades or how: as given, paths
 * absolute. Each task finds its own CPU count and GPU queue on its node. */
static void batch_options(strbuf_t *sb, const batch_opts_t *o)
{
    char num[64];
    opt(sb, "--lab", o->lab);
    opt(sb, "--out", o->out_dir);
    opt(sb, "--backend", o->backend);
    opt(sb, "--checks", o->checks ? "all" : "none");
    snprintf(num, sizeof num, "%g", o->timeout_s);
    opt(sb, "--timeout-s", num);
    if (o->budget_s > 0) {
        snprintf(num, sizeof num, "%g", o->budget_s);
        opt(sb, "--budget-s", num);
    }
    if (o->perf_retime_s > 0) {
        snprintf(num, sizeof num, "%g", o->perf_retime_s);
        opt(sb, "--perf-retime-s", num);
    }
    if (o->datasets_dir)
        opt(sb, "--datasets", o->datasets_dir);
    if (o->rubric_path)
        opt(sb, "--rubric", o->rubric_path);
    if (o->hidden_seed)
        opt(sb, "--hidden-seed", o->hidden_seed);
    if (o->gpu_queue)
        opt(sb, "--gpu-queue", o->gpu_queue);
    else if (batch_may_use_gpu(o)) /* a queue of the task's own, on its node: its
                                               * GPU is its alone, and flock may not work on
                                               * the shared filesystem */
        sb_append(sb, " --gpu-queue \"${TMPDIR:-/tmp}/cugrade-gpu-queue.$SLURM_JOB_ID\"");
    if (o->jobs > 0) {
        snprintf(num, sizeof num, "%d", o->jobs);
        opt(sb, "--jobs", num);
    } else {
        sb_append(sb, " --jobs \"${SLURM_CPUS_PER_TASK:-1}\"");
    }
    for (int i = 0; i < o->nonly; i++)
        opt(sb, "--only", o->only[i]);
}

char *slurm_task_command(const batch_opts_t *o, int nshards)
{
    strbuf_t sb = {0};
    start(&sb, o);
    batch_options(&sb, o);
    sb_appendf(&sb, " --resume --no-class-files --shard \"$SLURM_ARRAY_TASK_ID/%d\" ", nshards);
    shell_quote(&sb, o->submissions_dir);
    return sb_detach(&sb);
}

char *slurm_merge_command(const batch_opts_t *o)
{
    strbuf_t sb = {0};
    start(&sb, o);
    sb_append(&sb, " --merge");
    opt(&sb, "--out", o->out_dir);
    return sb_detach(&sb);
}

void slurm_array_spec(const unsigned char *todo, int count, strbuf_t *sb)
{
    int first = 1;
    for (int i = 0; i < count; i++) {
        if (!todo[i])
            continue;
        int j = i;
        while (j + 1 < count && todo[j + 1])
            j++;
        sb_appendf(sb, first ? "%d" : ",%d", i);
        if (j > i)
            sb_appendf(sb, "-%d", j);
        first = 0;
        i = j;
    }
}

int slurm_default_shards(int n)
{
    int s = (n + SLURM_PER_SHARD - 1) / SLURM_PER_SHARD;
    return s < 1 ? 1 : s > SLURM_MAX_DEFAULT_SHARDS ? SLURM_MAX_DEFAULT_SHARDS : s;
}
