/* test_emu_checks_memory.cpp - the checking mode's memory checks: tile
 * loads and a store past the end of a matrix land in its red zone and are
 * reported with the parameter's name and the distance; a host pointer given
 * to a kernel is reported at launch; reads of shared or device memory
 * nobody wrote are reported, reads of written memory are not; an index one
 * row past or before a shared array, or past the launch's dynamic shared
 * size, is reported; atomics by every thread are not races; an access to
 * no memory of the program is reported before it can crash. The kernels
 * are in check_kernels_*.cpp (see check_kernels.h). */
#include <criterion/criterion.h>
#include <sys/wait.h>

#include "check_test_helpers.h"

static std::string all_lines(const std::vector<std::string> &lines)
{
    std::string all;
    for (const std::string &l : lines)
        all += l + "\n";
    return all;
}

static bool any_contains(const std::vector<std::string> &lines, std::initializer_list<std::string> parts)
{
    for (const std::string &l : lines) {
        bool all = true;
        for (const std::string &p : parts)
            all = all && contains(l, p);
        if (all)
            return true;
    }
    return false;
}

/* ---- global memory --------------------------------------------------------------- */
Test(emu_checks_memory, unguarded_tile_loads_read_past_a_and_b)
{
    matrices m(100, 128, 56); /* M and N uneven: the edge blocks load past the ends */
    std::string diag = captured([&] { launch_tiled(16, m.dA, m.dB, m.dC, m.M, m.K, m.N, kUnguardedLoads); });
    std::vector<std::string> oob = lines_starting(diag, "error\tglobal-oob\t");
    cr_assert(any_contains(oob, {"Out-of-bounds read of A ", "past the end of A (51200 bytes)",
                                 at("check_tiled_kernel.h", g_lines.load_a), "byte offset"}),
              "%s", diag.c_str());
    cr_assert(any_contains(oob, {"Out-of-bounds read of B ", "past the end of B (28672 bytes)",
                                 at("check_tiled_kernel.h", g_lines.load_b)}),
              "%s", diag.c_str());
    cr_assert_eq(lines_starting(diag, "error\tinvalid-address\t").size(), 0u, "the red zones hold the overrun");
}

Test(emu_checks_memory, unguarded_store_writes_past_c)
{
    use_schedule("forward"); /* the first overrun: thread (0,4,0) of block (0,6,0), row 100 */
    matrices m(100, 128, 56);
    std::string diag = captured([&] { launch_tiled(16, m.dA, m.dB, m.dC, m.M, m.K, m.N, kUnguardedStore); });
    std::vector<std::string> oob = lines_starting(diag, "error\tglobal-oob\t");
    cr_assert_eq(oob.size(), 1u, "%s", diag.c_str());
    cr_assert(any_contains(oob, {"Out-of-bounds write of C ", "writes 4 bytes at byte offset 22400 (element 5600)",
                                 "4 bytes past the end of C (22400 bytes)", at("check_tiled_kernel.h", g_lines.store_c)}),
              "%s", diag.c_str());
}

Test(emu_checks_memory, host_pointer_argument_is_reported_at_launch)
{
    std::vector<float> host(64, 1.0f);
    float *out;
    cudaMalloc(&out, 64 * sizeof(float));
    std::string diag = captured([&] { launch_copy(host.data(), out, 64); });
    std::vector<std::string> lines = lines_starting(diag, "error\thost-pointer\t");
    cr_assert_eq(lines.size(), 1u, "%s", diag.c_str());
    cr_assert(contains(lines[0], "Kernel copy_kernel launched at "), "%s", lines[0].c_str());
    cr_assert(contains(lines[0], "check_kernels_memory.cpp:"), "%s", lines[0].c_str());
    cr_assert(contains(lines[0], "gets a host pointer as argument in (1 of 3)"), "%s", lines[0].c_str());
    cudaFree(out);
}

Test(emu_checks_memory, reading_device_memory_nobody_wrote)
{
    use_schedule("forward"); /* thread (0,0,0) of block (0,0,0) reads first */
    float *in, *out;
    cudaMalloc(&in, 100 * sizeof(float));
    cudaMalloc(&out, 100 * sizeof(float));
    std::string diag = captured([&] { launch_copy(in, out, 100); });
    std::vector<std::string> lines = lines_starting(diag, "error\tuninit-global\t");
    cr_assert_eq(lines.size(), 1u, "%s", diag.c_str());
    cr_assert(contains(lines[0], "thread (0,0,0) of block (0,0,0) reads in (element 0, byte offset 0) at " +
                                     at("check_kernels_memory.cpp", g_lines.uninit_global_read)),
              "%s", lines[0].c_str());
    cr_assert(contains(lines[0], "(100 times in this launch)"), "%s", lines[0].c_str());

    std::vector<float> data(100, 2.0f);
    cudaMemcpy(in, data.data(), 50 * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemset(in + 50, 0, 50 * sizeof(float));
    diag = captured([&] { launch_copy(in, out, 100); });
    cr_assert_eq(findings(diag), 0u, "copied and set: %s", diag.c_str());
    cudaFree(in);
    cudaFree(out);
}

/* ---- shared memory --------------------------------------------------------------- */
Test(emu_checks_memory, reading_shared_memory_nobody_wrote)
{
    use_schedule("forward");
    float *out;
    cudaMalloc(&out, 2 * 64 * sizeof(float));
    std::string diag = captured([&] { launch_uninit_shared(out, 2); });
    std::vector<std::string> lines = lines_starting(diag, "error\tuninit-shared\t");
    cr_assert_eq(lines.size(), 1u, "%s", diag.c_str());
    cr_assert(contains(lines[0], "reads half_written (element "), "%s", lines[0].c_str());
    cr_assert(contains(lines[0], "(64 times in this launch)"), "%s", lines[0].c_str());
    cr_assert(contains(lines[0], at("check_kernels_memory.cpp", g_lines.uninit_shared_read)), "%s", lines[0].c_str());
    cr_assert(contains(lines[0], "no thread of this block has written it"), "%s", lines[0].c_str());
    cudaFree(out);
}

static std::vector<std::string> shared_oob_with_shift(int shift)
{
    float *out;
    cudaMalloc(&out, 512 * sizeof(float));
    std::string diag = captured([&] { launch_shared_neighbours(out, shift); });
    cudaFree(out);
    return lines_starting(diag, "error\tshared-oob\t");
}

Test(emu_checks_memory, index_one_row_past_a_shared_array)
{
    std::vector<std::string> lines = shared_oob_with_shift(+1);
    cr_assert_eq(lines.size(), 1u, "%s", all_lines(lines).c_str());
    cr_assert(contains(lines[0], "indexes past the end of middle (1024 bytes) into "), "%s", lines[0].c_str());
    cr_assert(contains(lines[0], at("check_kernels_memory.cpp", g_lines.shared_overrun)), "%s", lines[0].c_str());
    cr_assert(contains(lines[0], "(16 times in this launch)"), "%s", lines[0].c_str());
}

Test(emu_checks_memory, index_one_row_before_a_shared_array)
{
    std::vector<std::string> lines = shared_oob_with_shift(-1);
    cr_assert_eq(lines.size(), 1u, "%s", all_lines(lines).c_str());
    cr_assert(contains(lines[0], "indexes before the start of middle into "), "%s", lines[0].c_str());
}

Test(emu_checks_memory, in_bounds_neighbours_are_fine)
{
    cr_assert_eq(shared_oob_with_shift(0).size(), 0u);
}

Test(emu_checks_memory, dynamic_shared_memory_past_the_launch_size)
{
    float *out;
    cudaMalloc(&out, sizeof(float));
    std::string diag = captured([&] { launch_dynamic_read(out, 64, 64); });
    std::vector<std::string> lines = lines_starting(diag, "error\tshared-oob\t");
    cr_assert_eq(lines.size(), 1u, "%s", diag.c_str());
    cr_assert(contains(lines[0], "uses byte offset 256 of the dynamic shared memory, but the launch asked for only 256 bytes"),
              "%s", lines[0].c_str());
    cr_assert(contains(lines[0], at("check_kernels_memory.cpp", g_lines.dynamic_overrun)), "%s", lines[0].c_str());

    diag = captured([&] { launch_dynamic_read(out, 128, 70); }); /* inside the launch's size, never written */
    cr_assert_eq(lines_starting(diag, "error\tshared-oob\t").size(), 0u, "%s", diag.c_str());
    cr_assert_eq(lines_starting(diag, "error\tuninit-shared\t").size(), 1u, "%s", diag.c_str());
    cudaFree(out);
}

/* ---- atomics ------------------------------------------------------------------------ */
Test(emu_checks_memory, atomics_by_every_thread_are_not_races)
{
    int *counts;
    cudaMalloc(&counts, 3 * sizeof(int));
    std::string diag = captured([&] { launch_shared_count(counts, 3); });
    int host[3];
    cudaMemcpy(host, counts, sizeof host, cudaMemcpyDeviceToHost);
    cr_assert(host[0] == 256 && host[1] == 256 && host[2] == 256);
    cr_assert_eq(findings(diag), 0u, "%s", diag.c_str());

    cudaMemset(counts, 0, sizeof(int));
    diag = captured([&] { launch_global_count(counts, 4); });
    cudaMemcpy(host, counts, sizeof(int), cudaMemcpyDeviceToHost);
    cr_assert_eq(host[0], 4 * 128);
    cr_assert_eq(findings(diag), 0u, "%s", diag.c_str());
    cudaFree(counts);
}

Test(emu_checks_memory, atomic_add_to_a_counter_nobody_zeroed)
{
    int *counter;
    cudaMalloc(&counter, sizeof(int));
    std::string diag = captured([&] { launch_global_count(counter, 1); });
    std::vector<std::string> lines = lines_starting(diag, "error\tuninit-global\t");
    cr_assert_eq(lines.size(), 1u, "%s", diag.c_str());
    cr_assert(contains(lines[0], "reads counter (element 0, byte offset 0)"), "%s", lines[0].c_str());
    cudaFree(counter);
}

/* ---- no memory at all ---------------------------------------------------------------- */
Test(emu_checks_memory, store_to_host_heap_memory)
{
    int *heap = static_cast<int *>(malloc(64 * sizeof(int)));
    std::string diag = captured([&] { launch_poke(heap + 8); });
    cr_assert_eq(lines_starting(diag, "error\thost-pointer\t").size(), 1u, "%s", diag.c_str());
    std::vector<std::string> lines = lines_starting(diag, "error\tinvalid-address\t");
    cr_assert_eq(lines.size(), 1u, "%s", diag.c_str());
    cr_assert(contains(lines[0], "thread (0,0,0) of block (0,0,0) writes 4 bytes at "), "%s", lines[0].c_str());
    cr_assert(contains(lines[0], at("check_kernels_memory.cpp", g_lines.wild_write)), "%s", lines[0].c_str());
    cr_assert_eq(heap[8], 1, "the store still happens");
    free(heap);
}

/* Runs f in a child that must die by SIGSEGV; returns the diagnostics. */
template <class F> static std::string diag_of_crash(F f)
{
    std::string path = use_scratch_diag_file();
    pid_t pid = fork();
    if (pid == 0) {
        f();
        _exit(0);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    cr_assert(WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV, "status %#x", status);
    return read_file(path);
}

Test(emu_checks_memory, null_store_is_reported_before_the_crash)
{
    std::string diag = diag_of_crash([] { launch_poke(nullptr); });
    std::vector<std::string> lines = lines_starting(diag, "error\tinvalid-address\t");
    cr_assert_eq(lines.size(), 1u, "%s", diag.c_str());
    cr_assert(contains(lines[0], "It is a null pointer."), "%s", lines[0].c_str());
    cr_assert(contains(lines[0], "check_kernels_memory.cpp:"), "%s", lines[0].c_str());
}

Test(emu_checks_memory, findings_so_far_are_written_when_the_kernel_crashes)
{
    std::string diag = diag_of_crash([] { launch_race_then_store(nullptr); });
    cr_assert_eq(lines_starting(diag, "error\tinvalid-address\t").size(), 1u, "%s", diag.c_str());
    std::vector<std::string> races = lines_starting(diag, "error\trace\t");
    cr_assert_eq(races.size(), 1u, "%s", diag.c_str());
    cr_assert(contains(races[0], "Race on shared last_writer (element 0, byte offset 0)"), "%s", races[0].c_str());
    cr_assert(contains(races[0], "both write it, at 0x"), "raw addresses: %s", races[0].c_str());
}

Test(emu_checks_memory, race_between_writes_after_a_normal_end)
{
    int *out;
    cudaMalloc(&out, sizeof(int));
    std::string diag = captured([&] { launch_race_then_store(out); });
    std::vector<std::string> races = lines_starting(diag, "error\trace\t");
    cr_assert_eq(races.size(), 1u, "%s", diag.c_str());
    std::string line = at("check_kernels_memory.cpp", g_lines.racy_write);
    cr_assert(contains(races[0], "both write it, at " + line + " and " + line), "%s", races[0].c_str());
    cr_assert(contains(races[0], "(63 times in this launch)"), "%s", races[0].c_str());
    cudaFree(out);
}
