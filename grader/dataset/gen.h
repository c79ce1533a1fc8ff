/* gen.h - what every kind's dataset generator shares (kinds/<kind>.c
 * generates): deterministic values from a seed, and a dataset written to
 * disk as a whole. */
#ifndef CUGRADE_GEN_H
#define CUGRADE_GEN_H

#include <stddef.h>
#include <stdint.h>

#include "dataset/dataset.h"
#include "dataset/rawio.h"

typedef enum {
    VALUES_COURSE, /* 0.0 .. 4.0, one decimal, like the ECE408 files */
    VALUES_SIGNED  /* -4.0 .. 4.0, one decimal */
} value_kind_t;

int value_kind_parse(const char *s, value_kind_t *out);

/* The next number of the splitmix64 stream in *state, and one drawn from
 * lo..hi (both included; lo when hi <= lo). */
uint64_t gen_next(uint64_t *state);
int gen_between(uint64_t *state, int lo, int hi);

/* Fills mat (rows x cols, malloc'd) with values of the kind from the
 * splitmix64 stream in *state; never all zeros. */
void gen_fill_random(matrix_t *mat, int rows, int cols, uint64_t *state, value_kind_t kind);

/* Writes input0.raw, input1.raw.., output.raw into dir as a whole: into a
 * fresh sibling folder first, then renamed over dir. */
int dataset_write(const char *dir, const matrix_t *inputs, int ninputs, const matrix_t *output,
                  char *err, size_t errlen);

#endif
