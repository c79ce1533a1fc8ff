/* main.c - bin/cugrade: dispatch to a subcommand. */
#include "cli/commands.h"
#include "util/crash.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void usage(FILE *to)
{
    fputs("usage: cugrade <command> [options]\n"
          "\n"
          "commands:\n"
          "  run      grade one submission:  cugrade run --lab lab3 [--backend auto|emu|gpu|vgpu|native]\n"
          "           [--datasets DIR] [--json FILE] [--rubric FILE] [--jobs N] SUBMISSION\n"
          "  dataset  make or verify datasets: cugrade dataset --lab lab3 --shape MxKxN\n"
          "           [--seed S] [--values course|signed] --out DIR  |  cugrade dataset --check DIR...\n"
          "  batch    grade a class:  cugrade batch --lab lab3 --out RESULTS_DIR [--jobs N]\n"
          "           [--backend ...] [--checks all|none] [--resume] [--only ID]... SUBMISSIONS_DIR\n"
          "           (--slurm on a cluster, --status, --merge: docs/cluster.md)\n"
          "  rescore  score stored measurements again under a changed rubric (nothing runs):\n"
          "           cugrade rescore --lab lab3 [--rubric FILE] --measurements FILE --json OUT\n"
          "  export   package a lab for Gradescope, PrairieLearn or GitHub Classroom:\n"
          "           cugrade export gradescope|prairielearn|classroom --lab lab3 --out PATH\n"
          "  leaderboard  the class leaderboard of a batch:  cugrade leaderboard --out RESULTS_DIR\n"
          "           [--lab LAB] [--top N] [--json]\n"
          "  info     backends, the device (or the emulated one) and its limits\n"
          "\n"
          "Run 'cugrade <command> --help' for a command's options.\n",
          to);
}

int main(int argc, char **argv)
{
    crash_report_install(); /* a crash of cugrade's own says so, with its stack */
    if (argc < 2) {
        usage(stderr);
        return EXIT_USAGE;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "run") == 0)
        return cmd_run(argc - 1, argv + 1);
    if (strcmp(cmd, "dataset") == 0)
        return cmd_dataset(argc - 1, argv + 1);
    if (strcmp(cmd, "batch") == 0)
        return cmd_batch(argc - 1, argv + 1);
    if (strcmp(cmd, "rescore") == 0)
        return cmd_rescore(argc - 1, argv + 1);
    if (strcmp(cmd, "export") == 0)
        return cmd_export(argc - 1, argv + 1);
    if (strcmp(cmd, "leaderboard") == 0)
        return cmd_leaderboard(argc - 1, argv + 1);
    if (strcmp(cmd, "info") == 0)
        return cmd_info(argc - 1, argv + 1);
    if (strcmp(cmd, "--version") == 0 || strcmp(cmd, "version") == 0) {
        printf("cugrade %s\n", CUGRADE_VERSION);
        return 0;
    }
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 || strcmp(cmd, "help") == 0) {
        usage(stdout);
        return 0;
    }
    fprintf(stderr, "cugrade: unknown command '%s'\n\n", cmd);
    usage(stderr);
    return EXIT_USAGE;
}
