/* build_rules.h - the lab's rules (rules.h) at each stage of building a
 * submission (build.c): its source before anything is compiled, its object
 * before it is linked (on the gpu backend with cuobjdump, found beside
 * nvcc), the linked program. The first finding becomes the build's
 * rule_broken message; the build goes on whatever it says. */
#ifndef CUGRADE_BUILD_RULES_H
#define CUGRADE_BUILD_RULES_H

#include "build/build_ctx.h"
#include "util/util.h"

typedef enum { RULES_AT_SOURCE, RULES_AT_OBJECT, RULES_AT_PROGRAM } rules_stage_t;

/* Checks ctx->lab's rules on path (the student's source src, its object,
 * or the program) unless one is already broken. 0 (out->rule_broken set
 * when a rule is broken), or -2 when the check could not run: a grader
 * fault, said in log. */
int build_check_rules(const build_ctx_t *ctx, rules_stage_t stage, const char *src,
                      const char *path, strbuf_t *log, build_result_t *out);

/* The cuobjdump of the gpu backend's toolkit (beside nvcc, else on PATH):
 * 0 and its path, or -1. */
int build_cuobjdump_path(const char *root, char *out, size_t outlen);

#endif
