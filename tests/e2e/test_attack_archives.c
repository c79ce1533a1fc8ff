/* test_attack_archives.c - the red-team suite's archive attacks end to end:
 * `cugrade batch` on a class of one honest .zip and every attack archive of
 * tests/attacks/archive_fixtures.h (made here, at test time). Each attack is
 * rejected: score 0 and a results.json whose "submission" test names the
 * archive, the entry and the rule; the honest one is graded in full; nothing
 * lands outside the scratch folder. tests/attacks/README-archives.md lists
 * the attacks and their verdicts. */
#include "e2e.h"

#include "../attacks/archive_fixtures.h"
#include "batch/archive.h"

typedef struct {
    char dir[64], subs[128], datasets[128], rubric[128], out[128];
} klass_t;

static klass_t make_klass(void)
{
    klass_t k;
    snprintf(k.dir, sizeof k.dir, "/tmp/cugrade-attack-XXXXXX");
    cr_assert_not_null(mkdtemp(k.dir));
    snprintf(k.subs, sizeof k.subs, "%s/subs", k.dir);
    snprintf(k.datasets, sizeof k.datasets, "%s/datasets", k.dir);
    snprintf(k.rubric, sizeof k.rubric, "%s/rubric.json", k.dir);
    snprintf(k.out, sizeof k.out, "%s/out", k.dir);
    cr_assert_eq(mkdir_p(k.subs, NULL, 0), 0);
    const char *shapes[] = {"16x16x16", "33x17x9", NULL};
    make_datasets(k.datasets, shapes);
    write_text(k.rubric, "{\"version\": 1, \"labs\": {\"lab3\": {\"compile\": {\"name\": \"compiles\","
                         " \"points\": 0}, \"datasets\": {\"points\": 1, \"time_limit_s\": 20},"
                         " \"hidden\": {\"count\": 0}}}}");
    return k;
}

static json_object *results(const klass_t *k, const char *id)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s/results.json", k->out, id);
    json_object *j = json_object_from_file(path);
    cr_assert_not_null(j, "no results.json for %s", id);
    return j;
}

/* The student id of an attack: its file name without the extension. */
static void id_of(const char *file, char *id, size_t len)
{
    size_t stem = 0;
    cr_assert_neq(archive_kind(file, &stem), ARCHIVE_NONE, "%s", file);
    snprintf(id, len, "%.*s", (int)stem, file);
}

static void make_honest(const klass_t *k)
{
    char *kernel = read_file("reference/lab3/matmul.cu", NULL, NULL, 0), path[256];
    cr_assert_not_null(kernel);
    fx_entry_t ents[] = {{"lab3", FX_DIR, NULL, 0, 0}, {"lab3/matmul.cu", FX_FILE, kernel, 0, 0}};
    snprintf(path, sizeof path, "%s/honest.zip", k->subs);
    cr_assert_eq(fx_write(path, FX_ZIP, ents, 2), 0);
    free(kernel);
}

static void assert_rejected(const klass_t *k, const run_result_t *r, const fx_attack_t *a)
{
    char id[64], line[128];
    id_of(a->file, id, sizeof id);
    snprintf(line, sizeof line, "%s  rejected", id);
    cr_assert(strstr(r->output, line), "%s was not rejected:\n%s", a->file, r->output);
    json_object *j = results(k, id), *tests;
    cr_assert_float_eq(num(j, "score"), 0.0, 1e-9, "%s scored", a->file);
    cr_assert(json_object_object_get_ex(j, "tests", &tests));
    json_object *t = json_object_array_get_idx(tests, 0);
    cr_assert_str_eq(str(t, "name"), "submission");
    const char *out = str(t, "output");
    cr_assert(strstr(out, a->file) && strstr(out, a->says), "%s: expected \"%s\" in: %s", a->file,
              a->says, out);
    json_object_put(j);
}

Test(attack_archives, every_archive_attack_is_rejected_and_the_honest_zip_graded, .timeout = 300)
{
    klass_t k = make_klass();
    make_honest(&k);
    size_t n = sizeof fx_attacks / sizeof *fx_attacks;
    for (size_t i = 0; i < n; i++)
        cr_assert_eq(fx_make_attack(k.subs, &fx_attacks[i]), 0, "cannot write %s", fx_attacks[i].file);
    char *argv[] = {"bin/cugrade", "batch", "--lab", "lab3", "--out", k.out, "--backend", "emu",
                    "--checks", "none", "--datasets", k.datasets, "--rubric", k.rubric, k.subs, NULL};
    run_spec_t spec = {.argv = argv, .timeout_s = 300, .output_cap = 1 << 20};
    run_result_t r;
    run_one(&spec, &r);
    cr_assert(r.exited && r.exit_code == 0, "batch failed:\n%s", r.output);
    for (size_t i = 0; i < n; i++)
        assert_rejected(&k, &r, &fx_attacks[i]);
    cr_assert(strstr(r.output, "honest  2/2"), "%s", r.output);
    cr_assert_not(is_dir("/tmp/cugrade-pwned"), "the absolute path escaped");
    cr_assert_not(is_file("/tmp/cugrade-pwned.cu"), "the '..' path escaped");
    run_result_free(&r);
    rm_rf(k.dir);
}
