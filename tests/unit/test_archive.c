/* test_archive.c - the safety checks of submission archives (archive.c):
 * good .tar.gz and .zip archives unpack; `..`, absolute paths, symlinks,
 * too many entries and too many bytes are each refused with a clear reason.
 * Archives are made with tar, and with zip or python3's zipfile. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "batch/archive.h"
#include "util/util.h"

static char dir[64];

static void setup(void)
{
    snprintf(dir, sizeof dir, "/tmp/cugrade-arch-XXXXXX");
    cr_assert_not_null(mkdtemp(dir));
}

static void teardown(void) { rm_rf(dir); }

/* Runs a shell line in dir (the test's own fixtures only). */
static void sh(const char *fmt, const char *arg)
{
    char cmd[2048], line[1024];
    snprintf(line, sizeof line, fmt, arg);
    snprintf(cmd, sizeof cmd, "cd %s && (%s) >/dev/null 2>&1", dir, line);
    cr_assert_eq(system(cmd), 0, "fixture failed: %s", line);
}

/* A zip of the paths in `files` (relative to dir), symlinks stored as links. */
static void make_zip(const char *name, const char *files)
{
    char tool[512], line[1024];
    if (archive_find_tool("zip", tool, sizeof tool) == 0)
        snprintf(line, sizeof line, "zip -qry %s %s", name, files);
    else
        snprintf(line, sizeof line,
                 "python3 -c \"import zipfile,sys; z=zipfile.ZipFile('%s','w');"
                 " [z.write(f) for f in sys.argv[1:]]\" %s", name, files);
    sh("%s", line);
}

static const char *validate(const char *name)
{
    static char err[512];
    char path[256];
    err[0] = '\0';
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return archive_validate(path, err, sizeof err) == 0 ? NULL : err;
}

static int have_unzip(void)
{
    char tool[512];
    return archive_find_tool("unzip", tool, sizeof tool) == 0;
}

TestSuite(archive, .init = setup, .fini = teardown);

Test(archive, kind_and_student_id_from_the_name)
{
    size_t stem = 0;
    cr_assert_eq(archive_kind("alice.zip", &stem), ARCHIVE_ZIP);
    cr_assert_eq(stem, 5);
    cr_assert_eq(archive_kind("bob.tar.gz", &stem), ARCHIVE_TGZ);
    cr_assert_eq(stem, 3);
    cr_assert_eq(archive_kind("carol.tgz", &stem), ARCHIVE_TGZ);
    cr_assert_eq(archive_kind("dave.tar", &stem), ARCHIVE_NONE);
    cr_assert_eq(archive_kind(".zip", &stem), ARCHIVE_NONE);
}

Test(archive, a_good_tar_gz_unpacks)
{
    sh("%s", "mkdir -p s/src && echo kernel > s/src/matmul.cu && tar czf good.tgz s && mkdir out");
    char path[256], out[256], err[512] = "";
    snprintf(path, sizeof path, "%s/good.tgz", dir);
    snprintf(out, sizeof out, "%s/out", dir);
    cr_assert_eq(archive_unpack(path, out, err, sizeof err), 0, "%s", err);
    snprintf(path, sizeof path, "%s/out/s/src/matmul.cu", dir);
    cr_assert(is_file(path));
}

Test(archive, a_good_zip_unpacks)
{
    if (!have_unzip())
        cr_skip_test("unzip is not installed");
    sh("%s", "mkdir -p s/lab3 && echo kernel > s/lab3/matmul.cu && mkdir out");
    make_zip("good.zip", "s");
    char path[256], out[256], err[512] = "";
    snprintf(path, sizeof path, "%s/good.zip", dir);
    snprintf(out, sizeof out, "%s/out", dir);
    cr_assert_eq(archive_unpack(path, out, err, sizeof err), 0, "%s", err);
    snprintf(path, sizeof path, "%s/out/s/lab3/matmul.cu", dir);
    cr_assert(is_file(path));
}

Test(archive, dot_dot_is_refused)
{
    sh("%s", "mkdir -p a/b && echo x > a/evil && cd a/b && tar czPf ../../dd.tgz ../evil");
    const char *why = validate("dd.tgz");
    cr_assert_not_null(why);
    cr_assert(strstr(why, "'..'"), "%s", why);
}

Test(archive, an_absolute_path_is_refused)
{
    sh("%s", "echo x > x && tar czf abs.tgz --absolute-names \"$PWD/x\"");
    const char *why = validate("abs.tgz");
    cr_assert_not_null(why);
    cr_assert(strstr(why, "absolute path"), "%s", why);
}

Test(archive, a_symlink_is_refused_in_tar_and_zip)
{
    sh("%s", "mkdir s && ln -s /etc/passwd s/matmul.cu && tar czf link.tgz s");
    const char *why = validate("link.tgz");
    cr_assert_not_null(why);
    cr_assert(strstr(why, "link"), "%s", why);
    char tool[512];
    if (!have_unzip() || archive_find_tool("zip", tool, sizeof tool) != 0)
        cr_skip_test("zip or unzip is not installed");
    make_zip("link.zip", "s");
    why = validate("link.zip");
    cr_assert_not_null(why);
    cr_assert(strstr(why, "link"), "%s", why);
}

Test(archive, three_hundred_entries_are_refused)
{
    sh("%s", "mkdir many && for i in $(seq 300); do : > many/f$i; done && tar czf many.tgz many");
    const char *why = validate("many.tgz");
    cr_assert_not_null(why);
    cr_assert(strstr(why, "more than 200 entries"), "%s", why);
}

Test(archive, thirty_mib_unpacked_is_refused_in_tar_and_zip)
{
    sh("%s", "mkdir big && head -c 31457280 /dev/zero > big/f && tar czf big.tgz big");
    const char *why = validate("big.tgz");
    cr_assert_not_null(why);
    cr_assert(strstr(why, "more than 20 MiB"), "%s", why);
    if (!have_unzip())
        cr_skip_test("unzip is not installed");
    make_zip("big.zip", "big");
    why = validate("big.zip");
    cr_assert_not_null(why);
    cr_assert(strstr(why, "more than 20 MiB"), "%s", why);
}

Test(archive, a_missing_tool_is_named)
{
    char err[512] = "", path[256];
    sh("%s", "echo x > x && tar czf ok.tgz x");
    snprintf(path, sizeof path, "%s/ok.tgz", dir);
    setenv("PATH", "/nonexistent", 1);
    int rc = archive_validate(path, err, sizeof err);
    cr_assert_eq(rc, -1);
    cr_assert(strstr(err, "tar is not installed"), "%s", err);
}
