/* test_datasets_made.c - the datasets a manifest marks "generated"
 * (pipeline/datasets_made.h): a malformed line is named with its line
 * number in the file, blank lines and comments counted; a generated
 * folder is told from a shipped one (what an export leaves out). Runs from
 * the repository root (lab vecadd's generator). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pipeline/datasets_made.h"
#include "util/tmpdir.h"
#include "util/util.h"

static void write_manifest(const char *dir, const char *text)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/manifest.txt", dir);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs(text, f);
    fclose(f);
}

Test(datasets_made, a_bad_line_is_named_with_its_line_in_the_file)
{
    char dir[PATH_MAX], err[512] = "";
    cr_assert_eq(tmp_dir_make("made", dir, sizeof dir, err, sizeof err), 0, "%s", err);
    lab_t lab;
    cr_assert_eq(lab_load(".", "vecadd", &lab, err, sizeof err), 0, "%s", err);
    write_manifest(dir, "# a comment\n\n0 10 1 course\n\n1 20 2 sideways generated\n");
    cr_assert_eq(datasets_make_missing(dir, &lab, err, sizeof err), -1);
    cr_assert(strstr(err, "/manifest.txt:5: values must be course or signed, not 'sideways'"), "%s", err);
    rm_rf(dir);
}

Test(datasets_made, a_generated_folder_is_told_from_a_shipped_one)
{
    char dir[PATH_MAX], err[512] = "";
    cr_assert_eq(tmp_dir_make("made", dir, sizeof dir, err, sizeof err), 0, "%s", err);
    write_manifest(dir, "0 10 1 course   # shipped\n8 1048577 9 course generated  # too large\n");
    cr_assert(datasets_is_generated(dir, "8"));
    cr_assert(!datasets_is_generated(dir, "0"));
    cr_assert(!datasets_is_generated(dir, "9"));
    rm_rf(dir);
}
