/* test_wb.cpp - labs/common/wb.h (libwb's API for course programs) on the
 * CPU emulator: wbArg_read in any order and its usage errors, wbImport of
 * the hand-written fixtures in tests/fixtures/libwb (values, shapes, "4.",
 * the one-number vector header, CRLF and tabs, 1 x N staying 1 x N), the
 * file:line of a malformed file, wbSolution's output file read back bit for
 * bit (NaN poison and infinities included) and its verdicts (timers, the
 * poisoned cudaMalloc and wbLog: test_wb_run.cpp). Run from the repository root (make test), where the fixtures are.
 *
 * Whatever exits or prints runs in a forked child with stdout and stderr
 * sent to files (run_child). */
#include "wb_test_helpers.h"

/* ---- wbArg_read ---------------------------------------------------------------- */

Test(wb_args, flags_in_any_order)
{
    const std::vector<std::vector<std::string>> orders = {
        {"prog", "-e", "exp.raw", "-i", "a.raw,b.raw", "-o", "out.raw", "-t", "matrix"},
        {"prog", "-t", "matrix", "-o", "out.raw", "-i", "a.raw,b.raw", "-e", "exp.raw"},
        {"prog", "-i", "a.raw,b.raw", "-t", "matrix", "-e", "exp.raw", "-o", "out.raw"},
    };
    for (const auto &words : orders) {
        wbArg_t args = read_args(words);
        cr_assert_eq(wbArg_getInputCount(args), 2);
        cr_assert_str_eq(wbArg_getInputFile(args, 0), "a.raw");
        cr_assert_str_eq(wbArg_getInputFile(args, 1), "b.raw");
        cr_assert_null(wbArg_getInputFile(args, 2));
        cr_assert_null(wbArg_getInputFile(args, -1));
        cr_assert_str_eq(wbArg_getOutputFile(args), "out.raw");
        cr_assert_str_eq(wbArg_getExpectedOutputFile(args), "exp.raw");
        cr_assert_str_eq(wbArg_getType(args), "matrix");
        wbArg_delete(args);
    }
}

Test(wb_args, optional_flags_and_libwb_input_lists)
{
    wbArg_t args = read_args({"prog", "-i", "x.raw"});
    cr_assert_eq(wbArg_getInputCount(args), 1);
    cr_assert_str_eq(wbArg_getInputFile(args, 0), "x.raw");
    cr_assert_null(wbArg_getOutputFile(args));
    cr_assert_null(wbArg_getExpectedOutputFile(args));
    cr_assert_null(wbArg_getType(args));
    wbArg_delete(args);

    args = read_args({"prog", "-i", "a,,b,", "-s", "session", "-i", "c,d,e"});
    cr_assert_eq(wbArg_getInputCount(args), 3, "a second -i replaces the first; empty names are skipped");
    cr_assert_str_eq(wbArg_getInputFile(args, 2), "e");
    wbArg_delete(args);

    args = read_args({"prog"});
    cr_assert_eq(wbArg_getInputCount(args), 0);
    cr_assert_null(wbArg_getInputFile(args, 0));
}

Test(wb_args, usage_errors_exit_2_with_a_message)
{
    child_result r = run_child([] { read_args({"prog", "-i", "a.raw", "-x", "1"}); });
    cr_assert_eq(r.status, 2);
    cr_assert(contains(r.err, "wbArg_read: unknown option '-x'"), "%s", r.err.c_str());
    cr_assert(contains(r.err, "usage: prog -i INPUT0"), "%s", r.err.c_str());

    r = run_child([] { read_args({"prog", "-i", "a.raw", "-o"}); });
    cr_assert_eq(r.status, 2);
    cr_assert(contains(r.err, "option -o needs a value"), "%s", r.err.c_str());

    r = run_child([] { read_args({"prog", "stray", "-i", "a.raw"}); });
    cr_assert_eq(r.status, 2);
    cr_assert(contains(r.err, "unexpected argument 'stray'"), "%s", r.err.c_str());

    r = run_child([] { read_args({"prog", "-input", "a.raw"}); });
    cr_assert_eq(r.status, 2, "only the exact flags, not libwb's prefix match");
}

/* ---- wbImport ------------------------------------------------------------------- */

static void assert_values(const float *got, const std::vector<float> &want, const char *what)
{
    for (size_t i = 0; i < want.size(); i++)
        cr_assert_eq(bits_of(got[i]), bits_of(want[i]), "%s[%zu]: %.9g, expected %.9g", what, i, (double)got[i],
                     (double)want[i]);
}

Test(wb_import, matrices_with_course_number_forms)
{
    int rows = -1, cols = -1;
    float *a = (float *)wbImport(FIX "a33.raw", &rows, &cols);
    cr_assert_eq(rows, 3);
    cr_assert_eq(cols, 3);
    assert_values(a, {1.f, 2.f, 0.5f, -1.f, 0.f, 4.f, 2.5f, -0.5f, 2.f}, "a33");
    free(a);

    float *b = wbImport(FIX "b34.raw", &rows, &cols);
    cr_assert_eq(rows, 3);
    cr_assert_eq(cols, 4);
    assert_values(b, {4.f, 0.25f, -2.f, 1.f, 0.f, 1.f, 3.f, -0.5f, 2.f, -1.f, 0.5f, 8.f}, "b34");
    free(b);

    float *c = wbImport(FIX "c34.raw", &rows, &cols);
    cr_assert_eq(rows, 3);
    cr_assert_eq(cols, 4);
    assert_values(c, {5.f, 1.75f, 4.25f, 4.f, 4.f, -4.25f, 4.f, 31.f, 14.f, -1.875f, -5.5f, 18.75f}, "c34");
    free(c);
}

Test(wb_import, crlf_tabs_blank_lines_and_wrapping)
{
    int rows = -1, cols = -1;
    float *m = wbImport(FIX "crlf_tabs.raw", &rows, &cols);
    cr_assert_eq(rows, 2);
    cr_assert_eq(cols, 3);
    assert_values(m, {1.5f, -2.f, 30.f, 0.25f, -0.f, 7.f}, "crlf_tabs");
    cr_assert(std::signbit(m[4]), "-0 keeps its sign");
    free(m);
}

Test(wb_import, vector_with_a_one_number_header)
{
    int n = -1;
    float *v = wbImport(FIX "vector.raw", &n);
    cr_assert_eq(n, 5);
    assert_values(v, {1.f, -0.5f, strtof("1e-3", nullptr), 2.25f, 4.f}, "vector");
    free(v);

    int rows = -1, cols = -1; /* the matrix form reads it as n x 1, as libwb does */
    v = wbImport(FIX "vector.raw", &rows, &cols);
    cr_assert_eq(rows, 5);
    cr_assert_eq(cols, 1);
    free(v);

    v = wbImport(FIX "b34.raw", &n); /* a matrix read as a vector: all of it */
    cr_assert_eq(n, 12);
    free(v);
}

Test(wb_import, one_row_matrix_stays_one_row)
{
    std::string path = scratch_path("1xn");
    FILE *f = fopen(path.c_str(), "w");
    fputs("1 3\n1 2 3\n", f);
    fclose(f);
    int rows = -1, cols = -1;
    float *m = wbImport(path.c_str(), &rows, &cols);
    cr_assert_eq(rows, 1, "libwb would say 3 x 1");
    cr_assert_eq(cols, 3);
    free(m);
    unlink(path.c_str());
}

static child_result import_in_child(const char *path)
{
    return run_child([path] {
        int rows, cols;
        wbImport(path, &rows, &cols);
    });
}

Test(wb_import, malformed_files_name_the_file_and_line)
{
    child_result r = import_in_child(FIX "malformed.raw");
    cr_assert_eq(r.status, 2);
    cr_assert(contains(r.err, "wbImport: " FIX "malformed.raw:3: '5x' is not a number"), "%s", r.err.c_str());

    r = import_in_child(FIX "too_few.raw");
    cr_assert_eq(r.status, 2);
    cr_assert(contains(r.err, FIX "too_few.raw:3: expected 6 values"), "%s", r.err.c_str());
    cr_assert(contains(r.err, "found only 5"), "%s", r.err.c_str());

    r = import_in_child(FIX "too_many.raw");
    cr_assert_eq(r.status, 2);
    cr_assert(contains(r.err, FIX "too_many.raw:4: more than the 4 values"), "%s", r.err.c_str());

    r = import_in_child(FIX "bad_header.raw");
    cr_assert_eq(r.status, 2);
    cr_assert(contains(r.err, FIX "bad_header.raw:1: header: 'x' is not a non-negative integer"), "%s",
              r.err.c_str());

    r = import_in_child(FIX "no_such_file.raw");
    cr_assert_eq(r.status, 2);
    cr_assert(contains(r.err, FIX "no_such_file.raw: cannot open: No such file or directory"), "%s", r.err.c_str());

    r = import_in_child(nullptr);
    cr_assert_eq(r.status, 2);
    cr_assert(contains(r.err, "wbImport: no file name"), "%s", r.err.c_str());
}

/* ---- wbSolution ------------------------------------------------------------------ */

static wbArg_t solution_args(const std::string &out, const char *expected)
{
    std::vector<std::string> words = {"prog", "-i", "unused.raw", "-t", "matrix"};
    if (!out.empty())
        words.insert(words.end(), {"-o", out});
    if (expected)
        words.insert(words.end(), {"-e", expected});
    return read_args(words);
}

Test(wb_solution, output_file_reads_back_bit_for_bit)
{
    const int rows = 9, cols = 13;
    std::vector<float> data(rows * cols);
    uint32_t x = 12345;
    for (float &v : data) {
        do { /* xorshift over all bit patterns, finite ones */
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            v = float_of(x);
        } while (!std::isfinite(v));
    }
    const uint32_t specials[] = {0xFFFFFFFFu, 0x7F800000u, 0xFF800000u, 0x80000000u, 0x00000001u,
                                 0x007FFFFFu, 0x7F7FFFFFu, 0x00800000u, 0x7FC00000u, 0xFFC00000u};
    for (size_t i = 0; i < sizeof specials / sizeof specials[0]; i++)
        data[i * 7] = float_of(specials[i]);
    data[100] = 0.1f;
    data[101] = 4.0f;

    std::string out = scratch_path("sol");
    wbArg_t args = solution_args(out, nullptr);
    child_result r = run_child([&] { wbSolution(args, data.data(), rows, cols); });
    cr_assert_eq(r.status, 0, "%s", r.err.c_str());
    cr_assert(contains(r.out, "No expected output (-e) was given"), "%s", r.out.c_str());

    std::string text = slurp(out);
    cr_assert(text.rfind("9 13\n", 0) == 0, "header: %.20s", text.c_str());
    cr_assert(contains(text, "-nan(0x7fffff)"), "the poison is written with its payload");
    cr_assert(contains(text, " 0.100000001 4 "), "%%.9g values");
    int n_lines = 0;
    for (char c : text)
        n_lines += c == '\n';
    cr_assert_eq(n_lines, rows + 1, "one row per line");

    int got_rows = 0, got_cols = 0;
    float *back = wbImport(out.c_str(), &got_rows, &got_cols);
    cr_assert_eq(got_rows, rows);
    cr_assert_eq(got_cols, cols);
    for (int i = 0; i < rows * cols; i++)
        cr_assert_eq(bits_of(back[i]), bits_of(data[i]), "element %d: %08x written, %08x read back", i,
                     bits_of(data[i]), bits_of(back[i]));
    free(back);
    unlink(out.c_str());
}

Test(wb_solution, vector_form)
{
    const float v[4] = {1.5f, -2.f, 1e-3f, 3.f};
    std::string out = scratch_path("vec");
    wbArg_t args = solution_args(out, FIX "vector.raw");
    child_result r = run_child([&] { wbSolution(args, v, 4); });
    cr_assert_eq(slurp(out), "4\n1.5\n-2\n0.00100000005\n3\n");
    cr_assert(contains(r.out, "Solution is NOT correct: the solution is 4 values but the expected output is 5 values"),
              "%s", r.out.c_str());

    const float w[5] = {1.f, -0.5f, 0.f, 2.3f, 4.1f}; /* 0.001 vs 0 and 0.05, 0.1 away: libwb's 0.2 */
    r = run_child([&] { wbSolution(args, w, 5); });
    cr_assert(contains(r.out, "Solution is correct."), "%s", r.out.c_str());
    unlink(out.c_str());
}

Test(wb_solution, verdicts)
{
    float c[12] = {5.f, 1.75f, 4.25f, 4.f, 4.f, -4.25f, 4.f, 31.f, 14.f, -1.875f, -5.5f, 18.75f};
    std::string out = scratch_path("verdict");
    wbArg_t args = solution_args(out, FIX "c34.raw");

    child_result r = run_child([&] { exit(wbSolution(args, c, 3, 4) ? 0 : 1); });
    cr_assert_eq(r.status, 0);
    cr_assert_eq(r.out, "Solution is correct.\n");

    c[1] += 0.19f; /* within libwb's 0.2 */
    c[6] = 4.5f;
    r = run_child([&] { exit(wbSolution(args, c, 3, 4) ? 0 : 1); });
    cr_assert_eq(r.status, 1);
    cr_assert(contains(r.out, "at row 1, column 2: expected 4 but got 4.5."), "%s", r.out.c_str());

    c[6] = 4.f;
    c[11] = float_of(0xFFFFFFFFu);
    r = run_child([&] { wbSolution(args, c, 3, 4); });
    cr_assert(contains(r.out, "at row 2, column 3: expected 18.75 but got -nan(0x7fffff) (never written"), "%s",
              r.out.c_str());

    r = run_child([&] { wbSolution(args, c, 4, 3); });
    cr_assert(contains(r.out, "the solution is 4 x 3 but the expected output is 3 x 4"), "%s", r.out.c_str());

    wbArg_t hidden = solution_args(out, "/nonexistent/output.raw");
    r = run_child([&] { exit(wbSolution(hidden, c, 3, 4) ? 0 : 1); });
    cr_assert_eq(r.status, 1);
    cr_assert(contains(r.out, "The expected output /nonexistent/output.raw is not available here"), "%s",
              r.out.c_str());
    cr_assert(slurp(out).rfind("3 4\n", 0) == 0, "written all the same");

    wbArg_t malformed = solution_args(out, FIX "malformed.raw");
    r = run_child([&] { wbSolution(malformed, c, 3, 4); });
    cr_assert_eq(r.status, 0, "a bad expected file is not the program's fault");
    cr_assert(contains(r.out, "Cannot compare with the expected output: " FIX "malformed.raw:3:"), "%s",
              r.out.c_str());
    unlink(out.c_str());
}

Test(wb_solution, no_output_flag_writes_nothing)
{
    float c[12] = {5.f, 1.75f, 4.25f, 4.f, 4.f, -4.25f, 4.f, 31.f, 14.f, -1.875f, -5.5f, 18.75f};
    wbArg_t args = read_args({"prog", "-e", FIX "c34.raw"});
    std::string dir = scratch_path("dir");
    unlink(dir.c_str());
    mkdir(dir.c_str(), 0700);
    std::string cwd(4096, '\0');
    cr_assert_not_null(getcwd(&cwd[0], cwd.size()));
    cwd.resize(strlen(cwd.c_str()));
    std::string expected = cwd + "/" FIX "c34.raw";
    args.expectedOutputFile = &expected[0];
    child_result r = run_child([&] {
        if (chdir(dir.c_str()) == 0)
            wbSolution(args, c, 3, 4);
    });
    cr_assert_eq(r.out, "Solution is correct.\n");
    cr_assert_eq(rmdir(dir.c_str()), 0, "the folder stayed empty");

    child_result bad = run_child([&] {
        wbArg_t unwritable = read_args({"prog", "-o", "/nonexistent/out.raw"});
        wbSolution(unwritable, c, 3, 4);
    });
    cr_assert_eq(bad.status, 2);
    cr_assert(contains(bad.err, "wbSolution: /nonexistent/out.raw: cannot create the output file"), "%s",
              bad.err.c_str());
}
