/* shard_class.h - a small class for the tests of sharded and Slurm batches
 * (test_batch_shard.c, test_batch_slurm.c): six students (the reference
 * twice, the integer-division grid twice, a compile error, a host segfault)
 * on two small datasets and two hidden ones, and `cugrade batch` run on it
 * with the options every test shares. */
#ifndef CUGRADE_SHARD_CLASS_H
#define CUGRADE_SHARD_CLASS_H

#include "e2e.h"

#define CLASS_SIZE 6

static const char *const class_students[CLASS_SIZE][2] = {
    {"alice", "reference/lab3/matmul.cu"}, {"bob", SUB "intdiv_grid.cu"},
    {"carol", SUB "compile_error.cu"},      {"dave", SUB "host_segfault.cu"},
    {"erin", "reference/lab3/matmul.cu"},  {"frank", SUB "intdiv_grid.cu"}};

typedef batch_class_t klass_t; /* e2e.h's class, with two hidden datasets */

static inline klass_t make_klass(void)
{
    klass_t c = make_batch_class_with("shard", 2);
    for (int i = 0; i < CLASS_SIZE; i++)
        class_add_student(&c, class_students[i][0], class_students[i][1]);
    return c;
}

/* Runs `cugrade batch` on class c into out with the shared options, extra
 * (NULL-ended) before them, and env added to the environment. */
static inline run_result_t klass_batch_env(const klass_t *c, const char *out, const char *const *extra,
                                          char *const *env)
{
    char *argv[48] = {"bin/cugrade", "batch"};
    int n = 2;
    for (int i = 0; extra && extra[i]; i++)
        argv[n++] = (char *)extra[i];
    const char *base[] = {"--lab", "lab3", "--out", out, "--backend", "emu", "--checks", "none",
                          "--datasets", c->datasets, "--rubric", c->rubric, c->subs};
    for (size_t i = 0; i < sizeof base / sizeof *base; i++)
        argv[n++] = (char *)base[i];
    argv[n] = NULL;
    run_spec_t spec = {.argv = argv, .extra_env = env, .timeout_s = 300, .output_cap = 1 << 20};
    run_result_t r;
    run_one(&spec, &r);
    return r;
}

static inline run_result_t klass_batch(const klass_t *c, const char *out, const char *const *extra)
{
    return klass_batch_env(c, out, extra, NULL);
}

/* The text of dir/name (asserted to exist). */
static inline char *slurp_in(const char *dir, const char *name)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    char *text = read_file(path, NULL, NULL, 0);
    cr_assert_not_null(text, "missing %s", path);
    return text;
}

static inline int exists_in(const char *dir, const char *name)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return access(path, F_OK) == 0;
}

#endif
