/* hidden_set.c - the hidden datasets of a grading: generated from the
 * secret into a private folder next to the scratch folder (or taken from
 * the one a batch made), listed as datasets "hidden-1".., and removed
 * after grading. */
#include "pipeline/hidden_set.h"
#include "dataset/gen.h"
#include "kinds/kind.h"
#include "run/sandbox.h"
#include "util/tmpdir.h"
#include "util/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Dataset i of the set: its shape's family in turn, its values' kind and
 * the generator's seed all drawn from the dataset's own seed. */
static int generate_one(const hidden_secret_t *s, const char *lab_name, const lab_t *lab, int i,
                        const char *dir, char *err, size_t errlen)
{
    const lab_kind_t *kind = lab->kind;
    uint64_t state = hidden_seed(s, lab_name, i);
    char shape[64], path[PATH_MAX], why[512];
    kind->hidden_shape(lab, i % kind->hidden_families, lab->tile_width, &state, shape, sizeof shape);
    value_kind_t values = (gen_next(&state) & 1) ? VALUES_SIGNED : VALUES_COURSE;
    dataset_t d;
    if (kind->generate(lab, shape, gen_next(&state), values, &d, why, sizeof why) != 0)
        return fail(err, errlen, "hidden dataset %d of %s (%s): %s", i + 1, lab_name, shape, why);
    snprintf(path, sizeof path, "%.4000s/%d", dir, i + 1);
    int rc = dataset_write(path, d.inputs, d.ninputs, &d.expected, err, errlen);
    dataset_free(&d);
    return rc;
}

int hidden_set_generate(const hidden_secret_t *s, const char *lab_name, const lab_t *lab,
                        int count, const char *dir, char *err, size_t errlen)
{
    if (!lab->kind->hidden_shape || lab->kind->hidden_families < 1)
        return fail(err, errlen, "the lab kind %s has no hidden datasets' shapes; set "
                    "\"hidden\": { \"count\": 0 } in the rubric", lab->kind->name);
    for (int i = 0; i < count; i++)
        if (generate_one(s, lab_name, lab, i, dir, err, errlen) != 0)
            return -1;
    return 0;
}

/* dir/1 .. dir/count as datasets "hidden-1" ..; the folder must hold just them. */
static int list_set(hidden_set_t *hs, int count, char *err, size_t errlen)
{
    if (dataset_list(hs->dir, &hs->refs, &hs->n, err, errlen) != 0)
        return -1;
    if (hs->n != count)
        return fail(err, errlen, "%s: holds %d hidden datasets, the rubric asks for %d", hs->dir,
                    hs->n, count);
    for (int i = 0; i < hs->n; i++) {
        char want[16];
        snprintf(want, sizeof want, "%d", i + 1);
        if (strcmp(hs->refs[i].name, want) != 0)
            return fail(err, errlen, "%s: hidden dataset %s: expected folders 1 to %d", hs->dir,
                        hs->refs[i].name, count);
        snprintf(hs->refs[i].name, sizeof hs->refs[i].name, HIDDEN_REF_PREFIX "%d", i + 1);
    }
    return 0;
}

/* The first thing a fresh checkout's `make grade` says, within 80 columns
 * and on one line where it fits (the stub's report is 25 lines with it): the
 * secret's path from the current folder when it lies inside it. */
static void say_secret_made(const char *path)
{
    char cwd[PATH_MAX];
    const char *shown = path;
    size_t n = getcwd(cwd, sizeof cwd) ? strlen(cwd) : 0;
    if (n > 1 && strncmp(path, cwd, n) == 0 && path[n] == '/')
        shown = path + n + 1;
    static const char said[] = "cugrade: made the hidden datasets' secret", keep[] = "(keep it private)";
    if (strlen(said) + strlen(shown) + strlen(keep) + 2 <= 80)
        fprintf(stderr, "%s %s %s\n", said, shown, keep);
    else
        fprintf(stderr, "%s %s:\n  %s\n", said, keep, shown);
}

/* Makes dir (mode 0700, not there before) and the set in it. */
static int make_set(const grade_opts_t *o, const lab_t *lab, int count, hidden_set_t *hs,
                    char *err, size_t errlen)
{
    hidden_secret_t *s = malloc(sizeof *s);
    int rc = s ? hidden_secret_load(o->root, o->hidden_seed, s, err, errlen)
               : fail(err, errlen, "out of memory");
    if (rc == 0 && s->created)
        say_secret_made(s->path);
    if (rc == 0)
        rc = hidden_set_generate(s, o->lab, lab, count, hs->dir, err, errlen);
    if (s)
        memset(s, 0, sizeof *s);
    free(s);
    return rc;
}

int hidden_set_prepare(const grade_opts_t *o, const lab_t *lab, const lab_rubric_t *rub,
                       const char *scratch, hidden_set_t *hs, char *err, size_t errlen)
{
    memset(hs, 0, sizeof *hs);
    int count = rub->hidden.count;
    if (count == 0)
        return 0;
    if (o->hidden_set_dir) {
        snprintf(hs->dir, sizeof hs->dir, "%s", o->hidden_set_dir);
    } else {
        snprintf(hs->dir, sizeof hs->dir, "%.4000s-hidden", scratch);
        if (tmp_dir_make_at(hs->dir, err, errlen) != 0)
            return -1;
        hs->owned = 1;
        if (make_set(o, lab, count, hs, err, errlen) != 0)
            return -1;
    }
    sandbox_hide_dir(hs->dir);
    return list_set(hs, count, err, errlen);
}

/* A fresh folder under $TMPDIR (mode 0700) with the set; none for 0. */
static int batch_folder(const grade_opts_t *o, const lab_t *lab, int count, hidden_set_t *hs,
                        char *err, size_t errlen)
{
    if (count == 0)
        return 0;
    if (tmp_dir_make("hidden-", hs->dir, sizeof hs->dir, err, errlen) != 0)
        return -1;
    hs->owned = 1;
    hs->n = count;
    return make_set(o, lab, count, hs, err, errlen);
}

int hidden_set_for_batch(const grade_opts_t *o, hidden_set_t *hs, char *err, size_t errlen)
{
    lab_t *lab = calloc(1, sizeof *lab);
    lab_rubric_t rub;
    char path[PATH_MAX];
    memset(hs, 0, sizeof *hs);
    snprintf(path, sizeof path, "%.4000s/rubric.json", o->root);
    if (!lab)
        return fail(err, errlen, "out of memory");
    int rc = lab_load(o->root, o->lab, lab, err, errlen);
    if (rc == 0 && (rc = rubric_load(o->rubric_path ? o->rubric_path : path, o->lab, &rub, err,
                                     errlen)) == 0) {
        rc = batch_folder(o, lab, rub.hidden.count, hs, err, errlen);
        rubric_free(&rub);
    }
    free(lab);
    return rc;
}

void hidden_set_remove(hidden_set_t *hs)
{
    if (hs->owned && hs->dir[0])
        rm_rf(hs->dir);
    free(hs->refs);
    memset(hs, 0, sizeof *hs);
}
