/* test_new_lab.c - end to end: an instructor adds a lab of an existing kind
 * by adding folders, without touching the grader (docs/adding-a-lab.md).
 * Each test builds a throw-away cugrade tree (CUGRADE_ROOT) that links this
 * checkout's tools (bin/, build/, emu/) and the kinds' shared host code
 * (labs/common, labs/kinds), and adds a new lab "mmx" of kind matmul with its
 * own launch function name, block width, datasets made with `cugrade dataset
 * --lab mmx`, reference, student file and rubric.json. The reference must
 * get full marks; a student who reads B transposed must get the kind's hint
 * for it; a lab.json naming a kind that does not exist must be a grader
 * fault (exit 2) naming the file. And a lab of the array kind (issue 41),
 * "madd", from data files alone (lab.json, its generator gen.c, a reference,
 * a stub, a rubric): its datasets made and checked by its generator, the
 * reference at full marks and the stub at 0 on the emulator and the
 * executor, and its Gradescope export carrying the generator. Runs from the
 * repository root. */
#include "e2e.h"

#include <sys/stat.h>

typedef struct {
    char dir[64];         /* the tree */
    char env_root[128];   /* CUGRADE_ROOT=dir */
    char json[128];       /* where results.json goes */
} tree_t;

static void link_to_checkout(const tree_t *t, const char *name)
{
    char cwd[4096], from[4200], to[256];
    cr_assert_not_null(getcwd(cwd, sizeof cwd));
    snprintf(from, sizeof from, "%s/%s", cwd, name);
    snprintf(to, sizeof to, "%s/%s", t->dir, name);
    cr_assert_eq(symlink(from, to), 0, "cannot link %s", to);
}

static void write_in(const tree_t *t, const char *name, const char *text)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", t->dir, name);
    char *slash = strrchr(path, '/');
    *slash = '\0';
    cr_assert_eq(mkdir_p(path, NULL, 0), 0, "cannot make %s", path);
    *slash = '/';
    write_text(path, text);
}

/* bin/cugrade ARGS... in tree t. */
static run_result_t cugrade(const tree_t *t, const char *const *args)
{
    char *argv[32] = {"bin/cugrade"}, *envp[] = {(char *)t->env_root, NULL};
    int n = 1;
    for (int i = 0; args[i]; i++)
        argv[n++] = (char *)args[i];
    argv[n] = NULL;
    run_spec_t spec = {.argv = argv, .extra_env = envp, .timeout_s = 120, .output_cap = 1 << 20};
    run_result_t r;
    run_one(&spec, &r);
    return r;
}

static const char lab_json[] =
    "{\n"
    "  \"name\": \"mmx\",\n"
    "  \"title\": \"Matrix multiplication in blocks of 8 x 8 (a throw-away lab)\",\n"
    "  \"kind\": \"%s\",\n"
    "  \"style\": \"kernel\",\n"
    "  \"student_file\": \"mm.cu\",\n"
    "  \"driver\": \"../kinds/matmul/driver.cu\",\n"
    "  \"launch\": \"launchMM\",\n"
    "  \"tile_width\": 8,\n"
    "  \"compare\": { \"rtol\": 1e-4, \"atol\": 1e-3 },\n"
    "  \"time_limit_s\": 30\n"
    "}\n";

/* Its reference: the basic kernel in blocks of 8 x 8. */
static const char reference[] =
    "__global__ void mmKernel(const float *A, const float *B, float *C, int M, int K, int N)\n"
    "{\n"
    "    int row = blockIdx.y * blockDim.y + threadIdx.y;\n"
    "    int col = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    if (row < M && col < N) {\n"
    "        float sum = 0.0f;\n"
    "        for (int k = 0; k < K; ++k)\n"
    "            sum += A[row * K + k] * B[%s];\n"
    "        C[row * N + col] = sum;\n"
    "    }\n"
    "}\n"
    "\n"
    "void launchMM(const float *A, const float *B, float *C, int numARows, int numAColumns,\n"
    "              int numBRows, int numBColumns, int numCRows, int numCColumns)\n"
    "{\n"
    "    dim3 block(8, 8), grid((numCColumns + 7) / 8, (numCRows + 7) / 8);\n"
    "    mmKernel<<<grid, block>>>(A, B, C, numCRows, numAColumns, numCColumns);\n"
    "    (void)numARows, (void)numBRows;\n"
    "}\n";

static const char rubric[] =
    "{\"version\": 1, \"labs\": {\"mmx\": {\n"
    "  \"compile\": {\"name\": \"compiles\", \"points\": 0},\n"
    "  \"datasets\": {\"points\": 5, \"time_limit_s\": 30, \"budget_s\": 60},\n"
    "  \"checks\": {\"memory-safe\": {\"points\": 5}}}}}\n";

/* The tree with lab mmx of the given kind, and (when the kind exists) its
 * three datasets made by the generator. */
static tree_t make_tree(const char *kind)
{
    tree_t t;
    snprintf(t.dir, sizeof t.dir, "/tmp/cugrade-newlab-XXXXXX");
    cr_assert_not_null(mkdtemp(t.dir));
    snprintf(t.env_root, sizeof t.env_root, "CUGRADE_ROOT=%s", t.dir);
    snprintf(t.json, sizeof t.json, "%s/r.json", t.dir);
    char path[256], text[4096];
    snprintf(path, sizeof path, "%s/labs", t.dir);
    cr_assert_eq(mkdir(path, 0755), 0);
    const char *shared[] = {"bin", "build", "emu", "labs/common", "labs/kinds", NULL};
    for (int i = 0; shared[i]; i++)
        link_to_checkout(&t, shared[i]);
    snprintf(text, sizeof text, lab_json, kind);
    write_in(&t, "labs/mmx/lab.json", text);
    snprintf(text, sizeof text, reference, "k * N + col");
    write_in(&t, "reference/mmx/mm.cu", text);
    snprintf(text, sizeof text, reference, "col * K + k"); /* the mistake: B read transposed */
    write_in(&t, "student/mmx/mm.cu", text);
    write_in(&t, "rubric.json", rubric);
    if (strcmp(kind, "matmul") != 0)
        return t;
    const char *shapes[] = {"1x1x1", "17x9x13", "40x33x24"};
    for (int i = 0; i < 3; i++) {
        char out[160];
        snprintf(out, sizeof out, "%s/datasets/mmx/%d", t.dir, i);
        const char *args[] = {"dataset", "--lab", "mmx", "--shape", shapes[i], "--seed", "5",
                              "--out", out, NULL};
        run_result_t r = cugrade(&t, args);
        cr_assert(r.exited && r.exit_code == 0, "%s: %s", shapes[i], r.output);
        run_result_free(&r);
    }
    return t;
}

/* cugrade run --lab mmx of the tree's WHO ("reference" or "student"). */
static run_result_t grade_in(const tree_t *t, const char *who, json_object **json)
{
    char submission[160];
    snprintf(submission, sizeof submission, "%s/%s", t->dir, who);
    const char *args[] = {"run", "--lab", "mmx", "--backend", "emu", "--color", "never",
                          "--json", t->json, submission, NULL};
    run_result_t r = cugrade(t, args);
    *json = is_file(t->json) ? json_object_from_file(t->json) : NULL;
    return r;
}

static json_object *test_in(json_object *results, const char *prefix)
{
    json_object *tests;
    cr_assert(json_object_object_get_ex(results, "tests", &tests));
    for (size_t i = 0; i < json_object_array_length(tests); i++) {
        json_object *t = json_object_array_get_idx(tests, i);
        if (strncmp(str(t, "name"), prefix, strlen(prefix)) == 0)
            return t;
    }
    cr_assert_fail("no test named %s", prefix);
    return NULL;
}

Test(new_lab, a_lab_of_an_existing_kind_is_folders_only, .timeout = 180)
{
    tree_t t = make_tree("matmul");
    json_object *json;
    run_result_t r = grade_in(&t, "reference", &json);
    cr_assert(r.exited && r.exit_code == 0, "%s", r.output);
    cr_assert_not_null(json, "%s", r.output);
    cr_expect(strstr(r.output, "cugrade mmx"), "%s", r.output);
    /* no "hidden" in its rubric: 8 hidden datasets, each worth a public one (5) */
    cr_expect(strstr(r.output, "Score: 60 / 60   (3 of 3 datasets and 8 of 8 hidden ones passed"),
              "%s", r.output);
    cr_expect_float_eq(num(json, "score"), 60.0, 1e-9);
    cr_expect(strstr(str(test_in(json, "dataset 1 ("), "name"), "17x9x13"), "the kind's shape");
    json_object_put(json);
    run_result_free(&r);

    r = grade_in(&t, "student", &json);
    cr_assert(r.exited && r.exit_code == 0, "%s", r.output);
    cr_assert_not_null(json, "%s", r.output);
    /* 1x1x1, the check, and the 3 hidden datasets where A·Bᵀ is A·B (a side of 1) */
    cr_expect_float_eq(num(json, "score"), 25.0, 1e-9, "%s", r.output);
    cr_expect(passed(test_in(json, "dataset 0 (1x1x1)")));
    const char *out = str(test_in(json, "dataset 1 ("), "output");
    cr_expect(!passed(test_in(json, "dataset 1 (")), "%s", out);
    cr_expect(strstr(out, "hint: every element equals A·Bᵀ"), "the kind's hypothesis:\n%s", out);
    json_object_put(json);
    run_result_free(&r);
    rm_rf(t.dir);
}

Test(new_lab, an_unknown_kind_is_a_grader_fault_naming_the_file, .timeout = 60)
{
    tree_t t = make_tree("stencil");
    json_object *json;
    run_result_t r = grade_in(&t, "reference", &json);
    cr_expect(r.exited && r.exit_code == 2, "exit %d: %s", r.exit_code, r.output);
    cr_expect(strstr(r.output, "labs/mmx/lab.json"), "%s", r.output);
    cr_expect(strstr(r.output, "stencil"), "%s", r.output);
    cr_expect(strstr(r.output, "matmul, reduction"), "the known kinds:\n%s", r.output);
    cr_expect_null(json, "no results for a lab that cannot be graded");
    json_object_put(json);
    run_result_free(&r);
    rm_rf(t.dir);
}

/* ---- a lab of the array kind: data files and the lab's own generator (issue 41) ---- */

static const char madd_json[] =
    "{\n"
    "  \"name\": \"madd\", \"title\": \"Matrix addition (a throw-away array lab)\",\n"
    "  \"kind\": \"array\", \"style\": \"kernel\", \"student_file\": \"madd.cu\",\n"
    "  \"launch\": \"launchMatAdd\", \"tile_width\": 16, \"time_limit_s\": 30,\n"
    "  \"array\": {\n"
    "    \"params\": [\"rows\", \"cols\"],\n"
    "    \"signature\": \"void launchMatAdd(const float *A, const float *B, float *C, int rows, int cols)\",\n"
    "    \"inputs\": [{\"name\": \"A\", \"type\": \"float\", \"shape\": [\"rows\", \"cols\"]},\n"
    "               {\"name\": \"B\", \"type\": \"float\", \"shape\": [\"rows\", \"cols\"]}],\n"
    "    \"outputs\": [{\"name\": \"C\", \"type\": \"float\", \"shape\": [\"rows\", \"cols\"]}],\n"
    "    \"tolerance\": {\"rtol\": 0, \"atol\": 0}\n"
    "  }\n"
    "}\n";

static const char madd_gen[] =
    "#define LAB_PARAMS 2\n#define LAB_INPUTS 2\n#include \"gen_lab.h\"\n"
    "void lab_inputs(const long *p, gen_rng_t *rng, int s, gen_array_t *in)\n"
    "{\n"
    "    for (int k = 0; k < 2; k++) {\n"
    "        double *v = gen_alloc(&in[k], p[0], p[1], 0, 0);\n"
    "        for (long i = 0; i < p[0] * p[1]; i++) v[i] = gen_float(rng, s ? -4 : 0, 4);\n"
    "    }\n"
    "}\n"
    "void lab_expected(const long *p, const gen_array_t *in, gen_array_t *out)\n"
    "{\n"
    "    double *c = gen_alloc(out, p[0], p[1], 0, 0);\n"
    "    for (long i = 0; i < p[0] * p[1]; i++) c[i] = (double)(float)(in[0].v[i] + in[1].v[i]);\n"
    "}\n"
    "void lab_params(const gen_array_t *in, long *p) { p[0] = in[0].rows, p[1] = in[0].cols; }\n"
    "void lab_hidden_shape(int f, gen_rng_t *rng, char *shape, size_t len)\n"
    "{\n"
    "    snprintf(shape, len, \"%ldx%ld\", gen_between(rng, 1, f ? 70 : 15), gen_between(rng, 1, f ? 70 : 15));\n"
    "}\n";

/* %s: the kernel's store, right or not */
static const char madd_kernel[] =
    "__global__ void matAdd(const float *A, const float *B, float *C, int rows, int cols)\n"
    "{\n"
    "    int r = blockIdx.y * blockDim.y + threadIdx.y, c = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    %s\n"
    "}\n"
    "void launchMatAdd(const float *A, const float *B, float *C, int rows, int cols)\n"
    "{\n"
    "    dim3 block(16, 16), grid((cols + 15) / 16, (rows + 15) / 16);\n"
    "    matAdd<<<grid, block>>>(A, B, C, rows, cols);\n"
    "}\n";

Test(new_lab, an_array_lab_is_data_files_only, .timeout = 300)
{
    tree_t t;
    snprintf(t.dir, sizeof t.dir, "/tmp/cugrade-arraylab-XXXXXX");
    cr_assert_not_null(mkdtemp(t.dir));
    snprintf(t.env_root, sizeof t.env_root, "CUGRADE_ROOT=%s", t.dir);
    snprintf(t.json, sizeof t.json, "%s/r.json", t.dir);
    char path[256], text[2048];
    snprintf(path, sizeof path, "%s/labs", t.dir);
    cr_assert_eq(mkdir(path, 0755), 0);
    const char *shared[] = {"bin", "build", "emu", "labs/common", "labs/kinds", "grader", "tools", "Makefile", "tests", NULL};
    for (int i = 0; shared[i]; i++)
        link_to_checkout(&t, shared[i]);
    write_in(&t, "labs/madd/lab.json", madd_json);
    write_in(&t, "labs/madd/gen.c", madd_gen);
    snprintf(text, sizeof text, madd_kernel, "if (r < rows && c < cols) C[r * cols + c] = A[r * cols + c] + B[r * cols + c];");
    write_in(&t, "reference/madd/madd.cu", text);
    snprintf(text, sizeof text, madd_kernel, "//@@ C = A + B, one element a thread");
    write_in(&t, "student/madd/madd.cu", text);
    write_in(&t, "rubric.json", "{\"version\": 1, \"labs\": {\"madd\": {\"compile\": {\"name\": \"compiles\", "
                                "\"points\": 0}, \"datasets\": {\"points\": 5, \"time_limit_s\": 30}, "
                                "\"hidden\": {\"count\": 4, \"points\": 2.5}, \"checks\": {\"memory-safe\": "
                                "{\"points\": 5}}}}}\n");
    const char *shapes[] = {"1x1", "17x40", "33x16"};
    for (int i = 0; i < 3; i++) {
        char out[160];
        snprintf(out, sizeof out, "%s/datasets/madd/%d", t.dir, i);
        const char *args[] = {"dataset", "--lab", "madd", "--shape", shapes[i], "--seed", "9", "--out", out, NULL};
        run_result_t r = cugrade(&t, args);
        cr_assert(r.exited && r.exit_code == 0, "%s: %s", shapes[i], r.output);
        run_result_free(&r);
    }
    const char *check[] = {"dataset", "--lab", "madd", "--check", path, NULL};
    snprintf(path, sizeof path, "%s/datasets/madd", t.dir);
    run_result_t r = cugrade(&t, check);
    cr_assert(r.exited && r.exit_code == 0 && strstr(r.output, "3 datasets checked, 0 bad"), "%s", r.output);
    run_result_free(&r);
    const char *backends[] = {"emu", "vgpu"};
    for (int b = 0; b < 2; b++) {
        for (int who = 0; who < 2; who++) {
            char submission[160];
            snprintf(submission, sizeof submission, "%s/%s", t.dir, who ? "student" : "reference");
            const char *args[] = {"run", "--lab", "madd", "--backend", backends[b], "--color", "never", submission, NULL};
            r = cugrade(&t, args);
            cr_assert(r.exited && r.exit_code == 0, "%s: %s", backends[b], r.output);
            cr_assert(strstr(r.output, who ? "Score: 0 / 30" : "Score: 30 / 30   (3 of 3 datasets and 4 of 4 hidden"),
                      "%s %s: %s", backends[b], who ? "stub" : "reference", r.output);
            run_result_free(&r);
        }
    }
    char zip[200];
    snprintf(zip, sizeof zip, "%s/ag.zip", t.dir);
    const char *exp[] = {"export", "gradescope", "--lab", "madd", "--out", zip, NULL};
    r = cugrade(&t, exp);
    cr_assert(r.exited && r.exit_code == 0 && is_file(zip), "%s", r.output);
    run_result_free(&r);
    char list[400];
    snprintf(list, sizeof list, "unzip -l %s | grep -q cugrade/labs/madd/gen.c", zip);
    cr_assert_eq(system(list), 0, "the export carries the lab's generator");
    rm_rf(t.dir);
}
