/* dataset.h - a lab's datasets on disk: datasets/<lab>/<name>/input0.raw,
 * input1.raw, ..., output.raw (libwb layout). Listing and loading; what
 * the shapes must be is the lab kind's (kinds/kind.h). */
#ifndef CUGRADE_DATASET_H
#define CUGRADE_DATASET_H

#include <limits.h>
#include <stddef.h>

#include "dataset/rawio.h"

#define DATASET_MAX_INPUTS 8

typedef struct {
    char name[64];      /* folder name, e.g. "12" */
    char dir[PATH_MAX]; /* folder path */
} dataset_ref_t;

typedef struct {
    matrix_t inputs[DATASET_MAX_INPUTS];
    int ninputs;
    matrix_t expected;
} dataset_t;

/* Lists the datasets under dir: its sub-folders that hold input0.raw, numeric
 * names in numeric order first, then the others alphabetically. If dir
 * itself holds input0.raw it is the one dataset. *out is malloc'd. Fails if
 * dir is missing or holds no dataset. */
int dataset_list(const char *dir, dataset_ref_t **out, int *n, char *err, size_t errlen);

/* Reads input0..input<ninputs-1>.raw and output.raw. */
int dataset_load(const dataset_ref_t *ref, int ninputs, dataset_t *out, char *err, size_t errlen);

void dataset_free(dataset_t *d);

#endif
