/* test_checked_build.c - pipeline/checked_build.h: the checks' emulator
 * build of a gpu grading, made in a thread beside the dataset runs or at
 * the take, gives the same program either way; a thread never taken is
 * joined and freed at the end; a scratch folder that cannot be made is an
 * error at the take. On the emulator backend (bin/emucc), here. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "course/lab.h"
#include "pipeline/checked_build.h"
#include "util/util.h"

#define SOURCE "reference/lab3/matmul.cu"

static lab_t *lab3(void)
{
    lab_t *lab = calloc(1, sizeof *lab);
    char err[1024];
    cr_assert_eq(lab_load(".", "lab3", lab, err, sizeof err), 0, "%s", err);
    return lab;
}

static char *scratch(void)
{
    char *dir = strdup("/tmp/cugrade-cbuild-XXXXXX");
    cr_assert_not_null(mkdtemp(dir));
    return dir;
}

static void take_and_check(checked_build_t *cb, const char *dir)
{
    build_result_t br;
    double seconds = -1;
    cr_assert_eq(checked_build_take(cb, &br, &seconds), 0);
    cr_assert(br.ok, "the reference did not build: %s", br.log ? br.log : "");
    cr_assert(is_file(br.program), "no program at %s", br.program);
    char want[4200];
    snprintf(want, sizeof want, "%s/emu-checks/", dir);
    cr_assert(strncmp(br.program, want, strlen(want)) == 0, "built at %s", br.program);
    cr_assert(seconds > 0, "its time: %g s", seconds);
    build_result_free(&br);
}

Test(checked_build, built_in_a_thread_or_at_the_take_alike, .timeout = 300)
{
    lab_t *lab = lab3();
    char *a = scratch(), *b = scratch();
    checked_build_t threaded, in_place;
    checked_build_init(&threaded, ".", lab, a, SOURCE, 180);
    checked_build_start(&threaded);
    cr_assert(threaded.running, "no thread was started");
    checked_build_init(&in_place, ".", lab, b, SOURCE, 180);
    take_and_check(&threaded, a);
    take_and_check(&in_place, b);
    checked_build_end(&threaded);
    checked_build_end(&in_place);
    rm_rf(a);
    rm_rf(b);
    free(a);
    free(b);
    free(lab);
}

Test(checked_build, a_thread_never_taken_is_joined_at_the_end, .timeout = 300)
{
    lab_t *lab = lab3();
    char *a = scratch();
    checked_build_t cb;
    checked_build_init(&cb, ".", lab, a, SOURCE, 180);
    checked_build_start(&cb);
    checked_build_end(&cb);
    cr_assert(!cb.running && !cb.built, "running %d, built %d", cb.running, cb.built);
    rm_rf(a);
    free(a);
    free(lab);
}

Test(checked_build, no_scratch_folder_is_an_error_at_the_take, .timeout = 60)
{
    lab_t *lab = lab3();
    checked_build_t cb;
    checked_build_init(&cb, ".", lab, "/proc/cugrade-no-such-folder", SOURCE, 180);
    checked_build_start(&cb);
    cr_assert(!cb.running, "a thread started without its folder");
    build_result_t br;
    double seconds;
    cr_assert_eq(checked_build_take(&cb, &br, &seconds), -1);
    checked_build_end(&cb);
    free(lab);
}
