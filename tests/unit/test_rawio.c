/* test_rawio.c - the .raw reader accepts what real course files contain,
 * rejects broken files with "path:line: message", and raw_write round-trips
 * floats bit for bit. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "dataset/rawio.h"
#include "util/util.h"

static matrix_t parse_ok(const char *text)
{
    matrix_t m;
    char err[512] = "";
    int rc = raw_parse("t.raw", text, strlen(text), &m, err, sizeof err);
    cr_assert_eq(rc, 0, "rejected %s: %s", text, err);
    return m;
}

static void expect_error(const char *text, const char *message)
{
    matrix_t m;
    char err[512] = "";
    int rc = raw_parse("t.raw", text, strlen(text), &m, err, sizeof err);
    cr_assert_eq(rc, -1, "accepted \"%s\"", text);
    cr_assert_str_eq(err, message);
    cr_assert_null(m.data);
}

static void expect_values(const matrix_t *m, int rows, int cols, const float *want)
{
    cr_assert_eq(m->rows, rows);
    cr_assert_eq(m->cols, cols);
    for (int i = 0; i < rows * cols; i++)
        cr_assert_eq(m->data[i], want[i], "element %d: %g != %g", i, m->data[i], want[i]);
}

/* ---- accepted quirks --------------------------------------------------------------- */

Test(rawio_accept, number_spellings)
{
    matrix_t m = parse_ok("2 4\n4. -0.20 1e-3 +2\n.5 1E3 -7 0003\n");
    float want[] = {4.0f, -0.20f, 1e-3f, 2.0f, 0.5f, 1000.0f, -7.0f, 3.0f};
    expect_values(&m, 2, 4, want);
    matrix_free(&m);
}

Test(rawio_accept, negative_zero_keeps_its_sign)
{
    matrix_t m = parse_ok("1 2\n-0 -0.0\n");
    cr_assert(signbit(m.data[0]) && signbit(m.data[1]));
    matrix_free(&m);
}

Test(rawio_accept, crlf_trailing_blanks_and_blank_lines)
{
    matrix_t m = parse_ok("\r\n\n2 2 \t\r\n\r\n1 2\t \r\n\n3 4   \r\n\r\n");
    float want[] = {1, 2, 3, 4};
    expect_values(&m, 2, 2, want);
    matrix_free(&m);
}

Test(rawio_accept, values_wrapped_any_way)
{
    float want[] = {1, 2, 3, 4, 5, 6};
    const char *layouts[] = {"2 3\n1 2 3 4 5 6\n", "2 3\n1 2 3\n4 5 6\n", "2 3\n1\n2\n3\n4\n5\n6\n",
                             "2 3\n1 2\n3 4 5\n\n6", "2 3\n1 2 3 4\n5 6"};
    for (size_t i = 0; i < sizeof layouts / sizeof *layouts; i++) {
        matrix_t m = parse_ok(layouts[i]);
        expect_values(&m, 2, 3, want);
        matrix_free(&m);
    }
}

Test(rawio_accept, no_final_newline_and_byte_order_mark)
{
    matrix_t m = parse_ok("\xEF\xBB\xBF"
                          "1 2\n7 8");
    float want[] = {7, 8};
    expect_values(&m, 1, 2, want);
    matrix_free(&m);
}

Test(rawio_accept, tiny_values_underflow_to_zero_or_subnormal)
{
    matrix_t m = parse_ok("1 2\n1e-50 1.4e-45\n");
    cr_assert_eq(m.data[0], 0.0f);
    cr_assert_eq(m.data[1], FLT_TRUE_MIN);
    matrix_free(&m);
}

Test(rawio_accept, correctly_rounded_like_strtof)
{
    const char *tokens[] = {"0.1",
                            "314.99",
                            "16777217",
                            "3.4028235e38",
                            "1.17549435e-38",
                            "123456.789",
                            "0.30000001192092896",
                            "2.5000001",
                            "9999999.5",
                            "1.00000005960464477539062500001"};
    for (size_t i = 0; i < sizeof tokens / sizeof *tokens; i++) {
        char text[128];
        snprintf(text, sizeof text, "1 1\n%s\n", tokens[i]);
        matrix_t m = parse_ok(text);
        float want = strtof(tokens[i], NULL);
        cr_assert(memcmp(&m.data[0], &want, sizeof want) == 0, "%s: %a != %a", tokens[i], m.data[0],
                  want);
        matrix_free(&m);
    }
}

Test(rawio_accept, fixture_files)
{
    char err[512] = "";
    matrix_t m;
    cr_assert_eq(raw_read("tests/fixtures/raw/crlf.raw", &m, err, sizeof err), 0, "%s", err);
    float crlf[] = {1, 2.5f, -3, 4, 5, 1e-3f};
    expect_values(&m, 2, 3, crlf);
    matrix_free(&m);

    cr_assert_eq(raw_read("tests/fixtures/raw/wrapped.raw", &m, err, sizeof err), 0, "%s", err);
    float wrapped[] = {1, 2, 3, 4, 5, 6};
    expect_values(&m, 3, 2, wrapped);
    matrix_free(&m);

    cr_assert_eq(raw_read("tests/fixtures/raw/one_line.raw", &m, err, sizeof err), 0, "%s", err);
    expect_values(&m, 3, 2, wrapped);
    matrix_free(&m);
}

Test(rawio_accept, crlf_fixture_really_has_carriage_returns)
{
    char *text = read_file("tests/fixtures/raw/crlf.raw", NULL, NULL, 0);
    cr_assert_not_null(text);
    cr_assert_not_null(strstr(text, "\r\n"), "crlf.raw lost its CRs (git autocrlf?)");
    free(text);
}

/* ---- rejections ------------------------------------------------------------------------ */

Test(rawio_reject, empty_file_or_only_blank_lines)
{
    expect_error("", "t.raw:1: empty file (expected a header \"rows cols\", or \"n\" for a vector)");
    expect_error("\n \r\n\t\n",
                 "t.raw:1: empty file (expected a header \"rows cols\", or \"n\" for a vector)");
}

Test(rawio_reject, header_with_wrong_token_count)
{
    expect_error("64\n1 2\n", "t.raw:2: expected 64 values, found 2"); /* a vector of 64 */
    expect_error("\n\n64 64 64\n", "t.raw:3: header must be \"rows cols\" (or \"n\" for a "
                                   "vector), found more than two tokens");
}

Test(rawio_reject, header_not_non_negative_integers)
{
    expect_error("64 x\n", "t.raw:1: header: cols must be a non-negative integer, found 'x'");
    expect_error("-3 4\n", "t.raw:1: header: rows must be a non-negative integer, found '-3'");
    expect_error("3.5 4\n", "t.raw:1: header: rows must be a non-negative integer, found '3.5'");
    expect_error("2 +4\n", "t.raw:1: header: cols must be a non-negative integer, found '+4'");
}

Test(rawio_reject, absurd_sizes)
{
    expect_error("2000000 1\n", "t.raw:1: absurd size 2000000x1 (each dimension at most 1048576)");
    expect_error("99999999999999999999999 1\n", "t.raw:1: absurd size "
                                                "99999999999999999999999x1 (each dimension at "
                                                "most 1048576)");
    expect_error("1048576 1048576\n",
                 "t.raw:1: absurd size 1048576x1048576 (at most 268435456 elements)");
}

Test(rawio_reject, empty_matrix)
{
    expect_error("0 5\n", "t.raw:1: empty matrix (0x5)");
    expect_error("4 0\n", "t.raw:1: empty matrix (4x0)");
}

Test(rawio_reject, tokens_that_are_not_finite_decimals)
{
    const char *bad[] = {"abc", "1.2.3", "nan", "inf", "-inf", "0x10", "1e",
                         "1e+", "-",     ".",   "--1", "1,5",  "NaN",  "e5"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        char text[64], want[128];
        snprintf(text, sizeof text, "2 2\n1 2\n3 %s\n", bad[i]);
        snprintf(want, sizeof want, "t.raw:3: '%s' is not a finite decimal number", bad[i]);
        expect_error(text, want);
    }
}

Test(rawio_reject, value_beyond_float_range)
{
    expect_error("1 2\n1\n-1e39\n", "t.raw:3: '-1e39' is out of the float range");
}

Test(rawio_reject, too_few_values_reports_last_line)
{
    expect_error("2 2\n1 2\n3\n", "t.raw:3: expected 4 values, found 3");
    expect_error("2 2\n", "t.raw:1: expected 4 values, found 0");
    expect_error("64 64\n1 2 3\n\n\n", "t.raw:2: expected 4096 values, found 3");
}

Test(rawio_reject, too_many_values_reports_the_first_extra)
{
    expect_error("2 2\n1 2\n3 4\n\n5\n", "t.raw:5: more than 4 values");
}

Test(rawio_reject, fixture_files_name_path_and_line)
{
    char err[512] = "";
    matrix_t m;
    cr_assert_eq(raw_read("tests/fixtures/raw/bad_token.raw", &m, err, sizeof err), -1);
    cr_assert_str_eq(err,
                     "tests/fixtures/raw/bad_token.raw:3: 'abc' is not a finite decimal number");
    cr_assert_eq(raw_read("tests/fixtures/raw/too_few.raw", &m, err, sizeof err), -1);
    cr_assert_str_eq(err, "tests/fixtures/raw/too_few.raw:3: expected 4 values, found 3");
    cr_assert_eq(raw_read("tests/fixtures/raw/missing.raw", &m, err, sizeof err), -1);
    cr_assert_str_eq(err, "tests/fixtures/raw/missing.raw: cannot open: No such file or directory");
}

/* ---- writing --------------------------------------------------------------------------- */

static char tmpdir[64];

static void make_tmpdir(void)
{
    snprintf(tmpdir, sizeof tmpdir, "/tmp/test_rawio.XXXXXX");
    cr_assert_not_null(mkdtemp(tmpdir));
}

static void remove_tmpdir(void) { rm_rf(tmpdir); }

static int count_entries(const char *dir)
{
    DIR *d = opendir(dir);
    int n = 0;
    for (struct dirent *e; (e = readdir(d));)
        n += e->d_name[0] != '.';
    closedir(d);
    return n;
}

Test(rawio_write, round_trip_is_bit_exact, .init = make_tmpdir, .fini = remove_tmpdir)
{
    float values[] = {1e-30f,       -0.0f, 123456.789f, FLT_MAX,     -FLT_MAX, FLT_MIN,
                      FLT_TRUE_MIN, 0.1f,  1.0f / 3.0f, 16777217.0f, 2.5e-12f, 0.0f};
    matrix_t m = {3, 4, values};
    char path[128], err[512] = "";
    snprintf(path, sizeof path, "%s/m.raw", tmpdir);
    cr_assert_eq(raw_write(path, &m, err, sizeof err), 0, "%s", err);
    matrix_t back;
    cr_assert_eq(raw_read(path, &back, err, sizeof err), 0, "%s", err);
    cr_assert_eq(back.rows, 3);
    cr_assert_eq(back.cols, 4);
    for (int i = 0; i < 12; i++)
        cr_assert(memcmp(&back.data[i], &values[i], sizeof(float)) == 0, "element %d: %a != %a", i,
                  back.data[i], values[i]);
    matrix_free(&back);
    cr_assert_eq(count_entries(tmpdir), 1, "a temporary file was left behind");
}

Test(rawio_write, one_row_per_line, .init = make_tmpdir, .fini = remove_tmpdir)
{
    float values[] = {1, 2.5f, -0.0f, 4, 1e-3f, 6};
    matrix_t m = {2, 3, values};
    char path[128], err[512] = "";
    snprintf(path, sizeof path, "%s/m.raw", tmpdir);
    cr_assert_eq(raw_write(path, &m, err, sizeof err), 0, "%s", err);
    char *text = read_file(path, NULL, err, sizeof err);
    cr_assert_str_eq(text, "2 3\n1 2.5 -0\n4 0.001 6\n"); /* shortest text that round-trips */
    free(text);
}

Test(rawio_write, refuses_what_the_reader_rejects, .init = make_tmpdir, .fini = remove_tmpdir)
{
    float values[] = {1, NAN};
    matrix_t m = {1, 2, values};
    char path[128], err[512] = "";
    snprintf(path, sizeof path, "%s/m.raw", tmpdir);
    cr_assert_eq(raw_write(path, &m, err, sizeof err), -1);
    cr_assert(strstr(err, "row 0, column 1 is not finite") != NULL, "%s", err);
    matrix_t empty = {0, 3, values};
    cr_assert_eq(raw_write(path, &empty, err, sizeof err), -1);
    cr_assert(strstr(err, "refusing to write an empty matrix (0x3)") != NULL, "%s", err);
    cr_assert_eq(count_entries(tmpdir), 0);
}

Test(rawio_speed, large_file_parses_in_milliseconds)
{
    enum { ROWS = 417, COLS = 519 };
    strbuf_t sb = {0};
    sb_appendf(&sb, "%d %d\n", ROWS, COLS);
    unsigned seed = 1;
    for (int i = 0; i < ROWS; i++)
        for (int j = 0; j < COLS; j++) {
            seed = seed * 1103515245u + 12345u;
            sb_appendf(&sb, "%.9g%s", (double)(seed % 100000) / 97.0, j + 1 < COLS ? " " : "\n");
        }
    matrix_t m;
    char err[512] = "";
    double t0 = now_seconds();
    cr_assert_eq(raw_parse("big.raw", sb_str(&sb), sb.len, &m, err, sizeof err), 0, "%s", err);
    double ms = (now_seconds() - t0) * 1e3;
    /* about 10 ms on a laptop; the bound only catches a slow algorithm */
    cr_assert_lt(ms, 250.0, "parsing 417x519 took %.1f ms", ms);
    matrix_free(&m);
    sb_free(&sb);
}

/* ---- a program's answer (wbSolution's -o file) ------------------------------- */

static matrix_t solution_from(const char *text)
{
    char path[] = "/tmp/cugrade-solution-XXXXXX";
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    cr_assert_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    matrix_t m;
    char err[256] = "";
    cr_assert_eq(raw_read_solution(path, &m, err, sizeof err), 0, "%s", err);
    unlink(path);
    return m;
}

static uint32_t bits_of(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

/* wb.h writes the never-written poison (all bits set) as -nan(0x7fffff): it
 * must come back bit for bit, and a computed NaN or infinity must be read. */
Test(rawio_solution, keeps_the_poison_and_non_finite_values)
{
    matrix_t m = solution_from("2 2\n1.5 -nan(0x7fffff)\nnan inf\n");
    cr_assert_eq(m.rows, 2);
    cr_assert_eq(m.data[0], 1.5f);
    cr_assert_eq(bits_of(m.data[1]), 0xFFFFFFFFu, "got %08x", bits_of(m.data[1]));
    cr_assert(isnan(m.data[2]) && bits_of(m.data[2]) != 0xFFFFFFFFu);
    cr_assert(isinf(m.data[3]) && m.data[3] > 0);
    matrix_free(&m);
}

Test(rawio_solution, an_empty_answer_is_read_as_0x0)
{
    matrix_t m = solution_from("0 0\n");
    cr_assert_eq(m.rows, 0);
    cr_assert_eq(m.cols, 0);
    matrix_free(&m);
}

/* Found by fuzz_raw (docs/fuzzing.md): an empty answer with a huge other
 * dimension skipped the size check and its int cast wrapped. */
Test(rawio_solution, an_empty_answer_still_has_sizes_within_limits)
{
    static const char *const texts[] = {"0 888888888888\n", "0 2097152\n", "4294967296 0\n"};
    for (int i = 0; i < 3; i++) {
        char path[] = "/tmp/cugrade-solution-XXXXXX";
        int fd = mkstemp(path);
        cr_assert(fd >= 0);
        cr_assert_eq(write(fd, texts[i], strlen(texts[i])), (ssize_t)strlen(texts[i]));
        close(fd);
        matrix_t m;
        char err[256] = "";
        cr_assert_eq(raw_read_solution(path, &m, err, sizeof err), -1, "%s was read as %dx%d",
                     texts[i], m.rows, m.cols);
        cr_assert(strstr(err, ":1: absurd size"), "%s", err);
        unlink(path);
    }
    matrix_t m = solution_from("0 1048576\n");
    cr_assert_eq(m.rows, 0);
    cr_assert_eq(m.cols, 1048576);
    matrix_free(&m);
}

Test(rawio_solution, datasets_still_refuse_nan_and_garbage_stays_an_error)
{
    expect_error("1 1\nnan\n", "t.raw:2: 'nan' is not a finite decimal number");
    char path[] = "/tmp/cugrade-solution-XXXXXX";
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    cr_assert_eq(write(fd, "1 2\n1 nanny\n", 12), 12);
    close(fd);
    matrix_t m;
    char err[256] = "";
    cr_assert_eq(raw_read_solution(path, &m, err, sizeof err), -1);
    cr_assert(strstr(err, ":2: 'nanny' is not a finite decimal number"), "%s", err);
    unlink(path);
}

/* ---- vectors (libwb's header of one number) ------------------------------------------- */

Test(rawio_vector, read_as_n_rows_of_one_column)
{
    matrix_t m = parse_ok("3\n1.5\n-2 4.\n");
    const float want[] = {1.5f, -2.0f, 4.0f};
    expect_values(&m, 3, 1, want);
    cr_assert_eq(m.vector, 1);
    matrix_free(&m);
    matrix_t mat = parse_ok("3 1\n1 2 3\n");
    cr_assert_eq(mat.vector, 0, "a 3x1 matrix is not a vector file");
    matrix_free(&mat);
}

Test(rawio_vector, rejects_empty_short_and_long)
{
    expect_error("0\n", "t.raw:1: empty vector (length 0)");
    expect_error("3\n1 2\n", "t.raw:2: expected 3 values, found 2");
    expect_error("2\n1 2 3\n", "t.raw:2: more than 2 values");
    expect_error("300000000\n1\n", "t.raw:1: absurd vector length 300000000 (at most 268435456 elements)");
}

Test(rawio_vector, writes_a_vector_header_and_reads_back)
{
    char path[] = "/tmp/cugrade-vec-XXXXXX";
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    close(fd);
    float data[] = {0.5f, -3.25f, 7.0f, 1e-3f};
    matrix_t v = {.rows = 4, .cols = 1, .data = data, .vector = 1}, back;
    char err[256];
    cr_assert_eq(raw_write(path, &v, err, sizeof err), 0, "%s", err);
    char *text = read_file(path, NULL, err, sizeof err);
    cr_assert_str_eq(text, "4\n0.5\n-3.25\n7\n0.001\n");
    free(text);
    cr_assert_eq(raw_read(path, &back, err, sizeof err), 0, "%s", err);
    expect_values(&back, 4, 1, data);
    cr_assert_eq(back.vector, 1);
    matrix_free(&back);
    unlink(path);
}

/* A program's answer keeps what raw_write refuses: NaN with its payload
 * (the poison, never written) and infinities, read back bit for bit by
 * raw_read_solution (a GPU replay's output of a kernel that left C
 * unwritten must be judged, not crash the runner: issue 39). */
Test(rawio, a_solution_keeps_the_poison_and_infinities)
{
    char path[] = "/tmp/cugrade-rawio-XXXXXX";
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    close(fd);
    uint32_t poison = 0xFFFFFFFFu, quiet = 0x7fc00000u;
    float data[4] = {1.5f, INFINITY, 0, 0};
    memcpy(&data[2], &poison, 4);
    memcpy(&data[3], &quiet, 4);
    matrix_t m = {2, 2, data, 0}, back;
    char err[512] = "";
    cr_assert_eq(raw_write(path, &m, err, sizeof err), -1, "raw_write holds finite numbers only");
    cr_assert_eq(raw_write_solution(path, &m, err, sizeof err), 0, "%s", err);
    cr_assert_eq(raw_read_solution(path, &back, err, sizeof err), 0, "%s", err);
    cr_assert_eq(memcmp(back.data, data, sizeof data), 0, "bit for bit");
    matrix_free(&back);
    unlink(path);
}
