/* test_scan.c - end to end, lab scan (issue 41): a work-efficient scan
 * with block sums over n = 1 to 2^24 + 1, declared by lab.json alone (the
 * array kind), its datasets from labs/scan/gen.c. The reference gets full
 * marks on the executor and the emulator (its output of 2^24 + 1 floats
 * written within the run's file-size limit, which grows with the output),
 * the stub nothing, and a scan without block sums passes one section and
 * fails the rest, named by the lab's own diagnosis in its gen.c. Runs from
 * the repository root. */
#include "e2e.h"


Test(scan, the_reference_gets_full_marks, .timeout = 600)
{
    const char *backends[] = {"vgpu", "emu"};
    for (int b = 0; b < 2; b++) {
        graded_t g = grade_lab_on(backends[b], "scan", "reference/scan/scan.cu", NULL);
        cr_assert(strstr(g.run.output, "Score: 76 / 76   (8 of 8 datasets and 8 of 8 hidden ones passed"), "%s: %s",
                  backends[b], g.run.output);
        cr_assert_str_eq(str(test_named(&g, "dataset 7 "), "name"), "dataset 7 (n=16777217)");
        release(&g);
    }
}

Test(scan, the_stub_gets_nothing_and_missing_block_sums_fail_past_one_section, .timeout = 600)
{
    graded_t g = grade_lab_on("vgpu", "scan", "student/scan/scan.cu", NULL);
    cr_assert(strstr(g.run.output, "Score: 0 / 76"), "%s", g.run.output);
    release(&g);
    g = grade_lab_on("vgpu", "scan", "tests/submissions/scan/no_block_sums.cu", NULL);
    cr_assert(passed(test_named(&g, "dataset 2 ")), "n = 2048, one section");
    json_object *d3 = test_named(&g, "dataset 3 ");
    cr_assert(!passed(d3), "n = 2049: %s", str(d3, "output"));
    cr_assert(strstr(str(d3, "output"), "1 of 2049 elements wrong"), "%s", str(d3, "output"));
    /* the lab's own diagnosis (labs/scan/gen.c lab_explain), named as its mistake */
    cr_assert(strstr(str(d3, "output"), "hint: each section of 2048 elements is scanned on its own"), "%s",
              str(d3, "output"));
    json_object *extra, *failure;
    cr_assert(json_object_object_get_ex(d3, "extra_data", &extra) && json_object_object_get_ex(extra, "failure", &failure));
    cr_assert_str_eq(json_object_get_string(failure), "hypothesis:no-block-sums");
    cr_assert(!passed(test_named(&g, "dataset 5 ")));
    release(&g);
}
