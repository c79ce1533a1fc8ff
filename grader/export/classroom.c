/* classroom.c - `cugrade export classroom`: a GitHub Classroom starter
 * repository. The student's stub (student/<lab>/), the cugrade tree that
 * grades it (without the hidden datasets' secret and without the lab's
 * reference: the repository is the student's; a CANARY_STUDENT_COPY file
 * tells the grader so, pipeline/canary.h), its Makefile set to the lab and
 * the emulator backend so that
 * `make grade` grades it, a README, a .gitignore, and
 * .github/workflows/grade.yml that grades every push and reports the score
 * to GitHub Classroom. On the emulator only: the executor's limits are
 * counted from the reference's instructions, and the copy has no reference;
 * nor would a stronger boundary hold there, where the student owns the
 * workflow that grades. */
#include "export/export.h"
#include "export/export_tree.h"
#include "pipeline/canary.h"
#include "util/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define STUDENT_COPY_TEXT                                                                      \
    "This is a student's copy of a cugrade lab (cugrade export classroom): it has no reference\n" \
    "solution, so cugrade cannot run the lab's reference to tell a broken toolchain from a\n"     \
    "mistake in the submission. Grades made here are feedback; the course grades with the\n"     \
    "reference (cugrade batch, Gradescope, PrairieLearn).\n"

/* Sets the Makefile's `KEY ?= value` default line to val. */
static int set_default(char **text, const char *key, const char *val, char *err, size_t errlen)
{
    char *p = *text;
    size_t klen = strlen(key);
    while (p && !(strncmp(p, key, klen) == 0 && strchr(" \t", p[klen]) &&
                  strstr(p, "?=") && strstr(p, "?=") < strchr(p, '\n')))
        p = (p = strchr(p, '\n')) ? p + 1 : NULL;
    if (!p)
        return fail(err, errlen, "Makefile: no `%s ?=` line to set", key);
    char *eol = strchr(p, '\n');
    strbuf_t sb = {0};
    sb_appendn(&sb, *text, (size_t)(p - *text));
    sb_appendf(&sb, "%s ?= %s", key, val);
    sb_append(&sb, eol ? eol : "");
    free(*text);
    *text = sb_detach(&sb);
    return 0;
}

static int write_makefile(const export_job_t *j, char *err, size_t errlen)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/Makefile", j->o->root);
    char *text = read_file(path, NULL, err, errlen);
    if (!text)
        return -1;
    int rc = set_default(&text, "LAB", j->lab.name, err, errlen);
    if (rc == 0)
        rc = set_default(&text, "BACKEND", "emu", err, errlen);
    if (rc == 0)
        rc = export_write(j, "Makefile", text, 0644, err, errlen);
    free(text);
    return rc;
}

int export_classroom(const export_opts_t *o, char *err, size_t errlen)
{
    if (o->backend && strcmp(o->backend, "emu") != 0)
        return fail(err, errlen, "--backend %s: a Classroom starter grades on the emulator only (the "
                    "executor counts its limits from the reference's instructions, and a student's "
                    "copy has no reference; the student owns the workflow that grades it anyway)",
                    o->backend);
    export_opts_t on_emu = *o;
    on_emu.backend = "emu";
    o = &on_emu;
    export_job_t j;
    if (export_begin(o, &j, err, errlen) != 0)
        return -1;
    char stub[PATH_MAX];
    snprintf(stub, sizeof stub, "student/%s/%s", j.lab.name, j.lab.student_file);
    if (export_copy_tree(&j, ".", 0, err, errlen) != 0 || write_makefile(&j, err, errlen) ||
        export_write(&j, CANARY_STUDENT_COPY, STUDENT_COPY_TEXT, 0644, err, errlen) ||
        export_copy_file(&j, stub, stub, err, errlen) ||
        export_template(&j, "classroom/README.md", "README.md", 0644, err, errlen) ||
        export_template(&j, "classroom/grade.yml", ".github/workflows/grade.yml", 0644, err,
                        errlen) ||
        export_write(&j, ".gitignore", "/build/\n/bin/\n/.cugrade/\n*.tmp.*\n", 0644, err,
                     errlen)) {
        export_abort(&j);
        return -1;
    }
    if (export_finish_dir(&j, err, errlen) != 0)
        return -1;
    return 0;
}
