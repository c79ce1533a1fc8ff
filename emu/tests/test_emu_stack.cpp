/* test_emu_stack.cpp - a kernel thread that overflows its fiber stack hits
 * the guard region: the process dies by SIGSEGV after writing a
 * stack-overflow diagnostic; any other segfault in a kernel is left alone
 * (same signal, no stack-overflow line). Each case runs in a child. */
#include <criterion/criterion.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include "emu_test_helpers.h"

__device__ __noinline__ int recurse(int depth)
{
    volatile char pad[256];
    pad[0] = char(depth);
    if (depth == 0)
        return pad[0];
    return recurse(depth - 1) + pad[0];
}

__global__ void deep_recursion(int *out, int depth) { out[threadIdx.x] = recurse(depth); }

__global__ void wild_write(int *base) { base[threadIdx.x * 1024] = 1; }

/* Runs the launch in a child; returns its wait status. */
template <class F> static int run_in_child(F launch)
{
    pid_t pid = fork();
    if (pid == 0) {
        struct rlimit no_core = {0, 0};
        setrlimit(RLIMIT_CORE, &no_core);
        launch();
        _exit(0);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    return status;
}

Test(emu_stack, small_recursion_is_fine)
{
    int *out;
    cudaMallocManaged(&out, 4 * sizeof(int));
    ::cugrade::kernel_launch(deep_recursion, "deep_recursion", __FILE__, __LINE__).config(1, 4)(out, 20);
    cr_assert_eq(cudaGetLastError(), cudaSuccess);
    cr_assert_eq(out[3], 20 * 21 / 2);
}

Test(emu_stack, overflow_is_reported_then_the_process_dies)
{
    use_schedule("forward"); /* thread (0,0,0) overflows first */
    std::string path = use_scratch_diag_file();
    int status = run_in_child([] {
        int *out;
        cudaMallocManaged(&out, 4 * sizeof(int));
        ::cugrade::kernel_launch(deep_recursion, "deep_recursion", __FILE__, __LINE__).config(1, 4)(out, 100000);
    });
    cr_assert(WIFSIGNALED(status), "status %#x", status);
    cr_assert_eq(WTERMSIG(status), SIGSEGV);
    std::string diag = read_file(path);
    cr_assert_eq(count_lines(diag, "error\tstack-overflow\tKernel deep_recursion launched at "), 1u, "%s",
                 diag.c_str());
    cr_assert(diag.find("kernel thread stack overflow") != std::string::npos, "%s", diag.c_str());
    cr_assert(diag.find("thread (0,0,0) of block (0,0,0)") != std::string::npos, "%s", diag.c_str());
}

Test(emu_stack, other_segfaults_are_untouched)
{
    std::string path = use_scratch_diag_file();
    int status = run_in_child([] {
        ::cugrade::kernel_launch(wild_write, "wild_write", __FILE__, __LINE__).config(1, 4)((int *)nullptr);
    });
    cr_assert(WIFSIGNALED(status), "status %#x", status);
    cr_assert_eq(WTERMSIG(status), SIGSEGV);
    std::string diag = read_file(path);
    cr_assert_eq(count_lines(diag, "error\tstack-overflow"), 0u, "%s", diag.c_str());
}
