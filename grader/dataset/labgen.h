/* labgen.h - an array lab's own generator and validator (labs/<lab>/gen.c,
 * framed by labs/common/gen_lab.h; docs/array-labs.md): compiled once into
 * <root>/build/labs/<lab>/gen (again when gen.c or gen_lab.h is newer) and
 * run for a dataset's files, a dataset's check, or a hidden shape. The
 * instructor's code: it runs outside the sandbox, as the lab's harness
 * builds do, with a time limit. A generator that does not build or fails
 * is the lab's fault: the caller says so (a grader fault, exit 2). */
#ifndef CUGRADE_LABGEN_H
#define CUGRADE_LABGEN_H

#include <stddef.h>
#include <stdint.h>

#include "course/lab.h"
#include "dataset/gen.h"

/* Writes input0.raw .. and output.raw of the shape into dir (made). 0, or
 * -1 with err. */
int labgen_make(const lab_t *lab, const char *shape, uint64_t seed, value_kind_t values, const char *dir,
                char *err, size_t errlen);
/* Re-checks dir's output against its inputs: 0, or -1 with err (the
 * validator's message). */
int labgen_check(const lab_t *lab, const char *dir, char *err, size_t errlen);
/* A shape of hidden family (0 or 1) from seed into shape. 0, or -1 with err. */
int labgen_hidden_shape(const lab_t *lab, int family, uint64_t seed, char *shape, size_t len, char *err,
                        size_t errlen);

/* The lab's own diagnosis of a wrong output (gen --explain: its classic
 * mistake recognised in it) into hint ("ID: text"): 1 when it named one, 0
 * when not (or the lab has none, or it failed: a hint is never a fault). */
int labgen_explain(const lab_t *lab, const char *dir, const char *output, char *hint, size_t len);

#endif
