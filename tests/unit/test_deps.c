/* test_deps.c - tools/deps.sh, the install check `make` runs before building,
 * against a package list the test controls and a pretend Debian: fake
 * dpkg-query, apt-get and id on PATH, with the "installed" packages kept in a
 * file. No network, no real apt-get. The real list is read too: Slurm for
 * make test only, the linked libraries (libpng, nettle, ...) for make grade. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "run/runner.h"
#include "test_files.h"
#include "util/util.h"

typedef struct {
    char dir[64];
    char bin[96];
    char list[96];
    char db[96];     /* one installed package per line */
    char aptlog[96]; /* every apt-get call, one line each */
} fake_debian_t;

/* A pretend Debian in a temporary folder: uid is 0 (root) or 1000, apt-get
 * succeeds (installing what it is asked for) unless apt_fails. */
static fake_debian_t fake_debian(const char *list, const char *installed, int uid, int apt_fails)
{
    fake_debian_t d;
    snprintf(d.dir, sizeof d.dir, "/tmp/cugrade-deps-XXXXXX");
    cr_assert_not_null(mkdtemp(d.dir));
    snprintf(d.bin, sizeof d.bin, "%s/bin", d.dir);
    snprintf(d.list, sizeof d.list, "%s/deps.txt", d.dir);
    snprintf(d.db, sizeof d.db, "%s/installed", d.dir);
    snprintf(d.aptlog, sizeof d.aptlog, "%s/apt.log", d.dir);
    cr_assert_eq(mkdir_p(d.bin, NULL, 0), 0);
    write_text(d.list, list, 0);
    write_text(d.db, installed, 0);

    char path[160];
    strbuf_t sb = {0};
    /* dpkg-query -W -f=FORMAT pkg...: "pkg ii " for installed ones, an error
     * (and exit 1) for the others, as the real one does. */
    sb_appendf(&sb,
               "#!/bin/sh\nshift 2\nrc=0\nfor p in \"$@\"; do\n"
               "  if grep -qx \"$p\" %s; then echo \"$p ii \"; else "
               "echo \"dpkg-query: no packages found matching $p\" >&2; rc=1; fi\ndone\nexit $rc\n",
               d.db);
    snprintf(path, sizeof path, "%s/dpkg-query", d.bin);
    write_text(path, sb_str(&sb), 1);
    sb_free(&sb);

    sb_appendf(&sb, "#!/bin/sh\necho \"$*\" >> %s\n", d.aptlog);
    if (apt_fails)
        sb_append(&sb, "echo 'E: Unable to locate package' >&2\nexit 100\n");
    else
        sb_appendf(&sb, "[ \"$1\" = install ] || exit 0\nshift\nfor p in \"$@\"; do\n"
                        "  case \"$p\" in -*) ;; *) echo \"$p\" >> %s ;; esac\ndone\n",
                   d.db);
    snprintf(path, sizeof path, "%s/apt-get", d.bin);
    write_text(path, sb_str(&sb), 1);
    sb_free(&sb);

    sb_appendf(&sb, "#!/bin/sh\necho %d\n", uid);
    snprintf(path, sizeof path, "%s/id", d.bin);
    write_text(path, sb_str(&sb), 1);
    sb_free(&sb);
    return d;
}

/* Runs tools/deps.sh WANT in the pretend Debian. */
static run_result_t run_deps(const fake_debian_t *d, const char *want)
{
    char path_env[4200], list_env[160];
    snprintf(path_env, sizeof path_env, "PATH=%s:%s", d->bin, getenv("PATH"));
    snprintf(list_env, sizeof list_env, "CUGRADE_DEPS_LIST=%s", d->list);
    char *env[] = {path_env, list_env, "CUGRADE_SKIP_DEPS=0", NULL};
    char *argv[] = {"tools/deps.sh", (char *)want, NULL};
    run_spec_t spec = {.argv = argv, .extra_env = env, .timeout_s = 30, .output_cap = 1 << 16};
    run_result_t r;
    run_one(&spec, &r);
    return r;
}

static char *apt_calls(const fake_debian_t *d)
{
    char *text = read_file(d->aptlog, NULL, NULL, 0);
    return text ? text : strdup("");
}

static const char *LIST = "# a comment\n"
                          "build-essential   grade\n"
                          "libjson-c-dev     grade\n"
                          "\n"
                          "libcriterion-dev  test\n";

Test(deps, a_machine_that_has_everything_pays_no_apt_call)
{
    fake_debian_t d = fake_debian(LIST, "build-essential\nlibjson-c-dev\nlibcriterion-dev\n", 0, 0);
    run_result_t r = run_deps(&d, "test");
    cr_assert(r.exited && r.exit_code == 0, "exit %d: %s", r.exit_code, r.output);
    cr_assert_str_eq(r.output, "", "a complete machine prints nothing, got: %s", r.output);
    char *calls = apt_calls(&d);
    cr_assert_str_eq(calls, "", "apt-get was called: %s", calls);
    free(calls);
    run_result_free(&r);
    rm_rf(d.dir);
}

Test(deps, grade_does_not_ask_for_the_test_packages)
{
    fake_debian_t d = fake_debian(LIST, "build-essential\nlibjson-c-dev\n", 1000, 0);
    run_result_t r = run_deps(&d, "grade");
    cr_assert(r.exited && r.exit_code == 0, "exit %d: %s", r.exit_code, r.output);
    run_result_free(&r);

    r = run_deps(&d, "test"); /* test needs libcriterion-dev as well */
    cr_assert(r.exited && r.exit_code == 2, "exit %d: %s", r.exit_code, r.output);
    cr_assert_not_null(strstr(r.output, "  sudo apt-get install -y libcriterion-dev\n"), "%s", r.output);
    run_result_free(&r);
    rm_rf(d.dir);
}

Test(deps, a_user_gets_the_one_sudo_line_and_exit_2)
{
    fake_debian_t d = fake_debian(LIST, "build-essential\n", 1000, 0);
    run_result_t r = run_deps(&d, "test");
    cr_assert(r.exited && r.exit_code == 2, "exit %d: %s", r.exit_code, r.output);
    cr_assert_not_null(strstr(r.output, "not installed: libjson-c-dev libcriterion-dev"), "%s", r.output);
    cr_assert_not_null(strstr(r.output, "\n  sudo apt-get install -y libjson-c-dev libcriterion-dev\n"),
                       "%s", r.output);
    char *calls = apt_calls(&d);
    cr_assert_str_eq(calls, "", "apt-get must not run as a user: %s", calls);
    free(calls);
    run_result_free(&r);
    rm_rf(d.dir);
}

Test(deps, root_installs_what_is_missing_then_pays_nothing)
{
    fake_debian_t d = fake_debian(LIST, "libjson-c-dev\n", 0, 0);
    run_result_t r = run_deps(&d, "test");
    cr_assert(r.exited && r.exit_code == 0, "exit %d: %s", r.exit_code, r.output);
    cr_assert_not_null(strstr(r.output, "installing build-essential libcriterion-dev"), "%s", r.output);
    char *calls = apt_calls(&d);
    cr_assert_str_eq(calls, "update -qq\ninstall -y -qq build-essential libcriterion-dev\n", "%s", calls);
    free(calls);
    run_result_free(&r);

    r = run_deps(&d, "test"); /* now everything is there: no second apt call */
    cr_assert(r.exited && r.exit_code == 0, "exit %d: %s", r.exit_code, r.output);
    cr_assert_str_eq(r.output, "");
    calls = apt_calls(&d);
    cr_assert_str_eq(calls, "update -qq\ninstall -y -qq build-essential libcriterion-dev\n", "%s", calls);
    free(calls);
    run_result_free(&r);
    rm_rf(d.dir);
}

Test(deps, a_failing_apt_get_is_exit_2_with_its_message)
{
    fake_debian_t d = fake_debian(LIST, "", 0, 1);
    run_result_t r = run_deps(&d, "grade");
    cr_assert(r.exited && r.exit_code == 2, "exit %d: %s", r.exit_code, r.output);
    cr_assert_not_null(strstr(r.output, "apt-get could not install build-essential libjson-c-dev"), "%s",
                       r.output);
    run_result_free(&r);
    rm_rf(d.dir);
}

Test(deps, an_unreadable_list_or_a_bad_argument_is_exit_2)
{
    fake_debian_t d = fake_debian(LIST, "", 0, 0);
    rm_rf(d.list);
    run_result_t r = run_deps(&d, "grade");
    cr_assert(r.exited && r.exit_code == 2, "exit %d: %s", r.exit_code, r.output);
    cr_assert_not_null(strstr(r.output, "cannot read the package list"), "%s", r.output);
    run_result_free(&r);
    r = run_deps(&d, "everything");
    cr_assert(r.exited && r.exit_code == 2, "exit %d: %s", r.exit_code, r.output);
    cr_assert_not_null(strstr(r.output, "usage: tools/deps.sh grade|test"), "%s", r.output);
    run_result_free(&r);
    rm_rf(d.dir);
}

Test(deps, the_real_list_asks_for_slurm_for_make_test_only)
{
    char *list = read_file("tools/deps.txt", NULL, NULL, 0);
    cr_assert_not_null(list, "cannot read tools/deps.txt");
    fake_debian_t d = fake_debian(list, "", 1000, 0);
    free(list);
    run_result_t r = run_deps(&d, "grade");
    cr_assert(r.exited && r.exit_code == 2, "exit %d: %s", r.exit_code, r.output);
    cr_assert_null(strstr(r.output, "slurm"), "grade asks for Slurm: %s", r.output);
    cr_assert_null(strstr(r.output, "munge"), "grade asks for munge: %s", r.output);
    run_result_free(&r);
    r = run_deps(&d, "test"); /* tests/slurm/test_slurm.sh runs a Slurm of its own */
    cr_assert(r.exited && r.exit_code == 2, "exit %d: %s", r.exit_code, r.output);
    cr_assert_not_null(strstr(r.output, " slurmctld slurmd slurm-client munge"), "%s", r.output);
    run_result_free(&r);
    rm_rf(d.dir);
}

Test(deps, the_real_list_asks_for_the_libraries_the_grader_links_for_make_grade)
{
    char *list = read_file("tools/deps.txt", NULL, NULL, 0);
    cr_assert_not_null(list, "cannot read tools/deps.txt");
    fake_debian_t d = fake_debian(list, "", 1000, 0);
    free(list);
    run_result_t r = run_deps(&d, "grade"); /* the Makefile's pkg-config names, by package */
    cr_assert(r.exited && r.exit_code == 2, "exit %d: %s", r.exit_code, r.output);
    const char *libs[] = {" libjson-c-dev", " libarchive-dev", " libpng-dev", " nettle-dev"};
    for (size_t i = 0; i < sizeof libs / sizeof libs[0]; i++)
        cr_assert_not_null(strstr(r.output, libs[i]), "grade does not ask for%s: %s", libs[i], r.output);
    run_result_free(&r);
    rm_rf(d.dir);
}
