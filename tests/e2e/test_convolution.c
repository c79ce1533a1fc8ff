/* test_convolution.c - end to end, lab convolution (issue 41): a tiled 2-D
 * convolution whose mask the launch function copies into constant memory
 * (cudaMemcpyToSymbol, device to device). The reference gets full marks on
 * the emulator and on the executor, whose runtime asks it for the
 * module's variable by name, and on a (pretend) GPU that replays the
 * executor's records, which name the variable for the GPU's module to
 * give ("global ID BYTES Mc"); the stub gets nothing. Runs from the
 * repository root. */
#include "e2e.h"


Test(convolution, the_reference_gets_full_marks_with_its_mask_in_constant_memory, .timeout = 300)
{
    const char *backends[] = {"emu", "vgpu"};
    const char *full[] = {"Score: 76 / 76   (8 of 8", "Score: 80 / 80   (8 of 8"}; /* uses-constant-memory: the executor's */
    for (int b = 0; b < 2; b++) {
        graded_t g = grade_lab_on(backends[b], "convolution", "reference/convolution/convolution.cu", NULL);
        cr_assert(strstr(g.run.output, full[b]), "%s: %s", backends[b], g.run.output);
        cr_assert_str_eq(str(test_named(&g, "dataset 6 "), "name"), "dataset 6 (height=257 width=130 mask=7)");
        release(&g);
    }
    graded_t g = grade_lab_on("vgpu", "convolution", "student/convolution/convolution.cu", NULL);
    cr_assert(strstr(g.run.output, "Score: 0 / 80"), "%s", g.run.output);
    release(&g);
}

/* The mask read from global memory: right everywhere, uses-constant-memory failed with the fix on
 * the executor (it counts ld.const); on the CPU emulator, whose __constant__ is host memory, 0 of 0 */
Test(convolution, a_mask_in_global_memory_fails_uses_constant_memory, .timeout = 300)
{
    graded_t g = grade_lab_on("vgpu", "convolution", "tests/submissions/convolution/mask_in_global.cu", NULL);
    json_object *c = test_named(&g, "uses-constant-memory");
    cr_assert(!passed(c));
    cr_assert(strstr(str(c, "output"), "never read a __constant__ variable") &&
              strstr(str(c, "output"), "cudaMemcpyToSymbol"), "%s", str(c, "output"));
    cr_assert(strstr(g.run.output, "Score: 76 / 80   (8 of 8 datasets"), "%s", g.run.output);
    release(&g);
    g = grade_lab_on("vgpu", "convolution", "reference/convolution/convolution.cu", NULL);
    cr_assert(strstr(str(test_named(&g, "uses-constant-memory"), "output"), "passed: the kernels read"), "%s",
              g.run.output);
    release(&g);
    g = grade_lab_on("emu", "convolution", "tests/submissions/convolution/mask_in_global.cu", NULL);
    c = test_named(&g, "uses-constant-memory");
    cr_assert_float_eq(num(c, "max_score"), 0, 0);
    cr_assert(strstr(str(c, "output"), "not scored on the CPU emulator (0 of 0; 4 points"), "%s", str(c, "output"));
    release(&g);
}

/* the halo left out: named by the lab's own diagnosis (labs/convolution/gen.c lab_explain) */
Test(convolution, a_tile_without_its_halo_is_named, .timeout = 300)
{
    graded_t g = grade_lab_on("vgpu", "convolution", "tests/submissions/convolution/no_halo.cu", NULL);
    cr_assert(passed(test_named(&g, "dataset 0 ")), "1 x 1: all its halo is outside the image");
    json_object *d2 = test_named(&g, "dataset 2 "), *extra, *failure;
    cr_assert(!passed(d2));
    cr_assert(strstr(str(d2, "output"), "hint: every output cell sums only the image cells inside its own 16 x 16 "
                                        "tile: the halo"), "%s", str(d2, "output"));
    cr_assert(json_object_object_get_ex(d2, "extra_data", &extra) && json_object_object_get_ex(extra, "failure", &failure));
    cr_assert_str_eq(json_object_get_string(failure), "hypothesis:no-halo");
    release(&g);
}

Test(convolution, the_replay_finds_the_mask_in_the_gpus_module, .timeout = 300)
{
    char root[PATH_MAX], runner[PATH_MAX + 64], log[] = "/tmp/cugrade-conv-log-XXXXXX", logenv[96];
    cr_assert_not_null(getcwd(root, sizeof root));
    int fd = mkstemp(log);
    cr_assert(fd >= 0);
    close(fd);
    snprintf(runner, sizeof runner, "CUGRADE_REPLAY=%s/tests/fixtures/replay_on_executor", root);
    snprintf(logenv, sizeof logenv, "FAKE_GPU_LOG=%s", log);
    char *env[] = {runner, "FAKE_GPU=same", logenv, NULL};
    const char *extra[] = {"--lab", "convolution", "--keep", NULL};
    graded_t g = grade_on("vgpu", "reference/convolution/convolution.cu", extra, env);
    cr_assert_eq(exit_code(&g), 0, "%s", g.run.output);
    /* the performance too: the timing shape's record replayed beside the reference's (pretend times) */
    cr_assert(strstr(g.run.output, "Score: 90 / 90"), "%s", g.run.output);
    char cmd[256];
    snprintf(cmd, sizeof cmd, "grep -q . %s && xargs grep -l '^global [0-9]* 196 Mc$' < %s | grep -q .", log, log);
    cr_assert_eq(system(cmd), 0, "every dataset replayed, its record naming the mask's variable");
    const char *kept = strstr(g.run.output, "files kept in ");
    if (kept) {
        char dir[PATH_MAX];
        snprintf(dir, sizeof dir, "%.*s", (int)strcspn(kept + 14, "\n"), kept + 14);
        rm_rf(dir);
    }
    release(&g);
    unlink(log);
}
