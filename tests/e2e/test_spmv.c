/* test_spmv.c - end to end, lab spmv (issue 41): a sparse matrix-vector
 * product in CSR on the array kind, with int and float arrays, a shape of
 * rows+1 (the row pointers) and a vector x the kernels read only where a
 * column has nonzeros ("read": "some"). The reference gets full marks on
 * the emulator and the executor, the stub nothing, and a row loop that runs
 * one past its end fails with the read past the arrays named. And lab
 * spmv-jds, the same product in JDS (its column pointers' end read by no
 * kernel that uses the row lengths: "read": "some"): the reference at full
 * marks, the stub at 0, a sum stored unpermuted wrong (and, where the
 * matrix has one row, failed for never reading perm). Runs from the
 * repository root. */
#include "e2e.h"


Test(spmv, the_reference_gets_full_marks, .timeout = 300)
{
    const char *backends[] = {"emu", "vgpu"};
    for (int b = 0; b < 2; b++) {
        graded_t g = grade_lab_on(backends[b], "spmv", "reference/spmv/spmv.cu", NULL);
        cr_assert(strstr(g.run.output, "Score: 60 / 60   (6 of 6 datasets and 8 of 8 hidden ones passed"), "%s: %s",
                  backends[b], g.run.output);
        cr_assert_str_eq(str(test_named(&g, "dataset 3 "), "name"), "dataset 3 (rows=257 cols=300 nnz=700)");
        release(&g);
    }
}

Test(spmv, the_stub_and_a_row_run_one_past_its_end_fail, .timeout = 300)
{
    graded_t g = grade_lab_on("vgpu", "spmv", "student/spmv/spmv.cu", NULL);
    cr_assert(strstr(g.run.output, "Score: 0 / 60"), "%s", g.run.output);
    release(&g);
    g = grade_lab_on("vgpu", "spmv", "tests/submissions/spmv/row_end_inclusive.cu", NULL);
    json_object *d4 = test_named(&g, "dataset 4 ");
    cr_assert(!passed(d4));
    /* named by the lab's own diagnosis (labs/spmv/gen.c lab_explain) */
    cr_assert(strstr(str(d4, "output"), "hint: each row's sum includes the next row's first nonzero"), "%s",
              str(d4, "output"));
    cr_assert(strstr(failure_key(d4), "hypothesis:row-end-inclusive"), "%s", failure_key(d4));
    json_object *t = test_named(&g, "memory-safe");
    cr_assert(!passed(t), "%s", str(t, "output"));
    cr_assert(strstr(str(t, "output"), "past its end"), "%s", str(t, "output"));
    release(&g);
}

Test(spmv, the_jds_lab_grades_its_reference_stub_and_an_unpermuted_store, .timeout = 300)
{
    const char *extra[] = {"--lab", "spmv-jds", NULL};
    const char *backends[] = {"emu", "vgpu"};
    for (int b = 0; b < 2; b++) {
        graded_t g = grade_on(backends[b], "reference/spmv-jds/spmv_jds.cu", extra, NULL);
        cr_assert(strstr(g.run.output, "Score: 60 / 60   (6 of 6 datasets and 8 of 8 hidden ones passed"), "%s: %s",
                  backends[b], g.run.output);
        release(&g);
    }
    graded_t g = grade_on("vgpu", "student/spmv-jds/spmv_jds.cu", extra, NULL);
    cr_assert(strstr(g.run.output, "Score: 0 / 60"), "%s", g.run.output);
    release(&g);
    g = grade_on("vgpu", "tests/submissions/spmv-jds/unpermuted.cu", extra, NULL);
    /* one row is in place, but the kernels never read perm, an input it needs: failed, named */
    json_object *d0 = test_named(&g, "dataset 0 ");
    cr_assert(!passed(d0));
    cr_assert(strstr(str(d0, "output"), "perm: 1 of its 1 elements"), "%s", str(d0, "output"));
    json_object *d4 = test_named(&g, "dataset 4 ");
    cr_assert(!passed(d4));
    cr_assert(strstr(str(d4, "output"), "store it at y[perm[i]]"), "%s", str(d4, "output"));
    cr_assert_str_eq(failure_key(d4), "hypothesis:unpermuted");
    release(&g);
}
