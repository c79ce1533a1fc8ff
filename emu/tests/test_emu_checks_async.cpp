/* test_emu_checks_async.cpp - the checking mode on what a tiled SGEMM adds:
 * a whole float4 or float2 read or written at an address that is not a
 * multiple of its size is reported as a misaligned address with the buffer
 * (or shared variable), the offset and the line, before the access may
 * crash the program as it stops a kernel on a GPU; aligned ones are not;
 * __ldg's findings name the kernel's line, not the header's; asynchronous
 * copies used right have no finding, and read before their wait (or without
 * the barrier after it), or overwritten while in flight, are one race naming
 * the copy's and the access's lines; they read global memory as a load
 * (bounds, initialisation, byte counts). Kernels: check_kernels_async.cpp. */
#include <criterion/criterion.h>
#include <csignal>
#include <sys/wait.h>
#include <unistd.h>

#include "check_test_helpers.h"

static const char *const kFile = "check_kernels_async.cpp";

/* Runs f in a child process (an access may crash it, as the kernel would
 * stop on a GPU); returns the diagnostics written. */
template <class F> static std::string diag_of_child(F f)
{
    std::string path = use_scratch_diag_file();
    pid_t pid = fork();
    if (pid == 0) {
        f();
        _exit(0);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    unsetenv("CUGRADE_EMU_DIAG");
    cr_assert(WIFEXITED(status) || WTERMSIG(status) == SIGSEGV || WTERMSIG(status) == SIGBUS, "status %#x", status);
    return read_file(path);
}

struct buffers {
    float *in, *out;
    buffers(int n = 64)
    {
        cudaMalloc(&in, n * sizeof(float));
        cudaMalloc(&out, n * sizeof(float));
        std::vector<float> host(n);
        for (int i = 0; i < n; i++)
            host[i] = float(i);
        cudaMemcpy(in, host.data(), n * sizeof(float), cudaMemcpyHostToDevice);
        cudaMemset(out, 0, n * sizeof(float));
    }
    ~buffers()
    {
        cudaFree(in);
        cudaFree(out);
    }
};

/* The one misaligned-address line of a kind of access at offset 1 (after
 * the aligned access, which sets the line and must find nothing). */
static std::string misaligned_line(int kind)
{
    buffers b;
    std::string clean = captured([&] { launch_vector_access(b.in, b.out, 4, kind); });
    cr_assert_eq(findings(clean), 0u, "an aligned access: %s", clean.c_str());
    std::string diag = diag_of_child([&] { launch_vector_access(b.in, b.out, 1, kind); });
    std::vector<std::string> lines = lines_starting(diag, "error\tinvalid-address\t");
    cr_assert_eq(lines.size(), 1u, "%s", diag.c_str());
    cr_assert(contains(lines[0], "Misaligned address in kernel vector_access launched at "), "%s", lines[0].c_str());
    cr_assert(contains(lines[0], "at " + at(kFile, g_lines.vector_access) + ","), "%s", lines[0].c_str());
    cr_assert(contains(lines[0], "cudaErrorMisalignedAddress"), "%s", lines[0].c_str());
    return lines[0];
}

Test(emu_checks_async, misaligned_float4_read_of_global_memory)
{
    std::string line = misaligned_line(kReadFloat4);
    cr_assert(contains(line, "thread (0,0,0) of block (0,0,0) reads 16 bytes at byte offset 4 of in at "), "%s",
              line.c_str());
    cr_assert(contains(line, "not a multiple of 16; a 16-byte access (a whole float4"), "%s", line.c_str());
}

Test(emu_checks_async, misaligned_float2_read_of_global_memory)
{
    std::string line = misaligned_line(kReadFloat2);
    cr_assert(contains(line, "reads 8 bytes at byte offset 4 of in at "), "%s", line.c_str());
}

Test(emu_checks_async, misaligned_float4_read_of_shared_memory)
{
    std::string line = misaligned_line(kReadSharedFloat4);
    cr_assert(contains(line, "reads 16 bytes at byte offset 4 of shared tile at "), "%s", line.c_str());
}

Test(emu_checks_async, misaligned_float4_write_of_global_memory)
{
    std::string line = misaligned_line(kWriteFloat4);
    cr_assert(contains(line, "writes 16 bytes at byte offset 4 of out at "), "%s", line.c_str());
}

Test(emu_checks_async, ldg_findings_name_the_kernels_line)
{
    buffers b;
    std::string diag = captured([&] { launch_ldg(b.in, b.out, 64, false); });
    std::vector<std::string> oob = lines_starting(diag, "error\tglobal-oob\t");
    cr_assert_eq(oob.size(), 1u, "%s", diag.c_str());
    cr_assert(contains(oob[0], "Out-of-bounds read of in ") && contains(oob[0], at(kFile, g_lines.ldg_read)), "%s",
              oob[0].c_str());
    std::string clean = captured([&] { launch_ldg(b.in, b.out, 4, true); });
    cr_assert_eq(findings(clean), 0u, "%s", clean.c_str());
    std::string mis = diag_of_child([&] { launch_ldg(b.in, b.out, 2, true); });
    std::vector<std::string> lines = lines_starting(mis, "error\tinvalid-address\t");
    cr_assert_eq(lines.size(), 1u, "%s", mis.c_str());
    cr_assert(contains(lines[0], "reads 16 bytes at byte offset 8 of in at " + at(kFile, g_lines.ldg_read)), "%s",
              lines[0].c_str());
}

/* ---- asynchronous copies ---------------------------------------------------------- */
static std::string async_run(int mode, int shift = 0, int n = 256)
{
    buffers b(n);
    return captured([&] { launch_async_tile(b.in, b.out, mode, shift); });
}

Test(emu_checks_async, copies_used_right_have_no_finding)
{
    buffers b(257);
    std::string diag = captured([&] { launch_async_tile(b.in, b.out, kAsyncCorrect, 0); });
    cr_assert_eq(findings(diag), 0u, "%s", diag.c_str());
    cr_assert_eq(stat_value(diag, "global_load_bytes"), 1024, "%s", diag.c_str());
    cr_assert_eq(stat_value(diag, "shared_store_bytes"), 1024, "%s", diag.c_str());
    cr_assert_eq(stat_value(diag, "shared_staged_loads"), 256, "%s", diag.c_str());
    std::vector<float> got(256);
    cudaMemcpy(got.data(), b.out, got.size() * sizeof(float), cudaMemcpyDeviceToHost);
    for (int i = 0; i < 256; i++)
        cr_assert_eq(got[i], float((i + 4) % 256), "element %d", i);
    std::string odd = captured([&] { launch_async_tile(b.in, b.out, kAsyncCorrect, 1); });
    cr_assert_eq(findings(odd), 0u, "4-byte copies at odd offsets: %s", odd.c_str());
    cudaMemcpy(got.data(), b.out, got.size() * sizeof(float), cudaMemcpyDeviceToHost);
    cr_assert_eq(got[0], 5.0f);
}

/* The one race line of a mode, naming the copy's line and the access's. */
static std::string async_race(int mode, int access_line)
{
    std::string diag = async_run(mode);
    std::vector<std::string> races = lines_starting(diag, "error\trace\t");
    cr_assert_eq(races.size(), 1u, "%s", diag.c_str());
    cr_assert_eq(lines_starting(diag, "error\tuninit-shared\t").size(), 0u, "a race, not also uninitialised: %s",
                 diag.c_str());
    const std::string &r = races[0];
    cr_assert(contains(r, "Race on shared tile (element ") && contains(r, "in kernel async_tile launched at "), "%s",
              r.c_str());
    cr_assert(contains(r, "the asynchronous copy into it that thread (") &&
                  contains(r, "started at " + at(kFile, g_lines.async_copy) + " has not been waited for"),
              "%s", r.c_str());
    cr_assert(contains(r, "it at " + at(kFile, access_line) + " while"), "%s", r.c_str());
    return r;
}

Test(emu_checks_async, reading_before_the_wait_is_a_race_with_the_copy)
{
    async_run(kAsyncCorrect); /* sets the lines */
    std::string r = async_race(kAsyncNoWait, g_lines.async_read);
    cr_assert(contains(r, "reads it at") && contains(r, "may land before or after the read"), "%s", r.c_str());
    cr_assert(contains(r, "__pipeline_wait_prior and then __syncthreads()"), "%s", r.c_str());
}

/* The neighbour's copy is not even issued when a thread reads its words
 * (threads run one after another up to a barrier): the copy landing later
 * in the same interval is the write of a plain race. */
Test(emu_checks_async, reading_another_threads_copy_without_a_barrier_is_a_race)
{
    async_run(kAsyncCorrect);
    std::string diag = async_run(kAsyncNoBarrier);
    std::vector<std::string> races = lines_starting(diag, "error\trace\t");
    cr_assert_eq(races.size(), 1u, "%s", diag.c_str());
    const std::string &r = races[0];
    cr_assert(contains(r, "writes it at " + at(kFile, g_lines.async_copy) + " while thread (") &&
                  contains(r, "reads it at " + at(kFile, g_lines.async_read)) &&
                  contains(r, "a __syncthreads() is missing between them"),
              "%s", r.c_str());
}

Test(emu_checks_async, writing_a_destination_in_flight_is_a_race)
{
    async_run(kAsyncWriteEarly);
    std::string r = async_race(kAsyncWriteEarly, g_lines.async_write);
    cr_assert(contains(r, "writes it at") && contains(r, "may land after the write and overwrite it"), "%s",
              r.c_str());
}

Test(emu_checks_async, copies_read_global_memory_with_its_checks)
{
    async_run(kAsyncCorrect);
    std::string diag = async_run(kAsyncCorrect, 4, 256); /* thread 63 copies in[256..259] */
    std::vector<std::string> oob = lines_starting(diag, "error\tglobal-oob\t");
    cr_assert_eq(oob.size(), 1u, "%s", diag.c_str());
    cr_assert(contains(oob[0], "Out-of-bounds read of in ") && contains(oob[0], "reads 16 bytes at byte offset 1024") &&
                  contains(oob[0], at(kFile, g_lines.async_copy)),
              "%s", oob[0].c_str());
    float *unwritten, *out;
    cudaMalloc(&unwritten, 256 * sizeof(float));
    cudaMalloc(&out, 256 * sizeof(float));
    std::string uninit = captured([&] { launch_async_tile(unwritten, out, kAsyncCorrect, 0); });
    std::vector<std::string> lines = lines_starting(uninit, "error\tuninit-global\t");
    cr_assert_eq(lines.size(), 1u, "%s", uninit.c_str());
    cr_assert(contains(lines[0], at(kFile, g_lines.async_copy)), "%s", lines[0].c_str());
    cudaFree(unwritten);
    cudaFree(out);
}
