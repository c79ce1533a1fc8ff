/* test_vgpu_backend.c - end to end on the vgpu backend (issue 39): the
 * student's host code in a sandboxed process of its own, the kernels run
 * by the grader's executor (bin/cugrade-vgpu) from nvcc's PTX. The
 * reference gets full marks; a race is found with its line; what the
 * program does in its own process gains nothing (C computed on the host,
 * statistics forged through stdout pointed at the emulator's report
 * descriptor; libc's write() replaced; a libwb solution computed on the
 * host); and a slow submission
 * gets the same grade on an idle and on a loaded machine, its limit counted
 * in executed instructions, 16 times the reference's. Needs nvcc
 * (the build's compiler); runs from the repository root. */
#include "e2e.h"

#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>

#define VGPU_SUB "tests/submissions/lab3/"

static graded_t grade_vgpu(const char *submission, const char *const *extra)
{
    return grade_on("vgpu", submission, extra, NULL);
}

Test(vgpu_backend, the_reference_gets_full_marks_through_the_executor, .timeout = 300)
{
    graded_t g = grade_vgpu("reference/lab3/matmul.cu", NULL);
    cr_assert_eq(exit_code(&g), 0, "%s", g.run.output);
    cr_assert(strstr(g.run.output, "Score: 110 / 110"), "%s", g.run.output);
    json_object *extra;
    cr_assert(json_object_object_get_ex(g.json, "extra_data", &extra));
    cr_assert_str_eq(str(extra, "backend"), "vgpu");
    cr_assert(strstr(str(test_named(&g, "performance"), "output"), "not scored on the vgpu backend"));
    release(&g);
}

Test(vgpu_backend, a_missing_barrier_is_a_race_the_executor_finds_with_its_line, .timeout = 300)
{
    graded_t g = grade_vgpu(VGPU_SUB "missing_first_barrier.cu", NULL);
    cr_assert_eq(exit_code(&g), 0, "%s", g.run.output);
    json_object *race = test_named(&g, "race-free");
    cr_assert(!passed(race));
    cr_assert(strstr(str(race, "output"), "Race on shared memory in matrixMultiplyShared at "
                                          "missing_first_barrier.cu:"),
              "%s", str(race, "output"));
    cr_assert(strstr(str(test_named(&g, "dataset 0 "), "output"), "executor error (race)"), "%s",
              str(test_named(&g, "dataset 0 "), "output"));
    const char *race_out = str(race, "output"); /* the shared array by the name the student gave it */
    cr_assert(strstr(race_out, "tileA element ") || strstr(race_out, "tileB element "), "%s", race_out);
    release(&g);
}

/* The launch function copies A and B to the host, multiplies there and
 * copies C to the device: every element is right, and none is a kernel's. */
Test(vgpu_backend, a_C_computed_on_the_host_passes_no_dataset, .timeout = 300)
{
    graded_t g = grade_vgpu("emu/tests/vgpu/students/host_launch.cu", NULL);
    cr_assert_eq(exit_code(&g), 0, "%s", g.run.output);
    cr_assert_float_eq(num(g.json, "score"), 0.0, 1e-9, "%s", g.run.output);
    json_object *d0 = test_named(&g, "dataset 0 ");
    cr_assert(!passed(d0));
    cr_assert(strstr(str(d0, "output"), "likely cause: the output was not computed by a kernel"),
              "%s", str(d0, "output"));
    cr_assert(strstr(str(d0, "output"), "C was copied from the host, not computed by a kernel"),
              "%s", str(d0, "output"));
    release(&g);
}

/* The untiled kernel and printf to descriptor 3 (the emulator's report
 * channel) of invented statistics: on the emulator the forgery makes
 * uses-shared-memory pass; here the statistics are the executor's. */
Test(vgpu_backend, statistics_forged_in_the_programs_process_gain_nothing, .timeout = 300)
{
    graded_t honest = grade_vgpu(VGPU_SUB "untiled.cu", NULL);
    graded_t forged = grade_vgpu("tests/attacks/forges_statistics_via_stdout.cu", NULL);
    cr_assert_eq(exit_code(&forged), 0, "%s", forged.run.output);
    cr_assert_float_eq(num(forged.json, "score"), num(honest.json, "score"), 1e-9, "%s",
                       forged.run.output);
    cr_assert_float_eq(num(forged.json, "score"), 102.0, 1e-9, "%s", forged.run.output);
    cr_assert(!passed(test_named(&forged, "uses-shared-memory")));
    cr_assert(!passed(test_named(&forged, "traffic-reduced")));
    release(&honest);
    release(&forged);
}

/* A racy kernel in a file that defines libc's write() to drop everything
 * (on the emulator, the emulator's own findings would go through it): the
 * program's runtime talks to the executor by the system call itself, and
 * the findings are the executor's, so the race is found and the score is
 * the racy kernel's without the forgery. */
Test(vgpu_backend, a_write_of_the_programs_own_changes_nothing, .timeout = 300)
{
    graded_t honest = grade_vgpu(VGPU_SUB "missing_second_barrier.cu", NULL);
    graded_t attack = grade_vgpu("tests/attacks/defines_write.cu", NULL);
    cr_assert_eq(exit_code(&attack), 0, "%s", attack.run.output);
    cr_assert(!passed(test_named(&attack, "race-free")), "%s", attack.run.output);
    cr_assert_float_eq(num(attack.json, "score"), num(honest.json, "score"), 1e-9, "%s",
                       attack.run.output);
    release(&honest);
    release(&attack);
}

/* A libwb program (lab 3-wb) unchanged: its wbSolution goes to the
 * executor, which writes it only when a kernel computed it. The reference
 * gets full marks; a program that computes the solution on the host and
 * hands that to wbSolution passes no dataset (106 on the emulator, which
 * cannot tell). */
Test(vgpu_backend, a_libwb_program_passes_only_with_a_solution_a_kernel_computed, .timeout = 300)
{
    const char *extra[] = {"--lab", "lab3-wb", NULL};
    graded_t ref = grade_vgpu("reference/lab3-wb/template.cu", extra);
    cr_assert_eq(exit_code(&ref), 0, "%s", ref.run.output);
    cr_assert(strstr(ref.run.output, "Score: 110 / 110"), "%s", ref.run.output);
    graded_t host = grade_vgpu("emu/tests/vgpu/wb/host_solution.cu", extra);
    cr_assert_eq(exit_code(&host), 0, "%s", host.run.output);
    cr_assert_float_eq(num(host.json, "score"), 0.0, 1e-9, "%s", host.run.output);
    const char *d0 = str(test_named(&host, "dataset 0 "), "output");
    cr_assert(strstr(d0, "executor error (not-copied-back): The solution handed to wbSolution is not the "
                         "bytes the program read back from device memory a kernel wrote"), "%s", d0);
    release(&ref);
    release(&host);
}

/* An endless kernel on one dataset stops at its budget, which is lab.json's
 * factor (16 for lab 3) times what the reference executes on that dataset,
 * as the executor counted it (the cached count, build/vgpu-<arch>/, kept
 * with the bytes the reference moved). */
Test(vgpu_backend, the_budget_is_sixteen_times_the_references_count, .timeout = 300)
{
    char dir[] = "/tmp/cugrade-vgpu-count-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    const char *shapes[] = {"128x96x112", NULL}; /* 16 times its count is above the floor */
    make_datasets(dir, shapes);
    const char *extra[] = {"--datasets", dir, NULL};
    graded_t g = grade_vgpu(VGPU_SUB "endless_kernel.cu", extra);
    cr_assert_eq(exit_code(&g), 0, "%s", g.run.output);
    const char *out = str(test_named(&g, "dataset 0 "), "output");
    const char *at = strstr(out, "ran past the instruction budget of ");
    cr_assert_not_null(at, "%s", out);
    unsigned long long budget = strtoull(at + strlen("ran past the instruction budget of "), NULL, 10);
    cr_assert_eq(budget % 16, 0, "%llu", budget);
    char cmd[256];
    /* each count file: "INSTRUCTIONS GLOBAL_BYTES SHARED_LOAD_BYTES FLOPS" (the roofline's traffic too) */
    snprintf(cmd, sizeof cmd, "cat build/vgpu-*/labs/lab3/counts/* | grep -qE '^%llu [0-9]+ [0-9]+ [0-9]+$'",
             budget / 16);
    cr_assert_eq(system(cmd), 0, "no count of %llu (the budget %llu / 16) was cached", budget / 16, budget);
    release(&g);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    cr_assert_eq(system(cmd), 0);
}

/* n processes that spin until killed */
static void spin(pid_t *pids, int n)
{
    for (int i = 0; i < n; i++) {
        pids[i] = fork();
        cr_assert_geq(pids[i], 0);
        if (pids[i] == 0)
            for (volatile unsigned long k = 0;; k++)
                ;
    }
}

static void stop(const pid_t *pids, int n)
{
    for (int i = 0; i < n; i++) {
        kill(pids[i], SIGKILL);
        waitpid(pids[i], NULL, 0);
    }
}

/* Every test's name, status and score, one line each. */
static char *verdicts(const graded_t *g)
{
    strbuf_t sb = {0};
    json_object *tests = tests_of(g);
    for (size_t i = 0; i < json_object_array_length(tests); i++) {
        json_object *t = json_object_array_get_idx(tests, i);
        sb_appendf(&sb, "%s: %s %g\n", str(t, "name"), str(t, "status"), num(t, "score"));
    }
    return sb_detach(&sb);
}

/* A grid a hundred times too large: its datasets stop at the instruction
 * budget or not, and which ones does not depend on the machine's load (on
 * the emulator a wall-clock limit decides, and a loaded machine fails more). */
Test(vgpu_backend, a_slow_submission_gets_the_same_grade_on_a_loaded_machine, .timeout = 600)
{
    char dir[] = "/tmp/cugrade-vgpu-load-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    const char *shapes[] = {"16x16x16", "40x7x33", "64x64x64", "100x128x56", NULL};
    make_datasets(dir, shapes);
    const char *extra[] = {"--datasets", dir, NULL};
    graded_t idle = grade_vgpu(VGPU_SUB "oversized_grid.cu", extra);
    cr_assert_eq(exit_code(&idle), 0, "%s", idle.run.output);
    int n = 4 * cpu_count();
    pid_t *pids = calloc((size_t)n, sizeof *pids);
    spin(pids, n);
    graded_t loaded = grade_vgpu(VGPU_SUB "oversized_grid.cu", extra);
    stop(pids, n);
    free(pids);
    cr_assert_eq(exit_code(&loaded), 0, "%s", loaded.run.output);
    char *a = verdicts(&idle), *b = verdicts(&loaded);
    cr_assert_str_eq(a, b, "idle:\n%s\nloaded (%d spinning processes):\n%s", a, n, b);
    cr_assert_float_eq(num(idle.json, "score"), num(loaded.json, "score"), 1e-9);
    cr_assert(strstr(idle.run.output, "ran past the instruction budget"),
              "a hundred times the work stops somewhere: %s", idle.run.output);
    free(a);
    free(b);
    release(&idle);
    release(&loaded);
    char rm[128];
    snprintf(rm, sizeof rm, "rm -rf %s", dir);
    cr_assert_eq(system(rm), 0);
}

/* `cugrade info` lists the executor beside the other backends, and with
 * --backend vgpu says what the device is. */
Test(vgpu_backend, info_names_the_executor)
{
    char *argv[] = {"bin/cugrade", "info", "--backend", "vgpu", NULL};
    run_spec_t spec = {.argv = argv, .timeout_s = 60};
    run_result_t r;
    run_one(&spec, &r);
    cr_assert(r.exited && r.exit_code == 0, "%s", r.output);
    cr_assert(strstr(r.output, "  vgpu   PTX executor: available (nvcc found)\n"), "%s", r.output);
    cr_assert(strstr(r.output, "  gpu    not available: no replay on a GPU (no CUDA device)\n"), "%s", r.output);
    cr_assert(strstr(r.output, "using: vgpu (requested with --backend vgpu)"), "%s", r.output);
    cr_assert(strstr(r.output, "device: cugrade virtual GPU (bin/cugrade-vgpu runs nvcc's PTX for sm_90)"),
              "%s", r.output);
    run_result_free(&r);
}

/* `cugrade batch --backend vgpu`: each child grades on the executor, the
 * reference's counts shared through the cache; no GPU is looked for. */
Test(vgpu_backend, a_batch_grades_on_the_executor, .timeout = 300)
{
    batch_class_t k = make_batch_class("vgpu-batch");
    class_add_student(&k, "alice", "reference/lab3/matmul.cu");
    class_add_student(&k, "carol", "emu/tests/vgpu/students/host_launch.cu");
    char *argv[] = {"bin/cugrade", "batch", "--lab", "lab3", "--out", k.out, "--backend", "vgpu",
                    "--datasets", k.datasets, "--rubric", k.rubric, k.subs, NULL};
    run_spec_t spec = {.argv = argv, .timeout_s = 300, .output_cap = 1 << 20};
    run_result_t r;
    run_one(&spec, &r);
    cr_assert(r.exited && r.exit_code == 0, "batch failed:\n%s", r.output);
    json_object *alice = class_results(&k, "alice"), *carol = class_results(&k, "carol");
    json_object *extra;
    cr_assert(json_object_object_get_ex(alice, "extra_data", &extra));
    cr_assert_str_eq(str(extra, "backend"), "vgpu");
    cr_assert_float_eq(num(alice, "score"), 2.0, 1e-9, "two datasets, a point each");
    cr_assert_float_eq(num(carol, "score"), 0.0, 1e-9);
    json_object_put(alice);
    json_object_put(carol);
    run_result_free(&r);
    rm_rf(k.dir);
}

/* Tensor-core code in the challenge lab (whose rule fp32-simt forbids it):
 * the executor refuses the PTX by name, which is the submission's doing and
 * no grader fault; every dataset fails saying so, and the rule is named. */
Test(vgpu_backend, tensor_cores_are_refused_by_name_not_a_grader_fault, .timeout = 300)
{
    char dir[] = "/tmp/cugrade-vgpu-mma-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    char ds[128];
    snprintf(ds, sizeof ds, "%s/0", dir);
    make_dataset("challenge", "64x64x64", ds);
    const char *extra[] = {"--lab", "challenge", "--datasets", dir, NULL};
    graded_t g = grade_vgpu("tests/submissions/challenge/hides_mma.cu", extra);
    cr_assert_eq(exit_code(&g), 0, "%s", g.run.output);
    const char *d0 = str(test_named(&g, "dataset 0 "), "output");
    cr_assert(strstr(d0, "likely cause: the kernel uses an instruction the executor refuses"), "%s", d0);
    cr_assert(strstr(d0, "executor error (refused): the tensor-core instruction 'mma.sync"), "%s", d0);
    cr_assert(strstr(g.run.output, "rule fp32-simt: the submission uses tensor cores"), "%s", g.run.output);
    release(&g);
    char rm[128];
    snprintf(rm, sizeof rm, "rm -rf %s", dir);
    cr_assert_eq(system(rm), 0);
}

/* libc's write() found at run time through libc's own symbol table (from
 * where stdout points, no refused name anywhere) and used to print invented
 * statistics on the emulator's descriptor: on the emulator, with every
 * allow-list in place, it gains uses-shared-memory (what no list of names
 * can stop: the attack works); on the executor it gains nothing. */
Test(vgpu_backend, a_symbol_table_walk_gains_on_the_emulator_and_nothing_on_the_executor, .timeout = 300)
{
    const char *attack = "tests/attacks/walks_symbol_table.cu";
    graded_t emu = grade_on("emu", attack, NULL, NULL), vgpu = grade_vgpu(attack, NULL);
    cr_assert_eq(exit_code(&vgpu), 0, "%s", vgpu.run.output);
    cr_assert_float_eq(num(vgpu.json, "score"), 102.0, 1e-9, "the honest untiled score: %s", vgpu.run.output);
    cr_assert(!passed(test_named(&vgpu, "uses-shared-memory")));
    cr_assert(num(emu.json, "score") > 102.0, "the walk does reach write() on the emulator: %s", emu.run.output);
    release(&emu);
    release(&vgpu);
}

/* Issue 40, item 3b: a kernel stopped past its instruction budget is told
 * the grid of the launch the executor stopped against what C needs; the
 * grid is the cause only where its extra blocks are work enough to pass the
 * budget (a hundred times the blocks C needs, past the factor of 16). An
 * endless loop on a right grid is not told about the grid. */
Test(vgpu_backend, a_grid_far_larger_than_c_is_named_with_its_blocks, .timeout = 300)
{
    char dir[] = "/tmp/cugrade-vgpu-grid-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    char ds[128];
    snprintf(ds, sizeof ds, "%s/0", dir);
    make_dataset("lab3", "64x64x64", ds);
    const char *extra[] = {"--datasets", dir, "--checks", "none", NULL};
    graded_t g = grade_vgpu(VGPU_SUB "oversized_grid.cu", extra);
    cr_assert_eq(exit_code(&g), 0, "%s", g.run.output);
    const char *d0 = str(test_named(&g, "dataset 0 "), "output");
    cr_assert(strstr(d0, "the launch stopped had 1600 blocks of 16x16 threads, where 16 cover C (64 x 64): 100 "
                         "times the blocks C needs, and the others' tile loads and sums, stored nowhere, are "
                         "work enough to pass the budget"), "%s", d0);
    release(&g);
    g = grade_vgpu(VGPU_SUB "endless_kernel.cu", extra);
    cr_assert_eq(exit_code(&g), 0, "%s", g.run.output);
    d0 = str(test_named(&g, "dataset 0 "), "output");
    cr_assert(strstr(d0, "instruction budget"), "%s", d0);
    cr_assert_null(strstr(d0, "the launch stopped had"), "the grid is right: %s", d0);
    release(&g);
    rm_rf(dir);
}
