/* test_docs_agree.c - the numbers the docs give are the tool's (issue 38
 * item 12): each handout's "N points on a GPU and M on the CPU emulator" is
 * the maximum a grading of its reference reports on the emulator (and that
 * plus the rubric's performance points on a GPU), and the README's lab 3
 * tolerance is labs/lab3/lab.json's. A change of rubric.json or lab.json
 * that leaves a handout behind fails here. */
#include <regex.h>

#include "e2e.h"

/* The text with markdown's emphasis dropped and every run of white space one
 * space (a sentence may wrap). */
static char *flat(const char *text)
{
    char *out = malloc(strlen(text) + 1);
    size_t n = 0;
    for (const char *p = text; *p; p++) {
        if (*p == '*')
            continue;
        int space = *p == ' ' || *p == '\n' || *p == '\t';
        if (space && n && out[n - 1] == ' ')
            continue;
        out[n++] = space ? ' ' : *p;
    }
    out[n] = '\0';
    return out;
}

/* The most a submission can score on the emulator: the max of the
 * reference's results, summed. */
static double emulator_max(const char *lab)
{
    char path[128], dir[] = "/tmp/cugrade-docs-XXXXXX", json[64];
    snprintf(path, sizeof path, "reference/%s", lab);
    cr_assert_not_null(mkdtemp(dir));
    snprintf(json, sizeof json, "%s/r.json", dir);
    char *argv[] = {"bin/cugrade", "run", "--lab", (char *)lab, "--backend", "emu", "--checks",
                    "none", "--json", json, path, NULL};
    run_spec_t spec = {.argv = argv, .timeout_s = 600, .output_cap = 1 << 20};
    run_result_t r;
    run_one(&spec, &r);
    cr_assert(r.exited && r.exit_code == 0, "%s: %s", lab, r.output);
    run_result_free(&r);
    json_object *j = json_object_from_file(json), *tests;
    cr_assert_not_null(j);
    double max = 0;
    cr_assert(json_object_object_get_ex(j, "tests", &tests));
    for (size_t i = 0; i < json_object_array_length(tests); i++)
        max += num(json_object_array_get_idx(tests, i), "max_score");
    json_object_put(j);
    rm_rf(dir);
    return max;
}

/* rubric.json's performance points of lab (0 if none). */
static double performance_points(const char *lab)
{
    json_object *r = json_object_from_file("rubric.json"), *labs, *l, *perf, *pts;
    cr_assert_not_null(r);
    double p = 0;
    if (json_object_object_get_ex(r, "labs", &labs) && json_object_object_get_ex(labs, lab, &l) &&
        json_object_object_get_ex(l, "performance", &perf) &&
        json_object_object_get_ex(perf, "points", &pts))
        p = json_object_get_double(pts);
    json_object_put(r);
    return p;
}

/* The handout's "N points on a GPU and M on the CPU emulator" (either
 * order), into *gpu and *emu; 0 if it says none. */
static int handout_points(const char *lab, double *gpu, double *emu)
{
    char path[128];
    snprintf(path, sizeof path, "labs/%s/README.md", lab);
    char *text = read_file(path, NULL, NULL, 0);
    if (!text)
        return 0;
    char *f = flat(text);
    free(text);
    regex_t re;
    cr_assert_eq(regcomp(&re, "([0-9.]+) points on (a GPU|the CPU emulator) and ([0-9.]+) on "
                              "(a GPU|the CPU emulator)", REG_EXTENDED), 0);
    regmatch_t m[5];
    int found = regexec(&re, f, 5, m, 0) == 0;
    if (found) {
        double a = atof(f + m[1].rm_so), b = atof(f + m[3].rm_so);
        int gpu_first = strncmp(f + m[2].rm_so, "a GPU", 5) == 0;
        *gpu = gpu_first ? a : b;
        *emu = gpu_first ? b : a;
    }
    regfree(&re);
    free(f);
    return found;
}

Test(docs_agree, each_handout_gives_the_points_a_grading_reports, .timeout = 900)
{
    const char *labs[] = {"lab2", "lab3", "lab3-wb", "dotprod", "challenge", NULL};
    int checked = 0;
    for (int i = 0; labs[i]; i++) {
        double gpu, emu;
        if (!handout_points(labs[i], &gpu, &emu))
            continue;
        double max = emulator_max(labs[i]);
        cr_expect_float_eq(emu, max, 1e-9, "labs/%s/README.md says %g on the emulator; a grading "
                           "reports %g", labs[i], emu, max);
        double perf = performance_points(labs[i]);
        cr_expect_float_eq(gpu, max + perf, 1e-9, "labs/%s/README.md says %g on a GPU; it is %g",
                           labs[i], gpu, max + perf);
        checked++;
    }
    cr_assert_geq(checked, 3, "the handouts no longer say their points");
}

Test(docs_agree, the_readme_gives_lab3s_tolerance)
{
    json_object *lab = json_object_from_file("labs/lab3/lab.json"), *cmp;
    cr_assert_not_null(lab);
    cr_assert(json_object_object_get_ex(lab, "compare", &cmp));
    double rtol = num(cmp, "rtol"), atol = num(cmp, "atol");
    json_object_put(lab);
    char *readme = read_file("README.md", NULL, NULL, 0);
    cr_assert_not_null(readme);
    char *f = flat(readme);
    free(readme);
    regex_t re;
    cr_assert_eq(regcomp(&re, "lab 3's `rtol = ([0-9.e+-]+)`, `atol = ([0-9.e+-]+)`",
                         REG_EXTENDED), 0);
    regmatch_t m[3];
    cr_assert_eq(regexec(&re, f, 3, m, 0), 0, "README.md no longer gives lab 3's tolerance");
    cr_expect_float_eq(atof(f + m[1].rm_so), rtol, 1e-12, "README's rtol is not lab.json's %g", rtol);
    cr_expect_float_eq(atof(f + m[2].rm_so), atol, 1e-12, "README's atol is not lab.json's %g", atol);
    regfree(&re);
    free(f);
}
