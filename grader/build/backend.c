/* backend.c - backend names and GPU detection. The probe dlopen()s the CUDA
 * driver library in a forked child, so the grader links no CUDA library and
 * never carries CUDA state into the children it forks later. */
#include "build/backend.h"
#include "util/cugrade.h"
#include "util/util.h"

#include <dlfcn.h>
#include <limits.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

const char *backend_name(backend_t b)
{
    switch (b) {
    case BACKEND_EMU: return "emu";
    case BACKEND_NATIVE: return "native";
    case BACKEND_VGPU: return "vgpu";
    case BACKEND_GPU: return "gpu";
    default: return "auto";
    }
}

int backend_parse(const char *s, backend_t *out)
{
    if (strcmp(s, "auto") == 0)
        *out = BACKEND_AUTO;
    else if (strcmp(s, "emu") == 0)
        *out = BACKEND_EMU;
    else if (strcmp(s, "gpu") == 0)
        *out = BACKEND_GPU;
    else if (strcmp(s, "native") == 0)
        *out = BACKEND_NATIVE;
    else if (strcmp(s, "vgpu") == 0)
        *out = BACKEND_VGPU;
    else
        return -1;
    return 0;
}

int backend_checks_itself(backend_t b) { return b == BACKEND_EMU || b == BACKEND_VGPU; }

typedef int (*cu_init_fn)(unsigned);
typedef int (*cu_count_fn)(int *);
typedef int (*cu_device_fn)(int *, int);
typedef int (*cu_attribute_fn)(int *, int, int);
typedef int (*cu_bus_id_fn)(char *, int, int);

enum { CC_MAJOR_ATTRIBUTE = 75, CC_MINOR_ATTRIBUTE = 76 }; /* CU_DEVICE_ATTRIBUTE_... */

/* In a probe child: the driver, started, and its device count; NULL when
 * there is no driver or it fails. */
static void *driver_started(int *count)
{
    void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib)
        return NULL;
    cu_init_fn cu_init = (cu_init_fn)dlsym(lib, "cuInit");
    cu_count_fn cu_count = (cu_count_fn)dlsym(lib, "cuDeviceGetCount");
    *count = 0;
    if (!cu_init || !cu_count || cu_init(0) != 0 || cu_count(count) != 0)
        return NULL;
    return lib;
}

/* Each device's compute capability (major * 10 + minor) and PCI bus id, a
 * line "CC BUS_ID" each, written to out; the count (0 on any failure). */
static int devices_in_this_process(int out)
{
    int n = 0;
    void *lib = driver_started(&n);
    cu_device_fn cu_device = lib ? (cu_device_fn)dlsym(lib, "cuDeviceGet") : NULL;
    cu_attribute_fn cu_attribute = lib ? (cu_attribute_fn)dlsym(lib, "cuDeviceGetAttribute") : NULL;
    cu_bus_id_fn cu_bus_id = lib ? (cu_bus_id_fn)dlsym(lib, "cuDeviceGetPCIBusId") : NULL;
    if (!cu_device || !cu_attribute || !cu_bus_id)
        return 0;
    for (int i = 0; i < n && i < GPU_DEVICES_MAX; i++) {
        int dev = 0, major = 0, minor = 0;
        char id[GPU_BUS_ID_LEN] = "";
        if (cu_device(&dev, i) != 0 || cu_attribute(&major, CC_MAJOR_ATTRIBUTE, dev) != 0 ||
            cu_attribute(&minor, CC_MINOR_ATTRIBUTE, dev) != 0 || cu_bus_id(id, sizeof id, dev) != 0)
            return 0;
        dprintf(out, "%d %s\n", major * 10 + minor, id);
    }
    return n < GPU_DEVICES_MAX ? n : GPU_DEVICES_MAX;
}

/* probe() run in a forked child, its answer (0..255) its exit status, what
 * it writes to its descriptor in text: the grader itself never starts CUDA.
 * 0 when the child fails. */
static int probe_in_child(int (*probe)(int out), char *text, size_t textlen)
{
    int pipe_fds[2];
    if (pipe(pipe_fds) != 0)
        return 0;
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        close(pipe_fds[0]);
        close(pipe_fds[1]);
        return 0;
    }
    if (pid == 0) {
        close(pipe_fds[0]);
        _exit(probe(pipe_fds[1]));
    }
    close(pipe_fds[1]);
    size_t got = 0;
    char sink[256]; /* what does not fit is read and dropped, so the child never blocks */
    for (;;) {
        int keep = got + 1 < textlen;
        ssize_t r = read(pipe_fds[0], keep ? text + got : sink, keep ? textlen - 1 - got : sizeof sink);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        if (keep)
            got += (size_t)r;
    }
    close(pipe_fds[0]);
    if (textlen > 0)
        text[got] = '\0';
    int status = 0;
    if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
        return 0;
    return WEXITSTATUS(status);
}

int gpu_count_forced(int *n)
{
    const char *force = getenv("CUGRADE_GPU_COUNT"); /* tests, odd setups, a batch's children */
    if (!force)
        return 0;
    *n = atoi(force);
    return 1;
}

int gpu_device_count(void)
{
    int n;
    gpu_device_t dev[GPU_DEVICES_MAX];
    return gpu_count_forced(&n) ? n : gpu_devices(dev, GPU_DEVICES_MAX);
}

int gpu_devices(gpu_device_t *out, int max)
{
    char text[4096];
    int n = probe_in_child(devices_in_this_process, text, sizeof text), got = 0;
    for (char *line = strtok(text, "\n"); line && got < n && got < max; line = strtok(NULL, "\n"))
        if (sscanf(line, "%d %31s", &out[got].cc, out[got].bus_id) == 2)
            got++;
    return got == n ? got : 0;
}

backend_t backend_resolve(backend_t requested, char *why, size_t whylen)
{
    int asks = requested == BACKEND_AUTO || requested == BACKEND_GPU;
    int n = asks ? gpu_device_count() : 0;
    int executor = asks && backend_executor_chosen(cugrade_root(), n);
    return backend_resolve_with(requested, n, executor, why, whylen);
}

int backend_gpu_missing(const char *root, char *why, size_t whylen)
{
    static const char others[] = "grade with --backend vgpu (the executor alone), emu, or native "
                                 "(the program itself on the GPU)";
    char runner[PATH_MAX + 32];
    if (gpu_device_count() == 0)
        snprintf(why, whylen, "--backend gpu needs a CUDA device and none was found (no driver, or "
                 "no device); %s", others);
    else if (!backend_executor_ready(root))
        snprintf(why, whylen, "--backend gpu grades on the executor and replays its launches on the "
                 "GPU; the executor is not built or nvcc is missing (bin/cugrade-vgpu, "
                 "build/libcugrade_vcudart.a: make all); %s", others);
    else if (!backend_replay_runner(root, -1, runner, sizeof runner))
        snprintf(why, whylen, "--backend gpu replays the executor's launches on the GPU with "
                 "bin/cugrade-replay, which is not built (make all, with nvcc)%s; %s",
                 getenv("CUGRADE_REPLAY") ? " or $CUGRADE_REPLAY is off" : "", others);
    else
        return 0;
    return 1;
}

int backend_executor_chosen(const char *root, int gpus)
{
    char runner[PATH_MAX + 32];
    return backend_executor_ready(root) && (gpus == 0 || backend_replay_runner(root, gpus, runner, sizeof runner));
}

int backend_executor_ready(const char *root)
{
    char path[PATH_MAX + 64];
    snprintf(path, sizeof path, "%s/bin/cugrade-vgpu", root);
    if (access(path, X_OK) != 0)
        return 0;
    snprintf(path, sizeof path, "%s/build/libcugrade_vcudart.a", root);
    if (access(path, R_OK) != 0)
        return 0;
    return build_compiler_path(root, BACKEND_VGPU, path, sizeof path) == 0;
}

int backend_replay_runner(const char *root, int gpus, char *out, size_t len)
{
    const char *env = getenv("CUGRADE_REPLAY");
    if (env && *env) {
        snprintf(out, len, "%s", strcmp(env, "off") != 0 ? env : "");
        return out[0] != '\0';
    }
    snprintf(out, len, "%s/bin/cugrade-replay", root);
    if (access(out, X_OK) == 0 && (gpus < 0 ? gpu_device_count() : gpus) > 0)
        return 1;
    out[0] = '\0';
    return 0;
}

backend_t backend_resolve_with(backend_t requested, int n, int executor, char *why, size_t whylen)
{
    if (requested == BACKEND_GPU) {
        if (why)
            snprintf(why, whylen, "requested with --backend gpu: nvcc's PTX on the grader's executor, "
                     "its launches replayed on the GPU");
        return n > 0 && executor ? BACKEND_VGPU : BACKEND_GPU;
    }
    if (requested != BACKEND_AUTO) {
        if (why)
            snprintf(why, whylen, "requested with --backend %s", backend_name(requested));
        return requested;
    }
    if (why) {
        if (n > 0 && executor)
            snprintf(why, whylen, "auto: %d CUDA device%s found: nvcc's PTX on the grader's executor, "
                     "its launches replayed on the GPU", n, n == 1 ? "" : "s");
        else if (n > 0)
            snprintf(why, whylen, "auto: %d CUDA device%s found and no executor with a replay runner "
                     "(nvcc, bin/cugrade-vgpu, bin/cugrade-replay), so the program on the GPU", n,
                     n == 1 ? "" : "s");
        else if (executor)
            snprintf(why, whylen, "auto: no CUDA device, so nvcc's PTX on the grader's executor");
        else
            snprintf(why, whylen, "auto: no CUDA device and no nvcc, so the CPU emulator");
    }
    return executor ? BACKEND_VGPU : n > 0 ? BACKEND_NATIVE : BACKEND_EMU;
}

void build_host_compiler(char *out, size_t outlen)
{
    const char *cxx = getenv("CUGRADE_CXX");
    if (!cxx || !*cxx)
        cxx = "g++";
    while (*cxx == ' ')
        cxx++;
    snprintf(out, outlen, "%.*s", (int)strcspn(cxx, " \t"), cxx);
}

int build_compiler_path(const char *root, backend_t backend, char *out, size_t outlen)
{
    if (backend == BACKEND_EMU) {
        snprintf(out, outlen, "%s/bin/emucc", root);
        return access(out, X_OK) == 0 ? 0 : -1;
    }
    return find_nvcc(out, outlen);
}
