/* test_emu_stack.cpp - a kernel thread that overflows its fiber stack hits
 * the guard region: the process dies by SIGSEGV after writing a
 * stack-overflow diagnostic; any other segfault in a kernel is left alone
 * (same signal, no stack-overflow line), and one that a handler installed
 * before the emulator's goes back from leaves the guard in place. Each case
 * runs in a child. */
#include <criterion/criterion.h>
#include <csetjmp>
#include <csignal>
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

/* A handler installed before the emulator's, as the list mode's is
 * (labs/common/harness_crash.h): it goes back once (unblocking the signal, as
 * that one does), then takes the default. */
static jmp_buf g_back;
static volatile int g_went_back;

static void go_back(int sig, siginfo_t *, void *)
{
    if (!g_went_back) {
        g_went_back = 1;
        sigset_t set; /* the emulator's handler, which called this one, had it blocked */
        sigemptyset(&set);
        sigaddset(&set, sig);
        sigprocmask(SIG_UNBLOCK, &set, nullptr);
        longjmp(g_back, 1);
    }
    signal(sig, SIG_DFL);
}

Test(emu_stack, a_handler_that_goes_back_leaves_the_guard_in_place)
{
    use_schedule("forward");
    std::string path = use_scratch_diag_file();
    int status = run_in_child([] {
        struct sigaction action {};
        action.sa_sigaction = go_back;
        action.sa_flags = SA_SIGINFO | SA_NODEFER;
        sigemptyset(&action.sa_mask);
        sigaction(SIGSEGV, &action, nullptr);
        int *out;
        cudaMallocManaged(&out, 4 * sizeof(int));
        /* the first launch installs the guard, which passes other faults on */
        ::cugrade::kernel_launch(deep_recursion, "deep_recursion", __FILE__, __LINE__).config(1, 4)(out, 20);
        if (setjmp(g_back) == 0) {
            volatile int *null_host = nullptr;
            *null_host = 1; /* a host crash: passed on, and go_back goes back */
            _exit(3);
        }
        if (!g_went_back)
            _exit(4);
        /* the guard still reports the overflow */
        ::cugrade::kernel_launch(deep_recursion, "deep_recursion", __FILE__, __LINE__).config(1, 4)(out, 100000);
        _exit(5);
    });
    cr_assert(WIFSIGNALED(status), "status %#x (3: the host fault went on, 4: no handler ran, 5: no overflow)",
              status);
    cr_assert_eq(WTERMSIG(status), SIGSEGV);
    std::string diag = read_file(path);
    cr_assert_eq(count_lines(diag, "error\tstack-overflow\tKernel deep_recursion launched at "), 1u,
                 "the guard was gone after the handler went back:\n%s", diag.c_str());
}
