/* bench_fakes.h - what the bench scripts' tests share (test_bench.c,
 * test_bench_batch.c): a scratch folder of pretend binaries (fakes_t), the
 * scripts run from the repository root with an environment added, and the
 * pretend emucc and emulator library every script checks for. */
#ifndef CUGRADE_BENCH_FAKES_H
#define CUGRADE_BENCH_FAKES_H

#include <criterion/criterion.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "run/runner.h"
#include "test_files.h"
#include "util/util.h"

typedef struct {
    char dir[64];
    char path[8][160]; /* scratch for the paths handed to the scripts */
} fakes_t;

static inline const char *in(fakes_t *f, int slot, const char *name)
{
    snprintf(f->path[slot], sizeof f->path[slot], "%s/%s", f->dir, name);
    return f->path[slot];
}

static inline fakes_t fakes(void)
{
    fakes_t f;
    memset(&f, 0, sizeof f);
    snprintf(f.dir, sizeof f.dir, "/tmp/cugrade-test-bench-XXXXXX");
    cr_assert_not_null(mkdtemp(f.dir));
    return f;
}

/* Runs SCRIPT ARGS... from the repository root with ENV added (NULL-ended). */
static inline run_result_t run_script(char *const *argv, char *const *env)
{
    run_spec_t spec = {.argv = argv, .extra_env = env, .timeout_s = 60, .output_cap = 1 << 20};
    run_result_t r;
    run_one(&spec, &r);
    return r;
}

static inline int status(const run_result_t *r) { return r->exited ? r->exit_code : -1; }

#define assert_has(r, text) cr_assert_not_null(strstr((r).output, text), "no \"%s\" in:\n%s", text, (r).output)
#define assert_lacks(r, text) cr_assert_null(strstr((r).output, text), "\"%s\" was printed:\n%s", text, (r).output)

/* Writes script (and frees it) as the executable f->dir/name in slot; its path. */
static inline const char *install_fake(fakes_t *f, int slot, const char *name, strbuf_t *script)
{
    const char *path = in(f, slot, name);
    write_text(path, sb_str(script), 1);
    sb_free(script);
    return path;
}

/* emucc: every -o gets a copy of PROGRAM_TEXT (a shell script) as its output. */
static inline const char *fake_emucc(fakes_t *f, const char *program_text)
{
    write_text(in(f, 7, "program"), program_text, 1);
    strbuf_t sb = {0};
    sb_appendf(&sb,
               "#!/bin/sh\n"
               "while [ $# -gt 0 ]; do\n"
               "  [ \"$1\" = -o ] && { cp %s \"$2\"; chmod +x \"$2\"; }\n"
               "  shift\n"
               "done\n",
               f->path[7]);
    return install_fake(f, 1, "emucc", &sb);
}

static inline const char *fake_lib(fakes_t *f)
{
    const char *path = in(f, 2, "libcugrade_emu.a");
    write_text(path, "!<arch>\n", 0);
    return path;
}

/* Runs `SCRIPT N` with these binaries (and no BENCH_KEEP). */
static inline run_result_t run_bench_with(const char *script, const char *n, const char *cugrade,
                                   const char *emucc, const char *lib)
{
    char e[3][200];
    snprintf(e[0], sizeof e[0], "CUGRADE_BIN=%s", cugrade);
    snprintf(e[1], sizeof e[1], "EMUCC_BIN=%s", emucc);
    snprintf(e[2], sizeof e[2], "CUGRADE_EMU_LIB=%s", lib);
    char *env[] = {e[0], e[1], e[2], "BENCH_KEEP=", NULL};
    char *argv[] = {(char *)script, (char *)n, NULL};
    return run_script(argv, env);
}

/* The start of a pretend `cugrade batch`: its options read into $out,
 * $resume (0 or 1) and $subs (the submissions folder), and $n, how many
 * submissions that folder holds. */
#define FAKE_BATCH_ARGS \
    "out= resume=0 subs=\n" \
    "while [ $# -gt 0 ]; do\n" \
    "  case $1 in\n" \
    "  --out) out=$2; shift ;;\n" \
    "  --resume) resume=1 ;;\n" \
    "  --lab|--backend|--rubric) shift ;;\n" \
    "  *) subs=$1 ;;\n" \
    "  esac\n" \
    "  shift\n" \
    "done\n" \
    "n=$(ls \"$subs\" | wc -l)\n"

#endif
