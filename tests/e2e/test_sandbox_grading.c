/* test_sandbox_grading.c - whole gradings in each tier of the sandbox as
 * root (run/sandbox.h): student code runs as the grading's own uid, which
 * reads only what others may, so a submission saved 0600 in a 0700 folder
 * (a TA's umask of 077) is copied where that uid can read it and graded as
 * it is, never "does not compile"; in the second tier the course's folders
 * become the grader's alone (0700) and the grading still gets full marks;
 * a submission can replace no report file (the scratch folder is not its). */
#include <sys/stat.h>

#include "e2e.h"
#include "run/sandbox.h"

/* The reference, as a 0600 file in a 0700 folder of /tmp. */
static void private_copy_of_reference(char *dir, size_t dirlen, char *file, size_t filelen)
{
    snprintf(dir, dirlen, "/tmp/cugrade-private-XXXXXX");
    cr_assert_not_null(mkdtemp(dir));
    cr_assert_eq(chmod(dir, 0700), 0);
    snprintf(file, filelen, "%s/matmul.cu", dir);
    copy_file_to("reference/lab3/matmul.cu", file);
    cr_assert_eq(chmod(file, 0600), 0);
}

static void expect_full_marks(const graded_t *g, const char *sandbox)
{
    expect_every_dataset_passed(g);
    cr_expect(strstr(g->run.output, sandbox), "not '%s':\n%s", sandbox, g->run.output);
}

Test(sandbox_grading, a_private_submission_is_graded_in_the_first_tier, .timeout = 300)
{
    if (geteuid() != 0 || !sandbox_available())
        cr_skip_test("root with bubblewrap only (as root the sandbox's uid is another)");
    char dir[64], file[128];
    private_copy_of_reference(dir, sizeof dir, file, sizeof file);
    const char *with[] = {"--checks", "none", NULL};
    graded_t g = grade_on("emu", file, with, NULL);
    expect_full_marks(&g, "sandbox: bubblewrap");
    release(&g);
    rm_rf(dir);
}

Test(sandbox_grading, a_private_submission_is_graded_in_the_second_tier, .timeout = 300)
{
    if (geteuid() != 0)
        cr_skip_test("the second tier is root's");
    char dir[64], file[128];
    private_copy_of_reference(dir, sizeof dir, file, sizeof file);
    char *env[] = {"CUGRADE_SANDBOX=uid", NULL};
    graded_t g = grade_on("emu", file, NULL, env);
    expect_full_marks(&g, "sandbox: uid");
    release(&g);
    rm_rf(dir);
}

/* The second tier makes the course's folders of the tree the grader's
 * alone: reference/ and .cugrade/ (of a tree of the test's own, here). */
Test(sandbox_grading, the_second_tier_keeps_the_course_folders_to_the_grader, .timeout = 60)
{
    if (geteuid() != 0)
        cr_skip_test("the second tier is root's");
    char tree[64], ref[128], secret[128];
    snprintf(tree, sizeof tree, "/tmp/cugrade-tree-XXXXXX");
    cr_assert_not_null(mkdtemp(tree));
    snprintf(ref, sizeof ref, "%s/reference", tree);
    snprintf(secret, sizeof secret, "%s/.cugrade", tree);
    cr_assert_eq(mkdir(ref, 0755), 0);
    cr_assert_eq(mkdir(secret, 0755), 0);
    setenv("CUGRADE_ROOT", tree, 1);
    setenv("CUGRADE_SANDBOX", "uid", 1);
    cr_assert_eq(sandbox_tier(), SANDBOX_UID, "%s", sandbox_description());
    struct stat st;
    cr_assert_eq(stat(ref, &st), 0);
    cr_expect_eq(st.st_mode & 0777, 0700, "reference/ is %o", st.st_mode & 0777);
    cr_assert_eq(stat(secret, &st), 0);
    cr_expect_eq(st.st_mode & 0777, 0700, ".cugrade/ is %o", st.st_mode & 0777);
    rm_rf(tree);
}

/* A submission's code that replaces its own dataset's report file (the
 * file the grader reads its findings from) could forge them: the scratch
 * folder, where the reports lie, is not the sandbox uid's in either tier. */
static void expect_scratch_not_given(char *const *env, const char *sandbox)
{
    char dir[64], file[128];
    private_copy_of_reference(dir, sizeof dir, file, sizeof file);
    const char *with[] = {"--checks", "none", "--keep", NULL};
    graded_t g = grade_on("emu", file, with, env);
    expect_full_marks(&g, sandbox);
    const char *kept = strstr(g.run.output, "files kept in ");
    cr_assert_not_null(kept, "no scratch folder named:\n%s", g.run.output);
    kept += strlen("files kept in ");
    char scratch[64];
    snprintf(scratch, sizeof scratch, "%.*s", (int)strcspn(kept, " \n"), kept);
    struct stat st;
    cr_assert_eq(stat(scratch, &st), 0, "%s", scratch);
    cr_expect_eq(st.st_uid, 0, "%s is uid %u's", scratch, (unsigned)st.st_uid);
    cr_expect_eq(st.st_mode & 0022, 0, "%s is %o", scratch, st.st_mode & 0777);
    rm_rf(scratch);
    release(&g);
    rm_rf(dir);
}

Test(sandbox_grading, the_scratch_folder_stays_the_graders_in_the_first_tier, .timeout = 300)
{
    if (geteuid() != 0 || !sandbox_available())
        cr_skip_test("root with bubblewrap only");
    expect_scratch_not_given(NULL, "sandbox: bubblewrap");
}

Test(sandbox_grading, the_scratch_folder_stays_the_graders_in_the_second_tier, .timeout = 300)
{
    if (geteuid() != 0)
        cr_skip_test("the second tier is root's");
    char *env[] = {"CUGRADE_SANDBOX=uid", NULL};
    expect_scratch_not_given(env, "sandbox: uid");
}

/* A submission in /tmp itself, beside another's 0600 .cu file there: /tmp is
 * copied for the sandbox's uid and shown at its place, and the grading's
 * build folder, which lies under it, can still be mounted (it could not
 * while the copy was read-only: "the sandbox did not start"). */
Test(sandbox_grading, a_submission_in_tmp_beside_a_private_file_compiles, .timeout = 300)
{
    if (geteuid() != 0 || !sandbox_available())
        cr_skip_test("root with bubblewrap only");
    char mine[64], other[64];
    snprintf(mine, sizeof mine, "/tmp/cugrade-in-tmp-%d.cu", (int)getpid());
    snprintf(other, sizeof other, "/tmp/cugrade-private-%d.cu", (int)getpid());
    copy_file_to("reference/lab3/matmul.cu", mine);
    write_text(other, "int not_yours;\n");
    cr_assert_eq(chmod(other, 0600), 0);
    const char *with[] = {"--checks", "none", NULL};
    graded_t g = grade_on("emu", mine, with, NULL);
    expect_full_marks(&g, "sandbox: bubblewrap");
    release(&g);
    unlink(mine);
    unlink(other);
}
