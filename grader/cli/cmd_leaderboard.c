/* cmd_leaderboard.c - `cugrade leaderboard --out RESULTS_DIR`: the class
 * leaderboard of a batch's results folder in the terminal (report/board.h),
 * or as JSON. A malformed results.json is named on stderr and skipped.
 * Exit 0 when the folder was read (even empty), 2 when it cannot be (or
 * holds several labs without --lab), 64 for bad usage. */
#include "cli/commands.h"
#include "report/board.h"

#include <getopt.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const char *out_dir, *lab;
    int json, top;
} lb_opts_t;

static void lb_usage(FILE *to)
{
    fputs("usage: cugrade leaderboard --out RESULTS_DIR [--lab LAB] [--top N] [--json]\n"
          "\n"
          "Ranks the students of a batch's results folder (RESULTS_DIR/<id>/results.json) by\n"
          "the first entry of their Gradescope \"leaderboard\" list: the kernel's rate (TFLOP/s,\n"
          "or GB/s for a reduction lab) as a geometric mean over the timed shapes, best first;\n"
          "equal rates share a rank. Then the students without a usable GPU timing, with why.\n"
          "--lab: only that lab's results (needed when the folder holds several labs);\n"
          "--top N: only ranks 1 to N; --json: the board as JSON (summary.json's \"leaderboard\").\n"
          "A results.json that is not valid is named on stderr and skipped.\n"
          "Exit status: 0 the folder was read, 2 it cannot be, 64 bad usage.\n",
          to);
}

/* 0, 1 for --help, -1 for bad usage. */
static int parse_args(int argc, char **argv, lb_opts_t *o)
{
    static const struct option opts[] = {
        {"out", required_argument, 0, 'o'}, {"lab", required_argument, 0, 'l'},
        {"top", required_argument, 0, 't'}, {"json", no_argument, 0, 'j'},
        {"help", no_argument, 0, 'h'},      {0, 0, 0, 0}};
    int c;
    char *end;
    optind = 1;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        if (c == 'o')
            o->out_dir = optarg;
        else if (c == 'l')
            o->lab = optarg;
        else if (c == 'j')
            o->json = 1;
        else if (c == 't' && (o->top = (int)strtol(optarg, &end, 10)) > 0 && !*end)
            continue;
        else if (c == 'h')
            return 1;
        else
            return c == 't' ? fprintf(stderr, "cugrade leaderboard: bad --top '%s'\n", optarg), -1 : -1;
    }
    if (optind < argc && !o->out_dir)
        o->out_dir = argv[optind++]; /* the folder may also come last */
    if (!o->out_dir || optind < argc) {
        fputs(o->out_dir ? "cugrade leaderboard: unexpected arguments\n"
                         : "cugrade leaderboard: --out RESULTS_DIR is required\n", stderr);
        return -1;
    }
    return 0;
}

int cmd_leaderboard(int argc, char **argv)
{
    lb_opts_t o = {0};
    int rc = parse_args(argc, argv, &o);
    if (rc != 0) {
        lb_usage(rc > 0 ? stdout : stderr);
        return rc > 0 ? 0 : EXIT_USAGE;
    }
    board_t b;
    char err[512];
    if (board_load(o.out_dir, o.lab, &b, err, sizeof err) != 0) {
        fprintf(stderr, "cugrade leaderboard: %s\n", err);
        board_free(&b);
        return EXIT_CANNOT_GRADE;
    }
    for (int i = 0; i < b.nskipped; i++)
        fprintf(stderr, "cugrade leaderboard: skipped %s\n", b.skipped[i]);
    if (o.json) {
        json_object *j = board_to_json(&b);
        puts(json_object_to_json_string_ext(j, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE));
        json_object_put(j);
    } else if (b.n == 0) {
        printf("%s: no results.json to rank%s\n", o.out_dir,
               b.other_labs ? " for this lab" : b.nskipped ? " (every one was skipped)" : " (nothing graded yet)");
    } else {
        strbuf_t sb = {0};
        board_text(&sb, &b, o.top);
        fputs(sb_str(&sb), stdout);
        sb_free(&sb);
    }
    board_free(&b);
    return 0;
}
