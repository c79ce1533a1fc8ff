/* test_batch_sharded.c - end to end: `cugrade batch --shard K/N` grades only
 * its shard of the class (round robin by sorted index), N shards together
 * grade everyone exactly once into one results folder, --no-class-files
 * leaves the class files alone, and a bad K/N is a usage error. */
#include "shard_class.h"

/* Which students shard k of 3 grades: index i with i % 3 == k (sorted ids). */
static void assert_shard_graded(const char *output, int k)
{
    for (int i = 0; i < CLASS_SIZE; i++) {
        char line[64];
        snprintf(line, sizeof line, "] %s  ", class_students[i][0]);
        int graded = strstr(output, line) != NULL;
        cr_assert_eq(graded, i % 3 == k, "shard %d and %s (index %d):\n%s", k, class_students[i][0],
                     i, output);
    }
}

Test(batch_sharded, three_shards_grade_everyone_once_and_leave_the_class_files_alone, .timeout = 300)
{
    klass_t c = make_klass();
    for (int k = 0; k < 3; k++) {
        char shard[16];
        snprintf(shard, sizeof shard, "%d/3", k);
        const char *extra[] = {"--shard", shard, "--no-class-files", "--resume", NULL};
        run_result_t r = klass_batch(&c, c.out, extra);
        cr_assert(r.exited && r.exit_code == 0, "shard %d:\n%s", k, r.output);
        cr_assert_not_null(strstr(r.output, "2 of the class's 6 submission(s)"), "%s", r.output);
        assert_shard_graded(r.output, k);
        cr_assert_null(strstr(r.output, "class: "), "no class summary:\n%s", r.output);
        run_result_free(&r);
        cr_assert(!exists_in(c.out, "gradebook.csv") && !exists_in(c.out, "summary.json") &&
                  !exists_in(c.out, "class.html"), "--no-class-files wrote class files");
    }
    for (int i = 0; i < CLASS_SIZE; i++) {
        char name[64];
        snprintf(name, sizeof name, "%s/inputs.sha256", class_students[i][0]);
        cr_assert(exists_in(c.out, name), "%s was not graded by any shard", class_students[i][0]);
    }
    /* a whole (unsharded) --resume batch now finds nothing to grade */
    const char *resume[] = {"--resume", NULL};
    run_result_t r = klass_batch(&c, c.out, resume);
    cr_assert(r.exited && r.exit_code == 0, "%s", r.output);
    cr_assert_not_null(strstr(r.output, "6 submission(s), 0 to grade, 0 to re-score, 6 unchanged"), "%s", r.output);
    cr_assert(exists_in(c.out, "gradebook.csv"), "without --no-class-files the gradebook is written");
    run_result_free(&r);
    rm_rf(c.dir);
}

Test(batch_sharded, a_shard_with_nobody_in_it_grades_nothing_and_exits_0, .timeout = 300)
{
    klass_t c = make_klass();
    const char *extra[] = {"--shard", "7/8", "--no-class-files", NULL};
    run_result_t r = klass_batch(&c, c.out, extra);
    cr_assert(r.exited && r.exit_code == 0, "%s", r.output);
    cr_assert_not_null(strstr(r.output, "shard 7 of 8 (numbered from 0): 0 of the class's 6"), "%s",
                       r.output);
    cr_assert_not_null(strstr(r.output, "0 submission(s), 0 to grade"), "%s", r.output);
    cr_assert(!exists_in(c.out, "alice"), "nobody of shard 7 is alice");
    run_result_free(&r);
    rm_rf(c.dir);
}

Test(batch_sharded, a_bad_shard_is_a_usage_error, .timeout = 60)
{
    klass_t c = make_klass();
    const char *bad[] = {"3/3", "-1/3", "1/0", "x/3", "1/3/4", NULL};
    for (int i = 0; bad[i]; i++) {
        const char *extra[] = {"--shard", bad[i], NULL};
        run_result_t r = klass_batch(&c, c.out, extra);
        cr_assert(r.exited && r.exit_code == 64, "--shard %s: exit %d\n%s", bad[i], r.exit_code, r.output);
        cr_assert_not_null(strstr(r.output, "bad --shard"), "%s", r.output);
        run_result_free(&r);
    }
    cr_assert(!exists_in(c.out, "."), "nothing was written");
    rm_rf(c.dir);
}
