/* export_tree.c - the parts the three exports share (export_tree.h): the
 * lab, the staging folder, the cugrade tree and the secret copied into it,
 * the templates filled in, and the package put in place atomically. */
#include "export/export_tree.h"
#include "dataset/hidden.h"
#include "kinds/kind.h"
#include "pipeline/datasets_made.h"
#include "util/util.h"

#include <archive.h>
#include <archive_entry.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char *export_backend(const export_opts_t *o) { return o->backend ? o->backend : "vgpu"; }

int export_begin(const export_opts_t *o, export_job_t *j, char *err, size_t errlen)
{
    memset(j, 0, sizeof *j);
    j->o = o;
    char path[PATH_MAX + 64], why[1024];
    snprintf(path, sizeof path, "%s/labs/%s/lab.json", o->root, o->lab);
    if (strchr(o->lab, '/') || !is_file(path))
        return fail(err, errlen, "unknown lab '%s': there is no labs/%s/lab.json in %s", o->lab,
                    o->lab, o->root);
    if (lab_load(o->root, o->lab, &j->lab, why, sizeof why) != 0)
        return fail(err, errlen, "lab '%s': %s", o->lab, why);
    snprintf(path, sizeof path, "%s/" EXPORT_MARK, o->out);
    if (is_dir(o->out) && !is_file(path))
        return fail(err, errlen, "%s is a folder that cugrade export did not write (it has no "
                    EXPORT_MARK "): it is left alone; remove it or choose another --out", o->out);
    snprintf(j->stage, sizeof j->stage, "%s.tmp.%ld", o->out, (long)getpid());
    rm_rf(j->stage);
    if (mkdir(j->stage, 0755) != 0)
        return fail(err, errlen, "%s: cannot create (for --out %s): %s", j->stage, o->out,
                    strerror(errno));
    return 0;
}

void export_abort(export_job_t *j)
{
    if (j->stage[0])
        rm_rf(j->stage);
}

static int stage_path(const export_job_t *j, const char *dst, char *out, size_t len, char *err,
                      size_t errlen)
{
    if (path_join(out, len, j->stage, dst) != 0)
        return fail(err, errlen, "%s/%s: path too long", j->stage, dst);
    char dir[PATH_MAX];
    path_dir(out, dir, sizeof dir);
    return mkdir_p(dir, err, errlen);
}

/* Copies the file src to dst with mode (0644, or 0755 when src is executable). */
static int copy_one(const char *src, const char *dst, char *err, size_t errlen)
{
    struct stat st;
    if (stat(src, &st) != 0)
        return fail(err, errlen, "%s: %s", src, strerror(errno));
    size_t len;
    char *data = read_file(src, &len, err, errlen);
    if (!data)
        return -1;
    int rc = write_file_atomic(dst, data, len, err, errlen);
    free(data);
    if (rc == 0 && chmod(dst, (st.st_mode & 0111) ? 0755 : 0644) != 0)
        rc = fail(err, errlen, "%s: chmod: %s", dst, strerror(errno));
    return rc;
}

/* Copies the folder src into dst, files and folders only (links skipped). */
/* Copies src into dst; with manifest_dir, not the dataset folders its
 * manifest marks "generated" (the setup makes them: make_datasets.sh --missing). */
static int copy_dir_but(const char *src, const char *dst, const char *manifest_dir, char *err, size_t errlen);

static int copy_dir(const char *src, const char *dst, char *err, size_t errlen)
{
    return copy_dir_but(src, dst, NULL, err, errlen);
}

static int copy_dir_but(const char *src, const char *dst, const char *manifest_dir, char *err, size_t errlen)
{
    if (mkdir_p(dst, err, errlen) != 0)
        return -1;
    DIR *d = opendir(src);
    if (!d)
        return fail(err, errlen, "%s: %s", src, strerror(errno));
    struct dirent *e;
    int rc = 0;
    while (rc == 0 && (e = readdir(d))) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0 ||
            strstr(e->d_name, ".tmp."))
            continue;
        char s[PATH_MAX], t[PATH_MAX];
        if (path_join(s, sizeof s, src, e->d_name) != 0 || path_join(t, sizeof t, dst, e->d_name))
            rc = fail(err, errlen, "%s/%s: path too long", src, e->d_name);
        else if (manifest_dir && ((is_dir(s) && datasets_is_generated(manifest_dir, e->d_name)) ||
                                  strcmp(e->d_name, ".generate.lock") == 0))
            continue;
        else if (is_dir(s))
            rc = copy_dir(s, t, err, errlen);
        else if (is_file(s))
            rc = copy_one(s, t, err, errlen);
    }
    closedir(d);
    return rc;
}

int export_copy_file(const export_job_t *j, const char *src, const char *dst, char *err,
                     size_t errlen)
{
    char s[PATH_MAX], t[PATH_MAX];
    if (path_join(s, sizeof s, j->o->root, src) != 0)
        return fail(err, errlen, "%s/%s: path too long", j->o->root, src);
    if (stage_path(j, dst, t, sizeof t, err, errlen) != 0)
        return -1;
    if (is_dir(s))
        return copy_dir(s, t, err, errlen);
    if (!is_file(s))
        return fail(err, errlen, "%s: missing from the cugrade tree", s);
    return copy_one(s, t, err, errlen);
}

int export_copy_tree(const export_job_t *j, const char *dst, int with_reference, char *err,
                     size_t errlen)
{
    const lab_t *lab = &j->lab;
    char labdir[PATH_MAX], ref[PATH_MAX], data[PATH_MAX];
    snprintf(labdir, sizeof labdir, "labs/%s", lab->name);
    snprintf(ref, sizeof ref, "reference/%s", lab->name);
    snprintf(data, sizeof data, "datasets/%s", lab->datasets[0] ? lab->datasets : lab->name);
    const char *parts[] = {"grader", "emu",  "labs/common", "labs/kinds", labdir, ref,
                           data,     "tools", "rubric.json", "Makefile", "tests/fuzz/fuzz.mk"};
    for (size_t i = 0; i < sizeof parts / sizeof *parts; i++) {
        if (parts[i] == ref && !with_reference)
            continue;
        char t[PATH_MAX];
        snprintf(t, sizeof t, "%s/%s", dst, parts[i]);
        if (parts[i] == data) { /* its "generated" folders are made by the setup, not shipped */
            char s[PATH_MAX], staged[PATH_MAX];
            if (path_join(s, sizeof s, j->o->root, data) != 0)
                return fail(err, errlen, "%s/%s: path too long", j->o->root, data);
            if (stage_path(j, t, staged, sizeof staged, err, errlen) != 0 || copy_dir_but(s, staged, s, err, errlen) != 0)
                return -1;
            continue;
        }
        if (export_copy_file(j, parts[i], t, err, errlen) != 0)
            return -1;
    }
    return 0;
}

int export_copy_secret(const export_job_t *j, const char *dst, char *err, size_t errlen)
{
    hidden_secret_t *s = calloc(1, sizeof *s);
    char t[PATH_MAX], why[1024];
    int rc = -1;
    if (!s)
        return fail(err, errlen, "out of memory");
    if (hidden_secret_load(j->o->root, NULL, s, why, sizeof why) != 0)
        fail(err, errlen, "the hidden datasets' secret: %s", why);
    else if (stage_path(j, dst, t, sizeof t, err, errlen) == 0 &&
             write_file_atomic(t, s->bytes, s->len, err, errlen) == 0)
        rc = chmod(t, 0600) == 0 ? 0 : fail(err, errlen, "%s: chmod: %s", t, strerror(errno));
    free(s);
    return rc;
}

int export_write(const export_job_t *j, const char *dst, const char *text, int mode, char *err,
                 size_t errlen)
{
    char t[PATH_MAX];
    if (stage_path(j, dst, t, sizeof t, err, errlen) != 0 ||
        write_file_atomic(t, text, strlen(text), err, errlen) != 0)
        return -1;
    if (chmod(t, (mode_t)mode) != 0)
        return fail(err, errlen, "%s: chmod: %s", t, strerror(errno));
    return 0;
}

/* text with every @KEY@ of keys[i] replaced by vals[i]; caller frees. */
static char *fill(const char *text, const char *const *keys, const char *const *vals, int n)
{
    strbuf_t sb = {0};
    for (const char *p = text; *p;) {
        int k = -1;
        for (int i = 0; i < n && k < 0; i++)
            if (strncmp(p, keys[i], strlen(keys[i])) == 0)
                k = i;
        if (k >= 0) {
            sb_append(&sb, vals[k]);
            p += strlen(keys[k]);
        } else {
            sb_appendn(&sb, p++, 1);
        }
    }
    return sb_detach(&sb);
}

int export_template(const export_job_t *j, const char *tpl, const char *dst, int mode,
                    char *err, size_t errlen)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/grader/export/templates/%s", j->o->root, tpl);
    char *text = read_file(path, NULL, err, errlen);
    if (!text)
        return -1;
    const char *keys[] = {"@LAB@", "@STUDENT_FILE@", "@TITLE@", "@KIND@", "@BACKEND@"};
    const char *vals[] = {j->lab.name, j->lab.student_file, j->lab.title,
                          j->lab.kind ? j->lab.kind->name : "", export_backend(j->o)};
    char *out = fill(text, keys, vals, 5);
    free(text);
    int rc = export_write(j, dst, out, mode, err, errlen);
    free(out);
    return rc;
}

int export_finish_dir(export_job_t *j, char *err, size_t errlen)
{
    char mark[256];
    snprintf(mark, sizeof mark, "written by cugrade export for lab %s; the next export of it "
             "replaces this folder\n", j->lab.name);
    if (export_write(j, EXPORT_MARK, mark, 0644, err, errlen) != 0) {
        export_abort(j);
        return -1;
    }
    char old[PATH_MAX + 64];
    snprintf(old, sizeof old, "%s.old.%ld", j->o->out, (long)getpid());
    int had_old = rename(j->o->out, old) == 0;
    if (rename(j->stage, j->o->out) != 0) {
        int e = errno;
        if (had_old)
            rename(old, j->o->out);
        export_abort(j);
        return fail(err, errlen, "%s: cannot put in place: %s", j->o->out, strerror(e));
    }
    if (had_old)
        rm_rf(old);
    j->stage[0] = '\0';
    return 0;
}

/* ---- the zip ------------------------------------------------------------------ */

static int zip_add(struct archive *a, const char *path, const char *rel, char *err, size_t errlen);

static int zip_dir(struct archive *a, const char *dir, const char *rel, char *err, size_t errlen)
{
    struct dirent **names;
    int n = scandir(dir, &names, NULL, alphasort), rc = 0;
    if (n < 0)
        return fail(err, errlen, "%s: %s", dir, strerror(errno));
    for (int i = 0; i < n; i++) {
        const char *name = names[i]->d_name;
        if (rc == 0 && strcmp(name, ".") != 0 && strcmp(name, "..") != 0) {
            char p[PATH_MAX], r[PATH_MAX];
            snprintf(p, sizeof p, "%s/%s", dir, name);
            snprintf(r, sizeof r, "%s%s%s", rel, rel[0] ? "/" : "", name);
            rc = zip_add(a, p, r, err, errlen);
        }
        free(names[i]);
    }
    free(names);
    return rc;
}

static int zip_add(struct archive *a, const char *path, const char *rel, char *err, size_t errlen)
{
    struct stat st;
    if (lstat(path, &st) != 0)
        return fail(err, errlen, "%s: %s", path, strerror(errno));
    int dir = S_ISDIR(st.st_mode);
    size_t len = 0;
    char *data = dir ? NULL : read_file(path, &len, err, errlen);
    if (!dir && !data)
        return -1;
    struct archive_entry *e = archive_entry_new();
    char name[PATH_MAX + 1];
    snprintf(name, sizeof name, "%s%s", rel, dir ? "/" : "");
    archive_entry_set_pathname(e, name);
    archive_entry_set_filetype(e, dir ? AE_IFDIR : AE_IFREG);
    archive_entry_set_perm(e, st.st_mode & 0777);
    archive_entry_set_size(e, (la_int64_t)len);
    archive_entry_set_mtime(e, st.st_mtime, 0);
    int rc = 0;
    if (archive_write_header(a, e) != ARCHIVE_OK ||
        (len && archive_write_data(a, data, len) != (la_ssize_t)len))
        rc = fail(err, errlen, "zip: %s: %s", rel, archive_error_string(a));
    archive_entry_free(e);
    free(data);
    return rc == 0 && dir ? zip_dir(a, path, rel, err, errlen) : rc;
}

int export_finish_zip(export_job_t *j, char *err, size_t errlen)
{
    char tmp[PATH_MAX + 64];
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld.zip", j->o->out, (long)getpid());
    struct archive *a = archive_write_new();
    int rc = 0;
    if (archive_write_set_format_zip(a) != ARCHIVE_OK ||
        archive_write_open_filename(a, tmp) != ARCHIVE_OK)
        rc = fail(err, errlen, "%s: cannot create: %s", tmp, archive_error_string(a));
    else
        rc = zip_dir(a, j->stage, "", err, errlen);
    if (archive_write_close(a) != ARCHIVE_OK && rc == 0)
        rc = fail(err, errlen, "%s: %s", tmp, archive_error_string(a));
    archive_write_free(a);
    if (rc == 0 && rename(tmp, j->o->out) != 0)
        rc = fail(err, errlen, "%s: cannot put in place: %s", j->o->out, strerror(errno));
    if (rc != 0)
        unlink(tmp);
    export_abort(j);
    j->stage[0] = '\0';
    return rc;
}
