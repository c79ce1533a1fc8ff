/* build_rules.c - the lab's rules at each stage of a build (build_rules.h):
 * runs rules.h's check for the stage, places an object's finding in the
 * source when the source names it (objcheck_locate), and keeps the first
 * finding's message. */
#include "build/build_rules.h"
#include "build/objcheck.h"
#include "build/rules.h"
#include "util/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int build_cuobjdump_path(const char *root, char *out, size_t outlen)
{
    char nvcc[PATH_MAX];
    if (build_compiler_path(root, BACKEND_NATIVE, nvcc, sizeof nvcc) == 0) {
        path_dir(nvcc, out, outlen);
        size_t n = strlen(out);
        snprintf(out + n, outlen - n, "/cuobjdump");
        if (access(out, X_OK) == 0)
            return 0;
    }
    return find_program("cuobjdump", out, outlen);
}

/* An object's finding at the first line of the source that names it. */
static void locate(const char *src, rule_finding_t *f)
{
    if (!f->token[0] || f->file[0])
        return;
    objcheck_result_t r;
    memset(&r, 0, sizeof r);
    snprintf(r.tokens[0], sizeof r.tokens[0], "%s", f->token);
    r.partial[0] = 0;
    r.ntokens = 1;
    if (objcheck_locate(src, &r) > 0) {
        snprintf(f->file, sizeof f->file, "%s", src);
        f->line = r.line;
    }
}

/* vgpu: the object's symbols, then the PTX nvcc kept, which is what the
 * executor runs (there is no SASS to run): 0, 1 a rule is broken, -1. */
static int vgpu_object(unsigned mask, const char *obj, const char *ptx, rule_finding_t *f,
                       char *err, size_t errlen)
{
    int rc = rules_check_object(mask, obj, NULL, f, err, errlen);
    if (rc != 0)
        return rc;
    char *text = read_file(ptx, NULL, err, errlen);
    if (!text)
        return -1;
    rc = rules_scan_ptx(mask, text, f);
    free(text);
    return rc;
}

static int run_stage(const build_ctx_t *ctx, rules_stage_t stage, const char *path,
                     const char *ptx, rule_finding_t *f, char *err, size_t errlen)
{
    unsigned mask = ctx->lab->rules;
    char cuobjdump[PATH_MAX];
    switch (stage) {
    case RULES_AT_SOURCE:
        return rules_check_source(mask, path, f, err, errlen);
    case RULES_AT_OBJECT:
        if (ctx->backend == BACKEND_EMU) /* emucc's object is host code: its symbols only */
            return rules_check_object(mask, path, NULL, f, err, errlen);
        if (ctx->backend == BACKEND_VGPU)
            return vgpu_object(mask, path, ptx, f, err, errlen);
        if (build_cuobjdump_path(ctx->root, cuobjdump, sizeof cuobjdump) != 0) {
            snprintf(err, errlen, "cuobjdump (CUDA toolkit) was found neither beside nvcc nor on "
                     "PATH: the SASS of the submission cannot be checked");
            return -1;
        }
        return rules_check_object(mask, path, cuobjdump, f, err, errlen);
    default:
        return rules_check_program(mask, path, f, err, errlen);
    }
}

int build_check_rules(const build_ctx_t *ctx, rules_stage_t stage, const char *src,
                      const char *path, strbuf_t *log, build_result_t *out)
{
    if (!ctx->lab->rules || out->rule_broken[0])
        return 0;
    rule_finding_t f;
    char err[1024] = "";
    memset(&f, 0, sizeof f);
    int rc = run_stage(ctx, stage, path, out->ptx, &f, err, sizeof err);
    if (rc < 0) {
        sb_appendf(log, "cugrade: cannot check the lab's rules: %s\n", err);
        return -2;
    }
    if (rc == 1) {
        locate(src, &f);
        rule_message(&f, out->rule_broken, sizeof out->rule_broken);
    }
    return 0;
}
