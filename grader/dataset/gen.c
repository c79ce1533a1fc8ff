/* gen.c - what every kind's dataset generator shares: seeded values like
 * the course files' and a dataset written to disk as a whole. */
#include "dataset/gen.h"
#include "util/util.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int value_kind_parse(const char *s, value_kind_t *out)
{
    if (strcmp(s, "course") == 0)
        *out = VALUES_COURSE;
    else if (strcmp(s, "signed") == 0)
        *out = VALUES_SIGNED;
    else
        return -1;
    return 0;
}

/* splitmix64: small, fast, and the same numbers on every platform. */
uint64_t gen_next(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static float random_value(uint64_t *state, value_kind_t kind)
{
    /* tenths: 0..40 or -40..40, so every value has one decimal like "2.7" */
    int span = kind == VALUES_SIGNED ? 81 : 41;
    int tenths = (int)(gen_next(state) % (uint64_t)span);
    if (kind == VALUES_SIGNED)
        tenths -= 40;
    return (float)tenths / 10.0f;
}

int gen_between(uint64_t *state, int lo, int hi)
{
    if (hi <= lo)
        return lo;
    return lo + (int)(gen_next(state) % (uint64_t)(hi - lo + 1));
}

void gen_fill_random(matrix_t *mat, int rows, int cols, uint64_t *state, value_kind_t kind)
{
    mat->rows = rows;
    mat->cols = cols;
    size_t count = (size_t)rows * cols;
    mat->data = malloc(count * sizeof(float));
    int any_nonzero = 0;
    for (size_t i = 0; i < count; i++) {
        mat->data[i] = random_value(state, kind);
        any_nonzero |= mat->data[i] != 0.0f;
    }
    if (!any_nonzero)
        mat->data[0] = 1.0f; /* a dataset of zeros would let a do-nothing kernel pass */
}

int dataset_write(const char *dir, const matrix_t *inputs, int ninputs, const matrix_t *output,
                  char *err, size_t errlen)
{
    char tmp[PATH_MAX], old[PATH_MAX], path[PATH_MAX], name[32];
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld", dir, (long)getpid());
    snprintf(old, sizeof old, "%s.old.%ld", dir, (long)getpid());
    rm_rf(tmp);
    if (mkdir_p(tmp, err, errlen) != 0)
        return -1;
    for (int i = 0; i <= ninputs; i++) {
        if (i < ninputs)
            snprintf(name, sizeof name, "input%d.raw", i);
        else
            snprintf(name, sizeof name, "output.raw");
        path_join(path, sizeof path, tmp, name);
        if (raw_write(path, i < ninputs ? &inputs[i] : output, err, errlen) != 0) {
            rm_rf(tmp);
            return -1;
        }
    }
    int had_old = is_dir(dir);
    if (had_old && rename(dir, old) != 0) {
        rm_rf(tmp);
        return fail(err, errlen, "%s: cannot replace: %s", dir, strerror(errno));
    }
    if (rename(tmp, dir) != 0) {
        int e = errno;
        if (had_old)
            rename(old, dir);
        rm_rf(tmp);
        return fail(err, errlen, "%s: cannot create: %s", dir, strerror(e));
    }
    if (had_old)
        rm_rf(old);
    return 0;
}

