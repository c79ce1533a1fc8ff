/* export_tree.h - what the three exports share: the lab checked and loaded,
 * a staging folder the package is assembled in, the cugrade tree copied into
 * it, the templates of grader/export/templates/ filled in, and the package
 * put in place (a folder renamed, or the folder zipped with libarchive to a
 * temporary name and renamed), so a failed export leaves nothing behind. */
#ifndef CUGRADE_EXPORT_TREE_H
#define CUGRADE_EXPORT_TREE_H

#include "course/lab.h"
#include "export/export.h"

#include <limits.h>
#include <stddef.h>

/* In every exported folder: a folder at --out without it is never replaced. */
#define EXPORT_MARK ".cugrade-export"

typedef struct {
    const export_opts_t *o;
    lab_t lab;
    char stage[PATH_MAX + 32]; /* the package being assembled */
} export_job_t;

/* What of the cugrade tree a package carries. */
enum {
    TREE_PUBLIC = 0,     /* the grader, the emulator, the lab, its datasets, the reference */
    TREE_WITH_SECRET = 1 /* and the hidden datasets' secret, at secret/hidden-seed */
};

/* The backend the package grades on (export_opts_t.backend): "vgpu" or "emu". */
const char *export_backend(const export_opts_t *o);

/* Loads the lab (an unknown lab is refused, naming it), refuses a folder at
 * o->out that no export wrote, and makes the staging folder next to o->out.
 * -1 with err on failure. */
int export_begin(const export_opts_t *o, export_job_t *j, char *err, size_t errlen);

/* Copies what grading the lab needs of the cugrade tree to <stage>/dst. */
int export_copy_tree(const export_job_t *j, const char *dst, int with_reference, char *err,
                     size_t errlen);

/* Copies the hidden datasets' secret (hidden_secret_load: made on first use)
 * to <stage>/dst, mode 0600. */
int export_copy_secret(const export_job_t *j, const char *dst, char *err, size_t errlen);

/* Copies one file of the cugrade tree (src relative to it) to <stage>/dst. */
int export_copy_file(const export_job_t *j, const char *src, const char *dst, char *err,
                     size_t errlen);

/* Writes grader/export/templates/<tpl> to <stage>/dst with @LAB@,
 * @STUDENT_FILE@, @TITLE@ and @KIND@ filled in, with the given mode. */
int export_template(const export_job_t *j, const char *tpl, const char *dst, int mode,
                    char *err, size_t errlen);

/* Writes text to <stage>/dst (its folders made), with the given mode. */
int export_write(const export_job_t *j, const char *dst, const char *text, int mode, char *err,
                 size_t errlen);

/* Puts the staging folder at o->out, with EXPORT_MARK in it; an earlier
 * export there is replaced (export_begin refuses any other folder). */
int export_finish_dir(export_job_t *j, char *err, size_t errlen);

/* Zips the staging folder's contents into o->out (a temporary name, then
 * renamed) and removes the staging folder. */
int export_finish_zip(export_job_t *j, char *err, size_t errlen);

/* Removes the staging folder (after a failure). */
void export_abort(export_job_t *j);

#endif
