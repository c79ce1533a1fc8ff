/* test_batch_shard.c - `cugrade batch --shard K/N`: parsing K/N, the round
 * robin assignment by sorted index (every submission in exactly one shard,
 * shard sizes within one of each other), and keeping one shard's entries of
 * a class list. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "batch/batch.h"

Test(batch_shard, parses_k_of_n)
{
    int k = -1, n = -1;
    cr_assert_eq(batch_parse_shard("0/1", &k, &n), 0);
    cr_assert(k == 0 && n == 1);
    cr_assert_eq(batch_parse_shard("2/3", &k, &n), 0);
    cr_assert(k == 2 && n == 3);
    cr_assert_eq(batch_parse_shard("255/256", &k, &n), 0);
    cr_assert(k == 255 && n == 256);
}

Test(batch_shard, refuses_what_is_not_k_of_n)
{
    const char *bad[] = {"3/3", "4/3", "-1/3", "1/0", "0/-2", "a/b", "1/3x", "1", "/3", "1/",
                         " 1/3", "1 /3", "1/ 3", "", "0/100001", "99999999999999999999/2", NULL};
    for (int i = 0; bad[i]; i++) {
        int k = 7, n = 9;
        cr_assert_eq(batch_parse_shard(bad[i], &k, &n), -1, "'%s' was taken", bad[i]);
        cr_assert(k == 7 && n == 9, "'%s' changed k/n", bad[i]);
    }
}

Test(batch_shard, round_robin_puts_everyone_in_exactly_one_shard)
{
    for (int count = 1; count <= 7; count++) {
        int size[7] = {0};
        for (int i = 0; i < 50; i++) {
            int s = batch_shard_of(i, count);
            cr_assert(s >= 0 && s < count, "index %d: shard %d of %d", i, s, count);
            size[s]++;
        }
        for (int s = 0; s < count; s++)
            cr_assert(size[s] == 50 / count || size[s] == 50 / count + 1, "shard %d of %d: %d",
                      s, count, size[s]);
    }
    cr_assert_eq(batch_shard_of(4, 3), 1);
    cr_assert_eq(batch_shard_of(5, 0), 0, "no shards: everything is shard 0");
}

/* A class list as batch_list makes it: heap strings, NULL after the end. */
static void class_list(int n, char **names, char **ids)
{
    for (int i = 0; i < n; i++) {
        char buf[32];
        snprintf(buf, sizeof buf, "s%02d.zip", i);
        names[i] = strdup(buf);
        snprintf(buf, sizeof buf, "s%02d", i);
        ids[i] = strdup(buf);
    }
    names[n] = ids[n] = NULL;
}

Test(batch_shard, keeps_the_entries_of_one_shard_in_order)
{
    char *names[11], *ids[11];
    class_list(10, names, ids);
    batch_opts_t o = {.shard_index = 1, .shard_count = 3};
    FILE *out = tmpfile();
    int n = batch_keep_shard(&o, names, ids, 10, out);
    cr_assert_eq(n, 3);
    const char *want[] = {"s01", "s04", "s07"};
    for (int i = 0; i < n; i++) {
        cr_assert_str_eq(ids[i], want[i]);
        cr_assert_eq(strncmp(names[i], want[i], 3), 0);
    }
    cr_assert_null(ids[n], "the list stays NULL-terminated");
    char said[256] = "";
    rewind(out);
    cr_assert_not_null(fgets(said, sizeof said, out));
    cr_assert_not_null(strstr(said, "shard 1 of 3 (numbered from 0): 3 of the class's 10"), "%s", said);
    fclose(out);
    for (int i = 0; i < n; i++)
        free(names[i]), free(ids[i]);
}

Test(batch_shard, no_shard_keeps_the_whole_class_and_says_nothing)
{
    char *names[5], *ids[5];
    class_list(4, names, ids);
    batch_opts_t o = {0};
    FILE *out = tmpfile();
    cr_assert_eq(batch_keep_shard(&o, names, ids, 4, out), 4);
    cr_assert_eq(ftell(out), 0);
    cr_assert_str_eq(ids[3], "s03");
    fclose(out);
    for (int i = 0; i < 4; i++)
        free(names[i]), free(ids[i]);
}
