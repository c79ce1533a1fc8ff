/* cmd_rescore.c - `cugrade rescore`: score the measurements a grading
 * stored (cugrade run --measurements, RESULTS_DIR/<id>/measurements.json of
 * a batch) again under a rubric, without building or running anything:
 * after a change of points, visibility, test names or thresholds. Prints
 * the report as `cugrade run` does and writes results.json. Exit 0 when
 * re-scored, 2 when it cannot be (a bad rubric or lab, measurements that
 * cannot be read, or that were measured under other run-affecting rubric
 * fields: those need `cugrade run`), 64 for bad usage. */
#include "cli/commands.h"
#include "pipeline/rescore.h"
#include "report/report.h"
#include "util/util.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void rescore_usage(FILE *to)
{
    fputs("usage: cugrade rescore --lab LAB [--rubric FILE] --measurements FILE --json OUT\n"
          "                       [--color auto|always|never] [--verbose]\n"
          "\n"
          "Scores the measurements of an earlier grading (cugrade run --measurements FILE, or\n"
          "RESULTS_DIR/<id>/measurements.json of cugrade batch) under the rubric (default:\n"
          "rubric.json of the checkout), builds and runs nothing, prints the report and writes\n"
          "results.json to OUT (a temporary file, then renamed).\n"
          "Points, visibility, test names and thresholds may differ from the rubric that\n"
          "measured; time limits and budgets, the hidden count, which checks exist and the\n"
          "performance shapes and time cap may not (those change what runs: grade again).\n"
          "Exit status: 0 re-scored, 2 could not (the message names the file), 64 bad usage.\n",
          to);
}

typedef struct {
    const char *lab, *rubric, *measured, *json;
    color_mode_t color;
    int verbose;
} rescore_args_t;

static int parse_args(int argc, char **argv, rescore_args_t *a)
{
    static const struct option opts[] = {
        {"lab", required_argument, 0, 'l'},   {"rubric", required_argument, 0, 'r'},
        {"measurements", required_argument, 0, 'm'}, {"json", required_argument, 0, 'j'},
        {"color", required_argument, 0, 'c'}, {"verbose", no_argument, 0, 'v'},
        {"help", no_argument, 0, 'h'},        {0, 0, 0, 0}};
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        switch (c) {
        case 'l': a->lab = optarg; break;
        case 'r': a->rubric = optarg; break;
        case 'm': a->measured = optarg; break;
        case 'j': a->json = optarg; break;
        case 'v': a->verbose = 1; break;
        case 'c':
            if (strcmp(optarg, "auto") == 0)
                a->color = COLOR_AUTO;
            else if (strcmp(optarg, "always") == 0)
                a->color = COLOR_ALWAYS;
            else if (strcmp(optarg, "never") == 0)
                a->color = COLOR_NEVER;
            else
                return fprintf(stderr, "cugrade rescore: bad --color '%s'\n", optarg), -1;
            break;
        case 'h': rescore_usage(stdout); exit(0);
        default: return -1;
        }
    }
    if (optind != argc || !a->lab || !a->measured || !a->json)
        return -1;
    return 0;
}

int cmd_rescore(int argc, char **argv)
{
    rescore_args_t a = {.color = COLOR_AUTO};
    if (parse_args(argc, argv, &a) != 0) {
        rescore_usage(stderr);
        return EXIT_USAGE;
    }
    rescore_ctx_t *ctx = calloc(1, sizeof *ctx);
    grade_run_t *run = calloc(1, sizeof *run);
    char err[4096];
    int rc = EXIT_CANNOT_GRADE;
    if (!ctx || !run)
        fprintf(stderr, "cugrade rescore: out of memory\n");
    else if (rescore_open(cugrade_root(), a.lab, a.rubric, ctx, err, sizeof err) != 0 ||
             rescore_file(ctx, a.measured, run, err, sizeof err) != 0 ||
             grade_write_json(&run->grade, a.json, err, sizeof err) != 0)
        fprintf(stderr, "cugrade rescore: cannot re-score: %s\n", err);
    else {
        report_print(stdout, run, a.lab, a.color, a.verbose);
        printf("  re-scored from %s (nothing built or run)\n  results: %s\n", a.measured, a.json);
        rc = run->cannot_grade ? EXIT_CANNOT_GRADE : EXIT_GRADED; /* as cugrade run's was */
    }
    if (run)
        grade_run_free(run);
    if (ctx)
        rescore_close(ctx);
    free(run);
    free(ctx);
    return rc;
}
