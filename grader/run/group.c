/* group.c - one process of the lab driver's list mode over some of a
 * program's runs (group.h): its folders, its list of datasets and its run
 * spec; runs_grouped.c and runs_ahead.c start such processes. */
#include "run/group.h"
#include "run/runs_separate.h"
#include "util/util.h"

#include <libgen.h>
#include <stdio.h>
#include <string.h>

#define GROUP_SLACK_S 10.0                /* a group process's start and exit, beyond its limits */
#define GROUP_OUTPUT_CAP_MIN (4u << 20)   /* output kept of a group process, at least */

int group_open(group_t *g, const runs_how_t *how)
{
    if (!how->grouped || lab_is_program(how->lab))
        return -1;
    char progdir[PATH_MAX];
    snprintf(progdir, sizeof progdir, "%s", how->program);
    snprintf(g->dir, sizeof g->dir, "%.3800s/%.40s-group", how->scratch, how->prefix);
    snprintf(g->list, sizeof g->list, "%.4000s/%.40s-datasets.list", dirname(progdir),
             how->prefix);
    snprintf(g->report, sizeof g->report, "%.4000s.report", g->dir);
    return mkdir_p(g->dir, NULL, 0);
}

/* Tabs and line breaks would break the list's lines. */
static int listable(const char *s) { return !strpbrk(s, "\t\n\r"); }

int group_write_list(const group_t *g, const ds_run_t *runs, const int *index, int n,
                     const char *out_suffix)
{
    strbuf_t sb = {0};
    int ok = 1;
    for (int i = 0; i < n; i++) {
        const ds_run_t *r = &runs[index[i]];
        sb_appendf(&sb, "%.9g\t--", r->spec.timeout_s);
        for (int a = 1; r->argv[a]; a++) {
            int out = out_suffix && r->argv[a] == r->out_path;
            sb_appendf(&sb, "\t%s%s", r->argv[a], out ? out_suffix : "");
            ok = ok && listable(r->argv[a]);
        }
        sb_append(&sb, "\n");
    }
    ok = ok && write_file_atomic(g->list, sb_str(&sb), sb.len, NULL, 0) == 0;
    sb_free(&sb);
    return ok ? 0 : -1;
}

run_spec_t group_spec(const group_t *g, const ds_run_t *runs, const int *index, int n,
                      const runs_how_t *how, int tail, char *argv[GROUP_ARGV_MAX],
                      const char *shown[2])
{
    int a = 0;
    argv[a++] = (char *)how->program, argv[a++] = "--each", argv[a++] = (char *)g->list;
    if (tail) {
        argv[a++] = "--time";
        for (int i = 0; how->tail_args[i] && a < GROUP_ARGV_MAX - 1; i++)
            argv[a++] = how->tail_args[i];
    }
    argv[a] = NULL;
    shown[0] = g->list, shown[1] = NULL;
    double limits = 0;
    size_t cap = 0;
    for (int i = 0; i < n; i++) {
        limits += runs[index[i]].spec.timeout_s;
        cap += runs_output_cap(&runs[index[i]]) + 64;
    }
    return (run_spec_t){.argv = argv, .cwd = g->dir, .report_path = g->report, .ro_paths = shown,
                        .timeout_s = limits + GROUP_SLACK_S + (tail ? how->tail_limit_s : 0),
                        .output_cap = cap > GROUP_OUTPUT_CAP_MIN ? cap : GROUP_OUTPUT_CAP_MIN,
                        .sandboxed = 1, .not_after = how->not_after, .budget_s = how->budget_s};
}
