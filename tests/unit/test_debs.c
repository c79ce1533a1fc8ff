/* test_debs.c - tools/debs.sh, which carries the grader's packages to a
 * machine without a mirror: `fetch` against a fake apt-get on PATH (no
 * network) that records what it is asked to download, `env` with a small
 * real .deb made here with dpkg-deb. The list it fetches must hold every
 * "grade" library of tools/deps.txt. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "run/runner.h"
#include "util/util.h"

static char dir[64];

static void make_dir(void)
{
    snprintf(dir, sizeof dir, "/tmp/cugrade-debs-XXXXXX");
    cr_assert_not_null(mkdtemp(dir));
}

static void remove_dir(void) { rm_rf(dir); }

TestSuite(debs, .init = make_dir, .fini = remove_dir);

/* `sh -c script` from the checkout. */
static run_result_t shell(const char *script)
{
    char *argv[] = {"/bin/sh", "-c", (char *)script, NULL};
    run_spec_t spec = {.argv = argv, .timeout_s = 60};
    run_result_t r;
    run_one(&spec, &r);
    return r;
}

/* A fake apt-get in dir/bin: "download P..." writes P_1_amd64.deb for each
 * and logs the names, one line a call; with fails, it exits 100. */
static void fake_apt(int fails)
{
    char path[128], text[512];
    snprintf(path, sizeof path, "%s/bin", dir);
    cr_assert_eq(mkdir_p(path, NULL, 0), 0);
    snprintf(path, sizeof path, "%s/bin/apt-get", dir);
    snprintf(text, sizeof text,
             "#!/bin/sh\n%s[ \"$1\" = download ] || exit 99\nshift\necho \"$@\" >> %s/apt.log\n"
             "for p in \"$@\"; do : > \"${p}_1_amd64.deb\"; done\n",
             fails ? "echo 'E: Unable to locate package' >&2; exit 100\n" : "", dir);
    cr_assert_eq(write_file_atomic(path, text, strlen(text), NULL, 0), 0);
    chmod(path, 0755);
}

Test(debs, fetch_downloads_the_libraries_the_grader_links_and_bubblewrap)
{
    fake_apt(0);
    char script[512];
    snprintf(script, sizeof script, "PATH=%s/bin:$PATH tools/debs.sh fetch %s/debs", dir, dir);
    run_result_t r = shell(script);
    cr_assert(r.exited && r.exit_code == 0, "%s", r.output);
    char path[128];
    snprintf(path, sizeof path, "%s/apt.log", dir);
    char *log = read_file(path, NULL, NULL, 0);
    cr_assert_not_null(log, "apt-get was not called");
    const char *want[] = {"libjson-c-dev", "libarchive-dev", "libpng-dev", "nettle-dev",
                          "libjson-c5",    "libarchive13",   "libpng16-16", "libnettle8",
                          "zlib1g-dev",    "libseccomp-dev", "bubblewrap"};
    for (size_t i = 0; i < sizeof want / sizeof *want; i++)
        cr_assert_not_null(strstr(log, want[i]), "%s not fetched: %s", want[i], log);
    snprintf(path, sizeof path, "%s/debs/nettle-dev_1_amd64.deb", dir);
    cr_assert(is_file(path), "not downloaded into DIR");
    free(log);
    run_result_free(&r);
}

Test(debs, a_failing_fetch_is_exit_2_with_the_reason)
{
    fake_apt(1);
    char script[512];
    snprintf(script, sizeof script, "PATH=%s/bin:$PATH tools/debs.sh fetch %s/debs", dir, dir);
    run_result_t r = shell(script);
    cr_assert(r.exited && r.exit_code == 2, "exit %d: %s", r.exit_code, r.output);
    cr_assert_not_null(strstr(r.output, "apt-get download failed"), "%s", r.output);
    run_result_free(&r);
}

/* A package holding a library's .pc file, unpacked and built against. */
Test(debs, env_unpacks_every_deb_and_points_pkg_config_at_it)
{
    char script[2048];
    snprintf(script, sizeof script,
             "set -e; p=%s/pkg; mkdir -p $p/DEBIAN $p/usr/lib/x86_64-linux-gnu/pkgconfig "
             "%s/debs;\n"
             "printf 'Package: cugrade-fake\\nVersion: 1\\nArchitecture: amd64\\n"
             "Maintainer: t <t@t>\\nDescription: t\\n' > $p/DEBIAN/control;\n"
             "printf 'prefix=/usr\\nName: fake\\nDescription: f\\nVersion: 1\\n"
             "Cflags: -I${prefix}/include/fake\\n' > $p/usr/lib/x86_64-linux-gnu/pkgconfig/fake.pc;\n"
             "dpkg-deb --build $p %s/debs/fake.deb > /dev/null;\n"
             "eval \"$(tools/debs.sh env %s/debs %s/root)\";\n"
             "echo \"sysroot=$PKG_CONFIG_SYSROOT_DIR skip=$CUGRADE_SKIP_DEPS\";\n"
             "echo \"cflags=$(pkg-config --cflags fake)\"",
             dir, dir, dir, dir, dir);
    run_result_t r = shell(script);
    cr_assert(r.exited && r.exit_code == 0, "%s", r.output);
    char want[256];
    snprintf(want, sizeof want, "sysroot=%s/root skip=1", dir);
    cr_assert_not_null(strstr(r.output, want), "%s", r.output);
    snprintf(want, sizeof want, "cflags=-I%s/root/usr/include/fake", dir);
    cr_assert_not_null(strstr(r.output, want), "pkg-config does not name the unpacked files: %s",
                       r.output);
    cr_assert_not_null(strstr(r.output, "1 packages unpacked"), "%s", r.output);
    run_result_free(&r);
}

Test(debs, env_without_debs_is_exit_2_and_says_how_to_get_them)
{
    char script[256];
    snprintf(script, sizeof script, "mkdir -p %s/empty && tools/debs.sh env %s/empty %s/root",
             dir, dir, dir);
    run_result_t r = shell(script);
    cr_assert(r.exited && r.exit_code == 2, "exit %d: %s", r.exit_code, r.output);
    cr_assert_not_null(strstr(r.output, "no .deb files in"), "%s", r.output);
    cr_assert_not_null(strstr(r.output, "tools/debs.sh fetch"), "%s", r.output);
    run_result_free(&r);
}
