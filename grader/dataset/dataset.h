/* dataset.h - a lab's datasets on disk: datasets/<lab>/<name>/input0.raw,
 * input1.raw, ..., output.raw (libwb layout). Listing, loading, and the
 * shape rules of matrix multiplication. */
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

/* Matrix multiplication: A (input0) is MxK, B (input1) is KxN, C (output)
 * is MxN. err names the file whose header disagrees. */
int dataset_check_matmul(const dataset_ref_t *ref, const dataset_t *d, char *err, size_t errlen);

/* "417x210x519" (MxKxN) for matmul datasets, else the output's "RxC". */
void dataset_shape(const dataset_t *d, char *buf, size_t buflen);

void dataset_free(dataset_t *d);

#endif
