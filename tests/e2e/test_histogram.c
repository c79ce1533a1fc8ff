/* test_histogram.c - end to end, lab histogram (issue 41): int arrays on
 * the array kind. The values go to the device as 32-bit ints and the bins
 * come back as counts, exact, on the emulator and the executor; bins the
 * launch function zeroed with cudaMemset and no value fell into are no
 * host output (a memset to 0 carries no host values). The reference gets
 * full marks, the stub nothing; bins never zeroed fail, named by the lab's
 * own diagnosis; ++ on the shared bins fails with the race named; global
 * atomics without privatization are named. Runs
 * from the repository root. */
#include "e2e.h"


Test(histogram, the_reference_gets_full_marks_with_exact_counts, .timeout = 300)
{
    const char *backends[] = {"emu", "vgpu"};
    for (int b = 0; b < 2; b++) {
        graded_t g = grade_lab_on(backends[b], "histogram", "reference/histogram/histogram.cu", NULL);
        cr_assert(strstr(g.run.output, "Score: 71 / 71   (7 of 7 datasets and 8 of 8 hidden ones passed"), "%s: %s",
                  backends[b], g.run.output);
        release(&g);
    }
}

Test(histogram, the_stub_and_bins_never_zeroed_fail, .timeout = 300)
{
    graded_t g = grade_lab_on("vgpu", "histogram", "student/histogram/histogram.cu", NULL);
    cr_assert(strstr(g.run.output, "Score: 0 / 71"), "%s", g.run.output);
    release(&g);
    g = grade_lab_on("vgpu", "histogram", "tests/submissions/histogram/bins_not_zeroed.cu", NULL);
    json_object *d0 = test_named(&g, "dataset 0 ");
    cr_assert(!passed(d0));
    cr_assert(strstr(str(d0, "output"), "255 never written"), "%s", str(d0, "output"));
    cr_assert_null(strstr(str(d0, "output"), "host-output"), "%s", str(d0, "output"));
    /* the lab's own diagnosis (labs/histogram/gen.c lab_explain) */
    cr_assert(strstr(str(d0, "output"), "hint: the bins were never zeroed"), "%s", str(d0, "output"));
    release(&g);
    /* ++ on the shared bins: counts lost, the race named as the likely cause (not a guess at the fix:
     * a missing barrier before the merge loses counts too) */
    g = grade_lab_on("vgpu", "histogram", "tests/submissions/histogram/not_atomic.cu", NULL);
    json_object *d1 = test_named(&g, "dataset 1 ");
    cr_assert(!passed(d1));
    cr_assert(strstr(str(d1, "output"), "likely cause: a shared-memory race"), "%s", str(d1, "output"));
    cr_assert(!passed(test_named(&g, "race-free")));
    release(&g);
}

/* Right but not privatized: every count an atomicAdd on the global bins. The executor counts
 * atomics by space: uses-shared-memory fails naming the contention and privatization (failure
 * key global-atomics), where the generic message would speak of tiles */
Test(histogram, global_atomics_without_privatization_are_named, .timeout = 300)
{
    graded_t g = grade_lab_on("vgpu", "histogram", "tests/submissions/histogram/global_atomics.cu", NULL);
    cr_assert(strstr(g.run.output, "7 of 7 datasets and 8 of 8 hidden ones passed"), "%s", g.run.output);
    json_object *c = test_named(&g, "uses-shared-memory"), *extra, *failure;
    cr_assert(!passed(c));
    cr_assert(strstr(str(c, "output"), "atomic operations all went to global memory") &&
              strstr(str(c, "output"), "Privatize: each block accumulates into its own __shared__ copy") &&
              !strstr(str(c, "output"), "tiles of A and B"), "%s", str(c, "output"));
    cr_assert(json_object_object_get_ex(c, "extra_data", &extra) && json_object_object_get_ex(extra, "failure", &failure));
    cr_assert_str_eq(json_object_get_string(failure), "global-atomics");
    release(&g);
}
