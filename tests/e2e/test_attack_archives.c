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

/* The student id of an attack: its file name without the extension. */
static void id_of(const char *file, char *id, size_t len)
{
    size_t stem = 0;
    cr_assert_neq(archive_kind(file, &stem), ARCHIVE_NONE, "%s", file);
    snprintf(id, len, "%.*s", (int)stem, file);
}

static void make_honest(const batch_class_t *k)
{
    char *kernel = read_file("reference/lab3/matmul.cu", NULL, NULL, 0), path[256];
    cr_assert_not_null(kernel);
    fx_entry_t ents[] = {{"lab3", FX_DIR, NULL, 0, 0}, {"lab3/matmul.cu", FX_FILE, kernel, 0, 0}};
    snprintf(path, sizeof path, "%s/honest.zip", k->subs);
    cr_assert_eq(fx_write(path, FX_ZIP, ents, 2), 0);
    free(kernel);
}

static void assert_rejected(const batch_class_t *k, const run_result_t *r, const fx_attack_t *a)
{
    char id[64], line[128];
    id_of(a->file, id, sizeof id);
    snprintf(line, sizeof line, "%s  rejected", id);
    cr_assert(strstr(r->output, line), "%s was not rejected:\n%s", a->file, r->output);
    json_object *j = class_results(k, id), *tests;
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
    batch_class_t k = make_batch_class("attack");
    make_honest(&k);
    size_t n = sizeof fx_attacks / sizeof *fx_attacks;
    for (size_t i = 0; i < n; i++)
        cr_assert_eq(fx_make_attack(k.subs, &fx_attacks[i]), 0, "cannot write %s", fx_attacks[i].file);
    run_result_t r = run_class_batch(&k);
    for (size_t i = 0; i < n; i++)
        assert_rejected(&k, &r, &fx_attacks[i]);
    cr_assert(strstr(r.output, "honest  2/2"), "%s", r.output);
    cr_assert_not(is_dir("/tmp/cugrade-pwned"), "the absolute path escaped");
    cr_assert_not(is_file("/tmp/cugrade-pwned.cu"), "the '..' path escaped");
    run_result_free(&r);
    rm_rf(k.dir);
}
