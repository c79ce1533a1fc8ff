/* cmd_export.c - `cugrade export gradescope|prairielearn|classroom --lab LAB
 * --out PATH`: the command line of the exports; the work is in
 * grader/export/. Exit 0 written, 2 could not (the reason said), 64 usage. */
#include "cli/commands.h"
#include "export/export.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

static void export_usage(FILE *to)
{
    fputs("usage: cugrade export gradescope --lab LAB --out autograder.zip\n"
          "       cugrade export prairielearn --lab LAB --out QUESTION_DIR\n"
          "       cugrade export classroom --lab LAB --out STARTER_DIR\n"
          "\n"
          "Packages a lab for where courses grade, on the CPU emulator (their graders have no\n"
          "GPU): Gradescope's autograder zip, a PrairieLearn question with its external\n"
          "grader, or a GitHub Classroom starter repository whose workflow runs make grade.\n"
          "Exit status: 0 written, 2 could not (the reason is said), 64 bad usage.\n",
          to);
}

typedef int (*export_fn)(const export_opts_t *, char *, size_t);

static export_fn export_of(const char *kind)
{
    if (strcmp(kind, "gradescope") == 0)
        return export_gradescope;
    if (strcmp(kind, "prairielearn") == 0)
        return export_prairielearn;
    if (strcmp(kind, "classroom") == 0)
        return export_classroom;
    return NULL;
}

int cmd_export(int argc, char **argv)
{
    static const struct option opts[] = {{"lab", required_argument, 0, 'l'},
                                         {"out", required_argument, 0, 'o'},
                                         {"help", no_argument, 0, 'h'},
                                         {0, 0, 0, 0}};
    export_opts_t o = {.root = cugrade_root()};
    if (argc >= 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
        export_usage(stdout);
        return 0;
    }
    export_fn fn = argc >= 2 ? export_of(argv[1]) : NULL;
    if (!fn) {
        export_usage(stderr);
        return EXIT_USAGE;
    }
    int c;
    optind = 2;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        switch (c) {
        case 'l': o.lab = optarg; break;
        case 'o': o.out = optarg; break;
        case 'h': export_usage(stdout); return 0;
        default: export_usage(stderr); return EXIT_USAGE;
        }
    }
    if (optind != argc || !o.lab || !o.out) {
        export_usage(stderr);
        return EXIT_USAGE;
    }
    char err[2048];
    if (fn(&o, err, sizeof err) != 0) {
        fprintf(stderr, "cugrade export %s: %s\n", argv[1], err);
        return EXIT_CANNOT_GRADE;
    }
    printf("cugrade export %s: wrote %s\n", argv[1], o.out);
    return 0;
}
