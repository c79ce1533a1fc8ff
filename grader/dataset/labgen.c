/* labgen.c - build and run an array lab's generator (labgen.h). */
#include "dataset/labgen.h"
#include "run/runner.h"
#include "util/cugrade.h"
#include "util/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define LABGEN_TIME_LIMIT_S 300

static double mtime_of(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? (double)st.st_mtim.tv_sec + st.st_mtim.tv_nsec * 1e-9 : -1;
}

/* The generator built (or already built and newer than its sources) at
 * program: 0, or -1 with err and the compiler's words. */
static int built(const lab_t *lab, char *program, size_t len, char *err, size_t errlen)
{
    const char *root = cugrade_root();
    char src[PATH_MAX], frame[PATH_MAX], dir[PATH_MAX], tmp[PATH_MAX + 32], inc[PATH_MAX + 8], cc[PATH_MAX];
    snprintf(src, sizeof src, "%.4000s/gen.c", lab->dir);
    snprintf(frame, sizeof frame, "%.4000s/labs/common/gen_lab.h", root);
    snprintf(dir, sizeof dir, "%.3000s/build/labs/%.100s", root, lab->name);
    snprintf(program, len, "%.3000s/gen", dir);
    if (mtime_of(src) < 0)
        return fail(err, errlen, "%s: missing (an array lab's generator and validator)", src);
    double made = mtime_of(program);
    if (made >= mtime_of(src) && made >= mtime_of(frame))
        return 0;
    if (mkdir_p(dir, err, errlen) != 0)
        return -1;
    snprintf(tmp, sizeof tmp, "%s.%d", program, (int)getpid());
    snprintf(inc, sizeof inc, "-I%.4000s/labs/common", root);
    const char *env_cc = getenv("CC");
    if (find_program(env_cc && *env_cc ? env_cc : "cc", cc, sizeof cc) != 0)
        return fail(err, errlen, "no C compiler (cc) to build %s", src);
    char *argv[] = {cc, "-std=c11", "-O2", "-Wall", inc, src, "-o", tmp, "-lm", NULL};
    run_spec_t spec = {.argv = argv, .timeout_s = 120};
    run_result_t rr;
    run_one(&spec, &rr);
    int ok = rr.exited && rr.exit_code == 0 && rename(tmp, program) == 0;
    if (!ok)
        fail(err, errlen, "%s does not build:\n%.1500s", src, rr.output ? rr.output : "");
    unlink(tmp);
    run_result_free(&rr);
    return ok ? 0 : -1;
}

/* Runs the generator with args; its standard output into out (when not NULL). */
static int run_gen(const lab_t *lab, char **args, strbuf_t *out, char *err, size_t errlen)
{
    char program[PATH_MAX];
    if (built(lab, program, sizeof program, err, errlen) != 0)
        return -1;
    char *argv[16] = {program};
    int n = 1;
    for (int i = 0; args[i] && n < 15; i++)
        argv[n++] = args[i];
    argv[n] = NULL;
    run_spec_t spec = {.argv = argv, .timeout_s = LABGEN_TIME_LIMIT_S};
    run_result_t rr;
    run_one(&spec, &rr);
    int ok = rr.exited && rr.exit_code == 0;
    if (ok && out)
        sb_append(out, rr.output ? rr.output : "");
    if (!ok)
        fail(err, errlen, "%s/gen.c: %s%.1500s", lab->dir, rr.timed_out ? "ran past its time limit: " : "",
             rr.output && *rr.output ? rr.output : "failed, saying nothing");
    run_result_free(&rr);
    return ok ? 0 : -1;
}

int labgen_make(const lab_t *lab, const char *shape, uint64_t seed, value_kind_t values, const char *dir,
                char *err, size_t errlen)
{
    char seed_text[32];
    snprintf(seed_text, sizeof seed_text, "%llu", (unsigned long long)seed);
    if (mkdir_p(dir, err, errlen) != 0)
        return -1;
    char *args[] = {"--shape", (char *)shape, "--seed", seed_text, "--values",
                    values == VALUES_SIGNED ? "signed" : "course", "--out", (char *)dir, NULL};
    return run_gen(lab, args, NULL, err, errlen);
}

int labgen_check(const lab_t *lab, const char *dir, char *err, size_t errlen)
{
    char *args[] = {"--check", (char *)dir, NULL};
    return run_gen(lab, args, NULL, err, errlen);
}

int labgen_hidden_shape(const lab_t *lab, int family, uint64_t seed, char *shape, size_t len, char *err,
                        size_t errlen)
{
    char fam[16], seed_text[32];
    snprintf(fam, sizeof fam, "%d", family);
    snprintf(seed_text, sizeof seed_text, "%llu", (unsigned long long)seed);
    char *args[] = {"--hidden", fam, "--seed", seed_text, NULL};
    strbuf_t out = {0};
    int rc = run_gen(lab, args, &out, err, errlen);
    const char *text = sb_str(&out);
    size_t n = strcspn(text, "\n");
    if (rc == 0 && (n == 0 || n >= len))
        rc = fail(err, errlen, "%s/gen.c --hidden %d printed no shape", lab->dir, family);
    if (rc == 0)
        snprintf(shape, len, "%.*s", (int)n, text);
    sb_free(&out);
    return rc;
}

int labgen_explain(const lab_t *lab, const char *dir, const char *output, char *hint, size_t len)
{
    char *args[] = {"--explain", (char *)dir, (char *)output, NULL}, err[256];
    strbuf_t out = {0};
    int named = run_gen(lab, args, &out, err, sizeof err) == 0 && strchr(sb_str(&out), ':');
    if (named)
        snprintf(hint, len, "%.*s", (int)strcspn(sb_str(&out), "\n"), sb_str(&out));
    sb_free(&out);
    return named;
}
