/* test_submission_files.c - the files a student or an LMS hands over, as
 * they come (issue 38): a .cu that an editor on Windows saved with a UTF-8
 * byte-order mark is graded as the compilers take it, not blamed. */
#include <sys/stat.h>

#include "e2e.h"

/* A copy of the reference in a folder of its own, with prefix first. */
static void reference_with(const char *prefix, size_t prefix_len, char *dir, size_t dirlen,
                           char *file, size_t filelen)
{
    snprintf(dir, dirlen, "/tmp/cugrade-files-XXXXXX");
    cr_assert_not_null(mkdtemp(dir));
    snprintf(file, filelen, "%s/matmul.cu", dir);
    size_t len = 0;
    char *text = read_file("reference/lab3/matmul.cu", &len, NULL, 0);
    cr_assert_not_null(text);
    char *all = malloc(prefix_len + len);
    memcpy(all, prefix, prefix_len);
    memcpy(all + prefix_len, text, len);
    cr_assert_eq(write_file_atomic(file, all, prefix_len + len, NULL, 0), 0);
    free(all);
    free(text);
}

Test(submission_files, a_byte_order_mark_is_taken_as_the_compilers_take_it, .timeout = 300)
{
    char dir[64], file[128];
    reference_with("\xef\xbb\xbf", 3, dir, sizeof dir, file, sizeof file);
    const char *with[] = {"--checks", "none", NULL};
    graded_t g = grade_on("emu", file, with, NULL);
    cr_assert_eq(exit_code(&g), 0, "%s", g.run.output);
    cr_expect(passed(test_named(&g, "compiles")), "%s", g.run.output);
    json_object *extra = NULL;
    cr_assert(json_object_object_get_ex(g.json, "extra_data", &extra));
    cr_expect_eq(num(extra, "datasets_passed"), num(extra, "datasets_total"), "%s",
                 g.run.output);
    release(&g);
    rm_rf(dir);
}
