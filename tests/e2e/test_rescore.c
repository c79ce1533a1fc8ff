/* test_rescore.c - end to end: `cugrade run --measurements FILE` stores
 * what a grading measured, and `cugrade rescore` scores it again without
 * building or running anything: under the same rubric it gives the same
 * results.json, byte for byte (every test, score, message, error map, the
 * execution time); under a rubric with other points, visibility, names and
 * thresholds it gives their grade, with the submission gone; it refuses a
 * rubric whose run-affecting fields differ, measurements of another lab,
 * and a corrupt file, naming the file, and leaves results.json alone. */
#include "e2e.h"

#include <sys/stat.h>

typedef struct {
    char dir[64], datasets[128], rubric[128], rubric2[128];
} setup_t;

#define RUBRIC                                                                                    \
    "{\"version\": 1, \"labs\": {\"lab3\": {\"compile\": {\"name\": \"compiles\", \"points\": 0}," \
    " \"datasets\": {\"points\": %s, \"time_limit_s\": %s}, \"hidden\": {\"count\": 2%s},"        \
    " \"checks\": {\"race-free\": {\"points\": 4}, \"memory-safe\": {\"points\": 4},"             \
    " \"traffic-reduced\": {\"points\": 4, \"max_bytes_per_flop\": %s}}}}}"

static void write_rubric(const char *path, const char *points, const char *limit, const char *hidden,
                         const char *max_bytes)
{
    char text[1024];
    snprintf(text, sizeof text, RUBRIC, points, limit, hidden, max_bytes);
    write_text(path, text);
}

static setup_t setup(void)
{
    setup_t s;
    snprintf(s.dir, sizeof s.dir, "/tmp/cugrade-rescore-XXXXXX");
    cr_assert_not_null(mkdtemp(s.dir));
    snprintf(s.datasets, sizeof s.datasets, "%s/datasets", s.dir);
    snprintf(s.rubric, sizeof s.rubric, "%s/rubric.json", s.dir);
    snprintf(s.rubric2, sizeof s.rubric2, "%s/rubric2.json", s.dir);
    const char *shapes[] = {"16x16x16", "33x17x9", NULL};
    make_datasets(s.datasets, shapes);
    write_rubric(s.rubric, "1", "20", "", "1.0");
    return s;
}

/* Grades submission with --measurements into s->dir/<name>.{results,measured}.json. */
static graded_t measure(const setup_t *s, const char *submission, const char *name)
{
    char measured[256];
    snprintf(measured, sizeof measured, "%s/%s.measured.json", s->dir, name);
    const char *extra[] = {"--datasets", s->datasets, "--rubric", s->rubric, "--measurements",
                           measured, NULL};
    graded_t g = grade(submission, extra);
    cr_assert_eq(exit_code(&g), 0, "%s", g.run.output);
    cr_assert(is_file(measured), "no measurements written:\n%s", g.run.output);
    cr_assert(strstr(g.run.output, "  measurements: "), "%s", g.run.output);
    return g;
}

/* `cugrade rescore` (args after the command), its output and exit status. */
static run_result_t rescore(const char *const *args)
{
    char *argv[24] = {"bin/cugrade", "rescore"};
    int n = 2;
    for (int i = 0; args[i]; i++)
        argv[n++] = (char *)args[i];
    argv[n] = NULL;
    run_spec_t spec = {.argv = argv, .timeout_s = 60, .output_cap = 1 << 20};
    run_result_t r;
    run_one(&spec, &r);
    return r;
}

static char *slurp(const char *path)
{
    char *text = read_file(path, NULL, NULL, 0);
    cr_assert_not_null(text, "cannot read %s", path);
    return text;
}

Test(rescore, the_same_rubric_gives_the_same_results_json_byte_for_byte, .timeout = 300)
{
    setup_t s = setup();
    const char *subs[][2] = {{"reference/lab3/matmul.cu", "reference"},
                             {SUB "intdiv_grid.cu", "intdiv"},
                             {SUB "missing_second_barrier.cu", "racy"},
                             {SUB "compile_error.cu", "broken"}};
    for (size_t i = 0; i < sizeof subs / sizeof *subs; i++) {
        graded_t g = measure(&s, subs[i][0], subs[i][1]);
        char measured[256], out[256], orig[256];
        snprintf(measured, sizeof measured, "%s/%s.measured.json", s.dir, subs[i][1]);
        snprintf(out, sizeof out, "%s/%s.rescored.json", s.dir, subs[i][1]);
        snprintf(orig, sizeof orig, "%s/r.json", g.dir);
        const char *args[] = {"--lab", "lab3", "--rubric", s.rubric, "--measurements", measured,
                              "--json", out, "--color", "never", NULL};
        run_result_t r = rescore(args);
        cr_assert(r.exited && r.exit_code == 0, "%s: %s", subs[i][1], r.output);
        cr_assert(strstr(r.output, "nothing built or run"), "%s", r.output);
        char *a = slurp(orig), *b = slurp(out);
        cr_assert_str_eq(b, a, "%s re-scored differs", subs[i][1]);
        json_object *ja = json_tokener_parse(a), *jb = json_tokener_parse(b);
        cr_assert(json_object_equal(ja, jb), "%s: the parsed results differ", subs[i][1]);
        json_object_put(ja), json_object_put(jb);
        free(a), free(b);
        run_result_free(&r);
        release(&g);
    }
    rm_rf(s.dir);
}

/* New points, visibility and a stricter threshold, scored with the
 * submission and the emulator's compiler out of reach: nothing ran. */
Test(rescore, a_changed_rubric_re_scores_without_the_submission, .timeout = 300)
{
    setup_t s = setup();
    char sub[256], measured[256], out[256];
    snprintf(sub, sizeof sub, "%s/sub", s.dir); /* apart from the results, which are hidden */
    cr_assert_eq(mkdir_p(sub, NULL, 0), 0);     /* from the student's program */
    snprintf(sub, sizeof sub, "%s/sub/alice.cu", s.dir);
    char *source = slurp("reference/lab3/matmul.cu");
    write_text(sub, source);
    free(source);
    graded_t g = measure(&s, sub, "alice");
    cr_assert_float_eq(num(g.json, "score"), 4 + 12, 1e-9, "%s", g.run.output);
    release(&g);
    cr_assert_eq(unlink(sub), 0);
    snprintf(measured, sizeof measured, "%s/alice.measured.json", s.dir);
    snprintf(out, sizeof out, "%s/alice.rescored.json", s.dir);
    write_rubric(s.rubric2, "2.5", "20", ", \"points\": 0.5, \"visibility\": \"after_published\"", "1e-6");
    const char *args[] = {"--lab", "lab3", "--rubric", s.rubric2, "--measurements", measured,
                          "--json", out, NULL};
    char *argv[16] = {"bin/cugrade", "rescore"}, *env[] = {"PATH=/nonexistent", NULL};
    for (int i = 0; args[i]; i++)
        argv[i + 2] = (char *)args[i];
    run_spec_t spec = {.argv = argv, .extra_env = env, .timeout_s = 60, .output_cap = 1 << 20};
    run_result_t r;
    run_one(&spec, &r);
    cr_assert(r.exited && r.exit_code == 0, "%s", r.output);
    json_object *j = json_object_from_file(out);
    cr_assert_not_null(j);
    graded_t view = {.json = j};
    cr_assert_float_eq(num(test_named(&view, "dataset 0 "), "score"), 2.5, 1e-9);
    json_object *hidden = test_named(&view, "hidden dataset 1 ");
    cr_assert_float_eq(num(hidden, "max_score"), 0.5, 1e-9);
    cr_assert_str_eq(str(hidden, "visibility"), "after_published");
    cr_assert(!passed(test_named(&view, "traffic-reduced")), "the threshold was not applied");
    cr_assert(passed(test_named(&view, "race-free")));
    cr_assert_float_eq(num(j, "score"), 2 * 2.5 + 2 * 0.5 + 8, 1e-9);
    json_object_put(j);
    run_result_free(&r);
    rm_rf(s.dir);
}

Test(rescore, what_cannot_be_re_scored_is_refused_and_named, .timeout = 300)
{
    setup_t s = setup();
    graded_t g = measure(&s, SUB "intdiv_grid.cu", "bob");
    release(&g);
    char measured[256], out[256], bad[256];
    snprintf(measured, sizeof measured, "%s/bob.measured.json", s.dir);
    snprintf(out, sizeof out, "%s/out.json", s.dir);
    snprintf(bad, sizeof bad, "%s/bad.json", s.dir);
    write_text(out, "{\"score\": 1}\n"); /* an older grade: left alone on a refusal */

    write_rubric(s.rubric2, "1", "25", "", "1.0"); /* a time limit: the runs would differ */
    const char *limit[] = {"--lab", "lab3", "--rubric", s.rubric2, "--measurements", measured,
                           "--json", out, NULL};
    run_result_t r = rescore(limit);
    cr_assert(r.exited && r.exit_code == 2, "%s", r.output);
    cr_assert(strstr(r.output, measured) && strstr(r.output, "run-affecting") &&
                  strstr(r.output, "datasets.time_limit_s 20, now datasets.time_limit_s 25"),
              "%s", r.output);
    run_result_free(&r);

    char *text = slurp(measured); /* cut in half */
    text[strlen(text) / 2] = '\0';
    write_text(bad, text);
    free(text);
    const char *cut[] = {"--lab", "lab3", "--rubric", s.rubric, "--measurements", bad, "--json",
                         out, NULL};
    r = rescore(cut);
    cr_assert(r.exited && r.exit_code == 2, "%s", r.output);
    cr_assert(strstr(r.output, "cannot re-score: ") && strstr(r.output, bad) &&
                  strstr(r.output, "syntax error"), "%s", r.output);
    run_result_free(&r);

    const char *lab2[] = {"--lab", "lab2", "--measurements", measured, "--json", out, NULL};
    r = rescore(lab2);
    cr_assert(r.exited && r.exit_code == 2, "%s", r.output);
    cr_assert(strstr(r.output, "measured for lab lab3, not lab2"), "%s", r.output);
    run_result_free(&r);

    snprintf(bad, sizeof bad, "%s/none.json", s.dir);
    const char *none[] = {"--lab", "lab3", "--rubric", s.rubric, "--measurements", bad, "--json",
                          out, NULL};
    r = rescore(none);
    cr_assert(r.exited && r.exit_code == 2 && strstr(r.output, bad), "%s", r.output);
    run_result_free(&r);

    char *kept = slurp(out);
    cr_assert_str_eq(kept, "{\"score\": 1}\n");
    free(kept);

    const char *usage[] = {"--lab", "lab3", "--json", out, NULL}; /* no --measurements */
    r = rescore(usage);
    cr_assert(r.exited && r.exit_code == 64, "%s", r.output);
    cr_assert(strstr(r.output, "usage: cugrade rescore"), "%s", r.output);
    run_result_free(&r);
    rm_rf(s.dir);
}

/* A grader fault writes no measurements, and removes an old file there. */
Test(rescore, a_grader_fault_leaves_no_measurements, .timeout = 300)
{
    setup_t s = setup();
    char measured[256], missing[256];
    snprintf(measured, sizeof measured, "%s/old.measured.json", s.dir);
    snprintf(missing, sizeof missing, "%s/no-datasets", s.dir);
    write_text(measured, "{}\n");
    const char *extra[] = {"--datasets", missing, "--rubric", s.rubric, "--measurements", measured,
                           NULL};
    graded_t g = grade("reference/lab3/matmul.cu", extra);
    cr_assert_eq(exit_code(&g), 2, "%s", g.run.output);
    cr_assert(!is_file(measured), "a grader fault left measurements");
    release(&g);
    rm_rf(s.dir);
}
