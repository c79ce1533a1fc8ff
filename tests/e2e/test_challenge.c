/* test_challenge.c - end to end, the challenge lab (labs/challenge: SGEMM
 * with launchSgemm(A, B, C, M, N, K), rule fp32-simt): bin/cugrade grades
 * the reference, the stub and the submissions of tests/submissions/challenge/
 * (the header of each says what the grader should say) on the emu backend
 * against the lab's 27 datasets and 8 hidden ones: a straightforward
 * register-tiled kernel gets full marks, lab 3's tiles fail traffic-reduced,
 * a kernel that assumes sides that are multiples of 128 gets the grid and
 * phase-count hints, and the submissions that break the rule (WMMA, cuBLAS
 * by header, cuBLAS by pasted names) are told so, by the rule's name, before
 * any compiler or object-check message, with performance 0; one that
 * compiles (a helper named TF32) is graded for correctness as usual. Runs
 * from the repository root. */
#include "lab_case.h"

#define SUBC "tests/submissions/challenge/"
#define NDATASETS 27
#define POINTS_PER_DATASET 2.0
#define NHIDDEN 8
#define HIDDEN_POINTS 2.0
#define CHECK_POINTS 6.0 /* each of the five */
#define FULL_MARKS (NDATASETS * POINTS_PER_DATASET + NHIDDEN * HIDDEN_POINTS + 5 * CHECK_POINTS)

static const lab_suite_t challenge = {"challenge", SUBC, NDATASETS, POINTS_PER_DATASET, NHIDDEN,
                                      HIDDEN_POINTS};

/* A submission that does not compile or passes no dataset is charged to
 * the student only once the canary (the lab's reference on the emulator)
 * passes: these gradings run it, as a real one does. */
static char *const plain_env[] = {NULL};

/* grade_lab on the emulator, the canary included. */
static graded_t grade_challenge(const char *submission, int checks)
{
    const char *with[] = {"--lab", challenge.lab, NULL};
    const char *without[] = {"--lab", challenge.lab, "--checks", "none", NULL};
    graded_t g = grade_on("emu", submission, checks ? with : without, plain_env);
    cr_assert_eq(exit_code(&g), 0, "%s: %s", submission, g.run.output);
    cr_assert_not_null(g.json, "%s: no results.json: %s", submission, g.run.output);
    return g;
}

static json_object *extra_of(const graded_t *g)
{
    json_object *extra;
    cr_assert(json_object_object_get_ex(g->json, "extra_data", &extra));
    return extra;
}

/* Every test passes: 100 of 100 on the emulator, performance 0 of 0. */
static void expect_full_marks(const graded_t *g, const char *file)
{
    expect_every_test_passes(g, file, FULL_MARKS);
    cr_expect(strstr(g->run.output, "Score: 100 / 100"), "%s:\n%s", file, g->run.output);
    json_object *perf = test_named(g, "performance");
    cr_expect_float_eq(num(perf, "max_score"), 0.0, 1e-9, "speed is graded on a GPU only");
    cr_expect(strstr(str(perf, "output"), "not scored on the emu backend (0 of 0; 50 points on a "
                                          "GPU)"), "%s", str(perf, "output"));
    json_object *broken;
    cr_expect(!json_object_object_get_ex(extra_of(g), "rule_broken", &broken), "%s: %s", file,
              json_object_get_string(broken));
}

/* ---- correct submissions ------------------------------------------------------------- */

Test(challenge, reference_gets_full_marks, .timeout = 300)
{
    graded_t g = grade_lab(&challenge, "reference/challenge/sgemm.cu", 1);
    expect_full_marks(&g, "reference/challenge/sgemm.cu");
    expect_check(&g, "race-free", 1, CHECK_POINTS, NULL);
    expect_check(&g, "traffic-reduced", 1, CHECK_POINTS, NULL);
    release(&g);
}

Test(challenge, register_tiled_kernel_gets_full_marks, .timeout = 300)
{
    graded_t g = grade_lab(&challenge, SUBC "register_tiled.cu", 1);
    expect_full_marks(&g, "register_tiled.cu");
    expect_check(&g, "traffic-reduced", 1, CHECK_POINTS,
                 "bytes of global memory traffic per FLOP over all datasets (at most 0.125 "
                 "allowed");
    expect_check(&g, "race-free", 1, CHECK_POINTS, NULL);
    cr_expect_str_eq(str(extra_of(&g), "submission_file"), SUBC "register_tiled.cu");
    release(&g);
}

/* lab 3's 16 x 16 tiles: right everywhere, 0.26 B/FLOP where 0.125 is allowed */
Test(challenge, lab3_tiles_fail_traffic_reduced, .timeout = 300)
{
    graded_t g = grade_lab(&challenge, SUBC "lab3_tiles.cu", 1);
    cr_expect_float_eq(num(g.json, "score"), FULL_MARKS - CHECK_POINTS, 1e-9, "%s",
                       g.run.output);
    expect_check(&g, "traffic-reduced", 0, CHECK_POINTS,
                 "FAILED: 0.261 bytes of global memory traffic per FLOP over all datasets (at most "
                 "0.125 allowed");
    expect_check(&g, "uses-shared-memory", 1, CHECK_POINTS, NULL);
    release(&g);
}

/* ---- one mistake ---------------------------------------------------------------------- */

#define ZERO_GRID "hint: a launch with an invalid configuration: a grid dimension of 0"
#define PHASES_BY_8 "the phase count K / TILE_WIDTH rounds down (with TILE_WIDTH = 8)"
#define PHASES "the phase count K / TILE_WIDTH rounds down" /* K = 257, 129: 8 or 128 alike */

/* Sides that are multiples of 128 only: a grid rounded down (0 blocks below
 * 128), K / 8 k steps, no guards. */
static const lab_case_t multiple_of_128 = {
    "assumes_multiple_of_128.cu", 0, 4 * POINTS_PER_DATASET,
    {2, 3, 20, 23, -1},
    "cuda-error:invalid-configuration",
    ZERO_GRID,
    {{5, "hypothesis:phases-intdiv", "every element equals the sum over k = 0..295 only, not over "
                                     "all K = 300: " "the last, partial phase (k = 296..299) never "
                                     "runs: " PHASES_BY_8},
     {6, "grid-too-small", "hint: only the elements in column 256 (the last partial tile) were "
                           "never written: the grid does not reach them; either its size is "
                           "rounded down (use ceiling division, (n + 128 - 1) / 128)"},
     {12, "hypothesis:phases-intdiv", PHASES_BY_8},
     {13, "hypothesis:phases-intdiv", PHASES_BY_8},
     {21, "hypothesis:phases-intdiv", PHASES_BY_8},
     {22, "hypothesis:phases-intdiv", PHASES},
     {24, "hypothesis:phases-intdiv", PHASES}},
    .hidden_passed = 0,
};

Test(challenge, kernel_for_multiples_of_128_gets_the_grid_and_phase_hints, .timeout = 300)
{
    graded_t g = grade_case(&challenge, &multiple_of_128);
    /* the uneven rows and columns beyond the grid, said besides the phase count */
    cr_expect(strstr(str(dataset_test(&g, 13), "output"), "elements were never written"), "%s",
                     str(dataset_test(&g, 13), "output"));
    release(&g);
}

/* ---- the stub and the rule ------------------------------------------------------------- */

Test(challenge, stub_compiles_and_writes_nothing, .timeout = 300)
{
    graded_t g = grade_challenge("student", 1);
    cr_expect_str_eq(str(extra_of(&g), "submission_file"), "student/challenge/sgemm.cu");
    cr_expect_float_eq(num(g.json, "score"), 0.0, 1e-9);
    cr_expect(passed(test_named(&g, "compiles")), "%s", str(test_named(&g, "compiles"), "output"));
    for (int d = 0; d < NDATASETS; d++) {
        json_object *t = dataset_test(&g, d);
        cr_expect_str_eq(failure_of(t), "never-written", "dataset %d:\n%s", d, str(t, "output"));
        cr_expect(strstr(str(t, "output"), "hint: output never written"), "dataset %d", d);
    }
    expect_check(&g, "race-free", 0, CHECK_POINTS, "not run: no kernel was launched");
    release(&g);
}

/* A submission that breaks fp32-simt: the rule's message in the compiles
 * test, before what follows it (the compiler's or the object check's
 * message, `after`), every dataset not run, performance failed with the
 * message, and extra_data.rule_broken. */
static void expect_rule_broken(const char *file, const char *message, const char *after)
{
    char path[256];
    snprintf(path, sizeof path, SUBC "%s", file);
    graded_t g = grade_challenge(path, 0);
    json_object *compiles = test_named(&g, "compiles");
    const char *out = str(compiles, "output");
    cr_expect(!passed(compiles), "%s compiled on the emulator:\n%s", file, out);
    const char *rule = strstr(out, message), *then = strstr(out, after);
    cr_expect(rule, "%s: '%s' missing:\n%s", file, message, out);
    cr_expect(then, "%s: '%s' missing:\n%s", file, after, out);
    cr_expect(rule && then && rule < then, "%s: the rule is not named first:\n%s", file, out);
    cr_expect_null(strstr(out, "redefinition"), "%s: the emulator's header clash is shown:\n%s",
                   file, out);
    json_object *perf = test_named(&g, "performance");
    cr_expect(!passed(perf), "%s: performance passed", file);
    cr_expect_float_eq(num(perf, "score"), 0.0, 1e-9);
    cr_expect(strstr(str(perf, "output"), "FAILED: rule fp32-simt: the submission "), "%s",
              str(perf, "output"));
    cr_expect(strstr(str(perf, "output"), "scores 0 on performance"), "%s", str(perf, "output"));
    cr_expect(strstr(str(extra_of(&g), "rule_broken"), message), "%s",
              str(extra_of(&g), "rule_broken"));
    cr_expect_float_eq(num(g.json, "score"), 0.0, 1e-9);
    cr_expect(strstr(g.run.output, "rule fp32-simt"), "the terminal report:\n%s", g.run.output);
    release(&g);
}

/* A broken rule next to a correct kernel: the compiles test passes and names
 * the rule, every dataset and check is graded and passes, performance
 * fails with the message (0 of 0 on the emulator). */
Test(challenge, broken_rule_is_graded_for_correctness_and_fails_performance, .timeout = 300)
{
    const char *message = "rule fp32-simt: the submission uses TF32 (tensor cores at reduced "
                          "precision) (" SUBC "tf32_helper.cu:14: USE_TF32)";
    graded_t g = grade_lab(&challenge, SUBC "tf32_helper.cu", 1);
    json_object *compiles = test_named(&g, "compiles"), *perf = test_named(&g, "performance");
    cr_expect(passed(compiles), "%s", str(compiles, "output"));
    cr_expect(strstr(str(compiles, "output"), message), "%s", str(compiles, "output"));
    cr_expect(strstr(str(compiles, "output"), "performance scores 0; correctness is graded as "
                                              "usual"), "%s", str(compiles, "output"));
    cr_expect_eq((int)num(extra_of(&g), "datasets_passed"), NDATASETS);
    cr_expect_eq((int)num(extra_of(&g), "hidden_passed"), NHIDDEN);
    cr_expect_float_eq(num(g.json, "score"), FULL_MARKS, 1e-9, "correctness is graded as usual");
    cr_expect(!passed(perf), "a broken rule fails the performance test even at 0 of 0");
    cr_expect_float_eq(num(perf, "max_score"), 0.0, 1e-9);
    cr_expect(strstr(str(perf, "output"), "FAILED: rule fp32-simt"), "%s", str(perf, "output"));
    cr_expect_str_eq(str(extra_of(&g), "rule_broken"), message);
    cr_expect(strstr(g.run.output, "FAIL      0/0    performance"), "%s", g.run.output);
    release(&g);
}

/* The emulator has no <mma.h> of its own (where the system's CUDA headers
 * are on the include path, they clash with the emulator's): the source
 * stage names the rule, and the report says why the emulator cannot build
 * it instead of the header clash's errors (issue 38 item 10). */
Test(challenge, wmma_breaks_the_rule_before_the_compile_error, .timeout = 300)
{
    expect_rule_broken("uses_wmma.cu",
                       "rule fp32-simt: the submission uses tensor cores (" SUBC
                       "uses_wmma.cu:14: #include <mma.h>)",
                       "the CPU emulator cannot build what the rule forbids");
}

Test(challenge, cublas_header_breaks_the_rule, .timeout = 300)
{
    expect_rule_broken("calls_cublas.cu",
                       "rule fp32-simt: the submission uses cuBLAS, a library (" SUBC
                       "calls_cublas.cu:11: #include <cublas_v2.h>)",
                       "the CPU emulator cannot build what the rule forbids");
}

/* Names pasted by a macro: the object's symbols name cuBLAS, and the rule
 * comes before the object check's refusal of the same call. */
Test(challenge, cublas_symbols_break_the_rule_before_the_object_check, .timeout = 300)
{
    expect_rule_broken("calls_cublas_hidden.cu",
                       "rule fp32-simt: the submission uses cuBLAS, a library (calls "
                       "cublasCreate_v2, in its compiled object)",
                       "refused: the submission calls cublasCreate_v2");
}
