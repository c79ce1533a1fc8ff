/* cmd_info.c - `cugrade info`: which backends are usable here, and the
 * device's properties (the real GPU, or the emulator's emulated device). */
#include "build/backend.h"
#include "build/build.h"
#include "cli/commands.h"
#include "run/runner.h"
#include "util/util.h"

#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void info_usage(FILE *to)
{
    fputs("usage: cugrade info [--backend auto|emu|gpu]\n", to);
}

/* Builds and runs tools/devquery.cu on the backend; prints its lines. */
static int print_device(const char *root, backend_t backend)
{
    char prog[PATH_MAX];
    char *log = NULL;
    if (build_tool(root, backend, "tools/devquery.cu", prog, sizeof prog, &log) != 0) {
        fprintf(stderr, "cugrade info: cannot build the device query for the %s backend:\n%s",
                backend_name(backend), log);
        free(log);
        return EXIT_CANNOT_GRADE;
    }
    free(log);
    char *argv[] = {prog, NULL};
    run_spec_t spec = {.argv = argv, .timeout_s = 60};
    run_result_t res;
    run_one(&spec, &res);
    int ok = res.exited && res.exit_code == 0;
    fputs(res.output ? res.output : "", stdout);
    run_result_free(&res);
    return ok ? 0 : EXIT_CANNOT_GRADE;
}

int cmd_info(int argc, char **argv)
{
    static const struct option opts[] = {{"backend", required_argument, 0, 'b'},
                                         {"help", no_argument, 0, 'h'}, {0, 0, 0, 0}};
    backend_t requested = BACKEND_AUTO;
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        if (c == 'b' && backend_parse(optarg, &requested) == 0)
            continue;
        if (c == 'h') {
            info_usage(stdout);
            return 0;
        }
        info_usage(stderr);
        return EXIT_USAGE;
    }
    const char *root = cugrade_root();
    char nvcc[PATH_MAX], why[160];
    int gpus = gpu_device_count();
    printf("cugrade %s (%s)\n", CUGRADE_VERSION, root);
    printf("backends:\n");
    printf("  emu  CPU emulator: always available\n");
    printf("  gpu  %d CUDA device%s; nvcc: %s\n", gpus, gpus == 1 ? "" : "s",
           find_program("nvcc", nvcc, sizeof nvcc) == 0 ? nvcc : "not found");
    backend_t b = backend_resolve(requested, why, sizeof why);
    printf("using: %s (%s)\n\n", backend_name(b), why);
    return print_device(root, b);
}
