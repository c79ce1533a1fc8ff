/* test_wb.cpp - labs/common/wb.h (libwb's API for course programs) on the
 * CPU emulator: wbArg_read in any order and its usage errors, wbImport of
 * the hand-written fixtures in tests/fixtures/libwb (values, shapes, "4.",
 * the one-number vector header, CRLF and tabs, 1 x N staying 1 x N), the
 * file:line of a malformed file, wbSolution's output file read back bit for
 * bit (NaN poison and infinities included) and its verdicts, wbTime lines in
 * $CUGRADE_WB_TIMES and on stdout, the poisoned cudaMalloc, and wbLog's
 * format. Run from the repository root (make test), where the fixtures are.
 *
 * Whatever exits or prints runs in a forked child with stdout and stderr
 * sent to files (run_child). */
#include <criterion/criterion.h>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../labs/common/wb.h"

#define FIX "tests/fixtures/libwb/"

/* ---- helpers ---------------------------------------------------------------- */

static std::string slurp(const std::string &path)
{
    std::string text;
    FILE *f = fopen(path.c_str(), "rb");
    if (!f)
        return text;
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        text.append(buf, n);
    fclose(f);
    return text;
}

static std::string scratch_path(const char *tag)
{
    char path[64];
    snprintf(path, sizeof path, "/tmp/cugrade-wb-%s-XXXXXX", tag);
    int fd = mkstemp(path);
    cr_assert_geq(fd, 0);
    close(fd);
    return path;
}

static bool contains(const std::string &s, const std::string &what) { return s.find(what) != std::string::npos; }

struct child_result {
    int status; /* exit status, or 128 + signal */
    std::string out, err;
};

/* Runs f in a child whose stdout and stderr go to files. */
template <class F> static child_result run_child(F f)
{
    std::string out_path = scratch_path("out"), err_path = scratch_path("err");
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid == 0) {
        FILE *o = freopen(out_path.c_str(), "w", stdout);
        FILE *e = freopen(err_path.c_str(), "w", stderr);
        if (!o || !e)
            _exit(99);
        f();
        fflush(stdout);
        fflush(stderr);
        _exit(0);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    child_result r;
    r.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    r.out = slurp(out_path);
    r.err = slurp(err_path);
    unlink(out_path.c_str());
    unlink(err_path.c_str());
    return r;
}

/* wbArg_read over a list of words (argv[0] first). */
static wbArg_t read_args(std::vector<std::string> words)
{
    static std::vector<std::string> keep; /* argv strings outlive the call */
    keep = words;
    std::vector<char *> argv;
    for (std::string &w : keep)
        argv.push_back(&w[0]);
    argv.push_back(nullptr);
    return wbArg_read(int(keep.size()), argv.data());
}

static uint32_t bits_of(float f)
{
    uint32_t b;
    memcpy(&b, &f, sizeof b);
    return b;
}

static float float_of(uint32_t b)
{
    float f;
    memcpy(&f, &b, sizeof f);
    return f;
}

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

/* ---- wbTime ---------------------------------------------------------------------- */

static std::vector<std::vector<std::string>> tsv_lines(const std::string &text)
{
    std::vector<std::vector<std::string>> lines;
    size_t start = 0;
    while (start < text.size()) {
        size_t end = text.find('\n', start);
        cr_assert_neq(end, std::string::npos, "every line ends with a newline");
        std::string line = text.substr(start, end - start);
        std::vector<std::string> fields;
        size_t f = 0;
        for (size_t tab; (tab = line.find('\t', f)) != std::string::npos; f = tab + 1)
            fields.push_back(line.substr(f, tab - f));
        fields.push_back(line.substr(f));
        lines.push_back(fields);
        start = end + 1;
    }
    return lines;
}

Test(wb_time, stops_append_lines_to_the_times_file)
{
    std::string path = scratch_path("times");
    setenv("CUGRADE_WB_TIMES", path.c_str(), 1);
    child_result r = run_child([] {
        wbTime_start(Generic, "Importing data and creating memory on host");
        usleep(20000);
        wbTime_stop(Generic, "Importing data and creating memory on host");
        wbTime_start(GPU, "Allocating GPU memory.");
        wbTime_start(Compute, "Performing ", "CUDA", " computation");
        wbTime_start(Compute, "inner\tone");
        wbTime_stop(Compute, "Performing CUDA computation"); /* not the most recent Compute: by message */
        wbTime_stop(Compute, "inner\tone");
        wbTime_stop(GPU, "Allocating GPU memory.");
        wbTime_start(IO, "a");
        wbTime_stop(IO); /* no message: the most recent IO timer */
        wbTime_stop(Copy, "never started");
        for (int k = 0; k < 3; k++) {
            wbTime_start(CopyAsync, "loop ", k);
            wbTime_stop(CopyAsync, "loop ", k);
        }
        wbTime_start(Driver, "d");
        wbTime_stop(Driver, "d");
        wbTime_start(CPUGPUOverlap, "o");
        wbTime_stop(CPUGPUOverlap, "o");
        wbTime_start(Copy, "left running"); /* never stopped: no line */
    });
    unsetenv("CUGRADE_WB_TIMES");
    cr_assert_eq(r.status, 0);
    cr_assert_eq(r.out, "", "nothing on stdout when the times go to a file: %s", r.out.c_str());
    cr_assert(contains(r.err, "wbTime_stop(Copy, \"never started\") at test_wb.cpp:"), "%s", r.err.c_str());

    auto lines = tsv_lines(slurp(path));
    const char *want[][2] = {{"Generic", "Importing data and creating memory on host"},
                             {"Compute", "Performing CUDA computation"},
                             {"Compute", "inner one"},
                             {"GPU", "Allocating GPU memory."},
                             {"IO", "a"},
                             {"CopyAsync", "loop 0"},
                             {"CopyAsync", "loop 1"},
                             {"CopyAsync", "loop 2"},
                             {"Driver", "d"},
                             {"CPUGPUOverlap", "o"}};
    cr_assert_eq(lines.size(), sizeof want / sizeof want[0], "%s", slurp(path).c_str());
    for (size_t i = 0; i < lines.size(); i++) {
        cr_assert_eq(lines[i].size(), 3u, "line %zu has three fields", i);
        cr_assert_str_eq(lines[i][0].c_str(), want[i][0]);
        cr_assert_str_eq(lines[i][2].c_str(), want[i][1]);
        char *end;
        double s = strtod(lines[i][1].c_str(), &end);
        cr_assert(*end == '\0' && s >= 0 && s < 5, "seconds '%s'", lines[i][1].c_str());
    }
    double generic = strtod(lines[0][1].c_str(), nullptr);
    cr_assert(generic >= 0.019 && generic < 2, "the 20 ms sleep took %g s", generic);
    unlink(path.c_str());
}

Test(wb_time, stdout_without_the_times_file)
{
    unsetenv("CUGRADE_WB_TIMES");
    child_result r = run_child([] {
        wbTime_start(Compute, "Performing CUDA computation");
        wbTime_stop(Compute, "Performing CUDA computation");
    });
    cr_assert(r.out.rfind("[wbTime Compute] ", 0) == 0, "%s", r.out.c_str());
    cr_assert(contains(r.out, " ms  Performing CUDA computation\n"), "%s", r.out.c_str());
    double ms = strtod(r.out.c_str() + strlen("[wbTime Compute] "), nullptr);
    cr_assert(ms >= 0 && ms < 1000, "%s", r.out.c_str());
}

/* ---- the poisoned cudaMalloc ------------------------------------------------------ */

__global__ void write_first_half(float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n / 2)
        out[i] = float(i);
}

static void assert_all_poison(const void *dev, size_t bytes, const char *what)
{
    std::vector<uint32_t> host(bytes / 4, 0);
    cr_assert_eq(cudaMemcpy(host.data(), dev, bytes, cudaMemcpyDeviceToHost), cudaSuccess);
    for (size_t i = 0; i < host.size(); i++)
        cr_assert_eq(host[i], 0xFFFFFFFFu, "%s: word %zu is %08x", what, i, host[i]);
}

Test(wb_cuda, malloc_fills_with_the_poison)
{
    const int n = 1000;
    float *typed = nullptr;
    cr_assert_eq(cudaMalloc(&typed, n * sizeof(float)), cudaSuccess);
    assert_all_poison(typed, n * sizeof(float), "cudaMalloc(&typed, n)");

    int *as_void = nullptr;
    cr_assert_eq(cudaMalloc((void **)&as_void, 64 * sizeof(int)), cudaSuccess);
    assert_all_poison(as_void, 64 * sizeof(int), "cudaMalloc((void **)&p, n)");

    const float *to_const = nullptr;
    cr_assert_eq(cudaMalloc(&to_const, 16 * sizeof(float)), cudaSuccess);
    assert_all_poison(to_const, 16 * sizeof(float), "cudaMalloc(&const_ptr, n)");

    void *raw = nullptr;
    cr_assert_eq(::cudaMalloc(&raw, 8), cudaSuccess, "a qualified ::cudaMalloc is poisoned too");
    assert_all_poison(raw, 8, "::cudaMalloc(&void_ptr, n)");

    ::cugrade::kernel_launch(write_first_half, "write_first_half", __FILE__, __LINE__)
        .config((n + 127) / 128, 128)(typed, n);
    cr_assert_eq(cudaGetLastError(), cudaSuccess);
    std::vector<float> host(n);
    cr_assert_eq(cudaMemcpy(host.data(), typed, n * sizeof(float), cudaMemcpyDeviceToHost), cudaSuccess);
    for (int i = 0; i < n; i++) {
        if (i < n / 2)
            cr_assert_eq(host[i], float(i));
        else
            cr_assert_eq(bits_of(host[i]), 0xFFFFFFFFu, "element %d was never written", i);
    }
    cudaFree(typed);
    cudaFree(as_void);
    cudaFree((void *)to_const);
    cudaFree(raw);
}

Test(wb_cuda, malloc_errors_pass_through)
{
    float *huge = nullptr;
    cr_assert_eq(cudaMalloc(&huge, size_t(1) << 50), cudaErrorMemoryAllocation);
    cudaGetLastError();
    float *empty = nullptr;
    cudaError_t err = cudaMalloc(&empty, 0); /* nothing to fill */
    cr_assert(err == cudaSuccess || err == cudaErrorInvalidValue, "%s", cudaGetErrorName(err));
    if (err == cudaSuccess)
        cudaFree(empty);
    cudaGetLastError();
}

Test(wb_cuda, thread_synchronize_exists)
{
    cr_assert_eq(cudaThreadSynchronize(), cudaSuccess);
}

/* ---- wbLog ---------------------------------------------------------------------- */

Test(wb_log, format)
{
    child_result r = run_child([] {
        const char *null_name = nullptr;
        std::string s = "str";
        wbLog(TRACE, "The dimensions of A are ", 64, " x ", 64);
        wbLog(ERROR, "float ", 1.5f, ", double ", 0.1, ", char '", 'c', "', ", s, ", ", null_name, ", size ",
              sizeof(int));
        wbLog(OFF, "not printed");
        wbLog(INFO);
        wbLog(FATAL, "f");
        wbLog(WARN, "w");
        wbLog(DEBUG, "d");
    });
    std::string want_first = "[TRACE] test_wb.cpp:";
    cr_assert(r.out.rfind(want_first, 0) == 0, "%s", r.out.c_str());
    size_t nl = r.out.find('\n');
    std::string first = r.out.substr(0, nl);
    int at = atoi(first.c_str() + want_first.size());
    cr_assert_gt(at, 0, "%s", first.c_str());
    cr_assert(contains(first, ":" + std::to_string(at) + "  The dimensions of A are 64 x 64"), "%s", first.c_str());
    cr_assert(contains(r.out, "] test_wb.cpp:" + std::to_string(at + 1) +
                                  "  float 1.5, double 0.1, char 'c', str, (null), size 4\n"),
              "%s", r.out.c_str());
    cr_assert(!contains(r.out, "not printed"), "%s", r.out.c_str());
    cr_assert(contains(r.out, "[ERROR] "), "%s", r.out.c_str());
    cr_assert(contains(r.out, "[INFO] test_wb.cpp:"), "%s", r.out.c_str());
    cr_assert(contains(r.out, "[FATAL] "), "%s", r.out.c_str());
    cr_assert(contains(r.out, "[WARN] "), "%s", r.out.c_str());
    cr_assert(contains(r.out, "[DEBUG] "), "%s", r.out.c_str());
    cr_assert_eq(r.err, "");
}
