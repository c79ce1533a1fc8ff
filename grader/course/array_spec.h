/* array_spec.h - what an array lab declares in lab.json's "array" block
 * (docs/array-labs.md, issue 41): the dataset's params, the inputs and
 * outputs (names, element types, shapes as params or numbers, an input's
 * value range), the tolerance, and the launch function's signature, parsed
 * into the call both drivers make. Every malformed field is refused with
 * the file, the line and the field named. */
#ifndef CUGRADE_ARRAY_SPEC_H
#define CUGRADE_ARRAY_SPEC_H

#include <stddef.h>

#include "course/config.h"

#define ARRAY_MAX_PARAMS 4
#define ARRAY_MAX_INPUTS 6
#define ARRAY_MAX_OUTPUTS 1 /* a dataset has one expected output (dataset.h) */
#define ARRAY_MAX_DIMS 2
#define ARRAY_MAX_ARGS 12
#define ARRAY_NAME_MAX 32

typedef enum { ELEM_FLOAT = 0, ELEM_INT } elem_type_t;

/* One dimension of a shape: a param (index) plus an offset ("rows+1": a CSR
 * matrix's row pointers), or a number. */
typedef struct {
    int param; /* >= 0: params[param] + offset; -1: value */
    long value, offset;
} array_dim_t;

typedef struct {
    char name[ARRAY_NAME_MAX];
    elem_type_t type;
    array_dim_t dims[ARRAY_MAX_DIMS];
    int ndims;
    double lo, hi; /* an input's generated values (both 0 for an output) */
    int read_some; /* an input the kernels need not read whole ("read": "some": x of a sparse
                      product, whose empty columns no row reads) */
} array_decl_t;

/* An argument of the launch function, in order. */
typedef enum { ARG_INPUT, ARG_OUTPUT, ARG_PARAM } arg_kind_t;
typedef struct {
    arg_kind_t kind;
    int index;       /* into inputs, outputs or params */
    char ctype[16];  /* the scalar's C type ("int", "unsigned"); the pointee's for a pointer */
} array_arg_t;

typedef struct {
    char params[ARRAY_MAX_PARAMS][ARRAY_NAME_MAX];
    int nparams;
    array_decl_t inputs[ARRAY_MAX_INPUTS], outputs[ARRAY_MAX_OUTPUTS];
    int ninputs, noutputs;
    char launch[64];         /* the signature's function name */
    int returns_int;         /* the signature returns int (else void) */
    array_arg_t args[ARRAY_MAX_ARGS];
    int nargs;
    int exact;               /* outputs compared exactly (integers) */
    double rtol, atol;
    int grows_with;          /* >= 0: the float bound grows with this param (a sum of that many terms) */
    char work_flop[128];     /* "work": {"flop": EXPR} of the params (course/work_expr.h); "": an operation
                                an output element */
    /* "baseline": the library that does the lab's work, timed beside the reference by
     * bench/gpu_labs.sh: its name in tables, the lab folder's file that defines the launch
     * function through it, and its link flags ("-lcusparse"); "" when none */
    char baseline_name[96], baseline_source[64], baseline_link[64];
} array_spec_t;

/* Reads the "array" object obj (where: its dotted path, "array") of a lab
 * whose launch function is launch (lab.json "launch"): 0, or -1 with c's
 * error set naming the field. */
int array_spec_read(const cfg_t *c, struct json_object *obj, const char *where, const char *launch,
                    array_spec_t *out);

/* Parses the C prototype sig against spec's inputs, outputs and params into
 * spec's launch, returns_int and args: 0, or -1 with err saying what does
 * not fit. */
int array_signature_parse(const char *sig, array_spec_t *spec, char *err, size_t errlen);

/* The values of spec's params from a dataset's shape text ("480x640x5"):
 * 0, or -1 with err (too few or many, not positive integers). */
int array_shape_params(const array_spec_t *spec, const char *shape, long *values, char *err, size_t errlen);

/* The executor's driver for the spec (bin/cugrade-vgpu --call and
 * --out-shape): each argument as it takes them (in0, out, and a param as
 * the size of the first input it sizes: n0, rows0, cols1), the output's
 * rows,cols. 0, or -1 with err for what it cannot pass yet (a param that
 * sizes no input, a launch function returning int). */
int array_spec_vgpu(const array_spec_t *spec, char *call, size_t call_len, char *shape, size_t shape_len, char *err,
                    size_t errlen);

/* Each input's element type as the executor's --in-types takes them ("f,i";
 * "f~" for an input it need not find read whole), and whether the output is
 * ints. */
void array_spec_types(const array_spec_t *spec, char *in_types, size_t len, int *out_int);

/* The number of elements of a declared array, given the params' values. */
long array_elements(const array_decl_t *d, const long *params);

/* A shape's work under params p: its arithmetic (lab.json "work"'s flop;
 * else an operation an output element) and its compulsory traffic, every
 * declared array read or written once (4 bytes an element). */
void array_work(const array_spec_t *spec, const long *p, double *flop, double *bytes);

#endif
