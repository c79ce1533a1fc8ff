/* tree_case.h - what the end-to-end tests that grade in a throw-away
 * cugrade tree share (test_grader_fault.c, test_build_cache.c): the tree
 * (CUGRADE_ROOT: bin/, emu/, labs/, datasets/ and rubric.json linked to
 * this checkout; build/ and reference/ its own), `cugrade` run in it, a
 * class of submissions, and an nvcc of the test's own on PATH. Runs from
 * the repository root. */
#ifndef CUGRADE_TREE_CASE_H
#define CUGRADE_TREE_CASE_H

#include "e2e.h"

#include <sys/stat.h>

#define ONE_DATASET "datasets/lab3/17"

typedef struct {
    char dir[64];    /* everything of one test */
    char root[128];  /* the cugrade tree */
    char env_root[160];
} tree_t;

static inline void link_to_checkout(const char *root, const char *name)
{
    char cwd[4096], from[4200], to[256];
    cr_assert_not_null(getcwd(cwd, sizeof cwd));
    snprintf(from, sizeof from, "%s/%s", cwd, name);
    snprintf(to, sizeof to, "%s/%s", root, name);
    cr_assert_eq(symlink(from, to), 0, "cannot link %s", to);
}

/* A tree with this checkout's tools and lab; with_runtime: link
 * build/libcugrade_emu.a; reference: the text of reference/lab3/matmul.cu
 * (NULL: this checkout's). */
static inline tree_t make_tree(int with_runtime, const char *reference)
{
    tree_t t;
    snprintf(t.dir, sizeof t.dir, "/tmp/cugrade-fault-XXXXXX");
    cr_assert_not_null(mkdtemp(t.dir));
    snprintf(t.root, sizeof t.root, "%s/tree", t.dir);
    snprintf(t.env_root, sizeof t.env_root, "CUGRADE_ROOT=%s", t.root);
    char path[256];
    snprintf(path, sizeof path, "%s/reference/lab3", t.root);
    cr_assert_eq(mkdir_p(path, NULL, 0), 0);
    snprintf(path, sizeof path, "%s/build", t.root);
    cr_assert_eq(mkdir_p(path, NULL, 0), 0);
    const char *shared[] = {"bin", "emu", "labs", "datasets", "rubric.json", NULL};
    for (int i = 0; shared[i]; i++)
        link_to_checkout(t.root, shared[i]);
    if (with_runtime)
        link_to_checkout(t.root, "build/libcugrade_emu.a");
    char *text = reference ? strdup(reference)
                           : read_file("reference/lab3/matmul.cu", NULL, NULL, 0);
    cr_assert_not_null(text);
    snprintf(path, sizeof path, "%s/reference/lab3/matmul.cu", t.root);
    write_text(path, text);
    free(text);
    return t;
}

/* bin/cugrade ARGS... in tree t, with extra environment. */
static inline run_result_t cugrade(const tree_t *t, const char *const *args, const char *const *env)
{
    char *argv[40] = {"bin/cugrade"}, *envp[8] = {(char *)t->env_root};
    int n = 1, k = 1;
    for (int i = 0; args[i]; i++)
        argv[n++] = (char *)args[i];
    argv[n] = NULL;
    for (int i = 0; env && env[i]; i++)
        envp[k++] = (char *)env[i];
    envp[k] = NULL;
    run_spec_t spec = {.argv = argv, .extra_env = envp, .timeout_s = 120, .output_cap = 1 << 20};
    run_result_t r;
    run_one(&spec, &r);
    return r;
}

static inline int exited_with(const run_result_t *r, int code)
{
    return r->exited && r->exit_code == code;
}

/* A class: one folder per student with lab3/matmul.cu copied from files. */
static inline void make_class(const tree_t *t, const char *const (*students)[2], int n, char *subs,
                       size_t len)
{
    snprintf(subs, len, "%s/subs", t->dir);
    for (int i = 0; i < n; i++) {
        char path[256];
        snprintf(path, sizeof path, "%s/%s/lab3", subs, students[i][0]);
        cr_assert_eq(mkdir_p(path, NULL, 0), 0);
        char *text = read_file(students[i][1], NULL, NULL, 0);
        cr_assert_not_null(text);
        snprintf(path, sizeof path, "%s/%s/lab3/matmul.cu", subs, students[i][0]);
        write_text(path, text);
        free(text);
    }
}

/* A line of a fake nvcc's script: makes the empty file its -o names, as
 * if it had compiled (then the script's own "exit 0"). */
#define FAKE_NVCC_TOUCH_OUTPUT "prev=; for a; do [ \"$prev\" = -o ] && : > \"$a\"; prev=$a; done; "

/* An nvcc of text first on the PATH of tree t's gradings: path_env gets
 * "PATH=<t>/fakebin:$PATH". */
static inline void fake_nvcc_on_path(const tree_t *t, const char *text, char *path_env, size_t len)
{
    char bin[128], script[160];
    snprintf(bin, sizeof bin, "%s/fakebin", t->dir);
    cr_assert_eq(mkdir_p(bin, NULL, 0), 0);
    snprintf(script, sizeof script, "%s/nvcc", bin);
    write_text(script, text);
    cr_assert_eq(chmod(script, 0755), 0);
    const char *path = getenv("PATH");
    snprintf(path_env, len, "PATH=%s:%s", bin, path ? path : "/usr/bin:/bin");
}

#endif
