/* test_emucc_sgemm.c - a challenge-style kernel end to end: emu/tests/
 * sgemm_hier.cu (64x64 block tiles in dynamic shared memory, 4x4 outputs
 * per thread, float4 loads and stores, __pipeline_memcpy_async into a ring
 * of 2 or 3 stages, __launch_bounds__, #pragma unroll, cudaFuncSetAttribute
 * for 52 KiB) built with bin/emucc -Wall -Wextra -Werror multiplies
 * 128x128x128, an uneven 100x70x33 and 512x512x512 right under forward,
 * reverse and shuffled schedules; built with --checks it has no finding;
 * without its __pipeline_wait_prior it reads stale tiles (wrong products,
 * and a race with the copies in the checking mode); without the attribute,
 * or with 512 threads against its __launch_bounds__(256), the launch fails
 * with cudaErrorInvalidValue; and nvcc -arch=sm_90 -c compiles the same
 * file (skipped where there is no nvcc). */
#include "rewrite_test_helpers.h"

/* Builds sgemm_hier.cu with emucc and the extra flags into dir/name. */
static void build(const char *dir, const char *name, const char *flags)
{
    static char out[65536];
    char *root = repo_root();
    char *emucc = strf("%s/bin/emucc", root);
    if (access(emucc, X_OK) != 0)
        cr_skip_test("bin/emucc is not built");
    char *cmd = strf("env -u CUGRADE_ROOT '%s' %s -Wall -Wextra -Werror '%s/emu/tests/sgemm_hier.cu' -o '%s/%s'", emucc,
                     flags, root, dir, name);
    int rc = run_shell(cmd, out, sizeof out);
    cr_assert_eq(rc, 0, "%s\n%s", cmd, out);
    free(cmd);
    free(emucc);
    free(root);
}

/* Runs dir/name with args under a schedule, diagnostics to dir/diag;
 * returns the exit status, its output in out. */
static int run(const char *dir, const char *name, const char *schedule, const char *args, char *out, size_t len)
{
    char *cmd = strf("rm -f '%s/diag' && CUGRADE_EMU_SCHEDULE=%s CUGRADE_EMU_DIAG='%s/diag' '%s/%s' %s", dir, schedule,
                     dir, dir, name, args);
    int rc = run_shell(cmd, out, len);
    free(cmd);
    return rc;
}

/* The diagnostics file of the last run. */
static char *diag_of(const char *dir)
{
    static char out[65536];
    char *cmd = strf("cat '%s/diag' 2>/dev/null || true", dir);
    run_shell(cmd, out, sizeof out);
    free(cmd);
    return out;
}

static void expect_products(const char *dir, const char *name, const char *schedule)
{
    static const char *const shapes[][2] = {
        {"128 128 128", "C = A * B for 128x128x128: 0 of 16384 elements wrong"},
        {"100 70 33", "C = A * B for 100x70x33: 0 of 7000 elements wrong"},
    };
    char out[65536];
    for (size_t i = 0; i < sizeof shapes / sizeof *shapes; i++) {
        int rc = run(dir, name, schedule, shapes[i][0], out, sizeof out);
        cr_assert_eq(rc, 0, "%s %s (%s): %s", name, shapes[i][0], schedule, out);
        cr_assert(strstr(out, shapes[i][1]), "%s", out);
        cr_assert_null(strstr(diag_of(dir), "error\t"), "%s %s (%s): %s", name, shapes[i][0], schedule, diag_of(dir));
    }
}

Test(sgemm, three_stage_build_multiplies_right, .timeout = 300)
{
    char out[65536];
    char *dir = make_temp_dir();
    build(dir, "sgemm", "");
    expect_products(dir, "sgemm", "forward");
    expect_products(dir, "sgemm", "reverse");
    expect_products(dir, "sgemm", "shuffle:3");
    int rc = run(dir, "sgemm", "forward", "512 512 512", out, sizeof out);
    cr_assert(rc == 0 && strstr(out, "0 of 262144 elements wrong"), "%s", out);
    remove_dir(dir);
}

Test(sgemm, double_buffered_build_multiplies_right, .timeout = 300)
{
    char *dir = make_temp_dir();
    build(dir, "sgemm2", "-DSTAGES=2");
    expect_products(dir, "sgemm2", "forward");
    expect_products(dir, "sgemm2", "reverse");
    remove_dir(dir);
}

Test(sgemm, reading_tiles_before_the_wait_gives_stale_data, .timeout = 300)
{
    char out[65536];
    char *dir = make_temp_dir();
    build(dir, "sgemm", "");
    int rc = run(dir, "sgemm", "forward", "100 70 33 --skip-wait", out, sizeof out);
    cr_assert_eq(rc, 1, "%s", out);
    cr_assert(strstr(out, ": 7000 of 7000 elements wrong"), "every tile read before it landed: %s", out);
    remove_dir(dir);
}

Test(sgemm, launches_a_gpu_refuses_fail, .timeout = 300)
{
    char out[65536];
    char *dir = make_temp_dir();
    build(dir, "sgemm", "");
    int rc = run(dir, "sgemm", "forward", "128 128 128 --no-attribute", out, sizeof out);
    cr_assert(rc == 2 && strstr(out, "the launch failed: cudaErrorInvalidValue"), "%s", out);
    cr_assert(strstr(diag_of(dir), "52224 bytes of dynamic shared memory, more than the 49152 bytes a block may use "
                                   "unless cudaFuncSetAttribute(sgemm_hier, "),
              "%s", diag_of(dir));
    rc = run(dir, "sgemm", "forward", "128 128 128 --block 512", out, sizeof out);
    cr_assert(rc == 2 && strstr(out, "the launch failed: cudaErrorInvalidValue"), "%s", out);
    cr_assert(strstr(diag_of(dir), "block (512,1,1) has 512 threads, more than the 256 that the kernel's "
                                   "__launch_bounds__ allows"),
              "%s", diag_of(dir));
    remove_dir(dir);
}

Test(sgemm, checked_build_finds_nothing_in_the_kernel_and_the_race_without_the_wait, .timeout = 300)
{
    char out[65536];
    char *dir = make_temp_dir();
    build(dir, "sgemm_checked", "--checks");
    expect_products(dir, "sgemm_checked", "forward");
    cr_assert(strstr(diag_of(dir), "stat\tshared_staged_loads\t"), "%s", diag_of(dir));
    int rc = run(dir, "sgemm_checked", "reverse", "100 70 33 --skip-wait", out, sizeof out);
    cr_assert_eq(rc, 1, "%s", out);
    const char *diag = diag_of(dir);
    cr_assert(strstr(diag, "error\trace\tRace on the dynamic shared memory (element "), "%s", diag);
    cr_assert(strstr(diag, "while the asynchronous copy into it that thread ("), "%s", diag);
    cr_assert(strstr(diag, "sgemm_hier.cu:"), "%s", diag);
    cr_assert_null(strstr(diag, "uninit-shared"), "%s", diag);
    remove_dir(dir);
}

Test(sgemm, nvcc_compiles_the_same_file, .timeout = 300)
{
    char out[65536];
    const char *env = getenv("CUGRADE_NVCC");
    char *nvcc = strf("%s", env && *env ? env : "/usr/local/cuda/bin/nvcc");
    if (access(nvcc, X_OK) != 0) {
        run_shell("command -v nvcc", out, sizeof out);
        if (!out[0])
            cr_skip_test("no nvcc here");
        out[strcspn(out, "\n")] = '\0';
        nvcc = strf("%s", out);
    }
    char *root = repo_root(), *dir = make_temp_dir();
    char *cmd = strf("'%s' -arch=sm_90 -Werror all-warnings -c '%s/emu/tests/sgemm_hier.cu' -o '%s/sgemm.o' && "
                     "'%s' -arch=sm_90 -DSTAGES=2 -c '%s/emu/tests/sgemm_hier.cu' -o '%s/sgemm2.o'",
                     nvcc, root, dir, nvcc, root, dir);
    int rc = run_shell(cmd, out, sizeof out);
    remove_dir(dir);
    cr_assert_eq(rc, 0, "%s\n%s", cmd, out);
}
