/* sandbox.c - the sandbox's view and command line (sandbox.h), its top
 * layer: in the first tier, bubblewrap, then bin/cugrade-jail inside it; in
 * the second, the jail alone (sandbox_tier.c chooses; sandbox_argv.c has
 * the pieces). The bwrap command line is built in the parent from an
 * allow-list: the system folders, the program, the jail and the paths the
 * caller names, read-only; the run's folder, writable; the GPU's devices.
 * Nothing else exists inside (the checkout, reference/, datasets/, results,
 * other submissions, the TA's home). Mounts listed later lie on top of
 * earlier ones, so a hidden folder inside a shown one comes last. */
#include "run/sandbox.h"
#include "run/sandbox_argv.h"
#include "run/sandbox_tier.h"
#include "util/util.h"

#include <dirent.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_HIDDEN 64
#define MAX_RO 32

/* Threads share the hidden folders: a grading builds a sandbox for its
 * emulator build, a retry and its datasets at once, while another hides a
 * folder. hidden_lock guards them (appended, never removed: a string read
 * under the lock stays valid after it). */
static pthread_mutex_t hidden_lock = PTHREAD_MUTEX_INITIALIZER;
static char *hidden[MAX_HIDDEN];
static int secret_hidden[MAX_HIDDEN]; /* hidden[i] by sandbox_hide_dir, not as a results folder only */
static int nhidden;

/* Hides dir (secret: not only as a results folder). */
static void hide(const char *dir, int secret)
{
    char real[PATH_MAX];
    if (!dir || !realpath(dir, real) || !is_dir(real) || strcmp(real, "/") == 0)
        return;
    pthread_mutex_lock(&hidden_lock);
    int i = 0;
    while (i < nhidden && strcmp(hidden[i], real) != 0)
        i++;
    char *copy = i == nhidden && nhidden < MAX_HIDDEN ? strdup(real) : NULL;
    if (copy) /* counted only once it is there */
        hidden[nhidden++] = copy;
    if (i < nhidden)
        secret_hidden[i] = secret_hidden[i] || secret;
    pthread_mutex_unlock(&hidden_lock);
    if (secret) /* no view hides it in the second tier */
        sandbox_guard(real);
}

void sandbox_hide_dir(const char *dir) { hide(dir, 1); }

void sandbox_set_results_dir(const char *dir) { hide(dir, 0); }

void sandbox_cover_dir(const char *dir) { hide(dir, 0); }

/* 1 if /dev/<name> is one GPU's device file ("nvidia" and its number), not
 * one the driver shares between them (nvidiactl, nvidia-uvm, nvidia-caps). */
static int is_gpu_node(const char *name)
{
    if (strncmp(name, "nvidia", 6) != 0 || !name[6])
        return 0;
    return strspn(name + 6, "0123456789") == strlen(name + 6);
}

int sandbox_device_shown(const char *name, const char *only_gpu)
{
    if (strncmp(name, "nvidia", 6) != 0)
        return 0;
    if (!only_gpu || !is_gpu_node(name))
        return 1;
    const char *base = strrchr(only_gpu, '/');
    return strcmp(base ? base + 1 : only_gpu, name) == 0;
}

static const char *device_dir = "/dev"; /* another only in tests */

void sandbox_use_device_dir(const char *dir) { device_dir = dir ? dir : "/dev"; }

/* $CUGRADE_GPU_NODE when it is a GPU's device file here (and bwrap can
 * unset CUDA_VISIBLE_DEVICES inside), else NULL. */
static const char *gpu_node_only(void)
{
    const char *node = getenv("CUGRADE_GPU_NODE");
    size_t len = strlen(device_dir);
    struct stat st;
    if (!node || strncmp(node, device_dir, len) != 0 || node[len] != '/' ||
        !is_gpu_node(node + len + 1) || stat(node, &st) != 0 || !S_ISCHR(st.st_mode) ||
        !tier_bwrap_unsets())
        return NULL;
    return node;
}

static void add_nvidia_devices(char **argv, int *n)
{
    DIR *d = opendir(device_dir);
    if (!d)
        return;
    const char *only = gpu_node_only();
    int any = 0;
    for (struct dirent *e; (e = readdir(d));) {
        char path[PATH_MAX];
        if (!sandbox_device_shown(e->d_name, only))
            continue;
        snprintf(path, sizeof path, "%s/%s", device_dir, e->d_name);
        argv_add_mount(argv, n, "--dev-bind", path);
        any = 1;
    }
    closedir(d);
    if (any) /* the CUDA driver reads the devices' topology there */
        argv_add_mount(argv, n, "--ro-bind", "/sys");
    if (only) { /* the one GPU there is device 0, whatever its number outside */
        argv_add(argv, n, "--unsetenv");
        argv_add(argv, n, "CUDA_VISIBLE_DEVICES");
    }
}

/* 1 if path lies in (or is) one of dirs[0..n). */
static int covered(const char *path, char *const *dirs, int n)
{
    for (int i = 0; i < n; i++) {
        size_t k = strlen(dirs[i]);
        if (strncmp(path, dirs[i], k) == 0 && (path[k] == '/' || path[k] == '\0' ||
                                                 strcmp(dirs[i], "/") == 0))
            return 1;
    }
    return 0;
}

typedef struct {
    char *paths[MAX_RO]; /* where each is seen inside: the path as given, made absolute */
    char *real[MAX_RO];  /* what is mounted there: the path with its links resolved */
    int copy[MAX_RO];    /* a copy shown at another's place (sandbox_how_t copy_from) */
    int n;
} ro_list_t;

/* Adds real (its links resolved) to be shown read-only at seen (made
 * absolute): copy, a copy shown at another's place (sandbox_how_t
 * copy_from), or the path itself, skipped when it is already shown through
 * a folder above it or the system's. Nothing when real is missing. */
static void ro_put(ro_list_t *ro, const char *real, const char *seen, int copy)
{
    char resolved[PATH_MAX], at[PATH_MAX], cwd[PATH_MAX];
    if (!real || !*real || ro->n == MAX_RO || !realpath(real, resolved))
        return;
    if (seen[0] == '/')
        snprintf(at, sizeof at, "%s", seen);
    else if (getcwd(cwd, sizeof cwd))
        snprintf(at, sizeof at, "%.2000s/%.2000s", cwd, seen);
    else
        return;
    if (!copy && (covered(at, (char *const *)sandbox_system_dirs, SANDBOX_SYSTEM_DIRS) ||
                  covered(at, ro->paths, ro->n)))
        return;
    ro->paths[ro->n] = strdup(at);
    ro->copy[ro->n] = copy;
    ro->real[ro->n++] = strdup(resolved);
}

/* Adds a path to be shown read-only at the path given (a link is shown as
 * what it points to, so a program found through a link runs from the same
 * path inside). */
static void ro_add(ro_list_t *ro, const char *path)
{
    if (path)
        ro_put(ro, path, path, 0);
}

/* dir holds a CUDA toolkit: bin/nvcc and include/cuda_runtime.h (the
 * layout of NVIDIA's installers and of Debian's nvidia-cuda-toolkit). */
static int is_toolkit(const char *dir)
{
    char p[PATH_MAX];
    return path_join(p, sizeof p, dir, "bin/nvcc") == 0 && is_file(p) &&
           path_join(p, sizeof p, dir, "include/cuda_runtime.h") == 0 && is_file(p);
}

/* The CUDA toolkit of the nvcc the grader compiles with ($CUGRADE_NVCC,
 * else PATH's), when it lies outside /usr (compute-sanitizer, cuBLAS, a
 * toolkit of NVIDIA's wheels: tools/cuda_pip.sh): the folder above nvcc's
 * real bin/ when it holds a toolkit, never a folder that merely holds an
 * nvcc (~/.local/bin/nvcc would show the TA's ~/.local). */
static void ro_add_toolkit(ro_list_t *ro)
{
    char nvcc[PATH_MAX], real[PATH_MAX];
    if (find_nvcc(nvcc, sizeof nvcc) != 0 || !realpath(nvcc, real))
        return;
    char *slash = strrchr(real, '/');
    if (!slash || slash - real < 4 || strcmp(slash - 4, "/bin/nvcc") != 0)
        return;
    slash[-4] = '\0'; /* the folder above bin/ */
    if (real[0] && is_toolkit(real))
        ro_add(ro, real);
}

/* CUGRADE_SANDBOX_RO: more read-only paths, colon-separated (the TA's). */
static void ro_add_from_env(ro_list_t *ro)
{
    const char *v = getenv("CUGRADE_SANDBOX_RO");
    char copy[4096];
    snprintf(copy, sizeof copy, "%s", v ? v : "");
    for (char *save, *p = strtok_r(copy, ":", &save); p; p = strtok_r(NULL, ":", &save))
        ro_add(ro, p);
}

/* One mount of the view: how (--ro-bind, --bind, --tmpfs), from what, where. */
typedef struct {
    const char *how, *from, *where;
} mount_t;

/* By place, a folder before what lies in it; at the same place a cover
 * (--tmpfs) after what it covers, so that it wins whatever qsort does. */
static int by_place(const void *a, const void *b)
{
    const mount_t *x = a, *y = b;
    int c = strcmp(x->where, y->where);
    if (c != 0)
        return c;
    return (strcmp(x->how, "--tmpfs") == 0) - (strcmp(y->how, "--tmpfs") == 0);
}

/* A folder shown on purpose (a submission's own, for its compiler) stays
 * shown when it is also a results folder to hide (a lone `cugrade run`
 * writing its results there too): read-only it cannot be written, and
 * covering it would hide the submission from its own compiler. The
 * checkout's secrets (datasets/, reference/, .cugrade/) are covered always. */
static int shown_itself(int h, const ro_list_t *ro)
{
    for (int i = 0; !secret_hidden[h] && i < ro->n; i++) /* itself, or a copy at its place */
        if (strcmp(ro->real[i], hidden[h]) == 0 || strcmp(ro->paths[i], hidden[h]) == 0)
            return 1;
    return 0;
}

/* 1 if path lies in a copy shown at another's place: a copy holds no
 * folders, so nothing there needs covering (nor could be: it is read-only). */
static int in_a_copy(const char *path, const ro_list_t *ro)
{
    for (int i = 0; i < ro->n; i++)
        if (ro->copy[i] && covered(path, &ro->paths[i], 1))
            return 1;
    return 0;
}

/* The folders above where (not /) as bwrap's --dir makes them, 0755,
 * before the mount: the folders bwrap would make by itself are 0700, which
 * a program of the sandbox's uid (not root) cannot enter. Each is made
 * once; one that a mount before shows already is left as it is. */
static void add_parents(char **argv, int *n, const char *where)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s", where);
    for (char *slash = strchr(path + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
        *slash = '\0';
        int made = 0;
        for (int i = 1; i + 1 < *n && !made; i++)
            made = strcmp(argv[i], "--dir") == 0 && strcmp(argv[i + 1], path) == 0;
        if (!made) {
            argv_add(argv, n, "--dir");
            argv_add(argv, n, path);
        }
        *slash = '/';
    }
}

/* The shown paths, the writable folder and the hidden folders a shown path
 * would reveal, mounted in the order of their places: a folder before what
 * lies in it, so a hidden folder covers what is shown around it but not a
 * path shown inside it. */
static void add_view(char **argv, int *n, const ro_list_t *ro, const char *writable)
{
    mount_t m[MAX_RO + MAX_HIDDEN + 1];
    char *shown[MAX_RO + 1];
    int nm = 0, ns = 0;
    for (int i = 0; i < ro->n; i++) {
        /* a copy (root's, 0755: the sandbox's uid cannot write it) is bound
         * writable so that bwrap can make the folders of mounts below it */
        m[nm++] = (mount_t){ro->copy[i] ? "--bind" : "--ro-bind", ro->real[i], ro->paths[i]};
        shown[ns++] = ro->paths[i];
    }
    m[nm++] = (mount_t){"--bind", writable, writable};
    shown[ns++] = (char *)writable;
    pthread_mutex_lock(&hidden_lock);
    for (int i = 0; i < nhidden; i++)
        if (covered(hidden[i], shown, ns) && !shown_itself(i, ro) && !in_a_copy(hidden[i], ro))
            m[nm++] = (mount_t){"--tmpfs", NULL, hidden[i]};
    pthread_mutex_unlock(&hidden_lock);
    qsort(m, (size_t)nm, sizeof *m, by_place);
    for (int i = 0; i < nm; i++) {
        add_parents(argv, n, m[i].where);
        argv_add(argv, n, m[i].how);
        if (m[i].from)
            argv_add(argv, n, m[i].from);
        argv_add(argv, n, m[i].where);
    }
}

/* The second tier: the jail alone, in the runner's folder. */
static char **jail_alone_argv(char *const *program_argv, const sandbox_how_t *how)
{
    char **argv = calloc(SANDBOX_MAX_ARGS, sizeof *argv);
    int n = 0;
    argv_add_jail(argv, &n, tier_jail_path(), 0, 0, how);
    for (char *const *a = program_argv; *a; a++)
        argv_add(argv, &n, *a);
    return argv;
}

char **sandbox_wrap_argv(char *const *program_argv, const char *cwd, const char *write_dir,
                         const char *const *ro_paths, const sandbox_how_t *how)
{
    static const sandbox_how_t plain = {0, NULL, 0, NULL, NULL, 0};
    how = how ? how : &plain;
    sandbox_tier_t t = sandbox_tier();
    if (t == SANDBOX_UID)
        return jail_alone_argv(program_argv, how);
    if (t != SANDBOX_BWRAP || !cwd)
        return NULL;
    char **argv = calloc(SANDBOX_MAX_ARGS, sizeof *argv);
    int n = 0;
    argv_add_bwrap(argv, &n, tier_bwrap_path());
    argv_add_system(argv, &n);
    ro_list_t ro = {.n = 0};
    if (how->copy_from && how->copy_at)
        ro_put(&ro, how->copy_from, how->copy_at, 1);
    ro_add(&ro, program_argv[0]);
    for (int i = 0; ro_paths && ro_paths[i]; i++)
        ro_add(&ro, ro_paths[i]);
    ro_add_toolkit(&ro);
    ro_add_from_env(&ro);
    const char *writable = write_dir ? write_dir : cwd;
    if (writable != cwd) {
        argv_add(argv, &n, "--dir");
        argv_add(argv, &n, cwd);
    }
    add_view(argv, &n, &ro, writable);
    for (int i = 0; i < ro.n; i++) {
        free(ro.paths[i]);
        free(ro.real[i]);
    }
    argv_add_jail_mount(argv, &n, tier_jail_path());
    if (!how->no_gpu)
        add_nvidia_devices(argv, &n);
    argv_add(argv, &n, "--chdir");
    argv_add(argv, &n, cwd);
    argv_add(argv, &n, "--");
    argv_add_jail(argv, &n, tier_jail_path(), 1, tier_jail_userns(), how);
    for (char *const *a = program_argv; *a; a++)
        argv_add(argv, &n, *a);
    return argv;
}

void sandbox_argv_free(char **argv)
{
    for (int i = 0; argv && argv[i]; i++)
        free(argv[i]);
    free(argv);
}

