/* harness_flags.c - the flags and dependencies of a lab's own programs
 * (harness_flags.h). */
#include "build/harness_flags.h"
#include "build/backend.h"
#include "util/util.h"

#include <pthread.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

const char *build_nvcc_arch(void)
{
    const char *a = getenv("CUGRADE_NVCC_ARCH");
    return a && *a ? a : "native";
}

static char vgpu_arch[16] = "sm_90";

/* The first visible GPU's architecture, once: the cubin a replay loads must be its. */
static void probe_vgpu_arch(void)
{
    int n;
    gpu_device_t dev[1];
    if ((gpu_count_forced(&n) && n == 0) || gpu_devices(dev, 1) != 1 || dev[0].cc < 10)
        return;
    snprintf(vgpu_arch, sizeof vgpu_arch, "sm_%d", dev[0].cc);
}

const char *build_vgpu_arch(void)
{
    const char *a = getenv("CUGRADE_NVCC_ARCH");
    if (a && *a && strcmp(a, "native") != 0)
        return a;
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, probe_vgpu_arch);
    return vgpu_arch;
}

double build_mtime(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return -1;
    return (double)st.st_mtim.tv_sec + (double)st.st_mtim.tv_nsec * 1e-9;
}

int build_cache_lock(const char *obj, const char *prefix, strbuf_t *log)
{
    char dir[PATH_MAX], err[512];
    path_dir(obj, dir, sizeof dir);
    if (mkdir_p(dir, err, sizeof err) != 0) {
        sb_appendf(log, "%s%s\n", prefix, err);
        return BUILD_CACHE_NO_DIR;
    }
    return file_lock(obj);
}

void harness_array_header(const lab_t *lab, strbuf_t *out)
{
    const array_spec_t *s = &lab->array;
    sb_appendf(out, "/* made by the grader from labs/%s/lab.json's signature (grader/build/harness_flags.c) */\n"
                    "#include <stdint.h>\n%s %s(", lab->name, s->returns_int ? "int" : "void", s->launch);
    for (int a = 0; a < s->nargs; a++) {
        const array_arg_t *g = &s->args[a];
        sb_appendf(out, "%s%s%s%s", a ? ", " : "", g->kind == ARG_INPUT ? "const " : "", g->ctype,
                   g->kind == ARG_PARAM ? "" : " *");
    }
    sb_appendf(out, ");\n#define CUGRADE_ARRAY_NARGS %d\n#define CUGRADE_ARRAY_CALL(v) %s(", s->nargs, s->launch);
    for (int a = 0; a < s->nargs; a++) {
        const array_arg_t *g = &s->args[a];
        if (g->kind == ARG_PARAM)
            sb_appendf(out, "%s(%s)(v)[%d]", a ? ", " : "", g->ctype, a);
        else
            sb_appendf(out, "%s(%s%s *)(uintptr_t)(v)[%d]", a ? ", " : "", g->kind == ARG_INPUT ? "const " : "",
                       g->ctype, a);
    }
    sb_appendf(out, ")\n#define CUGRADE_ARRAY_ARGS \"%s\"\n#define CUGRADE_ARRAY_OUT \"%s\"\n", lab->vgpu_call,
               lab->vgpu_out_shape);
    sb_appendf(out, "#define CUGRADE_ARRAY_IN_TYPES \"%s\"\n#define CUGRADE_ARRAY_OUT_INT %d\n", lab->vgpu_in_types,
               lab->vgpu_out_int);
}

int harness_array_header_write(const lab_t *lab, const char *path, strbuf_t *log)
{
    strbuf_t text = {0};
    harness_array_header(lab, &text);
    size_t len = 0;
    char err[256], *old = is_file(path) ? read_file(path, &len, err, sizeof err) : NULL;
    int rc = 0;
    if (!old || len != text.len || memcmp(old, sb_str(&text), len) != 0)
        rc = write_file_atomic(path, sb_str(&text), text.len, err, sizeof err);
    if (rc != 0)
        sb_appendf(log, "cannot write %s: %s\n", path, err);
    free(old);
    sb_free(&text);
    return rc;
}

int harness_flags(const lab_t *lab, char flags[HARNESS_MAX_FLAGS][HARNESS_FLAG_LEN])
{
    int n = 0;
    snprintf(flags[n++], HARNESS_FLAG_LEN, "-DCUGRADE_LAUNCH=%s", lab->launch);
    if (lab->launch_args == LAUNCH_M_N_K)
        snprintf(flags[n++], HARNESS_FLAG_LEN, "-DCUGRADE_LAUNCH_MNK");
    return n;
}

/* The newest modification time of the files in dir (not below). */
static double newest_in(const char *dir)
{
    double newest = -1;
    DIR *d = opendir(dir);
    for (struct dirent *e; d && (e = readdir(d));) {
        char path[PATH_MAX];
        if (e->d_name[0] == '.' || path_join(path, sizeof path, dir, e->d_name) != 0)
            continue;
        double t = build_mtime(path);
        if (t > newest)
            newest = t;
    }
    if (d)
        closedir(d);
    return newest;
}

double harness_common_mtime(const char *root)
{
    char dir[PATH_MAX];
    return path_join(dir, sizeof dir, root, "labs/common") == 0 ? newest_in(dir) : -1;
}

double harness_lab_mtime(const lab_t *lab)
{
    char path[PATH_MAX];
    double newest = -1;
    if (path_join(path, sizeof path, lab->dir, "lab.json") == 0)
        newest = build_mtime(path);
    const char *programs[] = {lab->driver_path, lab->has_timing ? lab->timing_program : ""};
    for (int i = 0; i < 2; i++) {
        if (!programs[i][0])
            continue;
        path_dir(programs[i], path, sizeof path);
        double t = newest_in(path);
        if (t > newest)
            newest = t;
    }
    return newest;
}
