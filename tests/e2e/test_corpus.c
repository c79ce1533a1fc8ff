/* test_corpus.c - end to end on the corpus of lab 3 kernels, one per bug
 * class: each gets the failing check and the finding it must produce (with
 * the student's file:line), and the correct kernels get every check. Graded
 * on three small datasets: even (48x48x48), uneven in M and N with several
 * phases (100x128x56), and K smaller than the tile (40x7x33). */
#include "e2e.h"

#define NCHECKS 5
static const char *const checks[NCHECKS] = {"race-free", "barriers-uniform", "memory-safe",
                                            "uses-shared-memory", "traffic-reduced"};

typedef struct {
    const char *file;
    const char *failing[NCHECKS]; /* the checks that must fail; every other must pass */
    const char *evidence[3];      /* substrings of the first failing check's output */
    int passes_nothing;           /* no dataset passes: clean checks are "not scored" */
} corpus_case_t;

static const corpus_case_t corpus[] = {
    {"missing_first_barrier.cu", {"race-free"},
     {"Race on shared tile", "missing_first_barrier.cu:", "a __syncthreads() is missing"}, 1},
    {"missing_second_barrier.cu", {"race-free"},
     {"Race on shared tile", "missing_second_barrier.cu:", "in the same barrier interval"}},
    {"barrier_in_if.cu", {"barriers-uniform", "memory-safe"},
     {"Barrier divergence", "have already returned", "barrier_in_if.cu:"}},
    {"early_return.cu", {"barriers-uniform", "memory-safe"},
     {"Barrier divergence", "early_return.cu:"}},
    {"unguarded_loads.cu", {"memory-safe"},
     {"Out-of-bounds read of ", "past the end of ", "unguarded_loads.cu:"}},
    {"unguarded_store.cu", {"memory-safe"},
     {"Out-of-bounds write of C", "past the end of C", "unguarded_store.cu:"}},
    {"uninit_shared.cu", {"memory-safe"},
     {"Uninitialised shared memory read", "no thread of this block has written it"}},
    {"untiled.cu", {"uses-shared-memory", "traffic-reduced"},
     {"never read back data it had stored in shared memory"}},
    {"transposed_mapping.cu", {NULL}, {NULL}},
    {"tile8.cu", {NULL}, {NULL}},
    {"tile32.cu", {NULL}, {NULL}},
    {"course_style.cu", {NULL}, {NULL}},
};

static char datasets[] = "/tmp/cugrade-corpus-XXXXXX";

static void make_corpus_datasets(void)
{
    cr_assert_not_null(mkdtemp(datasets));
    const char *shapes[] = {"48x48x48", "100x128x56", "40x7x33", NULL};
    make_datasets(datasets, shapes);
}

static void remove_corpus_datasets(void) { rm_rf(datasets); }

static int must_fail(const corpus_case_t *c, const char *check)
{
    for (int i = 0; i < NCHECKS && c->failing[i]; i++)
        if (strcmp(c->failing[i], check) == 0)
            return 1;
    return 0;
}

static void grade_case(const corpus_case_t *c)
{
    char path[256];
    snprintf(path, sizeof path, "tests/submissions/lab3/%s", c->file);
    const char *extra[] = {"--datasets", datasets, NULL};
    graded_t g = grade(path, extra);
    cr_assert_eq(exit_code(&g), 0, "%s: %s", c->file, g.run.output);
    for (int i = 0; i < NCHECKS; i++) {
        json_object *t = test_named(&g, checks[i]);
        if (must_fail(c, checks[i]))
            cr_expect(!passed(t), "%s: %s should fail:\n%s", c->file, checks[i], str(t, "output"));
        else if (c->passes_nothing)
            cr_expect(!passed(t) && strncmp(str(t, "output"), "not scored: no dataset passed", 29) == 0,
                      "%s: %s should be unscored:\n%s", c->file, checks[i], str(t, "output"));
        else
            cr_expect(passed(t), "%s: %s should pass:\n%s", c->file, checks[i], str(t, "output"));
    }
    if (c->failing[0]) {
        const char *out = str(test_named(&g, c->failing[0]), "output");
        for (int e = 0; e < 3 && c->evidence[e]; e++)
            cr_expect(strstr(out, c->evidence[e]), "%s: '%s' missing from %s:\n%s", c->file,
                      c->evidence[e], c->failing[0], out);
    }
    release(&g);
}

#define CORPUS_TEST(name, index)                                                                   \
    Test(corpus, name, .init = make_corpus_datasets, .fini = remove_corpus_datasets,              \
         .timeout = 300)                                                                           \
    {                                                                                              \
        grade_case(&corpus[index]);                                                                \
    }

CORPUS_TEST(missing_first_barrier_is_a_race, 0)
CORPUS_TEST(missing_second_barrier_is_a_race, 1)
CORPUS_TEST(barrier_inside_if_is_barrier_divergence, 2)
CORPUS_TEST(early_return_is_barrier_divergence, 3)
CORPUS_TEST(unguarded_loads_read_out_of_bounds, 4)
CORPUS_TEST(unguarded_store_writes_out_of_bounds, 5)
CORPUS_TEST(loads_skipped_outside_the_matrix_read_uninitialised_shared_memory, 6)
CORPUS_TEST(untiled_kernel_uses_no_shared_memory_and_moves_4_bytes_per_flop, 7)
CORPUS_TEST(transposed_mapping_passes_every_check, 8)
CORPUS_TEST(tile8_passes_every_check, 9)
CORPUS_TEST(tile32_passes_every_check, 10)
CORPUS_TEST(course_style_passes_every_check, 11)

Test(corpus, transposed_mapping_is_explained_by_coalescing_and_bank_conflicts,
     .init = make_corpus_datasets, .fini = remove_corpus_datasets, .timeout = 300)
{
    const char *extra[] = {"--datasets", datasets, NULL};
    graded_t g = grade("tests/submissions/lab3/transposed_mapping.cu", extra);
    const char *out = str(test_named(&g, "traffic-reduced"), "output");
    cr_expect(strstr(out, "coalescing: global loads at transposed_mapping.cu:"), "%s", out);
    cr_expect(strstr(out, "make threadIdx.x index the contiguous dimension"), "%s", out);
    cr_expect(strstr(out, "bank-conflicts: shared loads of tile"), "%s", out);
    release(&g);
    g = grade("reference", extra);
    out = str(test_named(&g, "traffic-reduced"), "output");
    cr_expect(strstr(out, "coalescing: global accesses are coalesced"), "%s", out);
    cr_expect(strstr(out, "free of bank conflicts"), "%s", out);
    release(&g);
}

Test(corpus, checks_none_skips_the_checks_and_says_so, .init = make_corpus_datasets,
     .fini = remove_corpus_datasets, .timeout = 300)
{
    const char *extra[] = {"--datasets", datasets, "--checks", "none", NULL};
    graded_t g = grade("tests/submissions/lab3/missing_first_barrier.cu", extra);
    for (int i = 0; i < NCHECKS; i++) {
        json_object *t = test_named(&g, checks[i]);
        cr_expect(!passed(t));
        cr_expect_str_eq(str(t, "output"), "not run: the checks were switched off (--checks none)\n");
    }
    release(&g);
}
