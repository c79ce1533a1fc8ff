/* test_array_spec.c - lab.json's "array" block (course/array_spec.h): the
 * ladder's labs declared (vector add, a convolution with its mask, a
 * histogram of int bins) parse into their params, arrays, tolerance and
 * the call; every malformed field is refused with the file's line and the
 * field named; a dataset's shape gives the params' values. */
#include <criterion/criterion.h>
#include <json-c/json.h>
#include <stdio.h>
#include <string.h>

#include "course/array_spec.h"

static char err[512];

/* The "array" object of text, read as labs/x/lab.json would be: 0 or -1. */
static int read_spec(const char *text, const char *launch, array_spec_t *s)
{
    err[0] = '\0';
    json_object *root = cfg_parse_text("labs/x/lab.json", text, strlen(text), err, sizeof err);
    cr_assert_not_null(root, "%s", err);
    cfg_t c = {"labs/x/lab.json", err, sizeof err, text};
    json_object *a = NULL;
    json_object_object_get_ex(root, "array", &a);
    int rc = array_spec_read(&c, a, "array", launch, s);
    json_object_put(root);
    return rc;
}

#define VECADD                                                                                      \
    "{\n\"array\": {\n"                                                                            \
    "  \"params\": [\"n\"],\n"                                                                     \
    "  \"signature\": \"void launchVectorAdd(const float *A, const float *B, float *C, int n)\",\n" \
    "  \"inputs\": [{\"name\": \"A\", \"type\": \"float\", \"shape\": [\"n\"], \"values\": [-4, 4]},\n" \
    "             {\"name\": \"B\", \"type\": \"float\", \"shape\": [\"n\"], \"values\": [-4, 4]}],\n" \
    "  \"outputs\": [{\"name\": \"C\", \"type\": \"float\", \"shape\": [\"n\"]}],\n"                \
    "  \"tolerance\": {\"rtol\": 1e-6, \"atol\": 1e-6}\n}}\n"

Test(array_spec, vector_add_parses_into_its_call)
{
    array_spec_t s;
    cr_assert_eq(read_spec(VECADD, "launchVectorAdd", &s), 0, "%s", err);
    cr_assert_eq(s.nparams, 1);
    cr_assert_str_eq(s.params[0], "n");
    cr_assert_eq(s.ninputs, 2);
    cr_assert_eq(s.noutputs, 1);
    cr_assert_float_eq(s.inputs[1].lo, -4, 0);
    cr_assert_eq(s.nargs, 4);
    cr_assert(s.args[0].kind == ARG_INPUT && s.args[0].index == 0);
    cr_assert(s.args[1].kind == ARG_INPUT && s.args[1].index == 1);
    cr_assert(s.args[2].kind == ARG_OUTPUT && s.args[2].index == 0);
    cr_assert(s.args[3].kind == ARG_PARAM && s.args[3].index == 0);
    cr_assert_str_eq(s.args[3].ctype, "int");
    cr_assert(!s.returns_int && !s.exact);
    cr_assert_eq(s.grows_with, -1);
    long n = 1000;
    cr_assert_eq(array_elements(&s.outputs[0], &n), 1000);
}

Test(array_spec, a_convolution_and_a_histogram)
{
    const char *conv =
        "{\"array\": {\"params\": [\"height\", \"width\", \"mask\"],\n"
        " \"signature\": \"void launchConvolution(const float *__restrict__ I, const float * M, float *P, int height, "
        "unsigned int width, int mask);\",\n"
        " \"inputs\": [{\"name\": \"I\", \"type\": \"float\", \"shape\": [\"height\", \"width\"], \"values\": [0, 1]},\n"
        "            {\"name\": \"M\", \"type\": \"float\", \"shape\": [\"mask\", \"mask\"], \"values\": [0, 1]}],\n"
        " \"outputs\": [{\"name\": \"P\", \"type\": \"float\", \"shape\": [\"height\", \"width\"]}],\n"
        " \"tolerance\": {\"rtol\": 1e-5, \"atol\": 1e-5, \"grows_with\": \"mask\"}}}";
    array_spec_t s;
    cr_assert_eq(read_spec(conv, "launchConvolution", &s), 0, "%s", err);
    cr_assert_eq(s.nargs, 6);
    cr_assert_str_eq(s.args[4].ctype, "unsigned");
    cr_assert_eq(s.grows_with, 2);
    long p[3];
    cr_assert_eq(array_shape_params(&s, "480x640x5", p, err, sizeof err), 0, "%s", err);
    cr_assert(p[0] == 480 && p[1] == 640 && p[2] == 5);
    cr_assert_eq(array_elements(&s.inputs[1], p), 25);
    cr_assert_eq(array_elements(&s.outputs[0], p), 480 * 640);
    const char *hist =
        "{\"array\": {\"params\": [\"n\"],\n"
        " \"signature\": \"void launchHistogram(const int *in, unsigned int *bins, int n)\",\n"
        " \"inputs\": [{\"name\": \"in\", \"type\": \"int\", \"shape\": [\"n\"], \"values\": [0, 255]}],\n"
        " \"outputs\": [{\"name\": \"bins\", \"type\": \"int\", \"shape\": [256]}],\n"
        " \"tolerance\": \"exact\"}}";
    cr_assert_eq(read_spec(hist, "", &s), 0, "%s", err);
    cr_assert(s.exact);
    cr_assert_eq(array_elements(&s.outputs[0], p), 256);
}

/* Each mistake, the field and its line named */
Test(array_spec, each_malformed_field_is_named_with_its_line)
{
    static const struct {
        const char *from, *to, *message;
    } cases[] = {
        {"float *C, int n", "const float *C, int n", "labs/x/lab.json:4: array.signature: output C is const"},
        {"float *C, int n", "float *C, float *D, int n", "array.signature: pointer D is no input or output"},
        {"float *C, int n", "float *C, float n", "param n is a float"},
        {"const float *B, ", "", "array.signature: input B is not passed"},
        {"const float *A,", "const int *A,", "A is int *, but declared of float"},
        {"void launchVectorAdd", "double launchVectorAdd", "must return void or int"},
        {"\"shape\": [\"n\"]}],\n  \"tol", "\"shape\": [\"m\"]}],\n  \"tol",
         "labs/x/lab.json:7: array.outputs[0].shape: 'm' is not one of the params"},
        {"\"values\": [-4, 4]}],", "\"values\": [4, -4]}],", "labs/x/lab.json:6: array.inputs[1].values: must be [lo, hi]"},
        {"\"rtol\": 1e-6, \"atol\": 1e-6", "\"rtol\": -1, \"atol\": 1e-6", "array.tolerance.rtol: rtol and atol"},
        {"\"params\": [\"n\"]", "\"params\": [\"n\"], \"sizes\": 1", "labs/x/lab.json:3: array.sizes: unknown key"},
        {"\"values\": [-4, 4]},\n             {", "\"values\": [4, -4]},\n             {",
         "array.inputs[0].values: must be [lo, hi]"},
        {"\"type\": \"float\", \"shape\": [\"n\"]}],\n  \"tol", "\"type\": \"int\", \"shape\": [\"n\"]}],\n  \"tol",
         "array.tolerance: must be \"exact\": an output is an int array"},
        {"1e-6}\n}}", "1e-6},\n  \"work\": {\"flop\": \"2*m\"}\n}}",
         "labs/x/lab.json:9: array.work.flop: '2*m': not a number or one of the params at column 3"},
        {"1e-6}\n}}", "1e-6},\n  \"work\": {\"flop\": \"(n+1\"}\n}}", "array.work.flop: '(n+1': ')' expected at column 5"},
        {"1e-6}\n}}", "1e-6},\n  \"work\": {\"flop\": \"n/0\"}\n}}", "'n/0': a division by zero"},
        {"1e-6}\n}}", "1e-6},\n  \"work\": {\"flop\": \"2 n\"}\n}}", "'2 n': an operator expected at column 3"},
        {"1e-6}\n}}", "1e-6},\n  \"work\": {\"bytes\": \"n\"}\n}}", "array.work.bytes: unknown key"},
        {"1e-6}\n}}", "1e-6},\n  \"baseline\": {\"name\": \"CUB\", \"source\": \"../x.cu\"}\n}}",
         "labs/x/lab.json:9: array.baseline.source: must be a .cu file of the lab's folder"},
        {"1e-6}\n}}", "1e-6},\n  \"baseline\": {\"source\": \"b.cu\"}\n}}", "array.baseline.name: missing"},
        {"1e-6}\n}}", "1e-6},\n  \"baseline\": {\"name\": \"c\", \"source\": \"b.cu\", \"link\": [\"-lm\", \"cusparse\"]}\n}}",
         "array.baseline.link: entry 1 must be -lNAME"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[2048];
        const char *at = strstr(VECADD, cases[i].from);
        cr_assert_not_null(at, "case %zu: '%s' not in the text", i, cases[i].from);
        snprintf(text, sizeof text, "%.*s%s%s", (int)(at - VECADD), VECADD, cases[i].to, at + strlen(cases[i].from));
        array_spec_t s;
        cr_assert_eq(read_spec(text, "launchVectorAdd", &s), -1, "case %zu accepted", i);
        cr_assert(strstr(err, cases[i].message), "case %zu: %s", i, err);
    }
    array_spec_t s;
    cr_assert_eq(read_spec(VECADD, "launchVecAdd", &s), -1);
    cr_assert(strstr(err, "declares launchVectorAdd, but lab.json's \"launch\" is launchVecAdd"), "%s", err);
}

/* The work of a shape: lab.json's flop expression of the params, else an
 * operation an output element; the compulsory traffic, every array once */
Test(array_spec, a_shapes_work_and_its_compulsory_traffic)
{
    const char *conv =
        "{\"array\": {\"params\": [\"height\", \"width\", \"mask\"],\n"
        " \"signature\": \"void launchConvolution(const float *I, const float *M, float *P, int height, int width, "
        "int mask)\",\n"
        " \"inputs\": [{\"name\": \"I\", \"type\": \"float\", \"shape\": [\"height\", \"width\"]},\n"
        "            {\"name\": \"M\", \"type\": \"float\", \"shape\": [\"mask\", \"mask\"]}],\n"
        " \"outputs\": [{\"name\": \"P\", \"type\": \"float\", \"shape\": [\"height\", \"width\"]}],\n"
        " \"tolerance\": {\"rtol\": 1e-5, \"atol\": 1e-5},\n"
        " \"work\": {\"flop\": \"2 * height*width * (mask*mask) - 0.5*4\"}}}";
    array_spec_t s;
    cr_assert_eq(read_spec(conv, "launchConvolution", &s), 0, "%s", err);
    long p[3] = {480, 640, 5};
    double flop, bytes;
    array_work(&s, p, &flop, &bytes);
    cr_assert_float_eq(flop, 2.0 * 480 * 640 * 25 - 2, 1e-6);
    cr_assert_float_eq(bytes, 4.0 * (480 * 640 * 2 + 25), 1e-6);
    cr_assert_eq(read_spec(VECADD, "launchVectorAdd", &s), 0, "%s", err);
    long n = 1000;
    array_work(&s, &n, &flop, &bytes);
    cr_assert_float_eq(flop, 1000, 0); /* no "work": an operation an output element */
    cr_assert_float_eq(bytes, 12000, 0);
    cr_assert_str_eq(s.baseline_name, "", "no baseline declared");
}

/* The library baseline bench/gpu_labs.sh times beside the reference */
Test(array_spec, a_library_baseline_with_its_link_flags)
{
    char text[2048];
    const char *end = strstr(VECADD, "1e-6}\n}}");
    snprintf(text, sizeof text, "%.*s1e-6},\n  \"baseline\": {\"name\": \"cuSPARSE SpMV\", \"source\": \"baseline.cu\", "
             "\"link\": [\"-lcusparse\", \"-lcublas\"]}\n}}\n", (int)(end - VECADD), VECADD);
    array_spec_t s;
    cr_assert_eq(read_spec(text, "launchVectorAdd", &s), 0, "%s", err);
    cr_assert_str_eq(s.baseline_name, "cuSPARSE SpMV");
    cr_assert_str_eq(s.baseline_source, "baseline.cu");
    cr_assert_str_eq(s.baseline_link, "-lcusparse -lcublas");
}

Test(array_spec, a_shape_gives_each_param)
{
    array_spec_t s;
    cr_assert_eq(read_spec(VECADD, "launchVectorAdd", &s), 0, "%s", err);
    long n;
    cr_assert_eq(array_shape_params(&s, "16777217", &n, err, sizeof err), 0);
    cr_assert_eq(n, 16777217);
    const char *bad[] = {"0", "12a", "", "3x4", "-5"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        cr_assert_eq(array_shape_params(&s, bad[i], &n, err, sizeof err), -1, "'%s' accepted", bad[i]);
    cr_assert(strstr(err, "shape '-5': n must be a whole number from 1"), "%s", err);
}

/* The executor's call: each argument as bin/cugrade-vgpu takes it, a param
 * as the first input dimension it sizes, an int array's type; what it
 * cannot pass yet named */
Test(array_spec, the_executors_call)
{
    array_spec_t s;
    char call[128], shape[64];
    cr_assert_eq(read_spec(VECADD, "launchVectorAdd", &s), 0, "%s", err);
    cr_assert_eq(array_spec_vgpu(&s, call, sizeof call, shape, sizeof shape, err, sizeof err), 0, "%s", err);
    cr_assert_str_eq(call, "in0,in1,out,n0");
    cr_assert_str_eq(shape, "1,n0");
    const char *conv =
        "{\"array\": {\"params\": [\"height\", \"width\", \"mask\"],\n"
        " \"signature\": \"void launchConvolution(const float *I, const float *M, float *P, int height, int width, "
        "int mask)\",\n"
        " \"inputs\": [{\"name\": \"I\", \"type\": \"float\", \"shape\": [\"height\", \"width\"]},\n"
        "            {\"name\": \"M\", \"type\": \"float\", \"shape\": [\"mask\", \"mask\"]}],\n"
        " \"outputs\": [{\"name\": \"P\", \"type\": \"float\", \"shape\": [\"height\", \"width\"]}],\n"
        " \"tolerance\": {\"rtol\": 1e-5, \"atol\": 1e-5}}}";
    cr_assert_eq(read_spec(conv, "", &s), 0, "%s", err);
    cr_assert_eq(array_spec_vgpu(&s, call, sizeof call, shape, sizeof shape, err, sizeof err), 0, "%s", err);
    cr_assert_str_eq(call, "in0,in1,out,rows0,cols0,rows1");
    cr_assert_str_eq(shape, "rows0,cols0");
    const char *hist =
        "{\"array\": {\"params\": [\"n\"],\n"
        " \"signature\": \"void launchHistogram(const int *in, int *bins, int n)\",\n"
        " \"inputs\": [{\"name\": \"in\", \"type\": \"int\", \"shape\": [\"n\"]}],\n"
        " \"outputs\": [{\"name\": \"bins\", \"type\": \"int\", \"shape\": [256]}],\n"
        " \"tolerance\": \"exact\"}}";
    cr_assert_eq(read_spec(hist, "", &s), 0, "%s", err);
    cr_assert_eq(array_spec_vgpu(&s, call, sizeof call, shape, sizeof shape, err, sizeof err), 0, "%s", err);
    cr_assert_str_eq(call, "in0,out,n0");
    cr_assert_str_eq(shape, "1,256", "a number of the shape stays one");
    char types[16];
    int out_int;
    array_spec_types(&s, types, sizeof types, &out_int);
    cr_assert_str_eq(types, "i");
    cr_assert(out_int);
    const char *ret = "{\"array\": {\"params\": [\"n\"], \"signature\": \"int launchCount(const float *A, float *C, int n)\",\n"
                      " \"inputs\": [{\"name\": \"A\", \"type\": \"float\", \"shape\": [\"n\"]}],\n"
                      " \"outputs\": [{\"name\": \"C\", \"type\": \"float\", \"shape\": [\"n\"]}],\n"
                      " \"tolerance\": {\"rtol\": 0, \"atol\": 0}}}";
    cr_assert_eq(read_spec(ret, "", &s), 0, "%s", err);
    cr_assert_eq(array_spec_vgpu(&s, call, sizeof call, shape, sizeof shape, err, sizeof err), -1);
    cr_assert(strstr(err, "a launch function that returns int is not run on the executor yet"), "%s", err);
}

/* A shape of a param plus a constant (CSR's row pointers, rows+1), the
 * executor's call taking the param from it ("n0-1"), and an input read only
 * in part ("read": "some": "f~") */
Test(array_spec, a_dimension_with_an_offset_and_an_input_read_in_part)
{
    const char *csr =
        "{\"array\": {\"params\": [\"rows\", \"cols\", \"nnz\"],\n"
        " \"signature\": \"void launchSpMV(const int *rowPtr, const int *colIdx, const float *val, const float *x, "
        "float *y, int rows)\",\n"
        " \"inputs\": [{\"name\": \"rowPtr\", \"type\": \"int\", \"shape\": [\"rows+1\"]},\n"
        "            {\"name\": \"colIdx\", \"type\": \"int\", \"shape\": [\"nnz\"]},\n"
        "            {\"name\": \"val\", \"type\": \"float\", \"shape\": [\"nnz\"]},\n"
        "            {\"name\": \"x\", \"type\": \"float\", \"shape\": [\"cols\"], \"read\": \"some\"}],\n"
        " \"outputs\": [{\"name\": \"y\", \"type\": \"float\", \"shape\": [\"rows\"]}],\n"
        " \"tolerance\": {\"rtol\": 0, \"atol\": 0}}}";
    array_spec_t s;
    cr_assert_eq(read_spec(csr, "launchSpMV", &s), 0, "%s", err);
    long p[3] = {100, 50, 400};
    cr_assert_eq(array_elements(&s.inputs[0], p), 101);
    char call[128], shape[64], types[32];
    int out_int;
    cr_assert_eq(array_spec_vgpu(&s, call, sizeof call, shape, sizeof shape, err, sizeof err), 0, "%s", err);
    cr_assert_str_eq(call, "in0,in1,in2,in3,out,n0-1");
    cr_assert_str_eq(shape, "1,n0-1");
    array_spec_types(&s, types, sizeof types, &out_int);
    cr_assert_str_eq(types, "i,i,f,f~");
    cr_assert(!out_int);
    char bad[1400];
    const char *at = strstr(csr, "rows+1");
    snprintf(bad, sizeof bad, "%.*srows*2%s", (int)(at - csr), csr, at + 6);
    cr_assert_eq(read_spec(bad, "launchSpMV", &s), -1);
    cr_assert(strstr(err, "'rows*2' is not one of the params"), "%s", err);
}
