/* cmd_info.c - `cugrade info`: which backends are usable here, each GPU's
 * architecture, bus and device file (what a batch's sandbox shows a child),
 * and the device's properties (the real GPU, or the emulator's emulated
 * device); with --lab LAB --call-header, the header the grader builds an
 * array lab's drivers with (its launch function's prototype and call: what
 * a timing program of the lab includes, bench/gpu_labs.sh). */
#include "batch/gpu_visible.h"
#include "build/backend.h"
#include "build/harness_flags.h"
#include "build/build.h"
#include "cli/commands.h"
#include "kinds/kind.h"
#include "run/runner.h"
#include "util/util.h"

#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

static void info_usage(FILE *to)
{
    fputs("usage: cugrade info [--backend auto|emu|gpu|vgpu|native]\n"
          "       cugrade info --lab LAB --call-header\n", to);
}

/* The array lab's call header on stdout (build/harness_flags.h). */
static int print_call_header(const char *root, const char *name)
{
    lab_t lab;
    char err[1024];
    if (lab_load(root, name, &lab, err, sizeof err) != 0) {
        fprintf(stderr, "cugrade info: %s\n", err);
        return EXIT_CANNOT_GRADE;
    }
    if (lab.array.nargs == 0) {
        fprintf(stderr, "cugrade info: lab %s is of kind %s: only an array lab's call is declared in lab.json\n",
                name, lab.kind->name);
        return EXIT_USAGE;
    }
    strbuf_t text = {0};
    harness_array_header(&lab, &text);
    fputs(sb_str(&text), stdout);
    sb_free(&text);
    return 0;
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

/* One line a GPU: "    gpu 0: sm_90, bus 0000:18:00.0, /dev/nvidia3", the
 * device file from the NVIDIA driver's information (batch/gpu_visible.h). */
static void print_gpus(const gpu_device_t *dev, int n)
{
    for (int k = 0; k < n; k++) {
        char node[32];
        if (gpu_device_node("/proc", dev[k].bus_id, node, sizeof node) != 0)
            snprintf(node, sizeof node, "device file not known");
        printf("    gpu %d: sm_%d, bus %s, %s\n", k, dev[k].cc, dev[k].bus_id, node);
    }
}

int cmd_info(int argc, char **argv)
{
    static const struct option opts[] = {{"backend", required_argument, 0, 'b'}, {"lab", required_argument, 0, 'l'},
                                         {"call-header", no_argument, 0, 'c'}, {"help", no_argument, 0, 'h'},
                                         {0, 0, 0, 0}};
    backend_t requested = BACKEND_AUTO;
    const char *lab = NULL;
    int c, call_header = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        if (c == 'b' && backend_parse(optarg, &requested) == 0)
            continue;
        if (c == 'l' || c == 'c') {
            lab = c == 'l' ? optarg : lab;
            call_header |= c == 'c';
            continue;
        }
        if (c == 'h') {
            info_usage(stdout);
            return 0;
        }
        info_usage(stderr);
        return EXIT_USAGE;
    }
    const char *root = cugrade_root();
    if (lab || call_header) {
        if (!lab || !call_header || optind < argc) {
            info_usage(stderr);
            return EXIT_USAGE;
        }
        return print_call_header(root, lab);
    }
    char nvcc[PATH_MAX], why[512];
    gpu_device_t dev[GPU_DEVICES_MAX];
    int gpus, ndev = 0; /* a pretended count ($CUGRADE_GPU_COUNT) has no devices to list */
    if (!gpu_count_forced(&gpus))
        gpus = ndev = gpu_devices(dev, GPU_DEVICES_MAX);
    printf("cugrade %s (%s)\n", CUGRADE_VERSION, root);
    printf("backends:\n");
    printf("  emu    CPU emulator: always available\n");
    printf("  native %d CUDA device%s; nvcc: %s\n", gpus, gpus == 1 ? "" : "s",
           find_nvcc(nvcc, sizeof nvcc) == 0 ? nvcc : "not found");
    print_gpus(dev, ndev);
    char vgpu[PATH_MAX + 32], vcudart[PATH_MAX + 32];
    snprintf(vgpu, sizeof vgpu, "%s/bin/cugrade-vgpu", root);
    snprintf(vcudart, sizeof vcudart, "%s/build/libcugrade_vcudart.a", root);
    int executor = access(vgpu, X_OK) == 0 && access(vcudart, R_OK) == 0;
    printf("  vgpu   PTX executor: %s\n",
           !executor ? "missing (run make: bin/cugrade-vgpu, build/libcugrade_vcudart.a)"
           : find_nvcc(nvcc, sizeof nvcc) == 0 ? "available (nvcc found)"
                                                         : "needs nvcc, not found");
    char runner[PATH_MAX + 32];
    if (backend_replay_runner(root, gpus, runner, sizeof runner))
        printf("  gpu    vgpu, each dataset replayed on the GPU by %s\n", runner);
    else
        printf("  gpu    not available: no replay on a GPU (%s)\n", getenv("CUGRADE_REPLAY") ? "$CUGRADE_REPLAY is off"
                                                   : gpus == 0 ? "no CUDA device"
                                                               : "bin/cugrade-replay not built");
    int asks = requested == BACKEND_AUTO || requested == BACKEND_GPU;
    backend_t b = backend_resolve_with(requested, gpus, asks && backend_executor_chosen(root, gpus), why,
                                       sizeof why); /* the GPUs probed once */
    if (b == BACKEND_GPU) {
        backend_gpu_missing(root, why, sizeof why);
        printf("using: none: %s\n", why);
        return EXIT_CANNOT_GRADE;
    }
    printf("using: %s (%s)\n\n", backend_name(b), why);
    if (b == BACKEND_VGPU) { /* the device is the executor's: what its runtime reports */
        printf("device: cugrade virtual GPU (bin/cugrade-vgpu runs nvcc's PTX for %s)\n",
               build_vgpu_arch());
        return executor ? 0 : EXIT_CANNOT_GRADE;
    }
    return print_device(root, b);
}
