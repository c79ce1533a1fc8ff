/* test_strmap.c - the grader's string map (util/strmap.h): every key put is
 * found with its value, absent keys are not, keys that differ only late or
 * in length are apart, and it grows past many keys without losing any. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "util/strmap.h"

Test(strmap, an_empty_map_finds_nothing)
{
    strmap_t m = {0};
    cr_assert_null(strmap_get(&m, "threads"));
    cr_assert_eq(strmap_count(&m), 0);
    strmap_free(&m);
}

Test(strmap, a_key_is_added_once_and_keeps_its_value)
{
    strmap_t m = {0};
    int added;
    long *v = strmap_put(&m, "threads", &added);
    cr_assert_not_null(v);
    cr_assert_eq(added, 1);
    cr_assert_eq(*v, 0);
    *v += 4096;
    v = strmap_put(&m, "threads", &added);
    cr_assert_eq(added, 0);
    cr_assert_eq(*v, 4096);
    cr_assert_eq(*strmap_get(&m, "threads"), 4096);
    cr_assert_null(strmap_get(&m, "thread"));
    cr_assert_null(strmap_get(&m, "threads "));
    cr_assert_eq(strmap_count(&m), 1);
    strmap_free(&m);
}

Test(strmap, the_empty_key_and_keys_alike_but_for_their_end_are_apart)
{
    strmap_t m = {0};
    const char *keys[] = {"", "a", "aaaaaaaa", "aaaaaaaab", "aaaaaaaa\x01", "abcdefghabcdefgh"};
    for (long i = 0; i < 6; i++)
        *strmap_put(&m, keys[i], NULL) = i + 1;
    for (long i = 0; i < 6; i++)
        cr_assert_eq(*strmap_get(&m, keys[i]), i + 1, "%s", keys[i]);
    cr_assert_eq(strmap_count(&m), 6);
    strmap_free(&m);
}

Test(strmap, a_hundred_thousand_keys_all_found_after_growing)
{
    strmap_t m = {0};
    char key[32];
    for (long i = 0; i < 100000; i++) {
        snprintf(key, sizeof key, "key_%ld", i);
        int added;
        *strmap_put(&m, key, &added) = i;
        cr_assert_eq(added, 1);
    }
    cr_assert_eq(strmap_count(&m), 100000);
    cr_assert_leq(2 * strmap_count(&m), m.cap, "at most half full");
    for (long i = 0; i < 100000; i++) {
        snprintf(key, sizeof key, "key_%ld", i);
        long *v = strmap_get(&m, key);
        cr_assert_not_null(v, "%s", key);
        cr_assert_eq(*v, i);
    }
    cr_assert_null(strmap_get(&m, "key_100000"));
    strmap_free(&m);
    cr_assert_eq(strmap_count(&m), 0);
}

Test(strmap, the_hash_depends_on_every_byte_and_the_length)
{
    cr_assert_eq(strmap_hash("abc", 3), strmap_hash("abc", 3));
    cr_assert_neq(strmap_hash("abc", 3), strmap_hash("abd", 3));
    cr_assert_neq(strmap_hash("abc", 3), strmap_hash("abc", 2));
    cr_assert_neq(strmap_hash("abcdefgh1", 9), strmap_hash("abcdefgh2", 9));
}
