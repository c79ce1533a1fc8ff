/* batch_prep.c - staging submissions for `cugrade batch`: list folders and
 * archives, unpack archives safely into scratch folders, find the student
 * file (pipeline/student_file.h), and grade identical submissions once by
 * copying the results of the first (with its paths made the student's own). */
#include "batch/archive.h"
#include "batch/batch_job.h"
#include "pipeline/grade.h"
#include "pipeline/student_file.h"
#include "report/results.h"
#include "util/sha256.h"
#include "util/tmpdir.h"
#include "util/util.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int already(char **ids, int n, const char *id)
{
    for (int i = 0; i < n; i++)
        if (strcmp(ids[i], id) == 0)
            return 1;
    return 0;
}

/* A loose source file in the class folder (alice.cu, as an LMS download
 * gives them): a submission of its own, named by its stem. */
static int loose_source(const char *name, size_t *stem_len)
{
    size_t len = strlen(name);
    if (len <= 3 || strcmp(name + len - 3, ".cu") != 0)
        return 0;
    *stem_len = len - 3;
    return 1;
}

int batch_list(const char *dir, char ***names_out, char ***ids_out)
{
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    char **all = NULL;
    int nall = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL)
        if (e->d_name[0] != '.') {
            all = realloc(all, (size_t)(nall + 1) * sizeof *all);
            all[nall++] = strdup(e->d_name);
        }
    closedir(d);
    if (nall > 0)
        qsort(all, (size_t)nall, sizeof *all, cmp_str);
    char **names = calloc((size_t)nall + 1, sizeof *names), **ids = calloc((size_t)nall + 1, sizeof *ids);
    int n = 0;
    for (int i = 0; i < nall; i++) {
        char path[PATH_MAX];
        size_t stem = strlen(all[i]);
        int ok = path_join(path, sizeof path, dir, all[i]) == 0 &&
                 (is_dir(path) || (is_file(path) && (archive_kind(all[i], &stem) != ARCHIVE_NONE ||
                                                     loose_source(all[i], &stem))));
        char *id = ok ? strndup(all[i], stem) : NULL;
        if (ok && stem > 0 && !already(ids, n, id)) {
            names[n] = all[i], ids[n++] = id;
            continue;
        }
        free(id), free(all[i]);
    }
    free(all);
    *names_out = names, *ids_out = ids;
    return n;
}

static void hash_student_file(job_t *j, const char *common)
{
    size_t len;
    char *text = read_file(j->student, &len, NULL, 0);
    if (!text)
        return;
    sha256_t s;
    sha256_init(&s);
    sha256_update(&s, common, strlen(common));
    sha256_update(&s, text, len);
    sha256_final_hex(&s, j->file_hash);
    free(text);
}

void batch_stage(job_t *j, const char *lab, const char *file, const char *common)
{
    char root[PATH_MAX], note[sizeof j->note];
    snprintf(root, sizeof root, "%s", j->sub_dir);
    if (archive_kind(j->sub_dir, NULL) != ARCHIVE_NONE && is_file(j->sub_dir)) {
        char err[400];
        if (tmp_dir_make("sub-", j->scratch, sizeof j->scratch, err, sizeof err) != 0) {
            snprintf(j->reject, sizeof j->reject, "%s", err);
            return;
        }
        if (archive_unpack(j->sub_dir, j->scratch, j->reject, sizeof j->reject) != 0)
            return;
        snprintf(root, sizeof root, "%s", j->scratch);
        snprintf(j->note, sizeof j->note, "batch: unpacked %s\n", path_base(j->sub_dir));
    }
    size_t stem;
    if (is_file(j->sub_dir) && loose_source(path_base(j->sub_dir), &stem)) {
        snprintf(j->student, sizeof j->student, "%s", j->sub_dir);
        snprintf(j->note, sizeof j->note, "batch: took %s, a file of the class folder, as %s\n",
                 path_base(j->sub_dir), file);
        hash_student_file(j, common);
        return;
    }
    if (student_file_find(root, lab, file, j->student, sizeof j->student, note, sizeof note) != 0) {
        snprintf(j->student, sizeof j->student, "%s", root); /* its run says what is missing */
        return;
    }
    size_t used = strlen(j->note);
    snprintf(j->note + used, sizeof j->note - used, "%s%s", note[0] ? "batch: " : "", note);
    hash_student_file(j, common);
}

void batch_mark_identical(job_t **todo, int n)
{
    for (int i = 0; i < n; i++)
        for (int k = 0; k < i && todo[i]->file_hash[0] && !todo[i]->reject[0]; k++)
            if (!todo[k]->same_as && !todo[k]->reject[0] &&
                strcmp(todo[k]->file_hash, todo[i]->file_hash) == 0) {
                todo[i]->same_as = todo[k];
                break;
            }
}

/* text with every `from` replaced by `to` (malloc'd). */
static char *replace_all(const char *text, const char *from, const char *to)
{
    strbuf_t sb = {0};
    size_t n = strlen(from);
    const char *p;
    while (n > 0 && (p = strstr(text, from)) != NULL) {
        sb_appendn(&sb, text, (size_t)(p - text));
        sb_append(&sb, to);
        text = p + n;
    }
    sb_append(&sb, text);
    return sb_detach(&sb);
}

/* path as json-c writes it in a string: slashes escaped. */
static void json_escaped(const char *path, char *out, size_t outlen)
{
    size_t k = 0;
    for (const char *p = path; *p && k + 2 < outlen; p++) {
        if (*p == '/')
            out[k++] = '\\';
        out[k++] = *p;
    }
    out[k] = '\0';
}

/* The original's file `name` (results.json, measurements.json) into j's
 * folder, its student path made j's own. */
static int copy_results(job_t *j, const char *name, char *err, size_t errlen)
{
    char src[PATH_MAX + 32], dst[PATH_MAX + 32], from[2 * PATH_MAX], to[2 * PATH_MAX];
    snprintf(src, sizeof src, "%s/%s", j->same_as->res_dir, name);
    snprintf(dst, sizeof dst, "%s/%s", j->res_dir, name);
    char *text = read_file(src, NULL, err, errlen);
    if (!text)
        return -1;
    char *a = replace_all(text, j->same_as->student, j->student);
    json_escaped(j->same_as->student, from, sizeof from);
    json_escaped(j->student, to, sizeof to);
    char *b = replace_all(a, from, to);
    int rc = write_file_atomic(dst, b, strlen(b), err, errlen);
    free(text), free(a), free(b);
    return rc;
}

static int write_rejected(const job_t *j, const char *path, char *err, size_t errlen)
{
    grade_t g = {0};
    char msg[sizeof j->reject + 64];
    snprintf(msg, sizeof msg, "submission rejected: %s", j->reject);
    grade_add_test(&g, "submission", 0, 0, 0, VIS_VISIBLE, msg);
    grade_set_extra_text(&g, "submission_error", j->reject);
    g.output = strdup(msg);
    int rc = grade_write_json(&g, path, err, errlen);
    grade_free(&g);
    return rc;
}

int batch_finish_ungraded(job_t *j, char *err, size_t errlen)
{
    char path[PATH_MAX + 32];
    strbuf_t log = {0};
    sb_append(&log, j->note);
    if (j->reject[0])
        sb_appendf(&log, "batch: %s rejected: %s\n", path_base(j->sub_dir), j->reject);
    else
        sb_appendf(&log, "batch: identical to %s, graded once\n", j->same_as->id);
    snprintf(path, sizeof path, "%s/run.log", j->res_dir);
    int rc = write_file_atomic(path, sb_str(&log), log.len, err, errlen);
    sb_free(&log);
    snprintf(path, sizeof path, "%s/measurements.json", j->same_as ? j->same_as->res_dir : "");
    if (rc == 0 && !j->reject[0] && is_file(path)) /* re-scored on its own later */
        rc = copy_results(j, "measurements.json", err, errlen);
    snprintf(path, sizeof path, "%s/results.json", j->res_dir);
    if (rc == 0)
        rc = j->reject[0] ? write_rejected(j, path, err, errlen)
                          : copy_results(j, "results.json", err, errlen);
    if (rc != 0)
        return -1;
    return batch_write_keys(j, err, errlen);
}
