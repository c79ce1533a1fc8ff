/* dataset.c - find, load and shape-check datasets in libwb layout. */
#include "dataset/dataset.h"
#include "util/util.h"

#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int is_number(const char *s)
{
    if (!*s)
        return 0;
    for (; *s; s++)
        if (!isdigit((unsigned char)*s))
            return 0;
    return 1;
}

static int dataset_order(const void *pa, const void *pb)
{
    const dataset_ref_t *a = pa, *b = pb;
    int na = is_number(a->name), nb = is_number(b->name);
    if (na && nb) {
        long x = atol(a->name), y = atol(b->name);
        return (x > y) - (x < y);
    }
    if (na != nb)
        return nb - na; /* numbers first */
    return strcmp(a->name, b->name);
}

static int holds_input0(const char *dir)
{
    char p[PATH_MAX];
    return path_join(p, sizeof p, dir, "input0.raw") == 0 && is_file(p);
}

int dataset_list(const char *dir, dataset_ref_t **out, int *n, char *err, size_t errlen)
{
    *out = NULL;
    *n = 0;
    if (!is_dir(dir))
        return fail(err, errlen, "%s: no such dataset folder", dir);
    if (holds_input0(dir)) {
        *out = calloc(1, sizeof **out);
        snprintf((*out)->name, sizeof (*out)->name, "%s", path_base(dir));
        snprintf((*out)->dir, sizeof (*out)->dir, "%s", dir);
        *n = 1;
        return 0;
    }
    DIR *d = opendir(dir);
    if (!d)
        return fail(err, errlen, "%s: cannot open folder", dir);
    int cap = 16;
    dataset_ref_t *list = malloc((size_t)cap * sizeof *list);
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.' || strlen(e->d_name) >= sizeof list->name)
            continue;
        char sub[PATH_MAX];
        if (path_join(sub, sizeof sub, dir, e->d_name) != 0 || !holds_input0(sub))
            continue;
        if (*n == cap)
            list = realloc(list, (size_t)(cap *= 2) * sizeof *list);
        memcpy(list[*n].name, e->d_name, strlen(e->d_name) + 1); /* length checked above */
        snprintf(list[*n].dir, sizeof list[*n].dir, "%s", sub);
        (*n)++;
    }
    closedir(d);
    if (*n == 0) {
        free(list);
        return fail(err, errlen, "%s: no datasets (sub-folders with input0.raw) found", dir);
    }
    qsort(list, (size_t)*n, sizeof *list, dataset_order);
    *out = list;
    return 0;
}

int dataset_load(const dataset_ref_t *ref, int ninputs, dataset_t *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (ninputs < 1 || ninputs > DATASET_MAX_INPUTS)
        return fail(err, errlen, "%s: bad number of inputs %d", ref->dir, ninputs);
    char path[PATH_MAX], file[32];
    for (int i = 0; i < ninputs; i++) {
        snprintf(file, sizeof file, "input%d.raw", i);
        path_join(path, sizeof path, ref->dir, file);
        if (raw_read(path, &out->inputs[i], err, errlen) != 0) {
            dataset_free(out);
            return -1;
        }
        out->ninputs = i + 1;
    }
    path_join(path, sizeof path, ref->dir, "output.raw");
    if (raw_read(path, &out->expected, err, errlen) != 0) {
        dataset_free(out);
        return -1;
    }
    return 0;
}

void dataset_free(dataset_t *d)
{
    for (int i = 0; i < d->ninputs; i++)
        matrix_free(&d->inputs[i]);
    matrix_free(&d->expected);
    d->ninputs = 0;
}
