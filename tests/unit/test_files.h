/* test_files.h - writing the small files a unit test sets up (scripts,
 * lists, pretend binaries), asserted; shared by the tests that make them. */
#ifndef CUGRADE_TEST_FILES_H
#define CUGRADE_TEST_FILES_H

#include <criterion/criterion.h>
#include <stdio.h>
#include <sys/stat.h>

/* Writes text to path, made executable (0755) when executable is set. */
static inline void write_text(const char *path, const char *text, int executable)
{
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f, "cannot write %s", path);
    fputs(text, f);
    fclose(f);
    if (executable)
        cr_assert_eq(chmod(path, 0755), 0);
}

#endif
