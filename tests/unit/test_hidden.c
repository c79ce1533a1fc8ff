/* test_hidden.c - the hidden datasets' secret and what is drawn from it:
 * the secret file made on first use (0600, in a 0700 folder) and read back,
 * where it is looked for, the seeds (the same for the same secret, new for
 * another), each lab kind's shape families (every one covered, each shape
 * of its family, small enough for the emulator) and the generated set
 * (expected outputs right, values new with a new secret). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "course/lab.h"
#include "dataset/gen.h"
#include "dataset/hidden.h"
#include "kinds/matmul.h"
#include "kinds/reduction.h"
#include "pipeline/hidden_set.h"
#include "util/util.h"

#define SEED "tests/fixtures/hidden/seed"
#define OTHER_SEED "tests/fixtures/hidden/other-seed"

static char tmp[64];

static void make_tmp(void)
{
    unsetenv(HIDDEN_SEED_ENV);
    snprintf(tmp, sizeof tmp, "/tmp/cugrade-test-hidden-XXXXXX");
    cr_assert_not_null(mkdtemp(tmp));
}

static void remove_tmp(void) { rm_rf(tmp); }

static hidden_secret_t *load(const char *root, const char *given)
{
    hidden_secret_t *s = malloc(sizeof *s);
    char err[1024] = "";
    cr_assert_eq(hidden_secret_load(root, given, s, err, sizeof err), 0, "%s", err);
    return s;
}

/* ---- the secret ---------------------------------------------------------------------- */

TestSuite(hidden_secret, .init = make_tmp, .fini = remove_tmp);

Test(hidden_secret, made_on_first_use_private_and_then_kept)
{
    hidden_secret_t *s = load(tmp, NULL);
    char path[128], dir[128];
    snprintf(path, sizeof path, "%s/.cugrade/hidden-seed", tmp);
    snprintf(dir, sizeof dir, "%s/.cugrade", tmp);
    cr_assert_str_eq(s->path, path);
    cr_assert(s->created);
    cr_assert_eq(s->len, HIDDEN_SECRET_NEW);
    struct stat st;
    cr_assert_eq(stat(path, &st), 0);
    cr_assert_eq(st.st_mode & 0777, 0600, "the secret is mode %o", st.st_mode & 0777);
    cr_assert_eq(st.st_size, 32);
    cr_assert_eq(stat(dir, &st), 0);
    cr_assert_eq(st.st_mode & 0777, 0700, "its folder is mode %o", st.st_mode & 0777);
    hidden_secret_t *again = load(tmp, NULL);
    cr_assert(!again->created, "made once");
    cr_assert_eq(memcmp(s->bytes, again->bytes, s->len), 0);
    cr_assert_str_eq(s->digest, again->digest);
    free(s);
    free(again);
}

Test(hidden_secret, two_new_secrets_differ)
{
    hidden_secret_t *a = load(tmp, NULL);
    char path[128];
    snprintf(path, sizeof path, "%s/.cugrade/hidden-seed", tmp);
    cr_assert_eq(unlink(path), 0);
    hidden_secret_t *b = load(tmp, NULL);
    cr_assert(b->created);
    cr_assert_neq(memcmp(a->bytes, b->bytes, a->len), 0, "getrandom");
    cr_assert_str_neq(a->digest, b->digest);
    free(a);
    free(b);
}

Test(hidden_secret, given_file_then_environment_then_checkout)
{
    char path[PATH_MAX];
    int is_default;
    setenv(HIDDEN_SEED_ENV, OTHER_SEED, 1);
    hidden_secret_path(tmp, SEED, path, sizeof path, &is_default);
    cr_assert_str_eq(path, SEED);
    cr_assert(!is_default);
    hidden_secret_path(tmp, NULL, path, sizeof path, &is_default);
    cr_assert_str_eq(path, OTHER_SEED);
    cr_assert(!is_default);
    unsetenv(HIDDEN_SEED_ENV);
    hidden_secret_path(tmp, NULL, path, sizeof path, &is_default);
    cr_assert(is_default);
    hidden_secret_t *s = load(tmp, SEED);
    cr_assert(!s->created);
    cr_assert_eq(s->len, 32);
    free(s);
    char dir[128];
    snprintf(dir, sizeof dir, "%s/.cugrade", tmp);
    cr_assert(!is_dir(dir), "a given secret makes no .cugrade/");
}

Test(hidden_secret, a_given_file_must_exist_and_be_long_enough)
{
    hidden_secret_t *s = malloc(sizeof *s);
    char err[1024], path[128];
    snprintf(path, sizeof path, "%s/nope", tmp);
    cr_assert_eq(hidden_secret_load(tmp, path, s, err, sizeof err), -1);
    cr_assert(strstr(err, path) && strstr(err, "No such file"), "%s", err);
    cr_assert(!is_file(path), "a given file is never made");
    snprintf(path, sizeof path, "%s/short", tmp);
    cr_assert_eq(write_file_atomic(path, "0123456789", 10, err, sizeof err), 0);
    cr_assert_eq(hidden_secret_load(tmp, path, s, err, sizeof err), -1);
    cr_assert(strstr(err, "must be 16 to 4096 bytes, not 10"), "%s", err);
    free(s);
}

/* ---- seeds ---------------------------------------------------------------------------- */

Test(hidden_seed, same_secret_same_seeds_another_secret_others)
{
    hidden_secret_t *a = load(".", SEED), *a2 = load(".", SEED), *b = load(".", OTHER_SEED);
    for (int i = 0; i < 8; i++) {
        cr_assert_eq(hidden_seed(a, "lab3", i), hidden_seed(a2, "lab3", i));
        cr_assert_neq(hidden_seed(a, "lab3", i), hidden_seed(b, "lab3", i));
        cr_assert_neq(hidden_seed(a, "lab3", i), hidden_seed(a, "lab2", i), "per lab");
        cr_assert_neq(hidden_seed(a, "lab3", i), hidden_seed(a, "lab3", i + 1), "per dataset");
    }
    cr_assert_str_neq(a->digest, b->digest);
    free(a);
    free(a2);
    free(b);
}

/* ---- the shape families ------------------------------------------------------------------- */

static int is_off_tile(int v, int t) { return v % t != 0; }

/* What family f's matmul shape must be, for tile t. */
static void check_matmul_family(int f, int m, int k, int n, int t)
{
    cr_assert(m >= 1 && k >= 1 && n >= 1 && m <= 300 && k <= 300 && n <= 300, "%dx%dx%d", m, k, n);
    switch (f) {
    case 0: cr_assert(m == 1 && k == 1 && n == 1); break;
    case 1: cr_assert(m == 1 && k > 1 && n > t && is_off_tile(n, t), "%dx%dx%d", m, k, n); break;
    case 2: cr_assert(n == 1 && k > 1 && m > t && is_off_tile(m, t), "%dx%dx%d", m, k, n); break;
    case 3: cr_assert(k == 1 && m > 1 && n > 1, "%dx%dx%d", m, k, n); break;
    case 4:
        for (int i = 0; i < 3; i++) {
            int v = i == 0 ? m : i == 1 ? k : n;
            cr_assert(v % t == 1 || v % t == t - 1, "%dx%dx%d: %d is not next to a tile multiple",
                      m, k, n, v);
        }
        break;
    case 5: cr_assert(m % 2 && k % 2 && n % 2 && m > 1 && k > 1 && n > 1, "%dx%dx%d", m, k, n); break;
    case 6:
        cr_assert(m != k && k != n && m != n, "%dx%dx%d", m, k, n);
        cr_assert(is_off_tile(m, t) && is_off_tile(k, t) && is_off_tile(n, t), "%dx%dx%d", m, k, n);
        break;
    default: cr_assert(m >= 199 && is_off_tile(m, t) && k < t && n < t, "%dx%dx%d", m, k, n);
    }
}

Test(hidden_families, matmul_every_family_its_shapes)
{
    const lab_kind_t *kind = &kind_matmul;
    cr_assert_eq(kind->hidden_families, 8);
    cr_assert_str_eq(kind->hidden_family_names[4], "tile-edge");
    int tiles[] = {16, 32, 8};
    for (int ti = 0; ti < 3; ti++)
        for (uint64_t seed = 1; seed < 200; seed++)
            for (int f = 0; f < kind->hidden_families; f++) {
                uint64_t st = seed * 7919;
                char shape[64];
                int m, k, n;
                kind->hidden_shape(NULL, f, tiles[ti], &st, shape, sizeof shape);
                cr_assert_eq(parse_shape(shape, &m, &k, &n), 0, "%s", shape);
                check_matmul_family(f, m, k, n, tiles[ti]);
            }
}

static void check_reduction_family(int f, long n, long b)
{
    cr_assert(n >= 1 && n <= (1L << 18), "n=%ld", n);
    switch (f) {
    case 0: cr_assert_eq(n, 1); break;
    case 1: cr_assert(((n + 1) & n) == 0 && n >= 3, "n=%ld is not 2^k - 1", n); break;
    case 2: cr_assert(((n - 1) & (n - 2)) == 0 && n >= 3, "n=%ld is not 2^k + 1", n); break;
    case 3: cr_assert(n > 1 && n < b, "n=%ld", n); break;
    case 4: cr_assert(n > b && n % b >= 1 && n % b <= 7, "n=%ld", n); break;
    case 5: cr_assert(n > b && n % b >= b - 7, "n=%ld", n); break;
    case 6: cr_assert(n >= 999 && n <= 50000 && n % b, "n=%ld", n); break;
    default: cr_assert(n > (1L << 16) && n % b, "n=%ld", n);
    }
}

Test(hidden_families, reduction_every_family_its_lengths)
{
    const lab_kind_t *kind = &kind_reduction;
    cr_assert_eq(kind->hidden_families, 8);
    for (uint64_t seed = 1; seed < 300; seed++)
        for (int f = 0; f < kind->hidden_families; f++) {
            uint64_t st = seed * 104729;
            char shape[64];
            kind->hidden_shape(NULL, f, 256, &st, shape, sizeof shape);
            check_reduction_family(f, atol(shape), 256);
        }
}

/* ---- the generated set --------------------------------------------------------------------- */

static lab_t *lab3(void)
{
    lab_t *lab = calloc(1, sizeof *lab);
    char err[1024];
    cr_assert_eq(lab_load(".", "lab3", lab, err, sizeof err), 0, "%s", err);
    return lab;
}

static void generate(const char *seed_file, const char *dir, int count)
{
    hidden_secret_t *s = load(".", seed_file);
    lab_t *lab = lab3();
    char err[1024];
    cr_assert_eq(mkdir_p(dir, err, sizeof err), 0, "%s", err);
    cr_assert_eq(hidden_set_generate(s, "lab3", lab, count, dir, err, sizeof err), 0, "%s", err);
    free(lab);
    free(s);
}

static char *input_of(const char *dir, int k)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%d/input0.raw", dir, k);
    char *text = read_file(path, NULL, NULL, 0);
    cr_assert_not_null(text, "%s", path);
    return text;
}

TestSuite(hidden_set, .init = make_tmp, .fini = remove_tmp);

Test(hidden_set, every_family_once_outputs_right_values_from_the_secret)
{
    char a[128], again[128], b[128];
    snprintf(a, sizeof a, "%s/a", tmp);
    snprintf(again, sizeof again, "%s/again", tmp);
    snprintf(b, sizeof b, "%s/b", tmp);
    generate(SEED, a, 10);
    generate(SEED, again, 10);
    generate(OTHER_SEED, b, 10);
    lab_t *lab = lab3();
    dataset_ref_t *refs;
    int n;
    char err[2048];
    cr_assert_eq(dataset_list(a, &refs, &n, err, sizeof err), 0, "%s", err);
    cr_assert_eq(n, 10);
    for (int i = 0; i < n; i++) {
        dataset_t d;
        cr_assert_eq(dataset_load(&refs[i], 2, &d, err, sizeof err), 0, "%s", err);
        cr_assert_eq(kind_matmul.verify(NULL, &refs[i], &d, err, sizeof err), 0, "%s", err);
        check_matmul_family(i % 8, d.inputs[0].rows, d.inputs[0].cols, d.inputs[1].cols, 16);
        dataset_free(&d);
        char *x = input_of(a, i + 1), *y = input_of(again, i + 1), *z = input_of(b, i + 1);
        cr_assert_str_eq(x, y, "the same secret, the same dataset %d", i + 1);
        if (i % 8 != 0) /* 1x1x1 has 41 or 81 values to draw from: it may draw the same */
            cr_assert_str_neq(x, z, "another secret, other values in dataset %d", i + 1);
        free(x), free(y), free(z);
    }
    free(refs);
    free(lab);
}
