/* test_sha256.c - grader/util/sha256.c (on nettle) against the FIPS 180-2
 * test vectors: "abc", the empty string, the 56-byte two-block message, and
 * one million 'a' fed in uneven pieces; and the helpers of util.c that feed
 * it (hash_str, hash_file_contents, hash_tree). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/sha256.h"
#include "util/util.h"

#define ABC_HEX "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
#define EMPTY_HEX "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
#define M448_HEX "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
#define MILLION_A_HEX "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"

static const char *const m448 = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";

Test(sha256, one_shot_test_vectors)
{
    char hex[65];
    sha256_hex("abc", 3, hex);
    cr_assert_str_eq(hex, ABC_HEX);
    sha256_hex("", 0, hex);
    cr_assert_str_eq(hex, EMPTY_HEX);
    cr_assert_eq(strlen(m448), 56);
    sha256_hex(m448, strlen(m448), hex);
    cr_assert_str_eq(hex, M448_HEX);
}

Test(sha256, the_two_block_message_in_odd_pieces)
{
    char hex[65];
    sha256_t s;
    sha256_init(&s);
    size_t n = strlen(m448);
    for (size_t i = 0; i < n; i += 5)
        sha256_update(&s, m448 + i, n - i < 5 ? n - i : 5);
    sha256_final_hex(&s, hex);
    cr_assert_str_eq(hex, M448_HEX);
}

Test(sha256, one_million_a_in_uneven_chunks)
{
    static char a[1000000];
    memset(a, 'a', sizeof a);
    static const size_t sizes[] = {1, 63, 64, 65, 127, 1000, 4093, 55, 0, 7};
    sha256_t s;
    sha256_init(&s);
    size_t off = 0;
    for (int k = 0; off < sizeof a; k++) {
        size_t n = sizes[k % 10];
        n = n < sizeof a - off ? n : sizeof a - off;
        sha256_update(&s, a + off, n);
        off += n;
    }
    char hex[65];
    sha256_final_hex(&s, hex);
    cr_assert_str_eq(hex, MILLION_A_HEX);
}

Test(sha256, a_context_starts_over_after_init)
{
    char hex[65];
    sha256_t s;
    sha256_init(&s);
    sha256_update(&s, "junk", 4);
    sha256_init(&s);
    sha256_update(&s, "abc", 3);
    sha256_final_hex(&s, hex);
    cr_assert_str_eq(hex, ABC_HEX);
}

Test(sha256, util_helpers_hash_strings_and_file_contents)
{
    char hex[65], want[65];
    sha256_t s;
    sha256_init(&s);
    hash_str(&s, "abc"); /* the string and its NUL */
    sha256_final_hex(&s, hex);
    sha256_hex("abc", 4, want);
    cr_assert_str_eq(hex, want);

    char path[] = "/tmp/cugrade-sha256-XXXXXX";
    int fd = mkstemp(path);
    cr_assert_geq(fd, 0);
    FILE *f = fdopen(fd, "w");
    fputs(m448, f);
    fclose(f);
    sha256_init(&s);
    hash_file_contents(&s, path);
    sha256_final_hex(&s, hex);
    cr_assert_str_eq(hex, M448_HEX, "a file hashes as its bytes");
    unlink(path);
    sha256_init(&s);
    hash_file_contents(&s, path); /* gone: hashed as missing, not as the old bytes */
    sha256_final_hex(&s, hex);
    cr_assert_str_neq(hex, M448_HEX);
}

static void tree_hex(const char *dir, char hex[65])
{
    sha256_t s;
    sha256_init(&s);
    hash_tree(&s, dir, "", 1);
    sha256_final_hex(&s, hex);
}

Test(sha256, hash_tree_follows_a_file_s_contents)
{
    char dir[] = "/tmp/cugrade-sha256-XXXXXX", path[80], first[65], again[65], changed[65];
    cr_assert_not_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/a.cu", dir);
    cr_assert_eq(write_file_atomic(path, "abc", 3, NULL, 0), 0);
    tree_hex(dir, first);
    tree_hex(dir, again);
    cr_assert_str_eq(first, again, "the same tree, the same digest");
    cr_assert_eq(write_file_atomic(path, "abd", 3, NULL, 0), 0);
    tree_hex(dir, changed);
    cr_assert_str_neq(first, changed, "one byte changed, the digest too");
    rm_rf(dir);
}
