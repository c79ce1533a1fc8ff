/* test_wb_run.cpp - labs/common/wb.h at run time on the CPU emulator:
 * wbTime lines on the grader's report channel and on stdout, the poisoned cudaMalloc
 * (and its errors), cudaThreadSynchronize, and wbLog's format. Whatever
 * exits or prints runs in a forked child (run_child, wb_test_helpers.h). */
#include "wb_test_helpers.h"

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

/* In the child: the report channel as the grader sets it up (runner.c). */
static void open_report_channel(const std::string &path)
{
    int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_APPEND, 0600);
    cr_assert_geq(fd, 0);
    setenv("CUGRADE_REPORT_FD", std::to_string(fd).c_str(), 1);
}

Test(wb_time, stops_write_lines_to_the_report_channel)
{
    std::string path = scratch_path("times");
    child_result r = run_child([path] {
        open_report_channel(path);
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
    cr_assert_eq(r.status, 0);
    cr_assert_eq(r.out, "", "nothing on stdout when the times go to the channel: %s", r.out.c_str());
    cr_assert(contains(r.err, "wbTime_stop(Copy, \"never started\") at test_wb_run.cpp:"), "%s", r.err.c_str());

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
        cr_assert_eq(lines[i].size(), 4u, "line %zu has four fields", i);
        cr_assert_str_eq(lines[i][0].c_str(), "wbtime");
        cr_assert_str_eq(lines[i][1].c_str(), want[i][0]);
        cr_assert_str_eq(lines[i][3].c_str(), want[i][1]);
        char *end;
        double s = strtod(lines[i][2].c_str(), &end);
        cr_assert(*end == '\0' && s >= 0 && s < 5, "seconds '%s'", lines[i][2].c_str());
    }
    double generic = strtod(lines[0][2].c_str(), nullptr);
    cr_assert(generic >= 0.019 && generic < 2, "the 20 ms sleep took %g s", generic);
    unlink(path.c_str());
}

Test(wb_time, stdout_without_the_report_channel)
{
    unsetenv("CUGRADE_REPORT_FD");
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
    std::string want_first = "[TRACE] test_wb_run.cpp:";
    cr_assert(r.out.rfind(want_first, 0) == 0, "%s", r.out.c_str());
    size_t nl = r.out.find('\n');
    std::string first = r.out.substr(0, nl);
    int at = atoi(first.c_str() + want_first.size());
    cr_assert_gt(at, 0, "%s", first.c_str());
    cr_assert(contains(first, ":" + std::to_string(at) + "  The dimensions of A are 64 x 64"), "%s", first.c_str());
    cr_assert(contains(r.out, "] test_wb_run.cpp:" + std::to_string(at + 1) +
                                  "  float 1.5, double 0.1, char 'c', str, (null), size 4\n"),
              "%s", r.out.c_str());
    cr_assert(!contains(r.out, "not printed"), "%s", r.out.c_str());
    cr_assert(contains(r.out, "[ERROR] "), "%s", r.out.c_str());
    cr_assert(contains(r.out, "[INFO] test_wb_run.cpp:"), "%s", r.out.c_str());
    cr_assert(contains(r.out, "[FATAL] "), "%s", r.out.c_str());
    cr_assert(contains(r.out, "[WARN] "), "%s", r.out.c_str());
    cr_assert(contains(r.out, "[DEBUG] "), "%s", r.out.c_str());
    cr_assert_eq(r.err, "");
}
