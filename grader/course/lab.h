/* lab.h - a lab's manifest, labs/<name>/lab.json: what the student writes,
 * which driver owns the host side, how outputs are compared.
 *
 * {
 *   "name": "lab3",
 *   "title": "Tiled matrix multiplication",
 *   "style": "kernel",                  "kernel" (harness owns the host) or "program" (a
 *                                       libwb-style program with its own main(), labs/common/wb.h;
 *                                       run as PROG -e EXPECTED -i IN0,IN1 -o OUT -t TYPE)
 *   "wb_type": "matrix",                program style: TYPE above (default "matrix")
 *   "datasets": "lab3",                 folder under datasets/ (default: the lab's name)
 *   "student_file": "matmul.cu",        file name under student/<lab>/ and reference/<lab>/
 *   "driver": "driver.cu",              host harness, relative to the lab folder
 *   "launch": "launchMatrixMultiplyShared",  kernel style: the function the driver
 *                                       calls (built in as -DCUGRADE_LAUNCH=name)
 *   "launch_args": "rows-cols",         matmul kind: the launch function's parameters,
 *                                       "rows-cols" (default; lab 3's (A, B, C, numARows,
 *                                       numAColumns, numBRows, numBColumns, numCRows,
 *                                       numCColumns)) or "m-n-k" ((A, B, C, M, N, K): built in
 *                                       as -DCUGRADE_LAUNCH_MNK; labs/kinds/matmul/launch.h)
 *   "rules": ["fp32-simt"],             rules checked on what the submission builds
 *                                       (build/rules.h); default none
 *   "inputs": 2,                        input0.raw .. input<n-1>.raw per dataset (optional:
 *                                       the kind's; must be the kind's)
 *   "tile_width": 16,                   the handout's TILE_WIDTH (for hints)
 *   "kind": "matmul",                   what the lab computes (kinds/kind.h): "matmul" (input0
 *                                       MxK, input1 KxN, output MxN) or "reduction" (a dot
 *                                       product of two vectors)
 *   "compare": { "rtol": 1e-4, "atol": 1e-4 },
 *   "time_limit_s": 20,                 default per-dataset limit (rubric may override)
 *   "instruction_budget_factor": 16,    vgpu backend: a dataset's budget of executed
 *                                       instructions is this times the reference's on it
 *                                       (optional; pipeline/vgpu_budget.h)
 *   "timing": {                         optional: the GPU performance test
 *     "program": "perf.cu",             timing program, relative to the lab folder
 *     "reference": "matmul.cu",         reference/<lab>/ files it times beside the student's,
 *     "baseline": "matmul_naive.cu",    (optional) linked under renamed symbols:
 *     "symbols": ["launchMatrixMultiplyShared", "matrixMultiplyShared"]
 *   }                                   -D<sym>=cugrade_reference_<sym> / cugrade_baseline_<sym>
 * }
 */
#ifndef CUGRADE_LAB_H
#define CUGRADE_LAB_H

#include <limits.h>
#include <stddef.h>

#include "compare/compare.h"
#include "course/array_spec.h"

struct lab_kind;

#define LAB_BUDGET_FACTOR_DEFAULT 16 /* a submission may execute 16 times the reference's work */

/* lab.json "launch_args": how the matmul kind's harness calls the launch function. */
typedef enum {
    LAUNCH_ROWS_COLS = 0, /* (A, B, C, numARows, numAColumns, numBRows, numBColumns, numCRows,
                           * numCColumns): labs 2 and 3 */
    LAUNCH_M_N_K,         /* (A, B, C, M, N, K): the challenge lab (-DCUGRADE_LAUNCH_MNK) */
} launch_args_t;

typedef struct lab {
    char name[64];
    char title[128];
    char style[16];              /* "kernel" or "program" */
    char wb_type[32];            /* program style: the `-t TYPE` argument ("matrix") */
    char datasets[64];           /* datasets/<this>: the lab's datasets (default: name) */
    char dir[PATH_MAX];          /* the lab folder, e.g. <root>/labs/lab3 */
    char student_file[128];
    char driver_path[PATH_MAX];  /* absolute or root-relative path of the driver */
    char launch[64];             /* kernel style: the launch function (-DCUGRADE_LAUNCH=) */
    launch_args_t launch_args;   /* its parameters (matmul kind) */
    unsigned rules;              /* lab.json "rules": a bit per rule_id_t (build/rules.h) */
    int inputs;
    int tile_width;
    int seen_untiled;            /* not lab.json's: set for one run's verdict when its kernels
                                    touched no shared memory (no tile-based hypothesis fits) */
    int seen_tile;               /* not lab.json's: for one run's verdict, the side of the square
                                    blocks it launched (0: unknown) */
    int budget_factor;           /* lab.json "instruction_budget_factor" */
    const struct lab_kind *kind; /* lab.json "kind" (kinds/kind.h) */
    array_spec_t array;          /* the array kind's lab.json "array" (array_spec.h); else zero */
    /* the executor's driver of a kernel lab (run/runs_vgpu.c): the call's arguments and the
     * output's shape as bin/cugrade-vgpu takes them, the arrays' names in messages; the kind's,
     * or for an array lab made from its signature */
    char vgpu_call[128], vgpu_out_shape[64], input_names[128], output_name[64];
    char vgpu_in_types[32];      /* an array lab's: "f,i", each input's element type ("": all floats) */
    int vgpu_out_int;            /* an array lab's output is ints */
    tolerance_t tol;
    double time_limit_s;
    int has_timing;
    char timing_program[PATH_MAX];   /* resolved path */
    char timing_reference[PATH_MAX]; /* resolved: <root>/reference/<lab>/<file> */
    char timing_baseline[PATH_MAX];  /* "" when the lab has no baseline */
    char timing_symbols[4][64];
    int ntiming_symbols;
} lab_t;

/* Loads <root>/labs/<name>/lab.json. err names the file on failure, and the
 * line of the bad field when it is in the file ("lab.json:7: style: ..."). */
int lab_load(const char *root, const char *name, lab_t *out, char *err, size_t errlen);

/* A "program" style lab: the student's file is a whole libwb program. */
int lab_is_program(const lab_t *lab);

#endif
