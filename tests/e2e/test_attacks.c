/* test_attacks.c - end to end: the red-team submissions of tests/attacks/
 * on the emulator, each with the verdict tests/attacks/README.md gives it.
 * The object check refuses the hostile calls first; the layers behind it
 * are tested with the check turned off (CUGRADE_OBJCHECK=off; skipped where
 * bubblewrap is unavailable): the sandbox's view, its limits and the report
 * channel. Runs from the repository root. */
#include <limits.h>
#include <sys/stat.h>

#include "e2e.h"
#include "run/sandbox.h"

#define ATTACK "tests/attacks/"

typedef struct {
    char dir[64], datasets[128], rubric[128];
    char *env[4];
} attack_t;

/* Two small datasets and a rubric with a 5 s limit and no checks. */
static void prepare(attack_t *a, int objcheck)
{
    snprintf(a->dir, sizeof a->dir, "/tmp/cugrade-attack-XXXXXX");
    cr_assert_not_null(mkdtemp(a->dir));
    snprintf(a->datasets, sizeof a->datasets, "%s/ds", a->dir);
    snprintf(a->rubric, sizeof a->rubric, "%s/rubric.json", a->dir);
    const char *shapes[] = {"16x16x16", "33x17x9", NULL};
    make_datasets(a->datasets, shapes);
    write_text(a->rubric, "{\"version\": 1, \"labs\": {\"lab3\": {\"compile\": {\"name\": \"compiles\","
                          " \"points\": 0}, \"datasets\": {\"points\": 1, \"time_limit_s\": 5},"
                          " \"hidden\": {\"count\": 0}}}}");
    a->env[0] = objcheck ? NULL : "CUGRADE_OBJCHECK=off";
    a->env[1] = NULL;
    if (!objcheck && !sandbox_available())
        cr_skip_test("%s", sandbox_description());
}

static graded_t attack(attack_t *a, const char *file)
{
    const char *with[] = {"--checks", "none", "--rubric", a->rubric, "--datasets", a->datasets, NULL};
    return grade_on("emu", file, with, a->env);
}

static void expect_refused(const char *file, const char *calls)
{
    attack_t a;
    prepare(&a, 1);
    graded_t g = attack(&a, file);
    cr_assert_eq(exit_code(&g), 0, "%s", g.run.output);
    const char *out = str(test_named(&g, "compiles"), "output");
    cr_expect(!passed(test_named(&g, "compiles")), "%s", file);
    cr_expect(strstr(out, "refused: the submission") && strstr(out, calls), "%s: %s", file, out);
    cr_expect_eq(num(g.json, "score"), 0.0, "%s", file);
    release(&g);
    rm_rf(a.dir);
}

Test(attacks, hostile_calls_are_refused_with_their_names, .timeout = 200)
{
    expect_refused(ATTACK "system_call.cu", "system");
    expect_refused(ATTACK "destructor_rewrites_diag.cu", "destructor");
    expect_refused(ATTACK "signal_swallows_timeout.cu", "signal");
    expect_refused(ATTACK "reads_other_submission.cu", "fopen");
    expect_refused(ATTACK "fills_disk.cu", "fopen");
    expect_refused(ATTACK "waits_on_own_stream.cu", "cudaStreamCreateWithFlags");
}

static void expect_every_dataset_failed(const graded_t *g, const char *why)
{
    cr_assert_eq(exit_code(g), 0, "%s", g->run.output);
    for (int i = 0; i < 2; i++) {
        char name[32];
        snprintf(name, sizeof name, "dataset %d ", i);
        json_object *t = test_named(g, name);
        cr_expect(!passed(t), "%s should fail", name);
        if (why)
            cr_expect(strstr(str(t, "output"), why), "%s: %s", name, str(t, "output"));
    }
}

Test(attacks, ignored_signals_do_not_outlast_the_time_limit, .timeout = 200)
{
    attack_t a;
    prepare(&a, 0);
    double start = now_seconds();
    graded_t g = attack(&a, ATTACK "signal_swallows_timeout.cu");
    expect_every_dataset_failed(&g, "time limit");
    cr_expect_lt(now_seconds() - start, 120, "the grading ended");
    release(&g);
    rm_rf(a.dir);
}

Test(attacks, the_environment_shows_no_ta_variable, .timeout = 200)
{
    attack_t a;
    prepare(&a, 0);
    a.env[1] = "TA_GITHUB_TOKEN=ghp_attack_test_secret";
    a.env[2] = "LD_PRELOAD=/nonexistent/cugrade-preload.so";
    a.env[3] = NULL;
    graded_t g = attack(&a, ATTACK "prints_environment.cu");
    const char *out = str(test_named(&g, "dataset 0 "), "output");
    cr_expect(strstr(out, "ENV HOME=/tmp"), "the program ran and printed: %s", out);
    cr_assert_not_null(g.json, "%s", g.run.output);
    const char *all = json_object_to_json_string(g.json);
    cr_expect_null(strstr(all, "ghp_attack_test_secret"), "%s", out);
    cr_expect_null(strstr(all, "ENV LD_PRELOAD"), "%s", out);
    release(&g);
    rm_rf(a.dir);
}

Test(attacks, another_submission_cannot_be_read, .timeout = 200)
{
    attack_t a;
    prepare(&a, 0);
    char peer[200], env_peer[240];
    snprintf(peer, sizeof peer, "%s/bob-matmul.cu", a.dir);
    write_text(peer, "// bob's secret solution text\n");
    snprintf(env_peer, sizeof env_peer, "CUGRADE_SANDBOX_TEST_PEER=%s", peer);
    a.env[1] = env_peer;
    a.env[2] = NULL;
    graded_t g = attack(&a, ATTACK "reads_other_submission.cu");
    cr_assert_not_null(g.json, "%s", g.run.output);
    const char *out = str(test_named(&g, "dataset 0 "), "output");
    cr_expect(strstr(out, "not found"), "the open failed: %s", out);
    cr_expect_null(strstr(json_object_to_json_string(g.json), "bob's secret"), "%s", out);
    release(&g);
    rm_rf(a.dir);
}

Test(attacks, filling_the_disk_stops_at_the_file_size_limit, .timeout = 200)
{
    attack_t a;
    prepare(&a, 0);
    graded_t g = attack(&a, ATTACK "fills_disk.cu");
    expect_every_dataset_failed(&g, NULL);
    cr_expect_eq(exit_code(&g), 0, "the grading ended normally: %s", g.run.output);
    release(&g);
    rm_rf(a.dir);
}

/* Grouped runs: forged markers on stdout change no verdict (they stay in
 * the program's output, as text it printed). */
Test(attacks, forged_markers_change_no_verdict, .timeout = 300)
{
    attack_t a;
    prepare(&a, 1);
    const char *grouped[] = {"--checks", "none", "--rubric", a.rubric, "--datasets", a.datasets,
                             "--dataset-runs", "grouped", NULL};
    graded_t g = grade_on("emu", ATTACK "forges_markers.cu", grouped, NULL);
    cr_assert_eq(exit_code(&g), 0, "%s", g.run.output);
    for (int i = 0; i < 2; i++) {
        char name[32];
        snprintf(name, sizeof name, "dataset %d ", i);
        json_object *t = test_named(&g, name);
        cr_expect(passed(t), "%s passes as in a separate run: %s", name, str(t, "output"));
        cr_expect_null(strstr(str(t, "output"), "time limit"), "%s", str(t, "output"));
    }
    release(&g);
    rm_rf(a.dir);
}

/* The compile jail, behind the source check (turned off here): an
 * #include of the expected output and an .incbin spelled in two pieces find
 * nothing, since the compiler sees neither datasets/ nor reference/. */
Test(attacks, the_compiler_cannot_read_the_checkout, .timeout = 200)
{
    attack_t a;
    prepare(&a, 0);
    a.env[1] = "CUGRADE_SRCCHECK=off";
    a.env[2] = NULL;
    char cwd[1024], src[256], text[4096];
    cr_assert_not_null(getcwd(cwd, sizeof cwd));
    const char *forms[] = {"#include \"%s/datasets/lab3/0/output.raw\"\n",
                           "#include \"%s/reference/lab3/matmul.cu\"\n",
                           "asm(\".inc\" \"bin \\\"%s/datasets/lab3/0/output.raw\\\"\");\n"};
    for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++) {
        snprintf(src, sizeof src, "%s/attack%zu.cu", a.dir, i);
        snprintf(text, sizeof text, forms[i], cwd);
        write_text(src, text);
        graded_t g = attack(&a, src);
        cr_assert_eq(exit_code(&g), 0, "%s", g.run.output);
        const char *out = str(test_named(&g, "compiles"), "output");
        cr_expect(!passed(test_named(&g, "compiles")), "%s", text);
        cr_expect(strstr(out, "No such file") || strstr(out, "file not found"), "%s: %s", text, out);
        cr_expect_eq(num(g.json, "score"), 0.0, "%s", text);
        release(&g);
    }
    rm_rf(a.dir);
}
