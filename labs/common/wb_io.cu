/* wb_io.cu - the harness's side of labs/common/wb.h: everything a libwb
 * program does with files, the clock and the environment, compiled in the
 * harness's own object (the grader caches it per backend and links it with
 * the student's program) and never in the student's translation unit.
 *
 *   cugrade_wb_import      wbImport: read a .raw file (wb_raw.h)
 *   cugrade_wb_solution    wbSolution: write the -o file, compare with -e
 *   cugrade_wb_timer_start wbTime_start / wbTime_stop: the timers, reported
 *   cugrade_wb_timer_stop    on the grader's report channel when there is one
 *
 * Compiled as CUDA C++ by nvcc, or by bin/emucc against the emulator. */
#include "wb.h"

#include <errno.h>
#include <fcntl.h>
#include <time.h>
#include <unistd.h>

#include <cmath>
#include <vector>

#include "harness.h"
#include "wb_raw.h"

namespace cugrade_wb {
namespace {

/* ---- timers ---- */

struct timer_node {
    int kind;
    std::string msg;
    double start_s;
};

std::vector<timer_node> &running_timers()
{
    static std::vector<timer_node> timers;
    return timers;
}

double now_s()
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return double(ts.tv_sec) + double(ts.tv_nsec) * 1e-9;
}

const char *kind_name(int kind)
{
    static const char *const names[] = {"Generic", "IO",        "GPU",     "Copy",
                                        "Driver",  "CopyAsync", "Compute", "CPUGPUOverlap"};
    return unsigned(kind) < sizeof names / sizeof names[0] ? names[kind] : "Unknown";
}

/* The clock of a timer of this kind. Kernel launches and most copies return
 * before the device has finished, so for every kind that involves the GPU
 * (all but Generic and IO) the device is synchronized first: the time then
 * covers the work the timed code queued, and not work queued before it. */
double timer_clock(int kind)
{
    if (kind != wbTimerKind_Generic && kind != wbTimerKind_IO)
        cudaDeviceSynchronize();
    return now_s();
}

/* Reports one stopped timer: under the grader, one line
 * "wbtime\tKIND\tSECONDS\tMESSAGE\n" on its report channel (harness.h),
 * which the submission cannot write; else "[wbTime KIND] 1.234 ms  MESSAGE"
 * on stdout. */
void timer_report(int kind, double seconds, const std::string &msg)
{
    if (harness_report_fd() >= 0) {
        std::string clean = msg; /* tabs and line ends would break the line format */
        for (char &c : clean)
            if (c == '\t' || c == '\n' || c == '\r')
                c = ' ';
        char secs[64];
        snprintf(secs, sizeof secs, "%.9g", seconds);
        std::string line = concat("wbtime\t", kind_name(kind), "\t", secs, "\t", clean, "\n");
        harness_report(line.data(), line.size());
        return;
    }
    printf("[wbTime %s] %.3f ms  %s\n", kind_name(kind), seconds * 1e3, msg.c_str());
    fflush(stdout);
}

/* ---- the solution ---- */

/* Compares with the expected file as libwb does (same shape, every element
 * within 0.2) and prints the verdict on stdout. */
bool check_solution(const char *expected_path, const float *data, int rows, int cols, bool vector)
{
    raw_file exp;
    std::string err;
    int open_errno = 0;
    if (!read_raw(expected_path, exp, err, &open_errno)) {
        if (open_errno)
            printf("The expected output %s is not available here (%s); the grader checks the output file.\n",
                   expected_path, strerror(open_errno));
        else
            printf("Cannot compare with the expected output: %s\n", err.c_str());
        return false;
    }
    bool same_shape = vector ? (exp.cols == 1 || exp.rows == 1) && long(exp.rows) * exp.cols == rows
                             : exp.rows == rows && exp.cols == cols;
    bool correct = same_shape;
    if (!same_shape) {
        printf("Solution is NOT correct: the solution is %s but the expected output is %s.\n",
               (vector ? concat(rows, " values") : concat(rows, " x ", cols)).c_str(),
               (exp.vector_header ? concat(exp.rows, " values") : concat(exp.rows, " x ", exp.cols)).c_str());
    } else {
        long n = long(rows) * cols;
        for (long i = 0; i < n; i++) {
            if (libwb_equal(exp.data[i], data[i]))
                continue;
            char e[48], g[48];
            format_value(e, sizeof e, exp.data[i]);
            format_value(g, sizeof g, data[i]);
            std::string where = vector ? concat("element ", i) : concat("row ", i / cols, ", column ", i % cols);
            printf("Solution is NOT correct: the solution did not match the expected results at %s: expected %s "
                   "but got %s%s.\n",
                   where.c_str(), e, g,
                   is_poison(data[i]) ? " (never written: still the 0xFFFFFFFF that cudaMalloc fills memory with)"
                                      : "");
            correct = false;
            break;
        }
        if (correct)
            printf("Solution is correct.\n");
    }
    fflush(stdout);
    free(exp.data);
    return correct;
}

} // namespace
} // namespace cugrade_wb

using namespace cugrade_wb;

extern "C" float *cugrade_wb_import(const char *file, int *rows, int *cols)
{
    raw_file raw;
    std::string err;
    if (!read_raw(file, raw, err))
        fatal("wbImport: " + err);
    *rows = raw.rows;
    *cols = raw.cols;
    return raw.data;
}

#ifdef CUGRADE_VGPU
extern "C" int cugrade_vgpu_solution(const float *data, int rows, int cols, int vector);
#endif

extern "C" int cugrade_wb_solution(const wbArg_t *args, const void *data, int rows, int cols, int vector)
{
    const char *type = args->type;
    if (type && strcmp(type, "matrix") != 0 && strcmp(type, "vector") != 0)
        fprintf(stderr, "wbSolution: type '%s' (-t) is handled as float data: this wb.h knows vector and matrix\n",
                type);
    if (rows < 0 || cols < 0 || (!data && long(rows) * cols > 0)) {
        fprintf(stderr, "wbSolution: no solution to write (%s, %d x %d)\n", data ? "data" : "a NULL pointer",
                rows, cols);
        return 0;
    }
#ifdef CUGRADE_VGPU
    /* on the executor (issue 39): the executor writes and judges the solution,
     * knowing whether the program read it back from memory a kernel wrote */
    if (!cugrade_vgpu_solution((const float *)data, rows, cols, vector))
        fatal("wbSolution: the executor refused the solution");
    printf("The solution was handed to the executor.\n");
    fflush(stdout);
    return 0;
#endif
    std::string err;
    if (args->outputFile && !write_raw(args->outputFile, (const float *)data, rows, cols, vector != 0, err))
        fatal("wbSolution: " + err);
    if (!args->expectedOutputFile) {
        printf("No expected output (-e) was given: nothing to compare with%s%s.\n",
               args->outputFile ? "; the solution was written to " : "", args->outputFile ? args->outputFile : "");
        fflush(stdout);
        return 0;
    }
    return check_solution(args->expectedOutputFile, (const float *)data, rows, cols, vector != 0);
}

extern "C" void cugrade_wb_timer_start(int kind, const char *msg)
{
    running_timers().push_back(timer_node{kind, msg ? msg : "", timer_clock(kind)});
}

/* Stops the most recent running timer of this kind and message (an empty
 * message stops the most recent of the kind, as in libwb). A stop that
 * matches nothing is reported on stderr and ignored. */
extern "C" void cugrade_wb_timer_stop(int kind, const char *msg, const char *file, int line)
{
    double t = timer_clock(kind);
    std::string want = msg ? msg : "";
    std::vector<timer_node> &timers = running_timers();
    for (size_t i = timers.size(); i-- > 0;) {
        if (timers[i].kind == kind && (want.empty() || timers[i].msg == want)) {
            double seconds = t - timers[i].start_s;
            std::string started = timers[i].msg;
            timers.erase(timers.begin() + long(i));
            timer_report(kind, seconds, started);
            return;
        }
    }
    fprintf(stderr, "wbTime_stop(%s, \"%s\") at %s:%d matches no running wbTime_start; ignored\n",
            kind_name(kind), want.c_str(), base_name(file), line);
}
