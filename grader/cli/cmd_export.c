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
    fputs("usage: cugrade export gradescope --lab LAB --out autograder.zip [--backend vgpu|emu]\n"
          "       cugrade export prairielearn --lab LAB --out QUESTION_DIR [--backend vgpu|emu]\n"
          "       cugrade export classroom --lab LAB --out STARTER_DIR [--backend vgpu|emu]\n"
          "\n"
          "Packages a lab for where courses grade (their graders have no GPU): Gradescope's\n"
          "autograder zip, a PrairieLearn question with its external grader, or a GitHub\n"
          "Classroom starter repository whose workflow runs make grade. They grade on the\n"
          "executor (vgpu, the default: the student's host code in a process of its own, the\n"
          "kernels run from nvcc's PTX by cugrade; the setup installs nvcc from NVIDIA's wheels\n"
          "where the image has none) or on the CPU emulator (emu: no nvcc, a weaker boundary;\n"
          "a Classroom starter, which has no reference, on the emulator only).\n"
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
                                         {"backend", required_argument, 0, 'b'},
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
        case 'b':
            if (strcmp(optarg, "vgpu") != 0 && strcmp(optarg, "emu") != 0) {
                fprintf(stderr, "cugrade export: bad --backend '%s' (vgpu or emu: a package's grader "
                                "has no GPU)\n", optarg);
                return EXIT_USAGE;
            }
            o.backend = optarg;
            break;
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
