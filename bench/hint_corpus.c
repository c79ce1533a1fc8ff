/* hint_corpus.c - the hint-accuracy benchmark (issue 40, item 7): grades
 * every buggy program of tests/hints/LAB/NAME.cu (each with the bug it has in
 * its "expect:" line) and judges its report (hint_classify.h): right,
 * generic or wrong. Prints one line per program, the counts, and each wrong
 * one with what it named.
 *
 *     hint_corpus [--backend auto|emu|vgpu] [--jobs N] [CORPUS_DIR]
 *
 * Exit 0 when no hint is wrong, 1 when one is, 2 when a program could not be
 * graded (a grader fault, a file without "expect:"). make bench-hints prints
 * it; make test fails on a wrong hint. Runs from the repository root. */
#include "hint_classify.h"
#include "run/runner.h"
#include "util/util.h"

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_PROGRAMS 512

typedef struct {
    char lab[64], file[PATH_MAX], json[PATH_MAX], expect[256];
    char *argv[16];
} program_t;

static int by_path(const void *a, const void *b)
{
    return strcmp(((const program_t *)a)->file, ((const program_t *)b)->file);
}

/* Every DIR/LAB/NAME.cu into p (at most max); the count, -1 on an error. */
static int find_programs(const char *dir, program_t *p, int max)
{
    DIR *labs = opendir(dir);
    if (!labs) {
        fprintf(stderr, "hint_corpus: cannot open %s\n", dir);
        return -1;
    }
    int n = 0;
    for (struct dirent *l; (l = readdir(labs));) {
        char sub[PATH_MAX];
        snprintf(sub, sizeof sub, "%s/%s", dir, l->d_name);
        DIR *d = l->d_name[0] != '.' ? opendir(sub) : NULL;
        for (struct dirent *e; d && (e = readdir(d));) {
            size_t len = strlen(e->d_name);
            if (len < 4 || strcmp(e->d_name + len - 3, ".cu") != 0 || n >= max)
                continue;
            snprintf(p[n].lab, sizeof p[n].lab, "%.63s", l->d_name);
            snprintf(p[n].file, sizeof p[n].file, "%.2000s/%.255s", sub, e->d_name);
            n++;
        }
        if (d)
            closedir(d);
    }
    closedir(labs);
    qsort(p, (size_t)n, sizeof *p, by_path);
    return n;
}

int main(int argc, char **argv)
{
    const char *backend = "emu", *dir = "tests/hints";
    int jobs = 2;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--backend") == 0 && i + 1 < argc)
            backend = argv[++i];
        else if (strcmp(argv[i], "--jobs") == 0 && i + 1 < argc)
            jobs = atoi(argv[++i]);
        else if (argv[i][0] != '-')
            dir = argv[i];
        else {
            fprintf(stderr, "usage: hint_corpus [--backend auto|emu|vgpu] [--jobs N] [CORPUS_DIR]\n");
            return 2;
        }
    }
    static program_t p[MAX_PROGRAMS];
    int n = find_programs(dir, p, MAX_PROGRAMS);
    if (n <= 0) {
        fprintf(stderr, "hint_corpus: no program under %s/<lab>/\n", dir);
        return 2;
    }
    char tmp[] = "/tmp/cugrade-hint-corpus-XXXXXX";
    if (!mkdtemp(tmp))
        return 2;
    run_spec_t *specs = calloc((size_t)n, sizeof *specs);
    run_result_t *res = calloc((size_t)n, sizeof *res);
    for (int i = 0; i < n; i++) {
        char *text = read_file(p[i].file, NULL, NULL, 0);
        if (hint_expect_of(text, p[i].expect, sizeof p[i].expect) != 0) {
            fprintf(stderr, "hint_corpus: %s: no \"expect:\" line naming the bug's causes\n", p[i].file);
            return 2;
        }
        free(text);
        snprintf(p[i].json, sizeof p[i].json, "%s/%d.json", tmp, i);
        char *a[] = {"bin/cugrade", "run", "--lab", p[i].lab, "--backend", (char *)backend, "--color",
                     "never", "--json", p[i].json, p[i].file, NULL};
        memcpy(p[i].argv, a, sizeof a);
        specs[i] = (run_spec_t){.argv = p[i].argv, .timeout_s = 900, .output_cap = 1 << 16};
    }
    double t0 = now_seconds();
    run_many(specs, res, n, jobs > 0 ? jobs : 1);
    int count[3] = {0}, faults = 0;
    for (int i = 0; i < n; i++) {
        json_object *r = json_object_from_file(p[i].json);
        if (!res[i].exited || res[i].exit_code > 1 || !r) {
            printf("FAULT    %s: %s\n", p[i].file, res[i].output ? res[i].output : "(no output)");
            faults++;
            continue;
        }
        hint_judgement_t j;
        hint_classify(r, p[i].expect, &j);
        count[j.verdict]++;
        printf("%-8s %-48s named: %s%s%s\n", hint_judged_name(j.verdict), p[i].file + strlen(dir) + 1,
               j.named[0] ? j.named : "(nothing)", j.verdict == HINT_JUDGED_WRONG ? "; " : "",
               j.verdict == HINT_JUDGED_WRONG ? j.why : "");
        json_object_put(r);
        run_result_free(&res[i]);
    }
    printf("hints on %d programs (%s backend, %.0f s): %d right, %d generic, %d wrong%s\n", n, backend,
           now_seconds() - t0, count[HINT_JUDGED_RIGHT], count[HINT_JUDGED_GENERIC],
           count[HINT_JUDGED_WRONG], faults ? ", and some could not be graded" : "");
    if (count[HINT_JUDGED_WRONG]) {
        printf("wrong:\n");
        for (int i = 0; i < n; i++) {
            json_object *r = json_object_from_file(p[i].json);
            hint_judgement_t j;
            hint_classify(r, p[i].expect, &j);
            if (r && j.verdict == HINT_JUDGED_WRONG)
                printf("  %s: %s (the bug: %s)\n", p[i].file, j.why, p[i].expect);
            json_object_put(r);
        }
    }
    rm_rf(tmp);
    free(specs);
    free(res);
    return faults ? 2 : count[HINT_JUDGED_WRONG] ? 1 : 0;
}
