/* test_hint_classify.c - the hint benchmark's rules (bench/hint_classify.h):
 * what a results.json names, read from its failure keys and causes, judged
 * against the bug a corpus program has. */
#include <criterion/criterion.h>
#include <string.h>

#include "hint_classify.h"

/* A results.json with one dataset test per failure key (and a check with
 * cause, when not NULL). */
static json_object *results(const char *const *failures, const char *check_cause)
{
    json_object *r = json_object_new_object(), *tests = json_object_new_array();
    for (int i = 0; failures[i]; i++) {
        json_object *t = json_object_new_object(), *extra = json_object_new_object();
        json_object_object_add(t, "name", json_object_new_string("dataset 0 (16x16x16)"));
        json_object_object_add(extra, "failure", json_object_new_string(failures[i]));
        json_object_object_add(t, "extra_data", extra);
        json_object_array_add(tests, t);
    }
    if (check_cause) {
        json_object *t = json_object_new_object(), *extra = json_object_new_object();
        json_object_object_add(t, "name", json_object_new_string("traffic-reduced"));
        json_object_object_add(extra, "cause", json_object_new_string(check_cause));
        json_object_object_add(t, "extra_data", extra);
        json_object_array_add(tests, t);
    }
    json_object_object_add(r, "tests", tests);
    return r;
}

static hint_judged_t judged(const char *const *failures, const char *cause, const char *expect,
                            hint_judgement_t *j)
{
    json_object *r = results(failures, cause);
    hint_classify(r, expect, j);
    json_object_put(r);
    return j->verdict;
}

#define KEYS(...) ((const char *const[]){__VA_ARGS__, NULL})

Test(hint_classify, the_bug_named_is_right_and_a_description_alone_generic)
{
    hint_judgement_t j;
    cr_assert_eq(judged(KEYS("hypothesis:b-transposed", "some-wrong"), NULL, "b-transposed", &j),
                 HINT_JUDGED_RIGHT);
    cr_assert_str_eq(j.named, "b-transposed");
    cr_assert_eq(judged(KEYS("some-wrong", "never-written", "timeout", "signal:11"), NULL, "race", &j),
                 HINT_JUDGED_GENERIC);
    cr_assert_str_eq(j.named, "");
    cr_assert_eq(judged(KEYS("wrong-with:race"), NULL, "race barrier-divergence", &j), HINT_JUDGED_RIGHT);
    cr_assert_eq(judged(KEYS("no-output:global-oob"), NULL, "global-oob", &j), HINT_JUDGED_RIGHT);
    cr_assert_eq(judged(KEYS("grid-too-small"), NULL, "grid-too-small", &j), HINT_JUDGED_RIGHT);
    /* "every element is 0" says what the output is, and asks what left it so */
    cr_assert_eq(judged(KEYS("hypothesis:all-zero"), NULL, "not-copied-back", &j), HINT_JUDGED_GENERIC);
    cr_assert_eq(judged(KEYS("hypothesis:all-zero@not-copied-back"), NULL, "not-copied-back", &j),
                 HINT_JUDGED_RIGHT);
}

Test(hint_classify, another_cause_named_anywhere_is_wrong)
{
    hint_judgement_t j;
    /* NaNs from reads past an array put down to a race (issue 40, item 1) */
    cr_assert_eq(judged(KEYS("no-output:global-oob", "wrong-with:race"), NULL, "global-oob", &j),
                 HINT_JUDGED_WRONG);
    cr_assert_str_eq(j.why, "named race");
    cr_assert_str_eq(j.named, "global-oob race");
    /* the likely cause beside a pattern counts: "@KIND" */
    cr_assert_eq(judged(KEYS("boundary-wrong@uninit-shared"), NULL, "global-oob", &j), HINT_JUDGED_WRONG);
    cr_assert_str_eq(j.why, "named uninit-shared");
    cr_assert_eq(judged(KEYS("some-wrong@global-oob"), NULL, "global-oob", &j), HINT_JUDGED_RIGHT);
    /* a check's cause counts too */
    cr_assert_eq(judged(KEYS("some-wrong"), "untiled", "oversized-grid", &j), HINT_JUDGED_WRONG);
    cr_assert_eq(judged(KEYS("some-wrong"), "oversized-grid", "oversized-grid", &j), HINT_JUDGED_RIGHT);
}

/* A list of mistakes that fit (issue 40, item 2) names none: generic when
 * the bug is among them, wrong when it is not */
Test(hint_classify, a_list_of_what_fits_is_generic_with_the_bug_and_wrong_without)
{
    hint_judgement_t j;
    cr_assert_eq(judged(KEYS("consistent:tile-b-transposed,inner-guard-tx"), NULL, "inner-guard-tx", &j),
                 HINT_JUDGED_GENERIC);
    cr_assert_eq(judged(KEYS("consistent:b-transposed,tile-b-transposed"), NULL, "inner-guard-tx", &j),
                 HINT_JUDGED_WRONG);
    cr_assert(strstr(j.why, "none of them the bug"), "%s", j.why);
    cr_assert_eq(judged(KEYS("consistent:b-transposed,tile-b-transposed", "hypothesis:tile-b-transposed"),
                        NULL, "tile-b-transposed", &j),
                 HINT_JUDGED_RIGHT);
}

Test(hint_classify, the_expect_line_is_read_from_the_file_header)
{
    char out[128];
    cr_assert_eq(hint_expect_of("/* x.cu - a kernel\n * bug: ...\n * expect: race barrier-divergence\n */\n",
                                out, sizeof out), 0);
    cr_assert_str_eq(out, "race barrier-divergence");
    cr_assert_eq(hint_expect_of("/* expect: grid-too-small */\n", out, sizeof out), 0);
    cr_assert_str_eq(out, "grid-too-small");
    cr_assert_eq(hint_expect_of("/* no line */", out, sizeof out), -1);
    cr_assert_eq(hint_expect_of("/* expect:   */", out, sizeof out), -1);
}
