/* test_gen.c - dataset generation and re-checking: deterministic by seed,
 * values like the course's, the product in double precision, atomic
 * folders, and `--check` catching a transposed or mis-shaped input. */
#include <criterion/criterion.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dataset/gen.h"
#include "kinds/matmul.h"
#include "util/util.h"

static char tmpdir[64];

static void make_tmpdir(void)
{
    snprintf(tmpdir, sizeof tmpdir, "/tmp/cugrade-gen-XXXXXX");
    cr_assert_not_null(mkdtemp(tmpdir));
}

static void remove_tmpdir(void) { rm_rf(tmpdir); }

static void free3(matrix_t *a, matrix_t *b, matrix_t *c)
{
    matrix_free(a);
    matrix_free(b);
    matrix_free(c);
}

Test(gen, deterministic_by_seed)
{
    matrix_t a1, b1, c1, a2, b2, c2, a3, b3, c3;
    gen_matmul(7, 5, 3, 42, VALUES_COURSE, &a1, &b1, &c1);
    gen_matmul(7, 5, 3, 42, VALUES_COURSE, &a2, &b2, &c2);
    gen_matmul(7, 5, 3, 43, VALUES_COURSE, &a3, &b3, &c3);
    cr_assert_eq(memcmp(a1.data, a2.data, 35 * sizeof(float)), 0);
    cr_assert_eq(memcmp(b1.data, b2.data, 15 * sizeof(float)), 0);
    cr_assert_eq(memcmp(c1.data, c2.data, 21 * sizeof(float)), 0);
    cr_assert_neq(memcmp(a1.data, a3.data, 35 * sizeof(float)), 0, "another seed, same data");
    free3(&a1, &b1, &c1);
    free3(&a2, &b2, &c2);
    free3(&a3, &b3, &c3);
}

Test(gen, values_have_one_decimal_in_range)
{
    matrix_t a, b, c;
    gen_matmul(30, 40, 20, 9, VALUES_SIGNED, &a, &b, &c);
    int negative = 0;
    for (int i = 0; i < 30 * 40; i++) {
        float v = a.data[i];
        cr_assert(v >= -4.0f && v <= 4.0f, "%g", v);
        cr_assert_float_eq(v * 10.0f, roundf(v * 10.0f), 1e-3, "%g has more than one decimal", v);
        negative += v < 0;
    }
    cr_assert_gt(negative, 0, "signed values without a negative one");
    free3(&a, &b, &c);
    gen_matmul(30, 40, 20, 9, VALUES_COURSE, &a, &b, &c);
    for (int i = 0; i < 30 * 40; i++)
        cr_assert(a.data[i] >= 0.0f && a.data[i] <= 4.0f, "%g", a.data[i]);
    free3(&a, &b, &c);
}

Test(gen, expected_is_the_double_product_rounded_once)
{
    matrix_t a, b, c;
    gen_matmul(9, 300, 11, 5, VALUES_SIGNED, &a, &b, &c);
    for (int i = 0; i < 9; i++)
        for (int j = 0; j < 11; j++) {
            double sum = 0;
            for (int k = 0; k < 300; k++)
                sum += (double)a.data[i * 300 + k] * b.data[k * 11 + j];
            cr_assert_eq(c.data[i * 11 + j], (float)sum);
        }
    free3(&a, &b, &c);
}

Test(gen, never_all_zeros)
{
    for (unsigned seed = 0; seed < 200; seed++) {
        matrix_t a, b, c;
        gen_matmul(1, 1, 1, seed, VALUES_COURSE, &a, &b, &c);
        cr_assert(a.data[0] != 0.0f && b.data[0] != 0.0f, "seed %u", seed);
        free3(&a, &b, &c);
    }
}

Test(gen, parse_shape)
{
    int m, k, n;
    cr_assert_eq(parse_shape("417x210x519", &m, &k, &n), 0);
    cr_assert(m == 417 && k == 210 && n == 519);
    cr_assert_eq(parse_shape("4x5", &m, &k, &n), -1);
    cr_assert_eq(parse_shape("0x5x5", &m, &k, &n), -1);
    cr_assert_eq(parse_shape("4x5x6x", &m, &k, &n), -1);
    cr_assert_eq(parse_shape("-4x5x6", &m, &k, &n), -1);
}

/* Generates a dataset into tmpdir/name; returns its ref. */
static dataset_ref_t write_dataset(const char *name, int m, int k, int n)
{
    dataset_ref_t ref;
    snprintf(ref.name, sizeof ref.name, "%s", name);
    snprintf(ref.dir, sizeof ref.dir, "%s/%s", tmpdir, name);
    matrix_t in[2], c;
    char err[512];
    gen_matmul(m, k, n, 3, VALUES_COURSE, &in[0], &in[1], &c);
    cr_assert_eq(dataset_write(ref.dir, in, 2, &c, err, sizeof err), 0, "%s", err);
    free3(&in[0], &in[1], &c);
    return ref;
}

static int check_dir(const dataset_ref_t *ref, char *err, size_t errlen)
{
    dataset_t d;
    if (dataset_load(ref, 2, &d, err, errlen) != 0)
        return -1;
    int rc = check_matmul(ref, &d, err, errlen);
    dataset_free(&d);
    return rc;
}

Test(gen, written_atomically_and_checks_clean, .init = make_tmpdir, .fini = remove_tmpdir)
{
    dataset_ref_t ref = write_dataset("0", 20, 12, 12);
    ref = write_dataset("0", 20, 12, 12); /* replacing an existing one */
    char err[1024] = "";
    cr_assert_eq(check_dir(&ref, err, sizeof err), 0, "%s", err);
    dataset_ref_t *list;
    int n;
    cr_assert_eq(dataset_list(tmpdir, &list, &n, err, sizeof err), 0, "%s", err);
    cr_assert_eq(n, 1, "temporary folders left behind");
    free(list);
}

Test(gen, check_catches_a_transposed_input, .init = make_tmpdir, .fini = remove_tmpdir)
{
    dataset_ref_t ref = write_dataset("0", 20, 12, 12); /* B is square: transposing keeps its shape */
    char path[PATH_MAX + 16], err[1024];
    snprintf(path, sizeof path, "%s/input1.raw", ref.dir);
    matrix_t b, t;
    cr_assert_eq(raw_read(path, &b, err, sizeof err), 0, "%s", err);
    t.rows = b.cols;
    t.cols = b.rows;
    t.data = malloc(sizeof(float) * 144);
    for (int i = 0; i < 12; i++)
        for (int j = 0; j < 12; j++)
            t.data[j * 12 + i] = b.data[i * 12 + j];
    cr_assert_eq(raw_write(path, &t, err, sizeof err), 0, "%s", err);
    cr_assert_eq(check_dir(&ref, err, sizeof err), -1);
    cr_assert(strstr(err, "disagree with input0.raw x input1.raw"), "%s", err);
    cr_assert(strstr(err, "transposed"), "%s", err);
    matrix_free(&b);
    matrix_free(&t);
}

Test(gen, check_catches_a_misshaped_input, .init = make_tmpdir, .fini = remove_tmpdir)
{
    dataset_ref_t ref = write_dataset("0", 20, 12, 8);
    char path[PATH_MAX + 16], err[1024];
    snprintf(path, sizeof path, "%s/input1.raw", ref.dir);
    matrix_t b;
    cr_assert_eq(raw_read(path, &b, err, sizeof err), 0, "%s", err);
    b.rows = 8; /* 12x8 read as 8x12: same values, wrong header */
    b.cols = 12;
    cr_assert_eq(raw_write(path, &b, err, sizeof err), 0, "%s", err);
    cr_assert_eq(check_dir(&ref, err, sizeof err), -1);
    char want[PATH_MAX + 64];
    snprintf(want, sizeof want, "%s/input1.raw:1: B is 8x12 but A (input0.raw) is 20x12", ref.dir);
    cr_assert(strstr(err, want), "%s", err);
    matrix_free(&b);
}
