/* kind.h - a kind of lab problem ("matmul": C = A·B; "reduction": a dot
 * product of two vectors), chosen by lab.json "kind". Everything the
 * pipeline needs to know about what a lab computes is behind this one
 * interface: how a dataset is shaped, generated and verified, how an output
 * is compared and its errors explained, which dataset suits the GPU
 * sanitizers, and the performance metric. The stages call it through
 * lab->kind and never test a lab's name or kind.
 *
 * Adding a kind: one file kinds/<kind>.c defining a lab_kind_t, and its line
 * in kinds/kinds.c (docs/adding-a-lab.md). */
#ifndef CUGRADE_KIND_H
#define CUGRADE_KIND_H

#include <stddef.h>
#include <stdint.h>

#include "compare/compare.h"
#include "dataset/dataset.h"
#include "dataset/gen.h"
#include "score/perf_result.h"
#include "util/util.h"

struct lab;

/* Every callback that reads or makes a dataset takes the lab first: a kind
 * declared by lab.json (the array kind) reads its arrays from it. */
typedef struct lab_kind {
    const char *name;          /* lab.json "kind" */
    int inputs;                /* input0.raw .. per dataset */

    /* dataset: the shapes agree (err names the file), "417x210x519", the
     * arithmetic work (FLOP; sizes the datasets and feeds the traffic check) */
    int (*check_shapes)(const struct lab *lab, const dataset_ref_t *ref, const dataset_t *d, char *err, size_t errlen);
    void (*shape_text)(const struct lab *lab, const dataset_t *d, char *buf, size_t len);
    double (*flop)(const struct lab *lab, const dataset_t *d);
    /* the generator: inputs from the seed and the exact expected output;
     * -1 with err on a malformed shape */
    int (*generate)(const struct lab *lab, const char *shape, uint64_t seed, value_kind_t values, dataset_t *out,
                    char *err, size_t errlen);
    /* a timing shape's inputs alone (no expected output: a GPU shape is too
     * large to multiply on the CPU), from the seed; -1 with err on a
     * malformed shape */
    int (*timing_inputs)(const struct lab *lab, const char *shape, uint64_t seed, dataset_t *out, char *err, size_t errlen);
    /* a timing shape's arithmetic (FLOP) and its compulsory traffic: the
     * bytes of its inputs read once and its output written once, the least
     * any kernel moves (the roofline's, score/roofline.h); -1 on a
     * malformed shape. NULL: the kind draws no roofline */
    int (*shape_work)(const struct lab *lab, const char *shape, double *flop, double *compulsory_bytes);
    /* how a timed output is checked against the reference's on those
     * inputs (a GPU replay's, pipeline/grade_perf_replay.c): by their sums
     * (*sum 1: a reduction's partial sums, as many as each chose) or element
     * by element, within atol + rtol |reference|; NULL: element by element
     * with the lab's tolerance */
    void (*timing_compare)(const struct lab *lab, const dataset_t *d, int *sum, double *rtol, double *atol);
    /* 1: the output is the product of the two inputs (row-major, A m x k,
     * B k x n), which the GPU's runner times cuBLAS's SGEMM computing, for
     * a lab measured against cuBLAS (rubric performance.relative_to) */
    int cublas_baseline;
    /* re-computes a dataset's expected output: 0 if output.raw agrees */
    int (*verify)(const struct lab *lab, const dataset_ref_t *ref, const dataset_t *d, char *err, size_t errlen);
    /* the hidden set's shape families (pipeline/hidden_set.h): their names,
     * and a shape of family f drawn from the seeded stream for the lab's tile
     * (lab.json "tile_width"), small enough for the CPU emulator */
    int hidden_families;
    const char *const *hidden_family_names;
    void (*hidden_shape)(const struct lab *lab, int family, int tile, uint64_t *state, char *shape, size_t len);

    /* compare: the student's output got (as the driver wrote it) against
     * the dataset, with the hints and hypotheses of the kind */
    void (*compare)(const struct lab *lab, const dataset_t *d, const matrix_t *got,
                    compare_result_t *r);
    /* a launch the executor stopped past its instruction budget, of blocks
     * blocks of block_x x block_y threads: into buf, and 1, when the grid is
     * far larger than the output needs (how many blocks cover it, and how
     * to size the grid); else 0. NULL: the kind cannot tell */
    int (*explain_grid)(const struct lab *lab, const dataset_t *d, double blocks, int block_x, int block_y,
                        char *buf, size_t len);
    /* a wrong output the lab itself can name (an array lab's gen.c --explain): the dataset's
     * folder and the output's file; sets r's hint and hypothesis when it names one. NULL: none */
    void (*explain_output)(const struct lab *lab, const char *dataset_dir, const char *output_path,
                           compare_result_t *r);

    /* checks on a GPU: how well a dataset shows the errors compute-sanitizer
     * finds (0: not at all; a higher tier is better; the smallest dataset of
     * the best tier is sanitized) */
    int (*sanitize_tier)(const dataset_t *d, int tile_width);

    /* on the executor (the vgpu backend, run/runs_vgpu.h): the kind's program
     * beside the student's file (root-relative; it asks the executor for
     * each call of the launch function), the call's arguments and the
     * output's shape as bin/cugrade-vgpu takes them (--call, --out-shape;
     * out_returned: the launch function returns how many it wrote), and
     * the output's name in messages ("C") */
    const char *vgpu_main;
    /* the driver a kernel lab of the kind gets when lab.json names none (root-relative);
     * NULL: lab.json must name one */
    const char *default_driver;
    const char *vgpu_call, *vgpu_out_shape;
    int vgpu_out_returned;
    const char *output_name;
    const char *input_names;   /* "A,B": the inputs' names in messages */

    /* performance: the unit of the timing program's rate ("GFLOP/s"), and
     * the kind's line on what bounds it */
    const char *rate_unit;
    /* the roofline's example of how reuse cuts the kind's traffic ("a tile of side T loads 4/T
     * bytes per FLOP"); NULL: the kind has none to give */
    const char *reuse_example;
    void (*perf_bound)(const struct lab *lab, const perf_result_t *r, const perf_shape_t *s,
                       const perf_impl_t *student, strbuf_t *out);
} lab_kind_t;

/* The kind called name, or NULL. */
const lab_kind_t *lab_kind_find(const char *name);
/* "matmul, reduction": for messages. */
void lab_kind_names(char *buf, size_t len);

#endif
