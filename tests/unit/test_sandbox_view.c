/* test_sandbox_view.c - what a sandboxed child sees (grader/run/sandbox.c,
 * runner.c): the system and the paths it is given, never the checkout, the
 * TA's home or another folder of /tmp; only its own folder writable; no
 * network; an environment without LD_PRELOAD or the TA's variables; only
 * the GPU it is given; and the report channel as descriptor 3, written to a
 * file outside its view. */
#include <criterion/criterion.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "run/runner.h"
#include "run/sandbox.h"
#include "util/util.h"

typedef struct {
    char dir[64];     /* the run's folder: its cwd */
    char report[96];  /* next to it, outside its view */
    char secret[96];  /* next to it, not shown */
} view_t;

static void make_view(view_t *v)
{
    if (!sandbox_available())
        cr_skip_test("bubblewrap is not usable here");
    snprintf(v->dir, sizeof v->dir, "/tmp/cugrade-view-XXXXXX");
    cr_assert_not_null(mkdtemp(v->dir));
    snprintf(v->report, sizeof v->report, "%s.report", v->dir);
    snprintf(v->secret, sizeof v->secret, "%s.secret", v->dir);
    cr_assert_eq(write_file_atomic(v->secret, "expected 42\n", 12, NULL, 0), 0);
}

static run_result_t run_in_view(const view_t *v, const char *script, const char *const *ro)
{
    char *argv[] = {"/bin/sh", "-c", (char *)script, NULL};
    /* a shell script forks: the jail's tool policy (a lab program's has no fork) */
    run_spec_t spec = {.argv = argv, .cwd = v->dir, .timeout_s = 30, .sandboxed = 1, .tool = 1,
                       .report_path = v->report, .ro_paths = ro};
    run_result_t r;
    run_one(&spec, &r);
    return r;
}

static void drop_view(view_t *v)
{
    rm_rf(v->dir);
    unlink(v->report);
    unlink(v->secret);
}

Test(sandbox_view, the_checkout_and_other_folders_are_not_there, .timeout = 60)
{
    view_t v;
    make_view(&v);
    char cwd[1024], script[8192];
    cr_assert_not_null(getcwd(cwd, sizeof cwd));
    snprintf(script, sizeof script,
             "for p in '%s/reference' '%s/datasets' '%s' /root /home '%s'; do "
             "  if [ -e \"$p\" ]; then echo \"SEEN $p\"; fi; done; echo looked",
             cwd, cwd, cwd, v.secret);
    run_result_t r = run_in_view(&v, script, NULL);
    cr_assert(r.exited && r.exit_code == 0, "%s", r.output);
    cr_assert(strstr(r.output, "looked"), "%s", r.output);
    cr_assert_null(strstr(r.output, "SEEN"), "%s", r.output);
    run_result_free(&r);
    drop_view(&v);
}

Test(sandbox_view, only_its_own_folder_is_writable_and_given_paths_are_read_only, .timeout = 60)
{
    view_t v;
    make_view(&v);
    const char *const ro[] = {v.secret, NULL};
    char script[512];
    snprintf(script, sizeof script,
             "echo mine > own.txt && cat own.txt; cat '%s'; "
             "echo forged > '%s' 2>/dev/null && echo WROTE-SECRET; "
             "echo x > /usr/cugrade-x 2>/dev/null && echo WROTE-USR; exit 0",
             v.secret, v.secret);
    run_result_t r = run_in_view(&v, script, ro);
    cr_assert(r.exited && r.exit_code == 0, "%s", r.output);
    cr_assert(strstr(r.output, "mine\n") && strstr(r.output, "expected 42\n"), "%s", r.output);
    cr_assert_null(strstr(r.output, "WROTE"), "%s", r.output);
    char *secret = read_file(v.secret, NULL, NULL, 0);
    cr_assert_str_eq(secret, "expected 42\n");
    free(secret);
    run_result_free(&r);
    drop_view(&v);
}

Test(sandbox_view, no_network_but_loopback, .timeout = 60)
{
    view_t v;
    make_view(&v);
    run_result_t r = run_in_view(&v, "tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d ' '", NULL);
    cr_assert(r.exited && r.exit_code == 0, "%s", r.output);
    cr_assert_str_eq(r.output, "lo\n");
    run_result_free(&r);
    drop_view(&v);
}

Test(sandbox_view, the_environment_is_cleaned, .timeout = 60)
{
    view_t v;
    make_view(&v);
    setenv("LD_PRELOAD", "/tmp/evil.so", 1);
    setenv("TA_SECRET_TOKEN", "hunter2", 1);
    run_result_t r = run_in_view(&v, "env", NULL);
    unsetenv("LD_PRELOAD");
    unsetenv("TA_SECRET_TOKEN");
    cr_assert(r.exited && r.exit_code == 0, "%s", r.output);
    cr_assert_null(strstr(r.output, "LD_PRELOAD"), "%s", r.output);
    cr_assert_null(strstr(r.output, "hunter2"), "%s", r.output);
    cr_assert(strstr(r.output, "HOME=/tmp\n") && strstr(r.output, "PATH="), "%s", r.output);
    run_result_free(&r);
    drop_view(&v);
}

/* CUGRADE_EMU_PCH=off reaches bin/emucc in the compile jail (the precompiled
 * header turned off for a batch, docs/emulator.md). */
Test(sandbox_view, the_emulators_header_switch_is_kept, .timeout = 60)
{
    view_t v;
    make_view(&v);
    setenv("CUGRADE_EMU_PCH", "off", 1);
    run_result_t r = run_in_view(&v, "echo \"pch=$CUGRADE_EMU_PCH\"", NULL);
    unsetenv("CUGRADE_EMU_PCH");
    cr_assert(r.exited && r.exit_code == 0, "%s", r.output);
    cr_assert_str_eq(r.output, "pch=off\n");
    run_result_free(&r);
    drop_view(&v);
}

Test(sandbox_view, cuda_contexts_get_one_work_queue_unless_the_ta_says_otherwise, .timeout = 60)
{
    view_t v;
    make_view(&v);
    const char *script = "echo \"queues=$CUDA_DEVICE_MAX_CONNECTIONS\"";
    unsetenv("CUDA_DEVICE_MAX_CONNECTIONS");
    run_result_t r = run_in_view(&v, script, NULL);
    cr_assert(r.exited && r.exit_code == 0, "%s", r.output);
    cr_assert_str_eq(r.output, "queues=1\n");
    run_result_free(&r);
    setenv("CUDA_DEVICE_MAX_CONNECTIONS", "4", 1);
    r = run_in_view(&v, script, NULL);
    unsetenv("CUDA_DEVICE_MAX_CONNECTIONS");
    cr_assert(r.exited && r.exit_code == 0, "%s", r.output);
    cr_assert_str_eq(r.output, "queues=4\n");
    run_result_free(&r);
    drop_view(&v);
}

Test(sandbox_view, only_the_given_gpus_device_file_is_shown_beside_the_drivers)
{
    const char *shared[] = {"nvidiactl", "nvidia-uvm", "nvidia-uvm-tools", "nvidia-modeset",
                            "nvidia-caps", NULL};
    for (int i = 0; shared[i]; i++) {
        cr_assert(sandbox_device_shown(shared[i], NULL), "%s", shared[i]);
        cr_assert(sandbox_device_shown(shared[i], "/dev/nvidia2"), "%s is shared", shared[i]);
    }
    cr_assert(sandbox_device_shown("nvidia0", NULL) && sandbox_device_shown("nvidia3", NULL));
    cr_assert(sandbox_device_shown("nvidia2", "/dev/nvidia2"));
    cr_assert(!sandbox_device_shown("nvidia0", "/dev/nvidia2"));
    cr_assert(!sandbox_device_shown("nvidia3", "/dev/nvidia2"));
    cr_assert(!sandbox_device_shown("nvidia21", "/dev/nvidia2"));
    cr_assert(!sandbox_device_shown("null", NULL) && !sandbox_device_shown("sda", "/dev/nvidia2"));
}

/* $CUGRADE_GPU_NODE that is not a GPU's device file here (a typo, a GPU
 * gone) changes nothing: the run keeps the GPU the grader chose for it. */
Test(sandbox_view, a_gpu_node_that_is_not_there_changes_nothing, .timeout = 60)
{
    view_t v;
    make_view(&v);
    const char *nodes[] = {"/dev/null", "/dev/nvidia95", "/tmp/nvidia0", NULL};
    setenv("CUDA_VISIBLE_DEVICES", "3", 1);
    for (int i = 0; nodes[i]; i++) {
        setenv("CUGRADE_GPU_NODE", nodes[i], 1);
        run_result_t r = run_in_view(&v, "echo \"visible=$CUDA_VISIBLE_DEVICES\"", NULL);
        cr_assert(r.exited && r.exit_code == 0, "%s", r.output);
        cr_assert_str_eq(r.output, "visible=3\n", "with %s", nodes[i]);
        run_result_free(&r);
    }
    unsetenv("CUGRADE_GPU_NODE");
    unsetenv("CUDA_VISIBLE_DEVICES");
    drop_view(&v);
}

/* How many times argv has the words a, b, c in a row. */
static int count_in_row(char **argv, const char *a, const char *b, const char *c)
{
    int n = 0;
    for (int i = 0; argv[i] && argv[i + 1] && argv[i + 2]; i++)
        n += strcmp(argv[i], a) == 0 && strcmp(argv[i + 1], b) == 0 && strcmp(argv[i + 2], c) == 0;
    return n;
}

/* Stand-in GPU device files (character devices like /dev/null) in a folder
 * of this test's own, where root may make them: the sandbox is to bind the
 * one named and the driver's shared one, not the other GPU's, and to unset
 * CUDA_VISIBLE_DEVICES. */
Test(sandbox_view, a_gpu_node_is_bound_alone_and_cuda_visible_devices_unset, .timeout = 60)
{
    view_t v;
    make_view(&v);
    char devs[128], path[3][192];
    snprintf(devs, sizeof devs, "%s.dev", v.dir);
    cr_assert_eq(mkdir(devs, 0755), 0);
    const char *names[] = {"nvidia0", "nvidia1", "nvidiactl"};
    for (int i = 0; i < 3; i++) {
        snprintf(path[i], sizeof path[i], "%s/%s", devs, names[i]);
        if (geteuid() != 0 || mknod(path[i], S_IFCHR | 0666, makedev(1, 3)) != 0) {
            rm_rf(devs);
            drop_view(&v);
            cr_skip_test("cannot make stand-in device files here (needs root)");
        }
    }
    sandbox_use_device_dir(devs);
    char *program[] = {"/bin/true", NULL};
    setenv("CUGRADE_GPU_NODE", path[1], 1);
    char **argv = sandbox_wrap_argv(program, v.dir, NULL, NULL, NULL);
    cr_assert_not_null(argv);
    cr_assert_eq(count_in_row(argv, "--dev-bind", path[1], path[1]), 1, "its GPU");
    cr_assert_eq(count_in_row(argv, "--dev-bind", path[2], path[2]), 1, "the shared file");
    cr_assert_eq(count_in_row(argv, "--dev-bind", path[0], path[0]), 0, "another GPU");
    cr_assert_eq(count_in_row(argv, "--unsetenv", "CUDA_VISIBLE_DEVICES", "--chdir"), 1);
    sandbox_argv_free(argv);
    unsetenv("CUGRADE_GPU_NODE"); /* without it: every GPU, and the grader's choice kept */
    argv = sandbox_wrap_argv(program, v.dir, NULL, NULL, NULL);
    for (int i = 0; i < 3; i++)
        cr_assert_eq(count_in_row(argv, "--dev-bind", path[i], path[i]), 1, "%s", path[i]);
    cr_assert_eq(count_in_row(argv, "--unsetenv", "CUDA_VISIBLE_DEVICES", "--chdir"), 0);
    sandbox_argv_free(argv);
    /* a program whose device is the executor's (vgpu) is shown no GPU at all */
    sandbox_how_t no_gpu = {.no_gpu = 1};
    setenv("CUGRADE_GPU_NODE", path[1], 1);
    argv = sandbox_wrap_argv(program, v.dir, NULL, NULL, &no_gpu);
    for (int i = 0; i < 3; i++)
        cr_assert_eq(count_in_row(argv, "--dev-bind", path[i], path[i]), 0, "%s", path[i]);
    sandbox_argv_free(argv);
    unsetenv("CUGRADE_GPU_NODE");
    sandbox_use_device_dir(NULL);
    rm_rf(devs);
    drop_view(&v);
}

Test(sandbox_view, the_report_channel_is_descriptor_3_and_lands_outside, .timeout = 60)
{
    view_t v;
    make_view(&v);
    run_result_t r = run_in_view(&v, "echo \"fd=$CUGRADE_REPORT_FD\"; echo 'stat\tk\t1' >&3; ls -A", NULL);
    cr_assert(r.exited && r.exit_code == 0, "%s", r.output);
    cr_assert(strstr(r.output, "fd=3\n"), "%s", r.output);
    cr_assert_null(strstr(r.output, ".report"), "the report file is not in its folder: %s", r.output);
    char *report = read_file(v.report, NULL, NULL, 0);
    cr_assert_not_null(report);
    cr_assert_str_eq(report, "stat\tk\t1\n");
    free(report);
    run_result_free(&r);
    drop_view(&v);
}

/* An nvcc at <base>/<where>/bin/nvcc, first on PATH, and a file next to its
 * bin/; with toolkit, the folder also has include/cuda_runtime.h. */
static void fake_nvcc(const char *base, const char *where, int toolkit, char *beside, size_t len)
{
    char p[PATH_MAX];
    snprintf(p, sizeof p, "%s/%s/bin/nvcc", base, where);
    cr_assert_eq(mkdir_p(p, NULL, 0) == 0 && rmdir(p) == 0, 1);
    cr_assert_eq(write_file_atomic(p, "#!/bin/sh\n", 10, NULL, 0), 0);
    chmod(p, 0755);
    if (toolkit) {
        snprintf(p, sizeof p, "%s/%s/include/cuda_runtime.h", base, where);
        cr_assert_eq(mkdir_p(p, NULL, 0) == 0 && rmdir(p) == 0, 1);
        cr_assert_eq(write_file_atomic(p, "\n", 1, NULL, 0), 0);
    }
    snprintf(beside, len, "%s/%s/beside.txt", base, where);
    cr_assert_eq(write_file_atomic(beside, "x\n", 2, NULL, 0), 0);
    char path[8192];
    snprintf(path, sizeof path, "%s/%s/bin:%s", base, where, getenv("PATH"));
    setenv("PATH", path, 1);
}

/* nvcc's toolkit is shown (compute-sanitizer, cuBLAS live there), but only
 * when the folder above its bin/ is one: an nvcc in ~/.local/bin must not
 * show the TA's ~/.local. */
Test(sandbox_view, nvcc_shows_its_toolkit_only_when_it_is_one, .timeout = 60)
{
    view_t v;
    make_view(&v);
    char base[64], beside[PATH_MAX], script[PATH_MAX + 64];
    snprintf(base, sizeof base, "/tmp/cugrade-nvcc-XXXXXX");
    cr_assert_not_null(mkdtemp(base));
    for (int toolkit = 0; toolkit < 2; toolkit++) {
        fake_nvcc(base, toolkit ? "cuda-13.0" : "home/.local", toolkit, beside, sizeof beside);
        snprintf(script, sizeof script, "cat '%s' 2>/dev/null && echo SEEN; exit 0", beside);
        run_result_t r = run_in_view(&v, script, NULL);
        cr_assert(r.exited && r.exit_code == 0, "%s", r.output);
        if (toolkit)
            cr_assert(strstr(r.output, "SEEN"), "the toolkit is not shown: %s", r.output);
        else
            cr_assert_null(strstr(r.output, "SEEN"), "~/.local is shown: %s", r.output);
        run_result_free(&r);
    }
    rm_rf(base);
    drop_view(&v);
}

/* A folder both shown (a submission's own, to its compiler) and hidden as
 * the results folder of a lone `cugrade run` writing there too stays shown,
 * read-only: before, which of the two mounts came last was qsort's choice,
 * and the compiler could find no file at all. A hidden folder inside a shown
 * one is still covered, and so is a folder hidden as a secret. */
Test(sandbox_view, a_folder_shown_and_hidden_stays_shown_read_only, .timeout = 60)
{
    view_t v;
    make_view(&v);
    char shown[96], inner[128], file[160], script[1024];
    snprintf(shown, sizeof shown, "%s.shown", v.dir);
    snprintf(inner, sizeof inner, "%s/results", shown);
    cr_assert_eq(mkdir_p(inner, NULL, 0), 0);
    snprintf(file, sizeof file, "%s/matmul.cu", shown);
    cr_assert_eq(write_file_atomic(file, "kernel\n", 7, NULL, 0), 0);
    snprintf(file, sizeof file, "%s/old.json", inner);
    cr_assert_eq(write_file_atomic(file, "{}\n", 3, NULL, 0), 0);
    sandbox_set_results_dir(shown);
    sandbox_hide_dir(inner);
    const char *const ro[] = {shown, NULL};
    snprintf(script, sizeof script,
             "cat '%s/matmul.cu'; [ -e '%s/old.json' ] && echo SEEN-INNER; "
             "echo x > '%s/forged' 2>/dev/null && echo WROTE; exit 0",
             shown, inner, shown);
    for (int k = 0; k < 5; k++) { /* whatever order the mounts are sorted in */
        run_result_t r = run_in_view(&v, script, ro);
        cr_assert(r.exited && r.exit_code == 0, "%s", r.output);
        cr_assert(strstr(r.output, "kernel\n"), "the shown file is not there: %s", r.output);
        cr_assert_null(strstr(r.output, "SEEN-INNER"), "%s", r.output);
        cr_assert_null(strstr(r.output, "WROTE"), "%s", r.output);
        run_result_free(&r);
    }
    /* a folder of secrets (datasets/, reference/) is covered even when shown */
    sandbox_hide_dir(shown);
    run_result_t r = run_in_view(&v, script, ro);
    cr_assert(r.exited && r.exit_code == 0, "%s", r.output);
    cr_assert_null(strstr(r.output, "kernel\n"), "a secret folder was shown: %s", r.output);
    run_result_free(&r);
    rm_rf(shown);
    drop_view(&v);
}
